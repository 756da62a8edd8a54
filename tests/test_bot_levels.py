"""Bot levels for people: every level is a registered bot, weakest first, named in the
new-game screens in every language."""

from __future__ import annotations

import pytest

from unoarena.bots import available
from unoarena.bots.levels import LEVELS, bot_for, level_of, leveled_first, plays
from unoarena.text import i18n
from unoarena.tui.newgame import bot_label, levels_text


def test_every_level_is_a_registered_bot() -> None:
    assert [lv for lv, _b, _d in LEVELS] == ["easy", "medium", "hard", "expert"]
    for level, bot, _doc in LEVELS:
        assert bot in available()
        assert bot_for(level) == bot
        assert level_of(bot) == level
    assert level_of("random") is None


def test_an_unknown_level_names_the_levels() -> None:
    with pytest.raises(ValueError, match="easy, medium, hard, expert"):
        bot_for("nightmare")
    with pytest.raises(ValueError, match="easy, medium, hard, expert"):
        plays("nightmare")


def test_seat_choices_list_the_levels_first() -> None:
    order = leveled_first(available())
    assert order[:4] == [b for _l, b, _d in LEVELS]
    assert set(order) == set(available())
    assert bot_label("heuristic") == "Medium bot (heuristic)"
    assert bot_label("learned") == "Hard bot (learned)"
    assert bot_label("random") == "Bot: random"


@pytest.mark.parametrize(("lang", "word"), [("en", "Expert"), ("zh_TW", "專家"),
                                            ("zh_CN", "专家")])
def test_levels_are_explained_in_every_language(lang: str, word: str) -> None:
    before = i18n.language()
    try:
        i18n.set_language(lang)
        text = levels_text()
        assert word in text
        assert len(text.splitlines()) == 4
        # the terminal's lines say what the browser's level list says, word for word
        assert all(plays(level) in text for level, _b, _d in LEVELS)
        assert (plays("easy") == "plays any card it can, but calls UNO") == (lang == "en")
    finally:
        i18n.set_language(before)
