"""The lab on the compiled kernel: which engine plays a job, and a kernel chunk as a tally.

``engine="auto"`` (the default everywhere) plays on the kernel when it was built at install, the
rule set compiles and every seat's bot has a kernel version; otherwise on the reference
engine. ``engine="kernel"`` insists and says why when the kernel cannot serve; ``"python"``
never uses it. Both paths give the same numbers for the same seed (``tests/kernel``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from ..engine import RuleSet
from .common import LabError
from .stats import Paired, Tally

if TYPE_CHECKING:  # numpy comes with the 'fast' extra: a plain install runs without it
    import numpy as np

    from ..kernel.runner import Chunk, MatchChunk, MatchRunner, RoundRunner

ENGINES = ("auto", "kernel", "python")


def kernel_refusal(rulesets: Sequence[RuleSet], specs: Sequence[Sequence[str]]) -> str:
    """Why the kernel cannot play this job ("" when it can)."""
    from ..kernel import available, unavailable_reason

    if not available():
        return unavailable_reason()
    from ..kernel.runner import KernelRefused, bot_options
    from ..kernel.tables import KernelUnsupported, compile_rules

    for rules, seat_specs in zip(rulesets, specs, strict=True):
        try:
            compile_rules(rules)
            for spec in seat_specs:
                bot_options(spec)
        except (KernelRefused, KernelUnsupported) as e:
            return str(e)
    return ""


def choose_engine(engine: str, rulesets: Sequence[RuleSet], specs: Sequence[Sequence[str]],
                  matches: bool) -> str:
    """``"kernel"`` or ``"python"`` for a job; :class:`LabError` when ``engine`` is
    ``"kernel"`` and the kernel cannot serve (the message says why)."""
    if engine not in ENGINES:
        raise LabError(f"unknown engine {engine!r}: choose one of {', '.join(ENGINES)}")
    if engine == "python":
        return "python"
    why = kernel_refusal(rulesets, specs)
    if not why:
        return "kernel"
    if engine == "kernel":
        raise LabError(f"--engine kernel cannot play this: {why}")
    return "python"


@lru_cache(maxsize=16)
def _runner(rules: RuleSet, specs: tuple[str, ...], seed: int,
            max_actions: int) -> RoundRunner:
    from ..kernel.runner import RoundRunner

    return RoundRunner(rules, specs, seed, max_actions)


def play_rounds(rules: RuleSet, specs: Sequence[str], seed: int, start: int, stop: int,
                max_actions: int, threads: int = 1) -> Chunk:
    """Rounds ``start..stop`` of a job on the kernel (one runner per process and job), on up
    to ``threads`` threads."""
    return _runner(rules, tuple(specs), seed, max_actions).play(start, stop, threads)


def threads_for(threads: int | None, workers: int) -> int:
    """The kernel's threads in each of ``workers`` processes: ``threads`` when given (a
    :class:`LabError` unless it is 1 or more), else the cores shared among the processes."""
    if threads is None:
        import os

        try:
            cores = len(os.sched_getaffinity(0))
        except AttributeError:  # not on Linux
            cores = os.cpu_count() or 1
        return max(1, cores // max(1, workers))
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise LabError(f"--threads must be 1 or more, not {threads}")
    return threads


@lru_cache(maxsize=16)
def _match_runner(rules: RuleSet, specs: tuple[str, ...], seed: int, max_actions: int,
                  max_rounds: int) -> MatchRunner:
    from ..kernel.runner import MatchRunner

    return MatchRunner(rules, specs, seed, max_actions, max_rounds)


def play_matches(rules: RuleSet, specs: Sequence[str], seed: int, start: int, stop: int,
                 max_actions: int, max_rounds: int) -> MatchChunk:
    """Matches ``start..stop`` of a job on the kernel."""
    return _match_runner(rules, tuple(specs), seed, max_actions, max_rounds).play_matches(
        start, stop)


@lru_cache(maxsize=16)
def seated_runner(rules: RuleSet, max_actions: int) -> RoundRunner:
    """A runner for rounds whose bots are given seat by seat (tournaments)."""
    from ..kernel.runner import RoundRunner

    return RoundRunner(rules, ["random"] * rules.players, 0, max_actions)


def metric_rows(chunk: Chunk) -> np.ndarray:
    """Per round, the values of :data:`~unoarena.lab.stats.METRICS` (points -1 when void)."""
    import numpy as np

    from ..kernel import bots as kb

    drawn = chunk.drawn_by.sum(axis=1)
    void = chunk.winners < 0
    points = np.where(void, -1, chunk.points.sum(axis=1))
    return np.stack([chunk.counts[:, kb.C_ACTIONS], chunk.counts[:, kb.C_TURNS], drawn,
                     drawn - chunk.drawn_by[:, 0], points, chunk.counts[:, kb.C_CHAINS],
                     void.astype(np.int64)], axis=1)


def add_chunk(tally: Tally, chunk: Chunk, team_of: Sequence[int] | None) -> None:
    """Fold a kernel chunk into ``tally`` exactly as ``Tally.add_round`` would, round by
    round, but with whole-array counts."""
    import numpy as np

    from ..kernel.core import DRAW_REASONS

    rows = metric_rows(chunk)
    m = len(rows)
    tally.rounds += m
    for hist, col in ((tally.actions, 0), (tally.turns, 1), (tally.drawn, 2),
                      (tally.penalty, 3), (tally.chains_per_round, 5)):
        _add_values(hist.counts, rows[:, col])
    won = chunk.winners >= 0
    tally.void += int(m - won.sum())
    _add_values(tally.points.counts, rows[won, 4])
    for r, total in enumerate(chunk.drawn_by.sum(axis=0)):
        if total:
            name = DRAW_REASONS[r]
            tally.drawn_by[name] = tally.drawn_by.get(name, 0) + int(total)
    for length in np.nonzero(chunk.chain_hist)[0]:
        tally.chains.add(int(length), int(chunk.chain_hist[length]))
    wins = np.bincount(chunk.winners[won], minlength=tally.players)
    tally.seat_wins = [a + int(b) for a, b in zip(tally.seat_wins, wins, strict=True)]
    if team_of is not None and tally.team_wins:
        for seat, w in enumerate(wins):
            tally.team_wins[team_of[seat]] += int(w)


def add_paired(paired: dict[str, Paired], base: Chunk, other: Chunk) -> None:
    """Paired differences ``other - base`` of every metric, round by round (a void round
    has no points, so points pair only where both rounds had a winner)."""
    from .stats import METRICS

    a, b = metric_rows(other), metric_rows(base)
    for col, name in enumerate(METRICS):
        x, y = a[:, col], b[:, col]
        if name == "points":
            keep = (x >= 0) & (y >= 0)
            x, y = x[keep], y[keep]
        if not len(x):
            continue
        d = (x - y).astype(object)  # Python ints: sums of squares never overflow
        p = paired.get(name)
        if p is None:
            p = paired[name] = Paired()
        p.n += len(d)
        p.total += int(d.sum())
        p.squares += int((d * d).sum())


def _add_values(counts: dict[int, int], values: np.ndarray) -> None:
    import numpy as np

    vals, cnt = np.unique(values, return_counts=True)
    for v, c in zip(vals.tolist(), cnt.tolist(), strict=True):
        counts[v] = counts.get(v, 0) + c
