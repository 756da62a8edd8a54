"""Cards as small integers, their codes, points and the decks of every edition.

A card *kind* is an int in ``range(NKINDS)``; copies of a kind are indistinguishable, so a hand
is a list of kinds. Coloured kinds are ``colour * NRANKS + rank``; wild kinds follow them. All
per-kind facts live in flat tuples indexed by kind, so the engine's hot loop does no attribute
lookups or string work (RULES CARD-1..5, ED-1..4).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Final

from .errors import ConfigError

# -- colours (CARD-1) ---------------------------------------------------------------------------
RED: Final = 0
YELLOW: Final = 1
GREEN: Final = 2
BLUE: Final = 3
PURPLE: Final = 4
COLOR_CODES = ("R", "Y", "G", "B", "P")
COLOR_NAMES = ("red", "yellow", "green", "blue", "purple")
NCOLORS: Final = 5

# -- ranks (CARD-2) -------------------------------------------------------------------------------
SKIP: Final = 10
REVERSE: Final = 11
DRAW2: Final = 12
HIT2: Final = 13
DISCARD_ALL: Final = 14
NRANKS: Final = 15
RANK_CODES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "D2", "H2", "DA")
RANK_NAMES = (
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
    "skip", "reverse", "draw two", "hit 2", "discard all",
)

# -- wild kinds (CARD-3) ------------------------------------------------------------------------
NCOLORED: Final = 75  # NCOLORS * NRANKS
WILD: Final = 75
WILD4: Final = 76
WILD_HYPER: Final = 77
WILD_NATURE: Final = 78
WILD_ATTACK: Final = 79
NKINDS: Final = 80
WILD_CODES = ("W", "W4", "WH", "WN", "WA")
WILD_NAMES = (
    "wild", "wild draw four", "wild hyperspeed", "wild forces of nature", "wild attack-attack",
)


def kind_of(color: int, rank: int) -> int:
    """The kind of a coloured card."""
    return color * NRANKS + rank


# Flat per-kind tables. ``KCOLOR`` is -1 for wilds; ``KRANK`` is NRANKS + i for wild i, so that
# "same symbol" comparisons never confuse a wild with a coloured rank.
KCOLOR: Final[tuple[int, ...]] = tuple(k // NRANKS if k < NCOLORED else -1 for k in range(NKINDS))
KRANK: Final[tuple[int, ...]] = tuple(k % NRANKS if k < NCOLORED else NRANKS + k - NCOLORED
                               for k in range(NKINDS))
IS_WILD: Final[tuple[bool, ...]] = tuple(k >= NCOLORED for k in range(NKINDS))
IS_NUMBER: Final[tuple[bool, ...]] = tuple(k < NCOLORED and k % NRANKS <= 9 for k in range(NKINDS))
CODES: Final[tuple[str, ...]] = tuple(
    COLOR_CODES[k // NRANKS] + RANK_CODES[k % NRANKS] if k < NCOLORED
    else WILD_CODES[k - NCOLORED]
    for k in range(NKINDS)
)


def _points(k: int) -> int:
    if k >= NCOLORED:
        return 50  # every wild (CARD-5, BUZZ-4, FRZ-4, ATK-12)
    r = k % NRANKS
    if r <= 9:
        return r
    return 30 if r == DISCARD_ALL else 20


POINTS: Final[tuple[int, ...]] = tuple(_points(k) for k in range(NKINDS))

_BY_CODE = {c: k for k, c in enumerate(CODES)}
_COLOR_BY_WORD = {**{c.lower(): i for i, c in enumerate(COLOR_CODES)},
                  **{n: i for i, n in enumerate(COLOR_NAMES)}}
_RANK_WORDS = {
    **{str(i): i for i in range(10)},
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9,
    "s": SKIP, "skip": SKIP, "r": REVERSE, "reverse": REVERSE,
    "d2": DRAW2, "draw two": DRAW2, "draw 2": DRAW2, "drawtwo": DRAW2, "+2": DRAW2,
    "h2": HIT2, "hit 2": HIT2, "hit two": HIT2, "hit2": HIT2,
    "da": DISCARD_ALL, "discard all": DISCARD_ALL, "discardall": DISCARD_ALL,
}
_WILD_WORDS = {
    "w": WILD, "wild": WILD,
    "w4": WILD4, "wild draw four": WILD4, "wild draw 4": WILD4, "wd4": WILD4, "wild +4": WILD4,
    "wh": WILD_HYPER, "wild hyperspeed": WILD_HYPER, "hyperspeed": WILD_HYPER,
    "wn": WILD_NATURE, "wild forces of nature": WILD_NATURE, "forces of nature": WILD_NATURE,
    "wa": WILD_ATTACK, "wild attack-attack": WILD_ATTACK, "wild attack attack": WILD_ATTACK,
    "attack-attack": WILD_ATTACK,
}


def parse_card(text: str) -> int:
    """Parse a card code (``R7``, ``bs``, ``W4``) or long name (``red 7``, ``wild draw four``).

    Raises ``ValueError`` naming the text when it is no card (CARD-4).
    """
    raw = text
    t = " ".join(text.strip().lower().replace("_", " ").split())
    k = _BY_CODE.get(t.upper())
    if k is not None:
        return k
    if t in _WILD_WORDS:
        return _WILD_WORDS[t]
    m = re.fullmatch(r"([a-z]+)\s*(.+)", t)
    if m and m.group(1) in _COLOR_BY_WORD:
        rank = _RANK_WORDS.get(m.group(2).strip())
        if rank is not None:
            return kind_of(_COLOR_BY_WORD[m.group(1)], rank)
    raise ValueError(
        f"unknown card {raw!r}: use a code such as R7, BS, YD2, GR, W, W4 "
        "(colour R/Y/G/B/P + 0-9, S, R, D2, H2, DA) or a name such as 'red 7'"
    )


def parse_color(text: str) -> int:
    """Parse a colour code or name (``G``, ``green``)."""
    c = _COLOR_BY_WORD.get(text.strip().lower())
    if c is None:
        raise ValueError(f"unknown colour {text!r}: use one of R, Y, G, B, P")
    return c


def card_code(k: int) -> str:
    """The short code of card kind ``k`` (``R7``, ``W4``): the form every record, log and message
    uses (CARD-4)."""
    return CODES[k]


def card_name(k: int) -> str:
    """A long English name, for narration."""
    if k >= NCOLORED:
        return WILD_NAMES[k - NCOLORED]
    return f"{COLOR_NAMES[k // NRANKS]} {RANK_NAMES[k % NRANKS]}"


def codes(cards: Iterable[int]) -> list[str]:
    """The codes of several card kinds, in the order given."""
    return [CODES[k] for k in cards]


# -- editions (ED-1..4) -------------------------------------------------------------------------
@dataclass(frozen=True)
class Edition:
    """A deck: which colours it uses and how many copies of each kind it holds."""

    name: str
    colors: tuple[int, ...]
    counts: tuple[int, ...]  # copies per kind, length NKINDS
    launcher: bool  # cards come from a launcher (Attack): "draw" means "press"

    @property
    def size(self) -> int:
        """How many cards the whole deck holds (108 for classic)."""
        return sum(self.counts)

    @cached_property
    def cards(self) -> tuple[int, ...]:
        """Every card of the deck, in kind order."""
        return tuple(k for k, n in enumerate(self.counts) for _ in range(n))

    def deck(self) -> list[int]:
        """Every card of the deck, in kind order, as a new list."""
        return list(self.cards)

    def has(self, kind: int) -> bool:
        """Whether this deck holds any copy of card ``kind``."""
        return self.counts[kind] > 0

    def __copy__(self) -> Edition:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Edition:
        """Immutable, so a copy is the edition itself (the compiled build cannot rebuild a
        frozen instance field by field, as ``copy`` otherwise would)."""
        return self


def _counts(colors: Iterable[int], per_rank: dict[int, int],
            wilds: dict[int, int]) -> tuple[int, ...]:
    counts = [0] * NKINDS
    for c in colors:
        for r, n in per_rank.items():
            counts[kind_of(c, r)] = n
    for w, n in wilds.items():
        counts[w] = n
    return tuple(counts)


_CLASSIC_RANKS = {0: 1, **{i: 2 for i in range(1, 10)}, SKIP: 2, REVERSE: 2, DRAW2: 2}
_ATTACK_RANKS = {**{i: 2 for i in range(1, 10)}, REVERSE: 1, SKIP: 2, DISCARD_ALL: 2, HIT2: 2}
_RYGB = (RED, YELLOW, GREEN, BLUE)

EDITIONS: dict[str, Edition] = {
    "classic": Edition("classic", _RYGB,
                       _counts(_RYGB, _CLASSIC_RANKS, {WILD: 4, WILD4: 4}), False),
    "buzz": Edition("buzz", _RYGB,
                    _counts(_RYGB, _CLASSIC_RANKS, {WILD: 4, WILD4: 4, WILD_HYPER: 4}), False),
    "frozen2": Edition("frozen2", (RED, YELLOW, GREEN, PURPLE),
                       _counts((RED, YELLOW, GREEN, PURPLE), _CLASSIC_RANKS,
                               {WILD: 4, WILD4: 4, WILD_NATURE: 4}), False),
    "attack": Edition("attack", _RYGB,
                      _counts(_RYGB, _ATTACK_RANKS, {WILD: 4, WILD_ATTACK: 4}), True),
}


def edition(name: str) -> Edition:
    """The edition called ``name``; :class:`ConfigError` lists the known ones otherwise."""
    try:
        return EDITIONS[name]
    except KeyError:
        raise ConfigError("edition", name, sorted(EDITIONS)) from None
