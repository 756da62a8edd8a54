"""Engine throughput: games/s and actions/s of whole rounds with an RLCard-like random agent.

The agent is uniform over legal plays, draws only when it has no play, plays a playable drawn
card, and always declares UNO (the "random" agent of other UNO libraries). It drives the
engine's fast path (integer ids, no events) on one core. Prints one JSON object.

    python benchmarks/engine.py --preset classic --players 2 --seconds 5 --json
    python benchmarks/engine.py --all          # classic 2p/4p, house 4p, attack 4p
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from typing import Any

from unoarena.engine import Game, RuleSet, preset


def agent_policy(space_size: int, play0: int) -> Any:
    """Build the agent: returns ``choose(ids, rand) -> id``.

    Ids below ``play0`` are draw/pass/uno/accept/challenge/timeout/colour/catch; plays come
    in pairs (id, id+1) where id+1 is the same play declaring UNO.
    """
    draw, pass_, accept = 0, 1, 3

    def choose(ids: list[int], rand: Any) -> int:
        plays = [i for i in ids if i >= play0]
        if plays:
            i = plays[int(rand() * len(plays))]
            if i + 1 in ids and (i - play0) % 2 == 0:
                return i + 1  # always declare UNO
            return i
        if draw in ids:
            return draw
        if accept in ids:
            return accept
        if pass_ in ids:
            return pass_
        return ids[int(rand() * len(ids))]

    return choose


def run(rules: RuleSet, seconds: float, min_games: int = 50, seed: int = 0,
        max_games: int | None = None) -> dict[str, Any]:
    """Play whole rounds until ``seconds`` passed and ``min_games`` were played."""
    g0 = Game(rules, 0, record_events=False)
    space = g0.space
    play0 = next(i for i, a in enumerate(space.actions) if a.verb in ("play", "jump_in"))
    choose = agent_policy(len(space), play0)
    rng = random.Random(seed)
    rand = rng.random
    n = rules.players
    games = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        g = Game(rules, seed + games, games % n, record_events=False)
        legal = g.legal_ids
        step = g.step
        while not g.is_over:
            s = g.turn
            step(choose(legal(s), rand), s)
            actions += 1
        games += 1
        if max_games is not None and games >= max_games:
            break
        if games >= min_games and (games & 63) == 0 and time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {
        "preset": rules.preset,
        "players": n,
        "games": games,
        "actions": actions,
        "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 1),
        "actions_per_s": round(actions / elapsed, 1),
        "mean_actions_per_game": round(actions / games, 2),
        "agent": "rlcard-like random (uniform over plays, draw only without a play, "
                 "plays a playable drawn card, always declares UNO)",
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--all", action="store_true",
                    help="classic 2p and 4p, house 4p, attack 4p")
    ap.add_argument("--json", action="store_true", help="one JSON line (the default is indented)")
    args = ap.parse_args(argv)
    if args.all:
        configs = [("classic", 2), ("classic", 4), ("house", 4), ("attack", 4)]
        results = [run(preset(p, players=n), args.seconds, seed=args.seed) for p, n in configs]
        out: dict[str, Any] = {"results": results, "python": platform.python_version()}
    else:
        out = run(preset(args.preset, players=args.players), args.seconds, seed=args.seed)
        out["python"] = platform.python_version()
    json.dump(out, sys.stdout, indent=None if args.json else 2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
