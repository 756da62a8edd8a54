"""Calls outside the usual play: declaring UNO and catching it (UNO-*), running out of time
(HR-TIMER)."""

from __future__ import annotations

from .deal import name_starter_color
from .draws import penalize, take_pending
from .state import COLOR, GIVE, OVER, State, advance, ev
from .wild_powers import give


def catch(s: State, seat: int, target: int) -> None:
    """UNO-2: catch a seat left with one card undeclared; UNO-3: a false catch costs."""
    ev(s, t="catch", seat=seat, target=target)
    if target == s.exposed:
        s.exposed = -1
        penalize(s, target, s.rules.uno_penalty, "uno_caught")
    else:  # UNO-3: a false catch costs the caller
        penalize(s, seat, s.rules.false_uno_penalty, "false_catch")


def uno(s: State, seat: int) -> None:
    """UNO-1: a late declaration closes the catch window; a false one costs (UNO-3)."""
    if seat == s.exposed:
        s.exposed = -1
        s.declared[seat] = True
        ev(s, t="uno", seat=seat)
    else:
        ev(s, t="uno", seat=seat)
        penalize(s, seat, s.rules.false_uno_penalty, "false_uno")


def timeout(s: State, seat: int) -> None:
    """HR-TIMER: the seat that must act ran out of time."""
    rules = s.rules
    ev(s, t="timeout", seat=seat)
    phase = s.phase
    if phase == COLOR:
        colors = rules.deck.colors
        penalize(s, seat, rules.timer_penalty, "timeout")
        if s.phase != OVER:
            name_starter_color(s, colors[int(s.rng.random() * len(colors))])
        return
    if phase == GIVE:
        penalize(s, seat, rules.timer_penalty, "timeout")
        while s.phase == GIVE:
            hand = s.hands[seat]
            give(s, seat, hand[int(s.rng.random() * len(hand))])
        return
    if s.pend:
        penalize(s, seat, rules.timer_penalty, "timeout")
        if s.phase != OVER:
            take_pending(s, seat)
        return
    penalize(s, seat, rules.timer_penalty, "timeout")
    if s.phase != OVER:
        advance(s, seat)

