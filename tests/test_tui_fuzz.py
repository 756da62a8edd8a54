"""A property of the full-screen game: whatever keys, clicks and resizes arrive, however fast,
the app stays on the table or on a dialog over it, keeps answering, and every way out (Ctrl+Q,
Ctrl+C, q, an error nobody catches) saves the match. A short seeded run here;
``python scripts/tui_fuzz.py`` runs as many as you like."""

from __future__ import annotations

from pathlib import Path

import pytest

from unoarena.testing.tui import run
from unoarena.testing.tui_fuzz import EXITS, run_once

#: Events a run: the four runs send 1,000 (10-15 s a run on one core); the script sends
#: thousands a run.
EVENTS = 250


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNOARENA_HOME", str(tmp_path))


@pytest.mark.parametrize("how", EXITS)
def test_random_keys_clicks_and_sizes_never_lose_the_match(how: str) -> None:
    seed = 1000 + EXITS.index(how)
    report = run(run_once(seed, EVENTS, how))
    assert report.events >= EVENTS or report.ended in ("quit button", "match over"), report
