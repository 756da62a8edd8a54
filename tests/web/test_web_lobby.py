"""Finding a game: public rooms listed live in the lobby (the list once, then only what
changed), quick play seating people at open tables or opening one that bots fill, later
arrivals taking a bot's seat between rounds, and a move sent again after a reconnect applied
once."""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Callable
from typing import Any

from server_util import Client, LiveServer, create_room, join, pick, play, wait_for
from websockets.sync.client import connect

from unoarena.web.schema import decode_server


class LobbyWatcher:
    """A lobby socket, keeping the list as a page would: the first message, then each diff."""

    def __init__(self, base: str) -> None:
        self.ws = connect(f"ws{base[4:]}/ws/lobby?lang=en", open_timeout=10).__enter__()
        self.rooms: dict[str, dict[str, Any]] = {}
        self.diffs: list[dict[str, Any]] = []
        self.raw: list[str] = []
        first = self.recv(10)
        assert first["type"] == "lobby"
        self.rooms = {r["id"]: r for r in first["rooms"]}

    def recv(self, timeout: float) -> dict[str, Any]:
        text = str(self.ws.recv(timeout=timeout))
        decode_server(text)  # every message is one the published protocol describes
        self.raw.append(text)
        msg: dict[str, Any] = json.loads(text)
        if msg["type"] == "lobby_diff":
            self.diffs.append(msg)
            for r in msg["add"]:
                self.rooms[r["id"]] = r
            for c in msg["change"]:
                self.rooms[c["id"]].update(c)
            for rid in msg["remove"]:
                self.rooms.pop(rid, None)
        return msg

    def until(self, pred: Any, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while not pred(self.rooms):
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"the lobby never showed it: {self.rooms}")
            with contextlib.suppress(TimeoutError):
                self.recv(left)

    def close(self) -> None:
        self.ws.close()


def public_room(server: LiveServer, seats: list[str], **rules: Any) -> dict[str, Any]:
    rules.setdefault("players", len(seats) + 1)
    body = {"name": "Ann", "preset": "classic", "rules": rules, "public": True,
            "seats": [{"kind": "human"}] + [{"kind": k} for k in seats]}
    r = server.http.post("/api/rooms", json=body)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def quick(server: LiveServer, name: str, level: str = "easy", preset: str = "classic"
          ) -> dict[str, Any]:
    r = server.http.post("/api/quick", json={"name": name, "preset": preset, "level": level})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_public_rooms_are_listed_and_private_ones_are_not(solo: Callable[..., LiveServer]) -> None:
    server = solo()
    private = create_room(server, ["human", "bot"])
    public = public_room(server, ["human", "bot"], stacking="draw2")
    watcher = LobbyWatcher(server.url)
    try:
        assert set(watcher.rooms) == {public["room"]}
        listed = watcher.rooms[public["room"]]
        assert listed["preset"] == "classic" and listed["house"] == {"stacking": "draw2"}
        assert (listed["seats"], listed["open"], listed["people"], listed["bots"]) == \
            (3, 1, ["Ann"], 1)
        assert listed["joinable"] and listed["status"] == "lobby"
        info = server.http.get(f"/api/rooms/{public['room']}").json()
        assert info["public"] is True
        assert server.http.get(f"/api/rooms/{private['room']}").json()["public"] is False
        # a spectator comes: only the spectators field travels
        spectator = Client(server.url, public["room"])
        spectator.wait("welcome")
        watcher.until(lambda rooms: rooms[public["room"]]["spectators"] == 1)
        assert watcher.diffs[-1]["change"] == [{"id": public["room"], "spectators": 1}]
        # Bob takes the open seat: the room is full, and no longer joinable
        join(server, public["room"], "Bob")
        watcher.until(lambda rooms: rooms[public["room"]]["open"] == 0)
        assert watcher.rooms[public["room"]]["people"] == ["Ann", "Bob"]
        assert not watcher.rooms[public["room"]]["joinable"]
        # a new public room is added; the private one never shows
        other = public_room(server, ["bot"])
        watcher.until(lambda rooms: other["room"] in rooms)
        assert private["room"] not in watcher.rooms
        assert all(private["room"] not in raw for raw in watcher.raw)
        spectator.close()
    finally:
        watcher.close()


def test_a_finished_match_leaves_the_lobby(solo: Callable[..., LiveServer]) -> None:
    server = solo()
    room = public_room(server, ["bot"], rounds=1)
    watcher = LobbyWatcher(server.url)
    try:
        host = Client(server.url, room["room"], room["token"])
        host.wait("welcome")
        host.send({"type": "start", "token": host.token})
        watcher.until(lambda rooms: rooms[room["room"]]["status"] == "playing")
        play([host], random.Random(3))
        watcher.until(lambda rooms: room["room"] not in rooms)
        assert watcher.diffs[-1]["remove"] == [room["room"]]
        host.close()
    finally:
        watcher.close()


def test_public_rooms_are_listed_again_after_a_restart(make_server: Any) -> None:
    first = make_server()
    room = public_room(first, ["human", "bot"])
    private = create_room(first, ["human"])
    first.stop()
    second = make_server()
    listed = second.http.get("/api/lobby").json()["rooms"]
    ids = [r["id"] for r in listed]  # (PostgreSQL's test schema holds other tests' rooms)
    assert room["room"] in ids and private["room"] not in ids
    assert second.http.get(f"/api/rooms/{private['room']}").json()["public"] is False


def test_a_change_sends_a_fraction_of_the_list(solo: Callable[..., LiveServer]) -> None:
    server = solo()
    rooms = [public_room(server, ["human", "human", "bot"]) for _ in range(30)]
    watcher = LobbyWatcher(server.url)
    try:
        whole = len(json.dumps(server.http.get("/api/lobby").json()))
        join(server, rooms[7]["room"], "Bob")
        watcher.until(lambda listed: listed[rooms[7]["room"]]["open"] == 1)
        diff = watcher.raw[-1]
        assert len(diff) * 10 < whole, (len(diff), whole)
        assert json.loads(diff)["change"][0]["people"] == ["Ann", "Bob"]
    finally:
        watcher.close()


def test_quick_play_opens_a_table_that_bots_fill(solo: Callable[..., LiveServer]) -> None:
    server = solo(quick_wait=0.5)
    ann = quick(server, "Ann", level="medium")
    assert ann["player"] == 0 and ann["fill_in"] == 0.5 and not ann["waiting"]
    host = Client(server.url, ann["room"], ann["token"])
    host.wait("welcome")
    info = host.wait(lambda m: m["type"] == "room")
    assert info["public"] and info["quick"] == "medium" and info["fill_in_ms"] is not None
    # nobody else comes: the bots of the chosen level sit down and the game starts
    host.wait(lambda m: m["type"] == "room" and m["status"] == "playing", timeout=10)
    assert [(p["kind"], p["bot"]) for p in host.room["players"]][1:] == \
        [("bot", "heuristic")] * 3
    host.close()


def test_quick_play_seats_people_at_the_same_table_and_starts_when_full(
        solo: Callable[..., LiveServer]) -> None:
    server = solo(quick_wait=60)
    ann = quick(server, "Ann")
    others = [quick(server, name) for name in ("Bob", "Cy")]
    assert {o["room"] for o in others} == {ann["room"]}
    assert [o["player"] for o in others] == [1, 2]
    other_rules = quick(server, "Dee", preset="house")  # another rule set: another table
    assert other_rules["room"] != ann["room"]
    quick(server, "Eve")  # the fourth person fills the table: it starts without the wait
    info = server.http.get(f"/api/rooms/{ann['room']}").json()
    assert info["status"] == "playing"
    assert [p["name"] for p in info["players"]] == ["Ann", "Bob", "Cy", "Eve"]


def test_a_later_arrival_takes_a_bots_seat_between_rounds(solo: Callable[..., LiveServer]) -> None:
    server = solo(quick_wait=0.2)
    ann = quick(server, "Ann")
    host = Client(server.url, ann["room"], ann["token"])
    host.wait(lambda m: m["type"] == "state")
    bob = quick(server, "Bob")
    assert bob["room"] == ann["room"] and bob["waiting"] and bob["player"] != 0
    seat = bob["player"]
    bob_c = Client(server.url, bob["room"], bob["token"])
    welcome = bob_c.wait("welcome")
    assert welcome["player"] is None and welcome["waiting"] is True
    bob_c.wait(lambda m: m["type"] == "room"
               and m["players"][seat]["next"] == "Bob" and m["players"][seat]["kind"] == "bot")
    round_now = host.state["round"] if host.state else 0
    # the round in play stays the bot's; when the next is dealt, Bob holds the seat
    play([host], random.Random(5), until=lambda cs: bool(
        cs[0].state and cs[0].state["round"] > round_now), timeout=60)
    promoted = bob_c.wait(lambda m: m["type"] == "welcome" and m["player"] == seat)
    assert promoted["waiting"] is False
    bob_c.wait(lambda m: m["type"] == "room" and m["players"][seat]["kind"] == "human"
               and m["players"][seat]["name"] == "Bob")
    state = bob_c.wait(lambda m: m["type"] == "state" and m["you"] is not None)
    assert state["view"]["hand"], "Bob sees his own hand"
    # stored: a restart seats Bob there, a person
    rows = server.manager.store.load_rooms([ann["room"]])
    assert (rows[0].players[seat].kind, rows[0].players[seat].name) == ("human", "Bob")
    host.close()
    bob_c.close()


def test_quick_play_refuses_an_unknown_level_and_changes_nothing(
        solo: Callable[..., LiveServer]) -> None:
    server = solo()
    r = server.http.post("/api/quick", json={"name": "Ann", "preset": "classic",
                                             "level": "godlike"})
    assert r.status_code == 400
    body = r.json()
    assert body["code"] == "bad_level" and "easy, medium, hard, expert" in body["message"]
    assert server.manager.rooms == {}
    r = server.http.post("/api/quick", json={"name": "Ann", "preset": "nope", "level": "easy"})
    assert r.status_code == 400 and r.json()["code"] == "bad_rules"
    r = server.http.post("/api/rooms", json={"name": "Ann", "preset": "classic", "public": "yes",
                                             "seats": [{"kind": "human"}] * 4})
    assert r.status_code == 400 and "true or false" in r.json()["message"]
    assert server.manager.rooms == {}


def test_a_move_sent_again_after_a_reconnect_is_applied_once(make_server: Any) -> None:
    server = make_server()
    room = create_room(server, ["bot"])
    host = Client(server.url, room["room"], room["token"])
    host.wait("welcome")
    host.send({"type": "start", "token": host.token})
    play([host], random.Random(2), until=lambda cs: bool(
        cs[0].state and cs[0].state["view"]["turn"] == cs[0].state["you"]
        and cs[0].state["view"]["legal"]), timeout=10)
    st = host.state
    assert st is not None
    action = pick(st["view"]["legal"], random.Random(2))
    host.act(action, seq=st["seq"], id="m-1")
    host.close()  # the socket drops at once: the page cannot know the move arrived
    again = Client(server.url, room["room"], room["token"])
    again.wait("welcome")
    seen = again.wait("state")
    again.act(action, seq=st["seq"], id="m-1")  # sent again, as the page does
    again.send({"type": "ping", "t": 1})
    again.wait("pong")
    assert not [e for e in again.errors if e["code"] != "not_your_turn"], again.errors
    wait_for(lambda: server.manager.rooms[room["room"]].seq > st["seq"], 5, "the move")
    rows = [r for r in server.manager.store.match_actions(room["room"], 1) if r.seq > st["seq"]]
    # one application of the move: the person's steps come first and together, then the bot's
    people = [r.seq for r in rows if r.source == "human"]
    assert people and people == list(range(st["seq"] + 1, st["seq"] + 1 + len(people)))
    assert seen["seq"] >= st["seq"]
    again.close()


def test_a_room_whose_host_went_away_leaves_the_lobby_until_they_are_back(
        solo: Callable[..., LiveServer]) -> None:
    server = solo(away_after=0.6)
    room = public_room(server, ["human"])
    watcher = LobbyWatcher(server.url)
    try:
        assert room["room"] in watcher.rooms  # just made: its host is on the way
        # nobody would start it: the host has not come for longer than away_after
        watcher.until(lambda rooms: room["room"] not in rooms, timeout=5)
        host = Client(server.url, room["room"], room["token"])
        host.wait("welcome")
        watcher.until(lambda rooms: room["room"] in rooms, timeout=5)
        host.close()
    finally:
        watcher.close()


def test_a_seat_promised_for_the_next_round_survives_a_restart(
        solo: Callable[..., LiveServer]) -> None:
    first = solo(quick_wait=0.2)
    ann = quick(first, "Ann")
    host = Client(first.url, ann["room"], ann["token"])
    host.wait(lambda m: m["type"] == "state")
    bob = quick(first, "Bob")
    assert bob["waiting"]
    host.close()
    first.stop()
    second = solo()
    info = second.http.get(f"/api/rooms/{ann['room']}").json()
    seat = info["players"][bob["player"]]
    assert (seat["kind"], seat["next"], seat["name"]) == ("bot", "Bob", f"Bot {seat['player'] + 1}")
    again = Client(second.url, bob["room"], bob["token"])
    welcome = again.wait("welcome")
    assert welcome["player"] is None and welcome["waiting"] is True
    assert not again.errors  # the token is good: no "not valid here"
    again.close()


def test_serve_takes_the_quick_play_wait(tmp_path: Any) -> None:
    """``--quick-wait``: how long a new quick-play table waits before bots fill it."""
    import socket
    import subprocess
    import sys

    import httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "unoarena.web", "--port", str(port), "--database-url",
         f"sqlite:///{tmp_path / 'serve.sqlite3'}", "--quick-wait", "0.5", "--bot-delay", "0",
         "--log-level", "warning"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        def up() -> bool:
            try:
                return httpx.get(base + "/healthz", timeout=1).status_code == 200
            except httpx.HTTPError:
                return False

        wait_for(up, 30, "the server to start")
        seat = httpx.post(base + "/api/quick", json={"name": "Ann", "preset": "classic",
                                                     "level": "easy"}, timeout=10).json()
        assert seat["fill_in"] == 0.5
        host = Client(base, seat["room"], seat["token"])
        host.wait("welcome")
        wait_for(lambda: httpx.get(f"{base}/api/rooms/{seat['room']}", timeout=5)
                 .json()["status"] == "playing", 10, "bots to fill the table")
        host.close()
    finally:
        proc.terminate()
        proc.wait(15)


def test_a_quick_table_its_host_left_is_not_filled_until_they_are_back(
        solo: Callable[..., LiveServer]) -> None:
    server = solo(quick_wait=0.3)
    ann = quick(server, "Ann")
    time.sleep(1.0)  # three waits: nobody at the table, so no match of bots alone
    assert server.http.get(f"/api/rooms/{ann['room']}").json()["status"] == "lobby"
    host = Client(server.url, ann["room"], ann["token"])
    host.wait(lambda m: m["type"] == "room" and m["status"] == "playing", timeout=5)
    host.close()
