"""How fast the compiled kernel plays, against the reference engine and RLCard in the same run.

Prints one JSON object on stdout (progress on stderr):

* ``compile_s``: the first call in a fresh process with an empty numba cache (what a new
  machine pays once), measured in a child process; ``--no-compile`` skips it;
* ``rounds``: per configuration (classic 2p and 4p, house 4p, attack 4p, ``basic`` bots),
  rounds a second on one core for the kernel (``kernel``: as ``simulate`` plays them,
  seeds derived in Python; ``kernel_only``: the compiled loop alone), for the reference
  engine with the same bots and seeds (``python``), and their ratio, measured one after the
  other;
* ``rlcard``: RLCard's raw two-player ``UnoGame`` loop with random actions (``--no-rlcard``
  skips it; it runs in its own interpreter, see ``vs_rlcard.py``) and the kernel's ratio to it;
* ``simulate_million``: the wall time of ``unoarena simulate --players 4 --games 1000000``
  (``--workers 2``), ``--no-million`` skips it.

Ratios, not absolute rates, are what compare across machines.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

CONFIGS = (("classic", 2), ("classic", 4), ("house", 4), ("attack", 4))
TARGETS = {"classic_2p_rounds_per_s": 100_000, "simulate_million_s": 30.0,
           "ratio_to_rlcard_raw": 20.0}

_COLD = """
import time
t0 = time.perf_counter()
from unoarena.engine import preset
from unoarena.kernel.runner import RoundRunner
RoundRunner(preset("classic"), ["basic"] * 4, 1).play(0, 10)
t1 = time.perf_counter()
from unoarena.kernel.single import KernelGame
g = KernelGame(preset("classic"), 1)
g.step(g.legal_ids(g.turn)[0], g.turn)
g.window_seats()
print(t1 - t0, time.perf_counter() - t1)
"""


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def compile_time() -> dict[str, float]:
    """First calls in a child process whose numba cache starts empty."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        out = subprocess.run([sys.executable, "-c", _COLD], env=env, capture_output=True,
                             text=True, check=True)
    lab, single = (float(x) for x in out.stdout.split())
    return {"lab_runner_s": round(lab, 1), "single_table_api_s": round(single, 1)}


def kernel_rate(name: str, players: int, seconds: float) -> dict[str, float]:
    from unoarena.engine import preset
    from unoarena.kernel.runner import RoundRunner

    runner = RoundRunner(preset(name, players=players), ["basic"] * players, 1)
    runner.play(0, 200)  # compiled (or loaded from the cache) before the clock starts
    done, spent, derive_s = 0, 0.0, 0.0
    block = 20_000
    while spent < seconds:
        t0 = time.perf_counter()
        runner.seeds(done, done + block)
        t1 = time.perf_counter()
        runner.play(done, done + block)
        t2 = time.perf_counter()
        derive_s += t1 - t0
        spent += t2 - t1
        done += block
    return {"rounds": done, "kernel": done / spent,
            "kernel_only": done / max(1e-9, spent - derive_s)}


def python_rate(name: str, players: int, seconds: float) -> float:
    from unoarena.engine import preset
    from unoarena.lab.common import play_indexed_round

    rules = preset(name, players=players)
    specs = ["basic"] * players
    done = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        play_indexed_round(rules, specs, 1, done)
        done += 1
    return done / (time.perf_counter() - t0)


def simulate_million(workers: int) -> float:
    cmd = [sys.executable, "-m", "unoarena.cli", "simulate", "--players", "4", "--games",
           "1000000", "--seed", "1", "--workers", str(workers), "--json"]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=4.0, help="time per measurement")
    ap.add_argument("--no-compile", action="store_true")
    ap.add_argument("--no-rlcard", action="store_true")
    ap.add_argument("--no-million", action="store_true")
    ap.add_argument("--rlcard-python", help="an interpreter with rlcard installed")
    ap.add_argument("--workers", type=int, default=2)
    ns = ap.parse_args(argv)
    report: dict[str, Any] = {"cpu_count": os.cpu_count(), "targets": TARGETS}
    if not ns.no_compile:
        log("compiling in a fresh process (an empty numba cache)...")
        report["compile_s"] = compile_time()
    rows = {}
    for name, players in CONFIGS:
        log(f"{name} {players}p ...")
        k = kernel_rate(name, players, ns.seconds)
        py = python_rate(name, players, ns.seconds)
        rows[f"{name}_{players}p"] = {
            "kernel": round(k["kernel"]), "kernel_only": round(k["kernel_only"]),
            "python": round(py), "ratio_kernel_to_python": round(k["kernel"] / py, 1)}
    report["rounds_per_s"] = rows
    if not ns.no_rlcard:
        import vs_rlcard

        try:
            python = vs_rlcard.resolve_rlcard_python(ns.rlcard_python)
            log("RLCard's raw game ...")
            raw = vs_rlcard.measure_rlcard(python, ns.seconds, 50, 0)["raw"]
            ours = rows["classic_2p"]["kernel"]
            report["rlcard"] = {"raw_games_per_s": round(raw["games_per_s"]),
                                "ratio_kernel_to_rlcard_raw":
                                    round(ours / raw["games_per_s"], 1)}
        except vs_rlcard.BenchError as e:
            report["rlcard"] = {"error": str(e)}
    if not ns.no_million:
        log(f"simulate --players 4 --games 1000000 --workers {ns.workers} ...")
        report["simulate_million_s"] = round(simulate_million(ns.workers), 1)
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
