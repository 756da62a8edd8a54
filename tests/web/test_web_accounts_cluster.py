"""Ratings with several server processes: a rated match whose owner is killed in the middle
is finished by the process that takes the room over, and rated there exactly once."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_util import Client, fresh_schema, pg_reason, pg_url, redis_reason, wait_for
from sqlalchemy import select
from test_web_cluster import Node

from unoarena.web.ratings import rating_history, ratings
from unoarena.web.store import Store

#: two processes sharing rooms; people away (here: all, once the match starts) are played by
#: stand-ins at once, so the match plays itself across the take-over
CONFIG = {"accounts": True, "away_after": 0.05, "idle_after": 0.05}


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[list[Node], Store]]:
    reason = pg_reason() or redis_reason()
    if reason:
        pytest.skip(reason)
    gen = fresh_schema("unoarena_rated")
    schema = next(gen)
    url = pg_url()
    assert url is not None
    store = Store(url, schema=schema)
    nodes = [Node(schema, tmp_path / f"node{i}.log", **CONFIG) for i in range(2)]
    try:
        for node in nodes:
            node.wait_ready()
        yield nodes, store
    finally:
        for i, node in enumerate(nodes):
            node.stop()
            print(f"--- process {i} ---\n{node.log.read_text(errors='replace')[-3000:]}")
        store.close()
        gen.close()


def history_of(store: Store, room: str) -> list[Any]:
    with store.reading() as conn:
        return list(conn.execute(select(rating_history)
                                 .where(rating_history.c.room_id == room)).all())


def test_a_rated_match_survives_its_owner_and_is_rated_once(
        cluster: tuple[list[Node], Store]) -> None:
    (a, b), store = cluster
    people = {}
    for name in ("Ann", "Bob"):  # signed up at b: the session works at every process
        c = httpx.Client(base_url=b.url, timeout=15, headers={"Origin": b.url})
        assert c.post("/api/account/signup", json={"name": name, "password": "x" * 10}
                      ).status_code == 200
        people[name] = c
    # the room is created at a, which owns it
    ann_at_a = httpx.Client(base_url=a.url, timeout=15, headers={"Origin": a.url},
                            cookies=people["Ann"].cookies)
    room = ann_at_a.post("/api/rooms", json={
        "name": "Ann", "preset": "classic", "rated": True, "rules": {"players": 3, "rounds": 2},
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]}
    ).json()
    rid = room["room"]
    joined = people["Bob"].post(f"/api/rooms/{rid}/join", json={"name": "Bob"}).json()
    for name, token in (("Ann", room["token"]), ("Bob", joined["token"])):
        linked = people[name].post("/api/account/seats", json={"seats": [
            {"room": rid, "token": token}]}).json()["linked"]
        assert linked == [rid]
    host = Client(b.url, rid, room["token"])  # relayed by b to a
    host.wait("welcome", timeout=15)
    host.send({"type": "start", "token": room["token"]})
    wait_for(lambda: len(store.match_actions(rid, 1)) >= 10, 30, "the match did not start")
    host.close()
    a.kill()
    killed_at = time.time()
    wait_for(lambda: (row := store.match_row(rid, 1)) is not None
             and row["finished_at"] is not None, 90, "the match did not end at b")
    history = wait_for(lambda: history_of(store, rid), 15, "the match was not rated")
    assert len(history) == 3 and all(h.at > killed_at for h in history)  # rated at b
    with store.reading() as conn:
        board = conn.execute(select(ratings).where(ratings.c.family == "classic/3-4")).all()
    assert {r.name: r.games for r in board} == {"Ann": 1, "Bob": 1, "medium": 1}
    assert b.health()["taken_over"] >= 1
    for c in (*people.values(), ann_at_a):
        c.close()
