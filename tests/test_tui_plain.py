"""Plain mode in a real terminal (tmux), as a screen reader user meets it: choices in words, one a
line with a number to type, no card offered twice, the player (by name), the colour and the UNO
call asked as questions of their own, a short help, and the challenge that repeats
the colour in force before the Wild Draw Four. Also the full-screen game ended from outside
(the terminal closed, SIGTERM): the match is saved."""

from __future__ import annotations

import os
import re
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from tui_tmux import ROOT, TMUX, Terminal, python

pytestmark = pytest.mark.skipif(TMUX is None, reason="needs tmux")
SCENES = str(ROOT / "tests" / "plain_scenes.py")


@pytest.fixture
def terminals(tmp_path: Path) -> Iterator[list[Terminal]]:
    opened: list[Terminal] = []
    yield opened
    for t in opened:
        t.close()


def _scene(terminals: list[Terminal], home: Path, name: str) -> Terminal:
    t = Terminal(python(SCENES, name), home)
    terminals.append(t)
    return t


def _choices(text: str) -> list[str]:
    """The last list of choices shown: ``(number, words)``, one a line."""
    block = text.rsplit("Your choices (type a number):", 1)[1]
    return re.findall(r"^  (\d+)\. (.+)$", block.split("\n> ", 1)[0] + "\n", re.MULTILINE)


def test_choices_are_words_with_names_one_a_line(terminals: list[Terminal],
                                                tmp_path: Path) -> None:
    t = _scene(terminals, tmp_path, "seven")
    text = t.wait_for(r"^>\s*$")
    choices = _choices(text)
    assert ("1", "draw a card") in choices
    words = [w for _n, w in choices]
    assert words.count("play the red 7") == 1  # the card once; whom to swap with is asked next
    assert not any("target=" in w or "R7" in w for w in words)  # no engine codes
    hand = re.search(r"^Your hand: (.+)\.$", text, re.MULTILINE)
    assert hand and sorted(hand[1].split(", ")) == ["green 1", "red 7", "yellow 5"]
    at = len(text)
    t.type(next(n for n, w in choices if w == "play the red 7"))
    text = t.wait_for(r"Swap hands with whom\?(.|\n)*^>\s*$", after=at)
    whom = re.findall(r"^  (\d+)\. (\w+) \(\d+ cards\)$", text[at:], re.MULTILINE)
    assert [w for _n, w in whom] == ["Anna", "Ben"]
    t.type(next(n for n, w in whom if w == "Ben"))
    t.wait_for(r"South played a red 7.*Ben", after=at)


def test_uno_is_a_yes_no_question_and_no_card_is_offered_twice(terminals: list[Terminal],
                                                                  tmp_path: Path) -> None:
    t = _scene(terminals, tmp_path, "uno")
    text = t.wait_for(r"^>\s*$")
    words = [w for _n, w in _choices(text)]
    assert words.count("play the red 1") == 1 and words.count("play the red 2") == 1
    assert len(words) == len(set(words)) == 3  # draw, red 1, red 2: once each
    at = len(text)
    t.type(next(n for n, w in _choices(text) if w == "play the red 1"))
    t.wait_for(r"Call UNO as you play it\? \(y/n\)", after=at)
    t.type("y")
    t.wait_for(r"South played a red 1 and called UNO", after=at)


def test_a_wild_asks_its_colour_next(terminals: list[Terminal], tmp_path: Path) -> None:
    t = _scene(terminals, tmp_path, "wild")
    text = t.wait_for(r"^>\s*$")
    words = [w for _n, w in _choices(text)]
    assert words.count("play the Wild, then name a colour") == 1  # not once per colour
    at = len(text)
    t.type(next(n for n, w in _choices(text) if w.startswith("play the Wild")))
    text = t.wait_for(r"Which colour\?", after=at)
    assert re.search(r"^  3\. green$", text, re.MULTILINE)
    t.type("green")
    t.wait_for(r"South played a Wild and named green", after=at)


def test_the_challenge_repeats_the_colour_before_the_wild_draw_four(
        terminals: list[Terminal], tmp_path: Path) -> None:
    t = _scene(terminals, tmp_path, "challenge")
    text = t.wait_for(r"^>\s*$")
    assert ("The colour in force before it was blue (on the blue 5): a bluff if Anna held a "
            "blue card.") in text
    words = [w for _n, w in _choices(text)]
    assert any(w.startswith("challenge the Wild Draw Four: if Anna bluffed") for w in words)
    assert any(w.startswith("accept the Wild Draw Four: draw 4") for w in words)


def test_help_is_short_and_rules_are_a_command(terminals: list[Terminal],
                                               tmp_path: Path) -> None:
    t = _scene(terminals, tmp_path, "uno")
    text = t.wait_for(r"^>\s*$")
    at = len(text)
    t.type("help")
    text = t.wait_for(r"^>\s*$", after=at + 6)
    said = [line for line in text[at:].split("\n") if line.strip() and line.strip() != ">"]
    assert 2 <= len(said) <= 8, said
    assert "Every rule at its setting" not in text[at:]
    at = len(text)
    t.type("rules")
    t.wait_for(r"Rules of this game", after=at)


def test_the_command_line_plain_mode_speaks_words(terminals: list[Terminal],
                                                  tmp_path: Path) -> None:
    t = Terminal(python("-m", "unoarena.tui.cli_play", "--plain", "--players", "3",
                        "--seed", "4", "--bots", "basic"), tmp_path)
    terminals.append(t)
    text = t.wait_for(r"^>\s*$")
    choices = _choices(text)
    assert choices and choices[0][0] == "1"
    assert all(not re.search(r"\b(play|draw) [A-Z]\w* ?(color|target)=", w) for _n, w in choices)
    t.type("quit")
    t.wait_for(r"Saved to .*autosave\.json")


@pytest.mark.parametrize("how", ["SIGTERM", "terminal closed"])
def test_the_full_screen_game_saves_when_ended_from_outside(terminals: list[Terminal],
                                                            tmp_path: Path, how: str) -> None:
    t = Terminal(python("-m", "unoarena.tui.cli_play", "--rules", "classic", "--players", "2",
                        "--seed", "6", "--delay", "0"), tmp_path, width=80, height=24)
    terminals.append(t)
    t.wait_for(r"Your turn|Your hand")
    autosave = tmp_path / "saves" / "autosave.json"
    assert not autosave.exists()
    if how == "SIGTERM":
        os.kill(t.pid(), signal.SIGTERM)
        t.wait_for(r"Saved to .*autosave\.json")
    else:
        t.close()
    for _ in range(100):
        if autosave.exists():
            break
        time.sleep(0.1)
    assert autosave.exists()
