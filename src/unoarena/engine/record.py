"""Game and match records: rules + seed + actions, as JSON-ready dicts; replay rebuilds every
state exactly (DIG-1). The record is the canonical form of a game: replay files, bug reports,
golden tests and rejoining a web game all use it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .actions import Action
from .cards import CODES, COLOR_CODES, parse_card, parse_color
from .errors import IllegalAction
from .game import Game, Setup
from .match import Match
from .rules import RuleSet

GAME_FORMAT = "unoarena.game"
MATCH_FORMAT = "unoarena.match"
VERSION = 1


class RecordError(ValueError):
    """A record that cannot be read or does not replay."""


def setup_to_dict(s: Setup) -> dict[str, Any]:
    d: dict[str, Any] = {"hands": {str(k): [CODES[c] for c in v] for k, v in s.hands.items()}}
    if s.starter is not None:
        d["starter"] = CODES[s.starter]
    if s.discard is not None:
        d["discard"] = [CODES[c] for c in s.discard]
    if s.color is not None:
        d["color"] = COLOR_CODES[s.color]
    if s.draw_pile:
        d["draw_pile"] = [CODES[c] for c in s.draw_pile]
    if s.turn is not None:
        d["turn"] = s.turn
    if s.direction != 1:
        d["direction"] = "ccw"
    return d


def setup_from_dict(d: dict[str, Any]) -> Setup:
    return Setup(
        hands={int(k): [parse_card(c) for c in v] for k, v in (d.get("hands") or {}).items()},
        starter=parse_card(d["starter"]) if d.get("starter") is not None else None,
        discard=[parse_card(c) for c in d["discard"]] if d.get("discard") is not None else None,
        color=parse_color(d["color"]) if d.get("color") is not None else None,
        draw_pile=[parse_card(c) for c in d.get("draw_pile") or []],
        turn=d.get("turn"),
        direction=-1 if d.get("direction") == "ccw" else 1,
    )


def game_record(game: Game, setup: Setup | None = None, **meta: Any) -> dict[str, Any]:
    """The record of a round as played so far."""
    acts = game.space.actions
    rec: dict[str, Any] = {
        "format": GAME_FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "dealer": game.dealer,
        "scores": game.scores,
        "actions": [[seat, str(acts[aid])] for seat, aid in game.history],
    }
    if setup is not None:
        rec["setup"] = setup_to_dict(setup)
    if meta:
        rec["meta"] = meta
    return rec


def match_record(match: Match, **meta: Any) -> dict[str, Any]:
    """The record of a match: every finished round and the one in progress."""
    rounds = [r.actions for r in match.results]
    if not match.is_over:
        rounds.append(list(match.game.history))
    acts = match.game.space.actions
    rec: dict[str, Any] = {
        "format": MATCH_FORMAT,
        "version": VERSION,
        "rules": match.rules.to_dict(),
        "seed": match.seed,
        "rounds": [[[seat, str(acts[aid])] for seat, aid in r] for r in rounds],
    }
    if meta:
        rec["meta"] = meta
    return rec


def _check(rec: dict[str, Any], fmt: str) -> RuleSet:
    if not isinstance(rec, dict) or rec.get("format") != fmt:
        raise RecordError(f"not a {fmt} record (its 'format' is {rec.get('format')!r})"
                          if isinstance(rec, dict) else "a record is a JSON object")
    if rec.get("version") != VERSION:
        raise RecordError(f"record version {rec.get('version')!r} is not supported "
                          f"(this unoarena reads version {VERSION})")
    try:
        return RuleSet.from_dict(rec["rules"])
    except (KeyError, ValueError) as e:
        raise RecordError(f"the record's rules are invalid: {e}") from None


def iter_game(rec: dict[str, Any], *, record_events: bool = True
              ) -> Iterator[tuple[Game, int | None, Action | None]]:
    """Replay a game record: yields the start, then the game after each action."""
    rules = _check(rec, GAME_FORMAT)
    setup = setup_from_dict(rec["setup"]) if rec.get("setup") else None
    game = Game(rules, int(rec.get("seed", 0)), int(rec.get("dealer", 0)), setup=setup,
                scores=rec.get("scores"), record_events=record_events)
    yield game, None, None
    for i, entry in enumerate(rec.get("actions", [])):
        seat, act = _entry(entry, f"action {i}")
        try:
            game.apply(act, seat)
        except (ValueError, IllegalAction) as e:
            raise RecordError(f"action {i} ({seat}: {act}) does not replay: {e}") from None
        yield game, seat, act


def _entry(entry: Any, where: str) -> tuple[int, Action]:
    """A record's ``[seat, "action text"]`` pair, or a RecordError saying what is wrong."""
    if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int)
            and isinstance(entry[1], str)):
        raise RecordError(f"{where} must be a [seat, \"action\"] pair, not {entry!r}")
    try:
        return entry[0], Action.parse(entry[1])
    except IllegalAction as e:
        raise RecordError(f"{where} ({entry[0]}: {entry[1]!r}) cannot be read: {e}") from None


def replay_game(rec: dict[str, Any]) -> Game:
    """The final state of a game record."""
    last: Game | None = None
    for game, _, _ in iter_game(rec):
        last = game
    assert last is not None
    return last


def replay_match(rec: dict[str, Any], *, record_events: bool = True) -> Match:
    """The state of a match record: every round replayed and settled."""
    rules = _check(rec, MATCH_FORMAT)
    m = Match(rules, int(rec.get("seed", 0)), record_events=record_events)
    for r, actions in enumerate(rec.get("rounds", [])):
        if m.is_over:
            raise RecordError(f"round {r} comes after the match ended")
        for i, entry in enumerate(actions):
            seat, act = _entry(entry, f"round {r}, action {i}")
            try:
                m.game.apply(act, seat)
            except (ValueError, IllegalAction) as e:
                raise RecordError(f"round {r}, action {i} ({seat}: {act}) does not replay: "
                                  f"{e}") from None
        if m.game.is_over:
            m.finish_round()
    return m
