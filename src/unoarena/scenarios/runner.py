"""Running scenarios: a table set up through the engine's public API, each step applied and
each expectation compared, a failing step stopping its scenario with the step number and the
expected and actual values; ``python -m unoarena.scenarios PATH...`` prints one line each."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from unoarena.engine import (
    CODES,
    COLOR_CODES,
    Action,
    Game,
    IllegalAction,
    RuleSet,
    Setup,
    parse_card,
    parse_color,
)

from .format import (
    ActionSpec,
    Scenario,
    ScenarioError,
    ScenarioResult,
    SetupSpec,
    Step,
    _show,
    parse_scenario,
)
from .loader import read_documents, scenario_files


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


def run_paths(paths: Iterable[str | Path]) -> list[ScenarioResult]:
    """Run every scenario under the paths, in order. A document that breaks the format is a
    failed result (the rest of its file still runs); a missing path raises FileNotFoundError."""
    files = [f for p in paths for f in scenario_files(p)]
    results: list[ScenarioResult] = []
    for f in files:
        try:
            docs = read_documents(f)
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
