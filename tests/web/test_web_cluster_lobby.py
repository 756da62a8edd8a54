"""The lobby with several server processes (PostgreSQL and Redis): a page connected to any
process lists the public rooms of all of them, live, and a room whose owner is killed stays
listed through the take-over, then changes as its new owner says."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_util import Client, fresh_schema, pg_reason, redis_reason, wait_for
from test_web_cluster import Node, start_nodes
from test_web_lobby import LobbyWatcher
from websockets.sync.client import connect


@pytest.fixture(scope="module")
def schema() -> Iterator[str]:
    reason = pg_reason() or redis_reason()
    if reason:
        pytest.skip(reason)
    yield from fresh_schema("unoarena_lobby")


def public_room(node: Node, name: str) -> str:
    body = {"name": name, "preset": "classic", "public": True, "rules": {"players": 3},
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}]}
    r = node.http.post("/api/rooms", json=body)
    assert r.status_code == 200, r.text
    return str(r.json()["room"])


def test_every_process_lists_every_public_room(schema: str, tmp_path: Path) -> None:
    nodes = start_nodes(schema, tmp_path, 3)
    a, b, c = nodes
    watchers: list[LobbyWatcher] = []
    try:
        on_a = public_room(a, "Ann")
        on_b = public_room(b, "Bea")
        watchers = [LobbyWatcher(n.url) for n in nodes]
        for w in watchers:  # the rooms made before the page opened, wherever they live
            w.until(lambda rooms: {on_a, on_b} <= set(rooms))
        # a person joins a's room through c: every page sees one seat fewer, at once
        r = c.http.post(f"/api/rooms/{on_a}/join", json={"name": "Cy"})
        assert r.status_code == 200, r.text
        for w in watchers:
            w.until(lambda rooms: rooms[on_a]["open"] == 0 and "Cy" in rooms[on_a]["people"])
        # a process started later learns the list from the others
        late = Node(schema, tmp_path / "late.log")
        nodes.append(late)
        late.wait_ready()
        assert {on_a, on_b} <= {r["id"] for r in late.http.get("/api/lobby").json()["rooms"]}
        # a's owner dies: its room stays listed, and its new owner's changes show
        a.kill()
        time.sleep(3.0)  # past the lease: another process has taken the room over
        r = b.http.post(f"/api/rooms/{on_b}/join", json={"name": "Dee"})
        assert r.status_code == 200, r.text
        watchers[1].until(lambda rooms: rooms[on_b]["open"] == 0)
        assert on_a in watchers[1].rooms
        spectator = connect(f"ws{c.url[4:]}/ws/{on_a}", open_timeout=10).__enter__()
        spectator.send(json.dumps({"type": "hello"}))
        for w in watchers[1:]:
            w.until(lambda rooms: rooms.get(on_a, {}).get("spectators") == 1, timeout=20)
        spectator.close()
    finally:
        for w in watchers:
            w.close()
        for n in nodes:
            n.stop()


def test_quick_play_finds_a_table_of_another_process(schema: str, tmp_path: Path) -> None:
    nodes = start_nodes(schema, tmp_path, 2)
    a, b = nodes
    try:
        ann = a.http.post("/api/quick", json={"name": "Ann", "preset": "buzz", "level": "easy"})
        assert ann.status_code == 200, ann.text
        room = ann.json()["room"]
        host = Client(a.url, room, ann.json()["token"])  # Ann waits at her new table
        host.wait("welcome")
        wait_for(lambda: any(r["id"] == room for r in b.http.get("/api/lobby").json()["rooms"]),
                 10, "b's lobby lists Ann's table")
        bob = b.http.post("/api/quick", json={"name": "Bob", "preset": "buzz", "level": "hard"})
        assert bob.status_code == 200, bob.text
        assert (bob.json()["room"], bob.json()["player"]) == (room, 1)  # joined through b
        info = a.http.get(f"/api/rooms/{room}").json()
        assert [p["name"] for p in info["players"][:2]] == ["Ann", "Bob"]
        host.close()
    finally:
        for n in nodes:
            n.stop()
