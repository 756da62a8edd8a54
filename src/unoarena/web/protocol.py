"""The messages clients may send, checked before anything else looks at them.

Every message is a JSON object with a ``type`` and exactly the fields that type takes, each of
the right kind and size: :data:`SCHEMAS` says which, and msgspec checks them (in C, on the
path every action takes). Anything else is refused with an error naming the field and what it
allows, and refused messages change nothing. Errors carry a stable ``code`` and an English
message (a catalogue msgid, translated where it is sent) with its ``params``.
"""

from __future__ import annotations

import time
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from typing import Annotated, Any, Literal

import msgspec
import orjson
from msgspec import UNSET, Meta, Struct, UnsetType, defstruct

from .catalog import T_

#: Goes up when a change could break a client (docs/protocol/README.md keeps the changelog).
PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 4096
MAX_ACTION_CHARS = 200
TOKEN_CHARS = 64
NAME_CHARS = 24
MOVE_ID_CHARS = 32
CHAT_CHARS = 200
#: what a quick reaction may be; the page draws each as an emoji
EMOTES = ("thumbs", "laugh", "wow", "sad", "angry", "gg")


class ProtocolError(Exception):
    """A refused message or request: ``code``, a msgid ``message`` and its ``params``."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message.format(**params) if params else message)
        self.code = code
        self.message = message
        self.params = params


@dataclass(frozen=True)
class Field:
    """One field of a message: its kind (``str``, ``int``, ``bool``, ``dict`` or ``list``),
    whether it must be there, and its bounds; :meth:`msgspec_type` says the same to msgspec."""

    kind: type
    required: bool = True
    max_len: int = 0  # strings
    lo: int = 0  # integers
    hi: int = 1 << 30
    choices: tuple[str, ...] = ()

    def msgspec_type(self) -> Any:
        """The msgspec type that accepts exactly this field's values (an optional field may be
        left out, but is not null)."""
        t: Any = self.kind
        if self.kind is int:
            t = Annotated[int, Meta(ge=self.lo, le=self.hi)]
        elif self.choices:
            t = Literal.__getitem__(self.choices)
        elif self.kind is str and self.max_len:
            t = Annotated[str, Meta(max_length=self.max_len)]
        return t if self.required else t | UnsetType

    def refused(self, name: str, detail: str) -> ProtocolError:
        """The error for a value of this field that msgspec refused with ``detail``."""
        if self.kind is int:
            return ProtocolError("bad_message", T_("field {field} must be a whole number "
                                                   "from {lo} to {hi}"),
                                 field=name, lo=self.lo, hi=self.hi)
        if self.kind is str:
            if detail.startswith("Expected `str`, got"):
                return ProtocolError("bad_message", T_("field {field} must be text"), field=name)
            if self.choices:
                return ProtocolError("bad_message", T_("field {field} must be one of {allowed}"),
                                     field=name, allowed=", ".join(self.choices))
            return ProtocolError("bad_message", T_("field {field} is too long (at most {max} "
                                                   "characters)"), field=name, max=self.max_len)
        if self.kind is bool:
            return ProtocolError("bad_message", T_("field {field} must be true or false"),
                                 field=name)
        if self.kind is dict:
            return ProtocolError("bad_message", T_("field {field} must be an object"),
                                 field=name)
        return ProtocolError("bad_message", T_("field {field} must be a list"), field=name)


_TOKEN = Field(str, max_len=TOKEN_CHARS)

SCHEMAS: dict[str, dict[str, Field]] = {
    "hello": {"token": Field(str, required=False, max_len=TOKEN_CHARS),
              "lang": Field(str, required=False, max_len=16),
              # a watching page's own key for the room: it keeps its spectator number
              "watcher": Field(str, required=False, max_len=TOKEN_CHARS)},
    "act": {"action": Field(str, max_len=MAX_ACTION_CHARS), "token": _TOKEN,
            "seq": Field(int, required=False),
            # the page's name for the move: sent again after a reconnect, applied once
            "id": Field(str, required=False, max_len=MOVE_ID_CHARS)},
    "start": {"token": _TOKEN},
    "again": {"token": _TOKEN},
    "remove": {"token": _TOKEN, "player": Field(int, hi=63)},
    "seat": {"token": _TOKEN, "player": Field(int, hi=63),
             "kind": Field(str, choices=("open", "bot", "remote")),
             "bot": Field(str, required=False, max_len=64)},
    "lang": {"lang": Field(str, max_len=16)},
    "log": {},
    "chat": {"text": Field(str, max_len=CHAT_CHARS)},
    "react": {"emote": Field(str, choices=EMOTES)},
    "mute": {"token": _TOKEN, "player": Field(int, required=False, hi=63),
             "watcher": Field(int, required=False, lo=1), "muted": Field(bool)},
    "vote": {"token": _TOKEN, "player": Field(int, hi=63)},
    "ping": {"t": Field(int, required=False, lo=-(1 << 53), hi=1 << 53)},
}


def _struct(name: str, schema: dict[str, Field], tag: str | None = None) -> type[Struct]:
    """A msgspec Struct with exactly the schema's fields (tagged by ``type`` for a message)."""
    fields = [(k, f.msgspec_type()) if f.required else (k, f.msgspec_type(), UNSET)
              for k, f in schema.items()]
    return defstruct(name, fields, kw_only=True, forbid_unknown_fields=True, tag=tag,
                     tag_field="type" if tag else None)


_MESSAGES = {kind: _struct(kind, schema, tag=kind) for kind, schema in SCHEMAS.items()}
_JSON = msgspec.json.Decoder()


def parse_message(raw: str | bytes) -> dict[str, Any]:
    """Decode and check one client message; :class:`ProtocolError` when it is not valid."""
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", T_("message too large: {size} bytes (at most {max})"),
                            size=size, max=MAX_MESSAGE_BYTES)
    try:
        msg = _JSON.decode(raw)
    except (msgspec.DecodeError, RecursionError):  # 4 KiB of "[" nests past the stack
        raise ProtocolError("bad_message", T_("a message must be a JSON object")) from None
    if not isinstance(msg, dict):
        raise ProtocolError("bad_message", T_("a message must be a JSON object"))
    kind = msg.get("type")
    if not isinstance(kind, str) or kind not in SCHEMAS:
        raise ProtocolError("bad_message", T_("unknown message type {type}; allowed: {allowed}"),
                            type=repr(kind)[:40], allowed=", ".join(SCHEMAS))
    try:
        msgspec.convert(msg, _MESSAGES[kind])
    except msgspec.ValidationError as e:
        raise _explain(e, SCHEMAS[kind]) from None
    return msg


def _explain(e: msgspec.ValidationError, schema: dict[str, Field]) -> ProtocolError:
    """msgspec's error for a flat object, said with the field and what it allows."""
    text = str(e)
    if text.startswith("Object contains unknown field `"):
        name = text[len("Object contains unknown field `"):-1]
        return ProtocolError("bad_message", T_("unexpected field {field}; allowed: {allowed}"),
                             field=name[:40], allowed=", ".join(schema) or "-")
    if text.startswith("Object missing required field `"):
        return ProtocolError("bad_message", T_("missing field {field}"),
                             field=text[len("Object missing required field `"):-1])
    detail, _sep, where = text.rpartition(" - at `$.")
    return schema[where[:-1]].refused(where[:-1], detail)


@cache
def _checker(fields: tuple[tuple[str, Field], ...]) -> type[Struct]:
    return _struct("body", dict(fields))


def check_fields(msg: dict[str, Any], schema: dict[str, Field]) -> None:
    """Exactly the schema's fields, each of the right type, size and value."""
    try:
        msgspec.convert(msg, _checker(tuple(schema.items())))
    except msgspec.ValidationError as e:
        raise _explain(e, schema) from None


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
        """Take a token if there is one: True lets a message through, False refuses it.

        The bucket starts full; ``rate`` 0 or less allows everything; ``now`` is monotonic
        seconds (for tests)."""
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
    """A message as JSON text for a WebSocket; integer dict keys are allowed (written as
    strings)."""
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()
