"""Set-up: dealing (SET-3, SET-4, SET-5) and the first card turned over (START-1..8)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import (
    CODES,
    COLOR_CODES,
    DRAW2,
    HIT2,
    IS_NUMBER,
    IS_WILD,
    KCOLOR,
    KRANK,
    REVERSE,
    SKIP,
    WILD,
    WILD4,
    WILD_ATTACK,
    WILD_NATURE,
)
from .draws import penalize
from .editions import start_effect
from .moves import answerable
from .state import COLOR, OVER, P_D2, P_H2, P_W4, State, direction_name, ev, set_turn, shuffle


@dataclass
class Setup:
    """An exact table for scenarios and tests (SCENARIOS.md ``setup``); cards are kinds."""

    hands: dict[int, list[int]] = field(default_factory=dict)
    starter: int | None = None
    discard: list[int] | None = None
    color: int | None = None
    draw_pile: list[int] = field(default_factory=list)  # top first
    turn: int | None = None
    direction: int = 1


def deal(s: State, setup: Setup | None) -> None:
    """SET-3..5: deal the hands (or the exact ``setup``) and turn the starter over."""
    rules, n = s.rules, s.n
    deck = list(rules.deck.cards)
    first = (s.dealer + 1) % n
    if setup is None:
        while True:
            shuffle(s, deck)
            s.pile = deck
            for _ in range(rules.hand_size):
                for i in range(n):
                    s.hands[(first + i) % n].append(deck.pop())
            ev(s, t="deal", dealer=s.dealer, hand_size=rules.hand_size)
            if turn_starter(s, None):
                return
            # no card left in the pile may start (START-5, START-7): deal again
            s.hands = [[] for _ in range(n)]
            deck = list(rules.deck.cards)
    # exact set-up: take every named card out of the deck, order the rest by the seed
    remaining = list(deck)
    named: list[int] = [c for h in setup.hands.values() for c in h]
    if setup.starter is not None:
        named.append(setup.starter)
    named += setup.discard or []
    named += setup.draw_pile
    for c in named:
        try:
            remaining.remove(c)
        except ValueError:
            raise ValueError(f"the setup names more {CODES[c]} than the "
                             f"{rules.edition} deck holds") from None
    for p in setup.hands:
        if not 0 <= p < n:
            raise ValueError(f"the setup gives a hand to seat {p}; seats are 0..{n - 1}")
    shuffle(s, remaining)
    for i in range(n):
        p = (first + i) % n
        if p in setup.hands:
            s.hands[p] = list(setup.hands[p])
        else:
            s.hands[p] = [remaining.pop() for _ in range(rules.hand_size)]
    ev(s, t="deal", dealer=s.dealer, hand_size=rules.hand_size)
    if setup.discard:
        # a table in the middle of a round: no starter rules apply
        s.pile = remaining + list(reversed(setup.draw_pile))
        s.discard = list(setup.discard)
        top = s.discard[-1]
        if IS_WILD[top]:
            if setup.color is None:
                raise ValueError("the setup's discard pile ends with a wild: give its color")
            s.color = setup.color
        else:
            s.color = setup.color if setup.color is not None else KCOLOR[top]
        if s.color not in rules.deck.colors:
            raise ValueError(f"colour {COLOR_CODES[s.color]} is not in this edition")
        s.dir = setup.direction
        set_turn(s, setup.turn if setup.turn is not None else first)
        return
    # no starter named: it comes from the seed-ordered unplaced cards
    starter = setup.starter if setup.starter is not None else remaining.pop()
    s.pile = remaining + list(reversed(setup.draw_pile))
    if not turn_starter(s, starter):
        raise ValueError("the setup leaves no card that may be turned over first "
                         "(START-5, START-7)")


def starter_ok(s: State, card: int) -> bool:
    """May ``card`` stay as the first card (START-5, START-7)?"""
    rules = s.rules
    if rules.starter_number_only and not IS_NUMBER[card]:
        return False
    return card != WILD4 or rules.starter_w4 == "dealer_plays" or rules.wild_starter_stays


def turn_starter(s: State, starter: int | None) -> bool:
    """Turn over the first card and apply START-1..8. False, with nothing turned, when
    no card in the draw pile may start: a small pile can hold only returned kinds."""
    rules, n, dealer = s.rules, s.n, s.dealer
    first = (dealer + 1) % n
    while True:
        card = starter if starter is not None else s.pile.pop()
        starter = None
        if starter_ok(s, card):
            break
        if rules.starter_number_only and not IS_NUMBER[card]:  # START-7, ATK-10
            s.pile.insert(0, card)
            ev(s, t="starter_returned", card=CODES[card], where="bottom")
        else:  # START-5
            s.pile.insert(0, card)
            if rules.starter_w4 == "reshuffle":
                shuffle(s, s.pile)
            ev(s, t="starter_returned", card=CODES[card], where=rules.starter_w4)
        if not any(starter_ok(s, c) for c in s.pile):
            return False
    s.discard.append(card)
    ev(s, t="starter", card=CODES[card])
    s.last = dealer
    if IS_WILD[card]:
        stays = rules.wild_starter_stays  # HR-WILDSTART: any wild only names a colour
        chooser = first
        if stays:
            if rules.starter_wild_chooser == "dealer":
                chooser = dealer
        elif card == WILD4 or (card in (WILD, WILD_ATTACK)
                               and rules.starter_wild_chooser == "dealer"):
            chooser = dealer  # START-4 dealer, START-5 dealer_plays
        if card == WILD_NATURE and not stays:
            s.eowner = dealer  # FRZ-3
        s.after_color = first
        s.after_color_pen = 4 if card == WILD4 and not stays else 0
        s.turn = chooser
        s.phase = COLOR
        return True
    s.color = KCOLOR[card]
    # 003 三: the starter "相当于是庄家打出的牌" (counts as the dealer's play), so it opens the
    # jump-in window as any coloured play does (HR-JUMP, HR-SUM); the dealer is its player
    s.jump = s.jump_on
    rank = KRANK[card]
    if rank == REVERSE:
        if rules.starter_reverse == "dealer_played":  # START-8: the dealer's Reverse
            if n == 2:  # TWO-1: it acts as a Skip, so the dealer plays again
                ev(s, t="skip", seat=first)
                set_turn(s, dealer)
                return True
            s.dir = -1  # reversed: the dealer's other neighbour starts
            ev(s, t="reverse", direction=direction_name(s))
            set_turn(s, (dealer - 1) % n)
            return True
        if n != 2:  # START-2: the dealer starts, counter-clockwise
            s.dir = -1
        set_turn(s, dealer)
        return True
    if rank == SKIP:  # START-3
        ev(s, t="skip", seat=first)
        set_turn(s, (first + 1) % n)
        return True
    if rank in (DRAW2, HIT2):  # START-1, START-8
        start_penalty(s, first, 2, P_D2 if rank == DRAW2 else P_H2)
        return True
    set_turn(s, first)
    return True


def start_penalty(s: State, target: int, amount: int, kind: int) -> None:
    """A penalty on the first player from the starter, counted as the dealer's play."""
    if answerable(s, kind):
        s.pend, s.pkind = amount, kind
        set_turn(s, target)
    else:
        penalize(s, target, amount, "starter")
        if s.phase == OVER:
            return
        ev(s, t="skip", seat=target)
        set_turn(s, (target + s.dir) % s.n)


def name_starter_color(s: State, color: int) -> None:
    """START-4/5/6: the chooser names the colour of a wild starter."""
    s.color = color
    top = s.discard[-1]
    ev(s, t="color", seat=s.turn, color=COLOR_CODES[color])
    if not s.rules.wild_starter_stays:  # HR-WILDSTART: no effect
        start_effect(s, top, s.eowner)  # BUZZ-3, FRZ-3: the starter's owner is the dealer
    first = s.after_color
    if s.after_color_pen:  # START-5 dealer_plays: the first player draws 4, no challenge
        s.nochallenge = True
        s.chain = []
        start_penalty(s, first, s.after_color_pen, P_W4)
        s.nochallenge = s.pend > 0
        return
    set_turn(s, first)

