"""Random keys, clicks and resizes at the full-screen game, for as long as you like: the long
version of ``tests/test_tui_fuzz.py``. Each run opens a random match (preset, 2-10 players,
sometimes two people) at a random size, sends random bursts of keys and clicks and resizes,
checks after each burst that the app is on the table or a dialog over it and still answers,
then leaves by Ctrl+Q, Ctrl+C, q or an error nobody catches (in turn) and checks the match
was saved and resumes as it was.

    python scripts/tui_fuzz.py --runs 40 --events 2000 --seed 1

Prints one line of JSON a run, and exits 1 at the first run that breaks a check (its seed
reproduces it).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import tempfile
import time

from unoarena.testing.tui_fuzz import EXITS, run_once


def main() -> int:
    """Run the runs; 0 when every one kept every check."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=8, help="runs (default 8)")
    p.add_argument("--events", type=int, default=2000, help="events a run (default 2000)")
    p.add_argument("--seed", type=int, default=1, help="seed of the first run (default 1)")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as home:
        os.environ["UNOARENA_HOME"] = home
        for i in range(args.runs):
            seed = args.seed + i
            how = EXITS[i % len(EXITS)]
            start = time.perf_counter()
            try:
                report = asyncio.run(run_once(seed, args.events, how))
            except AssertionError as e:
                print(json.dumps({"seed": seed, "exit": how, "failed": str(e)[:2000]}))
                return 1
            print(json.dumps({**dataclasses.asdict(report),
                              "seconds": round(time.perf_counter() - start, 1)}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
