"""The kernel's ``heuristic`` plays the Python heuristic's rounds and matches: same winner,
actions, turns, cards drawn by reason, penalty chains, points and scores, seed for seed, on
every preset and house rule its card tracker has to follow."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("unoarena.kernel._kernel", reason="the compiled kernel is not built")


from unoarena.bots import split_specs
from unoarena.kernel import bots as kb
from unoarena.kernel import heuristic as kh
from unoarena.kernel.core import DRAW_REASONS
from unoarena.kernel.runner import (
    Chunk,
    KernelRefused,
    MatchRunner,
    RoundRunner,
    bot_kind,
    bot_options,
)
from unoarena.lab.common import parse_rule_spec, play_indexed_match, play_indexed_round
from unoarena.testing import random_rules

H = "heuristic"
CASES = [
    ("classic", H), ("classic:players=2", H), ("classic:players=3", f"{H},random"),
    ("classic:players=6", f"{H},basic,random"),
    ("classic", f"{H}:wild_keep=0.2,challenge=3,bluff=0,{H}:bluff=5,random,basic"),
    ("classic:players=2", f"{H}:challenge=0.3,random:decline=0"),
    ("classic:wd4_challenge=off", f"{H},random"), ("classic:number_finish=on", H),
    ("classic:teams=2", f"{H},basic"),
    ("classic:double_play=on,draw_count=until_playable", f"{H},random:decline=0,basic"),
    ("classic:stacking=draw2,draw4_on_draw2=on,stack_draw4=on,players=6", H),
    ("classic:stacking=deflect,players=3,deck_exhausted=void", f"{H},random"),
    ("buzz", H), ("buzz:players=2", f"{H},basic"),
    ("frozen2", H), ("frozen2:teams=2", f"{H},basic"),
    ("house", H), ("house:jump_in=on,seven_zero=on,wild_powers=on", f"{H},random"),
    ("house:jump_in=on,seven_zero=on,wild_powers=on,players=5", H),
    ("house:sum_jump_in=any_color,players=5", f"{H},random:decline=0.2"),
    ("attack", H), ("attack:players=2", f"{H},random"),
    ("attack:draw_count=until_playable,multi_play=on,players=3", f"{H},basic,random"),
]


def _round_row(c: Chunk, i: int) -> tuple[object, ...]:
    """Round ``i`` of a kernel chunk as the Python driver's round statistics list it."""
    by = tuple(sorted((DRAW_REASONS[k], int(v)) for k, v in enumerate(c.drawn_by[i]) if v))
    w = int(c.winners[i])
    return (None if w < 0 else w, int(c.counts[i, kb.C_ACTIONS]), int(c.counts[i, kb.C_TURNS]),
            by, tuple(int(x) for x in c.points[i]), tuple(int(x) for x in c.scores[i]),
            int(c.counts[i, kb.C_CHAINS]))


@pytest.mark.parametrize(("spec", "bots"), CASES)
def test_kernel_heuristic_plays_the_python_rounds(spec: str, bots: str) -> None:
    rules = parse_rule_spec(spec)
    specs = (split_specs(bots) * rules.players)[:rules.players]
    rounds = 60
    chunk = RoundRunner(rules, specs, 11).play(0, rounds)
    for i in range(rounds):
        ref, _game = play_indexed_round(rules, specs, 11, i)
        want = (ref.winner, ref.actions, ref.turns, ref.drawn_by, ref.hand_points, ref.scores,
                len(ref.chains))
        assert _round_row(chunk, i) == want, f"round {i}"


MATCH_CASES = [
    ("classic:target_score=300", H),
    ("classic:players=2,target_score=250", f"{H},random"),
    ("classic:players=5,seat_exchange=1,next_dealer=winner,target_score=150", f"{H},random,basic"),
    ("classic:teams=2,seat_exchange=2,target_score=200", f"{H},random"),
    ("house:seat_exchange=1,target_score=150", f"{H}:bluff=3,random,{H}:challenge=2"),
    ("attack:scoring=chips,rounds=3,seat_exchange=1", f"{H},basic,random"),
]


@pytest.mark.parametrize(("spec", "bots"), MATCH_CASES)
def test_kernel_heuristic_plays_the_python_matches(spec: str, bots: str) -> None:
    """Whole matches: each player's bot, BluffStats included, follows it across rounds and
    seat exchanges."""
    rules = parse_rule_spec(spec)
    specs = (split_specs(bots) * rules.players)[:rules.players]
    games = 10
    chunk = MatchRunner(rules, specs, 3).play_matches(0, games)
    row = 0
    for i in range(games):
        rounds, match = play_indexed_match(rules, specs, 3, i)
        assert chunk.match_rounds[i] == len(rounds), f"match {i}"
        assert chunk.match_winners[i] == tuple(match.winners), f"match {i}"
        for r in rounds:
            want = (r.winner, r.actions, r.turns, r.drawn_by, r.hand_points, r.scores,
                    len(r.chains))
            assert _round_row(chunk.rounds, row) == want, f"match {i}, round row {row}"
            row += 1


def test_random_rule_sets_with_heuristic_seats() -> None:
    """Rule sets drawn around random presets (every key), heuristic seats with random options
    among ``basic`` and ``random`` ones."""
    rng = random.Random(7)
    for j in range(12):
        rules = random_rules(rng)
        specs = []
        for s in range(rules.players):
            if s == 0 or rng.random() < 0.5:
                opts = [f"{key}={rng.choice(values)}" for key, values in
                        (("wild_keep", (0, 0.5, 3)), ("challenge", (0.2, 3)), ("bluff", (0, 4)))
                        if rng.random() < 0.3]
                specs.append(H + (":" + ",".join(opts) if opts else ""))
            else:
                specs.append(rng.choice(("basic", "random", "random:decline=0")))
        chunk = RoundRunner(rules, specs, j).play(0, 15)
        for i in range(15):
            ref, _game = play_indexed_round(rules, specs, j, i)
            want = (ref.winner, ref.actions, ref.turns, ref.drawn_by, ref.hand_points,
                    ref.scores, len(ref.chains))
            assert _round_row(chunk, i) == want, f"{rules.overrides()} {specs} round {i}"


def test_heuristic_options_reach_the_kernel() -> None:
    kind, opts = bot_options("heuristic:wild_keep=2.5,challenge=0.5,bluff=3")
    assert kb.KERNEL_BOTS[kind] == "heuristic"
    assert (opts[kh.O_WILD_KEEP], opts[kh.O_CHALLENGE], opts[kh.O_BLUFF]) == (2.5, 0.5, 3.0)
    with pytest.raises(ValueError, match="wild_keep"):
        bot_options("heuristic:wild_keep=99")


def test_bots_without_a_tracker_still_say_so() -> None:
    """:func:`bot_kind` serves callers of ``bots.act``/``window`` (the vector environment),
    which carry no card tracker: the heuristic is refused there, with the reason."""
    assert bot_kind("basic")[0] == kb.BOT_BASIC
    with pytest.raises(KernelRefused, match="card tracker"):
        bot_kind("heuristic")
