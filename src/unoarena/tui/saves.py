"""Saved matches and finished-game records, under the user's data folder.

The folder is ``$UNOARENA_HOME`` when set, else ``$XDG_DATA_HOME/unoarena``, else
``~/.local/share/unoarena``. ``saves/`` holds matches to resume (the engine's match record plus
who sits where); ``records/`` holds every finished match as a plain match record, which
``unoarena replay FILE`` shows. Records are JSON, so they outlive this program's versions.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from ..engine import RecordError, match_record
from ..i18n import _
from .session import Table, Timing

SAVE_FORMAT = "unoarena.save"
SAVE_VERSION = 1
AUTOSAVE = "autosave.json"


def home() -> Path:
    """The data folder (not created here)."""
    env = os.environ.get("UNOARENA_HOME")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "unoarena"


def saves_dir() -> Path:
    return home() / "saves"


def records_dir() -> Path:
    return home() / "records"


def _stamp() -> str:
    return time.strftime("%Y%m%d-%H%M%S")


def _write(path: Path, data: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    tmp.replace(path)
    return path


def save_table(table: Table, path: Path | None = None) -> Path:
    """Save a match to resume later; returns the file written."""
    data = {"format": SAVE_FORMAT, "version": SAVE_VERSION,
            "saved": time.strftime("%Y-%m-%dT%H:%M:%S"), **table.to_dict()}
    if path is None:
        path = saves_dir() / f"{_stamp()}-{table.rules.preset}.json"
    return _write(path, data)


def autosave(table: Table) -> Path:
    return save_table(table, saves_dir() / AUTOSAVE)


def list_saves() -> list[Path]:
    """Saved matches, newest first."""
    d = saves_dir()
    if not d.is_dir():
        return []
    return sorted(d.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)


def latest_save() -> Path | None:
    saves = list_saves()
    return saves[0] if saves else None


def load_table(path: Path, timing: Timing | None = None) -> Table:
    """A saved match, ready to go on. ``ValueError`` says what is wrong with the file."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise ValueError(_("cannot read {path}: {error}").format(path=path, error=e)) from None
    except json.JSONDecodeError as e:
        raise ValueError(_("{path} is not JSON: {error}").format(path=path, error=e)) from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise ValueError(_("{path} is not a saved unoarena match").format(path=path))
    if data.get("version") != SAVE_VERSION:
        raise ValueError(_("{path} was saved in format version {v}; this program reads "
                           "version {ours}").format(path=path, v=data.get("version"),
                                                    ours=SAVE_VERSION))
    try:
        return Table.from_dict(data, timing)
    except (RecordError, KeyError, TypeError) as e:
        raise ValueError(_("{path} does not replay: {error}").format(path=path,
                                                                     error=e)) from None


def save_record(table: Table) -> Path:
    """The finished match as a record for ``unoarena replay``."""
    rec = match_record(table.match, players=[p.to_dict() for p in table.players],
                       finished=time.strftime("%Y-%m-%dT%H:%M:%S"))
    path = records_dir() / f"{_stamp()}-{table.rules.preset}.json"
    n = 1
    while path.exists():
        n += 1
        path = records_dir() / f"{_stamp()}-{table.rules.preset}-{n}.json"
    return _write(path, rec)
