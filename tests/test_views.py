"""Views and hidden information (RULES DIG-2): a seat sees its own hand, what lies face up and
what a rule shows to it alone; never another hand or the draw pile's order."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, get_args

import pytest
from engine_checks import check_events, check_views, choose
from hypothesis import given, settings
from hypothesis import strategies as st

from unoarena.engine import (
    CODES,
    PRESETS,
    Effect,
    Event,
    EventKind,
    Game,
    GameRecord,
    GameResult,
    Match,
    MatchRecord,
    MatchResult,
    Pending,
    RuleSet,
    Setup,
    View,
    game_record,
    match_record,
    preset,
)
from unoarena.engine.cards import parse_card

PRESET_NAMES = sorted(PRESETS)


def _cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def _codes(cards: list[int]) -> list[str]:
    return sorted(CODES[k] for k in cards)


def _private(game: Game, t: str) -> list[dict[str, Any]]:
    return [e for e in game.events if e.get("t") == t]


def _assert_only(game: Game, event: dict[str, Any], seat: int) -> None:
    """``event`` is in ``seat``'s view and event stream and in nobody else's."""
    for s in range(game.players):
        seen = game.view(s)["seen"]
        stream = game.events_for(s)
        if s == seat:
            assert event in seen and event in stream
        else:
            assert event not in seen and event not in stream, f"seat {s} sees {event}"
    assert event not in game.events_for(None)


# -- a hand shown by a rule ------------------------------------------------------------------------
@pytest.mark.parametrize("guilty", [True, False])
def test_challenged_hand_shown_to_the_challenger_only(guilty: bool) -> None:
    """WD4-2: the challenged hand is shown to the challenger alone."""
    rules = preset("classic", players=4)
    w4_hand = "W4 R1 G2 Y9" if guilty else "W4 B3 G2 Y9"
    setup = Setup(hands={0: _cards(w4_hand), 1: _cards("B1 B2 Y3"), 2: _cards("G7 G8 Y4"),
                         3: _cards("Y7 Y8 B9")}, discard=_cards("R5"), turn=0)
    game = Game(rules, 1, 3, setup=setup)
    game.apply("play W4 color=G", 0)
    assert game.turn == 1 and game.pending is not None
    game.apply("challenge", 1)
    shown = _private(game, "hand_shown")
    assert len(shown) == 1
    assert shown[0]["to"] == 1 and shown[0]["seat"] == 0
    assert sorted(shown[0]["cards"]) == sorted(w4_hand.split()[1:])
    _assert_only(game, shown[0], 1)
    check_views(game)
    check_events(game)
    # what happened is public: the challenge and its result
    public = [e["t"] for e in game.events_for(None)]
    assert "challenge" in public and "challenge_result" in public
    sizes = game.hand_sizes()
    assert (sizes[0], sizes[1]) == ((3 + 4, 3) if guilty else (3, 3 + 6))


def test_wild_power_look_shows_the_hand_to_the_looker_only() -> None:
    """HR-WILDPOWER: a look shows the target's hand to the player of the W alone."""
    rules = preset("house", players=3, wild_powers=True)
    setup = Setup(hands={0: _cards("W R1 G2"), 1: _cards("B1 B2 Y3"), 2: _cards("G7 G8 Y4")},
                  discard=_cards("R5"), turn=0)
    game = Game(rules, 1, 2, setup=setup)
    game.apply("play W target=2 power=look", 0)
    shown = _private(game, "hand_shown")
    assert len(shown) == 1 and shown[0]["to"] == 0 and shown[0]["seat"] == 2
    assert sorted(shown[0]["cards"]) == ["G7", "G8", "Y4"]
    _assert_only(game, shown[0], 0)
    check_views(game)


def test_wild_power_swap_shows_cards_to_the_two_players_only() -> None:
    """HR-WILDPOWER swap: given and taken cards are known only to the two players involved."""
    rules = preset("house", players=3, wild_powers=True)
    setup = Setup(hands={0: _cards("W R1 G2 G3 B4"), 1: _cards("B1 B2 Y3 Y4"),
                         2: _cards("G7 G8 Y4 Y5 Y6")}, discard=_cards("R5"), turn=0)
    game = Game(rules, 1, 2, setup=setup)
    game.apply("play W target=2 power=swap give=R1+G2+B4", 0)
    check_views(game)
    for e in game.events:
        if e.get("t") in ("give", "swap_cards"):
            assert e["to"] in (0, 2)
            _assert_only(game, e, e["to"])
    assert all(e.get("to") in (None, 0) for e in game.view(0)["seen"])
    assert game.view(1)["seen"] == []


# -- drawn cards -----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_drawn_cards_only_in_the_drawers_view(name: str) -> None:
    rules = preset(name, players=3)
    drew = 0
    for seed in range(12):
        game = Game(rules, seed, seed % 3)
        rng = random.Random(seed)
        for _ in range(60):
            if game.is_over:
                break
            seat, aid = choose(game, rng, play_bias=0.3)
            before = len(game.events)
            game.step(aid, seat)
            for e in game.events[before:]:
                if e.get("t") == "drew":
                    drew += 1
                    _assert_only(game, e, e["seat"])
                    assert e["to"] == e["seat"]
            views = check_views(game)
            for s, v in enumerate(views):
                if s != game.turn or game.phase != "drawn":
                    assert v["drawn"] == []
    assert drew > 20


def test_drawn_playable_card_shown_in_own_view() -> None:
    """TURN-3: a playable drawn card is offered to its drawer only (view 'drawn')."""
    rules = preset("buzz", players=3)
    setup = Setup(hands={0: _cards("B1 B2"), 1: _cards("B3 B4"), 2: _cards("B5 B6")},
                  discard=_cards("R5"), draw_pile=_cards("R9"), turn=0)
    game = Game(rules, 1, 2, setup=setup)
    game.apply("draw", 0)
    assert game.phase == "drawn"
    v0, v1, v2 = (game.view(s) for s in range(3))
    assert v0["drawn"] == ["R9"] and "R9" in v0["hand"]
    assert v1["drawn"] == [] == v2["drawn"]
    assert "R9" not in v1["hand"] + v2["hand"]
    assert all("R9" not in str(e) for e in game.events_for(1) + game.events_for(2))
    check_views(game)


# -- hidden information is really hidden (indistinguishability) -----------------------------------
def _table(game: Game) -> tuple[dict[int, list[int]], list[int], list[int]]:
    hands = {s: game.hand(s) for s in range(game.players)}
    return hands, game.discard_pile, game.draw_pile()


def _setup(game: Game, hands: dict[int, list[int]], pile: list[int]) -> Setup:
    return Setup(hands=hands, discard=game.discard_pile, color=game.color,
                 draw_pile=pile, turn=game.turn,
                 direction=1 if game.direction == "cw" else -1)


def _plain_start(rules: RuleSet, seed: int) -> Game | None:
    g = Game(rules, seed, seed % rules.players)
    if g.phase != "play" or g.pending is not None or g.effect is not None:
        return None
    return g


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(PRESET_NAMES), players=st.sampled_from((2, 3, 4, 7)),
       seed=st.integers(0, 2**31), seat=st.integers(0, 9), mix=st.integers(0, 2**31))
def test_views_do_not_depend_on_hidden_cards(name: str, players: int, seed: int, seat: int,
                                             mix: int) -> None:
    """Deal the cards hidden from ``seat`` (other hands and the draw pile) differently,
    keeping every size: that seat's view must not change."""
    rules = preset(name, players=players)
    seat %= players
    g = _plain_start(rules, seed)
    if g is None:
        return
    hands, _, pile = _table(g)
    hidden = [c for s in range(players) if s != seat for c in hands[s]] + pile
    random.Random(mix).shuffle(hidden)
    other: dict[int, list[int]] = {seat: hands[seat]}
    for s in range(players):
        if s != seat:
            other[s], hidden = hidden[:len(hands[s])], hidden[len(hands[s]):]
    a = Game(rules, seed, g.dealer, setup=_setup(g, hands, pile))
    b = Game(rules, seed, g.dealer, setup=_setup(g, other, hidden))
    assert a.view(seat) == b.view(seat)
    assert a.events_for(seat) == b.events_for(seat)


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(PRESET_NAMES), players=st.sampled_from((2, 3, 4, 7)),
       seed=st.integers(0, 2**31), mix=st.integers(0, 2**31))
def test_draw_pile_order_never_in_a_view(name: str, players: int, seed: int, mix: int) -> None:
    """Reorder the draw pile: no seat's view changes until a card is drawn, and a draw
    changes only the drawer's view (beyond public sizes)."""
    rules = preset(name, players=players)
    g = _plain_start(rules, seed)
    if g is None:
        return
    hands, _, pile = _table(g)
    top = pile[:1]
    rest = pile[1:]
    random.Random(mix).shuffle(rest)
    a = Game(rules, seed, g.dealer, setup=_setup(g, hands, pile))
    b = Game(rules, seed, g.dealer, setup=_setup(g, hands, top + rest))
    for s in range(players):
        assert a.view(s) == b.view(s)
    if rules.deck.launcher:  # a press may eject several cards, so whether they play differs
        return
    # the turn seat draws the same top card in both: every view stays the same
    drawer = a.turn
    a.apply("draw", drawer)
    b.apply("draw", drawer)
    for s in range(players):
        assert a.view(s) == b.view(s), f"seat {s}"
    check_views(a)
    check_views(b)


def _keys_fit(d: Mapping[str, object], td: Any, what: str) -> None:
    """``d`` has every key ``td`` requires and no key it does not declare."""
    assert td.__required_keys__ <= d.keys(), f"{what} lacks {td.__required_keys__ - d.keys()}"
    assert d.keys() <= td.__annotations__.keys(), \
        f"{what} has undeclared keys {d.keys() - td.__annotations__.keys()}"


@pytest.mark.parametrize("rules", [
    *(preset(n, players=3) for n in PRESET_NAMES),
    preset("house", players=3, wild_powers=True, seven_zero=True),
    preset("classic", players=4, teams=2),
], ids=lambda r: f"{r.preset}-{r.players}")
def test_views_events_and_records_match_their_types(rules: RuleSet) -> None:
    """What the engine hands out is what ``View``, ``Event`` and the record types declare, so
    code written against those types reads every key that is there."""
    kinds = set(get_args(EventKind))
    for seed in range(6):
        m = Match(rules, seed)
        for e in m.dealer_events:
            assert e["t"] in kinds
        g = m.game
        rng = random.Random(seed)
        for _ in range(400):
            if g.is_over:
                break
            for s in range(g.players):
                v = g.view(s, history=True)
                _keys_fit(v, View, "a view")
                if v["pending"] is not None:
                    _keys_fit(v["pending"], Pending, "a pending penalty")
                if v["effect"] is not None:
                    _keys_fit(v["effect"], Effect, "an effect")
            seat, aid = choose(g, rng)
            g.apply(aid, seat)
        for e in g.events:
            assert e["t"] in kinds, f"event kind {e['t']!r} is not an EventKind"
            _keys_fit(e, Event, f"a {e['t']} event")
        rec = game_record(g)
        _keys_fit(rec, GameRecord, "a game record")
        if "result" in rec:
            _keys_fit(rec["result"], GameResult, "a game result")
        mrec = match_record(m)
        _keys_fit(mrec, MatchRecord, "a match record")
        _keys_fit(mrec["result"], MatchResult, "a match result")


# -- HR-OPEN: a small hand lies face up ------------------------------------------------------
def test_open_hands_show_small_hands_and_hide_the_rest() -> None:
    """An open hand is in every view (not a leak); a hand above the limit stays hidden: dealing
    it differently changes no other seat's view."""
    rules = preset("classic", players=3, open_hands=2)
    hands = {0: _cards("R7 G1 G2"), 1: _cards("B8 R1"), 2: _cards("G7 Y7 Y1 B2")}
    pile = _cards("Y5 Y6 B9")

    def game(h: dict[int, list[int]], p: list[int]) -> Game:
        return Game(rules, 1, setup=Setup(hands=h, discard=_cards("R3"), draw_pile=p, turn=0))

    g = game(hands, pile)
    views = check_views(g)
    for v in views:
        assert v["open_hands"] == [None, ["R1", "B8"], None]
    # seat 2's hidden hand swapped with pile cards: seat 0 cannot tell
    other = game({**hands, 2: _cards("Y5 Y6 B9 B2")}, _cards("G7 Y7 Y1"))
    assert other.view(0) == g.view(0)
    # seat 1's open hand changed: everyone sees it
    changed = game({**hands, 1: _cards("B8 B9")}, _cards("Y5 Y6 R1"))
    assert changed.view(0)["open_hands"] == [None, ["B8", "B9"], None]
    g.apply("play R7", 0)  # seat 0 is down to two cards: now its hand is open too
    assert g.view(2)["open_hands"] == [["G1", "G2"], ["R1", "B8"], None]
    assert "open_hands" not in Game(preset("classic", players=3), 1).view(0)


def test_determinize_keeps_open_hands() -> None:
    """A search copy re-deals hidden hands but keeps the ones lying face up (HR-OPEN)."""
    rules = preset("classic", players=3, open_hands=2)
    hands = {0: _cards("R7 G1 G2"), 1: _cards("B8 R1"), 2: _cards("G7 Y7 Y1 B2")}
    g = Game(rules, 1, setup=Setup(hands=hands, discard=_cards("R3"), turn=0))
    moved = 0
    for k in range(20):
        d = g.determinize(0, random.Random(k))
        assert sorted(d.hand(1)) == sorted(hands[1])
        assert sorted(d.hand(0)) == sorted(hands[0])
        moved += sorted(d.hand(2)) != sorted(hands[2])
    assert moved


@pytest.mark.parametrize("seat", [-1, -3, 3, 4, True, "0", None])
def test_a_seat_not_at_the_table_has_no_view(seat: object) -> None:
    """A negative seat must not index a hand from the end (a player put out of a match has
    seat -1), nor may any other value that is not a seat of this table."""
    game = Game(preset("classic", players=3), 1)
    with pytest.raises(ValueError, match="is not a seat of this 3-player game: 0 to 2"):
        game.view(seat)  # type: ignore[arg-type]
