"""``python -m unoarena.train``: train the ``learned`` bot, resumably, and export its weights.

    python -m unoarena.train --out runs/learned --minutes 30 --seed 1
    python -m unoarena.train --out runs/learned --resume --minutes 60   # go on training
    python -m unoarena.train --out runs/learned --export src/unoarena/bots/learned.npz

A run directory holds ``checkpoint.pt`` (policy, optimiser, counters, learning curve),
``curve.json`` and ``curve.png`` (win rates of the greedy policy against fixed opponents over
training) and ``learned.npz`` (the weights for the numpy bot, written at the end).
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    """The command line: start or resume the run in ``--out``, train, export the weights;
    returns the exit status (2 when PyTorch, the kernel or the run directory is missing or
    already taken)."""
    ap = argparse.ArgumentParser(prog="python -m unoarena.train",
                                 description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="runs/learned", help="run directory (default runs/learned)")
    ap.add_argument("--resume", action="store_true",
                    help="continue the run in --out from its checkpoint")
    ap.add_argument("--iterations", type=int, default=100_000,
                    help="stop after this many iterations in all (default 100000)")
    ap.add_argument("--minutes", type=float, default=None,
                    help="stop after this much wall time in this call")
    ap.add_argument("--seed", type=int, default=1, help="seed of a new run (default 1)")
    ap.add_argument("--envs", type=int, default=128, help="tables per configuration")
    ap.add_argument("--rollout", type=int, default=64, help="steps per table per iteration")
    ap.add_argument("--eval-every", type=int, default=25, help="iterations between evaluations")
    ap.add_argument("--eval-rounds", type=int, default=400,
                    help="rounds per fixed opponent at each evaluation")
    ap.add_argument("--imitate", type=int, default=0, metavar="ROUNDS",
                    help="a new run first imitates heuristic play over ROUNDS rounds (spread "
                         "over the table mix by weight)")
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    ap.add_argument("--export", default="",
                    help="also write the final weights here (e.g. src/unoarena/bots/learned.npz)")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = ap.parse_args(argv)
    try:
        import torch
    except ImportError:
        print("training needs PyTorch: pip install 'unoarena[train]'", file=sys.stderr)
        return 2
    from ..kernel import available, unavailable_reason

    if not available():
        print(f"training runs on the compiled kernel: {unavailable_reason()}", file=sys.stderr)
        return 2
    from ..lab.progress import ProgressBar
    from .ppo import Config, Trainer, export

    torch.set_num_threads(max(1, args.threads))
    out = Path(args.out)
    if args.resume:
        if not (out / "checkpoint.pt").exists():
            print(f"--resume: no checkpoint.pt in {out}", file=sys.stderr)
            return 2
        trainer = Trainer.resume(out)
    else:
        if (out / "checkpoint.pt").exists():
            print(f"{out} already holds a run: pass --resume to continue it, or another --out",
                  file=sys.stderr)
            return 2
        trainer = Trainer(Config(seed=args.seed, envs=args.envs, rollout=args.rollout,
                                 eval_every=args.eval_every, eval_rounds=args.eval_rounds,
                                 lr=args.lr, imitate=args.imitate), out)
    # Ctrl+C, or a TERM from a scheduler, stops after saving (a background job started by a
    # shell ignores SIGINT unless it is given back its handler)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _interrupt)
    bar = None if args.no_progress else ProgressBar(sys.stderr, "train", "iterations")
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
    meta = {"iterations": trainer.iteration, "samples": trainer.samples,
            "seconds": round(trainer.seconds), "seed": trainer.cfg.seed,
            "curve": trainer.curve[-1]}
    paths = [export(trainer.policy, out / "learned.npz", meta)]
    if args.export:
        paths.append(export(trainer.policy, args.export, meta))
    print("weights: " + ", ".join(str(p) for p in paths))
    return 0


def _interrupt(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    raise SystemExit(main())
