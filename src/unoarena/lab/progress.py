"""A progress bar on one terminal line, for runs that take a while.

It draws only when its stream is a terminal, so piped or captured output (``--json | jq``, CI
logs) stays clean; and at most ten times a second, so that it costs nothing next to the games.
"""

from __future__ import annotations

import shutil
import time
from typing import TextIO


class ProgressBar:
    """``label [#######.......]  45%  900/2000 rounds · 350/s · 3 s left``; call with
    ``(done, total)``, then :meth:`close`."""

    def __init__(self, stream: TextIO, label: str, unit: str,
                 enabled: bool | None = None) -> None:
        self.stream = stream
        self.label = label
        self.unit = unit
        self.enabled = stream.isatty() if enabled is None else enabled
        self.start = time.monotonic()
        self.last = 0.0
        self.drawn = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if done < total and now - self.last < 0.1:
            return
        self.last = now
        self.stream.write("\r" + self.line(done, total, now - self.start) + "\033[K")
        self.stream.flush()
        self.drawn = True

    def line(self, done: int, total: int, elapsed: float) -> str:
        frac = done / total if total else 1.0
        rate = done / elapsed if elapsed > 0 else 0.0
        tail = f" {frac:4.0%}  {done}/{total} {self.unit}"
        if rate > 0:
            tail += f" · {rate:,.0f}/s"
            if done < total:
                tail += f" · {_duration((total - done) / rate)} left"
        cols = shutil.get_terminal_size((80, 24)).columns
        width = max(10, min(40, cols - len(self.label) - len(tail) - 4))
        fill = int(frac * width)
        return f"{self.label} [{'#' * fill}{'.' * (width - fill)}]{tail}"

    def close(self) -> None:
        """Erase the bar, so the results print on a clean line."""
        if self.drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.drawn = False


def _duration(seconds: float) -> str:
    s = int(seconds + 0.5)
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"
