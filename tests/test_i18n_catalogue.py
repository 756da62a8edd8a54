"""The catalogues: every message the code marks for translation is translated in both Chinese
catalogues, keeps its placeholders, and the compiled .mo files match the .po files."""

from __future__ import annotations

import io
import re
from pathlib import Path
from types import ModuleType

import pytest

from unoarena.testing import load_script

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("zh_TW", "zh_CN")


def _script(name: str) -> ModuleType:
    return load_script(ROOT / "scripts" / f"{name}.py")


extract = _script("i18n_extract")
compile_mo = _script("i18n_compile")
MESSAGES = extract.extract()
_FIELD = re.compile(r"\{([a-z_]*)(?:![rs])?(?::[^}]*)?\}")


def test_messages_found() -> None:
    assert len(MESSAGES) > 300
    assert "Your turn: play a marked card, or press d to {draw}." in MESSAGES


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_translated(lang: str) -> None:
    missing = extract.missing(MESSAGES, lang)
    assert not missing, f"{lang}: {len(missing)} untranslated, e.g. {missing[:5]}"


@pytest.mark.parametrize("lang", LANGS)
def test_placeholders_kept(lang: str) -> None:
    po = extract.read_po(extract.po_path(lang))
    for msgid, m in MESSAGES.items():
        want = set(_FIELD.findall(msgid)) | set(_FIELD.findall(m.plural or ""))
        got = set(_FIELD.findall(po[msgid].strs[0]))
        assert got <= want and (got == want or m.plural), (lang, msgid, po[msgid].strs[0])


@pytest.mark.parametrize("lang", LANGS)
def test_mo_matches_po(lang: str) -> None:
    po_file = extract.po_path(lang)
    mo_file = po_file.with_suffix(".mo")
    assert mo_file.exists(), f"run scripts/i18n_compile.py ({mo_file} is missing)"
    # compared as catalogues, not bytes: the header records Babel's version, which may be
    # newer here than where the .mo was compiled
    assert _messages(mo_file.read_bytes()) == _messages(compile_mo.compile_po(po_file)), \
        "the .mo is out of date: run scripts/i18n_compile.py"


def _messages(mo: bytes) -> dict[object, object]:
    """Every message of a compiled catalogue and its translation, the header left out."""
    from babel.messages.mofile import read_mo

    def key(v: object) -> object:  # a plural's ids and strings come as lists
        return tuple(v) if isinstance(v, list | tuple) else v

    return {key(m.id): key(m.string) for m in read_mo(io.BytesIO(mo)) if m.id}


def test_scripts_differ_by_language() -> None:
    tw = extract.read_po(extract.po_path("zh_TW"))
    cn = extract.read_po(extract.po_path("zh_CN"))
    assert tw["Help [?]"].strs[0] != cn["Help [?]"].strs[0]
    assert "禁止" in tw["Skip"].strs[0] and "阻挡" in cn["Skip"].strs[0]
    assert "迴轉" in tw["Reverse"].strs[0] and "反转" in cn["Reverse"].strs[0]


def test_speaking_switches_for_a_block_and_restores() -> None:
    """A server makes the shared texts speak one person's language for a block; the process
    language is back afterwards, even when the block fails."""
    from unoarena.text import i18n

    i18n.set_language("en")
    with i18n.speaking(i18n.translator("zh_TW")):
        assert i18n._("draw") != "draw"
    assert i18n._("draw") == "draw"
    with pytest.raises(RuntimeError), i18n.speaking(i18n.translator("zh_CN")):
        raise RuntimeError("boom")
    assert i18n._("draw") == "draw" and i18n.language() == "en"
