"""How well a seat's guesses of the hidden hands match the truth. Prints JSON.

``heuristic`` bots play classic rounds; at every decision of every seat, deals of the cards it
cannot see are drawn from what it knows in three ways, and compared with the true hands:

* ``uniform``: only the cards seen and the hand sizes (what any search knows);
* ``tracked``: :meth:`Layout.sample`, with what draws, passes and wilds rule out;
* ``weighed``: :meth:`Layout.draw`, the deals ``ismcts`` plays, also weighed by how well they
  explain each opponent's recent plays and named colours;
* ``learned``: :meth:`Layout.draw` weighed by the learned hand inference
  (:mod:`unoarena.bots.belief`) instead, what ``ismcts:belief=1`` plays.

Measures: ``overlap``, the share of an opponent's cards a deal puts in its hand;
``color_l1``, how far the deal's colour counts of a hand are from the truth (summed over
colours); ``next_color_logloss``, the log-loss of "the next player holds a card of colour c"
as the deals' frequency predicts it (what decides whether it can follow a colour).

    python benchmarks/inference.py --rounds 200 --players 4
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from unoarena.bots.belief import Belief, BeliefNet
from unoarena.bots.heuristic import HeuristicBot
from unoarena.bots.inference import Layout
from unoarena.driver import play_round
from unoarena.engine import Action, Game, RuleSet, preset
from unoarena.engine.cards import KCOLOR

Hands = dict[int, list[int]]
MODES = ("uniform", "tracked", "weighed", "learned")


def uniform(lay: Layout, rng: random.Random) -> Hands:
    """Each unknown card uniformly from every card not seen."""
    pool = list(lay.pool)
    hands: Hands = {}
    for s in lay.order:
        hand = list(lay.known[s])
        for _ in range(sum(g.count for g in lay.groups[s])):
            j = int(rng.random() * len(pool))
            hand.append(pool[j])
            pool[j] = pool[-1]
            pool.pop()
        hands[s] = hand
    return hands


class Probe:
    """A ``heuristic`` seat that, after each of its decisions, scores the deals its own card
    tracking would give against the true hands of ``table``."""

    wants_history = True

    def __init__(self, bot: HeuristicBot, table: list[Game], deals: int,
                 totals: dict[str, defaultdict[str, float]], net: BeliefNet) -> None:
        self.bot = bot
        self.net = net
        self.name = bot.name
        self.table = table
        self.deals = deals
        self.totals = totals
        self.seat = -1

    def begin_round(self, rules: RuleSet, seat: int) -> None:
        self.seat = seat
        self.bot.begin_round(rules, seat)

    def window(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        return self.bot.window(view, legal)

    def act(self, view: Mapping[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        a = self.bot.act(view, legal, rng)
        tracker = self.bot.tracker
        if tracker is None or not view["hand"]:
            return a
        g = self.table[0]
        n = g.players
        nxt = (self.seat + (1 if view["direction"] == "cw" else -1)) % n
        colors = g.rules.deck.colors
        lay = tracker.hidden_layout(view)
        learned = tracker.hidden_layout(view)
        learned.belief = Belief.of(self.net, tracker, view, learned, g.rules)
        draw: dict[str, Callable[[random.Random], Hands]] = {
            "uniform": lambda r: uniform(lay, r),
            "tracked": lambda r: lay.sample(r)[0],
            "weighed": lambda r: lay.draw(r)[0],
            "learned": lambda r: learned.draw(r)[0],
        }
        seed = len(g.events) * 131 + self.seat
        for mode in MODES:
            r = random.Random(seed)
            t = self.totals[mode]
            holds = Counter[int]()
            for _ in range(self.deals):
                hands = draw[mode](r)
                for s, hand in hands.items():
                    true = Counter(g.hand(s))
                    t["cards"] += len(hand)
                    t["overlap"] += sum((true & Counter(hand)).values())
                    tc = Counter(KCOLOR[k] for k in true.elements())
                    hc = Counter(KCOLOR[k] for k in hand)
                    t["l1"] += sum(abs(tc[c] - hc[c]) for c in colors)
                    t["hands"] += 1
                for c in colors:
                    holds[c] += any(KCOLOR[k] == c for k in hands[nxt])
            for c in colors:
                p = min(max(holds[c] / self.deals, 0.02), 0.98)
                truth = any(KCOLOR[k] == c for k in g.hand(nxt))
                t["logloss"] -= math.log(p if truth else 1.0 - p)
                t["colors"] += 1
        return a


def measure(rounds: int, players: int, deals: int, seed: int,
            net: BeliefNet | None = None) -> dict[str, Any]:
    """Mean overlap, colour error and next-colour log loss of each way's guessed hands;
    ``net`` is the belief network the ``learned`` way reads (default: the shipped one)."""
    net = net if net is not None else BeliefNet.load()
    rules = preset("classic", players=players)
    totals: dict[str, defaultdict[str, float]] = {m: defaultdict(float) for m in MODES}
    table: list[Game] = []
    bots = [Probe(HeuristicBot(seed + s), table, deals, totals, net) for s in range(players)]
    for d in range(rounds):
        g = Game(rules, seed * 7_919 + d, dealer=d % players)
        table[:] = [g]
        play_round(g, bots, random.Random(seed * 104_729 + d))
    out: dict[str, Any] = {}
    for mode, t in totals.items():
        out[mode] = {
            "overlap": round(t["overlap"] / max(1, t["cards"]), 4),
            "color_l1": round(t["l1"] / max(1, t["hands"]), 3),
            "next_color_logloss": round(t["logloss"] / max(1, t["colors"]), 4),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=16, help="deals drawn per decision and way")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--belief", default="", help="belief weights (default: the shipped ones)")
    args = ap.parse_args(argv)
    net = BeliefNet.load(args.belief) if args.belief else None
    result = {
        "benchmark": "inference",
        "rules": "classic",
        "players": args.players,
        "rounds": args.rounds,
        "deals_per_decision": args.deals,
        "python": platform.python_version(),
        "results": measure(args.rounds, args.players, args.deals, args.seed, net),
    }
    json.dump(result, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
