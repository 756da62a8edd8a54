"""A room while its database is away, and what a failed write leaves behind.

A server in this process on the test PostgreSQL behind a proxy the test cuts (a ``Cutter``):
every player is told, in their own language, that the server lost its database; moves and
seats are refused and change nothing; the turn timer waits, and everything goes on once the
database answers again. On SQLite, writes are made to fail as a database would: a write that
fails without an answer but did commit, a write still pending when someone connects, and a
stored log that does not replay.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import delete

from unoarena.testing.web_faults import Cutter
from unoarena.testing.web_server import (
    Client,
    LiveServer,
    create_room,
    host_and_bob,
    host_to_move,
    play,
    wait_for,
)
from unoarena.web.catalog import gettext_in
from unoarena.web.rooms import DB_LOST, LOG_BROKEN
from unoarena.web.store import Store, StoreError, actions


def notices(c: Client) -> list[str | None]:
    return [m["message"] for m in c.messages if m["type"] == "notice"]


def test_every_player_is_told_the_database_is_away_and_play_goes_on_after(
        cut_server: tuple[Cutter, Callable[..., LiveServer]]) -> None:
    cutter, make = cut_server
    server = make()
    rid, host, bob, _ = host_and_bob(server, ["human", "bot"])
    bob.send({"type": "lang", "lang": "zh_TW"})
    watcher = Client(server.url, rid, lang="zh_CN")
    watcher.wait("welcome")
    lobby = create_room(server, ["human"])["room"]
    host.send({"type": "start", "token": host.token})
    play([host, bob], random.Random(2), until=lambda cs: (cs[0].state or {}).get("seq", 0) > 3,
         timeout=20)
    for c in (host, bob, watcher):
        c.drain(0.2)
    me = host if host.state and host.state["view"]["turn"] == host.state["you"] else bob
    st = me.state
    assert st is not None and st["view"]["legal"]
    store = server.app.state.store
    stored = len(store.match_actions(rid, 1))

    cutter.cut()
    me.act(st["view"]["legal"][0], seq=st["seq"])
    err = me.wait("error", timeout=15)
    assert err["code"] == "no_database"
    assert err["message"] == gettext_in("zh_TW" if me is bob else "en", DB_LOST)
    for c, lang in ((host, "en"), (bob, "zh_TW"), (watcher, "zh_CN")):
        if not any(notices(c)):
            c.wait(lambda m: m["type"] == "notice" and m["message"] is not None, timeout=10)
        assert notices(c)[-1] == gettext_in(lang, DB_LOST)
    assert len({gettext_in(lang, DB_LOST) for lang in ("en", "zh_TW", "zh_CN")}) == 3
    # a seat refused with the same words changes nothing; a move sent again is refused too
    r = server.http.post(f"/api/rooms/{lobby}/join", json={"name": "Cy"})
    assert r.status_code == 503 and r.json()["code"] == "no_database"
    r = server.http.post("/api/rooms", headers={"Accept-Language": "zh-CN"}, json={
        "name": "Di", "preset": "classic", "seats": [{"kind": "human"}, {"kind": "bot"}],
        "rules": {"players": 2}})
    assert r.status_code == 503 and r.json()["message"] == gettext_in("zh_CN", DB_LOST)
    me.act(st["view"]["legal"][0], seq=st["seq"])
    assert me.wait("error")["code"] == "no_database"
    time.sleep(1.0)
    for c in (host, bob, watcher):
        c.drain(0.1)
        assert c.state is not None and c.state["seq"] == st["seq"]  # nothing moved

    restored = time.monotonic()
    cutter.restore()
    for c in (host, bob, watcher):
        c.wait(lambda m: m["type"] == "notice" and m["message"] is None, timeout=5)
    assert time.monotonic() - restored < 2.0
    assert len(store.match_actions(rid, 1)) == stored
    me.act(st["view"]["legal"][0], seq=st["seq"])
    assert me.wait(lambda m: m["type"] in ("state", "error"))["type"] == "state"
    assert len(store.match_actions(rid, 1)) > stored
    r = server.http.post(f"/api/rooms/{lobby}/join", json={"name": "Cy"})
    assert r.status_code == 200 and r.json()["player"] == 1  # the seat that was open
    assert server.http.get("/healthz").json()["outages"] == 1


def test_the_turn_timer_waits_for_the_database_and_goes_on(
        cut_server: tuple[Cutter, Callable[..., LiveServer]]) -> None:
    """A player who never moves is moved by the turn timer; while the database is away the
    timer waits (nothing is stored, nothing is lost), then goes on by itself."""
    cutter, make = cut_server
    server = make()
    room = create_room(server, ["bot"], turn_timer=1)
    rid = room["room"]
    tim = Client(server.url, rid, room["token"])
    tim.wait("welcome")
    tim.send({"type": "start", "token": tim.token})
    store = server.app.state.store

    def timed() -> list[float]:
        with store.reading() as conn:
            return [float(x) for x in conn.execute(
                actions.select().with_only_columns(actions.c.at)
                .where(actions.c.room_id == rid, actions.c.source == "timer")).scalars()]

    wait_for(lambda: len(timed()) >= 1, 15, "the timer never played")
    cut_at = time.time()
    cutter.cut()
    tim.wait(lambda m: m["type"] == "notice" and m["message"], timeout=10)
    time.sleep(2.5)
    back_at = time.time()
    cutter.restore()
    wait_for(lambda: any(t > back_at for t in timed()), 10, "the timer stopped for good")
    assert not [t for t in timed() if cut_at + 0.5 < t < back_at]
    assert min(t for t in timed() if t > back_at) - back_at < 2.5


def _fail_once(store: Store, commit: bool) -> list[Any]:
    """Make the store's next write fail as a database that went away does (after committing
    it, when ``commit``); returns the futures of the writes it caught."""
    real = store.write
    caught: list[Any] = []

    def write(fn: Any) -> Any:
        store.write = real  # type: ignore[method-assign]
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        caught.append(fut)
        inner = real(fn) if commit else None

        async def answer() -> None:
            if inner is not None:
                await inner
            fut.set_exception(StoreError("the database cannot be reached: gone",
                                         unreachable=True))

        caught.append(loop.create_task(answer()))
        return fut

    store.write = write  # type: ignore[method-assign]
    return caught


def test_a_move_stored_whose_answer_was_lost_is_shown_once_the_database_answers(
        make_server: Callable[..., LiveServer]) -> None:
    """The connection broke as the move committed: the room takes the move back (nobody saw
    it), tells the player the database is away, and when the database answers it finds the
    move in the log and shows it, at its seq."""
    server = make_server()
    room, host, st = host_to_move(server, 3)
    store = server.app.state.store
    _fail_once(store, commit=True)
    action = st["view"]["legal"][0]
    host.act(action, seq=st["seq"])
    assert host.wait("error")["code"] == "no_database"
    shown = host.wait(lambda m: m["type"] == "state" and m["seq"] > st["seq"], timeout=10)
    logged = store.match_actions(room["room"], 1)
    assert shown["seq"] == st["seq"] + 1 == logged[st["seq"]].seq
    assert logged[st["seq"]].action.split()[:2] == action.split()[:2]
    host.wait(lambda m: m["type"] == "notice" and m["message"] is None, timeout=5)


def test_nobody_sees_a_move_whose_write_is_pending_and_then_fails(
        make_server: Callable[..., LiveServer]) -> None:
    """A spectator who arrives while a move's write is pending is welcomed and shown the table
    only once the write is answered; the write fails, so the move is never shown, to
    anyone."""
    server = make_server()
    room, host, st = host_to_move(server, 4)
    rid = room["room"]
    store = server.app.state.store
    real = store.write
    held: list[tuple[Any, Any]] = []

    def hold(fn: Any) -> Any:
        store.write = real  # type: ignore[method-assign]
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        held.append((loop, fut))
        return fut

    store.write = hold  # type: ignore[method-assign]
    host.act(st["view"]["legal"][0], seq=st["seq"])
    wait_for(lambda: held, 5, "the move was not written")
    watcher = Client(server.url, rid)
    with pytest.raises(TimeoutError):
        watcher.wait("welcome", timeout=0.5)  # not while the write is pending
    loop, fut = held[0]
    loop.call_soon_threadsafe(fut.set_exception, StoreError("the database refused a write"))
    watcher.wait("welcome")
    assert watcher.wait("state")["seq"] == st["seq"]
    assert host.wait("error")["code"] == "server_error"
    for c in (host, watcher):
        c.drain(0.3)
        assert all(m["seq"] <= st["seq"] for m in c.messages if m["type"] == "state")


def test_a_log_that_does_not_replay_is_reported_and_the_room_still_opens(
        make_server: Callable[..., LiveServer], caplog: pytest.LogCaptureFixture) -> None:
    server = make_server()
    room = create_room(server, ["bot"])
    rid = room["room"]
    host = Client(server.url, rid, room["token"])
    host.wait("welcome")
    host.send({"type": "start", "token": host.token})
    play([host], random.Random(5), until=lambda cs: (cs[0].state or {}).get("seq", 0) >= 6,
         timeout=20)
    host.close()
    store = server.app.state.store
    server.stop()
    with store.engine.begin() as conn:  # action 4 is lost: 5 and after do not replay
        conn.execute(delete(actions).where(actions.c.room_id == rid, actions.c.seq == 4))

    with caplog.at_level(logging.ERROR, logger="unoarena.web"):
        again = make_server()
    reports = [r.getMessage() for r in caplog.records if rid in r.getMessage()]
    assert len(reports) == 1 and "action 4" in reports[0], reports
    host = Client(again.url, rid, room["token"], lang="zh_TW")
    host.wait("welcome")
    st = host.wait("state")
    assert st["seq"] == 3
    note = host.wait("notice")["message"]
    assert note == gettext_in("zh_TW", LOG_BROKEN).format(seq=4)
    if st["view"]["turn"] == st["you"] and st["view"]["legal"]:
        host.act(st["view"]["legal"][0], seq=3)
        assert host.wait("error")["code"] == "log_broken"
    assert again.http.get("/healthz").json()["broken"] == [rid]
