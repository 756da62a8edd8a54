"""Playing over WebSockets: whole games with people and bots, each seeing only their own
hand (DIG-2), real-time windows, reloads, host controls, the turn timer and stand-ins."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

from unoarena.engine import CODES
from unoarena.testing.web_server import Client, LiveServer, create_room, join, play


def on_loop(server: LiveServer, fn: Any) -> Any:
    """Run ``fn()`` on the server's event loop (the rooms live there) and return its result."""
    loop = next(iter(server.manager.rooms.values())).loop

    async def call() -> Any:
        return fn()
    return asyncio.run_coroutine_threadsafe(call(), loop).result(10)


def snapshot(server: LiveServer, room: str) -> tuple[int, list[list[str]]]:
    """The room's message seq and every seat's hand, read together on the server's loop."""
    def get() -> tuple[int, list[list[str]]]:
        r = server.manager.rooms[room]
        g = r.match.game
        return r.seq, [[CODES[k] for k in sorted(g.hand(s))] for s in range(g.players)]
    result: tuple[int, list[list[str]]] = on_loop(server, get)
    return result


def hands(server: LiveServer, room: str) -> list[list[str]]:
    return snapshot(server, room)[1]


def settled_hands(server: LiveServer, room: str, clients: list[Client]) -> list[list[str]]:
    """Every seat's hand once the room is still and every client has its latest state (a bot
    may act between reading the server and reading a client: then look again)."""
    for _ in range(100):
        seq, truth = snapshot(server, room)
        for c in clients:
            c.drain(0.05)
        if (all(c.state is not None and c.state["seq"] == seq for c in clients)
                and snapshot(server, room)[0] == seq):
            return truth
    raise AssertionError("the room never stood still long enough to compare hands")


def start(server: LiveServer, seats: list[str], **rules: Any) -> tuple[str, list[Client]]:
    """A started room: the creator plus one client per "human" seat."""
    room = create_room(server, seats, **rules)
    rid = room["room"]
    clients = [Client(server.url, rid, room["token"])]
    for i, kind in enumerate(seats):
        if kind == "human":
            clients.append(Client(server.url, rid, join(server, rid, f"P{i + 1}")["token"]))
    for c in clients:
        c.wait("welcome")
    clients[0].send({"type": "start", "token": clients[0].token})
    for c in clients:
        c.wait(lambda m: m["type"] == "state")
    return rid, clients


def test_a_whole_match_with_two_people_and_two_bots(server: LiveServer) -> None:
    rid, clients = start(server, ["human", "bot", "bot"], rounds=1)
    play(clients, random.Random(1))
    for c in clients:
        c.drain()
        assert c.over is not None and c.over["match"] == 1
    info = server.http.get(f"/api/rooms/{rid}").json()
    assert info["status"] == "finished"
    assert clients[0].state is not None and clients[0].state["view"]["round_over"]
    lines = [line for m in clients[0].messages if m["type"] == "state" for line in m["log"]]
    assert any("wins the round" in line for line in lines)


def test_each_client_sees_only_its_own_hand(server: LiveServer) -> None:
    rid, clients = start(server, ["human", "bot"], rounds=1)
    watcher = Client(server.url, rid)
    watcher.wait(lambda m: m["type"] == "state")
    rng = random.Random(2)
    for _ in range(12):
        play(clients, rng, until=lambda cs: True, timeout=5)
        truth = settled_hands(server, rid, [*clients, watcher])
        if any(c.state is not None and c.state["view"]["round_over"] for c in clients):
            break
        for c in clients:
            st = c.state
            assert st is not None
            seat = st["you"]
            assert st["view"]["hand"] == truth[seat]
            assert st["view"]["hand_sizes"] == [len(h) for h in truth]
            for m in c.messages:
                for e in m.get("events", []):
                    assert e.get("to", seat) == seat, e  # nobody else's private events
        ws = watcher.state
        assert ws is not None and ws["you"] is None
        assert ws["view"]["hand"] == [] and ws["view"]["legal"] == [] and ws["view"]["seen"] == []
        assert all("to" not in e for m in watcher.messages for e in m.get("events", []))
        if clients[0].state is not None:
            c0 = clients[0].state["view"]
            assert c0["legal"] or c0["turn"] != c0["seat"]
        rng.random()
        clients_turn = [c for c in clients if c.state and c.state["view"]["turn"] == c.state["you"]]
        if clients_turn:
            c = clients_turn[0]
            assert c.state is not None
            c.act(c.state["view"]["legal"][0], seq=c.state["seq"])
            c.wait(lambda m: m["type"] in ("state", "error"))


def test_reload_returns_to_the_same_seat_and_hand(server: LiveServer) -> None:
    rid, clients = start(server, ["human", "bot", "bot"])
    bob = clients[1]
    play(clients, random.Random(3), until=lambda cs: (cs[1].state or {}).get("seq", 0) > 6,
         timeout=20)
    bob.drain()
    before = bob.state
    assert before is not None
    bob.close()
    again = Client(server.url, rid, bob.token)
    welcome = again.wait("welcome")
    assert welcome["player"] == 1
    st = again.wait("state")
    assert st["you"] == before["you"]
    assert st["view"]["hand"] == hands(server, rid)[st["you"]]
    log = again.wait("log")
    assert log["lines"]


def test_play_again_and_replay(server: LiveServer) -> None:
    rid, clients = start(server, ["bot"], rounds=1, hand_size=3)
    play(clients, random.Random(4))
    host = clients[0]
    host.drain()
    assert host.over is not None
    host.send({"type": "again", "token": host.token})
    st = host.wait(lambda m: m["type"] == "state" and m["match"] == 2)
    assert st["status"] == "playing" and st["seq"] == 0
    listing = server.http.get("/api/replays").json()["matches"]
    mine = [m for m in listing if m["room"] == rid]
    assert len(mine) == 1 and mine[0]["match"] == 1
    rep = server.http.get(f"/api/replays/{rid}/1?lang=en").json()
    steps = rep["rounds"][0]["steps"]
    assert steps[0]["action"] is None and steps[-1]["over"]
    assert all(len(s["hands"]) == 2 for s in steps)
    assert sum(len(r["steps"]) - 1 for r in rep["rounds"]) > 0
    assert server.http.get(f"/api/replays/{rid}/2").status_code == 404  # not finished


def test_host_controls(server: LiveServer) -> None:
    room = create_room(server, ["human", "human", "bot"])
    rid = room["room"]
    host = Client(server.url, rid, room["token"])
    bob_seat = join(server, rid, "Bob")
    bob = Client(server.url, rid, bob_seat["token"])
    host.wait("welcome")
    bob.wait("welcome")
    # only the host may change seats or start
    bob.send({"type": "start", "token": bob.token})
    assert bob.wait("error")["code"] == "not_host"
    host.send({"type": "seat", "token": host.token, "player": 2, "kind": "bot"})
    host.wait(lambda m: m["type"] == "room" and m["players"][2]["kind"] == "bot")
    host.send({"type": "seat", "token": host.token, "player": 3, "kind": "open"})
    host.wait(lambda m: m["type"] == "room" and m["players"][3]["kind"] == "open")
    host.send({"type": "seat", "token": host.token, "player": 1, "kind": "bot"})
    assert host.wait("error")["code"] == "bad_seat"  # Bob sits there
    host.send({"type": "start", "token": host.token})
    st = host.wait("state")
    info = host.room
    assert info is not None and [p["kind"] for p in info["players"]] == ["human", "human",
                                                                         "bot", "bot"]
    # removing Bob mid-game: a bot takes his seat, his connection becomes a spectator
    host.send({"type": "remove", "token": host.token, "player": 1})
    removed = bob.wait("removed")
    assert removed["message"]
    host.wait(lambda m: m["type"] == "room" and m["players"][1]["kind"] == "bot")
    bob.act("draw")
    assert bob.wait("error")["code"] == "not_seated"
    again = Client(server.url, rid, bob.token)
    assert again.wait("error")["code"] == "bad_token"
    assert again.wait("welcome")["player"] is None
    assert st["status"] == "playing"


def test_catch_window_in_real_time(server: LiveServer) -> None:
    """Two people: whoever plays down to one card without UNO can be caught (UNO-2)."""
    _rid, clients = start(server, ["human"], hand_size=2, rounds=50)
    a, b = clients
    deadline = time.monotonic() + 40
    caught = False
    while not caught and time.monotonic() < deadline:
        for c in clients:
            c.drain(0.01)
        for me, _other in ((a, b), (b, a)):
            st = me.state
            if st is None or st["status"] != "playing":
                continue
            legal = st["view"]["legal"]
            catches = [x for x in legal if x.startswith("catch")]
            if catches:
                me.act(catches[0], seq=st["seq"])
                msg = me.wait(lambda m: m["type"] in ("state", "error"))
                if msg["type"] == "state":
                    caught = any("caught" in line for line in msg["log"])
                break
            if st["view"]["turn"] == st["you"] and legal:
                plays = [x for x in legal if x.startswith("play") and not x.endswith("uno")]
                me.act((plays or legal)[0], seq=st["seq"])
                me.wait(lambda m: m["type"] in ("state", "error"))
                break
    assert caught


def test_turn_timer_is_enforced_by_the_server(server: LiveServer) -> None:
    _rid, clients = start(server, ["bot"], turn_timer=1, rounds=1)
    host = clients[0]
    st = host.state
    assert st is not None and st["timer"] is not None and st["timer"]["total"] == 1
    msg = host.wait(lambda m: m["type"] == "state" and any(
        e["t"] == "timeout" for e in m["events"]), timeout=15)
    assert any("out of time" in line for line in msg["log"])
    st = host.state
    assert st is not None
    host.act(" TimeOut", seq=st["seq"])  # only the server keeps time
    assert host.wait("error")["code"] == "bad_action"
    for m in host.messages:  # the clock always runs for the seat that must act
        if m["type"] == "state" and not m["view"]["round_over"] and m["timer"]:
            assert m["timer"]["seat"] == m["view"]["turn"], m["seq"]


def test_an_absent_player_is_played_by_a_bot(make_server: Any) -> None:
    server = make_server(away_after=0.3)
    _rid, clients = start(server, ["human", "bot"], rounds=1, hand_size=3)
    host, bob = clients
    bob.close()
    host.drain()
    # Bob is away: the table never waits for him
    deadline = time.monotonic() + 30
    while host.over is None and time.monotonic() < deadline:
        play([host], random.Random(5), until=lambda cs: True, timeout=2)
        host.drain(0.05)
        st = host.state
        if st is not None and st["view"]["turn"] == st["you"] and st["view"]["legal"]:
            host.act(st["view"]["legal"][0], seq=st["seq"])
    assert host.over is not None
    seats = host.state["seats"] if host.state else []
    assert any(s["away"] for s in seats if s["player"] == 1) or host.over


def test_language_switch_narrates_in_the_new_language(server: LiveServer) -> None:
    _rid, clients = start(server, ["bot"])
    host = clients[0]
    host.send({"type": "lang", "lang": "zh_TW"})
    room = host.wait("room")
    assert room["players"][1]["name"] != "Bot 2"  # the bot's name is translated
    host.wait("log")


def window_race(server: LiveServer, verb: str, seats: list[str], expect: str,
                **rules: Any) -> None:
    """People play until one of them is offered ``verb`` out of the ordinary; they take it
    and everyone sees what it did."""
    _rid, clients = start(server, seats, rounds=200, **rules)
    rng = random.Random(11)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for c in clients:
            c.drain(0.002)
        acted = False
        for c in clients:
            st = c.state
            if st is None or st["status"] != "playing" or st["view"]["round_over"]:
                continue
            chances = [a for a in st["view"]["legal"] if a.startswith(verb)]
            if chances:
                c.act(chances[0], seq=st["seq"])
                msg = c.wait(lambda m: m["type"] in ("state", "error"))
                assert msg["type"] == "state", msg
                lines = " ".join(msg["log"])
                assert expect in lines, lines
                other = clients[0] if c is not clients[0] else clients[1]
                seen = other.wait(lambda m, q=msg["seq"]: m["type"] == "state"
                                  and m["seq"] >= q)
                assert seen["seq"] >= msg["seq"]
                return
        for c in clients:
            st = c.state
            if st is None or st["status"] != "playing" or st["view"]["round_over"]:
                continue
            v = st["view"]
            if v["turn"] == st["you"] and v["legal"]:
                plays = [a for a in v["legal"] if not a.startswith(("catch", "uno", verb))]
                c.act(rng.choice(plays or v["legal"]), seq=st["seq"])
                c.wait(lambda m: m["type"] in ("state", "error"))
                acted = True
                break
        if not acted:
            time.sleep(0.005)
    raise AssertionError(f"no {verb} chance came up")


def test_jump_in_in_real_time(server: LiveServer) -> None:
    window_race(server, "jump_in", ["human", "human"], "jumped in", jump_in=True)


def test_challenge_a_wild_draw_four(server: LiveServer) -> None:
    window_race(server, "challenge", ["human"], "challenged", w4_rule="restricted")


def test_an_idle_player_does_not_stop_the_table(make_server: Any) -> None:
    server = make_server(idle_after=0.3)
    _rid, clients = start(server, ["bot"], rounds=1)
    host = clients[0]
    host.drain(0.1)
    st = host.state
    assert st is not None
    # the host is connected but does nothing: a stand-in moves for them when it is their turn
    msg = host.wait(lambda m: m["type"] == "state" and m["seq"] > st["seq"]
                    and any(e.get("seat") == m["you"] for e in m["events"]), timeout=15)
    assert msg["seq"] > st["seq"]


def test_elimination_match_in_the_browser(server: LiveServer) -> None:
    """HR-ELIM: a player put out is told so and watches; the last one left wins; the replay
    shows the smaller tables."""
    rid, clients = start(server, ["human", "bot", "bot"], elimination="cards", hand_size=3)
    play(clients, random.Random(6), timeout=90)
    host = clients[0]
    host.drain()
    assert host.over is not None and len(host.over["winners"]) == 1
    outs = [m for m in host.messages if m["type"] == "round_over"]
    assert outs and all(m["out"] for m in outs) and sum(len(m["out"]) for m in outs) >= 2
    rep = server.http.get(f"/api/replays/{rid}/1?lang=en").json()
    # each round of the replay is dealt to those still in: four, less everyone put out before
    # (a round where the other three tie for the most cards puts all of them out at once)
    assert len(rep["rounds"]) == len(outs)
    for i, rnd in enumerate(rep["rounds"]):
        assert len(rnd["names"]) == 4 - sum(len(m["out"]) for m in outs[:i]), (i, outs)


def test_blitz_ends_the_round_by_the_servers_clock(server: LiveServer) -> None:
    """HR-BLITZ: nobody moves; after the round's seconds the fewest points in hand win, and
    a client cannot call the time itself."""
    _rid, clients = start(server, ["bot"], blitz=10, rounds=1)
    host = clients[0]
    st = host.state
    assert st is not None
    assert st["round_clock"]["total"] == 10 and 0 < st["round_clock"]["left_ms"] <= 10_000 + 5_000
    host.act("time_up", seq=st["seq"])
    assert host.wait("error")["code"] == "bad_action"
    msg = host.wait(lambda m: m["type"] == "state" and any(
        e["t"] == "round_over" and e.get("on_time") for e in m["events"]), timeout=30)
    assert any("time is up" in line for line in msg["log"])


def _leaf_actions(node: dict[str, Any]) -> set[str]:
    if "ask" not in node:
        return {node["plain"], node["uno"]}
    return {a for o in node["options"] for a in _leaf_actions(o["then"])}


def test_every_state_says_what_a_click_on_each_card_plays(server: LiveServer) -> None:
    """The ``choices`` of a seat's state reach exactly its legal plays, keyed by the cards of
    its hand (what the page asks and sends when a card is clicked); a spectator gets none."""
    rid, clients = start(server, ["human", "bot", "bot"], rounds=1, double_play=True,
                         seven_zero=True, preset="house")
    watcher = Client(server.url, rid)
    play(clients, random.Random(5), timeout=30)
    for c in clients:
        c.drain()
    states = [m for m in clients[0].messages if m["type"] == "state"]
    assert len(states) > 10
    offered = 0
    for st in states:
        v = st["view"]
        plays = {a for a in v["legal"] if a.split(" ", 1)[0] in ("play", "jump_in")}
        choices = st["choices"]
        assert set(choices) <= set(v["hand"])
        reached = set().union(*map(_leaf_actions, choices.values())) if choices else set()
        assert reached == plays, (v["legal"], choices)
        offered += bool(plays)
    assert offered > 3
    watcher.drain()
    assert all(m["choices"] == {} for m in watcher.messages if m["type"] == "state")
