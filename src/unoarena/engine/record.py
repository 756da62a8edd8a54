"""Game and match records: rules + seed + actions, as JSON-ready dicts; replay rebuilds every
state exactly (DIG-1). The record is the canonical form of a game: replay files, bug reports,
golden tests and rejoining a web game all use it.
"""

# annotations stay evaluated (no __future__ import): the TypedDicts' NotRequired and
# Required marks are read from them at run time (test_views checks the engine against them)
import json
from collections.abc import Iterator, Mapping
from typing import Any, Final, Literal, NotRequired, Required, TypedDict

from .actions import Action
from .cards import CODES, COLOR_CODES, parse_card, parse_color
from .errors import ConfigError, IllegalAction, excerpt
from .game import MAX_ACTION_TEXT, TIME_UP_TEXT, Game, Setup, action_space, move_text
from .match import Match
from .rules import RuleSet

GAME_FORMAT: Final = "unoarena.game"
MATCH_FORMAT: Final = "unoarena.match"
VERSION = 1


#: A ``[seat, "action text"]`` pair, as records store each move.
Move = list[int | str]


class SetupDict(TypedDict, total=False):
    """A scenario table (SCN-*) as card codes; keys left at their defaults are omitted."""

    hands: Required[dict[str, list[str]]]
    starter: str
    discard: list[str]
    color: str
    draw_pile: list[str]
    turn: int
    direction: Literal["ccw"]


class GameResult(TypedDict):
    """How a finished round ended: ``points`` and ``scores`` are the round's, ``totals``
    each seat's match score after it."""

    winner: int | None
    reason: str
    points: list[int]
    scores: list[int]
    totals: list[int]


class MatchResult(TypedDict):
    """A match's standing after its finished rounds."""

    rounds: int
    scores: list[int]
    over: bool
    winners: list[int]


class GameRecord(TypedDict):
    """A round's record (``unoarena.game``): what :func:`replay_game` rebuilds it from."""

    format: Literal["unoarena.game"]
    version: int
    rules: dict[str, Any]
    seed: int
    dealer: int
    scores: list[int]
    actions: list[Move]
    setup: NotRequired[SetupDict]
    result: NotRequired[GameResult]
    #: free-form notes from the caller (names, dates); never read by replay
    meta: NotRequired[dict[str, Any]]


class MatchRecord(TypedDict):
    """A match's record (``unoarena.match``): each round's moves, the last maybe unfinished."""

    format: Literal["unoarena.match"]
    version: int
    rules: dict[str, Any]
    seed: int
    rounds: list[list[Move]]
    result: MatchResult
    meta: NotRequired[dict[str, Any]]


#: Either kind of record, as a list of kept records holds them.
Record = GameRecord | MatchRecord


class RecordError(ValueError):
    """A record that cannot be read or does not replay."""


#: The largest record text read (a long match is a few hundred kilobytes).
MAX_RECORD_CHARS = 64 * 1024 * 1024


def read_json(text: str | bytes) -> Any:
    """Parse a record's (or save's) JSON text, refusing what no record holds: NaN and
    infinities, nesting deep enough to exhaust the stack, and texts over the size limit.
    :class:`RecordError` says which."""
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(f"larger than {MAX_RECORD_CHARS} characters")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise RecordError("values nest too deeply") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise RecordError(f"not JSON: {e}") from None


def _no_constant(name: str) -> Any:
    raise RecordError(f"{name} is not a number a record may hold")


def setup_to_dict(s: Setup) -> SetupDict:
    """A scenario table as a JSON-ready dict of card codes, omitting keys left at their defaults."""
    d: SetupDict = {"hands": {str(k): [CODES[c] for c in v] for k, v in s.hands.items()}}
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


def setup_from_dict(d: Any) -> Setup:
    """The inverse of :func:`setup_to_dict`; :class:`RecordError` names a bad field."""
    if not isinstance(d, dict):
        raise RecordError(f"setup must be an object, not {excerpt(d)}")
    unknown = [k for k in d if k not in _SETUP_KEYS]
    if unknown:
        raise RecordError(f"setup has an unknown field {excerpt(unknown[0])} (allowed: "
                          f"{', '.join(_SETUP_KEYS)})")
    hands_raw = d.get("hands") or {}
    if not isinstance(hands_raw, dict):
        raise RecordError(f"setup.hands must be an object seat -> cards, not "
                          f"{excerpt(hands_raw)}")
    hands: dict[int, list[int]] = {}
    for k, v in hands_raw.items():
        seat = _whole(k)
        if seat is None or not 0 <= seat < 10:
            raise RecordError(f"setup.hands: {excerpt(k)} is not a seat (0 to 9)")
        hands[seat] = _card_list(v, f"setup.hands.{seat}")
    starter = d.get("starter")
    discard = d.get("discard")
    color = d.get("color")
    turn = d.get("turn")
    direction = d.get("direction", "cw")
    if turn is not None and (type(turn) is not int or not 0 <= turn < 10):
        raise RecordError(f"setup.turn must be a seat (0 to 9), not {excerpt(turn)}")
    if direction not in ("cw", "ccw"):
        raise RecordError(f"setup.direction must be cw or ccw, not {excerpt(direction)}")
    return Setup(
        hands=hands,
        starter=_card(starter, "setup.starter") if starter is not None else None,
        discard=_card_list(discard, "setup.discard") if discard is not None else None,
        color=_color(color, "setup.color") if color is not None else None,
        draw_pile=_card_list(d.get("draw_pile") or [], "setup.draw_pile"),
        turn=turn,
        direction=-1 if direction == "ccw" else 1,
    )


_SETUP_KEYS = ("hands", "starter", "discard", "color", "draw_pile", "turn", "direction")
#: Seeds are 64-bit (the matches' own seeds are 63-bit); scores stay far below any limit.
SEED_RANGE = (-(1 << 63), (1 << 64) - 1)
MAX_SCORE = 10**9
MAX_CARDS = 200


def _whole(v: Any) -> int | None:
    """An int, or a decimal string of one (JSON object keys are strings); None otherwise."""
    if type(v) is int:
        return v
    if isinstance(v, str) and 0 < len(v) <= 3 and v.isdigit():
        return int(v)
    return None


def _card(v: Any, where: str) -> int:
    if not isinstance(v, str) or len(v) > 40:
        raise RecordError(f"{where} must be a card code such as R7, not {excerpt(v)}")
    try:
        return parse_card(v)
    except ValueError as e:
        raise RecordError(f"{where}: {e}") from None


def _card_list(v: Any, where: str) -> list[int]:
    if not isinstance(v, list) or len(v) > MAX_CARDS:
        raise RecordError(f"{where} must be a list of card codes, not {excerpt(v)}")
    return [_card(c, f"{where}[{i}]") for i, c in enumerate(v)]


def _color(v: Any, where: str) -> int:
    if not isinstance(v, str) or len(v) > 20:
        raise RecordError(f"{where} must be a colour code such as G, not {excerpt(v)}")
    try:
        return parse_color(v)
    except ValueError as e:
        raise RecordError(f"{where}: {e}") from None


def _int_field(rec: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    """``rec[key]``, a whole number from ``lo`` to ``hi`` (0 when absent)."""
    v = rec.get(key, 0)
    if type(v) is not int or not lo <= v <= hi:
        raise RecordError(f"the record's {key} must be a whole number from {lo} to {hi}, not "
                          f"{excerpt(v)}")
    return v


def _list_field(rec: Mapping[str, Any], key: str) -> list[Any]:
    v = rec.get(key, [])
    if not isinstance(v, list):
        raise RecordError(f"the record's {key} must be a list, not {excerpt(v)}")
    return v


def game_record(game: Game, setup: Setup | None = None, **meta: Any) -> GameRecord:
    """The record of a round as played so far."""
    rec: GameRecord = {
        "format": GAME_FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "dealer": game.dealer,
        "scores": game.scores,
        "actions": [[seat, move_text(game.space, aid)] for seat, aid in game.history],
    }
    if setup is not None:
        rec["setup"] = setup_to_dict(setup)
    if game.outcome is not None:
        rec["result"] = game_result(game)
    if meta:
        rec["meta"] = meta
    return rec


def game_result(game: Game) -> GameResult:
    """How a finished round ended, as a record stores it: replay checks it (a record whose
    stored result was edited does not replay)."""
    out = game.outcome
    assert out is not None
    rules = game.rules
    per_seat = [out.scores[rules.team_of(s)] if rules.teams else out.scores[s]
                for s in range(rules.players)]
    return {"winner": out.winner, "reason": out.reason.value, "points": list(out.hand_points),
            "scores": list(out.scores),
            "totals": [a + b for a, b in zip(game.scores, per_seat, strict=True)]}


def match_result(match: Match) -> MatchResult:
    """The match's standing after its finished rounds, as a record stores it."""
    return {"rounds": match.rounds_played, "scores": list(match.scores),
            "over": match.is_over, "winners": list(match.winners)}


def match_record(match: Match, **meta: Any) -> MatchRecord:
    """The record of a match: every finished round and the one in progress."""
    # each round in its own action space (a smaller table's under HR-ELIM)
    rounds = [(r.actions, action_space(r.table or match.rules)) for r in match.results]
    if not match.is_over:
        rounds.append((list(match.game.history), match.game.space))
    rec: MatchRecord = {
        "format": MATCH_FORMAT,
        "version": VERSION,
        "rules": match.rules.to_dict(),
        "seed": match.seed,
        "rounds": [[[seat, move_text(sp, aid)] for seat, aid in r] for r, sp in rounds],
        "result": match_result(match),
    }
    if meta:
        rec["meta"] = meta
    return rec


def _check(rec: Any, fmt: str) -> RuleSet:
    if not isinstance(rec, dict) or rec.get("format") != fmt:
        raise RecordError(f"not a {fmt} record (its 'format' is {excerpt(rec.get('format'))})"
                          if isinstance(rec, dict) else "a record is a JSON object")
    version = rec.get("version")
    if type(version) is not int or version != VERSION:
        raise RecordError(f"record version {excerpt(version)} is not supported "
                          f"(this unoarena reads version {VERSION})")
    if "rules" not in rec:
        raise RecordError("the record has no rules")
    try:
        return RuleSet.from_dict(rec["rules"])
    except ConfigError as e:
        if e.keys == ("key",):  # listing every known key would outgrow a short message
            raise RecordError(f"the record's rules are invalid: {excerpt(e.value)} is not a "
                              "rule key (`unoarena rules` lists them)") from None
        raise RecordError(f"the record's rules are invalid: {e}") from None
    except ValueError as e:
        raise RecordError(f"the record's rules are invalid: {e}") from None


def iter_game(rec: Mapping[str, Any], *, record_events: bool = True
              ) -> Iterator[tuple[Game, int | None, Action | None]]:
    """Replay a game record: yields the start, then the game after each action. Every field
    is checked before it is used, and a stored result must be what the replay gives."""
    rules = _check(rec, GAME_FORMAT)
    n = rules.players
    seed = _int_field(rec, "seed", *SEED_RANGE)
    dealer = _int_field(rec, "dealer", 0, n - 1)
    scores = rec.get("scores")
    if scores is not None and not (
            isinstance(scores, list) and len(scores) == n
            and all(type(x) is int and -MAX_SCORE <= x <= MAX_SCORE for x in scores)):
        raise RecordError(f"the record's scores must be a list of {n} whole numbers (one a "
                          f"seat, at most {MAX_SCORE} each), not {excerpt(scores)}")
    setup = setup_from_dict(rec["setup"]) if rec.get("setup") is not None else None
    actions = _list_field(rec, "actions")
    try:
        game = Game(rules, seed, dealer, setup=setup, scores=scores,
                    record_events=record_events)
    except ValueError as e:
        raise RecordError(f"the record's setup cannot be dealt: {e}") from None
    yield game, None, None
    for i, entry in enumerate(actions):
        seat, act = _entry(entry, f"action {i}")
        try:
            _replay_move(game, act, seat)
        except (ValueError, IllegalAction) as e:
            raise RecordError(f"action {i} ({seat}: {act}) does not replay: {e}") from None
        yield game, seat, act
    if "result" in rec:
        _same_result(rec["result"], game_result(game) if game.outcome is not None else None,
                     "round")


def _same_result(stored: Any, replayed: GameResult | MatchResult | None, what: str) -> None:
    if stored != replayed:
        raise RecordError(f"the record's result does not match its replay: it says "
                          f"{excerpt(stored, 200)}, the {what} replayed gives "
                          f"{excerpt(replayed, 200)}")


def _replay_move(game: Game, act: Action | None, seat: int) -> None:
    """Apply a record's move: an action, or (None) the round's time running out (HR-BLITZ)
    for the seat whose turn it was."""
    if act is None:
        if seat != game.turn:
            raise IllegalAction("not_your_turn", f"time_up is recorded for the turn seat "
                                                 f"{game.turn}, not {seat}")
        game.time_up()
    else:
        game.apply(act, seat)


def _entry(entry: Any, where: str) -> tuple[int, Action | None]:
    """A record's ``[seat, "action text"]`` pair, or a RecordError saying what is wrong; the
    action is None for ``time_up`` (HR-BLITZ)."""
    if not (isinstance(entry, list) and len(entry) == 2 and type(entry[0]) is int
            and isinstance(entry[1], str)):
        raise RecordError(f"{where} must be a [seat, \"action\"] pair, not {excerpt(entry)}")
    if entry[1] == TIME_UP_TEXT:
        return entry[0], None
    try:
        return entry[0], Action.parse(entry[1][:MAX_ACTION_TEXT + 1])
    except IllegalAction as e:
        raise RecordError(f"{where} ({entry[0]}: {excerpt(entry[1])}) cannot be read: "
                          f"{e}") from None


def replay_game(rec: Mapping[str, Any]) -> Game:
    """The final state of a game record."""
    last: Game | None = None
    for game, _, _ in iter_game(rec):
        last = game
    assert last is not None
    return last


def replay_match(rec: Mapping[str, Any], *, record_events: bool = True) -> Match:
    """The state of a match record: every round replayed and settled."""
    rules = _check(rec, MATCH_FORMAT)
    seed = _int_field(rec, "seed", *SEED_RANGE)
    rounds = _list_field(rec, "rounds")
    m = Match(rules, seed, record_events=record_events)
    for r, actions in enumerate(rounds):
        if m.is_over:
            raise RecordError(f"round {r} comes after the match ended")
        if not isinstance(actions, list):
            raise RecordError(f"round {r} must be a list of actions, not {excerpt(actions)}")
        for i, entry in enumerate(actions):
            seat, act = _entry(entry, f"round {r}, action {i}")
            try:
                _replay_move(m.game, act, seat)
            except (ValueError, IllegalAction) as e:
                raise RecordError(f"round {r}, action {i} ({seat}: {act}) does not replay: "
                                  f"{e}") from None
        if m.game.is_over:
            m.finish_round()
    if "result" in rec:
        _same_result(rec["result"], match_result(m), "match")
    return m
