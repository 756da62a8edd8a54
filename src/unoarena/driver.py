"""The sequential driver of RULES DIG-3: bots play rounds and matches.

Before the turn seat acts, every open window (catch an undeclared UNO, declare one's own UNO
late, jump in) is offered to the eligible seats in :meth:`Game.window_seats` order, which runs
from the last actor's left. Each seat acts or declines. After any action the windows are looked
at afresh (a jump-in moves the game on, a catch closes the catch window); a seat that declined
is not asked again until the game moves on past a catch or UNO call. A window that everyone
declines costs nothing. Then the turn seat acts. :class:`unoarena.table_loop.TableLoop` keeps
that order, for this driver as for the tables people play at; a bot's illegal choice is a
:class:`BotError` here (its ``STRICT`` policy).

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
from collections.abc import Callable, Sequence

from .bots import Bot
from .engine import Action, Game, Match, Outcome
from .table_loop import STRICT, BotError, LazyView, SearchableView, TableLoop, where

__all__ = ["DEFAULT_MAX_ACTIONS", "DEFAULT_MAX_ROUNDS", "BotError", "LazyView", "Observer",
           "SearchableView", "play_match", "play_round"]

#: The most actions a round may take before the driver gives up on it (a guard against an
#: engine or bot that never ends a round, not a rule).
DEFAULT_MAX_ACTIONS = 100_000
#: The most rounds :func:`play_match` plays before giving up.
DEFAULT_MAX_ROUNDS = 10_000

#: Called after every applied action with the game, the seat that acted and the action.
Observer = Callable[[Game, int, Action], None]


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

    def per_seat(g: Game, seat: int) -> LazyView:
        return view_of[seat](g, seat, history[seat])

    # bots that want neither history nor search copies get the plain lazy view (one call less)
    plain = not any(history) and all(v is LazyView for v in view_of)
    view: Callable[[Game, int], LazyView] = LazyView if plain else per_seat

    table = TableLoop(STRICT)
    agent_for, nxt, moved = bots.__getitem__, table.next, table.turns.moved
    taken = 0
    while not game.is_over:
        if taken >= max_actions:
            raise RuntimeError(f"the round did not end within {max_actions} actions "
                               f"{where(game)}; raise max_actions if that is expected")
        move = nxt(game, agent_for, rng, view=view)
        assert move is not None and move.action is not None  # bots at every seat
        game.step(move.aid, move.seat)
        moved(game)
        if observer is not None:
            observer(game, move.seat, move.action)
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
