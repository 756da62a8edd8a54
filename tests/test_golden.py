"""Golden games (DESIGN lesson 7, like python-chess's .perft files and OpenSpiel's
playthroughs): recorded games with, per ply, the legal actions of the seat about to act and
every seat's view. Each record is replayed and compared ply by ply.

The files in tests/golden/ are regenerated ONLY by running ``python scripts/make_golden.py``,
and the diff is reviewed before it is committed: a difference here means the engine now plays
a recorded game differently (shuffles, legality, views), which breaks every saved record.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from unoarena.engine import iter_game
from unoarena.testing import golden as MG

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"


FILES = sorted(GOLDEN.glob("*.json"))


def _short(x: Any) -> str:
    text = json.dumps(x, sort_keys=True)
    return text if len(text) <= 300 else text[:300] + "..."


def _diff(stored: dict[str, Any], live: dict[str, Any]) -> list[str]:
    """Every key where the stored compact views and the engine's differ."""
    out = []
    sp, lp = stored["public"], live["public"]
    for k in sorted(set(sp) | set(lp)):
        if sp.get(k, "<absent>") != lp.get(k, "<absent>"):
            out.append(f"public.{k}: stored {_short(sp.get(k, '<absent>'))} != engine "
                       f"{_short(lp.get(k, '<absent>'))}")
    if len(stored["seats"]) != len(live["seats"]):
        out.append(f"seats: stored {len(stored['seats'])} != engine {len(live['seats'])}")
        return out
    for s, (a, b) in enumerate(zip(stored["seats"], live["seats"], strict=True)):
        for k in sorted(set(a) | set(b)):
            if a.get(k, "<absent>") != b.get(k, "<absent>"):
                out.append(f"view({s}).{k}: stored {_short(a.get(k, '<absent>'))} != engine "
                           f"{_short(b.get(k, '<absent>'))}")
    return out


def test_golden_files_exist() -> None:
    assert FILES, "no golden files: run python scripts/make_golden.py"


def test_golden_files_are_the_scripts() -> None:
    """Every golden game the script lists has a file, and every file is the script's."""
    listed = {MG.file_name(name, players, seed) for name, players, seed, _ in MG.GAMES}
    assert {p.name for p in FILES} == listed
    presets = {name for name, _, _, _ in MG.GAMES}
    assert presets == {"classic", "buzz", "frozen2", "house", "attack"}


def test_golden_files_are_small() -> None:
    assert sum(p.stat().st_size for p in FILES) < 600_000


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_game(path: Path) -> None:
    doc = json.loads(path.read_text())
    name = path.name
    assert doc["format"] == MG.FORMAT and doc["version"] == MG.VERSION, name
    rec = doc["record"]
    actions = rec["actions"]
    plies = doc["plies"]
    assert len(plies) == len(actions) + 1, f"{name}: {len(plies)} plies for {len(actions)} actions"
    players = int(rec["rules"]["players"])
    stored: dict[str, Any] | None = None
    game = None
    for i, (game, _, _) in enumerate(iter_game(rec)):
        after = "the deal" if i == 0 else f"action {i - 1} ({actions[i - 1][0]}: " \
                                          f"{actions[i - 1][1]})"
        where = f"{name}, ply {i}, after {after}"
        stored = MG.undelta(stored, plies[i]["views"], players)
        try:
            live = MG.comparable(MG.snapshot(game))
        except ValueError as e:  # the public parts of two seats' views differ
            raise AssertionError(f"{where}: {e}") from None
        diffs = _diff(stored, live)
        assert not diffs, f"{where}: views differ:\n  " + "\n  ".join(diffs)
        if i < len(actions):
            seat = int(actions[i][0])
            legal = sorted(str(a) for a in game.legal_actions(seat))
            want = plies[i]["legal"]
            if legal != want:
                raise AssertionError(
                    f"{where}: legal actions of seat {seat} differ:\n"
                    f"  only stored: {sorted(set(want) - set(legal))}\n"
                    f"  only engine: {sorted(set(legal) - set(want))}")
    assert game is not None
    out = game.outcome
    got = None if out is None else {"winner": out.winner, "reason": out.reason,
                                    "hand_points": list(out.hand_points),
                                    "scores": list(out.scores)}
    assert got == doc["outcome"], f"{name}: outcome stored {doc['outcome']} != engine {got}"
