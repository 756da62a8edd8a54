"""The kernel against the reference engine, action by action.

:func:`random_rules` draws rule sets over every key (``RuleSet`` decides which combinations are
valid); :func:`compare_round` deals the same round on both, lets random seats take random legal
actions, and after every action compares the whole state: hands in order, both piles, colour,
direction, turn, phase, pending penalty and its chain, edition effect, open windows, the
generator's state, the legal ids of every seat that may act, and the outcome. The CI test runs
a time-bounded sample; ``scripts/kernel_differential.py`` runs the long version.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..engine import ConfigError, Game, RuleSet, preset
from ..engine.rules import _BOOLS, _CHOICES, _INTS, _OPTIONAL_INTS, PRESETS
from .single import KernelGame, reference_snapshot

# integer keys: values worth drawing (small ones end matches and make penalties bite)
_INT_DRAWS: dict[str, tuple[int, ...]] = {
    "players": tuple(range(2, 11)),
    "hand_size": (1, 2, 3, 5, 7, 7, 7, 9, 12, 15),
    "uno_penalty": (0, 1, 2, 4),
    "false_uno_penalty": (0, 1, 2),
    "misplay_penalty": (0, 1, 2),
    "timer_penalty": (0, 1, 2),
    "target_score": (1, 50, 200, 500),
    "teams": (0, 0, 0, 2, 3, 5),
    "seat_exchange": (0, 0, 1, 2),
}
_OPTIONAL_DRAWS: dict[str, tuple[int | None, ...]] = {
    "turn_timer": (None, None, 30),
    "rounds": (None, None, 1, 2, 3),
    "launcher_max_dry": (None, 1, 2, 4, 8),
    "hand_limit": (None, None, 8, 10, 16, 25),
}


@dataclass(frozen=True)
class Difference:
    """Where the kernel and the reference first disagreed."""

    rules: RuleSet
    seed: int
    dealer: int
    action: int  # how many actions had been applied
    what: str
    detail: dict[str, Any]

    def __str__(self) -> str:
        over = self.rules.overrides()
        spec = self.rules.preset + (":" + ",".join(f"{k}={v}" for k, v in over.items())
                                    if over else "")
        return (f"{self.what} after {self.action} actions (rules {spec}, seed {self.seed}, "
                f"dealer {self.dealer}): {self.detail}")


def random_rules(rng: random.Random, tries: int = 200) -> RuleSet:
    """A valid rule set with every key drawn at random around a random preset."""
    for _ in range(tries):
        name = rng.choice(sorted(PRESETS))
        over: dict[str, Any] = {}
        for key, choices in _CHOICES.items():
            if rng.random() < 0.35:
                over[key] = rng.choice(choices)
        for key in _BOOLS:
            if rng.random() < 0.35:
                over[key] = rng.random() < 0.5
        for key in _INTS:
            if rng.random() < 0.5:
                over[key] = rng.choice(_INT_DRAWS.get(key, (_INTS[key][0],)))
        for key in _OPTIONAL_INTS:
            if rng.random() < 0.4:
                over[key] = rng.choice(_OPTIONAL_DRAWS.get(key, (None,)))
        if rng.random() < 0.3:
            over["launcher"] = _random_launcher(rng)
        if "players" not in over and rng.random() < 0.5:
            over["players"] = rng.choice((2, 3, 4, 5, 6))
        try:
            return preset(name, **over)
        except ConfigError:
            continue
    return preset("classic")


def _random_launcher(rng: random.Random) -> tuple[float, ...]:
    size = rng.randint(2, 9)
    weights = [rng.random() for _ in range(size)]
    weights[0] += 0.2
    total = sum(weights)
    probs = [w / total for w in weights]
    probs[-1] = 1.0 - sum(probs[:-1])
    return tuple(max(0.0, p) for p in probs)


def compare_round(rules: RuleSet, seed: int, dealer: int, rng: random.Random,
                  max_actions: int = 2_000) -> tuple[int, Difference | None]:
    """Play one round on both engines with random legal actions from random eligible seats;
    return how many actions were compared and the first difference, if any."""
    ref = Game(rules, seed, dealer, record_events=False)
    ker = KernelGame(rules, seed, dealer)

    def diff(done: int, what: str, **detail: Any) -> tuple[int, Difference]:
        return done, Difference(rules, seed, dealer, done, what, detail)

    def state_diff(done: int, last: str) -> tuple[int, Difference] | None:
        a, b = reference_snapshot(ref), ker.snapshot()
        if a != b:
            keys = [k for k in a if a[k] != b[k]]
            shown = {k: (a[k], b[k]) for k in keys if k != "rng"}
            return diff(done, "state", after=last, fields=keys, values=shown)
        return None

    found = state_diff(0, "deal")
    if found:
        return found
    done = 0
    while not ref.is_over and done < max_actions:
        seats = [ref.turn, *ref.window_seats()]
        kseats = [ker.turn, *ker.window_seats()]
        if seats != kseats:
            return diff(done, "seats that may act", reference=seats, kernel=kseats)
        for seat in range(rules.players):
            ids, kids = ref.legal_ids(seat), ker.legal_ids(seat)
            if ids != kids:
                acts = ref.space.actions
                return diff(done, "legal ids", seat=seat,
                            only_reference=[str(acts[i]) for i in sorted(set(ids) - set(kids))],
                            only_kernel=[str(acts[i]) for i in sorted(set(kids) - set(ids))])
        seat = seats[int(rng.random() * len(seats))]
        ids = ref.legal_ids(seat)
        if rules.turn_timer is not None and seat == ref.turn and rng.random() < 0.02:
            aid = ref.space.timeout  # HR-TIMER: never listed, always possible
        else:
            aid = ids[int(rng.random() * len(ids))]
        ref.step(aid, seat)
        ker.step(aid, seat)
        done += 1
        found = state_diff(done, f"seat {seat}: {ref.space.actions[aid]}")
        if found:
            return found
    return done, None
