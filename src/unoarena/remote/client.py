"""Play a remote bot seat over the arena's WebSocket protocol (``unoarena bot run``).

The program is an ordinary client (docs/protocol/): it says ``hello`` with the seat's bot
token and then answers every ``state`` in which its seat has something to decide with one
``act`` carrying the state's ``seq``. The server stays the authority: it checks every action,
and a stand-in moves for the seat when the program is late or away, so the loop never has to
be right about timing, only about its own seat. A dropped connection is tried again with
jittered exponential backoff, and the ``hello`` brings the current state back.

It needs ``websockets`` and the bots, never the server.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import json
import logging
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ..bots import Bot, make_bot
from ..engine import Action, RuleSet
from ..text.i18n import _

log = logging.getLogger("unoarena.remote")

#: Exit codes of ``unoarena bot run``.
EXIT_OVER = 0  # the match is over
EXIT_GAVE_UP = 1  # no connection for longer than the patience allowed
EXIT_REFUSED = 2  # the token is not (or no longer) a seat's: retrying cannot help


class RemoteError(Exception):
    """Something the program cannot play on from: a bad URL or bot spec, a refused token."""


def ws_url(url: str) -> str:
    """The table's WebSocket address from what a host copies: a room page
    (``http://host/r/ROOM``), or the WebSocket itself (``ws://host/ws/ROOM``)."""
    parts = urlsplit(url.strip())
    scheme = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}.get(parts.scheme)
    segments = [s for s in parts.path.split("/") if s]
    if scheme is None or not parts.netloc or len(segments) < 2 \
            or segments[-2] not in ("r", "ws"):
        raise RemoteError(_("not a room address: {url}; give the room's link, as in "
                            "http://HOST/r/ROOM (or ws://HOST/ws/ROOM)").format(url=repr(url)))
    prefix = "/".join(segments[:-2])
    path = ("/" + prefix if prefix else "") + "/ws/" + segments[-1]
    return urlunsplit((scheme, parts.netloc, path, "", ""))


def load_bot(spec: str, seed: int = 0) -> Bot:
    """A registered bot (``heuristic``, ``ismcts:iterations=200``) or a class of one's own
    (``package.module:Class``, made with ``seed`` when its constructor takes one)."""
    module_name, _sep, cls_name = spec.partition(":")
    if cls_name.isidentifier():  # module:Class (a registered bot's options hold a "=")
        try:
            cls = getattr(importlib.import_module(module_name), cls_name)
        except (ImportError, AttributeError) as e:
            raise RemoteError(_("cannot load the bot class {spec}: {error}").format(
                spec=spec, error=e)) from None
        try:
            takes_seed = "seed" in inspect.signature(cls).parameters
        except (TypeError, ValueError):
            takes_seed = False
        bot = cls(seed=seed) if takes_seed else cls()
        if not callable(getattr(bot, "act", None)) or not callable(getattr(bot, "begin_round",
                                                                           None)):
            raise RemoteError(_("{spec} is not a bot: it needs begin_round(rules, seat) and "
                                "act(view, legal, rng) (see unoarena.bots.Bot)").format(
                                    spec=spec))
        return bot  # type: ignore[no-any-return]
    try:
        return make_bot(spec, seed)
    except (ValueError, KeyError) as e:
        raise RemoteError(str(e)) from None


@dataclass
class Stats:
    """What one run did: decisions sent, refusals, reconnections."""

    decisions: int = 0
    refused: int = 0
    reconnects: int = 0
    think_s: float = 0.0  # time spent in the bot's own code
    errors: dict[str, int] = field(default_factory=dict)


class Seat:
    """The decisions of one seat: reads the server's messages, answers with actions.

    Kept apart from the socket so that the same logic serves any transport (and tests)."""

    def __init__(self, bot: Bot, seed: int = 0) -> None:
        self.bot = bot
        self.rng = random.Random(seed)
        self.rules: RuleSet | None = None
        self.round_key: tuple[int, int, int] | None = None
        self.answered = -1  # the seq last answered: one decision per state
        self.stats = Stats()
        #: the round's events as this seat saw them (what the engine's ``view(seat,
        #: history=True)`` holds), while none was missed; None once it is not whole
        self.history: list[dict[str, Any]] | None = None
        self.history_key: tuple[int, int] | None = None
        self.wants_history = bool(getattr(bot, "wants_history", False))

    def lost(self) -> None:
        """The connection dropped: events may be missed until the next round's deal."""
        self.history_key = None

    def _see(self, state: Mapping[str, Any]) -> None:
        """Follow the round's events: a round seen from its deal has its whole history."""
        key = (state["match"], state["round"])
        events = state.get("events") or []
        if key != self.history_key:
            self.history_key = key
            deal = next((i for i, e in enumerate(events) if e.get("t") == "deal"), None)
            self.history = list(events[deal:]) if deal is not None else None
        elif self.history is not None:
            self.history.extend(events)

    def room(self, msg: Mapping[str, Any]) -> None:
        """A ``room`` message: the rules the bot is told at each round."""
        self.rules = RuleSet.from_dict(msg["rules"])

    def decide(self, state: Mapping[str, Any]) -> str | None:
        """The action to send for this ``state``, or None: not ours to decide, already
        answered, or the bot lets a window pass."""
        self._see(state)
        view = state["view"]
        seat = state.get("you")
        legal_text = view.get("legal") or []
        if state.get("status") != "playing" or seat is None or not legal_text \
                or view.get("round_over") or state["seq"] == self.answered:
            return None
        key = (state["match"], state["round"], seat)
        if key != self.round_key and self.rules is not None:
            self.bot.begin_round(self.rules, seat)
            self.round_key = key
        legal = [Action.parse(a) for a in legal_text]
        if self.wants_history and self.history is not None:  # card tracking, as in-process
            view = {**view, "history": list(self.history)}  # the bot's to keep
        t0 = time.perf_counter()
        if view.get("turn") == seat:
            choice: Action | None = self.bot.act(view, legal, self.rng)
        else:  # a window (catch, late UNO, jump-in) while another seat is to move
            window = getattr(self.bot, "window", None)
            choice = window(view, legal) if window is not None else None
        self.stats.think_s += time.perf_counter() - t0
        self.answered = state["seq"]
        if choice is None:
            return None
        self.stats.decisions += 1
        return str(choice)


async def run_seat(url: str, token: str, bot: Bot, *, lang: str = "en", seed: int = 0,
                   patience: float = 300.0, max_backoff: float = 30.0,
                   on_message: Callable[[dict[str, Any]], None] | None = None,
                   seat: Seat | None = None) -> int:
    """Play the seat of ``token`` at the room of ``url`` until its match is over; returns an
    exit code (:data:`EXIT_OVER`, :data:`EXIT_REFUSED`, :data:`EXIT_GAVE_UP`).

    A lost connection is tried again after 0.5 s, doubling to ``max_backoff`` (jittered by
    ±25%); ``patience`` seconds without a connection and the program gives up."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus, WebSocketException

    address = ws_url(url) + f"?lang={lang}"
    seat = seat or Seat(bot, seed)
    delay = 0.5
    lost_since: float | None = None
    jitter = random.Random(seed ^ 0x5EED)
    while True:
        try:
            async with connect(address, open_timeout=10, max_size=2**22,
                               compression=None) as ws:
                lost_since = None
                delay = 0.5
                log.info(_("connected to {url}").format(url=address))
                await ws.send(json.dumps({"type": "hello", "token": token, "lang": lang}))
                async for raw in ws:
                    msg = json.loads(raw)
                    if on_message is not None:
                        on_message(msg)
                    code = _handle(seat, msg)
                    if code is not None:
                        return code
                    if msg["type"] == "state":
                        action = seat.decide(msg)
                        if action is not None:
                            await ws.send(json.dumps({"type": "act", "token": token,
                                                      "action": action, "seq": msg["seq"]}))
        except InvalidStatus as e:  # the server answers, but not with a table
            if e.response.status_code in (403, 404):
                log.error(_("the server refused the connection (HTTP {status})").format(
                    status=e.response.status_code))
                return EXIT_REFUSED
        except (OSError, WebSocketException) as e:  # (TimeoutError is an OSError)
            log.warning(_("connection lost ({error}); trying again").format(
                error=e or type(e).__name__))
        seat.lost()
        now = time.monotonic()
        lost_since = lost_since if lost_since is not None else now
        if now - lost_since >= patience:
            log.error(_("no connection for {s:.0f} s: giving up").format(s=now - lost_since))
            return EXIT_GAVE_UP
        seat.stats.reconnects += 1
        await asyncio.sleep(delay * jitter.uniform(0.75, 1.25))
        delay = min(max_backoff, delay * 2)


def _handle(seat: Seat, msg: dict[str, Any]) -> int | None:
    """Everything but deciding: the rules, the end of the match, refusals. An exit code ends
    the run."""
    kind = msg.get("type")
    if kind == "room":
        seat.room(msg)
    elif kind == "welcome" and msg.get("player") is None:
        log.error(_("this bot token is not a seat of the room (revoked, or mistyped)"))
        return EXIT_REFUSED
    elif kind == "removed":
        log.error(_("the host took the seat away: {message}").format(
            message=msg.get("message")))
        return EXIT_REFUSED
    elif kind == "match_over":
        log.info(_("the match is over: {n} decisions played").format(n=seat.stats.decisions))
        return EXIT_OVER
    elif kind == "error":
        code = str(msg.get("code"))
        seat.stats.errors[code] = seat.stats.errors.get(code, 0) + 1
        if code not in ("stale", "too_late", "bad_token"):  # (a race the server settled)
            seat.stats.refused += 1
            log.warning(_("refused: {message} {detail}").format(
                message=msg.get("message"), detail=msg.get("detail", "")))
        seat.answered = -1  # whatever was refused, the next state is decided afresh
    return None


def run(url: str, token: str, spec: str, *, lang: str = "en", seed: int = 0,
        patience: float = 300.0) -> int:
    """``unoarena bot run``: build the bot, play, return the exit code."""
    bot = load_bot(spec, seed)
    ws_url(url)  # a bad address is said before anything connects
    return asyncio.run(run_seat(url, token, bot, lang=lang, seed=seed, patience=patience))
