"""Every rule key is declared once (its field in ``RuleSet``, declared with
:func:`unoarena.engine.rules.key`) and has every piece docs/adding-a-rule.md lists: rule IDs
that RULES.md defines (tests/test_rule_coverage.py then asks a scenario of each), a short name
and offered values translated in both Chinese catalogues, an explanation for ``unoarena
rules``, a place on the new-game screens when it is offered, and the behaviour before it
existed when stored rule sets lack it. A key missing a piece fails here, naming both."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from unoarena.engine import KEY_INFO, KEYS, PRESETS, ConfigError, RuleSet, preset
from unoarena.engine.rules import INT_BOUNDS, NOT_ADDED, coerce
from unoarena.text.i18n import translator
from unoarena.text.rules import EXPLAIN, KEY_RULES, explain_key
from unoarena.tui.newgame import CHOICES, TOGGLES

ROOT = Path(__file__).resolve().parents[1]
RULES_MD = (ROOT / "docs" / "spec" / "RULES.md").read_text(encoding="utf-8")
DEFINED = set(re.findall(r"^- ([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+) ", RULES_MD, re.M))
#: The oldest stored rule set the tests keep (a golden game recorded before most house rules).
OLDEST = json.loads((ROOT / "tests" / "golden" / "classic_2p_seed1.json").read_text())


def rule_ids(text: str) -> list[str]:
    """The rule IDs a declaration names: ``"ED-1..4"`` is ED-1 to ED-4; ``"§16"`` is a section
    of RULES.md, not a rule."""
    out: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        m = re.fullmatch(r"([A-Z][A-Z0-9-]*-)(\d+)\.\.(\d+)", part)
        if m:
            out += [f"{m[1]}{n}" for n in range(int(m[2]), int(m[3]) + 1)]
        elif not part.startswith("§"):
            out.append(part)
    return out


def test_every_key_is_declared_once() -> None:
    assert list(KEY_INFO) == list(KEYS)
    assert {k: i.rules for k, i in KEY_INFO.items()} == KEY_RULES


@pytest.mark.parametrize("key", KEYS)
def test_the_rules_a_key_configures_are_defined_and_pinned(key: str) -> None:
    ids = rule_ids(KEY_INFO[key].rules)
    assert ids or KEY_INFO[key].rules.startswith("§"), f"{key} names no rule"
    # (tests/test_rule_coverage.py then asks a scenario of each of them)
    assert not set(ids) - DEFINED, f"{key}: {sorted(set(ids) - DEFINED)} not in RULES.md"


@pytest.mark.parametrize("lang", ["zh_TW", "zh_CN"])
def test_every_name_is_translated(lang: str) -> None:
    t = translator(lang)
    for key, info in KEY_INFO.items():
        assert t.gettext(info.label) != info.label, f"{lang}: {key}'s name {info.label!r}"
        for _value, name in info.values:
            assert t.gettext(name) != name, f"{lang}: {key}'s value name {name!r}"


@pytest.mark.parametrize("key", KEYS)
def test_every_key_is_explained(key: str) -> None:
    assert key in EXPLAIN, f"{key} has no explanation in unoarena.text.rules.EXPLAIN"
    for name in PRESETS:
        assert explain_key(preset(name), key).strip(), (key, name)


def test_offered_keys_are_on_the_new_game_screens() -> None:
    offered = {k for k, i in KEY_INFO.items() if i.offer != "none"}
    assert {k for k, _n in TOGGLES} | {k for k, _n, _v in CHOICES} == offered
    for key, info in KEY_INFO.items():
        if info.offer == "toggle":
            assert isinstance(getattr(RuleSet(), key), bool), f"{key} is offered as a toggle"
        if info.offer == "choice":
            assert info.values, f"{key} is offered as a choice of no values"
            for value, _name in info.values:
                coerce(key, value)  # every offered value is one the key takes


def test_integer_keys_are_bounded_and_refuse_the_rest() -> None:
    for key, (lo, hi, optional) in INT_BOUNDS.items():
        assert coerce(key, lo) == lo and coerce(key, hi) == hi
        with pytest.raises(ConfigError, match=f"{lo} to {hi}"):
            coerce(key, hi + 1)
        if optional:
            assert coerce(key, "none") is None
        else:
            with pytest.raises(ConfigError):
                coerce(key, "none")


def test_keys_added_later_say_how_rule_sets_stored_before_them_play() -> None:
    stored = OLDEST["record"]["rules"]
    for key, info in KEY_INFO.items():
        if key not in stored:
            assert info.added is not NOT_ADDED, f"{key} is not in stored rule sets: declare added="
    # such a stored rule set still loads, each new key at its declared value
    rules = RuleSet.from_dict(stored)
    assert all(getattr(rules, k) == i.added for k, i in KEY_INFO.items() if k not in stored)
