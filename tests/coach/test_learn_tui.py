"""The lesson screen in the real terminal app: a wrong card is explained and not played, the
right one ends the lesson, and the list remembers it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from test_tui_support import run, screen_text, settle

from unoarena.coach.learn_screen import LearnApp, LessonScreen
from unoarena.coach.progress import done_lessons


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNOARENA_HOME", str(tmp_path))


def test_a_lesson_explains_a_wrong_move_then_is_done_and_remembered() -> None:
    app = LearnApp("classic")

    async def go() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot, app)
            assert "0 of 6 lessons done" in screen_text(app)
            await pilot.press("enter")  # the first lesson: match the colour
            await settle(pilot, app)
            screen = app.screen
            assert isinstance(screen, LessonScreen)
            assert "Play a card of the same colour" in screen_text(app)
            await pilot.press("d")  # drawing is not the lesson's answer
            await settle(pilot, app)
            assert "no need to draw" in screen.last_toast
            assert len(screen.table.game.hand(0)) == 4  # nothing was played or drawn
            screen.cursor = screen.hand_codes().index("R7")
            await pilot.press("enter")
            await settle(pilot, app)
            assert screen.done and "TURN-1" in screen.last_toast
            await pilot.press("q")
            await settle(pilot, app)
            assert "1 of 6 lessons done" in screen_text(app)

    run(go())
    assert list(done_lessons()) == ["classic/01_match_colour"]
