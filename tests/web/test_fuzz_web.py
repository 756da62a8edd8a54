"""Malformed requests and messages at a live server: every HTTP route answers 4xx (never 5xx),
every WebSocket message is answered with an ``error`` or handled, a refused message changes
nothing, and the server stays up. Request bodies are refused from their size before they are
read. ``scripts/fuzz.py`` runs the same targets for longer."""

from __future__ import annotations

import copy
import json
import socket
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unoarena.testing.fuzz import BIG_INTS, WORDS, count, json_values, mutate
from unoarena.testing.web_server import (
    Client,
    LiveServer,
    create_room,
    fast_config,
    join,
    write_batch,
)
from unoarena.web.app import MAX_BODY_BYTES
from unoarena.web.store import Store

#: Inputs per test run in CI.
EXAMPLES = 40


class FuzzServer:
    """A live server on a scratch SQLite file, with one room where Ann (the host) and Bob
    play a match: only their messages move it, so a refused one must leave it as it was."""

    def __init__(self) -> None:
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
        c = self.clients.get(who)
        if c is None or c.ws.close_code is not None:
            token = {"host": self.host_token, "bob": self.bob_token}.get(who)
            c = self.clients[who] = Client(self.live.url, self.room, token)
            c.wait("welcome")
            c.drain(0.01)
        return c

    def info(self) -> Any:
        r = self.live.http.get(f"/api/rooms/{self.room}")
        assert r.status_code == 200, r.text
        return r.json()

    def close(self) -> None:
        for c in self.clients.values():
            c.close()
        self.live.stop()
        self.store.close()
        self.dir.cleanup()


def fuzz_server() -> FuzzServer:
    return FuzzServer()


@pytest.fixture(scope="module")
def server() -> Iterator[FuzzServer]:
    s = FuzzServer()
    yield s
    s.close()


# -- HTTP ----------------------------------------------------------------------------------------
CREATE = {"name": "Ann", "preset": "classic", "rules": {"players": 2, "jump_in": True},
          "seats": [{"kind": "human"}, {"kind": "bot", "bot": "basic"}], "lang": "en"}
RULES = {"preset": "house", "rules": {"players": 3, "turn_timer": 30}, "lang": "zh_TW"}
JOIN = {"name": "Bob", "lang": "en"}
segments = st.one_of(st.sampled_from(WORDS), st.text(max_size=30),
                     st.sampled_from([str(b) for b in BIG_INTS]), st.integers().map(str))


def _segment(text: str) -> str:
    from urllib.parse import quote

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


@settings(max_examples=EXAMPLES, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_http_routes_answer_4xx_never_5xx(server: FuzzServer, data: st.DataObject) -> None:
    http_case(data, server)


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


@settings(max_examples=EXAMPLES, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_websocket_messages_are_refused_cleanly(server: FuzzServer, data: st.DataObject) -> None:
    ws_case(data, server)


# -- request bodies are refused from their size --------------------------------------------------
def _raw(server: FuzzServer, head: bytes, body: bytes = b"") -> tuple[bytes, float]:
    """Send a raw request (perhaps only the start of its body); the status line and how long
    the answer took."""
    sock = socket.create_connection(("127.0.0.1", server.live.port), timeout=10)
    start = time.monotonic()
    try:
        sock.sendall(head + body)
        answer = sock.recv(4096)
    finally:
        sock.close()
    return answer.split(b"\r\n", 1)[0], time.monotonic() - start


@pytest.mark.parametrize("route", ["/api/rooms", "/api/rules", "/api/rooms/{room}/join"])
def test_a_big_body_is_refused_from_content_length(server: FuzzServer, route: str) -> None:
    """A 300 MB POST is answered 413 before its body is sent, let alone read."""
    path = route.format(room=server.room).encode()
    head = (b"POST " + path + b" HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
            b"Content-Length: 300000000\r\n\r\n")
    status, took = _raw(server, head, b'{"name": ')
    assert b" 413 " in status + b" " and took < 5


def test_a_chunked_body_is_refused_while_it_streams(server: FuzzServer) -> None:
    head = (b"POST /api/rules HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n")
    chunk = b"%x\r\n" % 8192 + b" " * 8192 + b"\r\n"
    status, took = _raw(server, head, chunk * (MAX_BODY_BYTES // 8192 + 2))
    assert b" 413 " in status + b" " and took < 5
    r = server.live.http.post("/api/rules", json=RULES)
    assert r.status_code == 200


@pytest.mark.parametrize("rules", [
    {"target_score": 2**64}, {"seat_exchange": 2**64}, {"rounds": 10**30},
    {"launcher_max_dry": 2**63}, {"target_score": -(2**64)}, {"turn_timer": 0},
])
def test_out_of_range_rules_are_400_and_create_no_room(server: FuzzServer,
                                                       rules: dict[str, Any]) -> None:
    rooms = len(server.live.manager.rooms)
    for url, body in (("/api/rooms", {**CREATE, "rules": {**CREATE["rules"], **rules}}),
                      ("/api/rules", {**RULES, "rules": rules})):
        # raw JSON: a 2^64 integer exactly as a client would send it
        r = server.live.http.post(url, content=json.dumps(body).encode(),
                                  headers={"content-type": "application/json"})
        assert r.status_code == 400, r.text
        assert r.json()["code"] == "bad_rules"
    assert len(server.live.manager.rooms) == rooms
    for huge in ("18446744073709551616", "9" * 40, "-1", "1e3"):
        assert server.live.http.get(f"/api/replays/{server.room}/{huge}").status_code == 404


def test_a_stored_room_with_impossible_rules_is_not_restored(tmp_path: Path) -> None:
    """A room saved before the bounds existed (target_score 2^64) is skipped at start-up:
    its address answers 404, never 500, and the other rooms load."""
    from unoarena.engine import preset
    from unoarena.web.store import PlayerRow, op_create_room

    store = Store(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    store.migrate()
    broken = {**preset("classic", players=2).to_dict(), "target_score": 2**64}
    good = preset("classic", players=2).to_dict()
    people = [PlayerRow(0, "human", "Ann", "x" * 64, ""), PlayerRow(1, "human", "", None, "")]
    assert write_batch(store, [op_create_room("broken", broken, 0, people),
                               op_create_room("fine", good, 0, people)]) == [None, None]
    live = LiveServer(fast_config(), store=store)
    try:
        assert live.http.get("/api/rooms/broken").status_code == 404
        assert live.http.get("/api/rooms/fine").status_code == 200
    finally:
        live.stop()
        store.close()
