"""Games an outside program plays one seat of, against bots, straight on the engine.

The MCP server (:mod:`.server`) is a thin layer over this: every tool is one method here, so the
rules of the game and of privacy live in one place and are tested without a transport. The
program always plays player 0 ("you"); bots play the other places, and the table runs them until
the program has something to decide (its turn, or a chance to catch, call UNO or jump in). What
it reads is its own seat's view and the narration that seat may read, never another hand.

There is no clock: the program takes as long as it likes (a turn timer or a round time limit in
the rules is not enforced here), and the bots wait for it, as at the terminal.
"""

from __future__ import annotations

import contextlib
import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..bots import available
from ..bots import describe as describe_bot
from ..engine import COLOR_CODES, PRESETS, Action, ConfigError, IllegalAction, RuleSet
from ..text.i18n import _
from ..text.rules import card_text, color_text, config_message, explain, explain_key, preset_summary
from ..tui.session import BOT, HUMAN, Player, Table, best_bot, default_players, illegal_text
from ..tui.words import choice_text

#: The word that lets an open chance pass (it is no engine action: the table stops asking).
DECLINE = "decline"
#: Games one server keeps at once; finished ones are dropped first to make room.
MAX_GAMES = 256
#: Bot moves in a row before the table gives up (a round that never ends is a bug to report).
MAX_BOT_MOVES = 100_000
YOU = 0
#: The longest action text read (the longest legal one is far shorter).
MAX_ACTION_CHARS = 200
#: Seeds are what a record stores: 0 to 2**63 - 1.
MAX_SEED = (1 << 63) - 1


class GameError(ValueError):
    """A request that was refused, in words that say what was wrong and what is allowed; it
    changed nothing."""


@dataclass
class AgentGame:
    """One match: the table, and what player 0 has read of its narration."""

    id: str
    table: Table
    waiting: str = ""  # "turn" or "window" while player 0 must decide; "" once the match is over
    lines: list[str] = field(default_factory=list)
    rendered: int = 0  # table.log entries already in ``lines``
    rounds: list[dict[str, Any]] = field(default_factory=list)

    @property
    def seat(self) -> int | None:
        """Player 0's seat this round (seats move between rounds with HR-SEATS); None once
        put out of the match (HR-ELIM)."""
        seat = self.table.seat_of(YOU)
        return seat if seat >= 0 else None

    @property
    def over(self) -> bool:
        """Whether the match has ended (nothing more to decide)."""
        return self.table.match.is_over

    def advance(self) -> None:
        """Let the bots play until player 0 has a decision to make or the match ends; each
        finished round is scored and the next one dealt."""
        table = self.table
        for _step in range(MAX_BOT_MOVES):
            if table.match.is_over:
                self.waiting = ""
                self._read_log()
                return
            if table.game.is_over:
                result = table.finish_round()
                out = result.outcome
                self.rounds.append({
                    "round": len(self.rounds) + 1,
                    "winner": (table.player_name(result.seats.index(out.winner))
                               if out.winner is not None else None),
                    "reason": out.reason,
                    "scores": list(table.round_scores(result)),
                    "match_scores": list(table.match.scores)})
                continue
            decision = table.next_decision(ask_people_in_windows=True)
            if decision is None:
                continue
            if decision.kind == "bot":
                assert decision.action is not None
                table.apply(decision.seat, decision.action)
                continue
            self.waiting = decision.kind
            self._read_log()
            return
        raise RuntimeError(f"game {self.id}: the bots made {MAX_BOT_MOVES} moves in a row")

    def _read_log(self) -> None:
        """Render the new log entries as player 0 may read them."""
        log = self.table.log
        for entry in log[self.rendered:]:
            self.lines.extend(entry.render(YOU))
        self.rendered = len(log)

    def options(self) -> list[dict[str, str]]:
        """What player 0 may do now, each with a sentence saying what it does."""
        if not self.waiting:
            return []
        seat = self.seat
        if seat is None:
            return []
        out = [{"action": str(a), "description": describe(a, self.table, seat)}
               for a in self.table.legal(seat)]
        if self.waiting == "window":
            out.append({"action": DECLINE, "description": _(
                "let this chance pass and play on")})
        return out

    def view(self) -> dict[str, Any]:
        """Player 0's view of the table: the engine's own view of that seat (one hand only),
        the hand in words, the players' names and what is awaited."""
        table = self.table
        seat = self.seat
        if seat is None:  # put out: what anyone watching sees, no hand
            view: dict[str, Any] = json.loads(json.dumps(table.game.view(0)))
            view.update(seat=None, hand=[], drawn=[], legal=[], seen=[])
            view.pop("give_left", None)
        else:
            view = json.loads(json.dumps(table.game.view(seat)))
        return {
            "game": self.id, "round": table.round_no, "over": self.over,
            "waiting_for_you": self.waiting or None,
            "you": {"seat": seat, "name": table.player_name(YOU)},
            "players": [{"seat": s, "name": table.name(s),
                         "bot": table.players[table.player_at(s)].bot or None}
                        for s in range(table.game.players)],
            "hand_in_words": [card_text(c) for c in view.get("hand", [])],
            "top_in_words": card_text(view["top"]) if view.get("top") else None,
            "view": view,
            "match_scores": list(table.match.scores),
            "rounds": self.rounds,
            "winners": ([table.player_name(p) for p in table.match.winners]
                        if self.over and not table.rules.teams else
                        list(table.match.winners) if self.over else None),
        }


def describe(action: Action, table: Table, seat: int) -> str:
    """An exact legal action in words: the choice as the terminal words it, with the colour it
    names and its UNO call."""
    if action.color >= 0 and action.verb in ("play", "jump_in") and not action.power:
        text = _("{play} and name {color}").format(
            play=choice_text(replace(action, color=-1), table, seat),
            color=color_text(COLOR_CODES[action.color]))
    else:
        text = choice_text(action, table, seat)
        if action.color >= 0 and action.verb != "color":
            text += "; " + _("name {color}").format(color=color_text(COLOR_CODES[action.color]))
    if action.uno and action.verb != "uno":
        text += "; " + _("call UNO")
    return text


class Games:
    """Every game of one server, by id. Ids are long random words: a client reaches only the
    games it started (or was told the id of)."""

    def __init__(self, max_games: int = MAX_GAMES) -> None:
        self.max_games = max_games
        self.games: dict[str, AgentGame] = {}

    # -- rules and bots ------------------------------------------------------------------------
    @staticmethod
    def rule_sets() -> dict[str, Any]:
        """The presets with a line each, the bots, and how to change a rule."""
        return {
            "presets": [{"name": n, "summary": preset_summary(n)} for n in PRESETS],
            "bots": [{"name": n, "summary": describe_bot(n)} for n in available()],
            "default_bot": best_bot(),
            "house_rules": _("give any rule key with its value in 'rules' (for example "
                             "{example}); explain_rules lists every key"
                             ).format(example='{"stacking": "draw2", "seven_zero": true}'),
        }

    @staticmethod
    def explain(preset: str = "classic", rules: dict[str, Any] | None = None,
                key: str | None = None) -> list[dict[str, str]]:
        """Every rule of a rule set (or one key) with its value and what it means in play."""
        rs = _rules(preset, rules or {})
        if key is not None:
            if key not in rs.to_dict():
                raise GameError(_("unknown rule key {key!r}: the keys are {keys}").format(
                    key=key, keys=", ".join(rs.to_dict())))
            return [{"key": key, "value": str(rs.to_dict()[key]),
                     "explanation": explain_key(rs, key)}]
        return [{"key": k, "value": v, "explanation": e} for k, v, e in explain(rs)]

    # -- games ---------------------------------------------------------------------------------
    def start(self, preset: str = "classic", rules: dict[str, Any] | None = None,
              players: int | None = None, bots: Sequence[str] | None = None,
              name: str = "", seed: int | None = None) -> AgentGame:
        """A new match: the caller is player 0, bots (one spec for all, or one per other place)
        play the rest; the bots move until the caller has something to decide."""
        if seed is not None and not 0 <= seed <= MAX_SEED:
            raise GameError(_("a seed is a whole number from 0 to {max}").format(max=MAX_SEED))
        overrides = dict(rules or {})
        if players is not None:
            overrides["players"] = players
        rs = _rules(preset, overrides)
        others = rs.players - 1
        specs = list(bots) if bots else [best_bot()]
        if len(specs) == 1:
            specs = specs * others
        if len(specs) != others:
            raise GameError(_("give one bot for every other place ({n}), or one bot for all "
                              "of them; {m} given").format(n=others, m=len(specs)))
        seats = default_players(rs)
        you = Player(name or seats[0].name, HUMAN)
        table_players = [you] + [Player(seats[i + 1].name, BOT, spec)
                                 for i, spec in enumerate(specs)]
        self._make_room()
        try:
            table = Table(rs, table_players, seed if seed is not None
                          else secrets.randbits(31))
        except ValueError as e:  # an unknown bot spec, said with the bots there are
            raise GameError(str(e)) from None
        game = AgentGame(secrets.token_urlsafe(12), table)
        game.advance()
        self.games[game.id] = game
        return game

    def get(self, game_id: str) -> AgentGame:
        """A game by id, or a :class:`GameError` saying there is none."""
        game = self.games.get(game_id)
        if game is None:
            raise GameError(_("no game {id!r}: start one with start_game").format(
                id=game_id[:40]))
        return game

    def play(self, game_id: str, action: str) -> dict[str, Any]:
        """Play one of :meth:`AgentGame.options` for player 0; the bots answer until player
        0 must decide again. Returns the new narration and the view."""
        game = self.get(game_id)
        if len(action) > MAX_ACTION_CHARS:
            raise GameError(_("an action has at most {max} characters").format(
                max=MAX_ACTION_CHARS))
        if game.over:
            raise GameError(_("the match is over: start a new game with start_game"))
        text = " ".join(action.split())
        allowed = [o["action"] for o in game.options()]
        if text not in allowed:
            with contextlib.suppress(ValueError, IllegalAction):  # not an action: said below
                text = str(Action.parse(text))
        if text not in allowed:
            raise GameError(_("{action!r} is not one of your actions now; allowed: "
                              "{allowed}").format(action=action[:80], allowed=", ".join(allowed)))
        before = len(game.lines)
        table = game.table
        seat = game.seat
        assert seat is not None  # a player put out has no options
        if text == DECLINE:
            table.decline(seat)
        else:
            try:
                table.apply(seat, text)
            except IllegalAction as e:  # offered moments ago, so not expected; said plainly
                raise GameError(illegal_text(e, table)) from None
        game.advance()
        return {"new_lines": game.lines[before:], **game.view(), "options": game.options()}

    def end(self, game_id: str) -> None:
        """Forget a game."""
        self.get(game_id)
        del self.games[game_id]

    def _make_room(self) -> None:
        if len(self.games) < self.max_games:
            return
        done = [gid for gid, g in self.games.items() if g.over]
        if not done:
            raise GameError(_("too many games in play ({n}): end one with end_game first"
                              ).format(n=len(self.games)))
        del self.games[done[0]]


def _rules(preset: str, overrides: dict[str, Any]) -> RuleSet:
    """A rule set, or a :class:`GameError` in the words of the command line's refusal."""
    try:
        return RuleSet.create(preset, **{k: _coerce(v) for k, v in overrides.items()})
    except ConfigError as e:
        raise GameError(config_message(e)) from None
    except TypeError:
        raise GameError(_("unknown rule key: explain_rules lists every key")) from None


def _coerce(value: Any) -> Any:
    """JSON values as a command line writes them (the engine coerces text per key)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return value if isinstance(value, str) else str(value)
