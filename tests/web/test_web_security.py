"""The server is the only authority: malformed, oversized, too frequent, forged or
out-of-turn messages are refused with a clear error and change nothing."""

from __future__ import annotations

import json
from typing import Any

from unoarena.testing.web_server import Client, LiveServer, create_room, host_and_bob


def table(server: LiveServer) -> tuple[str, Client, Client, dict[str, Any]]:
    rid, host, bob, bob_seat = host_and_bob(server, ["human", "bot", "bot"])
    host.send({"type": "start", "token": host.token})
    host.wait("state")
    bob.wait("state")
    return rid, host, bob, bob_seat


def unchanged(client: Client, seq: int) -> None:
    client.send({"type": "ping", "t": 1})
    client.wait("pong")
    st = client.state
    assert st is not None and st["seq"] == seq


def test_malformed_messages_are_refused(server: LiveServer) -> None:
    _rid, host, _bob, _ = table(server)
    host.drain()
    seq = host.state["seq"] if host.state else 0
    cases: list[tuple[str, str]] = [
        ("not json", "bad_message"),
        ("[1, 2]", "bad_message"),
        (json.dumps({"type": "fly"}), "bad_message"),
        (json.dumps({"type": "act", "token": host.token}), "bad_message"),
        (json.dumps({"type": "act", "action": 7, "token": host.token}), "bad_message"),
        (json.dumps({"type": "act", "action": "draw", "token": host.token, "seat": 2}),
         "bad_message"),
        (json.dumps({"type": "act", "action": "x" * 300, "token": host.token}), "bad_message"),
        (json.dumps({"type": "act", "action": "fly away", "token": host.token}), "bad_action"),
        (json.dumps({"type": "act", "action": "draw", "token": host.token, "seq": "1"}),
         "bad_message"),
        (json.dumps({"type": "hello"}), "bad_message"),
        (json.dumps({"type": "remove", "token": host.token, "player": True}), "bad_message"),
        (json.dumps({"type": "act", "action": "draw", "token": host.token,
                     "pad": "x" * 5000}), "too_large"),
    ]
    for raw, code in cases:
        host.ws.send(raw)
        err = host.wait("error")
        assert err["code"] == code, (raw[:60], err)
        assert err["message"]
    unchanged(host, seq)


def test_out_of_turn_and_for_another_seat_are_refused(server: LiveServer) -> None:
    rid, host, bob, bob_seat = table(server)
    for c in (host, bob):
        c.drain()
    st = host.state
    assert st is not None
    seq = st["seq"]
    turn = st["view"]["turn"]
    idle = bob if turn == 0 else host
    if st["view"]["turn"] in (0, 1) and idle.state is not None \
            and not idle.state["view"]["legal"]:
        idle.act("draw", seq=seq)
        assert idle.wait("error")["code"] == "not_your_turn"
    # Bob's connection with the host's token: acting for another seat
    bob.send({"type": "act", "action": "draw", "token": host.token})
    assert bob.wait("error")["code"] == "bad_token"
    # a forged token
    bob.send({"type": "act", "action": "draw", "token": "forged-token-123"})
    assert bob.wait("error")["code"] == "bad_token"
    # a spectator cannot act, even with a token it does not own
    spy = Client(server.url, rid)
    spy.wait("welcome")
    spy.send({"type": "act", "action": "draw", "token": bob_seat["token"]})
    assert spy.wait("error")["code"] == "not_seated"
    forged = Client(server.url, rid, "not-a-real-token")
    assert forged.wait("error")["code"] == "bad_token"
    assert forged.wait("welcome")["player"] is None
    # a stale action
    host.act("draw", seq=seq - 1 if seq else 999)
    assert host.wait("error")["code"] == "stale"
    unchanged(host, seq)
    unchanged(bob, seq)


def test_illegal_actions_change_nothing(server: LiveServer) -> None:
    _rid, host, bob, _ = table(server)
    for c in (host, bob):
        c.drain()
    st = host.state
    assert st is not None
    me = host if st["view"]["turn"] == 0 else bob if st["view"]["turn"] == 1 else None
    if me is None or me.state is None:
        return
    seq = me.state["seq"]
    hand = list(me.state["view"]["hand"])
    missing = next(c for c in ("R0", "Y0", "G0", "B0", "W", "W4") if c not in hand)
    me.act(f"play {missing}", seq=seq)
    err = me.wait("error")
    # A wild starter's colour is named first (START-4), before any play is looked at.
    expected = "must_name_color" if me.state["view"]["phase"] == "color" else "card_not_in_hand"
    assert err["code"] == expected and err["detail"]
    me.act("catch 9", seq=seq)
    assert me.wait("error")["code"] in ("no_window", "bad_target", "not_your_turn")
    unchanged(me, seq)
    assert me.state["view"]["hand"] == hand


def test_rate_limit(make_server: Any) -> None:
    server = make_server(rate=5.0, burst=5.0)
    room = create_room(server, ["bot"])
    host = Client(server.url, room["room"], room["token"])
    host.wait("welcome")
    for _ in range(30):
        host.send({"type": "ping"})
    codes = []
    for _ in range(30):
        m = host.wait(lambda m: m["type"] in ("pong", "error"))
        codes.append(m.get("code", "pong"))
    assert "rate_limited" in codes and codes.count("pong") <= 8


def test_a_flooder_is_closed_with_a_policy_code_and_a_reason(make_server: Any) -> None:
    from websockets.exceptions import ConnectionClosed

    from unoarena.web.app import MAX_STRIKES

    server = make_server(rate=1.0, burst=1.0)
    room = create_room(server, ["bot"])
    flooder = Client(server.url, room["room"], room["token"])
    flooder.wait("welcome")
    try:
        for _ in range(MAX_STRIKES + 20):
            flooder.send({"type": "ping"})
    except ConnectionClosed:  # closed while still sending
        pass
    try:
        while True:
            flooder.recv(timeout=10)
    except ConnectionClosed as e:
        closed = e
    assert closed.rcvd is not None, "the server did not say why it closed"
    assert (closed.rcvd.code, closed.rcvd.reason) == (1008, "too many messages")
    assert any(m.get("code") == "rate_limited" for m in flooder.errors)
    # the room serves on for everyone else
    other = Client(server.url, room["room"])
    other.wait("room")


def test_hello_must_come_first_and_unknown_room(server: LiveServer) -> None:
    room = create_room(server, ["bot"])
    c = Client.__new__(Client)
    from websockets.sync.client import connect

    ws = connect(f"ws{server.url[4:]}/ws/{room['room']}", open_timeout=5).__enter__()
    ws.send(json.dumps({"type": "ping"}))
    msg = json.loads(ws.recv(timeout=5))
    assert msg["type"] == "error" and msg["code"] == "bad_message"
    ws.close()
    ws = connect(f"ws{server.url[4:]}/ws/nosuchroom", open_timeout=5).__enter__()
    msg = json.loads(ws.recv(timeout=5))
    assert msg["code"] == "no_room"
    ws.close()
    del c
