"""The editions' wild effects: Buzz Lightyear's Hyperspeed (BUZZ-*) and Frozen II's Forces of
Nature (FRZ-*). Their end when the owner's turn comes round (FRZ-2) is in ``state.set_turn``."""

from __future__ import annotations

from .cards import COLOR_CODES, KCOLOR, NCOLORED, WILD_HYPER, WILD_NATURE
from .state import E_HYPER, E_LOCK, E_NONE, State, ev


def start_effect(s: State, card: int, owner: int) -> None:
    """BUZZ-1/3, FRZ-1/3: a Hyperspeed or Forces of Nature wild starts its effect in the
    colour just named; ``owner`` is who may still play any colour under the lock."""
    if card == WILD_HYPER:
        s.effect, s.ecolor = E_HYPER, s.color
        ev(s, t="effect", kind="hyperspeed", color=COLOR_CODES[s.color])
    elif card == WILD_NATURE:
        s.effect, s.ecolor, s.eowner = E_LOCK, s.color, owner
        ev(s, t="effect", kind="forces_of_nature", color=COLOR_CODES[s.color], owner=owner)


def hyperspeed_skips(s: State, cards: tuple[int, ...]) -> int:
    """BUZZ-2: each card of the Hyperspeed colour played skips one more seat; the first card of
    another colour (or a wild) ends it. The cards of a multi-card play count in the order they
    are laid down: a set's cards after another colour skip no one."""
    skips = 0
    for card in cards:
        if card < NCOLORED and KCOLOR[card] == s.ecolor:
            skips += 1
        else:
            s.effect = E_NONE
            ev(s, t="effect_end", kind="hyperspeed")
            break
    return skips
