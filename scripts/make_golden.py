"""Write the golden games in ``tests/golden/`` (DESIGN lesson 7): the games and their format
are :mod:`unoarena.testing.golden`.

Golden files are regenerated ONLY by running this script, and the diff is reviewed before it
is committed:

    .venv/bin/python scripts/make_golden.py            # rewrite every golden file
    .venv/bin/python scripts/make_golden.py --check    # say which files would change
"""

import sys
from pathlib import Path

from unoarena.testing.golden import main

if __name__ == "__main__":
    sys.exit(main(Path(__file__).resolve().parent.parent / "tests" / "golden"))
