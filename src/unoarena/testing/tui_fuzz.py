"""A seeded random driver for the full-screen game: random keys (in fast bursts), clicks anywhere
and resizes to any size, sent to a running match, checking after each burst that the app is
still on the table or on a dialog over it and still answers, then leaving by one of the ways
out and checking the match was saved. Used by ``tests/test_tui_fuzz.py`` (a short run in CI)
and ``scripts/tui_fuzz.py`` (as long as you like); this module holds no tests of its own."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from textual.errors import NoWidget

from ..engine import preset
from ..tui import saves
from ..tui.app import UnoApp
from ..tui.session import Table, Timing, default_players
from .tui import burst, click_fast, settle

#: Keys sent, most often the ones that play (cards, draw, keep, UNO, catch, the answers of the
#: dialogs), then every other key the table and its dialogs know, and others; none that quits
#: (the ways out are tried at the end, one a run).
PLAY_KEYS: tuple[str, ...] = (*"1234567890", "d", "p", "u", "c", "x", "a", "r", "y", "g", "b",
                              "enter", "escape", "left", "right")
OTHER_KEYS: tuple[str, ...] = (
    *"befghijkmortvwyz", "s", "l", "f1", "f2", "f3", "question_mark", "space", "up", "down",
    "pageup", "pagedown", "home", "end", "tab", "shift+tab", "ctrl+s", "B", "Z")
#: What may be on top: the table, a dialog over it, or the message that the terminal is small.
ON_TOP = frozenset({"TableScreen", "ChoiceDialog", "HelpScreen", "ScoresScreen",
                    "RoundSummaryScreen", "HandoverScreen", "TooSmallScreen",
                    "MatchResultScreen"})
EXITS = ("ctrl+q", "ctrl+c", "q", "crash")
PRESETS = ("classic", "house", "attack", "buzz", "frozen2")


class Crash(RuntimeError):
    """The error a run ends with on the crash path."""


@dataclass
class Report:
    """What a run did."""

    seed: int
    rules: str
    players: int
    people: int
    events: int = 0
    bursts: int = 0
    screens: dict[str, int] = field(default_factory=dict)
    ended: str = ""
    saved: str = ""


def _size(rng: random.Random) -> tuple[int, int]:
    if rng.random() < 0.15:  # smaller than 80×24: the message covers everything
        return rng.randint(20, 79), rng.randint(8, 30)
    if rng.random() < 0.1:  # very large
        return rng.randint(160, 300), rng.randint(48, 80)
    return rng.randint(80, 130), rng.randint(24, 45)


def _on_quit(app: UnoApp, x: int, y: int) -> bool:
    """Whether a point is on a Quit button (a way out, tried at the end instead)."""
    try:
        widget, _region = app.get_widget_at(x, y)
    except NoWidget:  # outside every widget: not on a button
        return False
    return widget.id in ("btn-quit", "quit")


def _check(app: UnoApp) -> str:
    """The invariant after every burst: the table at the bottom, and on top the table or one
    of the screens it opens; returns the top screen's name."""
    kinds = [type(s).__name__ for s in app.screen_stack[1:]]
    assert kinds and kinds[0] == "TableScreen", kinds
    assert all(k in ON_TOP for k in kinds), kinds
    return kinds[-1]


async def _answers(app: UnoApp) -> None:
    """The screen on top still runs its messages: a call made on it is made at once."""
    done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
    app.screen.call_later(done.set_result, True)
    await asyncio.wait_for(done, timeout=10)


async def _leave(pilot: Any, app: UnoApp, how: str) -> None:
    """Leave by ``how``: Ctrl+Q, Ctrl+C, q at the table (after closing what covers it), or an
    error nobody catches."""
    if how in ("ctrl+q", "ctrl+c"):
        await pilot.press(how)
        return
    if how == "crash":
        ts = app.table_screen
        assert ts is not None

        def boom() -> None:
            raise Crash("an error nobody catches")

        ts.call_later(boom)
        await pilot.pause()
        return
    await pilot.resize_terminal(120, 40)
    for _ in range(50):
        await settle(pilot, app)
        top = type(app.screen).__name__
        if top in ("TableScreen", "RoundSummaryScreen", "MatchResultScreen") or not app.is_running:
            break
        dlg: Any = app.screen
        if top == "ChoiceDialog" and not dlg.cancel:
            await pilot.press(dlg.options[0].key or "enter")
        elif top == "HandoverScreen":
            await pilot.press("enter")
        else:
            await pilot.press("escape")
    if app.is_running:
        await pilot.press("q")


async def run_once(seed: int, events: int, how: str) -> Report:
    """One run: a random match at a random size, ``events`` random keys, clicks and resizes, then
    the way out ``how``; asserts the invariants and that the match was saved."""
    rng = random.Random(seed)
    name = rng.choice(PRESETS)
    players = rng.randint(2, 10)
    people = 2 if rng.random() < 0.2 else 1
    rules = preset(name, players=players)
    table = Table(rules, default_players(rules, "basic", people), seed, timing=Timing.zero())
    report = Report(seed, name, players, people)
    app = UnoApp(table=table)
    crashed = False
    try:
        async with app.run_test(size=_size(rng)) as pilot:
            await settle(pilot, app)
            while report.events < events:
                small = type(app.screen).__name__ == "TooSmallScreen"
                if rng.random() < (0.3 if small else 0.05):
                    await pilot.resize_terminal(*_size(rng))
                    report.events += 1
                width, height = app.size
                for _ in range(rng.randint(1, 8)):  # one burst, as fast hands send it
                    roll = rng.random()
                    if roll < 0.6:
                        burst(app, rng.choice(PLAY_KEYS))
                    elif roll < 0.85:
                        burst(app, rng.choice(OTHER_KEYS))
                    else:
                        x, y = rng.randrange(width), rng.randrange(height)
                        if not _on_quit(app, x, y):
                            click_fast(app, x, y)
                    report.events += 1
                report.bursts += 1
                await pilot.pause()
                if not app.is_running:  # a click on Quit: a way out too
                    report.ended = "quit button"
                    break
                top = _check(app)
                report.screens[top] = report.screens.get(top, 0) + 1
                await _answers(app)
                if top == "MatchResultScreen":
                    report.ended = "match over"
                    break
            if not report.ended:
                report.ended = how
                await _leave(pilot, app, how)
                await pilot.pause()
    except Crash:
        crashed = True
    assert crashed == (report.ended == "crash"), report
    if table.match.is_over:
        return report
    report.saved = app.saved_on_quit
    assert report.saved, report
    again = saves.load_table(Path(report.saved))
    assert again.game == table.game and again.match.scores == table.match.scores, report
    return report
