"""The compiled kernel's constants (``kernel/consts.pxi``: action offsets, rule parameter
indices, card tables, heuristic weights) are the Python modules' values: the Python side builds
the arrays the compiled side reads, so one number differing would make the two read each other
wrong. Each constant names the module it comes from in a comment. The rule parameters are
derived from the rule keys' declarations; every key has one that the compiled code reads, or
says in ``tables.NO_PARAM`` how the kernel plays it without one."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from types import ModuleType
from typing import Any, Literal, get_args, get_origin, get_type_hints

import numpy as np
import pytest

import unoarena.kernel as kernel
from unoarena.engine import KEYS, RuleSet, preset
from unoarena.kernel import tables

CONSTS = Path(kernel.__file__).resolve().parent / "consts.pxi"
MODULES = ("core", "bots", "heuristic", "label", "matches", "mt", "observe", "vector", "tables")
#: Constants only the compiled side has (no Python code builds an array with them): MT19937's
#: own numbers, checked against the algorithm's, and tables the generator froze in from the
#: card definitions, checked by every differential test that deals a card.
COMPILED_ONLY = {"_LOWER": 0x7FFFFFFF, "_UPPER": 0x80000000, "_MATRIX_A": 0x9908B0DF,
                 "KV_NOPT": None, "KV_O_DECLINE": None, "KL_OVER": None, "_BASE": None,
                 "_KCOLOR": None, "_KRANK": None, "_POINTS": None, "_IS_NUMBER": None,
                 "_PENALTY_KIND": None}
_SCALAR = re.compile(r"^\s*(?:cdef double\s+)?(\w+) = ([-\d.e]+)\s*(?:#\s*([\w.]*))?\s*$")
_ARRAY = re.compile(r"^(\w+)\[:\] = \[(.*)\]\s*$")


def _module(name: str) -> ModuleType:
    return importlib.import_module(name if "." in name else f"unoarena.kernel.{name}")


def _find(name: str, where: str | None) -> Any:
    """The Python value of a constant: in the module its comment names, else in any kernel
    module (or the engine's card tables) that defines it."""
    candidates = [where] if where else [*MODULES, "unoarena.engine.cards"]
    for mod in candidates:
        m = _module(mod)
        if m is tables and name in tables.PARAMS:
            return tables.PARAMS[name]
        if hasattr(m, name):
            return getattr(m, name)
    raise AssertionError(f"consts.pxi's {name} is in no Python module ({candidates})")


def test_every_compiled_constant_is_the_python_value() -> None:
    scalars = arrays = 0
    for line in CONSTS.read_text(encoding="utf-8").splitlines():
        if (m := _ARRAY.match(line) or _SCALAR.match(line)) and m[1] in COMPILED_ONLY:
            known = COMPILED_ONLY[m[1]]
            assert known is None or int(m[2]) == known, line
            continue
        if m := _ARRAY.match(line):
            name, items = m[1], [float(x) for x in m[2].split(",")]
            want = np.asarray(_find(name, None), dtype=float).ravel().tolist()
            assert items == want, f"consts.pxi's {name} differs from the Python table"
            arrays += 1
        elif m := _SCALAR.match(line):
            name, text, where = m[1], m[2], m[3] or None
            value = float(text) if any(c in text for c in ".e") else int(text)
            assert _find(name, where) == value, f"consts.pxi's {name} = {text}"
            scalars += 1
    assert scalars > 300, scalars


def test_the_rule_parameters_are_written_from_the_declarations() -> None:
    text = CONSTS.read_text(encoding="utf-8")
    assert tables.with_params(text) == text, "run python scripts/kernel_consts.py"
    assert "R_BOMB" in tables.PARAMS and "bomb" in tables.PARAM_KEYS


#: the compiled code, without the constants it is given
CODE = "\n".join(p.read_text(encoding="utf-8") for p in CONSTS.parent.glob("*.pxi")
                 if p != CONSTS)


@pytest.mark.parametrize("key", KEYS)
def test_every_key_has_a_parameter_the_kernel_reads(key: str) -> None:
    if key in tables.NO_PARAM:
        assert f"R_{key.upper()}" not in tables.PARAMS
        return
    name = f"R_{key.upper()}"
    assert name in tables.PARAMS, f"{key} has no kernel parameter"
    assert re.search(rf"\b{name}\b", CODE), (
        f"the compiled kernel never reads {name}: play {key} in kernel/*.pxi, or say in "
        "tables.NO_PARAM how the kernel plays it without a parameter")


def test_parameters_encode_the_declared_values() -> None:
    types = get_type_hints(RuleSet)
    for key in tables.PARAM_KEYS:
        kind = types[key]
        if get_origin(kind) is Literal:
            assert [tables.encode(key, v) for v in get_args(kind)] == list(range(len(
                get_args(kind))))
    # the compiled code names some choices' values: each is that value's place in the type
    for key, names in (("starter_w4", ("SW4_RESHUFFLE", "SW4_BOTTOM", "SW4_DEALER")),
                       ("stacking", ("STACK_OFF", "STACK_DRAW2", "STACK_DEFLECT")),
                       ("sum_jump_in", ("SUM_OFF", "SUM_SAME", "SUM_ANY")),
                       ("scoring", ("SC_WINNER", "SC_PENALTY", "SC_CHIPS")),
                       ("elimination", ("ELIM_OFF", "ELIM_POINTS", "ELIM_CARDS"))):
        assert [getattr(tables, n) for n in names] == list(range(len(get_args(types[key]))))
    p = tables.compile_rules(preset("house", hand_limit=12, rounds=None)).params
    assert p[tables.PARAMS["R_STACKING"]] == tables.STACK_DEFLECT
    assert p[tables.PARAMS["R_HAND_LIMIT"]] == 12 and p[tables.PARAMS["R_ROUNDS"]] == -1
