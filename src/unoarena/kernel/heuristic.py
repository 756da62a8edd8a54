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
ties) are the same to the last bit; Python's ``x ** n`` (float, int) calls the C library's
``pow``, where numba would multiply for an integer ``n``: here it is ``float(x) ** float(n)``,
which calls ``pow`` compiled and uncompiled alike (numba's ``NUMBA_DISABLE_JIT`` runs this
module as plain Python, with numpy scalars).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ..engine.cards import (
    DISCARD_ALL,
    DRAW2,
    HIT2,
    NCOLORED,
    NKINDS,
    REVERSE,
    SKIP,
    WILD,
    WILD4,
    WILD_ATTACK,
    WILD_HYPER,
    WILD_NATURE,
)
from . import core
from ._jit import inline, njit
from .core import State, Tables
from .tables import (
    POWER_LOOK,
    POWER_NONE,
    R_CHAL,
    R_HAND,
    R_N,
    R_NCOL,
    R_NUMFIN,
    R_SEVEN,
    R_SPECIAL,
    R_TEAMCOUNT,
    R_TEAMS,
    R_UNTIL,
    V_ACCEPT,
    V_CATCH,
    V_CHALLENGE,
    V_COLOR,
    V_DRAW,
    V_GIVE,
    V_JUMP,
    V_PASS,
    V_PLAY,
    V_UNO,
    KernelRules,
)

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]

_KCOLOR = core._KCOLOR
_KRANK = core._KRANK
_POINTS = core._POINTS
_IS_NUMBER = np.array([k < NCOLORED and k % 15 <= 9 for k in range(NKINDS)], dtype=np.bool_)

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
@inline
def _has(e0: int, e1: int, k: int) -> bool:
    """Is kind ``k`` in the exclusion words ``e0``, ``e1``?"""
    if k < 40:
        return bool((e0 >> k) & 1)
    return bool((e1 >> (k - 40)) & 1)


@inline
def _bits(x: int) -> int:
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@inline
def _opponent(tb: Tables, me: int, seat: int) -> bool:
    """``Context.opponent``: another team's seat (any other seat without teams)."""
    if tb.p[R_TEAMS]:
        return bool(seat % tb.p[R_TEAMCOUNT] != me % tb.p[R_TEAMCOUNT])
    return seat != me


@inline
def _urgency(st: State, t: int, seat: int) -> int:
    return max(0, 4 - int(st.hsize[t, seat]))


@inline
def _sort_into(src: I32, m: int, dst: I32) -> None:
    """``sorted``: ``dst[:m]`` is ``src[:m]`` in ascending order (insertion sort)."""
    for i in range(m):
        x = src[i]
        j = i - 1
        while j >= 0 and dst[j] > x:
            dst[j + 1] = dst[j]
            j -= 1
        dst[j + 1] = x


# =============================================================================================
# the tracker's lists: slot groups and known cards of seat ``s`` in tracker ``me``
# =============================================================================================
@inline
def _add_group(tr: Tracker, t: int, me: int, s: int, count: int, e0: int, e1: int,
               ln: int) -> int:
    """Append a group; its index (-1, and the error flag, when the arrays are full)."""
    g = tr.ngroups[t, me, s]
    if g >= tr.gcount.shape[3]:
        tr.tf[t, TF_ERROR] = ERR_FULL
        return -1
    tr.gcount[t, me, s, g] = count
    tr.gex0[t, me, s, g] = e0
    tr.gex1[t, me, s, g] = e1
    tr.glen[t, me, s, g] = ln
    tr.ngroups[t, me, s] = g + 1
    return int(g)


@inline
def _del_group(tr: Tracker, t: int, me: int, s: int, g: int) -> None:
    ng = tr.ngroups[t, me, s]
    for j in range(g, ng - 1):
        tr.gcount[t, me, s, j] = tr.gcount[t, me, s, j + 1]
        tr.gex0[t, me, s, j] = tr.gex0[t, me, s, j + 1]
        tr.gex1[t, me, s, j] = tr.gex1[t, me, s, j + 1]
        tr.glen[t, me, s, j] = tr.glen[t, me, s, j + 1]
    tr.ngroups[t, me, s] = ng - 1


@inline
def _remove(tr: Tracker, t: int, me: int, s: int, k: int) -> None:
    """``CardTracker._remove``: card ``k`` left seat ``s``'s hand: a known card, else one
    slot of the first most constrained group that may hold it (else of the newest group)."""
    nk = tr.nknown[t, me, s]
    kn = tr.known[t, me, s]
    for i in range(nk):
        if kn[i] == k:
            for j in range(i, nk - 1):
                kn[j] = kn[j + 1]
            tr.nknown[t, me, s] = nk - 1
            return
    ng = tr.ngroups[t, me, s]
    best = -1
    for g in range(ng):
        if tr.gcount[t, me, s, g] and not _has(tr.gex0[t, me, s, g], tr.gex1[t, me, s, g], k) \
                and (best < 0 or tr.glen[t, me, s, g] > tr.glen[t, me, s, best]):
            best = g
    if best < 0:
        for g in range(ng - 1, -1, -1):
            if tr.gcount[t, me, s, g]:
                best = g
                break
    if best >= 0:
        tr.gcount[t, me, s, best] -= 1
        if tr.gcount[t, me, s, best] == 0:
            _del_group(tr, t, me, s, best)


@inline
def _forget(tr: Tracker, t: int, me: int, s: int) -> None:
    """``CardTracker._forget``: the hand is one group of unknown cards again."""
    size = tr.nknown[t, me, s]
    for g in range(tr.ngroups[t, me, s]):
        size += tr.gcount[t, me, s, g]
    tr.nknown[t, me, s] = 0
    tr.ngroups[t, me, s] = 0
    if size:
        _add_group(tr, t, me, s, size, 0, 0, 0)


@inline
def _swap_rows(tr: Tracker, t: int, me: int, a: int, b: int) -> None:
    """Exchange what tracker ``me`` knows of seats ``a`` and ``b``."""
    kn = tr.known[t, me]
    for i in range(max(tr.nknown[t, me, a], tr.nknown[t, me, b])):
        x = kn[a, i]
        kn[a, i] = kn[b, i]
        kn[b, i] = x
    y = tr.nknown[t, me, a]
    tr.nknown[t, me, a] = tr.nknown[t, me, b]
    tr.nknown[t, me, b] = y
    for i in range(max(tr.ngroups[t, me, a], tr.ngroups[t, me, b])):
        for arr in (tr.gcount, tr.gex0, tr.gex1, tr.glen):
            z = arr[t, me, a, i]
            arr[t, me, a, i] = arr[t, me, b, i]
            arr[t, me, b, i] = z
    y = tr.ngroups[t, me, a]
    tr.ngroups[t, me, a] = tr.ngroups[t, me, b]
    tr.ngroups[t, me, b] = y


@inline
def _give_mine(tr: Tracker, t: int, me: int, other: int) -> None:
    """This seat's hand (as it knew it) went to ``other``; its own lists start empty."""
    nm = tr.sf[t, me, SF_NMINE]
    for i in range(nm):
        tr.known[t, me, other, i] = tr.mine[t, me, i]
    tr.nknown[t, me, other] = nm
    tr.ngroups[t, me, other] = 0
    tr.nknown[t, me, me] = 0
    tr.ngroups[t, me, me] = 0
    tr.sf[t, me, SF_NMINE] = 0


@inline
def _swap(tr: Tracker, t: int, me: int, a: int, b: int) -> None:
    """``CardTracker._swap``: seats ``a`` and ``b`` exchanged hands (HR-SEVEN-ZERO)."""
    _swap_rows(tr, t, me, a, b)
    other = b if a == me else (a if b == me else -1)
    if other >= 0:
        _give_mine(tr, t, me, other)


@inline
def _rotate(tr: Tracker, t: int, me: int, d: int, n: int) -> None:
    """``CardTracker._rotate``: every hand moved one seat in direction ``d``."""
    if d == 1:  # new[s] = old[s - 1]
        for i in range(n - 1, 0, -1):
            _swap_rows(tr, t, me, i, i - 1)
    else:
        for i in range(n - 1):
            _swap_rows(tr, t, me, i, i + 1)
    _give_mine(tr, t, me, (me + d) % n)


@inline
def _playable(tr: Tracker, t: int, seat: int, k: int) -> bool:
    """Is ``k`` in ``CardTracker._playable_kinds(seat)`` on the table before the step?"""
    tf = tr.tf[t]
    if not tr.dcount[k]:
        return False
    if tf[TF_LOCK0] >= 0 and seat != tf[TF_LOCKOWNER0]:
        return k < NCOLORED and _KCOLOR[k] == tf[TF_LOCK0]
    top = tf[TF_TOP0]
    top_rank = _KRANK[top] if 0 <= top < NCOLORED else -1
    return k >= NCOLORED or _KCOLOR[k] == tf[TF_COLOR0] or _KRANK[k] == top_rank


@inline
def _drew(tr: Tracker, tb: Tables, t: int, me: int, s: int, count: int, turn: bool) -> None:
    """``CardTracker._drew`` for another seat: a draw on its turn says it held nothing
    playable (and the drawn cards wait to be played, kept or not); a penalty adds a group
    of cards that may be anything."""
    if turn:
        x0 = 0
        x1 = 0
        for k in range(NKINDS):
            if _playable(tr, t, s, k):
                if k < 40:
                    x0 |= 1 << k
                else:
                    x1 |= 1 << (k - 40)
        xl = _bits(x0) + _bits(x1)
        for g in range(tr.ngroups[t, me, s]):
            a = tr.gex0[t, me, s, g] | x0
            b = tr.gex1[t, me, s, g] | x1
            tr.gex0[t, me, s, g] = a
            tr.gex1[t, me, s, g] = b
            tr.glen[t, me, s, g] = _bits(a) + _bits(b)
        if tb.p[R_UNTIL] and count > 1:
            _add_group(tr, t, me, s, count - 1, x0, x1, xl)
            count = 1
        if count > 0:
            g = _add_group(tr, t, me, s, count, x0, x1, xl)
            tr.sf[t, me, SF_DSEAT] = s
            tr.sf[t, me, SF_DIDX] = g
        return
    if count > 0:
        _add_group(tr, t, me, s, count, 0, 0, 0)


@inline
def _drop_mine(tr: Tracker, t: int, me: int, k: int) -> None:
    nm = tr.sf[t, me, SF_NMINE]
    mine = tr.mine[t, me]
    for i in range(nm):
        if mine[i] == k:
            for j in range(i, nm - 1):
                mine[j] = mine[j + 1]
            tr.sf[t, me, SF_NMINE] = nm - 1
            return


# =============================================================================================
# keeping the trackers up to date: begin (a deal), before and after each step
# =============================================================================================
@njit
def begin(tr: Tracker, st: State, tb: Tables, t: int, mask: int) -> None:
    """A new round was dealt on table ``t``: the trackers of the seats in ``mask`` start
    afresh (the ``deal`` and ``starter`` events) and read the deal's draws."""
    n = tb.p[R_N]
    tf = tr.tf[t]
    for i in range(NTF):
        tf[i] = 0
    tf[TF_MASK] = mask
    tf[TF_W4SEAT] = -1
    tf[TF_W4BEFORE] = -1
    for k in range(NKINDS):
        tr.disc[t, k] = 0
    starter = st.disc[t, 0]
    tr.disc[t, starter] = 1
    tf[TF_DLAST] = starter
    for me in range(n):
        if not (mask >> me) & 1:
            continue
        for i in range(NSF):
            tr.sf[t, me, i] = 0
        tr.sf[t, me, SF_DSEAT] = -1
        for s in range(n):
            tr.nknown[t, me, s] = 0
            tr.ngroups[t, me, s] = 0
            if s != me:
                _add_group(tr, t, me, s, tb.p[R_HAND], 0, 0, 0)
    _read_log(tr, st, tb, t)


@inline
def before(tr: Tracker, st: State, t: int, seat: int, aid: int) -> None:
    """What :func:`after` needs of the table as it was before ``seat`` steps ``aid``."""
    s = st.s[t]
    tf = tr.tf[t]
    tf[TF_ACTOR] = seat
    tf[TF_AID] = aid
    tf[TF_COLOR0] = s[core.F_COLOR]
    tf[TF_TOP0] = st.disc[t, s[core.F_NDISC] - 1]
    lock = s[core.F_EFFECT] == core.E_LOCK
    tf[TF_LOCK0] = s[core.F_ECOLOR] if lock else -1
    tf[TF_LOCKOWNER0] = s[core.F_EOWNER]
    tf[TF_NDISC0] = s[core.F_NDISC]
    tf[TF_HSIZE0] = st.hsize[t, seat]
    tf[TF_NCHAIN0] = s[core.F_NCHAIN]
    tf[TF_PEND0] = s[core.F_PEND]
    tf[TF_GLEFT0] = s[core.F_GIVE_LEFT] if s[core.F_PHASE] == core.GIVE else 0
    tf[TF_GTARGET0] = s[core.F_GIVE_TARGET]


@inline
def _read_log(tr: Tracker, st: State, tb: Tables, t: int) -> None:
    """The step's draws (``draw`` and ``press`` events, and the ``drew`` events of the
    tracking seat itself, whose cards are the last ones of its hand) and reshuffles."""
    n = tb.p[R_N]
    tf = tr.tf[t]
    mask = tf[TF_MASK]
    nlog = st.s[t, core.F_NLOG]
    if nlog > core.LOG_CAP:
        tf[TF_ERROR] = ERR_LOG
        return
    for me in range(n):  # where the tracking seat's drawn cards start in its hand
        if (mask >> me) & 1:
            tot = 0
            for i in range(nlog):
                e = st.log[t, i]
                if e % 4 != core.LOG_RESHUFFLE and (e // 4) % 16 == me:
                    tot += e // 64
            tr.sf[t, me, SF_AT] = st.hsize[t, me] - tot
    for i in range(nlog):
        e = st.log[t, i]
        what = e % 4
        if what == core.LOG_RESHUFFLE:  # the discard pile but its top became the draw pile
            for k in range(NKINDS):
                tr.disc[t, k] = 0
            tr.disc[t, tf[TF_DLAST]] = 1
            continue
        seat = (e // 4) % 16
        count = e // 64
        for me in range(n):
            if not (mask >> me) & 1:
                continue
            if seat == me:
                at = tr.sf[t, me, SF_AT]
                nm = tr.sf[t, me, SF_NMINE]
                if nm + count > tr.mine.shape[2]:
                    tf[TF_ERROR] = ERR_FULL
                    return
                for j in range(count):
                    tr.mine[t, me, nm + j] = st.hands[t, me, at + j]
                tr.sf[t, me, SF_NMINE] = nm + count
                tr.sf[t, me, SF_AT] = at + count
            else:
                _drew(tr, tb, t, me, seat, count, what == core.LOG_TURN)


@njit
def after(tr: Tracker, st: State, tb: Tables, t: int) -> None:
    """Bring every tracker of table ``t`` up to date with the step recorded by :func:`before`
    (the events it emitted, in their order). A step that ended the round changes nothing
    anyone will read."""
    s = st.s[t]
    if s[core.F_PHASE] == core.OVER:
        return
    p = tb.p
    n = p[R_N]
    tf = tr.tf[t]
    mask = tf[TF_MASK]
    actor = tf[TF_ACTOR]
    aid = tf[TF_AID]
    v = tb.a_verb[aid]
    # the step's first event resolves a turn draw's group: played from, or kept
    skip = 0  # tracking seats for which the play's first card came from that group
    for me in range(n):
        if not (mask >> me) & 1:
            continue
        ds = tr.sf[t, me, SF_DSEAT]
        if ds < 0:
            continue
        tr.sf[t, me, SF_DSEAT] = -1
        g = tr.sf[t, me, SF_DIDX]
        if ds != actor or g < 0 or g >= tr.ngroups[t, me, ds]:
            continue
        if v == V_PASS:
            tr.gex0[t, me, ds, g] = 0
            tr.gex1[t, me, ds, g] = 0
            tr.glen[t, me, ds, g] = 0
        elif v == V_PLAY and tr.gcount[t, me, ds, g]:
            tr.gcount[t, me, ds, g] -= 1
            if tr.gcount[t, me, ds, g] == 0:
                _del_group(tr, t, me, ds, g)
            skip |= 1 << me
    if v == V_PLAY or v == V_JUMP:
        _after_play(tr, st, tb, t, actor, aid, skip)
    elif v == V_CHALLENGE:
        nch = tf[TF_NCHAIN0]
        guilty = False
        for i in range(nch):
            if st.chain[t, i, 1]:
                guilty = True
        w4 = tf[TF_W4SEAT]
        for me in range(n):
            if not (mask >> me) & 1:
                continue
            if w4 == me and actor != me:
                tr.sf[t, me, SF_TC] += 1
            if me == actor:  # the chain's hands are shown to the challenger
                for i in range(nch):
                    cs = st.chain[t, i, 0]
                    if cs != me:
                        m = tr.nsnap[t, i]
                        for j in range(m):
                            tr.known[t, me, cs, j] = tr.snap[t, i, j]
                        tr.nknown[t, me, cs] = m
                        tr.ngroups[t, me, cs] = 0
            if w4 != me:
                tr.sf[t, me, SF_G if guilty else SF_I] += 1
    elif v == V_ACCEPT:
        w4 = tf[TF_W4SEAT]
        for me in range(n):
            if (mask >> me) & 1 and w4 == me and actor != me:
                tr.sf[t, me, SF_TA] += 1
    elif v == V_GIVE:
        target = tf[TF_GTARGET0]
        if target >= 0 and (mask >> target) & 1:  # the give is shown to its target only
            _remove(tr, t, target, actor, int(tb.a_cards[aid, 0]))
        if tf[TF_GLEFT0] == 1:  # swap_taken: the player took that many of the target's
            taken = st.hsize[t, actor] - (tf[TF_HSIZE0] - 1)
            for me in range(n):
                if not (mask >> me) & 1:
                    continue
                if actor != me:
                    _forget(tr, t, me, actor)
                if target != me:
                    _forget(tr, t, me, target)
                if actor != me:
                    _add_group(tr, t, me, actor, taken, 0, 0, 0)
    _read_log(tr, st, tb, t)
    if v == V_DRAW and tf[TF_PEND0] == 0 and s[core.F_PHASE] != core.DRAWN:
        # nothing drawn was played: the engine says "pass", which empties the group's
        # exclusions (a kept card may have been playable)
        for me in range(n):
            if not (mask >> me) & 1:
                continue
            ds = tr.sf[t, me, SF_DSEAT]
            if ds >= 0:
                tr.sf[t, me, SF_DSEAT] = -1
                g = tr.sf[t, me, SF_DIDX]
                if 0 <= g < tr.ngroups[t, me, ds]:
                    tr.gex0[t, me, ds, g] = 0
                    tr.gex1[t, me, ds, g] = 0
                    tr.glen[t, me, ds, g] = 0


@inline
def _after_play(tr: Tracker, st: State, tb: Tables, t: int, actor: int, aid: int,
                skip: int) -> None:
    """The ``play`` event (and what follows it: swap_hands, rotate_hands, hand_shown)."""
    s = st.s[t]
    p = tb.p
    n = p[R_N]
    tf = tr.tf[t]
    mask = tf[TF_MASK]
    nc = tb.a_ncards[aid]
    cards = tb.a_cards[aid]
    last = int(cards[nc - 1])
    nd0 = tf[TF_NDISC0]
    ngone = 0
    if _KRANK[last] == DISCARD_ALL and last < NCOLORED:
        # ATK-7: the colour's cards went under the DA, in hand order, before the cards played
        ngone = tf[TF_HSIZE0] - nc - st.hsize[t, actor]
        if s[core.F_NDISC] != nd0 + ngone + nc:
            tf[TF_ERROR] = ERR_STEP
            return
    for i in range(ngone):
        tr.disc[t, st.disc[t, nd0 + i]] += 1
    for i in range(nc):
        tr.disc[t, cards[i]] += 1
    tf[TF_DLAST] = last
    if last == WILD4:
        tf[TF_W4BEFORE] = tf[TF_COLOR0]
        tf[TF_W4SEAT] = actor
        ci = s[core.F_NCHAIN] - 1
        if 0 <= ci < core.MAX_CHAIN:  # the hand a challenge of this W4 will show
            hs = st.hsize[t, actor]
            _sort_into(st.hands[t, actor], hs, tr.snap[t, ci])
            tr.nsnap[t, ci] = hs
    for me in range(n):
        if not (mask >> me) & 1:
            continue
        if actor == me:
            for i in range(nc):
                _drop_mine(tr, t, me, int(cards[i]))
            for i in range(ngone):
                _drop_mine(tr, t, me, int(st.disc[t, nd0 + i]))
        else:
            first = 1 if (skip >> me) & 1 else 0
            for i in range(first, nc):
                _remove(tr, t, me, actor, int(cards[i]))
            for i in range(ngone):
                _remove(tr, t, me, actor, int(st.disc[t, nd0 + i]))
    if not p[R_SPECIAL]:
        return
    target = tb.a_target[aid]
    if p[R_SEVEN] and last < NCOLORED:
        if _KRANK[last] == 7 and target >= 0:
            for me in range(n):
                if (mask >> me) & 1:
                    _swap(tr, t, me, actor, target)
        elif _KRANK[last] == 0:
            for me in range(n):
                if (mask >> me) & 1:
                    _rotate(tr, t, me, s[core.F_DIR], n)
    elif last == WILD and tb.a_power[aid] == POWER_LOOK and (mask >> actor) & 1 \
            and target != actor:
        hs = st.hsize[t, target]  # hand_shown to the player who looked
        _sort_into(st.hands[t, target], hs, tr.known[t, actor, target])
        tr.nknown[t, actor, target] = hs
        tr.ngroups[t, actor, target] = 0


# =============================================================================================
# the decisions
# =============================================================================================
@inline
def _observe(tr: Tracker, st: State, tb: Tables, t: int, me: int, player: int) -> None:
    """``HeuristicBot.observe``: the tracker reads the history (its BluffStats counts land in
    the bot's), its own hand is the view's, and the decision context is decoded."""
    sf = tr.sf[t, me]
    stt = tr.stats[t, player]
    stt[ST_TC] += sf[SF_TC]
    stt[ST_TA] += sf[SF_TA]
    stt[ST_G] += sf[SF_G]
    stt[ST_I] += sf[SF_I]
    sf[SF_TC] = 0
    sf[SF_TA] = 0
    sf[SF_G] = 0
    sf[SF_I] = 0
    hs = st.hsize[t, me]
    _sort_into(st.hands[t, me], hs, tr.mine[t, me])
    sf[SF_NMINE] = hs
    hand = tr.hand[t]
    for i in range(hs):
        hand[i] = tr.mine[t, me, i]
    s = st.s[t]
    n = tb.p[R_N]
    cx = tr.cx[t]
    d = s[core.F_DIR]
    cx[CX_ME] = me
    cx[CX_N] = n
    cx[CX_NXT] = (me + d) % n
    cx[CX_PREV] = (me - d) % n
    cx[CX_COLOR] = s[core.F_COLOR]
    cx[CX_PEND] = s[core.F_PEND]
    cx[CX_NH] = hs
    for seat in range(n):  # CardTracker.void_colors
        out = 0
        ng = tr.ngroups[t, me, seat]
        if seat != me and ng:
            for ci in range(tb.p[R_NCOL]):
                c = tb.colors[ci]
                m0 = tr.cmask[c, 0]
                m1 = tr.cmask[c, 1]
                void = True
                for g in range(ng):
                    if (tr.gex0[t, me, seat, g] & m0) != m0 or (tr.gex1[t, me, seat, g] & m1) != m1:
                        void = False
                        break
                if void:
                    for i in range(tr.nknown[t, me, seat]):
                        if _KCOLOR[tr.known[t, me, seat, i]] == c:
                            void = False
                            break
                if void:
                    out |= 1 << c
        cx[CX_VOID + seat] = out


@inline
def _without(tr: Tracker, tb: Tables, t: int, aid: int) -> int:
    """``_without(ctx.hand, a.cards)`` into ``tr.rem``; its length."""
    nh = tr.cx[t, CX_NH]
    rem = tr.rem[t]
    for i in range(nh):
        rem[i] = tr.hand[t, i]
    m = nh
    for c in range(tb.a_ncards[aid]):
        k = tb.a_cards[aid, c]
        for i in range(m):
            if rem[i] == k:
                for j in range(i, m - 1):
                    rem[j] = rem[j + 1]
                m -= 1
                break
    return int(m)


@inline
def _best_color(st: State, tb: Tables, tr: Tracker, t: int, cards: I32, m: int,
                colors: int) -> int:
    """``HeuristicBot.best_color``: the colour (of the bits of ``colors``) ``cards[:m]`` hold
    most, counting points a little, plus a bonus for one the next opponent lacks."""
    counts = tr.fl[t]
    for c in range(8):
        counts[c] = 0.0
    for i in range(m):
        k = cards[i]
        c = _KCOLOR[k]
        if c >= 0 and (colors >> c) & 1:
            counts[c] += 1.0 + 0.05 * _POINTS[k] / 20
    cx = tr.cx[t]
    me = cx[CX_ME]
    nxt = cx[CX_NXT]
    if _opponent(tb, me, nxt):
        voids = cx[CX_VOID + nxt]
        for c in range(8):
            if (colors >> c) & 1 and (voids >> c) & 1:
                counts[c] += 1.5 + 0.5 * _urgency(st, t, nxt)
    best = -1
    for c in range(8):
        if (colors >> c) & 1 and (best < 0 or counts[c] > counts[best]):
            best = c
    return best


@inline
def _play_value(st: State, tb: Tables, tr: Tracker, t: int, aid: int, opt: F64,
                stats: I64) -> float:
    """``HeuristicBot.play_value``: the score of one play (1000 when it goes out)."""
    p = tb.p
    cx = tr.cx[t]
    nc = tb.a_ncards[aid]
    last = int(tb.a_cards[aid, nc - 1])
    nrem = _without(tr, tb, t, aid)
    rem = tr.rem[t]
    rank = _KRANK[last]
    wild = last >= NCOLORED
    if rank == DISCARD_ALL and not wild:
        gone = 0
        for i in range(nc):
            gone |= 1 << _KCOLOR[tb.a_cards[aid, i]]
        j = 0
        for i in range(nrem):
            c = _KCOLOR[rem[i]]
            if c < 0 or not (gone >> c) & 1:
                rem[j] = rem[i]
                j += 1
        nrem = j
    if nrem == 0:
        return 1000.0
    me = cx[CX_ME]
    n = cx[CX_N]
    two = n == 2
    shed = cx[CX_NH] - nrem
    color = tb.a_color[aid]
    color_after = (color if color >= 0 else cx[CX_COLOR]) if wild else _KCOLOR[last]
    follow = 0
    for i in range(nrem):
        if _KCOLOR[rem[i]] == color_after:
            follow += 1
    nxt = cx[CX_NXT]
    opp_nxt = _opponent(tb, me, nxt)
    threat = _urgency(st, t, nxt) if opp_nxt else 0
    v = 2.0 * shed + W_FOLLOW * follow
    if opp_nxt and color_after >= 0 and (cx[CX_VOID + nxt] >> color_after) & 1:
        v += W_VOID * (1.0 + 0.3 * threat)
    if wild:
        v -= opt[O_WILD_KEEP] if nrem > 1 else 0.5
        if last == WILD4:
            v += 0.6 + 0.9 * threat
            if color >= 0 and _is_bluff(tb, tr, t):
                p_chal = (stats[ST_TC] + 1.0) / (stats[ST_TC] + stats[ST_TA] + 2.0)
                v -= opt[O_BLUFF] * p_chal * 12.0 + 0.5
        elif last == WILD_HYPER:
            v += 0.4 * follow
        elif last == WILD_NATURE:
            lacking = 0
            for s in range(n):
                if _opponent(tb, me, s) and color_after >= 0 \
                        and (cx[CX_VOID + s] >> color_after) & 1:
                    lacking += 1
            v += 0.8 * lacking + 0.2 * follow
        elif last == WILD_ATTACK and tb.a_target[aid] >= 0:
            v += 0.5 + 0.8 * _urgency(st, t, tb.a_target[aid])
        elif last == WILD and tb.a_power[aid] != POWER_NONE:
            v -= 1.5
    elif rank == SKIP or rank == REVERSE:
        if two:
            v += W_EXTRA
        elif rank == SKIP or nc % 2:
            if rank == SKIP:
                v += 0.2 + 0.6 * threat
            else:
                prev = cx[CX_PREV]
                prev_threat = _urgency(st, t, prev) if _opponent(tb, me, prev) else 0
                v += 0.4 * (threat - prev_threat)
    elif rank == DRAW2:
        v += (W_EXTRA + 0.2 if two else 0.6) + 0.6 * threat
    elif rank == HIT2:
        v += (W_EXTRA if two else 0.6) + 0.6 * threat
    if p[R_SEVEN] and not wild:
        if rank == 7 and tb.a_target[aid] >= 0:
            v += 1.5 * (nrem - st.hsize[t, tb.a_target[aid]])
        elif rank == 0:
            v += 1.5 * (nrem - st.hsize[t, cx[CX_PREV]])
    if p[R_NUMFIN]:
        numbers = False
        for i in range(nrem):
            if _IS_NUMBER[rem[i]]:
                numbers = True
                break
        if not numbers:
            v -= 2.5 if nrem <= 2 else 0.5
    if cx[CX_PEND] > 0:
        v += 3.0 + cx[CX_PEND]  # passing a penalty on beats taking it
    return float(v)


@inline
def _is_bluff(tb: Tables, tr: Tracker, t: int) -> bool:
    """Would a Wild Draw Four now break WD4-1 (a card of the active colour in hand)?"""
    if not tb.p[R_CHAL]:
        return False
    color = tr.cx[t, CX_COLOR]
    for i in range(tr.cx[t, CX_NH]):
        k = tr.hand[t, i]
        if k != WILD4 and _KCOLOR[k] == color:
            return True
    return False


@inline
def _best_target(st: State, tb: Tables, t: int, me: int, targets: int) -> int:
    """``HeuristicBot.best_target``: the opponent (else any target) with the fewest cards."""
    opp = 0
    for s in range(core.MAX_PLAYERS):
        if (targets >> s) & 1 and _opponent(tb, me, s):
            opp |= 1 << s
    if not opp:
        opp = targets
    best = -1
    for s in range(core.MAX_PLAYERS):
        if (opp >> s) & 1 and (best < 0 or st.hsize[t, s] < st.hsize[t, best]):
            best = s
    return best


@inline
def _variant(st: State, tb: Tables, tr: Tracker, t: int, var: I32, nv: int) -> int:
    """``HeuristicBot._variant``: among plays of the same cards, the plain one, the colour
    it holds most, the weakest target, the UNO flag."""
    if nv > 1:
        nv = core.prefer_plain(tb, var, nv)
        colors = 0
        for i in range(nv):
            if tb.a_color[var[i]] >= 0:
                colors |= 1 << tb.a_color[var[i]]
        if _bits(colors) > 1:
            nrem = _without(tr, tb, t, int(var[0]))
            c = _best_color(st, tb, tr, t, tr.rem[t], nrem, colors)
            nv = core.keep_equal(var, nv, tb.a_color, c)
        targets = 0
        for i in range(nv):
            if tb.a_target[var[i]] >= 0:
                targets |= 1 << tb.a_target[var[i]]
        if _bits(targets) > 1:
            tg = _best_target(st, tb, t, int(tr.cx[t, CX_ME]), targets)
            nv = core.keep_equal(var, nv, tb.a_target, tg)
    return core.uno_first(tb, var, nv)


@inline
def _best_play(st: State, tb: Tables, tr: Tracker, t: int, ids: I32, m: int, opt: F64,
               stats: I64) -> int:
    """``HeuristicBot.best_play``: plays, then jump-ins, grouped by their cards in order of
    first appearance; each group's variant scored; the first best wins."""
    order = tr.lst[t, 0]
    var = tr.lst[t, 1]
    no = 0
    for verb in (V_PLAY, V_JUMP):
        for i in range(m):
            if tb.a_verb[ids[i]] == verb:
                order[no] = ids[i]
                no += 1
    best = -1
    best_v = -1e9
    for i in range(no):
        g = tr.hgroup[order[i]]
        first = True
        for j in range(i):
            if tr.hgroup[order[j]] == g:
                first = False
                break
        if not first:
            continue
        nv = 0
        for j in range(i, no):
            if tr.hgroup[order[j]] == g:
                var[nv] = order[j]
                nv += 1
        a = _variant(st, tb, tr, t, var, nv)
        v = _play_value(st, tb, tr, t, a, opt, stats)
        if v > best_v:
            best = a
            best_v = v
    return best


@inline
def _p_holds_color(st: State, tb: Tables, tr: Tracker, t: int, seat: int, color: int) -> float:
    """``CardTracker.p_holds_color`` (through ``hidden_layout``): the chance ``seat`` holds a
    card of ``color``, its slots drawn independently from the unseen cards their groups
    allow."""
    n = tb.p[R_N]
    me = tr.cx[t, CX_ME]
    if seat == me:
        return 0.0
    cnt = tr.cnt[t]
    for k in range(NKINDS):
        cnt[k] = tr.dcount[k] - tr.disc[t, k]
    for i in range(st.hsize[t, me]):
        cnt[st.hands[t, me, i]] -= 1
    for k in range(NKINDS):
        if cnt[k] < 0:
            cnt[k] = 0
    holds = False
    free = 0
    for s in range(n):  # known cards, trimmed to what is unseen and to the hand's size
        if s == me:
            continue
        size = st.hsize[t, s]
        kept = 0
        for i in range(tr.nknown[t, me, s]):
            k = tr.known[t, me, s, i]
            if cnt[k] > 0 and kept < size:
                cnt[k] -= 1
                kept += 1
                if s == seat and _KCOLOR[k] == color:
                    holds = True
        if s == seat:
            free = size - kept
    if holds:
        return 1.0
    tg = tr.tg[t]
    ng = 0
    for g in range(tr.ngroups[t, me, seat] - 1, -1, -1):  # the newest groups first
        take = min(tr.gcount[t, me, seat, g], free)
        if take > 0:
            tg[ng, 0] = take
            tg[ng, 1] = tr.gex0[t, me, seat, g]
            tg[ng, 2] = tr.gex1[t, me, seat, g]
            tg[ng, 3] = tr.glen[t, me, seat, g]
            ng += 1
            free -= take
    if free > 0:
        tg[ng, 0] = free
        tg[ng, 1] = 0
        tg[ng, 2] = 0
        tg[ng, 3] = 0
        ng += 1
    for i in range(1, ng):  # a stable sort, most exclusions first
        a0 = tg[i, 0]
        a1 = tg[i, 1]
        a2 = tg[i, 2]
        a3 = tg[i, 3]
        j = i - 1
        while j >= 0 and tg[j, 3] < a3:
            for c in range(4):
                tg[j + 1, c] = tg[j, c]
            j -= 1
        tg[j + 1, 0] = a0
        tg[j + 1, 1] = a1
        tg[j + 1, 2] = a2
        tg[j + 1, 3] = a3
    p_none = 1.0
    for j in range(ng):
        avail = 0
        of_color = 0
        for k in range(NKINDS):
            if cnt[k] and not _has(tg[j, 1], tg[j, 2], k):
                avail += cnt[k]
                if _KCOLOR[k] == color:
                    of_color += cnt[k]
        if avail == 0:
            continue
        q = of_color / avail
        p_none *= float(1.0 - q) ** float(tg[j, 0])  # both floats: C pow, as Python's
    return 1.0 - p_none


@inline
def _should_challenge(st: State, tb: Tables, tr: Tracker, t: int, opt: F64,
                      stats: I64) -> bool:
    """WD4-2: challenge when the chance of guilt beats the break-even m / (T + m)."""
    total = tr.cx[t, CX_PEND]
    w4_seat = tr.tf[t, TF_W4SEAT]
    w4_before = tr.tf[t, TF_W4BEFORE]
    if total <= 0 or w4_seat < 0 or w4_before < 0:
        return False
    p_has = _p_holds_color(st, tb, tr, t, w4_seat, w4_before)
    r = (stats[ST_G] + 2.0) / (stats[ST_G] + stats[ST_I] + 3.0)
    odds = r / (4.0 * (1.0 - r)) * opt[O_CHALLENGE]
    p = p_has * odds / (p_has * odds + (1.0 - p_has) + 1e-9)
    chain = max(1, total // 4)
    return bool(p > chain / (total + chain) - 0.05)


@inline
def _first(tb: Tables, ids: I32, m: int, verb: int) -> int:
    for i in range(m):
        if tb.a_verb[ids[i]] == verb:
            return int(ids[i])
    return -1


@njit
def act(st: State, tb: Tables, tr: Tracker, t: int, seat: int, player: int, opt: F64,
        ids: I32, m: int) -> int:
    """``HeuristicBot.act``: the id the seat (played by ``player``, options ``opt``) chooses
    among the sorted legal ``ids[:m]`` on its turn."""
    _observe(tr, st, tb, t, seat, player)
    if m == 1:
        return int(ids[0])
    stats = tr.stats[t, player]
    for want in (V_CATCH, V_UNO):
        a = _first(tb, ids, m, want)
        if a >= 0:
            return a
    colors = 0
    for i in range(m):
        if tb.a_verb[ids[i]] == V_COLOR:
            colors |= 1 << tb.a_color[ids[i]]
    if colors:
        c = _best_color(st, tb, tr, t, tr.hand[t], int(tr.cx[t, CX_NH]), colors)
        for i in range(m):
            if tb.a_verb[ids[i]] == V_COLOR and tb.a_color[ids[i]] == c:
                return int(ids[i])
    give = -1
    low = 0.0
    for i in range(m):
        if tb.a_verb[ids[i]] == V_GIVE:
            kv = _keep_value(tr, t, int(tb.a_cards[ids[i], 0]))
            if give < 0 or kv < low:
                give = int(ids[i])
                low = kv
    if give >= 0:
        return give
    plays = _first(tb, ids, m, V_PLAY) >= 0 or _first(tb, ids, m, V_JUMP) >= 0
    chal = _first(tb, ids, m, V_CHALLENGE)
    if chal >= 0 and _should_challenge(st, tb, tr, t, opt, stats):
        return chal
    draw = _first(tb, ids, m, V_DRAW)
    pas = _first(tb, ids, m, V_PASS)
    if plays:
        best = _best_play(st, tb, tr, t, ids, m, opt, stats)
        value = _play_value(st, tb, tr, t, best, opt, stats)
        if st.s[t, core.F_PHASE] == core.DRAWN and pas >= 0:
            if _keep_drawn(st, tb, tr, t, best, value):
                return pas
            return best
        if tr.cx[t, CX_PEND] > 0 or value > -2.0 or (draw < 0 and pas < 0):
            return best
    for want in (V_ACCEPT, V_DRAW, V_PASS, V_CHALLENGE):
        a = _first(tb, ids, m, want)
        if a >= 0:
            return a
    return int(ids[0])


@inline
def _keep_value(tr: Tracker, t: int, k: int) -> float:
    """``HeuristicBot.keep_value``: how much a card is worth keeping (to choose gifts)."""
    if k >= NCOLORED:
        return 10.0 + (2.0 if k == WILD4 else 0.0)
    same = 0
    for i in range(tr.cx[t, CX_NH]):
        if _KCOLOR[tr.hand[t, i]] == _KCOLOR[k]:
            same += 1
    base = 3.0 if not _IS_NUMBER[k] else 1.0
    return float(base + 0.5 * same - 0.01 * _POINTS[k])


@inline
def _keep_drawn(st: State, tb: Tables, tr: Tracker, t: int, aid: int, value: float) -> bool:
    """After drawing: keep a drawn wild while the hand is big and nobody is close."""
    last = tb.a_cards[aid, tb.a_ncards[aid] - 1]
    if last < NCOLORED or value > 50:
        return False
    me = tr.cx[t, CX_ME]
    threat = 0
    for s in range(tr.cx[t, CX_N]):
        if _opponent(tb, me, s):
            threat = max(threat, _urgency(st, t, s))
    return bool(tr.cx[t, CX_NH] >= 5 and threat == 0)


@njit
def window(st: State, tb: Tables, tr: Tracker, t: int, seat: int, player: int, opt: F64,
           ids: I32, m: int) -> int:
    """``HeuristicBot.window``: always catch, always call UNO, jump in with the best-scored
    jump-in (UNO-flagged on a tie); -1 declines."""
    for want in (V_CATCH, V_UNO):
        a = _first(tb, ids, m, want)
        if a >= 0:
            return a
    if _first(tb, ids, m, V_JUMP) < 0:
        return -1
    _observe(tr, st, tb, t, seat, player)
    stats = tr.stats[t, player]
    best = -1
    best_v = 0.0
    best_u = 0
    for i in range(m):
        a = int(ids[i])
        if tb.a_verb[a] != V_JUMP:
            continue
        v = _play_value(st, tb, tr, t, a, opt, stats)
        u = tb.a_uno[a]
        if best < 0 or v > best_v or (v == best_v and u > best_u):
            best = a
            best_v = v
            best_u = u
    return best
