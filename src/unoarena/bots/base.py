"""The bot interface: what a driver asks of every automated player (DIG-3).

A bot is asked for a decision in two situations:

* ``act(view, legal, rng)``: it is the seat's turn; it must return one of ``legal``.
* ``window(view, legal)``: another seat's turn, but a window is open to this seat (catch an
  undeclared UNO, declare its own UNO late, jump in); it returns one of ``legal`` or ``None``
  to decline.

``view`` is the seat's :meth:`Game.view` (what the seat may know, DIG-2); ``legal`` holds
:class:`~unoarena.engine.Action` objects. A bot never sees the game itself, so what works for a
simple bot works for a search bot that samples hidden hands (it is told the rule set and its
seat through :meth:`Bot.begin_round`).

Determinism: ``act`` draws only from the ``rng`` it is given, so a driver can reproduce a
whole round from one seed; ``window`` has no generator argument, so a bot draws its window
decisions from its own generator, seeded by :func:`unoarena.bots.make_bot`.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from ..engine import Action, RuleSet
from ..engine.errors import suggest


@runtime_checkable
class Bot(Protocol):
    """An automated player for one seat. See the module docstring for the contract."""

    name: str

    def begin_round(self, rules: RuleSet, seat: int) -> None:
        """Called by the driver before a round starts: the rules in force and the seat."""

    def act(self, view: Mapping[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        """The seat's own turn: return one of ``legal`` (never empty)."""
        ...

    def window(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        """An out-of-turn window: return one of ``legal``, or None to decline."""
        ...


class BaseBot(ABC):
    """Shared plumbing for bots: a name, the seed and options it was made with, its own
    generator for window decisions, and the rules and seat of the current round."""

    name = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.rules: RuleSet | None = None
        self.seat = -1

    def begin_round(self, rules: RuleSet, seat: int) -> None:
        """Remember the round's rules and this bot's seat; subclasses that keep per-round state
        extend it."""
        self.rules = rules
        self.seat = seat

    @abstractmethod
    def act(self, view: Mapping[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        """The seat's own turn: return one of ``legal``."""

    def window(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        """Decline every window unless a subclass says otherwise."""
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} seed={self.seed}>"


class Options:
    """The ``key=value`` options of a bot spec, read with types and checked for leftovers, so
    that a misspelt option is an error that names the allowed ones, not silently ignored."""

    def __init__(self, bot: str, raw: Mapping[str, str]) -> None:
        self.bot = bot
        self._raw = dict(raw)
        self._known: list[str] = []

    def get_float(self, key: str, default: float, lo: float, hi: float) -> float:
        """Option ``key`` as a number in ``lo..hi`` (``default`` when absent)."""
        self._known.append(key)
        if key not in self._raw:
            return default
        text = self._raw[key]
        try:
            value = float(text)
        except ValueError:
            value = float("nan")
        if not lo <= value <= hi:
            raise ValueError(f"bot {self.bot}: option {key}={text!r} must be a number from "
                             f"{lo:g} to {hi:g}")
        return value

    def get_int(self, key: str, default: int, lo: int, hi: int | None = None) -> int:
        """Option ``key`` as an integer from ``lo`` (to ``hi``), ``default`` when absent."""
        self._known.append(key)
        if key not in self._raw:
            return default
        text = self._raw[key]
        try:
            value = int(text)
        except ValueError:
            value = lo - 1
        if value < lo or (hi is not None and value > hi):
            upto = f" to {hi}" if hi is not None else ""
            raise ValueError(f"bot {self.bot}: option {key}={text!r} must be an integer from "
                             f"{lo}{upto}")
        return value

    def get_str(self, key: str, default: str) -> str:
        """Option ``key`` as text (``default`` when absent)."""
        self._known.append(key)
        return self._raw.get(key, default)

    def done(self) -> None:
        """Raise ``ValueError`` for any option the bot did not read."""
        unknown = sorted(set(self._raw) - set(self._known))
        if unknown:
            allowed = ", ".join(sorted(self._known)) or "none"
            match = suggest(unknown[0], self._known)
            hint = f"; did you mean {match}?" if match else ""
            raise ValueError(f"bot {self.bot} has no option {', '.join(unknown)}{hint} "
                             f"(its options: {allowed})")
