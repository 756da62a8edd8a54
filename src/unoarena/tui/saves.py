"""Saved matches and finished-game records, under the user's data folder.

The folder is ``$UNOARENA_HOME`` when set, else ``$XDG_DATA_HOME/unoarena``, else
``~/.local/share/unoarena``. ``saves/`` holds matches to resume (the engine's match record plus
who sits where); ``records/`` holds every finished match as a plain match record, which
``unoarena replay FILE`` shows. Records are JSON, so they outlive this program's versions.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..datadir import home
from ..engine import RecordError, match_record
from ..engine.errors import excerpt
from ..engine.record import SEED_RANGE, read_json
from ..text.i18n import _
from .session import BOT, HUMAN, MAX_NAME, Table, Timing

SAVE_FORMAT = "unoarena.save"
SAVE_VERSION = 1
AUTOSAVE = "autosave.json"


def saves_dir() -> Path:
    """Where matches to resume are saved (not created here)."""
    return home() / "saves"


def records_dir() -> Path:
    """Where the records of finished matches are written (not created here)."""
    return home() / "records"


def _stamp() -> str:
    return time.strftime("%Y%m%d-%H%M%S")


def _write(path: Path, data: Mapping[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    tmp.replace(path)
    return path


def save_table(table: Table, path: Path | None = None) -> Path:
    """Save a match to resume later; returns the file written. Without ``path``, the match's own
    save file: the one it was resumed from or first saved to, so that saving again overwrites it
    instead of adding a file each time."""
    data = {"format": SAVE_FORMAT, "version": SAVE_VERSION,
            "saved": time.strftime("%Y-%m-%dT%H:%M:%S"), **table.to_dict()}
    if path is None:
        if table.save_path is None:
            table.save_path = _free(saves_dir(), f"{_stamp()}-{table.rules.preset}")
        path = table.save_path
    return _write(path, data)


def autosave(table: Table) -> Path:
    """Save the match to the one autosave file, overwriting the last one: what quitting mid-match
    does."""
    return save_table(table, saves_dir() / AUTOSAVE)


def forget_match(table: Table) -> list[Path]:
    """Remove the saves of a match that is over (its own save file, and the autosave when it
    holds this match), so that ``--resume`` never reopens a finished match; the record stays in
    ``records/``. Returns the files removed."""
    removed = []
    for path in list_saves():
        try:
            if path.stat().st_size > MAX_SAVE_BYTES:
                continue
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            continue  # not a save this program wrote: left alone
        if isinstance(data, dict) and data.get("id") == table.match_id:
            with contextlib.suppress(OSError):
                path.unlink()
                removed.append(path)
    table.save_path = None
    return removed


def list_saves() -> list[Path]:
    """Saved matches, newest first."""
    d = saves_dir()
    if not d.is_dir():
        return []
    return sorted(d.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)


def latest_save() -> Path | None:
    """The most recently written save, or None when there is none."""
    saves = list_saves()
    return saves[0] if saves else None


#: The largest save file read; a long match is a few hundred kilobytes.
MAX_SAVE_BYTES = 16 * 1024 * 1024

_MAX_BOT = 200


def load_table(path: Path, timing: Timing | None = None) -> Table:
    """A saved match, ready to go on. ``ValueError`` says what is wrong with the file, naming
    the field; nothing in the file can make it raise anything else."""
    try:
        if Path(path).stat().st_size > MAX_SAVE_BYTES:
            raise ValueError(_("{path} cannot be read as a save: {error}").format(
                path=path, error=f"larger than {MAX_SAVE_BYTES} bytes"))
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(_("cannot read {path}: {error}").format(path=path, error=e)) from None
    try:
        data = read_json(text)
    except RecordError as e:
        raise ValueError(_("{path} cannot be read as a save: {error}").format(
            path=path, error=e)) from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise ValueError(_("{path} is not a saved unoarena match").format(path=path))
    version = data.get("version")
    if type(version) is not int or version != SAVE_VERSION:
        raise ValueError(_("{path} was saved in format version {v}; this program reads "
                           "version {ours}").format(path=path, v=excerpt(version),
                                                    ours=SAVE_VERSION))
    problem = _check_save(data)
    if problem:
        field, what = problem
        raise ValueError(_("{path} has a bad value in {field}: {problem}").format(
            path=path, field=field, problem=what))
    try:
        table = Table.from_dict(data, timing)
    except (RecordError, ValueError, KeyError, TypeError, RecursionError) as e:
        raise ValueError(_("{path} does not replay: {error}").format(path=path,
                                                                     error=e)) from None
    if Path(path).name != AUTOSAVE:  # saving again overwrites the file it was resumed from
        table.save_path = Path(path)
    return table


def _check_save(data: dict[str, Any]) -> tuple[str, str] | None:
    """The first field of a save that cannot be, with what is wrong with it; None if all
    are well formed (the match record itself is checked as it replays)."""
    players = data.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 10:
        return "players", f"expected a list of 2 to 10 players, got {excerpt(players)}"
    for i, p in enumerate(players):
        where = f"players[{i}]"
        if not isinstance(p, dict):
            return where, f"expected an object with name, kind and bot, got {excerpt(p)}"
        extra = [k for k in p if k not in ("name", "kind", "bot")]
        if extra:
            return f"{where}.{excerpt(extra[0], 40)}", "unknown field (allowed: name, kind, bot)"
        name, kind, bot = p.get("name", ""), p.get("kind", HUMAN), p.get("bot", "")
        if not isinstance(name, str) or len(name) > MAX_NAME:
            return f"{where}.name", f"expected text of at most {MAX_NAME} characters, got " \
                                    f"{excerpt(name)}"
        if kind not in (HUMAN, BOT):
            return f"{where}.kind", f"expected {HUMAN} or {BOT}, got {excerpt(kind)}"
        if not isinstance(bot, str) or len(bot) > _MAX_BOT:
            return f"{where}.bot", f"expected a bot spec (text), got {excerpt(bot)}"
    match_id = data.get("id", "")
    if not isinstance(match_id, str) or len(match_id) > MAX_NAME:
        return "id", f"expected a match id (text), got {excerpt(match_id)}"
    seed = data.get("seed", 0)
    if type(seed) is not int or not SEED_RANGE[0] <= seed <= SEED_RANGE[1]:
        return "seed", f"expected a 64-bit whole number, got {excerpt(seed)}"
    if not isinstance(data.get("match"), dict):
        return "match", f"expected a match record (an object), got {excerpt(data.get('match'))}"
    return None


def save_for_quit(table: Table) -> str:
    """Save an unfinished match to the autosave file; where it went ("" when the match is over
    or the file cannot be written). A round that is over but not yet scored (its summary on
    screen) is scored first, as going on from the summary would: a match record holds whole
    rounds, and one saved in between would not replay."""
    if table.game.is_over and not table.match.is_over:
        table.finish_round()
        if table.match.is_over:  # that round ended the match: its record, no save
            with contextlib.suppress(OSError):
                close_match(table)
    if table.match.is_over:
        return ""
    try:
        return str(autosave(table))
    except OSError:
        return ""


def close_match(table: Table) -> Path:
    """Keep the record of a match that is over and forget its saves (:func:`forget_match`),
    even when the record cannot be written (the :class:`OSError` comes after)."""
    try:
        return save_record(table)
    finally:
        forget_match(table)


def save_record(table: Table) -> Path:
    """The finished match as a record for ``unoarena replay``."""
    rec = match_record(table.match, players=[p.to_dict() for p in table.players],
                       finished=time.strftime("%Y-%m-%dT%H:%M:%S"))
    return _write(_free(records_dir(), f"{_stamp()}-{table.rules.preset}"), rec)


def _free(folder: Path, stem: str) -> Path:
    """``folder/stem.json``, or ``stem-2.json``, ``stem-3.json``... the first not taken."""
    path = folder / f"{stem}.json"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{n}.json"
    return path
