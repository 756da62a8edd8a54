"""Generated parts of README.md: the table of rule-set keys, from the engine's own KEYS and
PRESETS, so the documentation cannot drift from the code.

    python scripts/gen_docs.py           # print the table
    python scripts/gen_docs.py --write   # put it into README.md between the markers
    python scripts/gen_docs.py --check   # exit 1 if README.md is out of date
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from unoarena.rules_text import keys_table

README = Path(__file__).resolve().parent.parent / "README.md"
START = "<!-- keys-table:start -->"
END = "<!-- keys-table:end -->"


def splice(text: str, table: str) -> str:
    """``text`` with the block between the markers replaced by ``table``."""
    try:
        head, rest = text.split(START, 1)
        _old, tail = rest.split(END, 1)
    except ValueError:
        raise SystemExit(f"README.md lacks the markers {START} ... {END}") from None
    return f"{head}{START}\n{table}{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = p.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help="update README.md in place")
    group.add_argument("--check", action="store_true", help="fail if README.md is out of date")
    args = p.parse_args(argv)
    table = keys_table()
    if not (args.write or args.check):
        sys.stdout.write(table)
        return 0
    text = README.read_text(encoding="utf-8")
    new = splice(text, table)
    if args.check:
        if new != text:
            print("README.md's keys table is out of date: run python scripts/gen_docs.py "
                  "--write", file=sys.stderr)
            return 1
        return 0
    README.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
