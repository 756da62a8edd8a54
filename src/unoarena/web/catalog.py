"""The page's translations: the shared ``unoarena`` catalogue plus the page's own ``unoarena-web``.

The server speaks to several people at once, each in their own language, so it never switches
the process-wide language for long: :func:`speaking` installs one language's catalogue only
around a synchronous block (no ``await`` inside), which in one asyncio thread cannot interleave
with another client's. Catalogues are read straight from the ``.po`` files with Babel (the page
needs every message of a language at once, which a compiled ``.mo`` does not hand out),
parsed once per language and cached.
"""

from __future__ import annotations

import gettext
import io
from contextlib import AbstractContextManager
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages import pofile

from ..text import i18n

DOMAINS: tuple[str, ...] = ("unoarena", "unoarena-web")
LANGUAGES: dict[str, str] = {"en": "English", "zh_TW": "繁體中文", "zh_CN": "简体中文"}


def po_path(lang: str, domain: str) -> Path:
    """Where the ``.po`` file of ``domain`` for ``lang`` lies in the package's locale folder
    (it may not exist: a language without the page's own messages)."""
    return i18n.LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def read_po(text: str) -> tuple[dict[str, str], dict[str, list[str]], int]:
    """Parse a ``.po`` file with Babel: singular messages, plural messages (msgid -> forms)
    and the number of plural forms (``Plural-Forms``; 2 when the header does not say).

    Untranslated and fuzzy entries are left out so that English shows through; a message with
    a context is keyed by its context and msgid joined with EOT, as gettext does.
    """
    catalog = pofile.read_po(io.StringIO(text), ignore_obsolete=True)
    singular: dict[str, str] = {}
    plural: dict[str, list[str]] = {}
    for m in catalog:
        if not m.id or m.fuzzy:
            continue
        msgid = m.id if isinstance(m.id, str) else m.id[0]
        key = f"{m.context}\x04{msgid}" if m.context else msgid
        if isinstance(m.string, str):
            if m.string:
                singular[key] = m.string
        elif m.string and all(m.string):
            plural[key] = list(m.string)
    return singular, plural, catalog.num_plurals


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
        """The translation of ``message``, or ``message`` itself (English) if none."""
        return self.singular.get(message, message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        """The plural form for ``n``: a language with one form (Chinese) always
        uses it, others the first for 1 and the second otherwise; English's when untranslated."""
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
    synchronous block: :func:`unoarena.text.i18n.speaking` with this server's catalogue."""
    return i18n.speaking(translations(lang))


def T_(message: str) -> str:
    """Mark a server message for the page catalogue; translated where it is sent."""
    return message
