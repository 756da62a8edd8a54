"""The one table loop: who acts next (DIG-3) and what a bot's bad move gets, for the driver,
the terminal and the server alike."""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from unoarena.bots import Bot
from unoarena.engine import Action, Game, Setup, parse_card, preset
from unoarena.table_loop import LENIENT, STRICT, BotError, TableLoop


class Scripted(Bot):
    """A bot that answers windows and turns as told (an illegal answer, or an exception)."""

    name = "scripted"

    def __init__(self, window: Any = None, turn: Any = "first") -> None:
        self.on_window, self.on_turn = window, turn
        self.asked: list[str] = []

    def window(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        self.asked.append("window")
        return self._answer(self.on_window, legal)

    def act(self, view: Mapping[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        self.asked.append("turn")
        answer = self._answer(self.on_turn, legal)
        assert answer is not None
        return answer

    @staticmethod
    def _answer(how: Any, legal: Sequence[Action]) -> Action | None:
        if isinstance(how, Exception):
            raise how
        if how == "first":
            return legal[0]
        if how == "catch":
            return next(a for a in legal if a.verb == "catch")
        return Action.parse(how) if isinstance(how, str) else how


def _uno_forgotten() -> Game:
    """Seat 0 played its second-last card without UNO: seats 2 and 3 may catch it, seat 0 may
    still call it, and it is seat 1's turn."""
    table = Setup(hands={0: [parse_card("R1"), parse_card("R2")]}, discard=[parse_card("R5")],
                  turn=0)
    g = Game(preset("classic"), seed=1, setup=table)
    g.apply("play R1", 0)
    return g


def test_windows_go_first_then_the_turn_seat() -> None:
    g = _uno_forgotten()
    bots = [Scripted(), Scripted(), Scripted(window="catch"), Scripted()]
    move = TableLoop().next(g, bots.__getitem__, random.Random(0))
    assert move is not None and move.kind == "bot" and move.in_window
    assert move.seat == 2 and move.action is not None and move.action.verb == "catch"
    assert bots[1].asked == []  # the turn seat waits for the windows


def test_a_person_s_window_stops_the_loop_or_stays_open() -> None:
    g = _uno_forgotten()
    bots: list[Bot | None] = [Scripted(), Scripted(), None, Scripted()]
    asked = TableLoop().next(g, bots.__getitem__, random.Random(0), ask_people_in_windows=True)
    assert asked is not None and (asked.kind, asked.seat) == ("window", 2)
    loop = TableLoop()
    move = loop.next(g, bots.__getitem__, random.Random(0))
    # seat 2 (a person) may still click; seat 3 and seat 0 decline; seat 1's bot plays
    assert move is not None and (move.kind, move.seat) == ("bot", 1)
    assert move.person_window and not move.in_window
    assert loop.turns.windows(g) == [2]  # only the person's window is still open


def test_a_person_s_turn_and_a_bot_s_turn_not_yet_due() -> None:
    g = Game(preset("classic"), seed=3)
    people: list[Bot | None] = [None] * 4
    move = TableLoop().next(g, people.__getitem__, random.Random(0))
    assert move is not None and (move.kind, move.seat) == ("turn", g.turn)
    bots = [Scripted() for _ in range(4)]
    wait = TableLoop().next(g, bots.__getitem__, random.Random(0), turn_ready=lambda: False)
    assert wait is not None and wait.kind == "wait" and bots[g.turn].asked == []


def test_strict_a_bad_move_is_an_error_naming_seat_choice_and_round() -> None:
    g = Game(preset("classic"), seed=3)
    bots = [Scripted(turn="catch 3") for _ in range(4)]  # no UNO to catch
    with pytest.raises(BotError, match=r"seat \d chose 'catch 3'.*seed 3.*legal: "):
        TableLoop(STRICT).next(g, bots.__getitem__, random.Random(0))
    crashing = [Scripted(turn=ValueError("boom")) for _ in range(4)]
    with pytest.raises(ValueError, match="boom"):
        TableLoop(STRICT).next(g, crashing.__getitem__, random.Random(0))


def test_lenient_a_bad_window_move_declines_and_a_bad_turn_plays_the_first_legal(
        caplog: pytest.LogCaptureFixture) -> None:
    g = _uno_forgotten()
    bad = "play G9"  # not in anyone's hand
    bots = [Scripted(window=ValueError("boom")), Scripted(turn=bad),
            Scripted(window=bad), Scripted(window=bad)]
    loop = TableLoop(LENIENT, label="room-x")
    with caplog.at_level(logging.WARNING, logger="unoarena"):
        move = loop.next(g, bots.__getitem__, random.Random(0))
    assert move is not None and (move.kind, move.seat) == ("bot", 1)
    assert move.action == g.legal_actions(1)[0]  # the first legal action stands in
    assert loop.turns.windows(g) == []  # every bad window answer declined
    text = caplog.text
    assert "room-x" in text and "boom" in text and "play G9" in text


def test_a_bad_policy_name_is_refused() -> None:
    with pytest.raises(ValueError, match="use 'strict' or 'lenient'"):
        TableLoop("forgiving")
