"""Accounts in a real browser: two people sign up and log in on the account page, play a rated
game, and find both ratings moved on the leaderboard and on their profiles, whose recent game
opens its replay; and the pages as a person sees them at three sizes in three languages."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_util import DESKTOP, LAPTOP, PHONE, open_page

from unoarena.testing.web_server import Client, LiveServer, fast_config
from unoarena.web.store import Store

sync_api = pytest.importorskip("playwright.sync_api",
                               reason="browser tests need playwright (pip install playwright)")


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    """A server with accounts whose people, when idle at their turn, are played by stand-ins
    at once: a rated game plays itself to the end."""
    store = Store(f"sqlite:///{tmp_path / 'accounts.sqlite3'}")
    server = LiveServer(fast_config(accounts=True, bot_delay=0.02, window_delay=0.02,
                                    idle_after=0.05, away_after=0.05), store=store)
    yield server
    server.stop()
    store.close()


def sign_up(page: Any, name: str, password: str) -> None:
    page.click("#account-link")
    page.fill("#account-name", name)
    page.fill("#account-password", password)
    page.click("#signup")
    page.wait_for_selector("#profile-name")
    assert page.locator("#account-link").inner_text() == name


def log_in(page: Any, name: str, password: str) -> None:
    """Log in on the account page (already open), and land on the profile."""
    page.fill("#account-name", name)
    page.fill("#account-password", password)
    page.click("#login")
    page.wait_for_selector("#profile-name")


def rating_of(page: Any, name: str) -> float:
    row = page.locator("#board tbody tr", has=page.locator(f"a:text-is('{name}')"))
    return float(row.locator("td.num").nth(1).inner_text())


def test_sign_up_log_in_play_rated_and_find_it_on_the_leaderboard_and_profile(
        browser: Any, live: LiveServer) -> None:
    errors: list[str] = []
    ann = open_page(browser, live.url + "/", errors)
    sign_up(ann, "Ann", "ann password")
    bob = open_page(browser, live.url + "/", errors, lang="zh_TW")
    sign_up(bob, "Bob", "bob password")
    # log out and in again, as on another day
    bob.click("#account-link")
    bob.click("#logout")
    sync_api.expect(bob.locator("#account-link")).to_have_text("登入")
    bob.fill("#account-name", "Bob")
    bob.fill("#account-password", "wrong password")
    bob.click("#login")
    sync_api.expect(bob.locator("#account-error")).to_have_text("這個名稱和密碼不符合任何帳號")
    log_in(bob, "Bob", "bob password")
    sync_api.expect(bob.locator("#profile-stats")).to_have_text("0 場積分賽，勝 0 場")

    # Ann creates a rated room for two, one round; Bob joins it
    ann.click("a[href='/']")
    ann.fill("#name", "Ann")
    ann.fill("#players", "2")
    ann.locator("#players").dispatch_event("change")
    ann.select_option('select[data-seat="1"]', "human")
    ann.locator("details.house-rules summary").click()
    ann.fill("#rule-rounds", "1")
    ann.locator("#rule-rounds").dispatch_event("change")
    ann.check("#rated")
    ann.wait_for_timeout(300)
    ann.click("#create-room")
    ann.wait_for_selector("#start-game")
    sync_api.expect(ann.locator("#rated-badge")).to_be_visible()
    bob.goto(ann.url)
    bob.fill("#join-name", "Bob")
    bob.click("#join-button")
    bob.wait_for_selector(".waiting")
    ann.wait_for_selector('#lobby-players [data-player="1"] .dot.on')
    ann.click("#start-game")
    ann.wait_for_selector("#match-over", timeout=60000)
    bob.wait_for_selector("#match-over", timeout=60000)

    ann.click("#nav-leaderboard")
    ann.select_option("#family", "classic/2")
    ann.wait_for_selector("#board")
    ratings = {name: rating_of(ann, name) for name in ("Ann", "Bob")}
    assert all(r != 0.0 for r in ratings.values()), ratings  # a first rating is 0.0
    assert ann.locator("#board tbody tr").count() == 2

    bob.click("#nav-leaderboard")
    bob.select_option("#family", "classic/2")
    bob.locator("#board a", has_text="Bob").click()
    sync_api.expect(bob.locator("#profile-stats")).to_have_text(re.compile(r"^1 場積分賽"))
    assert bob.locator(".family .rating-chart circle").count() == 1
    assert bob.locator("#recent-games tbody tr").count() == 1
    # the date as the page's language writes it (2026/11/28 下午2:27:30), not as the browser's
    when = bob.locator("#recent-games tbody td").first.inner_text()
    assert re.match(r"^\d{4}/\d{1,2}/\d{1,2} (上午|下午)", when), when
    bob.locator("#recent-games a.button").click()
    bob.wait_for_url(re.compile(r"/replay/[A-Za-z0-9_-]+/1$"))
    assert not errors, errors


def test_a_guest_who_signs_up_keeps_their_seat_and_the_game_counts(
        browser: Any, live: LiveServer) -> None:
    errors: list[str] = []
    gus = open_page(browser, live.url + "/", errors, lang="zh_CN")
    gus.fill("#name", "Gus")
    gus.fill("#players", "2")
    gus.locator("#players").dispatch_event("change")
    gus.locator("details.house-rules summary").click()
    gus.fill("#rule-rounds", "1")
    gus.locator("#rule-rounds").dispatch_event("change")
    gus.check("#rated")
    gus.wait_for_timeout(300)
    gus.click("#create-room")
    gus.wait_for_selector("#start-game")
    room_url = gus.url
    sign_up(gus, "Gus", "gus password")  # from the top bar, in the middle of it
    gus.goto(room_url)
    gus.wait_for_selector("#start-game")  # still the host, in the same seat
    gus.click("#start-game")
    gus.wait_for_selector("#match-over", timeout=60000)
    gus.click("#account-link")
    gus.click("#my-profile")
    sync_api.expect(gus.locator("#profile-stats")).to_have_text(re.compile(r"^1 场积分赛"))
    assert not errors, errors


PAGES = ("account", "home", "leaderboard", "profile", "lobby")


def test_screenshots_of_the_account_pages(browser: Any, live: LiveServer,
                                          screenshots: Path) -> None:
    """A rated match of Ann, Bob and an easy bot, and a rated room waiting in its lobby;
    then each page at a phone's, a laptop's
    and a desktop's size in English, Traditional and Simplified Chinese: nothing sticks out
    sideways, and the pages show their translated titles."""
    users = {}
    for name in ("Ann", "Bob"):
        c = httpx.Client(base_url=live.url, timeout=10, headers={"Origin": live.url})
        assert c.post("/api/account/signup", json={"name": name, "password": "x" * 10}
                      ).status_code == 200
        users[name] = c
    room = users["Ann"].post("/api/rooms", json={
        "name": "Ann", "preset": "classic", "rated": True, "rules": {"players": 3, "rounds": 1},
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "basic"}]}).json()
    users["Ann"].post("/api/account/seats", json={"seats": [{"room": room["room"],
                                                             "token": room["token"]}]})
    joined = users["Bob"].post(f"/api/rooms/{room['room']}/join", json={"name": "Bob"}).json()
    users["Bob"].post("/api/account/seats", json={"seats": [{"room": room["room"],
                                                             "token": joined["token"]}]})
    host = Client(live.url, room["room"], room["token"])
    try:
        host.wait("welcome")
        host.send({"type": "start", "token": room["token"]})
        host.wait("match_over", timeout=60)
    finally:
        host.close()
    lobby = users["Ann"].post("/api/rooms", json={
        "name": "Ann", "preset": "classic", "rated": True, "rules": {"players": 2},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]}).json()
    cookie = users["Ann"].cookies.get("unoarena_session")
    for c in users.values():
        c.close()
    titles = {"en": "Leaderboard", "zh_TW": "排行榜", "zh_CN": "排行榜"}
    errors: list[str] = []
    for lang in ("en", "zh_TW", "zh_CN"):
        for size_name, size in (("phone", PHONE), ("laptop", LAPTOP), ("desktop", DESKTOP)):
            for what in PAGES:
                seat = (lobby["room"], 0, lobby["token"]) if what == "lobby" else None
                page = open_page(browser, live.url + "/static/style.css", errors,
                                 viewport=size, lang=lang, seat=seat)
                if what != "account":  # signed in as Ann
                    page.context.add_cookies([{"name": "unoarena_session", "value": cookie,
                                               "url": live.url}])
                path = {"account": "/account", "home": "/", "profile": "/u/Ann",
                        "leaderboard": "/leaderboard", "lobby": lobby["url"]}[what]
                page.goto(live.url + path)
                ready = {"account": "#account-name", "home": "#rated",
                         "leaderboard": "#board", "profile": ".rating-chart",
                         "lobby": "#rated-badge"}[what]
                page.wait_for_selector(ready)
                if what == "leaderboard":
                    sync_api.expect(page.locator("h1")).to_have_text(titles[lang])
                if what == "profile" and lang == "en":  # one game: said in the singular
                    sync_api.expect(page.locator("#profile-stats")).to_have_text(
                        re.compile(r"^1 rated game, [01] won$"))
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= size["width"], (lang, size_name, what, width)
                page.screenshot(path=str(screenshots / f"accounts-{what}-{size_name}-{lang}.png"),
                                full_page=True)
                page.context.close()
    assert not errors, errors


def test_changing_the_password_on_the_account_page_signs_the_other_browser_out(
        browser: Any, live: LiveServer) -> None:
    errors: list[str] = []
    ann = open_page(browser, live.url + "/", errors, lang="zh_TW")
    sign_up(ann, "Ann", "old password")
    phone = open_page(browser, live.url + "/account", errors, viewport=PHONE)
    log_in(phone, "Ann", "old password")
    ann.click("#account-link")
    ann.fill("#old-password", "wrong password")
    ann.fill("#new-password", "new password")
    ann.click("#change-password")
    sync_api.expect(ann.locator("#password-error")).to_have_text("這不是這個帳號的密碼")
    ann.fill("#old-password", "old password")
    ann.click("#change-password")
    sync_api.expect(ann.locator("#password-done")).to_have_text("密碼已更改，你的其他裝置已登出。")
    assert ann.input_value("#old-password") == "" and ann.input_value("#new-password") == ""
    ann.reload()
    sync_api.expect(ann.locator("#account-link")).to_have_text("Ann")  # still signed in here
    phone.reload()
    sync_api.expect(phone.locator("#account-link")).to_have_text("Log in")  # signed out there
    phone.click("#account-link")
    log_in(phone, "Ann", "new password")
    assert not errors, errors


#: The top bar's controls a person cannot reach: outside the viewport, or covered where a tap
#: lands (by another control, or clipped by a scrolling row).
UNREACHABLE = """() => [...document.querySelectorAll('.topbar a, .topbar button, .topbar select')]
  .filter((e) => e.offsetParent !== null)
  .filter((e) => {
    const r = e.getBoundingClientRect();
    if (r.left < 0 || r.right > innerWidth || r.top < 0 || r.bottom > innerHeight) return true;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !(hit && (hit === e || e.contains(hit)));
  })
  .map((e) => e.getAttribute('href') || e.id || e.textContent.trim())"""


@pytest.mark.parametrize("lang", ["en", "zh_TW", "zh_CN"])
def test_every_top_bar_link_fits_a_phone(browser: Any, live: LiveServer, lang: str,
                                         screenshots: Path) -> None:
    """At 390 px the links are in the ☰ menu, each in reach (none cut at the edge or scrolled
    out of sight), and the bar's own controls are too; a link opens its page and closes the
    menu. At a laptop's width the links are in the bar itself."""
    with httpx.Client(base_url=live.url, timeout=10, headers={"Origin": live.url}) as c:
        assert c.post("/api/account/signup", json={"name": "Bartholomew_the_2nd",
                                                   "password": "x" * 10}).status_code == 200
        cookie = c.cookies.get("unoarena_session")
    errors: list[str] = []
    links = ["/lobby", "/", "/replays", "/learn", "/leaderboard"]
    for size in (PHONE, LAPTOP):
        page = open_page(browser, live.url + "/static/style.css", errors, viewport=size, lang=lang)
        page.context.add_cookies([{"name": "unoarena_session", "value": cookie,
                                   "url": live.url}])
        page.goto(live.url + "/lobby")
        page.wait_for_selector("#nav-leaderboard", state="attached")
        page.wait_for_selector("#account-link.signed-in")
        if size is LAPTOP:
            assert not page.locator("#nav-toggle").is_visible()
            assert page.evaluate(UNREACHABLE) == []
            assert [a.get_attribute("href") for a in page.locator("#site-nav a").all()
                    if a.is_visible()] == links
            page.context.close()
            continue
        assert not page.locator("#site-nav").is_visible()
        assert page.evaluate(UNREACHABLE) == []  # the account, sound, language and ☰
        page.click("#nav-toggle")
        assert page.get_attribute("#nav-toggle", "aria-expanded") == "true"
        assert [a.get_attribute("href") for a in page.locator("#site-nav a").all()
                if a.is_visible()] == links
        assert page.evaluate(UNREACHABLE) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        page.screenshot(path=str(screenshots / f"topbar-menu-phone-{lang}.png"))
        page.keyboard.press("Escape")
        assert not page.locator("#site-nav").is_visible()
        page.click("#nav-toggle")
        page.click("#nav-leaderboard")
        page.wait_for_selector(".ratings-page h1")
        assert not page.locator("#site-nav").is_visible()
        assert page.get_attribute("#nav-toggle", "aria-expanded") == "false"
        page.context.close()
    assert not errors, errors
