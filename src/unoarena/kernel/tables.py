"""A rule set as flat arrays: what the compiled kernel reads instead of a ``RuleSet``.

:func:`compile_rules` turns every key of a :class:`~unoarena.engine.RuleSet` into an integer
of ``params`` (indices below) and the rule set's :class:`~unoarena.engine.ActionSpace` into
per-action columns and lookup tables, so that the kernel numbers actions exactly as the
reference engine does (the same ids, the same masks). Numpy only.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ..engine import RuleSet, action_space
from ..engine.cards import IS_WILD, KCOLOR, KRANK, NCOLORED, NKINDS, WILD, WILD_ATTACK
from ..engine.rules import KEYS

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]

# -- params: one integer per rule (and a few derived facts) -----------------------------------
(R_N, R_HAND, R_NCOL, R_DECK, R_LAUNCH, R_VDP_MAYNOT, R_UNTIL, R_VOID, R_SWC_DEALER,
 R_SW4, R_SNUM, R_W4FREE, R_CHAL, R_STACK, R_STACK4, R_4ON2, R_JUMP, R_DOUBLE, R_MULTI, R_SUM,
 R_NUMFIN, R_TEAMS, R_TEAMCOUNT, R_POWERS, R_TIMER, R_TIMERPEN, R_SEATX, R_SEVEN, R_UNOPEN,
 R_FUNOPEN, R_MISPLAY, R_MISPEN, R_SCORING, R_TARGET, R_ROUNDS, R_MAXDRY, R_NLAUNCH,
 R_FIRST_RANDOM, R_NEXT_WINNER, R_JUMPON, R_W4STRICT, R_SPECIAL, R_NACT,
 R_REV_DEALER) = range(44)
# house rules from other apps (RULES section 18)
R_FORCE, R_DRAWPLAY, R_HANDLIMIT, R_SILENT = range(45, 49)
R_REV4, R_2ON4, R_REVENGE = range(49, 52)
R_DOUBLESCORE = 52
R_WILDSTART = 53
R_OPEN, R_BLIND, R_ELIM, R_BLITZ = range(54, 58)
R_SAMENUM, R_BOMB = range(58, 60)
NPARAMS = 60
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

#: The keys the kernel reads. A key added to ``RuleSet`` but not here makes
#: :func:`compile_rules` refuse the rule set (and a test fail) until the kernel plays it.
KNOWN_KEYS = frozenset({
    "preset", "edition", "players", "hand_size", "first_dealer", "next_dealer",
    "voluntary_draw_play", "draw_count", "deck_exhausted", "starter_wild_chooser", "starter_w4",
    "starter_number_only", "w4_rule", "wd4_challenge", "stacking", "stack_draw4",
    "draw4_on_draw2", "jump_in", "double_play", "multi_play", "sum_jump_in", "number_finish",
    "teams", "wild_powers", "turn_timer", "timer_penalty", "seat_exchange", "seven_zero",
    "uno_penalty", "false_uno_penalty", "misplay", "misplay_penalty", "scoring", "target_score",
    "rounds", "launcher", "launcher_max_dry", "starter_reverse",
    "force_play", "forced_draw_play", "hand_limit", "silent_uno",
    "reverse_deflects_draw4", "draw2_on_draw4", "revenge",
    "double_score",
    "wild_starter_stays",
    "open_hands", "blind_draw", "elimination", "blitz",
    "same_number_play", "bomb",
})

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
    p = np.zeros(NPARAMS, dtype=np.int64)
    deck = rules.deck
    p[R_N] = rules.players
    p[R_HAND] = rules.hand_size
    p[R_NCOL] = len(deck.colors)
    p[R_DECK] = deck.size
    p[R_LAUNCH] = deck.launcher
    p[R_VDP_MAYNOT] = rules.voluntary_draw_play == "may_not"
    p[R_UNTIL] = rules.draw_count == "until_playable"
    p[R_VOID] = rules.deck_exhausted == "void"
    p[R_SWC_DEALER] = rules.starter_wild_chooser == "dealer"
    p[R_SW4] = ("reshuffle", "bottom", "dealer_plays").index(rules.starter_w4)
    p[R_SNUM] = rules.starter_number_only
    p[R_W4FREE] = rules.w4_rule == "free"
    p[R_CHAL] = rules.wd4_challenge
    p[R_STACK] = ("off", "draw2", "deflect").index(rules.stacking)
    p[R_STACK4] = rules.stack_draw4
    p[R_4ON2] = rules.draw4_on_draw2
    p[R_JUMP] = rules.jump_in
    p[R_DOUBLE] = rules.double_play
    p[R_MULTI] = rules.multi_play
    p[R_SUM] = ("off", "same_color", "any_color").index(rules.sum_jump_in)
    p[R_NUMFIN] = rules.number_finish
    p[R_TEAMS] = rules.teams
    p[R_TEAMCOUNT] = rules.team_count
    p[R_POWERS] = rules.wild_powers
    p[R_TIMER] = rules.turn_timer is not None
    p[R_TIMERPEN] = rules.timer_penalty
    p[R_SEATX] = rules.seat_exchange
    p[R_SEVEN] = rules.seven_zero
    p[R_UNOPEN] = rules.uno_penalty
    p[R_FUNOPEN] = rules.false_uno_penalty
    p[R_MISPLAY] = rules.misplay == "penalty"
    p[R_MISPEN] = rules.misplay_penalty
    p[R_SCORING] = ("winner", "penalty", "chips").index(rules.scoring)
    p[R_TARGET] = min(rules.target_score, 2**62)
    p[R_ROUNDS] = -1 if rules.rounds is None else min(rules.rounds, 2**62)
    p[R_MAXDRY] = -1 if rules.launcher_max_dry is None else rules.launcher_max_dry
    p[R_NLAUNCH] = len(rules.launcher)
    p[R_FIRST_RANDOM] = rules.first_dealer == "random"
    p[R_NEXT_WINNER] = rules.next_dealer == "winner"
    p[R_JUMPON] = rules.jump_in or rules.sum_jump_in != "off"
    p[R_W4STRICT] = rules.w4_rule == "restricted" and not rules.wd4_challenge
    p[R_SPECIAL] = rules.seven_zero or rules.wild_powers or deck.launcher
    p[R_NACT] = n_actions
    p[R_REV_DEALER] = rules.starter_reverse == "dealer_played"
    p[R_FORCE] = rules.force_play
    p[R_DRAWPLAY] = rules.forced_draw_play
    p[R_HANDLIMIT] = 0 if rules.hand_limit is None else rules.hand_limit
    p[R_SILENT] = rules.silent_uno
    p[R_REV4] = rules.reverse_deflects_draw4
    p[R_2ON4] = rules.draw2_on_draw4
    p[R_REVENGE] = rules.revenge
    p[R_DOUBLESCORE] = rules.double_score
    p[R_WILDSTART] = rules.wild_starter_stays
    p[R_OPEN] = -1 if rules.open_hands is None else rules.open_hands  # HR-OPEN: views only
    p[R_BLIND] = rules.blind_draw
    p[R_ELIM] = ("off", "points", "cards").index(rules.elimination)
    p[R_BLITZ] = rules.blitz is not None  # HR-BLITZ: no clock in simulation, as HR-TIMER
    p[R_SAMENUM] = rules.same_number_play
    p[R_BOMB] = rules.bomb
    return p


def compile_rules(rules: RuleSet) -> KernelRules:
    """The kernel's arrays for ``rules`` (cached per rule set); :class:`KernelUnsupported`
    if the rule set has a key this kernel does not know."""
    unknown = sorted(set(KEYS) - KNOWN_KEYS)
    if unknown:
        raise KernelUnsupported(
            f"the compiled kernel does not know the rule key(s) {', '.join(unknown)} yet; "
            "play these rules with the reference engine (--engine python)")
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


# per-kind facts, as arrays for the kernel
KCOLOR_A = np.array(KCOLOR, dtype=np.int32)
KRANK_A = np.array(KRANK, dtype=np.int32)
IS_WILD_A = np.array(IS_WILD, dtype=np.int32)
_ = (NCOLORED, WILD)
