"""What the table does for the people at it, over WebSockets: bots give a person time for a
catch, a late click is told it was late, the match ends on its final scores, the log says one
thing once, and the host can hand a seat to a person's new device."""

from __future__ import annotations

import random
import time
from typing import Any

from unoarena.testing.web_server import Client, LiveServer, create_room, host_and_bob, join, play


def started(server: LiveServer, bots: list[str], **rules: Any) -> tuple[str, Client]:
    """A started room of Ann and the given bots."""
    rules.setdefault("players", len(bots) + 1)
    body = {"name": "Ann", "preset": "classic", "rules": rules,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": b} for b in bots]}
    r = server.http.post("/api/rooms", json=body)
    assert r.status_code == 200, r.text
    room = r.json()
    ann = Client(server.url, room["room"], room["token"])
    ann.wait("welcome")
    ann.send({"type": "start", "token": ann.token})
    ann.wait("state")
    return room["room"], ann


def catch_chance(ann: Client, deadline: float) -> dict[str, Any]:
    """Play Ann's turns until a bot forgets UNO and Ann may catch it; that state."""
    rng = random.Random(7)
    acted, errors = -1, len(ann.errors)
    while time.monotonic() < deadline:
        if len(ann.errors) > errors:  # a move refused (a bot moved first): choose again
            errors, acted = len(ann.errors), -1
        try:
            msg = ann.wait(lambda m: m["type"] == "state", timeout=0.2)
        except TimeoutError:
            msg = ann.state
        assert msg is not None
        v = msg["view"]
        if v["round_over"] or msg["status"] != "playing":
            continue
        if any(a.startswith("catch") for a in v["legal"]) and v["turn"] != msg["you"]:
            return msg
        if v["turn"] == msg["you"] and v["legal"] and msg["seq"] != acted:
            plays = [a for a in v["legal"] if not a.startswith(("catch", "uno"))]
            unos = [a for a in plays if a.endswith(" uno")]
            ann.act(rng.choice(unos or plays or v["legal"]), seq=msg["seq"])
            acted = msg["seq"]
    raise AssertionError(f"no bot forgot UNO in time; last state {ann.state}, "
                         f"errors {ann.errors[-3:]}")


def test_bots_hold_their_turn_while_a_person_may_catch(make_server: Any) -> None:
    server = make_server(person_window=1.0)
    # bots that forget UNO half the time and never take a chance out of turn themselves
    _rid, ann = started(server, ["random:decline=1", "random:decline=1"], hand_size=2,
                        rounds=100)
    chance = catch_chance(ann, time.monotonic() + 60)
    seen = time.monotonic()
    nxt = ann.wait(lambda m: m["type"] == "state" and m["seq"] > chance["seq"], timeout=10)
    assert time.monotonic() - seen >= 0.85, "the next bot moved before Ann could catch"
    catch = next(a for a in chance["view"]["legal"] if a.startswith("catch"))
    if catch in nxt["view"]["legal"]:  # still open (rare): wait until it closes
        nxt = ann.wait(lambda m: m["type"] == "state" and catch not in m["view"]["legal"],
                       timeout=10)
    # the click that arrives after the window closed is told so, not asked to retry
    ann.act(catch, seq=chance["seq"])
    err = ann.wait("error")
    assert err["code"] == "too_late" and "Too late" in err["message"], err


def test_a_person_catches_a_bot_in_the_time_given(make_server: Any) -> None:
    server = make_server(person_window=2.0)
    _rid, ann = started(server, ["random:decline=1", "random:decline=1"], hand_size=2,
                        rounds=100)
    chance = catch_chance(ann, time.monotonic() + 60)
    time.sleep(0.5)  # a person's reaction, well inside the window
    catch = next(a for a in chance["view"]["legal"] if a.startswith("catch"))
    ann.act(catch, seq=chance["seq"])
    msg = ann.wait(lambda m: m["type"] in ("state", "error"))
    assert msg["type"] == "state", msg
    assert any("caught" in line for line in msg["log"]), msg["log"]


def test_the_match_ends_on_its_final_scores(server: LiveServer) -> None:
    room = create_room(server, ["bot"], rounds=1, hand_size=3)
    ann = Client(server.url, room["room"], room["token"])
    ann.wait("welcome")
    ann.send({"type": "start", "token": ann.token})
    ann.wait("state")
    play([ann], random.Random(4))
    ann.drain()
    assert ann.over is not None
    states = [m for m in ann.messages if m["type"] == "state"]
    last = states[-1]
    assert last["status"] == "finished"
    assert last["match_scores"] == ann.over["scores"]
    assert sum(ann.over["scores"]) > 0  # the winner scored: the final state is not the old one


def test_your_own_draw_is_one_line(server: LiveServer) -> None:
    rid, ann, bob, _seat = host_and_bob(server, ["human"])
    ann.send({"type": "start", "token": ann.token})
    st = ann.wait("state")
    bob.wait("state")
    # whoever's turn it is draws a card (after the opening's colour or penalty, if any)
    for _ in range(10):
        ann.drain()
        bob.drain()
        st = ann.state
        assert st is not None
        me, other = (ann, bob) if st["view"]["turn"] == st["you"] else (bob, ann)
        mine = me.state
        assert mine is not None
        if "draw" in mine["view"]["legal"] and not mine["view"]["pending"]:
            break
        me.act(mine["view"]["legal"][0], seq=mine["seq"])
        me.wait(lambda m, q=mine["seq"]: m["type"] == "state" and m["seq"] > q)
    me.act("draw", seq=mine["seq"])
    msg = me.wait(lambda m, q=mine["seq"]: m["type"] == "state" and m["seq"] > q)
    name = "Ann" if me is ann else "Bob"
    assert len(msg["log"]) == 1 and msg["log"][0].startswith("You drew "), msg["log"]
    seen = other.wait(lambda m: m["type"] == "state" and m["seq"] >= msg["seq"])
    assert len(seen["log"]) == 1 and seen["log"][0].startswith(f"{name} drew 1 card"), seen["log"]
    assert "You drew" not in seen["log"][0]
    assert rid


def test_the_host_hands_a_seat_to_a_new_device(server: LiveServer) -> None:
    rid, ann, bob, bob_seat = host_and_bob(server, ["human", "human", "bot"])
    h = server.http
    r = h.post(f"/api/rooms/{rid}/seat-link", json={"token": ann.token, "player": 1})
    assert r.status_code == 200, r.text
    url = r.json()["url"]
    assert url.startswith(f"/r/{rid}#seat=")
    token = url.split("#seat=", 1)[1]
    # the old device is told and watches; the new link sits in Bob's seat
    assert "another device" in bob.wait("removed")["message"]
    new = Client(server.url, rid, token)
    assert new.wait("welcome")["player"] == 1
    old = Client(server.url, rid, bob_seat["token"])
    assert old.wait("error")["code"] == "bad_token"
    # only the host may do it, only for a person, and never for the host's own seat
    carl = join(server, rid, "Carl")
    for body, status, code in [
        ({"token": carl["token"], "player": 1}, 403, "not_host"),
        ({"token": "nope", "player": 1}, 403, "bad_token"),
        ({"token": ann.token, "player": 3}, 400, "bad_seat"),
        ({"token": ann.token, "player": 0}, 400, "bad_seat"),
        ({"token": ann.token, "player": 9}, 400, "bad_seat"),
        ({"token": ann.token}, 400, "bad_message"),
    ]:
        r = h.post(f"/api/rooms/{rid}/seat-link", json=body)
        assert (r.status_code, r.json()["code"]) == (status, code), (body, r.text)
        assert r.json()["message"]
