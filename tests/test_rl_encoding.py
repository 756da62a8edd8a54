"""The observation encoding: layout, agreement with the seat's view, hidden information (DIG-2),
and the generated documentation."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from unoarena.encoding import ENCODING_VERSION, Encoder, History, layout  # noqa: E402
from unoarena.engine import Action, Game, Setup, parse_card, preset  # noqa: E402
from unoarena.rl.table import Table  # noqa: E402
from unoarena.testing import load_script  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PRESETS = ("classic", "buzz", "frozen2", "house", "attack")
# rule sets that reach every field: effects, penalties, teams, jump-in windows, swaps
VARIANTS = [
    *((p, 2, {}) for p in PRESETS),
    *((p, 4, {}) for p in PRESETS),
    ("classic", 3, {"jump_in": True}),
    ("house", 4, {"teams": 2, "jump_in": True, "sum_jump_in": "any_color"}),
    ("house", 3, {"seven_zero": True, "wild_powers": True}),
    ("classic", 5, {"stacking": "draw2", "double_play": True, "false_uno_penalty": 2}),
    ("classic", 3, {"open_hands": 3}),
]


def states(rules, seed: int, plies: int, history: int = 0):
    """Random legal play through a Table (window turns included): yields the table before each
    action."""
    t = Table(rules, episode="match", history=history)
    rng = random.Random(seed)
    t.start(seed)
    for _ in range(plies):
        if t.done:
            t.start(rng.getrandbits(32))
        yield t
        t.step(rng.choice(t.legal))


def test_layout_is_contiguous_and_versioned() -> None:
    assert isinstance(ENCODING_VERSION, int) and ENCODING_VERSION >= 1
    for p in PRESETS:
        for n in (2, 4, 10):
            rules = preset(p, players=n)
            fields = layout(rules, history=2, seer=True)
            off = 0
            for f in fields:
                assert f.offset == off and f.size > 0 and f.low < f.high, f
                off += f.size
            assert len({f.name for f in fields}) == len(fields)
            enc = Encoder(rules)
            assert enc.size == sum(f.size for f in layout(rules))
            assert not enc.seer and "seer_draw_pile" not in enc.by_name


@pytest.mark.parametrize(("name", "n", "over"), VARIANTS,
                         ids=[f"{p}-{n}-{'+'.join(o) or 'base'}" for p, n, o in VARIANTS])
def test_fast_encoding_equals_view_encoding(name: str, n: int, over: dict) -> None:
    """The fast path reads the game; the reference reads only ``Game.view(seat)``: the
    same vector proves the encoding holds nothing a view does not."""
    rules = preset(name, players=n, **over)
    enc = Encoder(rules, history=3)
    for i, t in enumerate(states(rules, seed=n * 31 + len(over), plies=600, history=3)):
        g = t.game
        for seat in range(n):
            acting = seat == t.actor
            fast = enc.encode(g, seat, window=acting and t.window, history=t.history,
                              legal=t.legal if acting else None)
            ref = enc.encode_view(g.view(seat), window=acting and t.window, history=t.history)
            if not np.array_equal(fast, ref):
                diff = [f.name for f in enc.fields
                        if not np.array_equal(fast[f.slice], ref[f.slice])]
                raise AssertionError(f"{name} {n}p {over} ply {i} seat {seat}: {diff}")
            assert fast.dtype == np.float32
            assert np.all(fast >= enc.low) and np.all(fast <= enc.high), (name, i, seat)


def _rebuild(g: Game, hands: dict[int, list[int]], pile: list[int]) -> Game:
    return Game(g.rules, g.seed, g.dealer, record_events=False,
                setup=Setup(hands=hands, discard=g.discard_pile, color=g.color,
                            draw_pile=pile, turn=g.turn, direction=1 if g.direction == "cw"
                            else -1))


@pytest.mark.parametrize("name", PRESETS)
def test_hidden_cards_do_not_change_the_encoding(name: str) -> None:
    """DIG-2: two tables that differ only in cards the seat cannot see (other hands, the draw
    pile's order and content) give the seat the same observation; the seer's differ."""
    rules = preset(name, players=3)
    rng = random.Random(7)
    plain, seer = Encoder(rules), Encoder(rules, seer=True)
    checked = 0
    for t in states(rules, seed=11, plies=400):
        g = t.game
        if g.phase != "play" or g.pending is not None or g.effect is not None or rng.random() < 0.8:
            continue
        me = g.turn
        hands = {s: g.hand(s) for s in range(3)}
        pile = g.draw_pile()
        if sum(map(len, hands.values())) + len(pile) + len(g.discard_pile) != rules.deck.size:
            continue  # the engine lost or made a card (ED-5): not a state a table can hold
        a = _rebuild(g, hands, pile)
        hidden = [c for s in range(3) if s != me for c in hands[s]] + pile
        rng.shuffle(hidden)
        moved = {me: hands[me]}
        for s in range(3):
            if s != me:
                moved[s], hidden = hidden[:len(hands[s])], hidden[len(hands[s]):]
        b = _rebuild(g, moved, hidden)
        assert a.hand_sizes() == b.hand_sizes() and a.hand(me) == b.hand(me)
        assert np.array_equal(plain.encode(a, me), plain.encode(b, me))
        other = (me + 1) % 3
        if sorted(a.hand(other)) != sorted(b.hand(other)):
            assert not np.array_equal(seer.encode(a, me), seer.encode(b, me))
        checked += 1
    assert checked >= 3


def test_hidden_cards_fixed_setup() -> None:
    """The same check on a hand-made table: seat 1's hand and the draw pile differ."""
    rules = preset("classic", players=2)
    c = parse_card
    mine = [c(x) for x in ("R1", "R2", "G5", "B7", "W")]
    one = dict(hands={0: mine, 1: [c(x) for x in ("Y1", "Y2", "Y3")]},
               discard=[c("R9")], draw_pile=[c("G1"), c("G2")], turn=0)
    two = dict(hands={0: mine, 1: [c(x) for x in ("B1", "W4", "GS")]},
               discard=[c("R9")], draw_pile=[c("Y9"), c("B2")], turn=0)
    hist_a, hist_b = History(4), History(4)
    enc = Encoder(rules, history=4)
    ga = Game(rules, 1, setup=Setup(**one), record_events=False)
    gb = Game(rules, 2, setup=Setup(**two), record_events=False)
    for step in ("play R2", "draw"):
        assert np.array_equal(enc.encode(ga, 0, history=hist_a), enc.encode(gb, 0, history=hist_b))
        seat = ga.turn
        for g, h in ((ga, hist_a), (gb, hist_b)):
            aid = g.space.id(Action.parse(step))
            before = g.hand_sizes()
            g.apply(aid, seat)
            h.record(seat, aid, before, g.hand_sizes())
        assert np.array_equal(enc.encode(ga, 0, history=hist_a), enc.encode(gb, 0, history=hist_b))


def test_seer_is_opt_in_and_shows_hands() -> None:
    rules = preset("classic", players=2)
    g = Game(rules, 3, record_events=False)
    enc = Encoder(rules, seer=True)
    obs = enc.encode(g, 0)
    assert enc.field(obs, "seer_hand1").sum() == len(g.hand(1))
    assert enc.field(obs, "seer_draw_pile").sum() == g.draw_pile_size
    assert Encoder(rules).size < enc.size
    with pytest.raises(ValueError, match="seer"):
        enc.encode_view(g.view(0))


def test_relative_seats() -> None:
    rules = preset("classic", players=4)
    g = Game(rules, 5, record_events=False)
    enc = Encoder(rules)
    for seat in range(4):
        obs = enc.encode(g, seat)
        turn = enc.field(obs, "turn")
        assert turn[(g.turn - seat) % 4] == 1 and turn.sum() == 1
        assert enc.field(obs, "hand").sum() == len(g.hand(seat))
        assert enc.field(obs, "hand_sizes")[0] == len(g.hand(seat))


def test_observations_doc_is_up_to_date() -> None:
    mod = load_script(ROOT / "scripts" / "gen_obs_docs.py")
    doc = ROOT / "docs" / "observations.md"
    assert doc.read_text(encoding="utf-8") == mod.render(), (
        "docs/observations.md is out of date: run python scripts/gen_obs_docs.py")
