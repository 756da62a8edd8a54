"""``python -m unoarena.web``: the same as ``unoarena serve``."""

from __future__ import annotations

import sys

from .cli_serve import main

sys.exit(main())
