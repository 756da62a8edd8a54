""""What would the expert play?": the strongest bot's choice and a one-line reason.

The expert is ``ismcts``'s rule applied to the evaluation of :mod:`unoarena.coach.evaluate`:
the heuristic's choice unless another action wins clearly more often. The reason quotes the
chances from the seat's own view, so a hint never reveals a hidden card. Hints are for games
against bots only: :func:`hints_allowed` says when a front end may offer them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import CODES, COLOR_CODES, Action, Game
from ..text.i18n import _
from ..text.rules import card_text, color_text
from .evaluate import Evaluation, Evaluator


@dataclass(frozen=True)
class Hint:
    """The expert's action and why, in the current language."""

    action: Action
    reason: str
    evaluation: Evaluation


def hints_allowed(people: int, rated: bool = False) -> bool:
    """Hints only where one person plays against bots: never in rated games, never where
    several people play (a hint would help one of them against the others)."""
    return people == 1 and not rated


def hint(game: Game, seat: int, evaluator: Evaluator | None = None) -> Hint:
    """The expert's choice for ``seat`` now, with a one-line reason."""
    e = (evaluator or Evaluator(samples=96)).evaluate(game, seat)
    return Hint(e.expert, reason_text(e), e)


def reason_text(e: Evaluation) -> str:
    """The one-line reason for the expert's choice of an evaluation, in the current language."""
    choice = e.choice_of(e.expert)
    what = action_words(e.expert)
    others = [c for c in e.choices if c.action != e.expert]
    if not others:
        return _("{action}: the only thing to do (wins about {p}% from here).").format(
            action=what, p=round(100 * choice.chance))
    alt = others[0]
    return _("{action}: wins about {p}% of the rounds played out from what you can see; "
             "next best, {alt}: {q}%.").format(action=what, p=round(100 * choice.chance),
                                               alt=action_words(alt.action),
                                               q=round(100 * alt.chance))


def action_words(a: Action) -> str:
    """An action in words for people: "play red 7 (UNO)", "draw", "challenge"."""
    cards = _(" + ").join(card_text(CODES[k]) for k in a.cards)
    verbs = {"draw": _("draw"), "pass": _("keep the drawn card (pass)"),
             "challenge": _("challenge"), "accept": _("accept the penalty"),
             "uno": _("call UNO")}
    if a.verb in verbs:
        return verbs[a.verb]
    if a.verb == "catch":
        return _("catch seat {n}").format(n=a.target)
    if a.verb == "color":
        return _("name {color}").format(color=color_text(COLOR_CODES[a.color]))
    text = (_("jump in with {cards}") if a.verb == "jump_in" else _("play {cards}")).format(
        cards=cards)
    if a.color >= 0:
        text += " " + _("naming {color}").format(color=color_text(COLOR_CODES[a.color]))
    if a.target >= 0:
        text += " " + _("at seat {n}").format(n=a.target)
    if a.uno:
        text += " " + _("(UNO)")
    return text
