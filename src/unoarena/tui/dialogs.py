"""Dialogs and full screens around the table: choices (colour, target, power, cards), the
help, the hand-over between people, the round summary and the match result."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, cast

from rich.cells import cell_len
from rich.console import Group
from rich.table import Table as RichTable
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Button, Label, Static

from ..engine import RuleSet, Termination
from ..text.i18n import _
from .cards import card_chip
from .helptext import help_sections
from .session import Scoreboard, Table
from .wrap import wrap_cells


class KeyRouter(Protocol):
    """The screen that opened a dialog: it hears when the dialog closes, and takes the keys
    that still reach the dialog afterwards (a key pressed twice)."""

    def dialog_closed(self) -> None:
        """The dialog was answered or cancelled."""

    def route_key(self, event: events.Key) -> None:
        """A key that reached the dialog after it closed."""


class ClosesOnce:
    """Mixed into every dialog and cover screen: it is dismissed at most once, and only while it
    is the screen on top. Textual's ``dismiss`` pops whatever screen is on top, so a second
    answer (a key pressed twice, a double click) would otherwise pop the table under it. Keys
    that reach it once closed never fall through to the bindings of the screen below: they go
    to its ``owner``, which decides where they belong, or nowhere."""

    owner: KeyRouter | None = None
    closed: bool = False

    def dismiss(self, result: Any = None) -> AwaitComplete:
        """Close with ``result``, once; a later call, or one while another screen covers this
        one, does nothing."""
        screen = cast(Screen[Any], self)
        if self.closed or not screen.is_active:
            return AwaitComplete()  # already done: nothing to wait for
        self.closed = True
        if self.owner is not None:
            self.owner.dialog_closed()
        return Screen.dismiss(screen, result)

    async def on_event(self, event: events.Event) -> None:
        """A key runs this screen's bindings (and its focused widget's) here, as the screen takes
        it, not when it reaches the app: by then the screen may have closed and the app would run
        the bindings of the screen below (``q`` twice on the help would quit the game). Once
        closed, keys stop here (see the class docstring). Everything else as usual."""
        screen = cast(Screen[Any], self)
        if isinstance(event, events.Key):
            if self.closed:
                event.stop()
                event.prevent_default()
                if self.owner is not None:
                    self.owner.route_key(event)
                return
            for node, bindings in screen._modal_binding_chain:
                if node is screen.app:
                    break
                for binding in bindings.key_to_bindings.get(event.key, ()):
                    if not binding.priority and await screen.app.run_action(binding.action,
                                                                            node):
                        event.stop()
                        event.prevent_default()
                        return
        await Screen.on_event(screen, event)


@dataclass(frozen=True)
class Option:
    """One choice of a dialog: the value it returns, its label, its key and face style."""

    value: Any
    label: str
    key: str = ""
    style: str = ""


class ChoiceDialog(ClosesOnce, ModalScreen[Any]):
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
            yield Label(Text(self.title_text), classes="title")
            if self.note:
                yield Static(Text(self.note) if isinstance(self.note, str) else self.note,
                             id="note")
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


class HelpScreen(ClosesOnce, ModalScreen[None]):
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


class HandoverScreen(ClosesOnce, Screen[None]):
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
            yield Static(Text(_("{name}: press Enter or click Ready when only you can see the "
                                "screen.").format(name=self.player)))
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
        t.add_row(Text(label), *[str(scores[i]) for _r, scores, _w in shown],
                  str(board.totals[i]))
    return t


def scoreboard_rounds(table: Table, width: int = 0) -> RichTable:
    """Every round down (who won it, what each scored), players or teams across, the totals
    last: a long match scrolls instead of losing its first rounds. When the players do not fit
    across ``width`` cells (many players, a narrow terminal), they go down instead, the total
    first, then the latest rounds that fit, the round's winner marked ★."""
    board = Scoreboard.of(table)
    across = 8 + min(12, max((cell_len(r[2]) for r in board.rows), default=6)) + sum(
        max(cell_len(label), 5) + 2 for label in board.labels)
    if width and across > width:
        return _scoreboard_down(board, width)
    t = RichTable(show_edge=False, pad_edge=False, box=None, padding=(0, 2, 0, 0),
                  show_footer=True)
    t.add_column(_("Round"), footer=Text(_("Total"), style="bold"), no_wrap=True)
    t.add_column(_("Winner"), overflow="ellipsis", no_wrap=True, max_width=12)
    for i, label in enumerate(board.labels):
        t.add_column(Text(label), justify="right", overflow="fold",
                     footer=Text(str(board.totals[i]), style="bold"))
    for rnd, scores, who in board.rows:
        t.add_row(_("R{n}").format(n=rnd), Text(who), *[str(x) for x in scores])
    if not board.rows:
        t.add_row(_("no round finished yet"), "", *["" for _l in board.labels])
    return t


def _scoreboard_down(board: Scoreboard, width: int) -> RichTable:
    """The scoreboard with the players (or teams) down: name, total, then as many of the latest
    rounds as fit, newest last; ★ marks each round's winner."""
    name_w = min(16, max(cell_len(label) for label in board.labels))
    room = max(1, (width - name_w - 9) // 7)
    shown = list(zip(board.rows, board.won, strict=True))[-room:]
    t = RichTable(show_edge=False, pad_edge=False, box=None, padding=(0, 2, 0, 0))
    t.add_column("", overflow="ellipsis", no_wrap=True, max_width=name_w)
    t.add_column(Text(_("Total"), style="bold"), justify="right", style="bold", no_wrap=True)
    for (rnd, _scores, _who), _won in shown:
        t.add_column(_("R{n}").format(n=rnd), justify="right", no_wrap=True)
    for i, label in enumerate(board.labels):
        cells = [f"{scores[i]}★" if won == i else str(scores[i])
                 for (_rnd, scores, _who), won in shown]
        t.add_row(Text(label), str(board.totals[i]), *cells)
    return t


class ScoresScreen(ClosesOnce, ModalScreen[None]):
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
                yield Static(id="scores-all")
            yield Static(_("↑ ↓ PgUp PgDn Home End: scroll · Esc: close"), id="scores-keys")

    def on_mount(self) -> None:
        """Fill in the scores for the terminal's width."""
        self.on_resize()

    def on_resize(self, _event: events.Resize | None = None) -> None:
        """The scores' shape (players across or down) follows the width."""
        self.query_one("#scores-all", Static).update(
            scoreboard_rounds(self.table, int(self.app.size.width * 0.9) - 4))

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


def round_summary(table: Table) -> Group:
    """Who went out; then one row a player: the points left in their hand and, unless teams
    score, what they scored; with teams, each team's score; who is out of the match."""
    g = table.game
    out = g.outcome
    if out is None:
        return Group()
    if out.reason == Termination.BLOCKED:
        head = _("The round ends void: every hand is full and nobody can play, nobody scores.")
    elif out.winner is None:
        head = _("The round ends void: the draw pile ran out, nobody scores.")
    elif out.reason == Termination.TIME:  # HR-BLITZ
        head = _("Time is up: {name} holds the fewest points and wins round {n}!").format(
            name=table.name(out.winner), n=table.round_no)
    else:
        head = _("{name} went out and wins round {n}!").format(
            name=table.name(out.winner), n=table.round_no)
    parts: list[Any] = [Text(head, style="bold"), Text("")]
    scored = out.winner is not None
    by_player = not table.rules.teams
    grid = RichTable(show_edge=False, pad_edge=False, box=None, padding=(0, 2, 0, 0))
    grid.add_column("", overflow="fold", ratio=1)
    grid.add_column(Text(_("Points left in hand"), style="bold"), justify="right")
    if scored and by_player:
        grid.add_column(Text(_("Scored"), style="bold"), justify="right")
    for seat in range(g.players):
        row: list[Text | str] = [Text(table.name(seat)), str(out.hand_points[seat])]
        if scored and by_player:
            row.append(str(out.scores[seat]))
        grid.add_row(*row)
    parts.append(grid)
    if scored and not by_player:
        parts.append(Text(""))
        parts.append(Text(_("Scored this round:"), style="bold"))
        for label, points in zip(table.score_labels(), out.scores, strict=True):
            parts.append(Text("  " + _("{name}: {points}").format(name=label, points=points)))
    if table.rules.elimination != "off":  # HR-ELIM: who leaves the table
        from ..engine.match import eliminated
        for seat in eliminated(table.rules, out, g.hand_sizes()):
            parts.append(Text(_("{name} is out of the match.").format(name=table.name(seat)),
                              style="bold #ff5252"))
    return Group(*parts)


def fit_scroll(screen: Screen[Any], scroll_id: str) -> None:
    """Let the scrolling part of a box take what the terminal leaves after the rest of the box
    (its border, headings, a record's path on one or two lines, the buttons), so that the
    buttons stay in view at 80×24. Measured once the box is laid out."""

    def fit() -> None:
        height = screen.app.size.height
        box = screen.query_one(scroll_id, VerticalScroll)
        parent = box.parent
        if not height or not isinstance(parent, Widget):
            return
        others = parent.styles.gutter.height + sum(
            child.outer_size.height + child.styles.margin.height
            for child in parent.children if child is not box and child.display)
        room = max(3, height - others)
        if box.styles.max_height is None or box.styles.max_height.value != room:
            box.styles.max_height = room

    fit()
    screen.call_after_refresh(fit)


class RoundSummaryScreen(ClosesOnce, ModalScreen[str]):
    """The round just finished. Enter, Esc or the button go on; q goes on and quits (the
    match is saved, as q at the table does). Returns ``"next"`` or ``"quit"``."""

    DEFAULT_CSS = """
    RoundSummaryScreen { align: center middle; }
    RoundSummaryScreen > Vertical { width: 70; max-width: 100%; height: auto; max-height: 100%;
        border: thick $accent; background: $panel; padding: 0 2; }
    RoundSummaryScreen VerticalScroll { height: auto; }
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
        """The round's summary (scrolling when the terminal is short), and buttons to go on (to the
        next round or the match result) or quit."""
        with Vertical():
            with VerticalScroll(id="summary-scroll", can_focus=False):
                yield Static(round_summary(self.table), id="summary-text")
            label = _("See the match result (Enter)") if self.last else _("Next round (Enter)")
            with Horizontal(id="summary-buttons"):
                yield Button(label, id="next", variant="primary", compact=True)
                yield Button(_("Quit (q)"), id="quit", compact=True)

    def on_mount(self) -> None:
        """Fit the terminal as it is."""
        fit_scroll(self, "#summary-scroll")

    def on_resize(self, _event: events.Resize) -> None:
        """Fit the terminal again."""
        fit_scroll(self, "#summary-scroll")

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


class MatchResultScreen(ClosesOnce, Screen[str]):
    """The end of a match: winners, the scoreboard, where the record went."""

    DEFAULT_CSS = """
    MatchResultScreen { align: center middle; }
    MatchResultScreen > Vertical { width: 90; max-width: 100%; height: auto; max-height: 100%;
        border: thick $accent; padding: 0 2; }
    MatchResultScreen VerticalScroll { height: auto; }
    MatchResultScreen Horizontal { height: 1; margin-top: 1; }
    MatchResultScreen Button { width: auto; margin-right: 2; }
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
        """The winners, every round's scores (scrolling on a short terminal), the rounds played and
        which total wins, where the record was saved, and buttons for a new game or quitting."""
        m = self.table.match
        with Vertical():
            yield Static(Text(_("The match is over. Winner: {names}").format(
                names=self.table.winners_text()), style="bold"), id="result-text")
            with VerticalScroll(id="result-scroll", can_focus=False):
                yield Static(id="result-scores")
            wins = (_("Lowest total wins.") if self.table.rules.scoring == "penalty"
                    else _("Highest total wins."))
            yield Static(Text(_("Rounds played: {n}").format(n=m.rounds_played) + "  " + wins),
                         id="result-rounds")
            if self.record:
                yield Static(Text(_("Record saved: {path}").format(path=self.record)),
                             id="result-record")
            with Horizontal():
                yield Button(_("New game (n)"), id="new", variant="primary", compact=True)
                yield Button(_("Quit (q)"), id="quit", compact=True)

    def on_mount(self) -> None:
        """Fit the terminal as it is."""
        self.on_resize()

    def on_resize(self, _event: events.Resize | None = None) -> None:
        """Fit the terminal again: the scoreboard's height, and its shape (players across or
        down) for the width."""
        fit_scroll(self, "#result-scroll")
        self.query_one("#result-scores", Static).update(
            scoreboard_rounds(self.table, min(86, self.app.size.width - 6)))
        box = self.query_one("#result-scroll", VerticalScroll)
        self.call_after_refresh(box.scroll_end, animate=False)  # the totals in view

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


#: The smallest terminal every screen fits in, with 2 to 10 players, in every language.
MIN_SIZE = (80, 24)


def too_small(width: int, height: int) -> bool:
    """Whether a terminal of this size is smaller than :data:`MIN_SIZE` (a zero size, before the
    first layout, is not)."""
    return bool(width and height) and (width < MIN_SIZE[0] or height < MIN_SIZE[1])


class TooSmallScreen(ClosesOnce, Screen[None]):
    """Covers every screen while the terminal is smaller than :data:`MIN_SIZE`, saying so and
    what size is needed; it goes away by itself once the terminal is large enough. Ctrl+Q still
    saves and quits."""

    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; background: $background; }
    TooSmallScreen #too-small { width: 100%; height: auto; text-align: center; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        """The message, filled in for the present size."""
        yield Static(self.message(), id="too-small")

    def message(self, size: tuple[int, int] | None = None) -> Text:
        """How large the terminal is (``size``, else the app's), and how large it must be."""
        w, h = size or self.app.size
        text = _("The terminal is {w}×{h}: too small for UNO Arena, which needs at least "
                 "{mw}×{mh}. Make the window larger (or play in plain mode: unoarena play "
                 "--plain). Ctrl+Q saves and quits.").format(w=w, h=h, mw=MIN_SIZE[0],
                                                             mh=MIN_SIZE[1])
        return Text("\n".join(wrap_cells(text, max(10, w - 2))), style="bold")

    def on_resize(self, event: events.Resize) -> None:
        """The size in the message follows the terminal's."""
        self.query_one("#too-small", Static).update(
            self.message((event.size.width, event.size.height)))

    def on_screen_resume(self) -> None:
        """Uncovered again (a dialog opened over it closed) at a size that fits: it goes."""
        if not too_small(*self.app.size):
            self.dismiss(None)
