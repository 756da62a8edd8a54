"""The server through database and broker outages, with real servers and real faults.

PostgreSQL and Redis are the machine's, reached through proxies the test cuts (a ``Cutter``):
rooms play while the database disappears for a few seconds and comes back, disappears while a
dead process's rooms are being taken over, and while a process is killed; the broker disappears
too. Every state any client was shown is then held against the stored log (nothing shown that
is not stored, no seq shown two ways), every room restores in a fresh process, and play goes on
within 2 s of the database returning. ``scripts/web_faults.py`` runs the same with many cycles.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from unoarena.testing.web_faults import (
    Cutter,
    Node,
    Players,
    Table,
    check_restored,
    check_shown,
    new_tables,
    target_of,
    through,
)
from unoarena.testing.web_server import (
    REDIS,
    fresh_schema,
    pg_reason,
    pg_url,
    redis_reason,
    wait_for,
)
from unoarena.web.store import Store

#: quick bots and leases; the broker's URL is added where a test has one
FAST = {"bot_delay": 0.05, "window_delay": 0.02, "round_pause": 0.1, "lease_ttl": 2.0,
        "heartbeat": 0.4}
RESUME_WITHIN = 2.0


@pytest.fixture
def schema() -> Iterator[str]:
    reason = pg_reason()
    if reason:
        pytest.skip(reason)
    yield from fresh_schema("unoarena_faults")


@pytest.fixture
def pg(schema: str) -> Iterator[tuple[Cutter, str, Store]]:
    """A proxy to the test PostgreSQL, the URL through it, and a store that reads around it."""
    url = pg_url()
    assert url is not None
    cutter = Cutter(*target_of(url, 5432))
    store = Store(url, schema=schema)
    yield cutter, through(url, cutter), store
    store.close()
    cutter.close()


def dead_id(node: Node) -> str:
    """How the process of ``node`` is named in the cluster's log (host:pid:...)."""
    return f":{node.proc.pid}:"


def _afterwards(store: Store, schema: str, tables: list[Table], nodes: list[Node],
                tmp_path: Path) -> None:
    """Every state any client was shown is in the stored log at its seq, no seq was shown two
    ways, every room restores in a fresh process, and no process logged a traceback."""
    verdict = check_shown(store, tables)
    assert verdict.checked > 100
    assert not verdict.unstored, verdict.unstored[:10]
    assert not verdict.forks, verdict.forks[:10]
    again = Node(pg_url() or "", schema, tmp_path / "again.log", FAST)
    try:
        again.wait_ready()
        assert check_restored(again.url, store, tables) == []
    finally:
        again.stop()
    for node in [*nodes, again]:
        text = node.log.read_text(errors="replace")
        assert "Task exception was never retrieved" not in text, text[-3000:]
        assert "Traceback" not in text, text[-3000:]


def _resumed(players: Players, restored_at: float, before: dict[str, tuple[int, int]]) -> None:
    wait_for(lambda: len(players.resumed(restored_at, before)) == len(players.tables),
               10, "play did not resume")
    late = {r: round(s, 2) for r, s in players.resumed(restored_at, before).items()
            if s > RESUME_WITHIN}
    assert not late, f"play resumed more than {RESUME_WITHIN} s after the database: {late}"


def _outage(cutter: Cutter, players: Players, seconds: float) -> tuple[float, dict[str, tuple[
        int, int]]]:
    cutter.cut()
    time.sleep(seconds)
    before = players.newest()
    restored_at = time.time()
    cutter.restore()
    return restored_at, before


def test_one_process_through_database_outages(pg: tuple[Cutter, str, Store], schema: str,
                                              tmp_path: Path) -> None:
    cutter, url, store = pg
    node = Node(url, schema, tmp_path / "node.log", FAST)
    nodes = [node]
    node.wait_ready()
    tables = new_tables(node.url, 4, lambda: [n.url for n in nodes if n.alive], seed=1)
    players = Players(tables)
    try:
        wait_for(lambda: all(t.last_seq[1] >= 5 for t in tables), 20, "the tables did not play")
        restored_at, before = _outage(cutter, players, 3.0)
        _resumed(players, restored_at, before)
        time.sleep(1.0)
        # the database goes away again, and the process is killed while it is away
        cutter.cut()
        time.sleep(1.0)
        node.kill()
        cutter.restore()
        nodes.append(node := Node(url, schema, tmp_path / "node2.log", FAST))
        node.wait_ready()
        wait_for(lambda: all(t.connects >= 2 for t in tables), 20, "no table reconnected")
        time.sleep(1.5)
    finally:
        players.stop()
        for n in nodes:
            n.stop()
    _afterwards(store, schema, tables, nodes, tmp_path)


@pytest.fixture
def broker(pg: tuple[Cutter, str, Store]) -> Iterator[tuple[Cutter, str]]:
    """A proxy to the test Redis and the URL through it."""
    reason = redis_reason()
    if reason:
        pytest.skip(reason)
    cutter = Cutter(*target_of(REDIS, 6379))
    yield cutter, through(REDIS, cutter)
    cutter.close()


def test_two_processes_through_database_broker_and_process_faults(
        pg: tuple[Cutter, str, Store], broker: tuple[Cutter, str], schema: str,
        tmp_path: Path) -> None:
    db, url, store = pg
    redis_cut, redis_url = broker
    cfg = {**FAST, "broker_url": redis_url}
    nodes = [Node(url, schema, tmp_path / f"node{i}.log", cfg) for i in range(2)]
    for n in nodes:
        n.wait_ready()
    live = lambda: [n.url for n in nodes if n.alive]  # noqa: E731
    tables = [t for i in range(2) for t in new_tables(nodes[i].url, 3, live, seed=i + 2)]
    players = Players(tables)
    try:
        wait_for(lambda: all(t.last_seq[1] >= 5 for t in tables), 30, "the tables did not play")
        # the database away for longer than a lease: on its return every lease has run out
        restored_at, before = _outage(db, players, 3.0)
        _resumed(players, restored_at, before)
        # a process killed, and the database away while its rooms are being taken over
        dead = nodes[0]
        dead.kill()
        time.sleep(1.0)
        restored_at, before = _outage(db, players, 2.5)
        _resumed(players, restored_at, before)
        took = nodes[1].log.read_text(errors="replace")
        assert "took over" in took and dead_id(dead) in took, took[-2000:]
        nodes.append(node := Node(url, schema, tmp_path / "node2.log", cfg))
        node.wait_ready()
        # the broker away: relayed clients reconnect, rooms go on
        redis_cut.cut()
        time.sleep(2.0)
        before = players.newest()
        restored_at = time.time()
        redis_cut.restore()
        wait_for(lambda: len(players.resumed(restored_at, before)) == len(tables), 15,
                   "play did not resume after the broker came back")
    finally:
        players.stop()
        for n in nodes:
            n.stop()
    _afterwards(store, schema, tables, nodes, tmp_path)
