"""The parts of the card table above the hand, each drawing one region from the table's state:
the top bar, a seat, the piles and what is in force under them, the log and the scoreboard
(the prompt, the hand and the buttons are in :mod:`~unoarena.tui.table_controls`). The table
screen lays them out, keeps the state (who watches, what is asked) and handles keys and clicks;
a part only reads the :class:`~unoarena.tui.session.Table` it is shown.
"""

from __future__ import annotations

from typing import Any

from rich.align import Align
from rich.console import Group
from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import RichLog, Static

from ..text.i18n import _, language, width
from ..text.narrate import direction_text, why_text
from ..text.rules import color_text, value_text
from .cards import INK, big_card, card_back, card_chip
from .dialogs import scoreboard_table
from .session import Table
from .wrap import wrap_cells


class TopBar(Static):
    """The top bar: preset, round number, the match goal and the rule keys changed from the
    preset."""

    def show(self, table: Table) -> None:
        """Draw the bar for ``table`` as it is now."""
        r = table.rules
        goal = (_("{n} rounds").format(n=r.rounds) if r.rounds is not None
                else _("target {n}").format(n=r.target_score))
        over = [f"{k}={value_text(v)}" for k, v in r.overrides().items()
                if k not in ("players", "target_score", "rounds")]
        extra = (" · " + " ".join(over)) if over else ""
        self.update(Text(_("UNO Arena — {preset} · round {n} · {goal}").format(
            preset=r.preset, n=table.round_no, goal=goal) + extra))


def seat_text(table: Table, seat: int, *, bottom: int, viewer: int | None, wide: bool,
              line: bool = False, compact: bool = False) -> Text:
    """A seat as seen from ``bottom``: ``▶`` and a highlighted name on its turn, card backs
    (its cards, when its hand lies face up under HR-OPEN) and the count, then what matters
    about it (UNO, dealer, team, bot). ``line``: all on one line; ``compact``: on two lines,
    the notes after the count; ``wide``: room for more card backs and the bots' names."""
    g = table.game
    v = g.view(bottom)
    turn = seat == g.turn and not g.is_over
    player = table.player_at(seat)
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append("▶ " if turn else "  ", style="bold #ffd740")
    name_style = "bold black on #ffd740" if turn else "bold"
    if player == viewer:
        before, _sep, after = _("{name} (you)").partition("{name}")
        text.append(before, style="italic")
        text.append(table.name(seat), style=name_style)
        text.append(after, style="italic")
    else:
        text.append(table.name(seat), style=name_style)
    text.append(" · " if line else "\n")
    count = v["hand_sizes"][seat]
    shown = v.get("open_hands")
    face_up = shown[seat] if shown is not None and seat != bottom else None
    if face_up:  # HR-OPEN: a small hand lies face up for everyone
        for code in face_up:
            text.append(card_chip(code))
        text.append(" ")
    elif not line:
        text.append("▮" * min(count, 8 if wide else 5), style="#e53935")
        text.append("+" if count > (8 if wide else 5) else "", style="#e53935")
        text.append(" ")
    if line or wide:
        text.append(_("{n} cards").format(n=count) if count != 1 else _("1 card"), style="bold")
    else:
        text.append(str(count), style="bold")
    notes: list[tuple[str, str]] = []
    if v["uno_exposed"] == seat:
        notes.append((_("forgot UNO!"), "bold #ff5252"))
    elif v["uno_declared"][seat] and count == 1:
        notes.append(("UNO!", "bold #ffd740"))
    if table.rules.teams:
        notes.append((_("team {n}").format(n=table.rules.team_of(seat) + 1), "cyan"))
    if seat == g.dealer:
        notes.append((_("dealer"), "dim"))
    pl = table.players[player]
    if pl.is_bot and wide:
        notes.append((_("bot {name}").format(name=pl.bot), "dim"))
    elif not pl.is_bot and player != viewer:
        notes.append((_("person"), "dim"))  # another person at this terminal
    if notes:
        text.append(" · " if line or compact else "\n")
        for i, (note, style) in enumerate(notes):
            text.append((" · " if i else "") + note, style=style)
    return text


def seat_sides(others: int) -> tuple[int, int, int]:
    """How many of the other players sit on the viewer's left, across, and on the right: as
    the compass names of :func:`unoarena.text.narrate.default_names` place them (up to eight
    players); beyond, a third on each side, never more than three across (80 columns hold
    three seats across)."""
    fixed = {1: (0, 1, 0), 2: (0, 2, 0), 3: (1, 1, 1), 4: (1, 2, 1), 5: (2, 1, 2),
             6: (2, 2, 2), 7: (2, 3, 2), 8: (3, 2, 3)}
    if others in fixed:
        return fixed[others]
    side = others // 3
    return side, others - 2 * side, side


class SeatView(Static):
    """One of the other seats around the felt (:func:`seat_text`); empty once fewer players are
    left than there are places (HR-ELIM)."""

    def show(self, text: Text, *, compact: bool, across: int | None = None) -> None:
        """Draw ``text``, on two rows when ``compact``; a seat ``across`` the felt shares its
        width with the others there (``across`` columns each)."""
        if across is not None:
            self.styles.max_width = min(32, across)
            self.styles.min_width = min(14, across)
        self.set_class(compact, "compact")
        self.update(text)


class Felt(Vertical):
    """The felt: the other seats around the piles, in play order from the viewer's left (card
    backs and counts), what is in force under the piles, and the viewer's seat at the bottom,
    on one line. Seats at the sides take two rows when three do not fit beside the piles."""

    def __init__(self, players: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.players = players  # places at the table: the seats are laid out for all of them
        self._shown: tuple[Table, int, int | None, bool] | None = None

    def compose(self) -> ComposeResult:
        """The seats across, the seats at the sides around the piles, the status lines and the
        viewer's seat."""
        left, top, right = seat_sides(self.players - 1)
        with Horizontal(id="top-seats"):
            for i in range(left, left + top):
                yield SeatView(id=f"slot-{i}", classes="seat")
        with Horizontal(id="felt-mid"):
            with Vertical(id="left-seats"):
                for i in reversed(range(left)):  # the viewer's left, bottom up
                    yield SeatView(id=f"slot-{i}", classes="seat")
            yield PileView(id="pile")
            with Vertical(id="right-seats"):
                for i in range(left + top, left + top + right):
                    yield SeatView(id=f"slot-{i}", classes="seat")
        yield Static(id="status")
        yield Static(id="me")

    def show(self, table: Table, bottom: int, viewer: int | None, wide: bool) -> None:
        """Draw the felt as the player ``viewer`` sees it from seat ``bottom`` (``wide``: the
        seats have room for more, :func:`seat_text`)."""
        self._shown = (table, bottom, viewer, wide)
        self._show_seats()
        self.query_one("#pile", PileView).show(table, bottom)
        self.query_one("#status", Static).update(status_text(table, bottom))
        self.call_after_refresh(self._refit)

    def _show_seats(self) -> None:
        assert self._shown is not None
        table, bottom, viewer, wide = self._shown
        n = table.game.players  # fewer than the places once some are out (HR-ELIM)
        side = self._compact()
        left, top, _right = seat_sides(self.players - 1)
        across = self.size.width // max(1, top) - 2  # room for a seat across
        for j in range(self.players - 1):
            facing = left <= j < left + top  # the seats across keep three rows
            compact = side and not facing
            text = seat_text(table, (bottom + 1 + j) % n, bottom=bottom, viewer=viewer,
                             wide=wide, compact=compact) if j < n - 1 else Text("")
            self.query_one(f"#slot-{j}", SeatView).show(
                text, compact=compact, across=across if facing and across > 0 else None)
        self.query_one("#me", Static).update(seat_text(table, bottom, bottom=bottom,
                                                       viewer=viewer, wide=wide, line=True))

    def _compact(self) -> bool:
        """Whether the seats at the sides must take two rows instead of three to fit beside the
        piles (many players on a short terminal)."""
        left, _top, right = seat_sides(self.players - 1)
        mid = self.query_one("#felt-mid").size.height
        return bool(mid) and mid < 3 * max(left, right)

    def _refit(self) -> None:
        """After a layout (the status line under the piles may have grown): redraw the seats if
        they no longer fit as drawn."""
        if not self.is_mounted or self._shown is None:
            return
        if seat_sides(self.players - 1)[0] and \
                self.query_one("#slot-0").has_class("compact") != self._compact():
            self._show_seats()


class PileView(Static):
    """The middle of the table: the draw pile (or launcher) beside the large top card, as large
    as the room allows, the colour in force and the direction."""

    def show(self, table: Table, bottom: int) -> None:
        """Draw the piles as ``bottom`` sees them, scaled to this part's size."""
        v = table.game.view(bottom)
        launcher = table.rules.deck.launcher
        w, h, captions = pile_size(self.size.width, self.size.height)
        cards = RichTable.grid(padding=(0, 2))
        cards.add_column(justify="center")
        cards.add_column(justify="center")
        cards.add_row(card_back(_("LAUNCHER") if launcher else "UNO", v["draw_pile_size"], w,
                                h),
                      big_card(v["top"], v["color"], w, h))
        if captions and max(width(_("draw pile")), width(_("launcher")),
                            width(_("discard pile"))) <= w + 1:
            cards.add_row(Text(_("launcher") if launcher else _("draw pile"), style="dim",
                               no_wrap=True, overflow="ellipsis"),
                          Text(_("discard pile"), style="dim", no_wrap=True,
                               overflow="ellipsis"))
        color = v["color"]
        line = Text(no_wrap=True, overflow="ellipsis")
        if color:
            line.append("■ " + color_text(color), style=INK.get(color, "bold"))
            line.append("   ")
        arrow = "↻" if v["direction"] == "cw" else "↺"
        line.append(f"{arrow} " + direction_text(v["direction"]))
        body = RichTable.grid()
        body.add_column(justify="center")
        body.add_row(cards)
        body.add_row(line)
        self.update(Align.center(body, vertical="middle"))


#: Card sizes for the piles, smallest first: (width, height) in cells. A cell is about twice as
#: tall as it is wide, so from the middle sizes on a card stands upright, as a card does.
CARD_SIZES: tuple[tuple[int, int], ...] = ((8, 3), (8, 4), (10, 5), (12, 7), (14, 9), (18, 11),
                                           (22, 13), (26, 16), (32, 19))


def pile_size(width: int, height: int) -> tuple[int, int, bool]:
    """The size of the two pile cards in a room of ``width`` × ``height`` cells (the largest
    that fits beside each other with the colour line under them), and whether the captions
    under them fit too. Before the first layout (a zero size): the middle size, captions on."""
    if not width or not height:
        return 12, 5, True
    fits = [(w, h) for w, h in CARD_SIZES if 2 * w + 2 <= width and h + 1 <= height]
    w, h = fits[-1] if fits else CARD_SIZES[0]
    return w, h, h + 2 <= height


def status_text(table: Table, bottom: int) -> Text:
    """What is in force on the table besides the top card, one line each (they wrap across the
    felt): the last launcher press, a pending penalty, an effect."""
    v = table.game.view(bottom)
    out = Text(justify="center")
    lines: list[tuple[str, str]] = []
    if table.rules.deck.launcher:
        last = last_press(table)
        if last:
            lines.append((last, "#ffd740"))
    pend = v["pending"]
    if pend:
        if pend["kind"] == "press":
            msg = _("Pending: {name} must press the launcher {n} times ({why})")
        else:
            msg = _("Pending: {name} must draw {n} cards ({why})")
        lines.append((msg.format(name=table.name(pend["target"]), n=pend["amount"],
                                 why=why_text(pend["source"])), "bold #ff5252"))
    eff = v["effect"]
    if eff:
        c = eff["color"]
        if eff["kind"] == "hyperspeed":
            msg = _("Hyperspeed on {color}: {color} cards skip one more").format(
                color=color_text(c))
        else:
            msg = _("Forces of Nature: only {color} until {name}'s turn").format(
                color=color_text(c), name=table.name(eff["owner"]))
        lines.append((msg, INK.get(c, "bold")))
    for i, (text, style) in enumerate(lines):
        out.append(("\n" if i else "") + text, style=style)
    return out


def last_press(table: Table) -> str:
    """The launcher's last press in this turn, in words ('' when the last play came after)."""
    for e in reversed(table.game.events):
        if e.get("t") == "press":
            return _("Last press: {name}, {n} cards").format(
                name=table.name(e["seat"]), n=e.get("count", 0))
        if e.get("t") in ("play", "deal"):
            break
    return ""


class LogPanel(Vertical):
    """The narrated log under its heading, as the viewer may read it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._shown = 0
        self._key: tuple[Any, ...] = ()

    def compose(self) -> ComposeResult:
        """The heading and the log."""
        yield Static(_("Log"), id="log-title")
        log = RichLog(id="log", wrap=False, markup=False, auto_scroll=True, min_width=1)
        log.can_focus = False
        yield log

    def rebuild(self) -> None:
        """Write the whole log again at the next :meth:`show` (a new round, a new viewer)."""
        self._key = ()

    def show(self, table: Table, viewer: int | None) -> None:
        """Add the new narration lines, wrapped to the log's width
        (:func:`~unoarena.tui.wrap.wrap_cells`); the log is rebuilt (its last 200 entries) when
        the viewer, the language or its width changes, or the table's log was rebuilt."""
        self.query_one("#log-title", Static).update(_("Log"))
        log = self.query_one("#log", RichLog)
        room = log.scrollable_content_region.width
        key = (viewer, language(), id(table.log[0]) if table.log else 0, room)
        entries = table.log
        if key != self._key or self._shown > len(entries):
            log.clear()
            self._key = key
            self._shown = max(0, len(entries) - 200)
        for entry in entries[self._shown:]:
            style = "bold" if entry.header else ""
            for line in entry.render(viewer):
                for part in wrap_cells(line, room):
                    log.write(Text(part, style=style, no_wrap=True, overflow="crop"))
        self._shown = len(entries)


class ScoresPanel(VerticalScroll, can_focus=False):
    """The side scoreboard: the last round and the totals, with which total wins."""

    def compose(self) -> ComposeResult:
        """The board."""
        yield Static(id="scores")

    def show(self, table: Table) -> None:
        """Draw the board for ``table`` as it is now."""
        head = Text(_("Scores"), style="bold")
        head.append(_(" (F2) "), style="dim")
        head.append(_("lowest total wins") if table.rules.scoring == "penalty"
                    else _("highest total wins"), style="dim")
        self.query_one("#scores", Static).update(Group(head, scoreboard_table(table, 1)))
