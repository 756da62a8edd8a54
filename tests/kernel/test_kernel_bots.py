"""Rounds played by the kernel's bots are the Python driver's rounds: same winner, actions,
turns, cards drawn by reason, penalty chains, points and scores, seed for seed."""

from __future__ import annotations

import pytest

pytest.importorskip("unoarena.kernel._kernel", reason="the compiled kernel is not built")

from unoarena.bots import split_specs
from unoarena.kernel import bots as kb
from unoarena.kernel.core import DRAW_REASONS
from unoarena.kernel.runner import KernelRefused, RoundRunner, bot_kind
from unoarena.lab.common import parse_rule_spec, play_indexed_round

CASES = [
    ("classic", "basic"), ("classic:players=2", "basic"), ("classic:players=3", "random"),
    ("buzz", "random,basic,basic,random"), ("frozen2:teams=2", "basic"),
    ("house", "random"), ("house:jump_in=on,seven_zero=on,wild_powers=on", "basic"),
    ("house:sum_jump_in=any_color,players=5", "random:decline=0.2"),
    ("classic:double_play=on,draw_count=until_playable", "basic,random:decline=0,basic"),
    ("attack", "basic"), ("attack:players=2", "random"),
    ("classic:stacking=draw2,draw4_on_draw2=on,stack_draw4=on,players=6", "basic"),
]


@pytest.mark.parametrize(("spec", "bots"), CASES)
def test_kernel_bots_play_the_python_rounds(spec: str, bots: str) -> None:
    rules = parse_rule_spec(spec)
    specs = split_specs(bots)
    specs = (specs * rules.players)[:rules.players]
    runner = RoundRunner(rules, specs, 11)
    rounds = 40
    chunk = runner.play(0, rounds)
    for i in range(rounds):
        ref, _game = play_indexed_round(rules, specs, 11, i)
        by = tuple(sorted((DRAW_REASONS[k], int(v)) for k, v in enumerate(chunk.drawn_by[i])
                          if v))
        got = (None if chunk.winners[i] < 0 else int(chunk.winners[i]),
               int(chunk.counts[i, kb.C_ACTIONS]), int(chunk.counts[i, kb.C_TURNS]), by,
               tuple(int(x) for x in chunk.points[i]), tuple(int(x) for x in chunk.scores[i]),
               int(chunk.counts[i, kb.C_CHAINS]))
        want = (ref.winner, ref.actions, ref.turns, ref.drawn_by, ref.hand_points, ref.scores,
                len(ref.chains))
        assert got == want, f"round {i}"


def test_bots_without_a_kernel_version_are_refused() -> None:
    with pytest.raises(KernelRefused, match="ismcts"):
        bot_kind("ismcts")
    with pytest.raises(ValueError, match="decline"):
        bot_kind("random:decline=7")


MATCH_CASES = [
    ("classic:target_score=200", "basic"),
    ("classic:players=5,seat_exchange=1,next_dealer=winner,target_score=150", "random,basic"),
    ("classic:teams=2,target_score=200", "basic"),
    ("attack:scoring=chips,rounds=3", "basic"),
    ("buzz:first_dealer=random,scoring=penalty,target_score=100", "random"),
]


@pytest.mark.parametrize(("spec", "bots"), MATCH_CASES)
def test_kernel_matches_are_the_python_matches(spec: str, bots: str) -> None:
    from unoarena.kernel.runner import MatchRunner
    from unoarena.lab.common import play_indexed_match

    rules = parse_rule_spec(spec)
    specs = (split_specs(bots) * rules.players)[:rules.players]
    games = 12
    chunk = MatchRunner(rules, specs, 3).play_matches(0, games)
    row = 0
    for i in range(games):
        rounds, match = play_indexed_match(rules, specs, 3, i)
        assert chunk.match_rounds[i] == len(rounds)
        assert chunk.match_winners[i] == tuple(match.winners)
        for r in rounds:
            w = int(chunk.rounds.winners[row])
            assert (None if w < 0 else w) == r.winner
            assert tuple(int(x) for x in chunk.rounds.scores[row]) == r.scores
            row += 1
