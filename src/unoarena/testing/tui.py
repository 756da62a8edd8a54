"""Driving the terminal game with Textual's pilot: a move chooser that presses real keys and
clicks, and the set-up helpers the TUI tests and the capture scripts share (in the package,
where mypy checks them, rather than loaded from ``tests/`` by path)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from textual.geometry import Region
from textual.pilot import Pilot

from ..engine import CODES, Action
from ..tui.app import UnoApp
from ..tui.cards import CARD_KEYS, CELL_H, CELL_W
from ..tui.dialogs import (
    ChoiceDialog,
    HandoverScreen,
    HelpScreen,
    MatchResultScreen,
    RoundSummaryScreen,
)
from ..tui.table_screen import TableScreen


def run(coro: Awaitable[Any]) -> Any:
    """Run a pilot coroutine from a plain test function."""
    return asyncio.run(coro)  # type: ignore[arg-type]


def screen_text(app: UnoApp) -> str:
    """Everything on the terminal now, as plain text."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(seg.text for seg in strip) for strip in strips)


async def settle(pilot: Pilot[Any], app: UnoApp) -> None:
    """Wait until workers, timers and bots have nothing left to do for now."""
    await pilot.pause()
    for _ in range(200):
        ts = app.table_screen
        if ts is None or not ts.busy:
            break
        await pilot.pause(0.01)
    await pilot.pause()


def card_offset(ts: TableScreen, index: int) -> tuple[int, int]:
    """Where to click on the hand widget to pick card ``index``."""
    hand = ts.query_one("#hand")
    per = max(1, (hand.size.width + 1) // CELL_W)
    row, col = divmod(index, per)
    # padding (1 column), caption (1 line), then the card's symbol line
    return 1 + col * CELL_W + 2, 1 + row * CELL_H + 1


Chooser = Callable[[TableScreen, list[Action]], Awaitable[bool]]


class Driver:
    """Plays the person's side through keys and clicks; counts what it did."""

    def __init__(self, pilot: Pilot[Any], app: UnoApp, *, click: bool = False,
                 forget_uno: bool = False) -> None:
        self.pilot = pilot
        self.app = app
        self.click = click
        self.forget_uno = forget_uno
        self.dialogs: dict[str, int] = {}
        self.actions: dict[str, int] = {}
        self.steps = 0

    async def answer_dialog(self, dlg: ChoiceDialog) -> None:
        """Take a dialog's first option, by its key or (clicking, or keyless) by a click."""
        self.dialogs[dlg.kind] = self.dialogs.get(dlg.kind, 0) + 1
        opt = dlg.options[0]
        if self.click or not opt.key:
            await self.pilot.click("#opt-0")
        else:
            await self.pilot.press(opt.key)

    async def step(self) -> bool:
        """One decision; False once the match result shows."""
        pilot, app = self.pilot, self.app
        await settle(pilot, app)
        self.steps += 1
        scr = app.screen
        if isinstance(scr, MatchResultScreen):
            return False
        if isinstance(scr, (RoundSummaryScreen, HandoverScreen)):
            await pilot.press("enter")
            return True
        if isinstance(scr, HelpScreen):
            await pilot.press("escape")
            return True
        if isinstance(scr, ChoiceDialog):
            await self.answer_dialog(scr)
            return True
        ts = app.table_screen
        assert ts is not None and scr is ts, type(scr)
        legal = ts.legal()
        verbs = {a.verb for a in legal}
        if not legal:
            await pilot.pause(0.01)
            return True
        if "catch" in verbs:
            await self.key("c", "catch")
            return True
        if "uno" in verbs and not self.forget_uno:
            await self.key("u", "uno")
            return True
        if ts.table.game.turn != ts.viewer_seat:
            await pilot.pause(0.01)  # only a window of ours is open: let play go on
            return True
        hand = ts.hand_codes()
        plays = [a for a in legal if a.verb in ("play", "jump_in")]
        if plays:
            first = CODES[plays[0].cards[0]]
            i = hand.index(first)
            if not self.forget_uno and any(a.uno for a in plays) and not ts.uno_armed:
                await self.key("u", "uno_armed")
            if self.click or i >= len(CARD_KEYS):
                await pilot.click("#hand", offset=card_offset(ts, i))
                self.count("click")
            else:
                await self.key(CARD_KEYS[i], "card")
            return True
        for verb, key in (("challenge", "x"), ("accept", "a"), ("draw", "d"), ("pass", "p")):
            if verb in verbs:
                await self.key(key, verb)
                return True
        raise AssertionError(f"no key for {[str(a) for a in legal]}")

    async def key(self, key: str, what: str) -> None:
        """Press a key, counted as ``what``."""
        self.count(what)
        await self.pilot.press(key)

    def count(self, what: str) -> None:
        """Count one action of the kind ``what``."""
        self.actions[what] = self.actions.get(what, 0) + 1

    async def play_match(self, max_steps: int = 3000) -> None:
        """Step until the match result shows; an error if it does not within ``max_steps``."""
        for _ in range(max_steps):
            if not await self.step():
                return
        raise AssertionError(f"the match did not end in {max_steps} steps")


# -- exact tables -----------------------------------------------------------------------------
def exact_table(rules_name: str, hands: dict[int, list[str]], *, top: list[str] | None = None,
                starter: str | None = None, color: str | None = None, turn: int = 0,
                bots: str = "basic", people: int = 1, draw_pile: list[str] | None = None,
                **overrides: Any) -> Any:
    """A table whose first round starts from an exact set-up (RULES SCENARIOS ``setup``)."""
    from unoarena.engine import Game, Match, Setup, parse_card, parse_color, preset
    from unoarena.tui.session import Table, Timing, default_players

    rules = preset(rules_name, **overrides)
    match = Match(rules, 1)
    setup = Setup(hands={s: [parse_card(c) for c in h] for s, h in hands.items()},
                  starter=parse_card(starter) if starter else None,
                  discard=[parse_card(c) for c in top] if top else None,
                  color=parse_color(color) if color else None,
                  draw_pile=[parse_card(c) for c in draw_pile or []],
                  turn=turn if top else None)
    match.dealer = rules.players - 1
    match.game = Game(rules, 5, match.dealer, setup=setup)
    return Table(rules, default_players(rules, bots, people), 3, timing=Timing.zero(),
                 match=match)


_FORGETFUL_DONE = False


def register_forgetful() -> None:
    """A bot that plays its first legal play, wilds first, and never calls UNO."""
    global _FORGETFUL_DONE
    if _FORGETFUL_DONE:
        return
    from ..bots import BaseBot, register

    class Forgetful(BaseBot):
        name = "forgetful"

        def act(self, view: Mapping[str, Any], legal: Sequence[Action],
                rng: random.Random) -> Action:
            plays = [a for a in legal if a.verb == "play" and not a.uno]
            plays.sort(key=lambda a: a.color < 0)  # wilds first: it bluffs Wild Draw Fours
            others = [a for a in legal if a.verb not in ("uno", "catch")]
            return (plays or others or list(legal))[0]

    register("forgetful", lambda options, seed: Forgetful(seed), "never calls UNO",
             replace=True)
    _FORGETFUL_DONE = True


def burst(app: UnoApp, *keys: str) -> None:
    """Keys as a terminal delivers a fast burst: all queued before the app handles the first
    (``pilot.press`` waits for each key to be handled)."""
    from textual import events

    for key in keys:
        char = key if len(key) == 1 else None
        app.post_message(events.Key(key, char))


def stack_kinds(app: UnoApp) -> list[str]:
    """The screens open now, bottom first, by class name (the default screen left out)."""
    return [type(s).__name__ for s in app.screen_stack[1:]]


def region_text(app: UnoApp, widget: Any) -> str:
    """The part of the terminal a widget covers, as plain text, one line a row (cut by cells:
    a Chinese character takes two)."""
    from rich.cells import cell_len

    r = widget.region
    out = []
    for strip in app.screen._compositor.render_strips()[r.y:r.y + r.height]:
        cells: list[str] = []
        for seg in strip:
            for ch in seg.text:
                cells.append(ch)
                cells.extend([""] * (cell_len(ch) - 1))
        out.append("".join(cells[r.x:r.x + r.width]))
    return "\n".join(out)


def painted(app: UnoApp, background: str) -> list[tuple[int, int, int]]:
    """Where the terminal shows ``background`` (``#rrggbb``): (row, first column, last column)
    of each row's run of it, in cells."""
    from rich.color import Color

    want = Color.parse(background).get_truecolor()
    runs = []
    for y, strip in enumerate(app.screen._compositor.render_strips()):
        x, start = 0, -1
        for seg in strip:
            bg = seg.style.bgcolor if seg.style else None
            hit = bg is not None and not bg.is_default and bg.get_truecolor() == want
            for _ch in seg.text:
                if hit and start < 0:
                    start = x
                if not hit and start >= 0:
                    runs.append((y, start, x - 1))
                    start = -1
                x += 1
        if start >= 0:
            runs.append((y, start, x - 1))
    return runs


def inside(inner: Region, outer: Region) -> bool:
    """Whether a region lies wholly within another (nothing of it cut off)."""
    return (inner.x >= outer.x and inner.y >= outer.y and inner.right <= outer.right
            and inner.bottom <= outer.bottom)


def finish_match(table: Any) -> None:
    """Play a bot-only table on to the end of its last round, the round left unscored: the app
    opened on it shows that round's summary, then the match result."""
    while True:
        while not table.game.is_over:
            d = table.next_decision()
            assert d is not None and d.action is not None
            table.apply(d.seat, d.action)
        from unoarena.engine import settle as settle_scores
        m, out = table.match, table.game.outcome
        scores = list(out.scores) if table.rules.teams else [
            out.scores[s] if s >= 0 else 0 for s in m.seat_of]
        from unoarena.engine import Outcome
        per = Outcome(out.winner, out.reason, out.hand_points, tuple(scores))
        if settle_scores(table.rules, m.scores, per, m.rounds_played + 1)[1]:
            return
        table.finish_round()


def click_fast(app: UnoApp, x: int, y: int) -> None:
    """A click as a terminal delivers it, button down then up at one cell, queued with whatever
    else comes (``pilot.click`` waits after each part)."""
    from textual import events

    for cls in (events.MouseDown, events.MouseUp):
        app.post_message(cls(None, x, y, 0, 0, 1, False, False, False, x, y))
