"""The sequential driver (RULES DIG-3): window order, declines, termination, matches."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from unoarena.bots import BaseBot, Bot, make_bot
from unoarena.driver import BotError, LazyView, play_match, play_round
from unoarena.engine import Action, Game, Match, Setup, parse_card, preset

PRESET_NAMES = ("classic", "buzz", "frozen2", "house", "attack")


def cards(*codes: str) -> list[int]:
    return [parse_card(c) for c in codes]


class Scripted(BaseBot):
    """Logs every call; in windows it takes the first action of ``take`` verbs, else declines;
    on its turn it prefers ``turn_verbs`` in order, then the first legal action."""

    name = "scripted"

    def __init__(self, log: list[tuple[str, int, list[str]]], take: Sequence[str] = (),
                 turn_verbs: Sequence[str] = ("draw", "pass", "accept", "play")) -> None:
        super().__init__(0)
        self.log = log
        self.take = take
        self.turn_verbs = turn_verbs

    def act(self, view: Mapping[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        self.log.append(("act", self.seat, [str(a) for a in legal]))
        for verb in self.turn_verbs:
            for a in legal:
                if a.verb == verb:
                    return a
        return legal[0]

    def window(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        self.log.append(("window", self.seat, [str(a) for a in legal]))
        for a in legal:
            if a.verb in self.take:
                return a
        return None


def exposed_table(players: int = 4) -> Game:
    """Seat 0 plays its second-last card without declaring UNO: it is exposed (UNO-2), and
    seat 1 is next to act."""
    rules = preset("classic", players=players)
    hands = {0: cards("R1", "R2"), 1: cards("G1", "G2", "G3"), 2: cards("B1", "B2", "B3"),
             3: cards("Y1", "Y2", "Y3")}
    hands = {s: h for s, h in hands.items() if s < players}
    g = Game(rules, seed=1, setup=Setup(hands=hands, discard=cards("R5"), turn=0))
    g.apply("play R1", 0)
    assert g.uno_exposed == 0 and g.turn == 1
    return g


def test_dig3_first_eligible_seat_from_actors_left_catches() -> None:
    """DIG-3, UNO-2: windows go from the last actor's left; the turn seat is not offered one,
    so seat 2 is asked first and catches; the window is then closed for everyone."""
    g = exposed_table()
    assert g.window_seats() == [2, 3, 0]
    log: list[tuple[str, int, list[str]]] = []
    bots = [Scripted(log, take=("catch", "uno")) for _ in range(4)]
    with pytest.raises(RuntimeError, match="within 1 actions"):
        play_round(g, bots, random.Random(0), max_actions=1)
    # exactly one action was allowed: it must be seat 2's catch
    assert log[0] == ("window", 2, ["catch 0"])
    assert [seat for seat, _aid in g.history] == [0, 2]
    assert g.space.actions[g.history[1][1]] == Action("catch", target=0)
    assert g.hand_sizes()[0] == 1 + preset("classic").uno_penalty


def test_dig3_round_goes_on_after_catch() -> None:
    g = exposed_table()
    log: list[tuple[str, int, list[str]]] = []
    bots = [Scripted(log, take=("catch", "uno")) for _ in range(4)]
    with pytest.raises(RuntimeError, match="seed 1"):
        play_round(g, bots, random.Random(0), max_actions=2)
    # after the catch the windows are looked at again: none is open, so seat 1 acts
    assert [(k, s) for k, s, _legal in log[:2]] == [("window", 2), ("act", 1)]
    assert "catch 0" not in log[1][2]


def test_dig3_declined_window_costs_nothing() -> None:
    """Every eligible seat is offered the window in order and declines; the game is unchanged
    until the turn seat acts, and then the catch chance is gone (UNO-2)."""
    g = exposed_table()
    before = g.fingerprint()
    log: list[tuple[str, int, list[str]]] = []
    bots = [Scripted(log) for _ in range(4)]
    with pytest.raises(RuntimeError):
        play_round(g, bots, random.Random(0), max_actions=1)
    assert [(k, s) for k, s, _legal in log[:4]] == [
        ("window", 2), ("window", 3), ("window", 0), ("act", 1)]
    assert log[2][2] == ["uno"]  # the exposed seat itself may still declare late
    assert "catch 0" in log[3][2]  # the turn seat may catch on its own turn
    assert [seat for seat, _aid in g.history] == [0, 1]  # no window action was taken
    assert g.uno_exposed is None
    g2 = exposed_table()
    assert g2.fingerprint() == before


def test_dig3_late_uno_by_exposed_seat() -> None:
    """With only the exposed seat willing, it declares UNO late and nobody can catch it."""
    g = exposed_table()
    log: list[tuple[str, int, list[str]]] = []
    bots = [Scripted(log, take=("uno",)) for _ in range(4)]
    with pytest.raises(RuntimeError):
        play_round(g, bots, random.Random(0), max_actions=1)
    assert [(k, s) for k, s, _legal in log[:3]] == [("window", 2), ("window", 3), ("window", 0)]
    assert g.declared(0) and g.uno_exposed is None


def test_dig3_jump_in_order_and_reevaluation() -> None:
    """HR-JUMP: after a jump-in the windows are re-evaluated from the jumper's left."""
    rules = preset("house", players=5, jump_in=True, sum_jump_in="same_color")
    hands = {0: cards("R7", "G1", "G2"), 1: cards("B1", "B2", "B3"),
             2: cards("R7", "Y1", "Y2"), 3: cards("G3", "Y3", "Y4"), 4: cards("R3", "R4", "Y5")}
    g = Game(rules, seed=3, setup=Setup(hands=hands, discard=cards("R9"), turn=0))
    g.apply("play R7", 0)
    assert g.turn == 1 and g.window_seats() == [2, 4]
    log: list[tuple[str, int, list[str]]] = []
    bots = [Scripted(log, take=("jump_in",)) for _ in range(5)]
    with pytest.raises(RuntimeError):
        play_round(g, bots, random.Random(0), max_actions=2)
    # seat 2 jumps in first; play goes on from it (seat 3 is next), and the windows are
    # looked at again from seat 2's left: seat 4 adds up R3 + R4 = 7 (HR-SUM)
    assert [(k, s) for k, s, _legal in log[:2]] == [("window", 2), ("window", 4)]
    assert log[1][2] == ["jump_in R3+R4", "jump_in R3+R4 uno"]
    assert [seat for seat, _aid in g.history] == [0, 2, 4]


def test_rounds_always_terminate() -> None:
    for name in PRESET_NAMES:
        for players in (2, 3, 5):
            rules = preset(name, players=players)
            for seed in range(4):
                for spec in ("basic", "random"):
                    g = Game(rules, seed, dealer=seed % players)
                    bots = [make_bot(spec, seed + s) for s in range(players)]
                    out = play_round(g, bots, random.Random(seed))
                    assert g.is_over and out is g.outcome
                    assert out.winner is None or g.hand_sizes()[out.winner] == 0


def test_house_rules_terminate() -> None:
    variants: list[dict[str, Any]] = [
        {"jump_in": True, "sum_jump_in": "any_color"},
        {"seven_zero": True, "wild_powers": True, "double_play": True},
        {"draw4_on_draw2": True, "stacking": "draw2", "misplay": "penalty"},
        {"draw_count": "until_playable", "deck_exhausted": "void"},
        {"teams": 2, "number_finish": True, "false_uno_penalty": 2},
    ]
    for over in variants:
        rules = preset("house", **over)
        for seed in range(3):
            g = Game(rules, seed)
            bots = [make_bot("random", seed * 7 + s) for s in range(rules.players)]
            play_round(g, bots, random.Random(seed))
            assert g.is_over


def test_cap_names_seed() -> None:
    g = Game(preset("classic"), seed=42)
    bots = [make_bot("basic") for _ in range(4)]
    with pytest.raises(RuntimeError, match=r"within 3 actions.*seed 42"):
        play_round(g, bots, random.Random(0), max_actions=3)


def test_same_seed_same_round() -> None:
    def run(seed: int) -> list[tuple[int, int]]:
        g = Game(preset("house", jump_in=True), seed)
        play_round(g, [make_bot("random", s) for s in range(4)], random.Random(seed))
        return g.history

    assert run(5) == run(5)
    assert run(5) != run(6)


class Cheater(BaseBot):
    name = "cheater"

    def act(self, view: Mapping[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        return Action.parse("play W4 color=R")


def test_illegal_bot_action_is_an_error() -> None:
    g = Game(preset("classic"), seed=1, setup=Setup(hands={1: cards("R1", "R2")},
                                                     discard=cards("G5"), turn=1))
    bots: list[Bot] = [Cheater(0) for _ in range(4)]
    with pytest.raises(BotError, match=r"seat 1 chose 'play W4 color=R'.*legal: draw"):
        play_round(g, bots, random.Random(0))


def test_wrong_number_of_bots() -> None:
    with pytest.raises(ValueError, match="3 bots for a 4-player game"):
        play_round(Game(preset("classic"), 1), [make_bot("basic")] * 3, random.Random(0))


def test_lazy_view_is_only_valid_during_the_call() -> None:
    g = Game(preset("classic"), seed=2)
    v = LazyView(g, 0)
    assert v["hand"] == g.view(0)["hand"] and "legal" in v and len(v) == len(g.view(0))
    stale = LazyView(g, 1)
    stale.close()
    with pytest.raises(RuntimeError, match="valid only during the call"):
        stale["hand"]


def test_play_match_to_the_end() -> None:
    for over in ({}, {"seat_exchange": 1}, {"scoring": "chips", "rounds": 3}):
        m = Match(preset("classic", players=3, target_score=60, **over), seed=9)
        winners = play_match(m, [make_bot("basic", s) for s in range(3)], random.Random(1))
        assert m.is_over and winners == m.winners and winners
        assert m.rounds_played >= 1


@pytest.mark.parametrize("bots", ["basic", "heuristic", "ismcts:ms=2", "learned"])
def test_play_match_under_elimination(bots: str) -> None:
    """HR-ELIM: every bot plays at the shrinking table; one player is left and wins."""
    m = Match(preset("house", players=4, elimination="cards", seat_exchange=1), seed=3)
    winners = play_match(m, [make_bot(bots, s) for s in range(4)], random.Random(2))
    assert len(winners) == 1 and winners == m.winners
    last = m.results[-1]
    assert winners[0] not in last.out
    assert sorted([*winners, *last.out]) == sorted(m.player_at(s) for s in range(m.game.players))
