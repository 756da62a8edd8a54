"""The long fuzz run whose counts docs/development.md reports: every target of
:mod:`unoarena.testing.fuzz`, and with the web extra the server's (``tests/web/test_fuzz_web.py``).

    python scripts/fuzz.py --seconds 300             # every target, about 5 minutes in all
    python scripts/fuzz.py --seconds 60 --only apply records
    python scripts/fuzz.py --seconds 300 --json      # the counts as one JSON object

It exits 1 if any input broke an invariant (hypothesis prints the smallest such input).
"""

import sys
from pathlib import Path

from unoarena.testing.fuzz import WebTargets, main


def web() -> WebTargets | None:
    """The server's targets, which live with the web tests (None without the web extra)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "web"))
    try:
        from test_fuzz_web import fuzz_server, http_case, ws_case
    except ImportError:
        return None
    return {"http": http_case, "websocket": ws_case}, fuzz_server


if __name__ == "__main__":
    sys.exit(main(web=web))
