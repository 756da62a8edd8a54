"""``unoarena bot run`` against a live server: it plays its seat to the end of the match,
comes back after its connection drops (a stand-in played meanwhile), has a late move made by
the stand-in and plays on, and stops for good with a refused or revoked token."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from unoarena.bots import make_bot
from unoarena.engine import Action, RuleSet
from unoarena.remote.client import (
    EXIT_OVER,
    EXIT_REFUSED,
    Seat,
    load_bot,
    run_seat,
    ws_url,
)
from unoarena.testing.web_faults import Cutter
from unoarena.testing.web_server import Client, LiveServer, create_room, wait_for

UNOARENA = str(Path(sys.executable).with_name("unoarena"))  # the installed command


class SlowOnce:
    """``heuristic``, except that its ``slow_at``-th decision takes ``pause`` seconds: longer
    than the room allows, so the server's stand-in makes that move."""

    def __init__(self, seed: int = 0, slow_at: int = 2, pause: float = 1.0) -> None:
        self.inner = make_bot("heuristic", seed)
        self.name = "slow-once"
        self.calls = 0
        self.slow_at, self.pause = slow_at, pause

    def begin_round(self, rules: RuleSet, seat: int) -> None:
        self.inner.begin_round(rules, seat)

    def act(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Any) -> Action:
        self.calls += 1
        if self.calls == self.slow_at:
            time.sleep(self.pause)
        return self.inner.act(view, legal, rng)

    def window(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        return self.inner.window(view, legal)


class Runner:
    """``run_seat`` in a thread of its own, with every message it was sent."""

    def __init__(self, url: str, token: str, bot: Any, **kw: Any) -> None:
        self.seat = Seat(bot)
        self.messages: list[dict[str, Any]] = []
        self.code: int | None = None
        self.thread = threading.Thread(target=self._run, args=(url, token, bot, kw),
                                       daemon=True)
        self.thread.start()

    def _run(self, url: str, token: str, bot: Any, kw: dict[str, Any]) -> None:
        self.code = asyncio.run(run_seat(url, token, bot, seat=self.seat,
                                         on_message=self.messages.append, **kw))

    def join(self, timeout: float) -> int:
        self.thread.join(timeout)
        assert self.code is not None, "the bot did not finish"
        return self.code

    def log(self) -> list[str]:
        return [line for m in list(self.messages) for line in m.get("log") or []]


def _room(server: LiveServer, port: int | None = None, **rules: Any
          ) -> tuple[dict[str, Any], Client, str, str]:
    """A room of its host, a server bot and a remote seat; the host starts it once the
    program is connected (a server made with a short ``idle_after`` plays the host's turns).
    The room, the host's client, the token and the program's URL."""
    rules.setdefault("rounds", 1)
    room = create_room(server, ["bot", "bot"], **rules)
    host = Client(server.url, room["room"], room["token"])
    host.wait("welcome")
    host.send({"type": "seat", "token": room["token"], "player": 2, "kind": "remote",
               "bot": "basic"})
    token = host.wait("bot_token")["token"]
    url = f"http://127.0.0.1:{port or server.port}/r/{room['room']}"
    return room, host, token, url


def _start_when_connected(server: LiveServer, room: dict[str, Any], host: Client) -> None:
    wait_for(lambda: server.manager.get(room["room"]).players[2].conns, 10,
             "the program did not connect")
    host.send({"type": "start", "token": room["token"]})


def test_the_address_is_the_rooms_link() -> None:
    assert ws_url("http://h:8000/r/AbC") == "ws://h:8000/ws/AbC"
    assert ws_url("https://example.org/uno/r/AbC#x") == "wss://example.org/uno/ws/AbC"
    assert ws_url("ws://h/ws/AbC") == "ws://h/ws/AbC"
    assert type(load_bot("unoarena.bots.simple:RandomBot", 3)).__name__ == "RandomBot"
    assert load_bot("ismcts:iterations=20").name == "ismcts"


def test_it_plays_its_seat_to_the_end_of_the_match(make_server: Callable[..., LiveServer]
                                                    ) -> None:
    server = make_server(idle_after=0.01)
    room, host, token, url = _room(server, players=3)
    runner = Runner(url, token, make_bot("heuristic", 1))
    _start_when_connected(server, room, host)
    assert runner.join(60) == EXIT_OVER
    stats = runner.seat.stats
    assert stats.decisions > 3 and stats.refused == 0, stats
    over = [m for m in runner.messages if m["type"] == "match_over"]
    assert len(over) == 1
    assert not any("played for it" in line for line in runner.log())  # it was never late
    host.close()


def _host_plays(host: Client, until: Callable[[], bool], timeout: float = 30) -> None:
    """The host plays its own turns (first legal action) until ``until()``; between its turns
    the table waits for it, so nothing ends behind the test's back."""
    deadline = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < deadline, "the table did not get there in time"
        try:
            m = host.recv(0.05)
        except TimeoutError:
            continue
        v = m.get("view") if m["type"] == "state" else None
        if v and v["turn"] == m["you"] and v["legal"] and not v["round_over"]:
            host.act(v["legal"][0], seq=m["seq"])


def test_it_comes_back_after_the_connection_drops(make_server: Callable[..., LiveServer]
                                                   ) -> None:
    server = make_server()
    cutter = Cutter("127.0.0.1", server.port)
    try:
        room, host, token, url = _room(server, port=cutter.port, players=3)
        runner = Runner(url, token, make_bot("heuristic", 2), max_backoff=0.5)
        _start_when_connected(server, room, host)
        _host_plays(host, lambda: runner.seat.stats.decisions >= 2)
        cutter.cut()
        # meanwhile the stand-in plays the seat, and the log says so
        _host_plays(host, lambda: any("is not connected; basic played for it" in line
                                      for m in host.messages for line in m.get("log") or []))
        before = runner.seat.stats.decisions
        cutter.restore()
        wait_for(lambda: server.manager.get(room["room"]).players[2].conns, 20,
                 "the program did not come back")
        _host_plays(host, lambda: runner.code is not None, timeout=90)
        assert runner.join(5) == EXIT_OVER
        assert runner.seat.stats.reconnects >= 1
        assert runner.seat.stats.decisions > before  # it played again after coming back
    finally:
        cutter.close()
    host.close()


def test_a_late_move_is_made_by_the_stand_in(make_server: Callable[..., LiveServer]) -> None:
    server = make_server(remote_move_s=0.3, idle_after=0.01)
    room, host, token, url = _room(server, players=3)
    bot = SlowOnce(slow_at=2, pause=1.0)
    runner = Runner(url, token, bot)
    _start_when_connected(server, room, host)
    assert runner.join(60) == EXIT_OVER
    assert any("Remote bot 3 was late; basic played for it." in line for line in runner.log())
    assert bot.calls > 2  # it played on after its late move
    # its late answer was refused as stale, and nothing else was
    assert runner.seat.stats.errors.get("stale", 0) + runner.seat.stats.errors.get(
        "not_your_turn", 0) >= 1
    assert runner.seat.stats.refused <= 1
    host.close()


def test_a_refused_or_revoked_token_ends_the_run(server: LiveServer) -> None:
    room, host, token, url = _room(server)
    bad = Runner(url, "not-the-token", make_bot("basic"))
    assert bad.join(20) == EXIT_REFUSED
    runner = Runner(url, token, make_bot("basic"))
    wait_for(lambda: server.manager.get(room["room"]).players[2].conns, 10,
             "the program did not connect")
    host.send({"type": "seat", "token": room["token"], "player": 2, "kind": "open"})
    assert runner.join(20) == EXIT_REFUSED
    host.close()


def test_the_command_line_plays_a_match(make_server: Callable[..., LiveServer]) -> None:
    server = make_server(idle_after=0.01)
    room, host, token, url = _room(server)
    env = dict(os.environ)
    proc = subprocess.Popen([UNOARENA, "bot", "run", url, "--token",
                             token, "--bot", "basic", "--quiet"], env=env,
                            stderr=subprocess.PIPE, text=True)
    _start_when_connected(server, room, host)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    bad = subprocess.run([UNOARENA, "bot", "run", url, "--token", "x",
                          "--bot", "nosuchbot"], env=env, capture_output=True, text=True,
                         timeout=60)
    assert bad.returncode == 2 and "unknown bot" in bad.stderr
    host.close()


class Spy:
    """``heuristic``, noting the history each of its turns was decided with, beside the
    events of its seat the server's game held at that moment."""

    wants_history = True

    def __init__(self, room: Any, seat: int) -> None:
        self.inner = make_bot("heuristic", 4)
        self.name = "spy"
        self.room, self.seat = room, seat
        self.seen: list[tuple[Any, list[Any]]] = []

    def begin_round(self, rules: RuleSet, seat: int) -> None:
        self.inner.begin_round(rules, seat)

    def act(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Any) -> Action:
        truth = json.loads(json.dumps(self.room.match.game.events_for(self.seat)))
        self.seen.append((view.get("history"), truth))
        return self.inner.act(view, legal, rng)

    def window(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        return self.inner.window(view, legal)


def test_a_bot_that_tracks_cards_is_given_the_rounds_history(
        make_server: Callable[..., LiveServer]) -> None:
    server = make_server(idle_after=0.01)
    room, host, token, url = _room(server, players=3, rounds=2)
    spy = Spy(server.manager.get(room["room"]), 2)
    runner = Runner(url, token, spy)
    _start_when_connected(server, room, host)
    assert runner.join(60) == EXIT_OVER
    assert len(spy.seen) >= 3
    for history, truth in spy.seen:
        assert history is not None and history[0]["t"] == "deal"
        assert history == truth[:len(history)]  # what the engine's own view would hold
    assert sum(history == truth for history, truth in spy.seen) >= len(spy.seen) - 1
    host.close()
