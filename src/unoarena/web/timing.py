"""A room's clocks: when its bots and stand-ins act, the turn timer, the round's time limit.

Each is a callback on the event loop that takes the same path as a person's action (under the
room's lock, stored before shown). Who acts next, and what a bot's bad move gets, is the
:class:`~unoarena.table_loop.TableLoop`'s; this piece only decides when. While the database is
away every clock stops, and goes on with the time it had left when it is back.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from ..engine import TIME_UP_TEXT, Action, IllegalAction
from .protocol import ProtocolError
from .seating import ABSENT, LATE, PLAYING
from .store import StoreError

if TYPE_CHECKING:
    from .rooms import Room

log = logging.getLogger("unoarena.web")


class Clock:
    """The timers of one room and the pacing of its bots."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.changed_at = room.loop.time()
        self.round_started = -1e9
        self._drive: asyncio.TimerHandle | None = None
        self._timer: asyncio.TimerHandle | None = None
        self.deadline: float | None = None
        self.deadline_seat = -1
        self.deadline_token = 0
        self._round_clock: asyncio.TimerHandle | None = None  # HR-BLITZ
        self.paused_at: float | None = None  # when the database went away (loop clock)
        self.paused_left: float | None = None  # the turn timer's time left then
        self.paused_seat = -1

    def stop(self) -> None:
        """Stop every clock: the room stops here (shutdown, or another process took it)."""
        if self._drive is not None:
            self._drive.cancel()
        self.clear_timer()
        if self._round_clock is not None:
            self._round_clock.cancel()

    def schedule(self) -> None:
        """Arrange for the next automated move, if any seat that must or may act is a bot."""
        room = self.room
        if self._drive is not None:
            self._drive.cancel()
            self._drive = None
        if room.status != PLAYING or room.match is None or room.saving.broken is not None \
                or not room.manager.db_ok:  # paused: the database's return schedules again
            return
        game = room.match.game
        if game.is_over:
            return
        now = room.loop.time()
        windows = [s for s in room.order.turns.windows(game) if self.automated(s, now)]
        turn_auto = self.automated(game.turn, now)
        if not windows and not turn_auto:
            p = room.players[room.seating.player_at(game.turn)]
            wakes = []
            if p.kind == "human" and not p.conns:  # when they count as away
                wakes.append(p.disconnected_at + room.config.away_after)
            limit = self._move_budget(p.kind)
            if limit > 0 and room.rules.turn_timer is None:
                wakes.append(self.changed_at + limit)
            if wakes:
                self._drive = room.loop.call_later(max(0.0, min(wakes) - now) + 0.01,
                                                   self._wake, room.version)
            return
        at = (max(self.changed_at + room.config.window_delay,
                  self.round_started + room.config.round_pause)
              if windows else self._turn_ready_at(now))
        self._drive = room.loop.call_later(max(0.0, at - now), self._wake, room.version)

    def _turn_ready_at(self, now: float) -> float:
        """When a bot may make the turn's move: after it has thought, after the round's pause,
        and not while a catch or jump-in is open to a connected person (their chance would
        close under their click) for the first ``person_window`` seconds."""
        room = self.room
        at = max(self.changed_at + room.config.bot_delay,
                 self.round_started + room.config.round_pause)
        if room.config.person_window > 0 and room.match is not None:
            for s in room.order.turns.windows(room.match.game):
                p = room.players[room.seating.player_at(s)]
                if p.conns and not self.automated(s, now):
                    return max(at, self.changed_at + room.config.person_window)
        return at

    def automated(self, seat: int, now: float) -> bool:
        """Whether a bot acts for ``seat`` now: its own, or a stand-in for an away or idle
        person."""
        room = self.room
        p = room.players[room.seating.player_at(seat)]
        return p.kind == "bot" or room.seating.is_away(p, now) or self._idle(seat, now)

    def _move_budget(self, kind: str) -> float:
        """How long a connected seat of ``kind`` may think at its turn when the room has no
        turn timer: a program ``remote_move_s``, a person ``idle_after`` (0: for ever)."""
        cfg = self.room.config
        return cfg.remote_move_s if kind == "remote" else cfg.idle_after

    def _idle(self, seat: int, now: float) -> bool:
        """A connected person or program that keeps the table waiting: without a turn timer
        (which is the room's own pace), a stand-in makes their move after their budget
        (:meth:`_move_budget`)."""
        room = self.room
        limit = self._move_budget(room.players[room.seating.player_at(seat)].kind)
        if limit <= 0 or room.rules.turn_timer is not None or room.match is None:
            return False
        game = room.match.game
        return seat == game.turn and not game.is_over and now - self.changed_at >= limit

    def _wake(self, version: int) -> None:
        room = self.room
        if version == room.version:
            room.manager.spawn(self._drive_step(version))
        else:
            self.schedule()

    async def _drive_step(self, version: int) -> None:
        room = self.room
        async with room.lock:
            if room.version != version or room.status != PLAYING or room.match is None:
                return
            game = room.match.game
            if game.is_over:
                return
            now = room.loop.time()

            def ready() -> bool:
                return self._turn_ready_at(now) - now <= 0.001

            move = room.order.next(game, room.seating.agent_for, room.rng, turn_ready=ready)
            if move is None:
                return
            if move.kind == "wait":
                wait = self._turn_ready_at(now) - now
                self._drive = room.loop.call_later(wait, self._wake, room.version)
            elif move.action is None:  # a person's turn: wake when a stand-in may take it
                self.schedule()
            else:
                await self._bot_apply(move.seat, move.action)

    async def _bot_apply(self, seat: int, choice: Action) -> None:
        room = self.room
        p = room.players[room.seating.player_at(seat)]
        source = "bot" if p.kind == "bot" else "away"
        if p.kind == "remote":  # the log says why the stand-in moved (see Broadcaster)
            source = LATE if p.conns else ABSENT
        try:
            await room.apply(seat, choice, source)
        except IllegalAction as e:  # a bot's mistake must not stop the room
            log.warning("room %s: bot at seat %d chose %s: %s", room.id, seat, choice, e)
            if room.match is not None and seat != room.match.game.turn:
                room.order.decline(room.match.game, seat)  # refused in a window: let it pass
            self.schedule()
        except (StoreError, ProtocolError):  # not stored (the database's return reschedules
            # a paused room), or the table changed meanwhile: think again
            self.schedule()

    def arm_timer(self, actor: int | None, prev_turn: int) -> None:
        """HR-TIMER: the seat that must act has ``turn_timer`` seconds from when it must."""
        room = self.room
        limit = room.rules.turn_timer
        if limit is None or room.match is None or room.status != PLAYING \
                or room.saving.broken is not None:
            self.clear_timer()
            return
        game = room.match.game
        if game.is_over:
            self.clear_timer()
            return
        if actor is not None and game.turn == prev_turn and actor != game.turn \
                and self.deadline is not None:
            return  # someone else's window action: the turn seat's clock runs on
        now = room.loop.time()
        start = now
        if actor is None:  # a new round: the clock starts after the pause
            start = max(now, self.round_started + room.config.round_pause)
        self.clear_timer()
        self.deadline = start + limit
        self.deadline_seat = game.turn
        self.deadline_token += 1
        self._timer = room.loop.call_later(self.deadline - now, self._timer_fired,
                                           self.deadline_token)

    def arm_round_clock(self) -> None:
        """HR-BLITZ: the round ends on time ``blitz`` seconds after its deal (and the pause
        after it); the fewest points in hand win."""
        room = self.room
        if self._round_clock is not None:
            self._round_clock.cancel()
            self._round_clock = None
        limit = room.rules.blitz
        if limit is None or room.match is None or room.status != PLAYING \
                or room.match.game.is_over or room.saving.broken is not None:
            return
        at = self.round_started + room.config.round_pause + limit
        token = (room.match_no, room.match.rounds_played)
        self._round_clock = room.loop.call_later(max(0.0, at - room.loop.time()),
                                                 self._round_clock_fired, token)

    def _round_clock_fired(self, token: tuple[int, int]) -> None:
        self.room.manager.spawn(self._time_up(token))

    async def _time_up(self, token: tuple[int, int]) -> None:
        room = self.room
        async with room.lock:
            match = room.match
            if match is None or room.status != PLAYING or match.game.is_over \
                    or token != (room.match_no, match.rounds_played) \
                    or not room.manager.db_ok or room.saving.broken is not None:
                return  # (paused: the clock is armed again when the database is back)
            try:
                await room.apply(match.game.turn, TIME_UP_TEXT, "timer")
            except (IllegalAction, ProtocolError) as e:
                log.warning("room %s: round time-up refused: %s", room.id, e)
            except StoreError as e:
                if not e.unreachable:  # (away: the clock is armed again when it is back)
                    log.warning("room %s: the round's time-up was not stored: %s", room.id, e)
                    self._round_clock = room.loop.call_later(1.0, self._round_clock_fired, token)

    def clear_timer(self) -> None:
        """Stop the turn timer."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.deadline = None

    def _timer_fired(self, token: int) -> None:
        self.room.manager.spawn(self._timeout(token))

    async def _timeout(self, token: int) -> None:
        room = self.room
        async with room.lock:
            if token != self.deadline_token or room.match is None or room.status != PLAYING \
                    or not room.manager.db_ok or room.saving.broken is not None:
                return  # (paused: the timer is armed again when the database is back)
            game = room.match.game
            if game.is_over or game.turn != self.deadline_seat:
                return
            try:
                await room.apply(game.turn, "timeout", "timer")
            except (IllegalAction, ProtocolError) as e:
                log.warning("room %s: timeout refused: %s", room.id, e)
            except StoreError as e:
                if not e.unreachable:  # (away: the timer is armed again when it is back)
                    log.warning("room %s: the timeout was not stored: %s", room.id, e)
                    self.set_deadline(1.0)  # tried again, after a look at the stored log

    def pause(self) -> None:
        """The database went away: bots and clocks stop where they are, and everyone at the
        table is told why nothing moves."""
        room = self.room
        if self._drive is not None:
            self._drive.cancel()
            self._drive = None
        if self.paused_at is None:
            self.paused_at = room.loop.time()
        if self.deadline is not None:
            self.paused_left = max(0.0, self.deadline - room.loop.time())
            self.paused_seat = self.deadline_seat
        self.clear_timer()
        if self._round_clock is not None:
            self._round_clock.cancel()
            self._round_clock = None
        room.out.send_notice()

    def set_deadline(self, left: float) -> None:
        """Arm the turn timer of the seat whose turn it is, ``left`` seconds from now."""
        room = self.room
        assert room.match is not None
        self.clear_timer()
        self.deadline = room.loop.time() + left
        self.deadline_seat = room.match.game.turn
        self.deadline_token += 1
        self._timer = room.loop.call_later(left, self._timer_fired, self.deadline_token)
