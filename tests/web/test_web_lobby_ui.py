"""Finding a game in a real Chromium: a public room made on the new-game page shows up live in
another person's lobby and is joined from there; quick play opens a table that bots fill; a
later arrival takes a bot's seat between rounds; on a phone the table opens at its top, the
chip of the seat to play is scrolled into view at ten players, and a move sent as the socket
drops is played once after the reconnect. Screenshots of the lobby and quick play at three
sizes in three languages."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browser_util import DESKTOP, LAPTOP, PHONE, host_page, make_room, open_page, try_turn
from server_util import Client, LiveServer, play, wait_for

pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")

BOT = {"kind": "bot"}


def fast(solo: Callable[..., LiveServer], **kw: Any) -> LiveServer:
    kw.setdefault("bot_delay", 0.05)
    kw.setdefault("window_delay", 0.05)
    return solo(**kw)


def close(*pages: Any) -> None:
    for p in pages:
        p.context.close()


def test_a_public_room_is_found_in_the_lobby_and_joined(
        browser: Any, solo: Callable[..., LiveServer]) -> None:
    live = fast(solo)
    errors: list[str] = []
    bob = open_page(browser, live.url + "/lobby", errors)
    bob.wait_for_selector("#no-rooms")
    ann = open_page(browser, live.url + "/", errors)
    ann.fill("#name", "Ann")
    ann.fill("#players", "3")
    ann.locator("#players").dispatch_event("change")
    for seat in ("1", "2"):  # two seats for friends
        ann.select_option(f'select[data-seat="{seat}"]', "human")
    ann.locator("#public-room").check()
    ann.click("#create-room")
    ann.wait_for_selector("#room-visibility .badge.you")
    room_id = ann.url.rsplit("/", 1)[1]
    # Bob's lobby shows it without a reload, with its seats and its host
    card = bob.locator(f'.lobby-room[data-room="{room_id}"]')
    card.wait_for()
    assert "Ann" in card.locator(".lobby-people").inner_text()
    assert "2 seats open" in card.locator(".seats-open").inner_text()
    bob.fill("#quick-name", "Bob")
    card.locator(".join-room").click()
    bob.wait_for_url(f"**/r/{room_id}")
    bob.wait_for_selector('#lobby-players .player.human[data-player="1"]')
    # Ann's page sees Bob seated; a third person's lobby shows one seat open now
    ann.wait_for_selector('#lobby-players .player.human[data-player="1"] .dot.on')
    cy = open_page(browser, live.url + "/lobby", errors)
    cy_card = cy.locator(f'.lobby-room[data-room="{room_id}"]')
    cy_card.wait_for()
    assert "1 seat open" in cy_card.locator(".seats-open").inner_text()
    assert cy_card.locator(".lobby-people").inner_text().startswith("Ann, Bob")
    # Ann's private rooms never show: a room made without the box is not listed
    assert cy.locator(".lobby-room").count() == 1
    # only the rooms of one rule set
    cy.select_option("#lobby-filter", "house")
    cy.wait_for_selector("#no-rooms")
    assert cy.locator(".lobby-room").count() == 0
    cy.select_option("#lobby-filter", "classic")
    cy_card.wait_for()
    assert not errors, errors
    close(ann, bob, cy)


def test_quick_play_fills_the_table_with_bots_of_the_chosen_level(
        browser: Any, solo: Callable[..., LiveServer]) -> None:
    live = fast(solo, quick_wait=2.0)
    errors: list[str] = []
    page = open_page(browser, live.url + "/lobby", errors)
    page.fill("#quick-name", "Ann")
    page.select_option("#quick-preset", "house")
    page.select_option("#quick-level", "medium")
    page.click("#quick-play")
    page.wait_for_url("**/r/*")
    banner = page.locator("#quick-banner")
    banner.wait_for()
    assert "bots take the empty seats" in banner.inner_text()
    # nobody comes: the table opens with three Medium bots and Ann's hand
    page.wait_for_selector("#hand .card", timeout=15000)
    assert page.locator("#opponents .seat-box").count() == 3
    room = live.manager.rooms[page.url.rsplit("/", 1)[1]]
    assert [p.bot for p in room.players if p.kind == "bot"] == ["heuristic"] * 3
    assert room.rules.preset == "house" and room.public
    assert not errors, errors
    close(page)


def test_a_later_arrival_replaces_a_bot_between_rounds(
        browser: Any, solo: Callable[..., LiveServer]) -> None:
    live = fast(solo, quick_wait=0.3, bot_delay=0.01, window_delay=0.01)
    r = live.http.post("/api/quick", json={"name": "Ann", "preset": "classic", "level": "easy"})
    ann_seat = r.json()
    ann = Client(live.url, ann_seat["room"], ann_seat["token"])
    ann.wait(lambda m: m["type"] == "state")
    errors: list[str] = []
    bob = open_page(browser, live.url + "/lobby", errors)
    card = bob.locator(f'.lobby-room[data-room="{ann_seat["room"]}"]')
    card.wait_for()
    bob.fill("#quick-name", "Bob")
    card.locator(".join-room").click()  # "Join next round": the table is in play
    bob.wait_for_selector("#waiting-banner")
    assert bob.locator("#hand .card").count() == 0
    # Ann plays on (over her own socket) until the next round is dealt
    stop = threading.Event()
    done: list[int] = []

    def ann_plays() -> None:
        done.append(play([ann], random.Random(7), until=lambda cs: stop.is_set()
                         or bool(cs[0].state and cs[0].state["round"] >= 1), timeout=90))

    worker = threading.Thread(target=ann_plays, daemon=True)
    worker.start()
    try:
        bob.wait_for_selector("#hand .card", timeout=90000)
    finally:
        stop.set()
        worker.join(10)
    assert bob.locator("#waiting-banner").count() == 0
    room = live.manager.rooms[ann_seat["room"]]
    bob_player = next(p for p in room.players if p.name == "Bob")
    assert bob_player.kind == "human" and room.match is not None
    assert room.match.rounds_played >= 1
    assert not errors, errors
    ann.close()
    close(bob)


def test_on_a_phone_the_table_opens_at_its_top(browser: Any,
                                               solo: Callable[..., LiveServer]) -> None:
    live = fast(solo)
    room = make_room(live, [BOT, BOT, BOT])
    errors: list[str] = []
    page = host_page(browser, live, room, errors, viewport=PHONE)
    page.wait_for_selector("#start-game")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert page.evaluate("window.scrollY") > 100  # the room's lobby is longer than a phone
    page.click("#start-game")
    page.wait_for_selector("#opponents .seat-box")
    page.wait_for_timeout(100)
    assert page.evaluate("window.scrollY") == 0
    assert page.locator("#discard").bounding_box()["y"] < PHONE["height"]
    assert not errors, errors
    close(page)


def test_with_ten_players_the_turn_chip_is_scrolled_into_view(
        browser: Any, solo: Callable[..., LiveServer]) -> None:
    live = fast(solo, bot_delay=0.4)
    room = make_room(live, [BOT] * 9, players=10)
    errors: list[str] = []
    page = host_page(browser, live, room, errors, viewport=PHONE, reduced_motion=True)
    page.click("#start-game")
    page.wait_for_selector("#opponents .seat-box")
    assert page.evaluate("(() => { const r = document.querySelector('#opponents');"
                         " return r.scrollWidth > r.clientWidth; })()"), "the row overflows"
    seen: set[int] = set()
    deadline = time.monotonic() + 40
    while len(seen) < 6 and time.monotonic() < deadline:
        try_turn(page)
        chip = page.locator("#opponents .seat-box.turn")
        if chip.count():
            seat = int(chip.first.get_attribute("data-seat") or -1)
            page.wait_for_timeout(60)
            inside = page.evaluate("""(() => {
              const row = document.querySelector('#opponents').getBoundingClientRect();
              const c = document.querySelector('#opponents .seat-box.turn');
              if (!c) return null;
              const b = c.getBoundingClientRect();
              return b.left >= row.left - 1 && b.right <= row.right + 1; })()""")
            if inside is not None:
                assert inside, f"the chip of seat {seat} to play is out of view"
                seen.add(seat)
        page.wait_for_timeout(50)
    assert len(seen) >= 6, seen  # far seats were scrolled to, not only the first few
    assert max(seen) >= 6
    assert not errors, errors
    close(page)


DROP_AFTER_SEND = """(() => {
  const send = WebSocket.prototype.send;
  window.__moves = 0;
  WebSocket.prototype.send = function (data) {
    const msg = JSON.parse(data);
    if (msg.type === 'act' && !window.__dropped) {
      window.__dropped = true;
      if (window.__mode === 'sent') send.call(this, data);  // it left, the answer is lost
      this.close();
      return;
    }
    if (msg.type === 'act') window.__moves += 1;
    return send.call(this, data);
  };
})()"""


@pytest.mark.parametrize("mode", ["sent", "lost"])
def test_a_move_made_as_the_socket_drops_is_played_once(
        browser: Any, solo: Callable[..., LiveServer], mode: str) -> None:
    live = fast(solo, bot_delay=0.3)
    room = make_room(live, [BOT])
    errors: list[str] = []
    page = host_page(browser, live, room, errors, viewport=PHONE)
    page.click("#start-game")
    page.wait_for_selector("#my-area.turn", timeout=20000)
    page.evaluate(f"window.__mode = '{mode}'")
    page.evaluate(DROP_AFTER_SEND)
    rid = room["room"]
    seq = live.manager.rooms[rid].seq
    playable = page.locator("#hand .card.playable")
    if playable.count():
        playable.first.click(position={"x": 8, "y": 40})
        if page.locator(".overlay .dialog .option").count():
            page.locator(".overlay .dialog .option").first.click()
    else:
        page.click("#draw-pile")
    # the page reconnects and, unanswered, sends the move again: the server plays it once
    wait_for(lambda: live.manager.rooms[rid].seq > seq, 15, "the move after the reconnect")
    page.wait_for_selector("#conn-banner", state="hidden")
    page.wait_for_timeout(300)
    rows = [r for r in live.manager.store.match_actions(rid, 1) if r.seq > seq]
    people = [r.seq for r in rows if r.source == "human"]
    assert people and people == list(range(seq + 1, seq + 1 + len(people)))
    assert page.evaluate("window.__moves") == 1  # sent again exactly once
    assert not errors, errors
    close(page)


def test_lobby_and_quick_play_screenshots(browser: Any, solo: Callable[..., LiveServer],
                                          screenshots: Path) -> None:
    live = fast(solo, quick_wait=600)
    for preset, rules, seats in (("classic", {}, [BOT, {"kind": "human"}]),
                                 ("house", {"stacking": "draw2", "seven_zero": True},
                                  [{"kind": "human"}] * 3),
                                 ("attack", {"players": 6}, [BOT] * 3 + [{"kind": "human"}] * 2)):
        rules = dict(rules)
        rules.setdefault("players", len(seats) + 1)
        r = live.http.post("/api/rooms", json={"name": "Mei", "preset": preset, "rules": rules,
                                               "public": True,
                                               "seats": [{"kind": "human"}, *seats]})
        assert r.status_code == 200, r.text
        live.http.post(f"/api/rooms/{r.json()['room']}/join", json={"name": "Ravi"})
    quick = live.http.post("/api/quick", json={"name": "Lin", "preset": "buzz",
                                               "level": "hard"}).json()
    # a quick-play table in play, and a person waiting there for a bot's seat
    playing = live.http.post("/api/quick", json={"name": "Kai", "preset": "frozen2",
                                                 "level": "medium"}).json()
    host = Client(live.url, playing["room"], playing["token"])
    host.wait("welcome")
    host.send({"type": "start", "token": playing["token"]})
    host.wait(lambda m: m["type"] == "state")
    later = live.http.post("/api/quick", json={"name": "Ann", "preset": "frozen2",
                                               "level": "easy"}).json()
    assert later["waiting"]
    errors: list[str] = []
    for lang in ("en", "zh_TW", "zh_CN"):
        for size, vp in (("phone", PHONE), ("laptop", LAPTOP), ("desktop", DESKTOP)):
            page = open_page(browser, live.url + "/lobby", errors, viewport=vp, lang=lang)
            page.wait_for_selector("#lobby-rooms .lobby-room")
            page.fill("#quick-name", "Ann")
            page.screenshot(path=str(screenshots / f"lobby-{size}-{lang}.png"), full_page=True)
            waiting = open_page(browser, live.url + quick["url"], errors, viewport=vp, lang=lang,
                                seat=(quick["room"], quick["player"], quick["token"]))
            waiting.wait_for_selector("#quick-banner")
            waiting.screenshot(path=str(screenshots / f"quick-{size}-{lang}.png"))
            next_round = open_page(browser, live.url + later["url"], errors, viewport=vp,
                                   lang=lang, seat=(later["room"], later["player"],
                                                    later["token"]))
            next_round.wait_for_selector("#waiting-banner")
            next_round.screenshot(path=str(screenshots / f"quick-next-round-{size}-{lang}.png"))
            close(page, waiting, next_round)
    host.close()
    assert not errors, errors
