"""Playing cards and their effects on turn order: skip, reverse, draw two, hit 2, W4 (EFF-*,
TWO-1), passing a penalty on (HR-STACK), discard-all (ATK-7) and going out (END-1, END-2).
Cards that act on other seats have their own modules (``seven_zero``, ``wild_powers``,
``attack``), and the editions' wilds theirs (``editions``)."""

from __future__ import annotations

from .actions import Action
from .attack import attack
from .cards import (
    COLOR_CODES,
    DISCARD_ALL,
    DRAW2,
    HIT2,
    IS_WILD,
    KCOLOR,
    KRANK,
    NCOLORED,
    REVERSE,
    SKIP,
    WILD,
    WILD4,
    WILD_ATTACK,
    codes,
)
from .draws import penalize
from .editions import hyperspeed_skips, start_effect
from .events import Event
from .moves import answerable
from .scoring import end_round
from .seven_zero import seven_zero
from .state import (
    E_HYPER,
    OVER,
    P_D2,
    P_H2,
    P_NONE,
    P_W4,
    PKIND_NAMES,
    State,
    advance,
    direction_name,
    ev,
    set_turn,
)
from .wild_powers import wild_power


def bomb(s: State, seat: int, left: int) -> None:
    """HR-BOMB: three or more numbers of one number played at once (HR-SAMENUM): every other
    player draws one (Attack: presses once), in the order of play from the next player."""
    n, d = s.n, s.dir
    if not left:
        s.closing = True  # END-2: draws for a hand just emptied reshuffle, never void
    for i in range(1, n):
        penalize(s, (seat + d * i) % n, 1, "bomb")
        if s.phase == OVER:
            return


def play(s: State, seat: int, act: Action, jump: bool) -> None:
    """A legal play (or jump-in): the cards go, UNO is judged, then the cards' effects."""
    n = s.n
    cards = act.cards
    hand = s.hands[seat]
    discard = s.discard
    last = cards[-1]
    if last == WILD4:  # WD4-1 guilt, judged on the hand before the play
        before = s.color
        guilty = any(KCOLOR[k] == before for k in hand if k != WILD4)
    rank = KRANK[last]
    single = len(cards) == 1 and rank != DISCARD_ALL
    if single:
        hand.remove(last)
        discard.append(last)
    else:
        for k in cards:
            hand.remove(k)
    if IS_WILD[last]:
        if not act.power or act.power == "color":
            s.color = act.color
    else:
        s.color = KCOLOR[last]
    discarded: list[int] = []
    if not single:
        if rank == DISCARD_ALL:  # ATK-7: the colour's cards go under the DA
            gone = {KCOLOR[k] for k in cards if KRANK[k] == DISCARD_ALL}
            discarded = [k for k in hand if KCOLOR[k] in gone]
            if discarded:
                hand[:] = [k for k in hand if KCOLOR[k] not in gone]
                discard.extend(discarded)
        discard.extend(cards)
        s.alt = cards[:-1] if jump else ()
    elif s.alt:
        s.alt = ()
    passer = s.last  # who passed a pending total on to this seat (HR-REVENGE)
    s.last = seat
    if s.drawn:
        s.drawn = []
    if s.events is not None:
        e: Event = {"t": "play", "seat": seat, "cards": codes(cards),
                     "color": COLOR_CODES[s.color]}
        if act.target >= 0:
            e["target"] = act.target
        if act.power:
            e["power"] = act.power
        if discarded:
            e["discarded"] = codes(discarded)
        if act.uno:
            e["uno"] = True
        s.events.append(e)
    left = len(hand)
    if left == 1:
        if not s.rules.silent_uno:  # HR-SILENT: nobody declares, nobody is caught
            s.declared[seat] = act.uno
            if act.uno:
                ev(s, t="uno", seat=seat)
            else:
                s.exposed = seat
    elif s.declared[seat]:
        s.declared[seat] = False
    if s.jump_on and last < NCOLORED:
        s.jump = True

    # -- effects (EFF-*, TWO-1, BUZZ-2, ATK-*, HR-*) ------------------------------------
    answering = s.pend > 0
    count = len(cards)
    skips = 0
    penalty = 0
    kind = s.pkind
    if rank <= 9:
        pass
    elif rank == SKIP:
        skips = 1 if s.double and count == 2 and not jump else count
    elif rank == REVERSE:
        flips = 0 if s.double and count == 2 and not jump else count
        if n == 2:
            skips = flips
        elif flips % 2:
            s.dir = -s.dir
            ev(s, t="reverse", direction=direction_name(s))
    elif rank == DRAW2:
        penalty, kind = 2 * count, (kind if kind == P_W4 else P_D2)
    elif rank == HIT2:
        penalty, kind = 2 * count, P_H2  # an H2 passed on from a WA is an ATK-8 chain
        s.resume = -1
    elif last == WILD4:
        penalty, kind = 4, P_W4
        s.nochallenge = False
        if not answering or s.pkind != P_W4:
            s.chain = []
        s.chain.append((seat, guilty, tuple(sorted(hand)), before))
    if answering and kind == P_W4 and last != WILD4:
        # HR-REV4, HR-2ON4: passed on by another card, no more challenge; a W4 stacked on it
        # later starts a new run, and only that run can be judged (HR-CHAIN-CHALLENGE)
        s.nochallenge = True
        s.chain = []
    if answering and n == 2 and rank in (SKIP, REVERSE):
        skips = 0  # HR-STACK: with two players S and R pass the total to the opponent
    # BUZZ-2: one more skip per card of the colour, after the cards' own effects
    xskip = hyperspeed_skips(s, cards) if s.effect == E_HYPER else 0
    if last >= NCOLORED and left:
        start_effect(s, last, seat)  # BUZZ-1, FRZ-1

    if count >= 3 and rank <= 9 and not jump and s.rules.bomb:
        bomb(s, seat, left)  # HR-BOMB: before the round can end, so the cards count
        if s.phase == OVER:
            return
    d = s.dir
    if left == 0:  # END-1, END-2: the next player first takes what this play gave them
        total = s.pend + penalty
        s.pend, s.pkind = 0, P_NONE
        if total and last != WILD_ATTACK:
            target = (seat + d) % n
            for _ in range(skips):
                target = (target + d) % n
            if answering and not penalty and target == passer and s.rules.revenge:
                total *= 2  # HR-REVENGE
            s.closing = True  # END-2 draws reshuffle but never void the round
            penalize(s, target, total, "last_card")
        end_round(s, seat)
        return

    if s.special:  # cards acting on other seats: each rule in its module
        if s.rules.seven_zero and last < NCOLORED:
            seven_zero(s, seat, act, rank)
        elif last == WILD and act.power:
            if wild_power(s, seat, act, left):
                return
        elif last == WILD_ATTACK:
            attack(s, seat, act)
            return
    if penalty or answering:
        # the penalty goes to the next player; a deflecting S or R (HR-STACK) moves it on
        if penalty:
            s.pend += penalty
            s.pkind = kind
        target = (seat + d) % n
        for _ in range(skips):
            ev(s, t="skip", seat=target)
            target = (target + d) % n
        if answering and not penalty and target == passer and s.rules.revenge:
            s.pend *= 2  # HR-REVENGE: a Skip or Reverse sent the total back: it doubles
            ev(s, t="revenge", seat=target, count=s.pend)
        s.xskip = xskip
        if not penalty or answerable(s, kind):
            set_turn(s, target)
            return
        # EFF-0: no answer possible, carried out at once
        total, s.pend, s.pkind, s.xskip = s.pend, 0, P_NONE, 0
        penalize(s, target, total, PKIND_NAMES[kind])
        if s.phase == OVER:
            return
        ev(s, t="skip", seat=target)
        advance(s, target, xskip)
        return
    advance(s, seat, skips + xskip)
