"""Learned hand inference: what a seat's history says about each opponent's hidden cards.

The hand-written model of :mod:`~unoarena.bots.inference` (players pick the colour they hold
most and name their longest colour) recovers little of a hand: 17.7% of an opponent's cards
against 14.4% for a uniform guess (``benchmarks/inference.py``). This module learns the same
judgement from millions of decisions instead: a small network reads, for every other seat,
what the seat's :class:`~unoarena.bots.inference.CardTracker` knows (hand size, the kinds each
unknown card cannot or most likely does not hold, the colour it named, its recent plain plays
and the table each was played on, the cards it played by colour, where it sits) with the cards
this seat has not seen, and gives the distribution of one of that seat's unknown cards over
the card kinds. Search bots weigh their candidate deals by it
(:meth:`~unoarena.bots.inference.Layout.draw` with a :class:`Belief`).

The network is trained by :mod:`unoarena.train.belief` on rounds of the built-in bots and
shipped as ``belief.npz``; inference needs numpy alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..engine import RuleSet, preset
from ..engine.cards import KCOLOR, KRANK, NKINDS
from .features import MAX_PLAYERS, rule_features
from .inference import CardTracker, Layout, Trace
from .weights import read_weights

WEIGHTS = Path(__file__).with_name("belief.npz")
F32 = npt.NDArray[np.float32]

#: Plays of each opponent read, newest first (the tracker keeps :attr:`Trace.KEEP`).
TRACES = Trace.KEEP
#: Colour slots of the colour one-hots: the five deck colours and "wild".
NCOL = 6
#: Rank classes: a number, then skip, reverse, draw two, hit two, discard all and the wilds.
NRANK = 11
_TRACE = 1 + NCOL + NRANK + NCOL + 2 + NCOL + 2
#: Features of one opponent, and of the table (shared by all opponents).
SEAT_FEATURES = (MAX_PLAYERS - 1) + 2 + 2 + 2 * NKINDS + NCOL + NCOL + 1 + TRACES * _TRACE
TABLE_FEATURES = NKINDS + NCOL + NRANK + 1 + 1 + len(rule_features(preset("classic")))
FEATURES = SEAT_FEATURES + TABLE_FEATURES

_COLOR = [c if c >= 0 else NCOL - 1 for c in KCOLOR]
_RANK = [0 if r <= 9 else r - 9 for r in KRANK]


def _trace_row(out: F32, b: int, tr: Trace) -> None:
    out[b] = 1.0
    b += 1
    out[b + _COLOR[tr.played]] = 1.0
    b += NCOL
    out[b + _RANK[tr.played]] = 1.0
    b += NRANK
    if tr.color >= 0:
        out[b + tr.color] = 1.0
    b += NCOL
    changed = _COLOR[tr.played] != tr.color
    out[b] = float(changed and tr.top >= 0 and KRANK[tr.top] == KRANK[tr.played])
    out[b + 1] = float(not changed)
    b += 2
    if tr.named >= 0:
        out[b + tr.named] = 1.0
    b += NCOL
    out[b] = min(tr.draws, 6) / 3.0
    out[b + 1] = min(len(tr.after), 10) / 5.0


def features(tracker: CardTracker, view: Mapping[str, Any], layout: Layout,
             rules: RuleSet) -> tuple[list[int], F32, F32]:
    """The network's inputs for every other seat with unknown cards: the seats, their rows
    ``(seats, FEATURES)``, and the unseen cards by kind (the pool the unknown cards come from).

    Everything is read from the seat's own view, its tracker and the layout built from them."""
    n = rules.players
    me = layout.me
    pool = np.zeros(NKINDS, np.float32)
    for k in layout.pool:
        pool[k] += 1.0
    deck = np.asarray(rules.deck.counts, np.float32)
    table = np.zeros(TABLE_FEATURES, np.float32)
    table[:NKINDS] = pool / np.maximum(deck, 1.0)
    b = NKINDS
    if tracker.color >= 0:
        table[b + tracker.color] = 1.0
    b += NCOL
    if tracker.top >= 0:
        table[b + _RANK[tracker.top]] = 1.0
    b += NRANK
    table[b] = 1.0 if view["direction"] == "cw" else -1.0
    table[b + 1] = len(view["hand"]) / 10.0
    b += 2
    table[b:] = rule_features(rules)
    sizes = view["hand_sizes"]
    d = 1 if view["direction"] == "cw" else -1
    seats = [s for s in range(n) if s != me and sum(g.count for g in layout.groups[s]) > 0]
    rows = np.zeros((len(seats), FEATURES), np.float32)
    for i, s in enumerate(seats):
        row = rows[i]
        rel = (s - me) % n
        row[rel - 1] = 1.0
        b = MAX_PLAYERS - 1
        row[b] = float(s == (me + d) % n)
        row[b + 1] = float(s == (me - d) % n)
        b += 2
        unknown = sum(g.count for g in layout.groups[s])
        row[b] = sizes[s] / 10.0
        row[b + 1] = unknown / 10.0
        b += 2
        for g in layout.groups[s]:
            w = g.count / unknown
            for k in g.excl:
                row[b + k] += w
            for k in g.soft:
                row[b + NKINDS + k] += w
        b += 2 * NKINDS
        if layout.named[s] >= 0:
            row[b + layout.named[s]] = 1.0
        b += NCOL
        played = tracker.played[s]
        for c in range(NCOL):
            row[b + c] = min(played[c], 10) / 5.0
        b += NCOL
        row[b] = min(tracker.turn_draws[s], 10) / 5.0
        b += 1
        for tr in reversed(tracker.trail[s]):
            _trace_row(row, b, tr)
            b += _TRACE
        rows[i, SEAT_FEATURES:] = table
    return seats, rows, pool


class BeliefNet:
    """The trained network in numpy: an MLP from one opponent's row to a score per card kind,
    added to the log of the unseen copies of each kind (so the prior is a uniform deal)."""

    PARAMS = ("w1", "b1", "w2", "b2", "w3", "b3")

    def __init__(self, params: Mapping[str, npt.NDArray[Any]], meta: Mapping[str, Any]) -> None:
        missing = [k for k in self.PARAMS if k not in params]
        if missing:
            raise ValueError(f"belief weights lack {', '.join(missing)}: not written by "
                             "unoarena.train.belief")
        self.p = {k: np.asarray(params[k], np.float32) for k in self.PARAMS}
        if self.p["w1"].shape[0] != FEATURES:
            raise ValueError(f"belief weights expect {self.p['w1'].shape[0]} inputs, this "
                             f"version has {FEATURES}: retrain with unoarena.train.belief")
        self.meta = dict(meta)

    @classmethod
    def load(cls, path: str | Path = WEIGHTS) -> BeliefNet:
        """Read a weights file (``.npz``); a clear error when it is missing or not ours."""
        return cls(*read_weights(path, "belief weights", "python -m unoarena.train belief"))

    def scores(self, rows: F32) -> F32:
        """Each row's score per kind ``(..., NKINDS)``: the log-odds against a uniform deal."""
        p = self.p
        h = np.maximum(rows @ p["w1"] + p["b1"], 0.0)
        h = np.maximum(h @ p["w2"] + p["b2"], 0.0)
        out: F32 = h @ p["w3"] + p["b3"]
        return out


@cache
def shipped() -> BeliefNet:
    """The belief network shipped with the package (loaded once per process)."""
    return BeliefNet.load(WEIGHTS)


class Belief:
    """One decision's learned beliefs: per other seat, the log-weight of each card kind for its
    unknown cards (relative to a uniform deal). :meth:`weight` scores a deal by them."""

    __slots__ = ("logw", "seats")

    def __init__(self, seats: Sequence[int], logw: F32) -> None:
        self.seats = list(seats)
        self.logw = logw

    @classmethod
    def of(cls, net: BeliefNet, tracker: CardTracker, view: Mapping[str, Any],
           layout: Layout, rules: RuleSet) -> Belief:
        """The beliefs of the seat that owns ``tracker`` at this decision."""
        seats, rows, _pool = features(tracker, view, layout, rules)
        logw = net.scores(rows) if seats else np.zeros((0, NKINDS), np.float32)
        return cls(seats, logw - logw.max(axis=-1, keepdims=True) if seats else logw)

    def probabilities(self, pool: F32) -> F32:
        """Per seat, the chance that one of its unknown cards is of each kind."""
        w = np.exp(self.logw) * pool
        out: F32 = w / np.maximum(w.sum(-1, keepdims=True), 1e-12)
        return out

    def deals(self, layout: Layout, count: int, seed: int) -> Bank:
        """``count`` deals of ``layout``'s hidden cards drawn from the beliefs, all at once: seat
        by seat (most constrained first), each group of unknown cards takes the cards of the
        pool with the highest ``log-weight + Gumbel noise`` that it may hold (the Gumbel-top-k
        trick: a weighted draw without replacement); then the discard cards the history did
        not show, uniformly; the rest is the draw pile. A group that the pool cannot fill
        without its exclusions takes excluded cards rather than none."""
        gen = np.random.default_rng(seed)
        kinds = np.asarray(layout.pool, np.int64)
        size = len(kinds)
        taken = np.zeros((count, size), np.bool_)
        rows = np.arange(count)[:, None]
        picks: dict[int, npt.NDArray[np.int64]] = {}
        logw = {s: self.logw[i] for i, s in enumerate(self.seats)}
        for s in layout.order:
            chosen = []
            lw = logw.get(s)
            base = lw[kinds].astype(np.float64) if lw is not None else np.zeros(size)
            for g in layout.groups[s]:
                m = min(g.count, size)
                if m <= 0:
                    continue
                keys = base + gen.gumbel(size=(count, size))
                if g.excl:
                    keys[:, np.isin(kinds, list(g.excl))] -= 1e6
                keys[taken] = -np.inf
                idx = np.argpartition(-keys, m - 1, axis=1)[:, :m]
                taken[rows, idx] = True
                chosen.append(idx)
            picks[s] = np.concatenate(chosen, axis=1) if chosen else np.zeros((count, 0),
                                                                              np.int64)
        extra = min(layout.extra_discard, size - int(taken[0].sum()))
        if extra > 0:
            keys = gen.random((count, size))
            keys[taken] = np.inf
            picks[-1] = np.argpartition(keys, extra - 1, axis=1)[:, :extra]
            taken[rows, picks[-1]] = True
        return Bank(layout, kinds, picks, taken)


class Bank:
    """Deals sampled by :meth:`Belief.deals`, turned into lists one at a time when drawn."""

    __slots__ = ("kinds", "layout", "picks", "size", "taken")

    def __init__(self, layout: Layout, kinds: npt.NDArray[np.int64],
                 picks: dict[int, npt.NDArray[np.int64]], taken: npt.NDArray[np.bool_]) -> None:
        self.layout = layout
        self.kinds = kinds
        self.picks = picks
        self.taken = taken
        self.size = len(taken)

    def deal(self, i: int) -> tuple[dict[int, list[int]], list[int], list[int]]:
        """Deal ``i``: every other seat's hand (known cards first), the discard cards the
        history did not show, and the rest."""
        kinds = self.kinds
        lay = self.layout
        hands = {s: list(lay.known[s]) + kinds[self.picks[s][i]].tolist() for s in lay.order}
        extra = kinds[self.picks[-1][i]].tolist() if -1 in self.picks else []
        rest = kinds[~self.taken[i]].tolist()
        return hands, extra, rest
