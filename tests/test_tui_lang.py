"""Languages: the l key switches the table between English, 繁體中文 and 简体中文."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from unoarena.testing.tui import exact_table, run, screen_text, settle
from unoarena.text.i18n import language, set_language
from unoarena.tui.app import UnoApp
from unoarena.tui.newgame import NewGameScreen


@pytest.fixture(autouse=True)
def _english(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("UNOARENA_HOME", str(tmp_path))
    set_language("en")
    yield
    set_language("en")


def test_switch_language_at_the_table() -> None:
    table = exact_table("classic", {0: ["R1", "RS", "W"], 1: ["G7", "G8"]}, top=["R5"],
                        players=2)

    async def go() -> list[str]:
        app = UnoApp(table=table)
        texts = []
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            texts.append(screen_text(app))
            for _i in range(3):
                await pilot.press("l")
                await settle(pilot, app)
                texts.append(screen_text(app))
        return texts

    en, tw, cn, back = run(go())
    assert "Help" in en and "Your turn" in en
    assert "說明" in tw and "輪到你" in tw and "Your turn" not in tw
    assert "说明" in cn and "轮到你" in cn
    assert "Help" in back and language() == "en"
    # card codes stay the same in every language
    for text in (en, tw, cn):
        assert "RS" in text and "R5" in text


def test_help_in_chinese() -> None:
    set_language("zh_TW")
    table = exact_table("classic", {0: ["R1", "RS"], 1: ["G7", "G8"]}, top=["R5"], players=2)

    async def go() -> str:
        app = UnoApp(table=table)
        async with app.run_test(size=(120, 50)) as pilot:
            await settle(pilot, app)
            await pilot.press("f1")
            await settle(pilot, app)
            return screen_text(app)

    text = run(go())
    assert "這局的規則" in text


def test_new_game_screen_language() -> None:
    async def go() -> tuple[str, str]:
        app = UnoApp()
        async with app.run_test(size=(120, 50)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, NewGameScreen)
            en = screen_text(app)
            await pilot.press("f3")
            await pilot.pause()
            await pilot.press("f3")
            await pilot.pause()
            return en, screen_text(app)

    en, cn = run(go())
    assert "House rules" in en
    assert "家规" in cn
