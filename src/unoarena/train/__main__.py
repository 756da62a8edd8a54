"""``python -m unoarena.train``: train the ``learned`` bot's networks, resumably.

    python -m unoarena.train distill --out runs/learned --workers 2   # 1. rollout values
    python -m unoarena.train ppo --out runs/ppo --init runs/learned/learned.npz \\
        --iterations 677 --eval-rounds 1000 --lr 1e-4 \\
        --export src/unoarena/bots/learned.npz         # 2. fine-tuned: the policy the bot plays
    python -m unoarena.train belief --out runs/belief --data-seed 2 --rounds 20000 \\
        --workers 2 --export src/unoarena/bots/belief.npz   # the hand inference search uses

``distill`` labels decisions on the compiled kernel with rollout values and fits the policy to
them (:mod:`unoarena.train.distill`); ``belief`` records rounds and fits the hand inference
(:mod:`unoarena.train.belief`); ``ppo`` improves a policy by proximal policy optimisation on
the vector tables against the built-in bots and past versions of itself
(:mod:`unoarena.train.ppo`). Each run directory holds a checkpoint that ``--resume`` goes on
from, and the learning curve (``curve.json``, ``curve.png``). Ctrl+C or SIGTERM stops after
saving.
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path
from typing import Any


def _needs(torch_too: bool = True, kernel: bool = True) -> str:
    """Why training cannot run here ('' when it can)."""
    if torch_too:
        try:
            import torch  # noqa: F401
        except ImportError:
            return "training needs PyTorch: pip install 'unoarena[train]'"
    if kernel:
        from ..kernel import available, unavailable_reason

        if not available():
            return f"training runs on the compiled kernel: {unavailable_reason()}"
    return ""


def _common(p: argparse.ArgumentParser, out: str) -> None:
    p.add_argument("--out", default=out, help=f"run directory (default {out})")
    p.add_argument("--seed", type=int, default=1, help="seed of a new run (default 1)")
    p.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    p.add_argument("--export", default="", help="also write the final weights here")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def parser() -> argparse.ArgumentParser:
    """The command line's parser (one sub-command per network and method)."""
    ap = argparse.ArgumentParser(prog="python -m unoarena.train",
                                 description=__doc__.split("\n\n")[0],
                                 epilog=__doc__.split("\n\n", 2)[2],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True, metavar="{distill,belief,ppo}")

    d = sub.add_parser("distill", help="the policy, fitted to rollout values (the shipped "
                       "weights)", description="Label decisions with rollout values on the "
                       "kernel, then fit the policy to them (unoarena.train.distill).")
    _common(d, "runs/learned")
    d.add_argument("--resume", action="store_true", help="go on with the run in --out")
    d.add_argument("--decisions", type=int, default=5_000_000,
                   help="labelled decisions to fit (default 5000000)")
    d.add_argument("--rollouts", type=int, default=8, help="rollouts per option (default 8)")
    d.add_argument("--workers", type=int, default=1, help="labelling processes (default 1)")
    d.add_argument("--epochs", type=int, default=8, help="epochs of fitting (default 8)")
    d.add_argument("--hidden", type=int, default=256, help="hidden units (default 256)")
    d.add_argument("--lr", type=float, default=1e-3, help="peak learning rate")
    d.add_argument("--eval-rounds", type=int, default=1000,
                   help="rounds per fixed opponent after each epoch (default 1000)")
    d.add_argument("--minutes", type=float, default=None,
                   help="stop labelling after this much wall time in this call")

    b = sub.add_parser("belief", help="the hand inference search bots weigh deals by",
                       description="Record rounds of the built-in bots and fit the learned "
                       "hand inference (unoarena.train.belief).")
    _common(b, "runs/belief")
    b.add_argument("--rounds", type=int, default=20_000, help="rounds to record")
    b.add_argument("--workers", type=int, default=1, help="recording processes")
    b.add_argument("--data-seed", type=int, default=None,
                   help="seed of the recorded rounds (default: --seed)")
    b.add_argument("--epochs", type=int, default=8, help="epochs of fitting (default 8)")
    b.add_argument("--hidden", type=int, default=384, help="hidden units (default 384)")

    p = sub.add_parser("ppo", help="proximal policy optimisation on the vector tables",
                       description="Improve the policy by PPO against the built-in bots and "
                       "past versions of itself (unoarena.train.ppo).")
    _common(p, "runs/ppo")
    p.add_argument("--resume", action="store_true", help="go on with the run in --out")
    p.add_argument("--init", default="", metavar="NPZ",
                   help="start a new run from these weights (e.g. a distilled policy)")
    p.add_argument("--iterations", type=int, default=100_000,
                   help="stop after this many iterations in all (default 100000)")
    p.add_argument("--minutes", type=float, default=None,
                   help="stop after this much wall time in this call")
    p.add_argument("--envs", type=int, default=128, help="tables per configuration")
    p.add_argument("--rollout", type=int, default=64, help="steps per table per iteration")
    p.add_argument("--eval-every", type=int, default=25, help="iterations between evaluations")
    p.add_argument("--eval-rounds", type=int, default=400,
                   help="rounds per fixed opponent at each evaluation")
    p.add_argument("--imitate", type=int, default=0, metavar="ROUNDS",
                   help="a new run first imitates heuristic play over ROUNDS rounds")
    p.add_argument("--lr", type=float, default=3e-4)
    return ap


def main(argv: list[str] | None = None) -> int:
    """Run the sub-command; returns the exit status (2 when PyTorch, the kernel or the run
    directory is missing or already taken)."""
    args = parser().parse_args(argv)
    why = _needs(kernel=args.command != "belief")
    if why:
        print(why, file=sys.stderr)
        return 2
    import torch

    torch.set_num_threads(max(1, args.threads))
    # Ctrl+C, or a TERM from a scheduler, stops after saving (a background job started by a
    # shell ignores SIGINT unless it is given back its handler)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _interrupt)
    command = {"distill": _distill, "belief": _belief, "ppo": _ppo}[args.command]
    return command(args)


def _fresh(out: Path, resume: bool) -> str:
    """Why the run directory cannot be used as asked ('' when it can)."""
    has = (out / "checkpoint.pt").exists()
    if resume and not has:
        return f"--resume: no checkpoint.pt in {out}"
    if not resume and has:
        return f"{out} already holds a run: pass --resume to continue it, or another --out"
    return ""


def _bar(args: Any, what: str) -> Any:
    from ..lab.progress import ProgressBar

    return None if args.no_progress else ProgressBar(sys.stderr, what, what)


def _distill(args: Any) -> int:
    from .distill import SCORE_SCALE, Config, Run

    out = Path(args.out)
    why = _fresh(out, args.resume)
    if why:
        print(why, file=sys.stderr)
        return 2
    if args.resume:
        run = Run.resume(out)
    else:
        run = Run(Config(seed=args.seed, decisions=args.decisions, rollouts=args.rollouts,
                         epochs=args.epochs, hidden=args.hidden, lr=args.lr,
                         eval_rounds=args.eval_rounds), out)
        run.save()
    bar = _bar(args, "decisions")
    try:
        rows = run.label(args.workers, bar, args.minutes)
        run.save()
        if bar is not None:
            bar.close()
        if rows < run.cfg.decisions:
            print(f"labelled {rows:,} of {run.cfg.decisions:,} decisions: --resume goes on",
                  file=sys.stderr)
            return 0
        print(f"labelled {rows:,} decisions in {run.label_seconds:.0f} s", flush=True)
        run.fit(run.cfg.epochs - run.epoch, bar, sys.stdout, args.threads)
    except KeyboardInterrupt:
        run.save()
        print(f"\ninterrupted: checkpoint saved after epoch {run.epoch}", file=sys.stderr)
    finally:
        if bar is not None:
            bar.close()
    meta = {"method": "distill", "epochs": run.epoch, "seed": run.cfg.seed,
            "decisions": run.cfg.decisions, "rollouts": run.cfg.rollouts,
            "score_scale": SCORE_SCALE, "seconds": round(run.seconds + run.label_seconds),
            "curve": run.curve[-1] if run.curve else {}}
    return _write(run.policy, out, args.export, meta, SCORE_SCALE)


def _belief(args: Any) -> int:
    import json

    import numpy as np

    from .belief import dataset, fit, save

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    data_path, recorded_path = out / "data.npz", out / "recorded.json"
    data_seed = args.seed if args.data_seed is None else args.data_seed
    recorded = {"rounds": args.rounds, "data_seed": data_seed}
    if data_path.exists():  # recorded by an earlier call: fit again without recording
        if not recorded_path.exists():
            print(f"{data_path} has no {recorded_path.name} beside it, so what rounds and seed "
                  "it holds is unknown: delete it to record again, or use another --out",
                  file=sys.stderr)
            return 2
        earlier = json.loads(recorded_path.read_text())
        if earlier != recorded:
            print(f"{data_path} holds rounds recorded with {earlier}, not {recorded}: pass "
                  "those, another --out, or delete it to record again", file=sys.stderr)
            return 2
        with np.load(data_path) as z:
            data = {k: z[k] for k in z.files}
    else:
        data = dataset(args.rounds, data_seed, args.workers,
                       log=None if args.no_progress else sys.stderr)
        np.savez(data_path, **dict[str, Any](data))
        recorded_path.write_text(json.dumps(recorded) + "\n")
        print(f"\nrecorded {len(data['x']):,} rows", flush=True)
    arrays, meta = fit(data, hidden=args.hidden, epochs=args.epochs, seed=args.seed,
                       threads=args.threads, log=sys.stdout)
    meta.update({"rounds": args.rounds, "seed": args.seed, "data_seed": data_seed})
    (out / "fit.json").write_text(json.dumps(meta, indent=1) + "\n")
    paths = [save(arrays, meta, out / "belief.npz")]
    if args.export:
        paths.append(save(arrays, meta, args.export))
    print("weights: " + ", ".join(str(p) for p in paths))
    return 0


def _ppo(args: Any) -> int:
    from .ppo import Config, Trainer

    out = Path(args.out)
    why = _fresh(out, args.resume)
    if why:
        print(why, file=sys.stderr)
        return 2
    if args.resume:
        trainer = Trainer.resume(out)
    else:
        start: dict[str, Any] = {}
        if args.init:  # the network's sizes, and its scores' scale, are the initial weights'
            from ..bots.learned import Network

            try:
                net = Network.load(args.init)
            except ValueError as e:
                print(f"--init: {e}", file=sys.stderr)
                return 2
            start = {"hidden": net.p["w1"].shape[1], "embed": net.p["wa"].shape[1],
                     "init": str(args.init),
                     "score_scale": float(net.meta.get("score_scale", 1.0))}
        trainer = Trainer(Config(seed=args.seed, envs=args.envs, rollout=args.rollout,
                                 eval_every=args.eval_every, eval_rounds=args.eval_rounds,
                                 lr=args.lr, imitate=args.imitate, **start), out)
        if args.init:
            trainer.initialise(args.init)
    bar = _bar(args, "iterations")
    try:
        trainer.run(iterations=args.iterations, minutes=args.minutes, progress=bar,
                    log=sys.stdout)
    except KeyboardInterrupt:
        trainer.save()
        print(f"\ninterrupted: checkpoint saved at iteration {trainer.iteration}",
              file=sys.stderr)
    finally:
        if bar is not None:
            bar.close()
    meta = {"method": "ppo", "iterations": trainer.iteration, "samples": trainer.samples,
            "seconds": round(trainer.seconds), "seed": trainer.cfg.seed,
            "curve": trainer.curve[-1]}
    if trainer.cfg.init:  # fine-tuned weights keep the scale a search reads their scores in
        meta.update(init=trainer.cfg.init, score_scale=trainer.cfg.score_scale)
    return _write(trainer.policy, out, args.export, meta)


def _write(policy: Any, out: Path, also: str, meta: dict[str, Any], scale: float = 1.0) -> int:
    """Export the policy's weights to the run directory (and to ``also`` when given)."""
    from .policy import export

    paths = [export(policy, out / "learned.npz", meta, scale)]
    if also:
        paths.append(export(policy, also, meta, scale))
    print("weights: " + ", ".join(str(p) for p in paths))
    return 0


def _interrupt(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    raise SystemExit(main())
