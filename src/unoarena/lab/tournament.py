"""Tournaments: bots play duplicate deals at tables of ``players`` seats, and get win rates with
95% intervals, mean points and openskill ratings.

Duplicate deals cut the luck of the cards out of the comparison: every deal (a game seed and a
dealer) is played at every table of the schedule once per rotation of the seats, so every bot
plays every deal from every seat, and a bot that won only because it was dealt well loses the
same deal from the other seats. With three or more seats, odd deals seat the bots in the other
direction, so that who plays after whom is balanced too.

Tables: with as many bots as seats, one table. With more bots, every combination of bots when
there are at most :data:`MAX_TABLES`; beyond that a balanced schedule: for every deal the bots
are put in a seeded random order and table ``t`` takes the ``players`` bots from position ``t``
on (cyclically), so every bot sits at ``players`` tables of every deal.

A game is numbered by (deal, table, rotation) in that order; games run in chunks like a
simulation's (:mod:`unoarena.lab.parallel`) and are rated in that order, so the result depends
on the seed alone.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..bots import make_bot, split_specs
from ..driver import DEFAULT_MAX_ACTIONS, play_round
from ..engine import Game, RuleSet
from ..seeding import derive
from . import fast
from .common import LabError
from .parallel import run_chunks
from .ratings import Rating, finishing_ranks, rate
from .stats import wilson

#: The most tables an all-combinations schedule may have before a balanced one is used.
MAX_TABLES = 60


@dataclass(frozen=True)
class TourJob:
    """The schedule and everything a worker needs to play its games."""

    rules: dict[str, Any]
    specs: tuple[str, ...]  # one per participant
    seed: int
    deals: int
    tables: tuple[tuple[int, ...], ...]  # fixed tables; () = balanced, drawn per deal
    max_actions: int = DEFAULT_MAX_ACTIONS
    engine: str = "python"  # "kernel" or "python" (see :mod:`unoarena.lab.fast`)

    @property
    def players(self) -> int:
        """The seats at each table (the rule set's ``players``)."""
        return int(self.rules["players"])

    @property
    def tables_per_deal(self) -> int:
        """How many tables play each deal: the fixed tables, or as many as there are bots in a
        balanced schedule."""
        return len(self.tables) if self.tables else len(self.specs)

    @property
    def games(self) -> int:
        """Games in the whole tournament: deals × tables × seat rotations."""
        return self.deals * self.tables_per_deal * self.players

    def locate(self, g: int) -> tuple[int, int, int]:
        """Game number -> (deal, table, rotation)."""
        p = self.players
        per_deal = self.tables_per_deal * p
        return g // per_deal, (g % per_deal) // p, g % p

    def table(self, deal: int, t: int) -> tuple[int, ...]:
        """The participants of table ``t`` of ``deal``, clockwise from seat 0 in rotation 0."""
        p = self.players
        if self.tables:
            base = self.tables[t]
        else:
            order = list(range(len(self.specs)))
            random.Random(derive(self.seed, "schedule", deal)).shuffle(order)
            base = tuple(order[(t + k) % len(order)] for k in range(p))
        if p >= 3 and deal % 2:
            base = (base[0], *reversed(base[1:]))
        return base

    def seating(self, deal: int, t: int, rotation: int) -> tuple[int, ...]:
        """Who sits at each seat: the table turned by ``rotation`` seats."""
        base = self.table(deal, t)
        p = len(base)
        return tuple(base[(s + rotation) % p] for s in range(p))


class GameResult(NamedTuple):
    """One tournament game, as the rating and the tables need it."""

    deal: int
    table: int
    rotation: int
    seats: tuple[int, ...]  # participant at each seat
    winner: int | None  # seat; None for a void round
    hand_points: tuple[int, ...]  # per seat (END-3)
    scores: tuple[int, ...]  # per seat: the round's score by the rule set (its team's, in teams)
    actions: int


def play_games(job: TourJob, start: int, stop: int) -> list[GameResult]:
    """Play games ``start..stop-1`` of the tournament (the Ray/process task)."""
    rules = RuleSet.from_dict(job.rules)
    p = rules.players
    if job.engine == "kernel":
        return _play_games_kernel(job, rules, start, stop)
    out: list[GameResult] = []
    for g in range(start, stop):
        deal, t, rot = job.locate(g)
        seats = job.seating(deal, t, rot)
        game = Game(rules, derive(job.seed, "deal", deal), deal % p)
        bots = [make_bot(job.specs[who], derive(job.seed, "bot", deal, s))
                for s, who in enumerate(seats)]
        outcome = play_round(game, bots, random.Random(derive(job.seed, "act", deal)),
                             max_actions=job.max_actions)
        scores = (tuple(outcome.scores[rules.team_of(s)] for s in range(p)) if rules.teams
                  else tuple(outcome.scores))
        out.append(GameResult(deal, t, rot, seats, outcome.winner, tuple(outcome.hand_points),
                              scores, len(game.history)))
    return out


def _play_games_kernel(job: TourJob, rules: RuleSet, start: int,
                       stop: int) -> list[GameResult]:
    """:func:`play_games` on the compiled kernel: the same seeds, the same games."""
    import numpy as np

    from ..kernel import heuristic as kh
    from ..kernel.runner import bot_options
    from ..kernel.single import split_seed
    from .fast import seated_runner

    p = rules.players
    kinds_of = [bot_options(spec) for spec in job.specs]
    m = stop - start
    seeds = np.zeros((m, 4 + 2 * p), np.int64)
    dealers = np.zeros(m, np.int64)
    kinds = np.zeros((m, p), np.int64)
    opts = np.zeros((m, p, kh.NOPT), np.float64)
    places = []
    for row, g in enumerate(range(start, stop)):
        deal, t, rot = job.locate(g)
        seats = job.seating(deal, t, rot)
        places.append((deal, t, rot, seats))
        seeds[row, 0:2] = split_seed(derive(job.seed, "deal", deal))
        seeds[row, 2:4] = split_seed(derive(job.seed, "act", deal))
        for s, who in enumerate(seats):
            kinds[row, s], opts[row, s] = kinds_of[who]
            seeds[row, 4 + 2 * s:6 + 2 * s] = split_seed(derive(job.seed, "bot", deal, s))
        dealers[row] = deal % p
    chunk = seated_runner(rules, job.max_actions).play_seeded(start, seeds, dealers, kinds,
                                                              opts)
    out: list[GameResult] = []
    for row, (deal, t, rot, seats) in enumerate(places):
        w = int(chunk.winners[row])
        sc = [int(x) for x in chunk.scores[row]]
        scores = tuple(sc[rules.team_of(s)] for s in range(p)) if rules.teams else tuple(sc)
        out.append(GameResult(deal, t, rot, seats, None if w < 0 else w,
                              tuple(int(x) for x in chunk.points[row]), scores,
                              int(chunk.counts[row, 0])))
    return out


def schedule(bots: int, players: int) -> tuple[tuple[int, ...], ...]:
    """Every combination of bots when there are at most :data:`MAX_TABLES`, else ``()``: the
    balanced schedule drawn per deal (see the module docstring)."""
    if bots < players:
        raise LabError(f"{bots} bots for tables of {players}: a tournament needs at least as "
                       "many bots as seats (list a bot twice to seat two copies of it)")
    if math.comb(bots, players) <= MAX_TABLES:
        return tuple(itertools.combinations(range(bots), players))
    return ()


def labels_for(specs: Sequence[str]) -> list[str]:
    """Names for the table: the specs, numbered ``#1``, ``#2``... where one is repeated."""
    total = {s: specs.count(s) for s in specs}
    seen: dict[str, int] = {}
    out = []
    for s in specs:
        seen[s] = seen.get(s, 0) + 1
        out.append(f"{s}#{seen[s]}" if total[s] > 1 else s)
    return out


@dataclass
class Standing:
    """One bot's line in the final table."""

    name: str
    spec: str
    games: int = 0
    wins: int = 0
    score: int = 0  # sum of the round scores
    hand_points: int = 0
    seat_games: list[int] = field(default_factory=list)
    seat_wins: list[int] = field(default_factory=list)
    rating: Rating = field(default_factory=lambda: Rating(25.0, 25.0 / 3))

    @property
    def win_rate(self) -> float:
        """Rounds won per game played; 0.0 before any game."""
        return self.wins / self.games if self.games else 0.0

    @property
    def win_ci(self) -> tuple[float, float]:
        """The 95% Wilson interval of :attr:`win_rate`."""
        return wilson(self.wins, self.games)

    def to_dict(self, rank: int) -> dict[str, Any]:
        """This line of the standings as JSON, at place ``rank`` (1 = best), with means per game and
        the rating."""
        return {
            "rank": rank, "name": self.name, "spec": self.spec, "games": self.games,
            "wins": self.wins, "win_rate": self.win_rate, "win_ci": list(self.win_ci),
            "mean_score": self.score / self.games if self.games else 0.0,
            "mean_hand_points": self.hand_points / self.games if self.games else 0.0,
            "seat_games": list(self.seat_games), "seat_wins": list(self.seat_wins),
            "rating": {"mu": self.rating.mu, "sigma": self.rating.sigma,
                       "ordinal": self.rating.ordinal},
        }


@dataclass
class TournamentResult:
    """Standings (best first), the schedule, and the games in schedule order."""

    rules: RuleSet
    seed: int
    deals: int
    tables: tuple[tuple[int, ...], ...]
    standings: list[Standing]
    games: list[GameResult]
    elapsed: float = 0.0
    engine: str = "python"  # what played the games: "kernel" or "python"

    @property
    def players(self) -> int:
        """The seats at each table."""
        return self.rules.players

    @property
    def void(self) -> int:
        """How many games ended with no winner (not rated)."""
        return sum(g.winner is None for g in self.games)

    def seat_wins(self) -> list[int]:
        """Games won from each seat, whoever sat there: how much the seat itself is worth."""
        wins = [0] * self.players
        for g in self.games:
            if g.winner is not None:
                wins[g.winner] += 1
        return wins

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; the schema is in :mod:`unoarena.lab`."""
        n = len(self.games)
        return {
            "command": "tournament",
            "seed": self.seed,
            "players": self.players,
            "deals": self.deals,
            "games": n,
            "void": self.void,
            "schedule": "all_tables" if self.tables else "balanced",
            "tables": [list(t) for t in self.tables],
            "overrides": self.rules.overrides(),
            "rules": self.rules.to_dict(),
            "standings": [s.to_dict(i + 1) for i, s in enumerate(self.standings)],
            "seat_wins": self.seat_wins(),
            "seat_win_rates": [w / n if n else 0.0 for w in self.seat_wins()],
            "engine": self.engine,
            "elapsed_s": round(self.elapsed, 3),
        }


def tournament(rules: RuleSet, bots: Sequence[str] | str, deals: int, seed: int = 0, *,
               workers: int = 1, cluster: str | None = None,
               max_actions: int = DEFAULT_MAX_ACTIONS,
               progress: Callable[[int, int], None] | None = None,
               engine: str = "auto",
               play: Callable[[TourJob, int, int], list[GameResult]] | None = None,
               external: Sequence[str] = ()) -> TournamentResult:
    """Play ``deals`` duplicate deals among ``bots`` at tables of ``rules.players`` seats.

    Every deal is played ``tables × players`` times (every table, every rotation); the
    standings are sorted by rating ordinal, best first. ``progress(done, total)`` counts games.
    ``engine``: ``auto`` (the compiled kernel when every bot has a kernel version), ``kernel``
    or ``python``; the games are the same either way.

    ``play`` plays the games instead, in this process (remote entrants: games at a server's
    tables, :class:`unoarena.remote.lab.RemoteArena`); ``external`` names the entrants of
    ``bots`` that it seats, which are not bots of this process.
    """
    specs = split_specs(bots) if isinstance(bots, str) else [s.strip() for s in bots]
    if not specs:
        raise LabError("no bots given: list two or more, e.g. --bots basic,random")
    for spec in specs:
        if spec not in external:
            make_bot(spec)  # a typo fails before any game is played
    if deals < 1:
        raise LabError(f"a tournament needs 1 or more deals, not {deals}")
    used = "server" if play is not None else fast.choose_engine(engine, [rules], [specs],
                                                                 False)
    job = TourJob(rules.to_dict(), tuple(specs), seed, deals,
                  schedule(len(specs), rules.players), max_actions, used)
    total = job.games
    report = (lambda done: progress(done, total)) if progress is not None else None
    start = time.perf_counter()
    if play is not None:  # one process: the server's tables are here
        workers, cluster = 1, None
    games = [g for chunk in run_chunks(play or play_games, job, total, workers=workers,
                                       cluster=cluster, progress=report,
                                       scale=20 if used == "kernel" else 1) for g in chunk]
    names = labels_for(specs)
    p = rules.players
    standings = [Standing(n, s, seat_games=[0] * p, seat_wins=[0] * p)
                 for n, s in zip(names, specs, strict=True)]
    rated: list[tuple[Sequence[int], Sequence[int]]] = []
    for g in games:
        for seat, who in enumerate(g.seats):
            st = standings[who]
            st.games += 1
            st.seat_games[seat] += 1
            st.score += g.scores[seat]
            st.hand_points += g.hand_points[seat]
            if g.winner == seat:
                st.wins += 1
                st.seat_wins[seat] += 1
        if g.winner is not None:
            rated.append((g.seats, finishing_ranks(g.winner, g.hand_points)))
    for st, r in zip(standings, rate(len(specs), rated), strict=True):
        st.rating = r
    order = sorted(range(len(standings)),
                   key=lambda i: (-standings[i].rating.ordinal, -standings[i].win_rate, i))
    return TournamentResult(rules, seed, deals, job.tables, [standings[i] for i in order],
                            games, time.perf_counter() - start, used)
