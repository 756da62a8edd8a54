"""The rule that applies to a card, an action or a refusal, for the rule set in force.

The words are those ``unoarena rules`` prints (:mod:`unoarena.text.rules`), so the table and
the rule listing never disagree; each answer carries the rule IDs it cites, which the UIs show
next to it so that a player can look the rule up in RULES.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..engine import CODES, Action, RuleSet
from ..text.i18n import _
from ..text.rules import explain_key, special_cards

_ID = r"[A-Z][A-Z0-9]*-[A-Z0-9-]+"
# "(EFF-3, DIG-3)" in English, "（EFF-3、DIG-3）" in the Chinese catalogues
_IDS = re.compile(rf"[(（]({_ID}(?:\s*[,，、]\s*{_ID})*)[)）]")
_SEP = re.compile(r"\s*[,，、]\s*")


@dataclass(frozen=True)
class RuleHelp:
    """Sentences that explain something, and the rule IDs they cite (in order, once each)."""

    text: str
    ids: tuple[str, ...]


def _help(lines: list[str]) -> RuleHelp:
    lines = [s for s in dict.fromkeys(lines) if s]
    ids: list[str] = []
    for s in lines:
        for m in _IDS.finditer(s):
            ids += [i for i in _SEP.split(m.group(1)) if i not in ids]
    parts = [s[0].upper() + s[1:] + _stop(s) for s in lines]
    text = "".join(p if p.endswith("。") else p + " " for p in parts).strip()
    return RuleHelp(text, tuple(ids))


def _stop(sentence: str) -> str:
    """The full stop a sentence lacks: none, a Chinese one after Chinese text, else "."."""
    if sentence.endswith((".", "。", "！", "？")):
        return ""
    return "。" if any("\u4e00" <= ch <= "\u9fff" for ch in sentence[-12:]) or \
        sentence.endswith("）") else "."


def _names(sentence: str, code: str) -> bool:
    """Does a sentence of ``special_cards`` describe the card ``code`` ("(W4)", "（W4）")?"""
    return f"({code})" in sentence or f"（{code}）" in sentence


def _matching() -> str:
    return _("a card may be played when it has the colour in force or the top card's number "
             "or symbol, or when it is a wild (TURN-1)")


def card_help(rules: RuleSet, code: str) -> RuleHelp:
    """What a card does under ``rules``: its effect for an action or wild card, how it matches
    for a number card, and the house rules that give it more (7-0, jump-in)."""
    if code not in CODES:
        raise ValueError(f"unknown card {code!r}: use a card code such as R5, GS, W4")
    rank = code if code.startswith("W") else code[1:]
    lines = [s for s in special_cards(rules) if _names(s, rank)]
    if not code.startswith("W"):
        lines.insert(0, _matching())
    if rank in ("7", "0") and rules.seven_zero:
        lines.append(explain_key(rules, "seven_zero"))
    if rules.jump_in and not code.startswith("W"):
        lines.append(explain_key(rules, "jump_in"))
    if code == "W4":
        lines += [explain_key(rules, "w4_rule"), explain_key(rules, "wd4_challenge")]
    if rank == "D2":
        lines.append(explain_key(rules, "stacking"))
    return _help(lines)


#: The rule keys whose explanations answer each verb and each refusal code (DIG-4).
_VERB_KEYS: dict[str, tuple[str, ...]] = {
    "draw": ("draw_count", "voluntary_draw_play", "launcher"),
    "pass": ("voluntary_draw_play",),
    "uno": ("silent_uno", "uno_penalty"),
    "catch": ("uno_penalty", "false_uno_penalty"),
    "challenge": ("wd4_challenge",),
    "accept": ("wd4_challenge",),
    "jump_in": ("jump_in", "sum_jump_in"),
    "color": ("starter_wild_chooser",),
}
_REFUSAL_KEYS: dict[str, tuple[str, ...]] = {
    "not_your_turn": ("jump_in",),
    "no_window": ("jump_in", "uno_penalty", "wd4_challenge"),
    "must_name_color": (),
    "w4_not_allowed": ("w4_rule", "wd4_challenge"),
    "must_answer_penalty": ("stacking", "stack_draw4", "draw4_on_draw2"),
    "only_drawn_card": ("voluntary_draw_play",),
    "last_card_must_be_number": ("number_finish",),
    "last_card_is_wild": ("no_wild_finish",),
    "bad_target": ("seven_zero", "wild_powers"),
    "not_in_rules": (),
    "card_not_in_hand": (),
    "bad_action": (),
    "round_over": (),
}


def action_help(rules: RuleSet, action: Action | str, pending: bool = False) -> RuleHelp:
    """The rules behind an action (its cards' for a play, the verb's otherwise); ``pending``:
    a penalty waits for an answer, so drawing takes it (the stacking rules say how)."""
    if isinstance(action, str):
        action = Action.parse(action)
    if pending and action.verb == "draw":
        stack: tuple[str, ...] = (() if rules.deck.launcher
                                  else ("stacking", "stack_draw4", "draw4_on_draw2"))
        return _help([_("whoever does not answer a pending penalty takes it all and loses the "
                        "turn (EFF-0)")] + [explain_key(rules, k) for k in stack])
    if action.verb in ("play", "jump_in") and action.cards:
        lines = [card_help(rules, CODES[k]).text for k in dict.fromkeys(action.cards)]
        if action.verb == "jump_in":
            lines.append(explain_key(rules, "jump_in"))
        return _help(lines)
    keys = _VERB_KEYS.get(action.verb, ())
    return _help([explain_key(rules, k) for k in keys if k != "launcher" or rules.deck.launcher])


def refusal_help(rules: RuleSet, code: str) -> RuleHelp:
    """Why the engine refused an action with ``code``, and the rules in force behind it."""
    from ..text.narrate import error_reason
    lines = [error_reason(code)]
    if code == "does_not_match":
        lines.append(_matching())
        if rules.deck.name in ("buzz", "frozen2"):
            lines += [s for s in special_cards(rules) if _names(s, "WH") or _names(s, "WN")]
    lines += [explain_key(rules, k) for k in _REFUSAL_KEYS.get(code, ())]
    return _help(lines)
