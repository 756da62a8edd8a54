"""The bot interface, the registry, and the ``random`` and ``basic`` bots."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from unoarena.bots import (
    BasicBot,
    Bot,
    RandomBot,
    available,
    describe,
    make_bot,
    parse_spec,
    register,
    split_specs,
)
from unoarena.driver import play_round
from unoarena.engine import Action, Game, RuleSet, Setup, parse_card, preset

PRESET_NAMES = ("classic", "buzz", "frozen2", "house", "attack")


def cards(*codes: str) -> list[int]:
    return [parse_card(c) for c in codes]


class Checked:
    """Wraps a bot and asserts that every answer is one of the legal actions offered."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.calls = 0

    def begin_round(self, rules: RuleSet, seat: int) -> None:
        self.bot.begin_round(rules, seat)

    def act(self, view: Mapping[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        self.calls += 1
        a = self.bot.act(view, legal, rng)
        assert a in legal, (a, legal)
        return a

    def window(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        a = self.bot.window(view, legal)
        assert a is None or a in legal, (a, legal)
        return a


def play(rules: RuleSet, spec: str, seed: int) -> Game:
    g = Game(rules, seed, dealer=seed % rules.players)
    bots = [Checked(make_bot(spec, seed * 31 + s)) for s in range(rules.players)]
    play_round(g, bots, random.Random(seed))
    return g


def legal_and_view(g: Game, seat: int) -> tuple[dict[str, Any], list[Action]]:
    return g.view(seat), g.legal_actions(seat)


# -- the interface and the registry -----------------------------------------------------------
def test_registry_lists_and_builds() -> None:
    assert {"basic", "random"} <= set(available())
    assert all(describe(n) for n in available())
    for name in ("basic", "random"):
        bot = make_bot(name, seed=3)
        assert isinstance(bot, Bot) and bot.name == name


def test_spec_parsing() -> None:
    assert parse_spec("ismcts:iterations=2000,c=1.4") == ("ismcts",
                                                          {"iterations": "2000", "c": "1.4"})
    assert parse_spec(" Basic ") == ("basic", {})
    assert split_specs("basic,ismcts:iterations=9,c=1.4,random") == [
        "basic", "ismcts:iterations=9,c=1.4", "random"]
    bot = make_bot("random:decline=0.25")
    assert isinstance(bot, RandomBot) and bot.decline == 0.25


@pytest.mark.parametrize(("spec", "message"), [
    ("nobody", "unknown bot 'nobody': available .*basic.*random"),
    ("basic:depth=3", "bot basic has no option depth"),
    ("random:decline=2", "decline='2' must be a number from 0 to 1"),
    ("random:decline", "bad option 'decline'.*key=value"),
    ("random:decline=0.1,decline=0.2", "given twice"),
    (":x=1", "empty bot name"),
])
def test_bad_specs_say_what_is_allowed(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(spec)


def test_register_a_new_bot() -> None:
    def factory(options: Mapping[str, str], seed: int) -> Bot:
        return BasicBot(seed)

    register("test-basic-copy", factory, "a copy for the test")
    try:
        assert "test-basic-copy" in available()
        assert isinstance(make_bot("test-basic-copy", 1), BasicBot)
        with pytest.raises(ValueError, match="already registered"):
            register("test-basic-copy", factory)
        register("test-basic-copy", factory, replace=True)
        with pytest.raises(ValueError, match="bad bot name"):
            register("Bad Name", factory)
    finally:
        from unoarena.bots import registry
        registry._REGISTRY.pop("test-basic-copy", None)


# -- legality and determinism ------------------------------------------------------------------
@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize("spec", ["basic", "random"])
def test_bots_only_return_legal_actions(name: str, spec: str) -> None:
    for players in (2, 4):
        for seed in range(3):
            assert play(preset(name, players=players), spec, seed).is_over


def test_bots_legal_under_house_rules() -> None:
    rules = preset("house", players=3, jump_in=True, sum_jump_in="any_color", seven_zero=True,
                   wild_powers=True, double_play=True)
    for spec in ("basic", "random"):
        for seed in range(4):
            assert play(rules, spec, seed).is_over


@pytest.mark.parametrize("spec", ["basic", "random"])
def test_deterministic_per_seed(spec: str) -> None:
    rules = preset("house", jump_in=True)
    assert play(rules, spec, 11).history == play(rules, spec, 11).history
    assert play(rules, spec, 11).history != play(rules, spec, 12).history


def test_random_bot_window_decisions_follow_its_seed() -> None:
    legal = [Action("catch", target=1)]
    view: dict[str, Any] = {}
    a = [RandomBot(5).window(view, legal) for _ in range(1)]
    b = [RandomBot(5).window(view, legal) for _ in range(1)]
    assert a == b
    runs = [RandomBot(s).window(view, legal) for s in range(200)]
    declined = sum(r is None for r in runs)
    assert 60 < declined < 140  # about half (p = 0.5)
    assert RandomBot(1, decline=1.0).window(view, legal) is None
    assert RandomBot(1, decline=0.0).window(view, legal) == legal[0]


def test_random_bot_uses_voluntary_draws() -> None:
    g = play(preset("buzz"), "random", 4)
    acts = g.space.actions
    assert any(acts[aid].verb == "draw" for _s, aid in g.history)


# -- basic ------------------------------------------------------------------------------------
class UnoWatch(Checked):
    """Asserts that whenever the chosen play has a UNO-flagged twin, the bot took the twin."""

    flagged = 0

    def act(self, view: Mapping[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        a = super().act(view, legal, rng)
        if a.verb == "play" and a.with_uno() in legal:
            assert a.uno, (a, legal)
            UnoWatch.flagged += 1
        return a


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_basic_declares_uno(name: str) -> None:
    """UNO-1, UNO-4: every basic play that leaves one card carries the UNO flag, so nobody
    ever catches a basic bot (UNO-2)."""
    rules = preset(name, players=3)
    UnoWatch.flagged = 0
    for seed in range(10):
        g = Game(rules, seed, dealer=seed % 3)
        play_round(g, [UnoWatch(make_bot("basic", seed + s)) for s in range(3)],
                   random.Random(seed))
        acts = g.space.actions
        assert all(acts[aid].verb != "jump_in" for _s, aid in g.history)
        assert all(e["t"] != "catch" for e in g.events), name
    assert UnoWatch.flagged > 0


def test_basic_declares_uno_on_a_discard_all_that_leaves_one_card() -> None:
    """UNO-1, ATK-7: YDA discards Y3 too, leaving R1 alone, so basic flags the play."""
    g = Game(preset("attack", players=3), 1, setup=Setup(
        hands={0: cards("YDA", "Y3", "R1")}, discard=cards("Y5"), turn=0))
    view, legal = legal_and_view(g, 0)
    choice = BasicBot(0).act(view, [a for a in legal if a.verb == "play" and
                                    a.cards == (parse_card("YDA"),)], random.Random(0))
    assert choice.uno
    g.apply(choice, 0)
    assert g.hand(0) == cards("R1") and g.uno_exposed is None


def test_basic_never_jumps_in_but_random_does() -> None:
    rules = preset("house", jump_in=True, players=4)
    verbs = {"basic": set(), "random": set()}  # type: dict[str, set[str]]
    for spec in verbs:
        for seed in range(6):
            g = play(rules, spec, seed)
            verbs[spec] |= {g.space.actions[aid].verb for _s, aid in g.history}
    assert "jump_in" not in verbs["basic"]
    assert "jump_in" in verbs["random"]


def test_basic_flags_uno_on_its_second_last_card() -> None:
    g = Game(preset("classic"), 1, setup=Setup(hands={0: cards("R1", "G2")},
                                               discard=cards("R5"), turn=0))
    view, legal = legal_and_view(g, 0)
    a = BasicBot(0).act(view, legal, random.Random(0))
    assert a == Action("play", (parse_card("R1"),), uno=True)


def test_basic_catches_an_exposed_opponent() -> None:
    g = Game(preset("classic"), 1, setup=Setup(hands={0: cards("R1", "R2")},
                                               discard=cards("R5"), turn=0))
    g.apply("play R1", 0)  # no UNO: exposed
    bot = BasicBot(2)
    view, legal = legal_and_view(g, 2)
    assert bot.window(view, legal) == Action("catch", target=0)
    # the turn seat catches too, before it plays
    view, legal = legal_and_view(g, 1)
    assert BasicBot(1).act(view, legal, random.Random(0)) == Action("catch", target=0)
    # and the exposed seat declares late when its own window comes
    view, legal = legal_and_view(g, 0)
    assert BasicBot(0).window(view, legal) == Action("uno")


def test_basic_draws_only_without_a_play_and_plays_the_drawn_card() -> None:
    rules = preset("buzz")  # voluntary_draw_play: may
    g = Game(rules, 1, setup=Setup(hands={0: cards("G1", "B2")}, discard=cards("R5"),
                                   draw_pile=cards("R7"), turn=0))
    bot = BasicBot(0)
    view, legal = legal_and_view(g, 0)
    a = bot.act(view, legal, random.Random(0))
    assert a == Action("draw")
    g.apply(a, 0)
    assert g.phase == "drawn"
    view, legal = legal_and_view(g, 0)
    assert bot.act(view, legal, random.Random(0)) == Action("play", (parse_card("R7"),))
    # with a playable card in hand it plays rather than draws
    g = Game(rules, 1, setup=Setup(hands={0: cards("G5", "B2")}, discard=cards("R5"), turn=0))
    view, legal = legal_and_view(g, 0)
    assert bot.act(view, legal, random.Random(0)).verb == "play"


def test_basic_answers_a_pending_penalty_when_it_can() -> None:
    """HR-STACK, EFF-0: answer with a legal card if it has one, else take the penalty."""
    rules = preset("classic", stacking="draw2")
    hands = {0: cards("RD2", "R1", "R2"), 1: cards("BD2", "G3", "Y4"), 2: cards("G1", "G2")}
    g = Game(rules, 1, setup=Setup(hands=hands, discard=cards("R5"), turn=0))
    g.apply("play RD2", 0)
    view, legal = legal_and_view(g, 1)
    a = BasicBot(1).act(view, legal, random.Random(0))
    assert a == Action("play", (parse_card("BD2"),))
    g.apply(a, 1)
    view, legal = legal_and_view(g, 2)
    assert BasicBot(2).act(view, legal, random.Random(0)) == Action("draw")


def test_basic_accepts_a_wild_draw_four_without_challenging() -> None:
    g = Game(preset("classic"), 1, setup=Setup(hands={0: cards("W4", "G1", "G2")},
                                               discard=cards("R5"), turn=0))
    g.apply("play W4 color=G", 0)
    view, legal = legal_and_view(g, 1)
    assert {str(a) for a in legal} >= {"challenge", "accept"}
    assert BasicBot(1).act(view, legal, random.Random(0)) == Action("accept")


def test_basic_names_the_colour_it_holds_most() -> None:
    g = Game(preset("classic"), 1, setup=Setup(
        hands={0: cards("W", "G1", "G2", "G7", "Y3", "B4")}, discard=cards("R5"), turn=0))
    bot = BasicBot(0)
    view, legal = legal_and_view(g, 0)
    wilds = [a for a in legal if a.cards == (parse_card("W"),)]
    green = parse_card("G1") // 15  # the colour index of green
    assert bot.act(view, wilds, random.Random(0)).color == green
    # a wild starter's colour too (START-4)
    for seed in range(40):
        g = Game(preset("classic"), seed)
        if g.phase == "color":
            view, legal = legal_and_view(g, g.turn)
            counts: dict[str, int] = {}
            for code in view["hand"]:
                if not code.startswith("W"):
                    counts[code[0]] = counts.get(code[0], 0) + 1
            chosen = bot.act(view, legal, random.Random(0))
            assert counts.get(str(chosen)[-1], 0) == max(counts.values())
            break
    else:
        pytest.fail("no wild starter in 40 seeds")
