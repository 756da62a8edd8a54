"""Remote bot seats: a host seats a program by a bot token it is told once; the program plays
that seat and nothing else, a stand-in moves for it when it is late or away (and the log says
so in the reader's language), and a revoked token stops working."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from typing import Any

import pytest

from unoarena.testing.web_server import Client, LiveServer, create_room, wait_for
from unoarena.web.protocol import MAX_MESSAGE_BYTES


def _remote_room(server: LiveServer, stand_in: str = "heuristic", **rules: Any
                 ) -> tuple[dict[str, Any], Client, str]:
    """A room of its host and one seat made remote: the room, the host's client, the token."""
    room = create_room(server, ["bot"], **rules)
    host = Client(server.url, room["room"], room["token"])
    host.wait("welcome")
    host.send({"type": "seat", "token": room["token"], "player": 1, "kind": "remote",
               "bot": stand_in})
    told = host.wait("bot_token")
    assert told["player"] == 1 and len(told["token"]) >= 32
    return room, host, str(told["token"])


def _my_turn(c: Client) -> Callable[[dict[str, Any]], bool]:
    def pred(m: dict[str, Any]) -> bool:
        return (m["type"] == "state" and m["status"] == "playing"
                and m["view"]["turn"] == m["you"] and bool(m["view"]["legal"]))
    return pred


def test_a_remote_seat_plays_its_own_seat_only(make_server: Callable[..., LiveServer]
                                               ) -> None:
    server = make_server(idle_after=0.01)  # the host's turns are played for them
    room, host, token = _remote_room(server)
    assert host.room is not None  # the seating changed before the token was told
    players = host.room["players"]
    assert players[1]["bot"] == "heuristic" and players[1]["name"] == "Remote bot 2"
    stored = server.manager.get(room["room"]).players[1].token_hash
    assert stored == hashlib.sha256(token.encode()).hexdigest()  # the token itself is not kept
    watcher = Client(server.url, room["room"])
    watcher.wait("welcome")
    bot = Client(server.url, room["room"], token)
    welcome = bot.wait("welcome")
    assert welcome["player"] == 1 and welcome["host"] is False
    # a program cannot start the match, nor act with another seat's token
    bot.send({"type": "start", "token": token})
    assert bot.wait("error")["code"] == "not_host"
    host.send({"type": "start", "token": room["token"]})
    state = bot.wait("state")
    assert state["you"] == 1 and state["view"]["seat"] == 1
    assert len(state["view"]["hand"]) == state["view"]["hand_sizes"][1]  # its own hand only
    bot.send({"type": "act", "token": room["token"], "action": "draw"})
    assert bot.wait("error")["code"] == "bad_token"
    # it plays its turns; nothing about the host's hand ever reaches it
    st = bot.wait(_my_turn(bot), timeout=15) if state["view"]["turn"] != 1 else state
    bot.act(st["view"]["legal"][0], seq=st["seq"])
    after = bot.wait(lambda m: m["type"] in ("state", "error"))
    assert after["type"] == "state" and after["seq"] > st["seq"]
    assert not any(e.get("to") == 0 for m in bot.messages if m["type"] == "state"
                   for e in m["events"])
    # the token was for the host alone: neither the program nor a watcher saw it
    assert not any(m["type"] == "bot_token" for m in bot.messages + watcher.messages)
    for c in (host, bot, watcher):
        c.close()


@pytest.mark.parametrize("lang,late", [("en", "Remote bot 2 was late; heuristic played for it."),
                                       ("zh_TW", "遠端機器人 2 逾時未出牌，由 heuristic 代打。"),
                                       ("zh_CN", "远程机器人 2 超时未出牌，由 heuristic 代打。")])
def test_a_late_program_is_played_for_and_the_log_says_so(
        make_server: Callable[..., LiveServer], lang: str, late: str) -> None:
    server = make_server(remote_move_s=0.3)
    room, host, token = _remote_room(server, rounds=1)
    reader = Client(server.url, room["room"], lang=lang)
    reader.wait("welcome")
    bot = Client(server.url, room["room"], token)  # connected, but never answers
    bot.wait("welcome")
    host.send({"type": "start", "token": room["token"]})

    def lines() -> list[str]:
        reader.drain(0.01)
        return [line for m in reader.messages for line in m.get("log") or m.get("lines") or []]

    deadline = time.monotonic() + 20
    while not any(late in line for line in lines()):  # the host plays its own turns
        assert time.monotonic() < deadline, lines()
        m = host.wait(lambda m: m["type"] in ("state", "match_over"), timeout=5)
        assert m["type"] == "state", "the match ended without a late move"
        if m["view"]["turn"] == 0 and m["view"]["legal"] and not m["view"]["round_over"]:
            host.act(m["view"]["legal"][0], seq=m["seq"])
    stored = server.manager.get(room["room"]).marks
    assert any(mark[4] == "late" for mark in stored)
    for c in (host, bot, reader):
        c.close()


def test_an_absent_program_is_played_for_at_once(make_server: Callable[..., LiveServer]
                                                 ) -> None:
    server = make_server(remote_move_s=60.0)
    room, host, _token = _remote_room(server, stand_in="basic")
    host.send({"type": "start", "token": room["token"]})
    said = "Remote bot 2 is not connected; basic played for it."
    lines: list[str] = []

    def seen(m: dict[str, Any]) -> bool:
        if m["type"] == "state":
            lines.extend(m["log"])
            if m["view"]["turn"] == 0 and m["view"]["legal"] and not m["view"]["round_over"]:
                host.act(m["view"]["legal"][0], seq=m["seq"])
        return any(said in line for line in lines)

    host.wait(seen, timeout=20)  # long before the program's 60 s budget
    host.close()


def test_a_revoked_token_stops_working(server: LiveServer) -> None:
    room, host, token = _remote_room(server)
    bot = Client(server.url, room["room"], token)
    bot.wait("welcome")
    host.send({"type": "seat", "token": room["token"], "player": 1, "kind": "remote",
               "bot": "basic"})
    fresh = host.wait("bot_token")["token"]
    assert fresh != token
    assert bot.wait("removed")["message"].startswith("The host gave this seat a new bot token")
    again = Client(server.url, room["room"], token)
    assert again.wait("error")["code"] == "bad_token"
    assert again.wait("welcome")["player"] is None
    good = Client(server.url, room["room"], fresh)
    assert good.wait("welcome")["player"] == 1
    host.send({"type": "seat", "token": room["token"], "player": 1, "kind": "open"})
    good.wait("removed")
    wait_for(lambda: server.manager.get(room["room"]).players[1].token_hash is None, 5,
             "the revoked seat kept its token")
    last = Client(server.url, room["room"], fresh)
    assert last.wait("error")["code"] == "bad_token"
    for c in (host, bot, again, good, last):
        c.close()


def test_revoking_during_the_match_hands_the_seat_to_its_stand_in(server: LiveServer) -> None:
    room, host, token = _remote_room(server, stand_in="heuristic")
    bot = Client(server.url, room["room"], token)
    bot.wait("welcome")
    host.send({"type": "start", "token": room["token"]})
    host.wait("state")
    host.send({"type": "remove", "token": room["token"], "player": 1})
    assert "revoked" in bot.wait("removed")["message"]
    p = host.wait(lambda m: m["type"] == "room" and m["players"][1]["kind"] == "bot")
    assert p["players"][1]["bot"] == "heuristic"
    assert Client(server.url, room["room"], token).wait("error")["code"] == "bad_token"
    host.close()


def test_a_program_is_bounded_as_a_browser_is(make_server: Callable[..., LiveServer]) -> None:
    server = make_server(rate=5.0, burst=5.0)
    room, host, token = _remote_room(server)
    bot = Client(server.url, room["room"], token)
    bot.wait("welcome")
    bot.ws.send("x" * (MAX_MESSAGE_BYTES + 1))
    assert bot.wait("error")["code"] == "too_large"
    bot.ws.send("[1, 2")
    assert bot.wait("error")["code"] == "bad_message"
    bot.send({"type": "act", "token": token, "action": "draw", "extra": 1})
    assert bot.wait("error")["code"] == "bad_message"
    for _ in range(12):
        bot.send({"type": "ping"})
    bot.wait(lambda m: m["type"] == "error" and m["code"] == "rate_limited")
    # the remote seat refuses a bad stand-in like a bad bot
    host.send({"type": "seat", "token": room["token"], "player": 1, "kind": "remote",
               "bot": "no-such-bot"})
    assert host.wait("error")["code"] == "bad_bot"
    for c in (host, bot):
        c.close()


def test_a_remote_seat_and_its_log_lines_outlive_a_restart(
        make_server: Callable[..., LiveServer]) -> None:
    first = make_server(remote_move_s=60.0)
    room, host, token = _remote_room(first, stand_in="basic", rounds=1)
    host.send({"type": "start", "token": room["token"]})
    said = "Remote bot 2 is not connected; basic played for it."
    lines: list[str] = []

    def seen(m: dict[str, Any]) -> bool:  # the host plays its turns until the stand-in moved
        if m["type"] == "state":
            lines.extend(m["log"])
            if m["view"]["turn"] == 0 and m["view"]["legal"] and not m["view"]["round_over"]:
                host.act(m["view"]["legal"][0], seq=m["seq"])
        return any(said in line for line in lines)

    host.wait(seen, timeout=20)
    host.close()
    first.stop()
    again = make_server(remote_move_s=60.0)  # the same database, restored from its log
    restored = again.manager.get(room["room"])
    assert restored.players[1].kind == "remote" and restored.players[1].bot == "basic"
    bot = Client(again.url, room["room"], token)
    assert bot.wait("welcome")["player"] == 1
    assert restored.status == "playing"  # (a round is not over after a move or two)
    told = bot.wait("log")["lines"]  # the round's narration still says who played for whom
    assert any(said in line for line in told), told
    bot.close()


def test_the_servers_remote_move_budget_is_checked(capsys: pytest.CaptureFixture[str]
                                                   ) -> None:
    from unoarena.cli import main

    assert main(["serve", "--remote-move-s", "0"]) == 2
    assert "--remote-move-s must be more than 0" in capsys.readouterr().err
