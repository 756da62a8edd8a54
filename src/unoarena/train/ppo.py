"""Proximal policy optimisation of the ``learned`` bot's network on the kernel's vector tables.

Each iteration takes one table configuration from the mix (a preset, a player count and who
sits in the other seats: the kernel's bots, or ``self``, a past version of the network),
plays until every table has given ``rollout`` decisions of its learning seat with the current
policy, and takes a few epochs of clipped-policy and value updates on those samples (GAE
advantages over the learning seat's decisions; the reward is +1 for winning the round, -1 for
losing it). Self-play: the ``self`` seats are the vector tables' ``caller`` seats, played by
one network from a pool of the policy's past versions (a snapshot at every evaluation, the
newest drawn half the time), sampling its moves. Every ``eval_every``
iterations the greedy policy plays fixed, seeded evaluation rounds against fixed opponents:
those win rates are the learning curve (``curve.json`` and ``curve.png``), and a checkpoint is
written that ``--resume`` continues from. The weights the bot ships are exported to ``.npz``
with :func:`export`.

Needs PyTorch (the ``train`` extra) and the compiled kernel (the ``fast`` extra).
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from ..bots.features import Layout, obs_features
from ..lab import wilson
from ..lab.progress import ProgressBar
from .gae import advantages
from .policy import SELF, Policy, TableSpec, masked

#: Past versions kept for self-play.
POOL = 8


#: The default mix: the classic matchups docs/research/bots.md measures, weighted up, and
#: every other preset at several player counts, so one network plays them all.
MIX: tuple[TableSpec, ...] = (
    TableSpec("classic", 2, "basic", 2.0),
    TableSpec("classic", 2, "heuristic", 3.0),
    TableSpec("classic", 4, "heuristic", 4.0),
    TableSpec("classic", 4, ("heuristic", "basic", "heuristic"), 1.0),
    TableSpec("classic", 3, "heuristic", 1.0),
    TableSpec("classic", 6, "heuristic", 0.5),
    TableSpec("classic", 10, "basic", 0.3),
    TableSpec("house", 2, "heuristic", 0.5),
    TableSpec("house", 4, "heuristic", 0.5),
    TableSpec("buzz", 2, "heuristic", 0.4),
    TableSpec("buzz", 4, "heuristic", 0.4),
    TableSpec("frozen2", 3, "heuristic", 0.4),
    TableSpec("frozen2", 5, "heuristic", 0.3),
    TableSpec("attack", 2, "heuristic", 0.4),
    TableSpec("attack", 4, "heuristic", 0.4),
    TableSpec("house", 8, "basic", 0.2),
    # self-play against past versions, at the classic tables and a few others
    TableSpec("classic", 2, SELF, 2.0),
    TableSpec("classic", 4, SELF, 2.0),
    TableSpec("classic", 4, (SELF, "heuristic", SELF), 1.0),
    TableSpec("house", 3, SELF, 0.3),
    TableSpec("attack", 4, SELF, 0.3),
)
#: The learning curve's fixed opponents: name -> (preset, players, opponents).
EVALS: dict[str, TableSpec] = {
    "classic 2p vs basic": TableSpec("classic", 2, "basic"),
    "classic 2p vs heuristic": TableSpec("classic", 2, "heuristic"),
    "classic 4p vs 3 heuristic": TableSpec("classic", 4, "heuristic"),
}


@dataclass
class Config:
    """Everything that decides a run (saved in its checkpoints)."""

    seed: int = 1
    envs: int = 128
    rollout: int = 64
    epochs: int = 4
    minibatch: int = 2048
    lr: float = 3e-4
    gamma: float = 1.0
    lam: float = 0.95
    clip: float = 0.2
    entropy: float = 0.01
    value_coef: float = 0.5
    hidden: int = 256
    embed: int = 64
    eval_every: int = 25
    eval_rounds: int = 400
    imitate: int = 0  # rounds of heuristic play to imitate first (over the mix, by weight)
    imitate_epochs: int = 4
    init: str = ""  # the weights a run started from (--init), recorded in what it exports
    score_scale: float = 1.0  # their scores' scale (a distilled policy's), carried on
    mix: list[dict[str, Any]] = field(default_factory=lambda: [
        {**asdict(s), "opponents": s.opponents} for s in MIX])


class Tables:
    """One configuration's vector environment, its layout, and its current observations."""

    def __init__(self, spec: TableSpec, envs: int, seed: int, max_steps: int = 300) -> None:
        from ..rl.vector_env import UnoVectorEnv

        self.spec = spec
        self.rules = spec.rules()
        opp = ("caller" if spec.opponents == SELF else spec.opponents) \
            if isinstance(spec.opponents, str) \
            else ["caller" if o == SELF else o for o in spec.opponents]
        # a greedy policy can repeat a move that changes nothing: truncated episodes count as
        # lost in evaluation and end a training episode with its value estimate
        self.env = UnoVectorEnv(envs, self.rules, opponents=opp, seat=None,
                                autoreset_mode="same_step", copy=False, max_steps=max_steps)
        self.layout = Layout(self.rules)
        self.feats = torch.from_numpy(self.layout.actions)
        self.target = torch.from_numpy(self.layout.target)
        obs, _info = self.env.reset(seed=seed)
        self.obs, self.mask = obs["observation"], obs["action_mask"]

    def inputs(self) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Canonical inputs, legal masks and per-table action targets of each table's actor (its
        learning seat, or a past version's seat), as tensors."""
        x = torch.from_numpy(self.layout.canon(self.obs))
        mask = torch.from_numpy(self.mask.astype(np.bool_))
        target = self.target[torch.from_numpy(self.env.actors())]
        return x, mask, target

    def learners(self) -> np.ndarray[Any, Any]:
        """Which tables wait on their learning seat (the others on a past version's seat)."""
        return np.asarray(self.env.actors() == self.env.seats())

    def step(self, actions: np.ndarray[Any, Any]) -> tuple[np.ndarray[Any, Any],
                                                           np.ndarray[Any, Any]]:
        """One action id per table, for its learning seat; returns each table's reward and whether
        its episode ended (an ended table starts its next episode in the same step)."""
        obs, rew, term, trunc, _info = self.env.step(actions)
        self.obs, self.mask = obs["observation"], obs["action_mask"]
        return rew.copy(), (term | trunc).copy()


class Trainer:
    """A run: the policy, its optimiser, the table mix, the curve; checkpoints in ``out``."""

    def __init__(self, cfg: Config, out: Path) -> None:
        self.cfg = cfg
        self.out = out
        torch.manual_seed(cfg.seed)
        self.policy = Policy(obs_features(), cfg.hidden, cfg.embed)
        self.opt = torch.optim.Adam(self.policy.parameters(), lr=cfg.lr, eps=1e-5)
        self.iteration = 0
        self.samples = 0
        self.seconds = 0.0
        self.curve: list[dict[str, Any]] = []
        self.imitated = False
        self.mix = [TableSpec(m["preset"], m["players"],
                              m["opponents"] if isinstance(m["opponents"], str)
                              else tuple(m["opponents"]), m["weight"]) for m in cfg.mix]
        self.tables: dict[int, Tables] = {}
        self.pool: list[dict[str, torch.Tensor]] = []  # past versions, for self-play
        self._opp: Policy | None = None

    # -- checkpoints ----------------------------------------------------------------------------
    @property
    def checkpoint(self) -> Path:
        """Where the run's checkpoint lives: ``checkpoint.pt`` in ``out``."""
        return self.out / "checkpoint.pt"

    def save(self) -> None:
        """Write the checkpoint (config, weights, optimiser, counters, curve, torch generator) via a
        temporary file, so an interrupted save leaves the previous checkpoint intact."""
        self.out.mkdir(parents=True, exist_ok=True)
        tmp = self.checkpoint.with_suffix(".tmp")
        torch.save({"config": asdict(self.cfg), "policy": self.policy.state_dict(),
                    "opt": self.opt.state_dict(), "iteration": self.iteration,
                    "samples": self.samples, "seconds": self.seconds, "curve": self.curve,
                    "imitated": self.imitated, "pool": self.pool,
                    "torch_rng": torch.get_rng_state()}, tmp)
        tmp.replace(self.checkpoint)

    @classmethod
    def resume(cls, out: Path) -> Trainer:
        """The run saved in ``out``, restored from its checkpoint (torch generator included) to go
        on where it stopped."""
        state = torch.load(out / "checkpoint.pt", weights_only=False)
        t = cls(Config(**state["config"]), out)
        t.policy.load_state_dict(state["policy"])
        t.opt.load_state_dict(state["opt"])
        t.iteration = state["iteration"]
        t.samples = state["samples"]
        t.seconds = state["seconds"]
        t.curve = state["curve"]
        t.imitated = state.get("imitated", False)
        t.pool = state.get("pool", [])
        torch.set_rng_state(state["torch_rng"])
        return t

    def initialise(self, path: str | Path, scale: float = 1.0) -> None:
        """Start from the weights in ``path`` (a ``.npz`` the bot plays, of this run's sizes)
        instead of random ones, their action scores multiplied by ``scale`` (a distilled
        policy's are exported as logits already)."""
        from ..bots.learned import Network

        net = Network.load(path)
        layers = {"1": self.policy.l1, "2": self.policy.l2, "v": self.policy.v,
                  "a": self.policy.a, "q": self.policy.q, "t": self.policy.t}
        with torch.no_grad():
            for key, lin in layers.items():
                w = torch.from_numpy(net.p["w" + key].T.copy())
                b = torch.from_numpy(net.p["b" + key].copy())
                if lin.weight.shape != w.shape:
                    raise ValueError(f"{path}: layer {key} is {tuple(w.shape)}, this run's is "
                                     f"{tuple(lin.weight.shape)} (pass the same sizes)")
                k = scale if key in ("q", "t") else 1.0
                lin.weight.copy_(w * k)
                lin.bias.copy_(b * k)
        self.imitated = True  # nothing to imitate: the run starts from these weights
        self.snapshot()

    # -- training -------------------------------------------------------------------------------
    def _spec_for(self, iteration: int) -> int:
        """The mix entry of an iteration: drawn by weight from a generator seeded by the run's
        seed and the iteration, so a resumed run makes the same choices."""
        r = random.Random(self.cfg.seed * 1_000_003 + iteration)
        return r.choices(range(len(self.mix)), weights=[s.weight for s in self.mix])[0]

    def _tables(self, i: int) -> Tables:
        t = self.tables.get(i)
        if t is None:
            seed = (self.cfg.seed * 7_919 + i * 100_003 + self.iteration * 1_009) % 2**40
            t = self.tables[i] = Tables(self.mix[i], self.cfg.envs, seed)
        return t

    def rollout(self, tables: Tables) -> dict[str, Any]:
        """Play every table with the sampling policy until each has given ``rollout`` decisions
        of its learning seat (a past version samples the ``self`` seats' moves); returns the
        flattened batch of the learning seats' decisions with GAE advantages and returns, plus
        the episodes finished and won for the log."""
        cfg = self.cfg
        opponent = self._opponent() if tables.spec.self_play else None
        envs = cfg.envs
        xs: list[torch.Tensor] = []
        masks: list[torch.Tensor] = []
        targets: list[torch.Tensor] = []
        acts: list[torch.Tensor] = []
        logps: list[torch.Tensor] = []
        vals: list[np.ndarray[Any, Any]] = []
        learns: list[np.ndarray[Any, Any]] = []
        rews: list[np.ndarray[Any, Any]] = []
        dones: list[np.ndarray[Any, Any]] = []
        count = np.zeros(envs, np.int64)
        cap = cfg.rollout * (10 if opponent is not None else 1)
        with torch.no_grad():
            while count.min() < cfg.rollout and len(acts) < cap:
                x, mask, target = tables.inputs()
                learn = tables.learners()
                logits, value = self.policy(x, tables.feats, target)
                logp = torch.log_softmax(masked(logits, mask), -1)
                a = torch.multinomial(logp.exp(), 1).squeeze(-1)
                if opponent is not None and not learn.all():
                    other, _ = opponent(x, tables.feats, target)
                    b = torch.multinomial(torch.softmax(masked(other, mask), -1), 1).squeeze(-1)
                    a = torch.where(torch.from_numpy(learn), a, b)
                xs.append(x)
                masks.append(mask)
                targets.append(target)
                acts.append(a)
                logps.append(logp.gather(1, a[:, None]).squeeze(-1))
                vals.append(value.numpy())
                learns.append(learn)
                rew, done = tables.step(a.numpy())
                rews.append(rew)
                dones.append(done)
                count += learn
            x, mask, target = tables.inputs()
            _, last = self.policy(x, tables.feats, target)
        adv, ret = advantages(np.stack(learns), np.stack(vals), np.stack(rews),
                              np.stack(dones), last.numpy(), tables.learners(), cfg.gamma,
                              cfg.lam)
        keep = [torch.from_numpy(m) for m in learns]
        sel = torch.from_numpy(np.stack(learns))
        return {"x": torch.cat([x[k] for x, k in zip(xs, keep, strict=True)]),
                "mask": torch.cat([m[k] for m, k in zip(masks, keep, strict=True)]),
                "target": torch.cat([t[k] for t, k in zip(targets, keep, strict=True)]),
                "a": torch.cat([a[k] for a, k in zip(acts, keep, strict=True)]),
                "logp": torch.cat([lp[k] for lp, k in zip(logps, keep, strict=True)]),
                "adv": torch.from_numpy(adv)[sel], "ret": torch.from_numpy(ret)[sel],
                "feats": tables.feats, "finished": int(np.stack(dones).sum()),
                "wins": int((np.stack(rews) > 0).sum())}

    def _opponent(self) -> Policy:
        """The past version that plays the ``self`` seats this iteration: the newest snapshot
        half the time, else any in the pool (drawn from the run's seed and the iteration)."""
        if not self.pool:
            self.snapshot()
        r = random.Random(self.cfg.seed * 7_919 + self.iteration)
        k = len(self.pool) - 1 if r.random() < 0.5 else r.randrange(len(self.pool))
        if self._opp is None:
            self._opp = Policy(obs_features(), self.cfg.hidden, self.cfg.embed)
        self._opp.load_state_dict(self.pool[k])
        return self._opp

    def snapshot(self) -> None:
        """Keep the current policy as a past version for self-play (the newest :data:`POOL`)."""
        state = {k: v.detach().clone() for k, v in self.policy.state_dict().items()}
        self.pool = [*self.pool, state][-POOL:]

    def update(self, b: dict[str, Any]) -> dict[str, float]:
        """PPO epochs over a batch from :meth:`rollout`, in minibatches (clipped policy loss, value
        error, entropy bonus); returns each loss averaged over the minibatch steps."""
        cfg = self.cfg
        n = len(b["a"])
        stats = {"policy": 0.0, "value": 0.0, "entropy": 0.0}
        steps = 0
        for _ in range(cfg.epochs):
            perm = torch.randperm(n)
            for s in range(0, n, cfg.minibatch):
                idx = perm[s:s + cfg.minibatch]
                logits, value = self.policy(b["x"][idx], b["feats"], b["target"][idx])
                logp_all = torch.log_softmax(masked(logits, b["mask"][idx]), -1)
                logp = logp_all.gather(1, b["a"][idx][:, None]).squeeze(-1)
                adv = b["adv"][idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                ratio = torch.exp(logp - b["logp"][idx])
                pl = -torch.min(ratio * adv,
                                torch.clamp(ratio, 1 - cfg.clip, 1 + cfg.clip) * adv).mean()
                vl = ((value - b["ret"][idx]) ** 2).mean()
                # the entropy over legal actions only (masked logits carry no mass)
                ent = -(logp_all.exp() * logp_all).sum(-1).mean()
                loss = pl + cfg.value_coef * vl - cfg.entropy * ent
                self.opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.policy.parameters(), 0.5)
                self.opt.step()
                stats["policy"] += float(pl.detach())
                stats["value"] += float(vl.detach())
                stats["entropy"] += float(ent.detach())
                steps += 1
        return {k: v / max(1, steps) for k, v in stats.items()}

    # -- evaluation -----------------------------------------------------------------------------
    def evaluate(self) -> dict[str, Any]:
        """Greedy play on fixed seeds (:func:`evaluate`), the same rounds at every evaluation
        of a run."""
        row: dict[str, Any] = {"iteration": self.iteration, "samples": self.samples,
                               "seconds": round(self.seconds, 1)}
        row.update(evaluate(self.policy, self.cfg.eval_rounds, self.cfg.seed))
        return row

    def run(self, *, iterations: int, minutes: float | None, progress: ProgressBar | None,
            log: Any = None) -> None:
        """Train until ``iterations`` in all (counting a resumed run's) or ``minutes`` of wall
        time in this call, evaluating and checkpointing every ``eval_every`` iterations."""
        start = time.monotonic()
        if not self.curve:
            self.curve.append(self.evaluate())
            self._report(log)
        if self.cfg.imitate and not self.imitated:
            self._imitate(progress, log)
        recent: list[float] = []
        while self.iteration < iterations:
            if minutes is not None and time.monotonic() - start > 60 * minutes:
                break
            t0 = time.monotonic()
            i = self._spec_for(self.iteration)
            batch = self.rollout(self._tables(i))
            stats = self.update(batch)
            self.iteration += 1
            self.samples += len(batch["a"])
            self.seconds += time.monotonic() - t0
            if batch["finished"]:
                recent = [*recent, batch["wins"] / batch["finished"]][-20:]
            if progress is not None:
                progress.label = (f"train it {self.iteration} · {self.samples:,} samples · "
                                  f"ent {stats['entropy']:.2f} · win "
                                  f"{np.mean(recent) if recent else 0:.2f}")
                progress(self.iteration, iterations)
            if self.iteration % self.cfg.eval_every == 0 or self.iteration == iterations:
                if progress is not None:
                    progress.close()
                self.curve.append(self.evaluate())
                self.snapshot()
                self.save()
                self._report(log)
        if self.curve[-1]["iteration"] != self.iteration:
            if progress is not None:
                progress.close()
            self.curve.append(self.evaluate())
            self._report(log)
        self.save()

    def _imitate(self, progress: ProgressBar | None, log: Any) -> None:
        """The head start of :mod:`unoarena.train.imitate`, once per run, before PPO; its
        evaluation is the curve's second point (still iteration 0)."""
        from .imitate import fit, record

        t0 = time.monotonic()
        weight = sum(s.weight for s in self.mix)
        groups: dict[int, list[TableSpec]] = {}
        for s in self.mix:
            n = max(20, round(self.cfg.imitate * s.weight / weight))
            groups.setdefault(n, []).append(s)
        if progress is not None:
            progress.label = "imitate: recording heuristic rounds"
        records = []
        for rounds, specs in groups.items():
            records += record(specs, rounds, self.cfg.seed, progress)
        if progress is not None:
            progress.close()
        losses = fit(self.policy, self.opt, records, self.cfg.imitate_epochs,
                     seed=self.cfg.seed)
        self.imitated = True
        self.snapshot()
        self.seconds += time.monotonic() - t0
        row = self.evaluate()
        row["imitation"] = {"decisions": sum(len(r.choice) for r in records),
                            "losses": [round(x, 4) for x in losses]}
        self.curve.append(row)
        self.save()
        self._report(log)

    def _report(self, log: Any) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        (self.out / "curve.json").write_text(json.dumps(self.curve, indent=1) + "\n")
        plot_curve(self.curve, self.out / "curve.png")
        if log is not None:
            row = self.curve[-1]
            rates = ", ".join(f"{k} {row[k]['win_rate']:.3f}" for k in EVALS)
            print(f"iteration {row['iteration']}, {row['samples']:,} samples, "
                  f"{row['seconds']:.0f} s: {rates}", file=log, flush=True)


def evaluate(policy: Policy, rounds: int, seed: int) -> dict[str, Any]:
    """The greedy policy's win rate over ``rounds`` seeded rounds against each fixed opponent of
    :data:`EVALS` (the same rounds for the same ``seed``), with 95% Wilson intervals."""
    out: dict[str, Any] = {}
    per_table = 2
    envs = max(1, math.ceil(rounds / per_table))
    for name, spec in EVALS.items():
        t = Tables(spec, envs, 10**9 + seed)
        played = np.zeros(envs, np.int64)
        wins = 0
        with torch.no_grad():
            while (played < per_table).any():
                x, mask, target = t.inputs()
                logits, _ = policy(x, t.feats, target)
                a = masked(logits, mask).argmax(-1).numpy()
                rew, done = t.step(a)
                count = done & (played < per_table)
                wins += int((rew[count] > 0).sum())
                played += done
        n = envs * per_table
        lo, hi = wilson(wins, n)
        out[name] = {"win_rate": round(wins / n, 4), "ci95": [round(lo, 4), round(hi, 4)],
                     "rounds": n}
    return out


def plot_curve(curve: Sequence[dict[str, Any]], path: Path,
               xlabel: str = "training samples (decisions of the learning seat)") -> Path | None:
    """Win rate against each fixed opponent over training samples, with 95% intervals and
    par; None when matplotlib is missing."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        return None
    fig = Figure(figsize=(7.5, 4.2), dpi=110, layout="constrained")
    ax = fig.add_subplot()
    xs = [r["samples"] + (1 if "imitation" in r else 0) for r in curve]
    for name, spec in EVALS.items():
        ys = [r[name]["win_rate"] for r in curve]
        lo = [r[name]["ci95"][0] for r in curve]
        hi = [r[name]["ci95"][1] for r in curve]
        (line,) = ax.plot(xs, ys, marker="o", ms=3, label=name)
        ax.fill_between(xs, lo, hi, color=line.get_color(), alpha=0.15)
        ax.axhline(1 / spec.players, color=line.get_color(), ls=":", lw=0.8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("win rate of the greedy policy")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    ax.set_title("learned: win rate against fixed opponents (dotted: par)")
    fig.savefig(path)
    return path
