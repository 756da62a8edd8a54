"""How fast a remote Python bot plays over the protocol, beside the same bot in-process, and how
fast the MCP server answers a tool call. Prints JSON.

The server runs in a process of its own (this script with ``--serve``: the web app on
127.0.0.1 with a SQLite file and no bot delays), as it would for a program elsewhere. Each match
is one round of two seats, both played by :mod:`unoarena.remote.client` over its own WebSocket
(the host's seat with its seat token, the other as a remote bot seat with its bot token), so
every decision crosses the network: a ``state`` read, the bot's choice, an ``act`` sent, the
server's check, the write to the database and the next ``state``. Decisions a second = the
decisions both programs made / the time from the start to the end of the matches. The
in-process figure is the same bot playing the same kind of round by the driver. Targets: at
least 200 remote decisions a second; an MCP tool call in at most 20 ms at p99
(``benchmarks/mcp_latency.py``'s matches, run here too).

    python benchmarks/remote_bot.py [--matches 20] [--bot basic] [--mcp-matches 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from unoarena.bots import make_bot
from unoarena.driver import play_round
from unoarena.engine import Game, preset
from unoarena.remote.client import Seat, run_seat
from unoarena.testing import load_script

HERE = Path(__file__).resolve().parent


def serve(db: str) -> None:
    """The server process: the web app without bot delays, its port printed when it listens."""
    import uvicorn

    from unoarena.web.app import create_app
    from unoarena.web.rooms import ServerConfig

    config = ServerConfig(database_url=db, bot_delay=0.0, window_delay=0.0, person_window=0.0,
                          round_pause=0.0, idle_after=0.0, rate=0.0, max_rooms=100_000)
    server = uvicorn.Server(uvicorn.Config(create_app(config), host="127.0.0.1", port=0,
                                           log_level="warning", lifespan="on"))

    async def run() -> None:
        task = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        print(server.servers[0].sockets[0].getsockname()[1], flush=True)
        await task

    asyncio.run(run())


async def remote_match(base: str, bot: str, seed: int) -> tuple[int, float]:
    """One match of two remote seats: (decisions made, seconds from start to its end)."""
    async with httpx.AsyncClient(base_url=base) as http:
        r = await http.post("/api/rooms", json={
            "name": "Host", "preset": "classic", "rules": {"players": 2, "rounds": 1},
            "seats": [{"kind": "human"}, {"kind": "human"}]})
        room = r.json()
    host_token = room["token"]
    ws_base = "ws" + base[4:]
    async with connect(f"{ws_base}/ws/{room['room']}", compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": host_token}))
        await ws.send(json.dumps({"type": "seat", "token": host_token, "player": 1,
                                  "kind": "remote", "bot": "basic"}))
        token = ""
        while not token:
            msg = json.loads(await ws.recv())
            token = msg.get("token", "") if msg["type"] == "bot_token" else ""
        far = Seat(make_bot(bot, seed), seed)
        near = Seat(make_bot(bot, seed + 1), seed + 1)
        link = f"{base}/r/{room['room']}"
        other = asyncio.create_task(run_seat(link, token, far.bot, seat=far))
        while True:  # the remote seat connected: start
            msg = json.loads(await ws.recv())
            if msg["type"] == "room" and msg["players"][1]["connected"]:
                break
        start = time.perf_counter()
        await ws.send(json.dumps({"type": "start", "token": host_token}))
        async for raw in ws:  # the host's own seat, played by the same client logic
            msg = json.loads(raw)
            if msg["type"] == "room" and near.rules is None:
                near.room(msg)
            if msg["type"] == "match_over":
                break
            if msg["type"] == "state":
                action = near.decide(msg)
                if action is not None:
                    await ws.send(json.dumps({"type": "act", "token": host_token,
                                              "action": action, "seq": msg["seq"]}))
        await other
        took = time.perf_counter() - start
    return far.stats.decisions + near.stats.decisions, took


def in_process(bot: str, rounds: int) -> float:
    """Decisions a second of the same bots playing two-seat rounds by the driver."""
    rules = preset("classic", players=2)
    decisions = 0
    start = time.perf_counter()
    for i in range(rounds):
        game = Game(rules, i, i % 2)
        play_round(game, [make_bot(bot, 2 * i), make_bot(bot, 2 * i + 1)], random.Random(i))
        decisions += len(game.history)
    return decisions / (time.perf_counter() - start)


def mcp_p99(matches: int) -> dict[str, Any]:
    """The MCP latency benchmark's figures for ``matches`` matches."""
    mod = load_script(HERE / "mcp_latency.py")
    times = asyncio.run(mod.measure(matches, 4, "classic", "heuristic"))
    every = [t for ts in times.values() for t in ts]
    return {"calls": len(every), "p99_ms": mod.quantile(every, 0.99),
            "p50_ms": mod.quantile(every, 0.5)}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--matches", type=int, default=20, help="remote matches (default 20)")
    ap.add_argument("--bot", default="basic", help="the bot both seats play (default basic)")
    ap.add_argument("--mcp-matches", type=int, default=20,
                    help="matches of the MCP benchmark (default 20; 0 leaves it out)")
    ap.add_argument("--serve", metavar="DB", help=argparse.SUPPRESS)
    ns = ap.parse_args(argv)
    if ns.serve:
        serve(ns.serve)
        return 0
    if ns.matches < 1:
        ap.error("--matches must be 1 or more")
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        proc = subprocess.Popen([sys.executable, __file__, "--serve", db],
                                stdout=subprocess.PIPE, text=True, env=dict(os.environ))
        try:
            assert proc.stdout is not None
            port = int(proc.stdout.readline())
            base = f"http://127.0.0.1:{port}"

            async def all_matches() -> list[tuple[int, float]]:
                return [await remote_match(base, ns.bot, 100 + m) for m in range(ns.matches)]

            runs = asyncio.run(all_matches())
        finally:
            proc.terminate()
            proc.wait(20)
    decisions = sum(d for d, _t in runs)
    seconds = sum(t for _d, t in runs)
    remote_rate = decisions / seconds
    local_rate = in_process(ns.bot, max(50, ns.matches * 5))
    report: dict[str, Any] = {
        "benchmark": "remote_bot", "python": platform.python_version(),
        "machine": platform.machine(), "bot": ns.bot, "matches": ns.matches,
        "remote": {"decisions": decisions, "seconds": round(seconds, 3),
                   "decisions_per_s": round(remote_rate, 1)},
        "in_process_decisions_per_s": round(local_rate, 1),
        "remote_vs_in_process": round(remote_rate / local_rate, 4),
        "target_decisions_per_s": 200,
        "meets_decisions_target": remote_rate >= 200,
    }
    if ns.mcp_matches > 0:
        report["mcp"] = {**mcp_p99(ns.mcp_matches), "target_p99_ms": 20.0}
        report["meets_mcp_target"] = report["mcp"]["p99_ms"] <= 20.0
    json.dump(report, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
