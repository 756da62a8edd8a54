"""Learned hand inference: features from the view alone, deals that respect what is known, and
shipped weights that read a hand better than a uniform deal."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_bots_ismcts import twin_tables

from unoarena.bots import ISMCTSBot, make_bot
from unoarena.bots.inference import CardTracker
from unoarena.driver import play_round
from unoarena.engine import Game, preset
from unoarena.engine.cards import NKINDS

np = pytest.importorskip("numpy")

from unoarena.bots.belief import FEATURES, Belief, BeliefNet, features, shipped  # noqa: E402


def test_features_are_read_from_the_view_alone() -> None:
    """Two tables the seat cannot tell apart (different hidden hands and piles) give the
    same inputs, and so the same beliefs."""
    rules = preset("classic", players=2)
    rows = []
    for g in twin_tables(rules):
        tr = CardTracker(rules, 0)
        view = g.view(0, history=True)
        tr.update(view)
        lay = tr.hidden_layout(view)
        seats, x, pool = features(tr, view, lay, rules)
        assert seats == [1]
        assert x.shape == (1, FEATURES)
        rows.append((x, pool))
    assert np.array_equal(rows[0][0], rows[1][0])
    assert np.array_equal(rows[0][1], rows[1][1])


def _decision_states(players: int, rounds: int, seed: int
                     ) -> Iterator[tuple[Game, CardTracker, dict[str, Any]]]:
    """Seat 0's turns in heuristic rounds: the live game, the seat's tracker and its view
    (used before the round moves on)."""
    rules = preset("classic", players=players)
    for r in range(rounds):
        g = Game(rules, seed + r, dealer=r % players)
        bots = [make_bot("heuristic", seed + s) for s in range(players)]
        for s, b in enumerate(bots):
            b.begin_round(rules, s)
        tr = CardTracker(rules, 0)
        rng = random.Random(r)
        while not g.is_over:
            seat = g.turn
            view = g.view(seat, history=True)
            if seat == 0 and view["phase"] == "play":
                tr.update(view)
                yield g, tr, view
            g.apply(bots[seat].act(view, g.legal_actions(seat), rng), seat)


def test_deals_hold_exactly_the_hidden_cards() -> None:
    """Every deal drawn from the beliefs gives each other seat its hand size, with its known
    cards first, from the cards this seat has not seen; what is left is the rest of them."""
    net = shipped()
    for g, tr, view in _decision_states(4, 4, 5):
        lay = tr.hidden_layout(view)
        lay.belief = Belief.of(net, tr, view, lay, g.rules)
        for i in range(20):
            hands, extra, rest = lay.draw(random.Random(i))
            for s in lay.order:
                assert len(hands[s]) == view["hand_sizes"][s]
                assert hands[s][:len(lay.known[s])] == lay.known[s]
            unknown = Counter(k for s in lay.order for k in hands[s][len(lay.known[s]):])
            assert unknown + Counter(extra) + Counter(rest) == Counter(lay.pool)
            assert len(extra) == min(lay.extra_discard, len(lay.pool) - unknown.total())


def test_deals_keep_the_hard_exclusions_when_the_pool_allows() -> None:
    """A seat that drew on a colour holds none of it in any deal, as the tracker knows."""
    net = shipped()
    checked = 0
    for g, tr, view in _decision_states(4, 6, 11):
        lay = tr.hidden_layout(view)
        lay.belief = Belief.of(net, tr, view, lay, g.rules)
        for i in range(10):
            hands, _extra, _rest = lay.draw(random.Random(i))
            for s in lay.order:
                free = hands[s][len(lay.known[s]):]
                # the groups are filled in order, each from the cards it allows
                pos = 0
                for grp in lay.groups[s]:
                    part = free[pos:pos + grp.count]
                    pos += grp.count
                    allowed = [k for k in lay.pool if k not in grp.excl]
                    if len(allowed) >= 3 * grp.count:
                        assert not set(part) & grp.excl
                        checked += 1
    assert checked > 50


def test_shipped_beliefs_read_hands_better_than_a_uniform_deal() -> None:
    """On rounds the network never saw, the true unknown cards of the other seats are likelier
    under the beliefs than under a uniform deal of the unseen cards (a few hundredths of a nat
    per card would be noise; untrained weights score zero)."""
    net = shipped()
    gain = cards = 0.0
    for g, tr, view in _decision_states(4, 15, 7_777):
        lay = tr.hidden_layout(view)
        belief = Belief.of(net, tr, view, lay, g.rules)
        pool = np.zeros(NKINDS, np.float32)
        for k in lay.pool:
            pool[k] += 1
        probs = belief.probabilities(pool)
        uniform = pool / pool.sum()
        for i, s in enumerate(belief.seats):
            known = Counter(lay.known[s])
            for k in (Counter(g.hand(s)) - known).elements():
                gain += float(np.log(max(probs[i, k], 1e-9)) - np.log(uniform[k]))
                cards += 1
    assert cards > 200
    assert gain / cards > 0.1, f"{gain / cards:.3f} nats per card over a uniform deal"


def test_weights_files_are_checked(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no belief weights"):
        BeliefNet.load(tmp_path / "none.npz")
    bad = tmp_path / "bad.npz"
    np.savez(bad, w1=np.zeros((3, 4), np.float32))
    with pytest.raises(ValueError, match="lack"):
        BeliefNet.load(bad)
    wrong = tmp_path / "wrong.npz"
    p = {k: np.zeros((2, 2), np.float32) for k in BeliefNet.PARAMS}
    np.savez(wrong, **p)
    with pytest.raises(ValueError, match="retrain"):
        BeliefNet.load(wrong)


def test_ismcts_with_beliefs_plays_legally_and_deterministically() -> None:
    rules = preset("classic", players=4)
    results = []
    for _ in range(2):
        g = Game(rules, 21)
        seats = [make_bot("ismcts:iterations=12,belief=1", 3)] + [
            make_bot("heuristic", s) for s in range(3)]
        play_round(g, seats, random.Random(4))
        results.append(g.history)
    assert results[0] == results[1]
    bot = make_bot("ismcts:belief=1")
    assert isinstance(bot, ISMCTSBot) and bot.belief is not None
    with pytest.raises(ValueError, match="belief"):
        make_bot("ismcts:belief=2")


def test_training_records_and_fits_beliefs(tmp_path: Path) -> None:
    """The recorder's rows hold each other seat's true unknown cards (as many as its hand
    holds beyond the cards known to the observer); a short fit writes weights the bot loads
    and reports a held-out log-loss below the uniform deal's."""
    pytest.importorskip("torch")
    from unoarena.train.belief import MIX, dataset, fit, record, save

    part = record(MIX[0], 3, 1)
    assert part["x"].shape[1] == FEATURES and part["x"].dtype == np.float16
    assert (part["y"].sum(1) >= 1).all()
    assert (part["y"] <= part["pool"]).all()  # the truth is among the unseen cards
    data = dataset(60, 2, 1, chunk=20)
    arrays, meta = fit(data, hidden=32, epochs=2, batch=256, lr=3e-3)
    last = meta["history"][-1]
    assert last["held_out"] < last["uniform"]
    net = BeliefNet.load(save(arrays, meta, tmp_path / "b.npz"))
    assert net.meta["epochs"] == 2
