"""Text captures of learning in the terminal for ``docs/screenshots/``: the lesson list, a lesson
after a wrong move and after the right one, the rule of a card (F3) and the expert's hint (F4)
at the game table, and ``unoarena review`` of a recorded round; at 80×24 and 160×48, in English,
繁體中文 and 简体中文.

    python scripts/coach_captures.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import os
import random
import shutil
import tempfile
from pathlib import Path
from typing import Any

from unoarena.bots import make_bot
from unoarena.cli import main as cli_main
from unoarena.engine import Game, game_record, preset
from unoarena.testing.tui import screen_text, settle
from unoarena.text.i18n import set_language
from unoarena.tui.app import UnoApp
from unoarena.tui.learn_screen import LearnApp
from unoarena.tui.session import Table, Timing, default_players

ROOT = Path(__file__).resolve().parent.parent

SIZES = ((80, 24), (160, 48))
LANGS = ("en", "zh_TW", "zh_CN")


async def lesson(size: tuple[int, int], stage: str) -> str:
    """The classic lessons: the list, the first lesson after a draw (wrong), or after R7."""
    app = LearnApp("classic")
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        if stage != "list":
            await pilot.press("enter")
            await settle(pilot, app)
            screen = app.table_screen
            assert screen is not None
            if stage == "wrong":
                await pilot.press("d")
            else:
                screen.cursor = screen.hand_codes().index("R7")
                await pilot.press("enter")
            await settle(pilot, app)
        await pilot.pause(0.2)
        return screen_text(app)


async def table_key(size: tuple[int, int], key: str) -> str:
    """A classic table against bots (seed 7) after F3 or F4."""
    rules = preset("classic", players=3)
    app = UnoApp(table=Table(rules, default_players(rules, "basic"), 7, timing=Timing.zero()))
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        await pilot.press(key)
        await settle(pilot, app)
        await pilot.pause(0.2)
        return screen_text(app)


def review_text(width: int, lang: str, record: Path) -> str:
    """``unoarena review RECORD --seat 1`` as a terminal of ``width`` columns prints it."""
    out = io.StringIO()
    os.environ["COLUMNS"] = str(width)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        cli_main(["review", str(record), "--seat", "1", "--samples", "96", "--lang", lang])
    return out.getvalue()


def make_record(path: Path) -> None:
    """A three-player classic round between bots (seed 11), recorded."""
    g = Game(preset("classic", players=3), seed=11)
    bots = [make_bot("basic" if i == 1 else "heuristic", seed=i) for i in range(3)]
    for i, b in enumerate(bots):
        b.begin_round(g.rules, i)
    rng = random.Random(3)
    while not g.is_over:
        s = g.turn
        g.apply(bots[s].act(g.view(s), g.legal_actions(s), rng), s)
    path.write_text(json.dumps(game_record(g)), encoding="utf-8")


def save(path: Path, text: str) -> None:
    """Write a capture without trailing spaces, and say where."""
    path.write_text("\n".join(line.rstrip() for line in text.split("\n")).rstrip("\n") + "\n",
                    encoding="utf-8")
    print(path)


def main() -> int:
    """Write every capture; prints the files written."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    args = p.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.gettempdir()) / "unoarena-coach-captures"
    record = home / "round.json"
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    os.environ["UNOARENA_HOME"] = str(home)
    make_record(record)
    scenes: dict[str, Any] = {
        "learn-list": lambda size: lesson(size, "list"),
        "learn-wrong": lambda size: lesson(size, "wrong"),
        "learn-done": lambda size: lesson(size, "done"),
        "table-rule-f3": lambda size: table_key(size, "f3"),
        "table-hint-f4": lambda size: table_key(size, "f4"),
    }
    for lang in LANGS:
        for name, make in scenes.items():
            for w, h in SIZES:
                set_language(lang)
                (home / "lessons.json").unlink(missing_ok=True)
                save(out / f"{name}-{w}x{h}-{lang}.txt", asyncio.run(make((w, h))))
        for w, _h in SIZES:
            save(out / f"review-{w}cols-{lang}.txt", review_text(w, lang, record))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
