"""unoarena: UNO as the rule books describe it.

The engine (:mod:`unoarena.engine`) is pure and imports only the standard library; everything
else builds on it.
"""

from .engine import Action, ConfigError, Game, IllegalAction, Outcome, RuleSet, preset

__version__ = "0.1.0"
__all__ = ["Action", "ConfigError", "Game", "IllegalAction", "Outcome", "RuleSet", "preset"]
