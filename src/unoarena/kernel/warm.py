"""Compile the whole kernel now, in parallel processes: ``python -m unoarena.kernel.warm``.

The first use of each part of the kernel on a machine compiles it (minutes: LLVM optimises
each entry point with everything it inlines), and numba caches the result on disk. This
fills that cache ahead of time, part by part: the lab's round and match loops first, alone
(they compile the helpers every part shares), then side by side, one process each, the
one-table API the tests and tools use, the vector environment (when Gymnasium is installed)
and the labeller that training reads (:mod:`unoarena.kernel.label`). CI runs it in the
background, and the tests of the kernel wait for it (``tests/conftest.py``).

Each part is exercised through its public interface with tiny inputs, so what is compiled
is exactly what a later call loads (numba compiles per argument types).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor


def _lab() -> None:
    import numpy as np

    from ..engine import preset
    from .runner import MatchRunner, RoundRunner, bot_options

    rules = preset("classic", players=3)
    runner = RoundRunner(rules, ["basic", "heuristic", "random"], 1)
    runner.play(0, 2)
    rows = [bot_options(spec) for spec in ("basic", "heuristic", "random")]
    kinds = np.array([[k for k, _ in rows]], np.int64)
    opts = np.stack([o for _, o in rows])[None, :, :]
    runner.play_seeded(0, runner.seeds(0, 1), np.zeros(1, np.int64), kinds, opts)
    MatchRunner(rules.replace(target_score=50), ["basic", "heuristic", "random"],
                1).play_matches(0, 1)


def _single() -> None:
    from ..engine import preset
    from .single import KernelGame

    g = KernelGame(preset("classic"), 1)
    g.window_seats()
    g.step(g.legal_ids(g.turn)[0], g.turn)
    g.snapshot()


def _vector() -> None:
    from ..rl.vector_env import UnoVectorEnv

    env = UnoVectorEnv(2, "classic")
    obs, _ = env.reset(seed=0)
    env.step(obs["action_mask"].argmax(1))
    from ..encoding import Encoder
    from .observe import encode_seat, layout_of, templates

    enc = Encoder(env.rules)
    import numpy as np

    ids = np.empty(env.num_actions + 8, np.int32)
    out = np.zeros(enc.size, np.float32)
    encode_seat(env._st, env._tb, 0, 0, False, layout_of(enc), templates(enc), ids, out)


def _label() -> None:
    from ..engine import preset
    from .label import Labeller

    Labeller(preset("classic", players=2), ["heuristic", "basic"], 1, rollouts=1).run(2, 8)


PARTS: dict[str, Callable[[], None]] = {"lab": _lab, "single": _single, "vector": _vector,
                                        "label": _label}


def _run(part: str) -> tuple[str, float]:
    t0 = time.perf_counter()
    PARTS[part]()
    return part, time.perf_counter() - t0


def available_parts() -> list[str]:
    """The parts this installation has (the vector env needs Gymnasium)."""
    parts = ["lab", "single"]
    if importlib.util.find_spec("gymnasium") is not None:
        parts.append("vector")
    parts.append("label")
    return parts


def warm(parts: list[str] | None = None, workers: int = 2) -> dict[str, float]:
    """Compile ``parts`` (default: every available one) in up to ``workers`` processes;
    returns the seconds each took (a cached part loads in about a second)."""
    from . import available, unavailable_reason

    if not available():
        raise ModuleNotFoundError(unavailable_reason(), name="numba")
    todo = available_parts() if parts is None else parts
    unknown = [p for p in todo if p not in PARTS]
    if unknown:
        raise ValueError(f"unknown kernel part(s) {', '.join(unknown)}: choose from "
                         f"{', '.join(PARTS)}")
    if workers < 1:
        raise ValueError(f"workers must be 1 or more, not {workers}")
    todo = sorted(todo, key=list(PARTS).index)
    if workers == 1 or len(todo) == 1:
        return dict(_run(p) for p in todo)
    # the lab first, alone: it compiles the helpers every part inlines (the game's step, the
    # bots), which the others then load from the cache instead of each compiling them again
    # beside it (measured: the labeller in 680 s after the lab, 1,036 s from nothing)
    took: dict[str, float] = {}
    with ProcessPoolExecutor(min(workers, len(todo))) as pool:
        if todo[0] == "lab":
            took.update([pool.submit(_run, "lab").result()])
            todo = todo[1:]
        took.update(pool.map(_run, todo))
    return took


def main(argv: list[str] | None = None) -> int:
    """Command line: compile the named parts (default every installed one) and print the seconds
    each took as JSON; exit status 2 for an unknown part or missing numba."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("parts", nargs="*", help=f"parts to compile (default: all of "
                                             f"{', '.join(PARTS)} that are installed)")
    ap.add_argument("--workers", type=int, default=2, help="processes compiling at once")
    ns = ap.parse_args(argv)
    try:
        took = warm(ns.parts or None, ns.workers)
    except (ValueError, ModuleNotFoundError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json.dumps({p: round(s, 1) for p, s in took.items()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
