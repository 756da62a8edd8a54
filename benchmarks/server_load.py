"""Load test of the web server: many bot clients playing over real WebSockets on localhost.

Starts ``python -m unoarena.web`` in its own process (unless ``--url`` names a running one),
creates ``--rooms`` rooms of ``--clients`` people each, connects every person over a
WebSocket and lets them play for ``--duration`` seconds: each client acts on its turn after a
think time, choosing a random legal action. The latency of an action is the time from sending
it to receiving the table state that includes it. Prints JSON: rooms, clients, actions/s,
latency p50/p90/p99/max in milliseconds, errors, and the server process's CPU use.

Localhost only, bounded in time and count: ``python benchmarks/server_load.py --rooms 250``.
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

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


class Player:
    """One person at a table: acts on its turn after a think time."""

    def __init__(self, base: str, room: str, token: str, host: bool, stats: Stats,
                 think: float, rng: random.Random) -> None:
        self.base, self.room, self.token, self.host = base, room, token, host
        self.stats, self.think, self.rng = stats, think, rng
        self.ws: ClientConnection | None = None
        self.sent_seq = -1
        self.sent_at = 0.0
        self.pending: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()

    async def run(self, stop: asyncio.Event) -> None:
        url = f"ws{self.base[4:]}/ws/{self.room}?lang=en"
        async with connect(url, max_size=2**22, open_timeout=60, ping_interval=None) as ws:
            self.ws = ws
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            reader = asyncio.ensure_future(self._read(ws))
            stopper = asyncio.ensure_future(stop.wait())
            await asyncio.wait({reader, stopper}, return_when=asyncio.FIRST_COMPLETED)
            for t in (reader, stopper, self.pending):
                if t is not None:
                    t.cancel()

    async def _read(self, ws: ClientConnection) -> None:
        async for raw in ws:
            msg = json.loads(raw)
            self.stats.messages += 1
            kind = msg["type"]
            if kind == "welcome":
                self.ready.set()
            elif kind == "error":
                self.stats.error(msg.get("code", "?"))
                self.sent_seq = -1
            elif kind == "match_over":
                if self.host:
                    self.stats.matches += 1
                    await ws.send(json.dumps({"type": "again", "token": self.token}))
            elif kind == "state":
                self._on_state(msg)

    def _on_state(self, st: dict[str, Any]) -> None:
        if self.sent_seq >= 0 and st["seq"] > self.sent_seq:
            if self.stats.measuring:
                self.stats.latencies.append(time.perf_counter() - self.sent_at)
                self.stats.actions += 1
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


async def create_tables(base: str, rooms: int, clients: int, preset: str
                        ) -> list[list[tuple[str, str]]]:
    """Rooms with every seat a person: [(room, token) per client] per room."""
    out: list[list[tuple[str, str]]] = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        sem = asyncio.Semaphore(16)

        async def one(i: int) -> list[tuple[str, str]]:
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
    return out


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


async def run(args: argparse.Namespace, base: str, server_pid: int | None) -> dict[str, Any]:
    stats = Stats()
    # 4,000 clients in one process have the server's garbage-collector problem: collected
    # the server's way, so that their own pauses are not counted as the server's latency
    tune_gc()
    load_before = [round(x, 2) for x in os.getloadavg()]
    rng = random.Random(args.seed)
    t0 = time.perf_counter()
    tables = await create_tables(base, args.rooms, args.clients, args.preset)
    setup_s = time.perf_counter() - t0
    stop = asyncio.Event()
    collector = asyncio.ensure_future(pace_gc(lambda: True))
    players: list[Player] = []
    for seats in tables:
        for i, (room, token) in enumerate(seats):
            players.append(Player(base, room, token, i == 0, stats, args.think,
                                  random.Random(rng.getrandbits(32))))
    tasks = []
    for k, p in enumerate(players):
        tasks.append(asyncio.ensure_future(p.run(stop)))
        if k % 50 == 49:
            await asyncio.sleep(0.01)
    await asyncio.wait_for(asyncio.gather(*(p.ready.wait() for p in players)), 120)
    connect_s = time.perf_counter() - t0 - setup_s
    for p in players:
        if p.host and p.ws is not None:
            await p.ws.send(json.dumps({"type": "start", "token": p.token}))
    await asyncio.sleep(args.warmup)
    cpu0 = cpu_seconds(server_pid) if server_pid else float("nan")
    own0 = sum(os.times()[:2])
    stats.measuring = True
    m0 = time.perf_counter()
    await asyncio.sleep(args.duration)
    stats.measuring = False
    elapsed = time.perf_counter() - m0
    cpu1 = cpu_seconds(server_pid) if server_pid else float("nan")
    own1 = sum(os.times()[:2])
    stop.set()
    collector.cancel()
    await asyncio.gather(*tasks, collector, return_exceptions=True)
    lat = [x * 1000 for x in stats.latencies]
    return {
        "rooms": args.rooms,
        "clients": args.rooms * args.clients,
        "preset": args.preset,
        "think_s": args.think,
        "duration_s": round(elapsed, 2),
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
        "server_cpu_percent": round(100 * (cpu1 - cpu0) / elapsed, 1) if server_pid else None,
        "client_cpu_percent": round(100 * (own1 - own0) / elapsed, 1),
        "setup_s": round(setup_s, 2),
        "connect_s": round(connect_s, 2),
        "cores": os.cpu_count(),
        "load_average_before": load_before,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rooms", type=int, default=250)
    ap.add_argument("--clients", type=int, default=4, help="people per room (2-10)")
    ap.add_argument("--duration", type=float, default=30.0, help="seconds measured")
    ap.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    ap.add_argument("--think", type=float, default=0.5,
                    help="mean seconds a client waits before acting (0: as fast as it can)")
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--url", default=None, help="a running server on this machine")
    ap.add_argument("--database-url", default=None, help="for the server started here")
    args = ap.parse_args()
    if not 1 <= args.rooms <= 2000 or not 2 <= args.clients <= 10 \
            or not 0 < args.duration <= 600:
        ap.error("keep it bounded: 1-2000 rooms, 2-10 clients, at most 600 s")
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    proc: subprocess.Popen[bytes] | None = None
    tmp = tempfile.TemporaryDirectory()
    if args.url:
        host = httpx.URL(args.url).host
        if host not in LOOPBACK:
            ap.error("the load test only targets this machine (127.0.0.1, localhost)")
        base = args.url.rstrip("/")
    else:
        port = free_port()
        db = args.database_url or f"sqlite:///{Path(tmp.name) / 'load.sqlite3'}"
        log = open(Path(tmp.name) / "server.log", "wb")  # noqa: SIM115 (closed below)
        proc = subprocess.Popen(
            [sys.executable, "-m", "unoarena.web", "--port", str(port), "--database-url", db,
             "--bot-delay", "0", "--window-delay", "0", "--round-pause", "0",
             "--rate", "200", "--create-rate", "0", "--log-level", "warning"],
            stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.close()
                err = (Path(tmp.name) / "server.log").read_text(errors="replace")
                print(f"the server did not start: {err}", file=sys.stderr)
                proc.kill()
                return 1
            time.sleep(0.1)
    try:
        result = asyncio.run(asyncio.wait_for(
            run(args, base, proc.pid if proc else None),
            args.duration + args.warmup + 300))
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
            log.close()
        tmp.cleanup()
    print(json.dumps(result, indent=2))
    return 0 if result["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
