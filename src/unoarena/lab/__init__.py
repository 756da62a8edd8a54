"""The simulation lab: batches of rounds or matches, rule sets compared on the same seeds, bot
tournaments with duplicate deals and ratings, plots; in one process, many, or on Ray.

>>> from unoarena.engine import preset
>>> from unoarena.lab import simulate
>>> result = simulate(preset("classic", players=3), "basic", games=20, seed=1)
>>> result.summary.games, sum(result.summary.wins) + result.summary.void
(20, 20)

Every function works under every preset and house rule through the engine's public API and the
sequential driver. Results depend on the seed only: game ``i`` takes its seeds from the base
seed and ``i`` (:func:`~unoarena.seeding.derive`), chunks are merged in order, and the
statistics are integer tallies (:mod:`unoarena.lab.stats`), so ``workers=1``, ``workers=8`` and
a Ray cluster print the same numbers.

JSON output (``--json``), the schemas:

``unoarena simulate``::

    {"command": "simulate", "mode": "rounds" | "matches", "seed": int,
     "bots": [spec per seat (per player in match mode)], "overrides": {key: value},
     "rules": {every key}, "elapsed_s": float, "workers": int, "cluster": str (with --cluster),
     "summary": SUMMARY}

    SUMMARY = {
     "games": rounds played, "void": void rounds,
     "actions_mean", "actions_median", "actions_p90", "turns_mean",
     "draws_per_game" (cards drawn per round), "penalty_draws_per_game",
     "points_mean" (points left in the other hands, rounds with a winner),
     "wins": [per seat], "win_rates": [per seat], "win_ci": [[low, high] per seat] (95% Wilson),
     "actions" | "turns" | "cards_drawn" | "penalty_cards" | "points":
         {"n", "mean", "sd", "median", "p10", "p90", "p99", "min", "max"},
     "drawn_by_reason": {reason: cards per round}  (turn, draw2, draw4, hit2, attack,
         uno_caught, challenge_innocent, challenge_guilty, last_card, starter, misplay, ...),
     "chains": {"count", "per_round", "stacked" (chains longer than 1), "mean_length",
                "max_length", "lengths": {"1": count, "2": count, ...}},
     "histograms": {"actions" | "turns" | "cards_drawn" | "points": {"value": count}},
     "team_wins", "team_win_rates": [per team]          (with teams only),
     "matches": {"count", "by": "player" | "team", "rounds": {distribution as above},
                 "wins", "win_rates", "win_ci", "shared" (matches with tied winners),
                 "rounds_histogram"}                    (match mode only)}

``unoarena simulate --compare``::

    {"command": "compare", "mode", "seed", "games", "elapsed_s", "workers", "cluster",
     "specs": [{"label", "bots", "overrides", "rules", "summary": SUMMARY}, ...],
     "differences": [{"label", "vs" (the first spec's label),
                      "metrics": {metric: {"diff": mean of this minus the first,
                                           "ci": [low, high] (95%), "n",
                                           "paired": true when unit by unit}}}]}

    metrics: actions, turns, cards_drawn, penalty_cards, points, chains (per round), void
    (share of rounds), rounds_per_match (match mode).

``unoarena tournament``::

    {"command": "tournament", "seed", "players", "deals", "games", "void",
     "schedule": "all_tables" | "balanced", "tables": [[participant index, ...], ...],
     "overrides", "rules", "elapsed_s", "workers", "cluster",
     "standings": [{"rank", "name", "spec", "games", "wins", "win_rate", "win_ci",
                    "mean_score" (the rule set's round score), "mean_hand_points",
                    "seat_games", "seat_wins",
                    "rating": {"mu", "sigma", "ordinal"}}, ...]   (best first),
     "seat_wins": [per seat], "seat_win_rates": [per seat]}
"""

from ..seeding import derive
from .common import LabError, parse_rule_spec, seat_bots, spec_label
from .ratings import Rating
from .simulate import CompareResult, SimResult, Summary, compare, simulate
from .stats import Hist, RoundStats, Tally, wilson
from .tournament import TournamentResult, tournament

__all__ = [
    "CompareResult", "Hist", "LabError", "Rating", "RoundStats", "SimResult", "Summary",
    "Tally", "TournamentResult", "compare", "derive", "parse_rule_spec", "seat_bots",
    "simulate", "spec_label", "tournament", "wilson",
]
