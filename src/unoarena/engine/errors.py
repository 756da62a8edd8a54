"""The engine's two kinds of error: a bad rule set, and a rejected action (RULES DIG-4)."""

from __future__ import annotations

import difflib
import reprlib
from collections.abc import Iterable

#: At most this many characters of a bad value are shown in an error message.
EXCERPT_CHARS = 80
_REPR = reprlib.Repr()
_REPR.maxlevel = 3
_REPR.maxtuple = _REPR.maxlist = _REPR.maxset = _REPR.maxfrozenset = _REPR.maxdeque = 6
_REPR.maxdict = 4
_REPR.maxstring = _REPR.maxother = EXCERPT_CHARS
_REPR.maxlong = 40

#: The stable error codes of RULES DIG-4, each with what it means.
ERROR_CODES: dict[str, str] = {
    "not_your_turn": "the seat may not act now: not its turn and no window open to it",
    "no_window": "a catch, challenge or jump-in with no such window open",
    "card_not_in_hand": "a card the seat does not hold (or not as many copies)",
    "does_not_match": "the card may not be played on the current top and colour, or under a lock",
    "must_name_color": "a wild without a colour, or a colour that is not in this edition",
    "w4_not_allowed": "a W4 while holding a card of the active colour, where bluffing is off",
    "must_answer_penalty": "while a penalty is pending, a card that may not answer it",
    "only_drawn_card": "after drawing, a card other than the drawn one",
    "last_card_must_be_number": "the last card is not a number card under number finish",
    "last_card_is_wild": "the last card is a wild under HR-WILDFIN",
    "bad_target": "a missing, own or non-existent target seat",
    "not_in_rules": "an action the rule set does not have",
    "bad_action": "an action that cannot be parsed",
    "round_over": "any action after the round ended",
}


def excerpt(value: object, limit: int = EXCERPT_CHARS) -> str:
    """A bounded ``repr`` of a value for error messages: however big or deep the value (a
    YAML alias bomb, a 10,000-digit number), the message stays short and cheap to build."""
    if isinstance(value, int) and value.bit_length() > 128:
        return f"<an integer of {value.bit_length()} bits>"
    try:
        text = _REPR.repr(value)
    except (ValueError, RecursionError):  # int too long to convert, self-nesting
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit - 3] + "..."


def suggest(value: object, choices: Iterable[object]) -> str | None:
    """The choice closest to a mistyped name (``jumpin`` -> ``jump_in``), or None when none is
    close: the one way every command and page says "did you mean"."""
    if not isinstance(value, str) or len(value) > EXCERPT_CHARS:
        return None
    names = [c for c in choices if isinstance(c, str)]
    typed = value.strip().lower().replace("-", "_")
    by_key = {n.lower().replace("-", "_"): n for n in names}
    match = difflib.get_close_matches(typed, list(by_key), n=1, cutoff=0.6)
    return by_key[match[0]] if match and by_key[match[0]] != value else None


class IllegalAction(Exception):
    """A rejected action. The game is exactly as it was before the attempt."""

    def __init__(self, code: str, message: str) -> None:
        assert code in ERROR_CODES, code
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class ConfigError(ValueError):
    """A rule set that cannot be: names the key(s), the value and what is allowed."""

    def __init__(self, key: str | Iterable[str], value: object, allowed: object) -> None:
        self.keys = (key,) if isinstance(key, str) else tuple(key)
        self.value = value
        self.allowed = allowed
        if isinstance(allowed, (list, tuple)):
            allowed_text = ", ".join(str(a) for a in allowed)
        else:
            allowed_text = str(allowed)
        #: the allowed name closest to a mistyped one (see :func:`suggest`)
        self.suggestion = suggest(value, allowed) if isinstance(allowed, (list, tuple)) else None
        hint = f" (did you mean {self.suggestion}?)" if self.suggestion else ""
        if self.keys == ("key",):
            msg = f"unknown rule key {excerpt(value)}{hint}: the keys are {allowed_text}"
        elif len(self.keys) == 1:
            msg = f"bad value {excerpt(value)} for {self.keys[0]}{hint}: allowed {allowed_text}"
        else:
            msg = f"{' + '.join(self.keys)} cannot be combined: {allowed_text}"
        super().__init__(msg)
