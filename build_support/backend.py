"""Build backend: setuptools, plus mypy when a compiled engine is asked for.

``UNOARENA_MYPYC=1 pip install .`` compiles the engine's modules with mypyc (the same Python
source, typically 2x faster); any other install is pure Python. Keeping mypy out of the build
requirements otherwise keeps ordinary installs light.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import build_meta as _orig
from setuptools.build_meta import *  # noqa: F403  (re-exports the PEP 517 hooks)

_MYPYC = ["mypy[mypyc]>=1.10", "numpy>=1.24"]  # numpy: the RL modules are compiled too


def _extra() -> list[str]:
    return _MYPYC if os.environ.get("UNOARENA_MYPYC") == "1" else []


def get_requires_for_build_wheel(config_settings: Any = None) -> list[str]:
    return [*_orig.get_requires_for_build_wheel(config_settings), *_extra()]


def get_requires_for_build_editable(config_settings: Any = None) -> list[str]:
    return [*_orig.get_requires_for_build_editable(config_settings), *_extra()]
