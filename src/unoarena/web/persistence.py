"""A room's persistence: every write, taking back a move whose write failed, and replaying.

A move is stored before it is shown. When its write fails the match is put back from memory
(its seed and the moves before it are exactly the stored log); when the write's answer was lost,
the stored log is read before the next move and the room follows it. A room is rebuilt from its
seed and log after a restart or a take-over (DIG-1); a log that stops replaying is a
:class:`BrokenLog`, shown as far as it goes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..engine import TIME_UP, TIME_UP_TEXT, IllegalAction, move_text
from .catalog import T_
from .protocol import ProtocolError
from .seating import FINISHED, MOVED, PLAYING
from .store import ActionRow, StoreError, brief, op_finish_match
from .store import unreachable as _unreachable

if TYPE_CHECKING:
    from .rooms import Room, RoomManager

log = logging.getLogger("unoarena.web")

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



class Persistence:
    """The writes and replays of one room."""

    def __init__(self, room: Room) -> None:
        self.room = room
        #: a write failed without an answer: the stored log may hold a move this room took
        #: back, so it is compared with the log before the next move
        self.unsure = False
        self.finish_unsaved = False  # the match's result is still to be stored
        self.broken: BrokenLog | None = None  # the stored log stops replaying here

    async def write(self, op: Callable[[Any], None]) -> None:
        """Store one write; a database that cannot be reached pauses every room (and is not
        tried again until it answers a probe)."""
        room = self.room
        if not room.manager.db_ok:
            raise StoreError("the database is away", unreachable=True)
        try:
            await room.store.write(op)
        except StoreError as e:
            if e.unreachable:
                room.manager.database_lost(e.cause)
            raise

    async def save_finish(self) -> None:
        """Store the match's result. The log already proves it (a restart finds it there), so
        a write that fails is only noted, and tried again when the database is back."""
        room = self.room
        match = room.match
        if not self.finish_unsaved or match is None or not match.is_over:
            return
        try:
            await self.write(op_finish_match(room.id, room.match_no, list(match.winners),
                                              list(match.scores)))
        except StoreError as e:
            log.warning("room %s: the match's result is not stored yet: %s", room.id, e)
            return
        self.finish_unsaved = False

    def take_back(self, kept: int) -> None:
        """The write of a move failed: put the match back as it was before it, the round's
        first ``kept`` steps, by replaying the match in memory (its seed and the steps before
        the move are exactly what the stored log holds), without asking the database."""
        room = self.room
        match = room.match
        assert match is not None
        earlier = [(seat, aid, "") for res in match.results for seat, aid in res.actions]
        sources = [m[4] for m in room.marks]  # this round's: a stand-in's moves keep their note
        this_round = [(seat, aid, sources[i] if i < len(sources) else "")
                      for i, (seat, aid) in enumerate(match.game.history[:kept])]
        self.unsure = True
        self._run_steps(room.seed, earlier + this_round)

    async def verify(self) -> None:
        """After a write that failed without an answer (the connection broke as it committed),
        find out from the stored log whether it went through; if so (or if the log differs in
        any way) the room follows the log. Raises StoreError while the log cannot be read."""
        room = self.room
        try:
            rows = await asyncio.to_thread(room.store.match_actions, room.id, room.match_no)
        except Exception as e:
            lost = StoreError(f"the log could not be read: {brief(e)}",
                              unreachable=_unreachable(e), cause=brief(e))
            if lost.unreachable:
                room.manager.database_lost(lost.cause)
            raise lost from None
        self.unsure = False
        stored = rows[-1].seq if rows else 0
        if stored == room.seq or room.status == MOVED:
            return
        log.warning("room %s: the stored log ends at action %d, the room at %d: it follows "
                    "the log", room.id, stored, room.seq)
        try:
            self.replay(room.seed, rows)
        except BrokenLog as e:
            self.broke(e, rows)
        assert room.match is not None
        room.status = FINISHED if room.match.is_over else PLAYING
        if room.match.is_over:
            self.finish_unsaved = True
            await self.save_finish()
        room.order.reset()
        room.clock.arm_timer(None, -1)
        room.clock.arm_round_clock()
        room.out.broadcast_state([])
        if room.status == FINISHED:
            room.out.send_all(room.out.match_result())
        room.out.broadcast_room()
        room.touch()

    def broke(self, e: BrokenLog, rows: Sequence[ActionRow]) -> None:
        """The stored log stops replaying at ``e.seq``: show the room as the log proves it,
        refuse its moves, and say so once, with the room and the seq."""
        room = self.room
        log.error("room %s, match %d: %s; the room is shown as of action %d and refuses moves",
                  room.id, room.match_no, e, e.seq - 1)
        self.replay(room.seed, [r for r in rows if r.seq < e.seq])
        self.broken = e
        room.clock.clear_timer()

    def replay(self, seed: int, rows: Sequence[ActionRow]) -> None:
        """Rebuild the match from its seed and stored action log exactly as it was played
        (DIG-1); a :class:`BrokenLog` names the first action that is missing or does not
        replay."""

        def steps() -> Iterator[tuple[int, int | str, str]]:
            for n, row in enumerate(rows, 1):
                if row.seq != n:
                    raise BrokenLog(n, "", f"the log goes on at action {row.seq}")
                yield row.seat, row.action, row.source

        self._run_steps(seed, steps())

    def _run_steps(self, seed: int, steps: Iterable[tuple[int, int | str, str]]) -> None:
        """Play the match from ``seed`` through ``steps`` (seat, action text or id, source),
        one engine step each: the table, its seq and the round's narration marks."""
        room = self.room
        room._new_match(seed)
        match = room.match
        assert match is not None
        for seat, action, source in steps:
            game = match.game
            before = len(game.history)
            ev_before = len(game.events)
            seq = room.seq + 1
            try:
                if action in (TIME_UP_TEXT, TIME_UP):
                    game.time_up()
                else:
                    game.apply(action, seat)
            except IllegalAction as e:
                raise BrokenLog(seq, str(action), f"{e.code}: {e.message}") from None
            if len(game.history) - before != 1:
                raise BrokenLog(seq, str(action), "not one engine step")
            room.seq = seq
            text = action if isinstance(action, str) else move_text(game.space, action)
            room.marks.append((ev_before, len(game.events), seat, text, source))
            if game.is_over:
                match.finish_round()
                room.marks = []
        room.sent = len(match.game.events)
