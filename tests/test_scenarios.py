"""Every scenario under scenarios/ as its own test, and tests of the scenario runner itself.

A scenario that fails because the engine breaks a rule stays as the rule says and is listed in
``KNOWN_ENGINE_BUGS`` (strict xfail): the list is the record of what the engine still gets wrong,
and an entry fails the suite as soon as the engine is fixed, so that it is removed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from unoarena.scenarios import (
    ScenarioError,
    load_scenarios,
    main,
    parse_scenario,
    run_paths,
    run_scenario,
    scenario_files,
)

ROOT = Path(__file__).resolve().parents[1]
SCENARIO_DIR = ROOT / "scenarios"

#: scenario name -> what the engine does instead of what RULES.md says.
KNOWN_ENGINE_BUGS: dict[str, str] = {}


def _cases() -> list[Any]:
    """One pytest case per YAML document, read without the runner so that a document that
    breaks the format fails alone instead of stopping collection."""
    cases = []
    for f in scenario_files(SCENARIO_DIR):
        rel = f.relative_to(ROOT).as_posix()
        for index, doc in enumerate(yaml.safe_load_all(f.read_text(encoding="utf-8")), 1):
            if doc is None:
                continue
            name = doc.get("name") if isinstance(doc, dict) else None
            label = name if isinstance(name, str) else f"document {index}"
            marks = ([pytest.mark.xfail(strict=True, reason=KNOWN_ENGINE_BUGS[label])]
                     if label in KNOWN_ENGINE_BUGS else [])
            cases.append(pytest.param(rel, index, doc, id=f"{rel}:{label}", marks=marks))
    return cases


@pytest.mark.parametrize(("file", "index", "doc"), _cases())
def test_scenario(file: str, index: int, doc: Any) -> None:
    result = run_scenario(parse_scenario(doc, file, index))
    assert result.ok, result.line()


def test_scenario_names_are_unique() -> None:
    """Known engine bugs are keyed by name, and a report line must point at one scenario."""
    names = [s.name for s in load_scenarios(SCENARIO_DIR)]
    dupes = sorted({n for n in names if names.count(n) > 1})
    assert not dupes, f"scenario names used more than once: {dupes}"


def test_known_engine_bugs_name_existing_scenarios() -> None:
    names = {s.name for s in load_scenarios(SCENARIO_DIR)}
    stale = sorted(set(KNOWN_ENGINE_BUGS) - names)
    assert not stale, f"KNOWN_ENGINE_BUGS names no scenario: {stale}"


# ================================================================================================
# the runner
# ================================================================================================
TABLE = """
name: {name}
rules: classic
players: 4
setup:
  hands:
    0: [R2, G5, B9]
    1: [B1, B2, R7]
    2: [Y3, Y4]
    3: [G1, G2]
  discard: [R5]
  turn: 0
  draw_pile: [Y7, Y8]
steps:
"""


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    p = tmp_path / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


def one(tmp_path: Path, steps: str, name: str = "t") -> Any:
    """Run a single scenario on the standard table with the given steps."""
    p = write(tmp_path, TABLE.format(name=name) + steps)
    [result] = run_paths([p])
    return result


def test_a_passing_scenario(tmp_path: Path) -> None:
    r = one(tmp_path, """
  - expect: {turn: 0, legal: [draw, "play R2", "play G5"], top: R5, color: R}
  - {seat: 0, play: R2, expect: {turn: 1, hands: {0: [G5, B9]}, hand_sizes: [2, 3, 2, 2]}}
  - {seat: 1, play: B1, error: does_not_match}
""")
    assert r.ok, r.line()
    assert r.line().startswith("ok  ") and r.line().endswith(": t")


@pytest.mark.parametrize(("where", "text", "key"), [
    ("top level", "name: x\nfoo: 1\n", "foo"),
    ("rules", "name: x\nrules: {preset: classic, stackin: draw2}\n", "stackin"),
    ("setup", "name: x\nsetup: {hand: {0: [R1]}}\n", "hand"),
    ("step", "name: x\nsteps:\n  - {seat: 0, plya: R1}\n", "plya"),
    ("expect", "name: x\nsteps:\n  - expect: {trun: 1}\n", "trun"),
    ("pending", "name: x\nsteps:\n  - expect: {pending: {amount: 4, who: 1}}\n", "who"),
    ("effect", "name: x\nsteps:\n  - expect: {effect: {kind: hyperspeed, colour: B}}\n",
     "colour"),
])
def test_an_unknown_key_is_an_error_naming_it(tmp_path: Path, where: str, text: str,
                                              key: str) -> None:
    p = write(tmp_path, text)
    with pytest.raises(ScenarioError) as e:
        load_scenarios(p)
    assert repr(key) in str(e.value) and "allowed:" in str(e.value), where
    [r] = run_paths([p])
    assert not r.ok and repr(key) in r.message and "format error" in r.message


def test_other_format_errors_are_named(tmp_path: Path) -> None:
    cases = {
        "steps: []\n": "'name' is required",
        "name: x\nsteps:\n  - {seat: 0}\n": "seat goes with an action",
        "name: x\nsteps:\n  - {draw: true}\n": "needs the seat",
        "name: x\nsteps:\n  - {seat: 0, draw: true, pass: true}\n": "one action a step",
        "name: x\nsteps:\n  - {seat: 0, draw: true, error: nope}\n": "unknown code",
        "name: x\nsteps:\n  - {seat: 0, draw: true, color: G}\n": "color goes with play",
        "name: x\nrules: {players: 3}\nplayers: 4\n": "give it once",
        "name: x\nsteps:\n  - expect: {direction: up}\n": "cw or ccw",
        "name: x\nsteps:\n  - expect: {hand_sizes: {a: 1}}\n": "not a seat number",
    }
    for text, words in cases.items():
        with pytest.raises(ScenarioError, match=words):
            load_scenarios(write(tmp_path, text))


def test_a_value_of_the_wrong_kind_names_its_key_the_value_and_what_is_allowed(
        tmp_path: Path) -> None:
    cases = {
        "name: x\nsetup: {hands: {0: R1}}\n": "setup: hands: 0: expected a list of cards, got R1",
        "name: x\nsteps:\n  - {seat: 0, play: R1, color: null}\n":
            "step 1: color: expected a code such as R7 or G, got null",
        "name: x\nsteps:\n  - expect: {pending: {amount: four}}\n":
            "step 1: expect: pending: amount: expected an integer from ",
        "name: x\nsteps:\n  - expect: {legal: [draw, 5]}\n":
            'legal: 1: expected an action string such as "play R5", got 5',
        "name: x\ndealer: -1\n": "dealer: expected an integer from 0 to ",
        "name: x\nsteps:\n  - {seat: 0, draw: true, error: {a: 1}}\n": "unknown code {a: 1}",
    }
    for text, words in cases.items():
        with pytest.raises(ScenarioError) as e:
            load_scenarios(write(tmp_path, text))
        assert words in str(e.value), (text, str(e.value))


def test_a_failing_expectation_names_the_step_and_both_values(tmp_path: Path) -> None:
    r = one(tmp_path, """
  - {seat: 0, play: R2}
  - expect: {turn: 1}
  - expect: {turn: 2, hands: {0: [G5]}}
  - expect: {turn: 1}
""")
    assert not r.ok and r.step == 3
    assert "turn: expected 2, got 1" in r.message
    assert "hands[0]: expected [G5], got [G5, B9]" in r.message
    assert r.line().startswith("FAIL ") and ": step 3: " in r.line()


def test_a_wrong_error_code_and_an_unexpected_rejection_are_reported(tmp_path: Path) -> None:
    r = one(tmp_path, "  - {seat: 0, play: B9, error: not_your_turn}\n")
    assert not r.ok and r.step == 1
    assert "expected error not_your_turn, got does_not_match" in r.message
    r = one(tmp_path, "  - {seat: 0, play: B9}\n")
    assert not r.ok and r.step == 1 and "rejected: does_not_match" in r.message
    r = one(tmp_path, "  - {seat: 0, play: R2, error: does_not_match}\n")
    assert not r.ok and "expected error does_not_match, but it was accepted" in r.message


@pytest.mark.parametrize(("setup", "words"), [
    ("hands: {0: [P5]}", "P5"),                               # a card classic lacks
    ("hands: {0: [R0, R0]}", "R0"),                           # more copies than the deck
    ("hands: {4: [R1]}", "seat 4"),                           # a seat that does not exist
    ("hands: {0: [R9X]}", "R9X"),                             # no card at all
    ("discard: [W]", "color"),                                # a wild on top, colour unknown
    ("starter: R5\n  discard: [R5]", "not both"),
    ("turn: 2", "goes with discard"),
    ("discard: [R5]\n  turn: 9", "turn 9"),
    ("scores: {7: 10}", "seat 7"),
])
def test_a_setup_that_cannot_exist_is_a_setup_error(tmp_path: Path, setup: str,
                                                    words: str) -> None:
    """ED-1: the deck holds what it holds; SCENARIOS.md: a setup error, not a crash."""
    p = write(tmp_path, f"name: bad\nrules: classic\nplayers: 4\nsetup:\n  {setup}\n")
    [r] = run_paths([p])
    assert not r.ok and r.step is None
    assert r.message.startswith("setup error") and words in r.message, r.message


@pytest.mark.parametrize("players", [1, 11])
def test_seat_3_too_few_or_too_many_players_is_a_rules_error(tmp_path: Path,
                                                             players: int) -> None:
    """SEAT-3: 2 to 10 players; fewer or more is a configuration error with a clear message."""
    p = write(tmp_path, f"name: n\nrules: classic\nplayers: {players}\n")
    [r] = run_paths([p])
    assert not r.ok and r.message.startswith("rules:") and "players" in r.message


def test_legal_expands_color_star_to_the_editions_colours(tmp_path: Path) -> None:
    p = write(tmp_path, """
name: frozen colours
rules: frozen2
players: 2
setup:
  hands: {0: [W, R1], 1: [G2, G3]}
  discard: [Y5]
  turn: 0
steps:
  - expect:
      legal: [draw, "play W color=*"]
      legal_includes: ["play W color=P"]
      legal_excludes: ["play W color=B"]
""")
    [r] = run_paths([p])
    assert r.ok, r.line()


def test_folders_are_read_recursively_sorted_with_several_documents(tmp_path: Path) -> None:
    step = "steps:\n  - expect: {turn: 1}\n"
    write(tmp_path, f"name: b1\nsetup: {{starter: R5}}\n{step}---\nname: b2\n"
                    f"setup: {{starter: R5}}\n{step}", "sub/b.yml")
    write(tmp_path, f"name: a\nsetup: {{starter: R5}}\n{step}", "a.yaml")
    write(tmp_path, "not: scenario", "notes.txt")
    names = [s.name for s in load_scenarios(tmp_path)]
    assert names == ["a", "b1", "b2"]


def test_a_broken_document_fails_alone(tmp_path: Path) -> None:
    p = write(tmp_path, "name: good\nsetup: {starter: R5}\n---\nname: broken\nbogus: 1\n"
                        "---\nname: good too\nsetup: {starter: R5}\n")
    results = run_paths([p])
    assert [(r.name, r.ok) for r in results] == [("good", True), ("broken", False),
                                                 ("good too", True)]


def test_an_engine_exception_is_a_failure_not_a_crash(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from unoarena.engine import Game

    def boom(self: Game, *a: Any, **k: Any) -> None:
        raise KeyError("boom")

    monkeypatch.setattr(Game, "apply", boom)
    r = one(tmp_path, "  - {seat: 0, play: R2}\n")
    assert not r.ok and r.step == 1 and "KeyError" in r.message


def test_main_prints_a_line_each_and_the_totals(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    good = write(tmp_path, TABLE.format(name="fine") + "  - expect: {turn: 0}\n", "good.yaml")
    bad = write(tmp_path, TABLE.format(name="wrong") + "  - expect: {turn: 3}\n", "bad.yaml")
    assert main([str(good)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"ok  {good}: fine", "1 passed, 0 failed"]
    assert main([str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"FAIL {bad}: wrong: step 1: turn: expected 3, got 0"
    assert out[1] == f"ok  {good}: fine"
    assert out[-1] == "1 passed, 1 failed"


def test_main_returns_2_for_a_missing_path(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "nowhere.yaml")]) == 2
    assert "nowhere.yaml" in capsys.readouterr().err


def test_the_runner_on_the_project_scenarios_agrees_with_the_known_bugs() -> None:
    """``main`` over scenarios/ fails exactly the scenarios listed as engine bugs."""
    failed = {r.name for r in run_paths([SCENARIO_DIR]) if not r.ok}
    assert failed == set(KNOWN_ENGINE_BUGS)
