"""Compile the .po catalogues into the .mo files gettext reads, with Babel.

    python scripts/i18n_compile.py

does what ``pybabel compile -D unoarena -d src/unoarena/locale`` does: it writes ``unoarena.mo``
beside each ``unoarena.po`` under ``src/unoarena/locale``. Untranslated and fuzzy messages are
left out, so English shows through. The output is deterministic (messages sorted), so a test
can check that the committed .mo files are up to date.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.mofile import write_mo

sys.path.insert(0, str(Path(__file__).resolve().parent))
from i18n_extract import LANGUAGES, load_po, po_path


def compile_po(po: Path) -> bytes:
    """The .mo bytes of a .po file."""
    out = io.BytesIO()
    write_mo(out, load_po(po))
    return out.getvalue()


def main() -> int:
    for lang in LANGUAGES:
        po = po_path(lang)
        mo = po.with_suffix(".mo")
        mo.write_bytes(compile_po(po))
        print(f"{lang}: wrote {mo}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
