"""The Learn page and the Review view: the API judges lessons and explains rules in the
page's language, reviews a finished game, and a real Chromium drives both pages at phone,
laptop and desktop sizes in three languages."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from browser_util import DESKTOP, LAPTOP, PHONE, open_page

from unoarena.testing.web_server import Client, LiveServer, create_room, fast_config, play
from unoarena.web.store import Store


def finished_match(server: LiveServer) -> str:
    """A room whose first match (one short round, its host against a bot) is over."""
    room = create_room(server, ["bot"], rounds=1, hand_size=4)
    rid = room["room"]
    host = Client(server.url, rid, room["token"])
    host.wait("welcome")
    host.send({"type": "start", "token": host.token})
    host.wait(lambda m: m["type"] == "state")
    play([host], random.Random(5))
    host.drain()
    assert host.over is not None
    return str(rid)


def test_lessons_are_listed_judged_and_explained(server: LiveServer) -> None:
    h = server.http
    books = h.get("/api/learn").json()["books"]
    assert [b["book"] for b in books] == ["classic", "buzz", "frozen2", "house", "attack"]
    assert all(len(b["lessons"]) >= 3 for b in books)
    lesson = h.get("/api/learn/classic/1").json()
    table = lesson["table"]
    assert sorted(table["hand"]) == ["B9", "G5", "R7", "Y2"] and table["top"] == "R3"
    assert {x["action"] for x in lesson["table"]["legal"]} == {"draw", "play R7"}
    draw = h.post("/api/learn/classic/1/try", json={"action": "draw"}).json()
    assert not draw["done"] and "no need to draw" in draw["say"]
    wrong = h.post("/api/learn/classic/1/try", json={"action": "play G5"}).json()
    assert wrong["refused"] == "does_not_match" and wrong["rule"]["ids"] == ["TURN-1"]
    right = h.post("/api/learn/classic/1/try", json={"action": "play R7"}).json()
    assert right["done"] and right["table"]["top"] == "R7"
    zh = h.post("/api/learn/classic/1/try", json={"action": "draw", "lang": "zh_TW"}).json()
    assert "不必摸牌" in zh["say"]
    assert h.get("/api/learn/classic/99").status_code == 400
    assert "no such lesson" in h.get("/api/learn/nope/1").json()["message"]


def test_rule_help_names_the_rule_for_the_rules_in_force(server: LiveServer) -> None:
    h = server.http
    w4 = h.post("/api/rulehelp", json={"preset": "classic", "card": "W4"}).json()
    assert "WD4-2" in w4["ids"]
    house = h.post("/api/rulehelp", json={"preset": "house", "card": "W4"}).json()
    assert "WD4-3" in house["ids"] and "WD4-2" not in house["ids"]
    bad = h.post("/api/rulehelp", json={"preset": "classic", "card": "X9"})
    assert bad.status_code == 400 and "unknown card" in bad.json()["message"]
    none = h.post("/api/rulehelp", json={"preset": "classic"})
    assert none.status_code == 400


def test_review_of_a_finished_game(server: LiveServer) -> None:
    rid = finished_match(server)
    r = server.http.get(f"/api/review/{rid}/1?seat=0&round=1", timeout=60).json()
    assert r["seat"] == 0 and r["rounds"] == 1 and r["decisions"]
    d = r["decisions"][0]
    assert 0 <= d["before"] <= 1 and 0 <= d["after"] <= 1 and d["loss"] >= 0
    assert r["summary"]["labels"][0]["label"] == "blunder"
    assert server.http.get(f"/api/review/{rid}/1?seat=5").status_code == 400
    assert server.http.get(f"/api/review/{rid}/2").status_code == 404


# -- in a real browser ----------------------------------------------------------------------
@pytest.fixture
def live(tmp_path: Path) -> Any:
    store = Store(f"sqlite:///{tmp_path / 'learn.sqlite3'}")
    server = LiveServer(fast_config(), store=store)
    yield server
    server.stop()
    store.close()


SIZES = {"phone": PHONE, "laptop": LAPTOP, "desktop": DESKTOP}


def test_learn_page_teaches_and_remembers(browser: Any, live: LiveServer,
                                          screenshots: Path) -> None:
    errors: list[str] = []
    page = open_page(browser, f"{live.url}/learn/classic", errors, viewport=LAPTOP)
    page.wait_for_selector(".lesson .goal")
    assert "same colour" in page.inner_text(".lesson .goal")
    page.click(".lesson-hand .card[data-card='G5']")
    page.wait_for_selector(".feedback.bad")
    assert "TURN-1" in page.inner_text(".feedback")
    page.click(".action-bar button")  # draw
    page.wait_for_function("document.querySelector('.feedback').innerText.includes('no need')")
    page.click(".lesson-hand .card[data-card='R7']")
    page.wait_for_selector(".feedback.good")
    page.click(".feedback .primary")  # the next lesson
    page.wait_for_function("document.querySelector('.lesson .goal').innerText.includes('4')")
    page.reload()
    page.wait_for_selector(".lesson-item.done")
    assert page.locator(".lesson-item.done").count() == 1
    assert "1/6" in page.inner_text(".book-tab.active")
    page.click(".lesson-hand .why >> nth=0")
    page.wait_for_selector(".feedback.info .rule-help")
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "zh_TW", "zh_CN"])
def test_learn_and_review_screenshots(browser: Any, live: LiveServer, screenshots: Path,
                                      lang: str) -> None:
    rid = finished_match(live)
    errors: list[str] = []
    for size, viewport in SIZES.items():
        page = open_page(browser, f"{live.url}/learn/house", errors, viewport=viewport,
                         lang=lang)
        page.wait_for_selector(".lesson .goal")
        page.click(".action-bar button")  # drawing under a pending Draw Two: explained
        page.wait_for_selector(".feedback.bad")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"] + 1, (size, width)  # nothing runs off the side
        page.screenshot(path=str(screenshots / f"learn-{size}-{lang}.png"), full_page=True)
        page.goto(f"{live.url}/review/{rid}/1")
        page.wait_for_selector(".review-chart", timeout=60000)
        assert page.locator(".review-table tbody tr").count() >= 1
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"] + 1, (size, width)
        page.screenshot(path=str(screenshots / f"review-{size}-{lang}.png"), full_page=True)
        if lang != "en":
            assert "Game review" not in page.inner_text("main")
        page.context.close()
    assert not errors, errors


def test_the_table_offers_the_rule_and_a_hint_against_bots(browser: Any,
                                                           live: LiveServer) -> None:
    from browser_util import host_page, make_room
    errors: list[str] = []
    room = make_room(live, [{"kind": "bot"}], hand_size=7, rounds=3)
    page = host_page(browser, live, room, errors)
    page.click("#start-game")
    page.wait_for_selector("#my-area.turn #coach-hint", timeout=20000)
    page.click("#coach-rule")
    page.wait_for_function("[...document.querySelectorAll('.toast')].some("
                           "t => t.textContent.includes('The rule'))")
    page.click("#coach-hint")
    page.wait_for_function("[...document.querySelectorAll('.toast')].some("
                           "t => t.textContent.includes('The expert would') "
                           "&& t.textContent.includes('%'))", timeout=20000)
    page.locator("#hand .card").first.click(button="right")
    page.wait_for_function("[...document.querySelectorAll('.toast')].some("
                           "t => t.textContent.includes('TURN-1') "
                           "|| t.textContent.includes('points'))")
    # a token that is not a seat of the room gets no hint
    r = live.http.post(f"/api/rooms/{room['room']}/hint", json={"token": "x" * 20})
    assert r.status_code == 403
    assert not errors, errors
    page.context.close()


def test_no_hint_where_two_people_play(live: LiveServer) -> None:
    from browser_util import make_room

    from unoarena.testing.web_server import join
    room = make_room(live, [{"kind": "human"}])
    join(live, room["room"], "Bob")
    r = live.http.post(f"/api/rooms/{room['room']}/hint", json={"token": room["token"]})
    assert r.status_code == 400 and "only for games against bots" in r.json()["message"]


def test_every_lesson_can_be_done_through_the_api(server: LiveServer) -> None:
    from unoarena.coach.lessons import load_lessons, matches
    from unoarena.engine import Action
    h = server.http
    for book in h.get("/api/learn").json()["books"]:
        lessons = load_lessons(book["book"])
        for item, lesson in zip(book["lessons"], lessons, strict=True):
            data = h.get(f"/api/learn/{book['book']}/{item['n']}?lang=zh_CN").json()
            assert data["title"] == lesson.title["zh_CN"]
            good = next(x["action"] for x in data["table"]["legal"]
                        if any(matches(p, Action.parse(x["action"])) for p in lesson.expect))
            r = h.post(f"/api/learn/{book['book']}/{item['n']}/try", json={"action": good})
            assert r.json()["done"], (lesson.id, good)
