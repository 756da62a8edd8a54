"""How long the server takes to decode and check one WebSocket message. Prints JSON.

Every message a client sends goes through :func:`unoarena.web.protocol.parse_message` before
anything else looks at it, so its cost is paid once per action (a busy server handles a few
thousand a second). Three kinds of input are timed, each as the median of ``--repeats`` runs of
``--number`` calls, in microseconds a call:

* ``act``: a typical move, ``{"type": "act", "action": "play R5 color=G", ...}``;
* ``mixed``: the valid messages of every type in turn;
* ``refused``: messages that break the schema in each way (unknown type and field, missing
  field, wrong kind, too long, out of range), each refused with an error.

    python benchmarks/protocol_decode.py [--number 20000] [--repeats 7]

To compare two versions, run it with each on ``PYTHONPATH``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import platform
import statistics
import sys
import time
from collections.abc import Sequence

from unoarena.web import protocol
from unoarena.web.protocol import ProtocolError, parse_message

TOKEN = "0123456789abcdef" * 2
ACT = json.dumps({"type": "act", "action": "play R5 color=G", "token": TOKEN, "seq": 12})
VALID = [
    json.dumps({"type": "hello", "token": TOKEN, "lang": "zh_TW"}),
    ACT,
    json.dumps({"type": "start", "token": TOKEN}),
    json.dumps({"type": "seat", "token": TOKEN, "player": 3, "kind": "bot", "bot": "heuristic"}),
    json.dumps({"type": "lang", "lang": "en"}),
    json.dumps({"type": "log"}),
    json.dumps({"type": "ping", "t": 1_700_000_000_000}),
]
REFUSED = [
    json.dumps({"type": "fly"}),
    json.dumps({"type": "act", "action": "draw", "token": TOKEN, "evil": 1}),
    json.dumps({"type": "act", "token": TOKEN}),
    json.dumps({"type": "act", "action": 7, "token": TOKEN}),
    json.dumps({"type": "act", "action": "x" * 300, "token": TOKEN}),
    json.dumps({"type": "remove", "token": TOKEN, "player": 64}),
    "[1, 2]",
    "not json",
]


def per_call(messages: Sequence[str], number: int, repeats: int) -> float:
    """Median microseconds per message over ``repeats`` runs of ``number`` messages."""
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        for i in range(number):
            with contextlib.suppress(ProtocolError):
                parse_message(messages[i % len(messages)])
        runs.append((time.perf_counter() - start) / number * 1e6)
    return round(statistics.median(runs), 3)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--number", type=int, default=20_000, help="calls a run (default 20000)")
    ap.add_argument("--repeats", type=int, default=7, help="runs, median kept (default 7)")
    ns = ap.parse_args(argv)
    if ns.number < 1 or ns.repeats < 1:
        ap.error("--number and --repeats must be 1 or more")
    for raw in REFUSED:  # the inputs are what they say
        try:
            parse_message(raw)
        except ProtocolError:
            continue
        ap.error(f"accepted a message meant to be refused: {raw}")
    for raw in VALID:
        parse_message(raw)
    out = {
        "python": platform.python_version(),
        "module": protocol.__file__,
        "number": ns.number,
        "repeats": ns.repeats,
        "us_per_message": {
            "act": per_call([ACT], ns.number, ns.repeats),
            "mixed": per_call(VALID, ns.number, ns.repeats),
            "refused": per_call(REFUSED, ns.number, ns.repeats),
        },
    }
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
