"""Check or bring up to date the console examples of README.md and docs/: each ``$ unoarena``
command is run and its shown output compared (``...`` stands for any text).

    python scripts/examples.py            # say which examples print something else (exit 1)
    python scripts/examples.py --write    # rewrite them, keeping their elisions; review the diff
"""

import argparse
import sys
import tempfile
from pathlib import Path

from unoarena.testing.examples import blocks, difference, matches, rewrite, run

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    """Check every example, or rewrite the stale ones with ``--write``."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--write", action="store_true", help="rewrite the stale examples")
    args = ap.parse_args()
    stale = 0
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        with tempfile.TemporaryDirectory() as tmp:
            if args.write:
                for name in rewrite(path, Path(tmp)):
                    print(f"rewrote {name}")
                continue
            for block in blocks(path):
                for c in block.commands:
                    got = run(c.argv, Path(tmp))
                    if not matches(c.want, got):
                        stale += 1
                        print(f"{block.name}: {' '.join(c.argv)}\n{difference(c.want, got)}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
