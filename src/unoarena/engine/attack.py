"""ATK-9: the Wild Attack-Attack names a seat, which must answer or take two presses of the
launcher (plus any total it was answering); play then resumes after the attacker. The launcher
itself (ATK-2) is in ``draws``, multi-card plays (ATK-4) in ``moves``, discard-all (ATK-7) in
``play``."""

from __future__ import annotations

from .actions import Action
from .state import P_WA, State, ev, set_turn


def attack(s: State, seat: int, act: Action) -> None:
    """An attack (or an answer to one) adds its two presses and turns to the target."""
    s.pend, s.pkind = s.pend + 2, P_WA
    s.resume = (seat + s.dir) % s.n
    s.chain = []
    ev(s, t="attack", seat=seat, target=act.target)
    set_turn(s, act.target)
