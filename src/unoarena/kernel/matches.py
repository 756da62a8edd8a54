"""Whole matches on the kernel: :class:`unoarena.engine.Match`, compiled.

The match's own generator chooses the first dealer (SET-1: high card with redraws among the
tied, or at random), seeds every round (``getrandbits(63)``) and shuffles seats (HR-SEATS),
in the reference's order; the scores settle as :func:`unoarena.engine.settle` says
(MATCH-1..4), and the deal passes as SET-2 says. Bots follow their players across seats, and
a heuristic's BluffStats follow its player through the match.
"""

from __future__ import annotations

from typing import Any

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
    ELIM_POINTS,
    R_DECK,
    R_ELIM,
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
def _shuffle_seats(g: U32, seat_of: I64, perm: I64, k: int, n: int) -> None:
    """HR-SEATS: ``perm = list(range(k)); rng.shuffle(perm); seat_of = [perm[s] ...]`` over the
    ``k`` seats of the ``n`` players, those put out (-1, HR-ELIM) staying out."""
    for i in range(k):
        perm[i] = i
    for i in range(k - 1, 0, -1):
        j = mt.randbelow(g, i + 1)
        x = perm[i]
        perm[i] = perm[j]
        perm[j] = x
    for p in range(n):
        if seat_of[p] >= 0:
            seat_of[p] = perm[seat_of[p]]


@njit
def play_match(st: State, tb: Tables, mrng: U32, drv: U32, own: U32, kinds: I64,
               opts: F64, max_actions: int, max_rounds: int, result: I64,
               winners: I64, counts: I64, chain_hist: I64, points: I64, scores: I64,
               drawn_by: I64, match_scores: I64, ids: I32, buf: I32, seats: I64,
               scr: I64, tr: Tracker, tbs: Any, trs: Any) -> None:
    """Play one match (generators seeded) with player ``p``'s bot ``kinds[p]`` (options
    ``opts[p]``): round ``r``'s results in row ``r`` of the output arrays (``winners`` the
    seat that went out, -1 void); the match's totals in ``match_scores`` and ``result`` (see
    ``M_*``). ``tbs[k - 2]`` and ``trs[k - 2]`` are the tables and tracker of a ``k``-player
    table, where elimination (HR-ELIM) deals the players left."""
    p = tb.p
    n = p[R_N]
    k = n  # players at the table
    # HR-ELIM: the seats a round puts out, in the bots' id scratch (free between rounds)
    gone = scr[kb.SCR_IDS:kb.SCR_IDS + n]
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
        tk = tbs[k - 2]
        seed = mt.getrandbits(mrng, 63)
        mt.seed_words(st.rng[0], seed & 0xFFFFFFFF, seed >> 32)
        core.deal_seeded(st, tk, 0, dealer)
        for pl in range(n):
            if seat_of[pl] >= 0:
                who[seat_of[pl]] = pl
        kb.play_round(st, tk, 0, who, kinds, opts, drv, own, counts[rounds], chain_hist,
                      max_actions, ids, buf, seats, scr, trs[k - 2])
        if counts[rounds, kb.C_ERROR]:
            result[M_ERROR] = E_ROUND
            result[M_ROUNDS] = rounds + 1
            return
        w = st.s[0, core.F_WINNER]
        winners[rounds] = w
        for seat in range(n):
            points[rounds, seat] = st.points[0, seat] if seat < k else 0
            scores[rounds, seat] = st.scores[0, seat] if seat < k else 0
        for r in range(core.NREASONS):
            drawn_by[rounds, r] = st.drawn_by[0, r]
        if p[R_TEAMCOUNT]:
            for tm in range(width):
                match_scores[tm] += st.scores[0, tm]
        else:
            for pl in range(n):
                if seat_of[pl] >= 0:
                    match_scores[pl] += st.scores[0, seat_of[pl]]
        rounds += 1
        ngone = _eliminate(st, tb, k, w, gone) if p[R_ELIM] else 0
        if p[R_ELIM]:  # HR-ELIM: the last player left wins
            if k - ngone == 1:
                for i in range(width):
                    result[M_WINNERS + i] = 0
                for seat in range(k):
                    if not gone[seat]:
                        result[M_WINNERS + who[seat]] = 1
                result[M_ROUNDS] = rounds
                return
        elif _settled(tb, match_scores, width, rounds, result):
            result[M_ROUNDS] = rounds
            return
        # SET-2: the deal passes to the left (the next player left), or to the winner
        # (followed across a reseat)
        if p[R_NEXT_WINNER] and w >= 0:
            dealer_player = who[w]
        else:
            seat = (dealer + 1) % k
            while ngone and gone[seat]:
                seat = (seat + 1) % k
            dealer_player = who[seat]
        if ngone:  # HR-ELIM: the others close up, in the same order
            left = 0
            for seat in range(k):
                if gone[seat]:
                    seat_of[who[seat]] = -1
                else:
                    seat_of[who[seat]] = left
                    left += 1
            k = left
        if p[R_SEATX] and rounds % p[R_SEATX] == 0:
            _shuffle_seats(mrng, seat_of, perm, k, n)
        dealer = seat_of[dealer_player]


@inline
def _eliminate(st: State, tb: Tables, k: int, w: int, gone: I64) -> int:
    """``eliminated``: flag in ``gone`` the seats (but the winner ``w``) holding the most points
    or cards, all of them on a tie, none when that would be all ``k``; how many."""
    best = -1
    for seat in range(k):
        gone[seat] = 0
        if seat != w:
            v = st.points[0, seat] if tb.p[R_ELIM] == ELIM_POINTS else st.hsize[0, seat]
            best = max(best, v)
    count = 0
    for seat in range(k):
        if seat != w:
            v = st.points[0, seat] if tb.p[R_ELIM] == ELIM_POINTS else st.hsize[0, seat]
            if v == best:
                gone[seat] = 1
                count += 1
    if count == k:
        for seat in range(k):
            gone[seat] = 0
        count = 0
    return count


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
