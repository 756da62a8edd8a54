"""Measure RLCard's UNO with random agents and print one JSON object on stdout.

Run by ``vs_rlcard.py`` with whichever interpreter has RLCard installed, so RLCard never
has to be importable (or type-checked) next to unoarena. RLCard is reached only through
``importlib``, which keeps this file free of untyped imports.

Two measurements, both two players, both single-threaded:

* ``raw``: ``rlcard.games.uno.game.UnoGame`` driven directly, a uniformly random legal
  action each step. The legal actions come from the state that ``init_game``/``step``
  already return (the same list ``get_legal_actions`` would build again), so RLCard pays
  for nothing it would not pay anyway.
* ``env``: ``rlcard.make('uno')`` with two ``RandomAgent`` seats and ``env.run``, the way
  RLCard's own examples play games. Actions are counted from ``env.action_recorder``,
  which ``env.run`` fills anyway.

A third, ``steps`` (not part of ``both``; used by ``rl_env.py``), drives the env the way a
training loop does: ``env.reset()``, then ``env.step(action)`` with a uniformly random id from
the ``legal_actions`` of the state the env returned, counting env steps.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import random
import sys
import time
from typing import Any

# A random game that has not ended after this many actions is abandoned and counted apart,
# so a pathological game can never stall the time box.
MAX_ACTIONS_PER_GAME = 10_000
WARMUP_GAMES = 20


def _rate(games: int, actions: int, aborted: int, elapsed: float) -> dict[str, Any]:
    return {
        "games": games,
        "actions": actions,
        "aborted_games": aborted,
        "elapsed_s": elapsed,
        "games_per_s": games / elapsed,
        "actions_per_s": actions / elapsed,
        "mean_actions_per_game": actions / games if games else 0.0,
    }


def measure_raw(seconds: float, min_games: int, seed: int) -> dict[str, Any]:
    """Play ``UnoGame`` directly until both the time box and ``min_games`` are reached."""
    np: Any = importlib.import_module("numpy")
    game_module: Any = importlib.import_module("rlcard.games.uno.game")
    game = game_module.UnoGame(num_players=2)
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)
    choice = rng.choice

    def play_one() -> tuple[int, int]:
        state, _ = game.init_game()
        actions = draws = 0
        while not game.is_over():
            action = choice(state["legal_actions"])
            if action == "draw":
                draws += 1
            state, _ = game.step(action)
            actions += 1
            if actions >= MAX_ACTIONS_PER_GAME:
                raise RuntimeError("game did not end")
        return actions, draws

    for _ in range(WARMUP_GAMES):
        play_one()

    games = actions = draws = aborted = 0
    perf = time.perf_counter
    start = perf()
    while True:
        try:
            n, d = play_one()
        except (IndexError, RuntimeError):
            # RLCard can run out of cards to draw (IndexError); such games are not counted.
            aborted += 1
        else:
            games += 1
            actions += n
            draws += d
        elapsed = perf() - start
        if elapsed >= seconds and games >= min_games:
            break
    result = _rate(games, actions, aborted, elapsed)
    result["draw_fraction"] = draws / actions if actions else 0.0
    return result


def measure_env(seconds: float, min_games: int, seed: int) -> dict[str, Any]:
    """Play ``env.run`` games with two ``RandomAgent`` seats under the same time box."""
    np: Any = importlib.import_module("numpy")
    rlcard: Any = importlib.import_module("rlcard")
    agents: Any = importlib.import_module("rlcard.agents")
    env = rlcard.make("uno", config={"seed": seed})
    # RandomAgent draws from numpy's global generator.
    np.random.seed(seed)
    env.set_agents([agents.RandomAgent(num_actions=env.num_actions) for _ in range(2)])
    run = env.run

    for _ in range(WARMUP_GAMES):
        run(is_training=False)

    games = actions = aborted = 0
    perf = time.perf_counter
    start = perf()
    while True:
        try:
            run(is_training=False)
        except IndexError:
            aborted += 1
        else:
            games += 1
            actions += len(env.action_recorder)
        elapsed = perf() - start
        if elapsed >= seconds and games >= min_games:
            break
    return _rate(games, actions, aborted, elapsed)


def measure_steps(seconds: float, min_games: int, seed: int) -> dict[str, Any]:
    """Drive ``env.reset``/``env.step`` with a random legal id per step, like a training
    loop; the result's ``actions_per_s`` is env steps per second."""
    rlcard: Any = importlib.import_module("rlcard")
    env = rlcard.make("uno", config={"seed": seed})
    rng = random.Random(seed)
    choice = rng.choice
    reset, step, is_over = env.reset, env.step, env.is_over

    def play_one() -> int:
        state, _ = reset()
        n = 0
        while not is_over():
            state, _ = step(choice(list(state["legal_actions"])))
            n += 1
            if n >= MAX_ACTIONS_PER_GAME:
                raise RuntimeError("game did not end")
        return n

    for _ in range(WARMUP_GAMES):
        play_one()
    games = steps = aborted = 0
    perf = time.perf_counter
    start = perf()
    while True:
        try:
            n = play_one()
        except (IndexError, RuntimeError):
            aborted += 1
        else:
            games += 1
            steps += n
        elapsed = perf() - start
        if elapsed >= seconds and games >= min_games:
            break
    return _rate(games, steps, aborted, elapsed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--mode", choices=("raw", "env", "both", "steps"), default="both")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--min-games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    rlcard: Any = importlib.import_module("rlcard")
    np: Any = importlib.import_module("numpy")
    out: dict[str, Any] = {
        "version": str(rlcard.__version__),
        "numpy": str(np.__version__),
        "python": platform.python_version(),
        "seed": args.seed,
    }
    if args.mode in ("raw", "both"):
        print("rlcard: raw UnoGame loop ...", file=sys.stderr, flush=True)
        out["raw"] = measure_raw(args.seconds, args.min_games, args.seed)
    if args.mode in ("env", "both"):
        print("rlcard: env.run with RandomAgent ...", file=sys.stderr, flush=True)
        out["env"] = measure_env(args.seconds, args.min_games, args.seed)
    if args.mode == "steps":
        print("rlcard: env.reset/env.step loop ...", file=sys.stderr, flush=True)
        out["steps"] = measure_steps(args.seconds, args.min_games, args.seed)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
