"""Names are plain text everywhere: Rich markup in a name shows as typed and never breaks the
app; control and escape characters in a name (typed, or read from a save) are removed before
anything shows it, in the full-screen app and in plain mode."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from unoarena.engine import preset
from unoarena.testing.tui import exact_table, register_forgetful, run, screen_text, settle
from unoarena.tui import saves
from unoarena.tui.app import UnoApp
from unoarena.tui.dialogs import ChoiceDialog
from unoarena.tui.newgame import NewGameScreen
from unoarena.tui.plain import PlainGame
from unoarena.tui.session import Player, Table, Timing, default_players

MARKUP = "Bob [/me]"


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNOARENA_HOME", str(tmp_path))


def test_a_name_with_markup_typed_on_the_new_game_screen() -> None:
    """The issue's reproduction: Seat 0 renamed ``Bob [/me]``, Ctrl+S: the table opens (it
    crashed with a MarkupError, nothing saved) and shows the name as typed."""
    app = UnoApp(newgame={"seed": 3})

    async def go() -> str:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, NewGameScreen)
            await pilot.click("#name-0")
            await pilot.press("end", *["backspace"] * 12, *MARKUP)
            await pilot.press("ctrl+s")
            await settle(pilot, app)
            ts = app.table_screen
            assert ts is not None and app.screen is ts
            assert ts.table.players[0].name == MARKUP
            await pilot.press("f2")  # the scoreboard shows names in a table of its own
            await settle(pilot, app)
            text = screen_text(app)
            await pilot.press("escape")
            await settle(pilot, app)
            return text + screen_text(app)

    text = run(go())
    assert "Your hand (Bob [/me])" in text and "▶ Bob [/me]" in text
    assert text.count(MARKUP) >= 3


def test_names_with_markup_in_dialogs_and_messages() -> None:
    """A bot named with markup plays a Wild Draw Four: the challenge dialog's title names it as
    it is; a person's name with markup in the seven-zero dialog, too."""
    register_forgetful()
    table = exact_table("classic", {0: ["R1", "R2", "R3"], 1: ["W4", "G1", "G2"]},
                        top=["B5"], players=2, turn=1, bots="forgetful")
    table.players[1] = Player("[bold red]Eve[/]", "bot", "forgetful")
    app = UnoApp(table=table)

    async def go() -> str:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            assert isinstance(app.screen, ChoiceDialog) and app.screen.kind == "challenge"
            return screen_text(app)

    text = run(go())
    assert "[bold red]Eve[/] played a Wild Draw Four on you" in text


def _saved_with(names: list[str]) -> Path:
    """A real save file whose player names were edited to ``names``."""
    rules = preset("classic", players=len(names))
    table = Table(rules, default_players(rules, "basic"), 5, timing=Timing.zero())
    path = saves.save_table(table)
    data = json.loads(path.read_text())
    for p, name in zip(data["players"], names, strict=True):
        p["name"] = name
    path.write_text(json.dumps(data))
    return path


NASTY = ["\x1b[2JAnna\x1b[31m", "Ben\x1b]0;owned\x07", "Cy\u202eby\n\tz"]
CLEAN = ["Anna", "Ben", "Cyby z"]


def test_names_from_a_save_are_cleaned_for_the_app() -> None:
    """``\\e[2J`` in a saved name wiped the table; now the escape sequences are removed whole as
    the save is read, whatever shows the name."""
    table = saves.load_table(_saved_with(NASTY), Timing.zero())
    assert [p.name for p in table.players] == CLEAN
    app = UnoApp(table=table)

    async def go() -> str:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            return screen_text(app)

    text = run(go())
    assert "\x1b" not in text and "\u202e" not in text and "owned" not in text
    assert "Your hand (Anna)" in text and "Ben" in text and "Cyby z" in text


def test_names_from_a_save_are_cleaned_in_plain_mode() -> None:
    table = saves.load_table(_saved_with(NASTY), Timing.zero())
    out = io.StringIO()
    PlainGame(table, io.StringIO("hand\nquit\n"), out).run()
    text = out.getvalue()
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert "Anna, your turn." in text and "Ben" in text


def test_a_name_of_control_codes_only_falls_back_to_its_seat() -> None:
    table = saves.load_table(_saved_with(["\x1b[2J", "Ben", "Cy"]), Timing.zero())
    assert [p.name for p in table.players] == ["South", "Ben", "Cy"]
