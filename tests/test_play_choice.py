"""A clicked card becomes a legal action the same way in the terminal and the browser."""

from __future__ import annotations

import random
from typing import Any

from unoarena.engine import Game, RuleSet, Setup, parse_card, preset
from unoarena.play_choice import card_choices, first_action, hand_choices, with_uno


def _game(rules: RuleSet, hand: list[str], top: str) -> Game:
    table = Setup(hands={0: [parse_card(c) for c in hand]}, discard=[parse_card(top)], turn=0)
    return Game(rules, seed=1, setup=table)


def _leaves(node: dict[str, Any]) -> list[dict[str, Any]]:
    if "ask" not in node:
        return [node]
    return [leaf for o in node["options"] for leaf in _leaves(o["then"])]


def test_a_wild_asks_only_the_colour_and_a_number_card_asks_nothing() -> None:
    g = _game(preset("classic"), ["R1", "W", "G7"], "R5")
    choices = hand_choices(g.legal_actions(0), g.view(0)["hand"])
    assert set(choices) == {"R1", "W"}  # G7 matches nothing: no play, the page dims it
    assert choices["R1"] == {"plain": "play R1", "uno": "play R1"}
    wild = choices["W"]
    assert wild["ask"] == "color"
    assert [o["value"] for o in wild["options"]] == ["R", "Y", "G", "B"]
    assert with_uno(wild["options"][2]["then"], False) == "play W color=G"
    assert card_choices(g.legal_actions(0), "G7") is None


def test_uno_is_said_with_the_card_only_when_armed() -> None:
    g = _game(preset("classic"), ["R1", "R2"], "R5")
    leaf = card_choices(g.legal_actions(0), "R1")
    assert leaf is not None
    assert with_uno(leaf, False) == "play R1" and with_uno(leaf, True) == "play R1 uno"


def test_a_double_play_is_offered_even_when_it_exists_only_with_uno() -> None:
    rules = RuleSet.create("classic", double_play=True)  # HR-DOUBLE
    g = _game(rules, ["R5", "R5"], "R3")
    node = card_choices(g.legal_actions(0), "R5")
    assert node is not None and node["ask"] == "cards"
    assert [o["value"] for o in node["options"]] == ["play R5", "play R5+R5"]
    double = node["options"][1]["then"]
    assert with_uno(double, False) == with_uno(double, True) == "play R5+R5 uno"
    assert str(first_action(node)) == "play R5"


def test_every_legal_play_is_one_click_path_and_every_path_is_legal() -> None:
    """Over random rounds of house rules with combined plays, powers and targets, the trees of
    a hand reach exactly the legal plays and jump-ins (UNO variants included)."""
    rng = random.Random(7)
    presets = [RuleSet.create("house", double_play=True, seven_zero=True),
               RuleSet.create("house", wild_powers=True, jump_in=True),
               RuleSet.create("attack", multi_play=True)]
    checked = 0
    for rules in presets:
        for seed in range(6):
            g = Game(rules, seed)
            for _ in range(60):
                if g.is_over:
                    break
                for seat in range(g.players):
                    legal = g.legal_actions(seat)
                    plays = {str(a) for a in legal if a.verb in ("play", "jump_in")}
                    reached: set[str] = set()
                    for node in hand_choices(legal, g.view(seat)["hand"]).values():
                        for leaf in _leaves(node):
                            reached |= {leaf["plain"], leaf["uno"]}
                    assert reached == plays, (rules.preset, seed, seat)
                    checked += bool(plays)
                seat = g.turn
                g.apply(rng.choice(g.legal_actions(seat)), seat)
    assert checked > 100
