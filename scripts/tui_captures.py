"""Text captures of the full-screen game for ``docs/screenshots/``: every screen a player meets, at
80×24 and 160×48, in English, 繁體中文 and 简体中文, as the terminal shows them (one text file
a capture), and plain mode's first turn in each language.

    python scripts/tui_captures.py [--out docs/screenshots]

Matches are dealt from fixed seeds (bots play at once), so a capture shows the same thing
each time; only the record's time stamp on the match result changes.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import shutil
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from unoarena.engine import preset
from unoarena.testing.tui import (
    finish_match,
    screen_text,
    settle,
)
from unoarena.text.i18n import set_language
from unoarena.tui.app import UnoApp
from unoarena.tui.plain import PlainGame
from unoarena.tui.session import Table, Timing, default_players
from unoarena.tui.words import choices

ROOT = Path(__file__).resolve().parent.parent

SIZES = ((80, 24), (160, 48))
LANGS = ("en", "zh_TW", "zh_CN")
Steps = Callable[[Any, UnoApp], Awaitable[None]]


def dealt(rules: str, players: int, seed: int) -> Table:
    """A dealt match against ``basic`` bots: the seeds below were picked for what the first
    turn shows."""
    r = preset(rules, players=players)
    return Table(r, default_players(r, "basic"), seed, timing=Timing.zero())


def table_pending() -> Table:
    """House rules, 4 players: West has played a Draw Two on South (seed 12)."""
    return dealt("house", 4, 12)


def table_ten() -> Table:
    """House rules, 10 players, a Draw Two pending on South (seed 2)."""
    return dealt("house", 10, 2)


def table_wild() -> Table:
    """Classic, 4 players: South to play, a Wild last in hand (key 7; seed 5)."""
    return dealt("classic", 4, 5)


def table_challenge() -> Table:
    """Classic, 4 players: a Wild Draw Four was played on South (seed 16)."""
    return dealt("classic", 4, 16)


def table_result(players: int) -> Table:
    """A bot-only match of 14 rounds, its last round over and not yet scored."""
    rules = preset("classic", players=players, rounds=14, scoring="penalty")
    table = Table(rules, default_players(rules, "basic", people=0), 4, timing=Timing.zero())
    finish_match(table)
    return table


async def _keys(pilot: Any, app: UnoApp, *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await settle(pilot, app)


#: name -> (the table, the keys that lead to the screen captured, sizes)
SCENES: dict[str, tuple[Callable[[], Table | None], tuple[str, ...]]] = {
    "table": (table_pending, ()),
    "table-10-players": (table_ten, ()),
    "dialog-colour": (table_wild, ("7",)),
    "dialog-challenge": (table_challenge, ()),
    "help": (table_pending, ("question_mark",)),
    "summary-10-players": (lambda: table_result(10), ()),
    "result-14-rounds": (lambda: table_result(4), ("enter",)),
    "newgame": (lambda: None, ()),
}


async def capture(table: Table | None, keys: tuple[str, ...], size: tuple[int, int]) -> str:
    """The terminal's text after ``keys``, on ``table`` (None: the new-game screen)."""
    app = UnoApp(table=table) if table is not None else UnoApp()
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        await _keys(pilot, app, *keys)
        await pilot.pause(0.1)
        return screen_text(app)


def plain_turn(lang: str) -> str:
    """Plain mode on the table of the colour dialog: the first turn, the choices, a wild's
    colour question and the short help."""
    set_language(lang)
    table = table_wild()
    while (d := table.next_decision()) is not None and d.kind == "bot" and d.action:
        table.apply(d.seat, d.action)  # the bots before South, as plain mode would play them
    wild = next(i for i, c in enumerate(choices(table.legal(0), table, 0), 1) if c.colors)
    out = io.StringIO()
    PlainGame(table, io.StringIO(f"help\n{wild}\n2\nquit\n"), out).run()
    return out.getvalue()


def main() -> int:
    """Write every capture; prints the files written."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    args = p.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.gettempdir()) / "unoarena-captures"  # shown in the record's path
    shutil.rmtree(home, ignore_errors=True)
    os.environ["UNOARENA_HOME"] = str(home)
    for lang in LANGS:
        for name, (make, keys) in SCENES.items():
            for w, h in SIZES:
                set_language(lang)
                text = asyncio.run(capture(make(), keys, (w, h)))
                path = out / f"{name}-{w}x{h}-{lang}.txt"
                path.write_text("\n".join(line.rstrip() for line in text.split("\n"))
                                + "\n", encoding="utf-8")
                print(path)
        set_language(lang)
        small = asyncio.run(capture(table_pending(), (), (40, 12)))
        (out / f"too-small-40x12-{lang}.txt").write_text(
            "\n".join(line.rstrip() for line in small.split("\n")) + "\n", encoding="utf-8")
        (out / f"plain-{lang}.txt").write_text(plain_turn(lang), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
