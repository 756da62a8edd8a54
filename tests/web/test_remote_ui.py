"""The host's remote bot seat in the browser: make one, see its token once with the command
that plays it, watch the program connect, revoke the token; in three languages, at phone,
laptop and desktop sizes."""

from __future__ import annotations

import time
from typing import Any

import pytest
from browser_util import DESKTOP, LAPTOP, PHONE, host_page, log_lines, make_room, try_turn

from unoarena.testing.web_server import Client, LiveServer, wait_for

pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")

WORDS = {  # the button, the dialog's title and the revoke button, as a reader sees them
    "en": ("Remote bot", "Remote bot seat: Remote bot 2", "Revoke token"),
    "zh_TW": ("遠端機器人", "遠端機器人座位：遠端機器人 2", "撤銷權杖"),
    "zh_CN": ("远程机器人", "远程机器人座位：远程机器人 2", "撤销令牌"),
}
SIZES = {"phone": PHONE, "laptop": LAPTOP, "desktop": DESKTOP}


@pytest.mark.parametrize("lang", list(WORDS))
def test_the_host_makes_a_remote_seat_and_revokes_it(browser: Any, page_server: LiveServer,
                                                     screenshots: Any, lang: str) -> None:
    make, title, revoke = WORDS[lang]
    errors: list[str] = []
    room = make_room(page_server, [{"kind": "bot", "bot": "heuristic"}, {"kind": "human"}])
    for size, viewport in SIZES.items():
        page = host_page(browser, page_server, room, errors, lang=lang, viewport=viewport)
        page.wait_for_selector('#lobby-players li[data-player="1"]')
        if size == "phone":  # the seat is made remote once; later sizes see it as it is
            assert page.locator('li[data-player="1"] .make-remote').inner_text() == make
            page.click('li[data-player="1"] .make-remote')
            dialog = page.locator(".overlay .dialog")
            dialog.wait_for()
            assert title in dialog.inner_text()
            fields = page.locator(".overlay .bot-token .link-field")
            token = fields.nth(0).input_value()
            command = fields.nth(1).input_value()
            assert f"--token {token}" in command and f"/r/{room['room']}" in command
            page.screenshot(path=str(screenshots / f"remote-token-{size}-{lang}.png"))
            page.keyboard.press("Escape")
            program = Client(page_server.url, room["room"], token)
            assert program.wait("welcome")["player"] == 1
            # the seat now shows a connected remote bot with its stand-in, and its tools
            page.wait_for_selector('li[data-player="1"].remote .dot.on')
        row = page.locator('li[data-player="1"]')
        assert "heuristic" in row.inner_text()
        assert row.locator(".revoke").inner_text() == revoke
        page.screenshot(path=str(screenshots / f"remote-lobby-{size}-{lang}.png"),
                        full_page=True)
        if size != "desktop":
            page.context.close()
    page.click('li[data-player="1"] .revoke')
    assert "revoked" in program.wait("removed")["message"] or lang != "en"
    page.wait_for_selector('li[data-player="1"].open')
    wait_for(lambda: page_server.manager.get(room["room"]).players[1].token_hash is None, 5,
             "the revoked token is still kept")
    assert not errors, errors
    page.context.close()
    program.close()


ABSENT = {"en": "Remote bot 2 is not connected; basic played for it.",
          "zh_TW": "遠端機器人 2 未連線，由 basic 代打。",
          "zh_CN": "远程机器人 2 未连接，由 basic 代打。"}


@pytest.mark.parametrize("lang", list(ABSENT))
def test_the_table_says_when_a_stand_in_played_for_a_program(
        browser: Any, page_server: LiveServer, screenshots: Any, lang: str) -> None:
    errors: list[str] = []
    room = make_room(page_server, [{"kind": "bot"}], rounds=1)
    host = Client(page_server.url, room["room"], room["token"])
    host.wait("welcome")  # the seat made remote over the protocol; its program never comes
    host.send({"type": "seat", "token": room["token"], "player": 1, "kind": "remote",
               "bot": "basic"})
    host.wait("bot_token")
    page = host_page(browser, page_server, room, errors, lang=lang, viewport=LAPTOP)
    page.click("#start-game")
    deadline = time.monotonic() + 60
    while not any(ABSENT[lang] in line for line in log_lines(page)):
        assert time.monotonic() < deadline, log_lines(page)
        if not try_turn(page):
            page.wait_for_timeout(50)
    page.screenshot(path=str(screenshots / f"remote-table-laptop-{lang}.png"))
    assert not errors, errors
    page.context.close()
    host.close()
