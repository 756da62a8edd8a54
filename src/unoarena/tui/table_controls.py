"""The lower part of the card table, one job a widget: the prompt line (what the viewer should
do now), the viewer's hand with its cursor, the action buttons and the key hint under them.

Each widget draws from the :class:`~unoarena.tui.session.Table` and the few facts of the
screen it is given (who watches, whether UNO is armed, the time left); a click becomes a
message (:class:`~unoarena.tui.cards.HandView.Picked`, :class:`ActionBar.Chosen`) that the
table screen turns into an action, as it does a key.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Button, Static

from ..engine import CODES, Action, RuleSet
from ..text.i18n import _, width
from .cards import CELL_H, HandView
from .helptext import key_hint
from .session import Table
from .table_parts import seat_sides

#: The buttons, left to right; each does what its key does.
BUTTONS = ("draw", "pass", "uno", "catch", "challenge", "accept", "scores", "help", "save",
           "lang", "quit")
#: Buttons shown only while their action is possible.
_WHEN_USABLE = frozenset({"pass", "catch", "challenge", "accept"})
#: Buttons left out first on a narrow terminal (their keys still work), in that order.
_SPARE = ("lang", "save", "scores")
#: Each button's key, as the key hint names it: a key with its button in view is left out of
#: the hint.
_BUTTON_KEYS = {"draw": "d", "pass": "p", "uno": "u", "catch": "c", "challenge": "x",
                "accept": "a", "scores": "F2", "help": "?", "save": "s", "lang": "l",
                "quit": "q"}


def hotseat_others(table: Table, mine: int | None, verb: str) -> list[tuple[int, Action]]:
    """The other people at this terminal than the one at seat ``mine`` who may ``catch`` now,
    or call their forgotten ``uno`` late, with that action: at a real table anyone may call
    out a forgotten UNO, and the one who forgot may still shout it, not only whoever holds the
    cards (here, the screen). Empty outside hot-seat."""
    out: list[tuple[int, Action]] = []
    for p in table.human_players():
        s = table.seat_of(p)
        if s != mine:
            c = next((a for a in table.legal(s) if a.verb == verb), None)
            if c is not None:
                out.append((s, c))
    return out


def may_arm(table: Table, seat: int | None, legal: Sequence[Action]) -> bool:
    """Could arming UNO matter to ``seat``: may its next play leave it one card? Asked of the
    legal plays when there are some (the engine offers UNO with exactly those), else of the
    hand's size and how many cards one play may take under these rules. Never for nobody."""
    if seat is None:
        return False
    plays = [a for a in legal if a.verb in ("play", "jump_in")]
    if plays:
        return any(a.uno for a in plays)
    r = table.rules
    n = len(table.game.hand(seat))
    most = n if r.multi_play or r.same_number_play else 3 if r.bomb \
        else 2 if r.double_play else 1
    return n - most <= 1


def turn_prompt(table: Table, seat: int | None, legal: Sequence[Action], *, uno_armed: bool,
                turn_left: int | None, round_left: int | None) -> str:
    """What the viewer at ``seat`` should do now, in words: a catch or late UNO open to them or
    another person here, a jump-in, the turn's phase and pending penalty, and ``turn_left``
    seconds under the turn timer; whose turn it is otherwise; ``round_left`` seconds of the
    round under HR-BLITZ."""
    g = table.game
    if g.is_over:
        return _("The round is over.")
    verbs = {a.verb for a in legal}
    parts: list[str] = []
    exposed = g.uno_exposed
    if exposed is not None and exposed == seat:  # the viewer forgot: never "catch them"
        if "uno" in verbs:
            parts.append(_("You forgot UNO: press u now!"))
        if hotseat_others(table, seat, "catch"):
            parts.append(_("Another person here may press c to catch you."))
    elif "catch" in verbs:
        target = next(a.target for a in legal if a.verb == "catch")
        parts.append(_("{name} forgot to call UNO: press c to catch them!").format(
            name=table.name(target)))
    elif exposed is not None and hotseat_others(table, seat, "catch"):
        parts.append(_("{name} forgot to call UNO: press c to catch them!").format(
            name=table.name(exposed)))
    if exposed is not None and exposed != seat and hotseat_others(table, seat, "uno"):
        parts.append(_("{name} may still press u to call it.").format(name=table.name(exposed)))
    if "jump_in" in verbs:
        parts.append(_("You can jump in: press a marked card!"))
    if seat is not None and g.turn == seat:
        parts.append(_turn_words(table, verbs))
        if uno_armed:
            parts.append(_("UNO is ready for your next play."))
        if turn_left is not None:
            parts.append(_("{n} s left").format(n=turn_left))
    elif not parts:
        parts.append(_("{name} is playing…").format(name=table.name(g.turn)))
    if round_left is not None:  # HR-BLITZ
        parts.append(_("round ends in {n} s").format(n=round_left))
    return "  ".join(parts)


def _turn_words(table: Table, verbs: set[str]) -> str:
    """What the turn asks of its player, by the turn's phase and what is pending."""
    g = table.game
    phase = g.phase
    if phase == "color":
        return _("Name the colour of the first card.")
    if phase == "give":
        return _("Choose the cards to give.")
    if phase == "drawn":
        return _("Play the drawn card, or press p to keep it.")
    if "challenge" in verbs:
        return _("A Wild Draw Four: press x to challenge or a to accept.")
    if g.pending:
        pend = g.pending
        what = (_("press the launcher {n} times") if pend["kind"] == "press"
                else _("draw {n} cards")).format(n=pend["amount"])
        return _("Answer with a marked card, or press d to {what}.").format(what=what)
    draw = _("press the launcher") if table.rules.deck.launcher else _("draw")
    return _("Your turn: play a marked card, or press d to {draw}.").format(draw=draw)


class PromptLine(Static):
    """The line above the hand: what the viewer should do now (:func:`turn_prompt`)."""

    def show(self, text: str) -> None:
        """Show ``text`` as it is (names are never read as markup)."""
        self.update(Text(text))


def hand_codes(table: Table, seat: int | None) -> list[str]:
    """The hand of ``seat`` as card codes, in hand order (empty when nobody watches)."""
    if seat is None:
        return []
    hand: list[str] = table.game.view(seat)["hand"]
    return hand


def hand_rows(height: int, players: int, lines: int) -> int:
    """Rows of cards the hand may take on a screen ``height`` lines high, once the table has
    room for every seat of ``players`` and the piles and ``lines`` go to the bars around the
    hand (0: no limit, before the first layout)."""
    if not height:
        return 0
    left, top, right = seat_sides(players - 1)
    table = (3 if top else 0) + 1 + max(5, 3 * max(left, right))
    return max(1, (height - lines - table - 1) // CELL_H)


class TableHand(HandView):
    """The viewer's hand at the table, its playable cards marked, and the card cursor that
    ← → move and Enter plays (a card key or a click picks a card directly)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cursor = 0

    def show_table(self, table: Table, viewer: int | None, seat: int | None,
                   legal: Sequence[Action], max_rows: int) -> None:
        """Draw the hand of ``viewer`` (at ``seat``) with the cards of ``legal`` plays marked
        and the cursor kept inside it, in at most ``max_rows`` rows; hidden when nobody is in
        front of the screen."""
        hand = hand_codes(table, seat)
        playable = {i for i, c in enumerate(hand) if any(
            a.verb in ("play", "jump_in") and c in (CODES[k] for k in a.cards) for a in legal)}
        if self.cursor >= len(hand):
            self.cursor = max(0, len(hand) - 1)
        caption = (_("Your hand ({name})").format(name=table.player_name(viewer))
                   if viewer is not None else _("Bots only: watching"))
        self.show(hand, playable, self.cursor, hidden=viewer is None, caption=caption,
                  max_rows=max_rows)

    def move(self, step: int) -> None:
        """Move the cursor ``step`` cards, wrapping around the hand."""
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)
            self.refresh()


class ActionButton(Button, can_focus=False):
    """A compact button that leaves the keyboard to the table."""


class ActionBar(Horizontal):
    """The action buttons: draw, pass, catch, challenge and accept show only while they can be
    used, and spare buttons hide on a narrow terminal (their keys stay in the hint). A press
    posts :class:`ActionBar.Chosen`."""

    class Chosen(Message):
        """A button was pressed; ``command`` is its name in :data:`BUTTONS`."""

        def __init__(self, command: str) -> None:
            super().__init__()
            self.command = command

    def compose(self) -> ComposeResult:
        """One button a command, labelled at the first :meth:`show`."""
        for bid in BUTTONS:
            yield ActionButton("", id=f"btn-{bid}")

    def show(self, table: Table, legal: Sequence[Action], *, watched: bool, uno_armed: bool,
             room: int) -> frozenset[str]:
        """Label the buttons for ``legal`` and enable the usable ones, in ``room`` columns
        (``watched``: somebody is in front of the screen); the keys of the buttons in view."""
        verbs = {a.verb for a in legal}
        launcher = table.rules.deck.launcher
        silent = table.rules.silent_uno  # HR-SILENT: never an UNO button
        labels = {
            "draw": (_("Press launcher [d]") if launcher else _("Draw [d]"), "draw" in verbs),
            "pass": (_("Keep card [p]"), "pass" in verbs),
            "uno": (_("UNO! [u]") + (" ✓" if uno_armed else ""), watched and not silent),
            "catch": (_("Catch [c]"), "catch" in verbs),
            "challenge": (_("Challenge [x]"), "challenge" in verbs),
            "accept": (_("Accept [a]"), "accept" in verbs),
            "scores": (_("Scores [F2]"), True),
            "help": (_("Help [?]"), True),
            "save": (_("Save [s]"), True),
            "lang": (_("Language [l]"), True),
            "quit": (_("Quit [q]"), True),
        }
        used = sum(width(label) + 3 for bid, (label, enabled) in labels.items()
                   if enabled or bid not in _WHEN_USABLE)
        spare: set[str] = set()  # left out for room, in the order of _SPARE
        for bid in _SPARE:
            if room and used > room:
                spare.add(bid)
                used -= width(labels[bid][0]) + 3
        shown: set[str] = set()
        for bid, (label, enabled) in labels.items():
            b = self.query_one(f"#btn-{bid}", ActionButton)
            if str(b.label) != label:
                b.label = Text(label)
                b.styles.width = width(label) + 2  # set: an auto width kept the last label's
            b.disabled = not enabled
            if bid in _WHEN_USABLE or (bid == "uno" and silent):
                b.display = enabled  # shown only when it can be used
            else:
                b.display = bid not in spare  # no room: its key is in the hint and the help
            if b.display:
                shown.add(_BUTTON_KEYS[bid])
        return frozenset(shown)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A button press becomes :class:`Chosen` with the button's command."""
        event.stop()
        bid = event.button.id or ""
        if bid.startswith("btn-"):
            self.post_message(self.Chosen(bid.removeprefix("btn-")))


class KeyHint(Static):
    """The dim line under the buttons: the keys whose buttons are not in view."""

    def show(self, rules: RuleSet, shown: frozenset[str]) -> None:
        """The hint for ``rules``, leaving out the keys in ``shown``."""
        self.update(Text(key_hint(rules, shown), style="dim"))
