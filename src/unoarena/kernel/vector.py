"""B tables stepped at once, one learning seat per table, the other seats played by the kernel's
bots: the compiled core of :class:`unoarena.rl.vector_env.UnoVectorEnv`.

Each table plays what :class:`unoarena.rl.gym_env.UnoEnv` plays: a round episode is
``Match(rules, e).game`` for an episode seed ``e`` (first dealer by SET-1, the round's seed
from the match's generator), out-of-turn windows are offered in DIG-3 order (from the last
actor's left; a seat that declined is not asked again until an action other than a catch or
an UNO call), the learning seat acts on its turns and in its windows (``decline`` is its
extra action), and a deal that ends before the learning seat has a decision is dealt again.
A ``caller`` seat (:data:`~unoarena.kernel.bots.BOT_CALLER`) is decided by the caller like the
learning seat (self-play): the table's *actor* (``C_ACTOR``) is whichever of them must act, and
the observation, mask and action are the actor's; rewards stay the learning seat's.
Rewards are :class:`unoarena.rl.table.Table`'s for round episodes.

Generators of table ``b`` (see :func:`table_seeds`): its episode stream (the learning seat
when it is random, then one episode seed per deal, ``getrandbits(63)``), its driver (the
bots' turn decisions) and one per bot seat (their window decisions); they run on across
episodes, so the same seeds and the same learner actions give the same trajectories.

Nothing here allocates (the kernel runs without reference counts): the vector
environment owns every array, and :func:`step_batch` writes observations, masks, rewards and
flags into them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from . import bots as kb
from . import core, mt, observe
from . import heuristic as kh
from . import matches as km
from ._jit import inline, njit
from .core import State, Tables
from .tables import R_N, R_TEAMCOUNT, R_TEAMS, V_CATCH, V_UNO

I8 = npt.NDArray[np.int8]
I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
U32 = npt.NDArray[np.uint32]
F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]
B8 = npt.NDArray[np.bool_]

# per table control fields: ctl[b, C_...]
(C_SEAT, C_DECLINED, C_WINDOW, C_NIDS, C_STEPS, C_RESET, C_SKIPPED, C_EPISODES, C_HMASK,
 C_ACTOR, NCTL) = range(11)
# options: opt[O_...]
(O_SEAT, O_DECLINE, O_REWARD, O_MAX_STEPS, O_SAME_STEP, O_MAX_ACTIONS, NOPT) = range(7)
REWARD_WIN, REWARD_POINTS = 0, 1
#: What :func:`step_batch` returns when every table stepped.
OK = -1
# what to_learner returns
_ACT, _OVER, _STUCK = 0, 1, 2


class Vec(NamedTuple):
    """The vector environment's arrays besides the tables' :class:`~core.State`."""

    ctl: I64  # (B, NCTL)
    opt: I64  # (NOPT,)
    scale: F64  # (1,) the points reward's factor: sign / points_scale
    ep: U32  # (B, 625) episode streams
    drv: U32  # (B, 625) bots' turn decisions
    own: U32  # (B, players, 625) bots' window decisions
    ids: I32  # (B, actions + 8) the learning seat's legal ids now
    kinds: I64  # (players, players) [L, s]: the bot kind of seat s when L is the learner's
    opts: F64  # (players, players, heuristic.NOPT) their options (runner.bot_options)
    tr: kh.Tracker  # the heuristic seats' card trackers (one table's worth when none plays)
    lay: I64  # observation layout (observe.layout_of)
    tmpl: F32  # (players, size) observation templates
    mrng: U32  # (625,) scratch: a match's generator while an episode is dealt
    deck: I32  # (deck,) scratch for SET-1
    cont: I64  # (players,) scratch for SET-1
    vals: I64  # (players,) scratch for SET-1
    buf: I32  # (actions + 8,) scratch: a bot's legal ids
    buf2: I32  # (actions + 8,) scratch for window_seats
    seats: I64  # (players,) scratch: window seats
    scr: I64  # the bots' scratch (kb.scratch)


def new_vec(tables: int, players: int, deck_size: int, n_actions: int, opt: I64,
            scale: float, kinds: I64, opts: F64, tr: kh.Tracker, lay: I64, tmpl: F32) -> Vec:
    """The arrays for ``tables`` tables (seed them with :func:`seed_tables`)."""
    w = n_actions + 8
    _ids, _buf, _seats, scr = kb.scratch(n_actions, players)
    return Vec(np.zeros((tables, NCTL), np.int64), opt, np.array([scale], np.float64),
               np.zeros((tables, mt.MT_WORDS), np.uint32),
               np.zeros((tables, mt.MT_WORDS), np.uint32),
               np.zeros((tables, players, mt.MT_WORDS), np.uint32),
               np.zeros((tables, w), np.int32), kinds, opts, tr, lay, tmpl,
               np.zeros(mt.MT_WORDS, np.uint32), np.zeros(deck_size, np.int32),
               np.zeros(players, np.int64), np.zeros(players, np.int64),
               np.zeros(w, np.int32), np.zeros(w, np.int32), np.zeros(players, np.int64), scr)


def table_seeds(seed: int, players: int) -> list[int]:
    """The 63-bit seeds of one table's generators from its seed: the episode stream, the
    driver, then each seat's bot (``derive(seed, "episodes")``, ``derive(seed, "driver")``,
    ``derive(seed, "bot", seat)`` of :func:`unoarena.seeding.derive`)."""
    from ..seeding import derive

    return [derive(seed, "episodes"), derive(seed, "driver"),
            *(derive(seed, "bot", s) for s in range(players))]


@njit
def seed_tables(v: Vec, words: I64) -> None:
    """Seed every table's generators: ``words[b]`` holds :func:`table_seeds` as (lo, hi)
    pairs."""
    n = v.own.shape[1]
    for t in range(len(words)):
        mt.seed_words(v.ep[t], words[t, 0], words[t, 1])
        mt.seed_words(v.drv[t], words[t, 2], words[t, 3])
        for s in range(n):
            mt.seed_words(v.own[t, s], words[t, 4 + 2 * s], words[t, 5 + 2 * s])
        for i in range(NCTL):
            v.ctl[t, i] = 0


# =============================================================================================
# one table. The game's big pieces (a step, the legal actions, a bot's decision) are inlined
# into :func:`to_learner` at one call site each, the learning seat's action included: inlined
# at several, the batch functions took over ten minutes to compile; called instead, passing a
# table's forty arrays to each call cost 40% of a step
# =============================================================================================
@inline
def learner_acts(v: Vec, st: State, tb: Tables, t: int, window: int, declined: int,
                 seat: int) -> int:
    """``seat`` (the learning seat or a ``caller`` seat) acts now, in a window or on its turn:
    it becomes the table's actor, its legal ids go to ``v.ids``."""
    ctl = v.ctl[t]
    ctl[C_ACTOR] = seat
    ctl[C_NIDS] = core.legal(st, tb, t, seat, v.ids[t])
    ctl[C_WINDOW] = window
    ctl[C_DECLINED] = declined
    return _ACT


@inline
def play(v: Vec, st: State, tb: Tables, t: int, aid: int, seat: int) -> bool:
    """``seat`` takes ``aid``, and the heuristic seats' trackers read what it did (False if
    a tracker overflowed: the round cannot go on)."""
    tracked = v.ctl[t, C_HMASK] != 0
    if tracked:
        kh.before(v.tr, st, t, seat, aid)
        st.s[t, core.F_NLOG] = 0
    core.step(st, tb, t, aid, seat)
    if not tracked:
        return True
    kh.after(v.tr, st, tb, t)
    return bool(v.tr.tf[t, kh.TF_ERROR] == 0)


@inline
def bot_choice(v: Vec, st: State, tb: Tables, t: int, seat: int, window: bool, m: int) -> int:
    """The bot at ``seat`` chooses among the ``m`` legal ids in ``v.buf``: in a window (-1:
    it declines) or on its turn."""
    me = v.ctl[t, C_SEAT]
    return kb.decide(st, tb, v.tr, t, seat, window, v.kinds[me, seat], v.opts[me, seat], v.buf,
                     m, v.drv[t], v.own[t, seat], v.scr)


@njit
def to_learner(v: Vec, st: State, tb: Tables, t: int, first: int) -> int:
    """The actor (the learning seat or a ``caller`` seat) takes action ``first`` (none if
    negative), then the bots act (windows first, in DIG-3 order, then the turn seat) until the
    learning seat or a ``caller`` seat must act (its legal ids in ``v.ids[t]``) or the round
    is over."""
    s = st.s[t]
    ctl = v.ctl[t]
    me = ctl[C_SEAT]
    declined = ctl[C_DECLINED]
    taken = 0
    while s[core.F_PHASE] != core.OVER:
        actor = -1
        aid = first
        if first >= 0:
            actor = ctl[C_ACTOR]
            first = -1
        else:
            if taken >= v.opt[O_MAX_ACTIONS]:
                return _STUCK
            taken += 1
            nw = core.window_seats(st, tb, t, v.seats, v.buf2)
            # the seats with a window, then the turn seat: the first that acts
            for k in range(nw + 1):
                window = k < nw
                seat = v.seats[k] if window else s[core.F_TURN]
                if window and (declined >> seat) & 1:
                    continue
                if seat == me or v.kinds[me, seat] == kb.BOT_CALLER:
                    return learner_acts(v, st, tb, t, 1 if window else 0, declined, seat)
                m = core.legal(st, tb, t, seat, v.buf)
                if m == 0 and not window:
                    return _STUCK
                choice = bot_choice(v, st, tb, t, seat, window, m)
                if window and choice < 0:  # a bot lets its window pass
                    declined |= 1 << seat
                    continue
                actor = seat
                aid = choice
                break
        if not play(v, st, tb, t, aid, actor):
            return _STUCK
        verb = tb.a_verb[aid]
        if verb != V_CATCH and verb != V_UNO:
            declined = 0
    ctl[C_DECLINED] = declined
    ctl[C_NIDS] = 0
    ctl[C_WINDOW] = 0
    ctl[C_ACTOR] = me  # a finished round is observed by the learning seat
    return _OVER


@njit
def start_episode(v: Vec, st: State, tb: Tables, t: int) -> int:
    """Deal table ``t``'s next episode (again while the bots end it before the learning
    seat has a decision); ``_STUCK`` if a round could not be played."""
    ctl = v.ctl[t]
    ep = v.ep[t]
    n = tb.p[R_N]
    ctl[C_SEAT] = mt.randbelow(ep, n) if v.opt[O_SEAT] < 0 else v.opt[O_SEAT]
    ctl[C_STEPS] = 0
    ctl[C_SKIPPED] = 0
    ctl[C_RESET] = 0
    ctl[C_EPISODES] += 1
    while True:
        e = mt.getrandbits(ep, 63)  # Match(rules, e): SET-1, then the round's seed
        mt.seed_words(v.mrng, e & 0xFFFFFFFF, e >> 32)
        dealer = km.first_dealer(tb, v.mrng, v.deck, v.cont, v.vals)
        g = mt.getrandbits(v.mrng, 63)
        mt.seed_words(st.rng[t], g & 0xFFFFFFFF, g >> 32)
        core.deal_seeded(st, tb, t, dealer)
        ctl[C_DECLINED] = 0
        hmask = 0
        for s in range(n):
            if s != ctl[C_SEAT] and v.kinds[ctl[C_SEAT], s] == kb.BOT_HEURISTIC:
                hmask |= 1 << s
        ctl[C_HMASK] = hmask
        if hmask:
            kh.begin(v.tr, st, tb, t, hmask)
            if v.tr.tf[t, kh.TF_ERROR]:
                return _STUCK
        r = to_learner(v, st, tb, t, -1)
        if r != _OVER:
            return r
        ctl[C_SKIPPED] += 1


@inline
def reward(v: Vec, st: State, tb: Tables, t: int) -> float:
    """The learning seat's reward for the finished round (``Table._round_rewards``)."""
    s = st.s[t]
    p = tb.p
    me = v.ctl[t, C_SEAT]
    nt = p[R_TEAMCOUNT]
    if v.opt[O_REWARD] == REWARD_POINTS:
        return float(st.scores[t, me % nt if p[R_TEAMS] else me]) * float(v.scale[0])
    if s[core.F_REASON] in (core.REASON_VOID, core.REASON_BLOCKED):
        return 0.0
    w = s[core.F_WINNER]
    if p[R_TEAMS]:
        return 1.0 if w % nt == me % nt else -1.0
    return 1.0 if w == me else -1.0


@njit
def write(v: Vec, st: State, tb: Tables, t: int, obs: F32, msk: I8) -> None:
    """The actor's observation and mask (all zero once the round is over)."""
    ctl = v.ctl[t]
    m = ctl[C_NIDS]
    window = ctl[C_WINDOW] == 1
    observe.encode(st, tb, t, ctl[C_ACTOR], window, v.lay, v.tmpl, v.ids[t], m, obs)
    observe.mask(v.ids[t], m, v.opt[O_DECLINE] if window else -1, msk)


@inline
def learner_step(v: Vec, st: State, tb: Tables, t: int, aid: int) -> int:
    """Apply the actor's action ``aid`` (or its ``decline``) on table ``t`` and let the bots
    play on: what :func:`to_learner` returns."""
    if aid == v.opt[O_DECLINE]:
        v.ctl[t, C_DECLINED] |= 1 << v.ctl[t, C_ACTOR]
        return to_learner(v, st, tb, t, -1)
    return to_learner(v, st, tb, t, aid)


@inline
def legal_action(v: Vec, t: int, aid: int) -> bool:
    """Whether ``aid`` is a legal choice for table ``t``'s learning seat: one of its offered ids, or
    ``decline`` while a window is open to it."""
    ctl = v.ctl[t]
    if aid == v.opt[O_DECLINE]:
        return bool(ctl[C_WINDOW] == 1)
    ids = v.ids[t]
    for i in range(ctl[C_NIDS]):
        if ids[i] == aid:
            return True
    return False


# =============================================================================================
# the batch
# =============================================================================================
@njit
def reset_batch(v: Vec, st: State, tb: Tables, obs: F32, msk: I8) -> int:
    """Start an episode on every table (generators seeded); :data:`OK`, or ``-2 - b`` when
    table ``b``'s round could not be played."""
    for t in range(len(v.ctl)):
        v.ctl[t, C_EPISODES] = 0
        if start_episode(v, st, tb, t) == _STUCK:
            return -2 - t
        write(v, st, tb, t, obs[t], msk[t])
    return OK


@njit
def step_batch(v: Vec, st: State, tb: Tables, actions: I64, obs: F32, msk: I8, rew: F64,
               term: B8, trunc: B8, fin: B8, fin_obs: F32, fin_msk: I8) -> int:
    """Apply each table's actor's action, let the bots play to the next decision of the
    learning seat or a ``caller`` seat, reward, and auto-reset finished tables: next step
    (the action of a table that finished last step is ignored and it starts over), or same
    step (the finished
    observation goes to ``fin_obs``/``fin_msk``, flagged in ``fin``). Returns :data:`OK`;
    the first table ``b`` whose action is not legal (nothing was stepped); or ``-2 - b``
    when table ``b``'s round could not be played."""
    ntab = len(v.ctl)
    for t in range(ntab):  # every action is checked before any table moves
        if not v.ctl[t, C_RESET] and not legal_action(v, t, actions[t]):
            return t
    same = v.opt[O_SAME_STEP] == 1
    max_steps = v.opt[O_MAX_STEPS]
    for t in range(ntab):
        ctl = v.ctl[t]
        rew[t] = 0.0
        term[t] = False
        trunc[t] = False
        fin[t] = False
        if ctl[C_RESET]:
            if start_episode(v, st, tb, t) == _STUCK:
                return -2 - t
            write(v, st, tb, t, obs[t], msk[t])
            continue
        if ctl[C_ACTOR] == ctl[C_SEAT]:  # max_steps counts the learning seat's actions
            ctl[C_STEPS] += 1
        r = learner_step(v, st, tb, t, actions[t])
        if r == _STUCK:
            return -2 - t
        if r == _OVER:
            rew[t] = reward(v, st, tb, t)
            term[t] = True
        elif max_steps >= 0 and ctl[C_STEPS] >= max_steps:
            trunc[t] = True
        if not (term[t] or trunc[t]):
            write(v, st, tb, t, obs[t], msk[t])
        elif same:
            write(v, st, tb, t, fin_obs[t], fin_msk[t])
            fin[t] = True
            if start_episode(v, st, tb, t) == _STUCK:
                return -2 - t
            write(v, st, tb, t, obs[t], msk[t])
        else:
            write(v, st, tb, t, obs[t], msk[t])
            ctl[C_RESET] = 1
    return OK
