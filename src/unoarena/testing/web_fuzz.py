"""Malformed requests and messages for a live server: the web extra's fuzz targets.

:func:`http_case` sends one damaged request to an HTTP route and :func:`ws_case` one damaged
WebSocket message, each to a :class:`FuzzServer`; both assert the server's contract: a 4xx
(never a 5xx), an ``error`` reply, a refused message that changes nothing, a server that stays
up. ``tests/web/test_fuzz_web.py`` runs a small sample in CI and ``scripts/fuzz.py`` the long
run (:func:`web_targets`). The web extra is imported only when a server starts, so this module
imports without it.
"""

from __future__ import annotations

import copy
import json
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from hypothesis import strategies as st

from .fuzz import BIG_INTS, WORDS, WebTargets, count, json_values, mutate

if TYPE_CHECKING:
    from .web_server import Client


class FuzzServer:
    """A live server on a scratch SQLite file, with one room where Ann (the host) and Bob
    play a match: only their messages move it, so a refused one must leave it as it was."""

    def __init__(self) -> None:
        from ..web.store import Store
        from .web_server import LiveServer, create_room, fast_config, join

        self.dir = tempfile.TemporaryDirectory()
        self.store = Store(f"sqlite:///{Path(self.dir.name) / 'fuzz.sqlite3'}")
        self.live = LiveServer(fast_config(max_rooms=1_000_000), store=self.store)
        room = create_room(self.live, ["human"])
        self.room: str = room["room"]
        self.host_token: str = room["token"]
        self.bob_token: str = join(self.live, self.room, "Bob")["token"]
        self.clients: dict[str, Client] = {}
        host = self.client("host")
        self.client("bob")
        host.send({"type": "start", "token": self.host_token})
        host.wait(lambda m: m["type"] == "state")

    def snapshot(self) -> Any:
        """The room's lasting state: status, people, and the game to the last detail."""
        room = self.live.manager.rooms[self.room]
        game = room.match.game if room.match is not None else None
        return (room.status, room.match_no, [(p.kind, p.name, p.bot) for p in room.players],
                game.fingerprint() if game is not None else None,
                len(game.history) if game is not None else 0)

    def client(self, who: str) -> Client:
        """The open connection of ``host``, ``bob`` or a ``watcher`` (opened again if it
        closed)."""
        from .web_server import Client

        c = self.clients.get(who)
        if c is None or c.ws.close_code is not None:
            token = {"host": self.host_token, "bob": self.bob_token}.get(who)
            c = self.clients[who] = Client(self.live.url, self.room, token)
            c.wait("welcome")
            c.drain(0.01)
        return c

    def info(self) -> Any:
        """The room as its HTTP route describes it."""
        r = self.live.http.get(f"/api/rooms/{self.room}")
        assert r.status_code == 200, r.text
        return r.json()

    def close(self) -> None:
        """Close the connections, stop the server and remove its database."""
        for c in self.clients.values():
            c.close()
        self.live.stop()
        self.store.close()
        self.dir.cleanup()


# -- HTTP ----------------------------------------------------------------------------------------
CREATE = {"name": "Ann", "preset": "classic", "rules": {"players": 2, "jump_in": True},
          "seats": [{"kind": "human"}, {"kind": "bot", "bot": "basic"}], "lang": "en"}
RULES = {"preset": "house", "rules": {"players": 3, "turn_timer": 30}, "lang": "zh_TW"}
JOIN = {"name": "Bob", "lang": "en"}
segments = st.one_of(st.sampled_from(WORDS), st.text(max_size=30),
                     st.sampled_from([str(b) for b in BIG_INTS]), st.integers().map(str))


def _segment(text: str) -> str:
    return quote(text, safe="") or "x"


def http_case(data: st.DataObject, server: FuzzServer) -> None:
    """One request to a route with a damaged body or path: a 4xx (or a 2xx that makes sense),
    never a 5xx; a room it creates can be opened."""
    http = server.live.http
    route = data.draw(st.sampled_from(("create", "rules", "join", "get")))
    count("http", "inputs")
    if route == "get":
        path = data.draw(st.sampled_from((
            "/api/rooms/{a}", "/api/replays/{a}/{b}", "/api/i18n/{a}", "/api/meta?lang={a}",
            "/api/rooms/{a}?lang={b}", "/r/{a}", "/api/replays?x={a}")))
        r = http.get(path.format(a=_segment(data.draw(segments)),
                                 b=_segment(data.draw(segments))))
    else:
        url = {"create": "/api/rooms", "rules": "/api/rules",
               "join": f"/api/rooms/{server.room}/join"}[route]
        base = {"create": CREATE, "rules": RULES, "join": JOIN}[route]
        how = data.draw(st.integers(0, 3))
        if how == 3:
            body = data.draw(st.one_of(st.binary(max_size=64), st.text(max_size=64).map(
                str.encode), st.integers(1, 3000).map(lambda d: b"[" * d + b"]" * d)))
            r = http.post(url, content=body, headers={"content-type": "application/json"})
        else:
            value = mutate(data, copy.deepcopy(base)) if how else data.draw(json_values)
            try:
                body = json.dumps(value, default=str).encode()
            except (RecursionError, ValueError):
                body = b"[" * 5000
            r = http.post(url, content=body, headers={"content-type": "application/json"})
    assert r.status_code < 500, (r.status_code, r.text[:300])
    if r.status_code >= 400:
        count("http", "refused")
        if r.headers.get("content-type", "").startswith("application/json"):
            err = r.json()
            assert err.get("code") and len(err.get("message", "")) < 2000, err
    elif route == "create":
        room = r.json()["room"]
        opened = http.get(f"/api/rooms/{room}")
        assert opened.status_code == 200, opened.text[:300]


# -- WebSocket -----------------------------------------------------------------------------------
MESSAGES: list[dict[str, Any]] = [
    {"type": "ping", "t": 1}, {"type": "lang", "lang": "zh_CN"}, {"type": "log"},
    {"type": "act", "action": "draw", "token": "", "seq": 0},
    {"type": "start", "token": ""}, {"type": "again", "token": ""},
    {"type": "remove", "token": "x", "player": 1},
    {"type": "seat", "token": "x", "player": 1, "kind": "bot", "bot": "basic"},
    {"type": "hello", "lang": "en"},
]


def ws_case(data: st.DataObject, server: FuzzServer) -> None:
    """One message from a seated person or a watcher: handled, or an ``error`` reply and the
    room exactly as it was; the connection keeps answering."""
    who = data.draw(st.sampled_from(("host", "bob", "watcher")))
    c = server.client(who)
    token = {"host": server.host_token, "bob": server.bob_token}.get(who, "")
    how = data.draw(st.integers(0, 3))
    if how == 0:
        raw: str | bytes = data.draw(st.one_of(
            st.text(max_size=80), st.binary(max_size=40),
            st.integers(1, 3000).map(lambda d: "[" * d + "]" * d),
            st.just("x" * 5000)))
    else:
        msg = copy.deepcopy(data.draw(st.sampled_from(MESSAGES)))
        if msg.get("token") == "":  # seat changes keep a wrong token: the match goes on
            msg["token"] = token
        if msg["type"] == "act":
            msg["action"] = data.draw(st.one_of(st.sampled_from(WORDS), st.text(max_size=30)))
        if how > 1:
            msg = mutate(data, msg)
        try:
            raw = json.dumps(msg, default=str)
        except (RecursionError, ValueError):
            raw = "[" * 5000
    before = server.snapshot()
    count("websocket", "inputs")
    c.errors.clear()
    c.ws.send(raw)
    c.send({"type": "ping", "t": 7})
    c.wait(lambda m: m["type"] == "pong" and m.get("t") == 7, timeout=10)
    if c.errors:
        count("websocket", "refused")
        for e in c.errors:
            assert e.get("code") and len(e.get("message", "")) < 2000, e
        assert server.snapshot() == before, raw


def web_targets() -> WebTargets | None:
    """The server's targets for :func:`unoarena.testing.fuzz.main`: their cases and what
    starts the server they run against; None without the web extra."""
    try:
        from . import web_server  # noqa: F401  (the web extra, or ImportError)
    except ImportError:
        return None
    return {"http": http_case, "websocket": ws_case}, FuzzServer
