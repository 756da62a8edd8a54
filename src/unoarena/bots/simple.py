"""Two baseline bots: ``random`` (a lower bound for any other bot) and ``basic`` (what a
beginner does: play something that fits, keep the rules, never bluff or plan).

Both are cheap: ``random`` never reads the view, and ``basic`` reads it only to pick a colour or
a target, so simulations with them measure the engine rather than the bots.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine import COLOR_CODES, Action
from .base import BaseBot, Options


class RandomBot(BaseBot):
    """Uniform over every legal action (voluntary draws, catches and challenges included);
    declines each window with probability ``decline`` (default 0.5)."""

    name = "random"

    def __init__(self, seed: int = 0, decline: float = 0.5) -> None:
        super().__init__(seed)
        self.decline = decline

    def act(self, view: Mapping[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        """Any legal action, uniformly, drawn from the driver's ``rng``."""
        return legal[int(rng.random() * len(legal))]

    def window(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        """Decline with probability ``decline``, else take any offered action uniformly (from the
        bot's own generator)."""
        if self.rng.random() < self.decline:
            return None
        return legal[int(self.rng.random() * len(legal))]


class BasicBot(BaseBot):
    """A random legal play, with a beginner's sense:

    * a play that leaves one card always declares UNO (UNO-1), and a missed one is declared
      late when a window allows it;
    * it draws only when it has no play, and plays a playable drawn card (TURN-3);
    * a pending penalty is answered with a legal card when it has one, else taken (EFF-0);
      it never challenges a Wild Draw Four (WD4-2);
    * a wild names the colour it holds most; a target is the seat with the fewest cards;
    * it always catches an exposed opponent (UNO-2) and never jumps in (HR-JUMP).
    """

    name = "basic"

    def act(self, view: Mapping[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        """Catch or declare UNO first, name the colour held most, play a random card that fits, and
        only then accept, draw or pass."""
        by_verb: dict[str, list[Action]] = {}
        for a in legal:
            by_verb.setdefault(a.verb, []).append(a)
        for verb in ("catch", "uno"):
            if verb in by_verb:
                return by_verb[verb][0]
        if "color" in by_verb:
            colors = {a.color for a in by_verb["color"]}
            best = self._best_color(view, colors, rng)
            return next(a for a in by_verb["color"] if a.color == best)
        if "give" in by_verb:
            gives = by_verb["give"]
            return gives[int(rng.random() * len(gives))]
        if "play" in by_verb:
            return self._choose_play(view, by_verb["play"], rng)
        for verb in ("accept", "draw", "pass"):
            if verb in by_verb:
                return by_verb[verb][0]
        return legal[0]

    def window(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        """Catch an undeclared UNO or declare its own late; decline anything else (it never jumps
        in)."""
        for verb in ("catch", "uno"):
            for a in legal:
                if a.verb == verb:
                    return a
        return None

    # -- choices -------------------------------------------------------------------------------
    def _choose_play(self, view: Mapping[str, Any], plays: list[Action],
                     rng: random.Random) -> Action:
        """Pick which cards at random, then the sensible variant of that play."""
        groups: dict[tuple[int, ...], list[Action]] = {}
        for a in plays:
            groups.setdefault(a.cards, []).append(a)
        keys = list(groups)
        variants = groups[keys[int(rng.random() * len(keys))]]
        if len(variants) > 1:
            plain = [a for a in variants if not a.power]  # name a colour, not look/swap
            variants = plain or variants
            colors = {a.color for a in variants if a.color >= 0}
            if len(colors) > 1:
                best = self._best_color(view, colors, rng)
                variants = [a for a in variants if a.color == best]
            targets = {a.target for a in variants if a.target >= 0}
            if len(targets) > 1:
                target = self._weakest(view, targets, rng)
                variants = [a for a in variants if a.target == target]
        flagged = [a for a in variants if a.uno]
        return flagged[0] if flagged else variants[0]

    @staticmethod
    def _best_color(view: Mapping[str, Any], colors: set[int], rng: random.Random) -> int:
        """The colour among ``colors`` that the hand holds most (ties at random)."""
        counts = dict.fromkeys(colors, 0)
        for code in view["hand"]:
            if not code.startswith("W"):
                c = COLOR_CODES.index(code[0])
                if c in counts:
                    counts[c] += 1
        top = max(counts.values())
        best = sorted(c for c, n in counts.items() if n == top)
        return best[int(rng.random() * len(best))]

    @staticmethod
    def _weakest(view: Mapping[str, Any], seats: set[int], rng: random.Random) -> int:
        """The seat among ``seats`` holding the fewest cards (ties at random)."""
        sizes = view["hand_sizes"]
        low = min(sizes[s] for s in seats)
        best = sorted(s for s in seats if sizes[s] == low)
        return best[int(rng.random() * len(best))]


def make_random(options: Mapping[str, str], seed: int) -> RandomBot:
    """Build a :class:`RandomBot` from its spec; its one option is ``decline`` (0 to 1)."""
    o = Options("random", options)
    decline = o.get_float("decline", 0.5, 0.0, 1.0)
    o.done()
    return RandomBot(seed, decline=decline)


def make_basic(options: Mapping[str, str], seed: int) -> BasicBot:
    """Build a :class:`BasicBot`; it takes no options, so any option is an error."""
    Options("basic", options).done()
    return BasicBot(seed)
