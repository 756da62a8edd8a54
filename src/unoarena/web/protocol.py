"""The messages clients may send, checked before anything else looks at them.

Every message is a JSON object with a ``type`` and exactly the fields that type takes, each of
the right kind and size. Anything else is refused with an error naming what was wrong, and
refused messages change nothing. Errors carry a stable ``code`` and an English message (a
catalogue msgid, translated where it is sent) with its ``params``.
"""

from __future__ import annotations

import time
import unicodedata
from dataclasses import dataclass, field
from typing import Any

import orjson

from .catalog import T_

MAX_MESSAGE_BYTES = 4096
MAX_ACTION_CHARS = 200
TOKEN_CHARS = 64
NAME_CHARS = 24


class ProtocolError(Exception):
    """A refused message or request: ``code``, a msgid ``message`` and its ``params``."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message.format(**params) if params else message)
        self.code = code
        self.message = message
        self.params = params


@dataclass(frozen=True)
class Field:
    kind: type
    required: bool = True
    max_len: int = 0  # strings
    lo: int = 0  # integers
    hi: int = 1 << 30
    choices: tuple[str, ...] = ()


_TOKEN = Field(str, max_len=TOKEN_CHARS)

SCHEMAS: dict[str, dict[str, Field]] = {
    "hello": {"token": Field(str, required=False, max_len=TOKEN_CHARS),
              "lang": Field(str, required=False, max_len=16)},
    "act": {"action": Field(str, max_len=MAX_ACTION_CHARS), "token": _TOKEN,
            "seq": Field(int, required=False)},
    "start": {"token": _TOKEN},
    "again": {"token": _TOKEN},
    "remove": {"token": _TOKEN, "player": Field(int, hi=63)},
    "seat": {"token": _TOKEN, "player": Field(int, hi=63),
             "kind": Field(str, choices=("open", "bot")),
             "bot": Field(str, required=False, max_len=64)},
    "lang": {"lang": Field(str, max_len=16)},
    "log": {},
    "ping": {"t": Field(int, required=False, lo=-(1 << 53), hi=1 << 53)},
}


def parse_message(raw: str | bytes) -> dict[str, Any]:
    """Decode and check one client message; :class:`ProtocolError` when it is not valid."""
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", T_("message too large: {size} bytes (at most {max})"),
                            size=size, max=MAX_MESSAGE_BYTES)
    try:
        msg = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise ProtocolError("bad_message", T_("a message must be a JSON object")) from None
    if not isinstance(msg, dict):
        raise ProtocolError("bad_message", T_("a message must be a JSON object"))
    kind = msg.get("type")
    if not isinstance(kind, str) or kind not in SCHEMAS:
        raise ProtocolError("bad_message", T_("unknown message type {type}; allowed: {allowed}"),
                            type=repr(kind)[:40], allowed=", ".join(SCHEMAS))
    check_fields(msg, SCHEMAS[kind], skip=("type",))
    return msg


def check_fields(msg: dict[str, Any], schema: dict[str, Field],
                 skip: tuple[str, ...] = ()) -> None:
    """Exactly the schema's fields, each of the right type, size and value."""
    extra = [k for k in msg if k not in schema and k not in skip]
    if extra:
        raise ProtocolError("bad_message", T_("unexpected field {field}; allowed: {allowed}"),
                            field=str(extra[0])[:40], allowed=", ".join(schema) or "-")
    for name, f in schema.items():
        if name not in msg:
            if f.required:
                raise ProtocolError("bad_message", T_("missing field {field}"), field=name)
            continue
        value = msg[name]
        if f.kind is int:
            if not isinstance(value, int) or isinstance(value, bool) or not f.lo <= value <= f.hi:
                raise ProtocolError("bad_message", T_("field {field} must be a whole number "
                                                      "from {lo} to {hi}"),
                                    field=name, lo=f.lo, hi=f.hi)
        elif f.kind is str:
            if not isinstance(value, str):
                raise ProtocolError("bad_message", T_("field {field} must be text"), field=name)
            if f.max_len and len(value) > f.max_len:
                raise ProtocolError("bad_message", T_("field {field} is too long (at most {max} "
                                                      "characters)"), field=name, max=f.max_len)
            if f.choices and value not in f.choices:
                raise ProtocolError("bad_message", T_("field {field} must be one of {allowed}"),
                                    field=name, allowed=", ".join(f.choices))
        elif f.kind is bool:
            if not isinstance(value, bool):
                raise ProtocolError("bad_message", T_("field {field} must be true or false"),
                                    field=name)
        elif f.kind is dict:
            if not isinstance(value, dict):
                raise ProtocolError("bad_message", T_("field {field} must be an object"),
                                    field=name)
        elif f.kind is list and not isinstance(value, list):
            raise ProtocolError("bad_message", T_("field {field} must be a list"), field=name)


def clean_name(raw: Any) -> str:
    """A player's name: trimmed, 1 to 24 printable characters."""
    if not isinstance(raw, str):
        raise ProtocolError("bad_name", T_("a name must be text"))
    name = " ".join(raw.split())
    if not name:
        raise ProtocolError("bad_name", T_("please enter a name"))
    if len(name) > NAME_CHARS:
        raise ProtocolError("bad_name", T_("a name has at most {max} characters"),
                            max=NAME_CHARS)
    if any(unicodedata.category(c)[0] == "C" and not _joins_emoji(c) for c in name):
        raise ProtocolError("bad_name", T_("a name may not contain control characters"))
    return name


def _joins_emoji(c: str) -> bool:
    """Format characters that only glue emoji together (a family emoji is three people joined
    by ZERO WIDTH JOINER; a region's flag uses tag characters); other format characters, such
    as bidi overrides, stay refused."""
    return c in "\u200c\u200d" or "\U000e0020" <= c <= "\U000e007f"


@dataclass
class RateLimit:
    """A token bucket: ``rate`` messages a second on average, bursts up to ``burst``."""

    rate: float = 20.0
    burst: float = 40.0
    tokens: float = field(default=-1.0)
    stamp: float = field(default_factory=time.monotonic)

    def allow(self, now: float | None = None) -> bool:
        if self.rate <= 0:
            return True
        t = time.monotonic() if now is None else now
        if self.tokens < 0:
            self.tokens = self.burst
        self.tokens = min(self.burst, self.tokens + (t - self.stamp) * self.rate)
        self.stamp = t
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


def dumps(obj: Any) -> str:
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()
