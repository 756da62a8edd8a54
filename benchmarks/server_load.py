"""Load test of the web server: many bot clients playing over real WebSockets on localhost.

Starts ``python -m unoarena.web`` in its own process (unless ``--url`` names a running one),
creates ``--rooms`` rooms of ``--clients`` people each, connects every person over a
WebSocket and lets them play for ``--duration`` seconds: each client acts on its turn after a
think time, choosing a random legal action. The latency of an action is the time from sending
it to receiving the table state that includes it. Prints JSON: rooms, clients, actions/s,
latency p50/p90/p99/max in milliseconds, errors, and the server process's CPU use.

Each client also chats, one line every ``--chat-every`` seconds (10 by default, 0: silent),
starting at a random moment: the JSON says how many lines were sent and read, and how long a
line took to come back to its sender (``chat_latency_ms``). ``--compare-chat`` runs the same
load twice, silent and then chatting, in one server process each, and prints both with the
ratio of their action latencies.

On PostgreSQL the servers use a schema of their own, dropped afterwards. ``--processes N``
starts N server processes sharing the rooms (PostgreSQL and the Redis of ``--broker-url``);
room *i* is created on process *i mod N*, which owns it. Its clients connect to that
process, or with ``--spread`` to the processes in turn, so that most reach their room through
another process, as behind a proxy that balances connections. The JSON then has the same
figures for each process (its rooms, the clients connected to it, their actions, latencies and
errors, its CPU) and in total.

``--lobby`` measures the lobby instead: ``--rooms`` public rooms, ``--watchers`` pages on
the lobby's socket, and for ``--duration`` seconds ``--changes`` changes a second to random
rooms (a person takes an open seat, a spectator comes or goes). It reports what the watchers
received (messages and bytes per change) against a full re-send of the list at each change,
which is the size of the list a watcher is sent first.

Localhost only, bounded in time and count: ``python benchmarks/server_load.py --rooms 250``,
``python benchmarks/server_load.py --lobby --rooms 1000``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

from unoarena.web.app import pace_gc, tune_gc

LOOPBACK = ("127.0.0.1", "localhost", "::1")


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.errors: dict[str, int] = {}
        self.messages = 0
        self.matches = 0
        self.measuring = False
        self.chat_sent = 0
        self.chat_read = 0
        self.chat_latencies: list[float] = []

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


class Player:
    """One person at a table: acts on its turn after a think time."""

    def __init__(self, base: str, room: str, token: str, host: bool, stats: list[Stats],
                 think: float, rng: random.Random, chat_every: float = 0.0) -> None:
        self.base, self.room, self.token, self.host = base, room, token, host
        self.stats_all, self.think, self.rng = stats, think, rng  # the total, its process's
        self.stats = stats[0]
        self.ws: ClientConnection | None = None
        self.sent_seq = -1
        self.sent_at = 0.0
        self.pending: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()
        self.chat_every = chat_every
        self.said: dict[str, float] = {}  # lines sent and not yet read back: when

    async def run(self, stop: asyncio.Event) -> None:
        url = f"ws{self.base[4:]}/ws/{self.room}?lang=en"
        async with connect(url, max_size=2**22, open_timeout=60, ping_interval=None) as ws:
            self.ws = ws
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            reader = asyncio.ensure_future(self._read(ws))
            stopper = asyncio.ensure_future(stop.wait())
            talker = asyncio.ensure_future(self._talk(ws)) if self.chat_every > 0 else None
            await asyncio.wait({reader, stopper}, return_when=asyncio.FIRST_COMPLETED)
            for t in (reader, stopper, self.pending, talker):
                if t is not None:
                    t.cancel()

    async def _read(self, ws: ClientConnection) -> None:
        async for raw in ws:
            msg = orjson.loads(raw)  # the clients' own parsing is not the server's time
            for st in self.stats_all:
                st.messages += 1
            kind = msg["type"]
            if kind == "welcome":
                self.ready.set()
            elif kind == "error":
                for st in self.stats_all:
                    st.error(msg.get("code", "?"))
                self.sent_seq = -1
            elif kind == "match_over":
                if self.host:
                    for st in self.stats_all:
                        st.matches += 1
                    await ws.send(json.dumps({"type": "again", "token": self.token}))
            elif kind == "state":
                self._on_state(msg)
            elif kind == "chat" and self.stats.measuring:
                self._on_chat(msg)

    async def _talk(self, ws: ClientConnection) -> None:
        """A line every ``chat_every`` seconds, from a random moment on (so that the
        room's people do not all speak at once)."""
        await self.ready.wait()
        await asyncio.sleep(self.rng.random() * self.chat_every)
        n = 0
        while True:
            n += 1
            text = f"{self.token[:6]} says hello {n} <b>&</b>"
            if self.stats.measuring:
                self.said[text] = time.perf_counter()
                for st in self.stats_all:
                    st.chat_sent += 1
            await ws.send(json.dumps({"type": "chat", "text": text}))
            await asyncio.sleep(self.chat_every)

    def _on_chat(self, msg: dict[str, Any]) -> None:
        now = time.perf_counter()
        for line in msg["lines"]:
            for st in self.stats_all:
                st.chat_read += 1
            sent = self.said.pop(line["text"], None)
            if sent is not None:
                for st in self.stats_all:
                    st.chat_latencies.append(now - sent)

    def _on_state(self, st: dict[str, Any]) -> None:
        if self.sent_seq >= 0 and st["seq"] > self.sent_seq:
            if self.stats.measuring:
                took = time.perf_counter() - self.sent_at
                for stats in self.stats_all:
                    stats.latencies.append(took)
                    stats.actions += 1
            self.sent_seq = -1
        v = st["view"]
        if st["status"] != "playing" or v["round_over"] or v["turn"] != st["you"]:
            return
        if not v["legal"] or self.sent_seq >= 0:
            return
        if self.pending is not None and not self.pending.done():
            self.pending.cancel()
        self.pending = asyncio.ensure_future(self._act(st["seq"], v["legal"]))

    async def _act(self, seq: int, legal: list[str]) -> None:
        await asyncio.sleep(self.think * (0.5 + self.rng.random()))
        plays = [a for a in legal if a.startswith(("play", "color", "give", "accept"))]
        unos = [a for a in plays if a.endswith(" uno")]
        pool = unos or plays or [a for a in legal if not a.startswith(("catch", "uno"))] \
            or legal
        action = self.rng.choice(pool)
        assert self.ws is not None
        self.sent_seq = seq
        self.sent_at = time.perf_counter()
        await self.ws.send(json.dumps({"type": "act", "action": action, "token": self.token,
                                       "seq": seq}))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


async def create_tables(bases: list[str], rooms: int, clients: int, preset: str
                        ) -> list[list[tuple[str, str]]]:
    """Rooms with every seat a person, room *i* made on process *i mod N*: [(room, token) per
    client] per room."""
    out: list[list[tuple[str, str]]] = []
    https = [httpx.AsyncClient(base_url=b, timeout=60) for b in bases]
    try:
        sem = asyncio.Semaphore(16)

        async def one(i: int) -> list[tuple[str, str]]:
            http = https[i % len(https)]
            async with sem:
                body = {"name": f"host{i}", "preset": preset, "rules": {"players": clients},
                        "seats": [{"kind": "human"}] * clients}
                r = (await http.post("/api/rooms", json=body)).json()
                seats = [(r["room"], r["token"])]
                for j in range(1, clients):
                    jr = (await http.post(f"/api/rooms/{r['room']}/join",
                                          json={"name": f"p{i}-{j}"})).json()
                    seats.append((r["room"], jr["token"]))
                return seats

        out = list(await asyncio.gather(*(one(i) for i in range(rooms))))
    finally:
        for http in https:
            await http.aclose()
    return out


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


def figures(stats: Stats, elapsed: float) -> dict[str, Any]:
    lat = [x * 1000 for x in stats.latencies]
    chat = [x * 1000 for x in stats.chat_latencies]
    return {
        "actions": stats.actions,
        "actions_per_s": round(stats.actions / elapsed, 1),
        "messages_received": stats.messages,
        "latency_ms": {"p50": round(statistics.median(lat), 2) if lat else None,
                       "p90": round(percentile(lat, 90), 2),
                       "p99": round(percentile(lat, 99), 2),
                       "max": round(max(lat), 2) if lat else None},
        "errors": sum(stats.errors.values()),
        "error_codes": stats.errors,
        "matches_finished": stats.matches,
        "chat_sent": stats.chat_sent,
        "chat_lines_read": stats.chat_read,
        "chat_latency_ms": {"p50": round(statistics.median(chat), 2) if chat else None,
                            "p99": round(percentile(chat, 99), 2) if chat else None},
    }


async def run(args: argparse.Namespace, bases: list[str], pids: list[int]) -> dict[str, Any]:
    stats = Stats()
    each = [Stats() for _ in bases]  # of the clients connected to each process
    # 4,000 clients in one process have the server's garbage-collector problem: collected
    # the server's way, so that their own pauses are not counted as the server's latency
    tune_gc()
    load_before = [round(x, 2) for x in os.getloadavg()]
    rng = random.Random(args.seed)
    t0 = time.perf_counter()
    tables = await create_tables(bases, args.rooms, args.clients, args.preset)
    setup_s = time.perf_counter() - t0
    stop = asyncio.Event()
    collector = asyncio.ensure_future(pace_gc(lambda: True))
    players: list[Player] = []
    clients_of = [0] * len(bases)
    for i, seats in enumerate(tables):
        for j, (room, token) in enumerate(seats):
            k = (i + j if args.spread else i) % len(bases)
            clients_of[k] += 1
            players.append(Player(bases[k], room, token, j == 0, [stats, each[k]], args.think,
                                  random.Random(rng.getrandbits(32)), args.chat_every))
    tasks = []
    for n, p in enumerate(players):
        tasks.append(asyncio.ensure_future(p.run(stop)))
        if n % 50 == 49:
            await asyncio.sleep(0.01)
    await asyncio.wait_for(asyncio.gather(*(p.ready.wait() for p in players)), 120)
    connect_s = time.perf_counter() - t0 - setup_s
    for p in players:
        if p.host and p.ws is not None:
            await p.ws.send(json.dumps({"type": "start", "token": p.token}))
    await asyncio.sleep(args.warmup)
    cpu0 = [cpu_seconds(pid) for pid in pids]
    own0 = sum(os.times()[:2])
    stats.measuring = True
    m0 = time.perf_counter()
    await asyncio.sleep(args.duration)
    stats.measuring = False
    elapsed = time.perf_counter() - m0
    cpu1 = [cpu_seconds(pid) for pid in pids]
    own1 = sum(os.times()[:2])
    owned = await owned_rooms(bases) if len(bases) > 1 else []
    stop.set()
    collector.cancel()
    await asyncio.gather(*tasks, collector, return_exceptions=True)
    cpu = [round(100 * (b - a) / elapsed, 1) for a, b in zip(cpu0, cpu1, strict=True)]
    result: dict[str, Any] = {
        "rooms": args.rooms,
        "clients": args.rooms * args.clients,
        "preset": args.preset,
        "think_s": args.think,
        "chat_every_s": args.chat_every,
        "duration_s": round(elapsed, 2),
        **figures(stats, elapsed),
        "server_cpu_percent": sum(cpu) if pids else None,
        "client_cpu_percent": round(100 * (own1 - own0) / elapsed, 1),
        "setup_s": round(setup_s, 2),
        "connect_s": round(connect_s, 2),
        "cores": os.cpu_count(),
        "load_average_before": load_before,
    }
    if len(bases) > 1:
        result["spread"] = args.spread
        result["processes"] = [
            {"url": b, "rooms_owned": owned[k], "clients": clients_of[k],
             **figures(each[k], elapsed), "cpu_percent": cpu[k] if pids else None}
            for k, b in enumerate(bases)]
    return result


class LobbyWatcher:
    """A page on the lobby's socket: the list's size, then every change message's."""

    def __init__(self, base: str) -> None:
        self.url = f"ws{base[4:]}/ws/lobby"
        self.first_bytes = 0
        self.listed = 0
        self.messages = 0
        self.bytes = 0
        self.entries = 0  # rooms added, changed or removed, over all messages
        self.ready = asyncio.Event()

    async def run(self, stop: asyncio.Event) -> None:
        async with connect(self.url, max_size=2**24) as ws:
            first = await ws.recv()
            self.first_bytes = len(first.encode() if isinstance(first, str) else first)
            self.listed = len(json.loads(first)["rooms"])
            self.ready.set()
            while not stop.is_set():
                try:
                    raw = await asyncio.wait_for(ws.recv(), 0.2)
                except TimeoutError:
                    continue
                msg = json.loads(raw)
                if msg["type"] != "lobby_diff":
                    continue
                self.messages += 1
                self.bytes += len(raw.encode() if isinstance(raw, str) else raw)
                self.entries += len(msg["add"]) + len(msg["change"]) + len(msg["remove"])


async def public_rooms(base: str, rooms: int, clients: int, preset: str
                       ) -> list[tuple[str, str]]:
    """``rooms`` public rooms of ``clients`` seats, the host in one and the others open:
    [(room, the host's token)]."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        sem = asyncio.Semaphore(16)

        async def one(i: int) -> tuple[str, str]:
            async with sem:
                body = {"name": f"host{i}", "preset": preset, "rules": {"players": clients},
                        "public": True, "seats": [{"kind": "human"}] * clients}
                r = (await http.post("/api/rooms", json=body)).json()
                return r["room"], r["token"]

        return list(await asyncio.gather(*(one(i) for i in range(rooms))))


async def run_lobby(args: argparse.Namespace, base: str, pids: list[int]) -> dict[str, Any]:
    """The lobby's live list of ``args.rooms`` public rooms, changing ``args.changes`` times a
    second: what its watchers receive, against a full re-send of the list at each change."""
    rng = random.Random(args.seed)
    rooms = await public_rooms(base, args.rooms, args.clients, args.preset)
    # each host waits at their table (a room whose host is away leaves the list)
    hosts: list[ClientConnection] = []
    for room, token in rooms:
        ws = await connect(f"ws{base[4:]}/ws/{room}", max_size=2**22)
        await ws.send(json.dumps({"type": "hello", "token": token}))
        hosts.append(ws)
    stop = asyncio.Event()
    watchers = [LobbyWatcher(base) for _ in range(args.watchers)]
    tasks = [asyncio.ensure_future(w.run(stop)) for w in watchers]
    await asyncio.wait_for(asyncio.gather(*(w.ready.wait() for w in watchers)), 60)
    await asyncio.sleep(args.warmup)
    base_counts = [(w.messages, w.bytes, w.entries) for w in watchers]
    open_seats = {room: args.clients - 1 for room, _token in rooms}
    spectators: list[ClientConnection] = []
    made = {"join": 0, "watch": 0, "leave": 0}
    errors = 0
    cpu0 = [cpu_seconds(pid) for pid in pids]
    t0 = time.perf_counter()
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        n = 0
        while time.perf_counter() - t0 < args.duration:
            due = t0 + n / args.changes
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            n += 1
            kind = rng.choice(("join", "watch", "leave"))
            room = rng.choice(rooms)[0]
            try:
                if kind == "join" and open_seats[room] > 0:
                    r = await http.post(f"/api/rooms/{room}/join", json={"name": f"p{n}"})
                    errors += r.status_code != 200
                    open_seats[room] -= 1
                elif kind == "leave" and spectators:
                    await spectators.pop(rng.randrange(len(spectators))).close()
                else:
                    kind = "watch"
                    ws = await connect(f"ws{base[4:]}/ws/{room}")
                    await ws.send(json.dumps({"type": "hello"}))
                    spectators.append(ws)
            except Exception:
                errors += 1
                continue
            made[kind] += 1
    elapsed = time.perf_counter() - t0
    await asyncio.sleep(0.5)  # the last changes reach the watchers
    cpu1 = [cpu_seconds(pid) for pid in pids]
    stop.set()
    for ws in spectators + hosts:
        await ws.close()
    await asyncio.gather(*tasks, return_exceptions=True)
    changes = sum(made.values())
    got = [(w.messages - m, w.bytes - b, w.entries - e)
           for w, (m, b, e) in zip(watchers, base_counts, strict=True)]
    per_watcher_msgs = statistics.mean(g[0] for g in got)
    per_watcher_bytes = statistics.mean(g[1] for g in got)
    full = statistics.mean(w.first_bytes for w in watchers)
    return {
        "mode": "lobby",
        "rooms": args.rooms,
        "listed": watchers[0].listed,
        "watchers": args.watchers,
        "duration_s": round(elapsed, 2),
        "changes": changes,
        "changes_made": made,
        "changes_per_s": round(changes / elapsed, 1),
        "full_list_bytes": int(full),
        "per_watcher": {
            "messages": per_watcher_msgs,
            "bytes": int(per_watcher_bytes),
            "rooms_in_messages": statistics.mean(g[2] for g in got),
            "messages_per_change": round(per_watcher_msgs / max(1, changes), 3),
            "bytes_per_change": round(per_watcher_bytes / max(1, changes), 1),
        },
        "full_resend": {  # every change sending the whole list, as a page reloading it would
            "messages_per_change": 1.0,
            "bytes_per_change": int(full),
        },
        "bytes_ratio_full_over_diff": round(full * changes / max(1.0, per_watcher_bytes), 1),
        "server_cpu_percent": round(sum(100 * (b - a) / elapsed
                                        for a, b in zip(cpu0, cpu1, strict=True)), 1)
        if pids else None,
        "errors": errors,
    }


async def owned_rooms(bases: list[str]) -> list[int]:
    """How many rooms each process holds, by its health endpoint."""
    out = []
    async with httpx.AsyncClient(timeout=30) as http:
        for b in bases:
            out.append(int((await http.get(b + "/healthz")).json()["rooms"]))
    return out


def start_server(db: str, broker: str | None, log: Any) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    cmd = [sys.executable, "-m", "unoarena.web", "--port", str(port), "--database-url", db,
           "--bot-delay", "0", "--window-delay", "0", "--round-pause", "0",
           "--rate", "200", "--create-rate", "0", "--log-level", "warning"]
    if broker:
        cmd += ["--broker-url", broker]
    return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT), \
        f"http://127.0.0.1:{port}"


def wait_up(proc: subprocess.Popen[bytes], base: str, timeout: float = 60) -> bool:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                return True
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            return False
        time.sleep(0.1)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rooms", type=int, default=250)
    ap.add_argument("--clients", type=int, default=4, help="people per room (2-10)")
    ap.add_argument("--duration", type=float, default=30.0, help="seconds measured")
    ap.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    ap.add_argument("--think", type=float, default=0.5,
                    help="mean seconds a client waits before acting (0: as fast as it can)")
    ap.add_argument("--chat-every", type=float, default=10.0,
                    help="seconds between one client's chat lines (0: no chat)")
    ap.add_argument("--compare-chat", action="store_true",
                    help="run twice, silent and chatting, and print the latency ratio")
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--url", default=None, help="a running server on this machine")
    ap.add_argument("--database-url", default=None,
                    help="for the servers started here (PostgreSQL for --processes above 1)")
    ap.add_argument("--processes", type=int, default=1,
                    help="server processes sharing the rooms (1-8; more than 1 needs "
                         "--database-url postgresql://... and Redis)")
    ap.add_argument("--broker-url", default="redis://127.0.0.1:6379/0",
                    help="the Redis of several processes (default redis://127.0.0.1:6379/0)")
    ap.add_argument("--spread", action="store_true",
                    help="clients connect to the processes in turn, most of them to one that "
                         "does not own their room")
    ap.add_argument("--lobby", action="store_true",
                    help="measure the lobby's live list of --rooms public rooms instead")
    ap.add_argument("--watchers", type=int, default=10, help="--lobby: pages on the lobby")
    ap.add_argument("--changes", type=float, default=50.0,
                    help="--lobby: changes a second to random rooms")
    args = ap.parse_args()
    if args.lobby and (args.processes != 1 or not 1 <= args.watchers <= 200
                       or not 0 < args.changes <= 1000):
        ap.error("--lobby is for one process, 1-200 watchers, at most 1000 changes a second")
    if not 1 <= args.processes <= 8:
        ap.error("--processes is 1-8")
    if args.processes > 1 and (args.url or not (args.database_url or "").startswith("postgres")):
        ap.error("--processes above 1 starts its servers (no --url) and needs "
                 "--database-url postgresql://...")
    if not 1 <= args.rooms <= 2000 or not 2 <= args.clients <= 10 \
            or not 0 < args.duration <= 600:
        ap.error("keep it bounded: 1-2000 rooms, 2-10 clients, at most 600 s")
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    if args.url and httpx.URL(args.url).host not in LOOPBACK:
        ap.error("the load test only targets this machine (127.0.0.1, localhost)")
    if not args.compare_chat:
        result = measure(args)
        if result is None:
            return 1
        print(json.dumps(result, indent=2))
        return 0 if result["errors"] == 0 else 1
    if args.chat_every <= 0 or args.url or args.lobby:
        ap.error("--compare-chat starts its own servers for rooms at play (not --lobby) and "
                 "needs --chat-every above 0")
    silent = measure(argparse.Namespace(**{**vars(args), "chat_every": 0.0}))
    chatting = measure(args)
    if silent is None or chatting is None:
        return 1
    ratio = {k: round(chatting["latency_ms"][k] / silent["latency_ms"][k], 2)
             for k in ("p50", "p99") if silent["latency_ms"][k]}
    print(json.dumps({"silent": silent, "chatting": chatting,
                      "latency_ratio_chatting_to_silent": ratio}, indent=2))
    return 0 if silent["errors"] == chatting["errors"] == 0 else 1


def measure(args: argparse.Namespace) -> dict[str, Any] | None:
    """One load run: start the servers (unless ``--url``), play, stop them; the JSON's
    figures, or None when a server did not start."""
    procs: list[subprocess.Popen[bytes]] = []
    bases: list[str] = []
    tmp = tempfile.TemporaryDirectory()
    schema_store = None
    log = open(Path(tmp.name) / "server.log", "wb")  # noqa: SIM115 (closed below)
    try:
        if args.url:
            bases = [args.url.rstrip("/")]
        else:
            db = args.database_url or f"sqlite:///{Path(tmp.name) / 'load.sqlite3'}"
            broker = args.broker_url if args.processes > 1 else None
            if db.startswith("postgres"):
                from unoarena.web.store import Store

                # a clean slate: a server restores the rooms of earlier runs, and bots would
                # play them for their absent people
                schema = f"load_{os.getpid()}_{int(time.time())}"
                scratch = Store(db, schema=schema)
                scratch.migrate()
                schema_store = scratch
                db = f"{scratch.url}?options=-csearch_path%3D{schema}"
            for _ in range(args.processes):
                proc, base = start_server(db, broker, log)
                procs.append(proc)
                bases.append(base)
            for proc, base in zip(procs, bases, strict=True):
                if not wait_up(proc, base):
                    log.close()
                    err = (Path(tmp.name) / "server.log").read_text(errors="replace")
                    print(f"a server did not start: {err}", file=sys.stderr)
                    return None
        pids = [p.pid for p in procs]
        work = run_lobby(args, bases[0], pids) if args.lobby else run(args, bases, pids)
        return asyncio.run(asyncio.wait_for(work, args.duration + args.warmup + 300))
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        log.close()
        if schema_store is not None:
            schema_store.drop_schema()
            schema_store.close()
        tmp.cleanup()


if __name__ == "__main__":
    sys.exit(main())
