"""The lab on the compiled kernel prints what the Python path prints, seed for seed, and says
why when it cannot serve."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("unoarena.kernel._kernel", reason="the compiled kernel is not built")

from cli_util import run

from unoarena.engine import preset
from unoarena.lab.simulate import compare, simulate


def _without_time(text: str) -> str:
    return re.sub(r"\n\s*time .*", "", text)


@pytest.mark.parametrize("args", [
    ["--rules", "house", "--players", "3", "--bots", "basic,random,basic"],
    ["--rules", "attack", "--bots", "basic"],
    ["--rules", "classic", "--set", "teams=2", "--bots", "random:decline=0.1"],
    ["--compare", "classic", "classic:stacking=draw2", "house", "--bots", "basic"],
    ["--matches", "--rules", "classic", "--set", "target_score=150", "--bots", "basic"],
    ["--matches", "--rules", "house", "--players", "5", "--set", "seat_exchange=1",
     "--set", "teams=0", "--set", "target_score=120", "--bots", "random,basic,basic,basic,random"],
    ["--matches", "--compare", "classic:target_score=200", "classic:target_score=300",
     "--bots", "random"],
    ["--rules", "classic", "--bots", "heuristic"],
    ["--rules", "house", "--players", "3", "--set", "seven_zero=on",
     "--bots", "heuristic,random,heuristic:bluff=3"],
    ["--matches", "--rules", "classic", "--players", "3", "--set", "seat_exchange=1",
     "--set", "target_score=150", "--bots", "heuristic,basic,heuristic:challenge=2"],
    ["--matches", "--rules", "classic", "--players", "5", "--set", "elimination=points",
     "--set", "seat_exchange=1", "--bots", "random,basic,basic,heuristic,random"],
    ["--matches", "--rules", "house", "--players", "4", "--set", "elimination=cards",
     "--set", "seven_zero=on", "--bots", "heuristic,random,basic,heuristic"],
])
def test_both_engines_print_the_same_numbers(capsys: pytest.CaptureFixture[str],
                                             args: list[str]) -> None:
    outs = []
    for engine in ("python", "kernel"):
        games = "30" if "--matches" in args else "300"
        rc, out, _err = run(capsys, "simulate", *args, "--games", games, "--seed", "4",
                            "--engine", engine)
        assert rc == 0
        outs.append(out)
    assert "compiled kernel" in outs[1] and "compiled kernel" not in outs[0]
    assert _without_time(outs[0]) == _without_time(outs[1])


def test_json_says_which_engine_played(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _err = run(capsys, "simulate", "--games", "50", "--json")
    assert rc == 0 and json.loads(out)["engine"] == "kernel"
    rc, out, _err = run(capsys, "simulate", "--games", "5", "--bots", "heuristic", "--json")
    assert rc == 0 and json.loads(out)["engine"] == "kernel"
    rc, out, _err = run(capsys, "simulate", "--games", "2", "--players", "2", "--bots",
                        "heuristic,ismcts:iterations=5", "--json")
    assert rc == 0 and json.loads(out)["engine"] == "python"  # auto: no kernel ismcts


def test_kernel_refusal_names_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _out, err = run(capsys, "simulate", "--games", "5", "--bots", "ismcts",
                        "--engine", "kernel")
    assert rc == 2 and "ismcts" in err and "no kernel version" in err
    rc, _out, err = run(capsys, "simulate", "--games", "2", "--bots", "heuristic,ismcts",
                        "--players", "2", "--engine", "kernel")
    assert rc == 2 and "ismcts" in err


def test_saved_record_of_a_kernel_run_replays(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    rc, _out, _err = run(capsys, "simulate", "--games", "20", "--save-record", str(path))
    assert rc == 0
    rc, out, _err = run(capsys, "replay", str(path))
    assert rc == 0 and out


def test_paired_differences_match_across_engines() -> None:
    rules = [preset("classic", players=2), preset("classic", players=2, stacking="draw2")]
    a = compare(rules, "basic", 400, 9, engine="python").differences()
    b = compare(rules, "basic", 400, 9, engine="kernel").differences()
    assert a == b


def test_workers_give_the_same_tally() -> None:
    one = simulate(preset("house"), "basic", 600, 2, engine="kernel")
    two = simulate(preset("house"), "basic", 600, 2, engine="kernel", workers=2)
    assert one.tally == two.tally


@pytest.mark.parametrize("args", [
    ["--bots", "basic,random,random:decline=0", "--players", "2"],
    ["--rules", "house", "--bots", "basic,random,basic,random", "--players", "3"],
    ["--bots", "basic,random,basic,random", "--players", "4", "--set", "teams=2"],
    ["--bots", "heuristic,basic,heuristic:wild_keep=0.5,random", "--players", "3"],
])
def test_tournaments_are_the_same_on_both_engines(capsys: pytest.CaptureFixture[str],
                                                  args: list[str]) -> None:
    outs = []
    for engine in ("python", "kernel"):
        rc, out, _err = run(capsys, "tournament", *args, "--games", "25", "--seed", "8",
                            "--engine", engine)
        assert rc == 0
        outs.append(out)
    assert "compiled kernel" in outs[1]
    assert _without_time(outs[0]) == _without_time(outs[1])


def test_threads_play_the_same_rounds() -> None:
    """Rounds are seeded by their index, so cutting a batch among threads changes nothing."""
    from unoarena.kernel.runner import RoundRunner

    rules = preset("house", players=4)
    specs = ["basic", "random", "heuristic", "basic"]
    one = RoundRunner(rules, specs, 3).play(0, 3200, threads=1)
    three = RoundRunner(rules, specs, 3).play(0, 3200, threads=3)
    for name in ("winners", "counts", "points", "scores", "drawn_by", "chain_hist"):
        assert np.array_equal(getattr(one, name), getattr(three, name)), name


def test_threads_must_be_a_positive_number(capsys: pytest.CaptureFixture[str]) -> None:
    from unoarena.cli import main

    assert main(["simulate", "--games", "10", "--threads", "0"]) == 2
    err = capsys.readouterr().err
    assert "--threads must be 1 or more, not 0" in err
