"""The compiled kernel's constants (``kernel/consts.pxi``: action offsets, rule parameter
indices, card tables, heuristic weights) are the Python modules' values: the Python side builds
the arrays the compiled side reads, so one number differing would make the two read each other
wrong. Each constant names the module it comes from in a comment."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

import unoarena.kernel as kernel

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
