"""Helpers of the browser tests: pages seated in a room, a person's turn, what is on screen."""

from __future__ import annotations

import json
from typing import Any

from unoarena.testing.web_server import LiveServer

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
DESKTOP = {"width": 1920, "height": 1080}


def make_room(live: LiveServer, seats: list[dict[str, Any]], name: str = "Ann",
              preset: str = "classic", **rules: Any) -> dict[str, Any]:
    """A room created over the API: Ann hosts in seat 0, ``seats`` are the others."""
    rules.setdefault("players", len(seats) + 1)
    body = {"name": name, "preset": preset, "rules": rules,
            "seats": [{"kind": "human"}, *seats]}
    r = live.http.post("/api/rooms", json=body)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def open_page(browser: Any, url: str, errors: list[str], *, viewport: dict[str, int] | None = None,
              lang: str = "en", seat: tuple[str, int, str] | None = None,
              reduced_motion: bool = False, clipboard: bool = False) -> Any:
    """A new browser context (a device) showing ``url``; ``seat`` = (room, player, token) is the
    seat this device already holds; page errors are collected into ``errors``."""
    ctx = browser.new_context(viewport=viewport or LAPTOP,
                              reduced_motion="reduce" if reduced_motion else "no-preference")
    if clipboard:
        ctx.grant_permissions(["clipboard-read", "clipboard-write"])
    script = f"localStorage.setItem('unoarena.lang', {json.dumps(lang)});"
    if seat is not None:
        room, player, token = seat
        value = json.dumps({"player": player, "token": token})
        key = json.dumps(f"unoarena.seat.{room}")
        script += f"localStorage.setItem({key}, {json.dumps(value)});"
    ctx.add_init_script(script)
    page = ctx.new_page()
    page.set_default_timeout(15000)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    return page


def host_page(browser: Any, live: LiveServer, room: dict[str, Any], errors: list[str],
              **kw: Any) -> Any:
    return open_page(browser, live.url + room["url"], errors,
                     seat=(room["room"], room["player"], room["token"]), **kw)


def take_turn(page: Any) -> bool:
    """Do one sensible thing if it is this page's turn; True when something was clicked."""
    if page.locator(".overlay .dialog .option").count():
        page.locator(".overlay .dialog .option").first.click(timeout=3000)
        return True
    if not page.locator("#my-area.turn").count():
        return False
    color = page.locator('#action-bar [data-action^="color"]')
    if color.count():
        color.first.click(timeout=3000)
        return True
    if page.locator("#uno-toggle:not(.armed)").count():
        page.locator("#uno-toggle").click(timeout=3000)
    playable = page.locator("#hand .card.playable")
    if playable.count():
        # a long hand overlaps its cards: a person clicks the strip of the card that shows
        playable.first.click(position={"x": 8, "y": 40}, timeout=3000)
        page.wait_for_timeout(50)
        if page.locator(".overlay .dialog .option").count():
            page.locator(".overlay .dialog .option").first.click(timeout=3000)
        return True
    act = page.locator("#action-bar [data-action]:not(.catch)")
    if act.count():
        act.first.click(timeout=3000)
        return True
    return False


def try_turn(page: Any) -> bool:
    """``take_turn``, where the table moving under the click only means: look again."""
    try:
        return take_turn(page)
    except Exception:
        page.wait_for_timeout(50)
        return False


def box(page: Any, selector: str) -> dict[str, float]:
    """The bounding box of the first match, in viewport coordinates."""
    b = page.locator(selector).first.bounding_box()
    assert b is not None, f"{selector} is not on the page"
    return {"left": b["x"], "top": b["y"], "right": b["x"] + b["width"],
            "bottom": b["y"] + b["height"]}


def inside_viewport(page: Any, selector: str) -> bool:
    vp = page.viewport_size
    b = box(page, selector)
    return (b["left"] >= -0.5 and b["top"] >= -0.5 and b["right"] <= vp["width"] + 0.5
            and b["bottom"] <= vp["height"] + 0.5)


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (a["right"] <= b["left"] or b["right"] <= a["left"]
                or a["bottom"] <= b["top"] or b["bottom"] <= a["top"])


def log_lines(page: Any) -> list[str]:
    return [str(x) for x in page.eval_on_selector_all("#log li", "els => els.map(e => "
                                                      "e.textContent)")]
