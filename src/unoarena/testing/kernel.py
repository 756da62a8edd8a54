"""The kernel against the reference engine, action by action.

:func:`unoarena.testing.random_rules` draws rule sets over every key (``RuleSet`` decides
which combinations are valid); :func:`compare_round` deals the same round on both, lets
random seats take random legal actions, and after every action compares the whole state:
hands in order, both piles, colour, direction, turn, phase, pending penalty and its chain,
edition effect, open windows, the generator's state, the legal ids of every seat that may
act, and the outcome. The CI test runs a time-bounded sample;
``scripts/kernel_differential.py`` runs the long version.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..engine import Game, RuleSet
from ..kernel.single import KernelGame, reference_snapshot

__all__ = ["Difference", "compare_round"]

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
