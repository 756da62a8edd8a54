"""The page as people use it, in a real Chromium: typing while the lobby changes, keyboard focus
and the screen reader's live region through opponents' moves, the final scores, time to catch,
cards that move, the hand on screen at phone, laptop and desktop sizes in three languages, a
seat taken to another device, and the small things (purple wilds, plain words, one log line)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_util import (
    DESKTOP,
    LAPTOP,
    PHONE,
    host_page,
    inside_viewport,
    log_lines,
    make_room,
    open_page,
    try_turn,
)
from server_util import LiveServer, fast_config, join

from unoarena.web.store import Store

pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")

BOT = {"kind": "bot"}
OPEN = {"kind": "human"}


@pytest.fixture
def make_live(tmp_path: Path) -> Iterator[Callable[..., LiveServer]]:
    """Servers on a SQLite file: ``make_live(bot_delay=0.05, ...)``."""
    made: list[tuple[LiveServer, Store]] = []

    def make(**kw: Any) -> LiveServer:
        kw.setdefault("bot_delay", 0.05)
        kw.setdefault("window_delay", 0.05)
        store = Store(f"sqlite:///{tmp_path / f'ui{len(made)}.sqlite3'}")
        server = LiveServer(fast_config(**kw), store=store)
        made.append((server, store))
        return server

    yield make
    for server, store in made:
        server.stop()
        store.close()


def close(*pages: Any) -> None:
    for p in pages:
        p.context.close()


def play_until(pages: list[Any], done: Callable[[], bool], timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the table did not get there in time"
        acted = False
        for p in pages:
            acted = try_turn(p) or acted
        if not acted:
            pages[0].wait_for_timeout(30)


# -- 1. incremental rendering ---------------------------------------------------------------
def test_a_guest_keeps_typing_while_the_lobby_changes(browser: Any,
                                                      make_live: Callable[..., LiveServer]
                                                      ) -> None:
    live = make_live()
    errors: list[str] = []
    room = make_room(live, [OPEN, OPEN, OPEN])
    ann = host_page(browser, live, room, errors)
    ann.wait_for_selector("#start-game")
    guest = open_page(browser, live.url + room["url"], errors)
    name = "Zoë 👨‍👩‍👧"
    guest.click("#join-name")
    guest.keyboard.type(name)
    guest.evaluate("window.__field = document.getElementById('join-name')")
    # someone else opens the link and joins, and the host gives a seat to a bot
    join(live, room["room"], "Bob")
    guest.wait_for_selector("#lobby-players li:has-text('Bob')")
    ann.locator('#lobby-players [data-player="3"] button', has_text="Give to a bot").click()
    guest.wait_for_selector('#lobby-players [data-player="3"].bot')
    assert guest.input_value("#join-name") == name
    assert guest.evaluate("document.activeElement === window.__field")
    guest.keyboard.type("!")  # still typing into the same field
    guest.click("#join-button")
    guest.wait_for_selector(".waiting")
    assert guest.locator("#lobby-players li", has_text=name + "!").count() == 1
    ann.wait_for_selector(f"#lobby-players li:has-text('{name}!')")
    assert not errors, errors
    close(ann, guest)


def test_focus_and_the_live_region_survive_opponents_moves(
        browser: Any, make_live: Callable[..., LiveServer]) -> None:
    live = make_live(bot_delay=0.3)
    errors: list[str] = []
    room = make_room(live, [BOT, BOT, BOT], hand_size=7, rounds=5)
    ann = host_page(browser, live, room, errors)
    ann.click("#start-game")
    ann.wait_for_selector("#hand .card")
    play_until([ann], lambda: not ann.locator("#my-area.turn").count())
    ann.locator("#hand .card").first.focus()
    ann.evaluate("""() => {
        window.__card = document.activeElement;
        window.__status = document.getElementById('status');
        window.__text = window.__status.textContent;
        window.__lines = document.querySelectorAll('#log li').length;
    }""")
    # two bots move (or the turn comes back to Ann): the page was updated several times
    ann.wait_for_function("document.querySelectorAll('#log li').length >= window.__lines + 2"
                          " || document.querySelector('#my-area.turn') !== null")
    ann.wait_for_function("document.getElementById('status').textContent !== window.__text")
    assert ann.evaluate("document.activeElement === window.__card")
    assert ann.evaluate("document.getElementById('status') === window.__status")
    assert ann.get_attribute("#status", "aria-live") == "polite"
    assert not errors, errors
    close(ann)


# -- 3. the hand always on screen ---------------------------------------------------------------
TURN_WORDS = {"en": "Your turn", "zh_TW": "輪到你", "zh_CN": "轮到你"}


def layout_facts(page: Any) -> dict[str, Any]:
    return dict(page.evaluate("""() => {
        const r = (e) => e.getBoundingClientRect();
        const links = [...document.querySelectorAll('.topbar nav a')].map((a) => r(a).top);
        const nav = document.querySelector('.topbar nav');
        const log = document.getElementById('log');
        const last = log.lastElementChild;
        const seats = [...document.querySelectorAll('.seat-box')].map((b) => r(b).top);
        const opp = document.getElementById('opponents');
        return {
          scrollH: document.documentElement.scrollHeight,
          scrollW: document.documentElement.scrollWidth,
          innerH: innerHeight, innerW: innerWidth,
          topbarH: r(document.querySelector('.topbar')).height,
          menuLines: new Set(links.map(Math.round)).size,
          menuClipped: nav.scrollWidth > nav.clientWidth + 1,
          logScrolls: log.scrollHeight > log.clientHeight + 20,
          logBottom: r(log.closest('.panel')).bottom,
          lastShown: r(last).bottom <= r(log).bottom + 1 && r(last).top >= r(log).top - 1,
          seatRows: new Set(seats.map(Math.round)).size, oppH: r(opp).height,
          oppClipped: opp.scrollWidth > opp.clientWidth + 1,
        };
    }"""))


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP, DESKTOP], ids=["phone", "laptop", "desktop"])
def test_the_hand_stays_on_screen_after_many_moves(browser: Any, viewport: dict[str, int],
                                                   make_live: Callable[..., LiveServer],
                                                   screenshots: Path) -> None:
    live = make_live(bot_delay=0.01, window_delay=0.01)
    errors: list[str] = []
    room = make_room(live, [BOT, BOT, BOT, BOT], name="Ann 👨‍👩‍👧", rounds=50)
    size = f"{viewport['width']}x{viewport['height']}"
    ann = host_page(browser, live, room, errors, viewport=viewport)
    ann.wait_for_selector("#start-game")
    ann.screenshot(path=str(screenshots / f"lobby-{size}-en.png"))
    ann.click("#start-game")
    ann.wait_for_selector("#hand .card")
    play_until([ann], lambda: len(log_lines(ann)) >= 100)
    ann.wait_for_selector("#my-area.turn")  # the table waits for Ann: nothing moves now
    ann.wait_for_timeout(700)
    for lang in ("en", "zh_TW", "zh_CN"):
        if lang != "en":
            ann.select_option("#lang-select", lang)
        ann.wait_for_selector(f"#status-text:has-text('{TURN_WORDS[lang]}')")
        ann.wait_for_timeout(200)
        ann.evaluate("window.scrollTo(0, 0)")
        ann.screenshot(path=str(screenshots / f"table-{size}-{lang}.png"))
        facts = layout_facts(ann)
        where = f"{size} {lang}: {facts}"
        assert inside_viewport(ann, "#hand"), where
        assert inside_viewport(ann, "#my-area"), where
        assert inside_viewport(ann, "#table-main"), where
        assert facts["menuLines"] == 1 and not facts["menuClipped"], where
        assert facts["topbarH"] <= 56, where
        assert facts["scrollW"] <= facts["innerW"], where
        assert facts["lastShown"], where  # the newest line is in sight
        if lang == "en":  # (a new language brings only this round's lines)
            assert facts["logScrolls"], where  # the log scrolls inside its own panel
        assert facts["seatRows"] == 1, where
        if viewport is PHONE:
            assert facts["oppH"] <= 64 and not facts["oppClipped"], where  # a compact row
        else:  # the page itself does not scroll: the log's panel ends on screen
            assert facts["scrollH"] <= facts["innerH"], where
            assert facts["logBottom"] <= facts["innerH"], where
    assert not errors, errors
    close(ann)
