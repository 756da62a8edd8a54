"""Write docs/protocol/schema.json from the WebSocket protocol's own message types.

    python scripts/protocol_schema.py            # rewrite docs/protocol/schema.json
    python scripts/protocol_schema.py --check    # exit 1 when the file is out of date

The schema comes from the types the server checks messages with (unoarena.web.schema), so the
published contract cannot drift from the code; a test runs the same comparison.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from unoarena.web.schema import json_schema

OUT = Path(__file__).resolve().parent.parent / "docs" / "protocol" / "schema.json"


def render() -> str:
    """The schema as the committed file holds it: sorted keys, two-space indent."""
    return json.dumps(json_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the schema, or with ``--check`` only compare it (exit 1: out of date)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true",
                    help="exit 1 when docs/protocol/schema.json differs from the code")
    args = ap.parse_args(argv)
    text = render()
    if args.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT} is out of date: run python scripts/protocol_schema.py", file=sys.stderr)
            return 1
        return 0
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
