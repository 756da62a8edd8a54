"""One round of UNO under any rule set: legal actions, checked and fast apply, views, events.

The state is a handful of lists of small ints. ``step`` (unchecked) and ``apply`` (checked) share
one implementation; ``apply`` only adds the legality check, the error diagnosis and the
misplay penalties. Every random choice comes from the game's own ``random.Random`` (DIG-1).

Turn structure: the seat in ``turn`` must act in ``phase``:
``play`` (play, draw, or answer a pending penalty), ``drawn`` (play the drawn card or pass),
``color`` (name the colour of a wild starter), ``give`` (choose cards for a wild-power swap),
``over``. Other seats may act only inside windows (DIG-3): catch an undeclared UNO, declare a
late UNO, jump in.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, SupportsIndex

from .actions import POWERS, Action, ActionSpace
from .cards import (
    CODES,
    COLOR_CODES,
    DISCARD_ALL,
    DRAW2,
    HIT2,
    IS_NUMBER,
    IS_WILD,
    KCOLOR,
    KRANK,
    NCOLORED,
    NKINDS,
    POINTS,
    REVERSE,
    SKIP,
    WILD,
    WILD4,
    WILD_ATTACK,
    WILD_HYPER,
    WILD_NATURE,
    codes,
)
from .errors import IllegalAction, excerpt
from .rules import RuleSet

PLAY: Final = 0
DRAWN: Final = 1
COLOR: Final = 2
GIVE: Final = 3
OVER: Final = 4
PHASES = ("play", "drawn", "color", "give", "over")

# pending penalty kinds
P_NONE: Final = 0
P_D2: Final = 1
P_W4: Final = 2
P_H2: Final = 3
P_WA: Final = 4
_PKIND_NAMES = ("", "draw2", "draw4", "hit2", "attack")

# active edition effects
E_NONE: Final = 0
E_HYPER: Final = 1
E_LOCK: Final = 2

# verbs as small ints for dispatch
V_PLAY: Final = 0
V_DRAW: Final = 1
V_PASS: Final = 2
V_CATCH: Final = 3
V_UNO: Final = 4
V_COLOR: Final = 5
V_GIVE: Final = 6
V_JUMP: Final = 7
V_CHALLENGE: Final = 8
V_ACCEPT: Final = 9
V_TIMEOUT: Final = 10
_VERB_CODE = {"play": V_PLAY, "draw": V_DRAW, "pass": V_PASS, "catch": V_CATCH, "uno": V_UNO,
              "color": V_COLOR, "give": V_GIVE, "jump_in": V_JUMP, "challenge": V_CHALLENGE,
              "accept": V_ACCEPT, "timeout": V_TIMEOUT}

_SPACES: dict[RuleSet, ActionSpace] = {}


def action_space(rules: RuleSet) -> ActionSpace:
    """The rule set's fixed integer action space (built once, shared)."""
    sp = _SPACES.get(rules)
    if sp is None:
        sp = _SPACES[rules] = ActionSpace(rules)
        sp.vcodes = tuple(_VERB_CODE[a.verb] for a in sp.actions)
        sp.rows = {}
    return sp


@dataclass(frozen=True)
class Outcome:
    """How a round ended (typed, like python-chess's ``Outcome``)."""

    winner: int | None  # the seat that went out; None when the round was void (TURN-6)
    reason: str  # "out" or "void"
    hand_points: tuple[int, ...]  # points left in each hand (END-3)
    scores: tuple[int, ...]  # what each seat (or team, with teams) scores this round


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


class Game:
    """A round of UNO. ``Game(rules, seed)`` deals; actions are applied for a seat."""

    def __init__(self, rules: RuleSet, seed: int = 0, dealer: int = 0, *,
                 setup: Setup | None = None, scores: Sequence[int] | None = None,
                 record_events: bool = True, _copy: Game | None = None) -> None:
        if _copy is not None:  # clone(): no deal, every field copied
            self._copy_from(_copy)
            return
        n = rules.players
        if not 0 <= dealer < n:
            raise ValueError(f"dealer {dealer} is not a seat of a {n}-player game (0..{n - 1})")
        self.rules = rules
        self.seed = seed
        self.dealer = dealer
        self.space = action_space(rules)
        self._n = n
        self._rng = random.Random(seed)
        self._hands: list[list[int]] = [[] for _ in range(n)]
        self._pile: list[int] = []
        self._discard: list[int] = []
        self._color = -1
        self._alt: tuple[int, ...] = ()  # extra matching ranks after a sum jump-in (HR-SUM)
        self._dir = 1
        self._turn = 0
        self._phase = PLAY
        self._pend = 0
        self._pkind = P_NONE
        self._resume = -1  # WA: where play resumes after the attack (ATK-9)
        # the W4s of the current chain: seat, guilty, hand after the play, colour before it
        self._chain: list[tuple[int, bool, tuple[int, ...], int]] = []
        self._nochallenge = False
        self._drawn: list[int] = []
        self._declared = [False] * n
        self._exposed = -1
        self._jump = False
        self._last = -1
        self._effect = E_NONE
        self._ecolor = -1
        self._eowner = -1
        self._give_left = 0
        self._given = 0
        self._give_target = -1
        self._after_color = -1  # seat that plays first once a wild starter's colour is named
        self._after_color_pen = 0
        self._dry = 0
        self._closing = False
        self._void_due = False
        self._xskip = 0  # hyperspeed skips owed once a pending penalty is taken (BUZZ-2)
        # rules that the fast play generator does not handle (it falls back to the general one)
        self._simple = not (rules.seven_zero or rules.double_play or rules.multi_play
                            or rules.number_finish or rules.wild_powers
                            or rules.sum_jump_in != "off" or rules.deck.launcher)
        self._w4_strict = rules.w4_rule == "restricted" and not rules.wd4_challenge
        self._jump_on = rules.jump_in or rules.sum_jump_in != "off"
        self._double = rules.double_play
        self._special = rules.seven_zero or rules.wild_powers or rules.deck.launcher
        self._acts = self.space.actions
        self._vcode = self.space.vcodes
        self._rows = self.space.rows
        self._outcome: Outcome | None = None
        self._scores = list(scores) if scores is not None else [0] * n
        self._events: list[dict[str, Any]] | None = [] if record_events else None
        self._private: dict[int, list[dict[str, Any]]] = {}
        self.history: list[tuple[int, int]] = []
        self._deal(setup)
        if self._void_due:
            self._flush_void()

    # ======================================================================================
    # set-up (SET-3, SET-4, SET-5, START-*)
    # ======================================================================================
    def _deal(self, setup: Setup | None) -> None:
        rules, n = self.rules, self._n
        deck = list(rules.deck.cards)
        first = (self.dealer + 1) % n
        if setup is None:
            while True:
                self._shuffle(deck)
                self._pile = deck
                for _ in range(rules.hand_size):
                    for i in range(n):
                        self._hands[(first + i) % n].append(deck.pop())
                self._ev(t="deal", dealer=self.dealer, hand_size=rules.hand_size)
                if self._turn_starter(None):
                    return
                # no card left in the pile may start (START-5, START-7): deal again
                self._hands = [[] for _ in range(n)]
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
        for s in setup.hands:
            if not 0 <= s < n:
                raise ValueError(f"the setup gives a hand to seat {s}; seats are 0..{n - 1}")
        self._shuffle(remaining)
        for i in range(n):
            s = (first + i) % n
            if s in setup.hands:
                self._hands[s] = list(setup.hands[s])
            else:
                self._hands[s] = [remaining.pop() for _ in range(rules.hand_size)]
        self._ev(t="deal", dealer=self.dealer, hand_size=rules.hand_size)
        if setup.discard:
            # a table in the middle of a round: no starter rules apply
            self._pile = remaining + list(reversed(setup.draw_pile))
            self._discard = list(setup.discard)
            top = self._discard[-1]
            if IS_WILD[top]:
                if setup.color is None:
                    raise ValueError("the setup's discard pile ends with a wild: give its color")
                self._color = setup.color
            else:
                self._color = setup.color if setup.color is not None else KCOLOR[top]
            if self._color not in rules.deck.colors:
                raise ValueError(f"colour {COLOR_CODES[self._color]} is not in this edition")
            self._dir = setup.direction
            self._set_turn(setup.turn if setup.turn is not None else first)
            return
        # no starter named: it comes from the seed-ordered unplaced cards
        starter = setup.starter if setup.starter is not None else remaining.pop()
        self._pile = remaining + list(reversed(setup.draw_pile))
        if not self._turn_starter(starter):
            raise ValueError("the setup leaves no card that may be turned over first "
                             "(START-5, START-7)")

    def _shuffle(self, cards: list[int]) -> None:
        """Fisher-Yates driven by the game's generator (cheaper than ``random.shuffle``)."""
        rand = self._rng.random
        for i in range(len(cards) - 1, 0, -1):
            j = int(rand() * (i + 1))
            cards[i], cards[j] = cards[j], cards[i]

    def _starter_ok(self, card: int) -> bool:
        """May ``card`` stay as the first card (START-5, START-7)?"""
        rules = self.rules
        if rules.starter_number_only and not IS_NUMBER[card]:
            return False
        return card != WILD4 or rules.starter_w4 == "dealer_plays"

    def _turn_starter(self, starter: int | None) -> bool:
        """Turn over the first card and apply START-1..8. False, with nothing turned, when
        no card in the draw pile may start: a small pile can hold only returned kinds."""
        rules, n, dealer = self.rules, self._n, self.dealer
        first = (dealer + 1) % n
        while True:
            card = starter if starter is not None else self._pile.pop()
            starter = None
            if self._starter_ok(card):
                break
            if rules.starter_number_only and not IS_NUMBER[card]:  # START-7, ATK-10
                self._pile.insert(0, card)
                self._ev(t="starter_returned", card=CODES[card], where="bottom")
            else:  # START-5
                self._pile.insert(0, card)
                if rules.starter_w4 == "reshuffle":
                    self._shuffle(self._pile)
                self._ev(t="starter_returned", card=CODES[card], where=rules.starter_w4)
            if not any(self._starter_ok(c) for c in self._pile):
                return False
        self._discard.append(card)
        self._ev(t="starter", card=CODES[card])
        self._last = dealer
        if IS_WILD[card]:
            chooser = first
            if card == WILD4 or (card in (WILD, WILD_ATTACK)
                                 and rules.starter_wild_chooser == "dealer"):
                chooser = dealer  # START-4 dealer, START-5 dealer_plays
            if card == WILD_NATURE:
                self._eowner = dealer  # FRZ-3
            self._after_color = first
            self._after_color_pen = 4 if card == WILD4 else 0
            self._turn = chooser
            self._phase = COLOR
            return True
        self._color = KCOLOR[card]
        rank = KRANK[card]
        if rank == REVERSE:
            if rules.starter_reverse == "dealer_played":  # START-8: the dealer's Reverse
                if n == 2:  # TWO-1: it acts as a Skip, so the dealer plays again
                    self._ev(t="skip", seat=first)
                    self._set_turn(dealer)
                    return True
                self._dir = -1  # reversed: the dealer's other neighbour starts
                self._ev(t="reverse", direction=self.direction)
                self._set_turn((dealer - 1) % n)
                return True
            if n != 2:  # START-2: the dealer starts, counter-clockwise
                self._dir = -1
            self._set_turn(dealer)
            return True
        if rank == SKIP:  # START-3
            self._ev(t="skip", seat=first)
            self._set_turn((first + 1) % n)
            return True
        if rank in (DRAW2, HIT2):  # START-1, START-8
            self._start_penalty(first, 2, P_D2 if rank == DRAW2 else P_H2)
            return True
        self._set_turn(first)
        return True

    def _start_penalty(self, target: int, amount: int, kind: int) -> None:
        """A penalty on the first player from the starter, counted as the dealer's play."""
        if self._answerable(kind):
            self._pend, self._pkind = amount, kind
            self._set_turn(target)
        else:
            self._penalize(target, amount, "starter")
            if self._phase == OVER:
                return
            self._ev(t="skip", seat=target)
            self._set_turn((target + self._dir) % self._n)

    # ======================================================================================
    # public read-only state
    # ======================================================================================
    @property
    def players(self) -> int:
        return self._n

    @property
    def turn(self) -> int:
        return self._turn

    @property
    def phase(self) -> str:
        return PHASES[self._phase]

    @property
    def direction(self) -> str:
        return "cw" if self._dir == 1 else "ccw"

    @property
    def top(self) -> int:
        return self._discard[-1]

    @property
    def color(self) -> int:
        return self._color

    @property
    def is_over(self) -> bool:
        return self._phase == OVER

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def events(self) -> list[dict[str, Any]]:
        return self._events if self._events is not None else []

    def hand(self, seat: int) -> list[int]:
        """A copy of a seat's hand (kinds). Not for players: use :meth:`view`."""
        return list(self._hands[seat])

    def hand_sizes(self) -> list[int]:
        return [len(h) for h in self._hands]

    @property
    def draw_pile_size(self) -> int:
        return len(self._pile)

    @property
    def discard_pile(self) -> list[int]:
        return list(self._discard)

    def draw_pile(self) -> list[int]:
        """The draw pile, top first. Not for players."""
        return self._pile[::-1]

    @property
    def pending(self) -> dict[str, Any] | None:
        """The pending penalty (EFF-0), or None."""
        if not self._pend:
            return None
        return {"kind": "press" if self.rules.deck.launcher else "draw", "amount": self._pend,
                "target": self._turn, "source": _PKIND_NAMES[self._pkind]}

    @property
    def effect(self) -> dict[str, Any] | None:
        if self._effect == E_HYPER:
            return {"kind": "hyperspeed", "color": COLOR_CODES[self._ecolor]}
        if self._effect == E_LOCK:
            return {"kind": "forces_of_nature", "color": COLOR_CODES[self._ecolor],
                    "owner": self._eowner}
        return None

    @property
    def uno_exposed(self) -> int | None:
        """The seat that could be caught for a missing UNO right now, if any (UNO-2)."""
        return self._exposed if self._exposed >= 0 else None

    def declared(self, seat: int) -> bool:
        return self._declared[seat]

    @property
    def scores(self) -> list[int]:
        """Match scores before this round (for views)."""
        return list(self._scores)

    # ======================================================================================
    # legal actions
    # ======================================================================================
    def legal_ids(self, seat: int) -> list[int]:
        """Integer ids of every action the seat may take now (empty if it may not act)."""
        if self._phase == OVER:
            return []
        out: list[int] = []
        if seat == self._turn:
            self._turn_ids(seat, out)
        if self._exposed >= 0 or self._jump:
            self._window_ids(seat, out)
        out.sort()  # canonical order: bots and records do not depend on generation order
        return out

    def legal_actions(self, seat: int) -> list[Action]:
        acts = self.space.actions
        return [acts[i] for i in self.legal_ids(seat)]

    def legal_mask(self, seat: int) -> list[bool]:
        mask = [False] * len(self.space)
        for i in self.legal_ids(seat):
            mask[i] = True
        return mask

    def can_act(self, seat: int) -> bool:
        return bool(self.legal_ids(seat))

    def window_seats(self) -> list[int]:
        """Seats other than the turn seat with an open window, from the last actor's left."""
        if self._phase == OVER:
            return []
        n = self._n
        start = self._last if self._last >= 0 else self._turn
        out = []
        for i in range(1, n + 1):
            s = (start + i) % n
            if s != self._turn:
                buf: list[int] = []
                self._window_ids(s, buf)
                if buf:
                    out.append(s)
        return out

    def _window_ids(self, seat: int, out: list[int]) -> None:
        sp = self.space
        ex = self._exposed
        if ex >= 0:
            if ex == seat:
                out.append(sp.uno)
            else:
                out.append(sp.catch0 + ex)
        if self._jump and seat != self._last and seat != self._turn:
            self._jump_ids(seat, out)

    def _jump_ids(self, seat: int, out: list[int]) -> None:
        """HR-JUMP and HR-SUM: plays out of turn on the card just played."""
        rules, sp = self.rules, self.space
        hand = self._hands[seat]
        top = self._discard[-1]
        if IS_WILD[top]:
            return
        lock = self._effect == E_LOCK and seat != self._eowner
        tops = {top, *self._alt_kinds()}
        if rules.jump_in:
            for k in tops:
                if k in hand and (not lock or KCOLOR[k] == self._ecolor):
                    self._add_play(sp.index[Action("jump_in", (k,))], seat, (k,), out)
        if rules.sum_jump_in != "off" and IS_NUMBER[top]:
            target_num = KRANK[top]
            same = rules.sum_jump_in == "same_color"
            for cs in self._sum_options(hand, target_num, KCOLOR[top] if same else -1):
                if lock and KCOLOR[cs[0]] != self._ecolor:
                    continue
                self._add_play(sp.index[Action("jump_in", cs)], seat, cs, out)

    def _alt_kinds(self) -> tuple[int, ...]:
        return self._alt

    def _sum_options(self, hand: list[int], total: int, color: int) -> list[tuple[int, ...]]:
        from .cards import kind_of  # local: rare path
        out: list[tuple[int, ...]] = []
        colors = [color] if color >= 0 else list(self.rules.deck.colors)
        for c in colors:
            counts = [hand.count(kind_of(c, r)) for r in range(10)]
            res: list[tuple[int, ...]] = []

            def rec(r: int, acc: list[int], s: int, counts: list[int] = counts,
                    res: list[tuple[int, ...]] = res, c: int = c) -> None:
                if s == total and len(acc) >= 2:
                    res.append(tuple(kind_of(c, x) for x in acc))
                if r > 9 or s > total:
                    return
                for take in range(counts[r] + 1):
                    if s + r * take > total:
                        break
                    if take:
                        rec(r + 1, acc + [r] * take, s + r * take)
                    else:
                        rec(r + 1, acc, s)

            rec(0, [], 0)
            out += [t for t in dict.fromkeys(res) if sum(KRANK[k] for k in t) == total]
        return out

    def _add_play(self, aid: int, seat: int, cards: tuple[int, ...], out: list[int]) -> None:
        """Add a play and its UNO-flagged twin where it leaves one card; refuse empty-hand
        plays that break number finish (HR-NUMFIN, ATK-6) or HR-DOUBLE's UNO rule."""
        left = len(self._hands[seat]) - len(cards)
        if KRANK[cards[-1]] == DISCARD_ALL:  # ATK-7: the colour's other cards go too
            gone = {KCOLOR[k] for k in cards if KRANK[k] == DISCARD_ALL}
            left = sum(1 for k in self._hands[seat] if KCOLOR[k] not in gone)
        if left == 0:
            if self.rules.number_finish and not IS_NUMBER[cards[-1]] \
                    and cards[-1] != WILD_ATTACK:
                return
            if self.rules.double_play and len(cards) == 2 and cards[0] == cards[1]:
                out.append(aid + 1)  # HR-DOUBLE: both at once only with UNO declared
                return
            out.append(aid)
            return
        out.append(aid)
        if left == 1:
            out.append(aid + 1)

    def _matches(self, k: int, seat: int) -> bool:
        """TURN-1 matching, with the Forces of Nature lock (FRZ-1)."""
        if self._effect == E_LOCK and seat != self._eowner:
            return KCOLOR[k] == self._ecolor
        if IS_WILD[k]:
            return True
        if KCOLOR[k] == self._color:
            return True
        r = KRANK[k]
        return r == KRANK[self._discard[-1]] or (bool(self._alt) and r in
                                                  {KRANK[a] for a in self._alt})

    def _w4_ok(self, hand: list[int]) -> bool:
        """WD4-1: no card of the active colour in hand (matching symbols do not count)."""
        color = self._color
        return all(KCOLOR[k] != color for k in hand)

    def _turn_ids(self, seat: int, out: list[int]) -> None:
        phase = self._phase
        sp = self.space
        if phase == PLAY:
            if self._pend:
                self._answer_ids(seat, out)
                return
            out.append(sp.draw)
            self._play_ids(seat, self._hands[seat], out)
        elif phase == DRAWN:
            out.append(sp.pass_)
            self._play_ids(seat, self._drawn, out)
        elif phase == COLOR:
            out.extend(range(sp.color0, sp.color0 + len(self.rules.deck.colors)))
        elif phase == GIVE:
            for k in sorted(set(self._hands[seat])):
                out.append(sp.index[Action("give", (k,))])

    def _play_ids(self, seat: int, cards: list[int], out: list[int]) -> None:
        """Every legal play from ``cards`` (the hand, or the drawn cards)."""
        if self._simple and self._effect != E_LOCK:
            # the common case: one card at a time, no targets, no finish rule; the ids of
            # each kind's plays on this top and colour come from a shared table
            key = self._color * 32 + KRANK[self._discard[-1]]
            row = self._rows.get(key) or self._build_row(key)
            uno = len(self._hands[seat]) == 2
            for k in set(cards):
                ids = row[k]
                if ids:
                    if k == WILD4 and self._w4_strict and not self._w4_ok(self._hands[seat]):
                        continue
                    out.extend(ids)
                    if uno:
                        out.extend([i + 1 for i in ids])
            return
        rules, sp = self.rules, self.space
        hand = self._hands[seat]
        lock = self._effect == E_LOCK and seat != self._eowner
        color = self._color
        top_rank = KRANK[self._discard[-1]]
        alt = {KRANK[a] for a in self._alt} if self._alt else None
        play1 = sp.play1
        n = self._n
        for k in set(cards):
            if lock:
                if KCOLOR[k] != self._ecolor:
                    continue
            elif not (IS_WILD[k] or KCOLOR[k] == color or KRANK[k] == top_rank
                      or (alt is not None and KRANK[k] in alt)):
                continue
            if k < NCOLORED:
                r = KRANK[k]
                if r == DISCARD_ALL and not self._da_ok(hand, (k,)):
                    continue
                if r == 7 and rules.seven_zero:
                    base = sp.index[Action("play", (k,), target=0)]
                    for t in range(n):
                        if t != seat:
                            self._add_play(base + 2 * t, seat, (k,), out)
                else:
                    self._add_play(play1[k], seat, (k,), out)
                if rules.double_play and hand.count(k) >= 2 and cards is hand:
                    self._add_play(sp.index[Action("play", (k, k))], seat, (k, k), out)
                if rules.multi_play and cards is hand:
                    self._multi_ids(seat, k, out)
            else:
                if k == WILD4 and rules.w4_rule == "restricted" and not rules.wd4_challenge \
                        and not self._w4_ok(hand):
                    continue
                wid = self.space.wild[k]
                last = len(hand) == 1
                if k == WILD_ATTACK:
                    for c in rules.deck.colors:
                        base = sp.index[Action("play", (k,), color=c, target=0)]
                        for t in range(n):
                            if t != seat:
                                self._add_play(base + 2 * t, seat, (k,), out)
                    continue
                for c in rules.deck.colors:
                    self._add_play(wid[c], seat, (k,), out)
                if k == WILD and rules.wild_powers and not last:
                    for p in ("look", "swap"):
                        base = sp.index[Action("play", (k,), target=0, power=p)]
                        for t in range(n):
                            if t != seat:
                                self._add_play(base + 2 * t, seat, (k,), out)

    def _build_row(self, key: int) -> tuple[tuple[int, ...], ...]:
        """Per kind, the ids of its plays (without UNO) on a top rank and active colour."""
        color, top_rank = divmod(key, 32)
        sp = self.space
        row: list[tuple[int, ...]] = []
        for k in range(len(self.rules.deck.counts)):
            if not self.rules.deck.counts[k]:
                row.append(())
            elif k < NCOLORED:
                row.append((sp.play1[k],) if KCOLOR[k] == color or KRANK[k] == top_rank
                           else ())
            else:
                row.append(tuple(i for i in sp.wild[k] if i >= 0))
        self._rows[key] = t = tuple(row)
        return t

    def _da_ok(self, hand: list[int], cards: tuple[int, ...]) -> bool:
        """ATK-7: a discard-all may not empty the hand."""
        gone = {KCOLOR[k] for k in cards if KRANK[k] == DISCARD_ALL}
        left = list(hand)
        for k in cards:
            left.remove(k)
        return any(KCOLOR[k] not in gone for k in left)

    def _multi_ids(self, seat: int, first: int, out: list[int]) -> None:
        """ATK-4 plays starting with ``first``: same number and colour, or same action rank."""
        hand = self._hands[seat]
        sp = self.space
        if IS_NUMBER[first]:
            m = hand.count(first)
            for size in range(2, m + 1):
                cs = (first,) * size
                self._add_play(sp.index[Action("play", cs)], seat, cs, out)
            return
        rank = KRANK[first]
        pool = [k for k in hand if KRANK[k] == rank and not IS_WILD[k]]
        pool.remove(first)
        if not pool:
            return
        seen: set[tuple[int, ...]] = set()
        import itertools
        for size in range(1, len(pool) + 1):
            for combo in itertools.combinations(sorted(pool), size):
                for last in set(combo):
                    mid = list(combo)
                    mid.remove(last)
                    cs = (first, *sorted(mid), last)
                    if cs in seen:
                        continue
                    seen.add(cs)
                    if rank == DISCARD_ALL and not self._da_ok(hand, cs):
                        continue
                    aid = sp.index.get(Action("play", cs))
                    if aid is not None:
                        self._add_play(aid, seat, cs, out)

    def _answerable(self, kind: int) -> bool:
        """EFF-0: do the rules give a penalty of this kind any answer?"""
        rules = self.rules
        if kind == P_D2:
            return rules.stacking != "off"
        if kind == P_W4:
            return rules.stack_draw4 or (rules.wd4_challenge and not self._nochallenge)
        return kind in (P_H2, P_WA)

    def _is_answer(self, k: int, seat: int) -> bool:
        """May card ``k`` answer the pending penalty (HR-STACK, HR-STACK4, HR-4ON2, ATK-8/9)?"""
        rules = self.rules
        kind = self._pkind
        if self._effect == E_LOCK and seat != self._eowner and KCOLOR[k] != self._ecolor:
            return False
        if kind == P_D2:
            if k == WILD4:
                return rules.draw4_on_draw2
            r = KRANK[k]
            if rules.stacking == "draw2":
                return r == DRAW2
            if r in (SKIP, REVERSE, DRAW2):  # deflect: match the top by colour or symbol
                return KCOLOR[k] == self._color or r == KRANK[self._discard[-1]]
            return False
        if kind == P_W4:
            return k == WILD4 and rules.stack_draw4
        if kind == P_H2:
            return KRANK[k] == HIT2
        if kind == P_WA:  # a Hit 2 of the named colour, or an attack-attack of one's own
            if k == WILD_ATTACK:  # not a last card: that one has no effect (ATK-6)
                return len(self._hands[seat]) > 1
            return KRANK[k] == HIT2 and KCOLOR[k] == self._color
        return False

    def _answer_ids(self, seat: int, out: list[int]) -> None:
        rules, sp = self.rules, self.space
        hand = self._hands[seat]
        if self._pkind == P_W4 and rules.wd4_challenge and not self._nochallenge:
            out.append(sp.challenge)
            out.append(sp.accept)
        else:
            out.append(sp.draw)
        for k in set(hand):
            if not self._is_answer(k, seat):
                continue
            if k == WILD4:
                for c in rules.deck.colors:
                    self._add_play(sp.wild[k][c], seat, (k,), out)
                continue
            if k == WILD_ATTACK:  # ATK-9: any colour, any other seat
                for c in rules.deck.colors:
                    base = sp.index[Action("play", (k,), color=c, target=0)]
                    for t in range(self._n):
                        if t != seat:
                            self._add_play(base + 2 * t, seat, (k,), out)
                continue
            self._add_play(sp.play1[k], seat, (k,), out)
            if rules.double_play and hand.count(k) >= 2:
                self._add_play(sp.index[Action("play", (k, k))], seat, (k, k), out)
            if rules.multi_play:
                buf: list[int] = []
                self._multi_ids(seat, k, buf)
                acts = sp.actions
                out.extend(i for i in buf
                           if all(self._is_answer(c, seat) for c in acts[i].cards))

    # ======================================================================================
    # applying actions
    # ======================================================================================
    def apply(self, action: object, seat: object = None) -> None:
        """Checked apply (DIG-4): an illegal action raises :class:`IllegalAction` and changes
        nothing, unless the rules turn that fault into a penalty (PEN-1/2, UNO-3).

        ``action`` is an :class:`Action`, its text or its integer id; ``seat`` an integer (by
        default the seat whose turn it is). Both are typed ``object`` because this is the
        engine's boundary: anything else is refused with ``bad_action``, even compiled."""
        if seat is None:
            who = self._turn
        elif type(seat) is int:
            who = seat
        else:
            who = _boundary_seat(seat)
        if not 0 <= who < self._n:
            raise IllegalAction("bad_target", f"seat {who} does not exist (0..{self._n - 1})")
        sp = self.space
        if type(action) is int:
            if not 0 <= action < len(sp):
                raise IllegalAction("bad_action", f"action id {action} is outside 0..{len(sp) - 1}")
            act = sp.actions[action]
            aid: int | None = action
        else:
            given = action if type(action) is Action else _boundary_action(action)
            if isinstance(given, int):  # an integer-like id (numpy's, say)
                self.apply(given, who)
                return
            if given.power == "color":
                # HR-WILDPOWER's "name a colour" is the wild's plain play
                given = Action(given.verb, given.cards, given.color, given.target, "",
                               given.uno, given.give)
            act = given
            try:
                aid = sp.index.get(act)
            except TypeError:  # a field of an unhashable type (a list of cards)
                aid = None
            if aid is None:
                _check_action(act)
        if self._phase == OVER:
            raise IllegalAction("round_over", "the round is over")
        if act.give and act.verb == "play":
            self._apply_compound(act, who)
            return
        if act.verb == "timeout" and self.rules.turn_timer is not None and who == self._turn:
            self.step(sp.timeout, who)  # HR-TIMER: never listed as legal, always possible
            return
        legal = self.legal_ids(who)
        if aid is not None and aid in legal:
            self.step(aid, who)
            return
        if act.uno and self.rules.false_uno_penalty and act.verb in ("play", "jump_in"):
            plain = sp.index.get(act.without_uno())
            if plain is not None and plain in legal:  # UNO-3: a false declaration on a play
                self.step(plain, who)
                self.history[-1] = (who, sp.index[act])  # the record keeps the declaration
                self._ev(t="uno", seat=who)
                self._penalize(who, self.rules.false_uno_penalty, "false_uno")
                if self._void_due:
                    self._flush_void()
                return
        code, msg = self._diagnose(act, who)
        if self._penalize_fault(code, act, who):
            return
        raise IllegalAction(code, msg)

    def _apply_compound(self, act: Action, seat: int) -> None:
        """``play W power=swap target=2 give=R1+G5+Y9``: the play, then each give, atomically."""
        snapshot = self.clone()
        try:
            self.apply(Action(act.verb, act.cards, act.color, act.target, act.power, act.uno),
                       seat)
            for k in act.give:
                if self._phase != GIVE:
                    raise IllegalAction("bad_action", "more cards to give than the swap takes")
                self.apply(Action("give", (k,)), seat)
            if self._phase == GIVE:
                raise IllegalAction("bad_action",
                                    f"the swap takes {self._give_left} more card(s) to give")
        except IllegalAction:
            self._restore(snapshot)
            raise

    def step(self, aid: int, seat: int) -> None:
        """Unchecked fast path: apply a legal action id for a seat."""
        self.history.append((seat, aid))
        v = self._vcode[aid]
        if v == V_PLAY:
            self._exposed = -1
            self._jump = False
            self._play(seat, self._acts[aid], False)
        elif v == V_DRAW:
            self._exposed = -1
            self._jump = False
            self._draw_action(seat)
        elif v == V_PASS:
            self._exposed = -1
            self._jump = False
            self._ev(t="pass", seat=seat)
            self._advance(seat)
        else:
            self._step_rare(v, self._acts[aid], seat)
        if self._void_due:
            self._flush_void()

    def _step_rare(self, v: int, act: Action, seat: int) -> None:
        if v == V_CATCH:
            self._catch(seat, act.target)
        elif v == V_UNO:
            self._uno(seat)
        elif v == V_COLOR:
            self._name_starter_color(act.color)
        elif v == V_GIVE:
            self._give(seat, act.cards[0])
        else:
            self._close_windows()
            if v == V_JUMP:
                self._ev(t="jump_in", seat=seat, cards=codes(act.cards))
                self._play(seat, act, True)
            elif v == V_CHALLENGE:
                self._challenge(seat)
            elif v == V_ACCEPT:
                self._ev(t="accept", seat=seat)
                self._take_pending(seat)
            elif v == V_TIMEOUT:
                self._timeout(seat)

    # -- helpers --------------------------------------------------------------------------------
    def _ev(self, **e: Any) -> None:
        if self._events is not None:
            self._events.append(e)
            if "to" in e:  # private to one seat: indexed for its view
                self._private.setdefault(e["to"], []).append(e)

    def _close_windows(self) -> None:
        self._exposed = -1
        self._jump = False

    def _set_turn(self, seat: int) -> None:
        self._turn = seat
        self._phase = PLAY
        if self._effect == E_LOCK and seat == self._eowner:  # FRZ-2
            self._effect = E_NONE
            self._ev(t="effect_end", kind="forces_of_nature")

    def _advance(self, seat: int, skips: int = 0) -> None:
        n, d = self._n, self._dir
        nxt = (seat + d) % n
        for _ in range(skips):
            self._ev(t="skip", seat=nxt)
            nxt = (nxt + d) % n
        if self._drawn:
            self._drawn = []
        self._turn = nxt
        self._phase = PLAY
        if self._effect == E_LOCK and nxt == self._eowner:  # FRZ-2
            self._effect = E_NONE
            self._ev(t="effect_end", kind="forces_of_nature")

    def _refill(self) -> bool:
        """TURN-6: turn the discard pile (but its top) into a new draw pile; False if void."""
        if self.rules.deck_exhausted == "void" and not self._closing:
            self._end_void()
            return False
        if len(self._discard) <= 1:
            return False
        top = self._discard.pop()
        cards = self._discard
        self._discard = [top]
        self._shuffle(cards)
        self._pile = cards
        self._ev(t="reshuffle", cards=len(cards))
        return True

    def _take(self, seat: int, count: int) -> list[int]:
        """Move up to ``count`` cards from the draw pile into a hand."""
        got: list[int] = []
        pile = self._pile
        hand = self._hands[seat]
        for _ in range(count):
            if not pile and (self._phase == OVER or not self._refill()):
                break
            pile = self._pile
            c = pile.pop()
            hand.append(c)
            got.append(c)
        if got:
            self._declared[seat] = False
            if self._exposed == seat:
                self._exposed = -1
        return got

    def _press(self, seat: int) -> list[int]:
        """ATK-2: one press of the launcher ejects k cards, k from the configured distribution."""
        rules = self.rules
        max_dry = rules.launcher_max_dry
        if max_dry is not None and self._dry >= max_dry:
            k = 1 + self._weighted_nonzero()  # the dry-press limit: this press fires
        else:
            k = _sample(rules.launcher, self._rng.random())
        if not self._pile and self._phase != OVER:
            self._refill()
        k = min(k, len(self._pile))
        self._dry = self._dry + 1 if k == 0 else 0
        got = self._take(seat, k) if k else []
        self._ev(t="press", seat=seat, count=len(got))
        if got:
            self._ev(t="drew", seat=seat, cards=codes(got), to=seat)
        return got

    def _weighted_nonzero(self) -> int:
        """After the dry-press limit: a volley of at least one card, weighted as the launcher."""
        probs = self.rules.launcher[1:]
        return _sample(probs, self._rng.random() * sum(probs))

    def _penalize(self, seat: int, amount: int, reason: str) -> None:
        """A penalty of ``amount`` cards (Attack: presses of the launcher)."""
        if self.rules.deck.launcher:
            self._ev(t="penalty", seat=seat, presses=amount, reason=reason)
            for _ in range(amount):
                if self._phase == OVER:
                    break
                self._press(seat)
            return
        got = self._take(seat, amount)
        self._ev(t="draw", seat=seat, count=len(got), reason=reason)
        if got:
            self._ev(t="drew", seat=seat, cards=codes(got), to=seat)

    # -- plays ------------------------------------------------------------------------------
    def _play(self, seat: int, act: Action, jump: bool) -> None:
        n = self._n
        cards = act.cards
        hand = self._hands[seat]
        discard = self._discard
        last = cards[-1]
        if last == WILD4:  # WD4-1 guilt, judged on the hand before the play
            before = self._color
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
                self._color = act.color
        else:
            self._color = KCOLOR[last]
        discarded: list[int] = []
        if not single:
            if rank == DISCARD_ALL:  # ATK-7: the colour's cards go under the DA
                gone = {KCOLOR[k] for k in cards if KRANK[k] == DISCARD_ALL}
                discarded = [k for k in hand if KCOLOR[k] in gone]
                if discarded:
                    hand[:] = [k for k in hand if KCOLOR[k] not in gone]
                    discard.extend(discarded)
            discard.extend(cards)
            self._alt = cards[:-1] if jump else ()
        elif self._alt:
            self._alt = ()
        self._last = seat
        if self._drawn:
            self._drawn = []
        if self._events is not None:
            e: dict[str, Any] = {"t": "play", "seat": seat, "cards": codes(cards),
                                 "color": COLOR_CODES[self._color]}
            if act.target >= 0:
                e["target"] = act.target
            if act.power:
                e["power"] = act.power
            if discarded:
                e["discarded"] = codes(discarded)
            if act.uno:
                e["uno"] = True
            self._events.append(e)
        left = len(hand)
        if left == 1:
            self._declared[seat] = act.uno
            if act.uno:
                self._ev(t="uno", seat=seat)
            else:
                self._exposed = seat
        elif self._declared[seat]:
            self._declared[seat] = False
        if self._jump_on and last < NCOLORED:
            self._jump = True

        # -- effects (EFF-*, TWO-1, BUZZ-2, ATK-*, HR-*) ------------------------------------
        answering = self._pend > 0
        count = len(cards)
        skips = 0
        penalty = 0
        kind = self._pkind
        if rank <= 9:
            pass
        elif rank == SKIP:
            skips = 1 if self._double and count == 2 and not jump else count
        elif rank == REVERSE:
            flips = 0 if self._double and count == 2 and not jump else count
            if n == 2:
                skips = flips
            elif flips % 2:
                self._dir = -self._dir
                self._ev(t="reverse", direction=self.direction)
        elif rank == DRAW2:
            penalty, kind = 2 * count, (kind if kind == P_W4 else P_D2)
        elif rank == HIT2:
            penalty, kind = 2 * count, P_H2  # an H2 passed on from a WA is an ATK-8 chain
            self._resume = -1
        elif last == WILD4:
            penalty, kind = 4, P_W4
            self._nochallenge = False
            if not answering or self._pkind != P_W4:
                self._chain = []
            self._chain.append((seat, guilty, tuple(sorted(hand)), before))
        if answering and n == 2 and rank in (SKIP, REVERSE):
            skips = 0  # HR-STACK: with two players S and R pass the total to the opponent
        xskip = 0
        if self._effect == E_HYPER:  # BUZZ-2: one more skip, after the card's own effect
            if last < NCOLORED and KCOLOR[last] == self._ecolor:
                xskip = 1
            else:
                self._effect = E_NONE
                self._ev(t="effect_end", kind="hyperspeed")
        if last >= NCOLORED and left:
            if last == WILD_HYPER:  # BUZZ-1
                self._effect, self._ecolor = E_HYPER, self._color
                self._ev(t="effect", kind="hyperspeed", color=COLOR_CODES[self._color])
            elif last == WILD_NATURE:  # FRZ-1
                self._effect, self._ecolor, self._eowner = E_LOCK, self._color, seat
                self._ev(t="effect", kind="forces_of_nature", color=COLOR_CODES[self._color],
                         owner=seat)

        d = self._dir
        if left == 0:  # END-1, END-2: the next player first takes what this play gave them
            total = self._pend + penalty
            self._pend, self._pkind = 0, P_NONE
            if total and last != WILD_ATTACK:
                target = (seat + d) % n
                for _ in range(skips):
                    target = (target + d) % n
                self._closing = True  # END-2 draws reshuffle but never void the round
                self._penalize(target, total, "last_card")
            self._end_round(seat)
            return

        if self._special and self._special_effects(seat, act, last, rank, left):
            return
        if penalty or answering:
            # the penalty goes to the next player; a deflecting S or R (HR-STACK) moves it on
            if penalty:
                self._pend += penalty
                self._pkind = kind
            target = (seat + d) % n
            for _ in range(skips):
                self._ev(t="skip", seat=target)
                target = (target + d) % n
            self._xskip = xskip
            if not penalty or self._answerable(kind):
                self._set_turn(target)
                return
            # EFF-0: no answer possible, carried out at once
            total, self._pend, self._pkind, self._xskip = self._pend, 0, P_NONE, 0
            self._penalize(target, total, _PKIND_NAMES[kind])
            if self._phase == OVER:
                return
            self._ev(t="skip", seat=target)
            self._advance(target, xskip)
            return
        self._advance(seat, skips + xskip)

    def _special_effects(self, seat: int, act: Action, last: int, rank: int, left: int) -> bool:
        """HR-SEVEN-ZERO, HR-WILDPOWER and ATK-9; True when the turn has been settled here."""
        n = self._n
        if self.rules.seven_zero and last < NCOLORED:
            if rank == 7 and act.target >= 0:
                t = act.target
                self._hands[seat], self._hands[t] = self._hands[t], self._hands[seat]
                self._after_hands_move()
                self._ev(t="swap_hands", seat=seat, target=t)
            elif rank == 0:
                d = self._dir
                old = self._hands
                self._hands = [old[(s - d) % n] for s in range(n)]
                self._after_hands_move()
                self._ev(t="rotate_hands", direction=self.direction)
        elif last == WILD and act.power == "look":
            self._ev(t="look", seat=seat, target=act.target)
            self._ev(t="hand_shown", seat=act.target,
                     cards=codes(sorted(self._hands[act.target])), to=seat)
        elif last == WILD and act.power == "swap":
            self._ev(t="swap_start", seat=seat, target=act.target)
            self._give_left = self._given = min(3, left)
            self._give_target = act.target
            self._phase = GIVE
            self._turn = seat
            return True
        elif last == WILD_ATTACK:  # an answer to an attack adds its two presses (ATK-9)
            self._pend, self._pkind = self._pend + 2, P_WA
            self._resume = (seat + self._dir) % n
            self._chain = []
            self._ev(t="attack", seat=seat, target=act.target)
            self._set_turn(act.target)
            return True
        return False

    def _after_hands_move(self) -> None:
        for s in range(self._n):
            self._declared[s] = False
        self._exposed = -1

    def _give(self, seat: int, k: int) -> None:
        hand = self._hands[seat]
        hand.remove(k)
        self._hands[self._give_target].append(k)
        self._ev(t="give", seat=seat, target=self._give_target, cards=[CODES[k]],
                 to=self._give_target)
        self._give_left -= 1
        if self._give_left == 0:
            self._finish_swap(seat)
            self._advance(seat)

    def _finish_swap(self, seat: int) -> None:
        """The swap's second half: the W player takes random cards of the target's."""
        t = self._give_target
        theirs = self._hands[t]
        own = len(theirs) - self._given  # the given cards are at the end of the hand
        got = []
        for _ in range(min(self._given, own)):  # as many as were given
            j = int(self._rng.random() * own)
            got.append(theirs.pop(j))
            own -= 1
        self._hands[seat].extend(got)
        self._ev(t="swap_taken", seat=seat, target=t, count=len(got))
        self._ev(t="swap_cards", seat=seat, cards=codes(got), to=seat)
        self._ev(t="swap_cards", seat=t, cards=codes(got), to=t)
        self._after_hands_move()
        self._give_target = -1

    # -- draws ------------------------------------------------------------------------------
    def _draw_action(self, seat: int) -> None:
        if self._pend:
            self._ev(t="draw_penalty", seat=seat)
            self._take_pending(seat)
            return
        rules = self.rules
        if rules.deck.launcher:
            got = self._press(seat)
        elif rules.draw_count == "until_playable":
            got = []
            while True:
                one = self._take(seat, 1)
                if not one:
                    break
                got += one
                if self._playable_drawn(seat, one[0]):
                    break
            self._ev(t="draw", seat=seat, count=len(got), reason="turn")
            if got:
                self._ev(t="drew", seat=seat, cards=codes(got), to=seat)
        else:
            got = self._take(seat, 1)
            if self._events is not None:
                self._ev(t="draw", seat=seat, count=len(got), reason="turn")
                if got:
                    self._ev(t="drew", seat=seat, cards=codes(got), to=seat)
        if self._phase == OVER:
            return
        drew = len(got)
        if rules.draw_count == "until_playable" and got and not rules.deck.launcher:
            got = got[-1:]
        playable = [c for c in got if self._playable_drawn(seat, c)]
        if playable and rules.voluntary_draw_play == "may_not":
            # TURN-4 may_not: a voluntary draw (the hand had a play) ends the turn
            hand = self._hands[seat]
            new = hand[-drew:]
            del hand[-drew:]
            buf: list[int] = []
            self._play_ids(seat, hand, buf)
            hand.extend(new)
            if buf:
                playable = []
        if playable:
            self._drawn = playable
            self._phase = DRAWN
            return
        if drew:  # kept: the same public record as keeping a playable card (TURN-3, DIG-2)
            self._ev(t="pass", seat=seat)
        self._advance(seat)

    def _playable_drawn(self, seat: int, k: int) -> bool:
        if self._simple and self._effect != E_LOCK:
            key = self._color * 32 + KRANK[self._discard[-1]]
            row = self._rows.get(key) or self._build_row(key)
            if not row[k]:
                return False
            return not (k == WILD4 and self._w4_strict and not self._w4_ok(self._hands[seat]))
        if not self._matches(k, seat):
            return False
        if k == WILD4 and self.rules.w4_rule == "restricted" and not self.rules.wd4_challenge:
            return self._w4_ok(self._hands[seat])
        buf: list[int] = []
        self._play_ids(seat, [k], buf)
        return bool(buf)

    def _take_pending(self, seat: int) -> None:
        """Draw the whole pending total and lose the turn (EFF-0)."""
        total, kind = self._pend, self._pkind
        self._pend, self._pkind = 0, P_NONE
        self._chain = []
        self._nochallenge = False
        self._penalize(seat, total, _PKIND_NAMES[kind])
        if self._phase == OVER:
            return
        xskip, self._xskip = self._xskip, 0
        if kind == P_WA:
            resume, self._resume = self._resume, -1
            self._drawn = []
            self._set_turn(resume)
            return
        self._resume = -1
        self._ev(t="skip", seat=seat)
        self._advance(seat, xskip)

    def _challenge(self, seat: int) -> None:
        """WD4-2 and HR-CHAIN-CHALLENGE."""
        chain = self._chain
        total = self._pend
        self._ev(t="challenge", seat=seat, targets=[s for s, _, _, _ in chain])
        for s, _, snap, _ in chain:
            self._ev(t="hand_shown", seat=s, cards=codes(snap), to=seat)
        guilty = [s for s, g, _, _ in chain if g]
        self._pend, self._pkind = 0, P_NONE
        self._chain = []
        if guilty:
            share, rem = divmod(total, len(guilty))
            self._ev(t="challenge_result", guilty=guilty)
            for i, s in enumerate(guilty):
                self._penalize(s, share + (1 if i < rem else 0), "challenge_guilty")
                if self._phase == OVER:
                    return
            self._set_turn(seat)  # the challenger plays on the named colour
            return
        self._ev(t="challenge_result", guilty=[])
        self._penalize(seat, total + 2 * len(chain), "challenge_innocent")
        if self._phase == OVER:
            return
        self._ev(t="skip", seat=seat)
        self._advance(seat)

    def _catch(self, seat: int, target: int) -> None:
        self._ev(t="catch", seat=seat, target=target)
        if target == self._exposed:
            self._exposed = -1
            self._penalize(target, self.rules.uno_penalty, "uno_caught")
        else:  # UNO-3: a false catch costs the caller
            self._penalize(seat, self.rules.false_uno_penalty, "false_catch")

    def _uno(self, seat: int) -> None:
        if seat == self._exposed:
            self._exposed = -1
            self._declared[seat] = True
            self._ev(t="uno", seat=seat)
        else:
            self._ev(t="uno", seat=seat)
            self._penalize(seat, self.rules.false_uno_penalty, "false_uno")

    def _name_starter_color(self, color: int) -> None:
        """START-4/5/6: the chooser names the colour of a wild starter."""
        self._color = color
        top = self._discard[-1]
        self._ev(t="color", seat=self._turn, color=COLOR_CODES[color])
        if top == WILD_HYPER:  # BUZZ-3
            self._effect, self._ecolor = E_HYPER, color
            self._ev(t="effect", kind="hyperspeed", color=COLOR_CODES[color])
        elif top == WILD_NATURE:  # FRZ-3
            self._effect, self._ecolor = E_LOCK, color
            self._ev(t="effect", kind="forces_of_nature", color=COLOR_CODES[color],
                     owner=self._eowner)
        first = self._after_color
        if self._after_color_pen:  # START-5 dealer_plays: the first player draws 4, no challenge
            self._nochallenge = True
            self._chain = []
            self._start_penalty(first, self._after_color_pen, P_W4)
            self._nochallenge = self._pend > 0
            return
        self._set_turn(first)

    def _timeout(self, seat: int) -> None:
        """HR-TIMER: the seat that must act ran out of time."""
        rules = self.rules
        self._ev(t="timeout", seat=seat)
        phase = self._phase
        if phase == COLOR:
            colors = rules.deck.colors
            self._penalize(seat, rules.timer_penalty, "timeout")
            if self._phase != OVER:
                self._name_starter_color(colors[int(self._rng.random() * len(colors))])
            return
        if phase == GIVE:
            self._penalize(seat, rules.timer_penalty, "timeout")
            while self._phase == GIVE:
                hand = self._hands[seat]
                self._give(seat, hand[int(self._rng.random() * len(hand))])
            return
        if self._pend:
            self._penalize(seat, rules.timer_penalty, "timeout")
            if self._phase != OVER:
                self._take_pending(seat)
            return
        self._penalize(seat, rules.timer_penalty, "timeout")
        if self._phase != OVER:
            self._advance(seat)

    # -- round end ----------------------------------------------------------------------------
    def _end_round(self, winner: int) -> None:
        rules = self.rules
        pts = tuple(sum(POINTS[k] for k in h) for h in self._hands)
        n = self._n
        if rules.teams:
            nt = rules.team_count
            team_pts = [0] * nt
            for s in range(n):
                team_pts[rules.team_of(s)] += pts[s]
            wt = rules.team_of(winner)
            if rules.scoring == "winner":  # MATCH-4: other teams' hands only
                scores = tuple(sum(team_pts[t] for t in range(nt) if t != wt) if t == wt else 0
                               for t in range(nt))
            elif rules.scoring == "penalty":
                scores = tuple(team_pts)
            else:
                lost = sum(team_pts[t] for t in range(nt) if t != wt)
                scores = tuple(lost if t == wt else -team_pts[t] for t in range(nt))
        elif rules.scoring == "winner":  # MATCH-1
            scores = tuple(sum(pts) if s == winner else 0 for s in range(n))
        elif rules.scoring == "penalty":  # MATCH-2
            scores = pts
        else:  # MATCH-3 chips
            scores = tuple(sum(pts) if s == winner else -pts[s] for s in range(n))
        self._outcome = Outcome(winner, "out", pts, scores)
        self._phase = OVER
        self._pend, self._pkind = 0, P_NONE
        self._exposed = -1
        self._jump = False
        self._ev(t="round_over", winner=winner, points=list(pts), scores=list(scores))

    def _end_void(self) -> None:
        pts = tuple(sum(POINTS[k] for k in h) for h in self._hands)
        zeros = tuple(0 for _ in range(self.rules.team_count or self._n))
        self._outcome = Outcome(None, "void", pts, zeros)
        self._phase = OVER
        self._pend, self._pkind = 0, P_NONE
        self._exposed = -1
        self._jump = False
        self._void_due = True  # its event closes the action that found the pile empty

    def _flush_void(self) -> None:
        self._void_due = False
        out = self._outcome
        assert out is not None
        self._ev(t="round_over", winner=None, void=True, points=list(out.hand_points))

    # ======================================================================================
    # diagnosis of illegal actions (DIG-4) and fault penalties (PEN-1, PEN-2, UNO-3)
    # ======================================================================================
    def _diagnose(self, act: Action, seat: int) -> tuple[str, str]:
        rules = self.rules
        verb = act.verb
        n = self._n
        hand = self._hands[seat]
        if verb not in ("play", "jump_in") and act.give:
            return "bad_action", "give= belongs to a wild played with power=swap"
        if verb == "catch":
            if not 0 <= act.target < n or act.target == seat:
                return "bad_target", f"catch names another seat, 0..{n - 1} but not {seat}"
            return "no_window", (f"seat {act.target} cannot be caught now: the catch window is "
                                 "open only until the next player acts, and only for a player "
                                 "with one card who did not declare UNO")
        if verb == "uno":
            return "no_window", ("UNO can be declared by a player left with one card after "
                                 "their play, before the next player acts")
        if verb in ("challenge", "accept"):
            if not rules.wd4_challenge and verb == "challenge":
                return "not_in_rules", "these rules have no Wild Draw Four challenge"
            if seat != self._turn or self._pkind != P_W4:
                return "no_window", ("only the player a W4 targets may challenge or accept it, "
                                     "before doing anything else")
            return "not_in_rules", "this W4 cannot be challenged (a W4 starter)"
        if verb == "timeout":
            if rules.turn_timer is None:
                return "not_in_rules", "these rules have no turn timer"
            return "not_your_turn", "only the seat that must act can run out of time"
        if verb == "jump_in":
            if not rules.jump_in and rules.sum_jump_in == "off":
                return "not_in_rules", "these rules have no jump-in (jump_in and sum_jump_in off)"
            if not self._has(hand, act.cards):
                return "card_not_in_hand", f"seat {seat} does not hold {_join(act.cards)}"
            if not self._jump or seat in (self._last, self._turn):
                return "no_window", ("a jump-in is possible only on the card just played, "
                                     "before the next player acts, by another player")
            return "does_not_match", (f"{_join(act.cards)} is not identical to "
                                      f"{CODES[self._discard[-1]]} (or its numbers do not add "
                                      "up to it)")
        if verb == "give":
            if self._phase != GIVE or seat != self._turn:
                return "not_your_turn", "nothing to give now"
            return "card_not_in_hand", f"seat {seat} does not hold {_join(act.cards)}"
        if seat != self._turn:
            return "not_your_turn", f"it is seat {self._turn}'s turn, not seat {seat}'s"
        phase = self._phase
        if verb == "color":
            if phase != COLOR:
                return "not_your_turn", "a colour is named only for a wild starter"
            return "must_name_color", _colors_allowed(rules)
        if phase == COLOR:
            return "must_name_color", "first name the starter's colour: " + _colors_allowed(rules)
        if phase == GIVE:
            return "not_your_turn", f"choose {self._give_left} more card(s) to give"
        if verb == "pass":
            return "not_your_turn", "pass is possible only after drawing a playable card"
        if verb == "draw":
            if phase == DRAWN:
                return "only_drawn_card", "you have drawn: play the drawn card or pass"
            if self._pkind == P_W4:
                return "must_answer_penalty", "challenge or accept the Wild Draw Four"
            return "not_your_turn", "draw is not possible now"
        # plays
        cards = act.cards
        if not cards:
            return "bad_action", "a play needs cards"
        if not self._has(hand, cards):
            return "card_not_in_hand", f"seat {seat} does not hold {_join(cards)}"
        if len(cards) > 1:
            same = all(c == cards[0] for c in cards)
            if not rules.multi_play and not (rules.double_play and same and len(cards) == 2):
                return "not_in_rules", "these rules play one card at a time"
        first, last = cards[0], cards[-1]
        if IS_WILD[last]:
            if last == WILD_ATTACK:
                if act.color not in rules.deck.colors:
                    return "must_name_color", _colors_allowed(rules)
                if not 0 <= act.target < n or act.target == seat:
                    return "bad_target", "a wild attack-attack names another seat to attack"
            elif act.power in ("look", "swap"):
                if last != WILD or not rules.wild_powers:
                    return "not_in_rules", "wild powers are off (wild_powers)"
                if not 0 <= act.target < n or act.target == seat:
                    return "bad_target", f"power={act.power} names another seat"
            elif act.color not in rules.deck.colors:
                return "must_name_color", _colors_allowed(rules)
        elif act.color >= 0:
            return "bad_action", "only a wild takes color="
        if rules.seven_zero and KRANK[last] == 7 and not IS_WILD[last]:
            if not 0 <= act.target < n or act.target == seat:
                return "bad_target", "with seven_zero a 7 names another seat to swap hands with"
        elif act.target >= 0 and last != WILD_ATTACK and not act.power:
            return "bad_action", "this card takes no target"
        if phase == DRAWN and not self._has(self._drawn, cards):
            return "only_drawn_card", (f"after drawing only the drawn card "
                                       f"({_join(self._drawn)}) may be played")
        if self._pend and not all(self._is_answer(c, seat) for c in cards):
            return "must_answer_penalty", ("a penalty is pending: answer it with a card the "
                                           "rules allow, or take it")
        if not self._pend and not self._matches(first, seat):
            if self._effect == E_LOCK and seat != self._eowner:
                return "does_not_match", (f"Forces of Nature: only "
                                          f"{COLOR_CODES[self._ecolor]} cards may be played")
            return "does_not_match", (f"{CODES[first]} does not match {CODES[self._discard[-1]]}"
                                      f" on {COLOR_CODES[self._color]}")
        if first == WILD4 and self._w4_strict and not self._w4_ok(
                [c for c in hand if c != WILD4]):
            return "w4_not_allowed", (f"a W4 may be played only without any "
                                          f"{COLOR_CODES[self._color]} card in hand")
        if len(hand) == len(cards) and rules.number_finish and not IS_NUMBER[last] \
                and last != WILD_ATTACK:
            return "last_card_must_be_number", "the last card must be a number card: draw instead"
        if act.uno and len(hand) - len(cards) != 1 and not (
                rules.double_play and len(cards) == 2 and len(hand) == 2):
            return "bad_action", "uno goes with a play that leaves exactly one card"
        if rules.double_play and len(cards) == 2 and len(hand) == 2 and not act.uno:
            return "bad_action", "HR-DOUBLE: playing your last two cards at once needs UNO"
        if KRANK[last] == DISCARD_ALL and not self._da_ok(hand, cards):
            return "last_card_must_be_number", "a discard-all may not empty the hand (ATK-7)"
        if len(cards) > 1:
            return "not_in_rules", "these cards cannot be played together"
        return "does_not_match", f"{_join(cards)} cannot be played now"

    @staticmethod
    def _has(hand: Iterable[int], cards: tuple[int, ...]) -> bool:
        h = list(hand)
        for c in cards:
            if c in h:
                h.remove(c)
            else:
                return False
        return True

    def _penalize_fault(self, code: str, act: Action, seat: int) -> bool:
        """PEN-1/PEN-2 under ``misplay: penalty``; UNO-3 under ``false_uno_penalty``."""
        rules = self.rules
        if rules.false_uno_penalty and code == "no_window" and act.verb in ("uno", "catch"):
            canon = Action("uno") if act.verb == "uno" else Action("catch", target=act.target)
            aid = self.space.index.get(canon)
            if act != canon or aid is None or (act.verb == "catch" and act.target == seat):
                return False
            self.history.append((seat, aid))
            if act.verb == "uno":
                self._uno(seat)
            else:
                self._catch(seat, act.target)
            if self._void_due:
                self._flush_void()
            return True
        if rules.misplay != "penalty" or seat != self._turn or act.verb != "play":
            return False
        if code in ("does_not_match", "must_answer_penalty", "w4_not_allowed",
                    "last_card_must_be_number"):
            amount = rules.misplay_penalty
        elif code == "only_drawn_card":
            amount = 3
        else:
            return False
        aid = self.space.index.get(act.without_uno())
        if aid is None:
            return False
        self._close_windows()
        self.history.append((seat, aid))
        self._ev(t="misplay", seat=seat, cards=codes(act.cards), code=code)
        self._penalize(seat, amount, "misplay")
        if self._phase != OVER:
            if self._pend:
                self._take_pending(seat)
            else:
                self._advance(seat)
        if self._void_due:
            self._flush_void()
        return True

    # ======================================================================================
    # views, cloning, equality
    # ======================================================================================
    def view(self, seat: int, history: bool = False) -> dict[str, Any]:
        """What ``seat`` may know (DIG-2), JSON-ready. Other hands appear only as sizes.

        With ``history``, the round's events as this seat saw them (public ones and its own
        private ones) are included under ``"history"``: what search bots infer hands from.
        """
        rules = self.rules
        top = self._discard[-1] if self._discard else None
        v: dict[str, Any] = {
            "seat": seat,
            "players": self._n,
            "dealer": self.dealer,
            "turn": self._turn,
            "phase": PHASES[self._phase],
            "direction": self.direction,
            "top": CODES[top] if top is not None else None,
            "color": COLOR_CODES[self._color] if self._color >= 0 else None,
            "hand": codes(sorted(self._hands[seat])),
            "hand_sizes": [len(h) for h in self._hands],
            "uno_declared": list(self._declared),
            "uno_exposed": self.uno_exposed,
            "pending": self.pending,
            "effect": self.effect,
            "draw_pile_size": len(self._pile),
            "discard_size": len(self._discard),
            "scores": list(self._scores),
            "drawn": codes(self._drawn) if seat == self._turn and self._phase == DRAWN else [],
            "legal": [str(a) for a in self.legal_actions(seat)],
            "round_over": self._phase == OVER,
            "winner": self._outcome.winner if self._outcome else None,
        }
        if rules.teams:
            v["teams"] = [rules.team_of(s) for s in range(self._n)]
        if self._phase == GIVE and seat == self._turn:
            v["give_left"] = self._give_left
        v["seen"] = list(self._private.get(seat, ()))
        if history:
            v["history"] = self.events_for(seat)
        return v

    def events_for(self, seat: int | None) -> list[dict[str, Any]]:
        """The event stream as ``seat`` saw it (None: only public events)."""
        return [e for e in self.events if "to" not in e or e["to"] == seat]

    def clone(self, record_events: bool = True) -> Game:
        """An independent copy (same future for the same actions)."""
        g = Game(self.rules, _copy=self)
        if not record_events:
            g._events = None
        return g

    def determinize(self, seat: int, rng: random.Random, *,
                    known: Mapping[int, Sequence[int]] | None = None,
                    excluded: Mapping[int, Collection[int]] | None = None) -> Game:
        """A copy for search in which everything ``seat`` cannot see is sampled anew.

        Other hands keep their sizes; their cards and the draw pile's order are re-dealt at
        random from the cards ``seat`` has not seen, and the copy gets a fresh generator, so
        nothing hidden (hands, pile order, future shuffles, a W4 player's guilt) survives.
        ``known`` gives cards ``seat`` knows to be in a hand (shown to it, or given by it);
        ``excluded`` gives kinds a seat is believed not to hold (inferred from its draws):
        the sampler honours them where the unseen cards allow. The result records no events.
        """
        g = self.clone(record_events=False)
        g._rng = random.Random(rng.getrandbits(64))
        n = self._n
        others = [s for s in range(n) if s != seat]
        pool = list(self._pile)
        for s in others:
            pool.extend(self._hands[s])
        new_hands: dict[int, list[int]] = {s: [] for s in others}
        if known:
            for s, cards in known.items():
                if s == seat or s not in new_hands:
                    continue
                for c in cards:
                    if c in pool and len(new_hands[s]) < len(self._hands[s]):
                        pool.remove(c)
                        new_hands[s].append(c)
        shuffle = g._shuffle
        shuffle(pool)
        for s in others:
            need = len(self._hands[s]) - len(new_hands[s])
            bad = excluded.get(s, ()) if excluded else ()
            hand = new_hands[s]
            if bad:
                i = len(pool) - 1
                while need and i >= 0:  # prefer cards the seat may hold, from the top down
                    if pool[i] not in bad:
                        hand.append(pool.pop(i))
                        need -= 1
                    i -= 1
            for _ in range(need):
                hand.append(pool.pop())
            g._hands[s] = hand
        g._pile = pool
        # guilt of other players' W4s follows the sampled hands, never the real ones
        g._chain = [(s, any(KCOLOR[k] == before for k in g._hands[s]) if s != seat else guilty,
                     tuple(sorted(g._hands[s])) if s != seat else snap, before)
                    for s, guilty, snap, before in self._chain]
        if self._phase == DRAWN and self._turn != seat:
            # another seat is deciding on its drawn cards: which ones is hidden too
            cand = [c for c in g._hands[self._turn] if g._playable_drawn(self._turn, c)]
            g._drawn = cand[-len(self._drawn):] if cand else list(self._drawn)
        return g

    def _restore(self, other: Game) -> None:
        self._copy_from(other)

    def _copy_from(self, o: Game) -> None:
        """Copy every field of ``o``: lists are copied, immutable values shared."""
        self.rules, self.seed, self.dealer, self.space = o.rules, o.seed, o.dealer, o.space
        self._n = o._n
        self._rng = random.Random()
        self._rng.setstate(o._rng.getstate())
        self._hands = [list(h) for h in o._hands]
        self._pile = list(o._pile)
        self._discard = list(o._discard)
        self._color, self._alt, self._dir, self._turn = o._color, o._alt, o._dir, o._turn
        self._phase, self._pend, self._pkind, self._resume = o._phase, o._pend, o._pkind, o._resume
        self._chain = list(o._chain)
        self._nochallenge = o._nochallenge
        self._drawn = list(o._drawn)
        self._declared = list(o._declared)
        self._exposed, self._jump, self._last = o._exposed, o._jump, o._last
        self._effect, self._ecolor, self._eowner = o._effect, o._ecolor, o._eowner
        self._give_left, self._give_target, self._given = (o._give_left, o._give_target,
                                                           o._given)
        self._after_color, self._after_color_pen, self._dry = (o._after_color, o._after_color_pen,
                                                               o._dry)
        self._closing, self._xskip, self._void_due = o._closing, o._xskip, o._void_due
        self._simple, self._w4_strict, self._jump_on = o._simple, o._w4_strict, o._jump_on
        self._double, self._special = o._double, o._special
        self._acts, self._vcode, self._rows = o._acts, o._vcode, o._rows
        self._outcome = o._outcome
        self._scores = list(o._scores)
        self._events = list(o._events) if o._events is not None else None
        self._private = {s: list(v) for s, v in o._private.items()}
        self.history = list(o.history)

    def fingerprint(self) -> tuple[Any, ...]:
        """Everything that determines the future of the game (for equality checks)."""
        return (
            tuple(tuple(h) for h in self._hands), tuple(self._pile), tuple(self._discard),
            self._color, self._alt, self._dir, self._turn, self._phase, self._pend,
            self._pkind, self._resume, tuple(self._chain), self._nochallenge,
            tuple(self._drawn), tuple(self._declared), self._exposed, self._jump, self._last,
            self._effect, self._ecolor, self._eowner, self._give_left, self._give_target,
            self._given,
            self._after_color, self._after_color_pen, self._dry, self._outcome, self._xskip,
            self._rng.getstate(),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.rules == other.rules and self.fingerprint() == other.fingerprint()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"<Game {self.rules.preset} {self._n}p turn={self._turn} phase={self.phase} "
                f"top={CODES[self._discard[-1]] if self._discard else '-'}>")


#: A longer action text is refused before it is parsed (the longest real one is far shorter).
MAX_ACTION_TEXT = 200
_POWER_VALUES = ("", *POWERS)


def _boundary_action(action: object) -> Action | int:
    """An action given to :meth:`Game.apply` as anything but an ``int``: text is parsed, an
    :class:`Action` passes, an integer-like id (not a bool) is converted; the rest is refused."""
    if isinstance(action, Action):
        return action
    if isinstance(action, str):
        if len(action) > MAX_ACTION_TEXT:
            raise IllegalAction("bad_action", f"an action is at most {MAX_ACTION_TEXT} "
                                              f"characters, not {len(action)}")
        return Action.parse(action)
    if not isinstance(action, bool) and isinstance(action, SupportsIndex):
        return operator.index(action)
    raise IllegalAction("bad_action", "an action is an Action, its text or its id (a whole "
                                      f"number), not {excerpt(action)}")


def _boundary_seat(seat: object) -> int:
    """A seat given as anything but an ``int``: an integer-like value (not a bool) or refused."""
    if not isinstance(seat, bool) and isinstance(seat, SupportsIndex):
        return operator.index(seat)
    raise IllegalAction("bad_action", f"a seat is a whole number, not {excerpt(seat)}")


def _kinds_ok(cards: object) -> bool:
    return type(cards) is tuple and all(type(k) is int and 0 <= k < NKINDS for k in cards)


def _check_action(act: Action) -> None:
    """Refuse an :class:`Action` built with fields no action can have (DIG-4 ``bad_action``),
    before anything reads them; a well-formed but illegal one is diagnosed as usual."""
    problem = ""
    if type(act.verb) is not str or act.verb not in _VERB_CODE:
        problem = f"unknown verb {excerpt(act.verb)}"
    elif not _kinds_ok(act.cards) or not _kinds_ok(act.give):
        problem = (f"cards are card kinds 0..{NKINDS - 1}, not "
                   f"{excerpt(act.cards if not _kinds_ok(act.cards) else act.give)}")
    elif type(act.color) is not int or not -1 <= act.color < len(COLOR_CODES):
        problem = f"a colour is -1 or 0..{len(COLOR_CODES) - 1}, not {excerpt(act.color)}"
    elif type(act.target) is not int or act.target < -1:
        problem = f"a target is -1 or a seat number, not {excerpt(act.target)}"
    elif type(act.power) is not str or act.power not in _POWER_VALUES:
        problem = f"power is one of {', '.join(POWERS)}, not {excerpt(act.power)}"
    elif type(act.uno) is not bool:
        problem = f"uno is true or false, not {excerpt(act.uno)}"
    if problem:
        raise IllegalAction("bad_action", problem)


def _sample(probs: Sequence[float], x: float) -> int:
    """The index i where the running sum of ``probs`` first exceeds ``x``."""
    for i, p in enumerate(probs):
        x -= p
        if x < 0:
            return i
    return len(probs) - 1


def _join(cards: Iterable[int]) -> str:
    return "+".join(CODES[k] for k in cards)


def _colors_allowed(rules: RuleSet) -> str:
    return "name one of " + ", ".join(COLOR_CODES[c] for c in rules.deck.colors)
