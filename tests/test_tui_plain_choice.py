"""Plain mode turns a chosen card into an action the way the full-screen game and the browser
do (:mod:`unoarena.play_choice`): one line per card, then its questions (which cards, the
Wild's power, the colour, the player) as numbered lists, only those with more than one answer,
then the UNO call when it is optional; the action played is the one the tree leads to."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from unoarena.engine import Action
from unoarena.play_choice import card_choices, with_uno
from unoarena.testing.tui import exact_table
from unoarena.text.i18n import set_language
from unoarena.tui.plain import PlainGame


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNOARENA_HOME", str(tmp_path))


def _play(table: Any, lines: list[str]) -> tuple[str, list[str]]:
    """Run plain mode on ``lines`` (then the end of the input); the text it wrote and the
    actions South (seat 0) made."""
    made: list[str] = []
    apply = table.apply

    def record(seat: int, action: Action | str) -> Any:
        if seat == 0:
            made.append(str(action))
        return apply(seat, action)

    table.apply = record
    out = io.StringIO()
    PlainGame(table, io.StringIO("".join(line + "\n" for line in lines)), out).run()
    return out.getvalue(), made


def _powers_table() -> Any:
    """Three players, HR-WILDPOWER: South's Wild may name a colour, look at a hand or swap three
    cards."""
    return exact_table("house", {0: ["W", "G1", "Y5"], 1: ["B1", "B2", "B3"], 2: ["Y1", "Y2"]},
                       top=["R5"], players=3, wild_powers=True)


def _leaf(table: Any, code: str, picks: list[int], uno: bool = False) -> str:
    """The action the full-screen game plays for ``code`` answered with option numbers."""
    node = card_choices(table.legal(0), code)
    assert node is not None
    for i in picks:
        node = node["options"][i - 1]["then"]
    return with_uno(node, uno)


def test_a_wild_with_powers_asks_the_power_then_the_player() -> None:
    table = _powers_table()
    expected = _leaf(table, "W", [2, 2])
    text, made = _play(table, ["3", "2", "2"])
    assert "  3. play the Wild\n" in text  # one line for the card, no target in it
    assert "Wild power: what does your Wild do?\n  1. name a colour\n  2. look at a player's " \
           "hand\n  3. swap 3 cards with a player\n" in text
    assert "Look at whose hand?\n  1. North-West (3 cards)\n  2. North-East (2 cards)\n" in text
    assert made[0] == expected == "play W target=2 power=look"


def test_a_wild_with_powers_asks_the_colour_when_it_names_one() -> None:
    table = _powers_table()
    expected = _leaf(table, "W", [1, 4])
    text, made = _play(table, ["3", "1", "blue"])
    assert "Which colour?\n  1. red\n" in text
    assert made[0] == expected == "play W color=B"


def test_a_wild_draw_four_asks_the_colour_then_the_uno_call() -> None:
    table = exact_table("classic", {0: ["W4", "G1"], 1: ["B1", "B2", "B3"]}, top=["R5"],
                        players=2)
    expected = _leaf(table, "W4", [3], uno=True)
    text, made = _play(table, ["2", "9", "3", "y"])
    assert "  2. play the Wild Draw Four, then name a colour\n" in text
    assert "No choice 9: choose 1 to 4, or a colour" not in text  # the colour's own wording
    assert "Choose 1 to 4, or a colour." in text
    assert "Call UNO as you play it? (y/n)" in text
    assert made[0] == expected == "play W4 color=G uno"
    assert "South played a Wild Draw Four and named green" in text


def test_a_set_asks_which_cards_and_a_wrong_answer_changes_nothing() -> None:
    table = exact_table("classic", {0: ["R5", "R5", "G1"], 1: ["B1", "B2", "B3"],
                                    2: ["Y1", "Y2"]}, top=["R3"], players=3, double_play=True)
    expected = _leaf(table, "R5", [2], uno=False)
    text, made = _play(table, ["2", "x", "2", "n"])
    assert text.count("play the red 5") == 2  # once in the choices, once as the single card
    assert ("How do you play red 5?\n  1. play the red 5\n  2. play red 5 + red 5, the red 5 "
            "on top\n") in text
    assert "No choice x: choose 1 to 2." in text
    assert made[0] == expected == "play R5+R5"


def test_an_empty_answer_goes_back_to_the_choices_and_plays_nothing() -> None:
    table = _powers_table()
    text, made = _play(table, ["3", "2", "", "1"])
    after = text.split("Look at whose hand?", 1)[1]
    assert "Your choices (type a number):" in after
    assert made[0] == "draw"


def test_a_typed_card_asks_what_it_leaves_open() -> None:
    table = _powers_table()
    expected = _leaf(table, "W", [3, 1])
    text, made = _play(table, ["W", "3", "1"])
    assert "Swap 3 cards with whom?" in text
    assert made[0] == expected == "play W target=1 power=swap"


@pytest.mark.parametrize(("lang", "power", "whom"), [
    ("zh_TW", "萬用牌功能：你的萬用牌要做什麼？", "要看誰的手牌？"),
    ("zh_CN", "变色牌功能：你的变色牌要做什么？", "要看谁的手牌？")])
def test_the_questions_are_in_the_players_language(lang: str, power: str, whom: str) -> None:
    set_language(lang)
    table = _powers_table()
    text, made = _play(table, ["3", "2", "1"])
    assert power in text and whom in text
    assert made[0] == "play W target=1 power=look"
