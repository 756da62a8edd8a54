"""The long differential run: the compiled kernel against the reference engine.

Two parts, both over random rule sets (every key drawn around a random preset, 2-10 players)
plus every preset:

* ``--state-rounds``: rounds where random seats take random legal actions, compared after
  every action on the whole state, the generator's included (slow: the reference engine
  takes every step);
* ``--rounds``: rounds played by ``random`` and ``basic`` bots on both engines with the lab's
  seeds, compared round by round on everything the lab reports (winner, actions, turns,
  cards drawn by reason, penalty chains, hand points, scores); a round that reaches the
  driver's guard of :data:`MAX_ACTIONS` must reach it on both (counted as ``unended``).

Prints one JSON object with the counts and every difference found (none is the expected
result); exit status 1 when a difference was found. ``--workers`` splits the rule sets over
processes.

    python scripts/kernel_differential.py --rule-sets 600 --rounds 1000000 --workers 2

``--slice`` and ``--from-round`` split one run over machines or calls: the list of rule sets,
their bots and their seeds depend only on ``--seed``, ``--rule-sets`` and ``--rounds``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from unoarena.engine import PRESETS, RuleSet, preset
from unoarena.kernel import bots as kb
from unoarena.kernel.core import DRAW_REASONS
from unoarena.kernel.runner import RoundRunner
from unoarena.lab.common import play_indexed_round
from unoarena.testing import random_rules
from unoarena.testing.kernel import compare_round

BOT_MIXES = ("random", "basic", "random:decline=0.1", "mixed")
#: The driver's guard per round: a round of random bots under some rule sets can run for very
#: long (hands of dozens of cards, an empty pile); both engines must stop it at the same point.
#: Such a round costs the reference engine seconds and proves little more than a shorter one,
#: so the guard is lower than the lab's (``--max-actions``).
MAX_ACTIONS = 3_000


def _specs(rules: RuleSet, mix: str, rng: random.Random) -> list[str]:
    if mix != "mixed":
        return [mix] * rules.players
    return [rng.choice(("random", "basic", "random:decline=0.9")) for _ in range(rules.players)]


def check_rule_set(args: tuple[dict[str, Any], int, int, int, int, int]) -> dict[str, Any]:
    """Both parts for one rule set; returns counts and differences."""
    data, seed, first, rounds, state_rounds, max_actions = args
    rules = RuleSet.from_dict(data)
    rng = random.Random(seed)
    diffs: list[str] = []
    actions = 0
    for j in range(state_rounds):
        n, d = compare_round(rules, rng.getrandbits(63), j % rules.players, rng)
        actions += n
        if d is not None:
            diffs.append(str(d))
            break
    mix = rng.choice(BOT_MIXES)
    specs = _specs(rules, mix, rng)
    runner = RoundRunner(rules, specs, seed, max_actions)
    unended = 0
    kernel_actions = 0
    for i in range(first, rounds):
        try:
            chunk = runner.play(i, i + 1)
        except RuntimeError as e:  # the driver's guard: the reference must stop there too
            try:
                play_indexed_round(rules, specs, seed, i, max_actions)
            except RuntimeError:
                unended += 1
                continue
            diffs.append(f"round {i} of {rules.overrides()} ({rules.preset}) bots {specs} "
                         f"seed {seed}: the kernel stopped ({e}), the reference ended")
            break
        kernel_actions += int(chunk.counts[0, kb.C_ACTIONS])
        ref, _game = play_indexed_round(rules, specs, seed, i, max_actions)
        by = tuple(sorted((DRAW_REASONS[k], int(v)) for k, v in enumerate(chunk.drawn_by[0])
                          if v))
        got = (None if chunk.winners[0] < 0 else int(chunk.winners[0]),
               int(chunk.counts[0, kb.C_ACTIONS]), int(chunk.counts[0, kb.C_TURNS]), by,
               tuple(int(x) for x in chunk.points[0]),
               tuple(int(x) for x in chunk.scores[0]), int(chunk.counts[0, kb.C_CHAINS]))
        want = (ref.winner, ref.actions, ref.turns, ref.drawn_by, ref.hand_points, ref.scores,
                len(ref.chains))
        if got != want:
            diffs.append(f"round {i} of {rules.overrides()} ({rules.preset}) bots {specs} "
                         f"seed {seed}: kernel {got} reference {want}")
            break
    return {"rounds": rounds - first, "state_rounds": state_rounds, "state_actions": actions,
            "kernel_actions": kernel_actions, "unended": unended, "diffs": diffs}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rule-sets", type=int, default=600)
    ap.add_argument("--rounds", type=int, default=100_000, help="bot rounds in all")
    ap.add_argument("--state-rounds", type=int, default=2,
                    help="action-by-action rounds per rule set")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--max-actions", type=int, default=MAX_ACTIONS,
                    help="the driver's guard per bot round")
    ap.add_argument("--slice", default=":", metavar="START:STOP",
                    help="check only these rule sets of the list (to split one run over "
                         "machines or calls; the list and its seeds do not change)")
    ap.add_argument("--from-round", type=int, default=0, metavar="K",
                    help="play only each rule set's bot rounds from K on (to extend an earlier "
                         "run with more rounds: the same rule sets, bots and seeds)")
    ns = ap.parse_args(argv)
    try:
        first, _, last = ns.slice.partition(":")
        part = slice(int(first) if first else None, int(last) if last else None)
    except ValueError:
        ap.error(f"--slice takes START:STOP (numbers, either may be left out), not {ns.slice!r}")
    if ns.from_round < 0:
        ap.error(f"--from-round takes a round number, 0 or more, not {ns.from_round}")
    rng = random.Random(ns.seed)
    sets = [preset(name, players=p).to_dict() for name in PRESETS for p in (2, 4, 7)]
    while len(sets) < ns.rule_sets:
        sets.append(random_rules(rng).to_dict())
    per = max(1, ns.rounds // len(sets))
    jobs = [(d, rng.getrandbits(63), min(ns.from_round, per), per, ns.state_rounds,
             ns.max_actions)
            for d in sets][part]
    start = time.perf_counter()
    total: dict[str, Any] = {"rule_sets": len(jobs), "slice": ns.slice,
                             "from_round": ns.from_round, "rounds": 0, "state_rounds": 0,
                             "state_actions": 0, "kernel_actions": 0, "unended": 0,
                             "diffs": []}
    with ProcessPoolExecutor(ns.workers) as pool:
        # as each rule set finishes (a slow one does not hold the others' counts back, so
        # the progress lines are true totals if the run is cut short)
        futures = [pool.submit(check_rule_set, job) for job in jobs]
        for k, done in enumerate(as_completed(futures)):
            res = done.result()
            for key in ("rounds", "state_rounds", "state_actions", "kernel_actions", "unended"):
                total[key] += res[key]
            total["diffs"] += res["diffs"]
            if (k + 1) % 10 == 0:
                print(f"{k + 1}/{len(jobs)} rule sets, {total['rounds']:,} rounds, "
                      f"{len(total['diffs'])} differences, "
                      f"{time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    total["elapsed_s"] = round(time.perf_counter() - start, 1)
    print(json.dumps(total))
    return 1 if total["diffs"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
