"""The ``learned`` bot: numpy-only play of the shipped weights, in every rule set."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from unoarena.bots import Bot, available, make_bot
from unoarena.driver import play_round
from unoarena.engine import Action, Game, RuleSet, preset
from unoarena.engine.rules import PRESETS
from unoarena.lab import wilson

np = pytest.importorskip("numpy")

from unoarena.bots.features import Layout  # noqa: E402
from unoarena.bots.learned import WEIGHTS, LearnedBot, Network  # noqa: E402


class Checked:
    """Wraps a bot and records every decision, failing on one outside the legal list."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.moves: list[str] = []

    def begin_round(self, rules: RuleSet, seat: int) -> None:
        self.bot.begin_round(rules, seat)

    def act(self, view: Mapping[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        a = self.bot.act(view, legal, rng)
        assert a in legal, f"{a} is not among {[str(x) for x in legal]}"
        self.moves.append(str(a))
        return a

    def window(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        a = self.bot.window(view, legal)
        assert a is None or a in legal
        self.moves.append(str(a))
        return a


def test_registered_and_shipped() -> None:
    assert "learned" in available()
    assert WEIGHTS.exists()
    assert WEIGHTS.stat().st_size < 3_000_000  # a few MB at most


def test_plays_with_numpy_alone() -> None:
    code = ("import sys, random\n"
            "from unoarena.bots import make_bot\n"
            "from unoarena.driver import play_round\n"
            "from unoarena.engine import Game, preset\n"
            "g = Game(preset('classic', players=2), 3, dealer=0)\n"
            "play_round(g, [make_bot('learned'), make_bot('basic')], random.Random(1))\n"
            "assert g.outcome is not None\n"
            "bad = sorted(m for m in ('torch', 'jax', 'tensorflow', 'numba') if m in sys.modules)\n"
            "print(','.join(bad) or 'none')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "none"


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("players", [2, 4, 10])
def test_legal_moves_in_every_preset(name: str, players: int) -> None:
    rules = preset(name, players=players)
    for deal in range(2):
        g = Game(rules, 100 + deal, dealer=deal % players)
        bots = [Checked(make_bot("learned" if s % 2 == 0 else "heuristic", s))
                for s in range(players)]
        play_round(g, bots, random.Random(deal))
        assert g.outcome is not None
        assert bots[0].moves  # the learned seat decided something


def _record(seed: int, spec: str) -> list[str]:
    rules = preset("house", players=3)
    g = Game(rules, seed, dealer=0)
    bots = [Checked(make_bot(spec, seed)), Checked(make_bot("basic", 1)),
            Checked(make_bot(spec, seed + 1))]
    play_round(g, bots, random.Random(seed))
    return bots[0].moves + bots[2].moves


@pytest.mark.parametrize("spec", ["learned", "learned:temperature=1"])
def test_deterministic_for_a_seed(spec: str) -> None:
    assert _record(5, spec) == _record(5, spec)


def test_temperature_samples_other_moves() -> None:
    greedy = [_record(s, "learned") for s in range(6)]
    hot = [_record(s, "learned:temperature=3") for s in range(6)]
    assert greedy != hot


def _win_rate(spec: str, other: str, deals: int) -> tuple[float, float, float]:
    rules = preset("classic", players=2)
    wins = 0
    for d in range(deals):
        for rot in range(2):  # each bot holds each hand once
            g = Game(rules, 7_000 + d, dealer=d % 2)
            me, them = make_bot(spec, d), make_bot(other, d + 1)
            seats = [me, them] if rot == 0 else [them, me]
            play_round(g, seats, random.Random(d * 2 + rot))
            out = g.outcome
            assert out is not None
            wins += out.winner is not None and seats[out.winner] is me
    lo, hi = wilson(wins, 2 * deals)
    return wins / (2 * deals), lo, hi


def test_beats_random_clearly() -> None:
    rate, lo, _hi = _win_rate("learned", "random", 150)
    assert lo > 0.58, f"learned won {rate:.1%} of 300 rounds against random"


def test_an_untrained_network_does_not() -> None:
    """The test above measures training: the same network with fresh random weights (as
    training starts) loses to ``random``; a round it drags past 1,000 actions counts lost."""
    net = Network.load()
    r = np.random.default_rng(0)
    fresh = {k: r.normal(0.0, 1.0 / np.sqrt(v.shape[0]), v.shape) if v.ndim == 2
             else np.zeros_like(v) for k, v in net.p.items()}
    untrained = Network(fresh, {})
    rules = preset("classic", players=2)
    wins = 0
    deals = 12
    for d in range(deals):
        for rot in range(2):
            g = Game(rules, 7_000 + d, dealer=d % 2)
            me: Bot = LearnedBot(d, network=untrained)
            them = make_bot("random", d + 1)
            seats = [me, them] if rot == 0 else [them, me]
            try:
                play_round(g, seats, random.Random(d * 2 + rot), max_actions=1_000)
            except RuntimeError:
                continue
            out = g.outcome
            assert out is not None
            wins += out.winner is not None and seats[out.winner] is me
    assert wins / (2 * deals) < 0.5


def test_one_layout_for_every_rule_set() -> None:
    sizes = {Layout(preset(p, players=n)).size for p in PRESETS for n in (2, 3, 7, 10)}
    assert len(sizes) == 1


def test_bad_options_and_files_are_explained(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="temperature"):
        make_bot("learned:temperature=-1")
    with pytest.raises(ValueError, match="no option depth"):
        make_bot("learned:depth=3")
    with pytest.raises(ValueError, match="no weights file"):
        make_bot(f"learned:weights={tmp_path / 'none.npz'}")
    junk = tmp_path / "junk.npz"
    np.savez(junk, w1=np.zeros((3, 3), np.float32))
    with pytest.raises(ValueError, match=r"not written by unoarena\.train"):
        make_bot(f"learned:weights={junk}")
    with pytest.raises(ValueError, match="2 to 10 players"):
        Layout(preset("classic", players=2).__class__(players=11))


def test_search_anchored_on_the_network_plays_legally() -> None:
    rules = preset("classic", players=3)
    g = Game(rules, 11, dealer=0)
    bots = [Checked(make_bot("learned-search:iterations=20", 3)), Checked(make_bot("basic", 1)),
            Checked(make_bot("heuristic", 2))]
    play_round(g, bots, random.Random(4))
    assert g.outcome is not None
    assert bots[0].moves


@pytest.mark.parametrize("leaf", ["value", "mix", "mine"])
@pytest.mark.parametrize(("name", "players"), [("classic", 2), ("attack", 4), ("house", 4)])
def test_search_with_the_value_as_leaf_plays_legally(leaf: str, name: str, players: int) -> None:
    rules = preset(name, players=players)
    g = Game(rules, 5, dealer=0)
    bots: list[Bot] = [Checked(make_bot(f"learned-search:iterations=12,leaf={leaf}", 3))]
    bots += [Checked(make_bot("heuristic", s)) for s in range(1, players)]
    play_round(g, bots, random.Random(6))
    assert g.outcome is not None


def test_the_value_leaf_favours_the_seat_about_to_go_out() -> None:
    """The network reads each seat's own view of the sampled deal: one card left against a
    dozen is a far better chance, and the chances sum to one."""
    from unoarena.bots.learned import LearnedSearchBot
    from unoarena.engine import Setup
    from unoarena.engine.cards import parse_card

    def cards(*codes: str) -> list[int]:
        return [parse_card(c) for c in codes]

    rules = preset("classic", players=3)
    g = Game(rules, 1, setup=Setup(
        hands={0: cards("R1"),
               1: cards("G1", "G2", "G3", "G4", "G5", "B6", "B7", "B8", "B9", "Y1", "Y2", "Y3"),
               2: cards("G6", "G7", "G8", "B1", "B2", "B3", "Y4", "Y5", "Y6", "Y7", "R2", "R3")},
        discard=cards("B5"), turn=1))
    for leaf in ("value", "mine"):
        bot = LearnedSearchBot(0, leaf=leaf, iterations=1)
        bot.begin_round(rules, 0)
        chances = bot.leaf(g)
        assert sum(chances) == pytest.approx(1.0)
        assert chances[0] > 0.5 > max(chances[1:])
    with pytest.raises(ValueError, match="leaf='x' must be one of model, value, mix, mine"):
        make_bot("learned-search:leaf=x")
