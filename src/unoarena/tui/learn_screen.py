"""``unoarena learn``: the lessons of a rule book on the terminal's own table.

A lesson opens the game table (:class:`~unoarena.tui.table_screen.TableScreen`, the same
widgets, keys and dialogs as a game), frozen at the lesson's position: the other seats do not
move. Every action of the learner goes through the lesson first: the expected one is played and
the lesson is done (remembered); anything else is not played, and the table says why.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from ..coach.lessons import Lesson, load_lessons, text
from ..coach.progress import done_lessons, mark_done
from ..engine import Action, Match
from ..text.i18n import _
from .session import BOT, HUMAN, LogEntry, Player, Table, Timing
from .table_screen import TableScreen


class LessonScreen(TableScreen):
    """A lesson on the game table (see the module docstring)."""

    def __init__(self, lesson: Lesson) -> None:
        marks: list[int] = []
        game = lesson.start(marks)
        rules = game.rules
        # everyone by the seat's compass name: the learner's seat reads "South (you)"
        players = [Player("", HUMAN if s == lesson.learner else BOT,
                          "" if s == lesson.learner else "basic")
                   for s in range(rules.players)]
        match = Match(rules, lesson.scenario.seed)
        table = Table(rules, players, lesson.scenario.seed, timing=Timing.zero(), match=match)
        match.game = game  # after the table is set up: it rebuilds its log from a plain deal
        super().__init__(table)
        self.lesson = lesson
        self.done = False
        self.said = ""  # what the lesson said of the last wrong try (shown under the goal)
        t = self.table  # the log tells the lesson's table, not a fresh deal of its seed
        t.log = [LogEntry(t.round_no, [], [], [], header=True),
                 LogEntry(t.round_no, [dict(e) for e in game.events[marks[0]:]],
                          t.names_by_seat(), list(range(rules.players)))]

    def advance(self) -> None:
        """The table stays where the lesson set it: nobody else moves."""
        self.busy = False
        self.sync()

    def _auto_dialogs(self) -> None:
        """A Wild Draw Four to answer is not asked in a dialog, which would hide the goal that
        sets the question: the goal asks it, and x or a answers (the key line says so)."""
        if any(a.verb == "challenge" for a in self.legal()):
            return
        super()._auto_dialogs()

    def sync(self) -> None:
        """Draw; once the lesson is done, nothing more is asked (no round summary)."""
        if self.done:
            self.render_all()
            return
        super().sync()

    def prompt_text(self) -> str:
        """The lesson's goal, in place of the game's prompt."""
        if self.done:
            return "✓ " + text(self.lesson.success) + "  " + _(
                "Press q to go back to the lessons.")
        goal = text(self.lesson.goal)
        return goal + ("\n✗ " + self.said if self.said else "")

    def render_top(self) -> None:
        """The top bar names the lesson."""
        self.query_one("#topbar", Static).update(Text(_("Lesson: {title}").format(
            title=text(self.lesson.title)), style="bold"))

    def act(self, action: Action | str, seat: int | None = None) -> bool:
        """Judge the action first: played only when it is the lesson's answer."""
        if self.done:
            return False
        verdict = self.lesson.judge(self.table.game, action)
        if not verdict.done:
            self.said = verdict.say
            self.last_toast = verdict.say
            if verdict.refused:
                self.last_refusal = verdict.refused
            self.sync()
            return False
        self.table.apply(self.lesson.learner, action)
        self.done = True
        mark_done(self.lesson.id)
        self.last_toast = verdict.say
        self.sync()
        return True

    def action_quit_game(self) -> None:
        """q: back to the list of lessons (nothing is saved: a lesson is short)."""
        self.dismiss(None)

    def action_save(self) -> None:
        """A lesson is not saved."""
        self.toast(_("Lessons are not saved; progress is remembered when a lesson is done."),
                   severity="information")


class LessonList(Screen[None]):
    """The lessons of a book, done ones ticked; Enter opens one, q quits."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "app.quit", _("Quit"))]
    DEFAULT_CSS = """
    LessonList { align: center top; }
    LessonList #heading { width: 80; max-width: 100%; padding: 1 2; text-style: bold; }
    LessonList OptionList { width: 80; max-width: 100%; height: auto; max-height: 80%; }
    """

    def __init__(self, book: str) -> None:
        super().__init__()
        self.book = book
        self.lessons = load_lessons(book)

    def compose(self) -> ComposeResult:
        """A heading with the progress, the list, and the keys."""
        yield Static(id="heading")
        yield OptionList(id="lessons")
        yield Footer()

    def on_mount(self) -> None:
        """Fill the list."""
        self.refresh_list()

    def refresh_list(self, _result: object = None) -> None:
        """Tick the lessons done and move to the first one not done."""
        done = done_lessons()
        count = sum(x.id in done for x in self.lessons)
        self.query_one("#heading", Static).update(
            _("Learn UNO - {book}: {done} of {n} lessons done").format(
                book=self.book, done=count, n=len(self.lessons)))
        ol = self.query_one(OptionList)
        ol.clear_options()
        for i, lesson in enumerate(self.lessons, 1):
            mark = "✓" if lesson.id in done else "·"
            ol.add_option(Option(f"{mark} {i}. {text(lesson.title)}", id=lesson.id))
        first = next((i for i, x in enumerate(self.lessons) if x.id not in done), 0)
        ol.highlighted = first
        ol.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Open the chosen lesson; back here when it closes."""
        lesson = next(x for x in self.lessons if x.id == event.option.id)
        self.app.push_screen(LessonScreen(lesson), self.refresh_list)


class LearnApp(App[int]):
    """The lessons of one rule book."""

    TITLE = "UNO Arena"
    ENABLE_COMMAND_PALETTE = False
    CSS = "Screen { background: #0b3d2e; }"

    def __init__(self, book: str) -> None:
        super().__init__()
        self.book = book

    @property
    def table_screen(self) -> LessonScreen | None:
        """The lesson on screen, if one is open (the terminal app's tests look for it)."""
        return self.screen if isinstance(self.screen, LessonScreen) else None

    def on_mount(self) -> None:
        """Start at the list of lessons."""
        self.push_screen(LessonList(self.book))
