"""Faults for real servers: a TCP proxy the test can cut, and tables that remember what they saw.

The machine's PostgreSQL and Redis are shared, so a test never stops them: the servers under
test reach them through a :class:`Cutter`, a small proxy that drops every connection and refuses
new ones while it is cut, as a database or broker that went away does. :class:`Table` is one
room played at random by its host over a real WebSocket (reconnecting to any live process when
its connection ends), with a spectator's eye on everything it is shown: every ``state`` message
is kept, so that afterwards :func:`check_shown` can hold each one against the stored log.

Used by ``tests/web/test_web_faults.py`` (a short run in CI) and ``scripts/web_faults.py`` (the
long one, many cycles).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ..engine import TIME_UP_TEXT, Match, RuleSet
from ..web.store import ActionRow, Store


class Cutter:
    """A TCP proxy from a free port of 127.0.0.1 to ``target``, in a thread of its own.
    :meth:`cut` drops every connection through it and refuses new ones (they are accepted and
    closed at once) until :meth:`restore`: what its clients see of a server that went away."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.down = False
        self.cuts = 0
        self._pairs: set[asyncio.StreamWriter] = set()
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cutter", daemon=True)
        self._thread.start()
        self._ready.wait(10)
        self.port: int = self._server.sockets[0].getsockname()[1]

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(
            asyncio.start_server(self._accept, "127.0.0.1", 0))
        self._ready.set()
        self._loop.run_forever()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.down:
            writer.transport.abort()
            return
        try:
            up_r, up_w = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        if self.down:  # cut while connecting
            writer.transport.abort()
            up_w.transport.abort()
            return
        self._pairs |= {writer, up_w}
        await asyncio.gather(self._pipe(reader, up_w, writer), self._pipe(up_r, writer, up_w))
        self._pairs -= {writer, up_w}

    @staticmethod
    async def _pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter,
                    other: asyncio.StreamWriter) -> None:
        try:
            while data := await src.read(65536):
                dst.write(data)
                await dst.drain()
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            dst.transport.abort()
            other.transport.abort()

    def _set(self, down: bool) -> None:
        self.down = down
        if down:
            self.cuts += 1
            for w in list(self._pairs):
                w.transport.abort()
            self._pairs.clear()

    def _then(self, cut: bool, done: threading.Event) -> None:
        self._set(cut)
        done.set()

    def cut(self) -> None:
        """Drop every connection and refuse new ones (returns once they are dropped)."""
        done = threading.Event()
        self._loop.call_soon_threadsafe(self._then, True, done)
        done.wait(5)

    def restore(self) -> None:
        """Let connections through again."""
        done = threading.Event()
        self._loop.call_soon_threadsafe(self._then, False, done)
        done.wait(5)

    def close(self) -> None:
        """Drop everything and stop the proxy's thread."""
        self.cut()

        async def shut() -> None:
            self._server.close()
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self._loop.stop()

        asyncio.run_coroutine_threadsafe(shut(), self._loop)
        self._thread.join(5)


def through(url: str, cutter: Cutter) -> str:
    """``url`` with its host and port replaced by the proxy's."""
    parts = urlsplit(url)
    netloc = parts.netloc.rsplit("@", 1)
    auth = netloc[0] + "@" if len(netloc) == 2 else ""
    return urlunsplit((parts.scheme, f"{auth}127.0.0.1:{cutter.port}", parts.path,
                       parts.query, parts.fragment))


def target_of(url: str, default_port: int) -> tuple[str, int]:
    """The host and port ``url`` points at."""
    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or default_port


def free_port() -> int:
    """A TCP port free on this machine now (the system picks it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Node:
    """One server process (:mod:`unoarena.testing.web_node`) on ``db_url``, in ``schema``."""

    def __init__(self, db_url: str, schema: str, log: Path, config: dict[str, Any]) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        env = dict(os.environ, UNOARENA_TEST_DATABASE_URL=db_url)
        with open(log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "unoarena.testing.web_node", str(self.port), schema,
                 json.dumps(config)], stdout=out, stderr=subprocess.STDOUT, env=env)

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Wait until the process answers HTTP; an error if it exits or takes too long."""
        import httpx

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-3000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/healthz", timeout=2).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"server did not start: {self.log.read_text()[-3000:]}")

    @property
    def alive(self) -> bool:
        """Whether the process still runs."""
        return self.proc.poll() is None

    def kill(self) -> None:
        """Kill the process at once (SIGKILL), as a crash would."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        """Stop the process politely (SIGTERM), killing it if it does not stop in time."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


@dataclass
class Shown:
    """One table state a client was shown: where in the match, and what it showed."""

    match: int
    round: int
    seq: int
    seat: int | None
    public: tuple[Any, ...]
    hand: Any
    at: float


PUBLIC = ("hand_sizes", "top", "color", "turn", "direction", "pending", "phase", "round_over")


def public_of(view: dict[str, Any]) -> tuple[Any, ...]:
    """What every seat of a view sees alike, comparable."""
    return tuple(json.dumps(view.get(k), sort_keys=True) for k in PUBLIC)


@dataclass
class Table:
    """A room whose host plays at random over a WebSocket, through every fault: it acts on its
    turn, retries when refused, reconnects (to any process ``nodes()`` lists) when its
    connection ends, and keeps every state it was shown."""

    room: str
    token: str
    nodes: Callable[[], Sequence[str]]
    rng: random.Random
    shown: list[Shown] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    notices: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    connects: int = 0
    matches: int = 0  # matches played to the end (the host then starts another)

    @property
    def last_seq(self) -> tuple[int, int]:
        """The (match, seq) of the newest state shown."""
        return max(((s.match, s.seq) for s in self.shown), default=(0, 0))

    async def run(self, stop: asyncio.Event) -> None:
        """Play until ``stop`` is set, one match after another."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import WebSocketException

        while not stop.is_set():
            urls = [u for u in self.nodes()]
            if not urls:
                await asyncio.sleep(0.1)
                continue
            base = self.rng.choice(urls)
            try:
                async with connect(f"ws{base[4:]}/ws/{self.room}?lang=en", open_timeout=5,
                                   max_size=2**22, ping_interval=None) as ws:
                    self.connects += 1
                    await ws.send(json.dumps({"type": "hello", "lang": "en",
                                              "token": self.token}))
                    await self._session(ws, stop)
            except (OSError, WebSocketException, TimeoutError):
                pass
            if not stop.is_set():
                await asyncio.sleep(0.1 + self.rng.random() * 0.1)

    async def _session(self, ws: Any, stop: asyncio.Event) -> None:
        state: dict[str, Any] | None = None
        status = ""
        asked_at = 0.0
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.15)
            except TimeoutError:
                raw = None
            if raw is not None:
                msg = json.loads(raw)
                kind = msg["type"]
                if kind == "room":
                    status = msg["status"]
                elif kind == "state":
                    state = msg
                    v = msg["view"]
                    self.shown.append(Shown(msg["match"], msg["round"], msg["seq"], msg["you"],
                                            public_of(v), v["hand"], time.time()))
                    asked_at = 0.0
                elif kind == "error":
                    self.errors.append(msg)
                    asked_at = min(asked_at, time.monotonic() - 0.5)  # retry soon
                elif kind == "match_over":
                    self.matches += 1
                elif kind not in ("welcome", "room", "log", "round_over", "pong"):
                    self.notices.append((time.time(), msg))
            if status in ("lobby", "finished"):  # start the (next) match, asking again while
                if time.monotonic() - asked_at > 0.8:  # the database refuses it
                    asked_at = time.monotonic()
                    verb = "start" if status == "lobby" else "again"
                    await ws.send(json.dumps({"type": verb, "token": self.token}))
                continue
            if state is None or state["status"] != "playing":
                continue
            v = state["view"]
            if v["turn"] != state["you"] or not v["legal"] or v["round_over"]:
                continue
            if time.monotonic() - asked_at < 0.8:  # an answer is on its way
                continue
            asked_at = time.monotonic()
            await ws.send(json.dumps({"type": "act", "token": self.token,
                                      "action": pick(v["legal"], self.rng),
                                      "seq": state["seq"]}))


def pick(legal: list[str], rng: random.Random) -> str:
    """A random legal action, preferring plays with UNO declared, never a voluntary catch."""
    plays = [a for a in legal if a.startswith(("play", "color", "give", "accept"))]
    unos = [a for a in plays if a.endswith(" uno")]
    if unos:
        return rng.choice(unos)
    pool = plays or [a for a in legal if not a.startswith(("catch", "uno", "jump_in"))]
    return rng.choice(pool or legal)


def replay_to(rules: RuleSet, seed: int, rows: Sequence[ActionRow], seq: int,
              round_no: int) -> Match:
    """The match as the stored log has it after action ``seq``, in round ``round_no`` (the
    round's final table and the next deal share the seq of the round's last action)."""
    match = Match(rules, seed)
    for a in rows:
        if a.seq > seq:
            break
        if match.game.is_over:
            match.finish_round()
        if a.action == TIME_UP_TEXT:
            match.game.time_up()
        else:
            match.game.apply(a.action, a.seat)
    if match.game.is_over and match.rounds_played < round_no:
        match.finish_round()
    return match


@dataclass
class Verdict:
    """What :func:`check_shown` found: states checked, and every state that the stored log
    contradicts (a move shown that was not stored) or that another state of the same seq
    contradicts (a fork)."""

    checked: int = 0
    unstored: list[str] = field(default_factory=list)
    forks: list[str] = field(default_factory=list)


def check_shown(store: Store, tables: Sequence[Table]) -> Verdict:
    """Hold every state any client was shown against the stored log at that seq."""
    out = Verdict()
    for t in tables:
        by_key: dict[tuple[int, int, int], tuple[Any, ...]] = {}
        cache: dict[tuple[int, int, int], Match] = {}
        logs: dict[int, tuple[RuleSet, int, list[ActionRow]]] = {}
        for s in t.shown:
            key = (s.match, s.round, s.seq)
            if by_key.setdefault(key, s.public) != s.public:
                out.forks.append(f"room {t.room} match {s.match} seq {s.seq}: shown two ways")
            if s.match not in logs:
                row = store.match_row(t.room, s.match)
                assert row is not None, f"room {t.room}: match {s.match} is not stored"
                logs[s.match] = (RuleSet.from_dict(row["rules"]), row["seed"],
                                 store.match_actions(t.room, s.match))
            rules, seed, rows = logs[s.match]
            out.checked += 1
            stored = max((r.seq for r in rows), default=0)
            if s.seq > stored:
                out.unstored.append(f"room {t.room} match {s.match}: seq {s.seq} shown, the "
                                    f"log ends at {stored}")
                continue
            m = cache.get(key)
            if m is None:
                try:
                    m = cache[key] = replay_to(rules, seed, rows, s.seq, s.round)
                except Exception as e:  # a log that does not replay
                    out.unstored.append(f"room {t.room} match {s.match}: the log does not "
                                        f"replay to seq {s.seq}: {e}")
                    continue
            view = m.game.view(s.seat if s.seat is not None else 0)
            if public_of(dict(view)) != s.public or (s.seat is not None
                                                     and view["hand"] != s.hand):
                out.unstored.append(f"room {t.room} match {s.match} round {s.round} seq "
                                    f"{s.seq}: shown differently from the stored log")
    return out


class Players:
    """Tables played in a background thread's event loop while the test makes its faults."""

    def __init__(self, tables: Sequence[Table]) -> None:
        self.tables = list(tables)
        self._loop = asyncio.new_event_loop()
        self._stop = asyncio.Event()
        self._thread = threading.Thread(target=self._run, name="players", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)

        async def main() -> None:
            self._stop = asyncio.Event()
            await asyncio.gather(*(t.run(self._stop) for t in self.tables))

        self._loop.run_until_complete(main())

    def stop(self) -> None:
        """Stop every table's player and wait for their thread."""
        self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(30)

    def newest(self) -> dict[str, tuple[int, int]]:
        """Each table's newest (match, seq) shown so far."""
        return {t.room: t.last_seq for t in self.tables}

    def resumed(self, since: float, before: dict[str, tuple[int, int]]) -> dict[str, float]:
        """Seconds from ``since`` until each table was shown a move newer than ``before``
        (tables that were not are left out)."""
        out: dict[str, float] = {}
        for t in self.tables:
            later = [s.at for s in t.shown if s.at >= since
                     and (s.match, s.seq) > before.get(t.room, (0, 0))]
            if later:
                out[t.room] = min(later) - since
        return out


def new_tables(base: str, count: int, nodes: Callable[[], Sequence[str]], seed: int,
               players: int = 3) -> list[Table]:
    """``count`` rooms of a host and bots, created at ``base``, ready to play."""
    import httpx

    rng = random.Random(seed)
    out = []
    for i in range(count):
        body = {"name": f"Host{i}", "preset": "classic",
                "rules": {"players": players, "rounds": 60},
                "seats": [{"kind": "human"}] + [{"kind": "bot"}] * (players - 1)}
        r = httpx.post(base + "/api/rooms", json=body, timeout=15)
        r.raise_for_status()
        room = r.json()
        out.append(Table(room["room"], room["token"], nodes, random.Random(rng.random())))
    return out


def check_restored(base: str, store: Store, tables: Sequence[Table]) -> list[str]:
    """Every room loads at ``base`` (a fresh process) as its stored log has it: what did not."""
    from websockets.sync.client import connect

    problems = []
    for t in tables:
        try:
            with connect(f"ws{base[4:]}/ws/{t.room}?lang=en", open_timeout=10) as ws:
                ws.send(json.dumps({"type": "hello", "lang": "en", "token": t.token}))
                while True:
                    msg = json.loads(ws.recv(timeout=10))
                    if msg["type"] == "error":
                        problems.append(f"room {t.room}: {msg['code']} {msg['message']}")
                        break
                    if msg["type"] == "state":
                        rows = store.match_actions(t.room, msg["match"])
                        if msg["seq"] != len(rows) or [r.seq for r in rows] != list(
                                range(1, len(rows) + 1)):
                            problems.append(f"room {t.room}: restored at seq {msg['seq']}, "
                                            f"the log holds {[r.seq for r in rows][-5:]}")
                        break
        except Exception as e:  # reported with the room
            problems.append(f"room {t.room}: {type(e).__name__}: {e}")
    return problems
