"""``python -m unoarena.scenarios PATH...``: run scenario files or folders."""

import sys

from .runner import main

sys.exit(main(sys.argv[1:]))
