"""A PettingZoo AEC environment: every seat an agent, any rule set, 2 to 10 players.

>>> from unoarena.rl import aec_env
>>> env = aec_env("house", players=3)
>>> env.reset(seed=7)
>>> obs, reward, terminated, truncated, info = env.last()
>>> sorted(obs), obs["action_mask"].dtype.name
(['action_mask', 'observation'], 'int8')

Agents are ``player_0`` .. ``player_{n-1}`` (the match's players; in a one-round episode
player i sits at seat i). ``agent_selection`` is the turn seat's player, except while an
out-of-turn window (catch, late UNO, jump-in) is open: then each eligible seat gets a turn
first, in the engine's order (RULES DIG-3), with the window's actions and the extra
``decline`` action (id ``len(space)``, the last) in its mask.

Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``; see
:mod:`unoarena.encoding` and ``docs/observations.md``. Rewards arrive when a round ends
(``reward="win"``: +1 winner or winning team, -1 the others, 0 for a void round;
``reward="points"``: the round's scores as the match counts them, negated under penalty
scoring, divided by ``points_scale``); with ``episode="match"`` and ``reward="win"`` only
when the match ends, for its winners.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from ..encoding import ENCODING_VERSION
from ..engine import CODES, COLOR_CODES, RuleSet
from .table import Table, resolve_rules

ILLEGAL = ("raise", "random")


class UnoAECEnv(AECEnv):  # type: ignore[misc]
    """UNO under any rule set as a PettingZoo AEC environment (see the module docstring).

    ``illegal``: what an action outside the mask does: ``"raise"`` (ValueError, the default)
    or ``"random"`` (a uniformly random legal action is taken instead). ``max_steps``: the
    episode is truncated after that many actions (None: never).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "unoarena_uno_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
        "encoding_version": ENCODING_VERSION,
    }

    def __init__(self, rules: RuleSet | str | None = None, *, preset: str | None = None,
                 players: int | None = None, overrides: Mapping[str, Any] | None = None,
                 episode: str = "round", reward: str = "win", points_scale: float = 100.0,
                 history: int = 0, seer: bool = False, illegal: str = "raise",
                 max_steps: int | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of ansi, human or None, "
                             f"not {render_mode!r}")
        self.rules = resolve_rules(rules, preset_name=preset, players=players,
                                   overrides=overrides)
        self.table = Table(self.rules, episode=episode, reward=reward,
                           points_scale=points_scale, history=history, seer=seer)
        self.illegal = illegal
        self.max_steps = max_steps
        self.render_mode = render_mode
        n = self.rules.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        enc = self.table.encoder
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(enc.low, enc.high, (enc.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.table.num_actions,), np.int8),
        }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.table.num_actions)
                              for a in self.possible_agents}
        self._rng: random.Random | None = None
        self._rewarded = False
        self._ended = False
        self.agents: list[str] = []

    @property
    def decline(self) -> int:
        """The id of the extra action that declines an out-of-turn window."""
        return self.table.decline

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space: the encoded vector and the action mask (the same for every
        agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's action space: every action id of the rule set plus ``decline``."""
        return self.action_spaces[agent]

    def __str__(self) -> str:
        return f"unoarena_uno_v0({self.rules.preset}, {self.rules.players}p)"

    # -- the AEC API ----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new episode. ``seed`` fixes this episode and the ones that follow (DIG-1)."""
        if seed is not None:
            self._rng = random.Random(seed)
        elif self._rng is None:
            self._rng = random.Random()
        self.table.start(self._rng.getrandbits(63))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._rewarded = False
        self._ended = False  # terminated or truncated: only dead steps remain
        self.agent_selection = self.possible_agents[self.table.actor_player]

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation now: what its seat may know (DIG-2) and its mask, all zeros when
        it is not the agent to act or the episode is over."""
        return self.table.observe(self.agent_name_mapping[agent])

    def last(self, observe: bool = True) -> tuple[dict[str, Any] | None, float, bool, bool,
                                                  dict[str, Any]]:
        """As :meth:`AECEnv.last` (observation, return, terminated, truncated, info), without
        its indirections: it runs once per step in every training loop."""
        agent = self.agent_selection
        return (self.table.observe(self.agent_name_mapping[agent]) if observe else None,
                self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def legal_actions(self, agent: str | None = None) -> list[int]:
        """The legal action ids of ``agent`` (default: the one to act), as the mask has them."""
        t = self.table
        agent = agent or self.agent_selection
        if t.done or self.possible_agents[t.actor_player] != agent:
            return []
        return list(t.legal)

    def step(self, action: Any) -> None:
        """Apply the selected agent's action and select the next agent (the turn seat, or a seat
        with an open window). Done agents must pass None; an action outside the mask raises or is
        replaced, as ``illegal`` says."""
        agent = self.agent_selection
        if self._ended and (self.terminations[agent] or self.truncations[agent]):
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents that are done")
        t = self.table
        aid = int(action)
        if aid not in t.legal:
            if self.illegal == "raise":
                raise ValueError(f"action {aid} is not legal for {agent} now; legal: {t.legal} "
                                 f"(use the action_mask)")
            assert self._rng is not None
            aid = t.legal[int(self._rng.random() * len(t.legal))]
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            for a in self.rewards:
                self.rewards[a] = 0.0
            self._rewarded = False
        got = t.step(aid)
        if got is not None:
            for p, r in enumerate(got):
                self.rewards[self.possible_agents[p]] = r
            self._rewarded = True
        if t.done:
            self._ended = True
            for a in self.agents:
                self.terminations[a] = True
        elif self.max_steps is not None and t.steps >= self.max_steps:
            self._ended = True
            for a in self.agents:
                self.truncations[a] = True
        else:
            self.agent_selection = self.possible_agents[t.actor_player]
        if self._rewarded:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """A text picture of the table: public state and the hand of the seat to act."""
        text = render_text(self.table)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release; present because render() is."""


def render_text(table: Table) -> str:
    """The text picture behind ``render()``: public state, every seat's hand size and UNO, and the
    hand of the seat to act (or the round's result)."""
    g = table.game
    if g is None:
        return "(no episode: call reset())"
    n = table.players
    lines = [f"{table.rules.preset} {n}p  round {table.rounds}  step {table.steps}  "
             f"top {CODES[g.top]}  colour {COLOR_CODES[g.color] if g.color >= 0 else '-'}  "
             f"{g.direction}  phase {g.phase}"]
    sizes = g.hand_sizes()
    for s in range(n):
        mark = ">" if s == table.actor and not table.done else " "
        what = " (window)" if mark == ">" and table.window else ""
        lines.append(f"{mark} seat {s} player_{table.player_of[s]}: {sizes[s]} cards"
                     f"{' UNO' if g.declared(s) else ''}{what}")
    if not table.done:
        hand = " ".join(CODES[k] for k in sorted(g.hand(table.actor)))
        lines.append(f"seat {table.actor} holds {hand}")
    elif g.outcome is not None:
        lines.append(f"round over: winner {g.outcome.winner}, scores {list(g.outcome.scores)}")
    return "\n".join(lines)


def env(**kwargs: Any) -> UnoAECEnv:
    """The PettingZoo convention's constructor (keyword arguments as :class:`UnoAECEnv`)."""
    return UnoAECEnv(**kwargs)


raw_env = env
