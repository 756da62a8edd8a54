"""A rule set as flat arrays: what the compiled kernel reads instead of a ``RuleSet``.

:func:`compile_rules` turns every key of a :class:`~unoarena.engine.RuleSet` into an integer
of ``params`` (indices below) and the rule set's :class:`~unoarena.engine.ActionSpace` into
per-action columns and lookup tables, so that the kernel numbers actions exactly as the
reference engine does (the same ids, the same masks). Numpy only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, get_args, get_origin, get_type_hints

import numpy as np
import numpy.typing as npt

from ..engine import RuleSet, action_space
from ..engine.cards import IS_WILD, KCOLOR, KRANK, NKINDS, WILD_ATTACK
from ..engine.rules import KEYS

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]

# -- params: one integer per rule key, then a few facts of the whole rule set -----------------
#: Rule keys with no parameter of their own, each with how the kernel plays it instead. Every
#: other key of ``RuleSet`` gets one, named ``R_`` and the key in capitals, which the compiled
#: code must read (``tests/kernel/test_consts.py`` fails, naming the key, while it does not).
NO_PARAM: dict[str, str] = {
    "preset": "a name for the other keys' values, which the kernel reads",
    "edition": "the deck's arrays (KernelRules.deck, colors) and the facts R_NCOL, R_DECK, "
               "R_LAUNCH",
    "launcher": "an array of its own (KernelRules.launcher) and the fact R_NLAUNCH",
    "w4_rule": "the fact R_W4STRICT (restricted and unchallenged: a W4 only without the "
               "colour); free, a W4 always allowed, goes with no challenge (validation)",
    "misplay": "engine only: the kernel steps legal actions only, so no play is illegal there",
    "misplay_penalty": "engine only: the kernel steps legal actions only",
    "turn_timer": "engine only: the clock is the table's; a timeout is an action of the space "
                  "and costs timer_penalty",
    "blitz": "engine only: the clock is the table's (HR-BLITZ has no meaning in simulation)",
}
assert set(NO_PARAM) <= set(KEYS), sorted(set(NO_PARAM) - set(KEYS))
#: The keys with a parameter, in declaration order: parameter i is key i.
PARAM_KEYS: tuple[str, ...] = tuple(k for k in KEYS if k not in NO_PARAM)
_TYPES = get_type_hints(RuleSet)


def _n_colors(r: RuleSet, _n: int) -> int:
    return len(r.deck.colors)


def _deck_size(r: RuleSet, _n: int) -> int:
    return r.deck.size


def _launcher_deck(r: RuleSet, _n: int) -> int:
    return int(r.deck.launcher)


def _team_count(r: RuleSet, _n: int) -> int:
    return r.team_count


def _n_launcher(r: RuleSet, _n: int) -> int:
    return len(r.launcher)


def _jump_on(r: RuleSet, _n: int) -> int:
    return int(r.jump_in or r.sum_jump_in != "off")


def _w4_strict(r: RuleSet, _n: int) -> int:
    return int(r.w4_rule == "restricted" and not r.wd4_challenge)


def _special(r: RuleSet, _n: int) -> int:
    return int(r.seven_zero or r.wild_powers or r.deck.launcher)


#: Facts the kernel reads beside the keys, each from the whole rule set (and the size of its
#: action space), after the keys' parameters.
FACTS: dict[str, Callable[[RuleSet, int], int]] = {
    "R_NCOL": _n_colors, "R_DECK": _deck_size, "R_LAUNCH": _launcher_deck,
    "R_TEAMCOUNT": _team_count, "R_NLAUNCH": _n_launcher, "R_JUMPON": _jump_on,
    "R_W4STRICT": _w4_strict, "R_SPECIAL": _special,
}
#: Every parameter's name (as the compiled code spells it) and index.
PARAMS: dict[str, int] = {
    name: i for i, name in enumerate([*(f"R_{k.upper()}" for k in PARAM_KEYS), *FACTS])}
NPARAMS = len(PARAMS)


def encode(key: str, value: object) -> int:
    """A key's value as its parameter: a choice is its place among the values its type lists
    (``stacking: deflect`` is 2), an on/off key 0 or 1, a number itself, none -1."""
    kind = _TYPES[key]
    if get_origin(kind) is Literal:
        return get_args(kind).index(value)
    if value is None:
        return -1
    assert isinstance(value, int), (key, value)
    return int(value)


_BEGIN = "    # -- the rule parameters, from tables.PARAMS (python scripts/kernel_consts.py)"
_END = "    # -- end of the rule parameters"


def with_params(consts_pxi: str) -> str:
    """``consts.pxi``'s text with its rule parameters written from :data:`PARAMS`: the enum's
    lines between the markers, and ``PARAM_NAMES``, which :func:`compile_rules` compares with
    the table it has, to refuse an extension built before a key was added or removed."""
    lines = consts_pxi.splitlines()
    begin, end = lines.index(_BEGIN), lines.index(_END)
    block = [f"    {name} = {i}  # unoarena.kernel.tables" for name, i in PARAMS.items()]
    block.append(f"    NPARAMS = {NPARAMS}  # unoarena.kernel.tables")
    names = "PARAM_NAMES = (" + ", ".join(f'"{n}"' for n in PARAMS) + ")"
    out = [*lines[:begin + 1], *block, *lines[end:]]
    out = [names if line.startswith("PARAM_NAMES = ") else line for line in out]
    return "\n".join(out) + "\n"


# the values of choice keys the compiled code names (each the value's place in its key's type)
ELIM_OFF, ELIM_POINTS, ELIM_CARDS = 0, 1, 2

SW4_RESHUFFLE, SW4_BOTTOM, SW4_DEALER = 0, 1, 2
STACK_OFF, STACK_DRAW2, STACK_DEFLECT = 0, 1, 2
SUM_OFF, SUM_SAME, SUM_ANY = 0, 1, 2
SC_WINNER, SC_PENALTY, SC_CHIPS = 0, 1, 2

# verbs, as the reference engine codes them
V_PLAY, V_DRAW, V_PASS, V_CATCH, V_UNO, V_COLOR, V_GIVE, V_JUMP, V_CHALLENGE, V_ACCEPT, \
    V_TIMEOUT = range(11)
_VERBS = {"play": V_PLAY, "draw": V_DRAW, "pass": V_PASS, "catch": V_CATCH, "uno": V_UNO,
          "color": V_COLOR, "give": V_GIVE, "jump_in": V_JUMP, "challenge": V_CHALLENGE,
          "accept": V_ACCEPT, "timeout": V_TIMEOUT}
POWER_NONE, POWER_LOOK, POWER_SWAP = 0, 1, 2
_POWERS = {"": POWER_NONE, "color": POWER_NONE, "look": POWER_LOOK, "swap": POWER_SWAP}

MULTI_RANKS = 15  # the multi-play table is indexed by rank, so every rank has a row
MID_CODES = 81  # 3**4: how many of each of four colours sit between the first and last card
SUM_CODES = 59049  # 3**10: how many of each number 0..9 a sum jump-in uses


class KernelUnsupported(ValueError):
    """A rule set the compiled kernel cannot play; the message says which key and why."""


@dataclass(frozen=True, eq=False)
class KernelRules:
    """Everything the kernel needs to know about one rule set, as arrays."""

    rules: RuleSet
    params: I64
    launcher: F64
    deck: I32  # every card of the deck in kind order (the reference's unshuffled deck)
    colors: I32  # the deck's colours, in order
    slot: I32  # colour -> its position in ``colors`` (-1 when not in the deck)
    # per action id
    a_verb: I32
    a_ncards: I32
    a_cards: I32  # (actions, max cards)
    a_color: I32
    a_target: I32
    a_power: I32
    a_uno: I32
    a_group: I32  # plays with the same cards share a group (the ``basic`` bot picks by group)
    # lookups, -1 where the rule set has no such action (ids without the UNO flag)
    play1: I32  # coloured kind -> its single play
    wild: I32  # (kind, colour) -> a wild's colour-naming play
    play7: I32  # kind -> the seven-zero play aimed at seat 0 (seat t: + 2t)
    wa: I32  # colour -> the attack-attack play aimed at seat 0
    power: I32  # (look, swap) -> the wild-power play aimed at seat 0
    double: I32  # kind -> the play of two copies
    jump1: I32  # kind -> its jump-in
    jump7: I32  # kind -> the seven-zero jump-in aimed at seat 0 (seat t: + 2t)
    give: I32  # kind -> giving it in a swap
    nummulti: I32  # (kind, copies) -> several copies of a number played together
    multi: I32  # (rank, first slot, last slot, middle code) -> a same-rank multi-play (ATK-4's
    # action cards, and HR-SAMENUM's numbers)
    sums: I32  # (colour slot, count code) -> a sum jump-in

    @property
    def n_actions(self) -> int:
        """The size of the rule set's action space (every action id is below it)."""
        return len(self.a_verb)


def _params(rules: RuleSet, n_actions: int) -> I64:
    values = [encode(k, getattr(rules, k)) for k in PARAM_KEYS]
    values += [fact(rules, n_actions) for fact in FACTS.values()]
    return np.array(values, dtype=np.int64)


def _built_params() -> tuple[str, ...]:
    """The parameter names the compiled extension was built with."""
    from . import _kernel

    return tuple(_kernel.PARAM_NAMES)


def compile_rules(rules: RuleSet) -> KernelRules:
    """The kernel's arrays for ``rules`` (cached per rule set); :class:`KernelUnsupported`
    if the compiled extension was built from another parameter table (a rule key added or
    removed since it was built), which would read every later parameter wrong."""
    built = _built_params()
    if built != tuple(PARAMS):
        changed = sorted(set(PARAMS).symmetric_difference(built)) or ["their order"]
        raise KernelUnsupported(
            f"the compiled kernel was built for other rule keys ({', '.join(changed)}): "
            "reinstall unoarena (pip install -e . in a checkout), or play these rules with "
            "the reference engine (--engine python)")
    return _compile(rules)


@lru_cache(maxsize=64)
def _compile(rules: RuleSet) -> KernelRules:
    sp = action_space(rules)
    acts = sp.actions
    na = len(acts)
    deck = rules.deck
    maxc = max(len(a.cards) for a in acts)
    a_verb = np.array([_VERBS[a.verb] for a in acts], dtype=np.int32)
    a_ncards = np.array([len(a.cards) for a in acts], dtype=np.int32)
    a_cards = np.full((na, maxc), -1, dtype=np.int32)
    for i, a in enumerate(acts):
        a_cards[i, :len(a.cards)] = a.cards
    a_color = np.array([a.color for a in acts], dtype=np.int32)
    a_target = np.array([a.target for a in acts], dtype=np.int32)
    a_power = np.array([_POWERS[a.power] for a in acts], dtype=np.int32)
    a_uno = np.array([a.uno for a in acts], dtype=np.int32)
    groups: dict[tuple[int, ...], int] = {}
    a_group = np.array([groups.setdefault(a.cards, len(groups)) if a.verb == "play" else -1
                        for a in acts], dtype=np.int32)
    slot = np.full(8, -1, dtype=np.int32)
    for i, c in enumerate(deck.colors):
        slot[c] = i

    play1 = np.full(NKINDS, -1, dtype=np.int32)
    wild = np.full((NKINDS, 5), -1, dtype=np.int32)
    play7 = np.full(NKINDS, -1, dtype=np.int32)
    wa = np.full(5, -1, dtype=np.int32)
    power = np.full(2, -1, dtype=np.int32)
    double = np.full(NKINDS, -1, dtype=np.int32)
    jump1 = np.full(NKINDS, -1, dtype=np.int32)
    jump7 = np.full(NKINDS, -1, dtype=np.int32)
    give = np.full(NKINDS, -1, dtype=np.int32)
    nummulti = np.full((NKINDS, 8), -1, dtype=np.int32)
    multi = np.full((MULTI_RANKS, 4, 4, MID_CODES), -1, dtype=np.int32)
    sums = np.full((4, SUM_CODES) if rules.sum_jump_in != "off" else (1, 1), -1,
                   dtype=np.int32)
    for i, a in enumerate(acts):
        if a.uno:
            continue
        cs = a.cards
        if a.verb == "give":
            give[cs[0]] = i
        elif a.verb == "jump_in":
            if len(cs) == 1:
                if a.target == 0:
                    jump7[cs[0]] = i
                elif a.target < 0:
                    jump1[cs[0]] = i
            else:
                code = 0
                for k in cs:
                    code += 3 ** KRANK[k]
                sums[slot[KCOLOR[cs[0]]], code] = i
        elif a.verb == "play":
            k = cs[0]
            if len(cs) == 1:
                if not IS_WILD[k]:
                    if a.target == 0:
                        play7[k] = i
                    elif a.target < 0:
                        play1[k] = i
                elif k == WILD_ATTACK:
                    if a.target == 0:
                        wa[a.color] = i
                elif a.power in ("look", "swap"):
                    if a.target == 0:
                        power[_POWERS[a.power] - 1] = i
                else:
                    wild[k, a.color] = i
            elif all(c == k for c in cs) and (rules.double_play and len(cs) == 2):
                double[k] = i
            elif all(c == k for c in cs) and KRANK[k] <= 9 and not rules.same_number_play:
                nummulti[k, len(cs)] = i
            else:
                mid = 0
                for c in cs[1:-1]:
                    mid += 3 ** int(slot[KCOLOR[c]])
                multi[KRANK[k], slot[KCOLOR[k]], slot[KCOLOR[cs[-1]]], mid] = i
    return KernelRules(
        rules=rules, params=_params(rules, na),
        launcher=np.array(rules.launcher, dtype=np.float64),
        deck=np.array(deck.cards, dtype=np.int32),
        colors=np.array(deck.colors, dtype=np.int32), slot=slot,
        a_verb=a_verb, a_ncards=a_ncards, a_cards=a_cards, a_color=a_color, a_target=a_target,
        a_power=a_power, a_uno=a_uno, a_group=a_group, play1=play1, wild=wild, play7=play7,
        wa=wa, power=power, double=double, jump1=jump1, jump7=jump7, give=give, nummulti=nummulti,
        multi=multi, sums=sums)

