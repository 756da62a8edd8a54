"""Fuzz every parser and boundary with malformed values; count what was tried and refused.

The targets are hypothesis tests over the project's own inputs: rule sets (``RuleSet`` and
``--set`` strings), ``Game.apply`` (any value as an action or a seat), game and match records,
saved matches, scenario documents and YAML text, and, with the web extra, every HTTP route and
WebSocket message of a live server. Each target asserts the project's own error (ConfigError,
IllegalAction, RecordError, ScenarioError, a ValueError naming the field, an HTTP 4xx, a
WebSocket ``error`` message), never another exception, and no change after a refused input.

``tests/test_fuzz_engine.py`` and ``tests/web/test_fuzz_web.py`` run a small, time-bounded
sample in CI (the server's targets are in :mod:`unoarena.testing.web_fuzz`);
``scripts/fuzz.py`` is the long run whose counts docs/development.md reports:

    python scripts/fuzz.py --seconds 300             # every target, about 5 minutes in all
    python scripts/fuzz.py --seconds 60 --only apply records
    python scripts/fuzz.py --seconds 300 --json      # the counts as one JSON object

It exits 1 if any input broke an invariant (hypothesis prints the smallest such input).
"""

from __future__ import annotations

import argparse
import copy
import functools
import json
import math
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from ..engine import (
    ERROR_CODES,
    KEYS,
    PRESETS,
    Action,
    ConfigError,
    Game,
    IllegalAction,
    Match,
    RecordError,
    RuleSet,
    game_record,
    match_record,
    parse_overrides,
    preset,
    replay_game,
    replay_match,
)
from ..engine.record import read_json
from ..scenarios import (
    ScenarioError,
    load_yaml_documents,
    parse_scenario,
    run_scenario,
)

#: The checkout's scenarios, whose documents the scenario target damages (an installed package
#: without them damages one built-in scenario instead).
SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios"
#: A scenario for when the checkout's folder is not there.
_BUILTIN_SCENARIO: dict[str, Any] = {
    "name": "a colour matches", "rules_covered": ["TURN-1"], "rules": "classic", "players": 2,
    "setup": {"hands": {0: ["R5", "B2"], 1: ["G3", "Y4"]}, "discard": ["R1"], "turn": 0},
    "steps": [{"seat": 0, "play": "R5", "expect": {"top": "R5", "turn": 1}}]}
#: What each target tried: inputs, and how many of them were refused with the project's error.
COUNTS: dict[str, Counter[str]] = {}
#: Error messages are bounded excerpts: no refusal may say more than this.
MAX_MESSAGE = 2000


def count(target: str, what: str, n: int = 1) -> None:
    """Add ``n`` to what ``target`` tried (``inputs``) or got (``refused``, ``broken``...)."""
    COUNTS.setdefault(target, Counter())[what] += n


# ================================================================================================
# values
# ================================================================================================
BIG_INTS = (2**31, 2**53 + 1, 2**63, 2**64, -(2**63) - 1, 10**30, 10**400)
WORDS = ("", " ", "0", "1", "-1", "nan", "NaN", "inf", "-inf", "1e999", "on", "off", "none",
         "null", "true", "R7", "W4", "G", "draw", "pass", "play W4 color=G", "catch 1",
         "classic", "house", "attack", "\x00", "é", "🂠", "x" * 300)
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 200), st.sampled_from(BIG_INTS),
    st.integers(), st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(WORDS),
    st.text(max_size=20),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.one_of(st.sampled_from(KEYS), st.text(max_size=8)), inner, max_size=5),
    max_leaves=12,
)


def deep(depth: int, kind: str) -> Any:
    """A value nested ``depth`` levels (lists or dicts)."""
    v: Any = 0
    for _ in range(depth):
        v = [v] if kind == "list" else {"a": v}
    return v


deep_values = st.builds(deep, st.integers(1, 3000), st.sampled_from(("list", "dict")))
any_values = st.one_of(json_values, json_values, json_values, deep_values,
                       st.binary(max_size=20), st.just(object()))


def deep_text(depth: int, opener: str) -> str:
    """JSON text nested ``depth`` deep with ``opener`` (``[`` or ``{``): parsers must refuse
    it, not recurse until the stack runs out."""
    closer = {"[": "]", "{": "}"}[opener]
    body = '"a": ' if opener == "{" else ""
    return (opener + body) * depth + "0" + closer * depth


def mutate(data: st.DataObject, value: Any, depth: int = 0) -> Any:
    """``value`` with one place in it replaced, removed or added (a random path)."""
    if isinstance(value, dict) and value and depth < 6 and data.draw(st.integers(0, 3)):
        key = data.draw(st.sampled_from(sorted(value, key=str)))
        out = dict(value)
        op = data.draw(st.integers(0, 5))
        if op == 0:
            del out[key]
        elif op == 1:
            out[data.draw(st.text(max_size=8))] = data.draw(any_values)
        else:
            out[key] = mutate(data, value[key], depth + 1)
        return out
    if isinstance(value, list) and value and depth < 6 and data.draw(st.integers(0, 3)):
        i = data.draw(st.integers(0, len(value) - 1))
        out_l = list(value)
        op = data.draw(st.integers(0, 5))
        if op == 0:
            del out_l[i]
        elif op == 1:
            out_l.insert(i, data.draw(any_values))
        else:
            out_l[i] = mutate(data, value[i], depth + 1)
        return out_l
    return data.draw(any_values)


def strict_json(value: Any) -> str:
    """JSON as a browser or orjson would accept it: no NaN, no integer beyond 64 bits."""
    text = json.dumps(value, allow_nan=False)

    def check(v: Any) -> None:
        if isinstance(v, bool):
            return
        if isinstance(v, int):
            assert -(2**63) <= v < 2**64, v
        elif isinstance(v, float):
            assert math.isfinite(v), v
        elif isinstance(v, dict):
            for x in v.values():
                check(x)
        elif isinstance(v, list):
            for x in v:
                check(x)

    check(value)
    return text


def bounded(e: BaseException) -> None:
    """A refusal's message is an excerpt, never the whole damaged input."""
    assert len(str(e)) < MAX_MESSAGE, f"an error message of {len(str(e))} characters"


# ================================================================================================
# targets
# ================================================================================================
def rules_case(data: st.DataObject) -> None:
    """RuleSet.from_dict / create / --set strings: a valid rule set that serialises strictly
    and round-trips, or ConfigError."""
    base = PRESETS[data.draw(st.sampled_from(sorted(PRESETS)))].to_dict()
    how = data.draw(st.integers(0, 2))
    count("rules", "inputs")
    try:
        if how == 0:
            rs = RuleSet.from_dict(mutate(data, base))
        elif how == 1:
            rs = RuleSet.from_dict(data.draw(any_values))
        else:
            items = data.draw(st.lists(st.one_of(
                st.builds(lambda k, v: f"{k}={v}", st.sampled_from(KEYS),
                          st.one_of(st.sampled_from(WORDS), st.text(max_size=12),
                                    st.integers().map(str),
                                    st.sampled_from(BIG_INTS).map(str))),
                st.text(max_size=20)), max_size=4))
            rs = preset(data.draw(st.sampled_from([*PRESETS, "nope"])), **parse_overrides(items))
    except ConfigError as e:
        bounded(e)
        count("rules", "refused")
        return
    strict_json(rs.to_dict())
    assert RuleSet.from_dict(rs.to_dict()) == rs


@functools.cache
def _game_bases() -> list[tuple[RuleSet, int, int]]:
    return [(preset(name, players=n), seed, steps) for name in sorted(PRESETS)
            for n, seed, steps in ((2, 1, 0), (3, 2, 7), (4, 3, 25))]


def _advanced(rules: RuleSet, seed: int, steps: int) -> Game:
    g = Game(rules, seed, seed % rules.players, record_events=False)
    for i in range(steps):
        if g.is_over:
            break
        ids = g.legal_ids(g.turn)
        g.step(ids[(i * 7 + seed) % len(ids)], g.turn)
    return g


def make_action(**fields: Any) -> Any:
    """An Action with these fields; where a compiled build refuses to construct one with
    fields of the wrong type, the fields themselves (as malformed an input)."""
    try:
        return Action(**fields)
    except TypeError:
        return fields


action_fields = st.builds(
    make_action,
    verb=st.one_of(st.sampled_from(("play", "draw", "catch", "color", "give", "jump_in")),
                   any_values),
    cards=st.one_of(st.lists(st.integers(-3, 90), max_size=3).map(tuple), any_values),
    color=st.one_of(st.integers(-3, 7), any_values), target=st.one_of(st.integers(-3, 12),
                                                                      any_values),
    power=st.one_of(st.sampled_from(("", "color", "look", "swap")), any_values),
    uno=st.one_of(st.booleans(), any_values),
    give=st.one_of(st.just(()), st.lists(st.integers(-3, 90), max_size=3).map(tuple),
                   any_values),
)


def apply_case(data: st.DataObject) -> None:
    """Game.apply with any value as the action and the seat: applied when legal, else an
    IllegalAction with a DIG-4 code and the game exactly as it was."""
    rules, seed, steps = data.draw(st.sampled_from(_game_bases()))
    game = _advanced(rules, seed, steps)
    for _ in range(data.draw(st.integers(1, 6))):
        action = data.draw(st.one_of(any_values, action_fields, st.text(max_size=40),
                                     st.integers(-5, len(game.space) + 5)))
        seat = data.draw(st.one_of(st.none(), st.integers(-2, 11), any_values))
        before = game.fingerprint()
        count("apply", "inputs")
        try:
            game.apply(action, seat)
        except IllegalAction as e:
            assert e.code in ERROR_CODES
            bounded(e)
            assert game.fingerprint() == before
            count("apply", "refused")
        for s in range(rules.players):
            strict_json(game.view(s))


@functools.cache
def _records() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for name in sorted(PRESETS):
        g = _advanced(preset(name, players=3), 5, 400)
        out.append(json.loads(json.dumps(game_record(g))))
        m = Match(preset(name, players=2, rounds=2), 4)
        while not m.is_over:
            g2 = m.game
            i = 0
            while not g2.is_over:
                ids = g2.legal_ids(g2.turn)
                g2.step(ids[i % len(ids)], g2.turn)
                i += 1
            m.finish_round()
        out.append(json.loads(json.dumps(match_record(m))))
    return out


def records_case(data: st.DataObject) -> None:
    """Records: read_json on text, replay on damaged records; RecordError or a replay."""
    count("records", "inputs")
    how = data.draw(st.integers(0, 3))
    try:
        if how == 0:
            text = data.draw(st.one_of(
                st.text(max_size=60), st.sampled_from(("NaN", "[1, Infinity]", '{"a": -Infinity}')),
                st.builds(deep_text, st.integers(1, 200_000), st.sampled_from("[{"))))
            read_json(text)
            return
        rec = data.draw(st.sampled_from(_records()))
        bad = mutate(data, copy.deepcopy(rec)) if how < 3 else data.draw(any_values)
        if isinstance(bad, dict) and bad.get("format") == "unoarena.match":
            replay_match(bad)
        else:
            replay_game(bad)
    except RecordError as e:
        bounded(e)
        count("records", "refused")


@functools.cache
def _save() -> dict[str, Any]:
    from unoarena.tui.session import Table, default_players

    rules = preset("classic", players=3)
    table = Table(rules, default_players(rules, "random"), 9)
    g = table.match.game
    for i in range(30):
        ids = g.legal_ids(g.turn)
        g.step(ids[i % len(ids)], g.turn)
    out: dict[str, Any] = json.loads(json.dumps({"format": "unoarena.save", "version": 1,
                                                 **table.to_dict()}))
    return out


def saves_case(data: st.DataObject) -> None:
    """Saved matches: a Table, or a ValueError that names the file (and the field)."""
    from unoarena.tui.saves import load_table

    count("saves", "inputs")
    how = data.draw(st.integers(0, 4))
    if how == 0:
        text = data.draw(st.one_of(
            st.text(max_size=40),
            st.builds(deep_text, st.integers(1, 200_000), st.sampled_from("[{"))))
    else:
        value = mutate(data, copy.deepcopy(_save()))
        try:
            text = json.dumps(value, default=str)
        except RecursionError:  # a deep value: as deep JSON text instead
            text = deep_text(5000, "[")
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "save.json"
        path.write_text(text, encoding="utf-8", errors="surrogateescape")
        try:
            load_table(path)
        except ValueError as e:
            assert str(path) in str(e)
            bounded(e)
            count("saves", "refused")


@functools.cache
def _scenario_docs() -> list[Any]:
    docs: list[Any] = []
    for f in sorted(SCENARIOS.rglob("*.yaml"))[:12]:
        docs += [d for d in load_yaml_documents(f.read_text(encoding="utf-8")) if d][:3]
    return docs or [_BUILTIN_SCENARIO]


def scenarios_case(data: st.DataObject) -> None:
    """Scenario documents and YAML text: a scenario that runs to a result (never an
    exception), or ScenarioError."""
    count("scenarios", "inputs")
    how = data.draw(st.integers(0, 3))
    try:
        if how == 0:
            text = data.draw(st.one_of(
                st.text(max_size=80),
                st.sampled_from(("a: &x [1, 2]\nb: *x\n", "a: !!python/object:os.system 1\n",
                                 "- " * 500 + "x\n", "{" * 5000)),
                st.builds(lambda d: "name: x\nplayers: " + "[" * d + "]" * d,
                          st.integers(1, 100_000))))
            try:
                load_yaml_documents(text)
            except Exception as e:  # the runner turns these into a ScenarioError
                assert type(e).__module__.startswith("yaml") or isinstance(e, ValueError), e
                count("scenarios", "refused")
            return
        doc = mutate(data, copy.deepcopy(data.draw(st.sampled_from(_scenario_docs()))))
        s = parse_scenario(doc, "fuzz.yaml")
    except ScenarioError as e:
        bounded(e)
        count("scenarios", "refused")
        return
    result = run_scenario(s)
    assert len(result.line()) < MAX_MESSAGE * 4
    if not result.ok:
        count("scenarios", "failed_runs")


TARGETS: dict[str, Callable[[st.DataObject], None]] = {
    "rules": rules_case, "apply": apply_case, "records": records_case, "saves": saves_case,
    "scenarios": scenarios_case,
}


def hypothesis_test(case: Callable[..., None], examples: int) -> Callable[[], None]:
    """The target as a hypothesis test of ``examples`` inputs (no shrinking database)."""
    @settings(max_examples=examples, deadline=None, database=None, derandomize=False,
              phases=(Phase.generate, Phase.shrink),
              suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def test(data: st.DataObject) -> None:
        case(data)

    return test


#: The server targets (the web extra's): their cases, each called with a live server as
#: ``server=``, and what starts that server.
WebTargets = tuple[dict[str, Callable[..., None]], Callable[[], Any]]


def main(argv: list[str] | None = None,
         web: Callable[[], WebTargets | None] | None = None) -> int:
    """The long run over every target (``web`` adds the server's, when it can start one)."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--seconds", type=float, default=300.0,
                    help="time budget for all targets together (default 300)")
    ap.add_argument("--only", nargs="*", metavar="TARGET", help="run only these targets")
    ap.add_argument("--json", action="store_true", help="print the counts as JSON")
    args = ap.parse_args(argv)
    if not (0 < args.seconds <= 7 * 24 * 3600) or not math.isfinite(args.seconds):
        ap.error("--seconds must be a positive number of seconds, at most a week")
    targets: dict[str, Callable[..., None]] = dict(TARGETS)
    server: Any = None
    found = web() if web is not None and (
        not args.only or {"http", "websocket"} & set(args.only)) else None
    webs, start_server = found if found is not None else ({}, None)
    targets.update(webs)
    if args.only:
        unknown = set(args.only) - set(targets)
        if unknown:
            ap.error(f"unknown target(s) {', '.join(sorted(unknown))}; "
                     f"known: {', '.join(targets)}")
        targets = {k: v for k, v in targets.items() if k in args.only}
    share = args.seconds / len(targets)
    failed = False
    start = time.monotonic()
    try:
        for name, case in targets.items():
            if name in webs and start_server is not None:
                if server is None:  # started only now: its thread must not run beside the
                    server = start_server()  # engine targets' draws
                case = functools.partial(case, server=server)
            until = time.monotonic() + share
            while time.monotonic() < until:
                try:
                    hypothesis_test(case, 200)()
                except Exception as e:  # hypothesis re-raises the smallest failing input
                    print(f"{name}: FAILED: {type(e).__name__}: {e}", file=sys.stderr)
                    count(name, "broken")
                    failed = True
                    break
            print(f"{name}: {dict(COUNTS.get(name, {}))}", file=sys.stderr)
    finally:
        if server is not None:
            server.close()
    summary: dict[str, Any] = {"seconds": round(time.monotonic() - start, 1),
               "targets": {k: dict(v) for k, v in COUNTS.items()},
               "inputs": sum(v["inputs"] for v in COUNTS.values()),
               "broken": sum(v["broken"] for v in COUNTS.values())}
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{summary['inputs']} inputs in {summary['seconds']} s, "
              f"{summary['broken']} broken invariants")
        for k, v in summary["targets"].items():
            print(f"  {k:<10} " + ", ".join(f"{n} {w}" for w, n in sorted(v.items())))
    return 1 if failed else 0

