"""A chosen card made into a legal action: one place for the terminal and the browser.

A person picks a card of their hand; the legal actions that play it (or jump in with it) may
still differ in which cards go with it, the Wild's power, the colour named, the target, and
whether UNO is said with it. :func:`card_choices` turns them into a tree of those questions in
one fixed order (cards, power, colour, target), leaving out every question with one answer;
its leaves say which action to take without and with UNO armed (:func:`with_uno`). The
terminal walks the tree with its dialogs; the server sends the tree of every card of a seat's
hand with that seat's state (``choices``), and the page walks it with its own dialogs. Each
asks in its own words; neither reads the actions' text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from .engine import CODES, COLOR_CODES, Action

#: The questions a card's plays may still differ in, in the order they are asked.
STEPS: Final = ("cards", "power", "color", "target")

#: A question: ``{"ask": step, "options": [{"value": ..., "then": node}, ...]}``; a leaf:
#: ``{"plain": action text, "uno": action text}``, the action without and with UNO armed.
Node = dict[str, Any]


def plays_of(legal: Sequence[Action], code: str) -> list[Action]:
    """The plays and jump-ins among ``legal`` that use the card ``code`` (anywhere in the
    cards they play together)."""
    return [a for a in legal if a.verb in ("play", "jump_in")
            and code in (CODES[k] for k in a.cards)]


def _value(a: Action, step: str) -> Any:
    if step == "cards":
        return f"{a.verb} " + "+".join(CODES[k] for k in a.cards)
    if step == "power":
        return a.power
    if step == "color":
        return COLOR_CODES[a.color] if a.color >= 0 else ""
    return a.target


def _values(variants: list[Action], step: str) -> list[Any]:
    """The answers ``variants`` differ in for ``step``: combinations in the order the engine
    lists them, powers by name, colours in the deck's order, targets by seat; a colour or
    target that some variants lack is no answer (they keep whatever is chosen)."""
    if step == "cards":
        return list(dict.fromkeys(_value(a, step) for a in variants))
    if step == "power":
        return sorted({a.power for a in variants})
    if step == "color":
        return [COLOR_CODES[c] for c in sorted({a.color for a in variants if a.color >= 0})]
    return sorted({a.target for a in variants if a.target >= 0})


def _node(variants: list[Action], steps: Sequence[str]) -> Node:
    for i, step in enumerate(steps):
        values = _values(variants, step)
        if len(values) > 1:
            return {"ask": step, "options": [
                {"value": v, "then": _node([a for a in variants if _value(a, step) == v],
                                           steps[i + 1:])} for v in values]}
    flagged = [str(a) for a in variants if a.uno]
    plain = [str(a) for a in variants if not a.uno]
    # without UNO armed: the plain play, else the one with UNO (HR-DOUBLE's last two cards
    # exist only so); armed: the one saying UNO, else the plain one
    return {"plain": plain[0] if plain else flagged[0],
            "uno": flagged[0] if flagged else plain[0]}


def card_choices(legal: Sequence[Action], code: str) -> Node | None:
    """The questions that turn a click on ``code`` into one of ``legal``; None when no legal
    play uses that card."""
    variants = plays_of(legal, code)
    if not variants:
        return None
    return _node(variants, STEPS)


def hand_choices(legal: Sequence[Action], hand: Sequence[str]) -> dict[str, Node]:
    """:func:`card_choices` for every distinct card of ``hand`` that some legal play uses
    (the legal actions read once, not once per card: the server builds this for every seat at
    every move)."""
    by_code: dict[str, list[Action]] = {}
    for a in legal:
        if a.verb in ("play", "jump_in"):
            for code in dict.fromkeys(CODES[k] for k in a.cards):
                by_code.setdefault(code, []).append(a)
    out: dict[str, Node] = {}
    for code in hand:
        if code not in out and code in by_code:
            out[code] = _node(by_code[code], STEPS)
    return out


def with_uno(leaf: Node, armed: bool) -> str:
    """The action of a leaf, with the player's UNO armed or not."""
    return str(leaf["uno" if armed else "plain"])


def first_action(node: Node) -> Action:
    """The first action under ``node``: what a question's wording may depend on (a target
    question asks by what the play does to the player chosen)."""
    while "ask" in node:
        node = node["options"][0]["then"]
    return Action.parse(str(node["plain"]))
