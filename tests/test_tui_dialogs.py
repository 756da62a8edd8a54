"""Every dialog of the terminal game, on exact tables: colour, target, wild power and give,
challenge, several cards at once, the first card's colour, catches both ways, jump-in, help,
the new-game screen and the round summary."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from unoarena.testing.tui import exact_table, register_forgetful, run, screen_text, settle
from unoarena.tui.app import UnoApp
from unoarena.tui.dialogs import ChoiceDialog, HelpScreen, RoundSummaryScreen
from unoarena.tui.newgame import NewGameScreen
from unoarena.tui.session import Table
from unoarena.tui.table_screen import TableScreen


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNOARENA_HOME", str(tmp_path))


def _drive(table: Table, script: Any, size: tuple[int, int] = (120, 40)) -> Any:
    app = UnoApp(table=table)

    async def go() -> Any:
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            return await script(pilot, app)

    return run(go())


def _events(table: Table, t: str) -> list[dict[str, Any]]:
    return [e for e in table.game.events if e.get("t") == t]


def test_colour_dialog_for_a_wild() -> None:
    table = exact_table("classic", {0: ["W", "R1", "R2"], 1: ["G1", "G2", "G3"]},
                        top=["B5"], players=2)

    async def script(pilot: Any, app: UnoApp) -> None:
        await pilot.press("3")  # hand is sorted: R1 R2 W
        await settle(pilot, app)
        dlg = app.screen
        assert isinstance(dlg, ChoiceDialog) and dlg.kind == "color"
        assert [o.value for o in dlg.options] == ["R", "Y", "G", "B"]
        await pilot.press("g")
        await settle(pilot, app)

    _drive(table, script)
    play = _events(table, "play")[0]
    assert play["cards"] == ["W"] and play["color"] == "G"


def test_target_dialog_seven_zero() -> None:
    table = exact_table("classic", {0: ["R7", "G1", "G2"], 1: ["B1", "B2"], 2: ["Y1", "Y2"]},
                        top=["R5"], players=3, seven_zero=True)

    async def script(pilot: Any, app: UnoApp) -> None:
        await pilot.press("1")  # R7 G1 G2 (hands are in card order)
        await settle(pilot, app)
        dlg = app.screen
        assert isinstance(dlg, ChoiceDialog) and dlg.kind == "target"
        await pilot.click("#opt-1")  # the second target: seat 2
        await settle(pilot, app)

    _drive(table, script)
    swap = _events(table, "swap_hands")[0]
    assert (swap["seat"], swap["target"]) == (0, 2)


def test_wild_power_swap_then_give_three() -> None:
    table = exact_table("house", {0: ["W", "R1", "R2", "R3", "G4", "G5"],
                                  1: ["B1", "B2", "B3", "B4", "B5"]},
                        top=["Y5"], players=2, wild_powers=True)

    async def script(pilot: Any, app: UnoApp) -> list[str]:
        kinds = []
        await pilot.press("6")  # R1 R2 R3 G4 G5 W
        for key in ("w", None, None, None):  # the power, then three cards to give
            await settle(pilot, app)
            dlg = app.screen
            assert isinstance(dlg, ChoiceDialog), type(dlg)
            kinds.append(dlg.kind)
            if key is not None:
                await pilot.press(key)
            else:
                await pilot.click("#opt-0")
        await settle(pilot, app)
        return kinds

    kinds = _drive(table, script)
    # with two players the only target needs no question
    assert kinds == ["power", "give", "give", "give"]
    assert len(_events(table, "give")) == 3
    assert _events(table, "swap_taken")


def test_wild_power_look() -> None:
    table = exact_table("house", {0: ["W", "R1", "R2"], 1: ["B1", "B2"], 2: ["Y7", "Y8"]},
                        top=["G5"], players=3, wild_powers=True)

    async def script(pilot: Any, app: UnoApp) -> str:
        await pilot.press("3")
        await settle(pilot, app)
        assert getattr(app.screen, "kind", "") == "power"
        await pilot.press("k")
        await settle(pilot, app)
        assert getattr(app.screen, "kind", "") == "target"
        await pilot.press("2")  # seat 2
        await settle(pilot, app)
        return screen_text(app)

    text = _drive(table, script)
    assert "shown to you" in text and "yellow 7" in text


def test_challenge_dialog_and_guilty_bluff() -> None:
    register_forgetful()
    # seat 1 holds a green card and bluffs a W4 on the human (seat 0 plays first)
    table = exact_table("classic", {0: ["R1", "R2", "Y3"], 1: ["W4", "G2", "G3"]},
                        top=["G5"], turn=1, bots="forgetful", players=2)

    async def script(pilot: Any, app: UnoApp) -> None:
        await settle(pilot, app)
        dlg = app.screen
        assert isinstance(dlg, ChoiceDialog) and dlg.kind == "challenge"
        await pilot.press("x")
        await settle(pilot, app)

    _drive(table, script)
    assert _events(table, "challenge_result")[0]["guilty"] == [1]
    shown = [e for e in table.game.events if e.get("t") == "hand_shown"]
    assert shown and shown[0]["to"] == 0


def test_accept_from_the_dialog() -> None:
    register_forgetful()
    table = exact_table("classic", {0: ["R1", "R2", "Y3"], 1: ["W4", "B2", "B3"]},
                        top=["G5"], turn=1, bots="forgetful", players=2)

    async def script(pilot: Any, app: UnoApp) -> None:
        await settle(pilot, app)
        await pilot.click("#opt-1")
        await settle(pilot, app)

    _drive(table, script)
    assert _events(table, "accept")
    assert len(table.game.hand(0)) >= 7


def test_multi_play_dialog_attack() -> None:
    table = exact_table("attack", {0: ["R5", "R5", "G1"], 1: ["B1", "B2", "B3"]},
                        top=["R2"], players=2)

    async def script(pilot: Any, app: UnoApp) -> list[Any]:
        await pilot.press("1")  # R5 R5 G1
        await settle(pilot, app)
        dlg = app.screen
        assert isinstance(dlg, ChoiceDialog) and dlg.kind == "cards"
        values = [o.value for o in dlg.options]
        await pilot.click(f"#opt-{len(values) - 1}")  # the biggest combination
        await settle(pilot, app)
        return values

    values = _drive(table, script)
    assert len(values) == 2  # one or both red 5s
    assert _events(table, "play")[0]["cards"] == ["R5", "R5"]


def test_double_play_dialog_house() -> None:
    table = exact_table("house", {0: ["RS", "RS", "G1", "G2"], 1: ["B1", "B2", "B3"],
                                  2: ["Y1", "Y2", "Y3"]},
                        top=["R2"], players=3, double_play=True)

    async def script(pilot: Any, app: UnoApp) -> None:
        await pilot.press("1")  # RS RS G1 G2
        await settle(pilot, app)
        dlg = app.screen
        assert isinstance(dlg, ChoiceDialog) and dlg.kind == "cards"
        await pilot.press("2")  # the second option: both skips
        await settle(pilot, app)

    _drive(table, script)
    assert _events(table, "play")[0]["cards"] == ["RS", "RS"]


def test_starter_colour_dialog() -> None:
    # dealer is the last seat; classic: the player left of the dealer (seat 0) names it
    table = exact_table("classic", {0: ["R1", "R2"], 1: ["G1", "G2"]}, starter="W",
                        players=2)

    async def script(pilot: Any, app: UnoApp) -> None:
        dlg = app.screen
        assert isinstance(dlg, ChoiceDialog) and dlg.kind == "color" and not dlg.cancel
        await pilot.press("b")
        await settle(pilot, app)

    _drive(table, script)
    assert table.game.color == 3  # blue


def test_bot_catches_a_forgotten_uno() -> None:
    table = exact_table("classic", {0: ["R1", "R2"], 1: ["G1", "G2", "G3"]},
                        top=["R5"], players=2)

    async def script(pilot: Any, app: UnoApp) -> None:
        await pilot.press("1")  # no u first: UNO forgotten
        await settle(pilot, app)

    _drive(table, script)
    catch = _events(table, "catch")
    assert catch and catch[0]["seat"] == 1 and catch[0]["target"] == 0
    lines = [line for e in table.log for line in e.render(0)]
    assert any("caught South without UNO" in line for line in lines)


def test_uno_called_before_the_play_is_not_caught() -> None:
    table = exact_table("classic", {0: ["R1", "R2"], 1: ["G1", "G2", "G3"]},
                        top=["R5"], players=2)

    async def script(pilot: Any, app: UnoApp) -> None:
        await pilot.press("u")
        await pilot.press("1")
        await settle(pilot, app)

    _drive(table, script)
    assert not _events(table, "catch")
    assert _events(table, "play")[0].get("uno")


def test_person_catches_a_bot() -> None:
    register_forgetful()
    table = exact_table("classic", {0: ["R1", "R2", "R3"], 1: ["G1", "G2"]},
                        top=["G5"], turn=1, bots="forgetful", players=2)

    async def script(pilot: Any, app: UnoApp) -> str:
        text = screen_text(app)
        assert "forgot to call UNO" in text
        await pilot.press("c")
        await settle(pilot, app)
        return screen_text(app)

    _drive(table, script)
    catch = _events(table, "catch")
    assert catch and catch[0] == {"t": "catch", "seat": 0, "target": 1}
    assert len(table.game.hand(1)) == 3


def test_jump_in() -> None:
    register_forgetful()
    # North (seat 1) plays G5; South holds G5 and may jump in before East
    table = exact_table("house", {0: ["G5", "R1", "R2"], 1: ["G5", "Y1", "Y2"],
                                  2: ["B1", "B2", "B3"]},
                        top=["G3"], turn=1, bots="forgetful", players=3, jump_in=True)
    table.timing = type(table.timing)(0.0, 0.0, 30.0, 0.0)  # East waits while we may jump

    async def script(pilot: Any, app: UnoApp) -> str:
        await settle(pilot, app)
        text = screen_text(app)
        await pilot.press("3")  # R1 R2 G5
        await pilot.pause()
        return text

    text = _drive(table, script)
    assert "jump in" in text
    jumps = _events(table, "jump_in")
    assert jumps and jumps[0]["seat"] == 0


def test_help_screen() -> None:
    table = exact_table("attack", {0: ["R5", "G1"], 1: ["B1", "B2"]}, top=["R2"], players=2)

    async def script(pilot: Any, app: UnoApp) -> str:
        await pilot.press("question_mark")
        await settle(pilot, app)
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        await pilot.press("escape")
        await settle(pilot, app)
        assert isinstance(app.screen, TableScreen)
        return text

    text = _drive(table, script)
    assert "Rules of this game" in text and "launcher" in text


def test_round_summary_after_the_last_card() -> None:
    table = exact_table("classic", {0: ["R1"], 1: ["G1", "G2", "W"]}, top=["R5"],
                        players=2, target_score=1000)

    async def script(pilot: Any, app: UnoApp) -> str:
        await pilot.press("1")
        await settle(pilot, app)
        assert isinstance(app.screen, RoundSummaryScreen)
        text = screen_text(app)
        await pilot.press("enter")
        await settle(pilot, app)
        assert not isinstance(app.screen, RoundSummaryScreen)
        assert table.match.rounds_played == 1
        return text

    text = _drive(table, script)
    assert "South went out and wins round 1" in text and "53" in text


def test_new_game_screen_toggles_and_start() -> None:
    app = UnoApp(timing=None, newgame={"seed": 3})

    async def go() -> None:
        async with app.run_test(size=(120, 60)) as pilot:
            await pilot.pause()
            scr = app.screen
            assert isinstance(scr, NewGameScreen)
            text = screen_text(app)
            assert "Mattel" in text and "Jump-in" in text
            await pilot.click("#preset-house")
            await pilot.pause()
            await pilot.click("#rule-jump_in")
            await pilot.pause()
            assert app.screen.values["jump_in"] is True  # type: ignore[attr-defined]
            assert "HR-JUMP" in screen_text(app)
            await pilot.click("#rule-wd4_challenge")  # impossible with house's free W4
            await pilot.pause()
            assert "cannot be combined" in screen_text(app)
            await pilot.click("#rule-wd4_challenge")
            await pilot.pause()
            app.screen.query_one("#players").value = 3  # type: ignore[attr-defined]
            await pilot.pause()
            await pilot.click("#start")
            await pilot.pause()
            ts = app.table_screen
            assert ts is not None
            assert ts.table.rules.preset == "house" and ts.table.rules.jump_in
            assert ts.table.rules.players == 3

    run(go())
