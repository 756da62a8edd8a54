"""Talk at a table in a real Chromium: chat between two pages (markup and script shown as text,
never run), a mute, the spectators' own chat hidden from the players, a reaction by a seat, the
host and then a vote handing an absent player's seat to a bot, and the hand a Wild Draw Four
challenge shows its challenger as cards."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browser_util import DESKTOP, LAPTOP, PHONE, host_page, make_room, open_page

from unoarena.testing.web_server import Client, LiveServer, join, pick

sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")

BOT = {"kind": "bot"}
OPEN = {"kind": "human"}
EVIL = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script><b>bold</b>'


def seat_page(browser: Any, live: LiveServer, room: dict[str, Any], name: str,
              errors: list[str], **kw: Any) -> Any:
    """A page of a person who joined ``room`` as ``name``."""
    seat = join(live, room["room"], name)
    return open_page(browser, live.url + room["url"], errors,
                     seat=(room["room"], seat["player"], seat["token"]), **kw)


def say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def chat_texts(page: Any) -> list[str]:
    return [str(x) for x in page.eval_on_selector_all(
        "#chat-lines .chat-line .text", "els => els.map(e => e.textContent)")]


def close(*pages: Any) -> None:
    for p in pages:
        p.context.close()


def test_chat_between_two_pages_a_mute_spectators_and_reactions(
        browser: Any, make_live: Callable[..., LiveServer]) -> None:
    live = make_live(bot_delay=0.5)
    errors: list[str] = []
    room = make_room(live, [OPEN, BOT], rounds=20)
    ann = host_page(browser, live, room, errors)
    bob = seat_page(browser, live, room, "Bob", errors)
    eve = open_page(browser, live.url + room["url"], errors)  # watching
    for p in (ann, bob, eve):
        p.wait_for_selector("#chat-input")
    # markup and script arrive as the characters typed, and nothing runs
    say(ann, EVIL)
    for p in (bob, eve):
        p.wait_for_selector(f"#chat-lines .chat-line:has-text('{EVIL[:20]}')")
        assert chat_texts(p) == [EVIL]
        assert p.locator("#chat-lines img, #chat-lines script, #chat-lines b").count() == 0
    say(bob, "hello Ann")
    ann.wait_for_selector("#chat-lines .chat-line:has-text('hello Ann')")
    assert ann.locator(".chat-line:has-text('hello Ann') .who").inner_text() == "Bob"
    # the host mutes Bob: his box is gone, he is told so, and the host can lift it
    ann.click(".mute-tools .mute[data-player='1']")
    bob.wait_for_selector("#muted-note")
    assert bob.locator("#chat-input").count() == 0
    ann.wait_for_selector(".mute-tools .mute.on[data-player='1']")
    ann.click("#start-game")
    for p in (ann, bob, eve):
        p.wait_for_selector("#chat-lines")
        p.wait_for_selector("#table-main")
    assert bob.locator("#reactions").count() == 0  # a muted player does not react either
    # a spectator's line stays among the spectators while the match is in play
    say(eve, "Bob has two wilds")
    eve.wait_for_selector(".chat-line.spectators:has-text('Bob has two wilds')")
    assert "Spectator 1" in eve.locator(".chat-line.spectators .who").inner_text()
    say(ann, "good luck")
    bob.wait_for_selector(".chat-line:has-text('good luck')")
    eve.wait_for_selector(".chat-line:has-text('good luck')")
    assert "Bob has two wilds" not in chat_texts(ann) + chat_texts(bob)
    # a reaction shows by the sender's seat on the others' pages
    ann.click("#reactions [data-emote='laugh']")
    bob.wait_for_selector(".seat-box[data-seat='0'] .reaction-bubble[data-emote='laugh']")
    eve.wait_for_selector(".seat-box[data-seat='0'] .reaction-bubble[data-emote='laugh']")
    ann.wait_for_selector("#my-area .reaction-bubble[data-emote='laugh']")
    # in the game, the host hands Bob's seat to a bot; Bob watches from then on
    ann.click(".room-panel summary")
    ann.click("#host-bot-tools .to-bot[data-player='1']")
    ann.click(".overlay .dialog .option")
    bob.wait_for_selector("#spectator-banner")
    ann.wait_for_selector(".seat-box[data-seat='1'] .avatar.bot")
    assert not [e for e in errors if "__xss" in e], errors
    for p in (ann, bob, eve):
        assert p.evaluate("window.__xss") is None
    assert not errors, errors
    close(ann, bob, eve)


def test_the_host_mutes_a_spectator_who_stays_muted_after_a_reload(
        browser: Any, make_live: Callable[..., LiveServer]) -> None:
    live = make_live()
    errors: list[str] = []
    room = make_room(live, [OPEN, BOT])
    ann = host_page(browser, live, room, errors, lang="zh_TW")
    eve = open_page(browser, live.url + room["url"], errors, viewport=PHONE)  # watching
    zed = open_page(browser, live.url + room["url"], errors)  # watching too
    say(eve, "buy cheap cards at example.com")
    ann.wait_for_selector(".chat-line.spectators:has-text('buy cheap cards')")
    say(zed, "hi all")
    ann.wait_for_selector(".chat-line.spectators:has-text('hi all')")
    assert ann.locator(".mute-tools .mute[data-watcher]").count() == 2
    sync_api.expect(ann.locator(".mute-tools .mute[data-watcher='1']")).to_have_text(
        "禁言 觀眾 1")
    assert eve.locator(".chat-line.mine").inner_text().endswith("buy cheap cards at example.com")
    ann.click(".mute-tools .mute[data-watcher='1']")
    eve.wait_for_selector("#muted-note")
    assert eve.locator("#chat-input").count() == 0
    ann.wait_for_selector(".mute-tools .mute.on[data-watcher='1'][aria-pressed='true']")
    eve.reload()  # the page keeps its key: still Spectator 1, still muted
    eve.wait_for_selector("#muted-note")
    say(zed, "still here")  # the other spectator is not muted
    ann.wait_for_selector(".chat-line:has-text('still here')")
    ann.click(".mute-tools .mute[data-watcher='1']")
    eve.wait_for_selector("#chat-input")
    say(eve, "sorry")
    ann.wait_for_selector(".chat-line:has-text('sorry')")
    assert ann.locator(".chat-line:has-text('sorry') .who").inner_text() == "觀眾 1"
    assert not errors, errors
    close(ann, eve, zed)


def test_with_the_host_gone_the_players_vote_a_bot_into_an_absent_seat(
        browser: Any, make_live: Callable[..., LiveServer]) -> None:
    live = make_live(bot_delay=0.05, away_after=0.5, idle_after=0.4)
    errors: list[str] = []
    room = make_room(live, [OPEN, OPEN, OPEN], rounds=50)
    host = Client(live.url, room["room"], room["token"])
    host.wait("welcome")
    bob = seat_page(browser, live, room, "Bob", errors)
    cy = seat_page(browser, live, room, "Cy", errors)
    join(live, room["room"], "Dan")  # joins, and never comes
    for p in (bob, cy):
        p.wait_for_selector("#lobby-players")
    host.send({"type": "start", "token": host.token})
    host.wait("state")
    host.close()  # the host leaves; stand-ins play the idle and the absent
    bob.wait_for_selector("#absent-tools .vote-row[data-player='3']", timeout=20000)
    assert bob.locator("#absent-tools .vote-row[data-player='0']").count() == 1  # the host too
    bob.click("#absent-tools .vote-row[data-player='3'] button")
    cy.wait_for_selector("#absent-tools .vote-row[data-player='3'] .tally:has-text('1 of 2')")
    assert bob.locator("#absent-tools .vote-row[data-player='3'] button").is_disabled()
    cy.click("#absent-tools .vote-row[data-player='3'] button")
    for p in (bob, cy):
        p.wait_for_selector(".seat-box[data-seat='3'] .avatar.bot")
        p.wait_for_selector("#absent-tools .vote-row[data-player='3']", state="detached")
    assert live.manager.get(room["room"]).players[3].kind == "bot"
    assert not errors, errors
    close(bob, cy)


def test_the_challenger_sees_the_challenged_hand_as_cards(
        browser: Any, make_live: Callable[..., LiveServer], screenshots: Path) -> None:
    live = make_live(bot_delay=0.05)
    errors: list[str] = []
    room = make_room(live, [OPEN], rounds=200, w4_rule="restricted")
    seat = join(live, room["room"], "Bob")
    ann = Client(live.url, room["room"], room["token"])
    bob_ws = Client(live.url, room["room"], seat["token"])  # plays Bob's other turns
    page = open_page(browser, live.url + room["url"], errors,
                     seat=(room["room"], seat["player"], seat["token"]))
    for c in (ann, bob_ws):
        c.wait("welcome")
    page.wait_for_selector("#lobby-players")
    ann.send({"type": "start", "token": ann.token})
    rng = random.Random(5)
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, "no Wild Draw Four came to challenge"
        for c in (ann, bob_ws):
            c.drain(0.005)
        st = bob_ws.state
        if st and st["status"] == "playing" and "challenge" in st["view"]["legal"]:
            break
        for c in (ann, bob_ws):
            s = c.state
            if not s or s["status"] != "playing" or s["view"]["round_over"]:
                continue
            v = s["view"]
            if v["turn"] == s["you"] and v["legal"]:
                fours = [a for a in v["legal"] if a.startswith("play W4")]
                c.act(fours[0] if fours and c is ann else pick(v["legal"], rng), seq=s["seq"])
                c.wait(lambda m: m["type"] in ("state", "error"))
    page.click("#action-bar [data-action='challenge']")
    msg = bob_ws.wait(lambda m: m["type"] == "state"
                      and any(e["t"] == "hand_shown" for e in m["events"]))
    shown = next(e for e in msg["events"] if e["t"] == "hand_shown")
    page.wait_for_selector("#shown-hand .card")
    cards = page.eval_on_selector_all("#shown-hand .card", "els => els.map(e => e.dataset.card)")
    assert cards == shown["cards"] and cards
    assert "Ann" in page.locator("#shown-hand h2").inner_text()
    page.screenshot(path=str(screenshots / "challenged-hand-1366x768-en.png"))
    # only the challenger saw it: the challenged player's own messages hold no such event
    ann.drain(0.2)
    assert not any(e.get("t") == "hand_shown" for m in ann.messages if m["type"] == "state"
                   for e in m["events"])
    page.click("#shown-hand .close")
    page.wait_for_selector("#shown-hand", state="detached")
    assert not errors, errors
    close(page)


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP, DESKTOP], ids=["phone", "laptop", "desktop"])
def test_chat_and_reactions_at_every_size_and_language(
        browser: Any, viewport: dict[str, int], make_live: Callable[..., LiveServer],
        screenshots: Path) -> None:
    live = make_live(bot_delay=30)  # the table holds still for the pictures
    errors: list[str] = []
    room = make_room(live, [OPEN, BOT, BOT], rounds=5)
    ann = host_page(browser, live, room, errors, viewport=viewport)
    bob = seat_page(browser, live, room, "Bob", errors, viewport=viewport)
    eve = open_page(browser, live.url + room["url"], errors, viewport=viewport)
    ann.wait_for_selector("#chat-input")
    bob.wait_for_selector("#chat-input")
    size = f"{viewport['width']}x{viewport['height']}"
    say(ann, "Welcome! 歡迎 欢迎")
    bob.wait_for_selector(".chat-line:has-text('Welcome')")
    ann.screenshot(path=str(screenshots / f"chat-lobby-{size}-en.png"), full_page=True)
    ann.click("#start-game")
    for p in (ann, bob, eve):
        p.wait_for_selector("#table-main")
    say(bob, "<b>not bold</b> 😀")
    say(eve, "watching from the stands")
    ann.wait_for_selector(".chat-line:has-text('not bold')")
    # on a phone the chat lies below the table: the new line shows on the table a moment
    peek = ann.locator("#chat-peek")
    assert peek.is_visible() == (viewport is PHONE)
    if viewport is PHONE:
        assert "<b>not bold</b>" in peek.inner_text()
        ann.screenshot(path=str(screenshots / f"chat-peek-{size}-en.png"))
    for lang in ("en", "zh_TW", "zh_CN"):
        for p in (ann, eve):
            if lang != "en":
                p.select_option("#lang-select", lang)
        bob.click("#reactions [data-emote='thumbs']")
        ann.wait_for_selector(".seat-box .reaction-bubble[data-emote='thumbs']")
        ann.wait_for_timeout(400)
        ann.evaluate("window.scrollTo(0, 0)")
        ann.screenshot(path=str(screenshots / f"chat-table-{size}-{lang}.png"))
        ann.locator("#chat").scroll_into_view_if_needed()
        ann.screenshot(path=str(screenshots / f"chat-panel-{size}-{lang}.png"))
        eve.locator("#chat").scroll_into_view_if_needed()
        eve.screenshot(path=str(screenshots / f"chat-spectator-{size}-{lang}.png"))
        bob.wait_for_timeout(2100)  # reactions are paced
    box = ann.locator("#chat").bounding_box()
    assert box is not None and box["width"] <= viewport["width"]
    assert ann.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    assert not errors, errors
    close(ann, bob, eve)


def test_a_reaction_moves_unless_motion_is_reduced_and_a_refused_line_stays(
        browser: Any, make_live: Callable[..., LiveServer]) -> None:
    live = make_live(bot_delay=30)
    errors: list[str] = []
    room = make_room(live, [OPEN, BOT])
    ann = host_page(browser, live, room, errors)
    bob = seat_page(browser, live, room, "Bob", errors, reduced_motion=True)
    ann.wait_for_selector("#start-game")
    bob.wait_for_selector("#lobby-players li.human[data-player='1']")
    # the box empties once a line is the room's; a line refused for pace stays, to send again
    for i in range(5):
        say(bob, f"line {i}")
        bob.wait_for_selector(f".chat-line:has-text('line {i}')")
        bob.wait_for_function("document.querySelector('#chat-input').value === ''")
    say(bob, "one too many")
    bob.wait_for_selector(".toast.error:has-text('too fast')")
    assert bob.input_value("#chat-input") == "one too many"
    ann.click("#start-game")
    for p in (ann, bob):
        p.wait_for_selector("#reactions")
    ann.click("#reactions [data-emote='wow']")
    bubble = ".seat-box[data-seat='0'] .reaction-bubble[data-emote='wow']"
    bob.wait_for_selector(bubble)
    assert bob.eval_on_selector(bubble, "e => getComputedStyle(e).animationName") == "none"
    bob.click("#reactions [data-emote='gg']")
    mine = ".seat-box[data-seat='1'] .reaction-bubble[data-emote='gg']"
    ann.wait_for_selector(mine)
    assert ann.eval_on_selector(mine, "e => getComputedStyle(e).animationName") == "react-pop"
    assert not errors, errors
    close(ann, bob)
