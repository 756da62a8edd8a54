"""The page installs as an app: a valid web app manifest whose icons are reachable, and a
service worker that activates, controls the page, caches its static files and never the
game's state (/api, /ws). In a real headless Chromium."""

from __future__ import annotations

import io
from typing import Any

import httpx
from PIL import Image

from unoarena.testing.web_server import LiveServer


def test_the_manifest_is_valid_and_its_icons_are_reachable(browser: Any,
                                                           page_server: LiveServer) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    page.goto(page_server.url + "/")
    href = page.get_attribute("link[rel=manifest]", "href")
    assert href, "the page names no manifest"
    r = httpx.get(page_server.url + href, timeout=10)
    assert r.status_code == 200
    m = r.json()
    assert m["name"] == "unoarena" and m["short_name"]
    assert m["display"] in ("standalone", "fullscreen", "minimal-ui")
    start = httpx.get(page_server.url + m["start_url"], timeout=10)
    assert start.status_code == 200 and 'rel="manifest"' in start.text
    assert m["start_url"].startswith(m.get("scope", "/"))
    sizes = set()
    for icon in m["icons"]:
        got = httpx.get(page_server.url + icon["src"], timeout=10)
        assert got.status_code == 200, icon["src"]
        assert got.headers["content-type"].startswith(icon["type"]), icon
        if icon["type"] == "image/png":  # the size it claims is the size it is
            w, h = Image.open(io.BytesIO(got.content)).size
            assert icon["sizes"] == f"{w}x{h}", icon
            sizes.add(w)
    assert {192, 512} <= sizes  # what browsers require to offer the install
    ctx.close()


def test_the_service_worker_activates_and_caches_only_static_files(
        browser: Any, page_server: LiveServer) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(page_server.url + "/")
    state = page.evaluate("""async () => {
        const reg = await navigator.serviceWorker.ready;
        const sw = reg.active;
        if (sw.state !== "activated")
          await new Promise((ok) => sw.addEventListener("statechange", () => {
            if (sw.state === "activated") ok(); }));
        return [sw.state, reg.scope];
    }""")
    assert state == ["activated", page_server.url + "/"]
    page.reload()  # now the worker controls the page, and the page uses the game's API
    assert page.evaluate("!!navigator.serviceWorker.controller")
    page.wait_for_selector("#app :not(.loading)")
    assert page.evaluate("fetch('/api/meta').then((r) => r.ok)")
    cached = page.evaluate("""async () => {
        const urls = [];
        for (const name of await caches.keys()) {
          const c = await caches.open(name);
          for (const req of await c.keys()) urls.push(new URL(req.url).pathname);
        }
        return urls;
    }""")
    assert "/static/style.css" in cached and "/static/js/app.js" in cached
    assert "/static/js/i18n.js" in cached  # a module the page loaded, cached as it came
    assert not [u for u in cached if u.startswith(("/api", "/ws", "/healthz"))], cached
    assert not errors, errors
    # without a network the installed page still opens (the game itself needs the server)
    ctx.set_offline(True)
    page.reload()
    page.wait_for_selector(".topbar .brand")
    assert page.title() == "unoarena"
    ctx.set_offline(False)
    ctx.close()
