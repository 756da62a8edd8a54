"""The new-game form driven by keys at the sizes people use: every seat reachable, every house
rule visible, a preset choice that survives the next key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widget import Widget

from unoarena.testing.tui import run, screen_text
from unoarena.tui.app import UnoApp
from unoarena.tui.newgame import TOGGLES, NewGameScreen


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNOARENA_HOME", str(tmp_path))


def _on_screen(app: UnoApp, widget: Widget) -> bool:
    """Whether the whole widget is inside the terminal, not scrolled away or cut."""
    screen = app.screen.region
    r = widget.region
    return r.width > 0 and r.height > 0 and screen.contains_region(r)


@pytest.mark.parametrize("size", [(160, 48), (80, 24)])
def test_tab_reaches_every_seat_and_shows_it(size: tuple[int, int]) -> None:
    """Ten players: Tab walks through the whole form; each seat's field is on screen when it
    has the focus, and every house rule's checkbox is whole when focused."""

    async def go() -> tuple[set[str], set[str]]:
        app = UnoApp(newgame={"players": 10, "seed": 1})
        seen: set[str] = set()
        toggles: set[str] = set()
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            scr = app.screen
            assert isinstance(scr, NewGameScreen)
            for _ in range(80):
                await pilot.press("tab")
                await pilot.pause()
                w = scr.focused
                if w is None or not w.id:
                    continue
                if w.id.startswith(("seat-", "name-")):
                    assert _on_screen(app, w), (w.id, w.region)
                    seen.add(w.id)
                if w.id.startswith("rule-"):
                    assert _on_screen(app, w), (w.id, w.region)
                    label = str(w.label) if hasattr(w, "label") else ""
                    if label:
                        assert label in screen_text(app)
                        toggles.add(w.id)
        return seen, toggles

    seen, toggles = run(go())
    assert {f"seat-{i}" for i in range(1, 10)} <= seen
    assert {f"name-{i}" for i in range(10)} <= seen
    assert {f"rule-{k}" for k, _n in TOGGLES} <= toggles


def test_house_rules_fit_at_80_columns() -> None:
    async def go() -> str:
        app = UnoApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            scr = app.screen
            for key, _n in TOGGLES:
                box = scr.query_one(f"#rule-{key}")
                assert box.region.right <= 80, (key, box.region)
            return screen_text(app)

    text = run(go())
    for label in ("Jump-in", "Wild Draw Four on Draw Two", "Wild Draw Four challenge"):
        assert label in text


def test_preset_choice_survives_the_next_keys() -> None:
    """Tab Down Down Down Enter Tab Space Ctrl+S: house, with its first toggle (stacked Wild
    Draw Fours, on in house) switched off."""

    async def go() -> Any:
        app = UnoApp(newgame={"seed": 2})
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for key in ("tab", "down", "down", "down", "enter"):
                await pilot.press(key)
                await pilot.pause()
            scr = app.screen
            assert isinstance(scr, NewGameScreen)
            assert scr.focused is not None and scr.focused.id == "preset"
            assert scr.query_one("#rule-stack_draw4").value  # house's own values shown
            for key in ("tab", "space"):
                await pilot.press(key)
                await pilot.pause()
            assert scr.focused is not None and scr.focused.id == f"rule-{TOGGLES[0][0]}"
            await pilot.press("ctrl+s")
            await pilot.pause()
            ts = app.table_screen
            assert ts is not None
            return ts.table.rules

    rules = run(go())
    assert TOGGLES[0][0] == "stack_draw4"
    assert rules.preset == "house" and not rules.stack_draw4 and rules.stacking == "deflect"


def test_more_players_keeps_the_focus_and_adds_seats() -> None:
    async def go() -> None:
        app = UnoApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            scr = app.screen
            assert isinstance(scr, NewGameScreen)
            players = scr.query_one("#players")
            players.focus()
            await pilot.pause()
            players.value = 6  # type: ignore[attr-defined]
            await pilot.pause()
            assert scr.focused is players
            assert len(scr.query(".seat")) == 6
            assert scr.players_n == 6

    run(go())


def test_language_switch_keeps_the_focus() -> None:
    from unoarena.text.i18n import set_language

    async def go() -> str | None:
        app = UnoApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            scr = app.screen
            scr.query_one("#rule-seven_zero").focus()
            await pilot.press("f2")
            await pilot.pause()
            focused = app.screen.focused
            return focused.id if focused is not None else None

    try:
        assert run(go()) == "rule-seven_zero"
    finally:
        set_language("en")
