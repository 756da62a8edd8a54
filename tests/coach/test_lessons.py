"""Every lesson of every rule book sets up its table, asks for a legal action, and explains
every other action the learner could take."""

from __future__ import annotations

from pathlib import Path

import pytest

from unoarena.coach.lessons import BOOKS, LessonError, load_lesson, load_lessons, matches
from unoarena.coach.progress import done_lessons, mark_done
from unoarena.coach.rulehelp import action_help, card_help, refusal_help
from unoarena.engine import Action, preset
from unoarena.text.i18n import set_language

LESSONS = load_lessons()


@pytest.mark.parametrize("book", BOOKS)
def test_every_book_has_three_to_six_lessons(book: str) -> None:
    assert 3 <= len(load_lessons(book)) <= 6


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.id for lesson in LESSONS])
def test_lesson_expected_action_is_legal_and_others_are_explained(lesson) -> None:  # type: ignore[no-untyped-def]
    game = lesson.start()
    legal = game.legal_actions(lesson.learner)
    good = [a for a in legal if any(matches(p, a) for p in lesson.expect)]
    assert good, f"{lesson.id}: no legal action fits {lesson.expect}"
    for a in good:
        assert lesson.judge(game, a).done
    before = game.fingerprint()
    for a in legal:
        if a in good:
            continue
        verdict = lesson.judge(game, a)
        assert not verdict.done and len(verdict.say) > 10, (lesson.id, str(a))
    # a card the learner does not hold is refused and still explained
    verdict = lesson.judge(game, Action.parse("play R1+R1+R1"))
    assert not verdict.done and verdict.refused and verdict.say
    assert game.fingerprint() == before  # judging never changes the table


@pytest.mark.parametrize("lang", ["en", "zh_TW", "zh_CN"])
def test_lessons_speak_every_language(lang: str) -> None:
    set_language(lang)
    try:
        lesson = load_lessons("classic")[0]
        game = lesson.start()
        said = lesson.judge(game, "draw").say
        assert said == lesson.wrong[1].say[lang]
    finally:
        set_language("en")


def test_a_bad_lesson_file_names_its_mistake(tmp_path: Path) -> None:
    src = (Path(LESSONS[0].file)).read_text(encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text(src.replace("learner: 0", "learner: 0\nhint: x"), encoding="utf-8")
    with pytest.raises(LessonError, match="unknown key 'hint'"):
        load_lesson(bad)
    bad.write_text(src.replace("zh_CN: 配对颜色", "fr: couleur"), encoding="utf-8")
    with pytest.raises(LessonError, match="lacks zh_CN"):
        load_lesson(bad)
    bad.write_text(src.replace("R7, G5", "R7, X5"), encoding="utf-8")
    with pytest.raises(LessonError, match="does not run"):
        load_lesson(bad).start()


def test_progress_is_remembered_in_the_data_folder(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNOARENA_HOME", str(tmp_path))
    assert done_lessons() == {}
    mark_done("classic/01_match_colour")
    mark_done("buzz/01_wild_hyperspeed")
    assert set(done_lessons()) == {"classic/01_match_colour", "buzz/01_wild_hyperspeed"}
    (tmp_path / "lessons.json").write_text("{not json", encoding="utf-8")
    assert done_lessons() == {}  # a broken file is no progress, not a crash


def test_rule_help_uses_the_rules_in_force() -> None:
    classic, house = preset("classic"), preset("house")
    w4 = card_help(classic, "W4")
    assert "WD4-2" in w4.ids and "challenge" in w4.text
    assert "WD4-3" in card_help(house, "W4").ids  # house: no challenge, always playable
    assert "HR-STACK" in refusal_help(house, "must_answer_penalty").ids
    assert refusal_help(classic, "does_not_match").ids == ("TURN-1",)
    assert "ATK-2" in action_help(preset("attack"), "draw").ids
    assert "HR-SEVEN-ZERO" in card_help(house.replace(seven_zero=True), "R7").ids
    with pytest.raises(ValueError, match="unknown card"):
        card_help(classic, "X9")


def test_rule_help_keeps_the_rule_ids_in_chinese() -> None:
    set_language("zh_TW")
    try:
        w4 = card_help(preset("classic"), "W4")
    finally:
        set_language("en")
    assert w4.ids == ("EFF-5", "WD4-1", "WD4-2", "HR-CHAIN-CHALLENGE")
    assert "（W4）" in w4.text and w4.text.endswith("。")
