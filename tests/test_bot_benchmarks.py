"""The bot benchmarks: ``strength.py`` plays its rounds as documented and its ``--peek``
diagnostic deals exactly the hands it says (and only to the bot it is asked for);
``inference.py`` scores guesses of hidden hands against the truth."""

from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType

import pytest

from unoarena.bots import ISMCTSBot, SearchView
from unoarena.engine import Game, preset
from unoarena.testing import load_script


def _load(name: str) -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "benchmarks" / f"{name}.py"
    return load_script(path, f"{name}_benchmark")


@pytest.fixture(scope="module")
def strength() -> ModuleType:
    return _load("strength")


@pytest.mark.parametrize("peek", ["", "next", "all"])
def test_a_chunk_plays_every_seating_of_each_deal(strength: ModuleType, peek: str) -> None:
    part = strength.run_chunk(("ismcts-3heuristic", 0, 1, 5, 4, "ismcts:iterations=3",
                               "heuristic", peek))
    assert part["games"] == 4  # one deal, the searching bot at each of the four seats
    assert 0 <= part["wins"] <= 4 and part["searched"] > 0


@pytest.mark.parametrize("peek", ["next", "all"])
def test_peeking_deals_hold_the_true_hands(strength: ModuleType, peek: str) -> None:
    rules = preset("classic", players=4)
    g = Game(rules, 11)
    seat = g.turn
    bot = strength._make("ismcts:iterations=3", 1, peek)
    assert isinstance(bot, strength.PeekingISMCTS) and bot.peek == peek
    bot.begin_round(rules, seat)
    bot.table = g
    view = SearchView(g, seat)
    build = bot._builder(view, bot.heuristic.observe(view), rules)
    assert build is not None
    deal = build(random.Random(3))
    nxt = (seat + 1) % 4
    seen = [nxt] if peek == "next" else [s for s in range(4) if s != seat]
    for s in seen:
        assert sorted(deal.hand(s)) == sorted(g.hand(s))
    if peek == "next":  # the others are sampled, not read
        others = [s for s in range(4) if s not in (seat, nxt)]
        assert any(sorted(deal.hand(s)) != sorted(g.hand(s)) for s in others)
    honest = strength._make("ismcts:iterations=3", 1, "")
    assert type(honest) is ISMCTSBot


def test_tracking_guesses_hands_better_than_chance() -> None:
    """What draws, passes and plays reveal puts more of each opponent's true cards in the
    guessed hands than a uniform deal of the unseen cards does, and the shipped belief network
    more than either."""
    results = _load("inference").measure(rounds=8, players=4, deals=8, seed=2)
    assert set(results) == {"uniform", "tracked", "weighed", "learned"}
    uniform, tracked, weighed, learned = (
        results[m] for m in ("uniform", "tracked", "weighed", "learned"))
    assert tracked["overlap"] > uniform["overlap"]
    assert weighed["overlap"] > uniform["overlap"]
    assert learned["overlap"] > tracked["overlap"]
    assert weighed["next_color_logloss"] < uniform["next_color_logloss"]
    assert weighed["color_l1"] < uniform["color_l1"]


def test_the_round_robin_gives_a_table_of_every_pair(strength: ModuleType) -> None:
    pytest.importorskip("numpy")
    res = strength.round_robin(2, 3, 1, "ismcts:iterations=3")
    names = strength.TOURNAMENT
    table = res["head_to_head"]
    assert res["games"] == 2 * 6 * 2  # deals x pairs x seatings
    for a in names:
        assert set(table[a]) == set(names) - {a}
        for b in table[a]:
            assert table[a][b]["games"] == 4
            assert table[a][b]["win_rate"] + table[b][a]["win_rate"] == pytest.approx(1.0)
    assert set(res["ratings"]) == set(names)
