"""The long fuzz run whose counts docs/development.md reports: every target of
:mod:`unoarena.testing.fuzz`, and with the web extra the server's
(:mod:`unoarena.testing.web_fuzz`).

    python scripts/fuzz.py --seconds 300             # every target, about 5 minutes in all
    python scripts/fuzz.py --seconds 60 --only apply records
    python scripts/fuzz.py --seconds 300 --json      # the counts as one JSON object

It exits 1 if any input broke an invariant (hypothesis prints the smallest such input).
"""

import sys

from unoarena.testing.fuzz import main
from unoarena.testing.web_fuzz import web_targets

if __name__ == "__main__":
    sys.exit(main(web=web_targets))
