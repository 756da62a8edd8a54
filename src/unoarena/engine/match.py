"""A match: rounds until the rule set's match system ends it (SET-1, SET-2, MATCH-1..4, HR-SEATS,
HR-ELIM).

The match owns one seeded generator for dealer selection, seat shuffles and the seeds of its
rounds, so ``Match(rules, seed)`` plus the actions of every round rebuild it exactly (DIG-1).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from .cards import CODES, IS_NUMBER, KRANK
from .events import Event
from .game import Game, Outcome
from .rules import RuleSet


def settle(rules: RuleSet, scores_before: list[int], outcome: Outcome,
           rounds_played: int) -> tuple[list[int], bool, tuple[int, ...]]:
    """Add a round to the match scores; say whether the match is over and who won.

    ``scores_before`` and the result are per team with teams (MATCH-4), else per seat.
    ``rounds_played`` counts the round just settled.
    """
    scores = [a + b for a, b in zip(scores_before, outcome.scores, strict=True)]
    target = rules.target_score
    if rules.scoring == "winner":  # MATCH-1: first to the target wins
        over = max(scores) >= target or (rules.rounds is not None and
                                         rounds_played >= rules.rounds)
        best = max(scores)
        winners = tuple(i for i, s in enumerate(scores) if s == best) if over else ()
    elif rules.scoring == "penalty":  # MATCH-2: lowest total wins when someone reaches target
        over = (rounds_played >= rules.rounds if rules.rounds is not None
                else max(scores) >= target)
        low = min(scores)
        winners = tuple(i for i, s in enumerate(scores) if s == low) if over else ()
    else:  # MATCH-3 chips: after `rounds` rounds the most chips wins
        over = rules.rounds is not None and rounds_played >= rules.rounds
        best = max(scores)
        winners = tuple(i for i, s in enumerate(scores) if s == best) if over else ()
    return scores, over, winners


def eliminated(rules: RuleSet, outcome: Outcome, hand_sizes: Sequence[int]) -> tuple[int, ...]:
    """HR-ELIM: the seats a finished round puts out: every seat but the round's winner that holds
    the most points (or cards) in hand, all of them on a tie; nobody when that would be every
    seat (a void round where all hold the same)."""
    if rules.elimination == "off":
        return ()
    held = outcome.hand_points if rules.elimination == "points" else hand_sizes
    others = [s for s in range(len(held)) if s != outcome.winner]
    if not others:
        return ()
    most = max(held[s] for s in others)
    out = tuple(s for s in others if held[s] == most)
    return () if len(out) == len(held) else out


def first_dealer(rules: RuleSet, rng: random.Random) -> tuple[int, list[Event]]:
    """SET-1: each player draws a card; the highest number deals; ties draw again."""
    n = rules.players
    if rules.first_dealer == "random":
        d = int(rng.random() * n)
        return d, [{"t": "dealer", "seat": d, "how": "random"}]
    events: list[Event] = []
    contenders = list(range(n))
    while True:
        deck = rules.deck.deck()
        rng.shuffle(deck)
        drawn = {s: deck.pop() for s in contenders}
        events.append({"t": "dealer_draw", "cards": [[s, CODES[c]] for s, c in drawn.items()]})
        value = {s: KRANK[c] if IS_NUMBER[c] else 0 for s, c in drawn.items()}
        best = max(value.values())
        contenders = [s for s in contenders if value[s] == best]
        if len(contenders) == 1:
            events.append({"t": "dealer", "seat": contenders[0], "how": "high_card"})
            return contenders[0], events


@dataclass
class RoundResult:
    """One finished round of a match: who dealt, the round's seed, the seating, its outcome (scores
    per seat) and the ``(seat, action id)`` moves that replay it."""

    dealer: int
    seed: int
    seats: list[int]  # seats[player] = the seat that player had this round (HR-SEATS), -1: out
    outcome: Outcome
    actions: list[tuple[int, int]] = field(default_factory=list)
    out: tuple[int, ...] = ()  # the players this round put out (HR-ELIM)
    #: the rules the round was dealt under: the match's, for fewer players under HR-ELIM
    table: RuleSet | None = field(default=None, repr=False, compare=False)


class Match:
    """Rounds of :class:`Game` with running scores. Players are 0..n-1; with seat exchange
    (HR-SEATS) their seats may change between rounds, so scores are kept per player. Under
    elimination (HR-ELIM) a player put out leaves the table (``seat_of`` -1) and the next round
    is dealt to the others, seated in the same order: :attr:`table_rules` is the match's rule
    set for that many players."""

    def __init__(self, rules: RuleSet, seed: int = 0, *, record_events: bool = True) -> None:
        self.rules = rules
        self.seed = seed
        self._rng = random.Random(seed)
        self._record_events = record_events
        n = rules.players
        self.seat_of: list[int] = list(range(n))  # player -> seat, -1 once out (HR-ELIM)
        self.table_rules = rules  # the rules of the current table (fewer players under HR-ELIM)
        self.dealer, self.dealer_events = first_dealer(rules, self._rng)
        self.scores: list[int] = [0] * (rules.team_count or n)
        self.results: list[RoundResult] = []
        self.is_over = False
        self.winners: tuple[int, ...] = ()
        self.game = self._new_game()

    @property
    def rounds_played(self) -> int:
        """How many rounds have been scored so far."""
        return len(self.results)

    def _new_game(self) -> Game:
        seed = self._rng.getrandbits(63)
        return Game(self.table_rules, seed, self.dealer, scores=self._seat_scores(),
                    record_events=self._record_events)

    def _seat_scores(self) -> list[int]:
        if self.rules.teams:
            return [self.scores[self.rules.team_of(s)] for s in range(self.rules.players)]
        by_seat = [0] * self.table_rules.players
        for p, s in enumerate(self.seat_of):
            if s >= 0:
                by_seat[s] = self.scores[p]
        return by_seat

    @property
    def players_left(self) -> list[int]:
        """The players still at the table (all of them unless HR-ELIM put some out)."""
        return [p for p, s in enumerate(self.seat_of) if s >= 0]

    def player_at(self, seat: int) -> int:
        """The player sitting at ``seat`` this round (the inverse of ``seat_of``)."""
        return self.seat_of.index(seat)

    def finish_round(self) -> RoundResult:
        """Score the finished round; start the next one unless the match is over."""
        g = self.game
        if not g.is_over or g.outcome is None:
            raise ValueError("the round is not over yet")
        out = g.outcome
        rules = self.rules
        if rules.teams:
            round_scores = list(out.scores)
        else:  # outcome scores are per seat; match scores are per player
            round_scores = [out.scores[s] if s >= 0 else 0 for s in self.seat_of]
        gone = tuple(self.player_at(s) for s in eliminated(rules, out, g.hand_sizes()))
        res = RoundResult(self.dealer, g.seed, list(self.seat_of), out, list(g.history), gone,
                          g.rules)
        self.results.append(res)
        per_player = Outcome(out.winner, out.reason, out.hand_points, tuple(round_scores))
        self.scores, self.is_over, self.winners = settle(rules, self.scores, per_player,
                                                         self.rounds_played)
        if rules.elimination != "off":  # HR-ELIM: the last player left wins
            left = [p for p in self.players_left if p not in gone]
            self.is_over = len(left) == 1
            self.winners = tuple(left) if self.is_over else ()
        if not self.is_over:
            n = g.players
            # SET-2: the deal passes to the left, or to the winner (followed across a reseat);
            # under HR-ELIM to the next player left at the table
            if rules.next_dealer == "winner" and out.winner is not None:
                dealer_player = self.player_at(out.winner)
            else:
                seat = (self.dealer + 1) % n
                while self.player_at(seat) in gone:
                    seat = (seat + 1) % n
                dealer_player = self.player_at(seat)
            if gone:  # HR-ELIM: the others close up, in the same order
                order = sorted(self.players_left, key=lambda p: self.seat_of[p])
                self.seat_of = [-1] * rules.players
                for s, p in enumerate(q for q in order if q not in gone):
                    self.seat_of[p] = s
                self.table_rules = rules.replace(players=len(order) - len(gone))
            k = self.table_rules.players
            if rules.seat_exchange and self.rounds_played % rules.seat_exchange == 0:
                perm = list(range(k))  # HR-SEATS: shuffle who sits where
                self._rng.shuffle(perm)
                self.seat_of = [perm[s] if s >= 0 else -1 for s in self.seat_of]
            self.dealer = self.seat_of[dealer_player]
            self.game = self._new_game()
        return res
