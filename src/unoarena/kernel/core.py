"""One round of UNO on flat arrays, compiled: the reference :class:`~unoarena.engine.Game`,
function by function.

Every function here mirrors the reference engine's function of the same name (``play`` in
``engine/play.py``, ``take_pending`` in ``engine/draws.py``, ...) and keeps its order of
operations, because the order in which the generator is drawn from decides every later card.
The reference stays the readable specification; this module must play the same games, which
``tests/kernel`` checks action by action.

A batch of tables is a :class:`State`: each array's first axis is the table. Hands are ordered
arrays (a wild-power swap takes cards by position, so order is part of the state), piles keep
their top at the end, as the reference's lists do. Rule sets come in as :class:`Tables`
(from :func:`~unoarena.kernel.tables.compile_rules`). Only legal action ids are stepped: an
illegal action's diagnosis and its misplay penalty are the reference engine's job.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from . import mt
from .tables import (
    MULTI_RANKS,
    POWER_SWAP,
    V_ACCEPT,
    KernelRules,
)

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
U32 = npt.NDArray[np.uint32]
F64 = npt.NDArray[np.float64]

# phases, pending kinds and effects: the reference's numbers
PLAY, DRAWN, COLOR, GIVE, OVER = 0, 1, 2, 3, 4
P_NONE, P_D2, P_W4, P_H2, P_WA = 0, 1, 2, 3, 4
E_NONE, E_HYPER, E_LOCK = 0, 1, 2
REASON_NONE, REASON_OUT, REASON_VOID, REASON_BLOCKED = 0, 1, 2, 3

# fixed action ids (ActionSpace numbers these first)
A_DRAW, A_PASS, A_UNO, A_ACCEPT, A_CHALLENGE, A_TIMEOUT = 0, 1, 2, 3, 4, 5
A_COLOR0 = 6

# scalar fields of a table: S[t, F_...]
(F_TURN, F_PHASE, F_DIR, F_COLOR, F_PEND, F_PKIND, F_RESUME, F_NOCHAL, F_EXPOSED, F_JUMP,
 F_LAST, F_EFFECT, F_ECOLOR, F_EOWNER, F_GIVE_LEFT, F_GIVEN, F_GIVE_TARGET, F_AFTER_COLOR,
 F_AFTER_PEN, F_DRY, F_CLOSING, F_XSKIP, F_WINNER, F_REASON, F_DEALER, F_NPILE, F_NDISC,
 F_NDRAWN, F_NALT, F_NCHAIN, F_NACTIONS, F_NLOG, NFIELDS) = range(33)

#: Why cards were drawn, as the reference's events name it (``draw2``... follow the pending
#: kinds: ``D_PKIND + kind``).
DRAW_REASONS = ("turn", "starter", "last_card", "", "draw2", "draw4", "hit2", "attack",
                "challenge_guilty", "challenge_innocent", "uno_caught", "false_catch",
                "false_uno", "timeout", "misplay", "bomb")
(D_TURN, D_STARTER, D_LAST_CARD, D_PKIND, _D2, _D4, _DH2, _DWA, D_GUILTY, D_INNOCENT, D_CAUGHT,
 D_FALSE_CATCH, D_FALSE_UNO, D_TIMEOUT, D_MISPLAY) = range(15)
D_BOMB = 15  # HR-BOMB
NREASONS = len(DRAW_REASONS)

#: The draw log (:func:`note`): what the reference's events say about draws and reshuffles, which
#: the state itself forgets within a step: who drew how many, on their turn or as a penalty
#: (one entry per ``draw`` event, or per ``press`` of the launcher), and each reshuffle. Card
#: trackers (the ``heuristic`` bot) read it after each step; an entry is
#: ``what + 4 * seat + 64 * count``. ``s[F_NLOG]`` counts entries, also past the capacity.
LOG_DRAW, LOG_TURN, LOG_RESHUFFLE = 0, 1, 2
LOG_CAP = 256

MAX_PLAYERS = 10
MAX_ALT = 12
MAX_CHAIN = 16
MAX_CARDS = 8  # the most cards one action names


class State(NamedTuple):
    """The tables of a batch (first axis: the table)."""

    s: I64  # (T, NFIELDS) scalar fields
    hands: I32  # (T, players, deck) ordered hands
    hsize: I64  # (T, players)
    pile: I32  # (T, deck) draw pile, top last
    disc: I32  # (T, deck) discard pile, top last
    drawn: I32  # (T, deck) the playable drawn cards (phase ``drawn``)
    declared: I64  # (T, players)
    alt: I32  # (T, MAX_ALT) a sum jump-in's other cards (HR-SUM)
    chain: I64  # (T, MAX_CHAIN, 3) the W4s of the chain: seat, guilty, colour before
    rng: U32  # (T, 625) the round's generator
    points: I64  # (T, players) points left in each hand once over
    scores: I64  # (T, players) what each seat (or team) scored this round
    drawn_by: I64  # (T, NREASONS) cards drawn this round, by reason
    work: I32  # (T, actions + 8) scratch: the kernel never allocates (no reference counts)
    tmp: I64  # (T, 32) small scratch counters
    log: I64  # (T, LOG_CAP) the draw log of the current step (see LOG_CAP)


class Tables(NamedTuple):
    """A compiled rule set (see :class:`~unoarena.kernel.tables.KernelRules`)."""

    p: I64
    launcher: F64
    deck: I32
    colors: I32
    slot: I32
    a_verb: I32
    a_ncards: I32
    a_cards: I32
    a_color: I32
    a_target: I32
    a_power: I32
    a_uno: I32
    a_group: I32
    play1: I32
    wild: I32
    play7: I32
    wa: I32
    power: I32
    double: I32
    jump1: I32
    jump7: I32
    give: I32
    nummulti: I32
    multi: I32
    sum_ids: I32  # (colour slot, total, j)
    sum_vec: I32  # (colour slot, total, j, 10)
    sum_n: I32  # (colour slot, total)


def tables_of(kr: KernelRules) -> Tables:
    """The kernel's view of a compiled rule set (sum jump-ins grouped by colour and total)."""
    ncol = len(kr.colors)
    lists: list[list[list[tuple[int, list[int]]]]] = [[[] for _ in range(10)]
                                                      for _ in range(max(1, ncol))]
    if kr.sums.shape[1] > 1:
        for slot in range(ncol):
            for code in np.nonzero(kr.sums[slot] >= 0)[0]:
                vec, c, total = [], int(code), 0
                for r in range(10):
                    vec.append(c % 3)
                    total += r * (c % 3)
                    c //= 3
                lists[slot][total].append((int(kr.sums[slot, code]), vec))
    width = max(1, max(len(lst) for per in lists for lst in per))
    sum_ids = np.full((len(lists), 10, width), -1, dtype=np.int32)
    sum_vec = np.zeros((len(lists), 10, width, 10), dtype=np.int32)
    sum_n = np.zeros((len(lists), 10), dtype=np.int32)
    for slot, per in enumerate(lists):
        for total, lst in enumerate(per):
            sum_n[slot, total] = len(lst)
            for j, (aid, vec) in enumerate(lst):
                sum_ids[slot, total, j] = aid
                sum_vec[slot, total, j] = vec
    return Tables(kr.params, kr.launcher, kr.deck, kr.colors, kr.slot, kr.a_verb, kr.a_ncards,
                  kr.a_cards, kr.a_color, kr.a_target, kr.a_power, kr.a_uno, kr.a_group,
                  kr.play1,
                  kr.wild, kr.play7, kr.wa, kr.power, kr.double, kr.jump1, kr.jump7, kr.give,
                  kr.nummulti, kr.multi, sum_ids, sum_vec, sum_n)


def new_state(tables: int, players: int, deck_size: int, n_actions: int) -> State:
    """Zeroed arrays for ``tables`` tables (deal each with :func:`deal`)."""
    t, n, d = tables, players, deck_size
    return State(
        np.zeros((t, NFIELDS), np.int64), np.zeros((t, n, d), np.int32),
        np.zeros((t, n), np.int64), np.zeros((t, d), np.int32), np.zeros((t, d), np.int32),
        np.zeros((t, d), np.int32), np.zeros((t, n), np.int64),
        np.zeros((t, MAX_ALT), np.int32), np.zeros((t, MAX_CHAIN, 3), np.int64),
        np.zeros((t, mt.MT_WORDS), np.uint32), np.zeros((t, n), np.int64),
        np.zeros((t, n), np.int64), np.zeros((t, NREASONS), np.int64),
        np.zeros((t, n_actions + 8), np.int32), np.zeros((t, 32), np.int64),
        np.zeros((t, LOG_CAP), np.int64))


# =============================================================================================
# small helpers on hands and piles
# =============================================================================================


# =============================================================================================
# set-up (SET-3..5, START-*)
# =============================================================================================


# =============================================================================================
# legal actions
# =============================================================================================


# =============================================================================================
# applying actions
# =============================================================================================


# =============================================================================================
# round end
# =============================================================================================


_ = (MULTI_RANKS, POWER_SWAP, V_ACCEPT)


# the compiled functions (``_kernel.pyx``, part ``core.pxi``)
from . import _kernel  # noqa: E402

advance = _kernel.core_advance
alone = _kernel.core_alone
answerable = _kernel.core_answerable
catch = _kernel.core_catch
challenge = _kernel.core_challenge
deal = _kernel.core_deal
deal_seeded = _kernel.core_deal_seeded
draw_action = _kernel.core_draw_action
end_round = _kernel.core_end_round
end_void = _kernel.core_end_void
give = _kernel.core_give
is_answer = _kernel.core_is_answer
legal = _kernel.core_legal
matches = _kernel.core_matches
name_starter_color = _kernel.core_name_starter_color
note = _kernel.core_note
penalize = _kernel.core_penalize
play = _kernel.core_play
play_ids = _kernel.core_play_ids
playable_drawn = _kernel.core_playable_drawn
set_turn = _kernel.core_set_turn
shuffle = _kernel.core_shuffle
step = _kernel.core_step
take_pending = _kernel.core_take_pending
timeout = _kernel.core_timeout
top = _kernel.core_top
uno = _kernel.core_uno
w4_ok = _kernel.core_w4_ok
window_seats = _kernel.core_window_seats
