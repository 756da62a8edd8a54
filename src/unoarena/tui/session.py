"""The table behind every front end: who sits where, the match, the bots and when they act.

Nothing here draws or reads a key, so the full-screen app and the plain line mode share one
way of running a match. The engine stays the only authority: what a seat may do comes from
:meth:`Game.legal_actions`, what happened from its events.

Bots take windows in the order of RULES DIG-3 (:meth:`Game.window_seats`), asked by the
same :class:`~unoarena.table_loop.TableLoop` as the sequential driver's and the server's; a bot's
illegal choice is a :class:`~unoarena.table_loop.BotError`. A front end with a clock lets
people act at any moment inside their windows, so bot moves come with a delay: a bot's turn
waits longer while a person could catch or jump in, and a bot's catch waits long enough for
the forgetful player to call UNO.
"""

from __future__ import annotations

import random
import re
import secrets
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bots import Bot, available, make_bot, parse_spec
from ..engine import (
    TIME_UP,
    TIME_UP_TEXT,
    Action,
    Game,
    IllegalAction,
    Match,
    RoundResult,
    RuleSet,
    move_text,
)
from ..table_loop import STRICT, TableLoop
from ..text.i18n import _
from ..text.narrate import Narrator, default_names, display_name, error_reason, round_start_lines

HUMAN = "human"
BOT = "bot"
#: The longest name kept (a save file allows no longer; the new-game screen cuts there).
MAX_NAME = 64
#: Zero-width joiners, kept in names: emoji sequences and some scripts need them; every other
#: format character is dropped.
_JOINERS = frozenset("\u200c\u200d")
#: Terminal escape sequences, removed whole (not only their escape character): CSI
#: (``ESC [ ... final``), OSC and the other strings ending in BEL or ST, and two-character escapes.
_ESCAPES = re.compile(r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"
                      r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d-\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
                      r"|\x1b[ -/]*[0-~]")


def clean_name(raw: str) -> str:
    """A player's name as plain text: control and format characters (escape sequences, bidi
    overrides, zero-width characters), line breaks and tabs become nothing or one space, spaces
    run together, at most :data:`MAX_NAME` characters. Nothing in a name can then move the
    cursor, clear the screen or reorder the text around it. Rich markup is left as typed: every
    screen shows names as plain text, never parses them."""
    out: list[str] = []
    for ch in _ESCAPES.sub("", raw):
        cat = unicodedata.category(ch)
        if ch.isspace() or cat in ("Zl", "Zp"):
            out.append(" ")
        elif cat in ("Cc", "Cs", "Co", "Cn") or (cat == "Cf" and ch not in _JOINERS):
            continue
        else:
            out.append(ch)
    return " ".join("".join(out).split())[:MAX_NAME].strip()


@dataclass
class Player:
    """A place at the table: a person at this terminal, or a bot by its spec. The name is cleaned
    as it is given (:func:`clean_name`), whether typed or read from a save."""

    name: str
    kind: str = HUMAN
    bot: str = ""

    def __post_init__(self) -> None:
        self.name = clean_name(self.name)

    @property
    def is_bot(self) -> bool:
        """Whether a bot plays this place (``bot`` is then its spec, e.g. ``heuristic``)."""
        return self.kind == BOT

    def to_dict(self) -> dict[str, str]:
        """The player as a save file stores it; :meth:`from_dict` reads it back."""
        return {"name": self.name, "kind": self.kind, "bot": self.bot}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Player:
        """A player from a save file; an unknown ``kind`` is a ValueError naming the
        two allowed."""
        kind = str(d.get("kind", HUMAN))
        if kind not in (HUMAN, BOT):
            raise ValueError(f"player kind {kind!r}: use {HUMAN} or {BOT}")
        return Player(str(d.get("name", "")), kind, str(d.get("bot", "")))


@dataclass(frozen=True)
class Timing:
    """Seconds a bot waits before acting, so that people can follow and react."""

    move: float = 0.9  # a bot's own turn
    catch: float = 1.5  # a bot catching a forgotten UNO: the time left to call it late
    window: float = 2.5  # a bot's turn while a person could catch or jump in
    other: float = 0.3  # a bot's other window actions (its own late UNO, a jump-in)

    @staticmethod
    def zero() -> Timing:
        """No delays at all: bots act as soon as they are asked (tests, fast play)."""
        return Timing(0.0, 0.0, 0.0, 0.0)

    def scaled(self, factor: float) -> Timing:
        """Every delay multiplied by ``factor``: ``play --delay`` (0 for none, 2 for twice
        as slow)."""
        return Timing(self.move * factor, self.catch * factor, self.window * factor,
                      self.other * factor)


@dataclass(frozen=True)
class Decision:
    """Who acts next: a bot with its action and delay, or a person (``action`` None)."""

    kind: str  # "bot", "turn" (a person's turn) or "window" (a person's open window)
    seat: int
    action: Action | None = None
    delay: float = 0.0
    version: int = 0


@dataclass
class LogEntry:
    """One action's events, with the names and players of that round (for privacy)."""

    round: int
    events: list[dict[str, Any]]
    names: list[str]  # by seat
    players: list[int]  # player index by seat
    seat: int | None = None
    action: str | None = None
    header: bool = False

    def render(self, viewer_player: int | None) -> list[str]:
        """The lines this player may read, in the current language."""
        if self.header:
            return [_("— Round {n} —").format(n=self.round)]
        viewer = (self.players.index(viewer_player)
                  if viewer_player is not None and viewer_player in self.players else None)
        if self.seat is None:
            return round_start_lines(self.events, self.names, viewer)
        narrator = Narrator(self.names)
        line, private = narrator.line(self.events, viewer, seat=self.seat, action=self.action)
        return ([line] if line else []) + private


def check_bot_spec(spec: str) -> str | None:
    """None when ``spec`` names a registered bot; else a sentence naming the available ones."""
    try:
        name, _options = parse_spec(spec)
    except ValueError as e:
        return str(e)
    if name not in available():
        return _("unknown bot {name!r}: available bots are {names}").format(
            name=name, names=", ".join(available()))
    return None


class Table:
    """A match with its players; see the module docstring."""

    def __init__(self, rules: RuleSet, players: Sequence[Player], seed: int = 0, *,
                 timing: Timing | None = None, match: Match | None = None,
                 match_id: str = "") -> None:
        if len(players) != rules.players:
            raise ValueError(_("{n} players given for a {m}-player game").format(
                n=len(players), m=rules.players))
        for p in players:
            if p.is_bot:
                problem = check_bot_spec(p.bot)
                if problem:
                    raise ValueError(problem)
        self.rules = rules
        defaults = default_names(rules.players)
        self.players = [p if p.name else Player(defaults[i], p.kind, p.bot)
                        for i, p in enumerate(players)]  # a name that was all control codes
        self.seed = seed
        self.timing = timing or Timing()
        self.match = match if match is not None else Match(rules, seed)
        self.bots: list[Bot | None] = [
            make_bot(p.bot, seed * 7919 + 101 * i + 1) if p.is_bot else None
            for i, p in enumerate(self.players)]
        self._rng = random.Random(seed * 31 + len(self.match.results))
        #: Names this match among saved ones: ``s`` overwrites the match's one save file, and a
        #: finished match's saves are removed (:mod:`unoarena.tui.saves`).
        self.match_id = match_id or secrets.token_hex(8)
        #: The file ``s`` writes to: the one this match was resumed from or first saved to.
        self.save_path: Path | None = None
        self.version = 0
        self._loop = TableLoop(STRICT)
        self.log: list[LogEntry] = []
        self._rebuild_log()
        self._begin_bots()

    # -- who sits where ----------------------------------------------------------------------
    @property
    def game(self) -> Game:
        """The round in progress (once the match is over, its last round)."""
        return self.match.game

    @property
    def round_no(self) -> int:
        """The current round's number, counting from 1; once the match is over, the last
        round's."""
        return self.match.rounds_played + (0 if self.match.is_over else 1)

    def seat_of(self, player: int) -> int:
        """Where ``player`` (an index into :attr:`players`, fixed for the match) sits this
        round; seats move between rounds with HR-SEATS."""
        return self.match.seat_of[player]

    def player_at(self, seat: int) -> int:
        """The player (index into :attr:`players`) at ``seat`` this round: the inverse
        of :meth:`seat_of`."""
        return self.match.player_at(seat)

    def names_by_seat(self) -> list[str]:
        """Raw names (compass positions untranslated) of the players, by seat."""
        out = [""] * self.game.players
        for p, s in enumerate(self.match.seat_of):
            if s >= 0:  # -1: put out (HR-ELIM)
                out[s] = self.players[p].name
        return out

    def name(self, seat: int) -> str:
        """A seat's player's name in the current language."""
        return display_name(self.players[self.player_at(seat)].name)

    def player_name(self, player: int) -> str:
        """A player's name in the current language, by player index (not seat), with
        compass positions translated."""
        return display_name(self.players[player].name)

    def is_human(self, seat: int) -> bool:
        """Whether a person, not a bot, plays at ``seat`` this round."""
        return not self.players[self.player_at(seat)].is_bot

    def human_players(self) -> list[int]:
        """The player indices (not seats) that people play; more than one means they
        share the terminal and pass it between turns."""
        return [p for p, pl in enumerate(self.players) if not pl.is_bot]

    def narrator(self) -> Narrator:
        """A narrator with this round's names by seat, which turns events into sentences."""
        return Narrator(self.names_by_seat())

    def team_label(self, team: int) -> str:
        """A team's scoreboard heading (HR-TEAM): its number from 1 and its members'
        names."""
        members = [self.player_name(p) for p in range(self.rules.players)
                   if self.rules.team_of(self.seat_of(p)) == team]
        return _("Team {n} ({members})").format(n=team + 1, members=_(", ").join(members))

    # -- acting ------------------------------------------------------------------------------
    def legal(self, seat: int) -> list[Action]:
        """What ``seat`` may do now, as :meth:`Game.legal_actions` lists it (empty when
        nothing is open to it)."""
        return self.game.legal_actions(seat)

    def apply(self, seat: int, action: Action | str) -> LogEntry:
        """Apply a seat's action (checked by the engine: :class:`IllegalAction` leaves the
        game as it was) and log its events."""
        g = self.game
        if isinstance(action, str):
            action = Action.parse(action)
        start = len(g.events)
        g.apply(action, seat)
        self.version += 1
        self._loop.moved(g)
        entry = LogEntry(self.round_no, [dict(e) for e in g.events[start:]],
                         self.names_by_seat(), self._players_by_seat(), seat, str(action))
        self.log.append(entry)
        return entry

    def time_up(self) -> LogEntry:
        """HR-BLITZ: the round's time ran out by the table's clock: the engine ends the round
        (the fewest points in hand win) and the log tells it, as an action's events."""
        g = self.game
        seat, start = g.turn, len(g.events)
        g.time_up()
        self.version += 1
        entry = LogEntry(self.round_no, [dict(e) for e in g.events[start:]],
                         self.names_by_seat(), self._players_by_seat(), seat, TIME_UP_TEXT)
        self.log.append(entry)
        return entry

    def decline(self, seat: int) -> None:
        """A seat lets its window pass (until the game moves on past a call or catch)."""
        self._loop.decline(self.game, seat)

    def next_decision(self, *, ask_people_in_windows: bool = False) -> Decision | None:
        """Who acts next, in DIG-3 order: bots and (if asked) people in windows, then the turn.

        None when the round is over. With ``ask_people_in_windows`` false (a front end with a
        clock) people's windows stay open without blocking: a bot's turn then waits
        ``timing.window`` instead of ``timing.move``.
        """
        move = self._loop.next(self.game, self._bot_at, self._rng,
                               ask_people_in_windows=ask_people_in_windows)
        if move is None:
            return None
        if move.kind != "bot":
            return Decision(move.kind, move.seat, None, 0.0, self.version)
        assert move.action is not None
        if move.in_window:
            delay = self.timing.catch if move.action.verb == "catch" else self.timing.other
        else:
            delay = self.timing.window if move.person_window else self.timing.move
        return Decision("bot", move.seat, move.action, delay, self.version)

    def _bot_at(self, seat: int) -> Bot | None:
        return self.bots[self.player_at(seat)]

    def waiting_person(self) -> int | None:
        """The seat of the person whose turn it is, or None (a bot's turn, round over)."""
        g = self.game
        if g.is_over or not self.is_human(g.turn):
            return None
        return g.turn

    # -- rounds ------------------------------------------------------------------------------
    def finish_round(self) -> RoundResult:
        """Score the finished round and deal the next one (unless the match is over)."""
        result = self.match.finish_round()
        self.version += 1
        self._loop.reset()
        if not self.match.is_over:
            self._log_round_start()
            self._begin_bots()
        return result

    def round_ends_match(self) -> bool:
        """Whether the round just finished, once scored, ends the match (asked of the rules and
        the scores, the match left as it is): its summary then says so."""
        from ..engine import Outcome, settle
        m = self.match
        out = self.game.outcome
        assert out is not None
        rules = m.rules
        if rules.elimination != "off":  # HR-ELIM: over when one player is left
            from ..engine.match import eliminated
            return self.game.players - len(
                eliminated(rules, out, self.game.hand_sizes())) == 1
        scores = list(out.scores) if rules.teams else [
            out.scores[s] if s >= 0 else 0 for s in m.seat_of]
        per = Outcome(out.winner, out.reason, out.hand_points, tuple(scores))
        return settle(rules, m.scores, per, m.rounds_played + 1)[1]

    def round_scores(self, result: RoundResult) -> list[int]:
        """What each player (or team) scored in a round."""
        out = result.outcome
        if self.rules.teams:
            return list(out.scores)
        return [out.scores[s] if s >= 0 else 0 for s in result.seats]

    def score_labels(self) -> list[str]:
        """Column names of the scoreboard: players, or teams with teams."""
        if self.rules.teams:
            return [self.team_label(t) for t in range(self.rules.team_count)]
        return [self.player_name(p) for p in range(self.rules.players)]

    def winners_text(self) -> str:
        """The match's winners (players, or teams with teams) on one line in the
        current language; empty until the match is over."""
        labels = self.score_labels()
        return _(", ").join(labels[w] for w in self.match.winners)

    def _players_by_seat(self) -> list[int]:
        out = [0] * self.game.players
        for p, s in enumerate(self.match.seat_of):
            if s >= 0:
                out[s] = p
        return out

    def _begin_bots(self) -> None:
        for p, bot in enumerate(self.bots):
            if bot is not None:
                bot.begin_round(self.rules, self.seat_of(p))

    def _log_round_start(self) -> None:
        """Every round opens its log the same way: the deal, the first card and what it
        does, who plays first."""
        g = self.game
        self.log.append(LogEntry(self.round_no, [], [], [], header=True))
        start = [dict(e) for e in g.events] + [first_turn(g)]
        self.log.append(LogEntry(self.round_no, start, self.names_by_seat(),
                                 self._players_by_seat()))

    def _rebuild_log(self) -> None:
        """The current round's log, action by action (after a resume, too)."""
        g = self.game
        self.log = []
        if self.match.is_over:
            return
        self.log.append(LogEntry(self.round_no, [], [], [], header=True))
        fresh = Game(g.rules, g.seed, g.dealer, scores=g.scores)  # the table's (HR-ELIM)
        names, players = self.names_by_seat(), self._players_by_seat()
        self.log.append(LogEntry(self.round_no, [dict(e) for e in fresh.events]
                                 + [first_turn(fresh)], names, players))
        for seat, aid in g.history:
            start = len(fresh.events)
            if aid == TIME_UP:  # HR-BLITZ
                fresh.time_up()
            else:
                fresh.step(aid, seat)
            self.log.append(LogEntry(self.round_no, [dict(e) for e in fresh.events[start:]],
                                     names, players, seat, move_text(fresh.space, aid)))

    # -- saving --------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The save-file form: the players, the seed and the match record (rules, seeds
        and every action), which :meth:`from_dict` replays."""
        from ..engine import match_record
        return {"id": self.match_id, "players": [p.to_dict() for p in self.players],
                "seed": self.seed,
                "match": match_record(self.match, players=[p.to_dict() for p in self.players])}

    @staticmethod
    def from_dict(data: dict[str, Any], timing: Timing | None = None) -> Table:
        """A table resumed from :meth:`to_dict` output: the match is rebuilt by replaying
        its record through the engine, so a damaged save is refused, not half loaded."""
        from ..engine import replay_match
        match = replay_match(data["match"])
        players = [Player.from_dict(p) for p in data["players"]]
        return Table(match.rules, players, int(data.get("seed", match.seed)), timing=timing,
                     match=match, match_id=str(data.get("id", "")))


def first_turn(game: Game) -> dict[str, Any]:
    """A narration-only event: who acts first in a fresh round (after a Skip or a Reverse
    turned over, the dealer or the one after next), and whether that is to name a colour."""
    return {"t": "first_turn", "seat": game.turn, "direction": game.direction,
            "names_color": game.phase == "color"}


def default_players(rules: RuleSet, bot: str = "basic", people: int = 1) -> list[Player]:
    """People in the first seats, bots after them, named by their places at the table."""
    names = default_names(rules.players)
    return [Player(names[i], HUMAN) if i < people else Player(names[i], BOT, bot)
            for i in range(rules.players)]


def best_bot() -> str:
    """The default opponent: the medium level, ``heuristic`` (quick, and a fair game for most
    people), else the best there is."""
    names = available()
    for pick in ("heuristic", "ismcts", "basic", "random"):
        if pick in names:
            return pick
    return names[0] if names else "basic"


@dataclass
class Scoreboard:
    """Scores across rounds, per player or team: rows of (round, scores, winner's name), which
    column won each round, and totals."""

    labels: list[str]
    rows: list[tuple[int, list[int], str]] = field(default_factory=list)  # round, scores, who
    won: list[int] = field(default_factory=list)  # the winner's column each round, -1 if void
    totals: list[int] = field(default_factory=list)

    @staticmethod
    def of(table: Table) -> Scoreboard:
        """The scoreboard of a table's match so far: a row per finished round with its
        winner's name (or "void"), and the running totals."""
        board = Scoreboard(table.score_labels())
        for i, res in enumerate(table.match.results):
            w = res.outcome.winner
            player = res.seats.index(w) if w is not None else -1
            who = display_name(table.players[player].name) if w is not None else _("void")
            board.rows.append((i + 1, table.round_scores(res), who))
            column = player
            if w is not None and table.rules.teams:
                column = table.rules.team_of(w)
            board.won.append(column)
        board.totals = list(table.match.scores)
        return board


def illegal_text(err: IllegalAction, table: Table | None = None) -> str:
    """An engine refusal in the user's language: what was wrong, and the engine's own detail
    (it names the cards) with every seat number replaced by that player's name. The detail
    is English, so other languages get the reason and whose turn it is instead."""
    from ..text.i18n import language
    why = error_reason(err.code)
    if table is None:
        return _("Not allowed: {why} ({detail})").format(why=why, detail=err.message)
    if language() != "en":
        if err.code == "not_your_turn" and not table.game.is_over:
            return _("Not allowed: {why} ({detail})").format(
                why=why, detail=_("it is {name}'s turn").format(name=table.name(table.game.turn)))
        return _("Not allowed: {why}").format(why=why)

    def named(m: re.Match[str]) -> str:
        seat = int(m.group(1))
        if not 0 <= seat < table.game.players:
            return m.group(0)
        return table.name(seat) + (m.group(2) or "")

    detail = _SEAT.sub(named, err.message)
    return _("Not allowed: {why} ({detail})").format(why=why, detail=detail)


_SEAT = re.compile(r"\bseat (\d+)('s)?")
