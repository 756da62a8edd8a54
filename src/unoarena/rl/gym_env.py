"""A Gymnasium single-agent environment: one learning seat, bots from the registry elsewhere.

>>> import gymnasium, unoarena.rl
>>> env = gymnasium.make("unoarena/Uno-v0", rules="classic", players=2, opponents="basic")
>>> obs, info = env.reset(seed=3)
>>> int(obs["action_mask"].sum()) > 0
True

The agent plays every decision of its seat: its own turns and the out-of-turn windows open to
it (catch, late UNO, jump-in; RULES DIG-3), where the extra action ``decline`` (the last id) is
legal. Bots are driven in the same order as :mod:`unoarena.driver`. Observations, the action
space and rewards are those of :class:`unoarena.rl.aec.UnoAECEnv`; ``action_masks()`` gives
the mask as booleans for libraries that ask for it (sb3-contrib's MaskablePPO).

An episode always begins with a decision of the learning seat: in the rare deal where the
bots end the round before it has one, ``reset()`` deals again (``info["episodes_without_agent"]``
counts such deals).

An action outside the mask is, by default (``illegal="random"``), replaced by a uniformly
random legal one drawn from the environment's generator, and ``info["illegal"]`` says so;
``illegal_reward`` is added to that step's reward. ``illegal="raise"`` raises instead.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..bots import Bot, make_bot
from ..driver import LazyView, SearchableView
from ..encoding import ENCODING_VERSION
from ..engine import RuleSet
from .aec import ILLEGAL, render_text
from .table import Table, opponent_specs, resolve_rules

ObsDict = dict[str, Any]  # {"observation": float32 array, "action_mask": int8 array}


class UnoEnv(gymnasium.Env[ObsDict, np.int64]):
    """One learning seat against bots (see the module docstring).

    ``opponents``: a bot spec for every other seat (``"basic"``, ``"random:decline=0.2"``) or
    one spec per other seat, in seat order. ``seat``: the learning seat (player), or None for
    a random one each episode. ``seed``: used by the first ``reset()`` that gives none.
    ``max_steps``: truncate the episode after that many actions of the learning seat. The
    other options are those of :class:`unoarena.rl.aec.UnoAECEnv`.
    """

    metadata: ClassVar[dict[str, Any]] = {  # type: ignore[misc]
        "render_modes": ["ansi"], "render_fps": 4, "encoding_version": ENCODING_VERSION}

    def __init__(self, rules: RuleSet | str | None = None, *, preset: str | None = None,
                 players: int | None = None, overrides: Mapping[str, Any] | None = None,
                 opponents: str | Sequence[str] = "basic", seat: int | None = 0,
                 episode: str = "round", reward: str = "win", points_scale: float = 100.0,
                 history: int = 0, seer: bool = False, illegal: str = "random",
                 illegal_reward: float = 0.0, max_steps: int | None = None,
                 seed: int | None = None, render_mode: str | None = None) -> None:
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        self.rules = resolve_rules(rules, preset_name=preset, players=players,
                                   overrides=overrides)
        n = self.rules.players
        specs = opponent_specs(n, seat, opponents)
        probes = [make_bot(spec) for spec in specs]  # a bad spec fails here, not at reset
        self.opponents = specs
        self.seat = seat
        # bots that read the round's events (card counters, search) need a recording game
        wants_history = any(getattr(b, "wants_history", False) for b in probes)
        self.table = Table(self.rules, episode=episode, reward=reward,
                           points_scale=points_scale, history=history, seer=seer,
                           record_events=wants_history)
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.max_steps = max_steps
        self.render_mode = render_mode
        enc = self.table.encoder
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(enc.low, enc.high, (enc.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.table.num_actions,), np.int8),
        })
        self.action_space = spaces.Discrete(self.table.num_actions)
        self._first_seed = seed
        self._player = 0 if seat is None else seat
        self._bots: list[Bot | None] = [None] * n
        self._views: list[tuple[type[LazyView], bool]] = [(LazyView, False)] * n
        self._bot_rng = random.Random(0)
        self._round_seen = 0
        self._agent_steps = 0

    @property
    def decline(self) -> int:
        """The id of the extra action that declines an out-of-turn window."""
        return self.table.decline

    # -- the Gymnasium API ----------------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[ObsDict, dict[str, Any]]:
        """Start an episode: choose the learning player (``seat``, or at random), build the
        opponents, deal and let the bots play up to the agent's first decision. ``info['seat']``
        is the seat the agent sits at. Without a ``seed``, the first reset uses the
        constructor's."""
        if seed is None and self._first_seed is not None:
            seed, self._first_seed = self._first_seed, None
        super().reset(seed=seed)
        rng = self.np_random
        n = self.rules.players
        self._player = int(rng.integers(n)) if self.seat is None else self.seat
        others = iter(self.opponents)
        self._bots = [None if p == self._player
                      else make_bot(next(others), int(rng.integers(2**62)))
                      for p in range(n)]
        # as unoarena.driver: the view class and history flag each bot asks for
        self._views = [(SearchableView if getattr(b, "wants_determinize", False) else LazyView,
                        bool(getattr(b, "wants_history", False))) for b in self._bots]
        self._bot_rng = random.Random(int(rng.integers(2**62)))
        self._agent_steps = 0
        skipped = 0
        while True:
            self.table.start(int(rng.integers(2**62)))
            self._round_seen = 0
            self._run_bots()
            if not self.table.done:
                break
            # the bots ended the episode before the learning seat had a decision (a rare
            # opening run of skips): it is no episode for the agent, so deal again
            skipped += 1
        info: dict[str, Any] = {"seat": self.table.seat_of[self._player]}
        if skipped:
            info["episodes_without_agent"] = skipped
        return self._obs(), info

    def step(self, action: Any) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        """Apply the agent's action, then let the bots play until the agent must act again or the
        episode ends; the reward adds up everything the agent earned meanwhile."""
        t = self.table
        if t.done:
            raise RuntimeError("the episode is over: call reset()")
        aid = int(action)
        info: dict[str, Any] = {}
        reward = 0.0
        if aid not in t.legal:
            if self.illegal == "raise":
                raise ValueError(f"action {aid} is not legal now; legal: {t.legal} "
                                 "(use the action_mask)")
            aid = t.legal[int(self.np_random.integers(len(t.legal)))]
            info["illegal"] = True
            reward += self.illegal_reward
        got = t.step(aid)
        self._agent_steps += 1
        if got is not None:
            reward += got[self._player]
        if not t.done:
            reward += self._run_bots()
        truncated = (not t.done and self.max_steps is not None
                     and self._agent_steps >= self.max_steps)
        if t.done:
            info["rounds"] = t.rounds
        return self._obs(), reward, t.done, truncated, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the learning seat as booleans (sb3-contrib's convention)."""
        return self.table.mask(self._player).astype(bool)

    def render(self) -> str | None:
        """The table as text in ``ansi`` mode (see :func:`~unoarena.rl.aec.render_text`); None
        otherwise."""
        if self.render_mode == "ansi":
            return render_text(self.table)
        return None

    # -- internals ------------------------------------------------------------------------------
    def _obs(self) -> ObsDict:
        return self.table.observe(self._player)

    def _run_bots(self) -> float:
        """Let the bots act until the learning seat must act or the episode ends; returns the
        learning seat's reward collected meanwhile."""
        t = self.table
        acts = t.space.actions
        index = t.space.index
        reward = 0.0
        while not t.done:
            if t.rounds != self._round_seen:
                self._round_seen = t.rounds
                g = t.game
                assert g is not None
                for p, bot in enumerate(self._bots):
                    if bot is not None:
                        bot.begin_round(g.rules, t.seat_of[p])
            p = t.actor_player
            bot = self._bots[p]
            if bot is None:
                break
            seat = t.actor
            legal = t.legal
            g = t.game
            assert g is not None
            cls, hist = self._views[p]
            view = cls(g, seat, hist)
            if t.window:
                choice = bot.window(view, [acts[i] for i in legal[:-1]])
                aid = t.decline if choice is None else index.get(choice, -1)
            else:
                choice = bot.act(view, [acts[i] for i in legal], self._bot_rng)
                aid = index.get(choice, -1)
            view.close()
            if aid not in legal:
                raise RuntimeError(f"bot {bot.name!r} at seat {seat} chose {choice}, which is "
                                   "not legal now")
            got = t.step(aid)
            if got is not None:
                reward += got[self._player]
        return reward
