"""Batch simulation: many rounds (or whole matches) under one rule set, or under several rule
sets on the same seeds side by side.

``simulate(rules, "basic", games=2000, seed=1)`` plays 2000 independent rounds with the
sequential driver (DIG-3); ``matches=True`` plays 2000 matches instead (rounds until the rule
set's match system ends them: MATCH-1..4). Round ``i`` deals with dealer ``i mod players`` and
takes its seeds from ``(seed, i)`` alone, so the same arguments give the same numbers whatever
``workers`` or ``cluster`` says.

``compare([classic, house], "basic", games=2000)`` plays round ``i`` of every rule set with the
same seeds and reports, besides each rule set's summary, the per-metric differences from the
first rule set with paired 95% intervals.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..driver import DEFAULT_MAX_ACTIONS, DEFAULT_MAX_ROUNDS
from ..engine import Record, RuleSet, game_record, match_record
from . import fast
from .common import LabError, play_indexed_match, play_indexed_round, seat_bots, spec_label
from .parallel import run_chunks
from .stats import METRICS, Hist, Paired, Tally, metric_values, welch

#: What the differences between rule sets are reported on, besides :data:`METRICS`.
MATCH_METRIC = "rounds_per_match"


@dataclass(frozen=True)
class SimJob:
    """Everything a worker needs to play its chunk: plain data, cheap to pickle."""

    rules: tuple[dict[str, Any], ...]  # RuleSet.to_dict() of each rule set
    bots: tuple[tuple[str, ...], ...]  # per rule set, one spec per seat (per player)
    seed: int
    matches: bool = False
    max_actions: int = DEFAULT_MAX_ACTIONS
    keep_records: int = 0
    engine: str = "python"  # "kernel" or "python", as chosen by :func:`fast.choose_engine`
    threads: int = 1  # the kernel's threads in each process


@dataclass
class Chunk:
    """What one chunk of games adds up to: a tally per rule set, the paired differences of the
    other rule sets from the first, and the records kept."""

    tallies: list[Tally]
    paired: list[dict[str, Paired]]
    records: list[list[Record]]

    def merge(self, o: Chunk) -> None:
        """Add another chunk's tallies, paired differences and records into this one."""
        for a, b in zip(self.tallies, o.tallies, strict=True):
            a.merge(b)
        for pa, pb in zip(self.paired, o.paired, strict=True):
            for k, v in pb.items():
                pa.setdefault(k, Paired()).merge(v)
        for ra, rb in zip(self.records, o.records, strict=True):
            ra.extend(rb)


def _new_chunk(rulesets: Sequence[RuleSet]) -> Chunk:
    return Chunk([Tally(r.players, r.team_count if r.teams else 0) for r in rulesets],
                 [{} for _ in rulesets[1:]], [[] for _ in rulesets])


def play_chunk(job: SimJob, start: int, stop: int) -> Chunk:
    """Play games ``start..stop-1`` of ``job`` under every rule set (the Ray/process task)."""
    rulesets = [RuleSet.from_dict(d) for d in job.rules]
    out = _new_chunk(rulesets)
    teams = [[r.team_of(s) for s in range(r.players)] if r.teams else None for r in rulesets]
    if job.engine == "kernel":
        _kernel_chunk(job, rulesets, teams, out, start, stop)
        return out
    for i in range(start, stop):
        keep = i < job.keep_records
        firsts: tuple[int | None, ...] = ()
        first_rounds = 0
        for j, (rules, specs) in enumerate(zip(rulesets, job.bots, strict=True)):
            tally = out.tallies[j]
            if job.matches:
                rounds, match = play_indexed_match(rules, specs, job.seed, i, job.max_actions)
                for r in rounds:
                    tally.add_round(r, teams[j])
                tally.add_match(len(rounds), match.winners)
                if j == 0:
                    first_rounds = len(rounds)
                else:
                    out.paired[j - 1].setdefault(MATCH_METRIC, Paired()).add(
                        len(rounds) - first_rounds)
                if keep:
                    out.records[j].append(match_record(match))
                continue
            stats, game = play_indexed_round(rules, specs, job.seed, i, job.max_actions)
            tally.add_round(stats, teams[j])
            values = metric_values(stats)
            if j == 0:
                firsts = values
            else:
                _add_paired(out.paired[j - 1], firsts, values)
            if keep:
                out.records[j].append(game_record(game, simulation={
                    "seed": job.seed, "index": i, "bots": list(specs)}))
    return out


def _kernel_chunk(job: SimJob, rulesets: Sequence[RuleSet],
                  teams: Sequence[Sequence[int] | None], out: Chunk, start: int,
                  stop: int) -> None:
    """Rounds ``start..stop`` on the compiled kernel; the records kept are replayed by the
    reference engine (the same rounds: the differential test proves it)."""
    base = None
    first_rounds: list[int] = []
    for j, (rules, specs) in enumerate(zip(rulesets, job.bots, strict=True)):
        if job.matches:
            mc = fast.play_matches(rules, specs, job.seed, start, stop, job.max_actions,
                                   DEFAULT_MAX_ROUNDS)
            fast.add_chunk(out.tallies[j], mc.rounds, teams[j])
            for rounds, won in zip(mc.match_rounds, mc.match_winners, strict=True):
                out.tallies[j].add_match(rounds, won)
            if j == 0:
                first_rounds = mc.match_rounds
            else:
                p = out.paired[j - 1].setdefault(MATCH_METRIC, Paired())
                for a, b in zip(mc.match_rounds, first_rounds, strict=True):
                    p.add(a - b)
            for i in range(start, min(stop, job.keep_records)):
                _rounds, match = play_indexed_match(rules, specs, job.seed, i, job.max_actions)
                out.records[j].append(match_record(match))
            continue
        chunk = fast.play_rounds(rules, specs, job.seed, start, stop, job.max_actions,
                                 job.threads)
        fast.add_chunk(out.tallies[j], chunk, teams[j])
        if j == 0:
            base = chunk
        elif base is not None:
            fast.add_paired(out.paired[j - 1], base, chunk)
        for i in range(start, min(stop, job.keep_records)):
            _stats, game = play_indexed_round(rules, specs, job.seed, i, job.max_actions)
            out.records[j].append(game_record(game, simulation={
                "seed": job.seed, "index": i, "bots": list(specs)}))


def _add_paired(paired: dict[str, Paired], base: tuple[int | None, ...],
                values: tuple[int | None, ...]) -> None:
    for name, a, b in zip(METRICS, values, base, strict=True):
        if a is not None and b is not None:
            p = paired.get(name)
            if p is None:
                p = paired[name] = Paired()
            p.add(a - b)


def _run(job: SimJob, rulesets: Sequence[RuleSet], games: int, workers: int,
         cluster: str | None, progress: Callable[[int, int], None] | None) -> Chunk:
    if games < 0:
        raise LabError(f"games must be 0 or more, not {games}")
    report = (lambda done: progress(done, games)) if progress is not None else None
    total = _new_chunk(rulesets)
    # kernel rounds cost about a fiftieth of Python ones: chunks that much larger
    scale = 40 if job.engine == "kernel" else 1
    for chunk in run_chunks(play_chunk, job, games, workers=workers, cluster=cluster,
                            progress=report, scale=scale):
        total.merge(chunk)
    return total


# ================================================================================================
# one rule set
# ================================================================================================
@dataclass(frozen=True)
class Summary:
    """The headline numbers of a batch (all of them: :meth:`SimResult.to_dict`)."""

    games: int  # rounds played (in match mode: every round of every match)
    void: int
    actions_mean: float
    actions_median: float
    actions_p90: int
    turns_mean: float
    draws_per_game: float
    points_mean: float  # over rounds with a winner
    wins: tuple[int, ...]  # rounds won, per seat
    win_rates: tuple[float, ...]
    win_ci: tuple[tuple[float, float], ...]  # 95% Wilson intervals


@dataclass
class SimResult:
    """The result of :func:`simulate`: a :class:`Tally` with the run's parameters."""

    rules: RuleSet
    bots: tuple[str, ...]  # one spec per seat (per player in match mode)
    seed: int
    tally: Tally
    matches: bool = False
    records: list[Record] = field(default_factory=list)  # the first ``keep_records``
    elapsed: float = 0.0
    engine: str = "python"  # what played the games: "kernel" or "python"

    @property
    def summary(self) -> Summary:
        """The headline numbers, typed (all of them: :meth:`to_dict`)."""
        t = self.tally
        return Summary(t.rounds, t.void, t.actions.mean, t.actions.median,
                       t.actions.quantile(0.9), t.turns.mean, t.drawn.mean, t.points.mean,
                       tuple(t.seat_wins), tuple(t.win_rates()), tuple(t.win_cis()))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; the schema is in :mod:`unoarena.lab`."""
        return {
            "command": "simulate",
            "mode": "matches" if self.matches else "rounds",
            "seed": self.seed,
            "bots": list(self.bots),
            "overrides": self.rules.overrides(),
            "rules": self.rules.to_dict(),
            "summary": self.tally.summary(),
            "engine": self.engine,
            "elapsed_s": round(self.elapsed, 3),
        }


def simulate(rules: RuleSet, bots: Sequence[str] | str, games: int, seed: int = 0, *,
             matches: bool = False, workers: int = 1, cluster: str | None = None,
             keep_records: int = 0, max_actions: int = DEFAULT_MAX_ACTIONS,
             progress: Callable[[int, int], None] | None = None,
             engine: str = "auto", threads: int | None = None) -> SimResult:
    """Play ``games`` rounds (or matches) and add up their statistics.

    ``bots``: one spec for every seat or one per seat (see :func:`seat_bots`).
    ``workers``: processes to play in; ``cluster``: ``local``, ``auto`` or a Ray address.
    ``keep_records``: keep the record of the first games (for ``unoarena replay``).
    ``progress(done, total)`` is called as chunks of games finish.
    ``engine``: ``auto`` (the compiled kernel where it can play the job), ``kernel`` or
    ``python`` (see :mod:`unoarena.lab.fast`); the numbers are the same either way.
    ``threads``: the kernel's threads in each process (default: the cores, shared among the
    ``workers``); the numbers do not depend on it.
    """
    specs = seat_bots(bots, rules.players)
    used = fast.choose_engine(engine, [rules], [specs], matches)
    job = SimJob((rules.to_dict(),), (specs,), seed, matches, max_actions, keep_records, used,
                 fast.threads_for(threads, workers))
    start = time.perf_counter()
    chunk = _run(job, [rules], games, workers, cluster, progress)
    return SimResult(rules, specs, seed, chunk.tallies[0], matches, chunk.records[0],
                     time.perf_counter() - start, used)


# ================================================================================================
# several rule sets on the same seeds
# ================================================================================================
@dataclass
class CompareResult:
    """The result of :func:`compare`: one tally per rule set and the paired differences."""

    rules: list[RuleSet]
    labels: list[str]
    bots: list[tuple[str, ...]]
    seed: int
    games: int
    tallies: list[Tally]
    paired: list[dict[str, Paired]]
    matches: bool = False
    elapsed: float = 0.0
    engine: str = "python"  # what played the games: "kernel" or "python"

    def differences(self) -> list[dict[str, dict[str, Any]]]:
        """For every rule set after the first: metric -> difference from the first (mean of
        this minus mean of the first), with a 95% interval; paired where the units pair up."""
        base = self.tallies[0]
        out: list[dict[str, dict[str, Any]]] = []
        for j, t in enumerate(self.tallies[1:]):
            pairs = self.paired[j]
            diffs: dict[str, dict[str, Any]] = {}
            for name in (*METRICS, MATCH_METRIC):
                if name in pairs:
                    diffs[name] = pairs[name].result()
                elif self.matches and name != MATCH_METRIC:
                    h = _hist(t, name)
                    if h is not None:
                        diffs[name] = welch(h, _hist(base, name) or Hist())
            out.append(diffs)
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; the schema is in :mod:`unoarena.lab`."""
        diffs = self.differences()
        return {
            "command": "compare",
            "mode": "matches" if self.matches else "rounds",
            "seed": self.seed,
            "games": self.games,
            "specs": [{"label": label, "bots": list(b), "overrides": r.overrides(),
                       "rules": r.to_dict(), "summary": t.summary()}
                      for label, b, r, t in zip(self.labels, self.bots, self.rules,
                                                self.tallies, strict=True)],
            "differences": [{"label": self.labels[j + 1], "vs": self.labels[0], "metrics": d}
                            for j, d in enumerate(diffs)],
            "engine": self.engine,
            "elapsed_s": round(self.elapsed, 3),
        }


def _hist(t: Tally, name: str) -> Hist | None:
    return {"actions": t.actions, "turns": t.turns, "cards_drawn": t.drawn,
            "penalty_cards": t.penalty, "points": t.points,
            "chains": t.chains_per_round}.get(name)


def compare(rulesets: Sequence[RuleSet], bots: Sequence[str] | str, games: int, seed: int = 0,
            *, labels: Sequence[str] | None = None, matches: bool = False, workers: int = 1,
            cluster: str | None = None, max_actions: int = DEFAULT_MAX_ACTIONS,
            progress: Callable[[int, int], None] | None = None,
            engine: str = "auto", threads: int | None = None) -> CompareResult:
    """Play the same ``games`` seeds under every rule set; differences are from the first.

    ``bots`` is one spec for all seats, or one per seat (then every rule set must have that
    many players). ``progress(done, total)`` counts seeds, each played under every rule set.
    ``threads``: as for :func:`simulate`.
    """
    if len(rulesets) < 2:
        raise LabError(f"--compare needs two or more rule sets, got {len(rulesets)}")
    specs = []
    for r in rulesets:
        try:
            specs.append(seat_bots(bots, r.players))
        except LabError as e:
            raise LabError(f"{e} (rule set {spec_label(r)})") from None
    names = list(labels) if labels is not None else [spec_label(r) for r in rulesets]
    used = fast.choose_engine(engine, rulesets, specs, matches)
    job = SimJob(tuple(r.to_dict() for r in rulesets), tuple(specs), seed, matches,
                 max_actions, 0, used, fast.threads_for(threads, workers))
    start = time.perf_counter()
    chunk = _run(job, rulesets, games, workers, cluster, progress)
    return CompareResult(list(rulesets), names, specs, seed, games, chunk.tallies,
                         chunk.paired, matches, time.perf_counter() - start, used)
