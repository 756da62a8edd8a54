"""Actions as objects, as strings that round-trip, and as a fixed integer space per rule set.

``Action.parse("play W4 color=G")`` and ``str(action)`` are inverses. :class:`ActionSpace`
enumerates every action a rule set can ever allow, once, so that RL code gets a fixed-size
space with a mask and the engine's hot loop passes small ints (DESIGN lesson 1).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

from .cards import (
    CODES,
    COLOR_CODES,
    DISCARD_ALL,
    HIT2,
    IS_NUMBER,
    IS_WILD,
    KRANK,
    NCOLORED,
    REVERSE,
    SKIP,
    WILD,
    WILD_ATTACK,
    kind_of,
    parse_card,
    parse_color,
)
from .errors import IllegalAction
from .rules import RuleSet

VERBS = ("play", "draw", "pass", "uno", "catch", "challenge", "accept", "color", "jump_in",
         "give", "timeout")
POWERS = ("color", "look", "swap")


@dataclass(frozen=True, slots=True)
class Action:
    """One action of one seat. ``cards`` are card kinds; ``color``/``target`` -1 when unused."""

    verb: str
    cards: tuple[int, ...] = ()
    color: int = -1
    target: int = -1
    power: str = ""
    uno: bool = False
    give: tuple[int, ...] = ()

    # -- strings -----------------------------------------------------------------------------
    def __str__(self) -> str:
        parts = [self.verb]
        if self.verb in ("play", "jump_in", "give"):
            parts.append("+".join(CODES[k] for k in self.cards))
        elif self.verb == "catch":
            parts.append(str(self.target))
        elif self.verb == "color":
            parts.append(COLOR_CODES[self.color])
        if self.verb in ("play", "jump_in"):
            if self.color >= 0:
                parts.append(f"color={COLOR_CODES[self.color]}")
            if self.target >= 0:
                parts.append(f"target={self.target}")
            if self.power:
                parts.append(f"power={self.power}")
            if self.give:
                parts.append("give=" + "+".join(CODES[k] for k in self.give))
            if self.uno:
                parts.append("uno")
        return " ".join(parts)

    @staticmethod
    def parse(text: str) -> Action:
        """Parse ``play R7``, ``play W4 color=G uno``, ``catch 2``, ``draw``... (bad_action)."""
        tokens = text.strip().split()
        if not tokens:
            raise IllegalAction("bad_action", "empty action: " + _ALLOWED)
        verb = tokens[0].lower().replace("-", "_")
        if verb == "jump" and len(tokens) > 1 and tokens[1].lower() == "in":
            verb, tokens = "jump_in", ["jump_in", *tokens[2:]]
        if verb == "press":
            verb = "draw"
        if verb not in VERBS:
            raise IllegalAction("bad_action", f"unknown action {tokens[0]!r}: {_ALLOWED}")
        rest = tokens[1:]
        try:
            if verb in ("draw", "pass", "uno", "challenge", "accept", "timeout"):
                if rest:
                    raise ValueError(f"{verb!r} takes nothing after it")
                return Action(verb)
            if verb == "catch":
                if len(rest) != 1:
                    raise ValueError("catch takes one seat number, as in 'catch 2'")
                return Action("catch", target=_seat(rest[0]))
            if verb == "color":
                if len(rest) != 1:
                    raise ValueError("color takes one colour, as in 'color G'")
                return Action("color", color=parse_color(rest[0]))
            if not rest:
                raise ValueError(f"{verb} needs cards, as in '{verb} R7'")
            cards = _cards(rest[0])
            color = target = -1
            power = ""
            uno = False
            give: tuple[int, ...] = ()
            for tok in rest[1:]:
                key, sep, val = tok.partition("=")
                key = key.lower()
                if not sep and key == "uno":
                    uno = True
                elif key == "color" and sep:
                    color = parse_color(val)
                elif key == "target" and sep:
                    target = _seat(val)
                elif key == "power" and sep:
                    power = val.lower()
                    if power not in POWERS:
                        raise ValueError(f"power must be one of {', '.join(POWERS)}")
                elif key == "give" and sep:
                    give = _cards(val)
                else:
                    raise ValueError(f"unexpected {tok!r}: allowed color=C, target=N, power=P, "
                                     "give=CARDS, uno")
            if verb == "give":
                return Action("give", cards)
            return Action(verb, cards, color, target, power, uno, give)
        except ValueError as e:
            raise IllegalAction("bad_action", f"{text.strip()!r}: {e}") from None

    def without_uno(self) -> Action:
        """The same action with its UNO declaration flag (UNO-4) cleared."""
        return Action(self.verb, self.cards, self.color, self.target, self.power, False,
                      self.give)

    def with_uno(self) -> Action:
        """The same action declaring UNO as it is played (UNO-4)."""
        return Action(self.verb, self.cards, self.color, self.target, self.power, True, self.give)


_ALLOWED = ("allowed: play CARDS [color=C] [target=N] [power=P] [uno], draw, pass, uno, "
            "catch N, challenge, accept, color C, jump_in CARDS, give CARD, timeout")


def _seat(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a seat number") from None
    if n < 0:
        raise ValueError(f"{text!r} is not a seat number")
    return n


def _cards(text: str) -> tuple[int, ...]:
    cards = tuple(parse_card(c) for c in text.split("+") if c)
    if not cards:
        raise ValueError(f"{text!r} names no card: join card codes with '+', as in R3+R3")
    return cards


# -- the fixed integer space ---------------------------------------------------------------------
class ActionSpace:
    """Every action a rule set allows at some moment, numbered once.

    Plays are listed with and without the UNO flag. A multi-card play is canonical: first card,
    the middle cards sorted, last card (only the first and the last matter to the game beyond
    which cards leave the hand).
    """

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        acts: list[Action] = []
        n = rules.players
        deck = rules.deck
        colors = deck.colors
        kinds = [k for k in range(len(deck.counts)) if deck.counts[k]]
        acts += [Action(v) for v in ("draw", "pass", "uno", "accept", "challenge", "timeout")]
        acts += [Action("color", color=c) for c in colors]
        acts += [Action("catch", target=t) for t in range(n)]
        plays: list[Action] = []
        for k in kinds:
            if not IS_WILD[k]:
                if rules.seven_zero and KRANK[k] == 7:
                    plays += [Action("play", (k,), target=t) for t in range(n)]
                else:
                    plays.append(Action("play", (k,)))
            elif k == WILD_ATTACK:
                plays += [Action("play", (k,), color=c, target=t) for c in colors
                          for t in range(n)]
            else:
                plays += [Action("play", (k,), color=c) for c in colors]
                if k == WILD and rules.wild_powers:
                    plays += [Action("play", (k,), target=t, power=p) for p in ("look", "swap")
                              for t in range(n)]
        if rules.double_play:
            plays += [Action("play", (k, k)) for k in kinds
                      if not IS_WILD[k] and deck.counts[k] >= 2 and not alone(rules, k)]
        if rules.multi_play:
            plays += [Action("play", cs) for cs in _multi_plays(rules)]
        if rules.same_number_play:  # HR-SAMENUM: number cards of one number, any colours
            plays += [Action("play", cs) for rank in range(10)
                      for cs in _rank_sets(rules, rank)]
        if rules.jump_in:
            for k in kinds:
                if IS_WILD[k]:
                    continue
                if rules.seven_zero and KRANK[k] == 7:  # a 7 names a seat, jumped in or not
                    plays += [Action("jump_in", (k,), target=t) for t in range(n)]
                else:
                    plays.append(Action("jump_in", (k,)))
        if rules.sum_jump_in != "off":
            plays += [Action("jump_in", cs) for cs in _sum_sets(rules)
                      if not any(alone(rules, k) for k in cs)]
        for a in plays:
            acts.append(a)
            acts.append(a.with_uno())
        if rules.wild_powers:
            acts += [Action("give", (k,)) for k in kinds]
        self.actions: tuple[Action, ...] = tuple(acts)
        self.index: dict[Action, int] = {a: i for i, a in enumerate(acts)}
        # fast lookups for the engine's legal-move generator
        self.play1 = [-1] * NCOLORED  # coloured single play, no flag
        self.wild = [[-1] * 5 for _ in range(len(deck.counts))]  # wild kind x colour
        for i, a in enumerate(acts):
            if a.verb == "play" and len(a.cards) == 1 and not a.uno and a.target < 0:
                k = a.cards[0]
                if IS_WILD[k] and a.color >= 0 and not a.power:
                    self.wild[k][a.color] = i
                elif not IS_WILD[k]:
                    self.play1[k] = i
        self.draw, self.pass_, self.uno, self.accept, self.challenge, self.timeout = range(6)
        self.vcodes: tuple[int, ...] = ()  # verb codes, filled in by the engine
        self.rows: dict[int, tuple[tuple[int, ...], ...]] = {}  # the engine's play tables
        self.color0 = 6
        self.catch0 = 6 + len(colors)

    def __len__(self) -> int:
        return len(self.actions)

    def id(self, action: Action) -> int:
        """The integer of an action; KeyError when the rule set never allows it."""
        return self.index[action]


def alone(rules: RuleSet, k: int) -> bool:
    """HR-SEVEN-ZERO: a 7 (it names the seat to swap hands with) or a 0 (it passes every hand)
    is always played alone, never in a double play, a multi-play or a sum (docs/decisions.md)."""
    return rules.seven_zero and IS_NUMBER[k] and KRANK[k] in (0, 7)


def _multi_plays(rules: RuleSet) -> list[tuple[int, ...]]:
    """ATK-4: several numbers of one colour and number, or several action cards of one rank."""
    deck = rules.deck
    out: list[tuple[int, ...]] = []
    for k in range(NCOLORED):
        if IS_NUMBER[k] and deck.counts[k] >= 2 and not alone(rules, k):
            out += [(k,) * m for m in range(2, deck.counts[k] + 1)]
    for rank in (SKIP, REVERSE, HIT2, DISCARD_ALL, 12):
        out += _rank_sets(rules, rank)
    return out


def _rank_sets(rules: RuleSet, rank: int) -> list[tuple[int, ...]]:
    """Two or more coloured cards of one rank in any colours, canonical: first, the middle
    cards sorted, last (ATK-4's action cards, HR-SAMENUM's numbers)."""
    deck = rules.deck
    out: list[tuple[int, ...]] = []
    avail = [(c, deck.counts[kind_of(c, rank)]) for c in deck.colors
             if deck.counts[kind_of(c, rank)]]
    seen: set[tuple[int, ...]] = set()
    pool = [kind_of(c, rank) for c, m in avail for _ in range(m)]
    for size in range(2, len(pool) + 1):
        for combo in itertools.combinations(pool, size):
            for first in set(combo):
                rest = list(combo)
                rest.remove(first)
                for last in set(rest):
                    mid = list(rest)
                    mid.remove(last)
                    key = (first, *sorted(mid), last)
                    if key not in seen:
                        seen.add(key)
                        out.append(key)
    return out


def _sum_sets(rules: RuleSet) -> list[tuple[int, ...]]:
    """HR-SUM: two or more number cards of one colour whose numbers add up to 0..9."""
    deck = rules.deck
    out: list[tuple[int, ...]] = []
    for c in deck.colors:
        nums = [(r, deck.counts[kind_of(c, r)]) for r in range(10) if deck.counts[kind_of(c, r)]]
        for parts in _partitions(nums):
            out.append(tuple(kind_of(c, r) for r in parts))
    return out


@cache
def _partitions_cached(nums: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    res: list[tuple[int, ...]] = []

    def rec(i: int, acc: list[int], total: int) -> None:
        if i == len(nums):
            if len(acc) >= 2 and total <= 9:
                res.append(tuple(acc))
            return
        r, m = nums[i]
        for take in range(m + 1):
            t = total + r * take
            if t > 9:
                break
            rec(i + 1, acc + [r] * take, t)

    rec(0, [], 0)
    return tuple(res)


def _partitions(nums: list[tuple[int, int]]) -> tuple[tuple[int, ...], ...]:
    return _partitions_cached(tuple(nums))
