"""Several server processes sharing the rooms (PostgreSQL leases, Redis between them).

Real processes on the local PostgreSQL and Redis: clients of one room on different processes,
each seeing only its own seat; the owner killed with SIGKILL mid-game and its rooms taken over
from the stored log, bots and turn timers going on, no action lost or applied twice; the
command line refusing SQLite for several processes; ``--workers N``.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text
from websockets.exceptions import ConnectionClosed

from unoarena.engine import Match, RuleSet
from unoarena.testing.web_server import (
    REDIS,
    Client,
    create_room,
    fresh_schema,
    join,
    pg_reason,
    pg_url,
    play,
    redis_reason,
    run_apart,
    wait_for,
)
from unoarena.web.store import (
    ActionRow,
    PlayerRow,
    Store,
    StoreError,
    op_actions,
    op_create_room,
    op_start_match,
)

#: quick bots and leases, so that a take-over happens within the test's seconds
CONFIG = {"broker_url": REDIS, "lease_ttl": 2.0, "heartbeat": 0.4, "bot_delay": 0.1,
          "window_delay": 0.05, "round_pause": 0.2}


@pytest.fixture(scope="module")
def schema() -> Iterator[str]:
    """A fresh PostgreSQL schema for this module's processes."""
    reason = pg_reason() or redis_reason()
    if reason:
        pytest.skip(reason)
    yield from fresh_schema("unoarena_cluster")


@pytest.fixture(scope="module")
def store(schema: str) -> Iterator[Store]:
    url = pg_url()
    assert url is not None
    st = Store(url, schema=schema)
    yield st
    st.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Node:
    """One server process of the cluster, started as a real process."""

    def __init__(self, schema: str, log: Path, **config: Any) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        cfg = {**CONFIG, **config}
        with open(log, "wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "unoarena.testing.web_node", str(self.port), schema,
                 json.dumps(cfg)], stdout=out, stderr=subprocess.STDOUT)
        self.http = httpx.Client(base_url=self.url, timeout=15)

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-3000:]}")
            try:
                if self.http.get("/healthz").status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server did not start: {self.log.read_text()[-3000:]}")

    def health(self) -> dict[str, Any]:
        out: dict[str, Any] = self.http.get("/healthz").json()
        return out

    def kill(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        self.http.close()
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def start_nodes(schema: str, tmp: Path, n: int) -> list[Node]:
    nodes = [Node(schema, tmp / f"node{i}.log") for i in range(n)]
    for node in nodes:
        node.wait_ready()
    return nodes


@pytest.fixture
def nodes(schema: str, tmp_path: Path) -> Iterator[list[Node]]:
    started = start_nodes(schema, tmp_path, 3)
    yield started
    for i, node in enumerate(started):
        node.stop()
        # shown with a failing test's report: what each process logged
        print(f"--- process {i} ---\n{node.log.read_text(errors='replace')[-4000:]}")


def truth(store: Store, room: str, match_no: int, seq: int) -> Match:
    """The match as the stored log has it after action ``seq`` (DIG-1: seed and actions)."""
    row = store.match_row(room, match_no)
    assert row is not None
    match = Match(RuleSet.from_dict(row["rules"]), row["seed"])
    for a in store.match_actions(room, match_no):
        if a.seq > seq:
            break
        match.game.apply(a.action, a.seat)
        if match.game.is_over and a.seq < seq:
            match.finish_round()
    return match


def check_views(store: Store, room: str, clients: list[Client]) -> None:
    """Each client's last state is its own seat's view of the stored match at that moment:
    its own hand, everyone's hand sizes, and no one else's cards (a spectator sees none)."""
    for c in clients:
        st = c.state
        assert st is not None
        m = truth(store, room, st["match"], st["seq"])
        seat = st["you"]
        view = st["view"]
        assert view["hand_sizes"] == m.game.view(0)["hand_sizes"]
        if seat is None:
            assert view["hand"] == []
        else:
            assert view["hand"] == m.game.view(seat)["hand"]


def check_log(store: Store, room: str, match_no: int) -> list[Any]:
    """The stored log numbers its actions 1, 2, 3... with none twice and none missing, and
    replays: every action was legal where it stands."""
    rows = store.match_actions(room, match_no)
    assert [a.seq for a in rows] == list(range(1, len(rows) + 1))
    truth(store, room, match_no, len(rows))
    return rows


def connect(node: Node, room: str, token: str | None = None) -> Client:
    c = Client(node.url, room, token)
    c.wait("welcome", timeout=15)
    return c


def closed(c: Client, timeout: float = 10.0) -> bool:
    """Read until the server closes the connection."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            c.recv(0.2)
        except TimeoutError:
            continue
        except ConnectionClosed:
            return True
    return False


def match_over(c: Client) -> None:
    if c.over is None:
        c.wait("match_over", timeout=30)
    c.drain(0.2)


def test_clients_of_one_room_on_three_processes(nodes: list[Node], store: Store) -> None:
    a, b, c = nodes
    room = create_room(a, ["human", "bot"], rounds=1)  # type: ignore[arg-type]
    rid = room["room"]
    bob_seat = join(b, rid, "Bob")  # type: ignore[arg-type]  # joined through another process
    assert c.http.get(f"/api/rooms/{rid}").json()["players"][1]["name"] == "Bob"
    ann = connect(b, rid, room["token"])
    bob = connect(c, rid, bob_seat["token"])
    watcher = connect(a, rid)
    ann.send({"type": "start", "token": room["token"]})
    rng = random.Random(5)
    sent = 0
    for _ in range(6):  # the views, compared at several moments of the round
        sent += play([ann, bob], rng, until=lambda cs: True, timeout=5)
        sent += play([ann, bob], rng, until=lambda cs: cs[0].state is not None
                     and cs[0].state["seq"] >= 6, timeout=20)
        for cl in (ann, bob, watcher):
            cl.drain(0.2)
        if ann.state is None or ann.state["view"]["round_over"]:
            break
        check_views(store, rid, [ann, bob, watcher])
    sent += play([ann, bob], rng, timeout=60)
    for cl in (ann, bob, watcher):
        match_over(cl)
    check_views(store, rid, [ann, bob, watcher])
    rows = check_log(store, rid, 1)
    assert ann.state is not None and ann.state["seq"] == len(rows)
    refused = len(ann.errors) + len(bob.errors)
    assert sum(1 for r in rows if r.source == "human") == sent - refused
    assert any(r.source == "bot" for r in rows)
    # the room lives in the process that created it; the others relay its clients
    assert rid in a.health()["leases"]
    assert rid not in b.health()["leases"] and rid not in c.health()["leases"]
    assert b.health()["relayed_clients"] >= 1 and a.health()["remote_clients"] >= 2


def test_a_relayed_flooder_is_closed_with_the_policy_code(schema: str,
                                                         tmp_path: Path) -> None:
    from unoarena.web.app import MAX_STRIKES

    owner, relay = (Node(schema, tmp_path / f"flood{i}.log", rate=1.0, burst=1.0)
                    for i in range(2))
    try:
        for node in (owner, relay):
            node.wait_ready()
        room = create_room(owner, ["bot"])  # type: ignore[arg-type]
        flooder = connect(relay, room["room"], room["token"])  # relayed to the owner
        with suppress(ConnectionClosed):
            for _ in range(MAX_STRIKES + 20):
                flooder.send({"type": "ping"})
        with pytest.raises(ConnectionClosed) as got:
            while True:
                flooder.recv(10)
        assert got.value.rcvd is not None
        assert (got.value.rcvd.code, got.value.rcvd.reason) == (1008, "too many messages")
    finally:
        owner.stop()
        relay.stop()


def test_the_owner_killed_mid_game(nodes: list[Node], store: Store) -> None:
    a, b, c = nodes
    # a room where Ann plays (through b) with two bots, and one where Tim never moves and the
    # turn timer plays for him (through c); both owned by a
    played = create_room(a, ["bot", "bot"], rounds=2)  # type: ignore[arg-type]
    timed = create_room(a, ["bot", "bot"], name="Tim", rounds=1,  # type: ignore[arg-type]
                        turn_timer=1)
    pid, tid = played["room"], timed["room"]
    ann = connect(b, pid, played["token"])
    tim = connect(c, tid, timed["token"])
    ann.send({"type": "start", "token": played["token"]})
    tim.send({"type": "start", "token": timed["token"]})
    rng = random.Random(9)
    play([ann], rng, until=lambda cs: cs[0].state is not None and cs[0].state["seq"] >= 12,
         timeout=30)
    wait_for(lambda: any(r.source == "timer" for r in store.match_actions(tid, 1)), 15,
             "the turn timer never played")
    ann.drain(0.2)
    assert ann.state is not None
    seen = ann.state["seq"]
    before = {r: len(store.match_actions(r, 1)) for r in (pid, tid)}

    a.kill()
    killed_at = time.time()
    # the relays notice that the owner is gone and close; the clients reconnect, here to the
    # other surviving process
    assert closed(ann) and closed(tim)
    ann = connect(c, pid, played["token"])
    tim = connect(b, tid, timed["token"])
    ann.wait(lambda m: m["type"] == "state", timeout=15)
    assert ann.state is not None and ann.state["seq"] >= seen  # nothing acknowledged was lost

    # bots and the turn timer go on at the new owner, within a few seconds
    wait_for(lambda: _since(store, tid, killed_at, "timer"), 15,
             "the turn timer stopped with its process")
    play([ann], rng, until=lambda cs: cs[0].state is not None and (
        cs[0].over is not None or cs[0].state["seq"] >= seen + 10), timeout=30)
    assert _since(store, pid, killed_at, "bot"), "the bots stopped with their process"
    first = min(at for r in (pid, tid) for at in _since(store, r, killed_at))
    assert first - killed_at < 6.0
    assert all(len(store.match_actions(r, 1)) >= before[r] for r in (pid, tid))
    play([ann], rng, timeout=60)
    match_over(ann)
    tim.drain(0.2)
    check_views(store, pid, [ann])
    check_views(store, tid, [tim])
    for r in (pid, tid):
        check_log(store, r, 1)
        holders = [n for n in (b, c) if r in n.health()["leases"]]
        assert len(holders) == 1
    assert ann.state is not None and ann.state["seq"] == len(store.match_actions(pid, 1))
    assert sum(n.health()["taken_over"] for n in (b, c)) >= 2


def test_a_process_without_the_lease_cannot_append(schema: str) -> None:
    """A process paused or cut off past its lease, whose room another took over, cannot add
    to that room's log; the one that holds the lease can."""
    url = pg_url()
    assert url is not None
    st = Store(url, schema=schema)
    st.start()
    rid = f"fence{random.getrandbits(32):x}"
    rules = RuleSet.create("classic", players=2).to_dict()
    people = [PlayerRow(0, "human", "Ann", None, "basic"), PlayerRow(1, "bot", "", None, "basic")]

    def lease(owner: str) -> Any:
        def run(conn: Any) -> None:
            conn.execute(text("DELETE FROM room_leases WHERE room_id = :r"), {"r": rid})
            conn.execute(text("INSERT INTO room_leases VALUES (:r, :o, "
                              "EXTRACT(EPOCH FROM clock_timestamp()) + 60)"),
                         {"r": rid, "o": owner})
        return run

    async def go() -> None:
        await st.write(op_create_room(rid, rules, 0, people))
        await st.write(op_start_match(rid, 1, 7, rules, ["Ann", "Bot"], people))
        await st.write(lease("another process"))
        st.owner = "this process"
        with pytest.raises(StoreError, match="no longer holds"):
            await st.write(op_actions(rid, 1, [ActionRow(0, 1, 0, "draw", "human")]))
        await st.write(lease("this process"))
        await st.write(op_actions(rid, 1, [ActionRow(0, 1, 0, "draw", "human")]))

    try:
        run_apart(go())
        assert [(a.seq, a.action) for a in st.match_actions(rid, 1)] == [(1, "draw")]
    finally:
        st.close()


def test_several_processes_refuse_sqlite(tmp_path: Path) -> None:
    def serve(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "unoarena.web", "--port",
                               str(free_port()), *args], capture_output=True, text=True,
                              timeout=60)

    r = serve("--broker-url", REDIS, "--database-url", f"sqlite:///{tmp_path / 'x.db'}")
    assert r.returncode == 2
    assert "PostgreSQL" in r.stderr and "--database-url" in r.stderr
    r = serve("--workers", "2")
    assert r.returncode == 2
    assert "--broker-url" in r.stderr and "--database-url" in r.stderr
    r = serve("--lease-ttl", "0")
    assert r.returncode == 2 and "--lease-ttl" in r.stderr


def test_workers_share_one_port_and_outlive_a_kill(schema: str, store: Store,
                                                   tmp_path: Path) -> None:
    url = pg_url()
    assert url is not None
    port = free_port()
    db = f"{url}?options=-csearch_path%3D{schema}"
    with open(tmp_path / "serve.log", "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "unoarena.web", "--port", str(port), "--workers", "2",
             "--database-url", db, "--broker-url", REDIS, "--bot-delay", "0.1",
             "--round-pause", "0.2", "--lease-ttl", "2", "--log-level", "warning"],
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=15)
        wait_for(lambda: _ok(http), 60, "the workers did not start")
        room = http.post("/api/rooms", json={
            "name": "Tim", "preset": "classic", "rules": {"players": 3, "rounds": 1,
                                                          "turn_timer": 1},
            "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]}).json()
        rid = room["room"]
        tim = Client(f"http://127.0.0.1:{port}", rid, room["token"])
        tim.wait("welcome", timeout=15)
        tim.send({"type": "start", "token": room["token"]})
        wait_for(lambda: store.match_actions(rid, 1), 15, "the match did not start")
        owner = wait_for(lambda: _lease_owner(store, rid), 10, "no lease")
        os.kill(int(owner.split(":")[-2]), signal.SIGKILL)
        count = len(store.match_actions(rid, 1))
        # another process of the same server takes the room over and its timer goes on
        new = wait_for(lambda: (o := _lease_owner(store, rid)) != owner and o, 15,
                       "nobody took the room over")
        assert new != owner
        wait_for(lambda: len(store.match_actions(rid, 1)) > count + 2, 15,
                 "the room stopped with its process")
        check_log(store, rid, 1)
        http.close()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


def _ok(http: httpx.Client) -> bool:
    try:
        return http.get("/healthz").status_code == 200
    except httpx.HTTPError:
        return False


def _since(store: Store, room: str, t: float, source: str | None = None) -> list[float]:
    """When the room's actions (of ``source``) stored after ``t`` were stored."""
    q = "SELECT at FROM actions WHERE room_id = :r AND at > :t"
    if source is not None:
        q += " AND source = :s"
    with store.reading() as conn:
        return [float(x) for x in conn.execute(text(q), {"r": room, "t": t, "s": source})
                .scalars()]


def _lease_owner(store: Store, room: str) -> str | None:
    with store.reading() as conn:
        row = conn.execute(text("SELECT owner FROM room_leases WHERE room_id = :r"),
                           {"r": room}).first()
    return None if row is None else str(row[0])


# -- the relay's races, one process in this test's loop (no servers: the broker is faked) --
class _FakeStore:
    is_sqlite = False


def _lone_cluster(session: Any, listening: Any = lambda process: True,
                  replies: dict[str, dict[str, Any]] | None = None, **config: Any
                  ) -> tuple[Any, list[tuple[str, str]], dict[str, Any]]:
    """A cluster part whose broker frames are recorded instead of sent (``published``; a
    frame reaches a process when ``listening(process)``), with its rooms in ``rooms``. A
    forwarded call to a process in ``replies`` is answered with that reply; the others hear
    it and stay silent."""
    pytest.importorskip("redis")
    from types import SimpleNamespace

    import orjson

    from unoarena.testing.web_server import fast_config
    from unoarena.web.cluster import Cluster

    rooms: dict[str, Any] = {}
    cfg = fast_config(**{"broker_url": REDIS, "lease_ttl": 2.0, "heartbeat": 0.4, **config})

    async def room_op(room: Any, op: str, args: dict[str, Any]) -> Any:
        raise AssertionError("no calls here")

    cluster = Cluster(SimpleNamespace(rooms=rooms), _FakeStore(), cfg,  # type: ignore[arg-type]
                      session, room_op)
    published: list[tuple[str, str]] = []

    async def publish(process: str, frame: str) -> int:
        published.append((process, frame))
        reply = (replies or {}).get(process)
        if reply is not None and frame.startswith("call "):
            rid = frame.split(" ")[1]
            asyncio.get_running_loop().call_soon(
                cluster._frame, f"reply {rid}\n{orjson.dumps(reply).decode()}")
        return int(listening(process))

    cluster._publish = publish  # type: ignore[method-assign]
    return cluster, published, rooms


def test_a_relayed_client_waits_for_a_room_that_is_still_loading() -> None:
    """The process that has just taken over a room is still replaying its log when a client
    relayed from another process arrives: the client is served once the room is there, with
    the hello it sent meanwhile, instead of being turned away."""
    served: list[tuple[Any, Any]] = []

    async def session(room: Any, conn: Any, receive: Any) -> None:
        served.append((room, await receive()))

    cluster, published, rooms = _lone_cluster(session)
    loaded = asyncio.Event()

    async def load(ids: list[str]) -> None:
        await loaded.wait()  # the replay takes its time
        for rid in ids:
            rooms[rid] = f"room {rid}"

    cluster._db = lambda stmt, **kw: [(rid, 99.0) for rid in kw["ids"]]
    cluster.manager.load = load

    async def go() -> None:
        claim = asyncio.ensure_future(cluster._claim_load(["r1"]))
        await asyncio.sleep(0.05)
        assert "r1" in cluster.claiming and "r1" not in rooms
        cluster._frame("open p#1 relayer r1 en")
        cluster._frame('msg p#1\n{"type": "hello"}')
        cluster._frame("open p#2 relayer nowhere en")  # a room this process does not hold
        await asyncio.sleep(0.1)
        assert served == []
        assert published == [("relayer", "end p#2")]
        loaded.set()
        await claim
        for _ in range(100):
            if served:
                break
            await asyncio.sleep(0.01)
        assert served == [("room r1", '{"type": "hello"}')]
        assert not cluster.claiming
        for task in list(cluster.tasks):
            task.cancel()

    run_apart(go())


def test_a_client_arriving_as_the_owner_dies_is_relayed_to_the_next_owner() -> None:
    """The broker still counted the dead owner when the client was looked up, but nobody
    heard the opening: the room is looked up again, not the connection closed."""
    cluster, published, _ = _lone_cluster(None, lambda process: process != "dead")
    owners = iter(["dead", "next"])

    async def locate(room_id: str) -> str:
        return next(owners)

    async def receive() -> None:
        return None  # the client leaves at once

    cluster.locate = locate
    from unoarena.web.rooms import Conn

    run_apart(cluster.serve("r1", Conn("en", cluster.config), receive))
    assert [(p, f.split(" ")[0]) for p, f in published] == [
        ("dead", "open"), ("next", "open"), ("next", "close")]


def test_a_client_whose_room_nobody_serves_is_told_so_after_a_lease() -> None:
    """The room's owner keeps counting as alive but never hears the client: after a lease and
    three heartbeats the client is told the room's server does not answer, not left waiting."""
    from unoarena.web.protocol import ProtocolError
    from unoarena.web.rooms import Conn

    cluster, published, _ = _lone_cluster(None, lambda process: False, lease_ttl=0.3,
                                          heartbeat=0.1)

    async def locate(room_id: str) -> str:
        return "dead"

    async def receive() -> None:
        raise AssertionError("nothing of the client's is read")

    cluster.locate = locate
    began = time.monotonic()
    with pytest.raises(ProtocolError, match="does not answer") as err:
        run_apart(cluster.serve("r1", Conn("en", cluster.config), receive))
    assert err.value.code == "server_error"
    assert 0.6 <= time.monotonic() - began < 5
    assert len(published) >= 3 and all(f.startswith("open ") for _, f in published)


def test_a_call_no_owner_heard_goes_to_the_next_owner() -> None:
    """An HTTP call about a room whose owner died as it was looked up, or had let the room go,
    is sent to the room's next owner until the lease runs out, and answered from there."""
    cluster, published, _ = _lone_cluster(
        None, lambda process: process != "dead",
        {"moved": {"ok": False, "gone": True}, "next": {"ok": True, "result": "next ran it"}})
    owners = iter(["dead"] * 4 + ["moved", "next"])

    async def locate(room_id: str) -> str:
        return next(owners)

    cluster.locate = locate
    assert run_apart(cluster.run("r1", "info", {})) == "next ran it"
    assert [(p, f.split(" ")[0]) for p, f in published] == [("dead", "call")] * 4 + [
        ("moved", "call"), ("next", "call")]


def test_a_call_heard_but_not_answered_is_not_sent_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A call the owner heard may have run (a join seats a player): when no reply comes the
    caller is told the server does not answer, and the call is not run a second time."""
    from unoarena.web import cluster as cluster_mod
    from unoarena.web.protocol import ProtocolError

    monkeypatch.setattr(cluster_mod, "CALL_TIMEOUT", 0.2)
    cluster, published, _ = _lone_cluster(None)

    async def locate(room_id: str) -> str:
        return "silent"

    cluster.locate = locate
    with pytest.raises(ProtocolError, match="does not answer"):
        run_apart(cluster.run("r1", "join", {"name": "Ann"}))
    assert [(p, f.split(" ")[0]) for p, f in published] == [("silent", "call")]
    assert not cluster.calls


def test_the_chat_and_its_mutes_outlive_the_owner(nodes: list[Node], store: Store) -> None:
    """A room's chat is stored with it: the process that takes the room over shows the same
    lines and keeps the host's mutes, and numbers new lines on from the stored ones."""
    a, b, c = nodes
    room = create_room(a, ["human", "bot"])  # type: ignore[arg-type]
    rid = room["room"]
    bob_seat = join(b, rid, "Bob")  # type: ignore[arg-type]
    ann = connect(b, rid, room["token"])  # both relayed to the owner, a
    bob = connect(c, rid, bob_seat["token"])
    ann.send({"type": "chat", "text": "before the crash <i>!</i>"})
    bob.wait(lambda m: m["type"] == "chat" and [x["text"] for x in m["lines"]]
             == ["before the crash <i>!</i>"])
    ann.send({"type": "mute", "token": room["token"], "player": 1, "muted": True})
    bob.wait(lambda m: m["type"] == "chat" and m["muted"] == [1])
    a.kill()
    assert closed(ann) and closed(bob)
    ann = connect(c, rid, room["token"])
    first = ann.wait("chat", timeout=15)
    assert [x["text"] for x in first["lines"]] == ["before the crash <i>!</i>"]
    assert first["muted"] == [1]
    ann.send({"type": "chat", "text": "after"})
    line = ann.wait(lambda m: m["type"] == "chat" and m["lines"], timeout=10)["lines"][0]
    assert line["text"] == "after" and line["seq"] == 3  # after the line and the mute
    bob = connect(b, rid, bob_seat["token"])
    bob.send({"type": "chat", "text": "still muted?"})
    assert bob.wait("error")["code"] == "muted"
