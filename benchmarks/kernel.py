"""How fast the compiled kernel is built and plays, beside the numba kernel it replaced and
RLCard, in one run.

Prints one JSON object on stdout (progress on stderr):

* ``build_s``: building the extension from a clean copy of the tree (Cython, then the C
  compiler: ``setup.py build_ext --inplace``);
* ``first_simulate_s``: the wall time of ``unoarena simulate --players 4 --games 100000
  --seed 1`` in a fresh process (nothing compiles at first use: this is any run);
* ``rounds_per_s``: per configuration (classic 2p and 4p, house 4p, attack 4p) and bot
  (``basic``, ``heuristic``), rounds a second on one thread as ``simulate`` plays them (lab
  seeds included: ``lab``) and for the compiled loop alone (``loop``);
* ``vector_env_steps_per_s``: ``unoarena/UnoVector-v0`` steps a second in ``step`` on one
  thread (``--num-envs`` tables, classic 2p and 4p, ``basic`` opponents);
* ``simulate_million_s``: ``unoarena simulate --players 4 --games 1000000`` on
  ``--threads 2``;
* ``numba``: the same measurements for the numba kernel, from a source tree of it
  (``--numba-src``, run with ``--numba-python``, an interpreter that has numba), warmed up
  first so its compile time is not counted; its million-game run uses ``--workers 2``;
  ``ratio_to_numba`` per measurement;
* ``rlcard``: RLCard's raw two-player ``UnoGame`` loop with random actions
  (``--rlcard-python``, see ``vs_rlcard.py``) and the kernel's ratio to it.

Ratios, not absolute rates, are what compare across machines; on a loaded machine run it
with nothing else running.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

CONFIGS = (("classic", 2), ("classic", 4), ("house", 4), ("attack", 4))
BOTS = ("basic", "heuristic")
TARGETS = {"build_s": 60.0, "first_simulate_s": 5.0,
           "classic_2p_basic_lab_rounds_per_s": 200_000,
           "classic_4p_basic_lab_rounds_per_s": 150_000,
           "vector_2p_steps_per_s": 2_000_000, "vector_4p_steps_per_s": 1_000_000,
           "simulate_million_2_threads_s": 5.0}


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


# -- measured in whichever interpreter and source tree runs this file with --rates ----------
def lab_rate(name: str, players: int, bot: str, seconds: float) -> dict[str, int]:
    """Rounds a second on one thread: with the lab's seeds, and the compiled loop alone."""
    import numpy as np

    from unoarena.engine import preset
    from unoarena.kernel.runner import RoundRunner

    runner = RoundRunner(preset(name, players=players), [bot] * players, 1)
    runner.play(0, 200)  # the numba kernel compiles (or loads its cache) here
    done, lab_s, loop_s = 0, 0.0, 0.0
    block = 20_000 if bot == "basic" else 4_000
    dealers = np.zeros(block, np.int64)
    kinds = np.tile(runner.kinds, (block, 1))
    opts = np.tile(runner.opts, (block, 1, 1))
    while lab_s < seconds:
        t0 = time.perf_counter()
        seeds = runner.seeds(done, done + block)
        dealers[:] = np.arange(done, done + block) % players
        t1 = time.perf_counter()
        runner.play_seeded(done, seeds, dealers, kinds, opts)
        t2 = time.perf_counter()
        lab_s += t2 - t0
        loop_s += t2 - t1
        done += block
    return {"lab": round(done / lab_s), "loop": round(done / loop_s)}


def vector_rate(players: int, num_envs: int, seconds: float) -> int:
    """Learner steps a second of the vector env in ``step``, one thread."""
    import inspect

    import numpy as np

    from unoarena.rl.vector_env import UnoVectorEnv

    extra = ({"threads": 1} if "threads" in inspect.signature(UnoVectorEnv).parameters
             else {})
    env = UnoVectorEnv(num_envs, "classic", players=players, copy=False, **extra)
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    mask = obs["action_mask"]
    env.step((mask * rng.random(mask.shape)).argmax(1))  # the numba kernel compiles here
    steps, in_env = 0, 0.0
    while in_env < seconds:
        mask = obs["action_mask"]
        actions = (mask * rng.random(mask.shape, dtype=np.float32)).argmax(1)
        t1 = time.perf_counter()
        obs, *_ = env.step(actions)
        in_env += time.perf_counter() - t1
        steps += num_envs
    return round(steps / in_env)


def rates(seconds: float, num_envs: int) -> dict[str, Any]:
    rounds = {}
    for name, players in CONFIGS:
        for bot in BOTS:
            log(f"  {name} {players}p {bot} ...")
            rounds[f"{name}_{players}p_{bot}"] = lab_rate(name, players, bot, seconds)
    vec = {}
    for players in (2, 4):
        log(f"  vector env, classic {players}p, {num_envs} tables ...")
        vec[f"classic_{players}p"] = vector_rate(players, num_envs, seconds)
    return {"rounds_per_s": rounds, "vector_env_steps_per_s": vec}


# -- the run ------------------------------------------------------------------------------------
def build_time() -> float:
    """Build the extension from a clean copy of the tree (no generated C, no object files)."""
    with tempfile.TemporaryDirectory() as tmp:
        for part in ("setup.py", "pyproject.toml", "MANIFEST.in", "README.md", "LICENSE",
                     "build_support"):
            src = ROOT / part
            if src.is_dir():
                shutil.copytree(src, Path(tmp, part))
            elif src.exists():
                shutil.copy(src, Path(tmp, part))
        shutil.copytree(ROOT / "src", Path(tmp, "src"),
                        ignore=shutil.ignore_patterns("*.so", "_kernel.c", "__pycache__"))
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=tmp,
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.perf_counter() - t0


def simulate_wall(python: str, games: int, extra: list[str], env: dict[str, str]) -> float:
    cmd = [python, "-m", "unoarena.cli", "simulate", "--players", "4", "--games", str(games),
           "--seed", "1", *extra]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=env)
    return time.perf_counter() - t0


def child_rates(python: str, env: dict[str, str], seconds: float, num_envs: int,
                timeout: float) -> dict[str, Any]:
    cmd = [python, str(Path(__file__).resolve()), "--rates", "--seconds", str(seconds),
           "--num-envs", str(num_envs)]
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, env=env, text=True,
                         timeout=timeout)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def ratios(ours: dict[str, Any], theirs: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in ours.items():
        other = theirs.get(key)
        if isinstance(value, dict) and isinstance(other, dict):
            out[key] = ratios(value, other)
        elif isinstance(value, int | float) and isinstance(other, int | float) and other:
            out[key] = round(value / other, 2)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    ap.add_argument("--num-envs", type=int, default=1024, help="tables of the vector env")
    ap.add_argument("--numba-src", help="a source tree of the numba kernel (its src/ is used)")
    ap.add_argument("--numba-python", help="an interpreter with numba (for --numba-src)")
    ap.add_argument("--rlcard-python", help="an interpreter with rlcard installed")
    ap.add_argument("--no-build", action="store_true", help="skip the build time")
    ap.add_argument("--no-million", action="store_true", help="skip the million-game runs")
    ap.add_argument("--rates", action="store_true", help=argparse.SUPPRESS)
    ns = ap.parse_args(argv)
    if ns.rates:  # a child: the rates of whichever kernel this interpreter imports
        print(json.dumps(rates(ns.seconds, ns.num_envs)))
        return 0
    env = dict(os.environ)
    report: dict[str, Any] = {"cpu_count": os.cpu_count(), "targets": TARGETS}
    if not ns.no_build:
        log("building the kernel from a clean copy of the tree ...")
        report["build_s"] = round(build_time(), 1)
    log("first simulate (100,000 rounds, 4 players) in a fresh process ...")
    report["first_simulate_s"] = round(simulate_wall(sys.executable, 100_000, [], env), 2)
    log("rates of the compiled kernel ...")
    report.update(child_rates(sys.executable, env, ns.seconds, ns.num_envs, 3600))
    if not ns.no_million:
        log("simulate --players 4 --games 1000000 --threads 2 ...")
        report["simulate_million_2_threads_s"] = round(
            simulate_wall(sys.executable, 1_000_000, ["--threads", "2"], env), 1)
    if ns.numba_src:
        python = ns.numba_python or sys.executable
        numba_env = {**env, "PYTHONPATH": str(Path(ns.numba_src, "src"))}
        log("rates of the numba kernel (it compiles first, or loads its cache) ...")
        numba: dict[str, Any] = child_rates(python, numba_env, ns.seconds, ns.num_envs,
                                            7200)
        if not ns.no_million:
            log("numba: simulate --players 4 --games 1000000 --workers 2 ...")
            numba["simulate_million_2_workers_s"] = round(
                simulate_wall(python, 1_000_000, ["--workers", "2"], numba_env), 1)
        report["numba"] = numba
        report["ratio_to_numba"] = ratios(
            {k: report[k] for k in ("rounds_per_s", "vector_env_steps_per_s")}, numba)
    if ns.rlcard_python:
        import vs_rlcard

        try:
            log("RLCard's raw game ...")
            raw = vs_rlcard.measure_rlcard(ns.rlcard_python, ns.seconds, 50, 0)["raw"]
            ours = report["rounds_per_s"]["classic_2p_basic"]["lab"]
            report["rlcard"] = {"raw_games_per_s": round(raw["games_per_s"]),
                                "ratio_kernel_to_rlcard_raw":
                                    round(ours / raw["games_per_s"], 1)}
        except vs_rlcard.BenchError as e:
            report["rlcard"] = {"error": str(e)}
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
