"""A mistyped name gets the closest allowed one ("did you mean"), in one wording for one kind of
mistake whichever command or page it reaches; a name close to nothing lists what is allowed."""

from __future__ import annotations

import pytest
from cli_util import run

from unoarena.bots import make_bot
from unoarena.engine import ConfigError, RuleSet, parse_overrides, preset
from unoarena.engine.errors import suggest


@pytest.mark.parametrize(("typed", "choices", "want"), [
    ("jumpin", ["jump_in", "double_play"], "jump_in"),
    ("Jump-In", ["jump_in", "double_play"], "jump_in"),
    ("hose", ["classic", "house", "attack"], "house"),
    ("heurstic", ["basic", "heuristic", "random"], "heuristic"),
    ("xyzzy", ["classic", "house", "attack"], None),
    ("house", ["classic", "house"], None),  # nothing to suggest for a name that is allowed
    (7, ["7"], None),
])
def test_the_closest_name(typed: object, choices: list[str], want: str | None) -> None:
    assert suggest(typed, choices) == want


def test_rule_sets_name_the_closest_key_value_and_preset() -> None:
    with pytest.raises(ConfigError, match=r"unknown rule key 'jumpin' \(did you mean jump_in\?\)"):
        parse_overrides(["jumpin=on"])
    with pytest.raises(ConfigError, match=r"'draw_2' for stacking \(did you mean draw2\?\)"):
        preset("classic", stacking="draw_2")
    with pytest.raises(ConfigError, match=r"'hose' for preset \(did you mean house\?\)"):
        preset("hose")
    with pytest.raises(ConfigError) as e:
        RuleSet.from_dict({"preset": "classic", "jumpin": True})
    assert e.value.suggestion == "jump_in"
    with pytest.raises(ConfigError) as e:
        preset("classic", stacking="zzz")
    assert e.value.suggestion is None and "did you mean" not in str(e.value)


def test_bots_and_their_options() -> None:
    with pytest.raises(ValueError, match=r"unknown bot 'heurstic' \(did you mean heuristic\?\)"):
        make_bot("heurstic")
    with pytest.raises(ValueError, match=r"no option blufff; did you mean bluff\?"):
        make_bot("heuristic:blufff=0.5")


@pytest.mark.parametrize("command", [
    ["rules"], ["simulate", "--games", "1"], ["play", "--players", "2"],
    ["tournament", "--bots", "basic,random", "--games", "2"]])
def test_one_wording_for_an_unknown_key_in_every_command(
        capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    rc, out, err = run(capsys, *command, "--set", "jumpin=on")
    assert rc == 2 and not out
    assert err.startswith("error: unknown rule key 'jumpin' (did you mean jump_in?): the keys "
                          "are edition, players"), err


def test_commands_and_choices(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _out, err = run(capsys, "simualte")
    assert rc == 2 and "invalid choice: 'simualte' (did you mean simulate?)" in err
    rc, _out, err = run(capsys, "simulate", "--engine", "kernl", "--games", "1")
    assert rc == 2 and "'kernl' (did you mean kernel?); choose from auto, kernel, python" in err


def test_suggestions_speak_the_language_in_force(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _out, err = run(capsys, "--lang", "zh_TW", "rules", "--set", "jumpin=on")
    assert rc == 2 and "未知的規則鍵 'jumpin'（你是不是要輸入 jump_in？）" in err
    rc, _out, err = run(capsys, "--lang", "zh_CN", "rules", "hose")
    assert rc == 2 and "preset 的值 'hose' 无效（你是不是要输入 house？）" in err
