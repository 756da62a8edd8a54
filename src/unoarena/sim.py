"""Batch simulation; kept as the name earlier code imports. Everything lives in
:mod:`unoarena.lab` now (simulate, compare, tournaments, plots, Ray)."""

from .lab import LabError, SimResult, Summary, compare, seat_bots, simulate

__all__ = ["LabError", "SimResult", "Summary", "compare", "seat_bots", "simulate"]
