"""Compare unoarena's engine speed with RLCard's UNO, measured in the same run.

Absolute games/s depend on the machine, so the comparison that means something is a ratio
taken on one machine at one time. This script runs unoarena's own benchmark
(``benchmarks/engine.py --preset classic --players 2 --json``) and RLCard's UNO in two
forms (the bare ``UnoGame`` loop and the ``env.run`` API with ``RandomAgent``), one after
the other so they never compete for cores, and reports unoarena games/s divided by each.

RLCard is only an optional extra (``pip install -e '.[bench]'``). When it cannot be
imported here, a separate interpreter is used: ``--rlcard-python PATH``, or else a
virtualenv at ``.venv-rlcard`` that is created on first use. The RLCard side always runs in
a child process (``_rlcard_runner.py``), so unoarena never imports RLCard or numpy.

Rule differences that matter when reading the numbers: in RLCard a player may draw only
when nothing in hand is playable, and a drawn card is played at once when it is a wild or
matches the target's colour (a drawn Wild Draw Four is played as a plain wild, without its
penalty); otherwise it is kept and the turn passes. With two players Reverse passes the
turn instead of acting as a Skip. Actions per game therefore differ between the engines;
the ratios compare games/s.

Progress and errors go to stderr; stdout carries only the table or, with ``--json``, one
JSON line. The exit status is 0 whenever the measurements ran, whether or not the ratios
reach the required values.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
RUNNER = Path(__file__).resolve().parent / "_rlcard_runner.py"
DEFAULT_ENGINE_SCRIPT = REPO_ROOT / "benchmarks" / "engine.py"
DEFAULT_VENV = REPO_ROOT / ".venv-rlcard"
RLCARD_REQUIREMENTS = ("rlcard>=1.2", "numpy")

REQUIRED = {"raw": 2.0, "env": 8.0}
ENGINE_KEYS = ("games_per_s", "actions_per_s", "mean_actions_per_game")
QUICK_SECONDS = 3.0

# Keep numerical libraries on one thread so every engine is measured on one core.
SINGLE_THREAD_ENV = {
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "NUMEXPR_NUM_THREADS": "1",
    "PYTHONHASHSEED": "0",
}


class BenchError(Exception):
    """A measurement could not be taken; the message says why."""


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(SINGLE_THREAD_ENV)
    return env


def venv_python(venv: Path) -> Path:
    if os.name == "nt":
        return venv / "Scripts" / "python.exe"
    return venv / "bin" / "python"


def has_rlcard(python: Path | str) -> bool:
    probe = subprocess.run(
        [str(python), "-c", "import rlcard, numpy"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    return probe.returncode == 0


def resolve_rlcard_python(explicit: str | None) -> str:
    """Pick the interpreter that runs the RLCard side, creating ``.venv-rlcard`` if needed."""
    if explicit is not None:
        if not has_rlcard(explicit):
            raise BenchError(f"--rlcard-python {explicit}: cannot import rlcard and numpy there")
        return explicit
    if importlib.util.find_spec("rlcard") is not None:
        return sys.executable
    python = venv_python(DEFAULT_VENV)
    if python.exists() and has_rlcard(python):
        return str(python)
    log(f"rlcard is not importable here; installing it into {DEFAULT_VENV} ...")
    steps = [
        [sys.executable, "-m", "venv", str(DEFAULT_VENV)],
        [str(python), "-m", "pip", "install", "--quiet", *RLCARD_REQUIREMENTS],
    ]
    for cmd in steps:
        # pip's chatter goes to stderr so stdout stays machine-readable.
        done = subprocess.run(cmd, stdout=sys.stderr, stderr=sys.stderr, check=False)
        if done.returncode != 0:
            raise BenchError(f"command failed ({done.returncode}): {' '.join(cmd)}")
    if not has_rlcard(python):
        raise BenchError(f"rlcard still not importable with {python}")
    return str(python)


def run_json(cmd: list[str], what: str, timeout: float) -> dict[str, Any]:
    """Run ``cmd``, pass its stderr through, and parse the one JSON object it prints."""
    log(f"{what}: {' '.join(cmd)}")
    try:
        done = subprocess.run(
            cmd,
            stdout=subprocess.PIPE,
            stderr=sys.stderr,
            text=True,
            env=child_env(),
            timeout=timeout,
            check=False,
            cwd=REPO_ROOT,
        )
    except subprocess.TimeoutExpired as exc:
        raise BenchError(f"{what} did not finish within {timeout:.0f} s") from exc
    if done.returncode != 0:
        raise BenchError(f"{what} exited with status {done.returncode}")
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    if not lines:
        raise BenchError(f"{what} printed nothing on stdout")
    try:
        parsed = json.loads(lines[-1])
    except json.JSONDecodeError:
        try:
            parsed = json.loads(done.stdout)
        except json.JSONDecodeError as exc:
            raise BenchError(f"{what} did not print a JSON object: {exc}") from exc
    if not isinstance(parsed, dict):
        raise BenchError(f"{what} printed JSON that is not an object")
    return parsed


def check_numbers(block: dict[str, Any], keys: tuple[str, ...], what: str) -> None:
    for key in keys:
        value = block.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise BenchError(f"{what}: missing or non-numeric {key!r}")
        if key == "games_per_s" and value <= 0:
            raise BenchError(f"{what}: games_per_s is {value}, expected > 0")


def measure_unoarena(engine_script: Path, seconds: float) -> dict[str, Any]:
    cmd = [
        sys.executable,
        str(engine_script),
        "--preset",
        "classic",
        "--players",
        "2",
        "--seconds",
        f"{seconds:g}",
        "--json",
    ]
    result = run_json(cmd, "unoarena", timeout=10 * seconds + 120)
    check_numbers(result, ENGINE_KEYS, "unoarena engine benchmark")
    return result


def measure_rlcard(python: str, seconds: float, min_games: int, seed: int) -> dict[str, Any]:
    cmd = [
        python,
        str(RUNNER),
        "--mode",
        "both",
        "--seconds",
        f"{seconds:g}",
        "--min-games",
        str(min_games),
        "--seed",
        str(seed),
    ]
    result = run_json(cmd, "rlcard", timeout=20 * seconds + 120)
    for mode in ("raw", "env"):
        block = result.get(mode)
        if not isinstance(block, dict):
            raise BenchError(f"rlcard runner: no {mode!r} result")
        check_numbers(block, ENGINE_KEYS, f"rlcard {mode}")
    return result


def build_report(
    unoarena: dict[str, Any], rlcard: dict[str, Any], seconds: float
) -> dict[str, Any]:
    ours = float(unoarena["games_per_s"])
    ratio_raw = ours / float(rlcard["raw"]["games_per_s"])
    ratio_env = ours / float(rlcard["env"]["games_per_s"])
    return {
        "rlcard": rlcard,
        "unoarena": unoarena,
        "ratio_vs_raw": ratio_raw,
        "ratio_vs_env": ratio_env,
        "required": {"raw": REQUIRED["raw"], "env": REQUIRED["env"]},
        "ok": ratio_raw >= REQUIRED["raw"] and ratio_env >= REQUIRED["env"],
        "python": platform.python_version(),
        "seconds": seconds,
    }


def format_table(report: dict[str, Any]) -> str:
    rlcard = report["rlcard"]
    rows = [
        ("unoarena (classic, 2p)", report["unoarena"]),
        (f"RLCard {rlcard.get('version', '?')} UnoGame loop", rlcard["raw"]),
        (f"RLCard {rlcard.get('version', '?')} env.run", rlcard["env"]),
    ]
    width = max(len(name) for name, _ in rows)
    header = f"{'engine':<{width}}  {'games/s':>10}  {'actions/s':>11}  {'actions/game':>12}"
    lines = [header, "-" * len(header)]
    for name, block in rows:
        lines.append(
            f"{name:<{width}}  {block['games_per_s']:>10.1f}  {block['actions_per_s']:>11.0f}"
            f"  {block['mean_actions_per_game']:>12.1f}"
        )
    lines.append("")
    for key, label in (("raw", "UnoGame loop"), ("env", "env.run")):
        ratio = report[f"ratio_vs_{key}"]
        need = report["required"][key]
        verdict = "meets" if ratio >= need else "BELOW"
        lines.append(
            f"unoarena / RLCard {label:<12}  {ratio:6.2f}x  ({verdict} required {need:g}x)"
        )
    lines.append("")
    python_note = f"python {report['python']}"
    if rlcard.get("python") and rlcard["python"] != report["python"]:
        python_note += f" (RLCard side: python {rlcard['python']})"
    lines.append(f"{python_note}; {report['seconds']:g} s per measurement; one core each")
    if not report["ok"]:
        lines.append("NOTE: at least one ratio is below its required value.")
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Measure unoarena and RLCard UNO in one run and print speed ratios."
    )
    parser.add_argument(
        "--seconds", type=float, default=10.0, help="wall seconds per measurement (default 10)"
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"{QUICK_SECONDS:g} s per measurement; the whole run stays under 30 s",
    )
    parser.add_argument(
        "--min-games", type=int, default=50, help="minimum games per measurement (default 50)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed for RLCard (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON line instead")
    parser.add_argument(
        "--rlcard-python",
        metavar="PATH",
        help="interpreter that has rlcard installed (default: this one, else .venv-rlcard)",
    )
    parser.add_argument(
        "--engine-script", type=Path, default=DEFAULT_ENGINE_SCRIPT, help=argparse.SUPPRESS
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds = QUICK_SECONDS
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    if args.min_games < 1:
        parser.error("--min-games must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    engine_script: Path = args.engine_script.resolve()
    if not engine_script.is_file():
        log(
            f"error: unoarena's engine benchmark {engine_script} does not exist; "
            "it is needed for the unoarena side of the comparison"
        )
        return 2
    started = time.perf_counter()
    try:
        python = resolve_rlcard_python(args.rlcard_python)
        unoarena = measure_unoarena(engine_script, args.seconds)
        rlcard = measure_rlcard(python, args.seconds, args.min_games, args.seed)
    except BenchError as exc:
        log(f"error: {exc}")
        return 2
    report = build_report(unoarena, rlcard, args.seconds)
    log(f"done in {time.perf_counter() - started:.1f} s")
    if args.json:
        print(json.dumps(report))
    else:
        print(format_table(report))
    if not report["ok"]:
        log("note: unoarena is below a required ratio (measurement only; exit status 0)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
