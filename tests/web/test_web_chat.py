"""Talk at a table over the WebSocket: chat lines, spectators' own chat, the host's mutes,
quick reactions, and the players' vote to hand an absent player's seat to a bot."""

from __future__ import annotations

import time
from typing import Any

from unoarena.testing.web_server import (
    Client,
    LiveServer,
    create_room,
    host_and_bob,
    join,
    wait_for,
)
from unoarena.web import chat
from unoarena.web.store import rooms


def said(c: Client, text: str, timeout: float = 5.0) -> dict[str, Any]:
    """The chat line ``text`` once ``c`` reads it."""
    msg = c.wait(lambda m: m["type"] == "chat" and any(x["text"] == text for x in m["lines"]),
                 timeout)
    return next(x for x in msg["lines"] if x["text"] == text)


def chat_texts(c: Client) -> list[str]:
    """Every chat line ``c`` holds now (a ``replace`` message starts afresh)."""
    c.drain(0.1)
    texts: list[str] = []
    for m in c.messages:
        if m["type"] == "chat":
            lines = [x["text"] for x in m["lines"]]
            texts = lines if m["replace"] else texts + lines
    return texts


def refused(c: Client, msg: dict[str, Any]) -> dict[str, Any]:
    c.send(msg)
    return c.wait("error")


def test_players_chat_and_spectators_talk_apart_during_play(server: LiveServer) -> None:
    rid, ann, bob, _ = host_and_bob(server, ["human", "bot"])
    eve = Client(server.url, rid)  # watching
    eve.wait("welcome")
    ann.send({"type": "chat", "text": "<b>hi</b> <script>alert(1)</script>"})
    line = said(bob, "<b>hi</b> <script>alert(1)</script>")  # kept exactly as typed
    assert line["player"] == 0 and line["name"] == "Ann" and line["channel"] == "table"
    said(eve, "<b>hi</b> <script>alert(1)</script>")  # spectators read the table
    ann.send({"type": "start", "token": ann.token})
    bob.wait("state")
    eve.send({"type": "chat", "text": "Bob holds two wilds"})
    got = said(eve, "Bob holds two wilds")
    assert got["channel"] == "spectators" and got["player"] is None and got["watcher"] == 1
    bob.send({"type": "chat", "text": "your move"})
    said(ann, "your move")
    assert "Bob holds two wilds" not in chat_texts(ann) + chat_texts(bob)
    # a player arriving again during play still does not read it; a spectator does
    late = Client(server.url, rid)
    late.wait("welcome")
    assert "Bob holds two wilds" in chat_texts(late)
    again = Client(server.url, rid, ann.token)
    again.wait("welcome")
    assert chat_texts(again) == ["<b>hi</b> <script>alert(1)</script>", "your move"]


def test_spectators_lines_reach_the_players_when_the_match_is_over(server: LiveServer) -> None:
    import random

    from unoarena.testing.web_server import play
    rid, ann, bob, _ = host_and_bob(server, ["human"], rounds=1, hand_size=2)
    eve = Client(server.url, rid)
    eve.wait("welcome")
    ann.send({"type": "start", "token": ann.token})
    bob.wait("state")
    eve.send({"type": "chat", "text": "nice game so far"})
    said(eve, "nice game so far")
    play([ann, bob], random.Random(3), timeout=60)
    if ann.over is None:  # (the match may have ended as Bob read it first)
        ann.wait("match_over", timeout=30)
    wait_for(lambda: "nice game so far" in chat_texts(ann), 5, "the spectators' line shown")


def test_bad_lines_are_refused_and_change_nothing(server: LiveServer) -> None:
    _rid, ann, bob, _ = host_and_bob(server, ["human"])
    assert "too long (at most 200" in refused(ann, {"type": "chat", "text": "x" * 201})["message"]
    assert refused(ann, {"type": "chat", "text": "   "})["code"] == "bad_chat"
    assert "line breaks" in refused(ann, {"type": "chat", "text": "a\nb"})["message"]
    assert "control" in refused(ann, {"type": "chat", "text": "a\u202eb"})["message"]
    ann.send({"type": "chat", "text": "x" * 200})  # the longest allowed
    said(bob, "x" * 200)
    assert chat_texts(bob) == ["x" * 200]


def test_chat_is_rate_limited(server: LiveServer) -> None:
    _rid, ann, bob, _ = host_and_bob(server, ["human"])
    for i in range(5):
        ann.send({"type": "chat", "text": f"line {i}"})
    said(bob, "line 4")
    err = refused(ann, {"type": "chat", "text": "one too many"})
    assert err["code"] == "chat_rate" and "too fast" in err["message"]
    assert "one too many" not in chat_texts(bob)


def test_the_host_mutes_a_player_and_a_restart_keeps_it(make_server: Any) -> None:
    server = make_server()
    rid, ann, bob, bob_seat = host_and_bob(server, ["human"])
    assert refused(bob, {"type": "mute", "token": bob.token, "player": 0,
                         "muted": True})["code"] == "not_host"
    ann.send({"type": "mute", "token": ann.token, "player": 1, "muted": True})
    bob.wait(lambda m: m["type"] == "chat" and m["muted"] == [1])
    err = refused(bob, {"type": "chat", "text": "spam"})
    assert err["code"] == "muted"
    assert refused(bob, {"type": "react", "emote": "laugh"})["code"] == "muted"
    ann.send({"type": "chat", "text": "kept"})
    said(bob, "kept")
    for c in (ann, bob):
        c.close()
    server.stop()
    again = make_server()
    bob2 = Client(again.url, rid, bob_seat["token"])
    first = bob2.wait("chat")
    assert first["muted"] == [1] and [x["text"] for x in first["lines"]] == ["kept"]
    assert refused(bob2, {"type": "chat", "text": "still?"})["code"] == "muted"


def test_the_host_mutes_a_spectator_who_stays_muted_after_a_reload_and_a_restart(
        make_server: Any) -> None:
    server = make_server()
    rid, ann, bob, _ = host_and_bob(server, ["human"])
    eve = Client(server.url, rid, watcher="eve's own key")
    assert eve.wait("chat")["you"] is None  # a number comes with the first line
    eve.send({"type": "chat", "text": "hello all"})
    assert said(ann, "hello all")["watcher"] == 1
    said(eve, "hello all")
    assert any(m.get("you") == 1 for m in eve.messages if m["type"] == "chat")
    assert refused(bob, {"type": "mute", "token": bob.token, "watcher": 1,
                         "muted": True})["code"] == "not_host"
    assert refused(ann, {"type": "mute", "token": ann.token, "watcher": 2,
                         "muted": True})["code"] == "bad_seat"
    assert refused(ann, {"type": "mute", "token": ann.token, "watcher": 1, "player": 1,
                         "muted": True})["code"] == "bad_message"
    ann.send({"type": "mute", "token": ann.token, "watcher": 1, "muted": True})
    eve.wait(lambda m: m["type"] == "chat" and m["muted_watchers"] == [1])
    assert refused(eve, {"type": "chat", "text": "spam"})["code"] == "muted"
    zed = Client(server.url, rid)  # another spectator still speaks
    zed.send({"type": "chat", "text": "not me"})
    assert said(ann, "not me")["watcher"] == 2
    eve.close()
    eve = Client(server.url, rid, watcher="eve's own key")  # a reload: the same page's key
    first = eve.wait("chat")
    assert first["you"] == 1 and first["muted_watchers"] == [1]
    assert refused(eve, {"type": "chat", "text": "spam again"})["code"] == "muted"
    assert "spam" not in " ".join(chat_texts(ann))
    for c in (ann, bob, eve, zed):
        c.close()
    server.stop()
    again = make_server()
    eve = Client(again.url, rid, watcher="eve's own key")
    first = eve.wait("chat")
    assert first["you"] == 1 and first["muted_watchers"] == [1]
    assert refused(eve, {"type": "chat", "text": "after the restart"})["code"] == "muted"
    ann = Client(again.url, rid, ann.token)
    ann.wait("welcome")
    ann.send({"type": "mute", "token": ann.token, "watcher": 1, "muted": False})
    eve.wait(lambda m: m["type"] == "chat" and m["muted_watchers"] == [])
    eve.send({"type": "chat", "text": "thanks"})
    assert said(ann, "thanks")["watcher"] == 1


def test_a_rooms_stored_chat_is_what_it_shows(make_server: Any, monkeypatch: Any) -> None:
    """The store keeps a channel's last KEEP lines (a little more between prunes) and each
    person's latest mute; a database that stored more is pruned when its rooms come back;
    the chat goes with its room."""
    monkeypatch.setattr(chat, "KEEP", 5)
    monkeypatch.setattr(chat, "PRUNE_SLACK", 3)
    monkeypatch.setattr(chat, "CHAT_BURST", 1000.0)
    server = make_server()
    store = server.app.state.store
    rid, ann, bob, _ = host_and_bob(server, ["human"])
    for muted in (True, False, True, False, True):
        ann.send({"type": "mute", "token": ann.token, "player": 1, "muted": muted})
        bob.wait(lambda m, muted=muted: m["type"] == "chat" and m["muted"] == ([1] * muted))
    most = 0
    for i in range(30):
        ann.send({"type": "chat", "text": f"line {i}"})
        said(bob, f"line {i}")
        most = max(most, chat.stored_lines(store, rid).get("table", 0))
    assert most <= 5 + 3
    # pruned back to 5 at the 8th line and every 3rd after, the 29th last: 6 now
    wait_for(lambda: chat.stored_lines(store, rid) == {"table": 6, "mute": 1},
             5, "the table's oldest lines and the earlier mutes pruned")
    for c in (ann, bob):
        c.close()
    server.stop()
    with store.engine.begin() as conn:  # lines and mutes of a server that did not prune
        conn.execute(chat.chat_table.insert(), [
            {"room_id": rid, "seq": 100 + i, "at": 0.0, "channel": "spectators",
             "player": None, "watcher": 1, "name": "", "text": f"old {i}"} for i in range(12)
        ] + [{"room_id": rid, "seq": 200 + i, "at": 0.0, "channel": word, "player": 1,
              "watcher": None, "name": "", "text": ""}
             for i, word in enumerate(("unmute", "mute"))])
    again = make_server()
    wait_for(lambda: chat.stored_lines(again.app.state.store, rid) == {
        "table": 5, "spectators": 5, "mute": 1}, 5, "an old database pruned at start")
    eve = Client(again.url, rid)
    first = eve.wait("chat")
    assert [x["text"] for x in first["lines"]][-5:] == [f"old {i}" for i in range(7, 12)]
    assert first["muted"] == [1]
    eve.close()
    again.stop()
    with store.engine.begin() as conn:
        conn.execute(rooms.delete().where(rooms.c.id == rid))
    assert chat.stored_lines(store, rid) == {}


def test_reactions_reach_everyone_and_are_paced(server: LiveServer) -> None:
    rid, ann, bob, _ = host_and_bob(server, ["human"])
    eve = Client(server.url, rid)
    eve.wait("welcome")
    bob.send({"type": "react", "emote": "laugh"})
    for c in (ann, eve):
        msg = c.wait("reaction")
        assert msg == {"type": "reaction", "player": 1, "emote": "laugh"}
    assert refused(eve, {"type": "react", "emote": "gg"})["code"] == "not_seated"
    assert "must be one of thumbs" in refused(bob, {"type": "react",
                                                     "emote": "<img>"})["message"]
    for _ in range(3):
        bob.send({"type": "react", "emote": "wow"})
    assert refused(bob, {"type": "react", "emote": "wow"})["code"] == "chat_rate"


def test_with_the_host_gone_a_majority_hands_an_absent_seat_to_a_bot(make_server: Any) -> None:
    server = make_server(away_after=0.2)
    room = create_room(server, ["human", "human", "human"])
    rid = room["room"]
    seats = [join(server, rid, n) for n in ("Bob", "Cy", "Dan")]
    ann = Client(server.url, rid, room["token"])
    bob, cy, dan = (Client(server.url, rid, s["token"]) for s in seats)
    for c in (ann, bob, cy, dan):
        c.wait("welcome")
    ann.send({"type": "start", "token": ann.token})
    bob.wait("state")
    dan.close()
    wait_for(lambda: not server.manager.get(rid).players[3].conns, 5, "Dan gone")
    # the host is here: they decide
    assert refused(bob, {"type": "vote", "token": bob.token, "player": 3})["code"] == "host_here"
    ann.close()
    time.sleep(0.3)
    # Cy is connected: no vote can push them out
    assert refused(bob, {"type": "vote", "token": bob.token, "player": 2})["code"] == "not_absent"
    bob.send({"type": "vote", "token": bob.token, "player": 3})
    tally = cy.wait("vote")
    assert tally["player"] == 3 and tally["voters"] == [1] and tally["needed"] == 2
    assert server.manager.get(rid).players[3].kind == "human"
    cy.send({"type": "vote", "token": cy.token, "player": 3})
    done = bob.wait(lambda m: m["type"] == "room" and m["players"][3]["kind"] == "bot")
    assert done["players"][3]["name"] == "Dan"
    assert bob.wait("vote")["needed"] == 0
    # Dan's old link now only watches
    back = Client(server.url, rid, seats[2]["token"])
    assert back.wait("welcome")["player"] is None
