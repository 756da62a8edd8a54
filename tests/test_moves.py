"""The fast and the general move generators agree.

``moves.play_ids`` has a table-driven fast path for rule sets whose plays are single cards
with no target and no finish rule (``State.simple``); the general path handles every rule.
On rule sets the fast path serves, both must give the same legal ids, and the same verdict on
a drawn card, at every position: here over rule sets, player counts and positions reached by
random play, within a fixed budget (hypothesis, derandomized, so CI runs the same cases)."""

from __future__ import annotations

import random
from typing import Any

from engine_checks import choose
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unoarena.engine import Game, RuleSet, preset
from unoarena.engine.moves import legal_ids, playable_drawn
from unoarena.engine.state import State

#: Rule keys whose every value the fast generator serves, with those values.
SIMPLE_KEYS: dict[str, tuple[Any, ...]] = {
    "voluntary_draw_play": ("may", "may_not"),
    "draw_count": ("one", "until_playable"),
    "deck_exhausted": ("reshuffle", "void"),
    "starter_wild_chooser": ("next", "dealer"),
    "starter_reverse": ("dealer_first", "dealer_played"),
    "stacking": ("off", "draw2", "deflect"),
    "jump_in": (False, True),
    "uno_penalty": (0, 2),
    "false_uno_penalty": (0, 2),
}
#: The W4 keys, as the combinations rule sets accept.
W4_KEYS: tuple[dict[str, Any], ...] = (
    {"w4_rule": "restricted", "wd4_challenge": True},
    {"w4_rule": "restricted", "wd4_challenge": False},
    {"w4_rule": "free", "wd4_challenge": False},
    {"w4_rule": "free", "wd4_challenge": False, "stack_draw4": True},
)
BUDGET = settings(max_examples=120, deadline=None, derandomize=True,
                  suppress_health_check=[HealthCheck.too_slow])


@st.composite
def simple_rules(draw: st.DrawFn) -> RuleSet:
    """A rule set served by the fast generator: any edition but Attack, any simple keys."""
    edition = draw(st.sampled_from(("classic", "buzz", "frozen2")))
    kw: dict[str, Any] = {k: draw(st.sampled_from(v)) for k, v in SIMPLE_KEYS.items()}
    kw.update(draw(st.sampled_from(W4_KEYS)))
    if kw["stacking"] != "off" and kw["w4_rule"] == "free":
        kw["draw4_on_draw2"] = draw(st.booleans())
    kw["players"] = draw(st.sampled_from((2, 3, 4, 6, 10)))
    kw["hand_size"] = draw(st.sampled_from((1, 3, 7)))
    return preset("classic" if edition == "classic" else edition, **kw)


def general(state: State) -> State:
    """The same position, with the fast generator turned off."""
    copy = state.copy()
    copy.simple = False
    return copy


def check_position(game: Game) -> int:
    """Compare both generators for every seat; the number of comparisons made."""
    s = game.state
    slow = general(s)
    checks = 0
    for seat in range(s.n):
        assert legal_ids(s, seat) == legal_ids(slow, seat), (
            f"{game!r}: the generators disagree for seat {seat}")
        for k in set(s.hands[seat]):
            assert playable_drawn(s, seat, k) == playable_drawn(slow, seat, k), (
                f"{game!r}: the generators disagree on drawing kind {k} for seat {seat}")
        checks += 1
    return checks


@BUDGET
@given(rules=simple_rules(), seed=st.integers(0, 2**32 - 1))
def test_fast_and_general_generators_agree(rules: RuleSet, seed: int) -> None:
    game = Game(rules, seed, seed % rules.players, record_events=False)
    assert game.state.simple, "the strategy must only build rule sets the fast path serves"
    rng = random.Random(seed)
    checks = check_position(game)
    while not game.is_over and len(game.history) < 400:
        seat, aid = choose(game, rng, window=0.3, play_bias=0.5)
        game.step(aid, seat)
        checks += check_position(game)
    assert checks >= rules.players


def test_the_general_generator_is_reached() -> None:
    """The comparison means something: with ``simple`` off the fast table is never read."""
    game = Game(preset("classic", players=2), 1)
    slow = general(game.state)
    slow.rows = {}
    legal_ids(slow, slow.turn)
    assert slow.rows == {}
    legal_ids(game.state, game.state.turn)
    assert game.state.rows, "the fast path fills its table"
