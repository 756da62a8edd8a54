"""The review names a choice that throws the round away, and not the right one; the CLI reviews
a record with a progress bar and refuses bad options clearly."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from unoarena.bots import make_bot
from unoarena.cli import main
from unoarena.coach.evaluate import Evaluator
from unoarena.coach.hints import hint, hints_allowed
from unoarena.coach.lessons import load_lessons
from unoarena.coach.review import label_for, review_round
from unoarena.engine import Action, Game, game_record, preset


def _skip_lesson() -> Game:
    return next(x for x in load_lessons("classic") if x.id.endswith("03_skip")).start()


def _last_card() -> Game:
    from unoarena.engine import Setup, parse_card, parse_color
    hands = {0: [parse_card("R5")], 1: [parse_card(c) for c in ("G1", "B4", "Y7", "G9")]}
    setup = Setup(hands=hands, discard=[parse_card("R3")], color=parse_color("R"), turn=0)
    return Game(preset("classic", players=2), 5, setup=setup)


def test_drawing_instead_of_going_out_is_a_blunder_and_going_out_is_not() -> None:
    start = _last_card()
    bad = review_round(start, [(0, Action.parse("draw"))], {0}, Evaluator(samples=64, seed=1))
    d = bad.decisions[0]
    assert d.label == "blunder" and d.loss >= 20
    assert d.best == Action.parse("play R5") and d.best_chance == 1.0
    good = review_round(start, [(0, Action.parse("play R5"))], {0}, Evaluator(64, seed=1))
    assert good.decisions[0].label == "" and good.decisions[0].loss == 0
    assert good.summaries[0].accuracy == 100.0 and bad.summaries[0].accuracy == 0.0
    assert bad.summaries[0].labels["blunder"] == 1


def test_labels_follow_the_documented_thresholds_and_ignore_noise() -> None:
    assert label_for(25, 2) == "blunder" and label_for(12, 2) == "mistake"
    assert label_for(6, 1) == "inaccuracy" and label_for(4, 0.5) == ""
    assert label_for(25, 15) == ""  # lost 25 points, but inside two standard errors


def test_the_hint_is_the_skip_and_says_why() -> None:
    h = hint(_skip_lesson(), 0, Evaluator(samples=120, seed=2))
    assert h.action == Action.parse("play BS")
    assert "%" in h.reason and "Skip" in h.reason
    assert hints_allowed(1) and not hints_allowed(2) and not hints_allowed(1, rated=True)


def _record(tmp_path: Path) -> Path:
    g = Game(preset("classic", players=3), seed=11)
    bots = [make_bot("heuristic", seed=i) for i in range(3)]
    for i, b in enumerate(bots):
        b.begin_round(g.rules, i)
    rng = random.Random(3)
    while not g.is_over:
        s = g.turn
        g.apply(bots[s].act(g.view(s), g.legal_actions(s), rng), s)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_record(g)), encoding="utf-8")
    return path


def test_review_cli_prints_decisions_chart_and_summary(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    rec = _record(tmp_path)
    assert main(["review", str(rec), "--seat", "1", "--samples", "16"]) == 0
    out = capsys.readouterr().out
    assert "Decisions" in out and "accuracy" in out and "100% │" in out
    assert "What really happened" in out


def test_review_cli_refuses_a_bad_seat_and_a_bad_round(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    rec = _record(tmp_path)
    assert main(["review", str(rec), "--seat", "7"]) == 2
    assert "--seat 7 is not a seat of this 3-player game (0 to 2)" in capsys.readouterr().err
    assert main(["review", str(rec), "--round", "2"]) == 2
    assert "one round" in capsys.readouterr().err


def test_a_wild_draw_four_challenge_is_shown_but_not_judged() -> None:
    lesson = next(x for x in load_lessons("classic") if x.id.endswith("06_challenge"))
    r = review_round(lesson.start(), [(1, Action.parse("accept"))], {1},
                     Evaluator(samples=32, seed=3))
    d = r.decisions[0]
    assert not d.judged and d.label == "" and r.summaries[1].choices == 0
