"""The one turn scheduler (RULES DIG-3): window order, declines and when they are forgotten,
and the same order in the bot driver, the terminal table and the learning environments."""

from __future__ import annotations

import copy
import doctest
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import unoarena.engine.turns
from unoarena.bots import Bot
from unoarena.driver import play_round
from unoarena.engine import Action, Game, Match, RuleSet, Setup, parse_card, preset
from unoarena.engine.turns import Turns
from unoarena.rl.table import Table as LearningTable
from unoarena.tui.session import BOT, Player
from unoarena.tui.session import Table as TerminalTable


def cards(*codes: str) -> list[int]:
    return [parse_card(c) for c in codes]


def jump_table() -> Game:
    """Seat 0 plays R7 without declaring UNO; seat 1 holds the turn. Seats 2, 3, 4 may catch
    seat 0, seat 2 may jump in with its own R7, seat 4 with R1+R6 (HR-SUM), seat 0 may declare
    late; seat 1 and seat 3 hold an R4 each."""
    rules = preset("classic", players=5, jump_in=True, sum_jump_in="same_color")
    hands = {0: cards("R7", "G1"), 1: cards("R4", "B2", "B3"), 2: cards("R7", "Y1", "Y2"),
             3: cards("R4", "G3", "G4"), 4: cards("R1", "R6", "Y5")}
    g = Game(rules, seed=1, setup=Setup(hands=hands, discard=cards("R5"), turn=0))
    g.apply("play R7", 0)
    assert g.turn == 1 and g.uno_exposed == 0
    return g


def test_dig3_windows_in_order_from_the_last_actors_left_then_the_turn() -> None:
    g = jump_table()
    before = g.fingerprint()
    turns = Turns()
    assert turns.windows(g) == g.window_seats() == [2, 3, 4, 0]
    asked = []
    while (seat := turns.next_window(g)) >= 0:
        asked.append(seat)
        turns.decline(g, seat)
    assert asked == [2, 3, 4, 0]  # each asked once; then the turn seat (1) acts
    assert turns.windows(g) == []
    assert g.fingerprint() == before  # declining costs nothing


def test_declines_stand_after_an_uno_call() -> None:
    g = jump_table()
    turns = Turns()
    for seat in (2, 3, 4):
        turns.decline(g, seat)
    g.apply("uno", 0)  # the late call closes the catch window, not the jump-ins
    turns.moved(g)
    assert g.window_seats() == [2, 4]
    assert turns.windows(g) == [] and turns.next_window(g) == -1


def test_declines_stand_after_a_catch() -> None:
    g = jump_table()
    turns = Turns()
    turns.decline(g, 2)  # seat 2 lets both its catch and its jump-in pass
    g.apply("catch 0", 3)
    turns.moved(g)
    assert g.window_seats() == [2, 4]  # its R7 could still jump in, but it said no
    assert turns.windows(g) == [4] and turns.next_window(g) == 4


@pytest.mark.parametrize(("declined", "action", "actor"),
                         [(4, "jump_in R7", 2), (3, "play R4", 1)])
def test_a_play_renews_every_chance(declined: int, action: str, actor: int) -> None:
    """A card played, in a window or on the turn, is a new chance for a seat that let the last
    one pass: seat 4 may add up to the new R7, seat 3 jump in on the R4."""
    g = jump_table()
    turns = Turns()
    turns.decline(g, declined)
    g.apply(action, actor)
    turns.moved(g)
    assert declined in turns.windows(g)


def test_reset_starts_a_round_afresh() -> None:
    g = jump_table()
    turns = Turns()
    turns.decline(g, 2)
    turns.reset()
    assert turns.windows(g) == [2, 3, 4, 0]


def test_decline_needs_an_open_window() -> None:
    g = jump_table()
    turns = Turns()
    with pytest.raises(ValueError, match=r"seat 1 has no open window.*turn seat, which must act"):
        turns.decline(g, 1)
    g = Game(preset("classic"), seed=1)  # a fresh deal: no window is open
    seat = (g.turn + 1) % 4
    with pytest.raises(ValueError, match=rf"seat {seat} has no open window.*with one are none"):
        turns.decline(g, seat)


@pytest.mark.parametrize("overrides", [{}, {"jump_in": True},
                                       {"jump_in": True, "sum_jump_in": "any_color"},
                                       {"false_uno_penalty": 2, "stacking": "draw2"}])
def test_no_window_is_ever_hidden(overrides: dict[str, Any]) -> None:
    """Without declines the scheduler offers exactly the engine's open windows, at every step
    of random rounds (it skips looking for them only when none can be open)."""
    rules = preset("house", players=4, **overrides)
    rng = random.Random(7)
    turns = Turns()
    for seed in range(12):
        g = Game(rules, seed)
        while not g.is_over:
            open_ = g.window_seats()
            assert turns.windows(g) == open_
            assert turns.next_window(g) == (open_[0] if open_ else -1)
            seat = rng.choice([g.turn, *open_])
            ids = g.legal_ids(seat)
            g.step(rng.choice(ids), seat)
            turns.moved(g)


class Logged:
    """A bot that writes down every question it is asked and its answer; its turns draw from
    a generator of its own, so that two drivers need not share theirs."""

    def __init__(self, bot: Bot, log: list[tuple[str, int, str]], seat: int) -> None:
        self.bot, self.log, self.seat = bot, log, seat
        self.name = bot.name
        self.rng = random.Random(seat)

    def begin_round(self, rules: RuleSet, seat: int) -> None:
        self.bot.begin_round(rules, seat)

    def act(self, view: Mapping[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        a = self.bot.act(view, legal, self.rng)
        self.log.append(("act", self.seat, str(a)))
        return a

    def window(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        a = self.bot.window(view, legal)
        self.log.append(("window", self.seat, "decline" if a is None else str(a)))
        return a


def test_driver_terminal_table_and_learning_table_ask_in_one_order() -> None:
    """Random bots that decline half their windows play the same round through the bot driver
    and the terminal table; replaying their answers, the learning table asks the same seats."""
    rules = preset("house", players=4, jump_in=True)
    seed = 5
    table = TerminalTable(rules, [Player(f"b{i}", BOT, "random:decline=0.5") for i in range(4)],
                          seed)
    twins = copy.deepcopy(table.bots)  # the same bots, in the same state
    shown: list[tuple[str, int, str]] = []
    table.bots = [Logged(b, shown, i) for i, b in enumerate(table.bots) if b is not None]
    while (d := table.next_decision()) is not None:
        assert d.action is not None
        table.apply(d.seat, d.action)
    assert any(k == "window" and a == "decline" for k, _s, a in shown)
    assert any(k == "window" and a != "decline" for k, _s, a in shown)

    driven: list[tuple[str, int, str]] = []
    g = Match(rules, seed).game
    play_round(g, [Logged(b, driven, i) for i, b in enumerate(twins) if b is not None],
               random.Random(0))
    assert driven == shown
    assert g.history == table.game.history

    learner = LearningTable(rules)
    learner.start(seed)
    space = learner.space
    for kind, seat, answer in shown:
        assert (learner.actor, learner.window) == (seat, kind == "window")
        learner.step(learner.decline if answer == "decline" else space.id(Action.parse(answer)))
    assert learner.game is not None and learner.game.history == g.history


def test_docstring_example() -> None:
    module = unoarena.engine.turns
    if not (module.__file__ or "").endswith(".py"):
        pytest.skip("a mypyc build keeps no docstrings")
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
