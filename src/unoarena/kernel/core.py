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

from typing import Any, NamedTuple

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
from . import mt
from ._jit import inline, njit
from .tables import (
    MULTI_RANKS,
    POWER_LOOK,
    POWER_NONE,
    POWER_SWAP,
    R_2ON4,
    R_4ON2,
    R_BLIND,
    R_BOMB,
    R_CHAL,
    R_DECK,
    R_DOUBLE,
    R_DOUBLESCORE,
    R_DRAWPLAY,
    R_FORCE,
    R_FUNOPEN,
    R_HAND,
    R_HANDLIMIT,
    R_JUMP,
    R_JUMPON,
    R_LAUNCH,
    R_MAXDRY,
    R_MULTI,
    R_N,
    R_NCOL,
    R_NLAUNCH,
    R_NUMFIN,
    R_POWERS,
    R_REV4,
    R_REV_DEALER,
    R_REVENGE,
    R_SAMENUM,
    R_SCORING,
    R_SEVEN,
    R_SILENT,
    R_SNUM,
    R_SPECIAL,
    R_STACK,
    R_STACK4,
    R_SUM,
    R_SW4,
    R_SWC_DEALER,
    R_TEAMCOUNT,
    R_TEAMS,
    R_TIMERPEN,
    R_UNOPEN,
    R_UNTIL,
    R_VDP_MAYNOT,
    R_VOID,
    R_W4FREE,
    R_W4STRICT,
    R_WILDSTART,
    SC_PENALTY,
    SC_WINNER,
    STACK_DRAW2,
    STACK_OFF,
    SUM_OFF,
    SUM_SAME,
    SW4_DEALER,
    SW4_RESHUFFLE,
    V_ACCEPT,
    V_CATCH,
    V_CHALLENGE,
    V_COLOR,
    V_DRAW,
    V_GIVE,
    V_JUMP,
    V_PASS,
    V_PLAY,
    V_TIMEOUT,
    V_UNO,
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
_KCOLOR = np.array([k // 15 if k < NCOLORED else -1 for k in range(NKINDS)], dtype=np.int64)
_KRANK = np.array([k % 15 if k < NCOLORED else 15 + k - NCOLORED for k in range(NKINDS)],
                  dtype=np.int64)
_POINTS = np.array([50 if k >= NCOLORED else (k % 15 if k % 15 <= 9 else
                                              (30 if k % 15 == DISCARD_ALL else 20))
                    for k in range(NKINDS)], dtype=np.int64)


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
@inline
def hand_remove(st: State, t: int, seat: int, k: int) -> None:
    """``list.remove``: the first copy of ``k`` leaves the hand, later cards move up."""
    h = st.hands[t, seat]
    m = st.hsize[t, seat]
    i = 0
    while h[i] != k:
        i += 1
    for j in range(i, m - 1):
        h[j] = h[j + 1]
    st.hsize[t, seat] = m - 1


@inline
def hand_append(st: State, t: int, seat: int, k: int) -> None:
    """``list.append``: card ``k`` joins the end of the seat's hand."""
    m = st.hsize[t, seat]
    st.hands[t, seat, m] = k
    st.hsize[t, seat] = m + 1


@inline
def hand_count(st: State, t: int, seat: int, k: int) -> int:
    """How many copies of card ``k`` the seat holds."""
    c = 0
    for i in range(st.hsize[t, seat]):
        if st.hands[t, seat, i] == k:
            c += 1
    return c


@inline
def mark(lo: int, hi: int, k: int) -> tuple[int, int, bool]:
    """A set of card kinds as two 64-bit words: add ``k``; False if it was there already
    (the reference iterates ``set(hand)``; this visits each kind once without allocating)."""
    bit = 1 << (k & 63)
    if k < 64:
        return lo | bit, hi, not lo & bit
    return lo, hi | bit, not hi & bit


@inline
def note(st: State, t: int, what: int, seat: int, count: int) -> None:
    """Add an entry to the draw log (see ``LOG_CAP``); the count runs on past the capacity, so
    a reader can tell that entries were lost."""
    s = st.s[t]
    i = s[F_NLOG]
    if i < LOG_CAP:
        st.log[t, i] = what + 4 * seat + 64 * count
    s[F_NLOG] = i + 1


@inline
def top(st: State, t: int) -> int:
    """The top card of the discard pile (the last one: piles keep their top at the end)."""
    return int(st.disc[t, st.s[t, F_NDISC] - 1])


@inline
def shuffle(st: State, t: int, cards: I32, m: int) -> None:
    """The reference's Fisher-Yates on ``cards[:m]`` (``j = int(random() * (i + 1))``)."""
    g = st.rng[t]
    for i in range(m - 1, 0, -1):
        j = int(mt.random(g) * (i + 1))
        x = cards[i]
        cards[i] = cards[j]
        cards[j] = x


@inline
def pile_to_bottom(st: State, t: int, card: int) -> None:
    """``pile.insert(0, card)``."""
    s = st.s[t]
    m = s[F_NPILE]
    p = st.pile[t]
    for i in range(m, 0, -1):
        p[i] = p[i - 1]
    p[0] = card
    s[F_NPILE] = m + 1


# =============================================================================================
# set-up (SET-3..5, START-*)
# =============================================================================================
@njit
def deal(st: State, tb: Tables, t: int, seed_lo: int, seed_hi: int, dealer: int) -> None:
    """``Game(rules, seed, dealer)``: clear the table, shuffle, deal, turn the starter."""
    mt.seed_words(st.rng[t], seed_lo, seed_hi)
    deal_seeded(st, tb, t, dealer)


@inline
def deal_seeded(st: State, tb: Tables, t: int, dealer: int) -> None:
    """:func:`deal` with the table's generator already seeded (by :func:`mt.seed_many`)."""
    p = tb.p
    n = p[R_N]
    s = st.s[t]
    for i in range(NFIELDS):
        s[i] = 0
    s[F_DIR] = 1
    s[F_COLOR] = -1
    s[F_RESUME] = -1
    s[F_EXPOSED] = -1
    s[F_LAST] = -1
    s[F_ECOLOR] = -1
    s[F_EOWNER] = -1
    s[F_GIVE_TARGET] = -1
    s[F_AFTER_COLOR] = -1
    s[F_WINNER] = -1
    s[F_DEALER] = dealer
    for i in range(n):
        st.hsize[t, i] = 0
        st.declared[t, i] = 0
        st.points[t, i] = 0
        st.scores[t, i] = 0
    for i in range(NREASONS):
        st.drawn_by[t, i] = 0
    size = p[R_DECK]
    pile = st.pile[t]
    first = (dealer + 1) % n
    while True:
        for i in range(size):
            pile[i] = tb.deck[i]
        shuffle(st, t, pile, size)
        m = size
        for _ in range(p[R_HAND]):
            for i in range(n):
                m -= 1
                hand_append(st, t, (first + i) % n, pile[m])
        s[F_NPILE] = m
        if turn_starter(st, tb, t):
            return
        for i in range(n):  # START-9: no card left may start: a fresh deck, dealt again
            st.hsize[t, i] = 0


@inline
def starter_ok(tb: Tables, card: int) -> bool:
    """May ``card`` stay as the first card (START-5, START-7)?"""
    if tb.p[R_SNUM] and not (card < NCOLORED and _KRANK[card] <= 9):
        return False
    return card != WILD4 or tb.p[R_SW4] == SW4_DEALER or tb.p[R_WILDSTART] != 0


@inline
def turn_starter(st: State, tb: Tables, t: int) -> bool:
    """Turn over the first card and apply START-1..8; False, with nothing turned, when no
    card left in the pile may start (START-9)."""
    p = tb.p
    s = st.s[t]
    n = p[R_N]
    dealer = s[F_DEALER]
    first = (dealer + 1) % n
    while True:
        s[F_NPILE] -= 1
        card = int(st.pile[t, s[F_NPILE]])
        if starter_ok(tb, card):
            break
        pile_to_bottom(st, t, card)  # START-7, ATK-10 and START-5: back to the bottom
        if not (p[R_SNUM] and not (card < NCOLORED and _KRANK[card] <= 9)) \
                and p[R_SW4] == SW4_RESHUFFLE:
            shuffle(st, t, st.pile[t], s[F_NPILE])
        possible = False
        for i in range(s[F_NPILE]):
            if starter_ok(tb, int(st.pile[t, i])):
                possible = True
                break
        if not possible:
            return False
    st.disc[t, 0] = card
    s[F_NDISC] = 1
    s[F_LAST] = dealer
    if card >= NCOLORED:
        stays = p[R_WILDSTART] != 0  # HR-WILDSTART: any wild only names a colour
        chooser = first
        if stays:
            if p[R_SWC_DEALER]:
                chooser = dealer
        elif card == WILD4 or ((card == WILD or card == WILD_ATTACK) and p[R_SWC_DEALER]):
            chooser = dealer
        if card == WILD_NATURE and not stays:
            s[F_EOWNER] = dealer
        s[F_AFTER_COLOR] = first
        s[F_AFTER_PEN] = 4 if card == WILD4 and not stays else 0
        s[F_TURN] = chooser
        s[F_PHASE] = COLOR
        return True
    s[F_COLOR] = _KCOLOR[card]
    s[F_JUMP] = p[R_JUMPON]  # 003: the starter counts as the dealer's play (HR-JUMP, HR-SUM)
    rank = _KRANK[card]
    if rank == REVERSE:  # START-2
        if p[R_REV_DEALER]:  # the dealer's play: reversed, from the dealer's other side
            if n == 2:
                set_turn(st, t, dealer)
            else:
                s[F_DIR] = -1
                set_turn(st, t, (dealer - 1) % n)
            return True
        if n == 2:
            set_turn(st, t, dealer)
        else:
            s[F_DIR] = -1
            set_turn(st, t, dealer)
        return True
    if rank == SKIP:  # START-3
        set_turn(st, t, (first + 1) % n)
        return True
    if rank == DRAW2 or rank == HIT2:  # START-1, START-8
        start_penalty(st, tb, t, first, 2, P_D2 if rank == DRAW2 else P_H2)
        return True
    set_turn(st, t, first)
    return True


@inline
def start_penalty(st: State, tb: Tables, t: int, target: int, amount: int, kind: int) -> None:
    """A penalty on the first player from the starter, counted as the dealer's play."""
    s = st.s[t]
    if answerable(st, tb, t, kind):
        s[F_PEND] = amount
        s[F_PKIND] = kind
        set_turn(st, t, target)
        return
    penalize(st, tb, t, target, amount, D_STARTER)
    if s[F_PHASE] == OVER:
        return
    set_turn(st, t, (target + s[F_DIR]) % tb.p[R_N])


# =============================================================================================
# legal actions
# =============================================================================================
@inline
def keep_equal(ids: Any, m: int, column: Any, value: int) -> int:
    """Keep, in order, the ids of ``ids[:m]`` whose entry in an action column (``tb.a_color``,
    ``tb.a_target``...) is ``value``; returns how many (the bots' choice among variants)."""
    k = 0
    for i in range(m):
        if column[ids[i]] == value:
            ids[k] = ids[i]
            k += 1
    return k


@inline
def prefer_plain(tb: Tables, ids: Any, m: int) -> int:
    """Keep the plays of ``ids[:m]`` that use no edition power, if there are any (the bots play
    a card plainly unless only its power is offered)."""
    for i in range(m):
        if tb.a_power[ids[i]] == POWER_NONE:
            return keep_equal(ids, m, tb.a_power, POWER_NONE)
    return m


@inline
def uno_first(tb: Tables, ids: Any, m: int) -> int:
    """The first UNO-flagged id of ``ids[:m]``, else the first (the bots call UNO)."""
    for i in range(m):
        if tb.a_uno[ids[i]]:
            return int(ids[i])
    return int(ids[0])


@inline
def legal(st: State, tb: Tables, t: int, seat: int, out: I32) -> int:
    """Write the sorted legal ids of ``seat`` to ``out``; return how many."""
    s = st.s[t]
    if s[F_PHASE] == OVER:
        return 0
    m = 0
    if seat == s[F_TURN]:
        m = turn_ids(st, tb, t, seat, out, m)
    if s[F_EXPOSED] >= 0 or s[F_JUMP]:
        m = window_ids(st, tb, t, seat, out, m)
    # insertion sort: the lists are short and nearly sorted
    for i in range(1, m):
        x = out[i]
        j = i - 1
        while j >= 0 and out[j] > x:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = x
    return m


@inline
def window_seats(st: State, tb: Tables, t: int, out: I64, buf: I32) -> int:
    """Seats other than the turn seat with an open window, from the last actor's left."""
    s = st.s[t]
    if s[F_PHASE] == OVER:
        return 0
    if s[F_EXPOSED] < 0 and not s[F_JUMP]:
        return 0
    n = tb.p[R_N]
    start = s[F_LAST] if s[F_LAST] >= 0 else s[F_TURN]
    m = 0
    for i in range(1, n + 1):
        seat = (start + i) % n
        if seat != s[F_TURN] and window_ids(st, tb, t, seat, buf, 0) > 0:
            out[m] = seat
            m += 1
    return m


@inline
def window_ids(st: State, tb: Tables, t: int, seat: int, out: I32, m: int) -> int:
    """Write the seat's out-of-turn ids at ``out[m:]``: its late UNO call or a catch of the exposed
    seat (UNO-2), and any jump-ins (HR-JUMP, HR-SUM); return the new count."""
    s = st.s[t]
    ex = s[F_EXPOSED]
    if ex >= 0:
        if ex == seat:
            out[m] = A_UNO
        else:
            out[m] = A_COLOR0 + tb.p[R_NCOL] + ex
        m += 1
    if s[F_JUMP] and seat != s[F_LAST]:
        if seat != s[F_TURN]:
            m = jump_ids(st, tb, t, seat, False, out, m)
        elif s[F_PHASE] == PLAY and not s[F_PEND]:
            m = jump_ids(st, tb, t, seat, True, out, m)
    return m


@inline
def jump_ids(st: State, tb: Tables, t: int, seat: int, sums_only: bool, out: I32,
             m: int) -> int:
    """HR-JUMP and HR-SUM: plays out of turn on the card just played; the turn seat
    (``sums_only``) may make a sum play, never an identical card's jump-in."""
    s = st.s[t]
    p = tb.p
    tp = top(st, t)
    if tp >= NCOLORED:
        return m
    lock = s[F_EFFECT] == E_LOCK and seat != s[F_EOWNER]
    if p[R_JUMP] and not sums_only:
        seen_lo = 0
        seen_hi = 0
        for i in range(-1, s[F_NALT]):
            k = tp if i < 0 else int(st.alt[t, i])
            seen_lo, seen_hi, fresh = mark(seen_lo, seen_hi, k)
            if not fresh:
                continue
            if hand_count(st, t, seat, k) and (not lock or _KCOLOR[k] == s[F_ECOLOR]):
                if tb.jump7[k] >= 0:  # HR-SEVEN-ZERO: a 7 names the seat to swap with
                    for tg in range(p[R_N]):
                        if tg != seat:
                            m = add_play(st, tb, t, seat, tb.jump7[k] + 2 * tg, 1, k, 0,
                                         False, out, m)
                else:
                    m = add_play(st, tb, t, seat, tb.jump1[k], 1, k, 0, False, out, m)
    if p[R_SUM] != SUM_OFF and _KRANK[tp] <= 9:
        total = _KRANK[tp]
        ncol = p[R_NCOL]
        for ci in range(ncol):
            c = tb.colors[ci]
            if p[R_SUM] == SUM_SAME and c != _KCOLOR[tp]:
                continue
            if lock and c != s[F_ECOLOR]:
                continue
            cnt = st.tmp[t, 0:10]
            for r in range(10):
                cnt[r] = 0
            for i in range(st.hsize[t, seat]):
                k = st.hands[t, seat, i]
                if k < NCOLORED and _KCOLOR[k] == c and _KRANK[k] <= 9:
                    cnt[_KRANK[k]] += 1
            for j in range(tb.sum_n[ci, total]):
                ok = True
                ncards = 0
                last = 0
                for r in range(10):
                    need = tb.sum_vec[ci, total, j, r]
                    if need > cnt[r]:
                        ok = False
                        break
                    if need:
                        ncards += need
                        last = r
                if ok:
                    m = add_play(st, tb, t, seat, tb.sum_ids[ci, total, j], ncards,
                                 c * 15 + last, 0, False, out, m)
    return m


@inline
def add_play(st: State, tb: Tables, t: int, seat: int, aid: int, ncards: int, last: int,
             gone: int, pair: bool, out: I32, m: int) -> int:
    """A play and its UNO-flagged twin where it leaves one card; plays that break number
    finish (HR-NUMFIN, ATK-6) or HR-DOUBLE's UNO rule are refused. ``gone``: the colours a
    discard-all takes with it (a bit per colour)."""
    p = tb.p
    left = da_gone_left(st, t, seat, gone) if gone else st.hsize[t, seat] - ncards
    if left == 0:
        if p[R_NUMFIN] and not (last < NCOLORED and _KRANK[last] <= 9) and last != WILD_ATTACK:
            return m
        if p[R_DOUBLE] and pair and not p[R_SILENT]:
            out[m] = aid + 1
            return m + 1
        out[m] = aid
        return m + 1
    out[m] = aid
    m += 1
    if left == 1 and not p[R_SILENT]:
        out[m] = aid + 1
        m += 1
    return m


@inline
def matches(st: State, t: int, k: int, seat: int) -> bool:
    """TURN-1 matching, with the Forces of Nature lock (FRZ-1)."""
    s = st.s[t]
    if s[F_EFFECT] == E_LOCK and seat != s[F_EOWNER]:
        return bool(_KCOLOR[k] == s[F_ECOLOR])
    if k >= NCOLORED:
        return True
    if _KCOLOR[k] == s[F_COLOR]:
        return True
    r = _KRANK[k]
    if r == _KRANK[top(st, t)]:
        return True
    for i in range(s[F_NALT]):
        if _KRANK[st.alt[t, i]] == r:
            return True
    return False


@inline
def w4_ok(st: State, t: int, seat: int) -> bool:
    """WD4-1: no card of the active colour in hand."""
    color = st.s[t, F_COLOR]
    for i in range(st.hsize[t, seat]):
        if _KCOLOR[st.hands[t, seat, i]] == color:
            return False
    return True


@inline
def da_gone_left(st: State, t: int, seat: int, gone: int) -> int:
    """How many cards a discard-all taking the colours ``gone`` leaves (ATK-7)."""
    left = 0
    for i in range(st.hsize[t, seat]):
        c = _KCOLOR[st.hands[t, seat, i]]
        if c < 0 or not (gone >> c) & 1:
            left += 1
    return left


@inline
def turn_ids(st: State, tb: Tables, t: int, seat: int, out: I32, m: int) -> int:
    """Write the turn seat's ids at ``out[m:]`` for the phase: answers to a pending penalty, draw
    and the hand's plays, pass and the drawn card's plays, a colour, or a card to give; return
    the new count."""
    s = st.s[t]
    phase = s[F_PHASE]
    if phase == PLAY:
        if s[F_PEND]:
            return answer_ids(st, tb, t, seat, out, m)
        m0 = m
        m = play_ids(st, tb, t, seat, st.hands[t, seat], st.hsize[t, seat], True, out, m)
        if not (tb.p[R_FORCE] and m > m0):  # HR-FORCE: no draw beside a play
            out[m] = A_DRAW
            m += 1
        return m
    if phase == DRAWN:
        m0 = m
        m = play_ids(st, tb, t, seat, st.drawn[t], s[F_NDRAWN], False, out, m)
        if not (tb.p[R_DRAWPLAY] and m > m0):  # HR-DRAWPLAY: no keeping
            out[m] = A_PASS
            m += 1
        return m
    if phase == COLOR:
        for i in range(tb.p[R_NCOL]):
            out[m] = A_COLOR0 + i
            m += 1
        return m
    if phase == GIVE:
        seen_lo = 0
        seen_hi = 0
        for i in range(st.hsize[t, seat]):
            k = int(st.hands[t, seat, i])
            seen_lo, seen_hi, fresh = mark(seen_lo, seen_hi, k)
            if not fresh:
                continue
            out[m] = tb.give[k]
            m += 1
    return m


@inline
def play_ids(st: State, tb: Tables, t: int, seat: int, cards: I32, ncards: int, is_hand: bool,
             out: I32, m: int) -> int:
    """Every legal play from ``cards`` (the hand, or the drawn cards)."""
    s = st.s[t]
    p = tb.p
    n = p[R_N]
    lock = s[F_EFFECT] == E_LOCK and seat != s[F_EOWNER]
    seen_lo = 0
    seen_hi = 0
    for i in range(ncards):
        k = int(cards[i])
        seen_lo, seen_hi, fresh = mark(seen_lo, seen_hi, k)
        if not fresh:
            continue
        if lock:
            if _KCOLOR[k] != s[F_ECOLOR]:
                continue
        elif not matches(st, t, k, seat):
            continue
        if k < NCOLORED:
            r = _KRANK[k]
            if r == DISCARD_ALL and da_gone_left(st, t, seat, 1 << _KCOLOR[k]) == 0:
                continue
            gone = (1 << _KCOLOR[k]) if r == DISCARD_ALL else 0
            if r == 7 and p[R_SEVEN]:
                base = tb.play7[k]
                for tg in range(n):
                    if tg != seat:
                        m = add_play(st, tb, t, seat, base + 2 * tg, 1, k, 0, False, out, m)
            else:
                m = add_play(st, tb, t, seat, tb.play1[k], 1, k, gone, False, out, m)
            # double[k] is -1 for a kind played alone (a 7 or a 0 under seven-zero)
            if p[R_DOUBLE] and is_hand and tb.double[k] >= 0 \
                    and hand_count(st, t, seat, k) >= 2:
                m = add_play(st, tb, t, seat, tb.double[k], 2, k, gone, True, out, m)
            if (p[R_MULTI] or (p[R_SAMENUM] and r <= 9)) and is_hand and not alone(tb, k):
                m = multi_ids(st, tb, t, seat, k, lock, False, out, m)
        else:
            if k == WILD4 and p[R_W4STRICT] and not w4_ok(st, t, seat):
                continue
            if k == WILD_ATTACK:
                for ci in range(p[R_NCOL]):
                    base = tb.wa[tb.colors[ci]]
                    for tg in range(n):
                        if tg != seat:
                            m = add_play(st, tb, t, seat, base + 2 * tg, 1, k, 0, False, out, m)
                continue
            for ci in range(p[R_NCOL]):
                m = add_play(st, tb, t, seat, tb.wild[k, tb.colors[ci]], 1, k, 0, False, out, m)
            if k == WILD and p[R_POWERS] and st.hsize[t, seat] != 1:
                for pw in range(2):
                    base = tb.power[pw]
                    for tg in range(n):
                        if tg != seat:
                            m = add_play(st, tb, t, seat, base + 2 * tg, 1, k, 0, False, out, m)
    return m


@inline
def alone(tb: Tables, k: int) -> bool:
    """HR-SEVEN-ZERO: a 7 or a 0 is always played alone (``engine.actions.alone``)."""
    return bool(tb.p[R_SEVEN] and k < NCOLORED and (_KRANK[k] == 7 or _KRANK[k] == 0))


@inline
def multi_ids(st: State, tb: Tables, t: int, seat: int, first: int, lock: bool, answers: bool,
              out: I32, m: int) -> int:
    """ATK-4 plays starting with ``first``: copies of one number, or action cards of one rank
    in any colours (first, the middle ones in order, last). With ``answers`` only plays whose
    every card may answer the pending penalty; under a Forces of Nature ``lock`` only cards of
    the locked colour (FRZ-1). HR-SAMENUM: numbers of one number in any colours, as action
    cards are."""
    p = tb.p
    if _KRANK[first] <= 9 and not p[R_SAMENUM]:
        c = hand_count(st, t, seat, first)
        for size in range(2, c + 1):
            m = add_play(st, tb, t, seat, tb.nummulti[first, size], size, first, 0, False, out,
                         m)
        return m
    rank = _KRANK[first]
    ncol = p[R_NCOL]
    cnt = st.tmp[t, 16:20]
    for ci in range(4):
        cnt[ci] = 0
    for i in range(st.hsize[t, seat]):
        k = st.hands[t, seat, i]
        if k < NCOLORED and _KRANK[k] == rank:
            cnt[tb.slot[_KCOLOR[k]]] += 1
    fs = tb.slot[_KCOLOR[first]]
    cnt[fs] -= 1
    if lock:
        for ci in range(ncol):
            if tb.colors[ci] != st.s[t, F_ECOLOR]:
                cnt[ci] = 0
    if answers:
        for ci in range(ncol):
            if cnt[ci] and not is_answer(st, tb, t, int(tb.colors[ci]) * 15 + rank, seat):
                cnt[ci] = 0
    mid = st.tmp[t, 20:24]
    for ls in range(ncol):
        if cnt[ls] == 0:
            continue
        cnt[ls] -= 1
        for ci in range(4):
            mid[ci] = 0
        while True:
            code = 0
            size = 2
            gone = (1 << tb.colors[fs]) | (1 << tb.colors[ls])
            w = 1
            for ci in range(4):
                code += mid[ci] * w
                w *= 3
                size += mid[ci]
                if mid[ci]:
                    gone |= 1 << tb.colors[ci]
            aid = tb.multi[rank, fs, ls, code]
            if aid >= 0:
                last = int(tb.colors[ls]) * 15 + rank
                if rank == DISCARD_ALL:
                    if da_gone_left(st, t, seat, gone) > 0:
                        m = add_play(st, tb, t, seat, aid, size, last, gone, False, out, m)
                else:
                    m = add_play(st, tb, t, seat, aid, size, last, 0, False, out, m)
            # next middle vector (odometer over the four colours)
            ci = 0
            while ci < ncol:
                if mid[ci] < cnt[ci]:
                    mid[ci] += 1
                    break
                mid[ci] = 0
                ci += 1
            if ci == ncol:
                break
        cnt[ls] += 1
    return m


@inline
def answerable(st: State, tb: Tables, t: int, kind: int) -> bool:
    """EFF-0: do the rules give a penalty of this kind any answer?"""
    p = tb.p
    if kind == P_D2:
        return bool(p[R_STACK] != STACK_OFF)
    if kind == P_W4:
        return bool(p[R_STACK4] or p[R_REV4] or p[R_2ON4]
                    or (p[R_CHAL] and not st.s[t, F_NOCHAL]))
    return kind == P_H2 or kind == P_WA


@inline
def is_answer(st: State, tb: Tables, t: int, k: int, seat: int) -> bool:
    """May card ``k`` answer the pending penalty (HR-STACK, HR-STACK4, HR-4ON2, HR-REV4,
    HR-2ON4, ATK-8/9)?"""
    s = st.s[t]
    p = tb.p
    kind = s[F_PKIND]
    if s[F_EFFECT] == E_LOCK and seat != s[F_EOWNER] and _KCOLOR[k] != s[F_ECOLOR]:
        return False
    if kind == P_D2:
        if k == WILD4:
            return bool(p[R_4ON2])
        r = _KRANK[k]
        if p[R_STACK] == STACK_DRAW2:
            return bool(r == DRAW2)
        if k < NCOLORED and (r == SKIP or r == REVERSE or r == DRAW2):
            return bool(_KCOLOR[k] == s[F_COLOR] or r == _KRANK[top(st, t)])
        return False
    if kind == P_W4:
        if k == WILD4:
            return bool(p[R_STACK4])
        if k < NCOLORED and _KRANK[k] == REVERSE and p[R_REV4]:  # HR-REV4: named colour
            return bool(_KCOLOR[k] == s[F_COLOR] or _KRANK[top(st, t)] == REVERSE)
        if k < NCOLORED and _KRANK[k] == DRAW2 and p[R_2ON4]:  # HR-2ON4: named colour
            return bool(_KCOLOR[k] == s[F_COLOR] or _KRANK[top(st, t)] == DRAW2)
        return False
    if kind == P_H2:
        return k < NCOLORED and _KRANK[k] == HIT2
    if kind == P_WA:  # a Hit 2 of the named colour, or an attack-attack
        if k == WILD_ATTACK:  # an attack-attack of one's own, unless it is the last card
            return bool(st.hsize[t, seat] > 1)
        return bool(k < NCOLORED and _KRANK[k] == HIT2 and _KCOLOR[k] == s[F_COLOR])
    return False


@inline
def answer_ids(st: State, tb: Tables, t: int, seat: int, out: I32, m: int) -> int:
    """Write the ids of a seat facing a pending penalty at ``out[m:]`` (EFF-0): challenge and accept
    for a challengeable W4 (WD4-2), else draw, then every card that answers it (HR-STACK,
    HR-STACK4, HR-4ON2, ATK-8, ATK-9); return the new count."""
    s = st.s[t]
    p = tb.p
    if s[F_PKIND] == P_W4 and p[R_CHAL] and not s[F_NOCHAL]:
        out[m] = A_CHALLENGE
        out[m + 1] = A_ACCEPT
        m += 2
    else:
        out[m] = A_DRAW
        m += 1
    seen_lo = 0
    seen_hi = 0
    for i in range(st.hsize[t, seat]):
        k = int(st.hands[t, seat, i])
        seen_lo, seen_hi, fresh = mark(seen_lo, seen_hi, k)
        if not fresh:
            continue
        if not is_answer(st, tb, t, k, seat):
            continue
        if k == WILD4:
            for ci in range(p[R_NCOL]):
                m = add_play(st, tb, t, seat, tb.wild[k, tb.colors[ci]], 1, k, 0, False, out, m)
            continue
        if k == WILD_ATTACK:
            for ci in range(p[R_NCOL]):
                base = tb.wa[tb.colors[ci]]
                for tg in range(p[R_N]):
                    if tg != seat:
                        m = add_play(st, tb, t, seat, base + 2 * tg, 1, k, 0, False, out, m)
            continue
        m = add_play(st, tb, t, seat, tb.play1[k], 1, k, 0, False, out, m)
        if p[R_DOUBLE] and tb.double[k] >= 0 and hand_count(st, t, seat, k) >= 2:
            m = add_play(st, tb, t, seat, tb.double[k], 2, k, 0, True, out, m)
        if p[R_MULTI] and not alone(tb, k):
            m = multi_ids(st, tb, t, seat, k, False, True, out, m)
    return m


# =============================================================================================
# applying actions
# =============================================================================================
@inline
def step(st: State, tb: Tables, t: int, aid: int, seat: int) -> None:
    """Apply a legal action id for a seat (the reference's ``Game.step``)."""
    s = st.s[t]
    s[F_NACTIONS] += 1
    v = tb.a_verb[aid]
    if v == V_PLAY:
        s[F_EXPOSED] = -1
        s[F_JUMP] = 0
        play(st, tb, t, seat, aid, False)
    elif v == V_DRAW:
        s[F_EXPOSED] = -1
        s[F_JUMP] = 0
        draw_action(st, tb, t, seat)
    elif v == V_PASS:
        s[F_EXPOSED] = -1
        s[F_JUMP] = 0
        advance(st, tb, t, seat, 0)
    elif v == V_CATCH:
        catch(st, tb, t, seat, tb.a_target[aid])
    elif v == V_UNO:
        uno(st, tb, t, seat)
    elif v == V_COLOR:
        name_starter_color(st, tb, t, tb.a_color[aid])
    elif v == V_GIVE:
        give(st, tb, t, seat, tb.a_cards[aid, 0])
    else:
        s[F_EXPOSED] = -1
        s[F_JUMP] = 0
        if v == V_JUMP:
            play(st, tb, t, seat, aid, True)
        elif v == V_CHALLENGE:
            challenge(st, tb, t, seat)
        elif v == V_ACCEPT:
            take_pending(st, tb, t, seat)
        elif v == V_TIMEOUT:
            timeout(st, tb, t, seat)


@inline
def set_turn(st: State, t: int, seat: int) -> None:
    """Give the turn to ``seat`` in the play phase, ending a forces-of-nature lock when its owner's
    turn comes (FRZ-2)."""
    s = st.s[t]
    s[F_TURN] = seat
    s[F_PHASE] = PLAY
    if s[F_EFFECT] == E_LOCK and seat == s[F_EOWNER]:  # FRZ-2
        s[F_EFFECT] = E_NONE


@inline
def advance(st: State, tb: Tables, t: int, seat: int, skips: int) -> None:
    """Pass the turn from ``seat`` to the next seat in the direction of play, jumping ``skips`` more
    seats (SEAT-2, EFF-3); ends a lock as :func:`set_turn` does."""
    s = st.s[t]
    n = tb.p[R_N]
    d = s[F_DIR]
    nxt = (seat + d) % n
    for _ in range(skips):
        nxt = (nxt + d) % n
    s[F_NDRAWN] = 0
    s[F_TURN] = nxt
    s[F_PHASE] = PLAY
    if s[F_EFFECT] == E_LOCK and nxt == s[F_EOWNER]:  # FRZ-2
        s[F_EFFECT] = E_NONE


@inline
def refill(st: State, tb: Tables, t: int) -> bool:
    """TURN-6: the discard pile but its top becomes the draw pile; False if void."""
    s = st.s[t]
    if tb.p[R_VOID] and not s[F_CLOSING]:
        end_void(st, tb, t, REASON_VOID)
        return False
    nd = s[F_NDISC]
    if nd <= 1:
        return False
    tp = st.disc[t, nd - 1]
    pile = st.pile[t]
    disc = st.disc[t]
    for i in range(nd - 1):
        pile[i] = disc[i]
    disc[0] = tp
    s[F_NDISC] = 1
    shuffle(st, t, pile, nd - 1)
    s[F_NPILE] = nd - 1
    note(st, t, LOG_RESHUFFLE, 0, 0)
    return True


@inline
def take(st: State, tb: Tables, t: int, seat: int, count: int, reason: int) -> int:
    """Move up to ``count`` cards from the draw pile to the end of a hand; how many moved
    (counted under ``reason``, one of :data:`DRAW_REASONS`); never past HR-HANDLIMIT."""
    s = st.s[t]
    got = 0
    limit = tb.p[R_HANDLIMIT]
    if limit:
        count = min(count, limit - st.hsize[t, seat])
    for _ in range(count):
        if s[F_NPILE] == 0 and (s[F_PHASE] == OVER or not refill(st, tb, t)):
            break
        s[F_NPILE] -= 1
        hand_append(st, t, seat, st.pile[t, s[F_NPILE]])
        got += 1
    if got:
        st.drawn_by[t, reason] += got
        st.declared[t, seat] = 0
        if s[F_EXPOSED] == seat:
            s[F_EXPOSED] = -1
    return got


@inline
def sample(probs: F64, lo: int, x: float) -> int:
    """The index i (from ``lo``) where the running sum of ``probs[lo:]`` first exceeds ``x``."""
    for i in range(lo, len(probs)):
        x -= probs[i]
        if x < 0:
            return i - lo
    return len(probs) - 1 - lo


@inline
def press(st: State, tb: Tables, t: int, seat: int, reason: int) -> int:
    """ATK-2: one press of the launcher ejects k cards; how many reached the hand."""
    s = st.s[t]
    p = tb.p
    g = st.rng[t]
    if p[R_MAXDRY] >= 0 and s[F_DRY] >= p[R_MAXDRY]:
        total = 0.0
        for i in range(1, p[R_NLAUNCH]):
            total += tb.launcher[i]
        k = 1 + sample(tb.launcher, 1, mt.random(g) * total)
    else:
        k = sample(tb.launcher, 0, mt.random(g))
    if s[F_NPILE] == 0 and s[F_PHASE] != OVER:
        refill(st, tb, t)
    k = min(k, s[F_NPILE])
    s[F_DRY] = s[F_DRY] + 1 if k == 0 else 0
    got = take(st, tb, t, seat, k, reason) if k else 0
    note(st, t, LOG_TURN if reason == D_TURN else LOG_DRAW, seat, got)
    return got


@inline
def penalize(st: State, tb: Tables, t: int, seat: int, amount: int, reason: int) -> None:
    """A penalty of ``amount`` cards (Attack: presses of the launcher)."""
    if tb.p[R_LAUNCH]:
        for _ in range(amount):
            if st.s[t, F_PHASE] == OVER:
                break
            press(st, tb, t, seat, reason)
        return
    note(st, t, LOG_DRAW, seat, take(st, tb, t, seat, amount, reason))


@inline
def play(st: State, tb: Tables, t: int, seat: int, aid: int, jump: bool) -> None:
    """Play action ``aid``'s cards for ``seat`` (on its turn, or out of turn when ``jump``):
    discard, colour, UNO declaration or exposure (UNO-1), the round's end and every card effect,
    in the reference's order."""
    s = st.s[t]
    p = tb.p
    n = p[R_N]
    nc = tb.a_ncards[aid]
    cards = tb.a_cards[aid]
    last = int(cards[nc - 1])
    guilty = 0
    before = s[F_COLOR]
    if last == WILD4:  # WD4-1 guilt, judged on the hand before the play
        for i in range(st.hsize[t, seat]):
            k = st.hands[t, seat, i]
            if k != WILD4 and _KCOLOR[k] == before:
                guilty = 1
                break
    rank = _KRANK[last]
    single = nc == 1 and rank != DISCARD_ALL
    if single:
        hand_remove(st, t, seat, last)
        st.disc[t, s[F_NDISC]] = last
        s[F_NDISC] += 1
    else:
        for i in range(nc):
            hand_remove(st, t, seat, cards[i])
    if last >= NCOLORED:
        if tb.a_power[aid] == POWER_NONE:
            s[F_COLOR] = tb.a_color[aid]
    else:
        s[F_COLOR] = _KCOLOR[last]
    if not single:
        if rank == DISCARD_ALL:  # ATK-7: the colour's cards go under the DA
            gone = 0
            for i in range(nc):
                if _KRANK[cards[i]] == DISCARD_ALL:
                    gone |= 1 << _KCOLOR[cards[i]]
            h = st.hands[t, seat]
            keep = 0
            nd = s[F_NDISC]
            for i in range(st.hsize[t, seat]):
                k = h[i]
                c = _KCOLOR[k]
                if c >= 0 and (gone >> c) & 1:
                    st.disc[t, nd] = k
                    nd += 1
                else:
                    h[keep] = k
                    keep += 1
            st.hsize[t, seat] = keep
            s[F_NDISC] = nd
        for i in range(nc):
            st.disc[t, s[F_NDISC]] = cards[i]
            s[F_NDISC] += 1
        if jump:
            for i in range(nc - 1):
                st.alt[t, i] = cards[i]
            s[F_NALT] = nc - 1
        else:
            s[F_NALT] = 0
    else:
        s[F_NALT] = 0
    passer = s[F_LAST]  # who passed a pending total on to this seat (HR-REVENGE)
    s[F_LAST] = seat
    s[F_NDRAWN] = 0
    left = st.hsize[t, seat]
    if left == 1:
        if not p[R_SILENT]:  # HR-SILENT: nobody declares, nobody is caught
            st.declared[t, seat] = tb.a_uno[aid]
            if not tb.a_uno[aid]:
                s[F_EXPOSED] = seat
    elif st.declared[t, seat]:
        st.declared[t, seat] = 0
    if p[R_JUMPON] and last < NCOLORED:
        s[F_JUMP] = 1

    # -- effects (EFF-*, TWO-1, BUZZ-2, ATK-*, HR-*) ------------------------------------------
    answering = s[F_PEND] > 0
    count = nc
    skips = 0
    penalty = 0
    kind = s[F_PKIND]
    if rank <= 9:
        pass
    elif rank == SKIP:
        skips = 1 if p[R_DOUBLE] and count == 2 and not jump else count
    elif rank == REVERSE:
        flips = 0 if p[R_DOUBLE] and count == 2 and not jump else count
        if n == 2:
            skips = flips
        elif flips % 2:
            s[F_DIR] = -s[F_DIR]
    elif rank == DRAW2:
        penalty = 2 * count
        kind = kind if kind == P_W4 else P_D2
    elif rank == HIT2:
        penalty = 2 * count
        kind = P_H2
        s[F_RESUME] = -1
    elif last == WILD4:
        penalty = 4
        kind = P_W4
        s[F_NOCHAL] = 0
        if not answering or s[F_PKIND] != P_W4:
            s[F_NCHAIN] = 0
        ci = s[F_NCHAIN]
        st.chain[t, ci, 0] = seat
        st.chain[t, ci, 1] = guilty
        st.chain[t, ci, 2] = before
        s[F_NCHAIN] = ci + 1
    if answering and kind == P_W4 and last != WILD4:
        s[F_NOCHAL] = 1  # HR-REV4, HR-2ON4: passed on by another card, no more challenge
        s[F_NCHAIN] = 0  # a W4 stacked later starts the only run that can be judged
    if answering and n == 2 and (rank == SKIP or rank == REVERSE):
        skips = 0  # HR-STACK: with two players S and R pass the total to the opponent
    xskip = 0
    if s[F_EFFECT] == E_HYPER:  # BUZZ-2: a skip per card of the colour, in the order laid
        for i in range(nc):
            k = cards[i]
            if k < NCOLORED and _KCOLOR[k] == s[F_ECOLOR]:
                xskip += 1
            else:
                s[F_EFFECT] = E_NONE
                break
    if last >= NCOLORED and left:
        if last == WILD_HYPER:  # BUZZ-1
            s[F_EFFECT] = E_HYPER
            s[F_ECOLOR] = s[F_COLOR]
        elif last == WILD_NATURE:  # FRZ-1
            s[F_EFFECT] = E_LOCK
            s[F_ECOLOR] = s[F_COLOR]
            s[F_EOWNER] = seat

    if count >= 3 and rank <= 9 and not jump and p[R_BOMB]:
        # HR-BOMB: every other player draws one, from the next; before the round can end
        if left == 0:
            s[F_CLOSING] = 1
        for i in range(1, n):
            penalize(st, tb, t, (seat + s[F_DIR] * i) % n, 1, D_BOMB)
            if s[F_PHASE] == OVER:
                return
    d = s[F_DIR]
    if left == 0:  # END-1, END-2: the next player first takes what this play gave them
        total = s[F_PEND] + penalty
        s[F_PEND] = 0
        s[F_PKIND] = P_NONE
        if total and last != WILD_ATTACK:
            target = (seat + d) % n
            for _ in range(skips):
                target = (target + d) % n
            if answering and not penalty and target == passer and p[R_REVENGE]:
                total *= 2  # HR-REVENGE
            s[F_CLOSING] = 1  # END-2 draws reshuffle but never void the round
            penalize(st, tb, t, target, total, D_LAST_CARD)
        end_round(st, tb, t, seat)
        return

    if p[R_SPECIAL] and special_effects(st, tb, t, seat, aid, last, rank, left):
        return
    if penalty or answering:
        if penalty:
            s[F_PEND] += penalty
            s[F_PKIND] = kind
        target = (seat + d) % n
        for _ in range(skips):
            target = (target + d) % n
        if answering and not penalty and target == passer and p[R_REVENGE]:
            s[F_PEND] *= 2  # HR-REVENGE: a Skip or Reverse sent the total back: it doubles
        s[F_XSKIP] = xskip
        if not penalty or answerable(st, tb, t, kind):
            set_turn(st, t, target)
            return
        total = s[F_PEND]  # EFF-0: no answer possible, carried out at once
        s[F_PEND] = 0
        s[F_PKIND] = P_NONE
        s[F_XSKIP] = 0
        penalize(st, tb, t, target, total, D_PKIND + kind)
        if s[F_PHASE] == OVER:
            return
        advance(st, tb, t, target, xskip)
        return
    advance(st, tb, t, seat, skips + xskip)


@inline
def special_effects(st: State, tb: Tables, t: int, seat: int, aid: int, last: int, rank: int,
                    left: int) -> bool:
    """HR-SEVEN-ZERO, HR-WILDPOWER and ATK-9; True when the turn has been settled here."""
    s = st.s[t]
    p = tb.p
    n = p[R_N]
    target = tb.a_target[aid]
    if p[R_SEVEN] and last < NCOLORED:
        if rank == 7 and target >= 0:
            swap_hands(st, t, seat, target)
            after_hands_move(st, tb, t)
        elif rank == 0:
            d = s[F_DIR]
            # new[s] = old[(s - d) % n]: a rotation by one seat in the play direction
            if d == 1:
                for i in range(n - 1, 0, -1):
                    swap_hands(st, t, i, i - 1)
            else:
                for i in range(n - 1):
                    swap_hands(st, t, i, i + 1)
            after_hands_move(st, tb, t)
    elif last == WILD and tb.a_power[aid] == POWER_LOOK:
        pass  # the look shows a hand to its player: nothing changes on the table
    elif last == WILD and tb.a_power[aid] == POWER_SWAP:
        s[F_GIVE_LEFT] = min(3, left, st.hsize[t, target])  # an even exchange (003 五(十))
        s[F_GIVEN] = s[F_GIVE_LEFT]
        s[F_GIVE_TARGET] = target
        s[F_PHASE] = GIVE
        s[F_TURN] = seat
        return True
    elif last == WILD_ATTACK:
        s[F_PEND] += 2  # an answer to an attack adds its two presses (ATK-9)
        s[F_PKIND] = P_WA
        s[F_RESUME] = (seat + s[F_DIR]) % n
        s[F_NCHAIN] = 0
        set_turn(st, t, target)
        return True
    return False


@inline
def swap_hands(st: State, t: int, a: int, b: int) -> None:
    """Exchange two seats' hands, order and size (HR-SEVEN-ZERO)."""
    ha = st.hands[t, a]
    hb = st.hands[t, b]
    m = max(st.hsize[t, a], st.hsize[t, b])
    for i in range(m):
        x = ha[i]
        ha[i] = hb[i]
        hb[i] = x
    x2 = st.hsize[t, a]
    st.hsize[t, a] = st.hsize[t, b]
    st.hsize[t, b] = x2


@inline
def after_hands_move(st: State, tb: Tables, t: int) -> None:
    """After hands change owners no UNO declaration stands and nobody is exposed to a catch."""
    for i in range(tb.p[R_N]):
        st.declared[t, i] = 0
    st.s[t, F_EXPOSED] = -1


@inline
def give(st: State, tb: Tables, t: int, seat: int, k: int) -> None:
    """One card of a wild-power swap goes to the target (HR-WILDPOWER); after the last one the
    player takes as many of the target's own cards at random and the turn passes."""
    s = st.s[t]
    hand_remove(st, t, seat, k)
    hand_append(st, t, s[F_GIVE_TARGET], k)
    s[F_GIVE_LEFT] -= 1
    if s[F_GIVE_LEFT] == 0:
        finish_swap(st, tb, t, seat)
        advance(st, tb, t, seat, 0)


@inline
def finish_swap(st: State, tb: Tables, t: int, seat: int) -> None:
    """The swap's second half: the W player takes random cards of the target's."""
    s = st.s[t]
    tg = s[F_GIVE_TARGET]
    own = st.hsize[t, tg] - s[F_GIVEN]  # the given cards are at the end of the hand
    g = st.rng[t]
    for _ in range(min(s[F_GIVEN], own)):
        j = int(mt.random(g) * own)
        k = st.hands[t, tg, j]
        h = st.hands[t, tg]
        for i in range(j, st.hsize[t, tg] - 1):
            h[i] = h[i + 1]
        st.hsize[t, tg] -= 1
        hand_append(st, t, seat, k)
        own -= 1
    after_hands_move(st, tb, t)
    s[F_GIVE_TARGET] = -1


@inline
def draw_action(st: State, tb: Tables, t: int, seat: int) -> None:
    """The ``draw`` verb: take a pending penalty if one is due (EFF-0), else draw (one card, until
    playable, or one launcher press); a playable drawn card opens the ``drawn`` phase, otherwise
    the turn passes (TURN-3, TURN-4, TURN-7)."""
    s = st.s[t]
    p = tb.p
    if s[F_PEND]:
        take_pending(st, tb, t, seat)
        return
    if p[R_LAUNCH]:
        got = press(st, tb, t, seat, D_TURN)
    elif p[R_UNTIL]:
        got = 0
        while True:
            one = take(st, tb, t, seat, 1, D_TURN)
            if not one:
                break
            got += 1
            k = st.hands[t, seat, st.hsize[t, seat] - 1]
            if playable_drawn(st, tb, t, seat, k):
                break
    else:
        got = take(st, tb, t, seat, 1, D_TURN)
    if not p[R_LAUNCH]:
        note(st, t, LOG_TURN, seat, got)
    if s[F_PHASE] == OVER:
        return
    drew = got
    if p[R_UNTIL] and got and not p[R_LAUNCH]:
        got = 1
    hs = st.hsize[t, seat]
    nplay = 0
    for i in range(hs - got if not p[R_BLIND] else hs, hs):  # HR-BLIND: never played
        k = st.hands[t, seat, i]
        if playable_drawn(st, tb, t, seat, k):
            st.drawn[t, nplay] = k
            nplay += 1
    if nplay and p[R_VDP_MAYNOT]:
        # TURN-4 may_not: a voluntary draw (the hand had a play) ends the turn
        st.hsize[t, seat] = hs - drew
        had = play_ids(st, tb, t, seat, st.hands[t, seat], hs - drew, True, st.work[t], 0)
        st.hsize[t, seat] = hs
        if had:
            nplay = 0
    if nplay:
        s[F_NDRAWN] = nplay
        s[F_PHASE] = DRAWN
        return
    advance(st, tb, t, seat, 0)
    if drew == 0 and p[R_HANDLIMIT] and blocked(st, tb, t):
        end_void(st, tb, t, REASON_BLOCKED)


@inline
def blocked(st: State, tb: Tables, t: int) -> bool:
    """HR-HANDLIMIT: every hand holds the limit and no seat has a play on this top, so no card
    can ever move again."""
    limit = tb.p[R_HANDLIMIT]
    n = tb.p[R_N]
    for seat in range(n):
        if st.hsize[t, seat] < limit:
            return False
    for seat in range(n):
        if play_ids(st, tb, t, seat, st.hands[t, seat], st.hsize[t, seat], True, st.work[t], 0):
            return False
    return True


@inline
def playable_drawn(st: State, tb: Tables, t: int, seat: int, k: int) -> bool:
    """Whether drawn card ``k`` could be played by ``seat`` now (matching, the lock, WD4-1 when it
    applies, and the rule set having such a play)."""
    if not matches(st, t, k, seat):
        return False
    if k == WILD4 and tb.p[R_W4STRICT]:
        return w4_ok(st, t, seat)
    work = st.work[t]
    one = work[len(work) - 1:]  # past anything play_ids writes (at most one id per action)
    one[0] = k
    return play_ids(st, tb, t, seat, one, 1, False, work, 0) > 0


@inline
def take_pending(st: State, tb: Tables, t: int, seat: int) -> None:
    """Draw the whole pending total and lose the turn (EFF-0)."""
    s = st.s[t]
    total = s[F_PEND]
    kind = s[F_PKIND]
    s[F_PEND] = 0
    s[F_PKIND] = P_NONE
    s[F_NCHAIN] = 0
    s[F_NOCHAL] = 0
    penalize(st, tb, t, seat, total, D_PKIND + kind)
    if s[F_PHASE] == OVER:
        return
    xskip = s[F_XSKIP]
    s[F_XSKIP] = 0
    if kind == P_WA:
        resume = s[F_RESUME]
        s[F_RESUME] = -1
        s[F_NDRAWN] = 0
        set_turn(st, t, resume)
        return
    s[F_RESUME] = -1
    advance(st, tb, t, seat, xskip)


@inline
def challenge(st: State, tb: Tables, t: int, seat: int) -> None:
    """WD4-2 and HR-CHAIN-CHALLENGE."""
    s = st.s[t]
    total = s[F_PEND]
    nch = s[F_NCHAIN]
    nguilty = 0
    for i in range(nch):
        if st.chain[t, i, 1]:
            nguilty += 1
    s[F_PEND] = 0
    s[F_PKIND] = P_NONE
    s[F_NCHAIN] = 0
    if nguilty:
        share = total // nguilty
        rem = total % nguilty
        j = 0
        for i in range(nch):
            if st.chain[t, i, 1]:
                penalize(st, tb, t, int(st.chain[t, i, 0]), share + (1 if j < rem else 0),
                         D_GUILTY)
                j += 1
                if s[F_PHASE] == OVER:
                    return
        set_turn(st, t, seat)  # the challenger plays on the named colour
        return
    penalize(st, tb, t, seat, total + 2 * nch, D_INNOCENT)
    if s[F_PHASE] == OVER:
        return
    advance(st, tb, t, seat, 0)


@inline
def catch(st: State, tb: Tables, t: int, seat: int, target: int) -> None:
    """``seat`` calls out ``target``: the exposed seat draws ``uno_penalty`` (UNO-2), while a wrong
    catch costs the caller ``false_uno_penalty`` (UNO-3)."""
    s = st.s[t]
    if target == s[F_EXPOSED]:
        s[F_EXPOSED] = -1
        penalize(st, tb, t, target, tb.p[R_UNOPEN], D_CAUGHT)
    else:  # UNO-3: a false catch costs the caller
        penalize(st, tb, t, seat, tb.p[R_FUNOPEN], D_FALSE_CATCH)


@inline
def uno(st: State, tb: Tables, t: int, seat: int) -> None:
    """``seat`` declares UNO: it ends its exposure when it has one undeclared card (UNO-4), else
    costs it ``false_uno_penalty`` (UNO-3)."""
    s = st.s[t]
    if seat == s[F_EXPOSED]:
        s[F_EXPOSED] = -1
        st.declared[t, seat] = 1
    else:
        penalize(st, tb, t, seat, tb.p[R_FUNOPEN], D_FALSE_UNO)


@inline
def name_starter_color(st: State, tb: Tables, t: int, color: int) -> None:
    """START-4/5/6: the chooser names the colour of a wild starter."""
    s = st.s[t]
    s[F_COLOR] = color
    tp = top(st, t)
    if tb.p[R_WILDSTART]:  # HR-WILDSTART: no effect
        pass
    elif tp == WILD_HYPER:  # BUZZ-3
        s[F_EFFECT] = E_HYPER
        s[F_ECOLOR] = color
    elif tp == WILD_NATURE:  # FRZ-3
        s[F_EFFECT] = E_LOCK
        s[F_ECOLOR] = color
    first = s[F_AFTER_COLOR]
    if s[F_AFTER_PEN]:  # START-5 dealer_plays: the first player draws 4, no challenge
        s[F_NOCHAL] = 1
        s[F_NCHAIN] = 0
        start_penalty(st, tb, t, first, s[F_AFTER_PEN], P_W4)
        s[F_NOCHAL] = 1 if s[F_PEND] > 0 else 0
        return
    set_turn(st, t, first)


@inline
def timeout(st: State, tb: Tables, t: int, seat: int) -> None:
    """HR-TIMER: the seat that must act ran out of time."""
    s = st.s[t]
    p = tb.p
    phase = s[F_PHASE]
    g = st.rng[t]
    if phase == COLOR:
        penalize(st, tb, t, seat, p[R_TIMERPEN], D_TIMEOUT)
        if s[F_PHASE] != OVER:
            name_starter_color(st, tb, t, tb.colors[int(mt.random(g) * p[R_NCOL])])
        return
    if phase == GIVE:
        penalize(st, tb, t, seat, p[R_TIMERPEN], D_TIMEOUT)
        while s[F_PHASE] == GIVE:
            j = int(mt.random(g) * st.hsize[t, seat])
            give(st, tb, t, seat, st.hands[t, seat, j])
        return
    if s[F_PEND]:
        penalize(st, tb, t, seat, p[R_TIMERPEN], D_TIMEOUT)
        if s[F_PHASE] != OVER:
            take_pending(st, tb, t, seat)
        return
    penalize(st, tb, t, seat, p[R_TIMERPEN], D_TIMEOUT)
    if s[F_PHASE] != OVER:
        advance(st, tb, t, seat, 0)


# =============================================================================================
# round end
# =============================================================================================
@inline
def _hand_points(st: State, tb: Tables, t: int) -> int:
    total = 0
    for seat in range(tb.p[R_N]):
        pts = 0
        for i in range(st.hsize[t, seat]):
            pts += _POINTS[st.hands[t, seat, i]]
        st.points[t, seat] = pts
        total += pts
    return total


@inline
def end_round(st: State, tb: Tables, t: int, winner: int) -> None:
    """``winner`` went out (END-1): count every hand's points (END-3), write the round's scores by
    the scoring rule and teams (MATCH-1..4) and end the round."""
    s = st.s[t]
    p = tb.p
    n = p[R_N]
    total = _hand_points(st, tb, t)
    sc = st.scores[t]
    if p[R_TEAMS]:
        nt = p[R_TEAMCOUNT]
        wt = winner % nt
        for tm in range(nt):
            sc[tm] = 0
        for seat in range(n):
            sc[seat % nt] += st.points[t, seat]
        lost = total - sc[wt]
        if p[R_SCORING] == SC_WINNER:  # MATCH-4: other teams' hands only
            for tm in range(nt):
                sc[tm] = lost if tm == wt else 0
        elif p[R_SCORING] != SC_PENALTY:
            for tm in range(nt):
                sc[tm] = lost if tm == wt else -sc[tm]
        for tm in range(nt, n):
            sc[tm] = 0
    elif p[R_SCORING] == SC_WINNER:  # MATCH-1
        for seat in range(n):
            sc[seat] = total if seat == winner else 0
    elif p[R_SCORING] == SC_PENALTY:  # MATCH-2
        for seat in range(n):
            sc[seat] = st.points[t, seat]
    else:  # MATCH-3 chips
        for seat in range(n):
            sc[seat] = total if seat == winner else -st.points[t, seat]
    if p[R_DOUBLESCORE]:  # HR-DOUBLESCORE: the winner's points (and chips paid) count twice
        for seat in range(n):
            sc[seat] *= 2
    s[F_WINNER] = winner
    s[F_REASON] = REASON_OUT
    s[F_PHASE] = OVER
    s[F_PEND] = 0
    s[F_PKIND] = P_NONE
    s[F_EXPOSED] = -1
    s[F_JUMP] = 0


@inline
def end_void(st: State, tb: Tables, t: int, reason: int) -> None:
    """The round ends with no winner and no score (TURN-6 ``deck_exhausted: void``, or
    ``REASON_BLOCKED``: HR-HANDLIMIT's blocked table); hand points are still counted."""
    s = st.s[t]
    _hand_points(st, tb, t)
    for i in range(tb.p[R_N]):
        st.scores[t, i] = 0
    s[F_WINNER] = -1
    s[F_REASON] = reason
    s[F_PHASE] = OVER
    s[F_PEND] = 0
    s[F_PKIND] = P_NONE
    s[F_EXPOSED] = -1
    s[F_JUMP] = 0


_ = (MULTI_RANKS, POWER_SWAP, R_SWC_DEALER, R_W4FREE, V_ACCEPT)
