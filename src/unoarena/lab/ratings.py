"""Bot ratings with openskill's Plackett-Luce model (a Bayesian rating for games of any number of
players, with an uncertainty per bot), updated game by game in a fixed order.

A round gives a finishing order: the winner first, then the others by the points left in their
hands (fewer is closer to going out; equal points share a place). A void round (TURN-6 ``void``)
has no winner and updates nobody. The order of updates is the tournament's schedule order, so
the same tournament gives the same ratings however its games were spread over processes.
The ranking number is the ordinal, ``mu - 3 sigma``: a bot climbs by winning, and by having
played enough games for its rating to be sure.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce


@dataclass(frozen=True)
class Rating:
    """One bot's openskill rating: mean skill ``mu`` and its uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: a conservative estimate, what the ranking sorts by."""
        return self.mu - 3 * self.sigma


def finishing_ranks(winner: int, hand_points: Sequence[int]) -> list[int]:
    """Place of every seat (0 = first): the winner, then fewer points left in hand first."""
    others = sorted({p for s, p in enumerate(hand_points) if s != winner})
    place = {p: i + 1 for i, p in enumerate(others)}
    return [0 if s == winner else place[p] for s, p in enumerate(hand_points)]


def rate(participants: int, games: Iterable[tuple[Sequence[int], Sequence[int]]]
         ) -> list[Rating]:
    """Ratings of ``participants`` after ``games``, each ``(who sat at each seat, the seats'
    places)``, applied in the order given."""
    model = PlackettLuce()
    ratings = [model.rating() for _ in range(participants)]
    for seats, places in games:
        teams = [[ratings[p]] for p in seats]
        new = model.rate(teams, ranks=[float(x) for x in places])
        for p, team in zip(seats, new, strict=True):
            ratings[p] = team[0]
    return [Rating(r.mu, r.sigma) for r in ratings]
