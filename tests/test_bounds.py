"""Every bad input bounded, every error the project's own: each reproducer of the fuzzing
report gets a clear error (exit 2 on the command line) and changes nothing. The randomised
versions of these checks are in ``test_fuzz_engine.py`` and ``web/test_fuzz_web.py``."""

from __future__ import annotations

import copy
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from cli_util import run

from unoarena.engine import (
    KEYS,
    PRESETS,
    Action,
    ConfigError,
    Game,
    IllegalAction,
    Match,
    RecordError,
    RuleSet,
    Setup,
    game_record,
    match_record,
    parse_card,
    preset,
    replay_game,
    replay_match,
)
from unoarena.engine.errors import EXCERPT_CHARS, excerpt
from unoarena.engine.record import read_json
from unoarena.engine.rules import INT_BOUNDS
from unoarena.scenarios import ScenarioError, load_scenarios

HUGE = 2**64


def _finish(game: Game, seed: int = 0) -> Game:
    rng = random.Random(seed)
    while not game.is_over:
        ids = game.legal_ids(game.turn)
        game.step(ids[int(rng.random() * len(ids))], game.turn)
    return game


# -- 1. numbers without bounds --------------------------------------------------------------------
@pytest.mark.parametrize("key", sorted(INT_BOUNDS))
def test_every_integer_key_has_an_upper_bound(key: str) -> None:
    _lo, hi, _optional = INT_BOUNDS[key]
    base = "attack" if key == "launcher_max_dry" else "classic"
    for bad in (hi + 1, HUGE, -HUGE, str(HUGE), float(HUGE), 10**5000):
        with pytest.raises(ConfigError) as info:
            preset(base, **{key: bad})
        assert f"to {hi}" in str(info.value) and len(str(info.value)) < 400


def test_bounds_are_shown_by_the_rules_command(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _err = run(capsys, "rules")
    assert rc == 0
    words = " ".join(out.split())  # as wrapped for any terminal width (80 under pytest -n)
    for key, (lo, hi, optional) in INT_BOUNDS.items():
        assert f"[{lo}..{hi}{' | none' if optional else ''}]" in words, key
    keys = Path(__file__).resolve().parent.parent / "docs" / "rules" / "keys.md"
    assert "| `target_score` | MATCH-1, MATCH-2 | an integer from 1 to 100000 |" in \
        keys.read_text(encoding="utf-8")


@pytest.mark.parametrize("value", ["0", "3601", "-5"])
def test_turn_timer_outside_1_to_3600_is_refused(capsys: pytest.CaptureFixture[str],
                                                 value: str) -> None:
    rc, out, err = run(capsys, "rules", "--set", f"turn_timer={value}")
    assert rc == 2 and out == ""
    assert "turn_timer" in err and "1 to 3600" in err
    assert preset("classic", turn_timer="off").turn_timer is None


# -- 2. NaN and infinities ------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["nan", "0.5,nan,0.5", "inf", "1,-inf", "[nan]"])
def test_non_finite_launcher_is_refused(capsys: pytest.CaptureFixture[str], value: str) -> None:
    rc, out, err = run(capsys, "rules", "attack", "--set", f"launcher={value}", "--json")
    assert rc == 2 and out == "" and "launcher" in err


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf")])
def test_non_finite_numbers_are_refused_everywhere(value: float) -> None:
    for key in INT_BOUNDS:
        with pytest.raises(ConfigError):
            preset("attack" if key == "launcher_max_dry" else "classic", **{key: value})
    with pytest.raises(ConfigError):
        preset("attack", launcher=[0.5, value, 0.5])
    with pytest.raises(RecordError, match="not a number"):
        read_json(json.dumps({"seed": value}))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_rules_json_is_strict_json(capsys: pytest.CaptureFixture[str], name: str) -> None:
    rc, out, _err = run(capsys, "rules", name, "--json")
    assert rc == 0
    json.loads(out, parse_constant=lambda c: pytest.fail(f"{c} in --json output"))


# -- 3. YAML bombs --------------------------------------------------------------------------------
def _alias_bomb(levels: int = 12) -> str:
    lines = ['    - &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    prev = "a"
    for i in range(1, levels):
        name = f"a{i}"
        lines.append(f"    - &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
        prev = name
    return "name: bomb\nrules: classic\nplayers:\n" + "\n".join(lines) + "\n"


def test_yaml_alias_bomb_is_refused_at_once(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "bomb.yaml"
    f.write_text(_alias_bomb())
    start = time.monotonic()
    with pytest.raises(ScenarioError, match="aliases"):
        load_scenarios(f)
    rc, out, _err = run(capsys, "scenario", "run", str(f))
    assert time.monotonic() - start < 10
    assert rc == 1 and "aliases" in out and len(out) < 1000


@pytest.mark.parametrize("text", [
    "name: deep\nplayers: " + "[" * 50_000 + "]" * 50_000 + "\n",
    "name: deep\nplayers: " + "{a: " * 5_000 + "1" + "}" * 5_000 + "\n",
    "name: big\nplayers: " + "9" * 6000 + "\n",
])
def test_deep_or_huge_yaml_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            text: str) -> None:
    f = tmp_path / "deep.yaml"
    f.write_text(text)
    rc, out, err = run(capsys, "scenario", "run", str(f))
    assert rc == 1 and "FAIL" in out and "Traceback" not in out + err
    assert len(out) < 1000


def test_scenario_errors_show_a_bounded_excerpt(tmp_path: Path) -> None:
    f = tmp_path / "long.yaml"
    f.write_text("name: long\nrules: classic\nseed: [" + ", ".join(["x" * 50] * 2000) + "]\n")
    with pytest.raises(ScenarioError) as info:
        load_scenarios(f)
    assert "expected an integer" in str(info.value) and len(str(info.value)) < 400


def test_error_excerpts_are_bounded() -> None:
    nested: list[Any] = []
    for _ in range(100_000):
        nested = [nested, nested]
    for value in (nested, "x" * 10**6, 10**5000, {i: i for i in range(10**4)}, b"\xff" * 10**5):
        assert len(excerpt(value)) <= EXCERPT_CHARS


# -- 4. the engine's boundary ---------------------------------------------------------------------
def _action(verb: Any, *args: Any, **kw: Any) -> Action | None:
    """An Action with odd fields; None where a compiled build refuses to construct it."""
    try:
        return Action(verb, *args, **kw)
    except TypeError:
        return None


BAD_ACTIONS: list[Any] = [a for a in [
    None, 1.0, float("nan"), b"draw", [0], {"verb": "draw"}, (0,), True, False, object(),
    "x" * 10_000, _action("play", (999,)), _action("play", (-1,)), _action("play", [1]),
    _action("fly"), _action("play", (1,), color=True), _action("play", (1,), color=9),
    _action("play", (1,), target=2.0), _action("catch", target=-7), _action("draw", uno=1),
    _action("play", (1,), power="fly"), _action("play", (1,), give=(500,)), _action(None),
] if a is not None]
BAD_SEATS: list[Any] = ["0", 1.0, True, False, [0], b"\x00", float("nan"), -1, 10, HUGE]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_apply_refuses_malformed_input_and_changes_nothing(name: str) -> None:
    game = Game(preset(name, players=3), 4, 1)
    before = game.fingerprint()
    for action in BAD_ACTIONS:
        with pytest.raises(IllegalAction) as info:
            game.apply(action)
        # a compiled Action may have coerced a field (color=True is colour 1) at construction
        assert info.value.code == "bad_action" or isinstance(action, Action), action
        assert len(str(info.value)) < 300
        assert game.fingerprint() == before
    for seat in BAD_SEATS:
        with pytest.raises(IllegalAction) as info:
            game.apply("draw", seat)
        assert info.value.code in ("bad_action", "bad_target"), seat
        assert game.fingerprint() == before


def test_a_bool_is_not_seat_one() -> None:
    game = Game(preset("classic", players=3), 4, 0)
    assert game.turn == 1
    with pytest.raises(IllegalAction, match="bad_action"):
        game.apply("draw", True)
    game.apply("draw", 1)  # the same action for the real seat 1 is legal


def test_integer_like_ids_and_seats_still_work() -> None:
    np = pytest.importorskip("numpy")
    game = Game(preset("classic", players=3), 4, 0)
    game.apply(np.int64(game.space.draw), np.int64(1))
    assert game.history[-1] == (1, game.space.draw)


# -- 5. records -----------------------------------------------------------------------------------
@pytest.fixture
def game_rec() -> dict[str, Any]:
    rec = json.loads(json.dumps(game_record(_finish(Game(preset("classic"), 3, 1)))))
    assert isinstance(rec, dict)
    return rec


@pytest.fixture
def match_rec() -> dict[str, Any]:
    m = Match(preset("classic", players=2, target_score=40), 2)
    while not m.is_over:
        _finish(m.game)
        m.finish_round()
    rec = json.loads(json.dumps(match_record(m)))
    assert isinstance(rec, dict)
    return rec


GAME_DAMAGE: list[tuple[str, Any]] = [
    ("scores", 5), ("scores", [0, 0]), ("scores", ["1", 0, 0, 0]), ("scores", [HUGE, 0, 0, 0]),
    ("actions", None), ("actions", 3), ("rules", None), ("rules", [1]), ("rules", {"x": 1}),
    ("seed", "7"), ("seed", None), ("seed", 1.5), ("seed", HUGE * HUGE), ("seed", True),
    ("dealer", "1"), ("dealer", 9), ("dealer", -1), ("dealer", True), ("version", True),
    ("setup", [1]), ("setup", {"hands": {"x": ["R1"]}}), ("setup", {"hands": {"0": [5]}}),
    ("setup", {"hands": {"0": "R1"}}), ("setup", {"turn": "0"}), ("setup", {"color": 3}),
    ("setup", {"direction": "up"}), ("setup", {"what": 1}), ("format", None),
]


@pytest.mark.parametrize(("key", "value"), GAME_DAMAGE)
def test_game_record_with_a_wrong_type_is_a_record_error(game_rec: dict[str, Any], key: str,
                                                         value: Any) -> None:
    bad = copy.deepcopy(game_rec)
    bad[key] = value
    with pytest.raises(RecordError) as info:
        replay_game(bad)
    # bounded: an unknown rule key's message lists every key once, and nothing of the record
    assert len(str(info.value)) < 300 + sum(len(k) + 2 for k in KEYS)


@pytest.mark.parametrize(("key", "value"), [
    ("rounds", None), ("rounds", [5]), ("rounds", [[["0", "draw"]]]), ("seed", "x"),
    ("seed", -HUGE * HUGE), ("rules", None), ("result", None), ("result", {"rounds": 1}),
])
def test_match_record_with_a_wrong_type_is_a_record_error(match_rec: dict[str, Any], key: str,
                                                          value: Any) -> None:
    bad = copy.deepcopy(match_rec)
    bad[key] = value
    with pytest.raises(RecordError):
        replay_match(bad)


def test_tampered_results_do_not_replay(game_rec: dict[str, Any],
                                        match_rec: dict[str, Any]) -> None:
    replay_game(game_rec)
    replay_match(match_rec)
    for change in (lambda r: r["result"]["scores"].__setitem__(0, r["result"]["scores"][0] + 5),
                   lambda r: r["result"].update(winner=(r["result"]["winner"] + 1) % 4),
                   lambda r: r.update(scores=[100, 0, 0, 0])):  # totals no longer add up
        bad = copy.deepcopy(game_rec)
        change(bad)
        with pytest.raises(RecordError, match="result does not match"):
            replay_game(bad)
    bad = copy.deepcopy(match_rec)
    bad["result"]["scores"][0] += 1
    with pytest.raises(RecordError, match="result does not match"):
        replay_match(bad)


# -- 6. saves, deep nesting, and the command line -------------------------------------------------
@pytest.fixture
def save_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("UNOARENA_HOME", str(tmp_path / "home"))
    from unoarena.tui.saves import save_table
    from unoarena.tui.session import Table, default_players

    rules = preset("classic", players=2)
    return save_table(Table(rules, default_players(rules, "basic"), 5))


@pytest.mark.parametrize(("change", "field"), [
    (lambda d: d["players"].__setitem__(1, "bob"), "players[1]"),
    (lambda d: d["players"][1].update(kind="alien"), "players[1].kind"),
    (lambda d: d["players"][0].update(name=["x"]), "players[0].name"),
    (lambda d: d.update(players=None), "players"),
    (lambda d: d.update(seed="1"), "seed"),
    (lambda d: d.update(match=[]), "match"),
    (lambda d: d["match"].update(seed=None), "seed"),
    (lambda d: d["match"]["rules"].update(target_score=HUGE), "target_score"),
])
def test_a_bad_save_says_which_field(save_file: Path, capsys: pytest.CaptureFixture[str],
                                     change: Any, field: str) -> None:
    data = json.loads(save_file.read_text())
    change(data)
    save_file.write_text(json.dumps(data))
    rc, out, err = run(capsys, "play", "--plain", "--resume", str(save_file))
    assert rc == 2 and out == "", err
    assert field in err and "Traceback" not in err and len(err) < 600


DEEP_JSON = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize("command", [["replay"], ["play", "--plain", "--resume"]])
@pytest.mark.parametrize("text", [DEEP_JSON, '{"format": "unoarena.save", "x": ' + DEEP_JSON
                                  + "}", '{"seed": NaN}', "\xff"])
def test_deep_or_broken_json_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       command: list[str], text: str) -> None:
    f = tmp_path / "bad.json"
    f.write_text(text, encoding="utf-8", errors="surrogateescape")
    rc, _out, err = run(capsys, *command, str(f))
    assert rc == 2 and "error:" in err and "Traceback" not in err and len(err) < 600


# -- A3. small draw piles -------------------------------------------------------------------------
def test_every_deal_starts_even_when_the_left_cards_cannot() -> None:
    """attack with 5 x 21 cards leaves 3 cards; some deals leave no number among them
    (START-7): the dealer deals again instead of turning the same cards for ever."""
    rules = preset("attack", players=5, hand_size=21)
    start = time.monotonic()
    for seed in range(300):
        g = Game(rules, seed, seed % 5)
        assert g.hand_sizes() == [21] * 5 and g.draw_pile_size == 2
    assert time.monotonic() - start < 20
    with pytest.raises(ValueError, match="turned over first"):
        Game(preset("classic", starter_w4="bottom"), 0, 0, setup=_only_w4_left())


def _only_w4_left() -> Setup:
    """A table whose draw pile holds only Wild Draw Fours: every other card is in a hand."""
    deck = list(preset("classic").deck.cards)
    w4 = parse_card("W4")
    rest = [k for k in deck if k != w4]
    hands = {s: rest[s::4] for s in range(4)}
    return Setup(hands=hands, starter=w4)


def test_void_rule_sets_that_can_end_are_kept() -> None:
    """5 players of 20 cards with deck_exhausted void: seven cards to draw, yet a round can
    end with a winner (scenarios/house/draw_pile.yaml plays one), so the rules stand."""
    rules = preset("house", deck_exhausted="void", players=5, hand_size=20)
    assert rules.hand_size * rules.players < rules.deck.size
    for key in KEYS:
        assert key in rules.to_dict()


# -- 8. what a draw reveals -----------------------------------------------------------------------
@pytest.mark.parametrize("name", ["classic", "buzz", "frozen2", "house"])
def test_a_kept_draw_looks_the_same_whether_it_fitted(name: str) -> None:
    """TURN-3: keeping a playable drawn card and drawing an unplayable one leave every other
    seat with the same view, history included (DIG-2)."""
    rules = preset(name, players=3)
    colors = "RYGP" if name == "frozen2" else "RYGB"
    blue = colors[3]

    def game(card: str) -> Game:
        hands = {0: [parse_card(f"{blue}1"), parse_card(f"{blue}2")],
                 1: [parse_card("G3"), parse_card("Y4")], 2: [parse_card("G5"), parse_card("Y6")]}
        return Game(rules, 1, 2, setup=Setup(hands=hands, discard=[parse_card("R5")],
                                             draw_pile=[parse_card(card)], turn=0))

    fits, misses = game("R9"), game("G9")
    fits.apply("draw", 0)
    assert fits.phase == "drawn"
    fits.apply("pass", 0)
    misses.apply("draw", 0)
    for seat in (1, 2):
        assert fits.view(seat, history=True) == misses.view(seat, history=True), seat
    assert fits.view(0)["hand"] != misses.view(0)["hand"]


def test_rule_set_errors_never_leak_other_exceptions() -> None:
    for data in (None, [], "classic", {1: 2}, {"preset": ["x"]}, {"preset": "classic", "x": 1},
                 {"players": [[[]]]}, {"edition": {"a": 1}}, {"launcher": "1," * 10_000}):
        with pytest.raises(ConfigError):
            RuleSet.from_dict(data)  # type: ignore[arg-type]
