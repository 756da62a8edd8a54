"""Saving and resuming a match; plain mode driven through pipes."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from unoarena.engine import preset, replay_match
from unoarena.testing.tui import run, screen_text, settle
from unoarena.tui import saves
from unoarena.tui.app import UnoApp
from unoarena.tui.plain import PlainGame
from unoarena.tui.session import Table, Timing, default_players


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNOARENA_HOME", str(tmp_path))


def _table(seed: int = 8) -> Table:
    rules = preset("house", players=3, jump_in=True)
    return Table(rules, default_players(rules, "basic"), seed, timing=Timing.zero())


def test_save_and_resume(tmp_path: Path) -> None:
    table = _table()

    async def play_and_save() -> None:
        app = UnoApp(table=table)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("d")
            await settle(pilot, app)
            await pilot.press("s")
            await settle(pilot, app)

    run(play_and_save())
    files = saves.list_saves()
    assert len(files) == 1 and files[0].parent == tmp_path / "saves"
    again = saves.load_table(files[0], Timing.zero())
    assert again.game == table.game
    assert [p.to_dict() for p in again.players] == [p.to_dict() for p in table.players]
    assert again.match.scores == table.match.scores

    async def resume() -> str:
        app = UnoApp(table=again)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            return screen_text(app)

    text = resume()
    text = run(text)
    assert "Your hand (South)" in text


def test_quit_autosaves(tmp_path: Path) -> None:
    table = _table(9)

    async def go() -> str:
        app = UnoApp(table=table)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("q")
            await pilot.pause()
        return app.saved_on_quit

    path = run(go())
    assert path.endswith(saves.AUTOSAVE)
    assert saves.load_table(Path(path)).game == table.game


def test_bad_save_file_says_why(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "something else"}))
    with pytest.raises(ValueError, match="not a saved unoarena match"):
        saves.load_table(bad)


def test_plain_mode_scripted(tmp_path: Path) -> None:
    rules = preset("classic", players=2, rounds=1)
    table = Table(rules, default_players(rules, "basic"), 12, timing=Timing.zero())
    inp = io.StringIO("hand\nchoices\nhelp\nrules\n" + "1\n" * 400)
    out = io.StringIO()
    assert PlainGame(table, inp, out).run() == 0
    text = out.getvalue()
    assert "your turn" in text and "Your choices (type a number):\n  1. " in text
    assert "Rules of this game" in text and "Every rule at its setting" not in text
    assert table.match.is_over and "The match is over" in text
    rec = json.loads(next((tmp_path / "records").glob("*.json")).read_text())
    assert replay_match(rec).scores == table.match.scores


def test_plain_mode_shows_open_hands(tmp_path: Path) -> None:
    """HR-OPEN in plain mode: an opponent's hand small enough is read out card by card."""
    rules = preset("classic", players=2, rounds=1, open_hands=30)
    table = Table(rules, default_players(rules, "basic"), 12, timing=Timing.zero())
    out = io.StringIO()
    assert PlainGame(table, io.StringIO("1\n" * 400), out).run() == 0
    assert "North shows: " in out.getvalue()


def test_plain_mode_errors_and_codes(tmp_path: Path) -> None:
    rules = preset("classic", players=2)
    table = Table(rules, default_players(rules, "basic"), 12, timing=Timing.zero())
    inp = io.StringIO("play ZZ\nplay R9 color=G\n99\nquit\n")
    out = io.StringIO()
    PlainGame(table, inp, out).run()
    text = out.getvalue()
    assert "Not allowed" in text and "No choice 99" in text
    assert "Saved to" in text and "Goodbye." in text


def test_plain_command_line_pipe(tmp_path: Path) -> None:
    """``unoarena play --plain`` reads a pipe; watching bots needs no input at all."""
    cmd = [sys.executable, "-m", "unoarena.tui.cli_play", "--plain", "--people", "0",
           "--players", "3", "--set", "rounds=1", "--set", "scoring=penalty", "--seed", "4",
           "--bots", "basic,random,basic"]
    p = subprocess.run(cmd, input="", capture_output=True, text=True, timeout=120,
                       env={"UNOARENA_HOME": str(tmp_path), "PATH": "", "LANG": "C"})
    assert p.returncode == 0, p.stderr
    assert "The match is over" in p.stdout
    bad = subprocess.run([*cmd[:3], "--plain", "--bots", "nosuchbot"], input="",
                         capture_output=True, text=True, timeout=60,
                         env={"UNOARENA_HOME": str(tmp_path), "LANG": "C"})
    assert bad.returncode == 2
    assert "unknown bot 'nosuchbot'" in bad.stderr and "basic" in bad.stderr
