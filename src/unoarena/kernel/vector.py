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

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from . import bots as kb
from . import heuristic as kh
from . import mt
from .core import State, Tables

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


# =============================================================================================
# one table. The game's big pieces (a step, the legal actions, a bot's decision) are inlined
# into :func:`to_learner` at one call site each, the learning seat's action included: inlined
# at several, the batch functions took over ten minutes to compile; called instead, passing a
# table's forty arrays to each call cost 40% of a step
# =============================================================================================


# =============================================================================================
# the batch
# =============================================================================================


# the compiled functions (``_kernel.pyx``, part ``vector.pxi``)
from . import _kernel  # noqa: E402

play = _kernel.kv_play
reset_batch = _kernel.kv_reset_batch
reset_range = _kernel.kv_reset_range
check_actions = _kernel.kv_check_actions
step_range = _kernel.kv_step_range
seed_tables = _kernel.kv_seed_tables
_step_batch = _kernel.kv_step_batch


def step_batch(v: Vec, st: State, tb: Tables, actions: I64, obs: F32, msk: I8, rew: F64,
               term: B8, trunc: B8, fin: B8, fin_obs: F32, fin_msk: I8) -> int:
    """Step every table (see ``step_batch`` in ``vector.pxi``); the flags are boolean arrays,
    which the compiled loop reads as bytes."""
    return _step_batch(v, st, tb, actions, obs, msk, rew, term.view(np.uint8),
                       trunc.view(np.uint8), fin.view(np.uint8), fin_obs, fin_msk)


#: The fewest tables a thread is given: below this, handing work to threads costs more than
#: it saves.
MIN_THREAD_TABLES = 64


class Lanes:
    """The tables cut into runs of consecutive tables, one per thread, stepped side by side
    without the GIL. Every table has its own generators, so the results do not depend on the
    number of threads; each thread has its own copy of the scratch arrays of :class:`Vec`."""

    def __init__(self, v: Vec, tables: int, threads: int) -> None:
        parts = max(1, min(threads, tables // MIN_THREAD_TABLES))
        self.cuts = [tables * k // parts for k in range(parts + 1)]
        self.vecs = [v] + [v._replace(mrng=np.zeros_like(v.mrng), deck=np.zeros_like(v.deck),
                                      cont=np.zeros_like(v.cont), vals=np.zeros_like(v.vals),
                                      buf=np.zeros_like(v.buf), buf2=np.zeros_like(v.buf2),
                                      seats=np.zeros_like(v.seats), scr=np.zeros_like(v.scr))
                           for _ in range(parts - 1)]
        self.pool = ThreadPoolExecutor(parts) if parts > 1 else None

    @property
    def threads(self) -> int:
        """How many threads step the tables."""
        return len(self.vecs)

    def _each(self, run: Callable[[int], int]) -> int:
        if self.pool is None:
            return run(0)
        results = list(self.pool.map(run, range(len(self.vecs))))
        bad = [r for r in results if r != OK]
        return min(bad) if bad else OK  # -2 - t: the first table that failed

    def reset(self, st: State, tb: Tables, obs: F32, msk: I8) -> int:
        """:func:`reset_batch` on every thread."""
        return self._each(lambda k: reset_range(self.vecs[k], st, tb, self.cuts[k],
                                                self.cuts[k + 1], obs, msk))

    def step(self, st: State, tb: Tables, actions: I64, obs: F32, msk: I8, rew: F64,
             term: B8, trunc: B8, fin: B8, fin_obs: F32, fin_msk: I8) -> int:
        """:func:`step_batch` on every thread: the actions are all checked first."""
        r = check_actions(self.vecs[0], actions)
        if r != OK:
            return r
        t8, r8, f8 = term.view(np.uint8), trunc.view(np.uint8), fin.view(np.uint8)
        return self._each(lambda k: step_range(self.vecs[k], st, tb, self.cuts[k],
                                               self.cuts[k + 1], actions, obs, msk, rew, t8,
                                               r8, f8, fin_obs, fin_msk))

    def close(self) -> None:
        """Stop the threads."""
        if self.pool is not None:
            self.pool.shutdown()
            self.pool = None
