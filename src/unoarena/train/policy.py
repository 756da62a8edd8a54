"""The ``learned`` bot's network in torch, and the tables it trains at.

:class:`Policy` is the torch twin of :class:`unoarena.bots.learned.Network` (same parameters;
:func:`export` writes them as the numpy bot reads them), :class:`TableSpec` one configuration
of a training mix. Every training stage (``distill``, ``imitate``, ``ppo``) builds on these.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from ..bots.features import ACTION_FEATURES, TARGETS
from ..bots.learned import PARAMS
from ..engine import RuleSet, preset

#: The opponent spec of a seat played by a past version of the network (self-play).
SELF = "self"


@dataclass(frozen=True)
class TableSpec:
    """One configuration of the training mix: ``weight`` is its share of the iterations;
    ``opponents`` are kernel bot specs or :data:`SELF`."""

    preset: str
    players: int
    opponents: str | tuple[str, ...]
    weight: float = 1.0

    def rules(self) -> RuleSet:
        """The rule set: the preset at this player count."""
        return preset(self.preset, players=self.players)

    @property
    def label(self) -> str:
        """A readable name for the configuration, e.g. ``classic-4p-vs-heuristic``."""
        opp = self.opponents if isinstance(self.opponents, str) else "+".join(self.opponents)
        return f"{self.preset}-{self.players}p-vs-{opp}"

    @property
    def self_play(self) -> bool:
        """Whether a past version of the network sits at the table."""
        opp = (self.opponents,) if isinstance(self.opponents, str) else self.opponents
        return SELF in opp


class Policy(nn.Module):
    """The torch twin of :class:`unoarena.bots.learned.Network` (same parameters)."""

    def __init__(self, inputs: int, hidden: int = 256, embed: int = 64) -> None:
        super().__init__()
        self.l1 = nn.Linear(inputs, hidden)
        self.l2 = nn.Linear(hidden, hidden)
        self.v = nn.Linear(hidden, 1)
        self.a = nn.Linear(ACTION_FEATURES, embed)
        self.q = nn.Linear(hidden, embed)
        self.t = nn.Linear(hidden, TARGETS)
        nn.init.orthogonal_(self.q.weight, 0.01)
        nn.init.zeros_(self.t.weight)

    def forward(self, x: torch.Tensor, feats: torch.Tensor, target: torch.Tensor
                ) -> tuple[torch.Tensor, torch.Tensor]:
        """Logits over every action id and values in -1..1 for a batch of canonical inputs ``x``;
        ``feats`` are the action features and ``target`` each row's action targets, as in
        :meth:`~unoarena.bots.learned.Network.forward`."""
        h = torch.relu(self.l2(torch.relu(self.l1(x))))
        emb = torch.tanh(self.a(feats))
        logits = self.q(h) @ emb.T + torch.gather(self.t(h), 1, target)
        return logits, torch.tanh(self.v(h)).squeeze(-1)


def export(policy: Policy, path: str | Path, meta: dict[str, Any], scale: float = 1.0) -> Path:
    """Write the weights as the numpy bot reads them (float32 ``.npz`` plus JSON metadata),
    the action scores multiplied by ``scale`` (the q and t layers are linear in them; a
    distilled policy's advantages become logits this way, see
    :data:`unoarena.train.distill.SCORE_SCALE`)."""
    layers = {"1": policy.l1, "2": policy.l2, "v": policy.v, "a": policy.a, "q": policy.q,
              "t": policy.t}
    arrays: dict[str, Any] = {}
    for key, lin in layers.items():
        k = scale if key in ("q", "t") else 1.0
        arrays["w" + key] = (lin.weight.detach().cpu().numpy().T * k).astype(np.float32)
        arrays["b" + key] = (lin.bias.detach().cpu().numpy() * k).astype(np.float32)
    assert set(arrays) == set(PARAMS)
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, **arrays, meta=np.array(json.dumps(meta)))
    return out


def masked(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``logits`` with the illegal actions (``mask`` false) set to -1e9, so that softmax and
    argmax ignore them."""
    return logits.masked_fill(~mask, -1e9)
