"""The simulation lab: statistics, rounds and matches, determinism across workers, comparisons,
plots and the ``unoarena simulate`` command."""

from __future__ import annotations

import io
import json
import math
import random
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from cli_util import run

from unoarena.bots import BaseBot, BasicBot, make_bot
from unoarena.driver import play_round
from unoarena.engine import PRESETS, Action, Game, Setup, parse_card, preset, replay_match
from unoarena.lab import (
    Hist,
    LabError,
    Tally,
    compare,
    derive,
    parse_rule_spec,
    simulate,
    wilson,
)
from unoarena.lab import plots as lab_plots
from unoarena.lab.common import play_indexed_match, play_indexed_round, play_tracked
from unoarena.lab.progress import ProgressBar
from unoarena.lab.simulate import SimJob, play_chunk


def without_timing(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k not in ("elapsed_s", "workers")}


class Scripted(BaseBot):
    """Plays the actions of ``script`` (strings) in order; declines every window."""

    name = "scripted"

    def __init__(self, script: Sequence[str]) -> None:
        super().__init__(0)
        self.script = list(script)

    def act(self, view: Mapping[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        want = self.script.pop(0)
        return next(a for a in legal if str(a) == want)


# -- statistics ----------------------------------------------------------------------------------
def test_hist_hand_checked() -> None:
    h = Hist()
    for v in (1, 2, 2, 3, 10):
        h.add(v)
    assert (h.n, h.total, h.mean, h.median) == (5, 18, 3.6, 2.0)
    assert (h.quantile(0.1), h.quantile(0.5), h.quantile(0.9), h.quantile(0.99)) == (1, 2, 10, 10)
    assert h.sd == pytest.approx(math.sqrt(((1 - 3.6) ** 2 + 2 * (2 - 3.6) ** 2 + (3 - 3.6) ** 2
                                            + (10 - 3.6) ** 2) / 4))
    h.add(4)
    assert h.median == 2.5  # even count: the mean of the two middle values
    other = Hist({4: 2})
    other.merge(h)
    assert other.counts == {1: 1, 2: 2, 3: 1, 4: 3, 10: 1}
    assert Hist().summary()["mean"] == 0.0 and Hist().median == 0.0


def test_wilson_interval_hand_checked() -> None:
    lo, hi = wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = wilson(0, 20)
    assert lo == 0.0 and round(hi, 4) == 0.1611
    assert wilson(0, 0) == (0.0, 1.0)


def test_round_stats_hand_checked() -> None:
    """Seat 0 plays a Draw Two, seat 1 stacks one (HR-STACK draw2), seat 2 takes 4 and is
    skipped, seat 0 goes out: 4 actions, 4 turns, one chain of 2, 4 cards drawn for draw2."""
    rules = preset("classic", players=3, stacking="draw2")
    cards = {0: ["RD2", "Y5"], 1: ["YD2", "G1", "G2"], 2: ["B1", "B2", "B3"]}
    game = Game(rules, 1, setup=Setup(
        hands={s: [parse_card(c) for c in h] for s, h in cards.items()},
        discard=[parse_card("R3")], draw_pile=[parse_card(c) for c in ("B9", "B8", "B7", "B6")],
        turn=0))
    bots = [Scripted(["play RD2 uno", "play Y5"]), Scripted(["play YD2"]), Scripted(["draw"])]
    stats = play_tracked(game, bots, random.Random(0))
    assert stats.winner == 0 and not stats.void
    assert (stats.actions, stats.turns) == (4, 4)
    assert stats.chains == (2,)
    assert dict(stats.drawn_by) == {"draw2": 4} and stats.penalty_drawn == 4
    assert stats.points == (1 + 2) + (1 + 2 + 3 + 9 + 8 + 7 + 6)
    tally = Tally(3)
    tally.add_round(stats)
    s = tally.summary()
    assert s["wins"] == [1, 0, 0] and s["chains"]["lengths"] == {"2": 1}
    assert s["chains"]["stacked"] == 1 and s["drawn_by_reason"] == {"draw2": 4.0}


@pytest.mark.parametrize("rules", [
    *(preset(name) for name in PRESETS),
    preset("house", jump_in=True, seven_zero=True, players=5, deck_exhausted="void"),
    preset("classic", players=2, stacking="deflect", stack_draw4=True, draw4_on_draw2=True,
           misplay="penalty", draw_count="until_playable"),
    preset("house", teams=2, wild_powers=True, double_play=True, sum_jump_in="same_color"),
], ids=lambda r: r.preset + ("+" if r.overrides() else ""))
def test_counts_agree_with_the_events(rules: Any) -> None:
    """Under every preset and many house rules: the cards counted by reason are the cards the
    events say were drawn, turns never exceed actions, and a tally adds every round once."""
    tally = Tally(rules.players, rules.team_count if rules.teams else 0)
    for i in range(12):
        stats, game = play_indexed_round(rules, ["basic"] * rules.players, 5, i)
        drew = sum(len(e["cards"]) for e in game.events if e["t"] == "drew")
        assert stats.drawn == drew, (rules.overrides(), i)
        assert stats.turns <= stats.actions == len(game.history)
        assert all(c >= 1 for c in stats.chains)
        tally.add_round(stats, [rules.team_of(s) for s in range(rules.players)])
    assert tally.rounds == 12 and sum(tally.seat_wins) + tally.void == 12
    assert tally.drawn.total == sum(tally.drawn_by.values())


def test_attack_penalties_count_presses_by_reason() -> None:
    """ATK-8/9: a penalty is a number of launcher presses; the cards they eject count under the
    penalty's reason, other presses under ``turn``."""
    rules = preset("attack")
    reasons: set[str] = set()
    for i in range(10):
        stats, game = play_indexed_round(rules, ["basic"] * 4, 1, i)
        reasons.update(r for r, _n in stats.drawn_by)
        assert stats.drawn == sum(len(e["cards"]) for e in game.events if e["t"] == "drew")
    assert "turn" in reasons and reasons & {"hit2", "attack"}


# -- batches -------------------------------------------------------------------------------------
def test_chunks_merge_to_the_whole() -> None:
    """The principle behind determinism across workers: games 0..19 in one chunk or in two
    give identical tallies."""
    rules = preset("house", players=3)
    job = SimJob((rules.to_dict(),), (("basic", "random", "basic"),), 9)
    whole = play_chunk(job, 0, 20)
    parts = play_chunk(job, 0, 7)
    parts.merge(play_chunk(job, 7, 20))
    assert whole.tallies[0].summary() == parts.tallies[0].summary()
    assert derive(9, "game", 3) == derive(9, "game", 3) != derive(9, "game", 4)


def test_simulate_workers_give_identical_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--games", "60", "--seed", "3", "--rules", "house", "--players", "3",
            "--set", "jump_in=on", "--bots", "basic,random,basic", "--json"]
    rc1, out1, _e = run(capsys, *args, "--workers", "1")
    rc2, out2, _e = run(capsys, *args, "--workers", "2")
    assert rc1 == rc2 == 0
    one, two = json.loads(out1), json.loads(out2)
    assert without_timing(one) == without_timing(two)
    assert two["workers"] == 2 and one["summary"]["games"] == 60


def test_matches_mode(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = preset("classic", players=3, target_score=150)
    result = simulate(rules, "basic", 6, seed=2, matches=True, keep_records=1)
    m = result.tally.summary()["matches"]
    assert m["count"] == 6 and sum(m["rounds_histogram"].values()) == 6
    assert result.tally.rounds == m["rounds"]["mean"] * 6
    assert sum(m["wins"]) == 6 + m["shared"]
    rounds, match = play_indexed_match(rules, ["basic"] * 3, 2, 0)
    assert replay_match(result.records[0]).scores == match.scores
    assert len(rounds) == match.rounds_played
    path = tmp_path / "m.json"
    rc, out, err = run(capsys, "simulate", "--matches", "--games", "3", "--players", "3",
                       "--set", "target_score=100", "--save-record", str(path))
    assert rc == 0 and "rounds per match" in out and "match wins" in out
    assert "saved the record of match 0" in err
    assert json.loads(path.read_text())["format"] == "unoarena.match"


def test_compare_pairs_the_seeds(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _err = run(capsys, "simulate", "--compare", "classic", "house",
                        "classic:stacking=draw2", "--games", "40", "--players", "3", "--json")
    assert rc == 0
    d = json.loads(out)
    assert [s["label"] for s in d["specs"]] == ["classic:players=3", "house:players=3",
                                                "classic:players=3,stacking=draw2"]
    assert d["specs"][2]["overrides"] == {"players": 3, "stacking": "draw2"}
    base = d["specs"][0]["summary"]
    for diff, spec in zip(d["differences"], d["specs"][1:], strict=True):
        assert diff["vs"] == "classic:players=3"
        a = diff["metrics"]["actions"]
        assert a["paired"] and a["n"] == 40
        # paired over the same rounds: the mean difference is the difference of the means
        assert a["diff"] == pytest.approx(spec["summary"]["actions_mean"] - base["actions_mean"])
        assert a["ci"][0] <= a["diff"] <= a["ci"][1]
    rc, out, _err = run(capsys, "simulate", "--compare", "classic", "house,stacking=draw2",
                        "--games", "30")
    assert rc == 0
    assert "classic" in out and "house:stacking=draw2" in out
    assert "Differences from classic" in out and "actions per round" in out


def test_compare_in_python_with_matches() -> None:
    rulesets = [preset("classic", players=2), preset("classic", players=2, target_score=200)]
    cmp = compare(rulesets, "basic", 4, seed=1, matches=True)
    diffs = cmp.differences()[0]
    assert diffs["rounds_per_match"]["paired"] and diffs["rounds_per_match"]["n"] == 4
    assert not diffs["actions"]["paired"]  # rounds inside matches do not pair up
    assert cmp.tallies[1].match_rounds.mean <= cmp.tallies[0].match_rounds.mean


@pytest.mark.parametrize(("args", "named"), [
    (["--compare", "classic"], "two or more"),
    (["--compare", "classic", "house", "--rules", "attack"], "not both"),
    (["--compare", "classic", "house:stacking=sideways"], "stacking"),
    (["--compare", "classic", "house", "--bots", "basic,basic,basic"], "3 bots for 4 players"),
    (["--compare", "classic", "house", "--save-record", "x.json"], "--save-record"),
    (["--workers", "0"], "--workers"),
    (["--bots", "basic:speed=9"], "option"),
])
def test_simulate_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], args: list[str],
                                      named: str) -> None:
    rc, out, err = run(capsys, "simulate", "--games", "2", *args)
    assert rc == 2 and out == "" and named in err, err


def test_rule_specs() -> None:
    assert parse_rule_spec("classic").overrides() == {}
    r = parse_rule_spec("house:jump_in=on,players=3", {"players": 5, "seven_zero": True})
    assert r.overrides() == {"players": 3, "jump_in": True, "seven_zero": True}
    assert parse_rule_spec("house,stacking=draw2").stacking == "draw2"
    with pytest.raises(LabError, match="empty preset"):
        parse_rule_spec(":jump_in=on")


# -- what a person sees ---------------------------------------------------------------------------
def test_simulate_table(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(capsys, "simulate", "--rules", "house", "--games", "30", "--seed", "1")
    assert rc == 0 and err == ""
    for text in ("Simulation: house, 4 players, 30 rounds, seed 1", "actions per round",
                 "turns per round", "cards drawn by reason", "penalty chains", "p99",
                 "95% interval", "win rate"):
        assert text in out, text


def test_progress_bar_only_on_a_terminal() -> None:
    quiet = io.StringIO()
    bar = ProgressBar(quiet, "simulate", "rounds")
    bar(5, 10)
    bar.close()
    assert quiet.getvalue() == ""
    shown = io.StringIO()
    bar = ProgressBar(shown, "simulate", "rounds", enabled=True)
    bar(10, 10)
    bar.close()
    text = shown.getvalue()
    assert "simulate [" in text and "100%" in text and "10/10 rounds" in text
    assert text.endswith("\r\033[K")


def test_progress_bar_label_can_change_while_it_runs() -> None:
    shown = io.StringIO()
    bar = ProgressBar(shown, "train", "iterations", enabled=True)
    bar(1, 4)
    bar.label = "train it 2 · win 0.41"
    bar(4, 4)
    assert bar.label == "train it 2 · win 0.41"
    assert "train it 2 · win 0.41 [" in shown.getvalue().split("\r")[-1]


def test_missing_optional_packages_say_what_to_install(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    with pytest.raises(LabError, match=r"unoarena\[cluster\]"):
        simulate(preset("classic"), "basic", 2, cluster="local")
    monkeypatch.setattr(lab_plots, "available", lambda: False)
    rc, out, err = run(capsys, "simulate", "--games", "2", "--plot", str(tmp_path))
    assert rc == 2 and out == "" and "unoarena[lab]" in err


def test_plots_are_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    rc, _out, err = run(capsys, "simulate", "--rules", "house", "--games", "40",
                        "--plot", str(tmp_path / "one"))
    assert rc == 0 and "wrote 5 plots" in err
    names = ["game_length.png", "seat_win_rates.png", "cards_drawn.png",
             "points_per_round.png", "penalty_chains.png"]
    for name in names:
        data = (tmp_path / "one" / name).read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 5000, name
    rc, _out, err = run(capsys, "simulate", "--compare", "classic", "house", "--matches",
                        "--games", "2", "--players", "2", "--plot", str(tmp_path / "two"))
    assert rc == 0 and "wrote 6 plots" in err
    assert (tmp_path / "two" / "matches.png").read_bytes().startswith(b"\x89PNG")


# -- the driver's views ---------------------------------------------------------------------------
class Recorder(BasicBot):
    """Plays as ``basic`` and remembers what its views offered."""

    name = "recorder"

    def __init__(self) -> None:
        super().__init__(0)
        self.saw_history: set[bool] = set()
        self.could_determinize: set[bool] = set()

    def act(self, view: Mapping[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        self.saw_history.add("history" in view)
        self.could_determinize.add(callable(getattr(view, "determinize", None)))
        return super().act(view, legal, rng)


class HistoryRecorder(Recorder):
    wants_history = True


class SearchRecorder(Recorder):
    wants_history = True
    wants_determinize = True

    def act(self, view: Mapping[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        det = getattr(view, "determinize", None)
        if det is not None:
            copy = det(random.Random(1))
            assert isinstance(copy, Game) and copy.turn == view["turn"]
        return super().act(view, legal, rng)


def test_driver_gives_history_and_search_copies_to_bots_that_ask() -> None:
    bots: list[Recorder] = [Recorder(), HistoryRecorder(), SearchRecorder(),
                            HistoryRecorder()]
    game = Game(preset("classic"), 3)
    play_round(game, bots, random.Random(0), max_actions=2000)
    assert bots[0].saw_history == {False} and bots[0].could_determinize == {False}
    assert bots[1].saw_history == {True} and bots[1].could_determinize == {False}
    assert bots[2].saw_history == {True} and bots[2].could_determinize == {True}


def test_sim_module_still_imports_and_warns() -> None:
    import importlib
    import sys

    sys.modules.pop("unoarena.sim", None)
    with pytest.warns(DeprecationWarning, match="unoarena.lab"):
        old = importlib.import_module("unoarena.sim")
    old_simulate = old.simulate

    result = old_simulate(preset("classic", players=2), ["basic"], games=5, seed=1)
    assert result.summary.games == 5 and sum(result.summary.wins) == 5
    assert make_bot("basic").name == "basic"
