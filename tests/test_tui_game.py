"""Whole matches in the real terminal app against bots, driven by keys and clicks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_tui_support import Driver, run, screen_text

from unoarena.engine import preset, replay_match
from unoarena.tui.app import UnoApp
from unoarena.tui.dialogs import MatchResultScreen
from unoarena.tui.session import Table, Timing, default_players


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNOARENA_HOME", str(tmp_path))


def _play(name: str, seed: int, *, click: bool = False, **over: object) -> tuple[Table, Driver,
                                                                                   str]:
    rules = preset(name, **over)
    table = Table(rules, default_players(rules, "basic"), seed, timing=Timing.zero())
    app = UnoApp(table=table)

    async def go() -> tuple[Driver, str]:
        async with app.run_test(size=(120, 40)) as pilot:
            d = Driver(pilot, app, click=click)
            await d.play_match()
            assert isinstance(app.screen, MatchResultScreen)
            return d, screen_text(app)

    d, text = run(go())
    return table, d, text


def _check_record(tmp: Path, table: Table) -> None:
    records = list((tmp / "records").glob("*.json"))
    assert len(records) == 1
    rec = json.loads(records[0].read_text(encoding="utf-8"))
    again = replay_match(rec)
    assert again.is_over and again.scores == table.match.scores
    assert rec["meta"]["players"][0]["kind"] == "human"


def test_full_match_classic(tmp_path: Path) -> None:
    table, d, text = _play("classic", 11, players=3, target_score=60)
    assert table.match.is_over
    assert "The match is over" in text and "Record saved" in text
    assert d.actions.get("card", 0) > 3
    _check_record(tmp_path, table)


def test_full_match_house_with_jump_in_by_mouse(tmp_path: Path) -> None:
    table, d, _text = _play("house", 4, click=True, players=4, target_score=60, jump_in=True)
    assert table.match.is_over
    assert d.actions.get("click", 0) > 3
    _check_record(tmp_path, table)


def test_full_match_attack(tmp_path: Path) -> None:
    table, _d, text = _play("attack", 2, players=3, rounds=1)
    assert table.match.is_over and table.match.rounds_played == 1
    assert "Lowest total wins" in text
    log = [line for e in table.log for line in e.render(0)]
    assert any("launcher" in line for line in log)
    _check_record(tmp_path, table)
