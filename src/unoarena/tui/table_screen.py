"""The card table: it lays out the parts of the table, drives the match (bots play up to a
person's decision), opens what the situation asks of a person, and turns keys, clicks and the
parts' messages into actions.

The parts draw themselves from the :class:`~unoarena.tui.session.Table`: above the hand
:mod:`~unoarena.tui.table_parts` (top bar, seats, piles, log, scores), below it
:mod:`~unoarena.tui.table_controls` (prompt, hand, buttons, key hint), and
:mod:`~unoarena.tui.table_clock` keeps the timers. The screen never decides what is legal: it
asks the engine for the viewer's legal actions and turns a chosen card into one of those
actions, asking only for what still differs between them (cards to combine, power, colour,
target: :mod:`~unoarena.tui.table_questions`).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.timer import Timer

from ..engine import COLOR_CODES, Action, IllegalAction
from ..play_choice import card_choices, with_uno
from ..text.i18n import _
from ..text.rules import card_text
from . import saves
from .cards import CARD_KEYS, HandView
from .dialogs import (
    ChoiceDialog,
    HandoverScreen,
    HelpScreen,
    MatchResultScreen,
    Option,
    RoundSummaryScreen,
    ScoresScreen,
)
from .flows import FlowScreen
from .session import Decision, Table, illegal_text
from .table_clock import TableClock
from .table_controls import (
    ActionBar,
    KeyHint,
    PromptLine,
    TableHand,
    hand_codes,
    hand_rows,
    may_arm,
    turn_prompt,
)
from .table_controls import ActionButton as ActionButton  # where the tests look for it
from .table_controls import hotseat_others as _others
from .table_parts import (
    Felt,
    LogPanel,
    ScoresPanel,
    TopBar,
    seat_text,
    status_text,
)
from .table_questions import (
    catcher_question,
    challenge_question,
    false_catch_question,
    give_question,
    hotseat_uno_question,
    play_question,
    starter_color_question,
)


class TableScreen(FlowScreen):
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
        self.hand = TableHand(id="hand")  # holds the card cursor
        self.clock = TableClock()  # HR-TIMER and HR-BLITZ
        self.last_toast = ""  # the message shown last (one at a time)
        self._timer: Timer | None = None  # a bot's move on its way
        self._asked: set[tuple[str, int]] = set()  # (dialog, version) already shown
        self._summary_for = -1
        self.busy = False  # a bot move is scheduled
        self._covered = False  # a hand-over or summary screen pushed by sync() is up
        self.last_refusal = ""  # the code of the viewer's last refused action (F3 explains it)

    # ------------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        """The layout: the top bar; the felt with the other seats around the piles and the viewer's
        seat below; the log and scores at the side; then the prompt, the hand, the action buttons
        and the key hint."""
        yield TopBar(id="topbar")
        with Horizontal(id="main"):
            yield Felt(self.table.rules.players, id="felt")
            with Vertical(id="side"):
                yield LogPanel(id="log-panel")
                yield ScoresPanel(id="scores-box")
        yield PromptLine(id="prompt")
        yield self.hand
        yield ActionBar(id="buttons")
        yield KeyHint(id="keys")
        yield self.clock

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

    def hand_codes(self) -> list[str]:
        """The viewer's hand as card codes, in hand order (empty when nobody watches)."""
        return hand_codes(self.table, self.viewer_seat)

    @property
    def cursor(self) -> int:
        """The card under the hand's cursor (:class:`~unoarena.tui.table_controls.TableHand`)."""
        return self.hand.cursor

    @cursor.setter
    def cursor(self, index: int) -> None:
        self.hand.cursor = index

    @property
    def now(self) -> Callable[[], float]:
        """The clock the timers read (:class:`~unoarena.tui.table_clock.TableClock`)."""
        return self.clock.now

    @now.setter
    def now(self, clock: Callable[[], float]) -> None:
        self.clock.now = clock

    @property
    def _round_end(self) -> tuple[object, float] | None:
        """HR-BLITZ: the round and when it ends, as the clock keeps them."""
        return self.clock.round_end

    def _tick(self) -> None:
        """Check the clock's deadlines now (it does twice a second)."""
        self.clock.tick()

    # -- running the game ----------------------------------------------------------------
    def advance(self) -> None:
        """Let bots act (at once, or after their delay) until a person must act."""
        self._stop_bot()
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

    def _stop_bot(self) -> None:
        """Cancel the bot move on its way, if any."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.busy = False

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

    # -- the clock -----------------------------------------------------------------------
    def on_table_clock_ticked(self, _message: TableClock.Ticked) -> None:
        """The time left changed: the prompt shows it."""
        self.render_prompt()

    def on_table_clock_turn_timed_out(self, message: TableClock.TurnTimedOut) -> None:
        """HR-TIMER: the viewer took too long over this decision: it times out."""
        seat = self.table.waiting_person()
        if message.version == self.table.version and seat is not None \
                and seat == self.viewer_seat:
            self.act("timeout")

    def on_table_clock_round_time_up(self, message: TableClock.RoundTimeUp) -> None:
        """HR-BLITZ: the round's time ran out: it ends now, before any bot about to move."""
        t = self.table
        if message.game is t.game and not t.game.is_over:
            self._stop_bot()
            t.time_up()
            self.sync()

    # -- what the person sees and must answer --------------------------------------------
    def sync(self) -> None:
        """Draw everything, then open whatever the situation asks of a person."""
        self.render_all()
        if not self.is_active or self._covered:
            return
        t = self.table
        if t.game.is_over:
            if self._summary_for != t.round_no:
                self._summary_for = t.round_no
                self._stop_bot()
                self._covered = True
                self._push(RoundSummaryScreen(t, t.round_ends_match()), self._after_summary)
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
        self.clock.start(t, self.viewer_seat)
        self._auto_dialogs()

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
                    saves.close_match(t)
            self.action_quit_game()
            return
        self.cursor = 0
        self.uno_armed = False
        if t.match.is_over:
            path = ""
            try:
                path = str(saves.close_match(t))
            except OSError as e:
                self.toast(_("Could not save the record: {error}").format(error=e),
                            severity="error")
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
        challenge: asked as soon as they are the viewer's to answer (none can be cancelled but
        the last, which a card may answer instead)."""
        legal = self.legal()
        if not legal:
            return
        verbs = {a.verb for a in legal}
        v = self.table.version
        if "color" in verbs and ("color", v) not in self._asked:
            self._asked.add(("color", v))
            self.ask(starter_color_question(legal, self.hand_codes()),
                     lambda pick: self.act(f"color {pick}"))
        elif "give" in verbs and ("give", v) not in self._asked:
            self._asked.add(("give", v))
            self.ask(give_question(self.table, legal, self.viewer_seat or 0),
                     lambda pick: self.act(f"give {pick}"))
        elif "challenge" in verbs and ("challenge", v) not in self._asked:
            self._asked.add(("challenge", v))
            self.ask(challenge_question(self.table, legal, self.hand_codes()), self.act)

    # -- drawing -------------------------------------------------------------------------
    def render_all(self) -> None:
        """Redraw every part of the table (nothing before the screen is mounted)."""
        if not self.is_mounted:
            return
        self.render_top()
        self.query_one(Felt).show(self.table, self.bottom_seat(), self.viewer,
                                  wide=self.size.width >= 120)
        self.query_one(LogPanel).show(self.table, self.viewer)
        self.query_one(ScoresPanel).show(self.table)
        self.render_prompt()
        self.render_hand()
        self.render_buttons()

    def render_top(self) -> None:
        """The top bar (:class:`~unoarena.tui.table_parts.TopBar`)."""
        self.query_one("#topbar", TopBar).show(self.table)

    def bottom_seat(self) -> int:
        """The seat drawn at the bottom of the table: the viewer's, or seat 0 when watching."""
        seat = self.viewer_seat
        return seat if seat is not None else 0

    def seat_text(self, seat: int, *, line: bool = False, compact: bool = False) -> Text:
        """A seat as this screen shows it (:func:`~unoarena.tui.table_parts.seat_text`)."""
        return seat_text(self.table, seat, bottom=self.bottom_seat(), viewer=self.viewer,
                         wide=self.size.width >= 120, line=line, compact=compact)

    def status_text(self) -> Text:
        """The last launcher press, a pending penalty, an effect: one line each."""
        return status_text(self.table, self.bottom_seat())

    def render_prompt(self) -> None:
        """The line above the hand: :meth:`prompt_text`."""
        self.query_one("#prompt", PromptLine).show(self.prompt_text())

    def prompt_text(self) -> str:
        """What the viewer should do now (:func:`~unoarena.tui.table_controls.turn_prompt`)."""
        return turn_prompt(self.table, self.viewer_seat, self.legal(), uno_armed=self.uno_armed,
                           turn_left=self.clock.turn_left(),
                           round_left=self.clock.round_left(self.table.game))

    def render_hand(self) -> None:
        """The viewer's hand, in as many rows as the table leaves room for."""
        lines = sum(max(1, self.query_one(f"#{w}").size.height)
                    for w in ("topbar", "prompt", "buttons", "keys"))
        self.hand.show_table(self.table, self.viewer, self.viewer_seat, self.legal(),
                             hand_rows(self.size.height, self.table.rules.players, lines))

    def render_buttons(self) -> None:
        """The action buttons, and the key hint for the keys whose button is not in view."""
        shown = self.query_one("#buttons", ActionBar).show(
            self.table, self.legal(), watched=self.viewer is not None, uno_armed=self.uno_armed,
            room=self.size.width - 2)
        self.query_one("#keys", KeyHint).show(self.table.rules, shown)

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

    def on_hand_view_picked(self, message: HandView.Picked) -> None:
        """A clicked card is played as a card key would play it."""
        if self._clicks_wait() or not self.is_active:
            return
        self.cursor = message.index
        self.choose_card(message.index)

    def on_action_bar_chosen(self, message: ActionBar.Chosen) -> None:
        """A button does what its key does."""
        if self._clicks_wait() or not self.is_active:
            return
        actions: dict[str, Callable[[], Any]] = {
            "draw": self.action_draw, "pass": self.action_pass_turn, "uno": self.action_uno,
            "catch": self.action_catch, "challenge": self.action_challenge,
            "accept": self.action_accept, "help": self.action_help,
            "scores": self.action_scores, "save": self.action_save,
            "lang": self.action_language, "quit": self.action_quit_game,
        }
        fn = actions.get(message.command)
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
        late = _others(self.table, self.viewer_seat, "uno")
        seat = self.viewer_seat
        if late and (self.viewer is None or not may_arm(self.table, seat, self.legal())):
            self.act(late[0][1], seat=late[0][0])
            return
        if late:
            who, action = late[0]
            self.ask(hotseat_uno_question(self.table, who),
                     lambda pick: self.act(action, seat=who) if pick == "late"
                     else self.toggle_uno())
            return
        if self.viewer is None or self.table.rules.silent_uno:  # HR-SILENT: nothing to arm
            return
        if not self.uno_armed and not may_arm(self.table, seat, self.legal()):
            n = len(self.hand_codes())
            self.toast(_("Not now: UNO is called with the play that leaves you one card, and "
                         "you hold {n}.").format(n=n), severity="information")
            return
        self.toggle_uno()

    def toggle_uno(self) -> None:
        """Arm UNO for the viewer's next play, or disarm it."""
        self.uno_armed = not self.uno_armed
        self.render_all()

    def action_catch(self) -> None:
        """c: catch whoever forgot to call UNO (UNO-2); in hot-seat, for another person here who
        may; where a wrong catch costs cards (UNO-3), ask whom; otherwise say when catching is
        possible."""
        catches = [a for a in self.legal() if a.verb == "catch"]
        if catches:
            self.act(catches[0])
            return
        others = dict(_others(self.table, self.viewer_seat, "catch"))
        if len(others) == 1:
            (seat, action), = others.items()
            self.act(action, seat=seat)
        elif others:
            self.ask(catcher_question(self.table, list(others)),
                     lambda pick: self.act(others[pick], seat=pick))
        elif self.table.rules.false_uno_penalty and self.viewer_seat is not None:
            self.ask(false_catch_question(self.table, self.viewer_seat),  # UNO-3: it costs
                     lambda pick: self.act(f"catch {pick}"))
        else:
            self.toast(_("Nobody can be caught now: the chance opens when a player is left "
                         "with one card without calling UNO, until the next player acts."))

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
        """Save an unfinished match to the autosave file
        (:func:`~unoarena.tui.saves.save_for_quit`); where it went, "" when nowhere."""
        return saves.save_for_quit(self.table)

    def action_language(self) -> None:
        """l: switch to the next supported language and redraw everything in it, log included."""
        from ..text.i18n import SUPPORTED, language, set_language
        langs = list(SUPPORTED)
        set_language(langs[(langs.index(language()) + 1) % len(langs)])
        self.query_one(LogPanel).rebuild()
        self.render_all()

    def action_cursor(self, step: int) -> None:
        """Left and right move the card cursor through the hand, wrapping around."""
        self.hand.move(step)

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
            pick = await self._ask(play_question(self.table, node, values, code,
                                                 self.hand_codes()))
            if pick is None:
                return
            node = next(o["then"] for o in node["options"] if o["value"] == pick)
        self.act(Action.parse(with_uno(node, self.uno_armed)))

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
