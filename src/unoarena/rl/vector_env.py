"""A Gymnasium vector environment on the compiled kernel: B tables stepped in one call.

>>> import gymnasium, unoarena.rl
>>> envs = gymnasium.make_vec("unoarena/UnoVector-v0", num_envs=64, rules="classic", players=2)
>>> obs, info = envs.reset(seed=3)
>>> obs["observation"].shape, obs["action_mask"].shape
((64, 279), (64, 133))

Each table is what ``unoarena/Uno-v0`` (:class:`~unoarena.rl.gym_env.UnoEnv`) is for one
round episode: one learning seat, the other seats played by the kernel's ``random``,
``basic`` and ``heuristic`` bots (the same decisions as their Python namesakes; a heuristic
seat keeps its bluff statistics across the table's episodes, as a Python bot object
does), windows in DIG-3 order with
``decline`` as the last action id, the same observation encoding
(:data:`~unoarena.encoding.ENCODING_VERSION`, built in the kernel) and the same rewards.
A seat given the spec ``"caller"`` is not played by a bot: its decisions come back to the
caller as the learning seat's do (self-play against another network, or the same one). Each
step then acts for the table's *actor* (:meth:`actors`): the observation, the mask and the
action are the actor's, the rewards and ``max_steps`` stay the learning seat's, and a
round that a ``caller`` seat ends gives the learning seat its reward on that step.
Observations are ``{"observation": (B, size) float32, "action_mask": (B, actions) int8}``;
``action_masks()`` gives the masks as booleans (sb3-contrib's MaskablePPO).

Seeding: ``reset(seed=s)`` seeds table ``b`` with ``s + b`` (a list gives one seed per
table), as Gymnasium's ``SyncVectorEnv`` does. A table seeded with ``t`` draws its episodes
from ``random.Random(derive(t, "episodes"))`` (:func:`unoarena.seeding.derive`): the
learning seat first when it is random (``randrange(players)``), then one
``getrandbits(63)`` per deal, and the episode is ``Match(rules, that).game``; its bots decide
with ``random.Random(derive(t, "driver"))`` on their turns and ``derive(t, "bot", seat)`` in
windows. The generators run on across episodes: the same seed and the same actions give the
same trajectories. ``reset()`` without a seed draws one from ``np_random``.

Auto-reset follows Gymnasium's ``metadata["autoreset_mode"]``: ``next_step`` by default (the
step after an episode ends starts the next one and ignores that table's action), or
``same_step`` (the next episode's first observation is returned at once; the last one is in
``info["final_obs"]``, flagged by ``info["_final_obs"]``, as Stable-Baselines3 expects).

Actions must be legal: an action array of the wrong shape, or an action outside a table's
mask, raises ``ValueError`` naming the table and its legal ids, and no table moves.
Episodes are rounds; the public history (``history > 0``) is not built by the kernel.

Threads: ``threads`` (default: every core) cuts the tables into runs of consecutive tables
stepped side by side without the GIL (at least 64 tables a thread). Each table has its own
generators, so the trajectories do not depend on the number of threads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ..encoding import ENCODING_VERSION, Encoder
from ..engine import RuleSet, action_space
from .table import REWARDS, opponent_specs, resolve_rules

if TYPE_CHECKING:
    from ..kernel.core import State, Tables
    from ..kernel.vector import Vec

ObsDict = dict[str, Any]
Actions = npt.NDArray[np.int64]
_MODES = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP}
MAX_SEED = 2**63


class UnoVectorEnv(gymnasium.vector.VectorEnv[ObsDict, Actions, npt.NDArray[Any]]):
    """``num_envs`` tables on the compiled kernel (see the module docstring).

    ``opponents``: a kernel bot spec for every other seat (``"basic"``,
    ``"random:decline=0.2"``, or ``"caller"`` for a seat the caller plays) or one per other
    seat, in seat order. ``seat``: the learning
    seat, or None for a random one each episode. ``max_steps``: truncate an episode after that
    many actions of the learning seat. ``copy``: hand out copies of the observation arrays
    (False: the same arrays, overwritten by the next step). The other options are
    ``Uno-v0``'s; ``episode`` must be ``"round"``.
    """

    metadata: ClassVar[dict[str, Any]] = {  # type: ignore[misc]
        "autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": [],
        "encoding_version": ENCODING_VERSION}

    def __init__(self, num_envs: int = 1, rules: RuleSet | str | None = None, *,
                 preset: str | None = None, players: int | None = None,
                 overrides: Mapping[str, Any] | None = None,
                 opponents: str | Sequence[str] = "basic", seat: int | None = 0,
                 episode: str = "round", reward: str = "win", points_scale: float = 100.0,
                 history: int = 0, seer: bool = False, max_steps: int | None = None,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
                 copy: bool = True, seed: int | None = None,
                 render_mode: str | None = None, threads: int | None = None) -> None:
        from ..kernel import available, unavailable_reason

        if not available():
            raise ModuleNotFoundError(f"unoarena/UnoVector-v0 runs on the compiled kernel: "
                                      f"{unavailable_reason()}", name="unoarena.kernel._kernel")
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, not {num_envs!r}")
        from ..kernel.runner import check_threads, default_threads

        threads = default_threads() if threads is None else check_threads(threads)
        if episode != "round":
            raise ValueError(f"the vector environment plays round episodes only, not "
                             f"{episode!r}: use unoarena/Uno-v0 for whole matches")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if not points_scale > 0:
            raise ValueError(f"points_scale must be positive, not {points_scale}")
        if max_steps is not None and max_steps < 1:
            raise ValueError(f"max_steps must be a positive integer or None, not {max_steps}")
        if render_mode is not None:
            raise ValueError(f"the vector environment does not render: render_mode must be "
                             f"None, not {render_mode!r}")
        mode = _MODES.get(autoreset_mode, autoreset_mode) if isinstance(autoreset_mode, str) \
            else autoreset_mode
        if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
            raise ValueError(f"autoreset_mode must be next_step or same_step, not "
                             f"{autoreset_mode!r}")
        from ..kernel import core, observe, tables
        from ..kernel import heuristic as kh
        from ..kernel import vector as kv
        from ..kernel.bots import BOT_CALLER, BOT_HEURISTIC
        from ..kernel.runner import bot_options

        self.rules = resolve_rules(rules, preset_name=preset, players=players,
                                   overrides=overrides)
        n = self.rules.players
        specs = opponent_specs(n, seat, opponents)
        self.opponents = specs
        self.encoder = Encoder(self.rules, seer=seer, history=history)
        lay = observe.layout_of(self.encoder)  # refuses the history option
        kr = tables.compile_rules(self.rules)
        self._kv = kv
        self._tb: Tables = core.tables_of(kr)
        self.num_envs = num_envs
        self.seat = seat
        self.autoreset_mode = mode
        # per instance: Gymnasium's wrappers read the mode from the env's metadata
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}  # type: ignore[misc]
        self.render_mode = None
        self.copy = copy
        self.space = action_space(self.rules)
        self.decline = len(self.space)
        self.num_actions = self.decline + 1
        # kinds[L, s]: the bot at seat s while the learning seat is L (the other seats take
        # the specs in seat order, as Uno-v0 hands them out)
        kinds = np.zeros((n, n), np.int64)
        opts = np.zeros((n, n, kh.NOPT), np.float64)
        parsed = [(BOT_CALLER, np.zeros(kh.NOPT, np.float64)) if spec == "caller"
                  else bot_options(spec) for spec in specs]
        for learner in range(n):
            others = [s for s in range(n) if s != learner]
            for s, (kind, row) in zip(others, parsed, strict=True):
                kinds[learner, s], opts[learner, s] = kind, row

        # the trackers are large (every seat's view of every hand): only when a heuristic plays
        heuristic = any(kind == BOT_HEURISTIC for kind, _ in parsed)
        tracker = kh.new_tracker(num_envs if heuristic else 1, kr)
        opt = np.zeros(kv.NOPT, np.int64)
        opt[kv.O_SEAT] = -1 if seat is None else seat
        opt[kv.O_DECLINE] = self.decline
        opt[kv.O_REWARD] = kv.REWARD_POINTS if reward == "points" else kv.REWARD_WIN
        opt[kv.O_MAX_STEPS] = -1 if max_steps is None else max_steps
        opt[kv.O_SAME_STEP] = mode == AutoresetMode.SAME_STEP
        opt[kv.O_MAX_ACTIONS] = 1_000_000
        sign = -1.0 if self.rules.scoring == "penalty" else 1.0
        self.reward_kind = reward
        self.max_steps = max_steps
        self._vec: Vec = kv.new_vec(num_envs, n, self.rules.deck.size, kr.n_actions, opt,
                                    sign / float(points_scale), kinds, opts, tracker, lay,
                                    observe.templates(self.encoder))
        self._st: State = core.new_state(num_envs, n, self.rules.deck.size, kr.n_actions)
        self._lanes = kv.Lanes(self._vec, num_envs, threads)
        enc = self.encoder
        b = num_envs
        self._obs = np.zeros((b, enc.size), np.float32)
        self._mask = np.zeros((b, self.num_actions), np.int8)
        self._rew = np.zeros(b, np.float64)
        self._term = np.zeros(b, np.bool_)
        self._trunc = np.zeros(b, np.bool_)
        self._fin = np.zeros(b, np.bool_)
        self._fin_obs = np.zeros((b, enc.size), np.float32)
        self._fin_mask = np.zeros((b, self.num_actions), np.int8)
        self._actions = np.zeros(b, np.int64)
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(enc.low, enc.high, (enc.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
        })
        self.single_action_space = spaces.Discrete(self.num_actions)
        self.observation_space = batch_space(self.single_observation_space, b)
        self.action_space = batch_space(self.single_action_space, b)
        self._first_seed = seed
        self._started = False

    # -- the Gymnasium API ----------------------------------------------------------------------
    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[ObsDict, dict[str, Any]]:
        """Start an episode on every table (see the module docstring for the seeds)."""
        if options:
            raise ValueError(f"reset takes no options, not {sorted(options)}")
        if seed is None and self._first_seed is not None:
            seed, self._first_seed = self._first_seed, None
        b = self.num_envs
        if seed is None:
            base = int(self.np_random.integers(MAX_SEED - b))
            seeds = [base + i for i in range(b)]
        elif isinstance(seed, int | np.integer):
            seeds = [int(seed) + i for i in range(b)]
            super().reset(seed=int(seed))
        else:
            seeds = [int(s) for s in seed]
            if len(seeds) != b:
                raise ValueError(f"{len(seeds)} seeds for {b} tables: give one seed, or one "
                                 "per table")
        if any(not 0 <= s < MAX_SEED for s in seeds):
            raise ValueError(f"seeds must be in 0..2**63 - 1; these tables would get "
                             f"{min(seeds)}..{max(seeds)}")
        self.table_seeds = seeds
        from ..kernel.single import split_seed
        from ..kernel.vector import table_seeds

        n = self.rules.players
        words = np.zeros((b, 2 * (n + 2)), np.int64)
        for i, s in enumerate(seeds):
            for j, x in enumerate(table_seeds(s, n)):
                words[i, 2 * j:2 * j + 2] = split_seed(x)
        kv = self._kv
        kv.seed_tables(self._vec, words)
        r = self._lanes.reset(self._st, self._tb, self._obs, self._mask)
        self._check(r)
        self._started = True
        info = {"seat": self.seats(), "_seat": np.ones(b, np.bool_)}
        return self._out(), info

    def step(self, actions: Any) -> tuple[ObsDict, npt.NDArray[np.float64],
                                          npt.NDArray[np.bool_], npt.NDArray[np.bool_],
                                          dict[str, Any]]:
        """One action per table (an int array of shape ``(num_envs,)``)."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        a = np.asarray(actions)
        b = self.num_envs
        if a.shape != (b,) or not (np.issubdtype(a.dtype, np.integer) or a.size == 0):
            raise ValueError(f"actions must be {b} integer action ids, shape ({b},), not "
                             f"{a.dtype} of shape {a.shape}")
        self._actions[:] = a
        r = self._lanes.step(self._st, self._tb, self._actions, self._obs, self._mask,
                             self._rew, self._term, self._trunc, self._fin, self._fin_obs,
                             self._fin_mask)
        self._check(r)
        info: dict[str, Any] = {}
        if self.autoreset_mode == AutoresetMode.SAME_STEP:
            done = np.flatnonzero(self._fin)
            if len(done):
                final = np.full(b, None, dtype=object)
                for i in done:
                    final[i] = {"observation": self._fin_obs[i].copy(),
                                "action_mask": self._fin_mask[i].copy()}
                info["final_obs"] = final
                info["_final_obs"] = self._fin.copy()
        rew, term, trunc = self._rew, self._term, self._trunc
        if self.copy:
            rew, term, trunc = rew.copy(), term.copy(), trunc.copy()
        return self._out(), rew, term, trunc, info

    def close_extras(self, **kwargs: Any) -> None:
        """Stop the stepping threads."""
        self._lanes.close()

    @property
    def threads(self) -> int:
        """How many threads step the tables."""
        return self._lanes.threads

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every table's actor, ``(num_envs, actions)`` booleans
        (sb3-contrib's convention)."""
        return self._mask.astype(bool)

    def seats(self) -> npt.NDArray[np.int64]:
        """The learning seat of each table's current episode."""
        return self._vec.ctl[:, self._kv.C_SEAT].copy()

    def actors(self) -> npt.NDArray[np.int64]:
        """The seat each table's observation and next action belong to: the learning seat,
        or a ``caller`` seat whose decision it is."""
        return self._vec.ctl[:, self._kv.C_ACTOR].copy()

    def legal_ids(self, table: int) -> list[int]:
        """The legal action ids of a table's actor now (``decline`` last in a window)."""
        return [int(x) for x in np.flatnonzero(self._mask[table])]

    # -- internals ------------------------------------------------------------------------------
    def _out(self) -> ObsDict:
        if self.copy:
            return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}
        return {"observation": self._obs, "action_mask": self._mask}

    def _check(self, r: int) -> None:
        if r == self._kv.OK:
            return
        if r >= 0:
            legal = self.legal_ids(r)
            raise ValueError(f"action {int(self._actions[r])} is not legal at table {r}: its "
                             f"legal ids are {legal} (use the action_mask); no table moved")
        t = -2 - r
        self._started = False
        raise RuntimeError(f"table {t} (seed {self.table_seeds[t]}) reached a round the "
                           "kernel could not finish; call reset()")

    def __repr__(self) -> str:
        return f"UnoVectorEnv({self.rules.players} players, num_envs={self.num_envs})"
