"""The ``random``, ``basic`` and ``heuristic`` bots and the sequential driver (DIG-3),
compiled.

Each bot makes the decision its Python namesake (:mod:`unoarena.bots.simple`,
:mod:`unoarena.bots.heuristic`) makes from the same legal ids and the same generators, drawing
the same numbers in the same order: the driver's generator for decisions on the seat's turn,
the bot's own for its window decisions (the heuristic draws none). :func:`play_round` is
:func:`unoarena.driver.play_round`: windows are offered from the last actor's left, a seat that
declined is not asked again until an action other than a catch or an UNO call, then the turn
seat acts; the heuristic seats' card trackers (:mod:`unoarena.kernel.heuristic`) follow every
step. It also keeps the lab's per-round counts (turns and penalty chains, as
:class:`unoarena.lab.common.RoundTracker` does).

:func:`act` and :func:`window` are the bots without a tracker (``random``, ``basic``); the
drivers here call the heuristic's own.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..engine.cards import NCOLORED, NKINDS, WILD4, WILD_ATTACK
from . import core, mt
from . import heuristic as kh
from ._jit import inline, njit
from .core import State, Tables
from .heuristic import O_DECLINE, Tracker
from .tables import R_N, V_CATCH, V_COLOR, V_GIVE, V_JUMP, V_PLAY, V_UNO

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
U32 = npt.NDArray[np.uint32]
F64 = npt.NDArray[np.float64]

BOT_RANDOM, BOT_BASIC, BOT_HEURISTIC = 0, 1, 2
#: A vector-environment seat whose decisions go back to the caller (self-play: another
#: network plays it), never decided in the kernel.
BOT_CALLER = 3
#: Bot names the kernel plays, by code.
KERNEL_BOTS = ("random", "basic", "heuristic")
#: The bots that decide from the table alone (:func:`act`, :func:`window`); the heuristic
#: also needs its card tracker, which only the round and match drivers keep.
STATELESS_BOTS = ("random", "basic")

_KCOLOR = np.array([k // 15 if k < NCOLORED else -1 for k in range(NKINDS)], dtype=np.int64)
#: Card kinds that start a draw penalty (EFF-1, EFF-5, ATK-8, ATK-9): what opens a chain.
_PENALTY_KIND = np.array([(k < NCOLORED and k % 15 in (12, 13)) or k in (WILD4, WILD_ATTACK)
                          for k in range(NKINDS)], dtype=np.bool_)

# per-round counts written by play_round: C[t, ...]
(C_ACTIONS, C_TURNS, C_CHAINS, C_CHAIN, C_ERROR, NCOUNTS) = range(6)
#: C_ERROR codes: too many actions, no legal action, too long a chain, a tracker out of room
E_ACTIONS, E_STUCK, E_CHAIN, E_TRACKER = 1, 2, 3, 4
#: The bots' scratch row: small counters below SCR_WHO (see each function), the seat -> player
#: map of a round at SCR_WHO (a match keeps its player -> seat map 16 further), two id lists
#: from SCR_IDS.
SCR_WHO, SCR_IDS = 64, 96
#: Longest penalty chain the histogram holds (a longer one is an error, never silently cut).
MAX_CHAIN_LEN = 256


# =============================================================================================
# the bots
# =============================================================================================
@inline
def best_color(st: State, t: int, seat: int, colors: I64, ncolors: int, g: U32,
               scr: I64) -> int:
    """``BasicBot._best_color``: the colour among ``colors`` the hand holds most, ties at
    random (always one draw, as the reference draws even when there is no tie)."""
    counts = scr[0:8]
    for c in range(8):
        counts[c] = 0
    for i in range(st.hsize[t, seat]):
        c = _KCOLOR[st.hands[t, seat, i]]
        if c >= 0:
            counts[c] += 1
    top = -1
    for i in range(ncolors):
        if counts[colors[i]] > top:
            top = counts[colors[i]]
    nbest = 0
    best = scr[8:16]
    for c in range(8):  # ascending colour, as sorted() does
        for i in range(ncolors):
            if colors[i] == c and counts[c] == top:
                best[nbest] = c
                nbest += 1
                break
    return int(best[int(mt.random(g) * nbest)])


@inline
def weakest(st: State, t: int, seats: I64, nseats: int, g: U32, scr: I64) -> int:
    """``BasicBot._weakest``: the seat among ``seats`` with the fewest cards, ties at random."""
    low = 1 << 30
    for i in range(nseats):
        if st.hsize[t, seats[i]] < low:
            low = st.hsize[t, seats[i]]
    best = scr[16:26]
    nbest = 0
    for sidx in range(core.MAX_PLAYERS):
        for i in range(nseats):
            if seats[i] == sidx and st.hsize[t, sidx] == low:
                best[nbest] = sidx
                nbest += 1
                break
    return int(best[int(mt.random(g) * nbest)])


@inline
def _add_distinct(vals: I64, n: int, v: int) -> int:
    for i in range(n):
        if vals[i] == v:
            return n
    vals[n] = v
    return n + 1


@inline
def basic_act(st: State, tb: Tables, t: int, seat: int, ids: I32, m: int, g: U32,
              scr: I64) -> int:
    """``BasicBot.act``: the action id it chooses among the sorted legal ``ids[:m]``."""
    verb = tb.a_verb
    for want in (V_CATCH, V_UNO):
        for i in range(m):
            if verb[ids[i]] == want:
                return int(ids[i])
    ncol = 0
    colors = scr[32:40]
    for i in range(m):
        if verb[ids[i]] == V_COLOR:
            ncol = _add_distinct(colors, ncol, tb.a_color[ids[i]])
    if ncol:
        best = best_color(st, t, seat, colors, ncol, g, scr)
        for i in range(m):
            if verb[ids[i]] == V_COLOR and tb.a_color[ids[i]] == best:
                return int(ids[i])
    ngive = 0
    for i in range(m):
        if verb[ids[i]] == V_GIVE:
            ngive += 1
    if ngive:
        pick = int(mt.random(g) * ngive)
        for i in range(m):
            if verb[ids[i]] == V_GIVE:
                if pick == 0:
                    return int(ids[i])
                pick -= 1
    # plays: groups of the same cards in order of first appearance, one picked at random
    groups = scr[SCR_IDS:SCR_IDS + m]
    ngroups = 0
    for i in range(m):
        if verb[ids[i]] == V_PLAY:
            ngroups = _add_distinct(groups, ngroups, tb.a_group[ids[i]])
    if ngroups:
        return choose_play(st, tb, t, seat, ids, m, groups[int(mt.random(g) * ngroups)], g,
                           scr)
    for want in (3, 0, 1):  # accept, draw, pass (their fixed ids)
        for i in range(m):
            if ids[i] == want:
                return want
    return int(ids[0])


@inline
def choose_play(st: State, tb: Tables, t: int, seat: int, ids: I32, m: int, group: int,
                g: U32, scr: I64) -> int:
    """``BasicBot._choose_play`` once the cards are chosen: the plain variant, the colour it
    holds most, the weakest target, the UNO flag when offered."""
    var = scr[SCR_IDS + m:SCR_IDS + 2 * m]
    nv = 0
    for i in range(m):
        if tb.a_verb[ids[i]] == V_PLAY and tb.a_group[ids[i]] == group:
            var[nv] = ids[i]
            nv += 1
    if nv > 1:
        nv = core.prefer_plain(tb, var, nv)
        colors = scr[40:48]
        ncol = 0
        for i in range(nv):
            if tb.a_color[var[i]] >= 0:
                ncol = _add_distinct(colors, ncol, tb.a_color[var[i]])
        if ncol > 1:
            best = best_color(st, t, seat, colors, ncol, g, scr)
            nv = core.keep_equal(var, nv, tb.a_color, best)
        seats = scr[48:58]
        nseat = 0
        for i in range(nv):
            if tb.a_target[var[i]] >= 0:
                nseat = _add_distinct(seats, nseat, tb.a_target[var[i]])
        if nseat > 1:
            tgt = weakest(st, t, seats, nseat, g, scr)
            nv = core.keep_equal(var, nv, tb.a_target, tgt)
    return core.uno_first(tb, var, nv)


@inline
def act(st: State, tb: Tables, t: int, seat: int, kind: int, ids: I32, m: int,
        g: U32, scr: I64) -> int:
    """The seat's bot chooses on its turn (``g``: the driver's generator)."""
    if kind == BOT_RANDOM:
        return int(ids[int(mt.random(g) * m)])
    return basic_act(st, tb, t, seat, ids, m, g, scr)


@inline
def window(tb: Tables, kind: int, decline: float, ids: I32, m: int, own: U32) -> int:
    """A window decision, -1 to decline (``own``: the bot's own generator)."""
    if kind == BOT_RANDOM:
        if mt.random(own) < decline:
            return -1
        return int(ids[int(mt.random(own) * m)])
    for want in (V_CATCH, V_UNO):  # basic: always catch, always call; never jump in
        for i in range(m):
            if tb.a_verb[ids[i]] == want:
                return int(ids[i])
    return -1


@inline
def decide(st: State, tb: Tables, tr: Tracker, t: int, seat: int, in_window: bool, kind: int,
           opt: F64, ids: I32, m: int, drv: U32, own: U32, scr: I64) -> int:
    """The bot of ``kind`` (options ``opt``) at ``seat`` chooses among ``ids[:m]``: in a window
    (-1: it lets the window pass) or on its turn; ``drv`` is the driver's generator, ``own``
    the seat's own, ``tr`` the heuristic seats' trackers."""
    if kind == BOT_HEURISTIC:
        if in_window:
            return kh.window(st, tb, tr, t, seat, seat, opt, ids, m)
        return kh.act(st, tb, tr, t, seat, seat, opt, ids, m)
    if in_window:
        return window(tb, kind, opt[kh.O_DECLINE], ids, m, own)
    return act(st, tb, t, seat, kind, ids, m, drv, scr)


# =============================================================================================
# the driver
# =============================================================================================
def scratch(n_actions: int, players: int) -> tuple[I32, I32, I64, I64]:
    """The driver's scratch arrays (legal ids, a second id buffer, window seats, the bots')."""
    return (np.empty(n_actions + 8, np.int32), np.empty(n_actions + 8, np.int32),
            np.empty(players, np.int64), np.zeros(SCR_IDS + 2 * (n_actions + 8), np.int64))


@njit
def play_round(st: State, tb: Tables, t: int, who: I64, kinds: I64, opts: F64,
               drv: U32, own: U32, counts: I64, chain_hist: I64, max_actions: int, ids: I32,
               buf: I32, seats: I64, scr: I64, tr: Tracker) -> None:
    """Play table ``t`` (already dealt) to its end; write the round's counts to ``counts`` and
    add its penalty chains to ``chain_hist``. Seat ``s`` is played by player ``who[s]``, whose
    bot is ``kinds[p]`` (options ``opts[p]``, see ``heuristic.O_*``) with its own generator
    ``own[p]`` (seeded only for bots that draw from it) and, for a heuristic, its BluffStats
    in ``tr.stats[t, p]``. ``ids``, ``buf``, ``seats`` and ``scr`` are scratch (see
    :func:`scratch`), ``tr`` the heuristic seats' trackers: nothing here allocates."""
    s = st.s[t]
    for i in range(NCOUNTS):
        counts[i] = 0
    hmask = 0
    for seat in range(tb.p[R_N]):
        if kinds[who[seat]] == BOT_HEURISTIC:
            hmask |= 1 << seat
    if hmask:
        kh.begin(tr, st, tb, t, hmask)
        if tr.tf[t, kh.TF_ERROR]:
            counts[C_ERROR] = E_TRACKER
            return
    chain = 1 if s[core.F_PEND] > 0 else 0
    declined = 0
    taken = 0
    while s[core.F_PHASE] != core.OVER:
        if taken >= max_actions:
            counts[C_ERROR] = E_ACTIONS
            return
        seat = -1
        aid = -1
        nw = core.window_seats(st, tb, t, seats, buf)
        for w in range(nw):
            ws = seats[w]
            if (declined >> ws) & 1:
                continue
            m = core.legal(st, tb, t, ws, ids)
            pw = who[ws]
            if kinds[pw] == BOT_HEURISTIC:
                choice = kh.window(st, tb, tr, t, ws, pw, opts[pw], ids, m)
            else:
                choice = window(tb, kinds[pw], opts[pw, O_DECLINE], ids, m, own[pw])
            if choice < 0:
                declined |= 1 << ws
                continue
            seat = ws
            aid = choice
            break
        if seat < 0:
            seat = s[core.F_TURN]
            m = core.legal(st, tb, t, seat, ids)
            if m == 0:
                counts[C_ERROR] = E_STUCK
                return
            pw = who[seat]
            if kinds[pw] == BOT_HEURISTIC:
                aid = kh.act(st, tb, tr, t, seat, pw, opts[pw], ids, m)
            else:
                aid = act(st, tb, t, seat, kinds[pw], ids, m, drv, scr)
        if hmask:
            kh.before(tr, st, t, seat, aid)
        s[core.F_NLOG] = 0
        core.step(st, tb, t, aid, seat)
        if hmask:
            kh.after(tr, st, tb, t)
            if tr.tf[t, kh.TF_ERROR]:
                counts[C_ERROR] = E_TRACKER
                return
        v = tb.a_verb[aid]
        if v != V_CATCH and v != V_UNO:
            declined = 0
        # the lab's counts: turns, and penalty chains (RoundTracker)
        phase = s[core.F_PHASE]
        if v != V_CATCH and v != V_UNO and v != V_COLOR and (phase == core.PLAY
                                                             or phase == core.OVER):
            counts[C_TURNS] += 1
        pending = s[core.F_PEND] > 0
        if v == V_PLAY or v == V_JUMP:
            if chain:
                chain += 1
            elif pending or _PENALTY_KIND[tb.a_cards[aid, tb.a_ncards[aid] - 1]]:
                chain = 1
        if chain and not pending:
            _chain_done(chain, counts, chain_hist)
            chain = 0
        taken += 1
    if chain:
        _chain_done(chain, counts, chain_hist)
    counts[C_ACTIONS] = s[core.F_NACTIONS]


@inline
def _chain_done(length: int, counts: I64, chain_hist: I64) -> None:
    counts[C_CHAINS] += 1
    if length >= MAX_CHAIN_LEN:
        counts[C_ERROR] = E_CHAIN
        return
    chain_hist[length] += 1


@njit
def play_rounds(st: State, tb: Tables, seeds: I64, games: U32, drivers: U32, dealers: I64,
                kinds: I64, opts: F64, own: U32, counts: I64, chain_hist: I64,
                winners: I64, points: I64, scores: I64, drawn_by: I64,
                max_actions: int, ids: I32, buf: I32, seats: I64, scr: I64,
                tr: Tracker) -> None:
    """Round ``i`` of a chunk on table 0, its generators seeded beforehand (``games[i]``,
    ``drivers[i]``; :func:`mt.seed_many`), each random bot's from ``seeds[i]`` (words of the
    game, driver, seat 0, seat 1, ... seeds); ``kinds[i, s]`` and ``opts[i, s]`` are
    round ``i``'s bot at seat ``s`` (its bot is new: no BluffStats yet); results per round in
    the output rows."""
    n = tb.p[R_N]
    who = scr[SCR_WHO:SCR_WHO + n]  # every player in their own seat
    for i in range(len(dealers)):
        for seat in range(n):
            who[seat] = seat
        g = st.rng[0]
        for j in range(mt.MT_WORDS):
            g[j] = games[i, j]
        core.deal_seeded(st, tb, 0, dealers[i])
        drv = drivers[i]
        for seat in range(n):
            if kinds[i, seat] == BOT_RANDOM:
                mt.seed_words(own[seat], seeds[i, 4 + 2 * seat], seeds[i, 5 + 2 * seat])
            for j in range(kh.NST):
                tr.stats[0, seat, j] = 0
        play_round(st, tb, 0, who, kinds[i], opts[i], drv, own, counts[i], chain_hist,
                   max_actions, ids, buf, seats, scr, tr)
        winners[i] = st.s[0, core.F_WINNER]
        for seat in range(n):
            points[i, seat] = st.points[0, seat]
            scores[i, seat] = st.scores[0, seat]
        for r in range(core.NREASONS):
            drawn_by[i, r] = st.drawn_by[0, r]
