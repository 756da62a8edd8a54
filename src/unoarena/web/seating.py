"""A room's seats: who sits where, their connections and seat tokens, the lobby's changes.

The players list itself is the room's (:class:`unoarena.web.rooms.Room`): this piece answers who
plays a seat this round, who is away (a bot then stands in), and makes the lobby's and the host's
changes to the seats, each stored before anyone is told.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..bots import Bot, make_bot
from .catalog import T_, gettext_in
from .protocol import PROTOCOL_VERSION, ProtocolError, RateLimit, dumps
from .store import PlayerRow, StoreError, op_set_player

if TYPE_CHECKING:
    from .rooms import Room, ServerConfig

LOBBY, PLAYING, FINISHED = "lobby", "playing", "finished"
MOVED = "moved"  # another process took the room over: this copy stops
#: the sources of a stand-in's move for a remote seat: its program was too slow, or away
LATE, ABSENT = "late", "absent"


def hash_token(token: str) -> str:
    """The SHA-256 hex digest stored instead of a seat token, so the database alone does
    not hand out seats."""
    return hashlib.sha256(token.encode()).hexdigest()


class Conn:
    """One client connection: its seat (or none, for a spectator), language and outbox."""

    def __init__(self, lang: str, config: ServerConfig) -> None:
        self.lang = lang
        self.player: int | None = None
        self.room: Room | None = None
        self.limiter = RateLimit(config.rate, config.burst)
        # what waits to be sent: text, the rest of a send begun at once (sending.py), or the
        # None that ends the connection
        self.outbox: asyncio.Queue[str | Awaitable[None] | None] = asyncio.Queue(
            config.send_queue)
        # sends a message at once when it can: None when it went, else the rest to await
        # (set for a WebSocket of this process; a relayed connection has only the outbox)
        self.direct: Callable[[str], Awaitable[None] | None] | None = None
        self.sending = False  # the pump is sending: a new message queues behind
        self.closed = False
        self.strikes = 0  # messages refused for flooding; too many and the client is dropped
        self.close_code = 1000  # the WebSocket close code and reason its sender ends with
        self.close_reason = ""
        self.watcher_key: str | None = None  # a spectator page's key's hash (chat.py)

    def push(self, text: str) -> None:
        """Queue a message for the client; a client whose outbox is full (it does not read)
        is closed rather than allowed to hold the room up."""
        if self.closed:
            return
        item: str | Awaitable[None] | None = text
        if self.direct is not None and not self.sending and self.outbox.empty():
            try:
                item = self.direct(text)
            except Exception:  # the client went away mid-send: as the pump would, close
                self.close()
                return
            if item is None:  # sent
                return
        try:
            self.outbox.put_nowait(item)
        except asyncio.QueueFull:  # a client that does not read: drop it, not the room
            self.close()

    def close(self, code: int = 1000, reason: str = "") -> None:
        """End the connection: drop what it has not read and queue the ``None`` that stops its
        sender, which closes the socket with ``code`` and ``reason`` (1008 and why, for a
        client dropped for its conduct). Closing twice does nothing."""
        if not self.closed:
            self.closed = True
            self.close_code, self.close_reason = code, reason
            while self.outbox.full():  # a stuck client: what it has not read is moot now
                self.outbox.get_nowait()
            self.outbox.put_nowait(None)

    def error(self, code: str, message: str, detail: str = "", **params: Any) -> None:
        """Send an ``error`` message: ``message`` (an English msgid) in the client's language,
        formatted with ``params``; ``detail`` carries the engine's own words."""
        text = gettext_in(self.lang, message)
        if params:
            try:
                text = text.format(**params)
            except (KeyError, IndexError, ValueError):
                text = message.format(**params)
        msg: dict[str, Any] = {"type": "error", "code": code, "message": text}
        if detail:
            msg["detail"] = detail
        self.push(dumps(msg))


@dataclass
class Player:
    """A place at the table, numbered in joining order (the engine's player number)."""

    index: int
    kind: str  # "open" (waiting for someone), "human", "bot" or "remote" (a program's seat)
    name: str = ""
    token_hash: str | None = None
    bot: str = "basic"  # a bot's spec; a remote seat's stand-in
    conns: set[Conn] = field(default_factory=set)
    disconnected_at: float = 0.0
    agent: Bot | None = None  # the bot, or the stand-in of an absent person
    agent_round: int = -1
    #: quick play: the person (name, token hash) who takes this bot's seat at the next round,
    #: and their connections, watching until then
    heir: tuple[str, str] | None = None
    heir_conns: set[Conn] = field(default_factory=set)
    last_move: str = ""  # the id of this seat's last move (a page's resend is not applied twice)

    def row(self) -> PlayerRow:
        """The player as the database stores it (no connections, no bot state). A bot whose
        seat is promised to a person is stored with that person's name and token hash (a bot
        has neither of its own), so a restart or a take-over keeps the promise."""
        if self.heir is not None:
            return PlayerRow(self.index, self.kind, self.heir[0], self.heir[1], self.bot)
        return PlayerRow(self.index, self.kind, self.name, self.token_hash, self.bot)

    @classmethod
    def from_row(cls, row: PlayerRow) -> Player:
        """The player a stored row describes (see :meth:`row` for a promised bot's seat)."""
        if row.kind == "bot" and row.token_hash is not None:
            return cls(row.player, "bot", "", None, row.bot, heir=(row.name, row.token_hash))
        return cls(row.player, row.kind, row.name, row.token_hash, row.bot)



def check_bot(spec: str) -> None:
    """Refuse a bot spec that cannot be built, with a ``bad_bot`` error naming the problem."""
    try:
        make_bot(spec, 0)
    except (ValueError, KeyError) as e:
        raise ProtocolError("bad_bot", T_("unknown bot: {error}"), error=str(e)) from None


class Seating:
    """Who sits where at one room, and the lobby's and host's changes to its seats."""

    def __init__(self, room: Room) -> None:
        self.room = room

    @property
    def n(self) -> int:
        """The number of seats at this table: the players still in the match (HR-ELIM puts
        some out), all of them before it starts."""
        room = self.room
        return room.match.game.players if room.match is not None else room.rules.players

    def seat_of(self, player: int) -> int | None:
        """Where ``player`` sits in the current round (seats move with HR-SEATS); before the
        first match, at the seat of its own number; None once elimination (HR-ELIM) put the
        player out: from then on the player watches, as a spectator does."""
        room = self.room
        seat = room.match.seat_of[player] if room.match is not None else player
        return seat if seat >= 0 else None

    def player_at(self, seat: int) -> int:
        """The player at ``seat`` this round: the inverse of :meth:`seat_of`."""
        room = self.room
        return room.match.player_at(seat) if room.match is not None else seat

    def display_name(self, p: Player, lang: str) -> str:
        """What readers of ``lang`` see for ``p``: its name, "Bot N" for an unnamed
        bot, "(open seat)" for a seat nobody has taken."""
        if p.kind == "bot" and not p.name:
            return gettext_in(lang, T_("Bot {n}")).format(n=p.index + 1)
        if p.kind == "remote" and not p.name:
            return gettext_in(lang, T_("Remote bot {n}")).format(n=p.index + 1)
        if p.kind == "open":
            return gettext_in(lang, T_("(open seat)"))
        return p.name

    def names_by_seat(self, lang: str) -> list[str]:
        """Every seat's display name in ``lang``, in seat order (for narration)."""
        players = self.room.players
        return [self.display_name(players[self.player_at(s)], lang) for s in range(self.n)]

    def check_token(self, token: str) -> Player | None:
        """The player whose seat token this is, or None; hashes are compared in
        constant time."""
        h = hash_token(token)
        for p in self.room.players:
            if p.token_hash is not None and hmac.compare_digest(p.token_hash, h):
                return p
        return None

    def is_away(self, p: Player, now: float | None = None) -> bool:
        """Whether ``p`` is a person disconnected for ``away_after`` seconds or more, or a
        remote seat with no program connected (a bot then stands in at their turn: a program
        gets no grace, a person's page may be reloading); ``now`` is the event loop's clock."""
        room = self.room
        if p.kind == "remote":
            return not p.conns
        if p.kind != "human" or p.conns:
            return False
        t = room.loop.time() if now is None else now
        return t - p.disconnected_at >= room.config.away_after

    def agent_for(self, seat: int) -> Bot | None:
        """The bot that acts for ``seat`` now: its own, or a stand-in for an absent or idle
        person."""
        room = self.room
        p = room.players[self.player_at(seat)]
        if room.clock.automated(seat, room.loop.time()):
            if p.agent is None:
                spec = p.bot if p.kind in ("bot", "remote") else "basic"
                p.agent = make_bot(spec, room.rng.getrandbits(32))
            rnd = room.match.rounds_played if room.match is not None else 0
            if p.agent_round != rnd:
                p.agent.begin_round(room.rules, seat)
                p.agent_round = rnd
            return p.agent
        return None

    def bots_to_replace(self) -> list[Player]:
        """The seats of a quick-play table in play that a person arriving now may take over
        from its bot at the next round (none is promised to someone yet)."""
        room = self.room
        return [p for p in room.players
                if p.kind == "bot" and p.heir is None and p.index != room.host]

    def heir_by_token(self, token: str) -> Player | None:
        """The bot's seat whose waiting person this seat token is, or None."""
        h = hash_token(token)
        for p in self.room.players:
            if p.heir is not None and hmac.compare_digest(p.heir[1], h):
                return p
        return None

    async def join(self, name: str, want: int | None = None) -> tuple[int, str]:
        """Take an open seat; returns the player number and the secret seat token. At a
        quick-play table in play, a bot's seat instead, from the next round on."""
        room = self.room
        async with room.lock:
            if room.status == PLAYING and room.fill_bot and want is None \
                    and self.bots_to_replace():
                return await self._promise_bot_seat(name)
            if room.status != LOBBY:
                raise ProtocolError("already_started",
                                    T_("this game has already started; you can watch it"))
            free = [p for p in room.players if p.kind == "open"]
            if want is not None:
                free = [p for p in free if p.index == want]
                if not free:
                    raise ProtocolError("seat_taken", T_("that seat is not open"))
            if not free:
                raise ProtocolError("room_full", T_("every seat is taken; you can watch"))
            p = free[0]
            token = secrets.token_urlsafe(24)
            await room.saving.write(op_set_player(room.id, PlayerRow(p.index, "human", name,
                                                               hash_token(token), p.bot)))
            p.kind, p.name, p.token_hash = "human", name, hash_token(token)
            p.disconnected_at = room.loop.time()
            room.out.broadcast_room()
            if room.fill_bot and not any(x.kind == "open" for x in room.players):
                await room.begin_match()  # a quick-play table full of people starts at once
            return p.index, token

    async def _promise_bot_seat(self, name: str) -> tuple[int, str]:
        """Promise a bot's seat to ``name`` from the next round on (they watch until then),
        as stored first; the seat token is theirs at once."""
        room = self.room
        p = self.bots_to_replace()[0]
        token = secrets.token_urlsafe(24)
        heir = (name, hash_token(token))
        await room.saving.write(op_set_player(room.id, PlayerRow(p.index, "bot", *heir, p.bot)))
        p.heir = heir
        room.out.broadcast_room()
        return p.index, token

    async def seat_heirs(self) -> None:
        """Between rounds (under the room's lock): people promised a bot's seat take it, as
        stored first; their pages are welcomed to it. A write that fails keeps the promise for
        the next round."""
        room = self.room
        changed = False
        for p in room.players:
            if p.heir is None:
                continue
            name, token_hash = p.heir
            try:
                await room.saving.write(op_set_player(room.id, PlayerRow(
                    p.index, "human", name, token_hash, p.bot)))
            except StoreError:
                continue
            p.kind, p.name, p.token_hash, p.heir = "human", name, token_hash, None
            p.agent, p.agent_round = None, -1
            p.disconnected_at = room.loop.time()
            for conn in list(p.heir_conns):
                if conn.closed or conn.room is not room:
                    continue
                conn.player = p.index
                p.conns.add(conn)
                conn.push(dumps(self._welcome(conn)))
            p.heir_conns.clear()
            changed = True
        if changed:
            room.out.broadcast_room()

    async def set_seat(self, actor: Player, player: int, kind: str,
                       bot: str | None) -> str | None:
        """The host opens a seat, gives it to a bot, or makes it a remote bot's (lobby only).

        A remote seat gets a fresh bot token, returned here and never again (only its hash is
        kept); ``bot`` then names the stand-in that moves for it when the program is late or
        away. Any change to a remote seat revokes its token: its connections are closed."""
        room = self.room
        async with room.lock:
            self.host_only(actor)
            if room.status != LOBBY:
                raise ProtocolError("not_in_lobby", T_("seats can be changed only before the "
                                                       "game starts"))
            p = self._player(player)
            if p.index == room.host:
                raise ProtocolError("bad_seat", T_("the host keeps their own seat"))
            if p.kind == "human":
                raise ProtocolError("bad_seat", T_("someone sits there: remove them first"))
            spec = p.bot
            if kind in ("bot", "remote"):
                spec = bot or "basic"
                check_bot(spec)
            token = secrets.token_urlsafe(24) if kind == "remote" else None
            digest = hash_token(token) if token is not None else None
            await room.saving.write(op_set_player(room.id,
                                                  PlayerRow(p.index, kind, "", digest, spec)))
            p.kind, p.name, p.token_hash, p.agent, p.bot = kind, "", digest, None, spec
            self._revoke(p, T_("The host gave this seat a new bot token; this one no longer "
                               "plays.") if kind == "remote"
                         else T_("The host revoked this seat's bot token."))
            room.out.broadcast_room()
            return token

    async def remove(self, actor: Player, player: int) -> None:
        """The host removes someone, or revokes a remote seat's token: before the game the seat
        opens again; during it a bot (a remote seat's stand-in) takes the seat over for the
        rest of the match."""
        room = self.room
        async with room.lock:
            self.host_only(actor)
            p = self._player(player)
            if p.index == room.host:
                raise ProtocolError("bad_seat", T_("the host cannot remove their own seat"))
            if p.kind not in ("human", "remote"):
                raise ProtocolError("bad_seat", T_("no person sits there"))
            await self.bench(p, T_("The host removed you from this seat; you are now "
                                   "watching."))

    async def bench(self, p: Player, why: str) -> None:
        """Someone leaves their seat (stored first): before the game it opens again, during it
        a bot plays it for the rest of the match (a remote seat's own stand-in, its token
        revoked). Their connections now watch, told ``why`` (a msgid). Called under the
        room's lock."""
        room = self.room
        remote = p.kind == "remote"
        kind, name, spec = ("open", "", p.bot) if room.status == LOBBY else (
            "bot", p.name, p.bot if remote else "basic")
        await room.saving.write(op_set_player(room.id, PlayerRow(p.index, kind, name, None,
                                                                 spec)))
        p.kind, p.name, p.bot, p.token_hash, p.agent = kind, name, spec, None, None
        if remote:
            self._revoke(p, T_("The host revoked this seat's bot token."))
        for conn in list(p.conns):
            conn.player = None
            conn.push(dumps({"type": "removed", "message": gettext_in(conn.lang, why)}))
        p.conns.clear()
        room.out.broadcast_room()
        if room.match is not None:
            room.out.broadcast_state([])
        room.clock.schedule()

    async def hand_over(self, actor: Player, player: int) -> str:
        """The host gives a person's seat a new secret link, for when they changed device and
        the old one is gone: the old link stops working (whoever still uses it watches from
        then on). Returns the new seat token."""
        room = self.room
        async with room.lock:
            self.host_only(actor)
            p = self._player(player)
            if p.index == room.host:
                raise ProtocolError("bad_seat", T_("the host moves to another device with "
                                                   "their own rejoin link"))
            if p.kind != "human":
                raise ProtocolError("bad_seat", T_("no person sits there"))
            token = secrets.token_urlsafe(24)
            old = p.token_hash
            p.token_hash = hash_token(token)
            try:
                await room.saving.write(op_set_player(room.id, p.row()))
            except StoreError:
                p.token_hash = old
                raise
            for conn in list(p.conns):
                conn.player = None
                conn.push(dumps({"type": "removed", "message": gettext_in(
                    conn.lang, T_("The host gave your seat to another device; this one is "
                                  "now watching."))}))
                if room.match is not None:
                    room.out.broadcast_state([], only=conn)
            p.conns.clear()
            p.disconnected_at = room.loop.time()
            room.out.broadcast_room()
            return token

    def _revoke(self, p: Player, why: str) -> None:
        """Close the connections of a remote seat whose token was revoked: told ``removed``,
        then closed, so a reconnecting program meets ``bad_token``."""
        for conn in list(p.conns):
            conn.player = None
            conn.push(dumps({"type": "removed", "message": gettext_in(conn.lang, why)}))
            conn.close()
        p.conns.clear()
        p.disconnected_at = self.room.loop.time()

    def host_only(self, actor: Player) -> None:
        """Refuse ``actor`` unless it is the host."""
        if actor.index != self.room.host:
            raise ProtocolError("not_host", T_("only the host can do that"))

    def _player(self, index: int) -> Player:
        room = self.room
        if not 0 <= index < len(room.players):
            raise ProtocolError("bad_seat", T_("there is no player {n}"), n=index)
        return room.players[index]

    def _welcome(self, conn: Conn, waiting: bool = False) -> dict[str, Any]:
        room = self.room
        return {"type": "welcome", "room": room.id, "player": conn.player,
                "host": conn.player == room.host,
                "seat": self.seat_of(conn.player) if conn.player is not None else None,
                "protocol": PROTOCOL_VERSION, "waiting": waiting}

    def attach(self, conn: Conn, player: Player | None, heir: Player | None = None) -> None:
        """Bring a connection to the table (``player`` None: a spectator; ``heir``: the bot's
        seat it takes at the next round): welcome it, catch it up on the state, log and result,
        and tell the others. Called under the room's lock (a move whose write is pending must
        not be shown)."""
        room = self.room
        conn.room = self.room
        conn.player = player.index if player is not None else None
        room.conns.add(conn)
        if player is not None:
            player.conns.add(conn)
        if heir is not None:
            heir.heir_conns.add(conn)
        conn.push(dumps(self._welcome(conn, heir is not None)))
        room.out.broadcast_room()
        if room.match is not None:
            room.out.broadcast_state([], only=conn)
            conn.push(dumps({"type": "log", "lines": room.out.round_log(conn)}))
            if room.status == FINISHED:
                conn.push(dumps(room.out.match_result()))
        note = room.out.notice(conn.lang)
        if note["message"] is not None:
            conn.push(dumps(note))
        conn.push(dumps(room.talk.history(conn)))
        if player is not None:
            room.votes.came_back(player.index)
            room.clock.schedule()

    def detach(self, conn: Conn) -> None:
        """Take a connection away; a person's last one starts their away clock, after which
        a bot may stand in."""
        room = self.room
        room.conns.discard(conn)
        for p in room.players:
            p.heir_conns.discard(conn)
        room.manager.lobby.note(room)  # (a spectator fewer)
        if conn.player is not None:
            p = room.players[conn.player]
            p.conns.discard(conn)
            if not p.conns:
                p.disconnected_at = room.loop.time()
            room.out.broadcast_room()
            room.clock.schedule()
        conn.room = None
