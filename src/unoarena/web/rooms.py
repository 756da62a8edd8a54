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
import logging
import random
import secrets
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine import (
    TIME_UP_TEXT,
    Action,
    ConfigError,
    Match,
    RuleSet,
    move_text,
)
from ..table_loop import LENIENT, TableLoop
from . import ratings
from .absent import Votes
from .broadcasting import Broadcaster
from .catalog import T_
from .chat import RoomChat, restore_chat
from .lobby import Lobby
from .persistence import DB_LOST, LOG_BROKEN, NOT_SAVED, BrokenLog, Persistence, store_problem
from .protocol import ProtocolError, RateLimit
from .seating import (
    FINISHED,
    LOBBY,
    MOVED,
    PLAYING,
    Conn,
    Player,
    Seating,
    check_bot,
    hash_token,
)
from .store import (
    ActionRow,
    DatabaseBusy,
    RoomRow,
    Store,
    StoreError,
    op_actions,
    op_create_room,
    op_start_match,
)
from .timing import Clock

__all__ = ["DB_LOST", "ERROR_TEXT", "FINISHED", "LOBBY", "LOG_BROKEN", "MOVED", "NOT_SAVED",
           "PLAYING", "BrokenLog", "Conn", "Player", "Room", "RoomManager", "ServerConfig",
           "check_bot", "hash_token", "make_rules", "store_problem"]

log = logging.getLogger("unoarena.web")

_WINDOW_VERBS = frozenset({"catch", "jump_in", "uno"})  # chances taken out of turn
PROBE_EVERY = 0.25  # seconds between looks for a database that went away


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
    remote_move_s: float = 5.0  # a remote bot's time to move (no turn timer): then its stand-in
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
    quick_wait: float = 20.0  # seconds a new quick-play table waits for people before bots
    accounts: bool = False  # people may sign up and log in; rated rooms (accounts.py)


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
    "last_card_is_wild": T_("Your last card may not be a wild card."),
    "bad_target": T_("Choose another player as the target."),
    "not_in_rules": T_("The rules of this room do not have that action."),
    "bad_action": T_("That action cannot be understood."),
    "round_over": T_("The round is over."),
}


class Room:
    """A table: its rules, players and match, made of four pieces with one job each.

    :attr:`seating` (who sits where, the lobby), :attr:`clock` (when bots act, the timers),
    :attr:`out` (what the connections are told) and :attr:`saving` (writes, take-backs,
    replays). What stays here is the match itself: starting one, and applying a move (stored,
    then told).
    """

    def __init__(self, manager: RoomManager, room_id: str, rules: RuleSet, host: int,
                 people: list[Player], created_at: float, public: bool = False,
                 fill_bot: str | None = None) -> None:
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
        self.public = public  # listed in the lobby (lobby.py); else found by its link only
        self.fill_bot = fill_bot  # a quick-play table: the bot its empty seats get
        self.fill_timer: asyncio.TimerHandle | None = None  # when those bots sit down
        self.fill_at: float | None = None  # (event loop clock)
        self.rated = False  # the host's choice at creation: see ratings.is_rated
        self.status = LOBBY
        self.match: Match | None = None
        self.match_no = 0
        self.seed = 0
        self.seq = 0
        self.lock = asyncio.Lock()
        self.conns: set[Conn] = set()
        #: this round: the events of each action, its seat, text and source (bot, late...)
        self.marks: list[tuple[int, int, int, str, str]] = []
        self.sent = 0  # events of the current round already told
        self.version = 0
        loop = asyncio.get_running_loop()
        self.loop = loop
        #: who acts next (DIG-3) and what a bot's bad move gets: here it declines its window or
        #: plays its first legal action, for the room must go on
        self.order = TableLoop(LENIENT, label=room_id)
        self.rng = random.Random(secrets.randbits(64))
        self.seating = Seating(self)
        self.clock = Clock(self)
        self.out = Broadcaster(self)
        self.saving = Persistence(self)
        self.talk = RoomChat(self)
        self.votes = Votes(self)

    async def start(self, actor: Player) -> None:
        """The host starts the match: open seats go to bots."""
        async with self.lock:
            self.seating.host_only(actor)
            if self.status == PLAYING:
                raise ProtocolError("already_started", T_("the game has already started"))
            if self.status == FINISHED:
                raise ProtocolError("already_started", T_("the match is over: use play again"))
            await self.begin_match()

    async def again(self, actor: Player) -> None:
        """After a match, the host starts another with the same table and rules."""
        async with self.lock:
            self.seating.host_only(actor)
            if self.status != FINISHED:
                raise ProtocolError("not_finished", T_("the match is not over yet"))
            await self.begin_match()

    async def begin(self, seed: int) -> None:
        """Start the match dealt from ``seed``, for a program that runs tables of its own (the
        lab's duplicate deals: every seating of a deal gets the same cards); no person can."""
        async with self.lock:
            if self.status != LOBBY:
                raise ProtocolError("already_started", T_("the game has already started"))
            await self.begin_match(seed)

    async def begin_match(self, seed: int | None = None) -> None:
        """Start a match (under the room's lock): people waiting for a bot's seat take it, and
        open seats go to bots (a quick-play table's own, else the basic one); dealt from
        ``seed`` when given, else from a fresh random one."""
        await self.seating.seat_heirs()
        if self.fill_timer is not None:
            self.fill_timer.cancel()
            self.fill_timer = None
        fill = self.fill_bot or "basic"
        # open seats go to bots: as stored first, in the room once stored
        seated = [dataclasses.replace(p, kind="bot", bot=fill) if p.kind == "open" else p
                  for p in self.players]
        seed = secrets.randbits(63) if seed is None else seed
        match_no = self.match_no + 1
        names = [self.seating.display_name(p, "en") for p in seated]
        await self.saving.write(op_start_match(self.id, match_no, seed, self.rules_dict, names,
                                         [p.row() for p in seated]))
        for p in self.players:
            if p.kind == "open":
                p.kind, p.bot = "bot", fill
            p.agent = None
            p.agent_round = -1
        self.match_no = match_no
        self.seed = seed
        self._new_match(seed)
        self.status = PLAYING
        self.out.broadcast_room()
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
        self.order.reset()
        self.clock.round_started = self.loop.time()
        events = list(game.events)
        if self.match.rounds_played == 0:
            events = list(self.match.dealer_events) + events
        self.sent = len(game.events)
        self.clock.arm_timer(None, -1)
        self.clock.arm_round_clock()
        self.out.broadcast_state([], start=events)
        self.touch()

    async def act(self, player: Player, text: str, seq: int | None,
                  move_id: str | None = None) -> None:
        """A person's action, checked by the engine (its error codes are DIG-4's).

        ``move_id`` is the sender's name for this move: a page whose socket dropped as it sent
        a move sends it again after reconnecting, not knowing whether it arrived, and a move
        whose id this seat's last move had is not applied a second time."""
        if text.lower().split(maxsplit=1)[:1] in (["timeout"], [TIME_UP_TEXT]):
            # HR-TIMER, HR-BLITZ: only the server's clock runs out
            raise ProtocolError("bad_action", T_("only the server's clock can end a turn "
                                                 "for lack of time"))
        async with self.lock:
            if self.status != PLAYING or self.match is None:
                raise ProtocolError("not_playing", T_("the game is not in progress"))
            if move_id is not None and move_id == player.last_move:
                return  # arrived before the drop: the table the page was sent shows it
            self._check_going()
            seat = self.seating.seat_of(player.index)
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
            await self.apply(seat, text, "human")
            if move_id is not None:
                player.last_move = move_id

    def _check_going(self) -> None:
        """Refuse a move, with what the players are shown, while the room cannot go on."""
        if self.saving.broken is not None:
            raise ProtocolError("log_broken", LOG_BROKEN, seq=self.saving.broken.seq)
        if not self.manager.db_ok:
            raise ProtocolError("no_database", DB_LOST)

    async def apply(self, seat: int, action: Action | str, source: str) -> None:
        """Apply, store, then tell. Raises IllegalAction (nothing changed) when the engine
        refuses it, and StoreError when it could not be stored: the engine is then put back as
        it was, which is what the stored log holds, so no one has seen it or ever will."""
        if not self.manager.db_ok:
            raise StoreError("the database is away", unreachable=True)
        if self.saving.unsure:
            seq = self.seq
            await self.saving.verify()
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
                await self.saving.write(op_actions(self.id, self.match_no, rows))
        except StoreError:
            self.saving.take_back(before)
            raise
        # stored: from here on the move is the room's, and everyone hears of it
        self.seq += len(rows)
        text = " ".join(r.action for r in rows)
        events = game.events[ev_before:]
        self.marks.append((ev_before, len(game.events), seat, text, source))
        self.sent = len(game.events)
        self.order.moved(game)
        if not game.is_over:
            self.clock.arm_timer(seat, prev_turn)
            self.out.broadcast_state([(events, seat, text, source)])
            self.touch()
            return
        result = self.out.round_result()
        # the final table of the round goes out before the next deal
        self.out.broadcast_state([(events, seat, text, source)])
        match.finish_round()
        if match.is_over:
            self.status = FINISHED
            self.clock.clear_timer()
            self.saving.finish_unsaved = True
            await self.saving.save_finish()
            ratings.match_over(self)
        self.out.send_all(result)
        if match.is_over:
            self.out.broadcast_state([])  # the final scores, which the round's last state predates
            self.out.send_all(self.out.match_result())
            self.out.broadcast_room()
            # out of play, the players read what the spectators said
            self.talk.send_history(c for c in self.conns if c.player is not None)
            self.touch()
        else:
            await self.seating.seat_heirs()  # between rounds: people take over bots' seats
            self._round_begins()

    def touch(self) -> None:
        """Something changed: note when (bots pace themselves by it) and arrange what comes
        next."""
        self.version += 1
        self.clock.changed_at = self.loop.time()
        self.clock.schedule()

    async def resume(self) -> None:
        """The database is back: a room whose last write went unanswered first looks at its
        stored log; then the clocks go on (the turn seat keeps the time it had left, a timed
        round is longer by the time the room was paused), bots move again and the notice
        goes."""
        async with self.lock:
            if self.status == MOVED or not self.manager.db_ok:
                return
            if self.saving.unsure:
                with contextlib.suppress(StoreError):
                    await self.saving.verify()
            await self.saving.save_finish()
            if self.clock.paused_at is not None:  # (a room loaded meanwhile was never paused)
                self.clock.round_started += self.loop.time() - self.clock.paused_at
                self.clock.paused_at = None
            match = self.match
            if self.status == PLAYING and match is not None and not match.game.is_over \
                    and self.saving.broken is None:
                limit = self.rules.turn_timer
                self.clock.clear_timer()
                if limit is not None:
                    clock = self.clock
                    left = clock.paused_left
                    same = left is not None and clock.paused_seat == match.game.turn
                    clock.set_deadline(left if same and left is not None else float(limit))
                self.clock.arm_round_clock()
            self.clock.paused_left = None
            self.out.send_notice()
            self.touch()

    def stop(self) -> None:
        """The room stops here (shutdown, or another process took it): its bots and clocks
        stop and its connections close."""
        self.clock.stop()
        if self.fill_timer is not None:
            self.fill_timer.cancel()
            self.fill_timer = None
        for conn in list(self.conns):
            conn.close()


class RoomManager:
    """Every room of the server, loaded from the database at start."""

    def __init__(self, store: Store, config: ServerConfig) -> None:
        self.store = store
        self.config = config
        self.rooms: dict[str, Room] = {}
        self.lobby = Lobby(self)  # the public rooms, live, for people looking for a game
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
            room.clock.pause()
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
        restored: list[Room] = []
        for row in rows:
            if row.id in self.rooms:
                continue
            try:
                room = self._restore(row)
            except Exception as e:  # rules this version no longer reads, say
                log.error("room %s could not be restored: %s: %s", row.id, type(e).__name__, e)
                continue
            restored.append(room)
            if room.status == FINISHED and row.status != FINISHED and room.match is not None:
                # the server stopped between the last action and the match's result
                room.saving.finish_unsaved = True
                await room.saving.save_finish()
            if room.status == FINISHED:  # a rating the last owner had no time to store
                ratings.match_over(room)  # (a match is rated once: a second try does nothing)
        await restore_chat(restored, self.store)
        return len(rows)

    def _restore(self, row: RoomRow) -> Room:
        rules = RuleSet.from_dict(row.rules)
        people = [Player.from_row(p) for p in row.players]
        room = Room(self, row.id, rules, row.host, people, row.created_at, row.public,
                    row.fill_bot)
        room.rated = row.rated
        now = room.loop.time()
        for p in people:
            p.disconnected_at = now
        room.match_no = row.match_no
        room.status = row.status
        if row.seed is not None and row.status != LOBBY:
            room.seed = row.seed
            try:
                room.saving.replay(row.seed, row.actions)
            except BrokenLog as e:  # shown as far as it replays, never lost from sight
                room.saving.broke(e, row.actions)
            assert room.match is not None
            if room.saving.broken is not None:
                pass
            elif room.match.is_over:
                room.status = FINISHED
            else:
                room.clock.round_started = now
                room.clock.arm_timer(None, -1)
                room.clock.arm_round_clock()
                room.touch()
        self.rooms[row.id] = room
        if room.fill_bot and room.status == LOBBY:  # its wait starts again
            from .quickplay import arm_fill

            arm_fill(room)
        self.lobby.note(room)
        return room

    async def create(self, name: str, rules: RuleSet, seats: Sequence[Mapping[str, Any]],
                     client: str = "", public: bool = False,
                     fill_bot: str | None = None, rated: bool = False) -> tuple[Room, str]:
        """A new room with its creator (the host) in seat 0; returns it and their token.
        ``public``: listed in the lobby; ``fill_bot``: a quick-play table's bot; ``rated``:
        the host's choice."""
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
        room_id = self._new_id()
        room = Room(self, room_id, rules, 0, people, time.time(), public, fill_bot)
        people[0].disconnected_at = room.loop.time()
        room.rated = rated
        op = op_create_room(room_id, rules.to_dict(), 0, [p.row() for p in people], public,
                            fill_bot, rated)
        if self.lease_op is not None:
            op = together(op, self.lease_op(room_id))
        await self.store.write(op)
        self.rooms[room_id] = room
        self.lobby.note(room)
        return room, token

    async def create_table(self, rules: RuleSet, seats: Sequence[tuple[str, str]]
                           ) -> tuple[Room, dict[int, str]]:
        """A room with no person at it, for a program that runs tables of bots and remote bots
        (the lab): each seat is ``("bot", spec)`` or ``("remote", stand-in spec)``. Returns the
        room and each remote seat's bot token. It has no host: :meth:`Room.begin` starts it."""
        if len(seats) != rules.players:
            raise ProtocolError("bad_seats", T_("give one seat for each of the {n} players"),
                                n=rules.players)
        people: list[Player] = []
        tokens: dict[int, str] = {}
        for i, (kind, spec) in enumerate(seats):
            if kind not in ("bot", "remote"):
                raise ProtocolError("bad_seats", T_("a seat is human or bot"))
            check_bot(spec)
            if kind == "remote":
                tokens[i] = secrets.token_urlsafe(24)
            people.append(Player(i, kind, "", hash_token(tokens[i]) if i in tokens else None,
                                 spec))
        room_id = self._new_id()
        room = Room(self, room_id, rules, -1, people, time.time())
        await self.store.write(op_create_room(room_id, rules.to_dict(), -1,
                                              [p.row() for p in people]))
        self.rooms[room_id] = room
        return room, tokens

    def _new_id(self) -> str:
        """A fresh room id: eight letters, digits, x and y (easy to read out)."""
        room_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        while room_id in self.rooms:
            room_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        return room_id

    def drop(self, room_id: str) -> None:
        """Let go of a room another process has taken over: its timers stop, its clients are
        disconnected (they reconnect, and reach the new owner)."""
        room = self.rooms.pop(room_id, None)
        if room is None:
            return
        room.status = MOVED
        room.stop()
        self.lobby.note(room)

    async def close(self) -> None:
        """Server shutdown: stop every room's bots and timers, close every connection
        and cancel pending tasks. The rooms stay in the database."""
        self.lobby.close()
        for room in self.rooms.values():
            room.stop()
        for task in list(self.tasks):
            task.cancel()


def together(*ops: Callable[[Any], None]) -> Callable[[Any], None]:
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
