"""A person's choices in words, with the players' names: what plain mode reads out ("play the
red 7 and swap hands with Anna"), and what the table's dialogs say.

The engine lists a play once with the UNO call and once without, and a wild once per colour;
people choose the play first, then the colour and whether to call UNO, so :func:`choices` folds
those variants into one choice each.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..engine import CODES, COLOR_CODES, Action, Event, Game
from ..text.i18n import _
from ..text.rules import card_text, color_text
from .session import Table


@dataclass
class Choice:
    """One thing a person may do, and the legal actions it stands for (its colours, its UNO
    call or not)."""

    text: str
    actions: list[Action] = field(default_factory=list)

    @property
    def colors(self) -> list[str]:
        """The colours still to name, as codes, in the engine's order (empty: none to name)."""
        found = sorted({a.color for a in self.actions if a.color >= 0})
        return [COLOR_CODES[c] for c in found] if len(found) > 1 else []

    @property
    def uno_optional(self) -> bool:
        """Whether the play may be made with or without calling UNO (ask which)."""
        return len({a.uno for a in self.actions}) > 1

    def pick(self, color: str | None = None, uno: bool = False) -> Action:
        """The action for a colour (when there are several) and the UNO call (when optional)."""
        options = [a for a in self.actions
                   if color is None or a.color < 0 or COLOR_CODES[a.color] == color]
        if self.uno_optional:
            options = [a for a in options if a.uno == uno]
        return options[0]


def codes(action: Action) -> list[str]:
    """The card codes an action plays, gives or jumps in with."""
    return [CODES[k] for k in action.cards]


def cards_words(cs: Sequence[str]) -> str:
    """Cards in words: ``the red 7``, or ``red 7 + red 7`` with the last one on top."""
    if len(cs) == 1:
        return _("the {card}").format(card=card_text(cs[0]))
    return _("{cards}, the {last} on top").format(
        cards=" + ".join(card_text(c) for c in cs), last=card_text(cs[-1]))


def choice_text(action: Action, table: Table, seat: int) -> str:
    """One choice in words, naming the players it concerns (the colour and the UNO call are
    asked afterwards, see :class:`Choice`)."""
    g = table.game
    verb = action.verb
    if verb in ("play", "jump_in"):
        cs = codes(action)
        what = cards_words(cs)
        text = (_("jump in with {cards}") if verb == "jump_in" else _("play {cards}")).format(
            cards=what)
        if action.target >= 0:
            name = table.name(action.target)
            if action.power == "look":
                text = _("{play} and look at {name}'s hand").format(play=text, name=name)
            elif action.power == "swap":
                text = _("{play} and swap 3 cards with {name}").format(play=text, name=name)
            elif cs[-1] == "WA":
                text = _("{play} and make {name} press the launcher").format(play=text,
                                                                             name=name)
            else:
                text = _("{play} and swap hands with {name}").format(play=text, name=name)
        if (action.color >= 0 and not action.power) or action.power == "color":
            text = _("{play}, then name a colour").format(play=text)
        return text
    if verb == "draw":
        pend = g.pending
        if pend and pend.get("target") == seat:
            if pend["kind"] == "press":
                return _("take the penalty: press the launcher {n} times").format(
                    n=pend["amount"])
            return _("take the penalty: draw {n} cards").format(n=pend["amount"])
        if table.rules.deck.launcher:
            return _("press the launcher")
        if table.rules.draw_count == "until_playable":
            return _("draw until a card fits")
        return _("draw a card")
    if verb == "pass":
        return _("keep the drawn card and end your turn")
    if verb == "uno":
        return _("call UNO")
    if verb == "catch":
        return _("catch {name}, who forgot to call UNO").format(name=table.name(action.target))
    if verb == "challenge":
        who = w4_player(g)
        amount = _pending_amount(g)
        return _("challenge the Wild Draw Four: if {name} bluffed, they draw {n}; if not, you "
                 "draw {m}").format(name=table.name(who) if who is not None else "?", n=amount,
                                    m=amount + 2)
    if verb == "accept":
        amount = _pending_amount(g)
        return _("accept the Wild Draw Four: draw {n} and lose your turn").format(n=amount)
    if verb == "color":
        return _("name {color}").format(color=color_text(COLOR_CODES[action.color]))
    if verb == "give":
        return _("give {cards}").format(cards=cards_words(codes(action)))
    return str(action)


def _pending_amount(game: Game) -> int:
    """The cards a pending penalty makes draw (4 when none is pending: a plain Wild Draw Four)."""
    pend = game.pending
    return int(pend["amount"]) if pend else 4


def choices(legal: Sequence[Action], table: Table, seat: int) -> list[Choice]:
    """The legal actions as a person's choices, in the engine's order: a play with its colours
    and its UNO call folded into one choice; running out of time is never offered."""
    out: list[Choice] = []
    index: dict[tuple[object, ...], Choice] = {}
    for a in legal:
        if a.verb == "timeout":
            continue
        key = (a.verb, a.cards, a.target, a.power, a.give) if a.verb in ("play", "jump_in") \
            else (a.verb, a.cards, a.target, a.color)
        if key not in index:
            index[key] = Choice(choice_text(a, table, seat))
            out.append(index[key])
        index[key].actions.append(a)
    return out


def w4_player(game: Game) -> int | None:
    """The seat that played the last Wild Draw Four of the round, if any."""
    for e in reversed(game.events):
        if e.get("t") == "play" and list(e.get("cards", []))[-1:] == ["W4"]:
            seat = e.get("seat")
            return seat if isinstance(seat, int) else None
    return None


def color_before_w4(events: Sequence[Event], under: str | None = None
                    ) -> tuple[str, str] | None:
    """The colour in force when the last Wild Draw Four was played, and the card it was on:
    what a challenge asks about (WD4-2). ``under``: the card under it on the discard pile,
    for a round set up without the events before (its own colour). None when unknown."""
    i = len(events) - 1
    while i >= 0 and not (events[i].get("t") == "play"
                          and list(events[i].get("cards", []))[-1:] == ["W4"]):
        i -= 1
    for e in reversed(events[:max(i, 0)]):
        t = e.get("t")
        if t == "play" and e.get("color"):
            return str(e["color"]), str(list(e.get("cards", [""]))[-1])
        if t == "color" and e.get("color"):
            return str(e["color"]), ""
        if t == "starter" and not str(e.get("card", "W")).startswith("W"):
            return str(e["card"])[0], str(e["card"])
    if under and not under.startswith("W"):
        return under[0], under
    return None


def challenge_note(table: Table) -> str:
    """What a challenge asks about, in words: the colour in force before the Wild Draw Four
    (and the card it was played on), and that holding that colour made it a bluff (WD4-2)."""
    g = table.game
    pile = g.discard_pile
    under = CODES[pile[-2]] if len(pile) > 1 else None
    before = color_before_w4(g.events, under)
    who = w4_player(g)
    name = table.name(who) if who is not None else "?"
    if before is None:
        return ""
    color, top = before
    text = _("The colour in force before it was {color}").format(color=color_text(color))
    if top:
        text += _(" (on the {card})").format(card=card_text(top))
    return text + _(": a bluff if {name} held a {color} card.").format(
        name=name, color=color_text(color))


def target_question(action: Action) -> str:
    """The question a target dialog asks, by what the play does to the player chosen: a 7 swaps
    hands (HR-SEVENZERO), a Wild looks at a hand or swaps three cards (HR-WILDPOWER), a Wild
    Attack-Attack makes them press the launcher."""
    code = CODES[action.cards[-1]] if action.cards else ""
    if action.power == "look":
        return _("Look at whose hand?")
    if action.power == "swap":
        return _("Swap 3 cards with whom?")
    if code == "WA":
        return _("Who must press the launcher?")
    if code.endswith("7"):
        return _("Swap hands with whom?")
    return _("Choose a player")
