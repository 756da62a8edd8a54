"""The round's state: every field is copied by ``clone`` and seen by equality, or is declared
not to decide the round's future. A field added to ``State`` is covered without more code;
these tests fail if its declaration would let a clone share it or equality miss it."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from engine_checks import choose

from unoarena.engine import Game, RuleSet, preset
from unoarena.engine.actions import ActionSpace
from unoarena.engine.state import Outcome, State, Termination

#: Fields that do not decide what happens next: set-up facts, the rule set's derived flags and
#: caches, and logs. Equality skips exactly these.
NOT_COMPARED = {
    "rules", "seed", "dealer", "space", "n", "rows", "closing", "void_due", "simple",
    "w4_strict", "jump_on", "double", "special", "acts", "vcode", "scores", "events", "private",
    "history",
}
#: Values a clone may share with its original: immutable ones, and the rule set's row cache.
IMMUTABLE = (int, bool, str, tuple, type(None), Outcome, RuleSet, ActionSpace)
SHARED_BY_DESIGN = {"rows"}


def _played(rules: RuleSet, seed: int, steps: int) -> Game:
    game = Game(rules, seed, seed % rules.players)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        seat, aid = choose(game, rng, window=0.3, play_bias=0.6)
        game.step(aid, seat)
    return game


@pytest.fixture(params=[("classic", {}), ("frozen2", {"wild_powers": True}),
                        ("attack", {"seven_zero": True})], ids=lambda p: p[0])
def game(request: pytest.FixtureRequest) -> Game:
    name, kw = request.param
    return _played(preset(name, players=3, **kw), 7, 25)


def _fields() -> list[dataclasses.Field[Any]]:
    return list(dataclasses.fields(State))


def test_equality_skips_only_the_declared_fields() -> None:
    skipped = {f.name for f in _fields() if not f.compare}
    assert skipped == NOT_COMPARED, "a field's compare= changed: update NOT_COMPARED if meant"


def test_a_clone_copies_every_field_and_shares_nothing_mutable(game: Game) -> None:
    clone = game.clone()
    for f in _fields():
        mine, theirs = getattr(game.state, f.name), getattr(clone.state, f.name)
        if isinstance(mine, random.Random):
            assert mine is not theirs and mine.getstate() == theirs.getstate(), f.name
            continue
        assert mine == theirs, f"the clone's {f.name} differs"
        if f.name in SHARED_BY_DESIGN or isinstance(mine, IMMUTABLE):
            continue
        assert mine is not theirs, f"a clone shares the mutable field {f.name}"
        if f.name == "hands":
            assert all(a is not b for a, b in zip(mine, theirs, strict=True))


def _perturbed(name: str, value: Any) -> Any:
    """A different value of the same type."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, tuple):
        return (*value, 0)
    if isinstance(value, list):
        if value and isinstance(value[0], list):  # hands
            return [[*value[0], 0], *value[1:]]
        return [*value, value[0] if value else 0]
    if value is None or isinstance(value, Outcome):
        return Outcome(0, Termination.OUT, (1, 2, 3), (0, 0, 0))
    raise AssertionError(f"no perturbation for field {name} of type {type(value).__name__}")


def test_equality_notices_a_change_in_every_compared_field(game: Game) -> None:
    for f in _fields():
        if not f.compare:
            continue
        clone = game.clone()
        assert clone == game
        if f.name == "rng":
            clone.state.rng.random()
        else:
            setattr(clone.state, f.name, _perturbed(f.name, getattr(clone.state, f.name)))
        assert clone != game, f"equality misses a change of {f.name}"


def test_a_clone_is_independent_of_its_original(game: Game) -> None:
    clone = game.clone()
    rng = random.Random(3)
    while not clone.is_over and len(clone.history) < len(game.history) + 40:
        seat, aid = choose(clone, rng)
        clone.step(aid, seat)
    assert game == _played(game.rules, 7, 25)
