"""The card table: hands, piles, players, the narrated log, and every action by key or mouse.

The screen never decides what is legal: it asks the engine for the viewer's legal actions,
marks the cards that take part in them, and turns a chosen card into one of those actions,
asking only for what still differs between them (cards to combine, power, colour, target).
"""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Button, Static
from textual.worker import Worker, WorkerState

from ..engine import COLOR_CODES, Action, IllegalAction
from ..play_choice import Node, card_choices, first_action, with_uno
from ..text.i18n import _, width
from ..text.rules import card_text, color_text
from . import saves
from .cards import CARD_KEYS, CELL_H, INK, HandView, face_style
from .dialogs import (
    ChoiceDialog,
    ClosesOnce,
    HandoverScreen,
    HelpScreen,
    MatchResultScreen,
    Option,
    RoundSummaryScreen,
    ScoresScreen,
)
from .helptext import key_hint
from .session import Decision, Table, illegal_text
from .table_parts import (
    LogPanel,
    PileView,
    ScoresPanel,
    TopBar,
    seat_text,
    status_text,
)
from .words import color_before_w4, target_question

#: Buttons shown only while their action is possible.
_WHEN_USABLE = frozenset({"pass", "catch", "challenge", "accept"})
#: Buttons left out first on a narrow terminal (their keys still work), in that order.
_SPARE = ("lang", "save", "scores")
#: Each button's key, as the key hint names it: a key with its button in view is left out of
#: the hint.
_BUTTON_KEYS = {"draw": "d", "pass": "p", "uno": "u", "catch": "c", "challenge": "x",
                "accept": "a", "scores": "F2", "help": "?", "save": "s", "lang": "l",
                "quit": "q"}

_COLOR_KEYS = {"R": "r", "Y": "y", "G": "g", "B": "b", "P": "p"}
#: The worker groups that may open dialogs: while one runs, keys go to its dialogs.
_FLOWS = frozenset({"choose", "ask"})
#: Seconds after a dialog closes during which clicks on the table are ignored: the second
#: click of a double click on a dialog's button must not land on the card under it.
CLICK_GUARD = 0.3


class ActionButton(Button, can_focus=False):
    """A compact button that leaves the keyboard to the table."""


class TableScreen(Screen[None]):
    """See the module docstring. ``viewer`` is the player (not seat) in front of the screen."""

    class NewGame(Message):
        """Sent when, after a match, the person asks for a new one: the app opens the new-game
        screen."""

    DEFAULT_CSS = """
    TableScreen { layout: vertical; }
    #topbar { height: 1; background: $primary; color: $text; padding: 0 1; }
    #main { height: 1fr; min-height: 8; }
    #felt { width: 1fr; background: #0e4a37; }
    #top-seats { height: auto; align: center top; }
    #felt-mid { height: 1fr; }
    #left-seats, #right-seats { width: auto; height: 100%; align: left middle; }
    #pile { width: 1fr; height: 100%; }
    #status { height: auto; width: 100%; padding: 0 1; text-align: center; }
    #me { height: 1; content-align: center middle; }
    .seat { width: auto; min-width: 14; max-width: 32; height: 3; margin: 0 1; padding: 0 1;
        background: #0b3d2e; }
    .seat.compact { height: 2; }
    #side { width: 34%; min-width: 26; max-width: 64; border-left: solid $primary; }
    #log-panel { height: 1fr; }
    #log-title { text-style: bold; padding: 0 1; width: 100%; background: $boost; }
    #log { height: 1fr; min-height: 3; padding: 0 1; background: transparent;
        overflow-x: hidden; scrollbar-gutter: stable; }
    #scores-box { height: auto; max-height: 65%; border-top: solid $primary; }
    #scores { height: auto; padding: 0 1; }
    #prompt { height: auto; padding: 0 1; background: $boost; text-style: bold; }
    #hand { padding: 0 1; }
    #buttons { height: 1; padding: 0 1; }
    #buttons ActionButton { height: 1; min-width: 0; width: auto; border: none;
        margin: 0 1 0 0; padding: 0; }
    #keys { height: auto; padding: 0 1; color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "draw", show=False), Binding("p", "pass_turn", show=False),
        Binding("u", "uno", show=False), Binding("c", "catch", show=False),
        Binding("x", "challenge", show=False), Binding("a", "accept", show=False),
        Binding("question_mark", "help", show=False), Binding("f1", "help", show=False),
        Binding("f2", "scores", show=False),
        Binding("f3", "rule_help", show=False), Binding("f4", "hint", show=False),
        Binding("s", "save", show=False), Binding("q", "quit_game", show=False),
        Binding("l", "language", show=False),
        Binding("left", "cursor(-1)", show=False), Binding("right", "cursor(1)", show=False),
        Binding("enter", "play_cursor", show=False),
    ]

    def __init__(self, table: Table) -> None:
        super().__init__(id="table")
        self.table = table
        humans = table.human_players()
        self.viewer: int | None = humans[0] if len(humans) == 1 else None
        self.uno_armed = False
        self.cursor = 0
        self.last_toast = ""  # the message shown last (one at a time)
        self._timer: Timer | None = None
        self._clock: Timer | None = None
        self._deadline: tuple[int, float] | None = None
        self._round_end: tuple[object, float] | None = None  # HR-BLITZ: (the round, when)
        #: the clock of the turn timer and the round's time limit (a test gives its own)
        self.now: Callable[[], float] = time.monotonic
        self._asked: set[tuple[str, int]] = set()  # (dialog, version) already shown
        self._summary_for = -1
        self.busy = False  # a bot move is scheduled
        self._covered = False  # a hand-over or summary screen pushed by sync() is up
        self._keys: list[events.Key] = []  # keys waiting for the next dialog of a flow
        self._flow_dialog = False  # the flows running now have shown a dialog
        self._closed_at = -CLICK_GUARD  # when a dialog of this table last closed
        self.last_refusal = ""  # the code of the viewer's last refused action (F3 explains it)

    # ------------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        """The layout: the top bar; the felt with the other seats around the piles and the viewer's
        seat below; the log and scores at the side; then the prompt, the hand, the action buttons
        and the key hint."""
        left, top, right = seat_sides(self.table.rules.players - 1)
        yield TopBar(id="topbar")
        with Horizontal(id="main"):
            with Vertical(id="felt"):
                with Horizontal(id="top-seats"):
                    for i in range(left, left + top):
                        yield Static(id=f"slot-{i}", classes="seat")
                with Horizontal(id="felt-mid"):
                    with Vertical(id="left-seats"):
                        for i in reversed(range(left)):  # the viewer's left, bottom up
                            yield Static(id=f"slot-{i}", classes="seat")
                    yield PileView(id="pile")
                    with Vertical(id="right-seats"):
                        for i in range(left + top, left + top + right):
                            yield Static(id=f"slot-{i}", classes="seat")
                yield Static(id="status")
                yield Static(id="me")
            with Vertical(id="side"):
                yield LogPanel(id="log-panel")
                yield ScoresPanel(id="scores-box")
        yield Static(id="prompt")
        yield HandView(id="hand")
        with Horizontal(id="buttons"):
            for bid in ("draw", "pass", "uno", "catch", "challenge", "accept", "scores", "help",
                        "save", "lang", "quit"):
                yield ActionButton("", id=f"btn-{bid}")
        yield Static(id="keys")

    def on_mount(self) -> None:
        """The table opens: bots play up to the first decision of a person."""
        self.advance()

    def on_screen_resume(self) -> None:
        """Back from a dialog or another screen: redraw and ask whatever is now waiting for a
        person."""
        self.sync()

    def on_resize(self, _event: events.Resize) -> None:
        """The terminal was resized: lay the table out again once the new size is known."""
        self.call_after_refresh(self.render_all)

    # -- the viewer ----------------------------------------------------------------------
    @property
    def viewer_seat(self) -> int | None:
        """The seat of the player in front of the screen this round, or None when nobody is (bots
        only, or hot-seat before the first hand-over)."""
        if self.viewer is None:
            return None
        seat = self.table.seat_of(self.viewer)
        return seat if seat >= 0 else None  # put out (HR-ELIM): watches the others

    def legal(self) -> list[Action]:
        """The viewer's legal actions now: on its turn or in an open window; empty when nobody
        watches."""
        seat = self.viewer_seat
        return self.table.legal(seat) if seat is not None else []

    # -- running the game ----------------------------------------------------------------
    def advance(self) -> None:
        """Let bots act (at once, or after their delay) until a person must act."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.busy = False
        t = self.table
        while not t.game.is_over:
            d = t.next_decision()
            if d is None or d.kind != "bot" or d.action is None:
                break
            if d.delay > 0:
                self.busy = True
                self._timer = self.set_timer(d.delay, lambda d=d: self._fire(d))
                break
            t.apply(d.seat, d.action)
        self.sync()

    def _fire(self, d: Decision) -> None:
        self._timer = None
        self.busy = False
        if d.version == self.table.version and d.action is not None:
            with contextlib.suppress(IllegalAction):  # the table moved on: ask again
                self.table.apply(d.seat, d.action)
        self.advance()

    def act(self, action: Action | str, seat: int | None = None) -> bool:
        """Apply the viewer's action (or, in hot-seat, that of another person at this
        terminal: ``seat``); a refusal is shown, in the viewer's language."""
        if seat is None:
            seat = self.viewer_seat
        if seat is None:
            return False
        try:
            self.table.apply(seat, action)
        except IllegalAction as e:
            self.last_refusal = e.code
            self.toast(illegal_text(e, self.table))
            self.sync()
            return False
        verb = action.verb if isinstance(action, Action) else str(action).split()[0]
        if verb in ("play", "jump_in"):
            self.uno_armed = False
        self.advance()
        return True

    def toast(self, text: str, severity: str = "warning") -> None:
        """One message at a time: a new one replaces the last instead of piling up; the turn
        prompt stays as it was."""
        self.app.clear_notifications()
        self.last_toast = text
        self.notify(text, severity=severity, markup=False)  # type: ignore[arg-type]

    # -- what the person sees and must answer --------------------------------------------
    def sync(self) -> None:
        """Draw everything, then open whatever the situation asks of a person."""
        self.render_all()
        if not self.is_active or self._covered:
            return
        t = self.table
        g = t.game
        if g.is_over:
            if self._summary_for != t.round_no:
                self._summary_for = t.round_no
                if self._timer is not None:
                    self._timer.stop()
                    self._timer = None
                self._covered = True
                self._push(RoundSummaryScreen(t, self._last_round()), self._after_summary)
            return
        seat = t.waiting_person()
        if seat is not None:
            player = t.player_at(seat)
            if player != self.viewer:
                if len(t.human_players()) > 1:
                    self._covered = True
                    self._push(HandoverScreen(t.player_name(player)),
                               functools.partial(self._handed_over_to, player))
                    return
                self.viewer = player
                self.render_all()
        self._start_clock()
        self._auto_dialogs()

    def _last_round(self) -> bool:
        """Whether the round just finished ends the match (asked of a copy of the match)."""
        from ..engine import settle
        m = self.table.match
        out = self.table.game.outcome
        assert out is not None
        rules = m.rules
        if rules.teams:
            scores = list(out.scores)
        else:
            scores = [out.scores[s] if s >= 0 else 0 for s in m.seat_of]
        from ..engine import Outcome
        if rules.elimination != "off":  # HR-ELIM: over when one player is left
            from ..engine.match import eliminated
            return self.table.game.players - len(
                eliminated(rules, out, self.table.game.hand_sizes())) == 1
        per = Outcome(out.winner, out.reason, out.hand_points, tuple(scores))
        return settle(rules, m.scores, per, m.rounds_played + 1)[1]

    def _handed_over_to(self, player: int, _result: object = None) -> None:
        self._covered = False
        self.viewer = player
        self.cursor = 0
        self.uno_armed = False
        self.query_one(LogPanel).rebuild()
        self.sync()

    def _after_summary(self, then: str | None = "next") -> None:
        """Score the round and deal the next; ``then`` "quit": afterwards, save and quit."""
        self._covered = False
        t = self.table
        t.finish_round()
        if then == "quit":
            if t.match.is_over:
                with contextlib.suppress(OSError):
                    saves.save_record(t)
                saves.forget_match(t)
            self.action_quit_game()
            return
        self.cursor = 0
        self.uno_armed = False
        if t.match.is_over:
            path = ""
            try:
                path = str(saves.save_record(t))
            except OSError as e:
                self.toast(_("Could not save the record: {error}").format(error=e),
                            severity="error")
            saves.forget_match(t)
            self._push(MatchResultScreen(t, path), self._after_match)
            return
        self.query_one(LogPanel).rebuild()
        self.advance()

    def _after_match(self, what: str | None) -> None:
        if what == "new":
            self.post_message(self.NewGame())
        else:
            self.app.exit(0)

    def _auto_dialogs(self) -> None:
        """The colour of a wild first card, a swap's cards to give, a Wild Draw Four to
        challenge: asked as soon as they are the viewer's to answer."""
        legal = self.legal()
        if not legal:
            return
        verbs = {a.verb for a in legal}
        v = self.table.version
        if "color" in verbs and ("color", v) not in self._asked:
            self._asked.add(("color", v))
            self.ask_starter_color(legal)
        elif "give" in verbs and ("give", v) not in self._asked:
            self._asked.add(("give", v))
            self.ask_give(legal)
        elif "challenge" in verbs and ("challenge", v) not in self._asked:
            self._asked.add(("challenge", v))
            self.ask_challenge(legal)

    def _start_round_clock(self) -> None:
        """HR-BLITZ: the round ends ``blitz`` seconds after the screen first shows it."""
        limit = self.table.rules.blitz
        if limit is None:
            return
        game = self.table.game
        if self._round_end is None or self._round_end[0] is not game:
            self._round_end = (game, self.now() + limit)
        if self._clock is None:
            self._clock = self.set_interval(0.5, self._tick)

    def _round_time_up(self) -> bool:
        """HR-BLITZ: end the round if its time ran out; whether it did."""
        if self._round_end is None:
            return False
        game, at = self._round_end
        t = self.table
        if game is not t.game or t.game.is_over or self.now() < at:
            return False
        self._round_end = None
        if self._timer is not None:  # a bot about to move: the round is over first
            self._timer.stop()
            self._timer = None
            self.busy = False
        t.time_up()
        self.sync()
        return True

    def _start_clock(self) -> None:
        """HR-TIMER: a person who takes longer than ``turn_timer`` seconds times out."""
        self._start_round_clock()
        limit = self.table.rules.turn_timer
        if limit is None:
            return
        seat = self.table.waiting_person()
        key = self.table.version
        if seat is None or seat != self.viewer_seat:
            self._deadline = None
            return
        if self._deadline is None or self._deadline[0] != key:
            self._deadline = (key, self.now() + limit)
        if self._clock is None:
            self._clock = self.set_interval(0.5, self._tick)

    def _tick(self) -> None:
        if self._round_time_up():
            return
        if self._deadline is None:
            if self._round_end is not None:  # HR-BLITZ: the round's countdown
                self.render_prompt()
            return
        key, at = self._deadline
        if key != self.table.version:
            return
        if self.now() >= at:
            self._deadline = None
            seat = self.table.waiting_person()
            if seat is not None and seat == self.viewer_seat:
                self.act("timeout")
            return
        self.render_prompt()

    # -- drawing -------------------------------------------------------------------------
    def render_all(self) -> None:
        """Redraw every part of the table (nothing before the screen is mounted)."""
        if not self.is_mounted:
            return
        self.render_top()
        self.render_players()
        self.render_pile()
        self.render_log()
        self.render_scores()
        self.render_prompt()
        self.render_hand()
        self.render_buttons()
        self.call_after_refresh(self._refit_seats)

    def render_top(self) -> None:
        """The top bar (:class:`~unoarena.tui.table_parts.TopBar`)."""
        self.query_one("#topbar", TopBar).show(self.table)

    def bottom_seat(self) -> int:
        """The seat drawn at the bottom of the table: the viewer's, or seat 0 when watching."""
        seat = self.viewer_seat
        return seat if seat is not None else 0

    def render_players(self) -> None:
        """Everyone around the table: the others in play order from the viewer's left
        (card backs and counts), the viewer at the bottom."""
        t = self.table
        n = t.game.players  # fewer than the match's players once some are out (HR-ELIM)
        bottom = self.bottom_seat()
        side = self._compact_seats()
        left, top, _right = seat_sides(t.rules.players - 1)
        across = self.query_one("#felt").size.width // max(1, top) - 2  # room a seat across
        for j in range(t.rules.players - 1):
            seat = (bottom + 1 + j) % n
            slot = self.query_one(f"#slot-{j}", Static)
            if left <= j < left + top and across > 0:  # the seats across share the felt's width
                slot.styles.max_width = min(32, across)
                slot.styles.min_width = min(14, across)
            compact = side and not left <= j < left + top  # the seats across keep three rows
            slot.set_class(compact, "compact")
            slot.update(self.seat_text(seat, compact=compact) if j < n - 1 else Text(""))
        self.query_one("#me", Static).update(self.seat_text(bottom, line=True))

    def _compact_seats(self) -> bool:
        """Whether the seats at the sides must take two rows instead of three to fit beside the
        piles (many players on a short terminal)."""
        left, _top, right = seat_sides(self.table.rules.players - 1)
        mid = self.query_one("#felt-mid").size.height
        return bool(mid) and mid < 3 * max(left, right)

    def _refit_seats(self) -> None:
        """After a layout (the status line under the piles may have grown): redraw the seats if
        they no longer fit as drawn."""
        if not self.is_mounted:
            return
        left, _top, _right = seat_sides(self.table.rules.players - 1)
        if left and self.query_one("#slot-0").has_class("compact") != self._compact_seats():
            self.render_players()

    def seat_text(self, seat: int, *, line: bool = False, compact: bool = False) -> Text:
        """A seat as this screen shows it (:func:`~unoarena.tui.table_parts.seat_text`)."""
        return seat_text(self.table, seat, bottom=self.bottom_seat(), viewer=self.viewer,
                         wide=self.size.width >= 120, line=line, compact=compact)

    def render_pile(self) -> None:
        """The piles, and under them across the felt what is in force
        (:class:`~unoarena.tui.table_parts.PileView`, :func:`status_text`)."""
        self.query_one("#pile", PileView).show(self.table, self.bottom_seat())
        self.query_one("#status", Static).update(self.status_text())

    def status_text(self) -> Text:
        """The last launcher press, a pending penalty, an effect: one line each."""
        return status_text(self.table, self.bottom_seat())

    def render_log(self) -> None:
        """The new narration lines (:class:`~unoarena.tui.table_parts.LogPanel`)."""
        self.query_one(LogPanel).show(self.table, self.viewer)

    def render_scores(self) -> None:
        """The side scoreboard (:class:`~unoarena.tui.table_parts.ScoresPanel`)."""
        self.query_one(ScoresPanel).show(self.table)

    def render_prompt(self) -> None:
        """The line above the hand: :meth:`prompt_text`."""
        self.query_one("#prompt", Static).update(Text(self.prompt_text()))

    def prompt_text(self) -> str:
        """What the viewer should do now, in words: a catch or late UNO open to them or another
        person here, a jump-in, the turn's phase and pending penalty, and the time left under the
        turn timer; whose turn it is otherwise; the round's time left under HR-BLITZ."""
        t = self.table
        g = t.game
        if g.is_over:
            return _("The round is over.")
        legal = self.legal()
        verbs = {a.verb for a in legal}
        seat = self.viewer_seat
        parts: list[str] = []
        exposed = g.uno_exposed
        if exposed is not None and exposed == seat:  # the viewer forgot: never "catch them"
            if "uno" in verbs:
                parts.append(_("You forgot UNO: press u now!"))
            if self.hotseat_others("catch"):
                parts.append(_("Another person here may press c to catch you."))
        elif "catch" in verbs:
            target = next(a.target for a in legal if a.verb == "catch")
            parts.append(_("{name} forgot to call UNO: press c to catch them!").format(
                name=t.name(target)))
        elif exposed is not None and self.hotseat_others("catch"):
            parts.append(_("{name} forgot to call UNO: press c to catch them!").format(
                name=t.name(exposed)))
        if exposed is not None and exposed != seat and self.hotseat_others("uno"):
            parts.append(_("{name} may still press u to call it.").format(
                name=t.name(exposed)))
        if "jump_in" in verbs:
            parts.append(_("You can jump in: press a marked card!"))
        if seat is not None and g.turn == seat:
            phase = g.phase
            if phase == "color":
                parts.append(_("Name the colour of the first card."))
            elif phase == "give":
                parts.append(_("Choose the cards to give."))
            elif phase == "drawn":
                parts.append(_("Play the drawn card, or press p to keep it."))
            elif "challenge" in verbs:
                parts.append(_("A Wild Draw Four: press x to challenge or a to accept."))
            elif g.pending:
                pend = g.pending
                what = (_("press the launcher {n} times") if pend["kind"] == "press"
                        else _("draw {n} cards")).format(n=pend["amount"])
                parts.append(_("Answer with a marked card, or press d to {what}.").format(
                    what=what))
            else:
                draw = (_("press the launcher") if t.rules.deck.launcher else _("draw"))
                parts.append(_("Your turn: play a marked card, or press d to {draw}.").format(
                    draw=draw))
            if self.uno_armed:
                parts.append(_("UNO is ready for your next play."))
            if self._deadline is not None:
                left = max(0, int(self._deadline[1] - self.now()))
                parts.append(_("{n} s left").format(n=left))
        elif not parts:
            parts.append(_("{name} is playing…").format(name=t.name(g.turn)))
        if self._round_end is not None and self._round_end[0] is g:  # HR-BLITZ
            left = max(0, int(self._round_end[1] - self.now()))
            parts.append(_("round ends in {n} s").format(n=left))
        return "  ".join(parts)

    def hand_codes(self) -> list[str]:
        """The viewer's hand as card codes, in hand order (empty when nobody watches)."""
        seat = self.viewer_seat
        if seat is None:
            return []
        hand: list[str] = self.table.game.view(seat)["hand"]
        return hand

    def render_hand(self) -> None:
        """Draw the viewer's hand with its playable cards marked and the cursor kept inside it, in
        as many rows as the table leaves room for; hidden when nobody is in front of the screen."""
        hand = self.hand_codes()
        legal = self.legal()
        playable = {i for i, c in enumerate(hand) if any(
            a.verb in ("play", "jump_in") and c in _codes(a) for a in legal)}
        if self.cursor >= len(hand):
            self.cursor = max(0, len(hand) - 1)
        caption = (_("Your hand ({name})").format(name=self.table.player_name(self.viewer))
                   if self.viewer is not None else _("Bots only: watching"))
        rows = self._hand_rows()
        self.query_one("#hand", HandView).show(hand, playable, self.cursor,
                                               hidden=self.viewer is None, caption=caption,
                                               max_rows=rows)

    def _hand_rows(self) -> int:
        """Rows of cards the hand may take: what is left once the table has room for every
        seat and the piles (0: no limit, before the first layout)."""
        height = self.size.height
        if not height:
            return 0
        left, top, right = seat_sides(self.table.rules.players - 1)
        lines = sum(max(1, self.query_one(f"#{w}").size.height)
                    for w in ("topbar", "prompt", "buttons", "keys"))
        table = (3 if top else 0) + 1 + max(5, 3 * max(left, right))
        return max(1, (height - lines - table - 1) // CELL_H)

    def render_buttons(self) -> None:
        """Label the buttons and enable the usable ones: draw, pass, catch, challenge and accept
        show only when they can be used, and spare buttons hide on a narrow terminal (their keys
        stay in the hint line)."""
        legal = self.legal()
        verbs = {a.verb for a in legal}
        t = self.table
        launcher = t.rules.deck.launcher
        labels = {
            "draw": (_("Press launcher [d]") if launcher else _("Draw [d]"),
                     "draw" in verbs),
            "pass": (_("Keep card [p]"), "pass" in verbs),
            "uno": (_("UNO! [u]") + (" ✓" if self.uno_armed else ""),
                    self.viewer is not None and not t.rules.silent_uno),
            "catch": (_("Catch [c]"), "catch" in verbs),
            "challenge": (_("Challenge [x]"), "challenge" in verbs),
            "accept": (_("Accept [a]"), "accept" in verbs),
            "scores": (_("Scores [F2]"), True),
            "help": (_("Help [?]"), True),
            "save": (_("Save [s]"), True),
            "lang": (_("Language [l]"), True),
            "quit": (_("Quit [q]"), True),
        }
        room = self.size.width - 2
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
            if bid in _WHEN_USABLE or (bid == "uno" and t.rules.silent_uno):
                b.display = enabled  # shown only when it can be used (HR-SILENT: never UNO)
            elif bid in spare:
                b.display = False  # no room: its key is in the line below and in the help
            else:
                b.display = True
            if b.display:
                shown.add(_BUTTON_KEYS[bid])
        self.query_one("#keys", Static).update(Text(key_hint(t.rules, frozenset(shown)),
                                                    style="dim"))

    # -- input -----------------------------------------------------------------------------
    def on_key(self, event: events.Key) -> None:
        """A card key (digits, then the letters no command uses) plays that card of the hand, asking
        what still differs. While a dialog is up or on its way, keys go to it instead (see
        :meth:`route_key`): the table's own bindings never see them."""
        if self.asking or not self.is_active:
            event.stop()
            event.prevent_default()
            self.route_key(event)
            return
        ch = event.character
        if ch is not None and ch in CARD_KEYS:
            event.stop()
            i = CARD_KEYS.index(ch)
            if i < len(self.hand_codes()):
                self.cursor = i
                self.choose_card(i)

    @property
    def asking(self) -> bool:
        """Whether a flow that may open dialogs (a card being played, a question the table asks)
        is running."""
        return any(w.node is self and w.group in _FLOWS
                   and w.state in (WorkerState.PENDING, WorkerState.RUNNING)
                   for w in self.app.workers)

    def route_key(self, event: events.Key) -> None:
        """Where a key goes that arrived while the table was not the one to take it: to the dialog
        of a running flow (a Wild's key followed fast by a colour letter); kept for its next dialog
        while one is on its way; otherwise nowhere (a key pressed twice on a dialog, or meant for
        the table while something covered it)."""
        if not self.asking:
            return
        key = events.Key(event.key, event.character)
        key._set_forwarded()
        top = self.app.screen
        if isinstance(top, ChoiceDialog) and top.owner is self and not top.closed:
            (top.focused or top).post_message(key)
        elif top is self or (isinstance(top, ClosesOnce) and top.closed):
            self._keys.append(key)

    def dialog_closed(self) -> None:
        """A dialog of this table closed: clicks on the table wait a moment
        (:data:`CLICK_GUARD`)."""
        self._closed_at = time.monotonic()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """When the last running flow ends, the keys kept for a dialog that never came are
        replayed to the table (two cards played fast); after a dialog they are dropped (a key
        pressed twice)."""
        if event.worker.group not in _FLOWS or self.asking:
            return
        keys, self._keys = self._keys, []
        shown, self._flow_dialog = self._flow_dialog, False
        if not shown:
            for key in keys:
                self.post_message(key)

    async def _ask(self, dialog: ChoiceDialog) -> Any:
        """Open a dialog of a flow and wait for its answer; the keys typed while it was on its way
        go to it."""
        dialog.owner = self
        self._flow_dialog = True
        answer = self.app.push_screen(dialog, wait_for_dismiss=True)
        self._cover_if_small()
        keys, self._keys = self._keys, []
        for key in keys:
            dialog.post_message(key)
        return await answer

    def _push(self, screen: Screen[Any], callback: Callable[[Any], None] | None = None) -> None:
        """Open a screen over the table (help, scores, a summary, a hand-over) as its owner."""
        if isinstance(screen, ClosesOnce):
            screen.owner = self
        self.app.push_screen(screen, callback)
        self._cover_if_small()

    def _cover_if_small(self) -> None:
        """A screen opened while the terminal is too small goes under the message that says so."""
        fit: Callable[[], None] | None = getattr(self.app, "fit_terminal", None)
        if fit is not None:
            fit()

    def _clicks_wait(self) -> bool:
        """Whether a click on the table comes too soon after a dialog (or during a flow) to be
        meant for it."""
        return self.asking or time.monotonic() - self._closed_at < CLICK_GUARD

    def on_hand_view_picked(self, message: HandView.Picked) -> None:
        """A clicked card is played as a card key would play it."""
        if self._clicks_wait() or not self.is_active:
            return
        self.cursor = message.index
        self.choose_card(message.index)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A button does what its key does."""
        event.stop()
        if self._clicks_wait() or not self.is_active:
            return
        actions: dict[str, Callable[[], Any]] = {
            "btn-draw": self.action_draw, "btn-pass": self.action_pass_turn,
            "btn-uno": self.action_uno, "btn-catch": self.action_catch,
            "btn-challenge": self.action_challenge, "btn-accept": self.action_accept,
            "btn-help": self.action_help, "btn-scores": self.action_scores,
            "btn-save": self.action_save,
            "btn-lang": self.action_language, "btn-quit": self.action_quit_game,
        }
        fn = actions.get(event.button.id or "")
        if fn is not None:
            fn()

    def _simple(self, verb: str) -> None:
        legal = [a for a in self.legal() if a.verb == verb]
        if legal:
            self.act(legal[0])
        else:
            self.act(Action(verb))  # refused by the engine, with the reason shown

    def action_draw(self) -> None:
        """d: draw (or press the launcher), or take the pending penalty; a refusal says why."""
        self._simple("draw")

    def action_pass_turn(self) -> None:
        """p: keep the drawn card and end the turn."""
        self._simple("pass")

    def action_challenge(self) -> None:
        """x: challenge the Wild Draw Four just played (WD4-2)."""
        self._simple("challenge")

    def action_accept(self) -> None:
        """a: accept the Wild Draw Four: draw and lose the turn."""
        self._simple("accept")

    def action_uno(self) -> None:
        """A late UNO when it is open (the viewer's, or in hot-seat that of the person who
        just played and forgot); else UNO armed for the next play (UNO-4)."""
        if any(a.verb == "uno" for a in self.legal()):
            self._simple("uno")
            return
        late = self.hotseat_others("uno")
        if late and (self.viewer is None or not self._may_arm()):
            self.act(late[0][1], seat=late[0][0])
            return
        if late:
            self.ask_hotseat_uno(late[0])
            return
        if self.viewer is None or self.table.rules.silent_uno:  # HR-SILENT: nothing to arm
            return
        if not self.uno_armed and not self._may_arm():
            n = len(self.hand_codes())
            self.toast(_("Not now: UNO is called with the play that leaves you one card, and "
                         "you hold {n}.").format(n=n), severity="information")
            return
        self.uno_armed = not self.uno_armed
        self.render_all()

    def _may_arm(self) -> bool:
        """Could arming UNO matter to the viewer: may its next play leave it one card? Asked of
        the legal plays when there are some (the engine offers UNO with exactly those), else of
        the hand's size and how many cards one play may take under these rules."""
        seat = self.viewer_seat
        if seat is None:
            return False
        plays = [a for a in self.legal() if a.verb in ("play", "jump_in")]
        if plays:
            return any(a.uno for a in plays)
        r = self.table.rules
        n = len(self.table.game.hand(seat))
        most = n if r.multi_play or r.same_number_play else 3 if r.bomb \
            else 2 if r.double_play else 1
        return n - most <= 1

    def action_catch(self) -> None:
        """c: catch whoever forgot to call UNO (UNO-2); in hot-seat, for another person here who
        may; where a wrong catch costs cards (UNO-3), ask whom; otherwise say when catching is
        possible."""
        catches = [a for a in self.legal() if a.verb == "catch"]
        if catches:
            self.act(catches[0])
            return
        others = self.hotseat_others("catch")
        if len(others) == 1:
            self.act(others[0][1], seat=others[0][0])
            return
        if others:
            self.ask_hotseat_catch(others)
            return
        g = self.table.game
        if self.table.rules.false_uno_penalty and self.viewer_seat is not None:
            self.ask_false_catch()  # UNO-3: a wrong catch is possible, and costs
            return
        self.toast(_("Nobody can be caught now: the chance opens when a player is left "
                     "with one card without calling UNO, until the next player acts."))
        del g

    def action_help(self) -> None:
        """? or F1: the rules in force and every key."""
        self._push(HelpScreen(self.table.rules, len(self.table.human_players())))

    def action_rule_help(self) -> None:
        """F3: the rule behind the last refusal, else behind the card under the cursor, in the
        words of ``unoarena rules`` with its rule IDs, for the rules in force."""
        from ..coach.rulehelp import card_help, refusal_help
        rules = self.table.rules
        hand = self.hand_codes()
        if self.last_refusal:
            found = refusal_help(rules, self.last_refusal)
            self.last_refusal = ""
        elif hand:
            found = card_help(rules, hand[min(self.cursor, len(hand) - 1)])
        else:
            return
        self.show_note(_("Rule {ids}").format(ids=", ".join(found.ids)), found.text)

    def action_hint(self) -> None:
        """F4: what the expert would play now, and why (games against bots only)."""
        from ..coach.hints import action_words, hint, hints_allowed
        if not hints_allowed(len(self.table.human_players())):
            self.toast(_("Hints are only for games against bots."))
            return
        seat = self.viewer_seat
        if seat is None or not self.legal() or self.table.game.is_over:
            self.toast(_("Nothing to decide now."))
            return
        h = hint(self.table.game, seat)
        self.show_note(_("The expert would {action}").format(action=action_words(h.action)),
                       h.reason)

    def show_note(self, title: str, text: str) -> None:
        """A short explanation in a dialog that stays until closed (Esc or Enter)."""
        self.last_toast = text
        self._push(ChoiceDialog("note", title, [Option(None, _("OK"), "o")], cancel=False,
                                note=text))

    def action_scores(self) -> None:
        """F2: every round's scores."""
        self._push(ScoresScreen(self.table))

    def action_save(self) -> None:
        """s: save the match to resume later, and say where."""
        try:
            path = saves.save_table(self.table)
        except OSError as e:
            self.toast(_("Could not save: {error}").format(error=e), severity="error")
            return
        self.toast(_("Saved to {path}").format(path=path), severity="information")

    def action_quit_game(self) -> None:
        """q: quit the program; an unfinished match is saved to the autosave file first."""
        self.app.saved_on_quit = self.save_for_quit()  # type: ignore[attr-defined]
        self.app.exit(0)

    def save_for_quit(self) -> str:
        """Save an unfinished match to the autosave file; where it went ("" when the match is over
        or the file cannot be written). A round that is over but not yet scored (its summary on
        screen) is scored first, as going on from the summary would: a match record holds whole
        rounds, and one saved in between would not replay."""
        t = self.table
        if t.game.is_over and not t.match.is_over:
            t.finish_round()
            if t.match.is_over:  # that round ended the match: its record, no save
                with contextlib.suppress(OSError):
                    saves.save_record(t)
                saves.forget_match(t)
        if t.match.is_over:
            return ""
        try:
            return str(saves.autosave(t))
        except OSError:
            return ""

    def action_language(self) -> None:
        """l: switch to the next supported language and redraw everything in it, log included."""
        from ..text.i18n import SUPPORTED, language, set_language
        langs = list(SUPPORTED)
        set_language(langs[(langs.index(language()) + 1) % len(langs)])
        self.query_one(LogPanel).rebuild()
        self.render_all()

    def action_cursor(self, step: int) -> None:
        """Left and right move the card cursor through the hand, wrapping around."""
        n = len(self.hand_codes())
        if n:
            self.cursor = (self.cursor + step) % n
            self.render_hand()

    def action_play_cursor(self) -> None:
        """Enter plays the card under the cursor."""
        if self.cursor < len(self.hand_codes()):
            self.choose_card(self.cursor)

    # -- choosing a play -----------------------------------------------------------------
    @work(exclusive=True, group="choose")
    async def choose_card(self, index: int) -> None:
        """Turn a card of the hand into one of the legal plays that use it: the questions come
        from :func:`unoarena.play_choice.card_choices`, as the browser's do."""
        hand = self.hand_codes()
        if index >= len(hand):
            return
        code = hand[index]
        node = card_choices(self.legal(), code)
        if node is None:
            self._refuse(code)
            return
        while "ask" in node:
            values = [o["value"] for o in node["options"]]
            pick = await self._answer(node, values, code)
            if pick is None:
                return
            node = next(o["then"] for o in node["options"] if o["value"] == pick)
        self.act(Action.parse(with_uno(node, self.uno_armed)))

    def _combo_label(self, verb: str, codes: list[str]) -> str:
        cards = " + ".join(codes)
        words = " + ".join(card_text(c) for c in codes)
        if verb == "jump_in":
            return _("jump in with {cards} ({words})").format(cards=cards, words=words)
        if len(codes) > 1:
            return _("{cards} ({words}), {last} on top").format(
                cards=cards, words=words, last=codes[-1])
        return _("{cards} ({words})").format(cards=cards, words=words)

    async def _answer(self, node: Node, values: list[Any], code: str) -> Any:
        """Ask one question of a card's plays (which cards, power, colour, target) in this
        screen's dialogs; None when the player cancels."""
        step = node["ask"]
        if step == "cards":
            opts = []
            for i, v in enumerate(values):
                verb, cards = str(v).split(" ", 1)
                opts.append(Option(v, self._combo_label(verb, cards.split("+")),
                                   CARD_KEYS[i] if i < 10 else ""))
            return await self._ask(ChoiceDialog(
                "cards", _("How do you play {card}?").format(card=card_text(code)), opts))
        if step == "power":
            names = {"": _("name a colour"), "color": _("name a colour"),
                     "look": _("look at a player's hand"),
                     "swap": _("swap 3 cards with a player")}
            keys = {"": "c", "color": "c", "look": "k", "swap": "w"}
            return await self._ask(ChoiceDialog(
                "power", _("Wild power: what does your Wild do?"),
                [Option(p, names[p], keys[p]) for p in values]))
        if step == "color":
            return await self._ask(self._color_dialog(values, _("Choose the colour")))
        sizes = self.table.game.hand_sizes()
        opts = [Option(s, _("{name} ({n} cards)").format(name=self.table.name(s), n=sizes[s]),
                       str(i + 1) if i < 9 else "") for i, s in enumerate(values)]
        return await self._ask(ChoiceDialog("target", target_question(first_action(node)), opts))

    def _color_dialog(self, codes: list[str], title: str, cancel: bool = True) -> ChoiceDialog:
        """The colours to name, with the hand they are chosen for in view."""
        opts = [Option(c, color_text(c), _COLOR_KEYS.get(c, ""), face_style(c).split(" on ")[-1])
                for c in codes]
        return ChoiceDialog("color", title, opts, cancel=cancel, hand=self.hand_codes())

    def _refuse(self, code: str) -> None:
        """Why a card cannot be played: asked of the engine on a copy (or, under the misplay
        penalty rule, the misplay itself, since that is the rule)."""
        t = self.table
        seat = self.viewer_seat
        if seat is None:
            return
        action = Action.parse(f"play {code}" + (" color=" + COLOR_CODES[
            t.rules.deck.colors[0]] if code.startswith("W") else ""))
        if t.rules.misplay == "penalty" and t.game.turn == seat:
            self.act(action)
            return
        copy = t.game.clone()
        try:
            copy.apply(action, seat)
        except IllegalAction as e:
            self.last_refusal = e.code
            self.toast(illegal_text(e, t))
        else:
            self.toast(_("{card} cannot be played now.").format(card=card_text(code)))

    @work(exclusive=True, group="ask")
    async def ask_starter_color(self, legal: list[Action]) -> None:
        """Ask the viewer to name the colour of a wild first card (START-4); there is no cancelling
        it."""
        codes = [COLOR_CODES[a.color] for a in legal if a.verb == "color"]
        pick = await self._ask(self._color_dialog(
            codes, _("Name the colour of the first card"), cancel=False))
        if pick is not None:
            self.act(f"color {pick}")

    @work(exclusive=True, group="ask")
    async def ask_give(self, legal: list[Action]) -> None:
        """Ask for a card to give in a wild-power swap (HR-WILDPOWER), naming the target and how
        many are left to give; it cannot be cancelled."""
        gives = [a for a in legal if a.verb == "give"]
        g = self.table.game
        left = g.view(self.viewer_seat or 0).get("give_left", 1)
        target = next((e.get("target") for e in reversed(g.events)
                       if e.get("t") == "swap_start"), None)
        name = self.table.name(target) if isinstance(target, int) else "?"
        opts = [Option(c, _("{cards} ({words})").format(cards=c, words=card_text(c)),
                       CARD_KEYS[i] if i < len(CARD_KEYS) else "")
                for i, c in enumerate(_codes(a)[0] for a in gives)]
        pick = await self._ask(ChoiceDialog(
            "give", _("Give a card to {name} ({n} more)").format(name=name, n=left), opts,
            cancel=False))
        if pick is not None:
            self.act(f"give {pick}")

    @work(exclusive=True, group="ask")
    async def ask_challenge(self, legal: list[Action]) -> None:
        """A Wild Draw Four was played on the viewer: challenge or accept, shown with the colour it
        was played on and the viewer's hand (WD4-2). Escape answers with a card instead, when a
        stacking answer is legal."""
        g = self.table.game
        who = next((e.get("seat") for e in reversed(g.events) if e.get("t") == "play"), None)
        name = self.table.name(who) if isinstance(who, int) else "?"
        can_play = any(a.verb == "play" for a in legal)
        pend = g.pending or {"amount": 4}
        opts = [Option("challenge", _("Challenge: if {name} bluffed, they draw {n}; if "
                                      "not, you draw {m}").format(name=name, n=pend["amount"],
                                                                  m=pend["amount"] + 2), "x"),
                Option("accept", _("Accept: draw {n} and lose the turn").format(
                    n=pend["amount"]), "a")]
        note = Text()
        pile = g.discard_pile
        before = color_before_w4(g.events, _codes_of(tuple(pile[-2:-1]))[0]
                                 if len(pile) > 1 else None)
        if before is not None:
            color, top = before
            note.append(_("Colour in force before it:") + " ")
            note.append("■ " + color_text(color), style=INK.get(color, "bold"))
            if top:
                note.append(_(" (on {card})").format(card=card_text(top)))
            note.append("\n" + _("A bluff if {name} held a {color} card.").format(
                name=name, color=color_text(color)))
        if can_play:
            note.append("\n" + _("Esc: answer with a card instead"))
        pick = await self._ask(ChoiceDialog(
            "challenge", _("{name} played a Wild Draw Four on you").format(name=name), opts,
            cancel=can_play, note=note, hand=self.hand_codes()))
        if pick is not None:
            self.act(pick)

    def hotseat_others(self, verb: str) -> list[tuple[int, Action]]:
        """The other people at this terminal who may ``catch`` now, or call their forgotten
        ``uno`` late, with that action: at a real table anyone may call out a forgotten UNO,
        and the one who forgot may still shout it, not only whoever holds the cards (here,
        the screen). Empty outside hot-seat."""
        t = self.table
        mine = self.viewer_seat
        out: list[tuple[int, Action]] = []
        for p in t.human_players():
            s = t.seat_of(p)
            if s != mine:
                c = next((a for a in t.legal(s) if a.verb == verb), None)
                if c is not None:
                    out.append((s, c))
        return out

    @work(exclusive=True, group="ask")
    async def ask_hotseat_uno(self, late: tuple[int, Action]) -> None:
        """``u`` pressed while both mean something: the late UNO of the person who forgot,
        or UNO armed for the viewer's own next play."""
        t = self.table
        seat, action = late
        opts = [Option("late", _("{name} calls UNO now").format(name=t.name(seat)), "1"),
                Option("arm", _("UNO with my next card"), "2")]
        pick = await self._ask(ChoiceDialog("uno", _("Who calls UNO?"), opts))
        if pick == "late":
            self.act(action, seat=seat)
        elif pick == "arm":
            self.uno_armed = not self.uno_armed
            self.render_all()

    @work(exclusive=True, group="ask")
    async def ask_hotseat_catch(self, catchers: list[tuple[int, Action]]) -> None:
        """Several people here may catch the same forgotten UNO: ask which of them calls it."""
        t = self.table
        opts = [Option(s, t.name(s), str(i + 1)) for i, (s, _a) in enumerate(catchers)]
        pick = await self._ask(ChoiceDialog(
            "catch", _("Who calls it?"), opts))
        for s, a in catchers:
            if s == pick:
                self.act(a, seat=s)

    @work(exclusive=True, group="ask")
    async def ask_false_catch(self) -> None:
        """With a false-catch penalty (UNO-3), ``c`` with nobody to catch asks whom to call out; a
        wrong call costs the viewer cards."""
        t = self.table
        seat = self.viewer_seat
        opts = [Option(s, t.name(s), str(i + 1)) for i, s in
                enumerate(x for x in range(t.game.players) if x != seat)]
        pick = await self._ask(ChoiceDialog(
            "catch", _("Catch whom? A wrong catch costs you {n} cards.").format(
                n=t.rules.false_uno_penalty), opts))
        if pick is not None:
            self.act(f"catch {pick}")


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


def _codes(a: Action) -> list[str]:
    return _codes_of(a.cards)


def _codes_of(cards: tuple[int, ...]) -> list[str]:
    from ..engine import CODES
    return [CODES[k] for k in cards]
