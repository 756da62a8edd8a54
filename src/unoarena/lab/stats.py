"""Counting what rounds and matches add up to, in pieces that merge exactly.

Every quantity is kept as integers: histograms of per-round values and counts of wins. A chunk of
games played in another process (or on another machine) returns its own accumulator, and merging
them in any grouping gives the same numbers to the last digit, so results depend on the seed
alone, never on how the work was split. Means, spreads, percentiles and intervals are computed
from the histograms at the end.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for ``k`` successes in ``n`` trials (a draw may count half):
    unlike the normal approximation it stays inside 0..1 and is honest for rates near 0 or 1
    (a seat that never wins, a bot that always does). ``(0, 1)`` when ``n`` is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    z2 = z * z
    den = 1 + z2 / n
    mid = (p + z2 / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


class Hist:
    """A histogram of integer values: exact sums, means, medians and percentiles, mergeable."""

    __slots__ = ("counts",)

    def __init__(self, counts: Mapping[int, int] | None = None) -> None:
        self.counts: dict[int, int] = dict(counts) if counts else {}

    def add(self, value: int, count: int = 1) -> None:
        """Count ``value`` ``count`` more times."""
        c = self.counts
        c[value] = c.get(value, 0) + count

    def merge(self, other: Hist) -> None:
        """Add another histogram's counts into this one (exact, in any order)."""
        c = self.counts
        for v, k in other.counts.items():
            c[v] = c.get(v, 0) + k

    @property
    def n(self) -> int:
        """How many values were counted."""
        return sum(self.counts.values())

    @property
    def total(self) -> int:
        """The exact sum of every value counted."""
        return sum(v * k for v, k in self.counts.items())

    @property
    def mean(self) -> float:
        """The mean of the values counted; 0.0 when there are none."""
        n = self.n
        return self.total / n if n else 0.0

    @property
    def sd(self) -> float:
        """Sample standard deviation (n - 1 in the denominator)."""
        n = self.n
        if n < 2:
            return 0.0
        total = self.total
        squares = sum(v * v * k for v, k in self.counts.items())
        var = (squares - total * total / n) / (n - 1)
        return math.sqrt(max(0.0, var))

    def quantile(self, q: float) -> int:
        """Nearest-rank percentile (``q`` in 0..1): always a value that occurred."""
        n = self.n
        return self._kth(max(1, math.ceil(q * n))) if n else 0

    @property
    def median(self) -> float:
        """The usual median: the middle value, or the mean of the two middle ones."""
        n = self.n
        if not n:
            return 0.0
        return (self._kth((n + 1) // 2) + self._kth(n // 2 + 1)) / 2

    def _kth(self, k: int) -> int:
        """The ``k``-th smallest value (1-based)."""
        seen = 0
        for v in sorted(self.counts):
            seen += self.counts[v]
            if seen >= k:
                return v
        return max(self.counts)

    def ci(self, z: float = Z95) -> tuple[float, float]:
        """Normal-approximation interval of the mean (fine for the thousands of rounds a
        simulation plays; a warning sign when it is wide)."""
        n = self.n
        half = z * self.sd / math.sqrt(n) if n > 1 else 0.0
        return self.mean - half, self.mean + half

    def summary(self) -> dict[str, Any]:
        """n, mean, sd, median, p10, p90, p99, min, max: JSON-ready."""
        c = self.counts
        return {
            "n": self.n, "mean": self.mean, "sd": self.sd, "median": self.median,
            "p10": self.quantile(0.10), "p90": self.quantile(0.90), "p99": self.quantile(0.99),
            "min": min(c) if c else 0, "max": max(c) if c else 0,
        }

    def to_dict(self) -> dict[str, int]:
        """Value -> count with string keys (JSON objects have string keys), sorted."""
        return {str(v): self.counts[v] for v in sorted(self.counts)}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hist) and self.counts == other.counts

    def __repr__(self) -> str:
        return f"Hist({dict(sorted(self.counts.items()))})"


@dataclass(frozen=True, slots=True)
class RoundStats:
    """What one round contributes: the numbers :class:`Tally` adds up.

    ``turns`` counts actions that end a seat's turn (plays, passes, draws that end it, taking a
    penalty), not out-of-turn calls; ``chains`` holds the length of every penalty chain: the card
    that started it plus every answer that passed it on (1 = taken without stacking);
    ``drawn_by`` maps the reason of each draw (``turn``, ``draw2``, ``draw4``, ``uno_caught``,
    ``challenge_innocent``, ``last_card``...) to the cards drawn for it; ``points`` are the
    points left in every hand (END-3), 0 when the round was void.
    """

    winner: int | None
    actions: int
    turns: int
    drawn_by: tuple[tuple[str, int], ...]
    points: int
    chains: tuple[int, ...]
    hand_points: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()

    @property
    def void(self) -> bool:
        """Whether the round ended with no winner (TURN-6 ``void``)."""
        return self.winner is None

    @property
    def drawn(self) -> int:
        """Every card drawn in the round, for any reason."""
        return sum(n for _r, n in self.drawn_by)

    @property
    def penalty_drawn(self) -> int:
        """Cards drawn as penalties: everything but a turn's own draw."""
        return sum(n for r, n in self.drawn_by if r != "turn")


#: The per-round metrics compared between rule sets, in table order.
METRICS = ("actions", "turns", "cards_drawn", "penalty_cards", "points", "chains", "void")


def metric_values(r: RoundStats) -> tuple[int | None, ...]:
    """A round's value of each of :data:`METRICS` (None: not defined for this round)."""
    return (r.actions, r.turns, r.drawn, r.penalty_drawn, None if r.void else r.points,
            len(r.chains), int(r.void))


@dataclass
class Tally:
    """Everything a batch of rounds (and, in match mode, matches) adds up to."""

    players: int
    teams: int = 0  # number of teams, 0 without teams
    rounds: int = 0
    void: int = 0
    actions: Hist = field(default_factory=Hist)
    turns: Hist = field(default_factory=Hist)
    drawn: Hist = field(default_factory=Hist)
    penalty: Hist = field(default_factory=Hist)
    points: Hist = field(default_factory=Hist)  # rounds with a winner only
    chains: Hist = field(default_factory=Hist)  # chain length -> chains
    chains_per_round: Hist = field(default_factory=Hist)
    drawn_by: dict[str, int] = field(default_factory=dict)
    seat_wins: list[int] = field(default_factory=list)
    team_wins: list[int] = field(default_factory=list)
    # match mode
    matches: int = 0
    match_rounds: Hist = field(default_factory=Hist)
    match_wins: list[int] = field(default_factory=list)  # per player, or per team
    match_shared: int = 0  # matches won by more than one (a tie for the best score)

    def __post_init__(self) -> None:
        if not self.seat_wins:
            self.seat_wins = [0] * self.players
        if self.teams and not self.team_wins:
            self.team_wins = [0] * self.teams
        if not self.match_wins:
            self.match_wins = [0] * (self.teams or self.players)

    def add_round(self, r: RoundStats, team_of: Sequence[int] | None = None) -> None:
        """Count one round; ``team_of`` maps a seat to its team, so that team wins are counted too
        (None without teams)."""
        self.rounds += 1
        self.actions.add(r.actions)
        self.turns.add(r.turns)
        drawn = 0
        pen = 0
        by = self.drawn_by
        for reason, n in r.drawn_by:
            by[reason] = by.get(reason, 0) + n
            drawn += n
            if reason != "turn":
                pen += n
        self.drawn.add(drawn)
        self.penalty.add(pen)
        for c in r.chains:
            self.chains.add(c)
        self.chains_per_round.add(len(r.chains))
        if r.winner is None:
            self.void += 1
        else:
            self.points.add(r.points)
            self.seat_wins[r.winner] += 1
            if team_of is not None and self.team_wins:
                self.team_wins[team_of[r.winner]] += 1

    def add_match(self, rounds: int, winners: Iterable[int]) -> None:
        """A finished match: how many rounds it took and who won it (players or teams)."""
        self.matches += 1
        self.match_rounds.add(rounds)
        won = list(winners)
        for w in won:
            self.match_wins[w] += 1
        if len(won) > 1:
            self.match_shared += 1

    def merge(self, o: Tally) -> None:
        """Add another chunk's tally into this one; both must count the same table (players and
        teams), else ``ValueError``."""
        if (o.players, o.teams) != (self.players, self.teams):
            raise ValueError("cannot merge tallies of different tables")
        self.rounds += o.rounds
        self.void += o.void
        for name in ("actions", "turns", "drawn", "penalty", "points", "chains",
                     "chains_per_round", "match_rounds"):
            getattr(self, name).merge(getattr(o, name))
        for reason, n in o.drawn_by.items():
            self.drawn_by[reason] = self.drawn_by.get(reason, 0) + n
        self.seat_wins = [a + b for a, b in zip(self.seat_wins, o.seat_wins, strict=True)]
        self.team_wins = [a + b for a, b in zip(self.team_wins, o.team_wins, strict=True)]
        self.matches += o.matches
        self.match_wins = [a + b for a, b in zip(self.match_wins, o.match_wins, strict=True)]
        self.match_shared += o.match_shared

    # -- results -------------------------------------------------------------------------------
    def win_rates(self) -> list[float]:
        """Each seat's share of all rounds played (void rounds count as played, won by nobody)."""
        return [w / self.rounds if self.rounds else 0.0 for w in self.seat_wins]

    def win_cis(self) -> list[tuple[float, float]]:
        """Each seat's 95% Wilson interval for its win rate."""
        return [wilson(w, self.rounds) for w in self.seat_wins]

    def summary(self) -> dict[str, Any]:
        """The JSON ``summary`` object (schema in :mod:`unoarena.lab`)."""
        n = self.rounds
        chains = self.chains
        d: dict[str, Any] = {
            # the flat fields first: what scripts written against earlier versions read
            "games": n,
            "void": self.void,
            "actions_mean": self.actions.mean,
            "actions_median": self.actions.median,
            "actions_p90": self.actions.quantile(0.9),
            "turns_mean": self.turns.mean,
            "draws_per_game": self.drawn.mean,
            "penalty_draws_per_game": self.penalty.mean,
            "points_mean": self.points.mean,
            "wins": list(self.seat_wins),
            "win_rates": self.win_rates(),
            "win_ci": [list(ci) for ci in self.win_cis()],
            # distributions
            "actions": self.actions.summary(),
            "turns": self.turns.summary(),
            "cards_drawn": self.drawn.summary(),
            "penalty_cards": self.penalty.summary(),
            "points": self.points.summary(),
            "drawn_by_reason": {r: self.drawn_by[r] / n if n else 0.0
                                for r in sorted(self.drawn_by)},
            "chains": {
                "count": chains.n,
                "per_round": chains.n / n if n else 0.0,
                "stacked": sum(k for v, k in chains.counts.items() if v > 1),
                "mean_length": chains.mean,
                "max_length": max(chains.counts) if chains.counts else 0,
                "lengths": chains.to_dict(),
            },
            "histograms": {"actions": self.actions.to_dict(), "turns": self.turns.to_dict(),
                           "cards_drawn": self.drawn.to_dict(),
                           "points": self.points.to_dict()},
        }
        if self.team_wins:
            d["team_wins"] = list(self.team_wins)
            d["team_win_rates"] = [w / n if n else 0.0 for w in self.team_wins]
        if self.matches:
            m = self.matches
            d["matches"] = {
                "count": m,
                "by": "team" if self.teams else "player",
                "rounds": self.match_rounds.summary(),
                "wins": list(self.match_wins),
                "win_rates": [w / m for w in self.match_wins],
                "win_ci": [list(wilson(w, m)) for w in self.match_wins],
                "shared": self.match_shared,
                "rounds_histogram": self.match_rounds.to_dict(),
            }
        return d


@dataclass
class Paired:
    """Differences of one metric between two rule sets played on the same seeds, unit by unit
    (round, or match for rounds per match): the paired interval is narrower than comparing two
    independent means, because both sides share the deal's luck as far as the rules let them."""

    n: int = 0
    total: int = 0
    squares: int = 0

    def add(self, d: int) -> None:
        """Count one unit's difference (this rule set's value minus the first's)."""
        self.n += 1
        self.total += d
        self.squares += d * d

    def merge(self, o: Paired) -> None:
        """Add another chunk's differences into this one."""
        self.n += o.n
        self.total += o.total
        self.squares += o.squares

    def result(self, z: float = Z95) -> dict[str, Any]:
        """The mean difference with its paired normal interval, JSON-ready (``diff``, ``ci``, ``n``,
        ``paired``)."""
        n = self.n
        mean = self.total / n if n else 0.0
        var = (self.squares - self.total * self.total / n) / (n - 1) if n > 1 else 0.0
        half = z * math.sqrt(max(0.0, var) / n) if n > 1 else 0.0
        return {"diff": mean, "ci": [mean - half, mean + half], "n": n, "paired": True}


def welch(a: Hist, b: Hist, z: float = Z95) -> dict[str, Any]:
    """Difference of means ``a - b`` with a normal interval from the two spreads: for metrics
    whose units do not pair up one to one (rounds inside matches of different lengths)."""
    na, nb = a.n, b.n
    diff = a.mean - b.mean
    var = (a.sd ** 2 / na if na else 0.0) + (b.sd ** 2 / nb if nb else 0.0)
    half = z * math.sqrt(var)
    return {"diff": diff, "ci": [diff - half, diff + half], "n": min(na, nb), "paired": False}
