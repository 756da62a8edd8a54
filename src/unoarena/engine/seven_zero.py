"""HR-SEVEN-ZERO: a 7 swaps hands with a chosen seat; a 0 passes every hand on in the direction of
play."""

from __future__ import annotations

from .actions import Action
from .state import State, direction_name, ev, hands_moved


def seven_zero(s: State, seat: int, act: Action, rank: int) -> None:
    """The effect of a 7 (with its target) or a 0; other ranks have none here."""
    if rank == 7 and act.target >= 0:
        t = act.target
        s.hands[seat], s.hands[t] = s.hands[t], s.hands[seat]
        hands_moved(s)
        ev(s, t="swap_hands", seat=seat, target=t)
    elif rank == 0:
        n, d = s.n, s.dir
        old = s.hands
        s.hands = [old[(p - d) % n] for p in range(n)]
        hands_moved(s)
        ev(s, t="rotate_hands", direction=direction_name(s))
