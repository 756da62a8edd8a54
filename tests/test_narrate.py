"""The narrator: one sentence per action, consequences after a colon, private lines only for
their viewer (RULES DIG-2), every language."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from unoarena.engine import Game, preset
from unoarena.text.i18n import set_language
from unoarena.text.narrate import Narrator, default_names, display_name

NAMES = default_names(4)


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


def test_skip_sentence() -> None:
    line, private = Narrator(NAMES).line([
        {"t": "play", "seat": 2, "cards": ["BS"], "color": "B"},
        {"t": "skip", "seat": 3},
    ])
    assert line == "North played a blue Skip: East loses the turn."
    assert private == []


def test_wild_draw_four_and_uno() -> None:
    line, _p = Narrator(NAMES).line([
        {"t": "play", "seat": 1, "cards": ["W4"], "color": "G", "uno": True},
        {"t": "uno", "seat": 1},
        {"t": "draw", "seat": 2, "count": 4, "reason": "draw4"},
        {"t": "skip", "seat": 2},
    ])
    assert line == ("West played a Wild Draw Four and named green and called UNO: North draws "
                    "4 cards (Wild Draw Four); North loses the turn.")


def test_private_lines_only_for_the_viewer() -> None:
    events = [{"t": "draw", "seat": 0, "count": 1, "reason": "turn"},
              {"t": "drew", "seat": 0, "cards": ["R7"], "to": 0}]
    line, mine = Narrator(NAMES).line(events, viewer=0)
    assert line == "South drew 1 card." and mine == ["You drew red 7."]
    _line, theirs = Narrator(NAMES).line(events, viewer=1)
    assert theirs == []


def test_challenge_and_launcher() -> None:
    n = Narrator(NAMES)
    line, _p = n.line([{"t": "challenge", "seat": 0, "targets": [3]},
                       {"t": "challenge_result", "guilty": [3]},
                       {"t": "draw", "seat": 3, "count": 4, "reason": "challenge_guilty"}])
    assert line.startswith("South challenged the Wild Draw Four of East: East bluffed")
    line, _p = n.line([{"t": "press", "seat": 1, "count": 0}])
    assert line == "West pressed the launcher: nothing came out."


def test_every_event_of_real_games_narrates() -> None:
    """Whole rounds under several rule sets: every action gives a sentence."""
    import random

    from unoarena.bots import make_bot
    from unoarena.driver import play_round
    for name, over in (("classic", {}), ("house", {"jump_in": True, "seven_zero": True,
                                                   "wild_powers": True}),
                       ("attack", {}), ("buzz", {}), ("frozen2", {})):
        rules = preset(name, players=4, **over)
        game = Game(rules, 3)
        lines: list[str] = []
        n = Narrator(NAMES)

        def watch(g: Game, seat: int, action: object, lines: list[str] = lines,
                  n: Narrator = n) -> None:
            line, _p = n.line(g.events[-6:], viewer=seat)
            lines.append(line)

        play_round(game, [make_bot("random", i) for i in range(4)], random.Random(1),
                   observer=watch)
        assert all(lines), name
        for e in game.events:
            if "to" not in e and e["t"] not in ("dealer_draw", "dealer"):
                assert n.consequence(e) or n.deed(e), e


def test_names_translate() -> None:
    assert display_name("North") == "North"
    assert display_name("Alice") == "Alice"
    set_language("zh_TW")
    assert display_name("North") == "北"
    line, _p = Narrator(NAMES).line([{"t": "play", "seat": 2, "cards": ["BS"], "color": "B"},
                                     {"t": "skip", "seat": 3}])
    assert "北" in line and "東" in line and "禁止" in line
    set_language("zh_CN")
    line, _p = Narrator(NAMES).line([{"t": "play", "seat": 2, "cards": ["BS"], "color": "B"},
                                     {"t": "skip", "seat": 3}])
    assert "北" in line and "东" in line and "阻挡" in line


def test_launcher_presses_in_a_row_are_one_clause() -> None:
    """A penalty of ten presses reads as one clause with the total, and the cards they gave
    as one private line."""
    events: list[dict[str, object]] = [{"t": "draw_penalty", "seat": 1},
                                       {"t": "penalty", "seat": 1, "presses": 10,
                                        "reason": "attack"}]
    for i in range(10):
        events.append({"t": "press", "seat": 1, "count": 1 if i in (3, 7) else 0})
        if i in (3, 7):
            events.append({"t": "drew", "seat": 1, "cards": ["R5" if i == 3 else "G2"],
                           "to": 1})
    line, mine = Narrator(NAMES).line(events, viewer=1)
    assert line.count("launcher") == 2  # the penalty, then one clause for the ten presses
    assert "West presses the launcher 10 times: 2 cards come out" in line
    assert mine == ["You drew red 5 + green 2."]
    _line, theirs = Narrator(NAMES).line(events, viewer=0)
    assert theirs == []


def test_round_start_says_what_the_first_card_does_and_who_plays() -> None:
    from unoarena.text.narrate import round_start_lines
    lines = round_start_lines([
        {"t": "deal", "dealer": 3, "hand_size": 7}, {"t": "starter", "card": "RD2"},
        {"t": "draw", "seat": 0, "count": 2, "reason": "starter"},
        {"t": "drew", "seat": 0, "cards": ["G9", "B3"], "to": 0}, {"t": "skip", "seat": 0},
        {"t": "first_turn", "seat": 1, "direction": "cw", "names_color": False}], NAMES, 0)
    assert lines == ["East dealt 7 cards to each player.",
                     "Red Draw Two was turned over to start the discard pile: South draws 2 "
                     "cards (the first card); South loses the turn; West plays first.",
                     "You drew green 9 + blue 3."]
    lines = round_start_lines([
        {"t": "deal", "dealer": 3, "hand_size": 7}, {"t": "starter", "card": "RR"},
        {"t": "first_turn", "seat": 3, "direction": "ccw", "names_color": False}], NAMES)
    assert lines[-1].endswith("play goes counter-clockwise, and East plays first.")


def test_a_blocked_table_says_why_the_round_is_void() -> None:
    """HR-HANDLIMIT: a round that ends because every hand is full and nobody can play says so,
    not that the draw pile ran out, in the log and in its round-over event."""
    import random

    from unoarena.engine import Termination

    rules = preset("classic", players=2, hand_size=2, hand_limit=3, force_play=True)
    for seed in range(50):
        game, rng = Game(rules, seed, 0), random.Random(seed)
        for _ in range(3000):  # without the rule a full table would loop forever
            if game.is_over:
                break
            game.apply(str(rng.choice(game.legal_actions(game.turn))), game.turn)
        assert game.outcome is not None, f"seed {seed}: a full table never ended"
        if game.outcome.reason == Termination.BLOCKED:
            break
    else:
        raise AssertionError("no blocked round in 50 seeds")
    assert game.outcome.winner is None and set(game.outcome.scores) == {0}
    end = game.events[-1]
    assert end["t"] == "round_over" and end.get("blocked") and end.get("void")
    line, _p = Narrator(NAMES).line([end])
    assert "every hand is full and nobody can play" in line
    void, _p = Narrator(NAMES).line([{"t": "round_over", "winner": None, "void": True,
                                      "points": [3, 4]}])
    assert "draw pile ran out" in void
