"""Rule scenarios (spec/SCENARIOS.md): YAML files that set a table, play actions and check state.

Scenarios are the project's public way to pin a rule down, so this module follows the format to
the letter: every key is checked when a file is read (an unknown key names itself and the keys
allowed there; a value of the wrong kind names its key, itself and what is allowed), a table
that cannot exist is reported as a setup error rather than raised, and a failing step stops its
scenario with the step number and the expected and actual values.

    python -m unoarena.scenarios scenarios/    # a line per scenario, then "N passed, M failed"

Where the format leaves room, this reading is used:

- an action step needs its ``seat`` (a rule test should say who acts);
- ``setup.color``, ``turn`` and ``direction`` go with ``discard`` only: with a starter, the
  START rules decide them;
- ``expect.scores``, ``match_over`` and ``match_winner`` are the match's: the setup's scores
  until the round ends, then those scores settled with this round, counted as the match's first;
- cards in steps are read when played, so an unreadable card is the engine's ``bad_action``
  (an ``error: bad_action`` step can test it) and not a format error.

The format is declared as msgspec Structs (one a mapping of the format), which check the keys
and kinds of values; what msgspec cannot say (one action a step, seats as keys, 64-bit
integers) is checked after. The engine does not import this package; it only drives the
engine's public API.

The package's parts: :mod:`.format` (the format as types, and reading one document),
:mod:`.loader` (files and their YAML documents), :mod:`.runner` (playing a scenario).
"""

from __future__ import annotations

from .format import (
    ActionSpec,
    Scenario,
    ScenarioError,
    ScenarioResult,
    SetupSpec,
    Step,
    parse_scenario,
)
from .loader import load_scenarios, load_yaml_documents, scenario_files
from .runner import main, run_paths, run_scenario

__all__ = [
    "ActionSpec",
    "Scenario",
    "ScenarioError",
    "ScenarioResult",
    "SetupSpec",
    "Step",
    "load_scenarios",
    "load_yaml_documents",
    "main",
    "parse_scenario",
    "run_paths",
    "run_scenario",
    "scenario_files",
]
