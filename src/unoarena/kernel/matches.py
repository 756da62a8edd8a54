"""Whole matches on the kernel: :class:`unoarena.engine.Match`, compiled.

The match's own generator chooses the first dealer (SET-1: high card with redraws among the
tied, or at random), seeds every round (``getrandbits(63)``) and shuffles seats (HR-SEATS),
in the reference's order; the scores settle as :func:`unoarena.engine.settle` says
(MATCH-1..4), and the deal passes as SET-2 says. Bots follow their players across seats, and
a heuristic's BluffStats follow its player through the match.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..engine.cards import NCOLORED
from . import bots as kb
from . import core, mt
from . import heuristic as kh
from ._jit import inline, njit
from .core import State, Tables
from .heuristic import Tracker
from .tables import (
    R_DECK,
    R_FIRST_RANDOM,
    R_N,
    R_NEXT_WINNER,
    R_ROUNDS,
    R_SCORING,
    R_SEATX,
    R_TARGET,
    R_TEAMCOUNT,
    SC_PENALTY,
    SC_WINNER,
)

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
U32 = npt.NDArray[np.uint32]
F64 = npt.NDArray[np.float64]

# what play_match returns in ``result``: rounds played, an error code, then one flag per
# player (or team) that won the match
M_ROUNDS, M_ERROR, M_WINNERS = 0, 1, 2
E_ROUNDS, E_ROUND, E_CAPACITY = 1, 2, 3


@inline
def first_dealer(tb: Tables, g: U32, deck: I32, contenders: I64, values: I64) -> int:
    """SET-1: each player draws a card; the highest number deals; the tied draw again."""
    n = tb.p[R_N]
    if tb.p[R_FIRST_RANDOM]:
        return int(mt.random(g) * n)
    nc = n
    for s in range(n):
        contenders[s] = s
    size = tb.p[R_DECK]
    while True:
        for i in range(size):
            deck[i] = tb.deck[i]
        for i in range(size - 1, 0, -1):  # random.shuffle: _randbelow, not random()
            j = mt.randbelow(g, i + 1)
            x = deck[i]
            deck[i] = deck[j]
            deck[j] = x
        m = size
        best = -1
        for ci in range(nc):
            m -= 1
            card = deck[m]
            v = card % 15 if card < NCOLORED and card % 15 <= 9 else 0
            values[ci] = v
            best = max(best, v)
        k = 0
        for ci in range(nc):
            if values[ci] == best:
                contenders[k] = contenders[ci]
                k += 1
        nc = k
        if nc == 1:
            return int(contenders[0])


@inline
def _shuffle_seats(g: U32, seat_of: I64, perm: I64, n: int) -> None:
    """HR-SEATS: ``perm = list(range(n)); rng.shuffle(perm); seat_of = [perm[s] ...]``."""
    for i in range(n):
        perm[i] = i
    for i in range(n - 1, 0, -1):
        j = mt.randbelow(g, i + 1)
        x = perm[i]
        perm[i] = perm[j]
        perm[j] = x
    for p in range(n):
        seat_of[p] = perm[seat_of[p]]


@njit
def play_match(st: State, tb: Tables, mrng: U32, drv: U32, own: U32, kinds: I64,
               opts: F64, max_actions: int, max_rounds: int, result: I64,
               winners: I64, counts: I64, chain_hist: I64, points: I64, scores: I64,
               drawn_by: I64, match_scores: I64, ids: I32, buf: I32, seats: I64,
               scr: I64, tr: Tracker) -> None:
    """Play one match (generators seeded) with player ``p``'s bot ``kinds[p]`` (options
    ``opts[p]``): round ``r``'s results in row ``r`` of the output arrays (``winners`` the
    seat that went out, -1 void); the match's totals in ``match_scores`` and ``result`` (see
    ``M_*``)."""
    p = tb.p
    n = p[R_N]
    width = p[R_TEAMCOUNT] if p[R_TEAMCOUNT] else n
    seat_of = scr[kb.SCR_WHO + 16:kb.SCR_WHO + 16 + n]
    who = scr[kb.SCR_WHO:kb.SCR_WHO + n]
    perm = st.tmp[0, 0:n]
    vals = st.tmp[0, 16:16 + n]
    for i in range(len(result)):
        result[i] = 0
    for i in range(n):
        seat_of[i] = i
        for j in range(kh.NST):
            tr.stats[0, i, j] = 0
    dealer = first_dealer(tb, mrng, st.disc[0], perm, vals)
    for i in range(width):
        match_scores[i] = 0
    rounds = 0
    while True:
        if rounds >= max_rounds:
            result[M_ERROR] = E_ROUNDS
            return
        if rounds >= len(winners):
            result[M_ERROR] = E_CAPACITY
            return
        seed = mt.getrandbits(mrng, 63)
        mt.seed_words(st.rng[0], seed & 0xFFFFFFFF, seed >> 32)
        core.deal_seeded(st, tb, 0, dealer)
        for pl in range(n):
            who[seat_of[pl]] = pl
        kb.play_round(st, tb, 0, who, kinds, opts, drv, own, counts[rounds], chain_hist,
                      max_actions, ids, buf, seats, scr, tr)
        if counts[rounds, kb.C_ERROR]:
            result[M_ERROR] = E_ROUND
            result[M_ROUNDS] = rounds + 1
            return
        w = st.s[0, core.F_WINNER]
        winners[rounds] = w
        for seat in range(n):
            points[rounds, seat] = st.points[0, seat]
            scores[rounds, seat] = st.scores[0, seat]
        for r in range(core.NREASONS):
            drawn_by[rounds, r] = st.drawn_by[0, r]
        if p[R_TEAMCOUNT]:
            for tm in range(width):
                match_scores[tm] += st.scores[0, tm]
        else:
            for pl in range(n):
                match_scores[pl] += st.scores[0, seat_of[pl]]
        rounds += 1
        if _settled(tb, match_scores, width, rounds, result):
            result[M_ROUNDS] = rounds
            return
        # SET-2: the deal passes to the left, or to the winner (followed across a reseat)
        dealer_player = who[w] if p[R_NEXT_WINNER] and w >= 0 else who[(dealer + 1) % n]
        if p[R_SEATX] and rounds % p[R_SEATX] == 0:
            _shuffle_seats(mrng, seat_of, perm, n)
        dealer = seat_of[dealer_player]


@inline
def _settled(tb: Tables, sc: I64, width: int, rounds: int, result: I64) -> bool:
    """``settle``: is the match over, and who won (flags from ``result[M_WINNERS]``)?"""
    p = tb.p
    hi = sc[0]
    lo = sc[0]
    for i in range(1, width):
        hi = max(hi, sc[i])
        lo = min(lo, sc[i])
    limit = p[R_ROUNDS]
    if p[R_SCORING] == SC_WINNER:  # MATCH-1: first to the target
        over = hi >= p[R_TARGET] or (limit >= 0 and rounds >= limit)
        best = hi
    elif p[R_SCORING] == SC_PENALTY:  # MATCH-2: the lowest total when someone reaches it
        over = rounds >= limit if limit >= 0 else hi >= p[R_TARGET]
        best = lo
    else:  # MATCH-3 chips: the most after the rounds
        over = limit >= 0 and rounds >= limit
        best = hi
    if over:
        for i in range(width):
            result[M_WINNERS + i] = 1 if sc[i] == best else 0
    return bool(over)
