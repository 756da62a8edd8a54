"""HR-WILDPOWER: a Wild may, instead of naming a colour, look at a seat's hand or swap cards with
it (the player gives up to three chosen cards, then takes as many at random: the exchange is
even, so fewer than three move when either hand holds fewer)."""

from __future__ import annotations

from .actions import Action
from .cards import CODES, codes
from .state import GIVE, State, advance, ev, hands_moved


def wild_power(s: State, seat: int, act: Action, left: int) -> bool:
    """``power=look`` or ``power=swap``; True when the turn stays (the swap's gives follow)."""
    if act.power == "look":
        ev(s, t="look", seat=seat, target=act.target)
        ev(s, t="hand_shown", seat=act.target,
           cards=codes(sorted(s.hands[act.target])), to=seat)
        return False
    if act.power == "swap":
        ev(s, t="swap_start", seat=seat, target=act.target)
        # an even exchange (003 五(十) "换3张牌"): as many cards each way as both hands allow
        s.give_left = s.given = min(3, left, len(s.hands[act.target]))
        s.give_target = act.target
        s.phase = GIVE
        s.turn = seat
        return True
    return False


def give(s: State, seat: int, k: int) -> None:
    """One card given in a swap; the last one completes it."""
    hand = s.hands[seat]
    hand.remove(k)
    s.hands[s.give_target].append(k)
    ev(s, t="give", seat=seat, target=s.give_target, cards=[CODES[k]], to=s.give_target)
    s.give_left -= 1
    if s.give_left == 0:
        finish_swap(s, seat)
        advance(s, seat)


def finish_swap(s: State, seat: int) -> None:
    """The swap's second half: the W player takes random cards of the target's."""
    t = s.give_target
    theirs = s.hands[t]
    own = len(theirs) - s.given  # the given cards are at the end of the hand
    got = []
    for _ in range(min(s.given, own)):  # as many as were given
        j = int(s.rng.random() * own)
        got.append(theirs.pop(j))
        own -= 1
    s.hands[seat].extend(got)
    ev(s, t="swap_taken", seat=seat, target=t, count=len(got))
    ev(s, t="swap_cards", seat=seat, cards=codes(got), to=seat)
    ev(s, t="swap_cards", seat=t, cards=codes(got), to=t)
    hands_moved(s)
    s.give_target = -1
