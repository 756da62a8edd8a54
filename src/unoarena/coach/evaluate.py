"""A seat's chance to win the round, for each action it may take, from what it can see.

The estimate never reads a hidden card. It asks the ``ismcts`` bot's machinery for
*determinizations* of the seat's information set: every card the seat cannot see is dealt
anew, consistently with its view and what the table showed (the cards played, forced draws,
named colours: :mod:`unoarena.bots.inference`). Each action is then played on a copy of the
same determinization and followed by the same rollout (common random numbers), so that the
differences between actions are measured on paired samples: far less noise than the chances
themselves carry. A rollout plays ``rollout`` plies with the fast policy of the search and then
scores the unfinished round with the fitted model of the hands
(:func:`unoarena.bots.ismcts.win_chances`); ``rollout=0`` plays every round to its end.

The batch kernel could play more rollouts a second, but it is being rewritten; the engine's
integer fast path keeps a 60-decision review within its budget (benchmarks/review.py).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import cycle

from ..bots.ismcts import ISMCTSBot, SearchView, Tables, anchored_choice
from ..engine import Action, Game

_NOISE_DRAWS = 61


@dataclass(frozen=True)
class Choice:
    """One action the seat could take: its estimated chance to win the round (0..1), and the
    standard error of its paired difference to the best action."""

    action: Action
    chance: float
    diff_se: float


@dataclass(frozen=True)
class Evaluation:
    """Every action worth comparing at one decision, best first, and what the expert plays
    (``ismcts``'s rule: the heuristic's choice unless another beats it clearly)."""

    seat: int
    choices: tuple[Choice, ...]
    expert: Action
    samples: int

    @property
    def best(self) -> Choice:
        """The action with the highest estimated chance."""
        return self.choices[0]

    def chance_of(self, action: Action) -> float:
        """The chance after ``action`` (a play without its UNO flag counts as its twin with
        one only when the twin was the one compared)."""
        return self.choice_of(action).chance

    def choice_of(self, action: Action) -> Choice:
        """The compared choice that stands for ``action``; KeyError when it was not compared."""
        for c in self.choices:
            if c.action == action:
                return c
        raise KeyError(str(action))


class Evaluator:
    """Estimates win chances by paired rollouts (see the module docstring). ``samples``
    determinizations per decision; ``rollout`` plies before the hand model scores the round."""

    def __init__(self, samples: int = 160, rollout: int = 10, seed: int = 0,
                 noise: float = 0.9) -> None:
        if samples < 2:
            raise ValueError(f"samples must be at least 2, not {samples}")
        if rollout < 0:
            raise ValueError(f"rollout must be 0 (to the end) or more plies, not {rollout}")
        self.samples = samples
        self.rollout = rollout
        self.noise = noise
        self.rng = random.Random(seed)

    def evaluate(self, game: Game, seat: int, *, include: Sequence[Action] = ()) -> Evaluation:
        """Compare the seat's legal actions on ``game`` (not changed). Wild colours are cut to
        the two the heuristic likes best, and a play that could declare UNO is compared with
        the declaration, as the search does; ``include`` adds actions that must be compared
        (the one a player really took)."""
        legal = [a for a in game.legal_actions(seat) if a.verb != "timeout"]
        if not legal:
            raise ValueError(f"seat {seat} has nothing to decide now")
        bot = ISMCTSBot(self.rng.getrandbits(32), iterations=self.samples,
                        rollout=self.rollout, noise=self.noise)
        bot.begin_round(game.rules, seat)
        view = SearchView(game, seat)
        ctx = bot.heuristic.observe(view)
        anchor = bot.heuristic.decide(ctx, legal, random.Random(self.rng.getrandbits(32)))
        tb = Tables.of(game)
        index = game.space.index
        ids = [index[a] for a in legal]
        roots = bot._root_ids(ids, tb, game, ctx, legal)
        for a in (anchor, *include):
            i = index.get(a)
            if i is not None and i not in roots and i in ids:
                roots.append(i)
        build = bot._builder(view, ctx, game.rules)
        acts = game.space.actions
        if build is None:
            def build(r: random.Random) -> Game:
                return game.determinize(seat, r)
        if len(roots) == 1:
            sums, _pair = self._chances(game, seat, roots, bot, tb, build)
            only = (Choice(acts[roots[0]], sums[0] / self.samples, 0.0),)
            return Evaluation(seat, only, acts[roots[0]], self.samples)
        sums, pair = self._chances(game, seat, roots, bot, tb, build)
        n = self.samples
        means = [s / n for s in sums]
        best = max(range(len(roots)), key=means.__getitem__)
        choices = []
        for j, i in enumerate(roots):
            d = [a - b for a, b in zip(pair[j], pair[best], strict=True)]
            md = sum(d) / n
            var = max(0.0, sum(x * x for x in d) / n - md * md) * n / (n - 1)
            choices.append(Choice(acts[i], means[j], math.sqrt(var / n)))
        choices.sort(key=lambda c: -c.chance)
        a_root = index[anchor] if index[anchor] in roots else roots[0]
        p = roots.index(a_root)
        diff = [sum(a - b for a, b in zip(pair[j], pair[p], strict=True))
                for j in range(len(roots))]
        diff2 = [sum((a - b) ** 2 for a, b in zip(pair[j], pair[p], strict=True))
                 for j in range(len(roots))]
        expert = acts[roots[anchored_choice(diff, diff2, [n] * len(roots), p, bot.z)]]
        return Evaluation(seat, tuple(choices), expert, n)

    def _chances(self, game: Game, seat: int, roots: list[int], bot: ISMCTSBot, tb: Tables,
                 build: Callable[[random.Random], Game]
                 ) -> tuple[list[float], list[list[float]]]:
        """Sum of rewards per root, and every sample's reward per root (paired)."""
        rules = game.rules
        team = [rules.team_of(s) for s in range(game.players)]
        plies = self.rollout or 2_000
        rng = self.rng
        k = len(roots)
        sums = [0.0] * k
        pair: list[list[float]] = [[] for _ in range(k)]
        for _ in range(self.samples):
            try:
                g = build(random.Random(rng.getrandbits(64)))
            except ValueError:
                g = game.determinize(seat, random.Random(rng.getrandbits(64)))
            draws = [rng.random() for _ in range(_NOISE_DRAWS)]
            for j, root in enumerate(roots):
                c = g.clone(record_events=False)
                c.step(root, seat)
                r = bot._playout(c, tb, cycle(draws).__next__, plies, team,
                                 self.noise)[seat]
                sums[j] += r
                pair[j].append(r)
        return sums, pair
