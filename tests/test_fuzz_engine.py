"""Property tests (hypothesis) that throw malformed values at every parser and boundary of the
engine and the files around it: rule sets, ``Game.apply``, records, saves and scenarios. The
targets live in :mod:`unoarena.testing.fuzz` (``scripts/fuzz.py`` is the long run
docs/development.md reports); here each runs a small, time-bounded sample so that CI stays fast."""

from __future__ import annotations

import pytest

from unoarena.testing import fuzz

#: Inputs per target and test run: enough to try every kind of damage, small enough for CI.
EXAMPLES = 60


@pytest.mark.parametrize("target", sorted(fuzz.TARGETS))
def test_malformed_input_gets_the_projects_own_error(target: str) -> None:
    """Each input is accepted, or refused with the project's error (bounded, and with nothing
    changed); no other exception escapes."""
    fuzz.COUNTS.pop(target, None)
    fuzz.hypothesis_test(fuzz.TARGETS[target], EXAMPLES)()
    counts = fuzz.COUNTS[target]
    assert counts["inputs"] >= EXAMPLES
    assert counts["refused"] > 0  # the sample did reach the refusals


def test_the_long_run_script_reports_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert fuzz.main(["--seconds", "2", "--only", "rules", "apply", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"broken": 0' in out and '"inputs": ' in out
