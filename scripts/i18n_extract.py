"""Extract every translatable message of the package into the catalogues.

Messages are the string literals passed to ``_``, ``N_`` and ``ngettext`` (see
:mod:`unoarena.i18n`). The script writes ``locale/unoarena.pot`` and merges it into each
language's ``unoarena.po``: translations of messages still in use are kept, new messages are
added untranslated, and messages no longer in the code are dropped. Run it after changing
messages, translate what is empty, then run ``scripts/i18n_compile.py``.

    python scripts/i18n_extract.py [--check]

``--check`` writes nothing and exits 1 when a catalogue lacks a message or a translation.
"""

from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "unoarena"
LOCALE = PACKAGE / "locale"
DOMAIN = "unoarena"
LANGUAGES = ("zh_TW", "zh_CN")
KEYWORDS = {"_": 1, "N_": 1, "ngettext": 2}
HEADER = {
    "zh_TW": ("Chinese (Traditional)", "zh_TW"),
    "zh_CN": ("Chinese (Simplified)", "zh_CN"),
}


@dataclass
class Message:
    msgid: str
    plural: str | None = None
    where: list[str] = field(default_factory=list)


@dataclass
class Entry:
    msgid: str
    plural: str | None
    strs: list[str]
    comments: list[str] = field(default_factory=list)


def extract(package: Path = PACKAGE) -> dict[str, Message]:
    """Every message in the package's Python files, in order of first use."""
    out: dict[str, Message] = {}
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package.parent).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in KEYWORDS):
                continue
            n = KEYWORDS[node.func.id]
            args = node.args[:n]
            if len(args) < n or not all(isinstance(a, ast.Constant) and isinstance(a.value, str)
                                        for a in args):
                continue
            msgid = args[0].value  # type: ignore[attr-defined]
            plural = args[1].value if n == 2 else None  # type: ignore[attr-defined]
            m = out.setdefault(msgid, Message(msgid, plural))
            if plural and not m.plural:
                m.plural = plural
            m.where.append(f"{rel}:{node.lineno}")
    return out


# -- .po reading and writing -----------------------------------------------------------------
def _unquote(s: str) -> str:
    s = s.strip()
    assert s.startswith('"') and s.endswith('"'), s
    return ast.literal_eval(s)  # type: ignore[no-any-return]


def read_po(path: Path) -> dict[str, Entry]:
    """The entries of a .po file (header included, under the empty msgid)."""
    entries: dict[str, Entry] = {}
    if not path.exists():
        return entries
    cur: dict[str, str] = {}
    strs: dict[int, str] = {}
    key = ""
    comments: list[str] = []

    def flush() -> None:
        if "msgid" in cur:
            plural = cur.get("msgid_plural")
            values = [strs[i] for i in sorted(strs)] if strs else [cur.get("msgstr", "")]
            entries[cur["msgid"]] = Entry(cur["msgid"], plural, values, list(comments))

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if "msgid" in cur and key:
                flush()
                cur, strs, key, comments = {}, {}, "", []
            if line.startswith("#."):
                comments.append(line[2:].strip())
            continue
        if line.startswith("msgid "):
            if "msgid" in cur:
                flush()
                cur, strs, comments = {}, {}, comments if not cur else []
            key = "msgid"
            cur["msgid"] = _unquote(line[6:])
        elif line.startswith("msgid_plural "):
            key = "msgid_plural"
            cur[key] = _unquote(line[13:])
        elif line.startswith("msgstr["):
            i = int(line[7:line.index("]")])
            key = f"msgstr[{i}]"
            strs[i] = _unquote(line[line.index("]") + 1:])
        elif line.startswith("msgstr "):
            key = "msgstr"
            cur["msgstr"] = _unquote(line[7:])
        elif line.startswith('"'):
            if key.startswith("msgstr["):
                i = int(key[7:-1])
                strs[i] += _unquote(line)
            else:
                cur[key] += _unquote(line)
    flush()
    return entries


def _quote(s: str) -> str:
    body = s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{body}"'


def _field(name: str, value: str) -> str:
    if "\n" in value.rstrip("\n") or len(value) > 70:
        parts = value.split("\n")
        chunks = [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
        return f'{name} ""\n' + "\n".join(_quote(c) for c in chunks)
    return f"{name} {_quote(value)}"


def header(lang: str) -> str:
    _name, code = HEADER.get(lang, (lang, lang))
    return (f"Project-Id-Version: unoarena\nLanguage: {code}\n"
            "MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\n"
            "Content-Transfer-Encoding: 8bit\nPlural-Forms: nplurals=1; plural=0;\n")


def write_po(path: Path, lang: str | None, messages: dict[str, Message],
             old: dict[str, Entry]) -> None:
    lines = [f"# {DOMAIN} messages" + (f": {HEADER[lang][0]}" if lang in HEADER else ""),
             'msgid ""', _field("msgstr", header(lang) if lang else
                                "Content-Type: text/plain; charset=UTF-8\n"), ""]
    for m in messages.values():
        for w in m.where[:3]:
            lines.append(f"#: {w}")
        if "{" in m.msgid:
            lines.append("#, python-brace-format")
        lines.append(_field("msgid", m.msgid))
        prev = old.get(m.msgid)
        if m.plural:
            lines.append(_field("msgid_plural", m.plural))
            value = prev.strs[0] if prev and prev.strs else ""
            lines.append(_field("msgstr[0]", value if lang else ""))
            if not lang:
                lines.append(_field("msgstr[1]", ""))
        else:
            value = prev.strs[0] if prev and prev.strs else ""
            lines.append(_field("msgstr", value if lang else ""))
        lines.append("")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines), encoding="utf-8")


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def missing(messages: dict[str, Message], lang: str) -> list[str]:
    """Messages the language's catalogue lacks or leaves untranslated."""
    old = read_po(po_path(lang))
    return [m for m in messages if m not in old or not all(old[m].strs)
            or not old[m].strs[0].strip()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true",
                    help="write nothing; fail when a message is missing or untranslated")
    ns = ap.parse_args(argv)
    messages = extract()
    if ns.check:
        bad = 0
        for lang in LANGUAGES:
            for m in missing(messages, lang):
                print(f"{lang}: untranslated: {m!r}")
                bad += 1
        print(f"{len(messages)} messages, {bad} missing")
        return 1 if bad else 0
    write_po(LOCALE / f"{DOMAIN}.pot", None, messages, {})
    for lang in LANGUAGES:
        write_po(po_path(lang), lang, messages, read_po(po_path(lang)))
        print(f"{lang}: {len(messages)} messages, {len(missing(messages, lang))} untranslated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
