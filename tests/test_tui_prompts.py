"""What the terminal says and where it keeps a match: prompts that no longer confuse (UNO with
a full hand, the seven-zero question, F2, ``--bots``, Chinese parentheses, a save that is not
JSON), one save file per match that ``s`` overwrites, and a finished match's saves removed so
that ``--resume`` does not reopen it."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from cli_util import run as run_cli

from unoarena.engine import preset
from unoarena.testing.tui import (
    exact_table,
    finish_match,
    run,
    screen_text,
    settle,
)
from unoarena.text.i18n import set_language
from unoarena.tui import saves
from unoarena.tui.app import UnoApp
from unoarena.tui.dialogs import ChoiceDialog, MatchResultScreen, RoundSummaryScreen
from unoarena.tui.newgame import NewGameScreen
from unoarena.tui.session import Table, Timing, default_players


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNOARENA_HOME", str(tmp_path))


def _dealt(rules_name: str = "classic", players: int = 3, seed: int = 5, people: int = 1,
           **over: Any) -> Table:
    rules = preset(rules_name, players=players, **over)
    return Table(rules, default_players(rules, "basic", people), seed, timing=Timing.zero())


def _drive(app: UnoApp, script: Any, size: tuple[int, int] = (100, 30)) -> Any:
    async def go() -> Any:
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            return await script(pilot, app)

    return run(go())


def test_u_with_a_full_hand_says_uno_is_for_the_last_card() -> None:
    """``u`` with ten cards armed UNO and said "UNO is ready for your next play"."""
    hand = ["R1", "R2", "R3", "R4", "R5", "G1", "G2", "G3", "G4", "G5"]
    table = exact_table("classic", {0: hand, 1: ["B1", "B2", "B3"]}, top=["R9"], players=2)

    async def script(pilot: Any, app: UnoApp) -> tuple[bool, str, str]:
        ts = app.table_screen
        assert ts is not None
        await pilot.press("u")
        await settle(pilot, app)
        return ts.uno_armed, ts.prompt_text(), ts.last_toast

    armed, prompt, toast = _drive(UnoApp(table=table), script)
    assert not armed and "UNO is ready" not in prompt
    assert "Not now" in toast and "you hold 10" in toast


def test_u_with_two_cards_arms_uno() -> None:
    table = exact_table("classic", {0: ["R1", "R2"], 1: ["B1", "B2", "B3"]}, top=["R9"],
                        players=2)

    async def script(pilot: Any, app: UnoApp) -> tuple[bool, str]:
        ts = app.table_screen
        assert ts is not None
        await pilot.press("u")
        await settle(pilot, app)
        return ts.uno_armed, ts.prompt_text()

    armed, prompt = _drive(UnoApp(table=table), script)
    assert armed and "UNO is ready for your next play" in prompt


def test_the_seven_zero_dialog_asks_whom_to_swap_hands_with() -> None:
    table = exact_table("classic", {0: ["R7", "G1", "G2"], 1: ["B1", "B2"], 2: ["Y1", "Y2"]},
                        top=["R5"], players=3, seven_zero=True)

    async def script(pilot: Any, app: UnoApp) -> str:
        await pilot.press("1")
        await settle(pilot, app)
        assert isinstance(app.screen, ChoiceDialog) and app.screen.kind == "target"
        return screen_text(app)

    text = _drive(UnoApp(table=table), script)
    assert "Swap hands with whom?" in text
    assert "North-West (2 cards)" in text and "North-East (2 cards)" in text


def test_f2_is_not_the_language_key_on_the_new_game_screen() -> None:
    """F2 means the scores at the table; on the new-game screen the language is F3."""
    app = UnoApp()

    async def go() -> tuple[str, str]:
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, NewGameScreen)
            await pilot.press("f2")
            await pilot.pause()
            after_f2 = screen_text(app)
            await pilot.press("f3")
            await pilot.pause()
            return after_f2, screen_text(app)

    after_f2, after_f3 = run(go())
    assert "House rules" in after_f2 and "Language (F3)" in after_f2
    assert "家規" in after_f3


def test_the_bots_option_names_the_real_default(capsys: pytest.CaptureFixture[str]) -> None:
    _rc, out, _err = run_cli(capsys, "play", "--help")
    assert "strongest" not in out and "default: heuristic" in " ".join(out.split())
    assert "medium heuristic" in " ".join(out.split())


@pytest.mark.parametrize("lang", ["zh_TW", "zh_CN"])
def test_chinese_screens_use_one_kind_of_parentheses(lang: str) -> None:
    """The table, the round summary and the new-game screen in Chinese: full-width （） only
    (the issue saw "(Enter)" beside "（q）")."""
    set_language(lang)
    table = exact_table("classic", {0: ["R1"], 1: ["G1", "G2", "W"]}, top=["R5"], players=2,
                        target_score=1000)

    async def script(pilot: Any, app: UnoApp) -> list[str]:
        texts = [screen_text(app)]
        await pilot.press("1")
        await settle(pilot, app)
        assert isinstance(app.screen, RoundSummaryScreen)
        texts.append(screen_text(app))
        return texts

    texts = _drive(UnoApp(table=table), script, (80, 24))

    async def newgame() -> str:
        app = UnoApp()
        async with app.run_test(size=(100, 60)) as pilot:
            await pilot.pause()
            return screen_text(app)

    texts.append(run(newgame()))
    for text in texts:
        assert "(" not in text and ")" not in text, text
        assert "（" in text


def test_a_save_that_is_not_json_says_so_once(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    rc, _out, err = run_cli(capsys, "play", "--plain", "--resume", str(bad))
    assert rc == 2 and err.count("not JSON") == 1, err


def test_s_overwrites_the_one_save_of_the_match() -> None:
    """Each ``s`` wrote a new file; now a match has one save file, the latest state in it."""
    table = _dealt()

    async def script(pilot: Any, app: UnoApp) -> None:
        await pilot.press("s")
        await settle(pilot, app)
        time.sleep(1.05)  # file names had the second in them
        await pilot.press("d")
        await settle(pilot, app)
        await pilot.press("s")
        await settle(pilot, app)

    _drive(UnoApp(table=table), script)
    files = saves.list_saves()
    assert len(files) == 1
    assert saves.load_table(files[0]).game == table.game


def test_saving_a_resumed_match_overwrites_its_file() -> None:
    path = saves.save_table(_dealt())
    table = saves.load_table(path, Timing.zero())

    async def script(pilot: Any, app: UnoApp) -> None:
        await pilot.press("d")
        await settle(pilot, app)
        await pilot.press("s")
        await settle(pilot, app)

    _drive(UnoApp(table=table), script)
    assert saves.list_saves() == [path]
    assert saves.load_table(path).game == table.game


def test_a_finished_match_leaves_no_save_to_resume(capsys: pytest.CaptureFixture[str]) -> None:
    """A match quit mid-way (the autosave) and saved with ``s``, then resumed and played to its
    end: both saves are gone, so ``--resume`` does not reopen it mid-game; another match's save
    stays."""
    other = saves.save_table(_dealt(seed=9))
    table = _dealt(players=2, people=0, rounds=2, scoring="penalty")
    while not table.game.is_over:
        d = table.next_decision()
        assert d is not None and d.action is not None
        table.apply(d.seat, d.action)
    table.finish_round()
    saves.autosave(table)
    mine = saves.save_table(table)
    finish_match(table)

    async def script(pilot: Any, app: UnoApp) -> None:
        await pilot.press("enter")  # the last round's summary
        await settle(pilot, app)
        assert isinstance(app.screen, MatchResultScreen)

    _drive(UnoApp(table=table), script)
    assert saves.list_saves() == [other] and not mine.exists()
    assert saves.latest_save() == other
