"""Environment steps per second: unoarena's PettingZoo AEC env beside RLCard's UNO env.

    python benchmarks/rl_env.py                  # table; classic 2p and 4p, 5 s each
    python benchmarks/rl_env.py --json           # one JSON line on stdout
    python benchmarks/rl_env.py --compiled .venv-fast/bin/python   # also the mypyc engine

One env step is what a training loop pays per decision: unoarena ``env.last()`` (the
observation vector and the action mask of the agent to act) then ``env.step(action)``;
RLCard ``env.step(action)``, which returns the next state with its encoded observation and
legal actions. In both, the agent picks a uniformly random legal action from what the env
hands it (unoarena ``env.legal_actions()``, RLCard ``state["legal_actions"]``). A second
unoarena figure decodes the action mask with numpy instead (``np.flatnonzero``), as an agent
that only reads observations would. RLCard's ``env.run`` with ``RandomAgent`` (what its own
examples do) is reported too.

Rule differences change what a step is: RLCard's UNO has two players only, offers "draw"
only without a playable card and has no UNO call, catch or challenge, so its random games
are short; unoarena's random agent may draw voluntarily, must call UNO and is offered catch
windows, so its episodes are far longer. Steps per second compares the cost of a step.

Every measurement runs in its own child process, one after another (never two at once),
``--repeats`` times, interleaved; the best of the repeats is reported, since on a shared
machine the slower runs measure the neighbours. Prints JSON with ``--json``.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from vs_rlcard import (  # noqa: E402
    RUNNER,
    BenchError,
    child_env,
    log,
    resolve_rlcard_python,
    run_json,
)

TARGET = 5.0  # required ratio to RLCard
CONFIGS = (("classic", 2), ("classic", 4))


# -- the unoarena side (runs in a child process) -----------------------------------------------
def measure_aec(rules_name: str, players: int, seconds: float, seed: int,
                policy: str) -> dict[str, Any]:
    """AEC loop: last() then step(); the agent picks a uniformly random legal action."""
    import numpy as np

    from unoarena.rl import UnoAECEnv

    env = UnoAECEnv(rules_name, players=players)
    env.reset(seed=seed)
    rand = random.Random(seed).random
    last, step, legal_actions = env.last, env.step, env.legal_actions
    flatnonzero = np.flatnonzero
    table = env.table

    def episode() -> int:
        env.reset()
        n = 0
        while True:
            obs, _reward, term, trunc, _info = last()
            if term or trunc:
                return n
            if policy == "mask":
                legal = flatnonzero(obs["action_mask"])
                step(int(legal[int(rand() * len(legal))]))
            else:
                legal = legal_actions()
                step(legal[int(rand() * len(legal))])
            n += 1

    for _ in range(3):
        episode()
    steps = episodes = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        steps += episode()
        episodes += 1
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {"steps": steps, "episodes": episodes, "elapsed_s": round(elapsed, 3),
            "steps_per_s": round(steps / elapsed, 1),
            "mean_steps_per_episode": round(steps / episodes, 1),
            "observation_size": table.encoder.size, "actions": table.num_actions}


def measure_gym(rules_name: str, players: int, seconds: float, seed: int) -> dict[str, Any]:
    """Gymnasium loop against ``basic`` bots: agent steps/s (bot moves happen inside)."""
    from unoarena.rl import UnoEnv

    env = UnoEnv(rules_name, players=players, opponents="basic")
    rand = random.Random(seed).random
    env.reset(seed=seed)
    steps = episodes = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        env.reset()
        done = False
        while not done:
            legal = env.table.legal
            _obs, _r, term, trunc, _ = env.step(legal[int(rand() * len(legal))])
            steps += 1
            done = term or trunc
        actions += env.table.steps
        episodes += 1
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {"agent_steps": steps, "episodes": episodes, "elapsed_s": round(elapsed, 3),
            "agent_steps_per_s": round(steps / elapsed, 1),
            "all_seat_actions_per_s": round(actions / elapsed, 1)}


def child(args: argparse.Namespace) -> int:
    if args.child == "gym":
        out = measure_gym(args.preset, args.players, args.seconds, args.seed)
    else:
        out = measure_aec(args.preset, args.players, args.seconds, args.seed, args.child)
    print(json.dumps(out))
    return 0


# -- the parent: schedule, compare, report ----------------------------------------------------
def ours(python: str, kind: str, name: str, players: int, seconds: float,
         seed: int) -> dict[str, Any]:
    cmd = [python, str(Path(__file__).resolve()), "--child", kind, "--preset", name,
           "--players", str(players), "--seconds", f"{seconds:g}", "--seed", str(seed)]
    return run_json(cmd, f"unoarena {kind} {name} {players}p", timeout=10 * seconds + 120)


def rlcard(python: str, mode: str, seconds: float, seed: int) -> dict[str, Any]:
    cmd = [python, str(RUNNER), "--mode", mode, "--seconds", f"{seconds:g}", "--min-games",
           "20", "--seed", str(seed)]
    block = run_json(cmd, f"rlcard {mode}", timeout=20 * seconds + 120)
    result = block.get(mode)
    if not isinstance(result, dict):
        raise BenchError(f"rlcard runner: no {mode!r} result")
    result["version"] = block.get("version")
    return result


def engine_version(python: str) -> str:
    probe = subprocess.run([python, "-c", "import unoarena.engine.game as g; print(g.__file__)"],
                           capture_output=True, text=True, env=child_env(), check=False)
    path = probe.stdout.strip()
    return "compiled (mypyc)" if path.endswith(".so") else "pure Python"


def best(runs: list[dict[str, Any]], key: str) -> dict[str, Any]:
    top = max(runs, key=lambda r: float(r[key]))
    return {**top, "all_" + key: [r[key] for r in runs]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="seconds per run (default 5)")
    ap.add_argument("--repeats", type=int, default=3, help="runs of each, best kept (3)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="print one JSON line")
    ap.add_argument("--compiled", metavar="PYTHON",
                    help="also measure with this interpreter (e.g. .venv-fast/bin/python, "
                         "unoarena built with UNOARENA_MYPYC=1)")
    ap.add_argument("--rlcard-python", metavar="PATH",
                    help="interpreter with rlcard (default: .venv-rlcard, created if needed)")
    ap.add_argument("--no-gym", action="store_true", help="skip the Gymnasium loop")
    ap.add_argument("--child", choices=("legal", "mask", "gym"), help=argparse.SUPPRESS)
    ap.add_argument("--preset", default="classic", help=argparse.SUPPRESS)
    ap.add_argument("--players", type=int, default=2, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        return child(args)
    try:
        rl_python = resolve_rlcard_python(args.rlcard_python)
    except BenchError as e:
        log(f"error: {e}")
        return 2
    pythons = {"pure": sys.executable}
    if args.compiled:
        pythons["compiled"] = args.compiled
    runs: dict[str, list[dict[str, Any]]] = {}
    started = time.perf_counter()
    try:
        for _ in range(args.repeats):  # interleaved, so that a busy moment hits all alike
            for mode in ("steps", "env"):
                runs.setdefault(f"rlcard_{mode}", []).append(
                    rlcard(rl_python, mode, args.seconds, args.seed))
            for label, python in pythons.items():
                for name, n in CONFIGS:
                    for kind in ("legal", "mask"):
                        runs.setdefault(f"{label}_{kind}_{name}_{n}p", []).append(
                            ours(python, kind, name, n, args.seconds, args.seed))
        if not args.no_gym:
            for name, n in CONFIGS:
                runs[f"pure_gym_{name}_{n}p"] = [
                    ours(sys.executable, "gym", name, n, args.seconds, args.seed)]
    except BenchError as e:
        log(f"error: {e}")
        return 2
    rl_steps = best(runs["rlcard_steps"], "actions_per_s")
    rl_run = best(runs["rlcard_env"], "actions_per_s")
    report: dict[str, Any] = {
        "rlcard": {"version": rl_steps.get("version"), "players": 2,
                   "env_step_loop": rl_steps, "env_run": rl_run},
        "unoarena": {},
        "target_ratio": TARGET,
        "python": platform.python_version(),
        "seconds": args.seconds,
        "repeats": args.repeats,
    }
    for label, python in pythons.items():
        block: dict[str, Any] = {"engine": engine_version(python), "python_path": python}
        for name, n in CONFIGS:
            for kind in ("legal", "mask"):
                r = best(runs[f"{label}_{kind}_{name}_{n}p"], "steps_per_s")
                r["ratio_vs_rlcard_env_step_loop"] = round(
                    r["steps_per_s"] / rl_steps["actions_per_s"], 2)
                r["ratio_vs_rlcard_env_run"] = round(
                    r["steps_per_s"] / rl_run["actions_per_s"], 2)
                block[f"aec_{kind}_{name}_{n}p"] = r
        report["unoarena"][label] = block
    if not args.no_gym:
        report["unoarena"]["pure"]["gym_vs_basic"] = {
            f"{name}_{n}p": runs[f"pure_gym_{name}_{n}p"][0] for name, n in CONFIGS}
    log(f"done in {time.perf_counter() - started:.0f} s")
    if args.json:
        print(json.dumps(report))
    else:
        print(table(report))
    return 0


def table(report: dict[str, Any]) -> str:
    rl = report["rlcard"]
    rows: list[tuple[str, str, str, str]] = [
        (f"RLCard {rl['version']} uno 2p, env.step loop",
         f"{rl['env_step_loop']['actions_per_s']:.0f}", "", ""),
        (f"RLCard {rl['version']} uno 2p, env.run + RandomAgent",
         f"{rl['env_run']['actions_per_s']:.0f}", "", "")]
    notes: list[str] = []
    for block in report["unoarena"].values():
        engine = "compiled engine" if block["engine"].startswith("compiled") else "pure Python"
        for key, r in block.items():
            if not key.startswith("aec_"):
                continue
            _aec, kind, name, n = key.split("_")
            pick = "legal_actions()" if kind == "legal" else "np mask"
            rows.append((f"unoarena AEC {name} {n}, {engine}, {pick}",
                         f"{r['steps_per_s']:.0f}",
                         f"{r['ratio_vs_rlcard_env_step_loop']:.2f}x",
                         f"{r['ratio_vs_rlcard_env_run']:.2f}x"))
        for key, r in block.get("gym_vs_basic", {}).items():
            notes.append(f"unoarena Gymnasium {key} vs basic bots: "
                         f"{r['agent_steps_per_s']:.0f} agent steps/s "
                         f"({r['all_seat_actions_per_s']:.0f} actions/s, all seats)")
    width = max(len(r[0]) for r in rows)
    head = f"{'environment':<{width}}  {'steps/s':>9}  {'/ RLCard step':>13}  {'/ RLCard run':>12}"
    lines = [head, "-" * len(head)]
    lines += [f"{a:<{width}}  {b:>9}  {c:>13}  {d:>12}" for a, b, c, d in rows]
    lines += ["", *notes, "",
              f"target: {report['target_ratio']:g}x RLCard; best of {report['repeats']} runs "
              f"of {report['seconds']:g} s each, python {report['python']}"]
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
