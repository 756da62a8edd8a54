"""Train the ``learned`` bot on rollout values from the batch engine: one step of policy
improvement over the built-in bots, learned from millions of decisions.

Proximal policy optimisation (:mod:`unoarena.train.ppo`) learns from who won each round, one
bit for twenty decisions; in UNO that signal is so noisy that millions of decisions left the
policy where imitation had put it. Here every decision gets its own answer instead. Two stages:

1. **Label** (the compiled kernel, :mod:`unoarena.kernel.label`, in parallel processes): the
   built-in bots play rounds of a mix of presets and player counts; at a share of one seat's
   decisions, every option is played out ``rollouts`` times on copies of the table whose draw
   pile is reshuffled (the same reshuffles for every option), by the same bots. The seat's
   observation, its options and each option's mean result are stored in chunks under
   ``data/`` (a stopped run resumes with the chunks it has).
2. **Fit** (PyTorch): the policy's score of each option is fitted to that option's value,
   both centred over the decision's options (the scores are advantages: what playing this
   rather than the average option is worth), and the value head to the value of the option
   the bot took. A network that reads only the seat's view, fitted over many deals, learns
   each option's expected result given that view; playing the best one is one step of policy
   improvement over the bots the values were rolled out with.

After every epoch the greedy policy plays fixed, seeded rounds against fixed opponents
(:data:`unoarena.train.ppo.EVALS`): the learning curve (``curve.json``, ``curve.png``), and
a checkpoint (``checkpoint.pt``) that ``--resume`` continues from.

    python -m unoarena.train distill --out runs/distill --decisions 3000000 --workers 2 \\
        --export src/unoarena/bots/learned.npz

Needs PyTorch (the ``train`` extra) and the compiled kernel (the ``fast`` extra).
"""

from __future__ import annotations

import json
import math
import multiprocessing
import random
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, cast

import numpy as np
import numpy.typing as npt
import torch

from ..bots.features import Layout, obs_features
from ..kernel.label import M_CHOSEN, M_NOPT, M_SEAT
from ..lab.progress import ProgressBar
from .belief import Table
from .policy import Policy
from .ppo import evaluate, plot_curve

F32 = npt.NDArray[np.float32]

#: The fitted scores are advantages (a share of a won round, +-1 scale); the exported weights
#: multiply them by this, so that they read as logits: at ``learned:temperature=1`` an option
#: worth 0.05 more than another is e times likelier, and PPO can start from them.
SCORE_SCALE = 20.0


#: One table of the labelling mix: the preset, the player count and the seats' bots, the
#: labelled seat's own first (the others follow it round the table).
LabelSpec = Table


def _spec(p: str, n: int, others: str | Sequence[str], w: float) -> LabelSpec:
    rest = (others,) * (n - 1) if isinstance(others, str) else tuple(others)
    return LabelSpec(p, n, ("heuristic", *rest), w)


#: The default mix: the classic tables docs/research/bots.md measures, weighted up, and every
#: preset at several player counts, so that one network plays them all. The labelled seat is a
#: ``heuristic``: its own later moves in a rollout are the heuristic's.
MIX: tuple[LabelSpec, ...] = (
    _spec("classic", 4, "heuristic", 5.0),
    _spec("classic", 4, ("heuristic", "basic", "heuristic"), 1.0),
    _spec("classic", 2, "heuristic", 2.5),
    _spec("classic", 2, "basic", 2.5),
    _spec("classic", 3, "heuristic", 1.0),
    _spec("classic", 5, "heuristic", 0.5),
    _spec("classic", 6, "heuristic", 0.5),
    _spec("classic", 8, "heuristic", 0.3),
    _spec("classic", 10, "heuristic", 0.2),
    _spec("house", 2, "heuristic", 0.4),
    _spec("house", 4, "heuristic", 0.4),
    _spec("house", 6, "heuristic", 0.2),
    _spec("buzz", 2, "heuristic", 0.3),
    _spec("buzz", 4, "heuristic", 0.4),
    _spec("frozen2", 3, "heuristic", 0.3),
    _spec("frozen2", 5, "heuristic", 0.3),
    _spec("attack", 2, "heuristic", 0.4),
    _spec("attack", 4, "heuristic", 0.4),
)


@dataclass
class Config:
    """Everything that decides a run (saved in its checkpoint)."""

    seed: int = 1
    decisions: int = 5_000_000  # labelled decisions to record
    rollouts: int = 8
    share: float = 0.5  # of the labelled seat's decisions with a choice
    chunk_rounds: int = 200
    hidden: int = 256
    embed: int = 64
    epochs: int = 8
    lr: float = 1e-3
    batch: int = 1024
    value_coef: float = 0.5
    eval_rounds: int = 1000
    mix: list[dict[str, Any]] = field(default_factory=lambda: [asdict(s) for s in MIX])

    def specs(self) -> list[LabelSpec]:
        """The mix as :class:`LabelSpec` values."""
        return [LabelSpec(m["preset"], m["players"], tuple(m["bots"]), m["weight"])
                for m in self.mix]


def _chunk_spec(cfg: Config, chunk: int) -> int:
    """The mix entry of chunk ``chunk``, drawn by weight from the run's seed and the chunk
    number (so any worker, and a resumed run, makes the same choice)."""
    specs = cfg.specs()
    r = random.Random(cfg.seed * 1_000_003 + chunk)
    return r.choices(range(len(specs)), weights=[s.weight for s in specs])[0]


def _label_chunk(args: tuple[dict[str, Any], int, str]) -> tuple[int, int]:
    """Label one chunk and write it (a worker's job): returns the chunk and its rows."""
    from ..kernel.label import Labeller

    cfg_d, chunk, folder = args
    cfg = Config(**cfg_d)
    i = _chunk_spec(cfg, chunk)
    spec = cfg.specs()[i]
    lab = Labeller(spec.rules(), list(spec.bots), cfg.seed * 7_919_993 + chunk,
                   rollouts=cfg.rollouts, share=cfg.share)
    out = lab.run(cfg.chunk_rounds, cfg.chunk_rounds * 200)
    meta = out["meta"]
    width = int(meta[:, M_NOPT].max()) if len(meta) else 1
    path = Path(folder) / f"chunk-{chunk:06d}.npz"
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, spec=np.array(i), obs=out["obs"].astype(np.float16),
             ids=out["ids"][:, :width], q=out["q"][:, :width], meta=meta)
    tmp.replace(path)
    return chunk, len(meta)


class Run:
    """A distillation run in ``out``: its labelled chunks, policy, optimiser and curve."""

    def __init__(self, cfg: Config, out: Path) -> None:
        self.cfg = cfg
        self.out = out
        torch.manual_seed(cfg.seed)
        self.policy = Policy(obs_features(), cfg.hidden, cfg.embed)
        self.opt = torch.optim.Adam(self.policy.parameters(), lr=cfg.lr)
        self.epoch = 0
        self.seconds = 0.0
        self.label_seconds = 0.0
        self.curve: list[dict[str, Any]] = []

    @property
    def data(self) -> Path:
        """Where the labelled chunks live."""
        return self.out / "data"

    @property
    def checkpoint(self) -> Path:
        """The run's checkpoint."""
        return self.out / "checkpoint.pt"

    def save(self) -> None:
        """Write the checkpoint through a temporary file (an interrupted save keeps the old)."""
        self.out.mkdir(parents=True, exist_ok=True)
        tmp = self.checkpoint.with_suffix(".tmp")
        torch.save({"config": asdict(self.cfg), "policy": self.policy.state_dict(),
                    "opt": self.opt.state_dict(), "epoch": self.epoch,
                    "seconds": self.seconds, "label_seconds": self.label_seconds,
                    "curve": self.curve, "torch_rng": torch.get_rng_state()}, tmp)
        tmp.replace(self.checkpoint)

    @classmethod
    def resume(cls, out: Path) -> Run:
        """The run saved in ``out``, restored to go on where it stopped."""
        state = torch.load(out / "checkpoint.pt", weights_only=False)
        run = cls(Config(**state["config"]), out)
        run.policy.load_state_dict(state["policy"])
        run.opt.load_state_dict(state["opt"])
        run.epoch = state["epoch"]
        run.seconds = state["seconds"]
        run.label_seconds = state["label_seconds"]
        run.curve = state["curve"]
        torch.set_rng_state(state["torch_rng"])
        return run

    # -- stage 1 --------------------------------------------------------------------------------
    def chunks(self) -> dict[int, Path]:
        """The labelled chunks on disk, by number."""
        if not self.data.is_dir():
            return {}
        return {int(p.name[6:12]): p for p in self.data.glob("chunk-*.npz")
                if not p.name.endswith(".tmp.npz")}

    def selected(self) -> list[Path]:
        """The chunks a fit reads: chunk 0, 1, 2, ... up to the first whose rows bring the
        total to :attr:`Config.decisions` (or up to the first missing one). The same on every
        machine: how many processes labelled, and in what order they finished, does not
        matter."""
        have = self.chunks()
        out: list[Path] = []
        rows = 0
        k = 0
        while k in have and rows < self.cfg.decisions:
            rows += _rows(have[k])
            out.append(have[k])
            k += 1
        return out

    def label(self, workers: int, progress: ProgressBar | None = None,
              minutes: float | None = None) -> int:
        """Label chunks in ``workers`` processes until the chunks a fit reads
        (:meth:`selected`) hold :attr:`Config.decisions` decisions, or ``minutes`` pass (the
        chunks done are kept for a resumed run); returns the decisions selected."""
        self.data.mkdir(parents=True, exist_ok=True)
        target = self.cfg.decisions
        rows_of = {c: _rows(p) for c, p in self.chunks().items()}

        def prefix() -> tuple[int, int]:
            k = rows = 0
            while k in rows_of and rows < target:
                rows += rows_of[k]
                k += 1
            return k, rows

        k, rows = prefix()
        t0 = time.monotonic()
        if rows < target:
            cfg_d = asdict(self.cfg)

            def jobs() -> Any:
                c = k
                while True:
                    if c not in rows_of:
                        yield cfg_d, c, str(self.data)
                    c += 1

            ctx = multiprocessing.get_context("spawn")
            with ctx.Pool(max(1, workers)) as pool:
                for chunk, n in pool.imap_unordered(_label_chunk, jobs()):
                    rows_of[chunk] = n
                    k, rows = prefix()
                    if progress is not None:
                        progress.label = f"label: {rows:,} decisions"
                        progress(min(rows, target), target)
                    if rows >= target or (
                            minutes is not None and time.monotonic() - t0 > 60 * minutes):
                        pool.terminate()
                        break
            self.label_seconds += time.monotonic() - t0
        if rows >= target:  # chunks past the selection were labelled in vain: not kept
            for c, path in self.chunks().items():
                if c >= k:
                    path.unlink()
        return rows

    # -- stage 2 --------------------------------------------------------------------------------
    def load(self) -> list[dict[str, Any]]:
        """The selected chunks as training tensors, grouped by the mix entry (one rule set);
        inputs are kept as float16 (a quarter of the memory of the float32 observations they
        come from: five million decisions fit in 4 GB) and widened per minibatch."""
        specs = self.cfg.specs()
        layouts: dict[int, Layout] = {}
        groups: dict[int, list[dict[str, npt.NDArray[Any]]]] = {}
        for path in self.selected():
            with np.load(path) as z:
                i = int(z["spec"])
                lay = layouts.get(i)
                if lay is None:
                    lay = layouts[i] = Layout(specs[i].rules())
                groups.setdefault(i, []).append({
                    "x": lay.canon(z["obs"].astype(np.float32)).astype(np.float16),
                    "ids": z["ids"], "q": z["q"], "meta": z["meta"]})
        out = []
        for i, parts in sorted(groups.items()):
            lay = layouts[i]
            width = max(p["ids"].shape[1] for p in parts)
            ids = np.concatenate([_pad(p["ids"], width, -1) for p in parts])
            q = np.concatenate([_pad(p["q"], width, 0.0) for p in parts])
            meta = np.concatenate([p["meta"] for p in parts])
            x = np.concatenate([p["x"] for p in parts])
            parts.clear()
            valid = ids >= 0
            chosen = meta[:, M_CHOSEN]
            out.append({
                "x": torch.from_numpy(x),
                "ids": torch.from_numpy(np.where(valid, ids, 0).astype(np.int64)),
                "valid": torch.from_numpy(valid),
                "q": torch.from_numpy(q.astype(np.float32)),
                "chosen_q": torch.from_numpy(q[np.arange(len(q)), chosen].astype(np.float32)),
                "seat": torch.from_numpy(meta[:, M_SEAT].astype(np.int64)),
                "targets": torch.from_numpy(lay.target),
                "feats": torch.from_numpy(lay.actions), "rows": len(q),
                "label": f"{specs[i].preset}-{specs[i].players}p"})
        return out

    def losses(self, g: dict[str, Any], idx: torch.Tensor) -> tuple[torch.Tensor,
                                                                     torch.Tensor]:
        """The fitted quantities' squared errors on rows ``idx`` of group ``g``: the option
        scores against the option values (both centred over the options), and the value head
        against the value of the option the bot took."""
        target = g["targets"][g["seat"][idx]]  # each row's action targets, per batch
        logits, value = self.policy(g["x"][idx].float(), g["feats"], target)
        valid = g["valid"][idx]
        score = logits.gather(1, g["ids"][idx])
        q = g["q"][idx]
        cnt = valid.sum(1, keepdim=True).clamp_min(1)
        score_c = score - (score * valid).sum(1, keepdim=True) / cnt
        q_c = q - (q * valid).sum(1, keepdim=True) / cnt
        pl = (((score_c - q_c) ** 2) * valid).sum() / valid.sum().clamp_min(1)
        vl = ((value - g["chosen_q"][idx]) ** 2).mean()
        return pl, vl

    def fit(self, epochs: int, progress: ProgressBar | None = None, log: Any = None,
            threads: int = 1) -> None:
        """Fit for ``epochs`` more epochs over every chunk on disk (a one-cycle learning rate
        over the run's :attr:`Config.epochs`), evaluating and checkpointing after each."""
        torch.set_num_threads(max(1, threads))
        cfg = self.cfg
        groups = self.load()
        total = sum(g["rows"] for g in groups)
        steps_per_epoch = sum(math.ceil(g["rows"] / cfg.batch) for g in groups)
        if not self.curve:
            self.curve.append(self._evaluate())
            self._report(log)
        gen = torch.Generator().manual_seed(cfg.seed + self.epoch)
        end = min(cfg.epochs, self.epoch + epochs)
        while self.epoch < end:
            t0 = time.monotonic()
            batches = []
            for gi, g in enumerate(groups):
                perm = torch.randperm(g["rows"], generator=gen)
                batches += [(gi, perm[i:i + cfg.batch]) for i in range(0, g["rows"], cfg.batch)]
            order = torch.randperm(len(batches), generator=gen).tolist()
            tot_p = tot_v = 0.0
            for step, b in enumerate(order):
                frac = (self.epoch + step / len(order)) / cfg.epochs
                for group in self.opt.param_groups:  # cosine decay over the whole run
                    group["lr"] = cfg.lr * 0.5 * (1.0 + math.cos(math.pi * frac))
                gi, idx = batches[b]
                pl, vl = self.losses(groups[gi], idx)
                loss = pl + cfg.value_coef * vl
                self.opt.zero_grad()
                cast(Any, loss).backward()
                torch.nn.utils.clip_grad_norm_(self.policy.parameters(), 1.0)
                self.opt.step()
                tot_p += float(pl.detach()) * len(idx)
                tot_v += float(vl.detach()) * len(idx)
                if progress is not None and step % 50 == 0:
                    progress.label = (f"fit epoch {self.epoch + 1}/{cfg.epochs} · "
                                      f"{total:,} decisions")
                    progress(self.epoch * steps_per_epoch + step, cfg.epochs * steps_per_epoch)
            self.epoch += 1
            self.seconds += time.monotonic() - t0
            row = self._evaluate()
            row["loss"] = {"advantage": round(tot_p / total, 6), "value": round(tot_v / total, 5)}
            self.curve.append(row)
            self.save()
            self._report(log)

    def _evaluate(self) -> dict[str, Any]:
        row: dict[str, Any] = {"iteration": self.epoch, "samples": self._decisions(),
                               "seconds": round(self.seconds + self.label_seconds, 1)}
        self.policy.eval()
        row.update(evaluate(self.policy, self.cfg.eval_rounds, self.cfg.seed))
        self.policy.train()
        return row

    def _decisions(self) -> int:
        return sum(_rows(p) for p in self.selected()) * self.epoch

    def _report(self, log: Any) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        (self.out / "curve.json").write_text(json.dumps(self.curve, indent=1) + "\n")
        plot_curve(self.curve, self.out / "curve.png",
                   xlabel="decisions fitted (labelled decisions x epochs)")
        if log is not None:
            row = self.curve[-1]
            rates = ", ".join(f"{k} {v['win_rate']:.3f}" for k, v in row.items()
                              if isinstance(v, dict) and "win_rate" in v)
            print(f"epoch {row['iteration']}: {rates}", file=log, flush=True)


def _rows(path: Path) -> int:
    with np.load(path) as z:
        return len(z["meta"])


def _pad(a: npt.NDArray[Any], width: int, fill: float) -> npt.NDArray[Any]:
    if a.shape[1] == width:
        return a
    out = np.full((a.shape[0], width), fill, a.dtype)
    out[:, :a.shape[1]] = a
    return out
