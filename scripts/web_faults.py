"""The server through many faults: the long version of ``tests/web/test_web_faults.py``.

Real server processes on the local PostgreSQL (and Redis, for several processes), reached
through proxies that this script cuts (:mod:`unoarena.testing.web_faults`; the machine's own
PostgreSQL and Redis are never stopped). Rooms of a host playing at random and bots play while,
cycle after cycle, one fault is chosen at random:

- ``db``: the database away for 1 to 6 s;
- ``db+kill``: a process killed (SIGKILL) and the database away while its rooms are waiting
  for their lease to run out or being taken over (1.5 to 4 s), a new process started after;
- ``kill``: a process killed, a new one started;
- ``broker`` (several processes only): Redis away for 1 to 4 s.

Afterwards every state any client was shown is held against the stored log (a move shown that
is not stored at that seq, or a seq shown two ways, is counted), every room is restored in a
fresh process, and the processes' logs are searched for tracebacks. Prints JSON: cycles of each
kind, states checked, moves stored, the counts of what went wrong (all should be 0), and how
long play took to resume after the database came back (median, 95th percentile, max).

    python scripts/web_faults.py --mode both --cycles 30 --rooms 8
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from unoarena.testing.web_faults import (
    Cutter,
    Node,
    Players,
    Table,
    check_restored,
    check_shown,
    new_tables,
    target_of,
    through,
)
from unoarena.testing.web_server import REDIS, fresh_schema, pg_reason, pg_url, redis_reason
from unoarena.web.store import Store

FAST = {"bot_delay": 0.05, "window_delay": 0.02, "round_pause": 0.1, "lease_ttl": 2.0,
        "heartbeat": 0.4}


class Run:
    """One mode's processes, proxies, tables and findings."""

    def __init__(self, mode: str, rooms: int, rng: random.Random, tmp: Path) -> None:
        self.mode = mode
        self.rng = rng
        self.tmp = tmp
        self.schema_gen = fresh_schema(f"unoarena_faults_{mode}")
        self.schema = next(self.schema_gen)
        url = pg_url()
        assert url is not None
        self.db = Cutter(*target_of(url, 5432))
        self.db_url = through(url, self.db)
        self.store = Store(url, schema=self.schema)
        self.config: dict[str, Any] = dict(FAST)
        self.broker: Cutter | None = None
        if mode == "cluster":
            self.broker = Cutter(*target_of(REDIS, 6379))
            self.config["broker_url"] = through(REDIS, self.broker)
        self.nodes: list[Node] = []
        for _ in range(2 if mode == "cluster" else 1):
            self.start_node()
        live = self.live
        self.tables: list[Table] = []
        for i, node in enumerate(self.live_nodes()):
            self.tables += new_tables(node.url, rooms // len(self.nodes), live,
                                      seed=rng.randrange(1 << 30) + i)
        self.players = Players(self.tables)
        self.resumes: list[float] = []
        self.kinds: dict[str, int] = {}
        self.slow: list[str] = []

    def live_nodes(self) -> list[Node]:
        """The processes not killed."""
        return [n for n in self.nodes if n.alive]

    def live(self) -> list[str]:
        """Where a client may connect now."""
        return [n.url for n in self.live_nodes()]

    def start_node(self) -> Node:
        """Start one more server process and wait until it serves."""
        node = Node(self.db_url, self.schema, self.tmp / f"{self.mode}{len(self.nodes)}.log",
                    self.config)
        self.nodes.append(node)
        node.wait_ready()
        return node

    def measure(self, restored_at: float, before: dict[str, tuple[int, int]],
                wait: float = 10.0) -> None:
        """How long each table took to show a new move once the database was back."""
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            got = self.players.resumed(restored_at, before)
            if all(t.room in got for t in self.tables):
                break
            time.sleep(0.05)
        got = self.players.resumed(restored_at, before)
        for r in (t.room for t in self.tables):
            if r not in got:
                self.slow.append(f"room {r}: no move within {wait} s of the database")
            else:
                self.resumes.append(got[r])

    def outage(self, seconds: float) -> tuple[float, dict[str, tuple[int, int]]]:
        """Cut the database for ``seconds``: when it came back, and the newest move each table
        was shown by then."""
        self.db.cut()
        time.sleep(seconds)
        before = self.players.newest()
        restored_at = time.time()
        self.db.restore()
        return restored_at, before

    def cycle(self) -> None:
        """One fault, chosen at random, then a little play."""
        kinds = ["db", "db+kill", "kill"] + (["broker"] if self.broker else [])
        kind = self.rng.choice(kinds)
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        if kind == "db":
            self.measure(*self.outage(self.rng.uniform(1.0, 6.0)))
        elif kind == "db+kill":
            victim = self.rng.choice(self.live_nodes())
            victim.kill()
            time.sleep(self.rng.uniform(0.0, FAST["lease_ttl"] + 1.0))
            restored_at, before = self.outage(self.rng.uniform(1.5, 4.0))
            if not self.live_nodes():  # one process: its rooms wait for the next
                self.start_node()
            else:
                self.measure(restored_at, before)
                self.start_node()
        elif kind == "kill":
            self.rng.choice(self.live_nodes()).kill()
            self.start_node()
        else:
            assert self.broker is not None
            self.broker.cut()
            time.sleep(self.rng.uniform(1.0, 4.0))
            self.broker.restore()
        time.sleep(self.rng.uniform(1.0, 3.0))

    def finish(self) -> dict[str, Any]:
        """Stop, check everything that was shown and restore every room: the figures."""
        self.players.stop()
        for n in self.nodes:
            n.stop()
        verdict = check_shown(self.store, self.tables)
        again = Node(pg_url() or "", self.schema, self.tmp / f"{self.mode}-again.log", FAST)
        try:
            again.wait_ready()
            unrestored = check_restored(again.url, self.store, self.tables)
        finally:
            again.stop()
        tracebacks = sum(n.log.read_text(errors="replace").count("Traceback")
                         + n.log.read_text(errors="replace").count("never retrieved")
                         for n in [*self.nodes, again])
        moves = sum(len(self.store.match_actions(t.room, m))
                    for t in self.tables for m in {s.match for s in t.shown})
        self.db.close()
        if self.broker is not None:
            self.broker.close()
        self.store.close()
        next(self.schema_gen, None)  # its end drops the schema
        r = sorted(self.resumes)
        return {
            "mode": self.mode, "processes_started": len(self.nodes), "rooms": len(self.tables),
            "cycles": self.kinds, "matches_finished": sum(t.matches for t in self.tables),
            "states_checked": verdict.checked, "moves_stored": moves,
            "shown_not_stored": len(verdict.unstored), "forks": len(verdict.forks),
            "rooms_not_restored": len(unrestored), "tracebacks": tracebacks,
            "no_resume": len(self.slow),
            "resume_s": {"n": len(r), "median": round(statistics.median(r), 3) if r else None,
                         "p95": round(r[int(0.95 * (len(r) - 1))], 3) if r else None,
                         "max": round(r[-1], 3) if r else None},
            "examples": (verdict.unstored + verdict.forks + unrestored + self.slow)[:5],
        }


def main(argv: list[str] | None = None) -> int:
    """Run the cycles; the exit status is 1 when anything went wrong."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--mode", choices=("single", "cluster", "both"), default="both")
    p.add_argument("--cycles", type=int, default=20, help="faults per mode (default 20)")
    p.add_argument("--rooms", type=int, default=8, help="rooms per mode (default 8)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--logs", type=Path, default=None,
                   help="keep the processes' logs in this directory")
    args = p.parse_args(argv)
    reason = pg_reason() or (redis_reason() if args.mode != "single" else None)
    if reason:
        print(json.dumps({"skipped": reason}))
        return 1
    rng = random.Random(args.seed)
    out = []
    began = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        logs = args.logs or Path(tmp)
        logs.mkdir(parents=True, exist_ok=True)
        for mode in (("single", "cluster") if args.mode == "both" else (args.mode,)):
            run = Run(mode, args.rooms, rng, logs)
            for _ in range(args.cycles):
                run.cycle()
            out.append(run.finish())
    bad = sum(r[k] for r in out for k in ("shown_not_stored", "forks", "rooms_not_restored",
                                            "tracebacks", "no_resume"))
    print(json.dumps({"runs": out, "seconds": round(time.monotonic() - began, 1),
                      "seed": args.seed, "problems": bad}, indent=2))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
