"""The scenario format (spec/SCENARIOS.md) as types: what each key takes, checked when a
document is read, in the words errors use. :func:`parse_scenario` turns one YAML document into
a :class:`Scenario`; the format is declared as msgspec Structs, and what msgspec cannot say (one
action a step, seats as keys, 64-bit integers) is checked after."""

from __future__ import annotations

import re
import types
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union, get_args, get_origin

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType, defstruct

from unoarena.engine import (
    CODES,
    COLOR_CODES,
    ERROR_CODES,
    KEYS,
    Action,
    IllegalAction,
    parse_card,
    parse_color,
)

# -- the format's keys (SCENARIOS.md) are the fields of the Structs below; a step's action keys:
VERB_KEYS = ("play", "draw", "pass", "challenge", "catch", "jump_in", "timeout", "time_up")
MODIFIER_KEYS = ("color", "target", "power", "give", "uno")
SUFFIXES = (".yaml", ".yml")


class ScenarioError(ValueError):
    """A scenario that does not follow the format; the message says where and what is allowed.

    ``where`` is the file and the scenario (or document number), ``detail`` the rest.
    """

    def __init__(self, where: str, detail: str) -> None:
        super().__init__(f"{where}: {detail}")
        self.where = where
        self.detail = detail


# ==============================================================================================
# the parsed form
# ==============================================================================================
@dataclass(frozen=True)
class ActionSpec:
    """One step's action as written; cards stay text so that a bad card is the engine's
    ``bad_action`` when played, exactly as a typed action would be (DIG-4)."""

    verb: str
    cards: tuple[str, ...] = ()
    color: str | None = None
    target: int | None = None
    power: str | None = None
    give: tuple[str, ...] = ()
    uno: bool = False

    def text(self) -> str:
        """The action as the engine's action syntax, for messages."""
        parts = [self.verb]
        if self.verb in ("play", "jump_in"):
            parts.append("+".join(self.cards))
        elif self.verb == "catch":
            parts.append(str(self.target))
        elif self.verb == "color":
            parts.append(str(self.color))
        if self.verb in ("play", "jump_in"):
            if self.color is not None:
                parts.append(f"color={self.color}")
            if self.target is not None:
                parts.append(f"target={self.target}")
            if self.power is not None:
                parts.append(f"power={self.power}")
            if self.give:
                parts.append("give=" + "+".join(self.give))
            if self.uno:
                parts.append("uno")
        return " ".join(parts)

    def build(self) -> Action:
        """The engine action. Unreadable cards or colours raise ``IllegalAction(bad_action)``,
        as the engine's own parser does for a typed action."""
        try:
            cards = tuple(parse_card(c) for c in self.cards)
            give = tuple(parse_card(c) for c in self.give)
            color = parse_color(self.color) if self.color is not None else -1
        except ValueError as e:
            raise IllegalAction("bad_action", str(e)) from None
        if self.verb in ("play", "jump_in"):
            # through the engine's parser, so that powers and the rest are checked as typed
            text = " ".join([self.verb, "+".join(CODES[k] for k in cards),
                             *([f"color={COLOR_CODES[color]}"] if color >= 0 else []),
                             *([f"target={self.target}"] if self.target is not None else []),
                             *([f"power={self.power}"] if self.power is not None else []),
                             *(["give=" + "+".join(CODES[k] for k in give)] if give else []),
                             *(["uno"] if self.uno else [])])
            return Action.parse(text)
        if self.verb == "catch":
            return Action("catch", target=self.target if self.target is not None else -1)
        if self.verb == "color":
            return Action("color", color=color)
        return Action(self.verb)


@dataclass(frozen=True)
class SetupSpec:
    """``setup`` as written (cards as text); turned into an engine :class:`Setup` when run."""

    hands: dict[int, tuple[str, ...]] = field(default_factory=dict)
    starter: str | None = None
    discard: tuple[str, ...] | None = None
    color: str | None = None
    draw_pile: tuple[str, ...] = ()
    turn: int | None = None
    direction: str | None = None
    scores: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Step:
    """One entry of ``steps``: an action (perhaps expected to fail), an expectation, or both."""

    number: int  # 1-based, as reported
    seat: int | None = None
    action: ActionSpec | None = None
    error: str | None = None
    expect: dict[str, Any] | None = None


@dataclass(frozen=True)
class Scenario:
    """One YAML document of a scenario file."""

    name: str
    file: str
    document: int  # 1-based position in its file
    rules: dict[str, Any]  # {"preset": ..., overrides...}
    seed: int = 0
    dealer: int = 0
    setup: SetupSpec | None = None
    steps: tuple[Step, ...] = ()
    rules_covered: tuple[str, ...] = ()
    description: str = ""


@dataclass(frozen=True)
class ScenarioResult:
    """The outcome of one scenario. ``step`` is None when it failed before its steps (a rule
    set or setup that cannot exist, or a file that does not follow the format)."""

    ok: bool
    name: str
    message: str = ""
    step: int | None = None
    file: str = ""

    def line(self) -> str:
        """The report line ``main`` prints."""
        if self.ok:
            return f"ok  {self.file}: {self.name}"
        where = f"step {self.step}: " if self.step is not None else ""
        return f"FAIL {self.file}: {self.name}: {where}{self.message}"


# ==============================================================================================
# reading
# ==============================================================================================
def _short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


# -- the format as msgspec types: what each key takes, in the words errors use -----------------
#: Integers in a scenario are at most this big (a seed is 64-bit; the rest far smaller).
MAX_INT = (1 << 64) - 1


def _is(what: str) -> Meta:
    """What a value must be, as errors say it."""
    return Meta(description=what)


Int = Annotated[int, _is(f"an integer from {-MAX_INT} to {MAX_INT}")]
Count = Annotated[int, Meta(ge=0, description=f"an integer from 0 to {MAX_INT}")]
Flag = Annotated[bool, _is("true or false")]
Code = Annotated[Annotated[str, Meta(max_length=200)] | Annotated[int, Meta(ge=0, le=9999)],
                 _is("a code such as R7 or G")]
Cards = Annotated[list[Code], _is("a list of cards")]
CardOrCards = Annotated[Code | list[Code], _is("a card or a list of cards")]
Strings = Annotated[list[Annotated[str, _is('an action string such as "play R5"')]],
                    _is('a list of action strings such as [draw, "play R5"]')]
Direction = Annotated[Literal["cw", "ccw"], _is("cw or ccw")]
# mappings seat -> value: their keys (0 or "0") and values are checked by :func:`_seat_map`
Hands = Annotated[dict[Any, Any], _is("a mapping seat -> list of cards")]
Scores = Annotated[dict[Any, Any], _is("a mapping seat (or team) -> score")]
LegalFor = Annotated[dict[Any, Any], _is("a mapping seat -> list of action strings")]
OpenHands = Annotated[dict[Any, Any], _is("a mapping seat -> list of cards, or null for a hand "
                                          "that stays hidden")]


class _Keys(Struct, forbid_unknown_fields=True, kw_only=True):
    """A mapping with only the keys the format lists there, in the order SCENARIOS.md lists
    them (errors list them in this order)."""


class _Pending(_Keys):
    kind: Code | UnsetType = UNSET
    amount: Int | UnsetType = UNSET
    target: Int | UnsetType = UNSET


class _Effect(_Keys):
    kind: Code | UnsetType = UNSET
    color: Code | UnsetType = UNSET
    owner: Int | UnsetType = UNSET


class _Expect(_Keys):
    turn: Int | UnsetType = UNSET
    direction: Direction | UnsetType = UNSET
    top: Code | UnsetType = UNSET
    color: Code | UnsetType | None = UNSET
    hands: Hands | UnsetType = UNSET
    hand_sizes: Annotated[list[Int] | dict[Any, Any],
                          _is("a list of sizes or a mapping seat -> size")] | UnsetType = UNSET
    draw_pile_size: Int | UnsetType = UNSET
    pending: Annotated[_Pending | None, _is("a mapping or null")] | UnsetType = UNSET
    effect: Annotated[_Effect | None, _is("a mapping or null")] | UnsetType = UNSET
    legal: Strings | UnsetType = UNSET
    legal_includes: Strings | UnsetType = UNSET
    legal_excludes: Strings | UnsetType = UNSET
    legal_for: LegalFor | UnsetType = UNSET
    round_over: Flag | UnsetType = UNSET
    round_winner: Int | UnsetType | None = UNSET
    scores: Scores | UnsetType = UNSET
    match_over: Flag | UnsetType = UNSET
    match_winner: Annotated[list[Int] | Int | None,
                            _is("a seat, a list of seats or null")] | UnsetType = UNSET
    open_hands: OpenHands | UnsetType = UNSET
    eliminated: Annotated[list[Int], _is("a list of seats")] | UnsetType = UNSET


class _Step(_Keys):
    seat: Count | None = None
    play: CardOrCards | UnsetType = UNSET
    draw: Any = UNSET
    pass_: Any = msgspec.field(default=UNSET, name="pass")
    challenge: Flag | UnsetType = UNSET
    catch: Int | UnsetType = UNSET
    jump_in: CardOrCards | UnsetType = UNSET
    timeout: Any = UNSET
    time_up: Any = UNSET
    color: Code | UnsetType = UNSET
    target: Int | UnsetType = UNSET
    power: Code | UnsetType = UNSET
    give: CardOrCards | UnsetType | None = UNSET
    uno: Flag | UnsetType = UNSET
    error: Any = None
    expect: _Expect | UnsetType = UNSET


class _Setup(_Keys):
    hands: Hands | None = None
    starter: Code | None = None
    discard: Cards | None = None
    color: Code | None = None
    draw_pile: Cards | None = None
    turn: Count | None = None
    direction: Direction | None = None
    scores: Scores | None = None


if TYPE_CHECKING:
    _Rules = _Keys
else:  # the rule keys are the engine's: a Struct made from them
    _Rules = defstruct("_Rules", [(k, Any, UNSET) for k in ("preset", *KEYS)], bases=(_Keys,))


class _Doc(_Keys):
    name: Annotated[str, _is("a non-empty string saying what the scenario shows")]
    description: Annotated[str, _is("a string")] = ""
    rules_covered: Annotated[list[Annotated[str, _is("a rule ID such as EFF-3")]],
                             _is("a list of rule IDs such as [EFF-3, START-3]")] = []
    rules: Annotated[str | _Rules, _is("a preset name or a mapping such as {preset: house, "
                                       "jump_in: on}")] = "classic"
    players: Int | None = None
    seed: Int = 0
    dealer: Count = 0
    setup: _Setup | None = None
    steps: Annotated[list[Any], _is("a list of steps")] = []


_STEP = Annotated[_Step, _is("a mapping: an action with its seat, an expect, or both")]


# -- reading a document ---------------------------------------------------------------------
def parse_scenario(doc: Any, file: str = "<scenario>", document: int = 1) -> Scenario:
    """Check one document against the format and return it parsed."""
    where = f"{file}: document {document}"
    if not isinstance(doc, Mapping):
        raise ScenarioError(where, f"a scenario is a mapping with at least 'name', "
                                   f"not {_kind(doc)}")
    name = doc.get("name")
    if isinstance(name, str) and name.strip():
        where = f"{file}: {name}"
    d = _convert(doc, _Doc, where, ())
    if not d.name.strip():
        raise ScenarioError(where, "'name' is required: a non-empty string saying what the "
                                   "scenario shows")
    rules: dict[str, Any] = {"preset": d.rules} if isinstance(d.rules, str) else {
        "preset": "classic", **{k: getattr(d.rules, k) for k in doc["rules"]}}
    if d.players is not None:
        n = _int(d.players, where, ("players",))
        if "players" in rules and rules["players"] != n:
            raise ScenarioError(where, f"players: {n} here but {rules['players']} in rules: "
                                       "give it once")
        rules["players"] = n
    return Scenario(
        name=d.name.strip(),
        file=file,
        document=document,
        rules=rules,
        seed=_int(d.seed, where, ("seed",)),
        dealer=_int(d.dealer, where, ("dealer",), low=0),
        setup=_setup(d.setup, where) if d.setup is not None else None,
        steps=tuple(_step(s, i, where) for i, s in enumerate(d.steps, 1)),
        rules_covered=tuple(d.rules_covered),
        description=d.description,
    )


def _convert(value: Any, kind: Any, where: str, keys: tuple[str, ...]) -> Any:
    """``value`` checked against a format type: a :class:`ScenarioError` naming the key, the
    value and what is allowed there when it does not fit."""
    try:
        return msgspec.convert(value, kind)
    except msgspec.ValidationError as e:
        raise ScenarioError(where, _explain(str(e), value, kind, keys)) from None


def _explain(error: str, value: Any, kind: Any, keys: tuple[str, ...]) -> str:
    """msgspec's error (``Expected ... - at `$.setup.hands[...]```) in the format's words:
    the keys down to the value, what the value is, what is allowed there."""
    detail, _sep, at = error.partition(" - at `")
    path = at.removeprefix("key` in `")[:-1] if at else "$"
    for name, index in re.findall(r"\.(\w+)|\[(\d+)\]", path):  # mappings' values are Any
        if index:
            kind, value = get_args(_strip(_choose(kind, list)))[0], value[int(index)]
            keys = (*keys, index)
        else:
            kind = _fields(kind)[name]
            value = value.get(name) if isinstance(value, Mapping) else None
            keys = (*keys, name)
    inner = ": ".join(keys)
    prefix = f"{inner}: " if inner else ""
    if detail.startswith("Object contains unknown field `"):
        key = _label(detail[len("Object contains unknown field `"):-1])
        return f"{prefix}unknown key {key} (allowed: {', '.join(_fields(kind))})"
    if at.startswith("key` in `"):  # a key that is not text
        key = _show(next((k for k in value if not isinstance(k, str)), None))
        return f"{prefix}unknown key {key} (allowed: {', '.join(_fields(kind))})"
    if detail.startswith("Object missing required field `"):
        field = detail[len("Object missing required field `"):-1]
        return f"{prefix}'{field}' is required: {_description(_fields(kind)[field])}"
    return f"{prefix}expected {_description(kind)}, got {_show(value)}"


def _strip(kind: Any) -> Any:
    """A type without its ``Annotated`` words."""
    while get_origin(kind) is Annotated:
        kind = get_args(kind)[0]
    return kind


def _choose(kind: Any, want: type) -> Any:
    """The member of a union that is a Struct, a list or a dict (``want``)."""
    for option in _options(kind):
        base = get_origin(option) or option
        if isinstance(base, type) and issubclass(base, want):
            return option
    raise ValueError(f"no {want.__name__} in {kind}")  # pragma: no cover


def _options(kind: Any) -> list[Any]:
    """The members of a union, however nested and annotated (a type alone is its own)."""
    kind = _strip(kind)
    if get_origin(kind) in (Union, types.UnionType):
        return [o for member in get_args(kind) for o in _options(member)]
    return [kind]


def _description(kind: Any) -> str:
    """What a type allows, in words: its own (``Meta(description=...)``) or its parts'."""
    while get_origin(kind) is Annotated:
        for meta in get_args(kind)[1:]:
            if isinstance(meta, Meta) and meta.description:
                return meta.description
        kind = get_args(kind)[0]
    if get_origin(kind) in (Union, types.UnionType):
        return " or ".join(_description(o) for o in get_args(kind) if o is not UnsetType)
    if isinstance(kind, type) and issubclass(kind, Struct):
        return "a mapping with any of: " + ", ".join(_fields(kind))
    return _PLAIN.get(kind, "a list" if get_origin(kind) is list else "a mapping")


_PLAIN: dict[Any, str] = {str: "text", int: "an integer", bool: "true or false",
                          type(None): "null"}


def _fields(kind: Any) -> dict[str, Any]:
    """The keys of the mapping (Struct) in a type, with the type of each."""
    return {f.encode_name: f.type for f in msgspec.structs.fields(_choose(kind, Struct))}


def _label(key: object) -> str:
    return repr(key) if isinstance(key, str) and len(key) <= 40 else _show(key, 40)


def _kind(v: object) -> str:
    return "null" if v is None else type(v).__name__


def _int(v: int, where: str, keys: tuple[str, ...], low: int | None = None) -> int:
    """An integer of the format, within its bounds (at most 64 bits)."""
    lo = -MAX_INT if low is None else low
    if not lo <= v <= MAX_INT:
        raise ScenarioError(where, f"{': '.join(keys)}: expected an integer from {lo} to "
                                   f"{MAX_INT}, got {_show(v)}")
    return v


def _seat_map(raw: Mapping[Any, Any], value: Any, where: str,
              keys: tuple[str, ...]) -> dict[int, Any]:
    """A mapping seat (or team) -> value: keys 0 or "0", values of the format type ``value``."""
    out: dict[int, Any] = {}
    for k, v in raw.items():
        if isinstance(k, str) and k.strip().isdigit() and len(k.strip()) <= 3:
            seat = int(k)
        elif isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise ScenarioError(where, f"{': '.join(keys)}: {_show(k)} is not a seat number")
        else:
            seat = k
        out[seat] = _bounded(_convert(v, value, where, (*keys, _label(k))), where,
                             (*keys, _label(k)))
    return out


def _hands(raw: Mapping[Any, Any], where: str, keys: tuple[str, ...]) -> dict[int, Any]:
    """A mapping seat -> list of cards, the cards as text."""
    return {s: _cards(c) for s, c in _seat_map(raw, Cards, where, keys).items()}


def _bounded(v: Any, where: str, keys: tuple[str, ...]) -> Any:
    """A converted value whose integers (in its fields and lists) are all within the format's
    bounds, which go past msgspec's 64-bit signed ones (mappings seat -> value are checked by
    :func:`_seat_map`)."""
    if isinstance(v, int) and not isinstance(v, bool):
        _int(v, where, keys)
    elif isinstance(v, list):
        for x in v:
            if not isinstance(x, str):  # cards are mostly text
                _bounded(x, where, keys)
    elif isinstance(v, _Keys):
        for name, key in zip(v.__struct_fields__, v.__struct_encode_fields__, strict=True):
            _bounded(getattr(v, name), where, (*keys, key))
    return v


def _text(v: str | int | UnsetType | None) -> str | None:
    """A card or colour code as text (None when not given)."""
    return None if v is None or isinstance(v, UnsetType) else str(v)


def _cards(v: str | int | list[str | int] | UnsetType | None) -> tuple[str, ...]:
    """A card or a list of cards, as text."""
    if v is None or isinstance(v, UnsetType):
        return ()
    return tuple(str(c) for c in v) if isinstance(v, list) else (str(v),)


def _setup(raw: _Setup, where: str) -> SetupSpec:
    """``setup`` with its cards as text and its seats as numbers."""
    return SetupSpec(
        hands=_hands(raw.hands or {}, where, ("setup", "hands")),
        starter=_text(raw.starter),
        discard=_cards(raw.discard) if raw.discard is not None else None,
        color=_text(raw.color),
        draw_pile=_cards(raw.draw_pile),
        turn=_int(raw.turn, where, ("setup", "turn"), low=0) if raw.turn is not None else None,
        direction=raw.direction,
        scores=_seat_map(raw.scores or {}, Int, where, ("setup", "scores")),
    )


def _step(doc: Any, number: int, where: str) -> Step:
    """A step's action (at most one), its seat and expected error, and its expectation."""
    keys = (f"step {number}",)
    raw: _Step = _bounded(_convert(doc, _STEP, where, keys), where, keys)

    def error(what: str) -> ScenarioError:
        return ScenarioError(where, f"step {number}: {what}")

    given = {k for k in (*VERB_KEYS, *MODIFIER_KEYS) if getattr(raw, _attr(k)) is not UNSET}
    verbs = [k for k in VERB_KEYS if k in given]
    if len(verbs) > 1:
        raise error(f"one action a step, not {' and '.join(verbs)}")
    action: ActionSpec | None = None
    stray = [k for k in ("target", "power", "give") if k in given]
    if verbs:
        action = _verb_action(verbs[0], raw, given, error)
    elif stray:
        raise error(f"{stray[0]} goes with play or jump_in")
    elif "uno" in given and "color" in given:
        raise error("uno and color on their own are two actions: use two steps")
    elif "uno" in given:
        if raw.uno is not True:
            raise error("uno: on its own, uno: true declares UNO")
        action = ActionSpec("uno")
    elif "color" in given:
        action = ActionSpec("color", color=_text(raw.color))
    if action is not None and raw.seat is None:
        raise error(f"the action {action.text()!r} needs the seat that takes it")
    if action is None and raw.seat is not None:
        raise error("seat goes with an action (play, draw, pass, challenge, catch, jump_in, "
                    "uno, color, timeout, time_up)")
    if raw.error is not None:
        if action is None:
            raise error("error: error goes with an action that must be rejected")
        if not isinstance(raw.error, str) or raw.error not in ERROR_CODES:
            raise error(f"error: unknown code {_show(raw.error)} "
                        f"(allowed: {', '.join(ERROR_CODES)})")
    expect = None
    if not isinstance(raw.expect, UnsetType):
        expect = _expect(raw.expect, doc["expect"], where, (*keys, "expect"))
    if action is None and expect is None:
        raise error("a step needs an action, an expect, or both")
    return Step(number, raw.seat, action, raw.error, expect)


def _attr(key: str) -> str:
    """The attribute of a key (``pass`` is a Python keyword)."""
    return "pass_" if key == "pass" else key


def _verb_action(verb: str, raw: _Step, given: set[str],
                 error: Callable[[str], ScenarioError]) -> ActionSpec:
    v = getattr(raw, _attr(verb))
    if verb in ("play", "jump_in"):
        return ActionSpec(verb, cards=_cards(v), color=_text(raw.color),
                          target=None if isinstance(raw.target, UnsetType) else raw.target,
                          power=_text(raw.power), give=_cards(raw.give), uno=raw.uno is True)
    stray = [k for k in MODIFIER_KEYS if k in given]
    if stray:
        raise error(f"{stray[0]} goes with play or jump_in, not with {verb}")
    if verb == "catch":
        return ActionSpec("catch", target=v)
    if verb == "challenge":
        return ActionSpec("challenge" if v else "accept")
    if v is not True:
        raise error(f"{verb}: write {verb}: true")
    return ActionSpec(verb)


def _expect(raw: _Expect, doc: Mapping[str, Any], where: str,
            keys: tuple[str, ...]) -> dict[str, Any]:
    """An ``expect`` as the run compares it, in the order the file gives its keys: cards as
    text, seats as numbers; values are compared when run."""
    out: dict[str, Any] = {}
    for key in doc:
        v = getattr(raw, key)
        if key in ("top", "color"):
            v = _text(v)
        elif key == "hands":
            v = _hands(v, where, (*keys, key))
        elif key == "hand_sizes" and isinstance(v, list):  # every seat's, in order
            out[key], out["_hand_sizes_all"] = dict(enumerate(v)), len(v)
            continue
        elif key in ("hand_sizes", "scores"):
            v = _seat_map(v, Int, where, (*keys, key))
        elif key == "legal_for":
            v = _seat_map(v, Strings, where, (*keys, key))
        elif key == "open_hands":
            v = {s: None if c is None else _cards(c)
                 for s, c in _seat_map(v, Cards | None, where, (*keys, key)).items()}
        elif key in ("pending", "effect") and v is not None:
            v = {k: _text(x) if k in ("kind", "color") else x
                 for k in doc[key] for x in [getattr(v, k)]}
        out[key] = v
    return out


# ==============================================================================================
# running
# ==============================================================================================
def _show(v: Any, limit: int = 80) -> str:
    """Values as the scenario file writes them: null, true, [R3, G6], {amount: 4}; a bounded
    excerpt (at most ``limit`` characters, a few levels and items), however big the value."""
    out: list[str] = []
    budget = [limit + 1]

    def put(text: str) -> bool:
        out.append(text[:budget[0]])
        budget[0] -= len(text)
        return budget[0] > 0

    def walk(x: Any, depth: int) -> bool:
        if x is None:
            return put("null")
        if isinstance(x, bool):
            return put("true" if x else "false")
        if isinstance(x, (list, tuple, set, Mapping)):
            if depth >= 4:
                return put("...")
            mapping = isinstance(x, Mapping)
            if not put("{" if mapping else "["):
                return False
            items: Iterable[Any] = x.items() if isinstance(x, Mapping) else x
            for i, item in enumerate(items):
                if i and not put(", "):
                    return False
                if i >= 8:
                    return put("...")
                if mapping:
                    if not (walk(item[0], depth + 1) and put(": ")
                            and walk(item[1], depth + 1)):
                        return False
                elif not walk(item, depth + 1):
                    return False
            return put("}" if mapping else "]")
        if isinstance(x, int) and x.bit_length() > 128:
            return put(f"<an integer of {x.bit_length()} bits>")
        return put(str(x)[:limit + 1])

    walk(v, 0)
    text = "".join(out)
    return text if len(text) <= limit else text[:limit - 3] + "..."


# ==============================================================================================
# many paths
# ==============================================================================================
