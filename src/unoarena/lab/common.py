"""What the simulation lab and tournaments share: seeds, bot lists, rule-set specs, and one
round played with its statistics recorded.

Seeds: every game takes its seeds from :func:`derive` (the base seed, a purpose and the game's
index), never from a generator that advances game by game, so game ``i`` is the same game
whichever process, chunk or machine plays it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from ..bots import Bot, make_bot, split_specs
from ..driver import DEFAULT_MAX_ACTIONS, DEFAULT_MAX_ROUNDS, play_round
from ..engine import CODES, Action, Game, Match, RuleSet, parse_overrides, preset
from ..seeding import derive
from .stats import RoundStats

#: Actions that do not end a seat's turn (out-of-turn calls, naming a starter's colour).
_NOT_A_TURN = frozenset({"catch", "uno", "color"})
#: Card kinds that start a draw penalty (EFF-1, EFF-5, ATK-8, ATK-9).
_PENALTY_KINDS = frozenset(k for k, c in enumerate(CODES)
                           if c.endswith(("D2", "H2")) or c in ("W4", "WA"))


class LabError(ValueError):
    """A request the lab cannot carry out as given (bad bot list, rule spec, worker count,
    missing optional package); the message says what was wrong and what is allowed."""


#: Called with the number of games done so far.
Progress = Callable[[int], None]


def plan(total: int, parts: int, max_chunk: int) -> list[tuple[int, int]]:
    """Split ``0..total`` into about ``parts`` chunks of at most ``max_chunk`` games (for
    worker processes and Ray tasks alike)."""
    if total <= 0:
        return []
    size = max(1, min(max_chunk, math.ceil(total / max(1, parts))))
    return [(a, min(total, a + size)) for a in range(0, total, size)]


def seat_bots(bots: Sequence[str] | str, players: int) -> tuple[str, ...]:
    """One bot spec per seat from one spec for all, or exactly one per seat.

    A single string may list several specs separated by commas (``"basic,random"``).
    Every spec is checked by building it once, so a typo fails before any game is played.
    """
    specs = split_specs(bots) if isinstance(bots, str) else [s.strip() for s in bots]
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise LabError(f"{len(specs)} bots for {players} players: give one bot for all "
                       "seats or one per seat")
    for spec in specs:
        make_bot(spec)
    return tuple(specs)


def parse_rule_spec(text: str, base: dict[str, object] | None = None) -> RuleSet:
    """``"classic"``, ``"classic:stacking=draw2,jump_in=on"`` or ``"house,players=3"``: a preset
    and overrides, on top of ``base`` overrides (``--set`` and ``--players`` given for all).
    Bad keys and values raise the engine's ``ConfigError``, which names what is allowed."""
    text = text.strip()
    name, sep, rest = text.partition(":")
    if not sep:
        name, _sep, rest = text.partition(",")
    name = name.strip()
    if not name:
        raise LabError(f"empty preset in rule spec {text!r}: write PRESET or "
                       "PRESET:key=value,key=value")
    items = [p.strip() for p in rest.split(",") if p.strip()]
    overrides: dict[str, object] = dict(base or {})
    overrides.update(parse_overrides(items))
    return preset(name, **overrides)


def spec_label(rules: RuleSet) -> str:
    """``house:jump_in=True``: a rule set as a short, readable column header."""
    over = rules.overrides()
    if not over:
        return rules.preset
    return rules.preset + ":" + ",".join(f"{k}={_value(v)}" for k, v in over.items())


def _value(v: object) -> str:
    if isinstance(v, bool):
        return "on" if v else "off"
    if v is None:
        return "none"
    if isinstance(v, (list, tuple)):
        return "/".join(str(x) for x in v)
    return str(v)


class RoundTracker:
    """A driver observer that counts turns and penalty chains while a round is played.

    A chain starts with a card that gives a draw penalty (or a starter that leaves one pending)
    and grows by one with every play made while the penalty is pending (a stacked or deflected
    answer, HR-STACK, HR-STACK4, HR-4ON2, ATK-8); it ends when the penalty is no longer pending
    (taken, challenged, or the round ended). Reading ``game.pending`` is cheap when nothing is
    pending, so this costs the hot loop one call per action.
    """

    __slots__ = ("chain", "chains", "turns")

    def __init__(self, game: Game) -> None:
        self.turns = 0
        self.chains: list[int] = []
        self.chain = 1 if game.pending is not None else 0

    def __call__(self, g: Game, seat: int, action: Action) -> None:
        """Called by the driver after each action it applied: counts a turn unless the action is a
        catch, an UNO call or a colour choice, and grows or closes the penalty chain."""
        verb = action.verb
        if verb not in _NOT_A_TURN and g.phase in ("play", "over"):
            self.turns += 1
        pending = g.pending
        if verb == "play" or verb == "jump_in":
            if self.chain:
                self.chain += 1
            elif pending is not None or action.cards[-1] in _PENALTY_KINDS:
                self.chain = 1
        if self.chain and pending is None:
            self.chains.append(self.chain)
            self.chain = 0

    def finish(self, game: Game) -> RoundStats:
        """The round's statistics, from the tracker's counts and the game's events."""
        if self.chain:
            self.chains.append(self.chain)
            self.chain = 0
        outcome = game.outcome
        assert outcome is not None
        drawn: dict[str, int] = {}
        reason, left = "", 0
        for e in game.events:
            t = e["t"]
            if t == "draw":
                if e["count"]:
                    drawn[e["reason"]] = drawn.get(e["reason"], 0) + e["count"]
            elif t == "penalty":  # Attack: a penalty is a number of launcher presses
                reason, left = e["reason"], e["presses"]
            elif t == "press":
                r = "turn"
                if left > 0:
                    r, left = reason, left - 1
                if e["count"]:
                    drawn[r] = drawn.get(r, 0) + e["count"]
        void = outcome.winner is None
        return RoundStats(
            winner=outcome.winner, actions=len(game.history), turns=self.turns,
            drawn_by=tuple(sorted(drawn.items())),
            points=0 if void else sum(outcome.hand_points), chains=tuple(self.chains),
            hand_points=tuple(outcome.hand_points), scores=tuple(outcome.scores))


def play_tracked(game: Game, bots: Sequence[Bot], rng: random.Random,
                 max_actions: int = DEFAULT_MAX_ACTIONS) -> RoundStats:
    """Play ``game`` to its end with the driver and return its statistics."""
    tracker = RoundTracker(game)
    play_round(game, bots, rng, max_actions=max_actions, observer=tracker)
    return tracker.finish(game)


def play_indexed_round(rules: RuleSet, specs: Sequence[str], seed: int, index: int,
                       max_actions: int = DEFAULT_MAX_ACTIONS) -> tuple[RoundStats, Game]:
    """Round ``index`` of a batch: its own deal, bots and decisions from ``seed``; the deal
    passes round by round (dealer ``index mod players``) so that no seat is favoured."""
    n = rules.players
    game = Game(rules, derive(seed, "game", index), index % n)
    bots = [make_bot(spec, derive(seed, "bot", index, s)) for s, spec in enumerate(specs)]
    stats = play_tracked(game, bots, random.Random(derive(seed, "act", index)), max_actions)
    return stats, game


def play_indexed_match(rules: RuleSet, specs: Sequence[str], seed: int, index: int,
                       max_actions: int = DEFAULT_MAX_ACTIONS,
                       max_rounds: int = DEFAULT_MAX_ROUNDS) -> tuple[list[RoundStats], Match]:
    """Match ``index`` of a batch: ``specs[p]`` plays for player ``p`` wherever the seat
    exchange (HR-SEATS) puts them, as :func:`unoarena.driver.play_match` does."""
    match = Match(rules, derive(seed, "match", index))
    bots = [make_bot(spec, derive(seed, "bot", index, p)) for p, spec in enumerate(specs)]
    rng = random.Random(derive(seed, "act", index))
    rounds: list[RoundStats] = []
    while not match.is_over:
        if match.rounds_played >= max_rounds:
            raise RuntimeError(f"the match did not end within {max_rounds} rounds "
                               f"(seed {match.seed})")
        by_seat = [bots[match.player_at(seat)] for seat in range(match.game.players)]
        rounds.append(play_tracked(match.game, by_seat, rng, max_actions))
        match.finish_round()
    return rounds, match
