"""The WebSocket protocol as types: what a client may send and what the server sends back.

Clients in any language need a contract they can read without the Python code. The client's
messages are the very types :mod:`.protocol` checks every message with; the server's are
described here, field by field, and a test checks messages captured from a live server against
them. :func:`json_schema` turns both into the JSON Schema published in ``docs/protocol/``
(``scripts/protocol_schema.py`` writes it; a test fails when the two differ).

:data:`PROTOCOL_VERSION` goes up by one whenever a change could break an existing client (a
message or field removed or renamed, a field's type narrowed); added optional fields and added
messages do not change it, and are listed in the changelog of ``docs/protocol/README.md``.
"""

from __future__ import annotations

from typing import Any, Union

import msgspec
from msgspec import UNSET, Struct, UnsetType, defstruct

from .app import _CREATE, _JOIN, _QUICK, _RULES, _SEAT_LINK
from .chat import ChatLine
from .protocol import PROTOCOL_VERSION, SCHEMAS, Field

__all__ = ["PROTOCOL_VERSION", "decode_server", "json_schema"]
SCHEMA_ID = "https://unoarena.invalid/protocol/schema.json"


def _fields_struct(name: str, schema: dict[str, Field], tag: str | None = None) -> type[Struct]:
    """The Struct that accepts exactly what the server checks ``schema``'s fields with."""
    fields = [(k, f.msgspec_type()) if f.required else (k, f.msgspec_type(), UNSET)
              for k, f in schema.items()]
    return defstruct(name, fields, kw_only=True, forbid_unknown_fields=True, tag=tag,
                     tag_field="type" if tag else None)


def _client_struct(kind: str) -> type[Struct]:
    """The Struct :mod:`.protocol` checks a ``kind`` message with, named for the schema."""
    name = "".join(part.title() for part in kind.split("_")) + "Message"
    return _fields_struct(name, SCHEMAS[kind], tag=kind)


CLIENT_MESSAGES: dict[str, type[Struct]] = {kind: _client_struct(kind) for kind in SCHEMAS}

#: The bodies of the HTTP calls around the WebSocket, as their handlers check them.
HTTP_REQUESTS: dict[str, type[Struct]] = {
    "CreateRoomRequest": _fields_struct("CreateRoomRequest", _CREATE),  # POST /api/rooms
    "JoinRequest": _fields_struct("JoinRequest", _JOIN),  # POST /api/rooms/{room}/join
    "QuickPlayRequest": _fields_struct("QuickPlayRequest", _QUICK),  # POST /api/quick
    "RulesRequest": _fields_struct("RulesRequest", _RULES),  # POST /api/rules
    "SeatLinkRequest": _fields_struct("SeatLinkRequest", _SEAT_LINK),  # .../seat-link
}


class CreateRoomResponse(Struct, kw_only=True, forbid_unknown_fields=True):
    """``POST /api/rooms``: the new room, the creator's player number (0) and seat token, and
    the page's path."""

    room: str
    player: int
    token: str
    url: str


class QuickPlayResponse(Struct, kw_only=True, forbid_unknown_fields=True):
    """``POST /api/quick``: the seat quick play found or opened, its token, the page's path;
    ``waiting``: the seat is a bot's until the next round; ``fill_in``: seconds until bots fill
    a new table (None: the table was already there)."""

    room: str
    player: int
    token: str
    name: str
    url: str
    waiting: bool
    fill_in: float | None


class _Server(Struct, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    """A message the server sends; exactly these fields, so a new one shows up in the tests."""


class Welcome(_Server, tag="welcome"):
    """The first answer to ``hello``: which room, which player (None: watching), whether
    host, which seat at the table, and the protocol version the server speaks."""

    room: str
    player: int | None
    host: bool
    seat: int | None
    protocol: int
    waiting: bool = False  # quick play: this person takes a bot's seat at the next round


class Player(Struct, kw_only=True, forbid_unknown_fields=True):
    """One player of a room as anyone may see it (no hand, no token)."""

    player: int
    kind: str
    name: str
    bot: str | None
    connected: bool
    away: bool
    seat: int | None
    next: str | None = None  # quick play: who takes this bot's seat at the next round


class Room(_Server, tag="room"):
    """The room: its status (lobby, playing, finished), rules, host and players; sent on
    every change of the seating."""

    id: str
    status: str
    rules: dict[str, Any]
    overrides: dict[str, Any]
    host: int | None
    match: int
    you: int | None
    players: list[Player]
    spectators: int
    public: bool = False  # listed in the lobby
    quick: str | None = None  # a quick-play table: the level of the bots that fill it
    fill_in_ms: int | None = None  # quick play: when bots take the empty seats and it starts
    rated: bool = False  # a match here moves ratings (ratings.is_rated)


class LobbyRoom(Struct, kw_only=True, forbid_unknown_fields=True):
    """A public room as the lobby lists it: rule set and house rules, status, seats, how many
    are open, the people seated, bots, spectators, the quick-play level, whether one may
    join now (an open seat, or a bot's seat from the next round)."""

    id: str
    preset: str
    house: dict[str, Any]
    status: str
    seats: int
    open: int
    people: list[str]
    bots: int
    spectators: int
    quick: str | None
    joinable: bool


class LobbyChange(Struct, kw_only=True, forbid_unknown_fields=True):
    """The fields of a listed room that changed (``id`` and only those)."""

    id: str
    preset: str | UnsetType = UNSET
    house: dict[str, Any] | UnsetType = UNSET
    status: str | UnsetType = UNSET
    seats: int | UnsetType = UNSET
    open: int | UnsetType = UNSET
    people: list[str] | UnsetType = UNSET
    bots: int | UnsetType = UNSET
    spectators: int | UnsetType = UNSET
    quick: str | UnsetType | None = UNSET
    joinable: bool | UnsetType = UNSET


class Lobby(_Server, tag="lobby"):
    """On the lobby socket (``/ws/lobby``), first: every public room, oldest first."""

    rooms: list[LobbyRoom]


class LobbyDiff(_Server, tag="lobby_diff"):
    """On the lobby socket, then: what changed since the last message (rooms added, fields
    changed, rooms no longer listed), gathered over a fraction of a second."""

    add: list[LobbyRoom]
    change: list[LobbyChange]
    remove: list[str]


class State(_Server, tag="state"):
    """The table as this connection may see it, after every move: ``view`` holds only the
    reader's own hand; ``choices`` what a click on each of its cards plays; ``seq`` counts
    moves (send it back with ``act`` to refuse acting on a stale state)."""

    room: str
    status: str
    match: int
    round: int
    seq: int
    you: int | None
    view: dict[str, Any]
    seats: list[dict[str, Any]]
    log: list[str]
    events: list[dict[str, Any]]
    timer: dict[str, Any] | None
    round_clock: dict[str, Any] | None
    match_scores: list[int]
    choices: dict[str, Any]


class Log(_Server, tag="log"):
    """The round's narration so far, in the reader's language (answer to ``log``)."""

    lines: list[str]


class RoundOver(_Server, tag="round_over"):
    """A round ended: the winning seat (None: nobody), why, and the points."""

    round: int
    winner: int | None
    reason: str
    winner_player: int | None
    points: list[int]
    round_scores: list[int]
    players: list[int]
    out: list[int]


class MatchOver(_Server, tag="match_over"):
    """A match ended: the winners and the final scores."""

    match: int
    winners: list[int]
    scores: list[int]
    teams: int
    scoring: str
    players: list[int]


class Notice(_Server, tag="notice"):
    """Why the room cannot go on now (its database is away, ...), or null once it can."""

    message: str | None


class Error(_Server, tag="error"):
    """A refused message or request: a stable ``code``, a message in the reader's language,
    and perhaps the engine's own words in ``detail``; it changed nothing."""

    code: str
    message: str
    detail: str | UnsetType = UNSET


class Pong(_Server, tag="pong"):
    """The answer to ``ping``, with its ``t``."""

    t: int | None


class Removed(_Server, tag="removed"):
    """The host took this connection's seat away: it now watches."""

    message: str


class Chat(_Server, tag="chat"):
    """Chat lines this connection may read: all of them on arrival and whenever what it may
    read changes (``replace``), else the new one; ``muted``: the players the host muted,
    ``muted_watchers``: the spectators (by number); ``you``, when present: this spectator's
    number (None until they first speak, and for a player)."""

    lines: list[ChatLine]
    replace: bool
    muted: list[int]
    muted_watchers: list[int]
    you: int | UnsetType | None = UNSET


class Reaction(_Server, tag="reaction"):
    """A player's quick reaction (one of the ``react`` emotes), to show by their seat."""

    player: int
    emote: str


class Vote(_Server, tag="vote"):
    """The vote to hand an absent ``player``'s seat to a bot: who voted so far, of how many
    needed (``needed`` 0: the vote is over, carried or ended by the player's return)."""

    player: int
    voters: list[int]
    needed: int


class BotToken(_Server, tag="bot_token"):
    """To the host alone, once: the secret token of the remote bot seat ``player`` just made
    (``unoarena bot run URL --token TOKEN`` plays it). Only its hash is kept."""

    player: int
    token: str


SERVER_MESSAGES: tuple[type[Struct], ...] = (Welcome, Room, State, Log, RoundOver, MatchOver,
                                             Notice, Error, Pong, Removed, Lobby, LobbyDiff,
                                             Chat, Reaction, Vote, BotToken)
ClientMessage = Union[tuple(CLIENT_MESSAGES.values())]  # type: ignore[valid-type]  # noqa: UP007
ServerMessage = Union[SERVER_MESSAGES]  # type: ignore[valid-type]  # noqa: UP007


def json_schema() -> dict[str, Any]:
    """The whole protocol as one JSON Schema (2020-12): ``$defs`` holds every message, and
    ``ClientMessage`` / ``ServerMessage`` say which a client sends and which it receives; the
    HTTP calls' bodies are there too (``CreateRoomRequest``, ...)."""
    (client, server, *_http), defs = msgspec.json.schema_components(
        (ClientMessage, ServerMessage, CreateRoomResponse, QuickPlayResponse,
         *HTTP_REQUESTS.values()),
        ref_template="#/$defs/{name}")
    defs = dict(sorted(defs.items()))
    defs["ClientMessage"] = client
    defs["ServerMessage"] = server
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "unoarena WebSocket protocol",
        "description": "Every message is one JSON object per WebSocket text frame, tagged by "
                       "its 'type'. A client sends ClientMessage, the server sends "
                       "ServerMessage.",
        "x-protocol-version": PROTOCOL_VERSION,
        "anyOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}],
        "$defs": defs,
    }


def decode_server(raw: str | bytes) -> Any:
    """One server message decoded into its type (strict: an unknown field is an error)."""
    return msgspec.json.decode(raw, type=ServerMessage)
