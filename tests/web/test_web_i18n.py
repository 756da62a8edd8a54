"""The page in three languages: every string the page or the server shows a person is in the
web catalogue or the shared one, translated into Traditional and Simplified Chinese."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from unoarena.web.catalog import po_path, read_po, speaking, translations

WEB = Path(__file__).resolve().parents[2] / "src" / "unoarena" / "web"
JS_T = re.compile(r'\bt\(\s*"((?:[^"\\]|\\.)*)"')
JS_TN = re.compile(r'\btn\(\s*"((?:[^"\\]|\\.)*)"\s*,\s*"((?:[^"\\]|\\.)*)"')
HTML = re.compile(r'data-i18n(?:-title|-placeholder)?="([^"]+)"')


def page_messages() -> tuple[set[str], set[str]]:
    """msgids of the page (``t``/``tn`` in the JS, ``data-i18n`` in the HTML) and of the
    server (``T_`` in the Python); plural msgids are the singular forms."""
    single: set[str] = set()
    plural: set[str] = set()
    for f in sorted((WEB / "static").rglob("*.js")):
        text = f.read_text(encoding="utf-8")
        single |= {json.loads(f'"{m}"') for m in JS_T.findall(text)}
        plural |= {json.loads(f'"{a}"') for a, _b in JS_TN.findall(text)}
    single |= set(HTML.findall((WEB / "static" / "index.html").read_text(encoding="utf-8")))
    for f in sorted(WEB.rglob("*.py")):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "T_" and node.args
                    and isinstance(node.args[0], ast.Constant)):
                single.add(str(node.args[0].value))
    return single, plural


def test_the_extraction_finds_the_page_strings() -> None:
    single, plural = page_messages()
    assert {"Create room", "Start the game", "there is no room {room}"} <= single
    assert "{n} card" in plural


@pytest.mark.parametrize("lang", ["zh_TW", "zh_CN"])
def test_every_page_string_is_translated(lang: str) -> None:
    single, plural = page_messages()
    t = translations(lang)
    missing = sorted(m for m in single if t.gettext(m) == m)
    missing_pl = sorted(m for m in plural if t.ngettext(m, m + "s", 2) == m + "s")
    assert not missing, f"untranslated in {lang}: {missing}"
    assert not missing_pl, f"untranslated plurals in {lang}: {missing_pl}"


@pytest.mark.parametrize("lang", ["zh_TW", "zh_CN"])
def test_translations_keep_their_placeholders(lang: str) -> None:
    singular, plural, nplurals = read_po(po_path(lang, "unoarena-web").read_text("utf-8"))
    assert nplurals == 1
    ph = re.compile(r"\{(\w+)\}")
    for msgid, text in singular.items():
        assert set(ph.findall(msgid)) == set(ph.findall(text)), (msgid, text)
    for msgid, forms in plural.items():
        assert all(set(ph.findall(msgid)) == set(ph.findall(f)) for f in forms), msgid


def test_web_catalogue_does_not_redefine_shared_messages() -> None:
    for lang in ("zh_TW", "zh_CN"):
        shared_path = po_path(lang, "unoarena")
        if not shared_path.is_file():
            pytest.skip("the shared catalogue is not there yet")
        shared, shared_pl, _ = read_po(shared_path.read_text("utf-8"))
        web, web_pl, _ = read_po(po_path(lang, "unoarena-web").read_text("utf-8"))
        assert not set(web) & set(shared), sorted(set(web) & set(shared))
        assert not set(web_pl) & set(shared_pl)


def test_traditional_and_simplified_differ() -> None:
    tw, cn = translations("zh_TW"), translations("zh_CN")
    assert tw.gettext("Create room") == "建立房間"
    assert cn.gettext("Create room") == "创建房间"


def test_po_reader_handles_continuations_context_and_fuzzy() -> None:
    text = '\n'.join([
        'msgid ""', 'msgstr ""', '"Plural-Forms: nplurals=1; plural=0;\\n"', '',
        'msgid "a"', 'msgstr ""', '"x"', '"y"', '',
        '#, fuzzy', 'msgid "b"', 'msgstr "z"', '',
        'msgctxt "c"', 'msgid "d"', 'msgstr "e"', '',
        'msgid "{n} card"', 'msgid_plural "{n} cards"', 'msgstr[0] "{n} 張"', '',
        'msgid "q\\"uote"', 'msgstr "引\\"號"',
    ])
    singular, plural, n = read_po(text)
    assert singular == {"a": "xy", "c\x04d": "e", 'q"uote': '引"號'}
    assert plural == {"{n} card": ["{n} 張"]} and n == 1


def test_speaking_switches_the_shared_narration_only_inside_the_block() -> None:
    from unoarena.text import i18n

    before = i18n._("clockwise")
    with speaking("zh_TW"):
        inside = i18n._("clockwise")
    assert i18n._("clockwise") == before
    if po_path("zh_TW", "unoarena").is_file():
        assert inside != "clockwise"
