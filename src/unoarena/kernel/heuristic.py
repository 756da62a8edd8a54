"""The ``heuristic`` bot, compiled: :class:`unoarena.bots.heuristic.HeuristicBot` and the part
of :class:`unoarena.bots.inference.CardTracker` it reads.

The Python bot reads its view's event history; the kernel keeps no events, so each heuristic
seat keeps a compact card tracker in preallocated arrays (:class:`Tracker`), brought up to date
after every step from what the step did (the state before and after, and the draw log of
:func:`unoarena.kernel.core.note`), exactly as the Python tracker reads the events that step
emitted. Only what the heuristic reads is kept: per other seat the cards known to be in its
hand (an ordered list) and its *slot groups* (a count and the kinds excluded, as two 40-bit
words), the discard pile's counts, the last Wild Draw Four, the seat's own hand as the tracker
knows it, and the :class:`~unoarena.bots.inference.BluffStats` deltas that the Python bot only
counts once it looks at its history again (on its next decision in the round).

Decisions evaluate their floating-point expressions in Python's order, so that scores (and so
ties) are the same to the last bit: Python's ``x ** n`` (float, int) calls the C library's
``pow``, and so does the compiled ``<double>x ** <double>n``; the extension is compiled with
``-ffp-contract=off`` (a fused multiply-add would round once where Python rounds twice).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ..engine.cards import (
    NCOLORED,
    NKINDS,
)
from . import core
from .tables import (
    V_JUMP,
    V_PLAY,
    KernelRules,
)

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]


#: A bot's options, as the runners pass them per player: ``random``'s decline, then the
#: heuristic's ``wild_keep``, ``challenge`` and ``bluff``.
O_DECLINE, O_WILD_KEEP, O_CHALLENGE, O_BLUFF, NOPT = range(5)
#: :class:`HeuristicBot`'s fixed weights.
W_FOLLOW, W_VOID, W_EXTRA = 0.35, 1.0, 1.0
#: Error codes the tracker raises (see ``TF_ERROR``).
ERR_LOG, ERR_FULL, ERR_STEP = 1, 2, 3

# table fields: tf[t, TF_...]; the ``*0`` fields are the state just before the step
(TF_MASK, TF_DLAST, TF_W4SEAT, TF_W4BEFORE, TF_ERROR, TF_ACTOR, TF_AID, TF_COLOR0, TF_TOP0,
 TF_LOCK0, TF_LOCKOWNER0, TF_NDISC0, TF_HSIZE0, TF_NCHAIN0, TF_PEND0, TF_GLEFT0,
 TF_GTARGET0, NTF) = range(18)
# fields per tracking seat: sf[t, me, SF_...]: its own hand's length, a turn draw's group not
# yet resolved (seat, index), BluffStats counts not yet looked at, and where the cards it
# drew in a step start in its hand
(SF_NMINE, SF_DSEAT, SF_DIDX, SF_TC, SF_TA, SF_G, SF_I, SF_AT, NSF) = range(9)
# the decision context: cx[t, CX_...]
(CX_ME, CX_N, CX_NXT, CX_PREV, CX_COLOR, CX_PEND, CX_NH, CX_VOID) = range(8)
NCX = CX_VOID + core.MAX_PLAYERS
# stats per player: stats[t, p, ST_...] (BluffStats)
ST_TC, ST_TA, ST_G, ST_I, NST = range(5)


class Tracker(NamedTuple):
    """The heuristic seats' card trackers of a batch of tables (first axis: the table; then
    the tracking seat; then the seat tracked), with the rule set's constants and scratch."""

    tf: I64  # (T, NTF) table fields
    disc: I64  # (T, NKINDS) the discard pile as the trackers saw it, by kind
    sf: I64  # (T, n, NSF) per tracking seat
    mine: I32  # (T, n, cap) the tracking seat's hand as its tracker knows it
    known: I32  # (T, n, n, cap) cards known to be in a hand, in order
    nknown: I64  # (T, n, n)
    gcount: I64  # (T, n, n, groups) slot groups, in order: how many cards
    gex0: I64  # (T, n, n, groups) the kinds excluded, 0..39
    gex1: I64  # (T, n, n, groups) the kinds excluded, 40..79
    glen: I64  # (T, n, n, groups) how many kinds are excluded
    ngroups: I64  # (T, n, n)
    snap: I32  # (T, MAX_CHAIN, cap) each Wild Draw Four's hand, as a challenge shows it
    nsnap: I64  # (T, MAX_CHAIN)
    stats: I64  # (T, players, NST) BluffStats of each player's bot
    dcount: I64  # (NKINDS,) the deck's copies of each kind
    cmask: I64  # (8, 2) the deck's kinds of each colour, as exclusion words
    hgroup: I32  # (actions,) plays and jump-ins with the same verb and cards share a group
    cx: I64  # (T, NCX) the decision context
    hand: I32  # (T, cap) scratch: the hand, sorted
    rem: I32  # (T, cap) scratch: a hand after a play
    cnt: I64  # (T, NKINDS) scratch: unseen cards by kind
    tg: I64  # (T, groups, 4) scratch: a seat's groups trimmed to its hand
    lst: I32  # (T, 2, actions + 8) scratch: id lists
    fl: F64  # (T, 8) scratch: colour counts


def new_tracker(tables: int, kr: KernelRules) -> Tracker:
    """Zeroed trackers for ``tables`` tables of the rule set ``kr``."""
    rules = kr.rules
    n = rules.players
    cap = rules.deck.size + 8
    groups = rules.deck.size + 16
    t = tables
    dcount = np.zeros(NKINDS, np.int64)
    for k in kr.deck:
        dcount[k] += 1
    cmask = np.zeros((8, 2), np.int64)
    for k in range(NCOLORED):
        if dcount[k]:
            cmask[k // 15, k // 40] |= 1 << (k % 40)
    keys: dict[tuple[int, tuple[int, ...]], int] = {}
    hgroup = np.full(kr.n_actions, -1, np.int32)
    for a in range(kr.n_actions):
        v = int(kr.a_verb[a])
        if v == V_PLAY or v == V_JUMP:
            key = (v, tuple(int(c) for c in kr.a_cards[a, :kr.a_ncards[a]]))
            hgroup[a] = keys.setdefault(key, len(keys))
    w = kr.n_actions + 8
    return Tracker(
        np.zeros((t, NTF), np.int64), np.zeros((t, NKINDS), np.int64),
        np.zeros((t, n, NSF), np.int64), np.zeros((t, n, cap), np.int32),
        np.zeros((t, n, n, cap), np.int32), np.zeros((t, n, n), np.int64),
        np.zeros((t, n, n, groups), np.int64), np.zeros((t, n, n, groups), np.int64),
        np.zeros((t, n, n, groups), np.int64), np.zeros((t, n, n, groups), np.int64),
        np.zeros((t, n, n), np.int64), np.zeros((t, core.MAX_CHAIN, cap), np.int32),
        np.zeros((t, core.MAX_CHAIN), np.int64), np.zeros((t, n, NST), np.int64),
        dcount, cmask, hgroup, np.zeros((t, NCX), np.int64), np.zeros((t, cap), np.int32),
        np.zeros((t, cap), np.int32), np.zeros((t, NKINDS), np.int64),
        np.zeros((t, groups, 4), np.int64), np.zeros((t, 2, w), np.int32),
        np.zeros((t, 8), np.float64))


# =============================================================================================
# small helpers
# =============================================================================================


# =============================================================================================
# the tracker's lists: slot groups and known cards of seat ``s`` in tracker ``me``
# =============================================================================================


# =============================================================================================
# keeping the trackers up to date: begin (a deal), before and after each step
# =============================================================================================


# =============================================================================================
# the decisions
# =============================================================================================


# the compiled functions (``_kernel.pyx``, part ``heuristic.pxi``)
from . import _kernel  # noqa: E402

act = _kernel.kh_act
after = _kernel.kh_after
before = _kernel.kh_before
begin = _kernel.kh_begin
window = _kernel.kh_window
