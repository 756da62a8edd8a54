"""Where unoarena keeps a person's files: saved matches, records, lesson progress, the
browser server's default database: ``$UNOARENA_HOME``, else ``$XDG_DATA_HOME/unoarena``, else
``~/.local/share/unoarena``."""

from __future__ import annotations

import os
from pathlib import Path


def home() -> Path:
    """The data folder (not created here)."""
    env = os.environ.get("UNOARENA_HOME")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "unoarena"
