"""Dialogs and full screens around the table: choices (colour, target, power, cards), the
help, the hand-over between people, the round summary and the match result."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.console import Group
from rich.table import Table as RichTable
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Label, Static

from ..engine import RuleSet, Termination
from ..i18n import _
from .cards import card_chip
from .helptext import help_sections
from .session import Scoreboard, Table


@dataclass(frozen=True)
class Option:
    """One choice of a dialog: the value it returns, its label, its key and face style."""

    value: Any
    label: str
    key: str = ""
    style: str = ""


class ChoiceDialog(ModalScreen[Any]):
    """A question with buttons; a key or a click answers it, Escape cancels (if allowed)."""

    DEFAULT_CSS = """
    ChoiceDialog { align: center top; }
    ChoiceDialog > Vertical { width: 72; max-width: 95%; height: auto; max-height: 70%;
        margin-top: 2; border: round $accent; background: $panel; padding: 0 2; }
    ChoiceDialog .title { text-style: bold; margin-bottom: 1; }
    ChoiceDialog #note { margin-bottom: 1; }
    ChoiceDialog #dialog-hand { margin-bottom: 1; }
    ChoiceDialog Button { width: 100%; min-width: 24; margin: 0; }
    ChoiceDialog VerticalScroll { height: auto; max-height: 12; }
    """

    def __init__(self, kind: str, title: str, options: Sequence[Option], *,
                 cancel: bool = True, note: str | Text = "",
                 hand: Sequence[str] | None = None) -> None:
        """``hand``: the cards of the person answering, shown in the dialog (a colour is
        chosen with the hand in view even where the dialog covers it)."""
        super().__init__(name=f"dialog-{kind}")
        self.kind = kind
        self.title_text = title
        self.options = list(options)
        self.cancel = cancel
        self.note = note
        self.hand = list(hand) if hand is not None else None

    def compose(self) -> ComposeResult:
        """The title, the note and the person's hand when given, one button per option (labelled
        with its key) and a Cancel button when cancelling is allowed."""
        with Vertical():
            yield Label(self.title_text, classes="title")
            if self.note:
                yield Static(self.note, id="note")
            if self.hand is not None:
                yield Static(hand_line(self.hand), id="dialog-hand")
            with VerticalScroll():
                for i, opt in enumerate(self.options):
                    label = f"[{opt.key}] {opt.label}" if opt.key else opt.label
                    b = Button(Text(label), id=f"opt-{i}", compact=True)
                    if opt.style:
                        b.styles.background = opt.style
                    yield b
            if self.cancel:
                yield Button(_("Cancel (Esc)"), id="cancel", variant="default", compact=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A click on an option answers with its value; Cancel answers None."""
        event.stop()
        bid = event.button.id or ""
        if bid == "cancel":
            self.dismiss(None)
        elif bid.startswith("opt-"):
            self.dismiss(self.options[int(bid[4:])].value)

    def on_key(self, event: events.Key) -> None:
        """Escape cancels (when allowed); an option's key answers with that option (a letter
        in either case)."""
        if event.key == "escape" and self.cancel:
            event.stop()
            self.dismiss(None)
            return
        for opt in self.options:
            if opt.key and event.character is not None and event.character.lower() == opt.key:
                event.stop()
                self.dismiss(opt.value)
                return


def hand_line(codes: Sequence[str]) -> Text:
    """A hand as a row of small coloured cards: ``Your hand: [R1][G4][W]``."""
    t = Text(_("Your hand:") + " ")
    for code in codes:
        t.append_text(card_chip(code))
        t.append(" ")
    return t


def help_text(rules: RuleSet, people: int = 1) -> Group:
    """The help: headings in bold, the lines under them indented, wrapped lines too."""
    parts: list[Any] = []
    for heading, lines in help_sections(rules, people=people):
        parts.append(Text(heading, style="bold underline"))
        grid = RichTable.grid()
        grid.add_column(width=2)
        grid.add_column(ratio=1)
        for line in lines:
            grid.add_row("", Text(line))
        parts.append(grid)
        parts.append(Text(""))
    return Group(*parts)


class HelpScreen(ModalScreen[None]):
    """The rules in force and every key, in a scrolling box over the table."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical { width: 90%; height: 90%; border: thick $accent;
        background: $panel; padding: 0 1; }
    HelpScreen VerticalScroll { height: 1fr; }
    HelpScreen #help-keys { height: 1; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False), Binding("q", "close", show=False),
        Binding("question_mark", "close", show=False), Binding("f1", "close", show=False),
        Binding("end", "scroll('end')", show=False),
        Binding("home", "scroll('home')", show=False),
        Binding("pagedown,space", "scroll('page_down')", show=False),
        Binding("pageup", "scroll('page_up')", show=False),
        Binding("down,j", "scroll('down')", show=False),
        Binding("up,k", "scroll('up')", show=False)]

    def __init__(self, rules: RuleSet, people: int = 1) -> None:
        super().__init__()
        self.rules = rules
        self.people = people

    def compose(self) -> ComposeResult:
        """The help text in a scrolling box, the scroll keys and a Close button."""
        with Vertical():
            with VerticalScroll(id="help-scroll"):
                yield Static(help_text(self.rules, self.people), id="help-text")
            yield Static(_("↑ ↓ PgUp PgDn Home End: scroll · Esc: close"), id="help-keys")
            yield Button(_("Close (Esc)"), id="close", compact=True)

    def action_scroll(self, where: str) -> None:
        """The keys scroll the help whatever has the focus; End reaches its last line."""
        scroll(self.query_one("#help-scroll", VerticalScroll), where)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Close closes the help."""
        event.stop()
        self.dismiss(None)

    def action_close(self) -> None:
        """Escape, q, ? or F1 close the help."""
        self.dismiss(None)


class HandoverScreen(Screen[None]):
    """Covers the table so that the next person does not see the last one's hand."""

    DEFAULT_CSS = """
    HandoverScreen { align: center middle; background: $background; }
    HandoverScreen > Vertical { width: 60; height: auto; border: thick $accent; padding: 1 2; }
    HandoverScreen Button { width: 100%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "ready", show=False), Binding("space", "ready", show=False)]

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player = name

    def compose(self) -> ComposeResult:
        """Whose turn it is to take the terminal, and a Ready button."""
        with Vertical():
            yield Static(Text(_("Pass the terminal to {name}.").format(name=self.player),
                              style="bold"), id="handover-text")
            yield Static(_("{name}: press Enter or click Ready when only you can see the "
                           "screen.").format(name=self.player))
            yield Button(_("Ready"), id="ready", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Ready: the next person can see the screen now."""
        event.stop()
        self.dismiss(None)

    def action_ready(self) -> None:
        """Enter or Space: the next person is ready."""
        self.dismiss(None)


def scoreboard_table(table: Table, rounds: int = 3) -> RichTable:
    """Players (or teams) down, the last ``rounds`` rounds and the total across; names wrap
    rather than being cut."""
    board = Scoreboard.of(table)
    t = RichTable(show_edge=False, pad_edge=False, box=None, padding=(0, 1, 0, 0))
    t.add_column("", overflow="fold", ratio=1)
    shown = board.rows[-rounds:] if rounds else board.rows
    for rnd, _scores, _who in shown:
        t.add_column(_("R{n}").format(n=rnd), justify="right", no_wrap=True)
    t.add_column(_("Total"), justify="right", style="bold", no_wrap=True)
    for i, label in enumerate(board.labels):
        t.add_row(label, *[str(scores[i]) for _r, scores, _w in shown], str(board.totals[i]))
    return t


def scoreboard_rounds(table: Table) -> RichTable:
    """Every round down (who won it, what each scored), players or teams across, the totals
    last: a long match scrolls instead of losing its first rounds."""
    board = Scoreboard.of(table)
    t = RichTable(show_edge=False, pad_edge=False, box=None, padding=(0, 2, 0, 0),
                  show_footer=True)
    t.add_column(_("Round"), footer=Text(_("Total"), style="bold"), no_wrap=True)
    t.add_column(_("Winner"), overflow="fold")
    for i, label in enumerate(board.labels):
        t.add_column(label, justify="right", overflow="fold",
                     footer=Text(str(board.totals[i]), style="bold"))
    for rnd, scores, who in board.rows:
        t.add_row(_("R{n}").format(n=rnd), who, *[str(x) for x in scores])
    if not board.rows:
        t.add_row(_("no round finished yet"), "", *["" for _l in board.labels])
    return t


class ScoresScreen(ModalScreen[None]):
    """Every round's scores, scrolled by keys or the mouse."""

    DEFAULT_CSS = """
    ScoresScreen { align: center middle; }
    ScoresScreen > Vertical { width: 90%; height: 90%; border: round $accent;
        background: $panel; padding: 0 1; }
    ScoresScreen .title { text-style: bold; }
    ScoresScreen VerticalScroll { height: 1fr; }
    ScoresScreen #scores-keys { height: 1; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,f2", "close", show=False),
        Binding("end", "scroll('end')", show=False),
        Binding("home", "scroll('home')", show=False),
        Binding("pagedown,space", "scroll('page_down')", show=False),
        Binding("pageup", "scroll('page_up')", show=False),
        Binding("down", "scroll('down')", show=False),
        Binding("up", "scroll('up')", show=False)]

    def __init__(self, table: Table) -> None:
        super().__init__()
        self.table = table

    def compose(self) -> ComposeResult:
        """Every round's scores in a scrolling table, with which total wins under the rules in
        force."""
        with Vertical():
            yield Label(_("Scores of every round") + "  " + (
                _("lowest total wins") if self.table.rules.scoring == "penalty"
                else _("highest total wins")), classes="title")
            with VerticalScroll(id="scores-scroll"):
                yield Static(scoreboard_rounds(self.table), id="scores-all")
            yield Static(_("↑ ↓ PgUp PgDn Home End: scroll · Esc: close"), id="scores-keys")

    def action_scroll(self, where: str) -> None:
        """The arrow, page, Home and End keys scroll the scores whatever has the focus."""
        scroll(self.query_one("#scores-scroll", VerticalScroll), where)

    def action_close(self) -> None:
        """Escape, q or F2 close the scores."""
        self.dismiss(None)


def scroll(box: VerticalScroll, where: str) -> None:
    """Scroll a box by a key's name, at once."""
    if where == "end":
        box.scroll_end(animate=False)
    elif where == "home":
        box.scroll_home(animate=False)
    elif where == "page_down":
        box.scroll_page_down(animate=False)
    elif where == "page_up":
        box.scroll_page_up(animate=False)
    elif where == "down":
        box.scroll_down(animate=False)
    else:
        box.scroll_up(animate=False)


def round_summary(table: Table) -> Text:
    """Who went out, the points left in each hand, and what each player scored."""
    g = table.game
    out = g.outcome
    t = Text()
    if out is None:
        return t
    if out.reason == Termination.BLOCKED:
        t.append(_("The round ends void: every hand is full and nobody can play, nobody "
                   "scores.") + "\n", style="bold")
    elif out.winner is None:
        t.append(_("The round ends void: the draw pile ran out, nobody scores.") + "\n",
                 style="bold")
    elif out.reason == Termination.TIME:  # HR-BLITZ
        t.append(_("Time is up: {name} holds the fewest points and wins round {n}!").format(
            name=table.name(out.winner), n=table.round_no) + "\n", style="bold")
    else:
        t.append(_("{name} went out and wins round {n}!").format(
            name=table.name(out.winner), n=table.round_no) + "\n", style="bold")
    t.append("\n" + _("Points left in each hand:") + "\n")
    for seat in range(table.game.players):
        t.append("  " + _("{name}: {points}").format(name=table.name(seat),
                                                      points=out.hand_points[seat]) + "\n")
    if out.winner is not None:
        t.append("\n" + _("Scored this round:") + "\n")
        labels = table.score_labels()
        scores = list(out.scores) if table.rules.teams else [
            out.scores[table.seat_of(p)] if table.seat_of(p) >= 0 else 0
            for p in range(table.rules.players)]
        for label, s in zip(labels, scores, strict=True):
            t.append("  " + _("{name}: {points}").format(name=label, points=s) + "\n")
    if table.rules.elimination != "off":  # HR-ELIM: who leaves the table
        from ..engine.match import eliminated
        for seat in eliminated(table.rules, out, g.hand_sizes()):
            t.append("\n" + _("{name} is out of the match.").format(name=table.name(seat)),
                     style="bold #ff5252")
    return t


class RoundSummaryScreen(ModalScreen[str]):
    """The round just finished. Enter, Esc or the button go on; q goes on and quits (the
    match is saved, as q at the table does). Returns ``"next"`` or ``"quit"``."""

    DEFAULT_CSS = """
    RoundSummaryScreen { align: center middle; }
    RoundSummaryScreen > Vertical { width: 70; max-width: 95%; height: auto; max-height: 95%;
        border: thick $accent; background: $panel; padding: 1 2; }
    RoundSummaryScreen #summary-buttons { height: 1; margin-top: 1; }
    RoundSummaryScreen Button { width: auto; margin-right: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,escape,space", "next", show=False), Binding("q", "quit", show=False)]

    def __init__(self, table: Table, last: bool) -> None:
        super().__init__()
        self.table = table
        self.last = last

    def compose(self) -> ComposeResult:
        """The round's summary, and buttons to go on (to the next round or the match result) or
        quit."""
        with Vertical():
            yield Static(round_summary(self.table), id="summary-text")
            label = _("See the match result") if self.last else _("Next round")
            with Horizontal(id="summary-buttons"):
                yield Button(label + " (Enter)", id="next", variant="primary", compact=True)
                yield Button(_("Quit (q)"), id="quit", compact=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The buttons answer ``"next"`` or ``"quit"``."""
        event.stop()
        self.dismiss("quit" if event.button.id == "quit" else "next")

    def action_next(self) -> None:
        """Enter, Escape or Space go on."""
        self.dismiss("next")

    def action_quit(self) -> None:
        """q goes on and quits; the table saves the match."""
        self.dismiss("quit")


class MatchResultScreen(Screen[str]):
    """The end of a match: winners, the scoreboard, where the record went."""

    DEFAULT_CSS = """
    MatchResultScreen { align: center middle; }
    MatchResultScreen > Vertical { width: 90; max-width: 95%; height: auto; max-height: 95%;
        border: thick $accent; padding: 1 2; }
    MatchResultScreen VerticalScroll { height: auto; max-height: 1fr; }
    MatchResultScreen Horizontal { height: auto; }
    MatchResultScreen Button { margin: 1 1 0 0; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q,escape", "finish('quit')", show=False),
        Binding("n", "finish('new')", show=False),
        Binding("end", "scroll('end')", show=False),
        Binding("home", "scroll('home')", show=False),
        Binding("pagedown", "scroll('page_down')", show=False),
        Binding("pageup", "scroll('page_up')", show=False),
        Binding("down", "scroll('down')", show=False),
        Binding("up", "scroll('up')", show=False)]

    def __init__(self, table: Table, record: str) -> None:
        super().__init__()
        self.table = table
        self.record = record

    def compose(self) -> ComposeResult:
        """The winners, which total wins, every round's scores, the rounds played, where the record
        was saved, and buttons for a new game or quitting."""
        m = self.table.match
        with Vertical():
            yield Static(Text(_("The match is over. Winner: {names}").format(
                names=self.table.winners_text()), style="bold"), id="result-text")
            yield Static(_("Lowest total wins.") if self.table.rules.scoring == "penalty"
                         else _("Highest total wins."))
            with VerticalScroll(id="result-scroll"):
                yield Static(scoreboard_rounds(self.table), id="result-scores")
            yield Static(_("Rounds played: {n}").format(n=m.rounds_played))
            if self.record:
                yield Static(_("Record saved: {path}").format(path=self.record))
            with Horizontal():
                yield Button(_("New game (n)"), id="new", variant="primary")
                yield Button(_("Quit (q)"), id="quit")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """New game answers ``"new"``, Quit ``"quit"``."""
        event.stop()
        self.dismiss(event.button.id or "quit")

    def action_finish(self, what: str) -> None:
        """n asks for a new game; q or Escape quit."""
        self.dismiss(what)

    def action_scroll(self, where: str) -> None:
        """The arrow, page, Home and End keys scroll the scoreboard."""
        scroll(self.query_one("#result-scroll", VerticalScroll), where)
