"""Rule scenarios (spec/SCENARIOS.md): YAML files that set a table, play actions and check state.

Scenarios are the project's public way to pin a rule down, so this module follows the format to
the letter: every key is checked when a file is read (an unknown key names itself and the keys
allowed there), a table that cannot exist is reported as a setup error rather than raised, and a
failing step stops its scenario with the step number and the expected and actual values.

    python -m unoarena.scenarios scenarios/    # a line per scenario, then "N passed, M failed"

Where the format leaves room, this reading is used:

- an action step needs its ``seat`` (a rule test should say who acts);
- ``setup.color``, ``turn`` and ``direction`` go with ``discard`` only: with a starter, the
  START rules decide them;
- ``expect.scores``, ``match_over`` and ``match_winner`` are the match's: the setup's scores
  until the round ends, then those scores settled with this round, counted as the match's first;
- cards in steps are read when played, so an unreadable card is the engine's ``bad_action``
  (an ``error: bad_action`` step can test it) and not a format error.

The engine does not import this module; it only drives the engine's public API.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

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

# -- the keys of the format (SCENARIOS.md), in the order the document lists them ---------------
TOP_KEYS = ("name", "description", "rules_covered", "rules", "players", "seed", "dealer",
            "setup", "steps")
SETUP_KEYS = ("hands", "starter", "discard", "color", "draw_pile", "turn", "direction",
              "scores")
VERB_KEYS = ("play", "draw", "pass", "challenge", "catch", "jump_in", "timeout")
MODIFIER_KEYS = ("color", "target", "power", "give", "uno")
STEP_KEYS = ("seat", *VERB_KEYS, *MODIFIER_KEYS, "error", "expect")
EXPECT_KEYS = ("turn", "direction", "top", "color", "hands", "hand_sizes", "draw_pile_size",
               "pending", "effect", "legal", "legal_includes", "legal_excludes", "legal_for",
               "round_over", "round_winner", "scores", "match_over", "match_winner")
PENDING_KEYS = ("kind", "amount", "target")
EFFECT_KEYS = ("kind", "color", "owner")
RULES_KEYS = ("preset", *KEYS)
DIRECTIONS = ("cw", "ccw")
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


def parse_scenario(doc: Any, file: str = "<scenario>", document: int = 1) -> Scenario:
    """Check one document against the format and return it parsed."""
    where = f"{file}: document {document}"
    if not isinstance(doc, Mapping):
        raise ScenarioError(where, f"a scenario is a mapping with at least 'name', "
                                   f"not {_kind(doc)}")
    name = doc.get("name")
    if isinstance(name, str) and name.strip():
        where = f"{file}: {name}"
    p = _Path(where)
    _only(doc, TOP_KEYS, p)
    if not isinstance(name, str) or not name.strip():
        raise p.error("'name' is required: a non-empty string saying what the scenario shows")
    rules = _rules(doc.get("rules", "classic"), doc.get("players"), p)
    covered = doc.get("rules_covered", [])
    if not isinstance(covered, list) or not all(isinstance(r, str) for r in covered):
        raise p.at("rules_covered").error("a list of rule IDs such as [EFF-3, START-3]")
    description = doc.get("description", "")
    if not isinstance(description, str):
        raise p.at("description").error("a string")
    steps_raw = doc.get("steps", [])
    if not isinstance(steps_raw, list):
        raise p.at("steps").error("a list of steps")
    return Scenario(
        name=name.strip(),
        file=file,
        document=document,
        rules=rules,
        seed=_int(doc.get("seed", 0), p.at("seed")),
        dealer=_int(doc.get("dealer", 0), p.at("dealer"), low=0),
        setup=_setup(doc["setup"], p.at("setup")) if doc.get("setup") is not None else None,
        steps=tuple(_step(s, i, p.at(f"step {i}")) for i, s in enumerate(steps_raw, 1)),
        rules_covered=tuple(covered),
        description=description,
    )


class _Path:
    """Where in a document a value sits, for error messages."""

    def __init__(self, where: str, keys: tuple[str, ...] = ()) -> None:
        self.where = where
        self.keys = keys

    def at(self, key: object) -> _Path:
        return _Path(self.where, (*self.keys, key if isinstance(key, str) and len(key) <= 40
                                  else _show(key, 40)))

    def error(self, what: str) -> ScenarioError:
        inner = ": ".join(self.keys)
        return ScenarioError(self.where, f"{inner + ': ' if inner else ''}{what}")


def _kind(v: object) -> str:
    return "null" if v is None else type(v).__name__


def _only(d: Mapping[Any, Any], allowed: Sequence[str], p: _Path) -> None:
    for k in d:
        if not isinstance(k, str) or k not in allowed:
            shown = repr(k) if isinstance(k, str) and len(k) <= 40 else _show(k)
            raise p.error(f"unknown key {shown} (allowed: {', '.join(allowed)})")


#: Integers in a scenario are at most this big (a seed is 64-bit; the rest far smaller).
MAX_INT = (1 << 64) - 1


def _int(v: Any, p: _Path, low: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise p.error(f"expected an integer, got {_show(v)}")
    lo = -MAX_INT if low is None else low
    if not lo <= v <= MAX_INT:
        raise p.error(f"expected an integer from {lo} to {MAX_INT}, got {_show(v)}")
    return v


def _seat_key(k: Any, p: _Path) -> int:
    """A seat (or team) number used as a mapping key: 0 or "0"."""
    if isinstance(k, str) and k.strip().isdigit() and len(k.strip()) <= 3:
        return int(k)
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise p.error(f"{_show(k)} is not a seat number")
    return k


def _text(v: Any, p: _Path) -> str:
    if isinstance(v, bool) or not isinstance(v, (str, int)) or (
            isinstance(v, int) and not 0 <= v <= 9999) or (isinstance(v, str) and len(v) > 200):
        raise p.error(f"expected a code such as R7 or G, got {_show(v)}")
    return str(v)


def _cards(v: Any, p: _Path, one_ok: bool = True) -> tuple[str, ...]:
    """A card, or a list of cards, as text (checked against the deck when run)."""
    if isinstance(v, list):
        return tuple(_text(c, p) for c in v)
    if one_ok:
        return (_text(v, p),)
    raise p.error(f"expected a list of cards, got {_show(v)}")


def _strings(v: Any, p: _Path) -> list[str]:
    if not isinstance(v, list) or not all(isinstance(s, str) for s in v):
        raise p.error("expected a list of action strings such as [draw, \"play R5\"]")
    return list(v)


def _rules(raw: Any, players: Any, p: _Path) -> dict[str, Any]:
    """``rules`` (a preset name or a mapping) merged with a top-level ``players``."""
    if isinstance(raw, str):
        rules: dict[str, Any] = {"preset": raw}
    elif isinstance(raw, Mapping):
        _only(raw, RULES_KEYS, p.at("rules"))
        rules = {"preset": "classic", **{str(k): v for k, v in raw.items()}}
    else:
        raise p.at("rules").error("a preset name or a mapping such as {preset: house, "
                                  "jump_in: on}")
    if players is not None:
        n = _int(players, p.at("players"))
        if "players" in rules and rules["players"] != n:
            raise p.at("players").error(f"{n} here but {rules['players']} in rules: give it once")
        rules["players"] = n
    return rules


def _setup(raw: Any, p: _Path) -> SetupSpec:
    if not isinstance(raw, Mapping):
        raise p.error("a mapping with any of: " + ", ".join(SETUP_KEYS))
    _only(raw, SETUP_KEYS, p)
    hands_raw = raw.get("hands") or {}
    if not isinstance(hands_raw, Mapping):
        raise p.at("hands").error("a mapping seat -> list of cards")
    hands = {_seat_key(k, p.at("hands")): _cards(v, p.at("hands").at(k), one_ok=False)
             for k, v in hands_raw.items()}
    discard = raw.get("discard")
    direction = raw.get("direction")
    if direction is not None and direction not in DIRECTIONS:
        raise p.at("direction").error(f"cw or ccw, not {_show(direction)}")
    scores_raw = raw.get("scores") or {}
    if not isinstance(scores_raw, Mapping):
        raise p.at("scores").error("a mapping seat (or team) -> score")
    turn = raw.get("turn")
    return SetupSpec(
        hands=hands,
        starter=_text(raw["starter"], p.at("starter")) if raw.get("starter") is not None
        else None,
        discard=_cards(discard, p.at("discard"), one_ok=False) if discard is not None else None,
        color=_text(raw["color"], p.at("color")) if raw.get("color") is not None else None,
        draw_pile=_cards(raw.get("draw_pile") or [], p.at("draw_pile"), one_ok=False),
        turn=_int(turn, p.at("turn"), low=0) if turn is not None else None,
        direction=direction,
        scores={_seat_key(k, p.at("scores")): _int(v, p.at("scores").at(k))
                for k, v in scores_raw.items()},
    )


def _flag(v: Any, p: _Path) -> bool:
    if not isinstance(v, bool):
        raise p.error(f"true or false, not {_show(v)}")
    return v


def _step(raw: Any, number: int, p: _Path) -> Step:
    if not isinstance(raw, Mapping):
        raise p.error("a step is a mapping: an action with its seat, an expect, or both")
    _only(raw, STEP_KEYS, p)
    verbs = [k for k in VERB_KEYS if k in raw]
    if len(verbs) > 1:
        raise p.error(f"one action a step, not {' and '.join(verbs)}")
    action: ActionSpec | None = None
    if verbs:
        action = _verb_action(verbs[0], raw, p)
    elif "uno" in raw or "color" in raw:
        stray = [k for k in ("target", "power", "give") if k in raw]
        if stray:
            raise p.error(f"{stray[0]} goes with play or jump_in")
        if "uno" in raw and "color" in raw:
            raise p.error("uno and color on their own are two actions: use two steps")
        if "uno" in raw:
            if raw["uno"] is not True:
                raise p.at("uno").error("on its own, uno: true declares UNO")
            action = ActionSpec("uno")
        else:
            action = ActionSpec("color", color=_text(raw["color"], p.at("color")))
    else:
        stray = [k for k in ("target", "power", "give") if k in raw]
        if stray:
            raise p.error(f"{stray[0]} goes with play or jump_in")
    seat = raw.get("seat")
    if action is not None:
        if seat is None:
            raise p.error(f"the action {action.text()!r} needs the seat that takes it")
        seat = _int(seat, p.at("seat"), low=0)
    elif seat is not None:
        raise p.error("seat goes with an action (play, draw, pass, challenge, catch, jump_in, "
                      "uno, color, timeout)")
    error = raw.get("error")
    if error is not None:
        if action is None:
            raise p.at("error").error("error goes with an action that must be rejected")
        if error not in ERROR_CODES:
            raise p.at("error").error(f"unknown code {_show(error)} "
                                      f"(allowed: {', '.join(ERROR_CODES)})")
    expect = _expect(raw["expect"], p.at("expect")) if "expect" in raw else None
    if action is None and expect is None:
        raise p.error("a step needs an action, an expect, or both")
    return Step(number, seat, action, error, expect)


def _verb_action(verb: str, raw: Mapping[str, Any], p: _Path) -> ActionSpec:
    v = raw[verb]
    if verb in ("play", "jump_in"):
        give = raw.get("give")
        return ActionSpec(
            verb,
            cards=_cards(v, p.at(verb)),
            color=_text(raw["color"], p.at("color")) if "color" in raw else None,
            target=_int(raw["target"], p.at("target")) if "target" in raw else None,
            power=_text(raw["power"], p.at("power")) if "power" in raw else None,
            give=_cards(give, p.at("give")) if give is not None else (),
            uno=_flag(raw["uno"], p.at("uno")) if "uno" in raw else False,
        )
    stray = [k for k in MODIFIER_KEYS if k in raw]
    if stray:
        raise p.error(f"{stray[0]} goes with play or jump_in, not with {verb}")
    if verb == "catch":
        return ActionSpec("catch", target=_int(v, p.at("catch")))
    if verb == "challenge":
        return ActionSpec("challenge" if _flag(v, p.at("challenge")) else "accept")
    if v is not True:
        raise p.at(verb).error(f"write {verb}: true")
    return ActionSpec(verb)


def _seat_map(v: Any, p: _Path, value: Callable[[Any, _Path], Any]) -> dict[int, Any]:
    if not isinstance(v, Mapping):
        raise p.error("a mapping seat -> value")
    return {_seat_key(k, p): value(x, p.at(k)) for k, x in v.items()}


def _optional_int(v: Any, p: _Path) -> int | None:
    return None if v is None else _int(v, p)


def _expect(raw: Any, p: _Path) -> dict[str, Any]:
    """Check an ``expect`` mapping's keys and value types; values are compared when run."""
    if not isinstance(raw, Mapping):
        raise p.error("a mapping with any of: " + ", ".join(EXPECT_KEYS))
    _only(raw, EXPECT_KEYS, p)
    out: dict[str, Any] = {}
    for key, v in raw.items():
        q = p.at(key)
        if key in ("turn", "draw_pile_size"):
            out[key] = _int(v, q)
        elif key == "direction":
            if v not in DIRECTIONS:
                raise q.error(f"cw or ccw, not {_show(v)}")
            out[key] = v
        elif key == "top":
            out[key] = _text(v, q)
        elif key == "color":
            out[key] = None if v is None else _text(v, q)
        elif key == "hands":
            out[key] = _seat_map(v, q, lambda x, r: _cards(x, r, one_ok=False))
        elif key == "hand_sizes":
            if isinstance(v, list):
                out[key] = dict(enumerate(_int(x, q) for x in v))
                out["_hand_sizes_all"] = len(v)
            else:
                out[key] = _seat_map(v, q, _int)
        elif key in ("pending", "effect"):
            if v is not None:
                if not isinstance(v, Mapping):
                    raise q.error("a mapping or null")
                _only(v, PENDING_KEYS if key == "pending" else EFFECT_KEYS, q)
                v = {k: (_int(x, q.at(k)) if k in ("amount", "target", "owner")
                         else _text(x, q.at(k))) for k, x in v.items()}
            out[key] = v
        elif key in ("legal", "legal_includes", "legal_excludes"):
            out[key] = _strings(v, q)
        elif key == "legal_for":
            out[key] = _seat_map(v, q, _strings)
        elif key in ("round_over", "match_over"):
            out[key] = _flag(v, q)
        elif key == "round_winner":
            out[key] = _optional_int(v, q)
        elif key == "scores":
            out[key] = _seat_map(v, q, _int)
        elif key == "match_winner":
            out[key] = ([_int(x, q) for x in v] if isinstance(v, list)
                        else _optional_int(v, q))
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
                 got: dict[str, Any] | None) -> list[str]:
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
        return list(scores), over, tuple(winners)

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
