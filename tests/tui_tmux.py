"""Driving a program in a real terminal with tmux, for the tests of plain mode and of the ways
the full-screen game ends (this module holds no tests of its own).

Each :class:`Terminal` runs on a tmux server of its own (``tmux -L``), so the tests never touch
another tmux session on the machine, and stops it when done.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

TMUX = shutil.which("tmux")
ROOT = Path(__file__).resolve().parent.parent


class Terminal:
    """A program in a tmux pane of ``width`` × ``height`` cells."""

    _count = 0

    def __init__(self, argv: list[str], home: Path, *, width: int = 100, height: int = 40,
                 lang: str = "C.UTF-8") -> None:
        assert TMUX is not None
        Terminal._count += 1
        self.socket = f"unoarena-test-{os.getpid()}-{Terminal._count}"
        self.home = home
        env = {"UNOARENA_HOME": str(home), "LANG": lang, "LC_ALL": lang,
               "PYTHONPATH": os.pathsep.join([*filter(None, [os.environ.get("PYTHONPATH")]),
                                              str(ROOT / "src"), str(ROOT / "tests")]),
               "TERM": "xterm-256color", "PATH": os.environ.get("PATH", "")}
        setenv = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        command = f"env -i {setenv} {shlex.join(argv)}; echo EXIT=$?; sleep 60"
        self._tmux("new-session", "-d", "-x", str(width), "-y", str(height), command)
        self._tmux("set-option", "-g", "history-limit", "20000")

    def _tmux(self, *args: str) -> str:
        assert TMUX is not None
        done = subprocess.run([TMUX, "-L", self.socket, *args], capture_output=True, text=True,
                              timeout=30, check=False)
        return done.stdout

    def text(self) -> str:
        """Everything the pane shows, its scrolled-off history included (the blank rows under
        the last line left out, so that a position in it stays put as output comes)."""
        return self._tmux("capture-pane", "-p", "-J", "-S", "-20000").rstrip()

    def wait_for(self, pattern: str, timeout: float = 30.0, after: int = 0) -> str:
        """Wait until ``pattern`` (a regular expression) shows after position ``after`` of
        :meth:`text`; the whole text then."""
        end = time.monotonic() + timeout
        text = ""
        while time.monotonic() < end:
            text = self.text()
            if re.search(pattern, text[after:], re.MULTILINE):
                return text
            time.sleep(0.1)
        raise AssertionError(f"{pattern!r} never showed; the terminal shows:\n{text[-3000:]}")

    def type(self, line: str) -> None:
        """Type a line and press Enter."""
        if line:
            self._tmux("send-keys", "-l", line)
        self._tmux("send-keys", "Enter")

    def keys(self, *keys: str) -> None:
        """Press keys by tmux's names (``C-q``, ``Escape``, ``7``)."""
        self._tmux("send-keys", *keys)

    def pid(self) -> int:
        """The process id of the program in the pane (the child of the pane's shell)."""
        shell = int(self._tmux("display-message", "-p", "#{pane_pid}").strip())
        children = Path(f"/proc/{shell}/task/{shell}/children").read_text().split()
        return int(children[0])

    def close(self) -> None:
        """Stop this terminal's tmux server (the program gets SIGHUP)."""
        self._tmux("kill-server")


def python(*args: str) -> list[str]:
    """A command line running this Python."""
    return [sys.executable, *args]
