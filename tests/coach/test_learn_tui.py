"""The lesson screen in the real terminal app: a wrong card is explained and not played, the
right one ends the lesson, and the list remembers it."""

from __future__ import annotations

from pathlib import Path

import pytest

from unoarena.coach.lessons import Lesson, load_lessons, matches, text
from unoarena.coach.progress import done_lessons
from unoarena.engine import preset
from unoarena.testing.tui import run, screen_text, settle
from unoarena.tui.app import UnoApp
from unoarena.tui.dialogs import ChoiceDialog
from unoarena.tui.learn_screen import LearnApp, LessonScreen
from unoarena.tui.session import Table, Timing, default_players


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
            assert "no need to draw" in screen_text(app).replace("\n", " ")
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


def _table_app(people: int) -> tuple[UnoApp, Table]:
    rules = preset("classic", players=3)
    table = Table(rules, default_players(rules, "basic", people=people), 7,
                  timing=Timing.zero())
    return UnoApp(table=table), table


def test_f3_shows_the_rule_of_the_card_and_of_a_refusal_and_f4_the_expert() -> None:
    app, table = _table_app(1)

    async def go() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            ts = app.table_screen
            assert ts is not None
            ts.cursor = 0
            await pilot.press("f3")
            await settle(pilot, app)
            assert "(TURN-1)" in ts.last_toast or "points" in ts.last_toast
            assert isinstance(app.screen, ChoiceDialog)  # it stays until closed
            assert ts.last_toast.split()[0] in screen_text(app)
            await pilot.press("o")
            await settle(pilot, app)
            assert app.screen is ts
            seat = ts.viewer_seat
            assert seat is not None
            hand = ts.hand_codes()
            bad = next((c for c in hand if not any(
                a.verb == "play" and c in str(a) for a in table.legal(seat))), None)
            assert bad is not None and table.game.turn == seat  # seed 7: a card that does not fit
            ts.act(f"play {bad}")
            assert ts.last_refusal
            await pilot.press("f3")
            await settle(pilot, app)
            assert "(TURN-1)" in ts.last_toast or "WD4-1" in ts.last_toast
            await pilot.press("o")
            await settle(pilot, app)
            await pilot.press("f4")
            await settle(pilot, app)
            assert "%" in ts.last_toast and "The expert would" in screen_text(app)

    run(go())


def test_no_hints_when_several_people_play() -> None:
    app, _table = _table_app(2)

    async def go() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            for _ in range(3):  # past the hand-over screen, if one is up
                await pilot.press("enter")
                await settle(pilot, app)
            ts = app.table_screen
            assert ts is not None
            ts.action_hint()
            assert ts.last_toast == "Hints are only for games against bots."

    run(go())


LESSONS = load_lessons()


@pytest.mark.parametrize("lesson", LESSONS, ids=[x.id for x in LESSONS])
def test_every_lesson_opens_on_the_table_and_can_be_done(lesson: Lesson) -> None:
    app = LearnApp(lesson.book)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            screen = LessonScreen(lesson)
            await app.push_screen(screen)
            await settle(pilot, app)
            assert text(lesson.goal)[:20] in screen_text(app).replace("\n", "")
            legal = screen.legal()
            good = next(a for a in legal if any(matches(p, a) for p in lesson.expect))
            wrong = [a for a in legal if not any(matches(p, a) for p in lesson.expect)]
            if wrong:
                assert not screen.act(wrong[0]) and screen.said and not screen.done
            assert screen.act(good) and screen.done
            await settle(pilot, app)
            assert "✓" in screen_text(app)

    run(go())
    assert lesson.id in done_lessons()
