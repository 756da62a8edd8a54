"""The review of a finished round: for each decision, the chance before and after, the best
alternative, and a label when the choice lost much.

Thresholds (points of win chance lost against the best action, 100 points = certain win):

* inaccuracy: 5 or more, mistake: 10 or more, blunder: 20 or more;
* and in every case more than two standard errors of the paired difference, so that rollout
  noise alone never names a mistake.

A Wild Draw Four's challenge is shown but not judged (no label, not counted in accuracy): in a
determinization the guilt of the Wild Draw Four follows the sampled hand, which knows nothing of
how rarely a player bluffs, so the estimate favours challenging far more than real tables
reward it (the search bot leaves this decision to its rule-based policy for the same reason).

"Chance before" is the best action's chance (what the position offered), "chance after" the
chance of the action taken; each is estimated from the seat's own view at that moment
(:mod:`unoarena.coach.evaluate`), never from the record's hidden cards. The record's hidden
information is used only afterwards, for :attr:`Review.winner` (what really happened).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..engine import TIME_UP_TEXT, Action, Game, Match, RuleSet
from ..text.i18n import N_, _
from .evaluate import Evaluation, Evaluator

#: (label, points lost at least), worst first.
THRESHOLDS: tuple[tuple[str, float], ...] = (("blunder", 20.0), ("mistake", 10.0),
                                             ("inaccuracy", 5.0))
LABEL_WORDS = {"blunder": N_("blunder"), "mistake": N_("mistake"),
               "inaccuracy": N_("inaccuracy")}
#: A choice this close to the best (points) counts as accurate.
ACCURATE = 2.0


def label_for(loss: float, se: float) -> str:
    """The label of a choice that lost ``loss`` points with standard error ``se`` (points);
    "" when it lost too little, or too little to tell from noise."""
    if loss <= 2.0 * se:
        return ""
    for name, at in THRESHOLDS:
        if loss >= at:
            return name
    return ""


@dataclass(frozen=True)
class Decision:
    """One reviewed decision of a seat."""

    index: int  # the action's position in the round, from 0
    seat: int
    action: Action
    before: float  # best action's chance, 0..1
    after: float  # the chance of the action taken
    best: Action  # the best alternative (another action than the one taken), or the taken one
    best_chance: float
    loss: float  # points (0..100) lost against the best action
    label: str
    forced: bool  # only one action was possible
    judged: bool = True  # False: shown, but neither labelled nor counted (a W4 challenge)


@dataclass
class Summary:
    """A seat's decisions summed up."""

    seat: int
    decisions: int = 0
    choices: int = 0  # decisions with an alternative
    accurate: int = 0
    labels: dict[str, int] = field(default_factory=lambda: {n: 0 for n, _a in THRESHOLDS})
    lost: float = 0.0  # points lost in all

    @property
    def accuracy(self) -> float:
        """Share of real choices within :data:`ACCURATE` points of the best (0..100)."""
        return 100.0 * self.accurate / self.choices if self.choices else 100.0


@dataclass
class Review:
    """A reviewed round: its decisions (of the chosen seats), summaries and the true outcome."""

    rules: RuleSet
    decisions: list[Decision]
    summaries: dict[int, Summary]
    winner: int | None
    actions: int

    def chart(self, seat: int) -> list[tuple[int, float]]:
        """(action index, chance after in %) for a seat: the line the chart draws."""
        return [(d.index, 100.0 * d.after) for d in self.decisions if d.seat == seat]


def round_moves(rec: Mapping[str, Any], round_no: int = 0
                ) -> tuple[Game, list[tuple[int, Action | None]]]:
    """The start of a round of a (checked) game or match record and its moves; ``None`` for a
    move is the round's time running out (HR-BLITZ)."""
    rules = RuleSet.from_dict(rec["rules"])

    def moves(raw: list[Any]) -> list[tuple[int, Action | None]]:
        return [(int(s), None if a == TIME_UP_TEXT else Action.parse(a)) for s, a in raw]

    if rec["format"] == "unoarena.game":
        from ..engine import iter_game
        start = next(iter(iter_game(rec)))[0]
        if round_no:
            raise ValueError(_("a game record holds one round (round 1)"))
        return start.clone(), moves(rec["actions"])
    rounds = rec["rounds"]
    if not 0 <= round_no < len(rounds):
        raise ValueError(_("round {n} is not in this record: it has rounds 1 to {last}").format(
            n=round_no + 1, last=len(rounds)))
    m = Match(rules, rec["seed"])
    for r in range(round_no):
        for seat, act in moves(rounds[r]):
            _apply(m.game, seat, act)
        if m.game.is_over:
            m.finish_round()
    return m.game.clone(), moves(rounds[round_no])


def _apply(game: Game, seat: int, act: Action | None) -> None:
    if act is None:
        game.time_up()
    else:
        game.apply(act, seat)


def review_round(start: Game, moves: list[tuple[int, Action | None]], seats: set[int] | None,
                 evaluator: Evaluator | None = None,
                 progress: Callable[[int, int], None] | None = None) -> Review:
    """Review every decision of ``seats`` (all when None) in a round; ``progress(done, total)``
    is called after each one."""
    ev = evaluator or Evaluator()
    game = start.clone()
    rules = game.rules
    todo = [i for i, (s, a) in enumerate(moves) if a is not None and (seats is None or s in seats)]
    summaries = {s: Summary(s) for s in (seats if seats is not None else range(game.players))}
    decisions: list[Decision] = []
    done = 0
    for i, (seat, act) in enumerate(moves):
        if act is not None and i in todo:
            decisions.append(_decide(ev, game, i, seat, act, summaries[seat]))
            done += 1
            if progress is not None:
                progress(done, len(todo))
        _apply(game, seat, act)
    out = game.outcome
    return Review(rules, decisions, summaries, out.winner if out is not None else None,
                  len(moves))


def _decide(ev: Evaluator, game: Game, index: int, seat: int, act: Action,
            summary: Summary) -> Decision:
    legal = [a for a in game.legal_actions(seat) if a.verb != "timeout"]
    e = ev.evaluate(game, seat, include=[act])
    taken = _stand_in(e, act)
    forced = len(legal) == 1 or len(e.choices) == 1
    judged = not forced and not any(a.verb == "challenge" for a in legal)
    best = e.best
    others = [c for c in e.choices if c.action != taken.action]
    alt = others[0] if others else taken
    loss = max(0.0, 100.0 * (best.chance - taken.chance))
    label = label_for(loss, 100.0 * taken.diff_se) if judged else ""
    summary.decisions += 1
    if judged:
        summary.choices += 1
        summary.accurate += loss < ACCURATE
        summary.lost += loss
        if label:
            summary.labels[label] += 1
    return Decision(index, seat, act, best.chance, taken.chance, alt.action, alt.chance, loss,
                    label, forced, judged)


def _stand_in(e: Evaluation, act: Action) -> Any:
    """The compared choice for the action taken (a play's UNO twin when only that was
    compared)."""
    for a in (act, act.with_uno(), act.without_uno()):
        try:
            return e.choice_of(a)
        except KeyError:
            continue
    return e.best


def iter_labels() -> Iterator[tuple[str, str]]:
    """(label, its words in the current language), worst first."""
    for name, _at in THRESHOLDS:
        yield name, _(LABEL_WORDS[name])
