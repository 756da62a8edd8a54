"""Write the compiled kernel's rule parameters into ``src/unoarena/kernel/consts.pxi``.

    python scripts/kernel_consts.py [--check]

The parameters (one per rule key, named ``R_`` and the key in capitals, then a few facts of the
whole rule set) come from the keys' declarations through ``unoarena.kernel.tables.PARAMS``; run
this after declaring a key, then rebuild the kernel (``pip install --no-deps -e .``).
``--check`` writes nothing and exits 1 when the file is not up to date.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from unoarena.kernel.tables import with_params

CONSTS = Path(__file__).resolve().parents[1] / "src" / "unoarena" / "kernel" / "consts.pxi"


def main() -> int:
    """Write (or with --check, compare) the parameters; the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if consts.pxi is out of date")
    ns = ap.parse_args()
    text = CONSTS.read_text(encoding="utf-8")
    new = with_params(text)
    if new == text:
        return 0
    if ns.check:
        print(f"{CONSTS} is out of date: run python scripts/kernel_consts.py", file=sys.stderr)
        return 1
    CONSTS.write_text(new, encoding="utf-8")
    print(f"wrote {CONSTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
