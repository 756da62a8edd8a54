"""Translations shared by every user interface (terminal, browser), gettext style.

Messages are written in English and marked with :func:`_` (or :func:`ngettext` for counts), so
a later catalogue can translate them without touching the code. Catalogues live under
``unoarena/locale/<lang>/LC_MESSAGES/unoarena.mo``; a missing catalogue falls back to English,
so the English text is always the source of truth.

The language comes from ``--lang``, else from the usual environment variables (``LANGUAGE``,
``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English. Supported: ``en``, ``zh_TW`` (繁體中文),
``zh_CN`` (简体中文). A server that answers several people at once should not switch the
process-wide language: it takes its own :func:`translator` per request, and makes the shared
narrator speak it for one synchronous block with :func:`speaking`.
"""

from __future__ import annotations

import gettext
import os
import unicodedata
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

DOMAIN = "unoarena"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
SUPPORTED: tuple[str, ...] = ("en", "zh_TW", "zh_CN")
DEFAULT = "en"
ENV_VARS: tuple[str, ...] = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

# Regions and scripts that read the Traditional catalogue; every other Chinese tag (plain
# "zh", cn, sg, my, hans) reads the Simplified one.
_TRADITIONAL = {"tw", "hk", "mo", "hant"}

_translations: gettext.NullTranslations = gettext.NullTranslations()
_language = DEFAULT


def normalize(tag: str) -> str | None:
    """Map a language tag (``zh-TW``, ``zh_HK.UTF-8``, ``en_US``, ``zh``) to a supported
    language, or None when it is none of them."""
    t = tag.strip().split(".")[0].split("@")[0].replace("-", "_").lower()
    if not t:
        return None
    lang, _sep, rest = t.partition("_")
    if lang == "en":
        return "en"
    if lang == "zh":
        parts = set(rest.split("_")) if rest else set()
        if parts & _TRADITIONAL:
            return "zh_TW"
        return "zh_CN"  # plain "zh" and mainland / Singapore tags
    if lang in ("c", "posix"):
        return "en"
    return None


def detect(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for: the first supported entry of ``LANGUAGE``
    (a colon-separated list), ``LC_ALL``, ``LC_MESSAGES`` or ``LANG``; English otherwise."""
    env = os.environ if environ is None else environ
    for var in ENV_VARS:
        value = env.get(var, "")
        for tag in value.split(":"):
            lang = normalize(tag)
            if lang is not None:
                return lang
    return DEFAULT


def translator(lang: str) -> gettext.NullTranslations:
    """The catalogue of a supported language (English when none is installed yet)."""
    if lang == DEFAULT:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang],
                               fallback=True)


def set_language(lang: str | None = None) -> str:
    """Switch the process-wide language (None: detect it from the environment).

    Raises ``ValueError`` naming the supported languages when ``lang`` is not one of them.
    Returns the language now in use.
    """
    global _translations, _language
    if lang is None:
        chosen = detect()
    else:
        norm = normalize(lang)
        if norm is None:
            raise ValueError(f"unsupported language {lang!r}: choose one of "
                             f"{', '.join(SUPPORTED)}")
        chosen = norm
    _translations = translator(chosen)
    _language = chosen
    return chosen


@contextmanager
def speaking(translations: gettext.NullTranslations) -> Iterator[None]:
    """Translate through ``translations`` for the duration of a block, then restore the
    catalogue in use. The block must not yield to other tasks (no ``await``): the catalogue
    is process-wide, so the texts of one person are made while nobody else's are."""
    global _translations
    previous = _translations
    _translations = translations
    try:
        yield
    finally:
        _translations = previous


def language() -> str:
    """The language now in use."""
    return _language


def _(message: str) -> str:
    """Translate a message into the current language."""
    return _translations.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a message whose form depends on a count (``1 card`` / ``2 cards``)."""
    return _translations.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark a message for translation without translating it yet (tables built at import
    time); translate it with :func:`_` where it is shown."""
    return message


def width(text: str) -> int:
    """Columns ``text`` takes in a terminal: wide (CJK) characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def pad(text: str, columns: int, right: bool = False) -> str:
    """``text`` padded with spaces to ``columns`` terminal columns (tables in every language)."""
    fill = " " * max(0, columns - width(text))
    return fill + text if right else text + fill
