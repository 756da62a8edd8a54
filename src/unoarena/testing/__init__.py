"""Helpers for testing the engine and everything built on it: random rule sets over every key.

Kept in the package (not under ``tests/``) so that the scripts that run long checks, the kernel's
differential test and the engine's property tests draw rule sets the same way, and mypy checks
them. This module needs the standard library and the engine only; its submodules need what
they test: ``tui`` and ``tui_fuzz`` the terminal game (Textual's pilot), ``web_server``,
``web_faults`` and ``web_node`` the web extra (a live server, clients, faults and cluster
processes; ``web_fuzz`` imports it only when its server starts), ``kernel`` the compiled
kernel, ``fuzz`` Hypothesis.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from ..engine import ConfigError, RuleSet, preset
from ..engine.rules import _BOOLS, _CHOICES, _INTS, _OPTIONAL_INTS, PRESETS

# integer keys: values worth drawing (small ones end matches and make penalties bite)
_INT_DRAWS: dict[str, tuple[int, ...]] = {
    "players": tuple(range(2, 11)),
    "hand_size": (1, 2, 3, 5, 7, 7, 7, 9, 12, 15),
    "uno_penalty": (0, 1, 2, 4),
    "false_uno_penalty": (0, 1, 2),
    "misplay_penalty": (0, 1, 2),
    "timer_penalty": (0, 1, 2),
    "target_score": (1, 50, 200, 500),
    "teams": (0, 0, 0, 2, 3, 5),
    "seat_exchange": (0, 0, 1, 2),
}
_OPTIONAL_DRAWS: dict[str, tuple[int | None, ...]] = {
    "turn_timer": (None, None, 30),
    "rounds": (None, None, 1, 2, 3),
    "launcher_max_dry": (None, 1, 2, 4, 8),
    "hand_limit": (None, None, 8, 10, 16, 25),
}


def random_rules(rng: random.Random, tries: int = 200) -> RuleSet:
    """A valid rule set with every key drawn at random around a random preset."""
    for _ in range(tries):
        name = rng.choice(sorted(PRESETS))
        over: dict[str, Any] = {}
        for key, choices in _CHOICES.items():
            if rng.random() < 0.35:
                over[key] = rng.choice(choices)
        for key in _BOOLS:
            if rng.random() < 0.35:
                over[key] = rng.random() < 0.5
        for key in _INTS:
            if rng.random() < 0.5:
                over[key] = rng.choice(_INT_DRAWS.get(key, (_INTS[key][0],)))
        for key in _OPTIONAL_INTS:
            if rng.random() < 0.4:
                over[key] = rng.choice(_OPTIONAL_DRAWS.get(key, (None,)))
        if rng.random() < 0.3:
            over["launcher"] = _random_launcher(rng)
        if "players" not in over and rng.random() < 0.5:
            over["players"] = rng.choice((2, 3, 4, 5, 6))
        try:
            return preset(name, **over)
        except ConfigError:
            continue
    return preset("classic")


def _random_launcher(rng: random.Random) -> tuple[float, ...]:
    size = rng.randint(2, 9)
    weights = [rng.random() for _ in range(size)]
    weights[0] += 0.2
    total = sum(weights)
    probs = [w / total for w in weights]
    probs[-1] = 1.0 - sum(probs[:-1])
    return tuple(max(0.0, p) for p in probs)


def load_script(path: Path, name: str | None = None) -> ModuleType:
    """Import a script or benchmark that is not part of the package (``scripts/``,
    ``benchmarks/``) from its file, as module ``name`` (its file name by default), registered
    in ``sys.modules`` so that its dataclasses and pickles resolve; its ``__main__`` block does
    not run."""
    name = name or path.stem
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
