"""The table's clocks: the turn timer (HR-TIMER) and the round's time limit (HR-BLITZ).

A widget with nothing to draw, so that it can keep its own interval timer: twice a second it
posts what happened (:class:`TableClock.Ticked`, :class:`TableClock.TurnTimedOut`,
:class:`TableClock.RoundTimeUp`), and the table screen acts on it. Its clock, ``now``, is
:func:`time.monotonic` unless a test gives its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget

from ..engine import Game
from .session import Table


class TableClock(Widget):
    """See the module docstring."""

    DEFAULT_CSS = "TableClock { display: none; }"

    class Ticked(Message):
        """Half a second passed with a countdown running: the time left shown has changed."""

    class TurnTimedOut(Message):
        """The turn timer of the person in front of the screen ran out (HR-TIMER) on the
        decision of the table's ``version``."""

        def __init__(self, version: int) -> None:
            super().__init__()
            self.version = version

    class RoundTimeUp(Message):
        """The time of ``game``'s round ran out (HR-BLITZ)."""

        def __init__(self, game: Game) -> None:
            super().__init__()
            self.game = game

    def __init__(self) -> None:
        super().__init__()
        #: the clock the deadlines are kept on (a test gives its own)
        self.now: Callable[[], float] = time.monotonic
        self.deadline: tuple[int, float] | None = None  # HR-TIMER: (the table's version, when)
        self.round_end: tuple[Game, float] | None = None  # HR-BLITZ: (the round, when)
        self._table: Table | None = None
        self._interval: Timer | None = None

    def start(self, table: Table, seat: int | None) -> None:
        """Start (or keep) the round's countdown, and the turn timer when the person who must
        act now sits at ``seat``, the screen's viewer; a timer already running for this
        decision keeps its deadline."""
        self._table = table
        blitz = table.rules.blitz
        if blitz is not None:
            if self.round_end is None or self.round_end[0] is not table.game:
                self.round_end = (table.game, self.now() + blitz)
            self._run()
        limit = table.rules.turn_timer
        if limit is None:
            return
        waiting = table.waiting_person()
        if waiting is None or waiting != seat:
            self.deadline = None
            return
        if self.deadline is None or self.deadline[0] != table.version:
            self.deadline = (table.version, self.now() + limit)
        self._run()

    def _run(self) -> None:
        if self._interval is None:
            self._interval = self.set_interval(0.5, self.tick)

    def turn_left(self) -> int | None:
        """Whole seconds left of the turn timer, if it runs."""
        if self.deadline is None:
            return None
        return max(0, int(self.deadline[1] - self.now()))

    def round_left(self, game: Game) -> int | None:
        """Whole seconds left of ``game``'s round, if its countdown runs."""
        if self.round_end is None or self.round_end[0] is not game:
            return None
        return max(0, int(self.round_end[1] - self.now()))

    def tick(self) -> None:
        """Check the deadlines: the round's first, then the turn's; say what changed."""
        t = self._table
        if t is None:
            return
        if self.round_end is not None:
            game, at = self.round_end
            if game is t.game and not t.game.is_over and self.now() >= at:
                self.round_end = None
                self.post_message(self.RoundTimeUp(game))
                return
        if self.deadline is None:
            if self.round_end is not None:  # the round's countdown
                self.post_message(self.Ticked())
            return
        version, at = self.deadline
        if version != t.version:
            return
        if self.now() >= at:
            self.deadline = None
            self.post_message(self.TurnTimedOut(version))
            return
        self.post_message(self.Ticked())
