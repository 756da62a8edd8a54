"""``unoarena learn [BOOK]`` and ``unoarena review RECORD [--seat N]``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..coach.lessons import BOOKS
from ..text.i18n import _


def add_coach_parsers(sub: Any, parents: list[argparse.ArgumentParser]) -> None:
    """Register ``learn`` and ``review`` on the main parser's subcommands."""
    le = sub.add_parser("learn", parents=parents, help=_("learn UNO: a lesson per rule"),
                        description=_("Short lessons on a real table, one rule book at a "
                                      "time; progress is remembered."))
    le.add_argument("book", nargs="?", default="classic", choices=BOOKS, metavar="BOOK",
                    help=_("rule book (default classic): {books}").format(
                        books=", ".join(BOOKS)))
    le.add_argument("--list", action="store_true",
                    help=_("list the lessons and which are done, then stop"))
    le.set_defaults(handler=cmd_learn)

    rv = sub.add_parser("review", parents=parents, help=_("review a finished game"),
                        description=_("For each decision: the chance of winning the round "
                                      "before and after it, from what the seat could see, "
                                      "the best alternative and a label when the choice lost "
                                      "much."))
    rv.add_argument("file", metavar="RECORD", help=_("a game or match record (JSON)"))
    rv.add_argument("--seat", type=int, metavar="N",
                    help=_("review only this seat (default: every seat)"))
    rv.add_argument("--round", type=int, default=1, metavar="R",
                    help=_("the round of a match record (default 1)"))
    rv.add_argument("--samples", type=int, default=160, metavar="K",
                    help=_("determinizations per decision (default 160; more is slower and "
                           "steadier)"))
    rv.add_argument("--seed", type=int, default=0, metavar="S",
                    help=_("seed of the estimate (default 0)"))
    rv.set_defaults(handler=cmd_review)


def cmd_learn(ns: argparse.Namespace) -> int:
    """Open the lesson screen (or list the lessons with ``--list``)."""
    from ..coach.lessons import load_lessons, text
    from ..coach.progress import done_lessons
    lessons = load_lessons(ns.book)
    if ns.list:
        done = done_lessons()
        for i, lesson in enumerate(lessons, 1):
            mark = "✓" if lesson.id in done else " "
            print(f"{mark} {i}. {text(lesson.title)}")
        print(_("{done} of {n} done").format(done=sum(x.id in done for x in lessons),
                                             n=len(lessons)))
        return 0
    from .learn_screen import LearnApp
    return LearnApp(ns.book).run() or 0


def cmd_review(ns: argparse.Namespace) -> int:
    """Review a record: a table of decisions, a chart and a summary per seat."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from ..coach.evaluate import Evaluator
    from ..coach.review import review_round, round_moves
    from ..coach.show import show_review
    from ..recordfile import UsageError, load_record
    rec, rules = load_record(ns.file)
    if ns.seat is not None and not 0 <= ns.seat < rules.players:
        raise UsageError(_("--seat {seat} is not a seat of this {n}-player game (0 to {last})"
                           ).format(seat=ns.seat, n=rules.players, last=rules.players - 1))
    if ns.samples < 2 or ns.samples > 100_000:
        raise UsageError(_("--samples must be between 2 and 100000, not {n}").format(
            n=ns.samples))
    try:
        start, moves = round_moves(rec, ns.round - 1)
    except ValueError as e:
        raise UsageError(str(e)) from None
    err = Console(file=sys.stderr)
    with Progress(TextColumn(_("Reviewing")), BarColumn(), TextColumn("{task.completed}/"
                  "{task.total}"), TimeElapsedColumn(), console=err, transient=True) as bar:
        task = bar.add_task("review", total=None)

        def step(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)
        review = review_round(start, moves, {ns.seat} if ns.seat is not None else None,
                              Evaluator(samples=ns.samples, seed=ns.seed), step)
    show_review(Console(), review)
    return 0
