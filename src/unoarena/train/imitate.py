"""A head start for the policy: imitate the ``heuristic`` bot before reinforcement learning.

Proximal policy optimisation from random weights spends its first million decisions learning
what ``heuristic`` already knows (play rather than draw, keep the wilds, name the colour held
most). So a new run first records rounds where every seat is a Python ``heuristic`` bot (the
decision of each seat on its turns and in its windows, with the seat's observation, and
whether that seat went on to win the round), and fits the policy to those decisions (cross
entropy over the legal actions) and the value head to the results, before PPO takes over.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from ..bots import make_bot
from ..bots.base import Bot
from ..bots.features import Layout
from ..driver import play_round
from ..encoding import Encoder
from ..engine import Action, Game, RuleSet
from .policy import Policy, TableSpec, masked


@dataclass
class Record:
    """The decisions of one rule set: inputs, legal ids, the choice, seat and result."""

    layout: Layout
    x: list[np.ndarray[Any, Any]] = field(default_factory=list)
    legal: list[list[int]] = field(default_factory=list)
    choice: list[int] = field(default_factory=list)
    seat: list[int] = field(default_factory=list)
    result: list[float] = field(default_factory=list)


class Recorder:
    """Sits in front of a bot and records what it decides (one seat)."""

    def __init__(self, bot: Bot, layout: Layout, encoder: Encoder, rec: Record) -> None:
        self.bot = bot
        self.name = bot.name
        self.layout = layout
        self.encoder = encoder
        self.rec = rec
        self.seat = -1
        self.rows: list[int] = []

    def begin_round(self, rules: RuleSet, seat: int) -> None:
        """Remember the seat the recorded rows belong to, and start the wrapped bot's round."""
        self.seat = seat
        self.bot.begin_round(rules, seat)

    def _note(self, view: Mapping[str, Any], ids: list[int], choice: int, window: bool) -> None:
        r = self.rec
        self.rows.append(len(r.choice))
        r.x.append(self.layout.canon(self.encoder.encode_view(view, window=window)))
        r.legal.append(ids)
        r.choice.append(choice)
        r.seat.append(self.seat)
        r.result.append(0.0)

    def act(self, view: Mapping[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        """The wrapped bot's move, recorded unless it was the only legal one."""
        a = self.bot.act(view, legal, rng)
        if len(legal) > 1:
            space = self.layout.space
            self._note(view, [space.id(x) for x in legal], space.id(a), False)
        return a

    def window(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        """The wrapped bot's answer, always recorded: a declined window as the layout's
        ``decline`` id."""
        a = self.bot.window(view, legal)
        space = self.layout.space
        ids = [space.id(x) for x in legal] + [self.layout.decline]
        self._note(view, ids, self.layout.decline if a is None else space.id(a), True)
        return a


def record(specs: Sequence[TableSpec], rounds: int, seed: int,
           progress: Callable[[int, int], None] | None = None) -> list[Record]:
    """``rounds`` rounds of ``heuristic`` at every seat for each table spec."""
    out = []
    total = rounds * len(specs)
    done = 0
    for i, spec in enumerate(specs):
        rules = spec.rules()
        rec = Record(Layout(rules))
        enc = Encoder(rules)
        n = rules.players
        for r in range(rounds):
            s = seed * 1_000_003 + i * 100_003 + r
            seats = [Recorder(make_bot("heuristic", s * 16 + k), rec.layout, enc, rec)
                     for k in range(n)]
            g = Game(rules, s, dealer=r % n)
            play_round(g, seats, random.Random(s))
            outcome = g.outcome
            assert outcome is not None
            for k, seat in enumerate(seats):
                won = outcome.winner is not None and (
                    rules.team_of(outcome.winner) == rules.team_of(k) if rules.teams
                    else outcome.winner == k)
                for row in seat.rows:
                    rec.result[row] = 1.0 if won else -1.0
            done += 1
            if progress is not None:
                progress(done, total)
        out.append(rec)
    return out


def fit(policy: Policy, opt: torch.optim.Optimizer, records: Sequence[Record], epochs: int,
        minibatch: int = 1024, seed: int = 0) -> list[float]:
    """Cross entropy of the recorded choices plus the value head's squared error; returns
    the mean policy loss of each epoch."""
    gen = torch.Generator().manual_seed(seed)
    tensors = []
    for rec in records:
        lay = rec.layout
        width = len(lay.actions)
        mask = torch.zeros((len(rec.choice), width), dtype=torch.bool)
        for j, ids in enumerate(rec.legal):
            mask[j, ids] = True
        tensors.append((torch.from_numpy(np.stack(rec.x)), mask,
                        torch.from_numpy(lay.target[np.array(rec.seat)]),
                        torch.tensor(rec.choice), torch.tensor(rec.result),
                        torch.from_numpy(lay.actions)))
    losses = []
    for _ in range(epochs):
        total, count = 0.0, 0
        batches = []
        for t in tensors:
            perm = torch.randperm(len(t[3]), generator=gen)
            batches += [(t, perm[i:i + minibatch]) for i in range(0, len(perm), minibatch)]
        order = torch.randperm(len(batches), generator=gen).tolist()
        for b in order:
            (x, mask, target, choice, result, feats), idx = batches[b]
            logits, value = policy(x[idx], feats, target[idx])
            logp = torch.log_softmax(masked(logits, mask[idx]), -1)
            pl = -logp.gather(1, choice[idx][:, None]).mean()
            vl = ((value - result[idx]) ** 2).mean()
            loss = pl + 0.5 * vl
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(pl.detach()) * len(idx)
            count += len(idx)
        losses.append(total / max(1, count))
    return losses
