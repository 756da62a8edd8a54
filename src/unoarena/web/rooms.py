"""Rooms: who sits where, the match they play, and everything that moves it on.

The server is the only authority. Every change to a room happens under the room's lock, goes
through the engine (which checks it), is committed to the database, and only then is told to
the people at the table, each of whom gets their own seat's view (DIG-2) and the new events in
their own language. Bots, stand-ins for absent players and the turn timer are callbacks on the
event loop that take the same path as a person's action.

Nothing is shown that is not stored. A move whose write fails is taken back at once, from
memory (the match replayed from its seed and the moves before it, which are exactly the stored
log), and its sender is told; everything that shows the table to anyone holds the room's lock,
so no one sees a move while its write is pending. A database that cannot be reached pauses
every room (:meth:`RoomManager.database_lost`): moves are refused with a notice to every
player, bots and clocks wait, and the rooms go on by themselves when it answers again.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import hmac
import logging
import random
import secrets
import time
from collections.abc import Callable, Coroutine, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots import Bot, make_bot
from ..engine import (
    TIME_UP,
    TIME_UP_TEXT,
    Action,
    ConfigError,
    Event,
    IllegalAction,
    Match,
    RuleSet,
    move_text,
)
from ..engine.match import eliminated
from ..engine.turns import Turns
from ..text.narrate import Narrator, round_start_lines
from .catalog import T_, gettext_in, speaking
from .protocol import ProtocolError, RateLimit, dumps
from .store import (
    ActionRow,
    DatabaseBusy,
    PlayerRow,
    RoomRow,
    Store,
    StoreError,
    brief,
    op_actions,
    op_create_room,
    op_finish_match,
    op_set_player,
    op_start_match,
)
from .store import unreachable as _unreachable

log = logging.getLogger("unoarena.web")

LOBBY, PLAYING, FINISHED = "lobby", "playing", "finished"
MOVED = "moved"  # another process took the room over: this copy stops
_WINDOW_VERBS = frozenset({"catch", "jump_in", "uno"})  # chances taken out of turn
_DRAWS = frozenset({"draw", "press", "presses", "pass"})  # drawing, and keeping what came
PROBE_EVERY = 0.25  # seconds between looks for a database that went away

DB_LOST = T_("The server lost its database; waiting for it to come back…")
LOG_BROKEN = T_("The stored record of this game does not replay from move {seq} on: the table "
                "is shown as it was before that move and cannot go on.")


NOT_SAVED = T_("the server could not save that; the table is as it was, please try again")


def store_problem(e: BaseException, manager: RoomManager | None) -> ProtocolError:
    """What a client is told when the database failed it: that the server lost its database
    (every room pauses until it is back), or that a write was refused."""
    if _unreachable(e):
        if manager is not None:
            manager.database_lost(brief(e))
        return ProtocolError("no_database", DB_LOST)
    return ProtocolError("server_error", NOT_SAVED)


class BrokenLog(Exception):
    """A stored log that does not replay: action ``seq`` is missing or refused by the
    engine."""

    def __init__(self, seq: int, action: str, reason: str) -> None:
        super().__init__(f"action {seq} ({action or 'missing'}) does not replay: {reason}")
        self.seq = seq
        self.action = action
        self.reason = reason


@dataclass
class ServerConfig:
    """What a server does besides the rules: delays, limits, the database."""

    database_url: str | None = None
    bot_delay: float = 1.0  # seconds a bot thinks before its turn
    window_delay: float = 0.8  # a bot's reaction time for a catch or jump-in
    person_window: float = 2.0  # bots hold their turn this long while a person may catch/jump in
    round_pause: float = 4.0  # the table looks at the round's result before bots go on
    away_after: float = 30.0  # disconnected this long when it is their turn: a bot stands in
    idle_after: float = 120.0  # connected but silent this long at their turn (no turn timer)
    rate: float = 20.0  # messages a second per connection, on average
    burst: float = 40.0
    hello_timeout: float = 15.0
    send_queue: int = 512  # messages waiting for a slow client before it is dropped
    max_rooms: int = 5000
    create_rate: float = 0.0  # rooms a second per client address (0: unlimited)
    tune_gc: bool = False  # a server process of its own: fewer, shorter collector pauses
    broker_url: str | None = None  # set: one of several processes sharing PostgreSQL (cluster.py)
    lease_ttl: float = 4.0  # seconds a room's lease lasts without renewal
    heartbeat: float = 1.0  # seconds between renewals (and looks for rooms nobody holds)


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
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(config.send_queue)
        self.closed = False
        self.strikes = 0  # messages refused for flooding; too many and the client is dropped

    def push(self, text: str) -> None:
        """Queue a message for the client; a client whose outbox is full (it does not read)
        is closed rather than allowed to hold the room up."""
        if self.closed:
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:  # a client that does not read: drop it, not the room
            self.close()

    def close(self) -> None:
        """End the connection: drop what it has not read and queue the ``None`` that stops its
        sender. Closing twice does nothing."""
        if not self.closed:
            self.closed = True
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
    kind: str  # "open" (waiting for someone), "human" or "bot"
    name: str = ""
    token_hash: str | None = None
    bot: str = "basic"
    conns: set[Conn] = field(default_factory=set)
    disconnected_at: float = 0.0
    agent: Bot | None = None  # the bot, or the stand-in of an absent person
    agent_round: int = -1

    def row(self) -> PlayerRow:
        """The player as the database stores it (no connections, no bot state)."""
        return PlayerRow(self.index, self.kind, self.name, self.token_hash, self.bot)


# DIG-4 codes and the page's own, with the sentence a person reads
ERROR_TEXT: dict[str, str] = {
    "not_your_turn": T_("It is not your turn, and no window is open to you."),
    "no_window": T_("That chance has passed: no such window is open."),
    "card_not_in_hand": T_("You do not hold that card."),
    "does_not_match": T_("That card does not match the top card or colour."),
    "must_name_color": T_("Name a colour for the wild card."),
    "w4_not_allowed": T_("Wild Draw Four is allowed only without a card of the active colour."),
    "must_answer_penalty": T_("A penalty is pending: answer it or take it."),
    "only_drawn_card": T_("After drawing, only the drawn card may be played."),
    "last_card_must_be_number": T_("Your last card must be a number card."),
    "bad_target": T_("Choose another player as the target."),
    "not_in_rules": T_("The rules of this room do not have that action."),
    "bad_action": T_("That action cannot be understood."),
    "round_over": T_("The round is over."),
}


class Room:
    """A table: players, rules, the match in progress and the connections watching it."""

    def __init__(self, manager: RoomManager, room_id: str, rules: RuleSet, host: int,
                 people: list[Player], created_at: float) -> None:
        self.manager = manager
        self.store = manager.store
        self.config = manager.config
        self.id = room_id
        self.rules = rules
        self.rules_dict = rules.to_dict()  # rules never change: convert them once
        self.overrides = rules.overrides()
        self.host = host
        self.players = people
        self.created_at = created_at
        self.status = LOBBY
        self.match: Match | None = None
        self.match_no = 0
        self.seed = 0
        self.seq = 0
        self.lock = asyncio.Lock()
        self.conns: set[Conn] = set()
        self.marks: list[tuple[int, int, int, str]] = []  # this round: events of each action
        self.sent = 0  # events of the current round already told
        self.version = 0
        loop = asyncio.get_running_loop()
        self.loop = loop
        self.changed_at = loop.time()
        self.round_started = -1e9
        self.turns = Turns()  # who declined which window (DIG-3)
        self.rng = random.Random(secrets.randbits(64))
        self._drive: asyncio.TimerHandle | None = None
        self._timer: asyncio.TimerHandle | None = None
        self.deadline: float | None = None
        self.deadline_seat = -1
        self._deadline_token = 0
        self._round_clock: asyncio.TimerHandle | None = None  # HR-BLITZ
        #: a write failed without an answer: the stored log may hold a move this room took
        #: back, so it is compared with the log before the next move
        self.unsure = False
        self.finish_unsaved = False  # the match's result is still to be stored
        self.broken: BrokenLog | None = None  # the stored log stops replaying here
        self._paused_at: float | None = None  # when the database went away (loop clock)
        self._paused_left: float | None = None  # the turn timer's time left then
        self._paused_seat = -1

    # ======================================================================================
    # who is where
    # ======================================================================================
    @property
    def n(self) -> int:
        """The number of seats at this table: the players still in the match (HR-ELIM puts
        some out), all of them before it starts."""
        return self.match.game.players if self.match is not None else self.rules.players

    def seat_of(self, player: int) -> int | None:
        """Where ``player`` sits in the current round (seats move with HR-SEATS); before the
        first match, at the seat of its own number; None once elimination (HR-ELIM) put the
        player out: from then on the player watches, as a spectator does."""
        seat = self.match.seat_of[player] if self.match is not None else player
        return seat if seat >= 0 else None

    def player_at(self, seat: int) -> int:
        """The player at ``seat`` this round: the inverse of :meth:`seat_of`."""
        return self.match.player_at(seat) if self.match is not None else seat

    def display_name(self, p: Player, lang: str) -> str:
        """What readers of ``lang`` see for ``p``: its name, "Bot N" for an unnamed
        bot, "(open seat)" for a seat nobody has taken."""
        if p.kind == "bot" and not p.name:
            return gettext_in(lang, T_("Bot {n}")).format(n=p.index + 1)
        if p.kind == "open":
            return gettext_in(lang, T_("(open seat)"))
        return p.name

    def names_by_seat(self, lang: str) -> list[str]:
        """Every seat's display name in ``lang``, in seat order (for narration)."""
        return [self.display_name(self.players[self.player_at(s)], lang) for s in range(self.n)]

    def check_token(self, token: str) -> Player | None:
        """The player whose seat token this is, or None; hashes are compared in
        constant time."""
        h = hash_token(token)
        for p in self.players:
            if p.token_hash is not None and hmac.compare_digest(p.token_hash, h):
                return p
        return None

    def is_away(self, p: Player, now: float | None = None) -> bool:
        """Whether ``p`` is a person disconnected for ``away_after`` seconds or more (a bot
        then stands in at their turn); ``now`` is the event loop's clock."""
        if p.kind != "human" or p.conns:
            return False
        t = self.loop.time() if now is None else now
        return t - p.disconnected_at >= self.config.away_after

    def agent_for(self, seat: int) -> Bot | None:
        """The bot that acts for ``seat`` now: its own, or a stand-in for an absent or idle
        person."""
        p = self.players[self.player_at(seat)]
        if self._automated(seat, self.loop.time()):
            if p.agent is None:
                spec = p.bot if p.kind == "bot" else "basic"
                p.agent = make_bot(spec, self.rng.getrandbits(32))
            rnd = self.match.rounds_played if self.match is not None else 0
            if p.agent_round != rnd:
                p.agent.begin_round(self.rules, seat)
                p.agent_round = rnd
            return p.agent
        return None

    # ======================================================================================
    # what clients are told
    # ======================================================================================
    def info(self, lang: str, you: int | None = None) -> dict[str, Any]:
        """The room as anyone may see it (no tokens, no hands)."""
        now = self.loop.time()
        return {
            "type": "room",
            "id": self.id,
            "status": self.status,
            "rules": self.rules_dict,
            "overrides": self.overrides,
            "host": self.host,
            "match": self.match_no,
            "you": you,
            "players": [{"player": p.index, "kind": p.kind, "name": self.display_name(p, lang),
                         "bot": p.bot if p.kind == "bot" else None,
                         "connected": bool(p.conns), "away": self.is_away(p, now),
                         "seat": self.seat_of(p.index)} for p in self.players],
            "spectators": sum(1 for c in self.conns if c.player is None),
        }

    def _seats(self, lang: str) -> list[dict[str, Any]]:
        now = self.loop.time()
        out = []
        for s in range(self.n):
            p = self.players[self.player_at(s)]
            out.append({"seat": s, "player": p.index, "name": self.display_name(p, lang),
                        "kind": p.kind, "connected": bool(p.conns),
                        "away": self.is_away(p, now), "host": p.index == self.host})
        return out

    def _round_clock_info(self) -> dict[str, Any] | None:
        """HR-BLITZ: the time left in the round, for the page's countdown."""
        limit = self.rules.blitz
        if limit is None or self.match is None or self.match.game.is_over:
            return None
        at = self.round_started + self.config.round_pause + limit
        return {"left_ms": int(max(0.0, at - self.loop.time()) * 1000), "total": limit}

    def _timer_info(self) -> dict[str, Any] | None:
        if self.deadline is None or self.rules.turn_timer is None:
            return None
        left = max(0.0, self.deadline - self.loop.time())
        return {"seat": self.deadline_seat, "left_ms": int(left * 1000),
                "total": self.rules.turn_timer}

    def _view(self, seat: int | None) -> Mapping[str, Any]:
        assert self.match is not None
        game = self.match.game
        if seat is not None:
            return game.view(seat)
        v: dict[str, Any] = dict(game.view(0))  # a spectator: the public part only
        v.update(seat=None, hand=[], drawn=[], legal=[], seen=[])
        v.pop("give_left", None)
        return v

    def _lines(self, lang: str, groups: Sequence[tuple[list[Event], int, str]],
               start: list[Event] | None, viewer: int | None) -> list[str]:
        names = self.names_by_seat(lang)
        out: list[str] = []
        with speaking(lang):
            narrator = Narrator(names)
            if start:
                out += round_start_lines(start, names)
            for events, seat, action in groups:
                line, private = narrator.line(events, viewer, seat=seat, action=action)
                if private and _own_draw(events, viewer):
                    line = ""  # "You drew red 5." says all that "Ann drew 1 card." does
                entry = " ".join(x for x in (line, *private) if x)
                if entry:
                    out.append(entry)
        return out

    def round_log(self, conn: Conn) -> list[str]:
        """The current round so far, narrated for one connection (rejoin, language switch)."""
        if self.match is None:
            return []
        events = self.match.game.events
        first = self.marks[0][0] if self.marks else len(events)
        groups = [(events[a:b], seat, act) for a, b, seat, act in self.marks]
        viewer = self.seat_of(conn.player) if conn.player is not None else None
        return self._lines(conn.lang, groups, events[:first], viewer)

    def _state_for(self, conn: Conn, log_lines: list[str], events: list[Event],
                   view: Mapping[str, Any], lang_cache: dict[str, list[dict[str, Any]]]
                   ) -> dict[str, Any]:
        seats = lang_cache.get(conn.lang)
        if seats is None:
            seats = lang_cache[conn.lang] = self._seats(conn.lang)
        assert self.match is not None
        return {"type": "state", "room": self.id, "status": self.status,
                "match": self.match_no, "round": self.match.rounds_played, "seq": self.seq,
                "you": view["seat"], "view": view, "seats": seats, "log": log_lines,
                "events": events, "timer": self._timer_info(),
                "round_clock": self._round_clock_info(),
                "match_scores": list(self.match.scores)}

    def broadcast_state(self, groups: Sequence[tuple[list[Event], int, str]],
                        start: list[Event] | None = None,
                        only: Conn | None = None) -> None:
        """Tell every connection (or ``only`` one) the state and the new events' lines."""
        if self.match is None:
            return
        targets = [only] if only is not None else list(self.conns)
        if not targets:
            return
        views: dict[int | None, Mapping[str, Any]] = {}
        texts: dict[tuple[int | None, str], str] = {}
        public: dict[str, list[str]] = {}
        seats_cache: dict[str, list[dict[str, Any]]] = {}
        all_events = [e for g in groups for e in g[0]] + (start or [])
        # only a seat that some event is addressed to reads lines of its own; every other seat
        # reads the public narration, made once per language
        recipients = {e["to"] for e in all_events if "to" in e}
        for conn in targets:
            seat = self.seat_of(conn.player) if conn.player is not None else None
            key = (seat, conn.lang)
            text = texts.get(key)
            if text is None:
                view = views.get(seat)
                if view is None:
                    view = views[seat] = self._view(seat)
                if seat is not None and seat in recipients:
                    lines = self._lines(conn.lang, groups, start, seat)
                else:
                    cached = public.get(conn.lang)
                    if cached is None:
                        cached = public[conn.lang] = self._lines(conn.lang, groups, start, None)
                    lines = cached
                events = ([e for e in all_events if "to" not in e or e["to"] == seat]
                          if recipients else all_events)
                text = texts[key] = dumps(self._state_for(conn, lines, events, view,
                                                          seats_cache))
            conn.push(text)

    def broadcast_room(self) -> None:
        """Send every connection the room as :meth:`info` describes it, in its
        language, built once per player and language."""
        texts: dict[tuple[int | None, str], str] = {}
        for conn in list(self.conns):
            key = (conn.player, conn.lang)
            if key not in texts:
                texts[key] = dumps(self.info(conn.lang, conn.player))
            conn.push(texts[key])

    def notice(self, lang: str) -> dict[str, Any]:
        """The room's standing notice in ``lang``: why it cannot go on now (its database is
        away, its stored log stops replaying), or a ``None`` message once it can."""
        text: str | None = None
        if self.broken is not None:
            text = gettext_in(lang, LOG_BROKEN).format(seq=self.broken.seq)
        elif not self.manager.db_ok:
            text = gettext_in(lang, DB_LOST)
        return {"type": "notice", "message": text}

    def send_notice(self) -> None:
        """Tell every connection the room's notice (:meth:`notice`), built once per
        language."""
        texts: dict[str, str] = {}
        for conn in list(self.conns):
            if conn.lang not in texts:
                texts[conn.lang] = dumps(self.notice(conn.lang))
            conn.push(texts[conn.lang])

    def send_all(self, payload: dict[str, Any]) -> None:
        """Send one message, the same for everyone, to every connection at the room."""
        text = dumps(payload)
        for conn in list(self.conns):
            conn.push(text)

    # ======================================================================================
    # the lobby
    # ======================================================================================
    async def join(self, name: str, want: int | None = None) -> tuple[int, str]:
        """Take an open seat; returns the player number and the secret seat token."""
        async with self.lock:
            if self.status != LOBBY:
                raise ProtocolError("already_started",
                                    T_("this game has already started; you can watch it"))
            free = [p for p in self.players if p.kind == "open"]
            if want is not None:
                free = [p for p in free if p.index == want]
                if not free:
                    raise ProtocolError("seat_taken", T_("that seat is not open"))
            if not free:
                raise ProtocolError("room_full", T_("every seat is taken; you can watch"))
            p = free[0]
            token = secrets.token_urlsafe(24)
            await self._write(op_set_player(self.id, PlayerRow(p.index, "human", name,
                                                               hash_token(token), p.bot)))
            p.kind, p.name, p.token_hash = "human", name, hash_token(token)
            p.disconnected_at = self.loop.time()
            self.broadcast_room()
            return p.index, token

    async def set_seat(self, actor: Player, player: int, kind: str, bot: str | None) -> None:
        """The host opens a seat or gives it to a bot (lobby only)."""
        async with self.lock:
            self._host_only(actor)
            if self.status != LOBBY:
                raise ProtocolError("not_in_lobby", T_("seats can be changed only before the "
                                                       "game starts"))
            p = self._player(player)
            if p.index == self.host:
                raise ProtocolError("bad_seat", T_("the host keeps their own seat"))
            if p.kind == "human":
                raise ProtocolError("bad_seat", T_("someone sits there: remove them first"))
            spec = p.bot
            if kind == "bot":
                spec = bot or "basic"
                check_bot(spec)
            await self._write(op_set_player(self.id, PlayerRow(p.index, kind, "", None, spec)))
            p.kind, p.name, p.token_hash, p.agent, p.bot = kind, "", None, None, spec
            self.broadcast_room()

    async def remove(self, actor: Player, player: int) -> None:
        """The host removes someone: before the game the seat opens again; during it a bot
        takes the seat over for the rest of the match."""
        async with self.lock:
            self._host_only(actor)
            p = self._player(player)
            if p.index == self.host:
                raise ProtocolError("bad_seat", T_("the host cannot remove their own seat"))
            if p.kind != "human":
                raise ProtocolError("bad_seat", T_("no person sits there"))
            # before the game the seat opens again; during it a bot plays it
            kind, name, spec = ("open", "", p.bot) if self.status == LOBBY else (
                "bot", p.name, "basic")
            await self._write(op_set_player(self.id, PlayerRow(p.index, kind, name, None,
                                                               spec)))
            p.kind, p.name, p.bot, p.token_hash, p.agent = kind, name, spec, None, None
            for conn in list(p.conns):
                conn.player = None
                conn.push(dumps({"type": "removed", "message": gettext_in(
                    conn.lang, T_("The host removed you from this seat; you are now "
                                  "watching."))}))
            p.conns.clear()
            self.broadcast_room()
            if self.match is not None:
                self.broadcast_state([])
            self.schedule()

    async def hand_over(self, actor: Player, player: int) -> str:
        """The host gives a person's seat a new secret link, for when they changed device and
        the old one is gone: the old link stops working (whoever still uses it watches from
        then on). Returns the new seat token."""
        async with self.lock:
            self._host_only(actor)
            p = self._player(player)
            if p.index == self.host:
                raise ProtocolError("bad_seat", T_("the host moves to another device with "
                                                   "their own rejoin link"))
            if p.kind != "human":
                raise ProtocolError("bad_seat", T_("no person sits there"))
            token = secrets.token_urlsafe(24)
            old = p.token_hash
            p.token_hash = hash_token(token)
            try:
                await self._write(op_set_player(self.id, p.row()))
            except StoreError:
                p.token_hash = old
                raise
            for conn in list(p.conns):
                conn.player = None
                conn.push(dumps({"type": "removed", "message": gettext_in(
                    conn.lang, T_("The host gave your seat to another device; this one is "
                                  "now watching."))}))
                if self.match is not None:
                    self.broadcast_state([], only=conn)
            p.conns.clear()
            p.disconnected_at = self.loop.time()
            self.broadcast_room()
            return token

    async def start(self, actor: Player) -> None:
        """The host starts the match: open seats go to bots."""
        async with self.lock:
            self._host_only(actor)
            if self.status == PLAYING:
                raise ProtocolError("already_started", T_("the game has already started"))
            if self.status == FINISHED:
                raise ProtocolError("already_started", T_("the match is over: use play again"))
            await self._begin_match()

    async def again(self, actor: Player) -> None:
        """After a match, the host starts another with the same table and rules."""
        async with self.lock:
            self._host_only(actor)
            if self.status != FINISHED:
                raise ProtocolError("not_finished", T_("the match is not over yet"))
            await self._begin_match()

    def _host_only(self, actor: Player) -> None:
        if actor.index != self.host:
            raise ProtocolError("not_host", T_("only the host can do that"))

    def _player(self, index: int) -> Player:
        if not 0 <= index < len(self.players):
            raise ProtocolError("bad_seat", T_("there is no player {n}"), n=index)
        return self.players[index]

    async def _begin_match(self) -> None:
        # open seats go to bots: as stored first, in the room once stored
        seated = [dataclasses.replace(p, kind="bot", bot="basic") if p.kind == "open" else p
                  for p in self.players]
        seed = secrets.randbits(63)
        match_no = self.match_no + 1
        names = [self.display_name(p, "en") for p in seated]
        await self._write(op_start_match(self.id, match_no, seed, self.rules_dict, names,
                                         [p.row() for p in seated]))
        for p in self.players:
            if p.kind == "open":
                p.kind, p.bot = "bot", "basic"
            p.agent = None
            p.agent_round = -1
        self.match_no = match_no
        self.seed = seed
        self._new_match(seed)
        self.status = PLAYING
        self.broadcast_room()
        self._round_begins()

    def _new_match(self, seed: int) -> None:
        self.match = Match(self.rules, seed)
        self.seq = 0
        self.marks = []
        self.sent = 0

    def _round_begins(self) -> None:
        """A round was dealt: tell its opening events, arm the timer, wake the bots."""
        assert self.match is not None
        game = self.match.game
        self.marks = []
        self.turns.reset()
        self.round_started = self.loop.time()
        events = list(game.events)
        if self.match.rounds_played == 0:
            events = list(self.match.dealer_events) + events
        self.sent = len(game.events)
        self._arm_timer(None, -1)
        self._arm_round_clock()
        self.broadcast_state([], start=events)
        self._touch()

    # ======================================================================================
    # actions
    # ======================================================================================
    async def act(self, player: Player, text: str, seq: int | None) -> None:
        """A person's action, checked by the engine (its error codes are DIG-4's)."""
        if text.lower().split(maxsplit=1)[:1] in (["timeout"], [TIME_UP_TEXT]):
            # HR-TIMER, HR-BLITZ: only the server's clock runs out
            raise ProtocolError("bad_action", T_("only the server's clock can end a turn "
                                                 "for lack of time"))
        async with self.lock:
            if self.status != PLAYING or self.match is None:
                raise ProtocolError("not_playing", T_("the game is not in progress"))
            self._check_going()
            seat = self.seat_of(player.index)
            if seat is None:
                raise ProtocolError("eliminated", T_("you are out of this match (elimination): "
                                                     "you can watch until it ends"))
            if seq is not None and seq != self.seq:
                verb = text.split(maxsplit=1)[0].lower() if text.strip() else ""
                if verb not in _WINDOW_VERBS:
                    raise ProtocolError("stale", T_("the table has changed since you looked; "
                                                    "try again"))
                # a catch or jump-in still open after someone moved is taken; one that has
                # closed was simply too late, and retrying cannot help
                if text not in {str(a) for a in self.match.game.legal_actions(seat)}:
                    raise ProtocolError("too_late", T_("Too late: someone moved first and "
                                                       "that chance has passed."))
            await self._apply(seat, text, "human")

    def _check_going(self) -> None:
        """Refuse a move, with what the players are shown, while the room cannot go on."""
        if self.broken is not None:
            raise ProtocolError("log_broken", LOG_BROKEN, seq=self.broken.seq)
        if not self.manager.db_ok:
            raise ProtocolError("no_database", DB_LOST)

    async def _apply(self, seat: int, action: Action | str, source: str) -> None:
        """Apply, store, then tell. Raises IllegalAction (nothing changed) when the engine
        refuses it, and StoreError when it could not be stored: the engine is then put back as
        it was, which is what the stored log holds, so no one has seen it or ever will."""
        if not self.manager.db_ok:
            raise StoreError("the database is away", unreachable=True)
        if self.unsure:
            seq = self.seq
            await self._verify()
            if self.seq != seq:  # the move that seemed lost was stored after all
                raise ProtocolError("stale", T_("the table has changed since you looked; "
                                                "try again"))
        match = self.match
        assert match is not None
        game = match.game
        before = len(game.history)
        ev_before = len(game.events)
        prev_turn = game.turn
        if action == TIME_UP_TEXT:  # HR-BLITZ: the round's time ran out
            game.time_up()
        else:
            game.apply(action, seat)
        round_no = match.rounds_played
        rows = [ActionRow(round_no, self.seq + i, s, move_text(game.space, aid), source)
                for i, (s, aid) in enumerate(game.history[before:], 1)]
        try:
            if rows:
                await self._write(op_actions(self.id, self.match_no, rows))
        except StoreError:
            self._take_back(before)
            raise
        # stored: from here on the move is the room's, and everyone hears of it
        self.seq += len(rows)
        text = " ".join(r.action for r in rows)
        events = game.events[ev_before:]
        self.marks.append((ev_before, len(game.events), seat, text))
        self.sent = len(game.events)
        self.turns.moved(game)
        if not game.is_over:
            self._arm_timer(seat, prev_turn)
            self.broadcast_state([(events, seat, text)])
            self._touch()
            return
        result = self._round_result()
        # the final table of the round goes out before the next deal
        self.broadcast_state([(events, seat, text)])
        match.finish_round()
        if match.is_over:
            self.status = FINISHED
            self._clear_timer()
            self.finish_unsaved = True
            await self._save_finish()
        self.send_all(result)
        if match.is_over:
            self.broadcast_state([])  # the final scores, which the round's last state predates
            self.send_all(self._match_result())
            self.broadcast_room()
            self._touch()
        else:
            self._round_begins()

    async def _save_finish(self) -> None:
        """Store the match's result. The log already proves it (a restart finds it there), so
        a write that fails is only noted, and tried again when the database is back."""
        match = self.match
        if not self.finish_unsaved or match is None or not match.is_over:
            return
        try:
            await self._write(op_finish_match(self.id, self.match_no, list(match.winners),
                                              list(match.scores)))
        except StoreError as e:
            log.warning("room %s: the match's result is not stored yet: %s", self.id, e)
            return
        self.finish_unsaved = False

    def _take_back(self, kept: int) -> None:
        """The write of a move failed: put the match back as it was before it, the round's
        first ``kept`` steps, by replaying the match in memory (its seed and the steps before
        the move are exactly what the stored log holds), without asking the database."""
        match = self.match
        assert match is not None
        steps = [step for res in match.results for step in res.actions]
        steps += match.game.history[:kept]
        self.unsure = True
        self._run_steps(self.seed, steps)

    async def _verify(self) -> None:
        """After a write that failed without an answer (the connection broke as it committed),
        find out from the stored log whether it went through; if so (or if the log differs in
        any way) the room follows the log. Raises StoreError while the log cannot be read."""
        try:
            rows = await asyncio.to_thread(self.store.match_actions, self.id, self.match_no)
        except Exception as e:
            lost = StoreError(f"the log could not be read: {brief(e)}",
                              unreachable=_unreachable(e), cause=brief(e))
            if lost.unreachable:
                self.manager.database_lost(lost.cause)
            raise lost from None
        self.unsure = False
        stored = rows[-1].seq if rows else 0
        if stored == self.seq or self.status == MOVED:
            return
        log.warning("room %s: the stored log ends at action %d, the room at %d: it follows "
                    "the log", self.id, stored, self.seq)
        try:
            self._replay(self.seed, rows)
        except BrokenLog as e:
            self._broke(e, rows)
        assert self.match is not None
        self.status = FINISHED if self.match.is_over else PLAYING
        if self.match.is_over:
            self.finish_unsaved = True
            await self._save_finish()
        self.turns.reset()
        self._arm_timer(None, -1)
        self._arm_round_clock()
        self.broadcast_state([])
        if self.status == FINISHED:
            self.send_all(self._match_result())
        self.broadcast_room()
        self._touch()

    def _broke(self, e: BrokenLog, rows: Sequence[ActionRow]) -> None:
        """The stored log stops replaying at ``e.seq``: show the room as the log proves it,
        refuse its moves, and say so once, with the room and the seq."""
        log.error("room %s, match %d: %s; the room is shown as of action %d and refuses moves",
                  self.id, self.match_no, e, e.seq - 1)
        self._replay(self.seed, [r for r in rows if r.seq < e.seq])
        self.broken = e
        self._clear_timer()

    def _round_result(self) -> dict[str, Any]:
        assert self.match is not None
        g = self.match.game
        out = g.outcome
        assert out is not None
        return {"type": "round_over", "round": self.match.rounds_played + 1,
                "winner": out.winner, "reason": out.reason,
                "winner_player": (self.player_at(out.winner) if out.winner is not None
                                  else None),
                "points": list(out.hand_points), "round_scores": list(out.scores),
                "players": [self.player_at(s) for s in range(self.n)],
                # HR-ELIM: the players this round puts out of the match
                "out": [self.player_at(s) for s in eliminated(self.rules, out, g.hand_sizes())]}

    def _match_result(self) -> dict[str, Any]:
        assert self.match is not None
        return {"type": "match_over", "match": self.match_no,
                "winners": list(self.match.winners), "scores": list(self.match.scores),
                "teams": self.rules.team_count, "scoring": self.rules.scoring,
                "players": [p.index for p in self.players]}

    def _touch(self) -> None:
        self.version += 1
        self.changed_at = self.loop.time()
        self.schedule()

    async def _write(self, op: Callable[[Any], None]) -> None:
        """Store one write; a database that cannot be reached pauses every room (and is not
        tried again until it answers a probe)."""
        if not self.manager.db_ok:
            raise StoreError("the database is away", unreachable=True)
        try:
            await self.store.write(op)
        except StoreError as e:
            if e.unreachable:
                self.manager.database_lost(e.cause)
            raise

    def _replay(self, seed: int, rows: Sequence[ActionRow]) -> None:
        """Rebuild the match from its seed and stored action log exactly as it was played
        (DIG-1); a :class:`BrokenLog` names the first action that is missing or does not
        replay."""

        def steps() -> Iterator[tuple[int, int | str]]:
            for n, row in enumerate(rows, 1):
                if row.seq != n:
                    raise BrokenLog(n, "", f"the log goes on at action {row.seq}")
                yield row.seat, row.action

        self._run_steps(seed, steps())

    def _run_steps(self, seed: int, steps: Iterable[tuple[int, int | str]]) -> None:
        """Play the match from ``seed`` through ``steps`` (seat, action text or id), one
        engine step each: the table, its seq and the round's narration marks."""
        self._new_match(seed)
        match = self.match
        assert match is not None
        for seat, action in steps:
            game = match.game
            before = len(game.history)
            ev_before = len(game.events)
            seq = self.seq + 1
            try:
                if action in (TIME_UP_TEXT, TIME_UP):
                    game.time_up()
                else:
                    game.apply(action, seat)
            except IllegalAction as e:
                raise BrokenLog(seq, str(action), f"{e.code}: {e.message}") from None
            if len(game.history) - before != 1:
                raise BrokenLog(seq, str(action), "not one engine step")
            self.seq = seq
            text = action if isinstance(action, str) else move_text(game.space, action)
            self.marks.append((ev_before, len(game.events), seat, text))
            if game.is_over:
                match.finish_round()
                self.marks = []
        self.sent = len(match.game.events)

    # ======================================================================================
    # bots, stand-ins and the timer
    # ======================================================================================
    def schedule(self) -> None:
        """Arrange for the next automated move, if any seat that must or may act is a bot."""
        if self._drive is not None:
            self._drive.cancel()
            self._drive = None
        if self.status != PLAYING or self.match is None or self.broken is not None \
                or not self.manager.db_ok:  # paused: the database's return schedules again
            return
        game = self.match.game
        if game.is_over:
            return
        now = self.loop.time()
        windows = [s for s in self.turns.windows(game) if self._automated(s, now)]
        turn_auto = self._automated(game.turn, now)
        if not windows and not turn_auto:
            p = self.players[self.player_at(game.turn)]
            wakes = []
            if p.kind == "human" and not p.conns:  # when they count as away
                wakes.append(p.disconnected_at + self.config.away_after)
            if self.config.idle_after > 0 and self.rules.turn_timer is None:
                wakes.append(self.changed_at + self.config.idle_after)
            if wakes:
                self._drive = self.loop.call_later(max(0.0, min(wakes) - now) + 0.01,
                                                   self._wake, self.version)
            return
        at = (max(self.changed_at + self.config.window_delay,
                  self.round_started + self.config.round_pause)
              if windows else self._turn_ready_at(now))
        self._drive = self.loop.call_later(max(0.0, at - now), self._wake, self.version)

    def _turn_ready_at(self, now: float) -> float:
        """When a bot may make the turn's move: after it has thought, after the round's pause,
        and not while a catch or jump-in is open to a connected person (their chance would
        close under their click) for the first ``person_window`` seconds."""
        at = max(self.changed_at + self.config.bot_delay,
                 self.round_started + self.config.round_pause)
        if self.config.person_window > 0 and self.match is not None:
            for s in self.turns.windows(self.match.game):
                p = self.players[self.player_at(s)]
                if p.conns and not self._automated(s, now):
                    return max(at, self.changed_at + self.config.person_window)
        return at

    def _automated(self, seat: int, now: float) -> bool:
        p = self.players[self.player_at(seat)]
        return p.kind == "bot" or self.is_away(p, now) or self._idle(seat, now)

    def _idle(self, seat: int, now: float) -> bool:
        """A connected person who keeps the table waiting: without a turn timer (which is the
        room's own pace), a stand-in makes their move after ``idle_after`` seconds."""
        limit = self.config.idle_after
        if limit <= 0 or self.rules.turn_timer is not None or self.match is None:
            return False
        game = self.match.game
        return seat == game.turn and not game.is_over and now - self.changed_at >= limit

    def _wake(self, version: int) -> None:
        if version == self.version:
            self.manager.spawn(self._drive_step(version))
        else:
            self.schedule()

    async def _drive_step(self, version: int) -> None:
        async with self.lock:
            if self.version != version or self.status != PLAYING or self.match is None:
                return
            game = self.match.game
            if game.is_over:
                return
            now = self.loop.time()
            acted = False
            for seat in self.turns.windows(game):
                agent = self.agent_for(seat)
                if agent is None:
                    continue
                legal = game.legal_actions(seat)
                choice: Action | None
                try:
                    choice = agent.window(game.view(seat), legal)
                except Exception:  # a bot that crashes declines; the room goes on
                    log.exception("room %s: bot at seat %d failed", self.id, seat)
                    choice = None
                if choice is None or choice not in legal:
                    self.turns.decline(game, seat)
                    continue
                await self._bot_apply(seat, choice)
                acted = True
                break
            if not acted:
                seat = game.turn
                agent = self.agent_for(seat)
                if agent is None:
                    self.schedule()
                    return
                wait = self._turn_ready_at(now) - now
                if wait > 0.001:
                    self._drive = self.loop.call_later(wait, self._wake, self.version)
                    return
                legal = game.legal_actions(seat)
                if not legal:
                    return
                try:
                    choice = agent.act(game.view(seat), legal, self.rng)
                except Exception:  # a bot that crashes plays its first legal action
                    log.exception("room %s: bot at seat %d failed", self.id, seat)
                    choice = None
                if choice is None or choice not in legal:
                    choice = legal[0]
                await self._bot_apply(seat, choice)

    async def _bot_apply(self, seat: int, choice: Action) -> None:
        p = self.players[self.player_at(seat)]
        source = "bot" if p.kind == "bot" else "away"
        try:
            await self._apply(seat, choice, source)
        except IllegalAction as e:  # a bot's mistake must not stop the room
            log.warning("room %s: bot at seat %d chose %s: %s", self.id, seat, choice, e)
            if self.match is not None and seat != self.match.game.turn:
                self.turns.decline(self.match.game, seat)  # refused in a window: let it pass
            self.schedule()
        except (StoreError, ProtocolError):  # not stored (the database's return reschedules
            # a paused room), or the table changed meanwhile: think again
            self.schedule()

    def _arm_timer(self, actor: int | None, prev_turn: int) -> None:
        """HR-TIMER: the seat that must act has ``turn_timer`` seconds from when it must."""
        limit = self.rules.turn_timer
        if limit is None or self.match is None or self.status != PLAYING \
                or self.broken is not None:
            self._clear_timer()
            return
        game = self.match.game
        if game.is_over:
            self._clear_timer()
            return
        if actor is not None and game.turn == prev_turn and actor != game.turn \
                and self.deadline is not None:
            return  # someone else's window action: the turn seat's clock runs on
        now = self.loop.time()
        start = now
        if actor is None:  # a new round: the clock starts after the pause
            start = max(now, self.round_started + self.config.round_pause)
        self._clear_timer()
        self.deadline = start + limit
        self.deadline_seat = game.turn
        self._deadline_token += 1
        self._timer = self.loop.call_later(self.deadline - now, self._timer_fired,
                                           self._deadline_token)

    def _arm_round_clock(self) -> None:
        """HR-BLITZ: the round ends on time ``blitz`` seconds after its deal (and the pause
        after it); the fewest points in hand win."""
        if self._round_clock is not None:
            self._round_clock.cancel()
            self._round_clock = None
        limit = self.rules.blitz
        if limit is None or self.match is None or self.status != PLAYING \
                or self.match.game.is_over or self.broken is not None:
            return
        at = self.round_started + self.config.round_pause + limit
        token = (self.match_no, self.match.rounds_played)
        self._round_clock = self.loop.call_later(max(0.0, at - self.loop.time()),
                                                 self._round_clock_fired, token)

    def _round_clock_fired(self, token: tuple[int, int]) -> None:
        self.manager.spawn(self._time_up(token))

    async def _time_up(self, token: tuple[int, int]) -> None:
        async with self.lock:
            match = self.match
            if match is None or self.status != PLAYING or match.game.is_over \
                    or token != (self.match_no, match.rounds_played) \
                    or not self.manager.db_ok or self.broken is not None:
                return  # (paused: the clock is armed again when the database is back)
            try:
                await self._apply(match.game.turn, TIME_UP_TEXT, "timer")
            except (IllegalAction, ProtocolError) as e:
                log.warning("room %s: round time-up refused: %s", self.id, e)
            except StoreError as e:
                if not e.unreachable:  # (away: the clock is armed again when it is back)
                    log.warning("room %s: the round's time-up was not stored: %s", self.id, e)
                    self._round_clock = self.loop.call_later(1.0, self._round_clock_fired, token)

    def _clear_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.deadline = None

    def _timer_fired(self, token: int) -> None:
        self.manager.spawn(self._timeout(token))

    async def _timeout(self, token: int) -> None:
        async with self.lock:
            if token != self._deadline_token or self.match is None or self.status != PLAYING \
                    or not self.manager.db_ok or self.broken is not None:
                return  # (paused: the timer is armed again when the database is back)
            game = self.match.game
            if game.is_over or game.turn != self.deadline_seat:
                return
            try:
                await self._apply(game.turn, "timeout", "timer")
            except (IllegalAction, ProtocolError) as e:
                log.warning("room %s: timeout refused: %s", self.id, e)
            except StoreError as e:
                if not e.unreachable:  # (away: the timer is armed again when it is back)
                    log.warning("room %s: the timeout was not stored: %s", self.id, e)
                    self._set_deadline(1.0)  # tried again, after a look at the stored log

    # ======================================================================================
    # the database away and back
    # ======================================================================================
    def pause(self) -> None:
        """The database went away: bots and clocks stop where they are, and everyone at the
        table is told why nothing moves."""
        if self._drive is not None:
            self._drive.cancel()
            self._drive = None
        if self._paused_at is None:
            self._paused_at = self.loop.time()
        if self.deadline is not None:
            self._paused_left = max(0.0, self.deadline - self.loop.time())
            self._paused_seat = self.deadline_seat
        self._clear_timer()
        if self._round_clock is not None:
            self._round_clock.cancel()
            self._round_clock = None
        self.send_notice()

    async def resume(self) -> None:
        """The database is back: a room whose last write went unanswered first looks at its
        stored log; then the clocks go on (the turn seat keeps the time it had left, a timed
        round is longer by the time the room was paused), bots move again and the notice
        goes."""
        async with self.lock:
            if self.status == MOVED or not self.manager.db_ok:
                return
            if self.unsure:
                with contextlib.suppress(StoreError):
                    await self._verify()
            await self._save_finish()
            if self._paused_at is not None:  # (a room loaded meanwhile was never paused)
                self.round_started += self.loop.time() - self._paused_at
                self._paused_at = None
            match = self.match
            if self.status == PLAYING and match is not None and not match.game.is_over \
                    and self.broken is None:
                limit = self.rules.turn_timer
                self._clear_timer()
                if limit is not None:
                    same = self._paused_left is not None and self._paused_seat == match.game.turn
                    self._set_deadline(self._paused_left if same and self._paused_left
                                       is not None else float(limit))
                self._arm_round_clock()
            self._paused_left = None
            self.send_notice()
            self._touch()

    def _set_deadline(self, left: float) -> None:
        """Arm the turn timer of the seat whose turn it is, ``left`` seconds from now."""
        assert self.match is not None
        self._clear_timer()
        self.deadline = self.loop.time() + left
        self.deadline_seat = self.match.game.turn
        self._deadline_token += 1
        self._timer = self.loop.call_later(left, self._timer_fired, self._deadline_token)

    # ======================================================================================
    # connections
    # ======================================================================================
    def attach(self, conn: Conn, player: Player | None) -> None:
        """Bring a connection to the table (``player`` None: a spectator): welcome it, catch
        it up on the state, log and result, and tell the others. Called under the room's lock
        (a move whose write is pending must not be shown)."""
        conn.room = self
        conn.player = player.index if player is not None else None
        self.conns.add(conn)
        if player is not None:
            player.conns.add(conn)
        conn.push(dumps({"type": "welcome", "room": self.id,
                         "player": conn.player, "host": conn.player == self.host,
                         "seat": self.seat_of(conn.player) if conn.player is not None else None}))
        self.broadcast_room()
        if self.match is not None:
            self.broadcast_state([], only=conn)
            conn.push(dumps({"type": "log", "lines": self.round_log(conn)}))
            if self.status == FINISHED:
                conn.push(dumps(self._match_result()))
        note = self.notice(conn.lang)
        if note["message"] is not None:
            conn.push(dumps(note))
        if player is not None:
            self.schedule()

    def stop(self) -> None:
        """The room stops here (shutdown, or another process took it): its bots and clocks
        stop and its connections close."""
        if self._drive is not None:
            self._drive.cancel()
        self._clear_timer()
        if self._round_clock is not None:
            self._round_clock.cancel()
        for conn in list(self.conns):
            conn.close()

    def detach(self, conn: Conn) -> None:
        """Take a connection away; a person's last one starts their away clock, after which
        a bot may stand in."""
        self.conns.discard(conn)
        if conn.player is not None:
            p = self.players[conn.player]
            p.conns.discard(conn)
            if not p.conns:
                p.disconnected_at = self.loop.time()
            self.broadcast_room()
            self.schedule()
        conn.room = None


def _own_draw(events: Sequence[Event], viewer: int | None) -> bool:
    """Whether everything public in ``events`` is ``viewer`` drawing (or pressing the
    launcher) on their turn and perhaps keeping the card, which their private "You drew ..."
    line and the turn moving on already say."""
    public = [e for e in events if "to" not in e]
    return viewer is not None and bool(public) and all(
        e.get("t") in _DRAWS and e.get("seat") == viewer
        and e.get("reason", "turn") == "turn" for e in public)


def check_bot(spec: str) -> None:
    """Refuse a bot spec that cannot be built, with a ``bad_bot`` error naming the problem."""
    try:
        make_bot(spec, 0)
    except (ValueError, KeyError) as e:
        raise ProtocolError("bad_bot", T_("unknown bot: {error}"), error=str(e)) from None


class RoomManager:
    """Every room of the server, loaded from the database at start."""

    def __init__(self, store: Store, config: ServerConfig) -> None:
        self.store = store
        self.config = config
        self.rooms: dict[str, Room] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self._create_stamps: dict[str, RateLimit] = {}
        #: with several processes: the write that makes a new room's creator its owner
        self.lease_op: Callable[[str], Callable[[Any], None]] | None = None
        #: whether the database answers; while it does not, every room is paused
        self.db_ok = True
        self.outages = 0
        self._lost_at = 0.0
        #: how this process holds the database (Store.claim: shared with a broker), taken
        #: again when the database comes back; None: it does not
        self.claim_shared: bool | None = None

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run a room's coroutine as a task the manager keeps (and cancels at shutdown);
        whatever it raises is logged, never left for "Task exception was never retrieved"."""
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a room's task failed", exc_info=task.exception())

    # -- the database away and back ----------------------------------------------------------
    def database_lost(self, why: str) -> None:
        """The database cannot be reached: pause every room (they refuse moves, with a notice
        to every player; bots and clocks wait) and look for it until it answers."""
        if not self.db_ok:
            return
        self.db_ok = False
        self.outages += 1
        self._lost_at = asyncio.get_running_loop().time()
        log.warning("the database cannot be reached: %s; %d room(s) wait for it", why,
                    len(self.rooms))
        for room in list(self.rooms.values()):
            room.pause()
        self.spawn(self._look_for_database())

    async def _look_for_database(self) -> None:
        """Probe the database every :data:`PROBE_EVERY` seconds; once it answers (and this
        process holds it again, see :meth:`Store.claim`), every room goes on."""
        busy = ""
        while True:
            await asyncio.sleep(PROBE_EVERY)
            try:
                await asyncio.to_thread(self._probe)
            except DatabaseBusy as e:
                if str(e) != busy:
                    busy = str(e)
                    log.error("the database is back, but %s; this process waits", e)
                continue
            except Exception:  # still away: look again
                continue
            break
        outage = asyncio.get_running_loop().time() - self._lost_at
        self.db_ok = True
        log.warning("the database is back after %.1f s: %d room(s) go on", outage,
                    len(self.rooms))
        for room in list(self.rooms.values()):
            self.spawn(room.resume())

    def _probe(self) -> None:
        self.store.ping()
        if self.claim_shared is not None:
            self.store.claim(self.claim_shared, wait=0)

    def get(self, room_id: str) -> Room:
        """The room ``room_id`` of this process; a ``no_room`` :class:`ProtocolError`
        when it has none."""
        room = self.rooms.get(room_id)
        if room is None:
            raise ProtocolError("no_room", T_("there is no room {room}"), room=room_id[:40])
        return room

    async def load(self, ids: Sequence[str] | None = None) -> int:
        """Rebuild every stored room (or those of ``ids``) by replaying its log (a restart, or
        a take-over from a process that died, loses nothing)."""
        rows = await asyncio.to_thread(self.store.load_rooms, ids)
        for row in rows:
            if row.id in self.rooms:
                continue
            try:
                room = self._restore(row)
            except Exception as e:  # rules this version no longer reads, say
                log.error("room %s could not be restored: %s: %s", row.id, type(e).__name__, e)
                continue
            if room.status == FINISHED and row.status != FINISHED and room.match is not None:
                # the server stopped between the last action and the match's result
                room.finish_unsaved = True
                await room._save_finish()
        return len(rows)

    def _restore(self, row: RoomRow) -> Room:
        rules = RuleSet.from_dict(row.rules)
        people = [Player(p.player, p.kind, p.name, p.token_hash, p.bot) for p in row.players]
        room = Room(self, row.id, rules, row.host, people, row.created_at)
        now = room.loop.time()
        for p in people:
            p.disconnected_at = now
        room.match_no = row.match_no
        room.status = row.status
        if row.seed is not None and row.status != LOBBY:
            room.seed = row.seed
            try:
                room._replay(row.seed, row.actions)
            except BrokenLog as e:  # shown as far as it replays, never lost from sight
                room._broke(e, row.actions)
            assert room.match is not None
            if room.broken is not None:
                pass
            elif room.match.is_over:
                room.status = FINISHED
            else:
                room.round_started = now
                room._arm_timer(None, -1)
                room._arm_round_clock()
                room._touch()
        self.rooms[row.id] = room
        return room

    async def create(self, name: str, rules: RuleSet, seats: Sequence[Mapping[str, Any]],
                     client: str = "") -> tuple[Room, str]:
        """A new room with its creator (the host) in seat 0; returns it and their token."""
        if not self.db_ok:
            raise ProtocolError("no_database", DB_LOST)
        if len(self.rooms) >= self.config.max_rooms:
            raise ProtocolError("too_many_rooms", T_("the server has too many rooms; try "
                                                     "again later"))
        if self.config.create_rate > 0:
            lim = self._create_stamps.setdefault(
                client, RateLimit(self.config.create_rate, max(1.0, self.config.create_rate
                                                                * 10)))
            if not lim.allow():
                raise ProtocolError("rate_limited", T_("too many requests; slow down"))
        if len(seats) != rules.players:
            raise ProtocolError("bad_seats", T_("give one seat for each of the {n} players"),
                                n=rules.players)
        people: list[Player] = []
        token = secrets.token_urlsafe(24)
        for i, s in enumerate(seats):
            kind = s.get("kind")
            if i == 0:
                people.append(Player(0, "human", name, hash_token(token)))
            elif kind == "bot":
                spec = str(s.get("bot") or "basic")
                check_bot(spec)
                people.append(Player(i, "bot", "", None, spec))
            elif kind in ("human", "open"):
                people.append(Player(i, "open"))
            else:
                raise ProtocolError("bad_seats", T_("a seat is human or bot"))
        room_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        while room_id in self.rooms:
            room_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        room = Room(self, room_id, rules, 0, people, time.time())
        people[0].disconnected_at = room.loop.time()
        op = op_create_room(room_id, rules.to_dict(), 0, [p.row() for p in people])
        if self.lease_op is not None:
            op = _together(op, self.lease_op(room_id))
        await self.store.write(op)
        self.rooms[room_id] = room
        return room, token

    def drop(self, room_id: str) -> None:
        """Let go of a room another process has taken over: its timers stop, its clients are
        disconnected (they reconnect, and reach the new owner)."""
        room = self.rooms.pop(room_id, None)
        if room is None:
            return
        room.status = MOVED
        room.stop()

    async def close(self) -> None:
        """Server shutdown: stop every room's bots and timers, close every connection
        and cancel pending tasks. The rooms stay in the database."""
        for room in self.rooms.values():
            room.stop()
        for task in list(self.tasks):
            task.cancel()


def _together(*ops: Callable[[Any], None]) -> Callable[[Any], None]:
    """Several writes that commit in one transaction or not at all."""
    def run(conn: Any) -> None:
        for op in ops:
            op(conn)
    return run


def make_rules(preset_name: Any, overrides: Any) -> RuleSet:
    """A validated rule set from a request; a :class:`ProtocolError` names the bad key."""
    if not isinstance(preset_name, str) or not preset_name:
        raise ProtocolError("bad_rules", T_("choose a preset"))
    if overrides is None:
        overrides = {}
    if not isinstance(overrides, dict) or len(overrides) > 64:
        raise ProtocolError("bad_rules", T_("house rules must be an object of key: value"))
    try:
        return RuleSet.create(preset_name, **{str(k): v for k, v in overrides.items()
                                              if k != "preset"})
    except ConfigError as e:
        raise ProtocolError("bad_rules", T_("bad rules: {error}"), error=str(e)) from None
    except (TypeError, ValueError) as e:
        raise ProtocolError("bad_rules", T_("bad rules: {error}"), error=str(e)) from None
