"""The labeller plays, decision for decision and rollout for rollout, what the reference engine
and bots play: the same rounds, the same labelled decisions, observations and options, and
every option's value from the same reshuffled copies of the table."""

from __future__ import annotations

import copy
import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("unoarena.kernel._kernel", reason="the compiled kernel is not built")

from unoarena.bots import Bot, make_bot
from unoarena.driver import LazyView
from unoarena.encoding import Encoder
from unoarena.engine import Game, RuleSet
from unoarena.engine.state import shuffle
from unoarena.engine.turns import Turns
from unoarena.kernel.label import (
    M_CHOSEN,
    M_NOPT,
    M_SEAT,
    M_WINDOW,
    Labeller,
)
from unoarena.lab.common import parse_rule_spec


def _seed(lo: int, hi: int) -> int:
    return (int(hi) << 32) | int(lo)


def _bots(specs: list[str], seat: int, n: int) -> list[Bot]:
    """The round's bots: the labelled seat's spec first, the others following it round the
    table (as :meth:`Labeller.run` seats them)."""
    return [make_bot(specs[(s - seat) % n], 0) for s in range(n)]


def _decide(bot: Bot, g: Game, seat: int, window: bool, drv: random.Random) -> int:
    acts, index = g.space.actions, g.space.index
    ids = g.legal_ids(seat)
    view = LazyView(g, seat, True)
    if window:
        choice = bot.window(view, [acts[i] for i in ids])
        view.close()
        return -1 if choice is None else index[choice]
    aid = index[bot.act(view, [acts[i] for i in ids], drv)]
    view.close()
    return aid


def _until(g: Game, bots: list[Bot], turns: Turns, drv: random.Random,
           stop: int) -> tuple[bool, bool]:
    """Let the bots play until ``stop`` must decide (True, window?) or the round is over."""
    while not g.is_over:
        seat = turns.next_window(g)
        window = seat >= 0
        if not window:
            seat = g.turn
        if seat == stop:
            return True, window
        aid = _decide(bots[seat], g, seat, window, drv)
        if aid < 0:
            turns.decline(g, seat)
            continue
        g.step(aid, seat)
        turns.moved(g)
    return False, False


def _result(g: Game, seat: int) -> float:
    out = g.outcome
    assert out is not None
    if out.winner is None:
        return 0.0
    rules = g.rules
    if rules.teams:
        return 1.0 if rules.team_of(out.winner) == rules.team_of(seat) else -1.0
    return 1.0 if out.winner == seat else -1.0


def reference(rules: RuleSet, specs: list[str], seed: int, rounds: int, rollouts: int,
              share: float) -> dict[str, list[Any]]:
    """:meth:`Labeller.run` on the reference engine and bots (see the kernel module)."""
    n = rules.players
    enc = Encoder(rules)
    lab = random.Random(seed)
    gen = np.random.default_rng([seed, 0])
    words = gen.integers(0, 2**32, size=(rounds, 2), dtype=np.int64)
    permille = round(1000 * share)
    out: dict[str, list[Any]] = {"obs": [], "ids": [], "q": [], "meta": []}
    for i in range(rounds):
        dealer, seat = i % n, (i // n) % n
        g = Game(rules, _seed(*words[i]), dealer=dealer)
        drv = random.Random(_seed(lab.getrandbits(32), lab.getrandbits(32)))
        for _s in range(n):
            lab.getrandbits(32), lab.getrandbits(32)  # the seats' own generators (unused)
        bots = _bots(specs, seat, n)
        for s, b in enumerate(bots):
            b.begin_round(rules, s)
        turns = Turns()
        while True:
            asked, window = _until(g, bots, turns, drv, seat)
            if not asked:
                break
            ids = g.legal_ids(seat)
            nopt = len(ids) + window
            row = None
            if nopt >= 2 and lab.random() * 1000.0 < permille:
                options = [*ids, -1] if window else list(ids)
                q = np.zeros(len(options), np.float32)
                for _r in range(rollouts):
                    lo, hi = lab.getrandbits(32), lab.getrandbits(32)
                    for j, aid in enumerate(options):
                        c = g.clone()
                        c.state.rng = random.Random(_seed(lo, hi))
                        shuffle(c.state, c.state.pile)
                        cb = copy.deepcopy(bots)
                        ct = copy.deepcopy(turns)
                        if aid >= 0:
                            c.step(aid, seat)
                            ct.moved(c)
                        else:
                            ct.decline(c, seat)
                        rdrv = random.Random(_seed(lo ^ 0x5BD1E995, hi))
                        _until(c, cb, ct, rdrv, -1)
                        q[j] += np.float32(_result(c, seat) / rollouts)
                row = [nopt, int(window), 0, seat, i]
                out["obs"].append(enc.encode(g, seat, window=window, legal=ids))
                out["ids"].append([*ids, len(g.space)] if window else list(ids))
                out["q"].append(q)
                out["meta"].append(row)
            aid = _decide(bots[seat], g, seat, window, drv)
            if row is not None:
                row[M_CHOSEN] = ids.index(aid) if aid >= 0 else len(ids)
            if aid < 0:
                turns.decline(g, seat)
                continue
            g.step(aid, seat)
            turns.moved(g)
    return out


CASES = [
    ("classic:players=2", ["heuristic", "basic"]),
    ("classic", ["heuristic"] * 4),
    ("house:jump_in=on,seven_zero=on,players=3", ["heuristic", "heuristic", "basic"]),
    ("attack:players=3", ["heuristic", "basic", "heuristic"]),
    ("frozen2:teams=2", ["heuristic", "basic", "heuristic", "basic"]),
]


@pytest.mark.parametrize(("spec", "bots"), CASES)
def test_labels_are_the_reference_games(spec: str, bots: list[str]) -> None:
    rules = parse_rule_spec(spec)
    rounds = 2 * rules.players
    lab = Labeller(rules, bots, 17, rollouts=2, share=0.3)
    got = lab.run(rounds, 10_000)
    ref = reference(rules, bots, 17, rounds, 2, 0.3)
    assert len(got["meta"]) == len(ref["meta"]) > 3
    for r in range(len(ref["meta"])):
        meta = got["meta"][r]
        nopt = int(meta[M_NOPT])
        where = f"row {r} (round {meta[4]}, seat {meta[M_SEAT]})"
        assert list(meta) == ref["meta"][r], where
        assert list(got["ids"][r, :nopt]) == ref["ids"][r], where
        assert np.array_equal(got["obs"][r], ref["obs"][r]), where
        assert np.allclose(got["q"][r, :nopt], ref["q"][r], atol=1e-6), where


def test_values_tell_options_apart() -> None:
    """Over many decisions the values mean something: the bot's own choice is worth more than
    drawing a card instead of playing one (which the heuristic never does)."""
    rules = parse_rule_spec("classic:players=2")
    got = Labeller(rules, ["heuristic", "heuristic"], 3, rollouts=8, share=1.0).run(
        300, 100_000)
    rows = np.arange(len(got["meta"]))
    chosen = got["q"][rows, got["meta"][:, M_CHOSEN]]
    draw_first = (got["ids"][:, 0] == 0) & (got["meta"][:, M_WINDOW] == 0) & (
        got["meta"][:, M_NOPT] >= 2)
    gap = (chosen - got["q"][:, 0])[draw_first]
    assert draw_first.sum() > 500
    assert gap.mean() > 0.05, gap.mean()


def test_refusals() -> None:
    rules = parse_rule_spec("classic:players=2")
    with pytest.raises(ValueError, match="seats"):
        Labeller(rules, ["heuristic"], 1)
    with pytest.raises(ValueError, match="not random"):
        Labeller(rules, ["heuristic", "random"], 1)
