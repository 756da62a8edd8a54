"""Which lessons a player has done, remembered in the user's data folder.

``lessons.json`` sits beside ``saves/`` and ``records/`` (:func:`unoarena.datadir.home`), so
one folder holds everything the program keeps for a person. A missing or unreadable file is no
progress (a broken file must never stop someone from learning); it is rewritten whole, through
a temporary file, at each lesson done.
"""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path

from ..datadir import home

PROGRESS_FORMAT = "unoarena.lessons"


def progress_path() -> Path:
    """The progress file (not created here)."""
    return home() / "lessons.json"


def done_lessons(path: Path | None = None) -> dict[str, str]:
    """Lesson id -> when it was first done (UTC, ISO 8601); empty when nothing is remembered."""
    p = path or progress_path()
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    done = data.get("done") if isinstance(data, dict) else None
    if not isinstance(done, dict):
        return {}
    return {str(k): str(v) for k, v in done.items() if isinstance(k, str)}


def mark_done(lesson_id: str, path: Path | None = None) -> dict[str, str]:
    """Remember that ``lesson_id`` was done (the first time counts); returns all done."""
    p = path or progress_path()
    done = done_lessons(p)
    done.setdefault(lesson_id, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_suffix(".json.tmp")
    tmp.write_text(json.dumps({"format": PROGRESS_FORMAT, "done": done}, indent=1),
                   encoding="utf-8")
    tmp.replace(p)
    return done


def forget(path: Path | None = None) -> None:
    """Forget every lesson done (start the course again)."""
    with contextlib.suppress(FileNotFoundError):
        (path or progress_path()).unlink()
