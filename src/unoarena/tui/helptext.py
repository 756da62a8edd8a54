"""The help: the keys of this game first, then its rules in the player's language (no drawing
here, so the plain mode and the app share it).

The keys follow the rule set: a challenge key only where a Wild Draw Four can be challenged,
the launcher under UNO Attack, several cards at once, targets and jump-ins only where the
rules have them.
"""

from __future__ import annotations

from ..engine import RuleSet
from ..text.i18n import _
from ..text.rules import deck_lines, explain, preset_summary, special_cards


def help_sections(rules: RuleSet, *, keys: bool = True, people: int = 1, settings: bool = True
                  ) -> list[tuple[str, list[str]]]:
    """(heading, lines): the keys (unless ``keys`` is false), then the rules in force:
    summary, deck, special cards, and (unless ``settings`` is false) every rule-set key at its
    value. ``people``: persons at this terminal."""
    out: list[tuple[str, list[str]]] = []
    if keys:
        out.append((_("Keys"), key_lines(rules, people)))
    out += [
        (_("Rules of this game"), [preset_summary(rules.preset)]),
        (_("The deck"), deck_lines(rules)),
        (_("Special cards"), special_cards(rules)),
    ]
    if settings:
        out.append((_("Every rule at its setting"),
                    [f"{key} = {value}: {text}" for key, value, text in explain(rules)]))
    return out


def key_lines(rules: RuleSet, people: int = 1) -> list[str]:
    """What every key does under these rules, and only the keys these rules use."""
    launcher = rules.deck.launcher
    out = [
        _("1-9, 0 and the letters under the cards: play that card (or click it)"),
        _("← → move the cursor, Enter plays the card under it (any hand size)"),
    ]
    if launcher:
        out.append(_("d: press the launcher (the cards it throws out are yours)"))
    elif rules.draw_count == "until_playable":
        out.append(_("d: draw until a card fits   p: keep the drawn card and pass"))
    else:
        out.append(_("d: draw a card   p: keep the drawn card and pass"))
    if not rules.silent_uno:  # HR-SILENT: no calls, no catches
        out.append(_("u: call UNO (before or after your play)   c: catch a player without UNO"))
    if rules.false_uno_penalty and not rules.silent_uno:
        out.append(_("c when nobody forgot UNO: choose whom to catch; a wrong catch costs "
                     "{n} cards").format(n=rules.false_uno_penalty))
    if rules.wd4_challenge:
        out.append(_("x: challenge a Wild Draw Four   a: accept it and draw"))
    if rules.stacking != "off" or rules.stack_draw4 or rules.reverse_deflects_draw4 \
            or rules.draw2_on_draw4:
        out.append(_("A penalty is pending: answer with a marked card, or d to take it"))
    if rules.multi_play or rules.same_number_play:
        out.append(_("Several cards at once: press one of them; a dialog offers every "
                     "combination it can be played in"))
    elif rules.double_play:
        out.append(_("Two identical cards: press one; a dialog asks whether to play both"))
    if rules.jump_in or rules.sum_jump_in != "off":
        out.append(_("Jump-in: when one of your cards is marked out of turn, press it at "
                     "once"))
    targets = []
    if rules.seven_zero:
        targets.append(_("a 7 swaps hands with the player you choose"))
    if rules.wild_powers:
        targets.append(_("a Wild names a colour (c), looks at a hand (k) or swaps 3 cards "
                         "(w)"))
    if launcher:
        targets.append(_("a Wild Attack-Attack names a colour and the player to attack"))
    if targets:
        out.append(_("Targets: {what}; the dialog numbers the players 1, 2, …").format(
            what=_("; ").join(targets)))
    if people > 1 and not rules.silent_uno:
        out.append(_("Several people at one terminal: any of them may press c to catch, and "
                     "the one who forgot may press u to call UNO late, on whoever's screen "
                     "is showing"))
    out.append(_("F3: the rule behind the card under the cursor, or behind the last refusal"))
    if people == 1:
        out.append(_("F4: what the expert would play now, and why"))
    out.append(_("F2: every round's scores   ? or F1: this help   s: save   l: language   "
                 "q: save and quit"))
    return out


def key_hint(rules: RuleSet, shown: frozenset[str] = frozenset()) -> str:
    """The one-line reminder under the hand: the same keys, shortest, leaving out those whose
    button is ``shown`` (by key: ``d``, ``p``, ``u``, ``c``, ``x``, ``F2``, ``?``, ``s``, ``l``,
    ``q``)."""
    parts = [("", _("card keys or click: play")),
             ("d", _("d launcher") if rules.deck.launcher else _("d draw")), ("p", _("p pass"))]
    if not rules.silent_uno:  # HR-SILENT: no calls, no catches
        parts += [("u", _("u UNO")), ("c", _("c catch"))]
    if rules.wd4_challenge:
        parts.append(("x", _("x challenge")))
    parts += [("F2", _("F2 scores")), ("F3", _("F3 rule")), ("F4", _("F4 hint")),
              ("?", _("? help")), ("s", _("s save")),
              ("l", _("l language")), ("q", _("q quit"))]
    return " · ".join(text for key, text in parts if key not in shown)


def plain_command_lines() -> list[str]:
    """Plain mode's ``help``: short, what to type."""
    return [
        _("Type the number of a choice. A wild's colour and the UNO call are asked next."),
        _("An empty line lists your choices on your turn, and lets a chance out of turn pass."),
        _("Other commands: hand (the table and your hand again), choices, rules (the rules of "
          "this game; rules all: every setting), save, lang en|zh_TW|zh_CN, quit (saves "
          "first)."),
        _("Scripts may also type an action as the engine writes it: play R7, play W color=G "
          "uno, draw, catch 2."),
    ]
