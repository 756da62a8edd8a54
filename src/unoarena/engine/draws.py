"""Cards leaving the draw pile: drawing for the turn (TURN-2..7), penalties and taking a pending
total (EFF-0), the Attack launcher (ATK-2), reshuffles and the void round (TURN-6), and the
Wild Draw Four challenge that decides who takes a W4 total (WD4-2, HR-CHAIN-CHALLENGE)."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import codes
from .moves import play_ids, playable_drawn
from .scoring import end_void
from .state import (
    DRAWN,
    OVER,
    P_NONE,
    P_WA,
    PKIND_NAMES,
    State,
    Termination,
    advance,
    ev,
    set_turn,
    shuffle,
)


def refill(s: State) -> bool:
    """TURN-6: turn the discard pile (but its top) into a new draw pile; False if void."""
    if s.rules.deck_exhausted == "void" and not s.closing:
        end_void(s)
        return False
    if len(s.discard) <= 1:
        return False
    top = s.discard.pop()
    cards = s.discard
    s.discard = [top]
    shuffle(s, cards)
    s.pile = cards
    ev(s, t="reshuffle", cards=len(cards))
    return True


def take(s: State, seat: int, count: int) -> list[int]:
    """Move up to ``count`` cards from the draw pile into a hand (never past HR-HANDLIMIT)."""
    got: list[int] = []
    pile = s.pile
    hand = s.hands[seat]
    limit = s.rules.hand_limit
    if limit is not None:
        count = min(count, limit - len(hand))
    for _ in range(count):
        if not pile and (s.phase == OVER or not refill(s)):
            break
        pile = s.pile
        c = pile.pop()
        hand.append(c)
        got.append(c)
    if got:
        s.declared[seat] = False
        if s.exposed == seat:
            s.exposed = -1
    return got


def press(s: State, seat: int) -> list[int]:
    """ATK-2: one press of the launcher ejects k cards, k from the configured distribution."""
    rules = s.rules
    max_dry = rules.launcher_max_dry
    if max_dry is not None and s.dry >= max_dry:
        k = 1 + weighted_nonzero(s)  # the dry-press limit: this press fires
    else:
        k = _sample(rules.launcher, s.rng.random())
    if not s.pile and s.phase != OVER:
        refill(s)
    k = min(k, len(s.pile))
    s.dry = s.dry + 1 if k == 0 else 0
    got = take(s, seat, k) if k else []
    ev(s, t="press", seat=seat, count=len(got))
    if got:
        ev(s, t="drew", seat=seat, cards=codes(got), to=seat)
    return got


def weighted_nonzero(s: State) -> int:
    """After the dry-press limit: a volley of at least one card, weighted as the launcher."""
    probs = s.rules.launcher[1:]
    return _sample(probs, s.rng.random() * sum(probs))


def penalize(s: State, seat: int, amount: int, reason: str) -> None:
    """A penalty of ``amount`` cards (Attack: presses of the launcher)."""
    if s.rules.deck.launcher:
        ev(s, t="penalty", seat=seat, presses=amount, reason=reason)
        for _ in range(amount):
            if s.phase == OVER:
                break
            press(s, seat)
        return
    got = take(s, seat, amount)
    ev(s, t="draw", seat=seat, count=len(got), reason=reason)
    if got:
        ev(s, t="drew", seat=seat, cards=codes(got), to=seat)


def draw_action(s: State, seat: int) -> None:
    """``draw``: take the pending penalty, or draw for the turn (TURN-2..4, TURN-7, ATK-2)."""
    if s.pend:
        ev(s, t="draw_penalty", seat=seat)
        take_pending(s, seat)
        return
    rules = s.rules
    if rules.deck.launcher:
        got = press(s, seat)
    elif rules.draw_count == "until_playable":
        got = []
        while True:
            one = take(s, seat, 1)
            if not one:
                break
            got += one
            if playable_drawn(s, seat, one[0]):
                break
        ev(s, t="draw", seat=seat, count=len(got), reason="turn")
        if got:
            ev(s, t="drew", seat=seat, cards=codes(got), to=seat)
    else:
        got = take(s, seat, 1)
        if s.events is not None:
            ev(s, t="draw", seat=seat, count=len(got), reason="turn")
            if got:
                ev(s, t="drew", seat=seat, cards=codes(got), to=seat)
    if s.phase == OVER:
        return
    drew = len(got)
    if rules.draw_count == "until_playable" and got and not rules.deck.launcher:
        got = got[-1:]
    # HR-BLIND: the drawn card is taken face down and the turn ends, so it is never played
    playable = [] if rules.blind_draw else [c for c in got if playable_drawn(s, seat, c)]
    if playable and rules.voluntary_draw_play == "may_not":
        # TURN-4 may_not: a voluntary draw (the hand had a play) ends the turn
        hand = s.hands[seat]
        new = hand[-drew:]
        del hand[-drew:]
        buf: list[int] = []
        play_ids(s, seat, hand, buf)
        hand.extend(new)
        if buf:
            playable = []
    if playable:
        s.drawn = playable
        s.phase = DRAWN
        return
    if drew:  # kept: the same public record as keeping a playable card (TURN-3, DIG-2)
        ev(s, t="pass", seat=seat)
    advance(s, seat)
    if not drew and rules.hand_limit is not None and blocked(s, rules.hand_limit):
        end_void(s, Termination.BLOCKED)


def blocked(s: State, limit: int) -> bool:
    """HR-HANDLIMIT: every hand holds ``limit`` cards and no seat has a play on this top, so no
    card can ever move again (every draw takes nothing, every turn passes)."""
    if any(len(h) < limit for h in s.hands):
        return False
    out: list[int] = []
    for seat in range(s.n):
        play_ids(s, seat, s.hands[seat], out)
        if out:
            return False
    return True


def take_pending(s: State, seat: int) -> None:
    """Draw the whole pending total and lose the turn (EFF-0)."""
    total, kind = s.pend, s.pkind
    s.pend, s.pkind = 0, P_NONE
    s.chain = []
    s.nochallenge = False
    penalize(s, seat, total, PKIND_NAMES[kind])
    if s.phase == OVER:
        return
    xskip, s.xskip = s.xskip, 0
    if kind == P_WA:
        resume, s.resume = s.resume, -1
        s.drawn = []
        set_turn(s, resume)
        return
    s.resume = -1
    ev(s, t="skip", seat=seat)
    advance(s, seat, xskip)


def challenge(s: State, seat: int) -> None:
    """WD4-2 and HR-CHAIN-CHALLENGE."""
    chain = s.chain
    total = s.pend
    ev(s, t="challenge", seat=seat, targets=[p for p, _, _, _ in chain])
    for p, _, snap, _ in chain:
        ev(s, t="hand_shown", seat=p, cards=codes(snap), to=seat)
    guilty = [p for p, g, _, _ in chain if g]
    s.pend, s.pkind = 0, P_NONE
    s.chain = []
    if guilty:
        share, rem = divmod(total, len(guilty))
        ev(s, t="challenge_result", guilty=guilty)
        for i, p in enumerate(guilty):
            penalize(s, p, share + (1 if i < rem else 0), "challenge_guilty")
            if s.phase == OVER:
                return
        set_turn(s, seat)  # the challenger plays on the named colour
        return
    ev(s, t="challenge_result", guilty=[])
    penalize(s, seat, total + 2 * len(chain), "challenge_innocent")
    if s.phase == OVER:
        return
    ev(s, t="skip", seat=seat)
    advance(s, seat)



def _sample(probs: Sequence[float], x: float) -> int:
    """The index i where the running sum of ``probs`` first exceeds ``x``."""
    for i, p in enumerate(probs):
        x -= p
        if x < 0:
            return i
    return len(probs) - 1

