"""A progress bar on one terminal line, for runs that take a while, drawn with ``rich.progress``.

It draws only when its stream is a terminal, so piped or captured output (``--json | jq``, CI
logs) stays clean; and at most ten times a second, so that it costs nothing next to the games.
Rich lays out the line (bar, share, count, rate, time left) and estimates the rate over the
last seconds; the line is redrawn in place with a carriage return rather than through Rich's
live display, which would take over stdout and stderr while workers run.
"""

from __future__ import annotations

import time
from typing import TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text


class _Rate(ProgressColumn):
    """Items a second, once there is a rate to show."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.0f}/s" if speed else "", style="progress.data.speed")


class ProgressBar:
    """``label [━━━━━━━━━━━━       ]  45% 900/2000 rounds 350/s 0:03``; call with
    ``(done, total)``, then :meth:`close`."""

    def __init__(self, stream: TextIO, label: str, unit: str,
                 enabled: bool | None = None) -> None:
        self.stream = stream
        self.enabled = stream.isatty() if enabled is None else enabled
        self.console = Console(file=stream, force_terminal=self.enabled, highlight=False)
        self.progress = Progress(
            TextColumn("{task.description} ["), BarColumn(bar_width=30), TextColumn("]"),
            TaskProgressColumn(), TextColumn("{task.completed}/{task.total} {task.fields[unit]}"),
            _Rate(), TimeRemainingColumn(compact=True),
            console=self.console, auto_refresh=False, disable=not self.enabled)
        self.task = self.progress.add_task(label, total=None, unit=unit)
        self.last = 0.0
        self.drawn = False

    @property
    def label(self) -> str:
        """The text before the bar; a long job (training) rewrites it as it learns more."""
        return str(self.progress.tasks[0].description)

    @label.setter
    def label(self, text: str) -> None:
        self.progress.update(self.task, description=text)

    def __call__(self, done: int, total: int) -> None:
        """Report ``done`` of ``total``; on a terminal only, redrawn at most ten times
        a second and always at the end."""
        if not self.enabled:
            return
        self.progress.update(self.task, completed=done, total=total)
        now = time.monotonic()
        if done < total and now - self.last < 0.1:
            return
        self.last = now
        self.stream.write("\r" + self.line() + "\033[K")
        self.stream.flush()
        self.drawn = True

    def line(self) -> str:
        """The bar as it stands, styled for the terminal, on one line."""
        with self.console.capture() as captured:
            self.console.print(self.progress.make_tasks_table(self.progress.tasks), end="",
                               no_wrap=True, overflow="crop")
        return captured.get().rstrip("\n")

    def close(self) -> None:
        """Erase the bar, so the results print on a clean line."""
        if self.drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.drawn = False
