"""Rounds of the lab on the kernel: the same seeds, bots and statistics as
:func:`unoarena.lab.common.play_indexed_round`, a chunk at a time.

Round ``i`` of a batch takes its deal, its driver's generator and each bot's generator from
:func:`~unoarena.seeding.derive`, exactly as the Python path does, so the two paths print
the same numbers for the same seed. A chunk's per-round results are arrays; the caller folds
them into a :class:`~unoarena.lab.stats.Tally` and lets them go, so memory stays flat.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..bots import parse_spec
from ..engine import RuleSet
from . import bots as kb
from . import core, mt
from . import heuristic as kh
from .single import split_seed
from .tables import compile_rules

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]


#: Generators seeded together: enough for the vector units, few enough to stay in cache.
SEED_BLOCK = 512
#: The fewest rounds a thread is given: below this, starting threads costs more than it saves.
MIN_THREAD_ROUNDS = 256


def default_threads() -> int:
    """Threads a batch uses unless told: every core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def check_threads(threads: int) -> int:
    """``threads`` itself if it is a positive number of threads, else a ``ValueError`` that says
    what is allowed."""
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a whole number of at least 1, not {threads!r}")
    return threads


def _derived(seed: int, what: str, start: int, stop: int, *more: int) -> I64:
    """``split_seed(derive(seed, what, i, *more))`` for ``i`` in ``start..stop``, as an array
    of (lo, hi) rows: the same text hashed the same way as :func:`~unoarena.seeding.derive`
    (``repr`` of the tuple), without a call per round."""
    tail = "".join(f", {m!r}" for m in more)
    head = f"({seed!r}, {what!r}, "
    blake = hashlib.blake2b
    words = np.fromiter(
        (int.from_bytes(blake(f"{head}{i}{tail})".encode(), digest_size=8).digest(), "big")
         for i in range(start, stop)), np.uint64, stop - start) & np.uint64((1 << 63) - 1)
    out = np.empty((stop - start, 2), np.int64)
    out[:, 0] = (words & np.uint64(0xFFFFFFFF)).astype(np.int64)
    out[:, 1] = (words >> np.uint64(32)).astype(np.int64)
    return out


class KernelRefused(ValueError):
    """The kernel cannot play this request; the message says why (and the Python path can)."""


def bot_options(spec: str) -> tuple[int, F64]:
    """A bot spec as the kernel's bot code and its options (a row indexed by
    ``heuristic.O_*``); :class:`KernelRefused` for a bot the kernel does not have."""
    name, _options = parse_spec(spec)
    if name not in kb.KERNEL_BOTS:
        raise KernelRefused(f"bot {name!r} has no kernel version (the kernel plays "
                            f"{', '.join(kb.KERNEL_BOTS)})")
    from ..bots import make_bot  # checks the options exactly as the Python path does

    bot = make_bot(spec)
    opts = np.zeros(kh.NOPT, np.float64)
    opts[kh.O_DECLINE] = float(getattr(bot, "decline", 0.5))
    opts[kh.O_WILD_KEEP] = float(getattr(bot, "wild_keep", 0.0))
    opts[kh.O_CHALLENGE] = float(getattr(bot, "challenge_scale", 0.0))
    opts[kh.O_BLUFF] = float(getattr(bot, "bluff_scale", 0.0))
    return kb.KERNEL_BOTS.index(name), opts


def bot_kind(spec: str) -> tuple[int, float]:
    """A spec of a bot that decides from the table alone (``random``, ``basic``: what
    :func:`unoarena.kernel.bots.act` and ``window`` play) as its code and ``decline`` option;
    :class:`KernelRefused` for any other, the heuristic included (its card tracker lives in
    the round and match runners only)."""
    kind, opts = bot_options(spec)
    name = kb.KERNEL_BOTS[kind]
    if name not in kb.STATELESS_BOTS:
        raise KernelRefused(f"bot {name!r} keeps a card tracker, which only the kernel's round "
                            f"and match runners carry; here the kernel plays "
                            f"{', '.join(kb.STATELESS_BOTS)}")
    return kind, float(opts[kh.O_DECLINE])


@dataclass
class _Lane:
    """What one thread of a runner plays with: nothing is shared between threads but the
    rule set's tables and the output rows (each thread writes its own)."""

    st: core.State
    scratch: tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], I64, I64]
    own: npt.NDArray[np.uint32]
    tracker: kh.Tracker
    games: npt.NDArray[np.uint32]
    drivers: npt.NDArray[np.uint32]
    work: npt.NDArray[np.uint32]
    hist: I64


@dataclass
class Chunk:
    """Per-round results of rounds ``start..stop``."""

    start: int
    winners: I64  # -1 for a void round
    counts: I64  # (rounds, NCOUNTS): actions, turns, chains, ...
    points: I64  # (rounds, players) points left in each hand
    scores: I64  # (rounds, players or teams)
    drawn_by: I64  # (rounds, NREASONS)
    chain_hist: I64  # chain length -> chains, over the chunk


class RoundRunner:
    """Plays chunks of indexed rounds for one rule set and one bot per seat."""

    def __init__(self, rules: RuleSet, specs: Sequence[str], seed: int,
                 max_actions: int = 100_000) -> None:
        self.rules = rules
        self.kr = compile_rules(rules)
        self.tb = core.tables_of(self.kr)
        kinds = [bot_options(s) for s in specs]
        self.kinds = np.array([k for k, _ in kinds], np.int64)
        self.opts = np.array([o for _, o in kinds], np.float64).reshape(len(kinds), kh.NOPT)
        self.seed = seed
        self.max_actions = max_actions
        n = rules.players
        self.st = core.new_state(1, n, rules.deck.size, self.kr.n_actions)
        self.scratch = kb.scratch(self.kr.n_actions, n)
        self.own = np.zeros((n, mt.MT_WORDS), np.uint32)
        self.tracker = kh.new_tracker(1, self.kr)
        self._lanes: list[_Lane] = []

    def seeds(self, start: int, stop: int) -> I64:
        """Each round's seeds as 32-bit words: game, driver, then each seat's bot (what
        :func:`unoarena.seeding.derive` gives, computed a column at a time)."""
        n = self.rules.players
        random_seats = [s for s in range(n) if self.kinds[s] == kb.BOT_RANDOM]
        out = np.zeros((stop - start, 4 + 2 * n), np.int64)
        out[:, 0:2] = _derived(self.seed, "game", start, stop)
        out[:, 2:4] = _derived(self.seed, "act", start, stop)
        for s in random_seats:
            out[:, 4 + 2 * s:6 + 2 * s] = _derived(self.seed, "bot", start, stop, s)
        return out

    def play(self, start: int, stop: int, threads: int = 1) -> Chunk:
        """Rounds ``start..stop`` (dealer ``i mod players``, as the Python path), on up to
        ``threads`` threads."""
        n = self.rules.players
        m = stop - start
        dealers = np.arange(start, stop, dtype=np.int64) % n
        kinds = np.tile(self.kinds, (m, 1))
        opts = np.tile(self.opts, (m, 1, 1))
        return self.play_seeded(start, self.seeds(start, stop), dealers, kinds, opts, threads)

    def _lane(self, i: int) -> _Lane:
        """Thread ``i``'s table, scratch, generators and trackers (lane 0: the runner's own)."""
        while len(self._lanes) <= i:
            if not self._lanes:
                st, scratch, own, tracker = self.st, self.scratch, self.own, self.tracker
            else:
                n = self.rules.players
                st = core.new_state(1, n, self.rules.deck.size, self.kr.n_actions)
                scratch = kb.scratch(self.kr.n_actions, n)
                own = np.zeros((n, mt.MT_WORDS), np.uint32)
                tracker = kh.new_tracker(1, self.kr)
            self._lanes.append(_Lane(st, scratch, own, tracker,
                                     np.empty((SEED_BLOCK, mt.MT_WORDS), np.uint32),
                                     np.empty((SEED_BLOCK, mt.MT_WORDS), np.uint32),
                                     np.empty((mt.N + 2, SEED_BLOCK), np.uint32),
                                     np.zeros(kb.MAX_CHAIN_LEN, np.int64)))
        return self._lanes[i]

    def play_seeded(self, start: int, seeds: I64, dealers: I64, kinds: I64,
                    opts: F64, threads: int = 1) -> Chunk:
        """Rounds with explicit seeds (rows of :meth:`seeds`' layout), dealers and bots per
        seat per round (``kinds[i, s]``, options ``opts[i, s]`` as :func:`bot_options`
        gives them). With ``threads`` > 1 the rounds are cut into runs of consecutive rounds,
        one per thread, each played without the GIL; every round is seeded by its index, so
        the results do not depend on the number of threads."""
        n = self.rules.players
        m = len(dealers)
        counts = np.zeros((m, kb.NCOUNTS), np.int64)
        winners = np.zeros(m, np.int64)
        points = np.zeros((m, n), np.int64)
        scores = np.zeros((m, n), np.int64)
        drawn_by = np.zeros((m, core.NREASONS), np.int64)
        parts = max(1, min(check_threads(threads), m // MIN_THREAD_ROUNDS))
        cuts = [m * k // parts for k in range(parts + 1)]
        lanes = [self._lane(k) for k in range(parts)]

        def run(k: int) -> None:
            lane = lanes[k]
            lane.hist[:] = 0
            for a in range(cuts[k], cuts[k + 1], SEED_BLOCK):
                b = min(cuts[k + 1], a + SEED_BLOCK)
                work = lane.work  # (its first b - a columns are used)
                mt.seed_many(lane.games, seeds[a:b, 0].copy(), seeds[a:b, 1].copy(), work)
                mt.seed_many(lane.drivers, seeds[a:b, 2].copy(), seeds[a:b, 3].copy(), work)
                kb.play_rounds(lane.st, self.tb, seeds[a:b], lane.games, lane.drivers,
                               dealers[a:b], kinds[a:b], opts[a:b], lane.own, counts[a:b],
                               lane.hist, winners[a:b], points[a:b], scores[a:b],
                               drawn_by[a:b], self.max_actions, *lane.scratch, lane.tracker)

        if parts == 1:
            run(0)
        else:
            with ThreadPoolExecutor(parts) as pool:
                list(pool.map(run, range(parts)))
        hist = lanes[0].hist.copy()
        for lane in lanes[1:]:
            hist += lane.hist
        bad = np.nonzero(counts[:, kb.C_ERROR])[0]
        if len(bad):
            i = start + int(bad[0])
            raise RuntimeError(f"round {i} (seed {self.seed}) "
                               f"{self._why(int(counts[bad[0], kb.C_ERROR]))}")
        width = self.rules.team_count or n
        return Chunk(start, winners, counts, points, scores[:, :width], drawn_by, hist)

    def _why(self, code: int) -> str:
        """What went wrong in a round, from its ``C_ERROR`` code."""
        return {kb.E_ACTIONS: f"did not end within {self.max_actions} actions",
                kb.E_STUCK: "reached a seat with no legal action",
                kb.E_CHAIN: f"had a penalty chain of {kb.MAX_CHAIN_LEN} or more",
                kb.E_TRACKER: "outgrew the heuristic's card tracker"}.get(code, "failed")


@dataclass
class MatchChunk:
    """Matches ``start..stop``: every round's results in play order, and per match the
    rounds it took and its winners (players, or teams with teams)."""

    rounds: Chunk
    match_rounds: list[int]
    match_winners: list[tuple[int, ...]]


class MatchRunner(RoundRunner):
    """Plays chunks of indexed matches, as :func:`unoarena.lab.common.play_indexed_match`."""

    def __init__(self, rules: RuleSet, specs: Sequence[str], seed: int,
                 max_actions: int = 100_000, max_rounds: int = 10_000) -> None:
        super().__init__(rules, specs, seed, max_actions)
        self.max_rounds = max_rounds
        self.mrng = np.zeros(mt.MT_WORDS, np.uint32)
        self.drv = np.zeros(mt.MT_WORDS, np.uint32)
        cap = min(max_rounds, 10_000)
        n = rules.players
        self.bufs = (np.zeros(cap, np.int64), np.zeros((cap, kb.NCOUNTS), np.int64),
                     np.zeros((cap, n), np.int64), np.zeros((cap, n), np.int64),
                     np.zeros((cap, core.NREASONS), np.int64))
        self.tbs, self.trs = self._by_size()

    def _by_size(self) -> tuple[tuple[core.Tables, ...], tuple[kh.Tracker, ...]]:
        """The tables and tracker of every table size 2..10 (index size - 2): under HR-ELIM the
        match's rules for fewer players, whose action spaces are smaller; else this rule set's
        everywhere (one tuple type, so the kernel compiles once)."""
        tbs = [self.tb] * (core.MAX_PLAYERS - 1)
        trs = [self.tracker] * (core.MAX_PLAYERS - 1)
        if self.rules.elimination != "off":
            for k in range(2, self.rules.players):
                kr = compile_rules(self.rules.replace(players=k))
                tbs[k - 2] = core.tables_of(kr)
                # the tracker's arrays are shared (sized for every player); only its
                # action groups follow the smaller action space
                trs[k - 2] = self.tracker._replace(hgroup=kh.new_tracker(1, kr).hgroup)
        return tuple(tbs), tuple(trs)

    def play_matches(self, start: int, stop: int) -> MatchChunk:
        """Play matches ``start..stop``, each seeded by its index as the Python path seeds it; a
        match that runs past ``max_rounds`` or has a failing round raises ``RuntimeError`` naming
        it."""
        from ..seeding import derive
        from . import matches as km

        n = self.rules.players
        width = self.rules.team_count or n
        hist = np.zeros(kb.MAX_CHAIN_LEN, np.int64)
        result = np.zeros(km.M_WINNERS + width, np.int64)
        totals = np.zeros(width, np.int64)
        parts: list[tuple[np.ndarray, ...]] = []
        rounds: list[int] = []
        winners: list[tuple[int, ...]] = []
        for i in range(start, stop):
            mt.seed_words(self.mrng, *split_seed(derive(self.seed, "match", i)))
            mt.seed_words(self.drv, *split_seed(derive(self.seed, "act", i)))
            for p in range(n):
                if self.kinds[p] == kb.BOT_RANDOM:
                    mt.seed_words(self.own[p], *split_seed(derive(self.seed, "bot", i, p)))
            w, counts, points, scores, drawn_by = self.bufs
            km.play_match(self.st, self.tb, self.mrng, self.drv, self.own, self.kinds,
                          self.opts, self.max_actions, self.max_rounds, result, w,
                          counts, hist, points, scores, drawn_by, totals, *self.scratch,
                          self.tracker, self.tbs, self.trs)
            r = int(result[km.M_ROUNDS])
            if result[km.M_ERROR]:
                bad = int(counts[r - 1, kb.C_ERROR]) if r else 0
                why = {km.E_ROUNDS: f"did not end within {self.max_rounds} rounds",
                       km.E_ROUND: f"has a round that {self._why(bad)}",
                       km.E_CAPACITY: "has more rounds than the kernel's buffer holds"}
                raise RuntimeError(f"match {i} (seed {self.seed}) "
                                   f"{why.get(int(result[km.M_ERROR]), 'failed')}")
            parts.append((w[:r].copy(), counts[:r].copy(), points[:r].copy(),
                          scores[:r, :width].copy(), drawn_by[:r].copy()))
            rounds.append(r)
            winners.append(tuple(int(x) for x in np.nonzero(result[km.M_WINNERS:])[0]))
        cols = [np.concatenate([part[k] for part in parts]) for k in range(5)]
        chunk = Chunk(start, cols[0], cols[1], cols[2], cols[3], cols[4], hist)
        return MatchChunk(chunk, rounds, winners)
