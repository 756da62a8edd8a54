"""Malformed requests and messages at a live server: every HTTP route answers 4xx (never 5xx),
every WebSocket message is answered with an ``error`` or handled, a refused message changes
nothing, and the server stays up (the targets are :mod:`unoarena.testing.web_fuzz`, which
``scripts/fuzz.py`` runs for longer). Request bodies are refused from their size before they
are read."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unoarena.testing.web_fuzz import CREATE, RULES, FuzzServer, http_case, ws_case
from unoarena.testing.web_server import LiveServer, fast_config, write_batch
from unoarena.web.app import MAX_BODY_BYTES
from unoarena.web.store import Store

#: Inputs per test run in CI.
EXAMPLES = 40


@pytest.fixture(scope="module")
def server() -> Iterator[FuzzServer]:
    s = FuzzServer()
    yield s
    s.close()


@settings(max_examples=EXAMPLES, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_http_routes_answer_4xx_never_5xx(server: FuzzServer, data: st.DataObject) -> None:
    http_case(data, server)


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
