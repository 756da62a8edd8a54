"""The questions the card table asks a person, as dialogs built from the table's state: how to
play a card (which cards, the Wild's power, the colour, the target), a first card's colour, a
card to give, a Wild Draw Four to challenge, and who at a hot-seat terminal calls UNO or
catches. The table screen opens them and acts on the answer; nothing here acts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from ..engine import CODES, COLOR_CODES, Action
from ..play_choice import Node, first_action
from ..text.i18n import _
from ..text.rules import card_text, color_text
from .cards import CARD_KEYS, INK, face_style
from .dialogs import ChoiceDialog, Option
from .session import Table
from .words import color_before_w4, target_question

_COLOR_KEYS = {"R": "r", "Y": "y", "G": "g", "B": "b", "P": "p"}


def combo_label(verb: str, codes: list[str]) -> str:
    """One way to play a card: the cards it takes, in words, and which ends on top."""
    cards = " + ".join(codes)
    words = " + ".join(card_text(c) for c in codes)
    if verb == "jump_in":
        return _("jump in with {cards} ({words})").format(cards=cards, words=words)
    if len(codes) > 1:
        return _("{cards} ({words}), {last} on top").format(cards=cards, words=words,
                                                            last=codes[-1])
    return _("{cards} ({words})").format(cards=cards, words=words)


def play_question(table: Table, node: Node, values: list[Any], code: str,
                  hand: Sequence[str]) -> ChoiceDialog:
    """The next question of a card's plays (:func:`unoarena.play_choice.card_choices`): which
    cards, the Wild's power, the colour (with ``hand`` in view) or the target."""
    step = node["ask"]
    if step == "cards":
        opts = []
        for i, v in enumerate(values):
            verb, cards = str(v).split(" ", 1)
            opts.append(Option(v, combo_label(verb, cards.split("+")),
                               CARD_KEYS[i] if i < 10 else ""))
        return ChoiceDialog("cards", _("How do you play {card}?").format(card=card_text(code)),
                            opts)
    if step == "power":
        names = {"": _("name a colour"), "color": _("name a colour"),
                 "look": _("look at a player's hand"), "swap": _("swap 3 cards with a player")}
        keys = {"": "c", "color": "c", "look": "k", "swap": "w"}
        return ChoiceDialog("power", _("Wild power: what does your Wild do?"),
                            [Option(p, names[p], keys[p]) for p in values])
    if step == "color":
        return color_question(values, _("Choose the colour"), hand)
    sizes = table.game.hand_sizes()
    opts = [Option(s, _("{name} ({n} cards)").format(name=table.name(s), n=sizes[s]),
                   str(i + 1) if i < 9 else "") for i, s in enumerate(values)]
    return ChoiceDialog("target", target_question(first_action(node)), opts)


def color_question(codes: list[str], title: str, hand: Sequence[str],
                   cancel: bool = True) -> ChoiceDialog:
    """The colours to name, each in its colour, with the ``hand`` they are chosen for in view."""
    opts = [Option(c, color_text(c), _COLOR_KEYS.get(c, ""), face_style(c).split(" on ")[-1])
            for c in codes]
    return ChoiceDialog("color", title, opts, cancel=cancel, hand=hand)


def starter_color_question(legal: Sequence[Action], hand: Sequence[str]) -> ChoiceDialog:
    """The colour of a wild first card (START-4): it cannot be cancelled."""
    codes = [COLOR_CODES[a.color] for a in legal if a.verb == "color"]
    return color_question(codes, _("Name the colour of the first card"), hand, cancel=False)


def give_question(table: Table, legal: Sequence[Action], seat: int) -> ChoiceDialog:
    """A card to give in a wild-power swap (HR-WILDPOWER), naming the target and how many are
    left to give; it cannot be cancelled."""
    g = table.game
    left = g.view(seat).get("give_left", 1)
    target = next((e.get("target") for e in reversed(g.events) if e.get("t") == "swap_start"),
                  None)
    name = table.name(target) if isinstance(target, int) else "?"
    gives = [CODES[a.cards[0]] for a in legal if a.verb == "give"]
    opts = [Option(c, _("{cards} ({words})").format(cards=c, words=card_text(c)),
                   CARD_KEYS[i] if i < len(CARD_KEYS) else "") for i, c in enumerate(gives)]
    return ChoiceDialog("give", _("Give a card to {name} ({n} more)").format(name=name, n=left),
                        opts, cancel=False)


def challenge_question(table: Table, legal: Sequence[Action],
                       hand: Sequence[str]) -> ChoiceDialog:
    """A Wild Draw Four played on the viewer: challenge or accept, shown with the colour it
    was played on and the viewer's hand (WD4-2). Escape answers with a card instead, when a
    stacking answer is legal."""
    g = table.game
    who = next((e.get("seat") for e in reversed(g.events) if e.get("t") == "play"), None)
    name = table.name(who) if isinstance(who, int) else "?"
    can_play = any(a.verb == "play" for a in legal)
    pend = g.pending or {"amount": 4}
    opts = [Option("challenge", _("Challenge: if {name} bluffed, they draw {n}; if "
                                  "not, you draw {m}").format(name=name, n=pend["amount"],
                                                              m=pend["amount"] + 2), "x"),
            Option("accept", _("Accept: draw {n} and lose the turn").format(
                n=pend["amount"]), "a")]
    note = Text()
    pile = g.discard_pile
    before = color_before_w4(g.events, CODES[pile[-2]] if len(pile) > 1 else None)
    if before is not None:
        color, top = before
        note.append(_("Colour in force before it:") + " ")
        note.append("■ " + color_text(color), style=INK.get(color, "bold"))
        if top:
            note.append(_(" (on {card})").format(card=card_text(top)))
        note.append("\n" + _("A bluff if {name} held a {color} card.").format(
            name=name, color=color_text(color)))
    if can_play:
        note.append("\n" + _("Esc: answer with a card instead"))
    return ChoiceDialog("challenge", _("{name} played a Wild Draw Four on you").format(name=name),
                        opts, cancel=can_play, note=note, hand=hand)


def hotseat_uno_question(table: Table, seat: int) -> ChoiceDialog:
    """``u`` while it means two things: the late UNO of the person at ``seat`` who forgot, or
    UNO armed for the viewer's own next play."""
    return ChoiceDialog("uno", _("Who calls UNO?"),
                        [Option("late", _("{name} calls UNO now").format(name=table.name(seat)),
                                "1"),
                         Option("arm", _("UNO with my next card"), "2")])


def catcher_question(table: Table, seats: Sequence[int]) -> ChoiceDialog:
    """Several people here may catch the same forgotten UNO: which of them calls it."""
    return ChoiceDialog("catch", _("Who calls it?"),
                        [Option(s, table.name(s), str(i + 1)) for i, s in enumerate(seats)])


def false_catch_question(table: Table, seat: int | None) -> ChoiceDialog:
    """Whom to call out when nobody can be caught, under a false-catch penalty (UNO-3)."""
    opts = [Option(s, table.name(s), str(i + 1)) for i, s in
            enumerate(x for x in range(table.game.players) if x != seat)]
    return ChoiceDialog("catch", _("Catch whom? A wrong catch costs you {n} cards.").format(
        n=table.rules.false_uno_penalty), opts)
