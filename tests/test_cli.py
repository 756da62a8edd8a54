"""The ``unoarena`` command line, the texts it prints, i18n, and the README's promises."""

from __future__ import annotations

import doctest
import json
import re
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from cli_util import run

from unoarena import __version__
from unoarena.engine import KEYS, PRESETS, Match, match_record, preset
from unoarena.text.i18n import detect, language, normalize
from unoarena.text.narrate import Narrator
from unoarena.text.rules import EXPLAIN, explain, keys_table

ROOT = Path(__file__).resolve().parent.parent
RULE_ID = re.compile(r"\((?:[^()]*?)(?:[A-Z0-9]+(?:-[A-Z0-9]+)+|§\d+)[^()]*\)")


# -- rules ---------------------------------------------------------------------------------------
def test_rules_mentions_every_active_key(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _err = run(capsys, "rules", "house", "--set", "jump_in=on", "--players", "3")
    assert rc == 0
    for key in KEYS:
        assert re.search(rf"^  {key}: ", out, re.M), key
    assert "jump_in: on — " in out and "(HR-JUMP" in out
    assert "stacking: deflect — " in out and "(HR-STACK" in out
    assert "players: 3 — " in out
    assert "Changed from the preset: " in out and "jump_in=on" in out
    assert "108 cards" in out and "Wild Draw Four (W4)" in out


def test_rules_json_and_list(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _err = run(capsys, "rules", "attack", "--json")
    assert rc == 0 and json.loads(out) == preset("attack").to_dict()
    rc, out, _err = run(capsys, "rules", "--list")
    assert rc == 0
    for name in PRESETS:
        assert re.search(rf"^{name} +\S", out, re.M), name


@pytest.mark.parametrize(("args", "named"), [
    (["--set", "stacking=sideways"], "stacking"),
    (["--set", "colour=red"], "colour"),
    (["--set", "jump_in"], "KEY=VALUE"),
    (["--players", "11"], "players"),
    (["attack", "--set", "jump_in=on"], "jump_in"),
    (["nosuchpreset"], "preset"),
])
def test_rules_bad_setting_exits_2(capsys: pytest.CaptureFixture[str], args: list[str],
                                   named: str) -> None:
    rc, out, err = run(capsys, "rules", *args)
    assert rc == 2 and out == ""
    assert named in err and "error:" in err


def test_every_key_is_explained_with_rule_ids() -> None:
    assert set(EXPLAIN) == set(KEYS)
    rule_sets = [preset(n) for n in PRESETS] + [
        preset("house", jump_in=True, sum_jump_in="same_color", double_play=True, teams=2,
               wild_powers=True, turn_timer=10, seat_exchange=2, seven_zero=True,
               misplay="penalty", scoring="chips", rounds=5, draw4_on_draw2=True,
               draw_count="until_playable", deck_exhausted="void", players=4),
        preset("classic", players=2),
        preset("classic", stacking="draw2", first_dealer="random", launcher_max_dry="none"),
        preset("attack", launcher_max_dry="none", rounds=3),
    ]
    for rules in rule_sets:
        rows = explain(rules)
        assert [k for k, _v, _t in rows] == list(KEYS)
        for key, _value, text in rows:
            assert RULE_ID.search(text), f"{rules.preset} {key}: no rule ID in {text!r}"


# -- simulate ------------------------------------------------------------------------------------
def test_simulate_json_has_the_fields(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _err = run(capsys, "simulate", "--games", "30", "--seed", "2", "--json",
                        "--rules", "house", "--set", "jump_in=on", "--players", "3",
                        "--bots", "basic,random:decline=0.3,basic")
    assert rc == 0
    d = json.loads(out)
    s = d["summary"]
    for field in ("games", "void", "actions_mean", "actions_median", "actions_p90",
                  "turns_mean", "draws_per_game", "points_mean", "wins", "win_rates"):
        assert field in s, field
    assert s["games"] == 30 and len(s["win_rates"]) == 3
    assert sum(s["wins"]) + s["void"] == 30
    assert d["bots"] == ["basic", "random:decline=0.3", "basic"]
    assert d["overrides"] == {"players": 3, "jump_in": True} and d["seed"] == 2
    assert d["rules"]["jump_in"] is True


def test_simulate_table_and_same_seed_same_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _err = run(capsys, "simulate", "--games", "20", "--seed", "5")
    assert rc == 0
    assert "actions per round" in out and "win rate" in out
    runs = [json.loads(run(capsys, "simulate", "--games", "20", "--seed", "5", "--json")[1])
            for _ in range(2)]
    assert runs[0]["summary"] == runs[1]["summary"]


@pytest.mark.parametrize(("args", "named"), [
    (["--bots", "basic,basic"], "2 bots for 4 players"),
    (["--bots", "wizard"], "unknown bot 'wizard'"),
    (["--set", "teams=3"], "teams"),
])
def test_simulate_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str], args: list[str],
                                       named: str) -> None:
    rc, _out, err = run(capsys, "simulate", "--games", "2", *args)
    assert rc == 2 and named in err


def test_simulate_bad_games_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _out, err = run(capsys, "simulate", "--games", "0")
    assert rc == 2 and "--games" in err


# -- replay --------------------------------------------------------------------------------------
@pytest.fixture
def record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "game.json"
    rc, _out, err = run(capsys, "simulate", "--games", "1", "--seed", "4", "--players", "3",
                        "--save-record", str(path))
    assert rc == 0 and "saved the record" in err
    rec = json.loads(path.read_text())
    assert rec["format"] == "unoarena.game" and rec["actions"]
    return path


def test_replay_narrates_without_hands(capsys: pytest.CaptureFixture[str], record: Path) -> None:
    rc, out, _err = run(capsys, "replay", str(record))
    assert rc == 0
    assert re.search(r"^ +1\. seat \d (played|drew|named|passed) ", out, re.M)
    assert re.search(r"seat \d played an? (red|yellow|green|blue) ", out)
    assert "wins the round" in out
    assert "top " in out and "hands 0:" in out
    # no hand and no drawn card is shown to a table of onlookers
    assert "hand of seat" not in out and "only seat" not in out and "You drew" not in out


def test_replay_seat_shows_only_that_hand(capsys: pytest.CaptureFixture[str],
                                         record: Path) -> None:
    rc, out, _err = run(capsys, "replay", str(record), "--seat", "1")
    assert rc == 0
    hands = re.findall(r"hand of seat (\d)", out)
    assert hands and set(hands) == {"1"}
    private = re.findall(r"\(only seat (\d) sees\) (.*)", out)
    assert private and all(seat == "1" for seat, _text in private)
    assert any(text.startswith("You drew ") for _seat, text in private)


def test_replay_match_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import random

    from unoarena.bots import make_bot
    from unoarena.driver import play_match

    m = Match(preset("classic", players=2, target_score=40), seed=3)
    play_match(m, [make_bot("basic", 1), make_bot("basic", 2)], random.Random(0))
    path = tmp_path / "match.json"
    path.write_text(json.dumps(match_record(m)))
    rc, out, _err = run(capsys, "replay", str(path), "--seat", "0")
    assert rc == 0
    assert "Round 1" in out and "match scores" in out and "the match is over" in out
    assert set(re.findall(r"hand of seat (\d)", out)) == {"0"}


def test_replay_bad_inputs_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  record: Path) -> None:
    rc, _out, err = run(capsys, "replay", str(tmp_path / "missing.json"))
    assert rc == 2 and "cannot read" in err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    rc, _out, err = run(capsys, "replay", str(bad))
    assert rc == 2 and "not JSON" in err
    bad.write_text(json.dumps({"format": "something.else"}))
    rc, _out, err = run(capsys, "replay", str(bad))
    assert rc == 2 and "unoarena.game" in err
    rec: dict[str, Any] = json.loads(record.read_text())
    rec["actions"].insert(0, [0, "play W4 color=R"])
    bad.write_text(json.dumps(rec))
    rc, out, err = run(capsys, "replay", str(bad))
    assert rc == 2 and "does not replay" in err and out == ""
    rc, _out, err = run(capsys, "replay", str(record), "--seat", "3")
    assert rc == 2 and "--seat 3" in err


def test_replay_step_stops_on_q(monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str], record: Path) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("\nq\n"))
    rc, out, _err = run(capsys, "replay", str(record), "--step")
    assert rc == 0
    assert re.search(r"^ +2\. ", out, re.M) and not re.search(r"^ +3\. ", out, re.M)


def test_narrate_hides_other_seats_private_events() -> None:
    events = [{"t": "draw", "seat": 2, "count": 2, "reason": "draw2"},
              {"t": "drew", "seat": 2, "cards": ["R5", "G7"], "to": 2},
              {"t": "skip", "seat": 2}]
    narrator = Narrator([f"seat {s}" for s in range(4)])
    line, private = narrator.line(events, viewer=1)
    assert "R5" not in line and "red 5" not in line and private == []
    line, private = narrator.line(events, viewer=2)
    assert private == ["You drew red 5 + green 7."]


# -- scenario, version, language -----------------------------------------------------------------
def test_scenario_run_calls_the_runner(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    seen: list[list[str]] = []

    def fake_main(paths: list[str]) -> int:
        seen.append(paths)
        return 1

    fake = types.ModuleType("unoarena.scenarios")
    fake.main = fake_main  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "unoarena.scenarios", fake)
    rc, _out, _err = run(capsys, "scenario", "run", "a.yaml", "dir/")
    assert rc == 1 and seen == [["a.yaml", "dir/"]]


def test_version_and_language(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _err = run(capsys, "--version")
    assert rc == 0 and __version__ in out
    rc, out, _err = run(capsys, "--lang", "zh_TW", "rules", "classic")
    assert rc == 0 and language() == "zh_TW" and "stacking: off" in out  # English fallback
    rc, _out, err = run(capsys, "rules", "--lang=fr")
    assert rc == 2 and "zh_TW" in err


def test_language_detection() -> None:
    assert normalize("zh_TW.UTF-8") == "zh_TW" and normalize("zh-HK") == "zh_TW"
    assert normalize("zh_CN") == "zh_CN" and normalize("zh") == "zh_CN"
    assert normalize("en_US.UTF-8") == "en" and normalize("C") == "en"
    assert normalize("fr_FR") is None
    assert detect({"LANGUAGE": "fr:zh_TW", "LANG": "en_US"}) == "zh_TW"
    assert detect({"LC_ALL": "zh_CN.UTF-8", "LANG": "en_US"}) == "zh_CN"
    assert detect({"LANG": "de_DE"}) == "en"
    assert detect({}) == "en"


def test_cli_in_a_subprocess(tmp_path: Path) -> None:
    """The real process: exit codes and stdout/stderr as a shell sees them."""
    cmd = [sys.executable, "-m", "unoarena.cli"]
    ok = subprocess.run([*cmd, "simulate", "--games", "3", "--json"], capture_output=True,
                        text=True, timeout=120, check=False)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["summary"]["games"] == 3
    assert ok.stderr == ""  # no progress indicator when stderr is not a terminal
    bad = subprocess.run([*cmd, "rules", "--set", "stacking=maybe"], capture_output=True,
                         text=True, timeout=120, check=False)
    assert bad.returncode == 2 and "stacking" in bad.stderr and bad.stdout == ""


# -- README and docs/ -----------------------------------------------------------------------------
def test_keys_table_is_up_to_date() -> None:
    text = (ROOT / "docs" / "rules" / "keys.md").read_text(encoding="utf-8")
    block = text.split("<!-- keys-table:start -->\n", 1)[1].split("<!-- keys-table:end -->")[0]
    assert block == keys_table(), "run: python scripts/gen_docs.py --write"


#: Every Markdown page whose ``>>>`` examples are run as doctests.
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


@pytest.mark.parametrize("page", [p for p in PAGES if ">>> " in p.read_text(encoding="utf-8")],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_python_examples_of_the_docs_run(page: Path) -> None:
    from unoarena.bots import registry

    bots = dict(registry._REGISTRY)  # a page may register a bot of its own: not for later tests
    try:
        result = doctest.testfile(str(page), module_relative=False,
                                  optionflags=doctest.ELLIPSIS)
    finally:
        registry._REGISTRY.clear()
        registry._REGISTRY.update(bots)
    assert result.attempted > 0 and result.failed == 0


def test_the_python_examples_are_found() -> None:
    """The guides that show Python keep showing it (a page moved or renamed would otherwise
    drop its examples from the test above without a failure)."""
    found = {str(p.relative_to(ROOT)) for p in PAGES if ">>> " in p.read_text(encoding="utf-8")}
    assert {"docs/guides/study.md", "docs/guides/train.md", "docs/guides/write-a-bot.md"} <= found


def _slug(heading: str) -> str:
    """A heading's anchor as the documentation site makes it (Python-Markdown's toc)."""
    text = re.sub(r"[^\w\s-]", "", heading.replace("`", "")).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def test_readme_links_lead_somewhere() -> None:
    """Every page and heading the README links to exists (the site's own links are checked by
    its strict build, tests/test_docs_site.py)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    local = [link for link in links if not re.match(r"[a-z]+:", link)]
    assert len(local) >= 10
    for link in local:
        path, _hash, anchor = link.partition("#")
        target = ROOT / path
        assert target.is_file(), f"README.md links to {path}, which does not exist"
        if anchor:
            headings = re.findall(r"^#+ (.+)$", target.read_text(encoding="utf-8"), re.M)
            assert anchor in {_slug(h) for h in headings}, f"{path} has no heading #{anchor}"


def test_readme_quick_start_and_ci_agree() -> None:
    """Two set-up commands, and CI runs the README's test command."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```sh\n(.*?)\n```", quick, re.S)
    assert len(commands) == 2 and "pip install -e ." in commands[0]
    assert commands[1] == ".ci/run"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "set -euo pipefail" in ci and "-m pytest" in ci and "python -m pytest" in quick


@pytest.mark.parametrize("group", ["scenario", "bot", "accounts"])
def test_a_command_group_without_its_subcommand_shows_its_own_help(
        capsys: pytest.CaptureFixture[str], group: str) -> None:
    rc, out, err = run(capsys, group)
    assert rc == 2 and out == ""
    assert err.startswith(f"usage: unoarena {group} ") and "COMMAND" in err
