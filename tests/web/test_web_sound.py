"""The table's sounds in a real headless Chromium: the switch is remembered in the browser and
translated, no sound is made before the person has touched the page, and a game asks for
its sounds (a play or a draw, your turn) only while the switch is on."""

from __future__ import annotations

import time
from typing import Any

from browser_util import PHONE, host_page, make_room, open_page, take_turn

from unoarena.testing.web_server import LiveServer


def sounds(page: Any) -> list[str]:
    return str(page.evaluate("document.body.dataset.sounds || ''")).split()


def play_until(page: Any, want: set[str], seconds: float = 30) -> list[str]:
    """Take this page's turns until every sound in ``want`` was played (or time is up)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not want <= set(sounds(page)):
        if not take_turn(page):
            page.wait_for_timeout(100)
    return sounds(page)


def test_the_switch_is_remembered_and_translated(browser: Any, page_server: LiveServer) -> None:
    errors: list[str] = []
    page = open_page(browser, page_server.url + "/", errors, viewport=PHONE)
    switch = page.locator("#sound-toggle")
    assert switch.get_attribute("aria-pressed") == "true"
    assert switch.get_attribute("title") == "Sound on (click to mute)"
    switch.click()
    assert switch.get_attribute("aria-pressed") == "false"
    page.reload()
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "false"
    assert page.evaluate("localStorage.getItem('unoarena.sound')") == "off"
    page.select_option("#lang-select", "zh_TW")
    page.wait_for_function("document.getElementById('sound-toggle').title.includes('音效')")
    assert page.locator("#sound-toggle").get_attribute("title") == "音效已關閉（按一下開啟）"
    assert not errors, errors
    page.context.close()


def test_a_game_asks_for_its_sounds_after_a_gesture_and_not_when_muted(
        browser: Any, page_server: LiveServer) -> None:
    errors: list[str] = []
    room = make_room(page_server, [{"kind": "bot"}])
    # a page nobody touches
    watcher = open_page(browser, page_server.url + room["url"], errors, viewport=PHONE)
    ann = host_page(browser, page_server, room, errors, viewport=PHONE)
    ann.click("#start-game")  # the gesture that lets the page make sound
    played = play_until(ann, {"turn", "play"})
    assert {"turn", "play"} <= set(played), played
    assert sounds(watcher) == []  # it was never touched: silent, as browsers require
    ann.click("#sound-toggle")  # muted: nothing more
    before = len(sounds(ann))
    for _ in range(6):
        take_turn(ann)
        ann.wait_for_timeout(150)
    assert len(sounds(ann)) == before
    assert not errors, errors
    ann.context.close()
    watcher.context.close()
