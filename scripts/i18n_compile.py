"""Compile the .po catalogues into the .mo files gettext reads (standard library only).

    python scripts/i18n_compile.py

Writes ``unoarena.mo`` beside each ``unoarena.po`` under ``src/unoarena/locale``. Untranslated
messages are left out, so English shows through. The output is deterministic (messages sorted,
as GNU msgfmt does), so a test can check that the committed .mo files are up to date.
"""

from __future__ import annotations

import array
import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from i18n_extract import LANGUAGES, po_path, read_po


def compile_po(po: Path) -> bytes:
    """The .mo bytes of a .po file."""
    messages: dict[bytes, bytes] = {}
    for msgid, entry in read_po(po).items():
        if msgid and not all(s.strip() for s in entry.strs):
            continue
        key = msgid.encode()
        if entry.plural is not None:
            key += b"\0" + entry.plural.encode()
        messages[key] = "\0".join(entry.strs).encode()
    keys = sorted(messages)
    ids = strs = b""
    offsets = []
    for k in keys:
        offsets.append((len(ids), len(k), len(strs), len(messages[k])))
        ids += k + b"\0"
        strs += messages[k] + b"\0"
    n = len(keys)
    keystart = 7 * 4 + 16 * n
    valuestart = keystart + len(ids)
    koffsets: list[int] = []
    voffsets: list[int] = []
    for o1, l1, o2, l2 in offsets:
        koffsets += [l1, o1 + keystart]
        voffsets += [l2, o2 + valuestart]
    out = struct.pack("Iiiiiii", 0x950412DE, 0, n, 7 * 4, 7 * 4 + n * 8, 0, 0)
    out += array.array("i", koffsets).tobytes()
    out += array.array("i", voffsets).tobytes()
    return out + ids + strs


def main() -> int:
    for lang in LANGUAGES:
        po = po_path(lang)
        mo = po.with_suffix(".mo")
        mo.write_bytes(compile_po(po))
        print(f"{lang}: wrote {mo}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
