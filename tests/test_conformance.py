"""Conformance: seeded random games of every preset and player count, invariants after every
action (DESIGN lesson 8, in the manner of OpenSpiel's random_sim_test and PettingZoo's api_test
and seed_test).

After every action: ED-5 cards conserved; the seat that must act has a legal action; views leak
nothing (DIG-2); a clone equals the game and stays equal after the same action (applied checked,
by its string, to the clone); periodically the JSON record replays to an equal game; at the end
the same seed and actions rebuild the same game (DIG-1). Some actions are random ids from the
whole action space: each is either rejected leaving the game unchanged (DIG-4) or, where the
rules turn faults into penalties (PEN-1, PEN-2, UNO-3), carried out identically on a clone.

Scale with ``UNOARENA_CONFORMANCE_GAMES=N`` (games per preset and player count in the main
test; the other tests scale with it).
"""

from __future__ import annotations

import itertools
import os
import random
import zlib
from typing import Any

import pytest
from engine_checks import (
    can_end,
    check_conservation,
    check_events,
    check_rebuild,
    check_record,
    check_round_over_last,
    check_turn,
    check_views,
    choose,
    punishable,
    where,
)

from unoarena.engine import (
    PRESETS,
    ConfigError,
    Game,
    IllegalAction,
    RuleSet,
    Setup,
    preset,
)
from unoarena.engine.cards import parse_card

PRESET_NAMES = ("classic", "buzz", "frozen2", "house", "attack")
PLAYER_COUNTS = (2, 3, 4, 7, 10)
_ENV = os.environ.get("UNOARENA_CONFORMANCE_GAMES", "").strip()
GAMES = int(_ENV) if _ENV else 0
#: games per (preset, players) with every check after every action
FULL_GAMES = GAMES or 8
#: games per (preset, players) with the cheap checks only (conservation, turn, rebuild)
FAST_GAMES = 6 * GAMES or 60
#: games per toggle combination
TOGGLE_GAMES = max(1, GAMES // 6) if GAMES else 1
CAP = 1500  # actions before a game is checked for whether it can end at all
RECORD_EVERY = 40


def test_presets_covered() -> None:
    assert set(PRESET_NAMES) == set(PRESETS)


def _try_fault(game: Game, rng: random.Random) -> bool:
    """Apply a random action of the whole space for a random seat. Returns whether it changed
    the game (a legal action, or a fault the rules punish instead of rejecting)."""
    seat = rng.randrange(game.players)
    aid = rng.randrange(len(game.space))
    act = game.space.actions[aid]
    form: Any = rng.choice((aid, str(act), act))
    before = game.clone()
    fp = game.fingerprint()
    legal = aid in game.legal_ids(seat)
    try:
        game.apply(form, seat)
    except IllegalAction as e:
        assert not legal, where(game, f"legal {act} for seat {seat} rejected: {e}")
        assert game.fingerprint() == fp and game.history == before.history, where(
            game, f"rejected {act} for seat {seat} ({e.code}) changed the game (DIG-4)")
        return False
    if not legal:
        assert punishable(before, seat, act), where(game, f"illegal {act} for seat {seat} "
                                                          "was accepted")
        assert len(game.history) == len(before.history) + 1, where(game, "fault not recorded")
    before.apply(form, seat)
    assert before == game, where(game, f"{act} for seat {seat}: clone diverged")
    return True


def play_checked(rules: RuleSet, seed: int, *, full: bool = True, window: float = 0.3,
                 play_bias: float = 0.0, fault: float = 0.0, cap: int = CAP) -> Game:
    """Play one random game, checking the invariants after every action."""
    rng = random.Random(seed * 7919 + 17)
    game = Game(rules, seed, seed % rules.players)
    twin = Game(rules, seed, seed % rules.players)
    assert twin == game and twin.events == game.events, where(game, "same seed, other deal")
    check_conservation(game)
    check_turn(game)
    if full:
        check_views(game)
        check_events(game)
    actions = 0
    while not game.is_over and actions < cap:
        nev = len(game.events)
        if fault and rng.random() < fault:
            if not _try_fault(game, rng):
                continue
        else:
            seat, aid = choose(game, rng, window=window, play_bias=play_bias)
            if full:
                c = game.clone()
                assert c == game, where(game, "clone differs")
                fp = c.fingerprint()
                game.step(aid, seat)
                assert c.fingerprint() == fp, where(game, "stepping the game changed its clone")
                c.apply(str(game.space.actions[aid]), seat)
                assert c == game, where(game, f"clone diverged after {game.space.actions[aid]}")
            else:
                game.step(aid, seat)
        actions += 1
        check_conservation(game)
        check_turn(game)
        if full:
            deep = actions % RECORD_EVERY == 0
            check_views(game, deep)
            check_events(game, nev)
            if deep:
                check_record(game)
    if full:
        check_views(game)
        check_record(game)
    check_rebuild(game)
    if not game.is_over:
        assert can_end(game), where(game, f"no end within {cap} random actions, and a greedy "
                                          "finisher cannot end it either")
    return game


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_random_games_full_checks(name: str, players: int) -> None:
    rules = preset(name, players=players)
    ended = 0
    for i in range(FULL_GAMES):
        seed = 1000 * players + i
        # a policy mix: uniform, biased to plays, and with random faults
        bias = (0.0, 0.9, 0.6)[i % 3]
        g = play_checked(rules, seed, play_bias=bias, fault=0.05 if i % 2 else 0.0)
        ended += g.is_over
    assert ended >= FULL_GAMES // 3, f"{name} {players}p: only {ended} games ended"


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_random_games_fast(name: str, players: int) -> None:
    """Many more games with the cheap checks; biased to plays so that they end."""
    rules = preset(name, players=players)
    ended = 0
    for i in range(FAST_GAMES):
        g = play_checked(rules, 50_000 + 100 * players + i, full=False, play_bias=0.8,
                         window=0.5)
        ended += g.is_over
    assert ended >= FAST_GAMES * 3 // 4, f"{name} {players}p: only {ended} games ended"


# -- all toggle combinations (PettingZoo-style all-parameter-combinations) --------------------
TOGGLES: dict[str, dict[str, Any]] = {
    "stack_draw2": {"stacking": "draw2"},
    "stack_deflect": {"stacking": "deflect"},
    "stack_draw4": {"stack_draw4": True},
    "draw4_on_draw2": {"stacking": "draw2", "draw4_on_draw2": True},
    "reverse_draw4": {"reverse_deflects_draw4": True},
    "draw2_on_draw4": {"draw2_on_draw4": True},
    "revenge": {"stacking": "deflect", "revenge": True},
    "same_number": {"same_number_play": True},
    "bomb": {"same_number_play": True, "bomb": True},
    "jump_in": {"jump_in": True},
    "double_play": {"double_play": True},
    "sum_same": {"sum_jump_in": "same_color"},
    "sum_any": {"sum_jump_in": "any_color"},
    "number_finish": {"number_finish": True},
    "teams": {"players": 4, "teams": 2},
    "wild_powers": {"wild_powers": True},
    "seven_zero": {"seven_zero": True},
    "until_playable": {"draw_count": "until_playable"},
    "void": {"deck_exhausted": "void"},
    "misplay_penalty": {"misplay": "penalty"},
    "false_uno": {"false_uno_penalty": 2},
    "vdp_may": {"voluntary_draw_play": "may"},
    "vdp_may_not": {"voluntary_draw_play": "may_not"},
    "w4_reshuffle": {"starter_w4": "reshuffle"},
    "w4_bottom": {"starter_w4": "bottom"},
    "w4_dealer_plays": {"starter_w4": "dealer_plays"},
    "w4_challenge": {"w4_rule": "restricted", "wd4_challenge": True},
    "w4_restricted": {"w4_rule": "restricted", "wd4_challenge": False},
    "w4_free": {"w4_rule": "free", "wd4_challenge": False},
    "force_play": {"force_play": True},
    "forced_draw_play": {"forced_draw_play": True},
    "hand_limit": {"hand_limit": 12},
    "silent_uno": {"silent_uno": True},
    "double_score": {"double_score": True},
    "wild_starter_stays": {"wild_starter_stays": True},
    "open_hands": {"open_hands": 3},
    "blind_draw": {"blind_draw": True},
}


def _merge(parts: tuple[str, ...]) -> dict[str, Any] | None:
    """The union of some toggles, or None when two of them set one key differently."""
    out: dict[str, Any] = {}
    for p in parts:
        for k, v in TOGGLES[p].items():
            if k in out and out[k] != v:
                return None
            out[k] = v
    return out


def _accepts(name: str, overrides: dict[str, Any]) -> bool:
    try:
        preset(name, **overrides)
    except ConfigError:
        return False
    return True


def _combinations() -> list[tuple[str, tuple[str, ...], dict[str, Any]]]:
    """(preset, toggles, overrides): every toggle alone, every pair that does not set one key
    twice, and per preset four greedy maxima (as many toggles as the preset accepts at once).
    Player counts cycle through 2, 3, 4, 5, 7, 10 unless a toggle fixes them."""
    names = sorted(TOGGLES)
    combos: list[tuple[str, ...]] = [(t,) for t in names]
    combos += list(itertools.combinations(names, 2))
    out = []
    for name in PRESET_NAMES:
        chosen: list[tuple[tuple[str, ...], dict[str, Any]]] = []
        for parts in combos:
            merged = _merge(parts)
            if merged is not None:
                chosen.append((parts, merged))
        long_games = [t for t in names if t not in ("void", "teams")]  # any player count
        for order in (names, names[::-1], long_games, long_games[::-1]):
            acc: tuple[str, ...] = ()
            for t in order:
                merged = _merge((*acc, t))
                if merged is not None and _accepts(name, merged):
                    acc = (*acc, t)
            chosen.append((acc, _merge(acc) or {}))
        for k, (parts, merged) in enumerate(chosen):
            kw = dict(merged)
            kw.setdefault("players", (2, 3, 4, 5, 7, 10)[k % 6])
            out.append((name, parts, kw))
    return out


COMBOS = _combinations()
VALID = [c for c in COMBOS if _accepts(c[0], c[2])]

#: Combinations whose random games show an engine fault, marked strict xfail: (preset,
#: toggles) -> "engine: ..." reason. Empty while every combination passes.
ENGINE_FAULTS: dict[tuple[str, tuple[str, ...]], str] = {}


def _combo_param(c: tuple[str, tuple[str, ...], dict[str, Any]]) -> Any:
    name, parts, kw = c
    marks = []
    reason = ENGINE_FAULTS.get((name, parts))
    if reason:
        marks.append(pytest.mark.xfail(strict=True, reason=reason))
    label = "+".join(parts) if len(parts) <= 2 else f"{len(parts)}toggles-{parts[0]}"
    return pytest.param(name, parts, kw, id=f"{name}-{label}-{kw['players']}p", marks=marks)


def test_toggle_combinations_mostly_valid() -> None:
    assert len(VALID) > len(COMBOS) // 2, (len(VALID), len(COMBOS))
    for name in PRESET_NAMES:  # every preset keeps most toggles
        assert sum(1 for c in VALID if c[0] == name) > 100, name
    for name, parts, kw in COMBOS:  # a rejected combination was rejected for a reason
        if (name, parts, kw) not in VALID:
            with pytest.raises(ConfigError) as info:
                preset(name, **kw)
            assert info.value.keys and all(k in str(info.value) for k in info.value.keys)


@pytest.mark.parametrize(("name", "parts", "overrides"), [_combo_param(c) for c in VALID])
def test_toggle_combinations(name: str, parts: tuple[str, ...], overrides: dict[str, Any]
                             ) -> None:
    """All-parameter-combinations: random games under each combination of house rules."""
    rules = preset(name, **overrides)
    k = zlib.crc32(repr((name, parts)).encode()) % 100_000
    for j in range(TOGGLE_GAMES):
        seed = 7_000_000 + 10 * k + j
        play_checked(rules, seed, full=(k + j) % 3 == 0, play_bias=0.8,
                     fault=0.05 if (k + j) % 2 else 0.0, cap=800)


@pytest.mark.parametrize(("name", "overrides", "keys"), [
    ("classic", {"players": 5, "teams": 2}, {"teams", "players"}),
    ("house", {"players": 6, "teams": 4}, {"teams", "players"}),
    ("classic", {"players": 4, "teams": 4}, {"teams", "players"}),
    ("attack", {"stack_draw4": True}, {"stack_draw4", "edition"}),
    ("attack", {"jump_in": True}, {"jump_in", "edition"}),
    ("attack", {"sum_jump_in": "any_color"}, {"sum_jump_in", "edition"}),
    ("attack", {"stacking": "draw2"}, {"stacking", "edition"}),
    ("attack", {"double_play": True}, {"double_play", "multi_play"}),
    ("classic", {"draw4_on_draw2": True}, {"draw4_on_draw2", "stacking"}),
    ("attack", {"reverse_deflects_draw4": True}, {"reverse_deflects_draw4", "edition"}),
    ("attack", {"draw2_on_draw4": True}, {"draw2_on_draw4", "edition"}),
    ("classic", {"revenge": True}, {"revenge", "stacking"}),
    ("classic", {"same_number_play": True, "double_play": True},
     {"same_number_play", "double_play"}),
    ("attack", {"same_number_play": True}, {"same_number_play", "multi_play"}),
    ("classic", {"bomb": True}, {"bomb", "same_number_play"}),
    ("house", {"wd4_challenge": True}, {"wd4_challenge", "w4_rule"}),
    ("classic", {"scoring": "chips"}, {"scoring", "rounds"}),
    ("classic", {"players": 10, "hand_size": 11}, {"hand_size", "players"}),
    ("classic", {"hand_limit": 7}, {"hand_limit", "hand_size"}),
    ("house", {"double_score": True}, {"double_score", "scoring"}),
    ("attack", {"wild_starter_stays": True}, {"wild_starter_stays", "starter_number_only"}),
])
def test_impossible_combinations_rejected(name: str, overrides: dict[str, Any],
                                          keys: set[str]) -> None:
    """RULES 16: a combination that cannot work is a configuration error naming the keys."""
    with pytest.raises(ConfigError) as info:
        preset(name, **overrides)
    assert set(info.value.keys) == keys
    for k in keys:
        assert k in str(info.value)


@pytest.mark.parametrize("players", [1, 11, 0])
def test_player_count_out_of_range(players: int) -> None:
    """SEAT-3: 2 to 10 players."""
    with pytest.raises(ConfigError) as info:
        preset("classic", players=players)
    assert "players" in info.value.keys and "players" in str(info.value)


# -- minimal reproductions of faults that random games have found ---------------------------------
def _cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def test_void_round_ends_at_once() -> None:
    """TURN-6 deck_exhausted void: the round ends when a penalty finds no card to draw, and
    nothing happens after its round_over event."""
    rules = preset("classic", players=2, deck_exhausted="void")
    deck = rules.deck.deck()
    for k in _cards("RD2 R5 B7"):
        deck.remove(k)
    setup = Setup(hands={0: _cards("RD2 B7"), 1: deck}, discard=_cards("R5"), turn=0)
    game = Game(rules, 1, 1, setup=setup)
    assert game.draw_pile() == []
    game.apply("play RD2", 0)
    assert game.is_over and game.outcome is not None and game.outcome.reason == "void"
    check_turn(game)
    check_events(game)
    check_round_over_last(game)


def test_round_over_is_the_last_event() -> None:
    """Nothing happens after round_over, also when the round ends void (TURN-6)."""
    bad = []
    for name in PRESET_NAMES:
        for players in (7, 10):
            rules = preset(name, players=players, deck_exhausted="void")
            for seed in range(20):
                g = play_checked(rules, 900_000 + seed, full=False, play_bias=0.5)
                if g.is_over and g.events[-1].get("t") != "round_over":
                    bad.append(where(g))
    assert not bad, f"{len(bad)} games with events after round_over, e.g. {bad[:3]}"


@pytest.mark.parametrize("players", [2, 3])
def test_last_card_penalty_under_hyperspeed(players: int) -> None:
    """END-2 with BUZZ-2: a last YD2 played under hyperspeed on yellow makes the next player
    draw two; the winner never draws."""
    rules = preset("buzz", players=players)
    hands = {0: _cards("R1 R2 R3"), 1: _cards("WH YD2")}
    if players == 3:
        hands[2] = _cards("G1 G2 G3")
    setup = Setup(hands=hands, discard=_cards("Y3"), draw_pile=_cards("B5 B6 B7 B8 B9"),
                  turn=1)
    game = Game(rules, 1, 0, setup=setup)
    game.apply("play WH color=Y uno", 1)
    while game.turn != 1:
        game.apply("draw", game.turn)
        if game.phase == "drawn":
            game.apply("pass", game.turn)
    before = game.hand_sizes()
    game.apply("play YD2", 1)
    assert game.outcome is not None and game.outcome.winner == 1
    after = game.hand_sizes()
    nxt = 2 % players
    assert after[1] == 0
    assert after[nxt] == before[nxt] + 2
    check_turn(game)


def test_single_discard_all_conserves_cards() -> None:
    """ATK-7 and ED-5: a DA played alone takes its colour's cards with it, each card once."""
    rules = preset("attack", players=2)
    setup = Setup(hands={0: _cards("GDA G5 G1 R3"), 1: _cards("B1 B2 B3")},
                  discard=_cards("G7"), turn=0)
    game = Game(rules, 1, 1, setup=setup)
    game.apply("play GDA", 0)
    check_conservation(game)
    assert game.hand(0) == _cards("R3")
    assert sorted(game.discard_pile) == sorted(_cards("G7 G5 G1 GDA"))
    assert game.discard_pile[-1] == parse_card("GDA")
