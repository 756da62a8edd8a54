"""The ``ismcts`` bot: legal everywhere, deterministic, budgeted, and blind to hidden cards."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from test_bots_heuristic import HOUSE_RULES, PRESETS, cards, play

from unoarena.bots import ISMCTSBot, SearchView, make_bot
from unoarena.bots.inference import COLOR_OF, Group, Layout, Trace
from unoarena.bots.ismcts import Tables, anchored_choice, rollout_choice
from unoarena.engine import Game, RuleSet, Setup, parse_card, preset
from unoarena.engine.cards import KCOLOR


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("players", [2, 4])
def test_legal_under_every_preset(name: str, players: int) -> None:
    rules = preset(name, players=players)
    for seed in range(2):
        play(rules, ["ismcts:iterations=6", "heuristic"], seed)


@pytest.mark.parametrize(("name", "overrides"), HOUSE_RULES)
def test_legal_under_house_rules(name: str, overrides: dict[str, Any]) -> None:
    rules = preset(name, **{"players": 3, **overrides})
    play(rules, ["ismcts:iterations=5", "random", "heuristic"], 1)


@pytest.mark.parametrize("name", PRESETS)
def test_legal_without_a_determinizer_or_history(name: str) -> None:
    """A plain view: the bot rebuilds tables itself (Setup) or falls back to the heuristic."""
    rules = preset(name, players=3)
    play(rules, ["ismcts:iterations=5", "basic"], 2, history=False)


def test_options_and_registry() -> None:
    bot = make_bot("ismcts:iterations=9,c=1.1,determinizations=3,depth=4,rollout=10", seed=2)
    assert isinstance(bot, ISMCTSBot)
    assert (bot.iterations, bot.c, bot.determinizations, bot.depth, bot.rollout_plies) == (
        9, 1.1, 3, 4, 10)
    with pytest.raises(ValueError, match="no option"):
        make_bot("ismcts:iteration=9")


def test_deterministic_for_a_seed() -> None:
    rules = preset("classic", players=2)
    a = play(rules, ["ismcts:iterations=20", "heuristic"], 7)
    b = play(rules, ["ismcts:iterations=20", "heuristic"], 7)
    assert a.history == b.history


# -- never peeking ------------------------------------------------------------------------------
def twin_tables(rules: RuleSet) -> tuple[Game, Game]:
    """Two tables seat 0 cannot tell apart: same hand, sizes, discard pile and history, but
    the other hand and the draw pile hold different cards (all blues in one, all yellows in
    the other: a bot that peeked would name another colour)."""
    mine = cards("W", "R1", "G2", "Y3", "B4")
    discard = cards("R5", "G9")
    blues = cards("B1", "B2", "B3", "B5", "B6")
    yellows = cards("Y1", "Y2", "Y4", "Y5", "Y6")
    g1 = Game(rules, 4, setup=Setup(hands={0: mine, 1: blues}, discard=discard,
                                    draw_pile=yellows, turn=0))
    g2 = Game(rules, 9, setup=Setup(hands={0: mine, 1: yellows}, discard=discard,
                                    draw_pile=blues, turn=0))
    return g1, g2


def test_never_peeks_rebuilt_tables() -> None:
    """Decisions depend on the view alone: identical views give identical determinizations
    and the same action for the same seed, whatever the hidden cards are."""
    rules = preset("classic", players=2)
    g1, g2 = twin_tables(rules)
    v1, v2 = g1.view(0, history=True), g2.view(0, history=True)
    assert v1 == v2
    assert g1.hand(1) != g2.hand(1)
    choices = []
    fingerprints = []
    for g in (g1, g2):
        bot = ISMCTSBot(5, iterations=60)
        bot.begin_round(rules, 0)
        view = g.view(0, history=True)
        ctx = bot.heuristic.observe(view)
        build = bot._builder(view, ctx, rules)
        assert build is not None
        r = random.Random(3)
        fingerprints.append([build(r).fingerprint() for _ in range(5)])
        bot = ISMCTSBot(5, iterations=60)
        bot.begin_round(rules, 0)
        choices.append(bot.act(g.view(0, history=True), g.legal_actions(0), random.Random(8)))
    assert fingerprints[0] == fingerprints[1]
    assert choices[0] == choices[1]


def test_never_peeks_engine_determinizations() -> None:
    """Through a :class:`SearchView` the engine re-deals the hidden cards: the hands come from
    the bot's own sample (the same for both tables) and the draw pile from the unseen cards."""
    rules = preset("classic", players=2)
    g1, g2 = twin_tables(rules)
    hands = []
    for g in (g1, g2):
        bot = ISMCTSBot(5, iterations=30)
        bot.begin_round(rules, 0)
        view = SearchView(g, 0)
        ctx = bot.heuristic.observe(view)
        build = bot._builder(view, ctx, rules)
        assert build is not None
        d = build(random.Random(3))
        hands.append(d.hand(1))
        # the hidden cards as a whole are public knowledge (deck - own hand - discard)
        assert Counter(d.hand(1)) + Counter(d.draw_pile()) == Counter(g.hand(1)) + Counter(
            g.draw_pile())
        bot.act(view, g.legal_actions(0), random.Random(1))  # and it searches without error
    assert hands[0] == hands[1]


def test_search_copies_record_nothing_of_the_real_game() -> None:
    """Determinizations start from the view: another seat's real hand never appears in them
    more often than chance (here: the opponent's five blues are never all dealt back)."""
    rules = preset("classic", players=2)
    g1, _ = twin_tables(rules)
    bot = ISMCTSBot(5, iterations=10)
    bot.begin_round(rules, 0)
    view = g1.view(0, history=True)
    build = bot._builder(view, bot.heuristic.observe(view), rules)
    assert build is not None
    r = random.Random(0)
    same = sum(sorted(build(r).hand(1)) == sorted(g1.hand(1)) for _ in range(200))
    assert same <= 2


# -- budget ------------------------------------------------------------------------------------
def test_iteration_budget() -> None:
    rules = preset("classic", players=2)
    g, _ = twin_tables(rules)
    bot = ISMCTSBot(1, iterations=37)
    bot.begin_round(rules, 0)
    bot.act(SearchView(g, 0), g.legal_actions(0), random.Random(1))
    assert bot.last_iterations == 37 and bot.searched == 1


def test_time_budget() -> None:
    """With ``ms`` the search stops before the next iteration would overrun the budget."""
    rules = preset("classic", players=2)
    g, _ = twin_tables(rules)
    bot = ISMCTSBot(1, ms=30)
    bot.begin_round(rules, 0)
    t = time.process_time()
    bot.act(SearchView(g, 0), g.legal_actions(0), random.Random(1))
    spent = time.process_time() - t
    assert bot.last_iterations > 1
    assert 0.02 < spent < 0.030 * 1.2, spent


def test_prefers_the_winning_line() -> None:
    """Two cards left, a Wild Draw Four and a red 3 on a blue table: the W4 is honest, gives
    an extra turn with two players, and the 3's colour named makes the next card the last."""
    rules = preset("classic", players=2)
    setup = Setup(hands={0: cards("W4", "R3"), 1: cards("G1", "G2", "G3", "G4", "G5")},
                  discard=cards("B9"), turn=0)
    g = Game(rules, 2, setup=setup)
    bot = ISMCTSBot(3, iterations=200)
    bot.begin_round(rules, 0)
    a = bot.act(SearchView(g, 0), g.legal_actions(0), random.Random(2))
    assert a.cards == (parse_card("W4"),) and a.color == 0 and a.uno


# -- the paired search ----------------------------------------------------------------------------
def test_anchored_choice_needs_evidence_to_leave_the_heuristic() -> None:
    """Another move replaces the heuristic's only when its paired advantage is more than
    ``z`` standard errors; a lead that noise could explain keeps the anchor."""
    # 10 samples: index 1 leads by 0.3 on average with a spread of 0.1 -> clear
    diff = [0.0, 3.0, -1.0]
    diff2 = [0.0, 10 * (0.3**2 + 0.1**2), 1.0]
    ten = [10, 10, 10]
    assert anchored_choice(diff, diff2, ten, 0, 1.0) == 1
    # the same mean with a spread of 2.0 is within one standard error of zero
    noisy = [0.0, 3.0, -1.0]
    noisy2 = [0.0, 10 * (0.3**2 + 2.0**2), 1.0]
    assert anchored_choice(noisy, noisy2, ten, 0, 1.0) == 0
    assert anchored_choice(noisy, noisy2, ten, 0, 0.0) == 1  # z=0: plain argmax
    assert anchored_choice([0.0, -0.5], [0.0, 0.5], [10, 10], 0, 0.0) == 0  # nothing beats it
    assert anchored_choice([0.0, 1.0], [0.0, 1.0], [1, 1], 0, 0.0) == 0  # one sample: no spread
    # an action dropped early (5 samples) is judged on its own samples
    assert anchored_choice([0.0, 2.0, 1.0], [0.0, 0.9, 0.3], [20, 5, 20], 0, 1.0) == 1


def test_paired_and_tree_searches_are_both_available() -> None:
    rules = preset("classic", players=4)
    for spec in ("ismcts:iterations=8,z=0.5", "ismcts:iterations=8,paired=0"):
        a = play(rules, [spec, "heuristic", "heuristic", "heuristic"], 3)
        b = play(rules, [spec, "heuristic", "heuristic", "heuristic"], 3)
        assert a.history == b.history, spec
    bot = make_bot("ismcts:paired=0,z=2.5", seed=1)
    assert isinstance(bot, ISMCTSBot) and (bot.paired, bot.z) == (False, 2.5)
    with pytest.raises(ValueError, match="z"):
        make_bot("ismcts:z=-1")


# -- the rollout policy: how the search expects the other players to play ------------------------
def _choice(g: Game, seat: int) -> str:
    tb = Tables.of(g)
    ids = ISMCTSBot._canon(g.legal_ids(seat), tb)
    return str(g.space.actions[rollout_choice(g, seat, ids, tb, lambda: 0.0, 0.0)])


def test_rollouts_do_not_bluff_a_wild_draw_four() -> None:
    """Players rarely bluff a Wild Draw Four while they hold the colour in force, so the
    rollouts do not either: the same W4 that is played from a hand without red is held back
    from a hand with a red card."""
    rules = preset("classic", players=4)
    greens = ("G1", "G2", "G3", "G4")
    no_red = Setup(hands={0: cards("W4", *greens), 1: cards("B1"), 2: cards("B2"),
                          3: cards("B3")}, discard=cards("R9"), turn=0)
    assert _choice(Game(rules, 1, setup=no_red), 0).startswith("play W4")
    with_red = Setup(hands={0: cards("W4", "R5", *greens), 1: cards("B1"), 2: cards("B2"),
                            3: cards("B3")}, discard=cards("R9"), turn=0)
    assert _choice(Game(rules, 1, setup=with_red), 0) == "play R5"


def test_rollouts_challenge_a_wild_draw_four_from_a_big_hand() -> None:
    """Opponents challenge a W4 played from a hand that could well hold the colour (three
    cards or more after it), and accept one from a nearly empty hand."""
    rules = preset("classic", players=4)
    for rest, expected in ((("G1", "G2", "B3"), "challenge"), (("G1", "G2"), "accept")):
        setup = Setup(hands={0: cards("W4", *rest), 1: cards("B1", "B2"), 2: cards("B4"),
                             3: cards("B5")}, discard=cards("R9"), turn=0)
        g = Game(rules, 1, setup=setup)
        g.apply("play W4 color=G", 0)
        assert _choice(g, 1) == expected, rest


# -- inference from plays -----------------------------------------------------------------------
def test_a_named_colour_makes_deals_long_in_it() -> None:
    """A seat that named green with a wild most likely holds more green than anything: the
    weighted deals give it more green cards than plain ones do, and cards drawn since blur
    that evidence."""
    rules = preset("classic", players=2)
    pool = sorted(k for k, c in enumerate(rules.deck.counts) for _ in range(c)
                  if KCOLOR[k] >= 0)
    green = COLOR_OF["G"]
    trace = Trace(parse_card("R5"), COLOR_OF["R"], parse_card("W"), green)

    def layout() -> Layout:
        lay = Layout(0, [1], [[], []], [[], [Group(5)]], pool, 0, [])
        lay.evidence, lay.two = [(1, trace)], True
        return lay

    def mean_green(draw: Callable[[random.Random], Any]) -> float:
        r = random.Random(4)
        hands = [draw(r)[0][1] for _ in range(600)]
        return sum(KCOLOR[k] == green for h in hands for k in h) / len(hands)

    lay = layout()
    assert mean_green(lay.draw) > mean_green(lay.sample) + 0.5
    long_green = cards("G1", "G2", "G3", "B4", "Y5")
    short_green = cards("G1", "B2", "B3", "Y4", "Y5")
    sharp = trace.likelihood(long_green, True, 0.5) / trace.likelihood(short_green, True, 0.5)
    trace.draws = 2
    blurred = trace.likelihood(long_green, True, 0.5) / trace.likelihood(short_green, True, 0.5)
    assert sharp > blurred > 1.0


def test_rollouts_stack_rather_than_accept_when_they_do_not_challenge() -> None:
    """Where a Wild Draw Four may be stacked (HR-STACK4), a player that does not challenge it
    passes it on with its own W4 rather than taking the cards."""
    rules = preset("classic", players=4, stack_draw4=True)
    setup = Setup(hands={0: cards("W4", "G1", "G2"), 1: cards("W4", "B2"), 2: cards("B4"),
                         3: cards("B5")}, discard=cards("R9"), turn=0)
    g = Game(rules, 1, setup=setup)
    g.apply("play W4 color=G", 0)
    assert _choice(g, 1).startswith("play W4")
