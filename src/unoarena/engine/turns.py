"""Who acts next when seats are asked one at a time (RULES DIG-3).

Out-of-turn windows (catch an undeclared UNO, declare it late, jump in; UNO-2, HR-JUMP, HR-SUM)
are open to other seats while the turn seat waits. A program that asks one seat at a time (the
bot driver, the terminal and web tables, the learning environments) offers every open window
first, in :meth:`Game.window_seats` order (from the last actor's left); each seat acts or
declines; then the turn seat acts. A seat that declined is not asked again until the game moves
on: any action but a catch or an UNO call. Those two settle one player's UNO and leave the card
on top as it was, so the jump-ins a seat refused are still the same offers.

:class:`Turns` keeps the declines and the rule for forgetting them, so that every front end
asks in the same order.

>>> from unoarena.engine import Game, Setup, parse_card, preset
>>> table = Setup(hands={0: [parse_card("R1"), parse_card("R2")]}, discard=[parse_card("R5")],
...               turn=0)
>>> g = Game(preset("classic"), seed=1, setup=table)
>>> g.apply("play R1", 0)  # seat 0 forgets UNO: seats 2, 3 may catch it, seat 0 declare late
>>> turns = Turns()
>>> turns.windows(g), g.turn
([2, 3, 0], 1)
>>> turns.decline(g, 2)
>>> turns.next_window(g)
3
"""

from __future__ import annotations

from typing import Final

from .actions import ActionSpace
from .game import Game

#: The verbs after which a seat's refusal of a window still stands.
KEEP_DECLINES: Final = frozenset({"catch", "uno"})


class Turns:
    """The declines of one round, and whom to ask next.

    It holds no game: every call names one, so a table whose match deals a new :class:`Game`
    each round keeps one ``Turns`` and calls :meth:`reset` at each deal.
    """

    def __init__(self) -> None:
        self._declined: set[int] = set()
        self._space: ActionSpace | None = None  # the action space the two caches are for
        self._jumpy = False  # jump-ins allowed: a window may be open with no seat exposed
        self._keep: frozenset[int] = frozenset()  # the ids of KEEP_DECLINES actions

    def _learn(self, space: ActionSpace) -> None:
        rules = space.rules
        self._space = space
        self._jumpy = rules.jump_in or rules.sum_jump_in != "off"
        self._keep = frozenset(i for i, a in enumerate(space.actions)
                               if a.verb in KEEP_DECLINES)

    def reset(self) -> None:
        """A new round: nobody has declined anything."""
        self._declined.clear()

    def _may_open(self, game: Game) -> bool:
        """Whether any window can be open: without jump-ins one opens only on an exposed UNO,
        so the search for one is skipped."""
        if game.space is not self._space:
            self._learn(game.space)
        return self._jumpy or game.uno_exposed is not None

    def windows(self, game: Game) -> list[int]:
        """The seats with an open window that they have not declined, in DIG-3 order."""
        if not self._may_open(game):
            return []
        declined = self._declined
        return [s for s in game.window_seats() if s not in declined]

    def next_window(self, game: Game) -> int:
        """The seat to offer a window to now (the first of :meth:`windows`), or -1 when none
        is left and the turn seat acts. A sequential loop's step, as cheap as it can be."""
        if self._may_open(game):
            declined = self._declined
            for s in game.window_seats():
                if s not in declined:
                    return s
        return -1

    def decline(self, game: Game, seat: int) -> None:
        """``seat`` lets its open window pass; it is not asked again until the game moves on."""
        if seat not in game.window_seats():
            why = ("it is the turn seat, which must act" if seat == game.turn
                   else f"the seats with one are {game.window_seats() or 'none'}")
            raise ValueError(f"seat {seat} has no open window to decline: {why}")
        self._declined.add(seat)

    def moved(self, game: Game) -> None:
        """Call after every action applied to ``game``: unless it was a catch or an UNO call,
        every seat's chances are new, so every decline is forgotten."""
        declined = self._declined
        if declined:
            if game.space is not self._space:
                self._learn(game.space)
            if game.history[-1][1] not in self._keep:
                declined.clear()
