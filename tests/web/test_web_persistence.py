"""Every room and action is stored; a server that stops and starts again on the same database
resumes every room exactly (DIG-1), and the schema is migrated at every start."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy import func, select

from unoarena.testing.web_server import (
    Client,
    create_room,
    host_and_bob,
    host_to_move,
    play,
    write_batch,
)
from unoarena.web.store import actions, matches, rooms


def test_actions_are_stored_and_a_restart_resumes_exactly(make_server: Any) -> None:
    server = make_server()
    rid, host, bob, bob_seat = host_and_bob(server, ["human", "bot", "bot"], jump_in=True)
    host.send({"type": "start", "token": host.token})
    play([host, bob], random.Random(7), until=lambda cs: (cs[0].state or {}).get("seq", 0) > 15,
         timeout=30)
    for c in (host, bob):
        c.drain(0.2)
    before = {c.token: c.state for c in (host, bob)}
    seq = host.state["seq"] if host.state else 0
    store = server.app.state.store
    with store.reading() as conn:
        n = conn.execute(select(func.count()).select_from(actions)
                         .where(actions.c.room_id == rid)).scalar_one()
        assert conn.execute(select(rooms.c.status).where(rooms.c.id == rid)).scalar_one() \
            == "playing"
    assert n == seq
    host.close()
    bob.close()
    server.stop()

    again = make_server()
    info = again.http.get(f"/api/rooms/{rid}").json()
    assert info["status"] == "playing"
    for token in (host.token, bob_seat["token"]):
        c = Client(again.url, rid, token)
        c.wait("welcome")
        st = c.wait("state")
        old = before[token]
        assert old is not None
        assert st["seq"] == old["seq"]
        for key in ("hand", "hand_sizes", "top", "color", "turn", "direction", "legal",
                    "pending", "phase"):
            assert st["view"][key] == old["view"][key], key
        c.close()


def test_finished_matches_are_recorded(make_server: Any) -> None:
    server = make_server()
    room = create_room(server, ["bot"], rounds=1, hand_size=3)
    host = Client(server.url, room["room"], room["token"])
    host.wait("welcome")
    host.send({"type": "start", "token": host.token})
    play([host], random.Random(8))
    host.drain()
    assert host.over is not None
    store = server.app.state.store
    with store.reading() as conn:
        row = conn.execute(select(matches).where(matches.c.room_id == room["room"])
                           ).mappings().one()
    assert row["finished_at"] is not None and row["winners"]
    server.stop()
    again = make_server()
    info = again.http.get(f"/api/rooms/{room['room']}").json()
    assert info["status"] == "finished"


def test_migrations_are_idempotent(db: Any) -> None:
    """A second migration (every start runs one) changes nothing: a stored room, its rules
    and its players are there as they were."""
    import secrets

    from unoarena.engine import preset
    from unoarena.web.store import PlayerRow, op_create_room

    store = db()
    store.migrate()
    room_id = "mig" + secrets.token_hex(4)
    rules = preset("classic").to_dict()
    people = [PlayerRow(0, "human", "Ann", None, "basic"), PlayerRow(1, "bot", "", None, "random")]
    with store.engine.begin() as conn:
        op_create_room(room_id, rules, 0, people)(conn)
    with store.reading() as conn:
        count = conn.execute(select(func.count()).select_from(rooms)).scalar_one()
    store.migrate()
    with store.reading() as conn:
        assert conn.execute(select(func.count()).select_from(rooms)).scalar_one() == count
    [row] = store.load_rooms([room_id])
    assert row.rules == rules and row.status == "lobby"
    assert [(p.player, p.kind, p.name, p.bot) for p in row.players] == [
        (0, "human", "Ann", "basic"), (1, "bot", "", "random")]
    store.close()


def test_a_failed_write_leaves_the_table_as_stored(make_server: Any) -> None:
    import asyncio

    from unoarena.web.store import StoreError

    server = make_server()
    _, host, st = host_to_move(server, 3)
    store = server.app.state.store
    real = store.write

    def failing(fn: Any) -> Any:
        store.write = real  # only this once
        fut = asyncio.get_running_loop().create_future()
        fut.set_exception(StoreError("the database refused a write: disk full"))
        return fut

    store.write = failing
    host.act(st["view"]["legal"][0], seq=st["seq"])
    err = host.wait("error")  # the rebuilt table comes just before it
    assert err["code"] == "server_error"
    after = host.state
    assert after is not None
    assert after["seq"] == st["seq"] and after["view"]["hand"] == st["view"]["hand"]
    host.act(st["view"]["legal"][0], seq=st["seq"])
    assert host.wait(lambda m: m["type"] in ("state", "error"))["type"] == "state"


def test_a_busy_batch_stores_every_action_in_order_and_a_bad_one_fails_alone(db: Any) -> None:
    """The writer merges consecutive appends of a batch into one insert: every room's log is
    still complete and in order, other writes keep their place, and a write the database
    refuses fails on its own while the rest of its batch commits."""
    from sqlalchemy import event

    from unoarena.web.store import (
        ActionRow,
        PlayerRow,
        StoreError,
        op_actions,
        op_create_room,
        op_finish_match,
        op_start_match,
    )

    store = db()
    store.migrate()
    r1, r2 = (f"{name}{random.getrandbits(32):08x}" for name in ("busy", "calm"))  # shared db
    people = [PlayerRow(0, "human", "Ann", None, ""), PlayerRow(1, "bot", "Bot", None, "basic")]
    assert write_batch(store, [op for rid in (r1, r2) for op in (
        op_create_room(rid, {}, 0, people),
        op_start_match(rid, 1, 7, {}, ["Ann", "Bot"], people))]) == [None] * 4
    statements: list[str] = []
    event.listen(store.engine, "before_cursor_execute",
                 lambda *a: statements.append(str(a[2]).split()[0]))

    def acts(*seqs: int) -> list[ActionRow]:
        return [ActionRow(0, s, s % 2, "draw", "human") for s in seqs]

    done = write_batch(store, [op_actions(r1, 1, acts(1, 2)), op_actions(r2, 1, acts(1)),
                               op_actions(r1, 1, acts(3)),
                               op_finish_match(r1, 1, [0], [10, 0]),
                               op_actions(r2, 1, acts(2))])
    assert done == [None] * 5
    assert statements.count("INSERT") == 2  # one for the four appends, one for the last
    assert statements.count("UPDATE") == 2  # the finished match, in its place

    def logs() -> dict[str, list[int]]:
        with store.reading() as conn:
            rows = conn.execute(select(actions.c.room_id, actions.c.seq)
                                .where(actions.c.room_id.in_((r1, r2)))
                                .order_by(actions.c.id)).all()
        out: dict[str, list[int]] = {}
        for rid, seq in rows:
            out.setdefault(rid, []).append(seq)
        return out

    assert logs() == {r1: [1, 2, 3], r2: [1, 2]}
    # seq 3 of r1 is already stored: that append fails alone, its neighbours commit
    done = write_batch(store, [op_actions(r2, 1, acts(3)), op_actions(r1, 1, acts(3)),
                               op_actions(r2, 1, acts(4))])
    assert done[0] is None and done[2] is None
    assert isinstance(done[1], StoreError)
    assert logs() == {r1: [1, 2, 3], r2: [1, 2, 3, 4]}
    store.close()
