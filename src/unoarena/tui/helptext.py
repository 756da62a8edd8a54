"""The help: the current game's rules in the player's language, and the keys (no drawing
here, so the plain mode and the app share it)."""

from __future__ import annotations

from ..engine import RuleSet
from ..i18n import _
from ..rules_text import deck_lines, explain, preset_summary, special_cards


def help_sections(rules: RuleSet, *, keys: bool = True) -> list[tuple[str, list[str]]]:
    """(heading, lines) for the rules in force: summary, deck, special cards, every key."""
    out: list[tuple[str, list[str]]] = [
        (_("Rules of this game"), [preset_summary(rules.preset)]),
        (_("The deck"), deck_lines(rules)),
        (_("Special cards"), special_cards(rules)),
        (_("Every rule at its setting"),
         [f"{key} = {value}: {text}" for key, value, text in explain(rules)]),
    ]
    if keys:
        out.append((_("Keys"), key_lines()))
    return out


def key_lines() -> list[str]:
    return [
        _("1-9, 0 and the letters under the cards: play that card (or click it)"),
        _("← → move the cursor, Enter plays the card under it"),
        _("d: draw (or press the launcher)   p: keep the drawn card and pass"),
        _("u: call UNO (before or after your play)   c: catch a player without UNO"),
        _("Several people at one terminal: any of them may press c to catch, and the one "
          "who forgot may press u to call UNO late, on whoever's screen is showing"),
        _("x: challenge a Wild Draw Four   a: accept it"),
        _("? or F1: this help   s: save   l: language   q: quit"),
    ]


def plain_command_lines() -> list[str]:
    return [
        _("Type an action as listed (play R7, play W color=G, draw, pass, catch 2, uno, "
          "challenge, accept), its number in the list, or a card code alone (R7)."),
        _("Other commands: hand (your hand and the table), legal (what you may do), help "
          "(the rules), save, lang zh_TW|zh_CN|en, quit. An empty line lets a chance pass."),
    ]
