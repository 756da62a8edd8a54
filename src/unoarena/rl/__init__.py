"""Environments for learning agents: PettingZoo AEC and Gymnasium, under every rule set.

Needs the optional extra: ``pip install 'unoarena[rl]'`` (pettingzoo, gymnasium, numpy).
Importing this package works without it; the names below load their dependencies on first
use and say what to install when one is missing.

* :func:`aec_env` / :class:`UnoAECEnv` (PettingZoo AEC, every seat an agent);
* :class:`UnoEnv` (Gymnasium, one agent against bots), registered as ``unoarena/Uno-v0``
  when this package is imported: ``gymnasium.make("unoarena/Uno-v0", rules="classic")``, or
  without the import ``gymnasium.make("unoarena.rl:unoarena/Uno-v0", ...)``;
* :class:`UnoVectorEnv` (a Gymnasium vector env on the compiled kernel: B tables per call,
  one learning seat each, needs the extra ``fast``), registered as
  ``unoarena/UnoVector-v0``: ``gymnasium.make_vec("unoarena/UnoVector-v0", num_envs=256)``;
* :class:`Encoder`, :data:`ENCODING_VERSION` (the observation layout, docs/observations.md).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..encoding import ENCODING_VERSION, Encoder, History
    from .aec import UnoAECEnv
    from .gym_env import UnoEnv
    from .table import Table
    from .vector_env import UnoVectorEnv

ENV_ID = "unoarena/Uno-v0"
VECTOR_ENV_ID = "unoarena/UnoVector-v0"
INSTALL_HINT = "pip install 'unoarena[rl]'"

_LAZY = {
    "UnoAECEnv": "aec",
    "Encoder": "encoding",
    "ENCODING_VERSION": "encoding",
    "History": "encoding",
    "UnoEnv": "gym_env",
    "Table": "table",
    "UnoVectorEnv": "vector_env",
}

__all__ = ["ENCODING_VERSION", "ENV_ID", "INSTALL_HINT", "VECTOR_ENV_ID", "Encoder", "History",
           "Table", "UnoAECEnv", "UnoEnv", "UnoVectorEnv", "aec_env", "register"]


def _load(module: str) -> Any:
    try:
        return importlib.import_module(f"{__name__}.{module}")
    except ModuleNotFoundError as e:
        if e.name and e.name.split(".")[0] in ("numpy", "gymnasium", "pettingzoo"):
            raise ModuleNotFoundError(
                f"unoarena.rl needs {e.name.split('.')[0]}, which is not installed: "
                f"{INSTALL_HINT}", name=e.name) from e
        raise


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(_load(module), name)
    globals()[name] = value
    return value


def aec_env(rules: Any = None, **kwargs: Any) -> UnoAECEnv:
    """A PettingZoo AEC environment: ``aec_env("house", players=4, reward="points")``."""
    cls: type[UnoAECEnv] = _load("aec").UnoAECEnv
    return cls(rules, **kwargs)


def register() -> bool:
    """Register :data:`ENV_ID` and :data:`VECTOR_ENV_ID` with gymnasium (done on import when
    gymnasium is installed); False when gymnasium is missing."""
    try:
        import gymnasium
    except ModuleNotFoundError:
        return False
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="unoarena.rl.gym_env:UnoEnv",
                           disable_env_checker=False)
    if VECTOR_ENV_ID not in gymnasium.registry:  # the kernel loads when one is made, not here
        gymnasium.register(id=VECTOR_ENV_ID,
                           vector_entry_point="unoarena.rl.vector_env:UnoVectorEnv")
    return True


register()
