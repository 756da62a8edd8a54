"""Extract every translatable message of the package into the catalogues, with Babel.

Messages are the string literals passed to ``_``, ``N_`` and ``ngettext`` (see
:mod:`unoarena.text.i18n`). The script does what these two commands do (docs/development.md,
"Translations"):

    pybabel extract --no-default-keywords -k _ -k N_ -k ngettext:1,2 --project unoarena \\
        --no-location -o src/unoarena/locale/unoarena.pot src/unoarena
    pybabel update --ignore-obsolete --no-location -D unoarena \\
        -i src/unoarena/locale/unoarena.pot -d src/unoarena/locale

that is (without source locations, so that a catalogue changes only when a message does,
and branches that add messages merge cleanly): it writes ``locale/unoarena.pot`` and merges
it into each language's ``unoarena.po``; translations of messages still in use are kept,
new messages are added untranslated (or fuzzy, from a similar old one), and messages no
longer in the code are dropped. Translate what is empty or fuzzy, then run
``scripts/i18n_compile.py`` (``pybabel compile``).

    python scripts/i18n_extract.py [--check]

``--check`` writes nothing and exits 1 when a catalogue lacks a message or a translation.
"""

from __future__ import annotations

import argparse
import io
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po as babel_read_po
from babel.messages.pofile import write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "unoarena"
LOCALE = PACKAGE / "locale"
DOMAIN = "unoarena"
LANGUAGES = ("zh_TW", "zh_CN")
#: Babel's keyword specs: the function name and the positions of its message arguments.
KEYWORDS: dict[str, tuple[int, ...] | None] = {"_": None, "N_": None, "ngettext": (1, 2)}
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["version"]


@dataclass
class Message:
    msgid: str
    plural: str | None = None
    where: list[str] = field(default_factory=list)


@dataclass
class Entry:
    """A catalogue entry: its translations (one per plural form) and whether it is fuzzy."""

    msgid: str
    plural: str | None
    strs: list[str]
    fuzzy: bool = False


def template(package: Path = PACKAGE) -> Catalog:
    """The ``.pot`` catalogue: every message in the package's Python files, in order of first
    use, with where it is used."""
    pot = Catalog(project=DOMAIN, version=VERSION, fuzzy=False)
    for filename, lineno, msg, comments, context in extract_from_dir(
            str(package), keywords=KEYWORDS, comment_tags=(), strip_comment_tags=True):
        where = ((package / filename).relative_to(package.parent.parent).as_posix(), lineno)
        pot.add(msg, None, [where], auto_comments=comments, context=context)
    return pot


def extract(package: Path = PACKAGE) -> dict[str, Message]:
    """Every message of the package by its msgid (the singular form for counts)."""
    out: dict[str, Message] = {}
    for m in template(package):
        if not m.id:
            continue
        msgid, plural = (m.id, None) if isinstance(m.id, str) else (m.id[0], m.id[1])
        out[msgid] = Message(msgid, plural, [f"{f}:{n}" for f, n in m.locations])
    return out


def load_po(path: Path) -> Catalog:
    with path.open("rb") as f:
        return babel_read_po(f, ignore_obsolete=True)


def read_po(path: Path) -> dict[str, Entry]:
    """The entries of a .po file by msgid (the header under the empty msgid); none when the
    file does not exist."""
    if not path.exists():
        return {}
    entries: dict[str, Entry] = {}
    for m in load_po(path):
        msgid, plural = (m.id, None) if isinstance(m.id, str) else (m.id[0], m.id[1])
        strs = [m.string] if isinstance(m.string, str) else list(m.string or [""])
        entries[msgid] = Entry(msgid, plural, [s or "" for s in strs], m.fuzzy)
    return entries


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def missing(messages: dict[str, Message], lang: str) -> list[str]:
    """Messages the language's catalogue lacks, leaves untranslated or marks fuzzy."""
    old = read_po(po_path(lang))
    return [m for m in messages if m not in old or old[m].fuzzy
            or not all(s.strip() for s in old[m].strs)]


def _write(path: Path, catalog: Catalog) -> None:
    """Write a catalogue unless only its creation date would change, so that a run with no new
    message leaves the files (and the compiled .mo) as they are."""
    out = io.BytesIO()
    write_po(out, catalog, ignore_obsolete=True, include_previous=True, no_location=True)
    if path.exists() and _undated(path.read_bytes()) == _undated(out.getvalue()):
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(out.getvalue())


def _undated(po: bytes) -> list[bytes]:
    return [line for line in po.splitlines() if not line.startswith(b'"POT-Creation-Date:')]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--check", action="store_true",
                    help="write nothing; fail when a message is missing or untranslated")
    ns = ap.parse_args(argv)
    pot = template()
    messages = extract()
    if ns.check:
        bad = 0
        for lang in LANGUAGES:
            for m in missing(messages, lang):
                print(f"{lang}: untranslated: {m!r}")
                bad += 1
        print(f"{len(messages)} messages, {bad} missing")
        return 1 if bad else 0
    _write(LOCALE / f"{DOMAIN}.pot", pot)
    for lang in LANGUAGES:
        path = po_path(lang)
        catalog = load_po(path) if path.exists() else Catalog(locale=lang, project=DOMAIN)
        catalog.update(pot)
        catalog.project, catalog.version = DOMAIN, VERSION
        _write(path, catalog)
        print(f"{lang}: {len(messages)} messages, {len(missing(messages, lang))} untranslated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
