"""Action values by rollouts, compiled: what the ``learned`` bot is trained on.

A round is played on table 0 by the kernel's bots, every seat included (``heuristic`` or
``basic``). At a share of the *labelled seat*'s decisions that offer a choice, every option
(each legal id, and ``decline`` in a window) is tried on a copy of the table (table 1): the
copy's draw pile is shuffled and its generators reseeded, the option taken, and the round
played to its end by the same bots. Each option gets ``rollouts`` such copies, and the k-th
copy of every option uses the same shuffle and seeds (common random numbers), so options are
compared on the same luck. Written out per decision: the seat's observation (the vector
environment's encoding), its options and each one's mean result for the seat (+1 won, -1
lost, 0 for a void round; a team's win counts for each member), and the option the seat's own
bot took.

The copies hold the other seats' true hands. Over many rounds those are drawn from exactly the
hands a seat faces at such a moment, so a network fitted to these values learns each option's
expected result given what the seat sees, and playing its best option is one step of policy
improvement over the bots (:mod:`unoarena.train.distill`).

Nothing here allocates; see :mod:`unoarena.kernel._jit`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from . import bots as kb
from . import core, mt, observe
from . import heuristic as kh
from ._jit import body, inline, njit
from .core import State, Tables
from .heuristic import Tracker
from .tables import R_N, R_TEAMCOUNT, R_TEAMS, V_CATCH, V_UNO

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
U32 = npt.NDArray[np.uint32]
F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]

#: What :func:`play_on` returns: the stop seat must decide, the round is over, or it cannot go
#: on (no legal action, too many actions, a card tracker out of room).
ASK, OVER, STUCK = 0, 1, 2
# options: opt[P_...]
(P_ROLLOUTS, P_MAX_ACTIONS, P_DECLINE, P_PERMILLE, NPOPT) = range(5)
# per-decision integers written out: meta[row, M_...]
(M_NOPT, M_WINDOW, M_CHOSEN, M_SEAT, M_ROUND, NMETA) = range(6)


@inline
def _c1(a: Any, src: int, dst: int) -> None:
    """Row ``dst`` of a per-table array becomes row ``src`` (loops: a slice copy would
    allocate)."""
    for i in range(a.shape[1]):
        a[dst, i] = a[src, i]


@inline
def _c2(a: Any, src: int, dst: int) -> None:
    for i in range(a.shape[1]):
        for j in range(a.shape[2]):
            a[dst, i, j] = a[src, i, j]


@inline
def _c3(a: Any, src: int, dst: int) -> None:
    for i in range(a.shape[1]):
        for j in range(a.shape[2]):
            for k in range(a.shape[3]):
                a[dst, i, j, k] = a[src, i, j, k]


@njit
def copy_table(st: State, tr: Tracker, src: int, dst: int) -> None:
    """Table ``dst`` becomes a copy of table ``src``: its state and its card trackers."""
    _c1(st.s, src, dst)
    _c2(st.hands, src, dst)
    _c1(st.hsize, src, dst)
    _c1(st.pile, src, dst)
    _c1(st.disc, src, dst)
    _c1(st.drawn, src, dst)
    _c1(st.declared, src, dst)
    _c1(st.alt, src, dst)
    _c2(st.chain, src, dst)
    _c1(st.points, src, dst)
    _c1(st.scores, src, dst)
    _c1(st.drawn_by, src, dst)
    _c1(st.tmp, src, dst)
    _c1(tr.tf, src, dst)
    _c1(tr.disc, src, dst)
    _c2(tr.sf, src, dst)
    _c2(tr.mine, src, dst)
    _c3(tr.known, src, dst)
    _c2(tr.nknown, src, dst)
    _c3(tr.gcount, src, dst)
    _c3(tr.gex0, src, dst)
    _c3(tr.gex1, src, dst)
    _c3(tr.glen, src, dst)
    _c2(tr.ngroups, src, dst)
    _c2(tr.snap, src, dst)
    _c1(tr.nsnap, src, dst)
    _c2(tr.stats, src, dst)




@inline
def apply(st: State, tb: Tables, tr: Tracker, t: int, aid: int, seat: int) -> bool:
    """``seat`` takes ``aid`` on table ``t``; the heuristic seats' trackers read what it did
    (False when one overflowed)."""
    tracked = tr.tf[t, kh.TF_MASK] != 0
    if tracked:
        kh.before(tr, st, t, seat, aid)
    st.s[t, core.F_NLOG] = 0
    core.step(st, tb, t, aid, seat)
    if not tracked:
        return True
    kh.after(tr, st, tb, t)
    return bool(tr.tf[t, kh.TF_ERROR] == 0)


@njit
def play_on(st: State, tb: Tables, tr: Tracker, t: int, kinds: I64, opts: F64, drv: U32,
            own: U32, stop: int, declined: int, max_actions: int, ids: I32, buf: I32,
            seats: I64, scr: I64) -> tuple[int, int, int, int]:
    """The bots play table ``t`` (windows first, in DIG-3 order, then the turn seat) until
    seat ``stop`` must decide (``ASK``: its ``m`` legal ids in ``ids``) or the round is over;
    returns ``(code, window, m, declined)``."""
    s = st.s[t]
    taken = 0
    while s[core.F_PHASE] != core.OVER:
        if taken >= max_actions:
            return STUCK, 0, 0, declined
        taken += 1
        nw = core.window_seats(st, tb, t, seats, buf)
        actor = -1
        aid = -1
        for k in range(nw + 1):
            window = k < nw
            seat = seats[k] if window else s[core.F_TURN]
            if window and (declined >> seat) & 1:
                continue
            m = core.legal(st, tb, t, seat, ids)
            if seat == stop:
                return ASK, 1 if window else 0, m, declined
            if m == 0 and not window:
                return STUCK, 0, 0, declined
            choice = kb.decide(st, tb, tr, t, seat, window, kinds[seat], opts[seat], ids, m, drv,
                               own[seat], scr)
            if window and choice < 0:
                declined |= 1 << seat
                continue
            actor = seat
            aid = choice
            break
        if not apply(st, tb, tr, t, aid, actor):
            return STUCK, 0, 0, declined
        verb = tb.a_verb[aid]
        if verb != V_CATCH and verb != V_UNO:
            declined = 0
    return OVER, 0, 0, declined


@inline
def result(st: State, tb: Tables, t: int, seat: int) -> float:
    """``seat``'s result of table ``t``'s finished round: +1 won (its team won), -1 lost, 0
    void (the vector environment's reward)."""
    s = st.s[t]
    if s[core.F_REASON] == core.REASON_VOID or s[core.F_REASON] == core.REASON_BLOCKED:
        return 0.0
    w = s[core.F_WINNER]
    if tb.p[R_TEAMS]:
        nt = tb.p[R_TEAMCOUNT]
        return 1.0 if w % nt == seat % nt else -1.0
    return 1.0 if w == seat else -1.0


@body
def rollout(st: State, tb: Tables, tr: Tracker, kinds: I64, opts: F64, drv: U32, own: U32,
            seat: int, aid: int, declined: int, lo: int, hi: int, max_actions: int, ids: I32,
            buf: I32, seats: I64, scr: I64) -> float:
    """Copy table 0 to table 1, shuffle its draw pile and seed its generators from
    ``(lo, hi)``, let ``seat`` take ``aid`` (or let its window pass when ``aid`` is
    negative), and let the bots play the round out: ``seat``'s result (0 when it could not
    be played out)."""
    copy_table(st, tr, 0, 1)
    mt.seed_words(st.rng[1], lo, hi)
    core.shuffle(st, 1, st.pile[1], st.s[1, core.F_NPILE])
    mt.seed_words(drv, lo ^ 0x5BD1E995, hi)
    for p in range(len(own)):
        mt.seed_words(own[p], lo ^ (0x27D4EB2F * (p + 1) & 0xFFFFFFFF), hi)
    if aid >= 0:
        if not apply(st, tb, tr, 1, aid, seat):
            return 0.0
        verb = tb.a_verb[aid]
        if verb != V_CATCH and verb != V_UNO:
            declined = 0
    else:
        declined |= 1 << seat
    code, _w, _m, _d = play_on(st, tb, tr, 1, kinds, opts, drv, own, -1, declined,
                               max_actions, ids, buf, seats, scr)
    if code != OVER:
        return 0.0
    return result(st, tb, 1, seat)


@body
def label_round(st: State, tb: Tables, tr: Tracker, kinds: I64, opts: F64, drv: U32,
                own: U32, rdrv: U32, rown: U32, lab: U32, seat: int, p: I64, lay: I64,
                tmpl: F32, obs: F32, oid: I32, q: F32, meta: I64, row: int, round_no: int,
                ids: I32, keep: I32, buf: I32, seats: I64, scr: I64) -> int:
    """Play table 0 (dealt, trackers begun) to its end, labelling ``seat``'s decisions that
    offer a choice with probability ``p[P_PERMILLE] / 1000`` (drawn from ``lab``) while rows
    are left; returns the next free row, or ``-1 - row`` when the round could not be played.
    ``drv``/``own`` are the round's generators, ``rdrv``/``rown`` the rollouts'."""
    rollouts = p[P_ROLLOUTS]
    max_actions = p[P_MAX_ACTIONS]
    decline = p[P_DECLINE]
    cap = len(meta)
    declined = 0
    while True:
        code, window, m, declined = play_on(st, tb, tr, 0, kinds, opts, drv, own, seat,
                                            declined, max_actions, ids, buf, seats, scr)
        if code == OVER:
            return row
        if code == STUCK:
            return -1 - row
        nopt = m + window
        labelled = -1
        if nopt >= 2 and row < cap and mt.random(lab) * 1000.0 < p[P_PERMILLE]:
            labelled = row
            row += 1
            observe.encode(st, tb, 0, seat, window == 1, lay, tmpl, ids, m, obs[labelled])
            for j in range(m):
                keep[j] = ids[j]
                oid[labelled, j] = ids[j]
                q[labelled, j] = 0.0
            if window:
                oid[labelled, m] = decline
                q[labelled, m] = 0.0
            meta[labelled, M_NOPT] = nopt
            meta[labelled, M_WINDOW] = window
            meta[labelled, M_SEAT] = seat
            meta[labelled, M_ROUND] = round_no
            for _r in range(rollouts):
                lo = int(mt.genrand(lab))
                hi = int(mt.genrand(lab))
                for j in range(nopt):
                    aid = keep[j] if j < m else -1
                    q[labelled, j] += rollout(st, tb, tr, kinds, opts, rdrv, rown, seat, aid,
                                              declined, lo, hi, max_actions, ids, buf, seats,
                                              scr) / rollouts
            for j in range(m):
                ids[j] = keep[j]
        choice = kb.decide(st, tb, tr, 0, seat, window == 1, kinds[seat], opts[seat], ids, m, drv,
                           own[seat], scr)
        if labelled >= 0:
            meta[labelled, M_CHOSEN] = m if choice < 0 else 0
            for j in range(m):
                if ids[j] == choice:
                    meta[labelled, M_CHOSEN] = j
        if window and choice < 0:
            declined |= 1 << seat
            continue
        if not apply(st, tb, tr, 0, choice, seat):
            return -1 - row
        verb = tb.a_verb[choice]
        if verb != V_CATCH and verb != V_UNO:
            declined = 0


@njit
def label_rounds(st: State, tb: Tables, tr: Tracker, game_words: I64, kinds: I64, opts: F64,
                 seats_of: I64, dealers: I64, drv: U32, own: U32, rdrv: U32, rown: U32,
                 lab: U32, p: I64, lay: I64, tmpl: F32, obs: F32, oid: I32, q: F32,
                 meta: I64, ids: I32, keep: I32, buf: I32, seats: I64, scr: I64) -> int:
    """Round ``i``: dealt by ``dealers[i]`` from the seed words ``game_words[i]`` (lo, hi),
    seat ``s`` played by bot ``kinds[i, s]`` (options ``opts[i, s]``), seat ``seats_of[i]``
    labelled; the bots' generators ``drv``/``own`` are reseeded per round from ``lab``.
    Stops when the output rows are full; returns the rows written, or ``-1 - i`` when round
    ``i`` could not be played."""
    n = tb.p[R_N]
    row = 0
    for i in range(len(dealers)):
        if row >= len(meta):
            break
        core.deal(st, tb, 0, game_words[i, 0], game_words[i, 1], dealers[i])
        mt.seed_words(drv, int(mt.genrand(lab)), int(mt.genrand(lab)))
        hmask = 0
        for s in range(n):
            mt.seed_words(own[s], int(mt.genrand(lab)), int(mt.genrand(lab)))
            if kinds[i, s] == kb.BOT_HEURISTIC:
                hmask |= 1 << s
            for j in range(kh.NST):
                tr.stats[0, s, j] = 0
        tr.tf[0, kh.TF_MASK] = 0
        if hmask:
            kh.begin(tr, st, tb, 0, hmask)
            if tr.tf[0, kh.TF_ERROR]:
                return -1 - i
        row = label_round(st, tb, tr, kinds[i], opts[i], drv, own, rdrv, rown, lab,
                          seats_of[i], p, lay, tmpl, obs, oid, q, meta, row, i, ids, keep,
                          buf, seats, scr)
        if row < 0:
            return -1 - i
    return row


def buffers(players: int, n_actions: int) -> dict[str, Any]:
    """The scratch arrays :func:`label_rounds` needs for one rule set."""
    ids, buf, seats, scr = kb.scratch(n_actions, players)
    return {"ids": ids, "keep": np.empty(n_actions + 8, np.int32), "buf": buf,
            "seats": seats, "scr": scr,
            "drv": np.zeros(mt.MT_WORDS, np.uint32),
            "own": np.zeros((players, mt.MT_WORDS), np.uint32),
            "rdrv": np.zeros(mt.MT_WORDS, np.uint32),
            "rown": np.zeros((players, mt.MT_WORDS), np.uint32)}


class Labeller:
    """Labelled decisions of one rule set, a batch of rounds at a time (see the module
    docstring). ``bots`` are the seats' specs (``heuristic`` or ``basic``), rotated with the
    labelled seat so that it sits everywhere; ``rollouts`` copies per option; ``share`` of the
    labelled seat's decisions with a choice are labelled."""

    def __init__(self, rules: Any, bots: list[str], seed: int, *, rollouts: int = 16,
                 share: float = 0.5, max_actions: int = 3000) -> None:
        from ..encoding import Encoder
        from .runner import bot_options
        from .single import split_seed
        from .tables import compile_rules

        n = rules.players
        if len(bots) != n:
            raise ValueError(f"{len(bots)} bots for {n} seats")
        rows = [bot_options(b) for b in bots]
        if any(k == kb.BOT_RANDOM for k, _o in rows):
            raise ValueError("the labeller plays heuristic and basic seats, not random")
        self.rules = rules
        self.kr = compile_rules(rules)
        self.tb = core.tables_of(self.kr)
        self.st = core.new_state(2, n, rules.deck.size, self.kr.n_actions)
        self.tr = kh.new_tracker(2, self.kr)
        enc = Encoder(rules)
        self.size = enc.size
        self.lay = observe.layout_of(enc)
        self.tmpl = observe.templates(enc)
        self.kinds = np.array([k for k, _o in rows], np.int64)
        self.opts = np.stack([o for _k, o in rows])
        self.buf = buffers(n, self.kr.n_actions)
        self.p = np.zeros(NPOPT, np.int64)
        self.p[P_ROLLOUTS] = rollouts
        self.p[P_MAX_ACTIONS] = max_actions
        self.p[P_DECLINE] = self.kr.n_actions
        self.p[P_PERMILLE] = round(1000 * share)
        self.width = self.kr.n_actions + 8
        self.lab = np.zeros(mt.MT_WORDS, np.uint32)
        lo, hi = split_seed(seed)
        mt.seed_words(self.lab, lo, hi)
        self.rounds = 0
        self.seed = seed

    def run(self, rounds: int, cap: int) -> dict[str, npt.NDArray[Any]]:
        """Play ``rounds`` more rounds (or until ``cap`` decisions are labelled): the
        observations, the options (ids, ``-1`` padded; ``decline`` is the layout's id), their
        values and each row's :data:`M_NOPT`... integers."""
        n = self.rules.players
        first = self.rounds
        gen = np.random.default_rng([self.seed, first])
        words = gen.integers(0, 2**32, size=(rounds, 2), dtype=np.int64)
        dealers = (np.arange(first, first + rounds) % n).astype(np.int64)
        seats_of = ((np.arange(first, first + rounds) // n) % n).astype(np.int64)
        kinds = np.empty((rounds, n), np.int64)
        opts = np.empty((rounds, n, kh.NOPT), np.float64)
        for i in range(rounds):  # the bots turn with the labelled seat: its own bot first
            for s in range(n):
                j = (s - int(seats_of[i])) % n
                kinds[i, s] = self.kinds[j]
                opts[i, s] = self.opts[j]
        obs = np.zeros((cap, self.size), np.float32)
        oid = np.full((cap, self.width), -1, np.int32)
        q = np.zeros((cap, self.width), np.float32)
        meta = np.zeros((cap, NMETA), np.int64)
        b = self.buf
        got = label_rounds(self.st, self.tb, self.tr, words, kinds, opts, seats_of, dealers,
                           b["drv"], b["own"], b["rdrv"], b["rown"], self.lab, self.p,
                           self.lay, self.tmpl, obs, oid, q, meta, b["ids"], b["keep"],
                           b["buf"], b["seats"], b["scr"])
        if got < 0:
            raise RuntimeError(f"round {first - 1 - got} of the labeller could not be played "
                               f"({self.rules.preset}, {n} players)")
        self.rounds += rounds
        return {"obs": obs[:got], "ids": oid[:got], "q": q[:got], "meta": meta[:got]}
