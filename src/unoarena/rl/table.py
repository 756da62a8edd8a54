"""The game loop both environments share: who acts next (RULES DIG-3), rewards, episodes.

An engine round has one turn seat, but out-of-turn windows (catch an undeclared UNO, declare a
late UNO, jump in) are open to other seats at the same time. Learning APIs want one actor at a
time, so the engine's :class:`~unoarena.engine.turns.Turns` picks it, as for the bot driver and
the tables people play at: every open window is offered first to the eligible seats in
:meth:`Game.window_seats` order (from the last actor's left); each acts or declines with the
extra action :attr:`Table.decline`. A seat that declined is not asked again until the game moves
on past a catch or UNO call. Then the turn seat acts.

Episodes are one round (``episode="round"``) or a whole match (``"match"``, RULES MATCH-*).
Agents are the match's players; a player's seat may change between rounds (HR-SEATS).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..encoding import Encoder, History, Obs
from ..engine import Game, Match, Outcome, RuleSet, action_space, preset
from ..engine.turns import Turns

EPISODES = ("round", "match")
REWARDS = ("win", "points")
_MASK_CACHE = 20_000  # masks kept (each an int8 array the size of the action space)


def resolve_rules(rules: RuleSet | str | None = None, *, preset_name: str | None = None,
                  players: int | None = None,
                  overrides: Mapping[str, Any] | None = None) -> RuleSet:
    """A rule set from a :class:`RuleSet` or a preset name, a player count and overrides."""
    if rules is not None and preset_name is not None:
        raise ValueError("give either rules or preset, not both")
    extra = dict(overrides or {})
    if players is not None:
        extra["players"] = players
    if isinstance(rules, RuleSet):
        return rules.replace(**extra) if extra else rules
    return preset(rules or preset_name or "classic", **extra)


def opponent_specs(players: int, seat: int | None, opponents: str | Sequence[str]) -> list[str]:
    """The bot spec of every seat but the learning one (one spec for all, or one per other
    seat in seat order), after checking ``seat`` (None: a random seat each episode)."""
    if seat is not None and not 0 <= seat < players:
        raise ValueError(f"seat {seat} is not a seat of a {players}-player game "
                         f"(0..{players - 1})")
    specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
    if len(specs) != players - 1:
        raise ValueError(f"{len(specs)} opponent specs for {players - 1} other seats")
    return specs


class Table:
    """A match or round driven one actor at a time, with encoded observations and rewards."""

    def __init__(self, rules: RuleSet, *, episode: str = "round", reward: str = "win",
                 points_scale: float = 100.0, history: int = 0, seer: bool = False,
                 record_events: bool = False) -> None:
        if episode not in EPISODES:
            raise ValueError(f"episode must be one of {', '.join(EPISODES)}, not {episode!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if not points_scale > 0:
            raise ValueError(f"points_scale must be positive, not {points_scale}")
        if episode == "match" and rules.elimination != "off":
            raise ValueError("elimination (HR-ELIM) deals later rounds at smaller tables, whose "
                             "observations and actions have other shapes: play it with "
                             "episode='round'")
        self.rules = rules
        self.players = rules.players
        self.episode = episode
        self.reward = reward
        self.points_scale = float(points_scale)
        # penalty scoring counts points against their holder: lower is better (MATCH-2)
        self._points_sign = -1.0 if rules.scoring == "penalty" else 1.0
        self.space = action_space(rules)
        #: The extra action id: decline an out-of-turn window. Legal only in window turns.
        self.decline = len(self.space)
        self.num_actions = self.decline + 1
        self.encoder = Encoder(rules, seer=seer, history=history)
        self._encode = self.encoder.encode_fast
        self.history = History(history) if history else None
        self._mask_zero: npt.NDArray[np.int8] = np.zeros(self.num_actions, np.int8)
        self._masks: dict[tuple[int, ...], npt.NDArray[np.int8]] = {}
        self.record_events = record_events  # for bots that read the event history
        self.match: Match | None = None
        self.game: Game | None = None
        self.seat_of: list[int] = list(range(self.players))  # player -> seat
        self.player_of: list[int] = list(range(self.players))  # seat -> player
        self.actor = -1  # the seat that acts next
        self.actor_player = -1  # and the player sitting there
        self.legal: list[int] = []  # its legal ids (with `decline` last in a window)
        self.window = False
        self.turns = Turns()  # who declined which window
        self.done = True
        self.steps = 0
        self.rounds = 0

    # -- episodes -------------------------------------------------------------------------------
    def start(self, seed: int) -> None:
        """A new episode: a match from ``seed`` (SET-1 picks the first dealer)."""
        self.match = Match(self.rules, seed, record_events=self.record_events)
        self.done = False
        self.steps = 0
        self.rounds = 0
        self._begin_round()

    def _begin_round(self) -> None:
        assert self.match is not None
        self.game = self.match.game
        self.seat_of = list(self.match.seat_of)
        for p, s in enumerate(self.seat_of):
            self.player_of[s] = p
        self.turns.reset()
        if self.history is not None:
            self.history.clear()
        self.rounds += 1
        self._select()

    def _select(self) -> None:
        """Find the next actor: open windows first, in DIG-3 order, then the turn seat."""
        g = self.game
        assert g is not None
        s = self.turns.next_window(g)
        if s >= 0:
            ids = g.legal_ids(s)
            ids.append(self.decline)
            self.actor, self.legal, self.window = s, ids, True
        else:
            s = g.turn
            self.actor, self.legal, self.window = s, g.legal_ids(s), False
        self.actor_player = self.player_of[s]

    # -- acting ---------------------------------------------------------------------------------
    def step(self, aid: int) -> list[float] | None:
        """Apply the actor's legal action id. Returns the reward of every player when this
        step ends a round or the match (else None); ``done`` says whether the episode ended."""
        g = self.game
        assert g is not None and not self.done
        seat = self.actor
        self.steps += 1
        if aid == self.decline:
            self.turns.decline(g, seat)
        else:
            hist = self.history
            if hist is not None:
                before = g.hand_sizes()
                g.step(aid, seat)
                hist.record(seat, aid, before, g.hand_sizes())
            else:
                g.step(aid, seat)
            self.turns.moved(g)
            if g.is_over:
                return self._round_over()
        self._select()
        return None

    def _round_over(self) -> list[float]:
        g, m = self.game, self.match
        assert g is not None and m is not None and g.outcome is not None
        out = g.outcome
        if self.episode == "round":
            self.done = True
            return self._round_rewards(out)
        rewards = (self._round_rewards(out) if self.reward == "points"
                   else [0.0] * self.players)
        m.finish_round()
        if m.is_over:
            self.done = True
            if self.reward == "win":
                rewards = self._match_rewards(m.winners)
        else:
            self._begin_round()
        return rewards

    def _team(self, seat: int) -> int:
        return self.rules.team_of(seat)

    def _round_rewards(self, out: Outcome) -> list[float]:
        """Per player: +1 / -1 for the round's winner (team) and the others, 0 when void; or
        the round's scores, signed so that more is better, divided by ``points_scale``."""
        rules = self.rules
        seats = self.seat_of
        if self.reward == "points":
            k = self._points_sign / self.points_scale
            if rules.teams:
                return [out.scores[self._team(seats[p])] * k for p in range(self.players)]
            return [out.scores[seats[p]] * k for p in range(self.players)]
        w = out.winner
        if w is None:
            return [0.0] * self.players
        if rules.teams:
            wt = self._team(w)
            return [1.0 if self._team(seats[p]) == wt else -1.0 for p in range(self.players)]
        return [1.0 if seats[p] == w else -1.0 for p in range(self.players)]

    def _match_rewards(self, winners: Sequence[int]) -> list[float]:
        """+1 for each match winner (or member of a winning team), -1 for the others."""
        if self.rules.teams:
            return [1.0 if self._team(self.seat_of[p]) in winners else -1.0
                    for p in range(self.players)]
        return [1.0 if p in winners else -1.0 for p in range(self.players)]

    # -- observing ------------------------------------------------------------------------------
    def observation(self, player: int) -> Obs:
        """The encoded observation of ``player`` now (a new array)."""
        g = self.game
        assert g is not None
        seat = self.seat_of[player]
        acting = seat == self.actor and not self.done
        return self.encoder.encode(g, seat, window=acting and self.window,
                                   history=self.history, legal=self.legal if acting else None)

    def observe(self, player: int) -> dict[str, Any]:
        """``{"observation": ..., "action_mask": ...}`` of ``player`` (new arrays)."""
        g = self.game
        assert g is not None
        seat = self.seat_of[player]
        if seat != self.actor or self.done:
            return {"observation": self._encode(g, seat, False, self.history, None),
                    "action_mask": self._mask_zero.copy()}
        legal = self.legal
        key = tuple(legal)
        cached = self._masks.get(key)
        if cached is None:
            cached = self._mask_of(key)
        return {"observation": self._encode(g, seat, self.window, self.history, legal),
                "action_mask": cached.copy()}

    def _mask_of(self, key: tuple[int, ...]) -> npt.NDArray[np.int8]:
        """The mask of a legal set; the same sets recur, so each is built once and handed out
        as copies (an array copy costs a third of building one from bytes)."""
        m = self._mask_zero.copy()
        m[list(key)] = 1
        if len(self._masks) >= _MASK_CACHE:
            self._masks.clear()
        self._masks[key] = m
        return m

    def mask(self, player: int) -> npt.NDArray[np.int8]:
        """The legal-action mask of ``player`` (all zero unless it acts next; a new array)."""
        if self.done or self.seat_of[player] != self.actor:
            return self._mask_zero.copy()
        key = tuple(self.legal)
        cached = self._masks.get(key)
        if cached is None:
            cached = self._mask_of(key)
        return cached.copy()
