"""The table loop: who acts next at a table of bots and people, and what a bot's bad move gets.

Every program that plays a round one seat at a time asks here: the bot driver
(:func:`unoarena.driver.play_round`), the terminal table
(:meth:`unoarena.tui.session.Table.next_decision`) and the web room's clock
(:mod:`unoarena.web.timing`). The order is RULES DIG-3's: every
open window (catch an undeclared UNO, declare one's own late, jump in) goes first, in
:meth:`Game.window_seats` order, to a bot that takes it or declines (:class:`Turns` remembers the
declines until the game moves on); a person's window either stops the loop (a table that asks
people in turn) or stays open while the loop goes on (a table with a clock, where people click
whenever they like); then the turn seat acts: its bot, or the person the table waits for.

A bot's bad move (an action it was not offered, or an exception) is handled in one of two ways,
chosen by the table: :data:`STRICT` (the driver, the lab, the terminal) raises :class:`BotError`
with the seat, the choice and the legal actions, because there it is a bug to fix; :data:`LENIENT`
(the web server, where a room must go on for the people at it) logs it and lets the bot decline
its window, or play its first legal action on its turn.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from .bots import Bot
from .engine import Action, Game, View
from .engine.turns import Turns

log = logging.getLogger("unoarena")

#: A bot's bad move is a :class:`BotError` (a bug to see: driver, lab, terminal).
STRICT: Final = "strict"
#: A bot's bad move is logged; it declines its window or plays its first legal action on its
#: turn (a server, whose rooms must go on).
LENIENT: Final = "lenient"

#: ``bot``: a bot acts (``action`` set); ``turn``: a person's turn; ``window``: a person's open
#: window (only when people are asked in windows); ``wait``: a bot's turn that is not due yet.
Kind = Literal["bot", "turn", "window", "wait"]


class BotError(RuntimeError):
    """A bot returned something that is not one of the legal actions it was offered."""


@dataclass(slots=True)
class Move:
    """What the loop found: who acts next, and for a bot what it chose."""

    kind: Kind
    seat: int
    action: Action | None = None
    aid: int = -1  # the action's id in the game's action space (a bot's move only)
    in_window: bool = False  # a bot acting out of turn, in an open window
    person_window: bool = False  # a person's window stayed open while the loop went on


class LazyView(Mapping[str, Any]):
    """``game.view(seat)``, built on first access and valid only during the call that got it
    (a bot that keeps it and reads it later gets an error, not a silently newer state)."""

    __slots__ = ("_data", "_game", "_history", "_seat")

    def __init__(self, game: Game, seat: int, history: bool = False) -> None:
        self._game: Game | None = game
        self._seat = seat
        self._history = history
        self._data: View | None = None

    def _load(self) -> View:
        if self._data is None:
            if self._game is None:
                raise RuntimeError("a view is valid only during the call that received it; "
                                   "copy it with dict(view) to keep it")
            self._data = self._game.view(self._seat, history=self._history)
        return self._data

    def close(self) -> None:
        """End the view: the loop calls this when the bot's call returns, so a later
        read raises instead of showing a newer state."""
        self._game = None

    def _live(self) -> Game:
        if self._game is None:
            raise RuntimeError("a view is valid only during the call that received it")
        return self._game

    def __getitem__(self, key: str) -> Any:
        view: Mapping[str, Any] = self._load()  # any key a bot asks for, as a mapping would
        return view[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())


class SearchableView(LazyView):
    """A :class:`LazyView` that can also deal search copies of the round for its seat
    (:meth:`Game.determinize`), for bots with ``wants_determinize = True``."""

    __slots__ = ()

    def determinize(self, rng: random.Random, *,
                    known: Mapping[int, Sequence[int]] | None = None,
                    excluded: Mapping[int, Collection[int]] | None = None) -> Game:
        """A copy of the round for search with everything this seat cannot see
        re-dealt (:meth:`Game.determinize` for the view's seat); only during the bot's call."""
        return self._live().determinize(self._seat, rng, known=known, excluded=excluded)


#: What a bot reads for its seat: a mapping, closed after the call when it is a LazyView.
ViewOf = Callable[[Game, int], Mapping[str, Any]]


def plain_view(game: Game, seat: int) -> Mapping[str, Any]:
    """The seat's view, built at once (tables with people, which act rarely)."""
    return game.view(seat)


def where(game: Game) -> str:
    """The rules, seed and dealer of ``game``: enough to play the round again."""
    r = game.rules
    over = r.overrides()
    extra = " " + " ".join(f"{k}={v}" for k, v in over.items()) if over else ""
    return f"(rules {r.preset}{extra}, seed {game.seed}, dealer {game.dealer})"


class TableLoop:
    """The declines of one round (a :class:`Turns`) and the rule for who acts next.

    A table keeps one for the match: :meth:`moved` after every applied action, :meth:`reset`
    at each deal, :meth:`decline` when a person lets a window pass.
    """

    __slots__ = ("label", "policy", "turns")

    def __init__(self, policy: str = STRICT, *, label: str = "") -> None:
        if policy not in (STRICT, LENIENT):
            raise ValueError(f"bad-move policy {policy!r}: use {STRICT!r} or {LENIENT!r}")
        self.policy = policy
        self.label = label  # names the table in log lines (a room's id)
        self.turns = Turns()

    def reset(self) -> None:
        """A new round: nobody has declined anything."""
        self.turns.reset()

    def moved(self, game: Game) -> None:
        """After every action applied to ``game`` (see :meth:`Turns.moved`)."""
        self.turns.moved(game)

    def decline(self, game: Game, seat: int) -> None:
        """``seat`` lets its open window pass until the game moves on."""
        self.turns.decline(game, seat)

    def next(self, game: Game, agent_for: Callable[[int], Bot | None], rng: random.Random, *,
             view: ViewOf = plain_view, ask_people_in_windows: bool = False,
             turn_ready: Callable[[], bool] | None = None) -> Move | None:
        """Who acts next in ``game``, asking the bots on the way; None once the round is over.

        ``agent_for(seat)`` is the bot that acts for a seat now, or None for a person. A bot
        that declines its window is remembered as declining. ``turn_ready`` false makes a
        bot's turn a ``wait`` (a table that paces its bots); nothing is asked then.
        """
        if game.is_over:
            return None
        space = game.space
        actions = space.actions
        person_window = False
        turns = self.turns
        if turns.next_window(game) >= 0:  # (cheap when no window can be open)
            for seat in turns.windows(game):
                bot = agent_for(seat)
                if bot is None:
                    if ask_people_in_windows:
                        return Move("window", seat)
                    person_window = True
                    continue
                ids = game.legal_ids(seat)
                choice = self._ask(game, seat, bot, ids, view, None)
                aid = self._check(game, seat, bot, ids, choice, window=True)
                if aid < 0:
                    turns.decline(game, seat)
                    continue
                return Move("bot", seat, actions[aid], aid, True, person_window)
        seat = game.turn
        bot = agent_for(seat)
        if bot is None:
            return Move("turn", seat, None, -1, False, person_window)
        if turn_ready is not None and not turn_ready():
            return Move("wait", seat, None, -1, False, person_window)
        ids = game.legal_ids(seat)
        if not ids:
            raise RuntimeError(f"seat {seat} must act in phase {game.phase} but has no "
                               f"legal action {where(game)}")
        if self.policy == STRICT:  # the driver's hot path: no handler, no extra call
            seen = view(game, seat)
            pick: Action | None = bot.act(seen, [actions[i] for i in ids], rng)
            if isinstance(seen, LazyView):
                seen.close()
        else:
            pick = self._ask(game, seat, bot, ids, view, rng)
        found = space.index.get(pick) if pick is not None else None
        if found is None or found not in ids:
            found = self._check(game, seat, bot, ids, pick, window=False)
            if found < 0:
                found = ids[0]  # LENIENT: the first legal action stands in for the bad one
        return Move("bot", seat, actions[found], found, False, person_window)

    def _ask(self, game: Game, seat: int, bot: Bot, ids: list[int], view: ViewOf,
             rng: random.Random | None) -> Action | None:
        """The bot's choice (``rng`` None: its window, else its turn); LENIENT turns an
        exception into no choice."""
        actions = game.space.actions
        seen = view(game, seat)
        legal = [actions[i] for i in ids]
        try:
            if rng is None:
                return bot.window(seen, legal)
            return bot.act(seen, legal, rng)
        except Exception:
            if self.policy == STRICT:
                raise
            log.exception("table %s: bot %r at seat %d failed", self.label, bot.name, seat)
            return None
        finally:
            if isinstance(seen, LazyView):
                seen.close()

    def _check(self, game: Game, seat: int, bot: Bot, ids: list[int], choice: Action | None,
               *, window: bool) -> int:
        """The chosen action's id, or -1 for a declined window or a LENIENT bad move."""
        if choice is None and (window or self.policy == LENIENT):
            return -1
        aid = game.space.index.get(choice) if choice is not None else None
        if aid is not None and aid in ids:
            return aid
        if self.policy == LENIENT:
            log.warning("table %s: bot %r at seat %d chose %s, which is not legal now",
                        self.label, bot.name, seat, choice)
            return -1
        actions = game.space.actions
        legal = ", ".join(str(actions[i]) for i in ids)
        raise BotError(f"bot {bot.name!r} at seat {seat} chose {str(choice)!r}, "
                       f"which is not legal now {where(game)}; legal: {legal}")
