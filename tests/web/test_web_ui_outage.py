"""The page while the server's database is away, in a real Chromium: a banner says so in the
player's language, at phone, laptop and desktop sizes, the table stays in sight and nothing
moves; when the database is back the banner goes and the player's click plays."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browser_util import DESKTOP, LAPTOP, PHONE, host_page, inside_viewport, log_lines, make_room

from unoarena.testing.web_faults import Cutter
from unoarena.testing.web_server import LiveServer
from unoarena.web.catalog import gettext_in
from unoarena.web.rooms import DB_LOST

pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")

BOT = {"kind": "bot"}


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP, DESKTOP], ids=["phone", "laptop", "desktop"])
def test_the_page_says_the_database_is_away_and_goes_on_when_it_is_back(
        browser: Any, viewport: dict[str, int], screenshots: Path,
        cut_server: tuple[Cutter, Callable[..., LiveServer]]) -> None:
    cutter, make = cut_server
    live = make(bot_delay=0.05, window_delay=0.05)
    errors: list[str] = []
    room = make_room(live, [BOT, BOT], rounds=50)
    size = f"{viewport['width']}x{viewport['height']}"
    ann = host_page(browser, live, room, errors, viewport=viewport)
    ann.click("#start-game")
    ann.wait_for_selector("#my-area.turn")  # Ann's turn: the table waits for her
    assert ann.locator("#notice-banner").is_hidden()
    store = live.app.state.store
    stored = len(store.match_actions(room["room"], 1))
    cutter.cut()
    ann.locator("#hand .card.playable, #action-bar [data-action]:not(.catch)").first.click(
        position={"x": 8, "y": 20})
    if ann.locator(".overlay .dialog .option").count():
        ann.locator(".overlay .dialog .option").first.click()
    ann.wait_for_selector("#notice-banner:visible")
    for lang in ("en", "zh_TW", "zh_CN"):
        if lang != "en":
            ann.select_option("#lang-select", lang)
        text = gettext_in(lang, DB_LOST)
        ann.wait_for_selector(f"#notice-banner:has-text('{text}')")
        ann.evaluate("window.scrollTo(0, 0)")
        ann.screenshot(path=str(screenshots / f"database-away-{size}-{lang}.png"))
        assert inside_viewport(ann, "#notice-banner"), (size, lang)
        assert inside_viewport(ann, "#hand"), (size, lang)
    cutter.restore()
    assert len(store.match_actions(room["room"], 1)) == stored  # nothing moved meanwhile
    ann.wait_for_selector("#notice-banner", state="hidden", timeout=5000)
    ann.wait_for_selector("#my-area.turn")
    lines = len(log_lines(ann))
    ann.locator("#hand .card.playable, #action-bar [data-action]:not(.catch)").first.click(
        position={"x": 8, "y": 20})
    if ann.locator(".overlay .dialog .option").count():
        ann.locator(".overlay .dialog .option").first.click()
    ann.wait_for_function("n => document.querySelectorAll('#log li').length > n", arg=lines)
    assert not errors, errors
    ann.context.close()
