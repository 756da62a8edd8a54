"""Whole matches in the real terminal app against bots, driven by keys and clicks."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from unoarena.engine import preset, replay_match
from unoarena.testing.tui import Driver, run, screen_text, settle
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


def test_turn_timer_times_out_a_person_who_waits() -> None:
    """HR-TIMER in the terminal: the prompt counts down; at zero the person times out, draws
    the timer penalty and the turn moves on (RULES HR-TIMER)."""
    from unoarena.testing.tui import exact_table, settle

    table = exact_table("classic", {0: ["R1", "R2", "R3"], 1: ["G7", "G8", "G9"],
                                    2: ["B1", "B2", "B3"]},
                        top=["G5"], color="G", players=3, turn_timer=1, timer_penalty=1)
    g = table.match.game
    space = g.space

    async def go() -> None:
        app = UnoApp(table=table)
        # the countdown starts after this instant, so until a second has passed since it,
        # nothing may have happened, however slowly a loaded machine draws the screen
        began = time.monotonic()
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            if time.monotonic() - began < 0.9:
                assert g.turn == 0 and not g.history
                assert "s left" in screen_text(app)  # the countdown is on screen
            await pilot.pause(0.3)
            if time.monotonic() - began < 0.9:
                assert not g.history  # still thinking: nothing happened yet
            for _ in range(100):
                await pilot.pause(0.1)
                if g.history:
                    break
            await settle(pilot, app)
            seat, aid = g.history[0]
            assert seat == 0 and space.actions[aid].verb == "timeout"
            assert len(g.hand(0)) == 4  # R1 R2 R3 and the penalty card
            assert g.turn != 0 or len(g.history) > 1  # the turn moved on

    run(go())


def test_a_new_game_after_the_match() -> None:
    """When the match is over, n opens the new-game screen for the next one."""
    from unoarena.tui.newgame import NewGameScreen

    rules = preset("classic", target_score=30)
    table = Table(rules, default_players(rules, "basic"), 5, timing=Timing.zero())
    app = UnoApp(table=table)

    async def go() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await Driver(pilot, app).play_match()
            assert isinstance(app.screen, MatchResultScreen)
            await pilot.press("n")
            await settle(pilot, app)
            assert isinstance(app.screen, NewGameScreen)
            assert app.table_screen is None

    run(go())
