"""The page in a real headless Chromium (Debian's package, driven by Playwright): two people
in two browser contexts and two bots play a whole match, one of them reloading mid-game; a
third context watches without seeing any hand; the page switches language."""

from __future__ import annotations

import os
import shutil
import time
from typing import Any

import pytest

from unoarena.testing.web_server import LiveServer

CHROMIUM = os.environ.get("UNOARENA_CHROMIUM", "/usr/bin/chromium")

sync_api = pytest.importorskip("playwright.sync_api",
                               reason="browser tests need playwright (pip install playwright)")
if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
    pytest.skip(f"browser tests need Chromium at {CHROMIUM} (scripts/ci_browser_setup.sh "
                "installs Debian's package)", allow_module_level=True)


@pytest.fixture
def live(page_server: LiveServer) -> LiveServer:
    return page_server


def new_page(browser: Any, errors: list[str]) -> Any:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.set_default_timeout(15000)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def hand_of(page: Any) -> list[str]:
    return [str(x) for x in page.eval_on_selector_all("#hand .card", "els => els.map(e => "
                                                      "e.dataset.card)")]


def server_hand(live: LiveServer, player: int) -> list[str]:
    """The hand the server holds for ``player`` of the only room, as sorted card codes."""
    room = next(iter(live.manager.rooms.values()))
    return sorted(str(c) for c in room.match.game.view(room.seating.seat_of(player))["hand"])


def take_turn(page: Any) -> bool:
    """Do one sensible thing if it is this page's turn; True when something was clicked."""
    if page.locator(".overlay .dialog").count():
        page.locator(".overlay .dialog .option").first.click()
        return True
    if not page.locator("#my-area.turn").count():
        return False
    color = page.locator('#action-bar [data-action^="color"]')
    if color.count():
        color.first.click()
        return True
    if page.locator("#uno-toggle:not(.armed)").count():
        page.locator("#uno-toggle").click()
    playable = page.locator("#hand .card.playable")
    if playable.count():
        # a long hand overlaps its cards: a person clicks the strip of the card that shows
        playable.first.click(position={"x": 8, "y": 40}, timeout=3000)
        page.wait_for_timeout(50)
        if page.locator(".overlay .dialog").count():
            page.locator(".overlay .dialog .option").first.click()
        return True
    act = page.locator("#action-bar [data-action]")
    if act.count():
        act.first.click(timeout=3000)
        return True
    return False


def test_two_people_and_two_bots_play_a_whole_match(browser: Any, live: LiveServer) -> None:
    errors: list[str] = []
    ann = new_page(browser, errors)
    ann.goto(live.url + "/")
    ann.fill("#name", "Ann")
    ann.select_option('select[data-seat="1"]', "human")
    ann.locator("details.house-rules summary").click()
    ann.fill("#rule-rounds", "1")
    ann.locator("#rule-rounds").dispatch_event("change")
    ann.fill("#rule-hand_size", "4")
    ann.locator("#rule-hand_size").dispatch_event("change")
    ann.wait_for_timeout(300)
    ann.click("#create-room")
    ann.wait_for_selector("#start-game")
    room_url = ann.url
    assert "/r/" in room_url

    bob = new_page(browser, errors)
    bob.goto(room_url)
    bob.select_option("#lang-select", "zh_TW")
    # the page fetches the catalogue and redraws: wait for the translated button
    sync_api.expect(bob.locator("#join-button")).to_have_text("加入", timeout=15000)
    bob.fill("#join-name", "Bob")
    bob.click("#join-button")
    bob.wait_for_selector(".waiting")
    ann.wait_for_selector('#lobby-players [data-player="1"] .dot.on')

    ann.click("#start-game")
    ann.wait_for_selector("#hand")
    bob.wait_for_selector("#hand")

    watcher = new_page(browser, errors)
    watcher.goto(room_url)
    watcher.wait_for_selector("#spectator-banner")
    assert watcher.locator("#hand").count() == 0

    reloaded = False
    deadline = time.monotonic() + 150
    clicks = 0
    while time.monotonic() < deadline:
        if ann.locator("#match-over").count() and bob.locator("#match-over").count():
            break
        acted = False
        for page in (ann, bob):
            try:
                acted = take_turn(page) or acted
            except Exception:  # the table moved under the click: look again
                page.wait_for_timeout(50)
        clicks += acted
        if clicks >= 3 and not reloaded and bob.locator("#hand").count():
            bob.reload()
            bob.wait_for_selector("#hand")
            assert bob.locator("#spectator-banner").count() == 0
            # the reloaded page holds Bob's seat again: the hand it shows is the one the server
            # deals him (polled: a click sent just before the reload, or a bot, may move it)
            settled = time.monotonic() + 10
            while sorted(hand_of(bob)) != server_hand(live, player=1):
                assert time.monotonic() < settled, (hand_of(bob), server_hand(live, player=1))
                bob.wait_for_timeout(50)
            reloaded = True
        if not acted:
            ann.wait_for_timeout(40)
    assert reloaded, "the reload mid-game did not happen"
    ann.wait_for_selector("#match-over")
    bob.wait_for_selector("#match-over")
    assert ann.locator("#play-again").count() == 1  # the host may play again
    assert bob.locator("#play-again").count() == 0
    watcher.wait_for_selector("#match-over")
    assert watcher.locator("#hand").count() == 0

    # the finished match can be replayed in the page
    ann.click("#match-over a[href^='/replay/']")
    ann.wait_for_selector("#replay-line")
    first = ann.inner_text("#replay-step")
    ann.click("#replay-next")
    sync_api.expect(ann.locator("#replay-step")).not_to_have_text(first)
    assert not errors, errors
