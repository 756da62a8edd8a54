"""Honest numbers for the review: calibration, blunders, speed. Prints JSON and a summary.

1. **Calibration.** Bot-versus-bot rounds (four players, classic: seat 0 ``basic``, the others
   ``heuristic``, so that the table holds good and poor choices). At a random quarter of the
   decisions of every seat, the review's estimate of the chance after the action taken (from
   that seat's view only) is kept with the round's result for that seat. Reported: the Brier
   score (and that of the constant base rate, the skill a forecast must beat), a reliability
   table by tenths of predicted chance, and the Brier score by cards left in the seat's hand.
   ``--plot`` draws the reliability diagram and the Brier score by cards left.
2. **Blunders.** For every choice the review labels (inaccuracy, mistake, blunder), the true
   position (hidden hands included, after the game: this is the check, not the review) is
   played on ``--replays`` times from the action taken and from the review's preferred
   action, with ``heuristic`` bots for every seat, the draw pile shuffled anew for each replay
   and the same shuffle and seeds for both actions (paired), and the win rates are compared.
   A labelled choice should lose measurably more often.
3. **Speed.** Reviews of every decision of rounds of about 60 decisions (four players),
   CPU seconds of one process (one core).

    python benchmarks/review.py --quick
    python benchmarks/review.py --rounds 300 --plot docs/review_calibration.png
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

from unoarena.bots import make_bot
from unoarena.coach.evaluate import Evaluator
from unoarena.coach.review import THRESHOLDS, review_round
from unoarena.engine import Action, Game, preset

PLAYERS = 4


def play_round(seed: int, specs: list[str]) -> tuple[Game, list[tuple[int, Action]]]:
    """A bot round from a seed: its start and the moves (windows answered by the bots too)."""
    g = Game(preset("classic", players=len(specs)), seed=seed)
    start = g.clone()
    bots = [make_bot(s, seed=seed * 10 + i) for i, s in enumerate(specs)]
    for i, b in enumerate(bots):
        b.begin_round(g.rules, i)
    rng = random.Random(seed)
    moves: list[tuple[int, Action]] = []
    while not g.is_over and len(moves) < 2000:
        acted = False
        for s in g.window_seats():
            if s == g.turn:
                continue
            legal = g.legal_actions(s)
            if legal:
                a = bots[s].window(g.view(s), legal)
                if a is not None:
                    g.apply(a, s)
                    moves.append((s, a))
                    acted = True
                    break
        if acted or g.is_over:
            continue
        s = g.turn
        a = bots[s].act(g.view(s), g.legal_actions(s), rng)
        g.apply(a, s)
        moves.append((s, a))
    return start, moves


def playout(g: Game, seed: int) -> int | None:
    """The winner of a position played on by ``heuristic`` bots for every seat."""
    bots = [make_bot("heuristic", seed=seed + i) for i in range(g.players)]
    for i, b in enumerate(bots):
        b.begin_round(g.rules, i)
    rng = random.Random(seed)
    steps = 0
    while not g.is_over and steps < 3000:
        s = g.turn
        g.apply(bots[s].act(g.view(s), g.legal_actions(s), rng), s)
        steps += 1
    out = g.outcome
    return out.winner if out is not None else None


def calibration(rounds: int, samples: int, seed: int, share: float) -> dict[str, Any]:
    """Predictions and results over ``rounds`` bot rounds (see the module docstring)."""
    specs = ["basic"] + ["heuristic"] * (PLAYERS - 1)
    rng = random.Random(seed)
    ev = Evaluator(samples=samples, seed=seed)
    rows: list[tuple[float, int, int]] = []  # (predicted, won, cards left before acting)
    labelled: list[dict[str, Any]] = []
    for r in range(rounds):
        start, moves = play_round(seed * 100_000 + r, specs)
        g = start.clone()
        this_round: list[tuple[float, int, int]] = []  # (predicted, seat, cards)
        for i, (seat, act) in enumerate(moves):
            if rng.random() < share and len(g.legal_actions(seat)) > 1:
                cards = len(g.hand(seat))
                d = review_round(g, [(seat, act)], {seat}, ev).decisions[0]
                this_round.append((d.after, seat, cards))
                if d.label:
                    labelled.append({"round": r, "index": i, "seat": seat, "label": d.label,
                                     "taken": str(act), "preferred": str(d.best),
                                     "loss": d.loss, "state": g.clone()})
            g.apply(act, seat)
        out = g.outcome
        winner = out.winner if out is not None else None
        rows += [(pr, int(seat == winner), c) for pr, seat, c in this_round]
        print(f"\rcalibration: round {r + 1}/{rounds}, {len(rows)} predictions",
              end="", file=sys.stderr)
    print(file=sys.stderr)
    return {"predictions": rows, "labelled": labelled}


def brier(pairs: list[tuple[float, int]]) -> float:
    """Mean squared error of probability forecasts."""
    return sum((p - y) ** 2 for p, y in pairs) / len(pairs) if pairs else float("nan")


def reliability(pairs: list[tuple[float, int]], bins: int = 10) -> list[dict[str, Any]]:
    """Per tenth of predicted chance: how many, mean prediction, observed win rate."""
    out = []
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        sel = [(p, y) for p, y in pairs if lo <= p < hi or (b == bins - 1 and p == 1.0)]
        if sel:
            out.append({"bin": f"{lo:.1f}-{hi:.1f}", "n": len(sel),
                        "predicted": sum(p for p, _y in sel) / len(sel),
                        "observed": sum(y for _p, y in sel) / len(sel)})
    return out


def by_cards(preds: list[tuple[float, int, int]]) -> list[dict[str, Any]]:
    """Brier score and counts by cards in the seat's hand before its decision."""
    groups = [("1", 1, 1), ("2", 2, 2), ("3-4", 3, 4), ("5-7", 5, 7), ("8+", 8, 10_000)]
    out = []
    for name, lo, hi in groups:
        sel = [(p, y) for p, y, c in preds if lo <= c <= hi]
        if sel:
            base = sum(y for _p, y in sel) / len(sel)
            out.append({"cards": name, "n": len(sel), "brier": brier(sel),
                        "brier_base_rate": brier([(base, y) for _p, y in sel]),
                        "predicted": sum(p for p, _y in sel) / len(sel), "observed": base})
    return out


def blunder_check(labelled: list[dict[str, Any]], replays: int, seed: int) -> dict[str, Any]:
    """Paired playouts of the true position after the taken and the preferred action."""
    per_label: dict[str, dict[str, float]] = {}
    for k, item in enumerate(labelled):
        g0: Game = item["state"]
        seat = item["seat"]
        wins = {"taken": 0, "preferred": 0}
        for j in range(replays):
            s = seed * 1_000_003 + k * 1000 + j
            # the true hands, but a draw pile shuffled anew for each replay: the future is what
            # nobody knows (the record's own pile order would make every replay the same round)
            base = g0.clone()
            shuffler = random.Random(s)
            shuffler.shuffle(base.state.pile)
            base.state.rng = random.Random(shuffler.getrandbits(64))
            for which in ("taken", "preferred"):
                g = base.clone()  # the same pile and generator for both: paired
                g.apply(Action.parse(item[which]), seat)
                wins[which] += playout(g, s) == seat
        agg = per_label.setdefault(item["label"], {"n": 0, "taken": 0.0, "preferred": 0.0,
                                                    "d": 0.0, "d2": 0.0})
        diff = (wins["preferred"] - wins["taken"]) / replays
        agg["n"] += 1
        agg["taken"] += wins["taken"] / replays
        agg["preferred"] += wins["preferred"] / replays
        agg["d"] += diff
        agg["d2"] += diff * diff
        print(f"\rblunder check: {k + 1}/{len(labelled)}", end="", file=sys.stderr)
    print(file=sys.stderr)
    out = {}
    for label, agg in per_label.items():
        n = agg["n"]
        mean = agg["d"] / n
        var = max(0.0, agg["d2"] / n - mean * mean) * n / (n - 1) if n > 1 else float("nan")
        out[label] = {"choices": int(n), "win_rate_taken": agg["taken"] / n,
                      "win_rate_preferred": agg["preferred"] / n,
                      "preferred_minus_taken": mean,
                      "standard_error": math.sqrt(var / n) if n > 1 else float("nan")}
    return out


def speed(rounds: int, samples: int, seed: int) -> dict[str, Any]:
    """CPU seconds to review every decision of rounds of about 60 decisions."""
    specs = ["heuristic"] * PLAYERS
    found: list[tuple[Game, list[tuple[int, Action]]]] = []
    s = seed
    while len(found) < rounds:
        start, moves = play_round(s, specs)
        if 55 <= len(moves) <= 65:
            found.append((start, moves))
        s += 1
    times = []
    for start, moves in found:
        t0 = time.process_time()
        review_round(start, list(moves), None, Evaluator(samples=samples, seed=seed))
        times.append(time.process_time() - t0)
    return {"rounds": rounds, "decisions": [len(m) for _s, m in found],
            "cpu_seconds": times, "mean_cpu_seconds": sum(times) / len(times)}


def plot(result: dict[str, Any], path: Path) -> None:
    """Reliability diagram and Brier score by cards left, side by side."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    fig = Figure(figsize=(10, 4.2))
    FigureCanvasAgg(fig)
    ax1, ax2 = fig.subplots(1, 2)
    rel = result["reliability"]
    ax1.plot([0, 1], [0, 1], color="grey", lw=1, ls="--", label="perfect")
    ax1.plot([r["predicted"] for r in rel], [r["observed"] for r in rel], "o-",
             label="review estimate")
    for r in rel:
        ax1.annotate(str(r["n"]), (r["predicted"], r["observed"]), fontsize=7,
                     textcoords="offset points", xytext=(4, -10))
    ax1.set_xlabel("predicted chance to win the round")
    ax1.set_ylabel("observed win rate")
    ax1.set_title(f"Reliability (Brier {result['brier']:.3f}, base rate "
                  f"{result['brier_base_rate']:.3f})")
    ax1.legend(loc="upper left")
    cards = result["by_cards"]
    xs = range(len(cards))
    ax2.bar([x - 0.2 for x in xs], [c["brier"] for c in cards], 0.4, label="review estimate")
    ax2.bar([x + 0.2 for x in xs], [c["brier_base_rate"] for c in cards], 0.4,
            label="base rate of the group")
    ax2.set_xticks(list(xs), [c["cards"] for c in cards])
    ax2.set_xlabel("cards in the seat's hand")
    ax2.set_ylabel("Brier score (lower is better)")
    ax2.set_title("Brier score by cards left")
    ax2.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> int:
    """Run the three checks and print JSON."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=200)
    p.add_argument("--samples", type=int, default=160)
    p.add_argument("--share", type=float, default=0.25)
    p.add_argument("--replays", type=int, default=40)
    p.add_argument("--speed-rounds", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--plot", type=Path)
    p.add_argument("--quick", action="store_true", help="a small run (a minute or two)")
    a = p.parse_args()
    if a.quick:
        a.rounds, a.replays, a.speed_rounds = 20, 10, 1
    cal = calibration(a.rounds, a.samples, a.seed, a.share)
    preds = cal["predictions"]
    pairs = [(pr, y) for pr, y, _c in preds]
    base = sum(y for _p, y in pairs) / len(pairs)
    result: dict[str, Any] = {
        "rounds": a.rounds, "samples": a.samples, "predictions": len(pairs),
        "brier": brier(pairs), "brier_base_rate": brier([(base, y) for _p, y in pairs]),
        "reliability": reliability(pairs), "by_cards": by_cards(preds),
        "thresholds": dict(THRESHOLDS),
    }
    result["blunders"] = blunder_check(cal["labelled"], a.replays, a.seed)
    result["speed"] = speed(a.speed_rounds, a.samples, a.seed)
    if a.plot:
        plot(result, a.plot)
    print(json.dumps(result, indent=1))
    if not math.isfinite(result["brier"]):
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
