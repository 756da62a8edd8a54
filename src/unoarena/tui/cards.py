"""Cards drawn as coloured blocks with their symbols, and the hand as rows of them.

The hand is one widget that draws every card itself and maps a mouse position back to a
card, so a hand of thirty cards costs one render, not thirty widgets.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.widget import Widget

from ..text.i18n import _, width

#: Colour code -> a style for the card face.
FACE: dict[str, str] = {
    "R": "bold white on #c62828",
    "Y": "bold black on #f9a825",
    "G": "bold white on #2e7d32",
    "B": "bold white on #1565c0",
    "P": "bold white on #6a1b9a",
    "W": "bold white on #303030",
}
#: Colour code -> a style for text in that colour (the active colour, names).
INK: dict[str, str] = {"R": "bold #ef5350", "Y": "bold #fdd835", "G": "bold #66bb6a",
                       "B": "bold #42a5f5", "P": "bold #ab47bc"}
_SYMBOL = {"S": "⊘", "R": "⇄", "D2": "+2", "H2": "H2", "DA": "DA",
           "W": "WILD", "W4": "+4", "WH": "HYPER", "WN": "NATURE", "WA": "ATTACK"}

#: Keys that pick a card of the hand, in order: digits, then letters no command uses, then
#: the same letters with Shift (a hand of 44 cards is still played by key; past that, the
#: cursor and Enter).
CARD_KEYS: tuple[str, ...] = tuple("1234567890befghijkmnortvwyz" "BEFGHIJKMNORTVWYZ")
CARD_W = 6  # width of a card face
CELL_W = CARD_W + 1
CELL_H = 4


def face_style(code: str) -> str:
    """The face style of a card by its code: its colour's, or the dark wild face for wilds and
    anything unknown."""
    return FACE["W"] if code.startswith("W") else FACE.get(code[:1], FACE["W"])


def symbol(code: str) -> str:
    """The big symbol of a card: its number, or a sign for actions and wilds."""
    if code in _SYMBOL and code.startswith("W"):
        return _SYMBOL[code]
    rank = code[1:]
    return _SYMBOL.get(rank, rank)


def card_chip(code: str) -> Text:
    """A one-line coloured card, as in the log and dialogs: `` ⊘ RS ``."""
    return Text(f" {symbol(code)} {code} ", style=face_style(code))


class Block:
    """Rows of exactly ``width`` cells, each row in one style: a card drawn large. Rich never
    strips, wraps or re-justifies it (a :class:`~rich.text.Text` centred in a table loses its
    padding and its blank rows), so every row of the card is painted edge to edge. A row's text
    is centred, or put at the ``"left"`` or ``"right"`` (one cell in from the edge)."""

    def __init__(self, rows: Sequence[tuple[str, str] | tuple[str, str, str]],
                 width: int) -> None:
        self.rows = [(_place(row[0], width, row[2] if len(row) > 2 else "center"), row[1])
                     for row in rows]
        self.width = width

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """Each row as one segment of its style, then a line break."""
        for text, style in self.rows:
            yield Segment(text, Style.parse(style))
            yield Segment.line()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        """Exactly ``width`` cells, whatever room is offered."""
        return Measurement(self.width, self.width)

    @property
    def plain(self) -> str:
        """The rows as text (tests, captures)."""
        return "\n".join(text for text, _style in self.rows)


def _place(text: str, columns: int, where: str) -> str:
    """``text`` in ``columns`` cells: centred, or one cell in from the left or right edge."""
    if where == "left":
        return (" " + text + " " * columns)[:max(columns, 0)] if width(text) < columns \
            else center(text, columns)
    if where == "right":
        free = columns - width(text) - 1
        return " " * free + text + " " if free >= 0 else center(text, columns)
    return center(text, columns)


def _card_rows(h: int) -> list[int]:
    """Where the two lines of a card go among its ``h`` rows: the first just above the middle,
    the second just below it (rows 0 and 1 for the smallest card, of 3 rows)."""
    if h <= 3:
        return [0, 1]
    return [h // 2 - 1, h // 2 + 1] if h >= 5 else [1, 2]


def big_card(code: str | None, color: str | None, w: int = 12, h: int = 5) -> Block:
    """The top of the discard pile, large: ``h`` rows of ``w`` cells with its symbol and code (a
    card of 7 rows or more also has its code in two corners, as a printed card does). A wild
    takes the colour named for it on its top and bottom rows."""
    if code is None:
        return Block([(_("(no card)"), "")], max(w, width(_("(no card)"))))
    style = face_style(code)
    edge = FACE.get(color or "", style) if code.startswith("W") else style
    rows: list[tuple[str, str] | tuple[str, str, str]] = [("", style) for _i in range(h)]
    first, second = _card_rows(h)
    rows[first] = (symbol(code), style)
    rows[second] = (code, style)
    if h >= 7:
        rows[1] = (code, style, "left")
        rows[-2] = (code, style, "right")
    if h >= 4:
        rows[0] = ("", edge)
        rows[-1] = ("", edge)
    return Block(rows, w)


BACK = "bold #ffd740 on #b71c1c"


def center(text: str, columns: int) -> str:
    """``text`` centred in ``columns`` terminal columns (wide CJK characters count two)."""
    free = max(0, columns - width(text))
    return " " * (free // 2) + text + " " * (free - free // 2)


def card_back(label: str, count: int, w: int = 12, h: int = 5) -> Block:
    """A face-down pile, as large as the top card, with how many cards it holds."""
    rows: list[tuple[str, str] | tuple[str, str, str]] = [("", BACK) for _i in range(h)]
    first, second = _card_rows(h)
    rows[first] = (label, BACK)
    rows[second] = (str(count), BACK)
    return Block(rows, w)


class HandView(Widget):
    """A player's hand: rows of cards, each with its key, playable cards marked.

    Posts :class:`HandView.Picked` when a card is clicked.
    """

    DEFAULT_CSS = """
    HandView { height: 8; padding: 0 1; }
    """

    class Picked(Message):
        """Posted when the person clicks a card; ``index`` is its position in the hand."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: list[str] = []
        self.playable: set[int] = set()
        self.cursor = -1
        self.hidden = False
        self.caption = ""
        self.max_rows = 0

    def show(self, cards: Sequence[str], playable: set[int], cursor: int, *,
             hidden: bool = False, caption: str = "", max_rows: int = 0) -> None:
        """Show a hand; with ``max_rows``, only that many rows of cards, those around the
        cursor (the caption says how many are out of sight)."""
        self.cards = list(cards)
        self.playable = playable
        self.cursor = cursor
        self.hidden = hidden
        self.caption = caption
        self.max_rows = max_rows
        rows = self.rows_shown()
        self.styles.height = rows * CELL_H + 1
        self.refresh()

    def rows_total(self) -> int:
        """Rows the whole hand needs at the widget's width (at least 1)."""
        return max(1, -(-len(self.cards) // self._per_row())) if self.cards else 1

    def rows_shown(self) -> int:
        """Rows actually drawn: all of them, or at most ``max_rows``."""
        total = self.rows_total()
        return min(total, self.max_rows) if self.max_rows > 0 else total

    def first_row(self) -> int:
        """The first row drawn: the cursor's row stays in sight."""
        shown = self.rows_shown()
        row = max(0, self.cursor) // self._per_row()
        return min(max(0, row - shown + 1), self.rows_total() - shown)

    def _per_row(self) -> int:
        width = self.size.width or 80
        return max(1, (width + 1) // CELL_W)

    def render(self) -> Text:
        """The caption (with how many cards are out of sight), then each row of cards: key labels,
        symbols, codes and the marks under playable cards. A hidden hand shows the caption only."""
        t = Text()
        if self.caption:
            t.append(self.caption, style="bold")
            out_of_sight = len(self.cards) - self.rows_shown() * self._per_row()
            if out_of_sight > 0 and not self.hidden:
                t.append("  " + _("{n} more cards out of sight: ← → move there").format(
                    n=out_of_sight), style="dim")
            t.append("\n")
        if self.hidden or not self.cards:
            if not self.hidden:
                t.append(_("(no cards)"))
            return t
        per = self._per_row()
        first = self.first_row()
        shown = self.rows_shown()
        for start in range(first * per, min(len(self.cards), (first + shown) * per), per):
            row = list(enumerate(self.cards))[start:start + per]
            for i, _code in row:  # key labels
                key = CARD_KEYS[i] if i < len(CARD_KEYS) else "·"
                style = "reverse bold" if i == self.cursor else "bold"
                t.append(f"[{key}]".center(CARD_W), style=style)
                t.append(" ")
            t.append("\n")
            for _i, code in row:
                t.append(symbol(code).center(CARD_W), style=face_style(code))
                t.append(" ")
            t.append("\n")
            for _i, code in row:
                t.append(code.center(CARD_W), style=face_style(code))
                t.append(" ")
            t.append("\n")
            for i, _code in row:
                mark = "▲▲▲▲" if i in self.playable else ""
                t.append(mark.center(CARD_W), style="bold #76ff03")
                t.append(" ")
            t.append("\n")
        return t

    def index_at(self, x: int, y: int) -> int | None:
        """The card under a point of the content area, if any."""
        y -= 1 if self.caption else 0
        if x < 0 or y < 0 or x % CELL_W == CARD_W:
            return None
        i = (y // CELL_H + self.first_row()) * self._per_row() + x // CELL_W
        if x // CELL_W >= self._per_row():
            return None
        return i if 0 <= i < len(self.cards) else None

    def on_click(self, event: Click) -> None:
        """A click on a card posts :class:`Picked` with its index; clicks on a hidden hand or
        between cards do nothing."""
        if self.hidden:
            return
        at = event.get_content_offset(self)
        i = self.index_at(at.x, at.y) if at is not None else None
        if i is not None:
            self.post_message(self.Picked(i))
