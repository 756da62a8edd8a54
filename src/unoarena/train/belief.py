"""Train the learned hand inference (:mod:`unoarena.bots.belief`) on recorded rounds.

Rounds of the built-in bots are played on the reference engine; at every turn decision of every
seat, the seat's own card tracker (fed its view and history, as a search bot's is) gives the
network's inputs for each other seat, and the truth gives the target: that seat's unknown cards
by kind. The network learns to tell which kinds are likelier than a uniform deal says, by
cross entropy over those cards; its held-out log-loss per card, against the uniform deal's, is
what the run reports.

    python -m unoarena.train.belief --rounds 20000 --workers 2 --out runs/belief \\
        --export src/unoarena/bots/belief.npz

Recording needs only the engine and numpy; fitting needs PyTorch (the ``train`` extra).
"""

from __future__ import annotations

import json
import math
import multiprocessing
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from ..bots import make_bot
from ..bots.base import Bot
from ..bots.belief import FEATURES, BeliefNet, features
from ..bots.inference import CardTracker
from ..driver import play_round
from ..engine import Action, Game, RuleSet, preset
from ..engine.cards import NKINDS

F32 = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Table:
    """One configuration of a training mix: the preset, the player count, the seats' bot specs
    in order (rounds rotate who sits where) and the configuration's share of the rounds."""

    preset: str
    players: int
    bots: tuple[str, ...]
    weight: float = 1.0

    def rules(self) -> RuleSet:
        """The preset at this player count."""
        return preset(self.preset, players=self.players)


def _t(p: str, n: int, bots: str | Sequence[str], w: float) -> Table:
    seats = (bots,) * n if isinstance(bots, str) else tuple(bots)
    return Table(p, n, seats, w)


#: What is recorded, by share of the rounds: the four-player table against ``heuristic`` that
#: search finds hardest, two players against ``heuristic`` and ``basic``, and the other
#: presets and player counts, so that the beliefs are sensible everywhere.
MIX: tuple[Table, ...] = (
    _t("classic", 4, "heuristic", 5.0),
    _t("classic", 4, ("heuristic", "heuristic", "basic", "heuristic"), 1.0),
    _t("classic", 2, "heuristic", 1.5),
    _t("classic", 2, ("heuristic", "basic"), 1.5),
    _t("classic", 3, "heuristic", 1.0),
    _t("classic", 5, "heuristic", 0.7),
    _t("classic", 6, "heuristic", 0.5),
    _t("classic", 8, "heuristic", 0.3),
    _t("classic", 10, "heuristic", 0.2),
    _t("house", 4, "heuristic", 0.5),
    _t("buzz", 4, "heuristic", 0.4),
    _t("frozen2", 4, "heuristic", 0.4),
    _t("attack", 4, "heuristic", 0.4),
    _t("house", 2, "heuristic", 0.3),
)


class Watcher:
    """Sits in front of a bot, keeps the seat's own card tracker (as a search bot would) and,
    at each of its turn decisions, records the network's inputs and the truth."""

    wants_history = True

    def __init__(self, bot: Bot, game: list[Game], out: dict[str, list[Any]]) -> None:
        self.bot = bot
        self.name = bot.name
        self.game = game
        self.out = out
        self.tracker: CardTracker | None = None
        self.rules: RuleSet | None = None

    def begin_round(self, rules: RuleSet, seat: int) -> None:
        """Start the wrapped bot's round and a fresh tracker for this seat."""
        self.rules = rules
        self.tracker = CardTracker(rules, seat)
        self.bot.begin_round(rules, seat)

    def window(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        """The wrapped bot's answer (not recorded)."""
        return self.bot.window(view, legal)

    def act(self, view: Mapping[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        """Record this decision's beliefs inputs and the true hidden hands, then let the
        wrapped bot decide."""
        tr, rules = self.tracker, self.rules
        assert tr is not None and rules is not None
        tr.update(view)
        if view["phase"] == "play" and view.get("top") is not None:
            lay = tr.hidden_layout(view)
            seats, rows, pool = features(tr, view, lay, rules)
            g = self.game[0]
            for s, row in zip(seats, rows, strict=True):
                truth = np.zeros(NKINDS, np.uint8)
                for k in g.hand(s):
                    truth[k] += 1
                for k in lay.known[s]:
                    if truth[k]:
                        truth[k] -= 1
                self.out["x"].append(row.astype(np.float16))
                self.out["pool"].append(pool.astype(np.uint8))
                self.out["y"].append(truth)
        return self.bot.act(view, legal, rng)


def record(table: Table, rounds: int, seed: int) -> dict[str, npt.NDArray[Any]]:
    """``rounds`` rounds of ``table``; every turn decision's rows (inputs, pool, truth)."""
    rules = table.rules()
    out: dict[str, list[Any]] = {"x": [], "pool": [], "y": []}
    holder: list[Game] = []
    n = rules.players
    for r in range(rounds):
        s = seed * 1_000_003 + r
        g = Game(rules, s, dealer=r % n)
        holder[:] = [g]
        shift = r % n
        seats = [Watcher(make_bot(table.bots[(k + shift) % n], s * 16 + k), holder, out)
                 for k in range(n)]
        play_round(g, seats, random.Random(s))
    if not out["x"]:
        return {"x": np.zeros((0, FEATURES), np.float16),
                "pool": np.zeros((0, NKINDS), np.uint8), "y": np.zeros((0, NKINDS), np.uint8)}
    return {k: np.stack(v) for k, v in out.items()}


def _job(args: tuple[int, int, int]) -> dict[str, npt.NDArray[Any]]:
    i, rounds, seed = args
    return record(MIX[i], rounds, seed)


def dataset(rounds: int, seed: int, workers: int, chunk: int = 100,
            log: Any = None) -> dict[str, npt.NDArray[Any]]:
    """Record about ``rounds`` rounds over :data:`MIX` by weight, in chunks spread over
    ``workers`` processes (the chunks and their seeds do not depend on ``workers``)."""
    weight = sum(t.weight for t in MIX)
    jobs: list[tuple[int, int, int]] = []
    for i, t in enumerate(MIX):
        total = max(chunk, round(rounds * t.weight / weight))
        for c in range(0, total, chunk):
            jobs.append((i, min(chunk, total - c), seed * 7_919 + i * 100_003 + c))
    parts: list[dict[str, npt.NDArray[Any]]] = []
    t0 = time.monotonic()
    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for j, part in enumerate(pool.imap(_job, jobs), 1):
                parts.append(part)
                _progress(log, j, len(jobs), t0)
    else:
        for j, job in enumerate(jobs, 1):
            parts.append(_job(job))
            _progress(log, j, len(jobs), t0)
    return {k: np.concatenate([p[k] for p in parts]) for k in ("x", "pool", "y")}


def _progress(log: Any, done: int, total: int, t0: float) -> None:
    if log is not None:
        print(f"\rrecording: {done}/{total} chunks, {time.monotonic() - t0:.0f} s",
              end="", file=log, flush=True)


def log_loss(scores: Any, pool: Any, y: Any) -> Any:
    """Cross entropy per unknown card of the truth ``y`` (counts by kind) under the scores
    added to the log of the unseen copies ``pool`` (a torch computation, batched)."""
    import torch

    logits = scores + torch.log(pool.float().clamp_min(1e-3))
    logp = torch.log_softmax(logits, -1)
    yf = y.float()
    return -(yf * logp).sum(-1), yf.sum(-1)


def fit(data: Mapping[str, npt.NDArray[Any]], *, hidden: int = 256, epochs: int = 6,
        lr: float = 1e-3, batch: int = 1024, seed: int = 1, holdout: float = 0.05,
        threads: int = 1, log: Any = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """Fit the network by Adam on all but ``holdout`` of the rows; returns its arrays and the
    held-out log-loss per card, against the uniform deal's (scores of zero)."""
    import torch
    from torch import nn

    torch.manual_seed(seed)
    torch.set_num_threads(max(1, threads))
    n = len(data["x"])
    perm = np.random.default_rng(seed).permutation(n)
    cut = int(n * (1 - holdout))
    tr_idx, te_idx = perm[:cut], perm[cut:]
    x = torch.from_numpy(data["x"])
    pool = torch.from_numpy(data["pool"])
    y = torch.from_numpy(data["y"])
    layers = (nn.Linear(FEATURES, hidden), nn.Linear(hidden, hidden), nn.Linear(hidden, NKINDS))
    net = nn.Sequential(layers[0], nn.ReLU(), layers[1], nn.ReLU(), layers[2])
    nn.init.zeros_(layers[2].weight)  # the untrained network is the uniform deal
    nn.init.zeros_(layers[2].bias)
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    steps = epochs * math.ceil(len(tr_idx) / batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)

    def held_out() -> tuple[float, float]:
        with torch.no_grad():
            tot = uni = cards = 0.0
            for i in range(0, len(te_idx), 8192):
                idx = torch.from_numpy(te_idx[i:i + 8192])
                xb = x[idx].float()
                loss, cnt = log_loss(net(xb), pool[idx], y[idx])
                base, _ = log_loss(torch.zeros_like(loss)[:, None], pool[idx], y[idx])
                tot += float(loss.sum())
                uni += float(base.sum())
                cards += float(cnt.sum())
        return tot / cards, uni / cards

    history = []
    for ep in range(epochs):
        order = torch.from_numpy(np.random.default_rng(seed + ep).permutation(tr_idx))
        total = cards = 0.0
        for i in range(0, len(order), batch):
            idx = order[i:i + batch]
            loss, cnt = log_loss(net(x[idx].float()), pool[idx], y[idx])
            mean = loss.sum() / cnt.sum().clamp_min(1.0)
            opt.zero_grad()
            cast(Any, mean).backward()
            opt.step()
            sched.step()
            total += float(loss.sum().detach())
            cards += float(cnt.sum())
        test, uniform = held_out()
        history.append({"epoch": ep + 1, "train": round(total / cards, 4),
                        "held_out": round(test, 4), "uniform": round(uniform, 4)})
        if log is not None:
            print(f"epoch {ep + 1}: train {total / cards:.4f}, held-out {test:.4f} "
                  f"(uniform deal {uniform:.4f})", file=log, flush=True)
    arrays: dict[str, Any] = {}
    for key, layer in zip(("1", "2", "3"), layers, strict=True):
        arrays["w" + key] = layer.weight.detach().numpy().T.astype(np.float32).copy()
        arrays["b" + key] = layer.bias.detach().numpy().astype(np.float32).copy()
    meta = {"rows": n, "held_out_rows": len(te_idx), "hidden": hidden, "epochs": epochs,
            "history": history}
    return arrays, meta


def save(arrays: Mapping[str, Any], meta: Mapping[str, Any], path: str | Path) -> Path:
    """Write the weights as :class:`~unoarena.bots.belief.BeliefNet` reads them."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, **dict(arrays), meta=np.array(json.dumps(dict(meta))))
    BeliefNet.load(out)  # what was written must load
    return out
