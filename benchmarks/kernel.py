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
* ``vector_env``: steps a second of the vector environment (``unoarena/UnoVector-v0``,
  ``--num-envs`` tables, one learning seat each against ``basic`` bots, classic 2p and 4p):
  ``env`` counts the time in ``step`` alone, ``with_policy`` adds a uniformly random legal
  choice per table drawn with numpy from the masks; beside it the Python ``unoarena/Uno-v0``
  on the same rules (one table, the same random choice) and the ratio;
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
           "ratio_to_rlcard_raw": 20.0, "vector_env_steps_per_s": 1_000_000}

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
t2 = time.perf_counter()
import numpy as np
from unoarena.rl.vector_env import UnoVectorEnv
env = UnoVectorEnv(4, "classic")
obs, _ = env.reset(seed=0)
env.step(obs["action_mask"].argmax(1))
print(t1 - t0, t2 - t1, time.perf_counter() - t2)
"""


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def compile_time() -> dict[str, float]:
    """First calls in a child process whose numba cache starts empty."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        out = subprocess.run([sys.executable, "-c", _COLD], env=env, capture_output=True,
                             text=True, check=True)
    lab, single, vector = (float(x) for x in out.stdout.split())
    return {"lab_runner_s": round(lab, 1), "single_table_api_s": round(single, 1),
            "vector_env_s": round(vector, 1)}


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


def vector_rate(players: int, num_envs: int, seconds: float) -> dict[str, float]:
    """Learner steps a second of the vector env: in ``step`` alone, and with a random policy."""
    import numpy as np

    from unoarena.rl.vector_env import UnoVectorEnv

    env = UnoVectorEnv(num_envs, "classic", players=players, copy=False)
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    env.step((obs["action_mask"] * rng.random(obs["action_mask"].shape)).argmax(1))  # compiled
    steps, in_env, t0 = 0, 0.0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        mask = obs["action_mask"]
        actions = (mask * rng.random(mask.shape, dtype=np.float32)).argmax(1)
        t1 = time.perf_counter()
        obs, *_ = env.step(actions)
        in_env += time.perf_counter() - t1
        steps += num_envs
    return {"env": steps / in_env, "with_policy": steps / (time.perf_counter() - t0)}


def python_env_rate(players: int, seconds: float) -> float:
    """Steps a second of the Python ``Uno-v0`` with the same random policy."""
    import numpy as np

    from unoarena.rl.gym_env import UnoEnv

    env = UnoEnv("classic", players=players)
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        mask = obs["action_mask"]
        obs, _r, term, trunc, _ = env.step(int((mask * rng.random(mask.shape)).argmax()))
        if term or trunc:
            obs, _ = env.reset()
        steps += 1
    return steps / (time.perf_counter() - t0)


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
    ap.add_argument("--num-envs", type=int, default=1024, help="tables of the vector env")
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
    vec = {}
    for players in (2, 4):
        log(f"vector env, classic {players}p, {ns.num_envs} tables ...")
        v = vector_rate(players, ns.num_envs, ns.seconds)
        py = python_env_rate(players, ns.seconds)
        vec[f"classic_{players}p"] = {
            "num_envs": ns.num_envs, "env": round(v["env"]),
            "with_policy": round(v["with_policy"]), "python_uno_v0": round(py),
            "ratio_env_to_python": round(v["env"] / py, 1)}
    report["vector_env_steps_per_s"] = vec
    if not ns.no_million:
        log(f"simulate --players 4 --games 1000000 --workers {ns.workers} ...")
        report["simulate_million_s"] = round(simulate_million(ns.workers), 1)
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
