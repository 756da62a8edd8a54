"""Deprecated: the old name of :mod:`unoarena.lab` (simulate, compare, tournaments, plots,
Ray). Importing it still works and warns; it will be removed in a later release."""

import warnings

from .lab import LabError, SimResult, Summary, compare, seat_bots, simulate

warnings.warn("unoarena.sim is deprecated: import from unoarena.lab instead",
              DeprecationWarning, stacklevel=2)

__all__ = ["LabError", "SimResult", "Summary", "compare", "seat_bots", "simulate"]
