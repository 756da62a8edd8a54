"""How long the MCP server takes to answer a tool call, as an AI client sees it. Prints JSON.

The SDK's own client talks to the server in this process (JSON-RPC over memory streams, so the
time is the server's and the SDK's, not a network's). A scripted agent plays whole matches
against bots: on every decision it calls ``get_view``, ``legal_actions`` and ``play_action``
(which includes the bots' answers up to the agent's next decision), and ``read_log`` now and
then. Reported per tool and for all calls: the median, p99 and maximum in milliseconds. The
target is a p99 of at most 20 ms.

    python benchmarks/mcp_latency.py [--matches 20] [--players 4] [--preset classic]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from mcp import Client

from unoarena.mcp.server import build_server


def quantile(xs: list[float], q: float) -> float:
    """The ``q`` quantile of ``xs`` (nearest rank), rounded to microseconds."""
    s = sorted(xs)
    return round(s[min(len(s) - 1, int(q * len(s)))], 3)


async def measure(matches: int, players: int, preset: str, bot: str) -> dict[str, list[float]]:
    """Milliseconds of every call, by tool."""
    times: dict[str, list[float]] = defaultdict(list)

    async with Client(build_server()) as client:
        async def call(tool: str, **args: Any) -> dict[str, Any]:
            start = time.perf_counter()
            result = await client.call_tool(tool, args)
            times[tool].append((time.perf_counter() - start) * 1000)
            if result.is_error:
                raise RuntimeError(f"{tool} refused: {result.content}")
            out: dict[str, Any] = result.structured_content or {}
            return out

        for m in range(matches):
            rng = random.Random(m)
            state = await call("start_game", preset=preset, players=players, seed=m,
                               bots=[bot], rules={"rounds": 1})
            gid = state["game"]
            while not state["over"]:
                await call("get_view", game=gid)
                options = (await call("legal_actions", game=gid))["options"]
                state = await call("play_action", game=gid, action=rng.choice(options)["action"])
                if rng.random() < 0.2:
                    await call("read_log", game=gid, since=0)
            await call("end_game", game=gid)
    return times


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--matches", type=int, default=20, help="matches played (default 20)")
    ap.add_argument("--players", type=int, default=4, help="players a match (default 4)")
    ap.add_argument("--preset", default="classic", help="rule set (default classic)")
    ap.add_argument("--bot", default="heuristic", help="the bots' spec (default heuristic)")
    ns = ap.parse_args(argv)
    if ns.matches < 1:
        ap.error("--matches must be 1 or more")
    times = asyncio.run(measure(ns.matches, ns.players, ns.preset, ns.bot))
    every = [t for ts in times.values() for t in ts]
    report = {
        "benchmark": "mcp_latency", "python": platform.python_version(),
        "machine": platform.machine(), "matches": ns.matches, "players": ns.players,
        "preset": ns.preset, "bot": ns.bot, "calls": len(every),
        "ms": {tool: {"calls": len(ts), "p50": round(statistics.median(ts), 3),
                      "p99": quantile(ts, 0.99), "max": round(max(ts), 3)}
               for tool, ts in sorted(times.items())},
        "all_p50_ms": round(statistics.median(every), 3), "all_p99_ms": quantile(every, 0.99),
        "target_p99_ms": 20.0,
    }
    report["meets_target"] = report["all_p99_ms"] <= 20.0
    json.dump(report, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
