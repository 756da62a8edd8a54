"""Reading a record file a person names (``unoarena replay``, ``unoarena review``): its size,
its JSON, its format and that it replays, each refused with one line in the language in force.
Also the error every command raises for a mistake in how it was used."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .engine import IllegalAction, RecordError, RuleSet, replay_game, replay_match
from .engine.errors import excerpt
from .engine.record import MAX_RECORD_CHARS, read_json
from .text.i18n import _


class UsageError(Exception):
    """A mistake on the command line or in an input file: message to stderr, exit 2."""


def load_record(file: str) -> tuple[dict[str, Any], RuleSet]:
    """Read and fully check a record, so that a bad one fails before anything is shown."""
    try:
        if Path(file).stat().st_size > MAX_RECORD_CHARS:
            raise UsageError(_("{file} is not a record: {reason}").format(
                file=file, reason=f"larger than {MAX_RECORD_CHARS} bytes"))
        text = Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else e
        raise UsageError(_("cannot read {file}: {reason}").format(
            file=file, reason=reason)) from None
    try:
        rec = read_json(text)
    except RecordError as e:
        raise UsageError(_("{file} is not a record: {reason}").format(
            file=file, reason=e)) from None
    formats = ("unoarena.game", "unoarena.match")
    if not isinstance(rec, dict) or rec.get("format") not in formats:
        found = rec.get("format") if isinstance(rec, dict) else type(rec).__name__
        if not isinstance(found, (str, type(None))) or (isinstance(found, str)
                                                         and len(found) > 60):
            found = excerpt(found, 60)
        raise UsageError(_("{file} is not a unoarena record: its format is {found!r}, expected "
                           "one of {formats}").format(file=file, found=found,
                                                      formats=", ".join(formats)))
    try:
        if rec["format"] == "unoarena.game":
            rules = replay_game(rec).rules
        else:
            rules = replay_match(rec).rules
    except (RecordError, IllegalAction, ValueError, TypeError, KeyError, IndexError,
            RecursionError) as e:
        raise UsageError(_("{file} does not replay: {reason}").format(file=file,
                                                                     reason=e)) from None
    return rec, rules
