"""Cards drawn as coloured blocks with their symbols, and the hand as rows of them.

The hand is one widget that draws every card itself and maps a mouse position back to a
card, so a hand of thirty cards costs one render, not thirty widgets.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.widget import Widget

from ..i18n import _, width

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


def big_card(code: str | None, color: str | None, w: int = 12, h: int = 5) -> Text:
    """The top of the discard pile, large: five lines of its face with the symbol and code.
    A wild takes the colour named for it on its border."""
    if code is None:
        return Text(_("(no card)"))
    style = face_style(code)
    edge = FACE.get(color or "", style) if code.startswith("W") else style
    t = Text()
    if h >= 5:
        t.append(" " * w + "\n", style=edge)
    t.append(" " + symbol(code).center(w - 2) + " \n", style=style)
    if h >= 5:
        t.append(" " * w + "\n", style=style)
    t.append(" " + code.center(w - 2) + " " + ("\n" if h >= 4 else ""), style=style)
    if h >= 4:
        t.append(" " * w, style=edge)
    return t


BACK = "bold #ffd740 on #b71c1c"


def center(text: str, columns: int) -> str:
    """``text`` centred in ``columns`` terminal columns (wide CJK characters count two)."""
    free = max(0, columns - width(text))
    return " " * (free // 2) + text + " " * (free - free // 2)


def card_back(label: str, count: int, w: int = 12, h: int = 5) -> Text:
    """A face-down pile, as large as the top card, with how many cards it holds."""
    t = Text()
    if h >= 5:
        t.append(" " * w + "\n", style=BACK)
    t.append(center(label, w) + "\n", style=BACK)
    if h >= 5:
        t.append(" " * w + "\n", style=BACK)
    t.append(str(count).center(w) + ("\n" if h >= 4 else ""), style=BACK)
    if h >= 4:
        t.append(" " * w, style=BACK)
    return t


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
