"""The sequential driver of RULES DIG-3: bots play rounds and matches.

Before the turn seat acts, every open window (catch an undeclared UNO, declare one's own UNO
late, jump in) is offered to the eligible seats in :meth:`Game.window_seats` order, which runs
from the last actor's left. Each seat acts or declines. After any action the windows are looked
at afresh (a jump-in moves the game on, a catch closes the catch window); a seat that declined
is not asked again until the game moves on past a catch or UNO call. A window that everyone
declines costs nothing. Then the turn seat acts. :class:`unoarena.engine.turns.Turns` keeps
that order, for this driver as for the tables people play at and the learning environments.

Bots get a lazy view: the seat's :meth:`Game.view` is built only if the bot reads it, so bots
that decide from the legal actions alone cost the driver nothing extra. A bot class with
``wants_history = True`` gets ``game.view(seat, history=True)``: the round's events as that seat
saw them, which card-tracking and search bots infer hidden hands from (the game must record
events, as it does by default). A bot class with ``wants_determinize = True`` also gets a
``view.determinize(rng, known=..., excluded=...)``: :meth:`Game.determinize` for its seat, a copy
of the round with every card the seat cannot see re-dealt, for search without hidden state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from typing import Any

from .bots import Bot
from .engine import Action, Game, Match, Outcome, View
from .engine.turns import Turns

#: The most actions a round may take before the driver gives up on it (a guard against an
#: engine or bot that never ends a round, not a rule).
DEFAULT_MAX_ACTIONS = 100_000
#: The most rounds :func:`play_match` plays before giving up.
DEFAULT_MAX_ROUNDS = 10_000

#: Called after every applied action with the game, the seat that acted and the action.
Observer = Callable[[Game, int, Action], None]

class BotError(RuntimeError):
    """A bot returned something that is not one of the legal actions it was offered."""


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
        """End the view: the driver calls this when the bot's call returns, so a later
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


def _where(game: Game) -> str:
    r = game.rules
    over = r.overrides()
    extra = " " + " ".join(f"{k}={v}" for k, v in over.items()) if over else ""
    return f"(rules {r.preset}{extra}, seed {game.seed}, dealer {game.dealer})"


def play_round(game: Game, bots: Sequence[Bot], rng: random.Random, *,
               max_actions: int = DEFAULT_MAX_ACTIONS,
               observer: Observer | None = None) -> Outcome:
    """Play ``game`` to its end with one bot per seat; returns the round's outcome.

    ``rng`` is handed to every :meth:`Bot.act`, so the same game, bots and ``rng`` seed give
    the same round. Raises :class:`BotError` when a bot returns an illegal action and
    ``RuntimeError`` (naming the seed) when the round is not over after ``max_actions``.
    """
    n = game.players
    if len(bots) != n:
        raise ValueError(f"{len(bots)} bots for a {n}-player game: give one bot per seat")
    for seat, bot in enumerate(bots):
        bot.begin_round(game.rules, seat)
    history = [bool(getattr(bot, "wants_history", False)) for bot in bots]
    view_of: list[Callable[[Game, int, bool], LazyView]] = [
        SearchableView if getattr(bot, "wants_determinize", False) else LazyView for bot in bots]
    space = game.space
    actions, index = space.actions, space.index
    turns = Turns()
    taken = 0
    while not game.is_over:
        if taken >= max_actions:
            raise RuntimeError(f"the round did not end within {max_actions} actions "
                               f"{_where(game)}; raise max_actions if that is expected")
        seat = turns.next_window(game)
        choice: Action | None
        if seat >= 0:  # an open window: the seat acts in it or declines
            ids = game.legal_ids(seat)
            view = view_of[seat](game, seat, history[seat])
            choice = bots[seat].window(view, [actions[i] for i in ids])
            view.close()
            if choice is None:
                turns.decline(game, seat)
                continue
        else:
            seat = game.turn
            ids = game.legal_ids(seat)
            if not ids:
                raise RuntimeError(f"seat {seat} must act in phase {game.phase} but has no "
                                   f"legal action {_where(game)}")
            view = view_of[seat](game, seat, history[seat])
            choice = bots[seat].act(view, [actions[i] for i in ids], rng)
            view.close()
        aid = index.get(choice)
        if aid is None or aid not in ids:
            legal = ", ".join(str(actions[i]) for i in ids)
            raise BotError(f"bot {bots[seat].name!r} at seat {seat} chose {str(choice)!r}, "
                           f"which is not legal now {_where(game)}; legal: {legal}")
        game.step(aid, seat)
        turns.moved(game)
        if observer is not None:
            observer(game, seat, choice)
        taken += 1
    outcome = game.outcome
    assert outcome is not None
    return outcome


def play_match(match: Match, bots: Sequence[Bot], rng: random.Random, *,
               max_actions: int = DEFAULT_MAX_ACTIONS,
               max_rounds: int = DEFAULT_MAX_ROUNDS,
               observer: Observer | None = None) -> tuple[int, ...]:
    """Play ``match`` to its end; ``bots[p]`` plays for player ``p`` wherever the seat
    exchange (HR-SEATS) puts them. Returns the match winners (players, or teams with teams)."""
    n = match.rules.players
    if len(bots) != n:
        raise ValueError(f"{len(bots)} bots for a {n}-player match: give one bot per player")
    while not match.is_over:
        if match.rounds_played >= max_rounds:
            raise RuntimeError(f"the match did not end within {max_rounds} rounds "
                               f"(seed {match.seed})")
        by_seat = [bots[match.player_at(seat)] for seat in range(match.game.players)]
        play_round(match.game, by_seat, rng, max_actions=max_actions, observer=observer)
        match.finish_round()
    return tuple(match.winners)
