"""Game and match records: exact replay (DIG-1), JSON round trips, and clear errors for
records that cannot be read or do not replay."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from engine_checks import choose, finisher

from unoarena.engine import (
    PRESETS,
    Game,
    Match,
    RecordError,
    Setup,
    game_record,
    iter_game,
    match_record,
    preset,
    replay_game,
    replay_match,
)
from unoarena.engine.cards import parse_card

PRESET_NAMES = sorted(PRESETS)


def _cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def _play(game: Game, rng: random.Random, limit: int = 3000, bias: float = 0.8) -> None:
    for _ in range(limit):
        if game.is_over:
            return
        seat, aid = choose(game, rng, window=0.4, play_bias=bias)
        game.step(aid, seat)
    while not game.is_over:  # finish deterministically
        seat, aid = finisher(game)
        game.step(aid, seat)


def _json(rec: dict[str, Any]) -> dict[str, Any]:
    out = json.loads(json.dumps(rec))
    assert isinstance(out, dict)
    return out


# -- game records ---------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 4, 7])
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_game_record_replays_exactly(name: str, players: int) -> None:
    for seed in range(4):
        rules = preset(name, players=players)
        game = Game(rules, seed, (seed * 3) % players)
        _play(game, random.Random(seed))
        rec = _json(game_record(game))
        assert rec["format"] == "unoarena.game" and rec["version"] == 1
        again = replay_game(rec)
        assert again == game
        assert again.fingerprint() == game.fingerprint()
        assert again.outcome == game.outcome and again.outcome is not None
        assert again.history == game.history
        assert again.events == game.events
        assert [again.view(s) for s in range(players)] == [game.view(s) for s in range(players)]


def test_partial_record_replays_to_the_same_moment() -> None:
    rules = preset("house", players=3, jump_in=True)
    game = Game(rules, 11, 2)
    rng = random.Random(5)
    for _ in range(40):
        seat, aid = choose(game, rng, window=0.5, play_bias=0.5)
        game.step(aid, seat)
        again = replay_game(_json(game_record(game)))
        assert again == game and again.events == game.events
    assert not game.is_over


def test_iter_game_yields_every_state() -> None:
    rules = preset("buzz", players=3)
    game = Game(rules, 8, 1)
    states = [game.clone()]
    rng = random.Random(8)
    while not game.is_over:
        seat, aid = choose(game, rng, play_bias=0.9)
        game.step(aid, seat)
        states.append(game.clone())
    rec = _json(game_record(game))
    seen = [(g.fingerprint(), s, a) for g, s, a in iter_game(rec)]
    assert len(seen) == len(states) == len(rec["actions"]) + 1
    assert seen[0][1:] == (None, None)
    for (fp, rs, ra), st, (rseat, rtext) in zip(seen[1:], states[1:], rec["actions"],
                                                strict=True):
        assert fp == st.fingerprint()
        assert rs == rseat and str(ra) == rtext


def test_record_with_setup_and_meta() -> None:
    rules = preset("classic", players=3)
    setup = Setup(hands={0: _cards("R1 R2 W4"), 1: _cards("B1 B2 Y5"), 2: _cards("G7 G8 RS")},
                  discard=_cards("R5"), turn=0)
    game = Game(rules, 4, 2, setup=setup)
    for text in ("play R1", "play B1", "draw"):
        game.apply(text, game.turn)
    rec = _json(game_record(game, setup, note="scenario", n=3))
    assert rec["meta"] == {"note": "scenario", "n": 3}
    assert rec["setup"]["hands"]["0"] == ["R1", "R2", "W4"]
    again = replay_game(rec)
    assert again == game and again.events == game.events


def test_record_of_faults_replays() -> None:
    """PEN-1 and UNO-3 faults are part of the record and replay as penalties."""
    rules = preset("house", players=3, misplay="penalty")
    setup = Setup(hands={0: _cards("R1 B7 Y2"), 1: _cards("B1 B2 Y5"), 2: _cards("G7 G8 RS")},
                  discard=_cards("R5"), turn=0)
    game = Game(rules, 4, 2, setup=setup)
    game.apply("play B7", 0)  # does not match: misplay penalty
    game.apply("uno", 2)  # false UNO: false_uno_penalty
    assert len(game.history) == 2
    assert game.hand_sizes()[0] == 3 + rules.misplay_penalty
    assert game.hand_sizes()[2] == 3 + rules.false_uno_penalty
    again = replay_game(_json(game_record(game, setup)))
    assert again == game and again.events == game.events


# -- match records --------------------------------------------------------------------------------
MATCHES: list[tuple[str, dict[str, Any]]] = [
    ("classic", {"players": 3, "target_score": 150}),
    ("buzz", {"players": 2, "target_score": 120}),
    ("frozen2", {"players": 4, "rounds": 3}),
    ("house", {"players": 4, "teams": 2, "target_score": 150}),
    ("house", {"players": 5, "seat_exchange": 1, "rounds": 4}),
    ("classic", {"players": 3, "scoring": "chips", "rounds": 3}),
    ("attack", {"players": 3, "rounds": 2}),
]


def _play_match(name: str, overrides: dict[str, Any], seed: int) -> Match:
    m = Match(preset(name, **overrides), seed)
    rng = random.Random(seed)
    while not m.is_over:
        _play(m.game, rng)
        m.finish_round()
        assert m.rounds_played < 60
    return m


def _check_same_match(a: Match, b: Match) -> None:
    assert a.scores == b.scores
    assert a.winners == b.winners and a.is_over == b.is_over
    assert a.rounds_played == b.rounds_played
    for ra, rb in zip(a.results, b.results, strict=True):
        assert (ra.dealer, ra.seed, ra.seats, ra.outcome, ra.actions) == \
            (rb.dealer, rb.seed, rb.seats, rb.outcome, rb.actions)
    assert a.game == b.game
    assert a.dealer_events == b.dealer_events


@pytest.mark.parametrize(("name", "overrides"), MATCHES,
                         ids=[f"{n}-{'-'.join(f'{k}={v}' for k, v in o.items())}"
                              for n, o in MATCHES])
def test_match_record_replays_exactly(name: str, overrides: dict[str, Any]) -> None:
    m = _play_match(name, overrides, seed=21)
    assert m.winners
    rec = _json(match_record(m, event="club night"))
    assert rec["format"] == "unoarena.match" and rec["meta"] == {"event": "club night"}
    assert len(rec["rounds"]) == m.rounds_played
    _check_same_match(replay_match(rec), m)


def test_unfinished_match_record_replays() -> None:
    m = Match(preset("classic", players=3, target_score=300), 5)
    rng = random.Random(5)
    _play(m.game, rng)
    m.finish_round()
    for _ in range(15):
        seat, aid = choose(m.game, rng)
        m.game.step(aid, seat)
    assert not m.is_over and not m.game.is_over
    rec = _json(match_record(m))
    assert len(rec["rounds"]) == 2
    _check_same_match(replay_match(rec), m)


def test_rounds_ended_on_time_replay() -> None:
    """HR-BLITZ: a round the clock ended is recorded as ``time_up`` for the turn seat and
    replays to the same outcome, in a game record and in a match record."""
    rules = preset("classic", players=3, blitz=60)
    m = Match(rules, 8)
    rng = random.Random(8)
    for _ in range(2):
        for _ in range(6):
            seat, aid = choose(m.game, rng)
            m.game.step(aid, seat)
        turn = m.game.turn
        m.game.time_up()
        out = m.game.outcome
        assert out is not None and out.reason == "time" and out.winner is not None
        rec = _json(game_record(m.game))
        assert rec["actions"][-1] == [turn, "time_up"]
        assert replay_game(rec).outcome == out
        m.finish_round()
    _check_same_match(replay_match(_json(match_record(m))), m)
    fresh = Game(rules, 1, 0)
    bad = _json(game_record(fresh))
    bad["actions"] = [[(fresh.turn + 1) % 3, "time_up"]]  # not the turn seat
    with pytest.raises(RecordError, match="time_up"):
        replay_game(bad)


# -- corrupt records ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def good_game_record() -> dict[str, Any]:
    game = Game(preset("classic", players=3), 2, 0)
    _play(game, random.Random(2))
    rec = _json(game_record(game))
    assert len(rec["actions"]) > 12
    return rec


@pytest.fixture(scope="module")
def good_match_record() -> dict[str, Any]:
    return _json(match_record(_play_match("classic", {"players": 2, "target_score": 100}, 3)))


def _broken(rec: dict[str, Any], change: Any) -> dict[str, Any]:
    bad = copy.deepcopy(rec)
    change(bad)
    return bad


def _illegal_at(i: int) -> Any:
    """Action i becomes "color R", legal only while a wild starter waits for its colour."""
    def change(r: dict[str, Any]) -> None:
        r["actions"][i] = [r["actions"][i][0], "color R"]
    return change


GAME_CORRUPTIONS = [
    ("wrong format", lambda r: r.update(format="unoarena.match"), ["format"]),
    ("no format", lambda r: r.pop("format"), ["format"]),
    ("wrong version", lambda r: r.update(version=99), ["version", "99"]),
    ("unknown rule key", lambda r: r["rules"].update(colour="red"), ["rules", "colour"]),
    ("bad rule value", lambda r: r["rules"].update(stacking="sometimes"),
     ["rules", "stacking"]),
    ("impossible rules", lambda r: r["rules"].update(teams=2), ["rules", "teams"]),
    ("unknown preset", lambda r: r["rules"].update(preset="poker"), ["rules", "poker"]),
    ("no rules", lambda r: r.pop("rules"), ["rules"]),
    ("illegal action", _illegal_at(6), ["action 6"]),
    ("seat out of range", lambda r: r["actions"].__setitem__(3, [9, "draw"]), ["action 3"]),
    ("wrong seat", lambda r: r["actions"].__setitem__(
        5, [(r["actions"][5][0] + 1) % 3, r["actions"][5][1]]), ["action 5"]),
]


@pytest.mark.parametrize(("label", "change", "words"), GAME_CORRUPTIONS,
                         ids=[c[0] for c in GAME_CORRUPTIONS])
def test_corrupt_game_record(good_game_record: dict[str, Any], label: str, change: Any,
                             words: list[str]) -> None:
    bad = _broken(good_game_record, change)
    with pytest.raises(RecordError) as info:
        replay_game(bad)
    msg = str(info.value)
    for w in words:
        assert w in msg, f"{label}: {msg!r} does not mention {w!r}"


@pytest.mark.parametrize("text", ["fly away", "play", "play X9", ""])
def test_unparsable_action_in_game_record(good_game_record: dict[str, Any], text: str) -> None:
    bad = _broken(good_game_record, lambda r: r["actions"].__setitem__(2, [0, text]))
    with pytest.raises(RecordError, match="action 2"):
        replay_game(bad)


@pytest.mark.parametrize("entry", ["draw", [0], [0, "draw", 1], 7])
def test_malformed_action_entry_in_game_record(good_game_record: dict[str, Any],
                                               entry: Any) -> None:
    bad = _broken(good_game_record, lambda r: r["actions"].__setitem__(2, entry))
    with pytest.raises(RecordError, match="action 2"):
        replay_game(bad)


@pytest.mark.parametrize("rec", [[], "unoarena.game", None, 3])
def test_record_that_is_not_an_object(rec: Any) -> None:
    with pytest.raises(RecordError, match="JSON object"):
        replay_game(rec)


def test_record_errors_are_value_errors() -> None:
    assert issubclass(RecordError, ValueError)


MATCH_CORRUPTIONS = [
    ("wrong format", lambda r: r.update(format="unoarena.game"), ["format"]),
    ("wrong version", lambda r: r.update(version=0), ["version"]),
    ("bad rules", lambda r: r["rules"].update(players=1), ["rules", "players"]),
    ("illegal action", lambda r: r["rounds"][0].__setitem__(
        3, [(r["rounds"][0][3][0] + 1) % 2, "draw"]), ["round 0, action 3"]),
    ("unparsable action", lambda r: r["rounds"][-1].__setitem__(1, [0, "fly"]),
     ["action 1"]),
    ("round after the end", lambda r: r["rounds"].append([[0, "draw"]]),
     ["after the match ended"]),
]


@pytest.mark.parametrize(("label", "change", "words"), MATCH_CORRUPTIONS,
                         ids=[c[0] for c in MATCH_CORRUPTIONS])
def test_corrupt_match_record(good_match_record: dict[str, Any], label: str, change: Any,
                              words: list[str]) -> None:
    bad = _broken(good_match_record, change)
    with pytest.raises(RecordError) as info:
        replay_match(bad)
    msg = str(info.value)
    for w in words:
        assert w in msg, f"{label}: {msg!r} does not mention {w!r}"
