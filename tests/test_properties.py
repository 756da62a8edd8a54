"""Property tests (hypothesis): rejected actions change nothing (DIG-4), actions round-trip
through strings (DESIGN lesson 1), the legal mask agrees with the legal ids, and parsing
garbage fails with ``bad_action``."""

from __future__ import annotations

import random
from typing import Any

import pytest
from engine_checks import choose, punishable, where
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unoarena.engine import (
    ERROR_CODES,
    PRESETS,
    Action,
    Game,
    IllegalAction,
    RuleSet,
    preset,
)
from unoarena.engine.actions import POWERS, VERBS
from unoarena.engine.cards import NKINDS

PRESET_NAMES = sorted(PRESETS)
PLAYERS = (2, 3, 4, 7, 10)
#: Per preset, a rule set with every toggle it accepts that adds actions to the space.
RICH: dict[str, dict[str, Any]] = {
    "classic": {"jump_in": True, "sum_jump_in": "any_color", "double_play": True,
                "wild_powers": True, "seven_zero": True, "misplay": "penalty"},
    "buzz": {"jump_in": True, "sum_jump_in": "same_color", "wild_powers": True,
             "seven_zero": True, "stacking": "draw2", "draw4_on_draw2": True},
    "frozen2": {"jump_in": True, "double_play": True, "seven_zero": True,
                "false_uno_penalty": 1},
    "house": {"jump_in": True, "sum_jump_in": "any_color", "double_play": True,
              "wild_powers": True, "seven_zero": True, "players": 4, "teams": 2,
              "turn_timer": 30},
    "attack": {"wild_powers": True, "seven_zero": True, "misplay": "penalty",
               "false_uno_penalty": 2},
}
PROP = settings(max_examples=300, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _rules(name: str, players: int, rich: bool) -> RuleSet:
    kw = dict(RICH[name]) if rich else {}
    if "teams" not in kw:
        kw["players"] = players
    return preset(name, **kw)


def _advance(rules: RuleSet, seed: int, steps: int) -> Game:
    """A seeded game after up to ``steps`` random legal actions (windows included)."""
    game = Game(rules, seed, seed % rules.players)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        seat, aid = choose(game, rng, window=0.3, play_bias=0.6)
        game.step(aid, seat)
    return game


def _attempt(game: Game, seat: int, action: Action | str | int, may_apply: bool) -> None:
    """Apply an illegal action: it is rejected and the game is exactly as it was (DIG-4),
    or, where ``may_apply`` (a fault the rules punish, a compound swap), carried out."""
    before = game.clone()
    fp = game.fingerprint()
    nev = len(game.events)
    try:
        game.apply(action, seat)
    except IllegalAction as e:
        assert e.code in ERROR_CODES
        assert e.message.strip(), "a rejection without a sentence"
        assert game.fingerprint() == fp, where(game, f"rejected {action!r} ({e.code}) for "
                                                     f"seat {seat} changed the game")
        assert game.history == before.history and len(game.events) == nev, where(game)
        assert game == before
        return
    assert may_apply, where(game, f"illegal {action!r} for seat {seat} was accepted")
    assert len(game.history) >= len(before.history) + 1, where(game, f"{action!r} unrecorded")


@PROP
@given(name=st.sampled_from(PRESET_NAMES), players=st.sampled_from(PLAYERS),
       rich=st.booleans(), seed=st.integers(0, 2**32), steps=st.integers(0, 150),
       data=st.data())
def test_illegal_action_ids_change_nothing(name: str, players: int, rich: bool, seed: int,
                                           steps: int, data: st.DataObject) -> None:
    """DIG-4: any id of the whole space that is not legal for a seat raises IllegalAction
    and leaves the fingerprint unchanged."""
    rules = _rules(name, players, rich)
    game = _advance(rules, seed, steps)
    n = len(game.space)
    for _ in range(8):
        seat = data.draw(st.integers(0, rules.players - 1), label="seat")
        aid = data.draw(st.integers(0, n - 1), label="action id")
        act = game.space.actions[aid]
        form = data.draw(st.sampled_from(("id", "str", "obj")), label="form")
        arg: Action | str | int = aid if form == "id" else str(act) if form == "str" else act
        if aid in game.legal_ids(seat):
            c = game.clone()
            c.apply(arg, seat)  # a legal action is accepted in every form
            game.step(aid, seat)
            assert c == game, where(game, f"apply and step disagree on {act}")
            continue
        if game.is_over:
            with pytest.raises(IllegalAction) as info:
                game.apply(arg, seat)
            assert info.value.code == "round_over"
            continue
        if punishable(game, seat, act):
            _attempt(game, seat, arg, True)
            continue
        fp = game.fingerprint()
        with pytest.raises(IllegalAction) as info:
            game.apply(arg, seat)
        assert info.value.code in ERROR_CODES
        assert game.fingerprint() == fp, where(game, f"rejected {act} ({info.value.code}) "
                                                     f"for seat {seat} changed the game")


cards_st = st.lists(st.integers(0, NKINDS - 1), min_size=1, max_size=4).map(tuple)
color_st = st.integers(0, 4)
target_st = st.integers(0, 11)
#: Every shape of action that Action.parse can produce, with arbitrary cards, colours,
#: targets (also out of range), powers, flags and give= lists; and Action objects with any
#: fields at all (fields a verb does not take included).
action_st = st.one_of(
    st.builds(Action, verb=st.sampled_from(VERBS),
              cards=st.lists(st.integers(0, NKINDS - 1), max_size=4).map(tuple),
              color=st.integers(-1, 5), target=st.integers(-1, 11),
              power=st.sampled_from(("", *POWERS)), uno=st.booleans(),
              give=st.lists(st.integers(0, NKINDS - 1), max_size=4).map(tuple)),
    st.sampled_from(("draw", "pass", "uno", "accept", "challenge", "timeout")).map(Action),
    st.builds(lambda t: Action("catch", target=t), target_st),
    st.builds(lambda c: Action("color", color=c), color_st),
    st.builds(lambda k: Action("give", (k,)), st.integers(0, NKINDS - 1)),
    st.builds(
        Action,
        verb=st.sampled_from(("play", "jump_in")),
        cards=cards_st,
        color=st.one_of(st.just(-1), color_st),
        target=st.one_of(st.just(-1), target_st),
        power=st.sampled_from(("", *POWERS)),
        uno=st.booleans(),
        give=st.one_of(st.just(()), cards_st),
    ),
)


@PROP
@given(name=st.sampled_from(PRESET_NAMES), players=st.sampled_from(PLAYERS),
       rich=st.booleans(), seed=st.integers(0, 2**32), steps=st.integers(0, 150),
       seat=st.integers(-2, 11), actions=st.lists(action_st, min_size=1, max_size=6))
def test_arbitrary_actions_rejected_cleanly(name: str, players: int, rich: bool, seed: int,
                                            steps: int, seat: int,
                                            actions: list[Action]) -> None:
    """DIG-4 beyond the space: any action a player could type (wrong targets, colours, card
    counts, give= lists) for any seat number is applied, or rejected with a code and no
    change."""
    rules = _rules(name, players, rich)
    game = _advance(rules, seed, steps)
    s = seat
    for act in actions:
        aid = game.space.index.get(act)
        if 0 <= s < rules.players and aid is not None and aid in game.legal_ids(s):
            game.step(aid, s)
            continue
        if not 0 <= s < rules.players:
            with pytest.raises(IllegalAction) as info:
                game.apply(act, s)
            assert info.value.code in ("bad_target", "round_over")
            continue
        _attempt(game, s, act, punishable(game, s, act) or bool(act.give))


@PROP
@given(name=st.sampled_from(PRESET_NAMES), players=st.sampled_from(PLAYERS),
       rich=st.booleans(), seed=st.integers(0, 2**32), steps=st.integers(0, 200))
def test_legal_mask_agrees_with_ids(name: str, players: int, rich: bool, seed: int,
                                    steps: int) -> None:
    rules = _rules(name, players, rich)
    game = _advance(rules, seed, steps)
    acts = game.space.actions
    for seat in range(rules.players):
        ids = game.legal_ids(seat)
        mask = game.legal_mask(seat)
        assert len(mask) == len(game.space)
        assert [i for i, m in enumerate(mask) if m] == sorted(ids)
        assert game.legal_actions(seat) == [acts[i] for i in ids]
        assert game.can_act(seat) == bool(ids)


def _spaces() -> list[tuple[str, RuleSet]]:
    out = []
    for name in PRESET_NAMES:
        for players in (2, 10):
            out.append((f"{name}-{players}p", preset(name, players=players)))
        out.append((f"{name}-rich", _rules(name, 4, True)))
    return out


@pytest.mark.parametrize(("label", "rules"), _spaces(), ids=[s[0] for s in _spaces()])
def test_every_action_round_trips(label: str, rules: RuleSet) -> None:
    """Action.parse(str(a)) == a for every action of the space, and strings are unique."""
    space = Game(rules, 0).space
    texts = [str(a) for a in space.actions]
    assert len(set(texts)) == len(texts), f"{label}: two actions print alike"
    for i, (a, text) in enumerate(zip(space.actions, texts, strict=True)):
        back = Action.parse(text)
        assert back == a, f"{label}: {text!r} parses to {back!r}, not {a!r}"
        assert space.index[back] == i
        # CARD-4: codes, verbs and keys are read case-insensitively
        assert Action.parse(text.upper()) == a, f"{label}: {text.upper()!r}"
        assert Action.parse(text.lower()) == a, f"{label}: {text.lower()!r}"


GARBAGE = [
    "", "   ", "fly", "play", "play X9", "play R7 colour=G", "play W color=", "play W color=Q",
    "catch", "catch x", "catch -1", "catch 1 2", "color", "color Q", "color R G", "draw now",
    "pass 2", "uno!", "jump_in", "play R7 target=a", "play W power=fly", "play R7 foo",
    "accept it", "challenge 1", "timeout now", "jump", "give",
]


@pytest.mark.parametrize("text", GARBAGE)
def test_garbage_is_bad_action(text: str) -> None:
    with pytest.raises(IllegalAction) as info:
        Action.parse(text)
    assert info.value.code == "bad_action"
    assert info.value.message


@pytest.mark.parametrize("text", ["fly", "play X9", "catch x", ""])
def test_garbage_applied_is_bad_action_and_changes_nothing(text: str) -> None:
    game = Game(preset("classic"), 3)
    fp = game.fingerprint()
    with pytest.raises(IllegalAction) as info:
        game.apply(text, game.turn)
    assert info.value.code == "bad_action"
    assert game.fingerprint() == fp


TOKENS = [*VERBS, "R7", "W4", "color=G", "target=1", "uno", "power=swap", "give=R1+G2", "+",
          "=", "jump", "in", "press", "B", "12", "-1", "wild draw four", "red", "P5", "WA"]
text_st = st.one_of(st.text(max_size=40),
                    st.lists(st.sampled_from(TOKENS), max_size=6).map(" ".join))


@settings(max_examples=400, deadline=None)
@given(text=text_st)
def test_parse_never_crashes(text: str) -> None:
    """Parsing any text gives an Action or raises IllegalAction bad_action, nothing else."""
    try:
        Action.parse(text)
    except IllegalAction as e:
        assert e.code == "bad_action"


@settings(max_examples=400, deadline=None)
@given(text=text_st)
def test_parsed_actions_round_trip(text: str) -> None:
    """Whatever parse accepts prints back to a string that parses to the same action."""
    try:
        act = Action.parse(text)
    except IllegalAction:
        return
    assert Action.parse(str(act)) == act


@pytest.mark.parametrize("text", ["play +", "jump_in +", "play + color=G"])
def test_parse_cardless_play(text: str) -> None:
    with pytest.raises(IllegalAction) as info:
        Action.parse(text)
    assert info.value.code == "bad_action"


def test_noncanonical_action_object_rejected() -> None:
    """DIG-4: an Action object with fields its verb does not take is rejected with a code."""
    game = Game(preset("house", players=2), 0)
    fp = game.fingerprint()
    with pytest.raises(IllegalAction) as info:
        game.apply(Action("uno", color=0), 0)
    assert info.value.code in ERROR_CODES
    assert game.fingerprint() == fp
