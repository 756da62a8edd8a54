"""The page's translations: the shared ``unoarena`` catalogue plus the page's own ``unoarena-web``.

The server speaks to several people at once, each in their own language, so it never switches
the process-wide language for long: :func:`speaking` installs one language's catalogue only
around a synchronous block (no ``await`` inside), which in one asyncio thread cannot interleave
with another client's. Catalogues are read straight from the ``.po`` files (compiled ``.mo``
files are not needed), parsed once per language and cached.
"""

from __future__ import annotations

import ast
import gettext
import re
from contextlib import AbstractContextManager
from functools import cache
from pathlib import Path
from typing import Any

from .. import i18n

DOMAINS: tuple[str, ...] = ("unoarena", "unoarena-web")
LANGUAGES: dict[str, str] = {"en": "English", "zh_TW": "繁體中文", "zh_CN": "简体中文"}


def po_path(lang: str, domain: str) -> Path:
    return i18n.LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


_PLURAL_FORMS = re.compile(r"nplurals\s*=\s*(\d+)")


def read_po(text: str) -> tuple[dict[str, str], dict[str, list[str]], int]:
    """Parse a ``.po`` file: singular messages, plural messages (msgid -> forms), nplurals.

    Untranslated and fuzzy entries are left out so that English shows through.
    """
    singular: dict[str, str] = {}
    plural: dict[str, list[str]] = {}
    nplurals = 2
    entry: dict[str, Any] = {}
    field: str | None = None
    fuzzy = False

    def flush() -> None:
        nonlocal entry, fuzzy, nplurals
        msgid = entry.get("msgid")
        if msgid == "":
            m = _PLURAL_FORMS.search(entry.get("msgstr", ""))
            if m:
                nplurals = int(m.group(1))
        elif msgid is not None and not fuzzy:
            ctx = entry.get("msgctxt")
            key = f"{ctx}\x04{msgid}" if ctx else msgid
            if "msgid_plural" in entry:
                forms = [entry[f"msgstr[{i}]"] for i in range(10) if f"msgstr[{i}]" in entry]
                if forms and all(forms):
                    plural[key] = forms
            elif entry.get("msgstr"):
                singular[key] = entry["msgstr"]
        entry, fuzzy = {}, False

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if "msgid" in entry:
                flush()
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            field = None
            continue
        if line.startswith('"'):
            if field is not None:
                entry[field] = entry.get(field, "") + _unquote(line)
            continue
        key, _sep, rest = line.partition(" ")
        if key in ("msgctxt", "msgid") and "msgid" in entry:
            flush()
        field = key
        entry[key] = _unquote(rest.strip())
    if "msgid" in entry:
        flush()
    return singular, plural, nplurals


def _unquote(s: str) -> str:
    if len(s) >= 2 and s[0] == '"' and s[-1] == '"':
        try:
            value = ast.literal_eval(s)
        except (ValueError, SyntaxError):
            return s[1:-1]
        return value if isinstance(value, str) else s[1:-1]
    return s


class PoTranslations(gettext.NullTranslations):
    """A gettext translations object built from parsed ``.po`` messages."""

    def __init__(self, singular: dict[str, str], plural: dict[str, list[str]],
                 nplurals: int) -> None:
        super().__init__()
        self.singular = singular
        self.plural_msgs = plural
        self.nplurals = nplurals

    def _index(self, n: int) -> int:
        return 0 if self.nplurals == 1 else (0 if n == 1 else 1)

    def gettext(self, message: str) -> str:
        return self.singular.get(message, message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        forms = self.plural_msgs.get(msgid1)
        if forms:
            return forms[min(self._index(n), len(forms) - 1)]
        return msgid1 if n == 1 else msgid2


@cache
def translations(lang: str) -> PoTranslations:
    """Both domains of a language merged (the page's own strings win a clash)."""
    singular: dict[str, str] = {}
    plural: dict[str, list[str]] = {}
    nplurals = 1 if lang.startswith("zh") else 2
    if lang != "en":
        for domain in DOMAINS:
            path = po_path(lang, domain)
            if path.is_file():
                s, p, n = read_po(path.read_text(encoding="utf-8"))
                singular.update(s)
                plural.update(p)
                nplurals = n
    return PoTranslations(singular, plural, nplurals)


def normalize(lang: str | None) -> str:
    """A supported language for any tag (``zh-Hant``, ``zh-CN``...); English otherwise."""
    if not lang:
        return "en"
    if lang in LANGUAGES:
        return lang
    return i18n.normalize(lang) or "en"


def gettext_in(lang: str, message: str) -> str:
    """``message`` in ``lang``."""
    return translations(lang).gettext(message)


def dictionary(lang: str) -> dict[str, Any]:
    """The JSON the page loads: every translated message of both domains."""
    t = translations(lang)
    return {"lang": lang, "nplurals": t.nplurals, "messages": t.singular,
            "plurals": t.plural_msgs, "languages": LANGUAGES}


def speaking(lang: str) -> AbstractContextManager[None]:
    """Make the shared narrator and rule texts speak ``lang`` (both domains) for one
    synchronous block: :func:`unoarena.i18n.speaking` with this server's catalogue."""
    return i18n.speaking(translations(lang))


def T_(message: str) -> str:
    """Mark a server message for the page catalogue; translated where it is sent."""
    return message
