"""Rule scenarios (spec/SCENARIOS.md): YAML files that set a table, play actions and check state.

Scenarios are the project's public way to pin a rule down, so this module follows the format to
the letter: every key is checked when a file is read (an unknown key names itself and the keys
allowed there; a value of the wrong kind names its key, itself and what is allowed), a table
that cannot exist is reported as a setup error rather than raised, and a failing step stops its
scenario with the step number and the expected and actual values.

    python -m unoarena.scenarios scenarios/    # a line per scenario, then "N passed, M failed"

Where the format leaves room, this reading is used:

- an action step needs its ``seat`` (a rule test should say who acts);
- ``setup.color``, ``turn`` and ``direction`` go with ``discard`` only: with a starter, the
  START rules decide them;
- ``expect.scores``, ``match_over`` and ``match_winner`` are the match's: the setup's scores
  until the round ends, then those scores settled with this round, counted as the match's first;
- cards in steps are read when played, so an unreadable card is the engine's ``bad_action``
  (an ``error: bad_action`` step can test it) and not a format error.

The format is declared as msgspec Structs (one a mapping of the format), which check the keys
and kinds of values; what msgspec cannot say (one action a step, seats as keys, 64-bit
integers) is checked after. The engine does not import this module; it only drives the
engine's public API.
"""

from __future__ import annotations

import re
import sys
import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union, get_args, get_origin

import msgspec
import yaml
from msgspec import UNSET, Meta, Struct, UnsetType, defstruct

from unoarena.engine import (
    CODES,
    COLOR_CODES,
    ERROR_CODES,
    KEYS,
    Action,
    Game,
    IllegalAction,
    RuleSet,
    Setup,
    parse_card,
    parse_color,
)

__all__ = [
    "ActionSpec",
    "Scenario",
    "ScenarioError",
    "ScenarioResult",
    "SetupSpec",
    "Step",
    "load_scenarios",
    "main",
    "parse_scenario",
    "run_paths",
    "run_scenario",
    "scenario_files",
]

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
def scenario_files(path: str | Path) -> list[Path]:
    """The scenario files of a path: the file itself, or every ``*.yaml``/``*.yml`` under a
    folder, sorted, so that runs are reproducible. A missing path raises FileNotFoundError."""
    p = Path(path)
    if p.is_dir():
        return sorted(f for f in p.rglob("*") if f.is_file() and f.suffix in SUFFIXES)
    if p.is_file():
        return [p]
    raise FileNotFoundError(f"no such file or folder: {path}")


def load_scenarios(path: str | Path) -> list[Scenario]:
    """Every scenario of a file or folder. A document that breaks the format raises
    :class:`ScenarioError` (use :func:`run_paths` to report such documents instead)."""
    out: list[Scenario] = []
    for f in scenario_files(path):
        for index, doc in _documents(f):
            out.append(parse_scenario(doc, str(f), index))
    return out


#: Limits on what a scenario file may be: its size, and how deeply its values nest.
MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_DEPTH = 32


class BoundedLoader(yaml.SafeLoader):
    """YAML's safe loader without aliases (``*name``) and with a nesting limit.

    An alias repeats a value without copying it, so a few lines can stand for billions of
    values ("billion laughs"): anything that walks the result, an error message included,
    would run for ever. Scenario and save files have no use for them. Deep nesting would end
    in a RecursionError; it is refused at :data:`MAX_DEPTH` levels instead."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        """PyYAML's node builder (called once per node, nested for its children),
        refusing aliases and counting the depth."""
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]
            raise yaml.composer.ComposerError(None, None, "aliases (*name) are not allowed",
                                              event.start_mark)
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise yaml.composer.ComposerError(
                    None, None, f"values nest more than {MAX_DEPTH} levels deep",
                    self.peek_event().start_mark)  # type: ignore[no-untyped-call]
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def load_yaml_documents(text: str) -> list[Any]:
    """Every document of a YAML text, read with :class:`BoundedLoader`."""
    return list(yaml.load_all(text, Loader=BoundedLoader))


def _documents(f: Path) -> list[tuple[int, Any]]:
    """The non-empty YAML documents of a file, numbered from 1."""
    try:
        if f.stat().st_size > MAX_FILE_BYTES:
            raise ScenarioError(str(f), f"cannot read: larger than {MAX_FILE_BYTES} bytes")
        text = f.read_text(encoding="utf-8")
        docs = load_yaml_documents(text)
    except (OSError, ValueError, yaml.YAMLError, RecursionError) as e:
        raise ScenarioError(str(f), f"cannot read: {_short(' '.join(str(e).split()))}"
                            ) from None
    return [(i, d) for i, d in enumerate(docs, 1) if d is not None]


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
class _Failed(Exception):
    """A step's failure message (internal)."""


def run_scenario(s: Scenario) -> ScenarioResult:
    """Run one scenario. Never raises for the scenario's sake: a rule set or setup that cannot
    be, a rejected action that was not expected, an expectation that differs, or an engine
    exception is a failed result naming the step."""

    def fail(message: str, step: int | None = None) -> ScenarioResult:
        return ScenarioResult(False, s.name, message, step, s.file)

    try:
        rules = RuleSet.from_dict(s.rules)
    except ValueError as e:  # ConfigError names the keys
        return fail(f"rules: {e}")
    try:
        setup, scores = _engine_setup(s.setup, rules)
        seat_scores = ([scores[rules.team_of(i)] for i in range(rules.players)]
                       if rules.teams else list(scores))
        game = Game(rules, s.seed, s.dealer, setup=setup, scores=seat_scores)
    except (ValueError, IndexError) as e:
        return fail(f"setup error: {e}")
    except Exception as e:  # an engine crash on a setup is still this scenario's failure
        return fail(f"setup error: the engine raised {type(e).__name__}: {e}")
    run = _Run(game, rules, scores)
    for step in s.steps:
        try:
            run.step(step)
        except _Failed as e:
            return fail(str(e), step.number)
        except Exception as e:
            return fail(f"the engine raised {type(e).__name__}: {e}", step.number)
    return ScenarioResult(True, s.name, "", None, s.file)


def _engine_setup(spec: SetupSpec | None, rules: RuleSet) -> tuple[Setup | None, list[int]]:
    """The engine's :class:`Setup` and the match scores so far; ValueError for a table that
    cannot exist (the engine adds its own checks of the deck's counts)."""
    n = rules.players
    width = rules.team_count or n
    scores = [0] * width
    if spec is None:
        return None, scores
    for k, v in spec.scores.items():
        if k >= width:
            what = "team" if rules.teams else "seat"
            raise ValueError(f"scores names {what} {k}; there are {width} ({what}s 0..{width - 1})")
        scores[k] = v
    if spec.starter is not None and spec.discard is not None:
        raise ValueError("give either starter (the first card, with its START rules) or "
                         "discard (a pile in play), not both")
    if spec.discard is None:
        stray = [k for k, v in (("color", spec.color), ("turn", spec.turn),
                                ("direction", spec.direction)) if v is not None]
        if stray:
            raise ValueError(f"{stray[0]} goes with discard (a pile in play); a starter's "
                             "rules decide it otherwise")
    elif not spec.discard:
        raise ValueError("discard needs at least one card (its top is the card in play)")
    for s in spec.hands:
        if s >= n:
            raise ValueError(f"hands names seat {s}; a {n}-player game has seats 0..{n - 1}")
    if spec.turn is not None and spec.turn >= n:
        raise ValueError(f"turn {spec.turn} is not a seat of a {n}-player game (0..{n - 1})")

    def cards(xs: Iterable[str]) -> list[int]:
        return [parse_card(c) for c in xs]

    setup = Setup(
        hands={s: cards(h) for s, h in spec.hands.items()},
        starter=parse_card(spec.starter) if spec.starter is not None else None,
        discard=cards(spec.discard) if spec.discard is not None else None,
        color=parse_color(spec.color) if spec.color is not None else None,
        draw_pile=cards(spec.draw_pile),
        turn=spec.turn,
        direction=-1 if spec.direction == "ccw" else 1,
    )
    return setup, scores


class _Run:
    """A scenario in progress: the game and the match scores before this round."""

    def __init__(self, game: Game, rules: RuleSet, scores: list[int]) -> None:
        self.game = game
        self.rules = rules
        self.scores_before = scores

    def step(self, step: Step) -> None:
        if step.action is not None and step.seat is not None:
            self.act(step.seat, step.action, step.error)
        if step.expect is not None:
            self.check(step.expect)

    # -- actions ---------------------------------------------------------------------------
    def act(self, seat: int, spec: ActionSpec, error: str | None) -> None:
        g = self.game
        before = self.snapshot()
        try:
            if spec.verb == "time_up":  # HR-BLITZ: the round's clock, for the turn seat
                if seat != g.turn:
                    raise IllegalAction("not_your_turn", f"time_up is the turn seat's "
                                                         f"({g.turn}), not seat {seat}'s")
                g.time_up()
            else:
                g.apply(spec.build(), seat)
        except IllegalAction as e:
            if error is None:
                raise _Failed(f"seat {seat} {spec.text()!r} was rejected: {e.code}: "
                              f"{e.message}") from None
            if e.code != error:
                raise _Failed(f"seat {seat} {spec.text()!r}: expected error {error}, got "
                              f"{e.code}: {e.message}") from None
            if self.snapshot() != before:  # DIG-4: a rejected action changes nothing
                raise _Failed(f"seat {seat} {spec.text()!r} was rejected ({e.code}) but the "
                              "game changed") from None
            return
        if error is not None:
            raise _Failed(f"seat {seat} {spec.text()!r}: expected error {error}, but it was "
                          "accepted")

    def snapshot(self) -> tuple[Any, ...]:
        """What a rejected action must leave as it was (DIG-4), windows included."""
        g = self.game
        seats = range(g.players)
        return (tuple(tuple(g.hand(s)) for s in seats), g.draw_pile_size,
                tuple(g.discard_pile), g.color, g.turn, g.phase, g.direction, g.pending,
                g.effect, g.is_over, g.outcome,
                tuple(tuple(str(a) for a in g.legal_actions(s)) for s in seats))

    # -- expectations ------------------------------------------------------------------------
    def check(self, exp: dict[str, Any]) -> None:
        """Compare every key named; report all that differ in one message."""
        diffs: list[str] = []
        for key, want in exp.items():
            if key.startswith("_"):
                continue
            try:
                diffs += getattr(self, f"_x_{key}")(want, exp)
            except _Failed as e:
                diffs.append(str(e))
        if diffs:
            raise _Failed("; ".join(diffs))

    @staticmethod
    def _cmp(label: str, want: Any, got: Any) -> list[str]:
        return [] if want == got else [f"{label}: expected {_show(want)}, got {_show(got)}"]

    def _x_turn(self, want: int, exp: dict[str, Any]) -> list[str]:
        return self._cmp("turn", want, self.game.turn)

    def _x_direction(self, want: str, exp: dict[str, Any]) -> list[str]:
        return self._cmp("direction", want, self.game.direction)

    def _x_draw_pile_size(self, want: int, exp: dict[str, Any]) -> list[str]:
        return self._cmp("draw_pile_size", want, self.game.draw_pile_size)

    def _x_top(self, want: str, exp: dict[str, Any]) -> list[str]:
        return self._cmp("top", CODES[_card(want, "top")], CODES[self.game.top])

    def _x_color(self, want: str | None, exp: dict[str, Any]) -> list[str]:
        c = self.game.color
        want_code = None if want is None else COLOR_CODES[_color(want, "color")]
        return self._cmp("color", want_code, COLOR_CODES[c] if c >= 0 else None)

    def _x_hands(self, want: dict[int, tuple[str, ...]], exp: dict[str, Any]) -> list[str]:
        out: list[str] = []
        for seat, cards in want.items():
            self._seat(seat, "hands")
            w = sorted(_card(c, f"hands: {seat}") for c in cards)
            out += self._cmp(f"hands[{seat}]", [CODES[k] for k in w],
                             [CODES[k] for k in sorted(self.game.hand(seat))])
        return out

    def _x_open_hands(self, want: dict[int, tuple[str, ...] | None],
                      exp: dict[str, Any]) -> list[str]:
        """HR-OPEN: the hands every seat's view shows face up (null: hidden)."""
        shown = self.game.view(self.game.turn).get("open_hands")
        out: list[str] = []
        for seat, cards in want.items():
            self._seat(seat, "open_hands")
            got = shown[seat] if shown is not None else None
            w = (None if cards is None else
                 [CODES[k] for k in sorted(_card(c, f"open_hands: {seat}") for c in cards)])
            out += self._cmp(f"open_hands[{seat}]", w, got)
        return out

    def _x_hand_sizes(self, want: dict[int, int], exp: dict[str, Any]) -> list[str]:
        sizes = self.game.hand_sizes()
        if "_hand_sizes_all" in exp:
            return self._cmp("hand_sizes", [want[i] for i in range(len(want))], sizes)
        out: list[str] = []
        for seat, n in want.items():
            self._seat(seat, "hand_sizes")
            out += self._cmp(f"hand_sizes[{seat}]", n, sizes[seat])
        return out

    def _x_pending(self, want: dict[str, Any] | None, exp: dict[str, Any]) -> list[str]:
        return self._partial("pending", want, self.game.pending)

    def _x_effect(self, want: dict[str, Any] | None, exp: dict[str, Any]) -> list[str]:
        return self._partial("effect", want, self.game.effect)

    def _partial(self, label: str, want: dict[str, Any] | None,
                 got: Mapping[str, Any] | None) -> list[str]:
        if want is None or got is None:
            shown = None if got is None else {k: got[k] for k in got if k != "source"}
            return [] if want is None and got is None else \
                [f"{label}: expected {_show(want)}, got {_show(shown)}"]
        out: list[str] = []
        for k, v in want.items():
            g = got.get(k)
            if k == "color":
                v = COLOR_CODES[_color(v, f"{label}: color")]
            out += self._cmp(f"{label}.{k}", v, g)
        return out

    def _x_legal(self, want: list[str], exp: dict[str, Any]) -> list[str]:
        return self._legal_exact("legal", self.game.turn, want)

    def _x_legal_for(self, want: dict[int, list[str]], exp: dict[str, Any]) -> list[str]:
        out: list[str] = []
        for seat, acts in want.items():
            self._seat(seat, "legal_for")
            out += self._legal_exact(f"legal_for[{seat}]", seat, acts)
        return out

    def _x_legal_includes(self, want: list[str], exp: dict[str, Any]) -> list[str]:
        got = self.legal(self.game.turn)
        missing = sorted(self.expand(want, "legal_includes") - got)
        return [f"legal_includes: not legal for seat {self.game.turn}: {_show(missing)} "
                f"(legal: {_show(sorted(got))})"] if missing else []

    def _x_legal_excludes(self, want: list[str], exp: dict[str, Any]) -> list[str]:
        got = self.legal(self.game.turn)
        present = sorted(self.expand(want, "legal_excludes") & got)
        return [f"legal_excludes: legal for seat {self.game.turn}: {_show(present)}"] \
            if present else []

    def _legal_exact(self, label: str, seat: int, want: list[str]) -> list[str]:
        w, g = self.expand(want, label), self.legal(seat)
        if w == g:
            return []
        return [f"{label}: expected {_show(sorted(w))}, got {_show(sorted(g))} "
                f"(missing {_show(sorted(w - g))}, unexpected {_show(sorted(g - w))})"]

    def legal(self, seat: int) -> set[str]:
        """The seat's legal actions as the format lists them: once, without the UNO flag,
        and without ``timeout``."""
        return {str(a.without_uno()) for a in self.game.legal_actions(seat)
                if a.verb != "timeout"}

    def expand(self, strings: list[str], label: str) -> set[str]:
        """Canonical action strings; ``color=*`` (and ``color *``) stand for each colour of
        the edition."""
        colors = [COLOR_CODES[c] for c in self.rules.deck.colors]
        out: set[str] = set()
        for s in strings:
            tokens = s.split()
            variants = [tokens]
            if "color=*" in tokens:
                i = tokens.index("color=*")
                variants = [[*tokens[:i], f"color={c}", *tokens[i + 1:]] for c in colors]
            elif tokens[:2] == ["color", "*"]:
                variants = [["color", c] for c in colors]
            for v in variants:
                try:
                    out.add(str(Action.parse(" ".join(v)).without_uno()))
                except IllegalAction as e:
                    raise _Failed(f"{label}: cannot read {s!r}: {e.message}") from None
        return out

    def _seat(self, seat: int, label: str) -> None:
        if seat >= self.game.players:
            raise _Failed(f"{label}: seat {seat} does not exist (0..{self.game.players - 1})")

    def _x_round_over(self, want: bool, exp: dict[str, Any]) -> list[str]:
        return self._cmp("round_over", want, self.game.is_over)

    def _x_round_winner(self, want: int | None, exp: dict[str, Any]) -> list[str]:
        out = self.game.outcome
        return self._cmp("round_winner", want, out.winner if out is not None else None)

    def match(self) -> tuple[list[int], bool, tuple[int, ...]]:
        """Match scores, over?, winners: as before this round until it ends, then settled
        with this round counted as the match's only round played in the scenario."""
        out = self.game.outcome
        if out is None:
            return list(self.scores_before), False, ()
        from unoarena.engine.match import settle  # match scoring lives beside the engine

        scores, over, winners = settle(self.rules, list(self.scores_before), out, 1)
        if self.rules.elimination != "off":  # HR-ELIM: over when one player is left
            gone = self.eliminated()
            left = [s for s in range(self.game.players) if s not in gone]
            over = len(left) == 1
            winners = tuple(left) if over else ()
        return list(scores), over, tuple(winners)

    def eliminated(self) -> tuple[int, ...]:
        """HR-ELIM: the seats the finished round puts out (none before it ends)."""
        out = self.game.outcome
        if out is None:
            return ()
        from unoarena.engine.match import eliminated

        return eliminated(self.rules, out, self.game.hand_sizes())

    def _x_eliminated(self, want: list[int], exp: dict[str, Any]) -> list[str]:
        return self._cmp("eliminated", sorted(want), sorted(self.eliminated()))

    def _x_scores(self, want: dict[int, int], exp: dict[str, Any]) -> list[str]:
        scores = self.match()[0]
        out: list[str] = []
        for k, v in want.items():
            if k >= len(scores):
                what = "team" if self.rules.teams else "seat"
                raise _Failed(f"scores: {what} {k} does not exist (0..{len(scores) - 1})")
            out += self._cmp(f"scores[{k}]", v, scores[k])
        return out

    def _x_match_over(self, want: bool, exp: dict[str, Any]) -> list[str]:
        return self._cmp("match_over", want, self.match()[1])

    def _x_match_winner(self, want: int | list[int] | None, exp: dict[str, Any]) -> list[str]:
        winners = self.match()[2]
        got: int | list[int] | None = (None if not winners else
                                       winners[0] if len(winners) == 1 else list(winners))
        if isinstance(want, list) and len(want) == 1:
            want = want[0]
        if isinstance(want, list) and isinstance(got, list):
            return self._cmp("match_winner", sorted(want), sorted(got))
        return self._cmp("match_winner", want, got)


def _card(text: str, label: str) -> int:
    try:
        return parse_card(text)
    except ValueError as e:
        raise _Failed(f"{label}: {e}") from None


def _color(text: str, label: str) -> int:
    try:
        return parse_color(text)
    except ValueError as e:
        raise _Failed(f"{label}: {e}") from None


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
def run_paths(paths: Iterable[str | Path]) -> list[ScenarioResult]:
    """Run every scenario under the paths, in order. A document that breaks the format is a
    failed result (the rest of its file still runs); a missing path raises FileNotFoundError."""
    files = [f for p in paths for f in scenario_files(p)]
    results: list[ScenarioResult] = []
    for f in files:
        try:
            docs = _documents(f)
        except ScenarioError as e:
            results.append(ScenarioResult(False, "(file)", e.detail, None, str(f)))
            continue
        for index, doc in docs:
            try:
                s = parse_scenario(doc, str(f), index)
            except ScenarioError as e:
                name = doc.get("name") if isinstance(doc, Mapping) else None
                label = name if isinstance(name, str) and name else f"document {index}"
                results.append(ScenarioResult(False, label, f"format error: {e.detail}", None,
                                              str(f)))
                continue
            results.append(run_scenario(s))
    return results


def main(paths: Sequence[str]) -> int:
    """Print one line per scenario and ``N passed, M failed``; 0 if all passed, 1 if any
    failed, 2 for a path that does not exist (or none given)."""
    if not paths:
        print("usage: scenario run PATH... (scenario files or folders)", file=sys.stderr)
        return 2
    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        for p in missing:
            print(f"no such file or folder: {p}", file=sys.stderr)
        return 2
    results = run_paths(paths)
    for r in results:
        print(r.line())
    failed = sum(not r.ok for r in results)
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
