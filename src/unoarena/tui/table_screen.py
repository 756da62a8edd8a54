"""The card table: hands, piles, players, the narrated log, and every action by key or mouse.

The screen never decides what is legal: it asks the engine for the viewer's legal actions,
marks the cards that take part in them, and turns a chosen card into one of those actions,
asking only for what still differs between them (cards to combine, power, colour, target).
"""

from __future__ import annotations

import contextlib
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
from textual.widgets import Button, RichLog, Static

from ..engine import COLOR_CODES, Action, IllegalAction
from ..i18n import _
from ..narrate import why_text
from ..rules_text import card_text, color_text
from . import saves
from .cards import CARD_KEYS, INK, HandView, big_card, face_style
from .dialogs import (
    ChoiceDialog,
    HandoverScreen,
    HelpScreen,
    MatchResultScreen,
    Option,
    RoundSummaryScreen,
    scoreboard_table,
)
from .session import Decision, Table, illegal_text

_COLOR_KEYS = {"R": "r", "Y": "y", "G": "g", "B": "b", "P": "p"}


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
    #players { height: auto; padding: 0 1; }
    #middle { height: 1fr; min-height: 6; }
    #middle > * { height: 100%; }
    #side { width: 34; border-right: solid $primary; }
    #pile { height: auto; padding: 0 1; }
    #scores { height: auto; padding: 0 1; margin-top: 1; }
    #log { width: 1fr; padding: 0 1; background: transparent; }
    #prompt { height: auto; padding: 0 1; background: $boost; text-style: bold; }
    #hand { padding: 0 1; }
    #buttons { height: 1; padding: 0 1; }
    #buttons ActionButton { height: 1; min-width: 0; width: auto; border: none;
        margin: 0 1 0 0; padding: 0; }
    #keys { height: 1; padding: 0 1; color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "draw", show=False), Binding("p", "pass_turn", show=False),
        Binding("u", "uno", show=False), Binding("c", "catch", show=False),
        Binding("x", "challenge", show=False), Binding("a", "accept", show=False),
        Binding("question_mark", "help", show=False), Binding("f1", "help", show=False),
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
        self.message = ""
        self._timer: Timer | None = None
        self._clock: Timer | None = None
        self._deadline: tuple[int, float] | None = None
        self._asked: set[tuple[str, int]] = set()  # (dialog, version) already shown
        self._summary_for = -1
        self._log_shown = 0
        self._log_key: tuple[Any, ...] = ()
        self.busy = False  # a bot move is scheduled
        self._covered = False  # a hand-over or summary screen pushed by sync() is up

    # ------------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="topbar")
        yield Static(id="players")
        with Horizontal(id="middle"):
            with Vertical(id="side"):
                yield Static(id="pile")
                yield Static(id="scores")
            log = RichLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=10)
            log.can_focus = False
            yield log
        yield Static(id="prompt")
        yield HandView(id="hand")
        with Horizontal(id="buttons"):
            for bid in ("draw", "pass", "uno", "catch", "challenge", "accept", "help", "save",
                        "lang", "quit"):
                yield ActionButton("", id=f"btn-{bid}")
        yield Static(id="keys")

    def on_mount(self) -> None:
        self.advance()

    def on_screen_resume(self) -> None:
        self.sync()

    # -- the viewer ----------------------------------------------------------------------
    @property
    def viewer_seat(self) -> int | None:
        return self.table.seat_of(self.viewer) if self.viewer is not None else None

    def legal(self) -> list[Action]:
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
            self.message = illegal_text(e)
            self.notify(self.message, severity="warning")
            self.sync()
            return False
        verb = action.verb if isinstance(action, Action) else str(action).split()[0]
        if verb in ("play", "jump_in"):
            self.uno_armed = False
        self.message = ""
        self.advance()
        return True

    # -- what the person sees and must answer --------------------------------------------
    def sync(self) -> None:
        """Draw everything, then open whatever the situation asks of a person."""
        self.render_all()
        if not self.is_current or self._covered:
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
                self.app.push_screen(RoundSummaryScreen(t, self._last_round()),
                                     lambda _r: self._after_summary())
            return
        seat = t.waiting_person()
        if seat is not None:
            player = t.player_at(seat)
            if player != self.viewer:
                if len(t.human_players()) > 1:
                    self._covered = True
                    self.app.push_screen(HandoverScreen(t.player_name(player)),
                                         lambda _r, p=player: self._handed_over(p))
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
            scores = [out.scores[m.seat_of[p]] for p in range(rules.players)]
        from ..engine import Outcome
        per = Outcome(out.winner, out.reason, out.hand_points, tuple(scores))
        return settle(rules, m.scores, per, m.rounds_played + 1)[1]

    def _handed_over(self, player: int) -> None:
        self._covered = False
        self.viewer = player
        self.cursor = 0
        self.uno_armed = False
        self._log_key = ()
        self.sync()

    def _after_summary(self) -> None:
        self._covered = False
        t = self.table
        t.finish_round()
        self.cursor = 0
        self.uno_armed = False
        if t.match.is_over:
            path = ""
            try:
                path = str(saves.save_record(t))
            except OSError as e:
                self.notify(_("Could not save the record: {error}").format(error=e),
                            severity="error")
            self.app.push_screen(MatchResultScreen(t, path), self._after_match)
            return
        self._log_key = ()
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

    def _start_clock(self) -> None:
        """HR-TIMER: a person who takes longer than ``turn_timer`` seconds times out."""
        limit = self.table.rules.turn_timer
        if limit is None:
            return
        seat = self.table.waiting_person()
        key = self.table.version
        if seat is None or seat != self.viewer_seat:
            self._deadline = None
            return
        if self._deadline is None or self._deadline[0] != key:
            self._deadline = (key, time.monotonic() + limit)
        if self._clock is None:
            self._clock = self.set_interval(0.5, self._tick)

    def _tick(self) -> None:
        if self._deadline is None:
            return
        key, at = self._deadline
        if key != self.table.version:
            return
        if time.monotonic() >= at:
            self._deadline = None
            seat = self.table.waiting_person()
            if seat is not None and seat == self.viewer_seat:
                self.act("timeout")
            return
        self.render_prompt()

    # -- drawing -------------------------------------------------------------------------
    def render_all(self) -> None:
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

    def render_top(self) -> None:
        r = self.table.rules
        goal = (_("{n} rounds").format(n=r.rounds) if r.rounds is not None
                else _("target {n}").format(n=r.target_score))
        over = [f"{k}={v}" for k, v in r.overrides().items()
                if k not in ("players", "target_score", "rounds")]
        extra = (" · " + " ".join(over)) if over else ""
        self.query_one("#topbar", Static).update(Text(
            _("UNO Arena — {preset} · round {n} · {goal}").format(
                preset=r.preset, n=self.table.round_no, goal=goal) + extra))

    def render_players(self) -> None:
        t = self.table
        g = t.game
        v = g.view(self.viewer_seat if self.viewer_seat is not None else 0)
        text = Text()
        for seat in range(t.rules.players):
            turn = seat == g.turn and not g.is_over
            text.append("▶ " if turn else "  ", style="bold #76ff03")
            player = t.player_at(seat)
            name = t.name(seat)
            style = "bold reverse" if turn else "bold"
            text.append(name, style=style)
            if player == self.viewer:
                text.append(" " + _("(you)"), style="italic")
            pl = t.players[player]
            kind = _("bot {name}").format(name=pl.bot) if pl.is_bot else _("person")
            text.append(f" [{kind}]", style="dim")
            if t.rules.teams:
                text.append(" " + _("team {n}").format(n=t.rules.team_of(seat) + 1),
                            style="cyan")
            n = v["hand_sizes"][seat]
            text.append("  " + _("{n} cards").format(n=n) if n != 1 else "  " + _("1 card"))
            if v["uno_exposed"] == seat:
                text.append("  " + _("forgot UNO! (c to catch)"), style="bold #ff5252")
            elif v["uno_declared"][seat] and n == 1:
                text.append("  UNO!", style="bold #ffd740")
            if seat == g.dealer:
                text.append("  " + _("(dealer)"), style="dim")
            if seat < t.rules.players - 1:
                text.append("\n")
        self.query_one("#players", Static).update(text)

    def render_pile(self) -> None:
        t = self.table
        g = t.game
        v = g.view(self.viewer_seat if self.viewer_seat is not None else 0)
        text = Text()
        text.append(_("Discard pile") + "\n", style="bold")
        text.append_text(big_card(v["top"], v["color"]))
        text.append("\n")
        color = v["color"]
        if color:
            text.append(_("Colour: "))
            text.append("■ " + color_text(color), style=INK.get(color, "bold"))
            text.append("\n")
        arrow = "↻" if v["direction"] == "cw" else "↺"
        text.append(_("Direction: {arrow} {dir}").format(
            arrow=arrow, dir=_("clockwise") if v["direction"] == "cw"
            else _("counter-clockwise")) + "\n")
        if t.rules.deck.launcher:
            text.append(_("Launcher: {n} cards inside").format(n=v["draw_pile_size"]) + "\n")
            last = self._last_press()
            if last:
                text.append(last + "\n", style="#ffd740")
        else:
            text.append(_("Draw pile: {n} cards").format(n=v["draw_pile_size"]) + "\n")
        pend = v["pending"]
        if pend:
            if pend["kind"] == "press":
                msg = _("Pending: {name} must press the launcher {n} times ({why})")
            else:
                msg = _("Pending: {name} must draw {n} cards ({why})")
            text.append(msg.format(name=t.name(pend["target"]), n=pend["amount"],
                                   why=why_text(pend["source"])) + "\n", style="bold #ff5252")
        eff = v["effect"]
        if eff:
            c = eff["color"]
            if eff["kind"] == "hyperspeed":
                text.append(_("Hyperspeed on {color}: {color} cards skip one more").format(
                    color=color_text(c)) + "\n", style=INK.get(c, "bold"))
            else:
                text.append(_("Forces of Nature: only {color} until {name}'s turn").format(
                    color=color_text(c), name=t.name(eff["owner"])) + "\n",
                            style=INK.get(c, "bold"))
        self.query_one("#pile", Static).update(text)

    def _last_press(self) -> str:
        for e in reversed(self.table.game.events):
            if e.get("t") == "press":
                return _("Last press: {name}, {n} cards").format(
                    name=self.table.name(e["seat"]), n=e.get("count", 0))
            if e.get("t") in ("play", "deal"):
                break
        return ""

    def render_log(self) -> None:
        from ..i18n import language
        log = self.query_one("#log", RichLog)
        key = (self.viewer, language(), id(self.table.log[0]) if self.table.log else 0)
        entries = self.table.log
        if key != self._log_key or self._log_shown > len(entries):
            log.clear()
            self._log_key = key
            self._log_shown = max(0, len(entries) - 200)
        for entry in entries[self._log_shown:]:
            for line in entry.render(self.viewer):
                log.write(Text(line, style="bold" if entry.header else ""))
        self._log_shown = len(entries)

    def render_scores(self) -> None:
        from rich.console import Group
        head = Text(_("Scores") + "\n", style="bold")
        head.append(_("lowest total wins") if self.table.rules.scoring == "penalty"
                    else _("highest total wins"), style="dim")
        self.query_one("#scores", Static).update(Group(head, scoreboard_table(self.table)))

    def render_prompt(self) -> None:
        self.query_one("#prompt", Static).update(Text(self.prompt_text()))

    def prompt_text(self) -> str:
        t = self.table
        g = t.game
        if g.is_over:
            return _("The round is over.")
        if self.message:
            return self.message
        legal = self.legal()
        verbs = {a.verb for a in legal}
        seat = self.viewer_seat
        parts: list[str] = []
        if "catch" in verbs:
            target = next(a.target for a in legal if a.verb == "catch")
            parts.append(_("{name} forgot to call UNO: press c to catch them!").format(
                name=t.name(target)))
        elif g.uno_exposed is not None and self.hotseat_others("catch"):
            parts.append(_("{name} forgot to call UNO: press c to catch them!").format(
                name=t.name(g.uno_exposed)))
        if g.uno_exposed is not None and self.hotseat_others("uno"):
            parts.append(_("{name} may still press u to call it.").format(
                name=t.name(g.uno_exposed)))
        if "uno" in verbs and seat is not None and g.turn != seat:
            parts.append(_("You forgot UNO: press u now!"))
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
                left = max(0, int(self._deadline[1] - time.monotonic()))
                parts.append(_("{n} s left").format(n=left))
        elif not parts:
            parts.append(_("{name} is playing…").format(name=t.name(g.turn)))
        return "  ".join(parts)

    def hand_codes(self) -> list[str]:
        seat = self.viewer_seat
        if seat is None:
            return []
        hand: list[str] = self.table.game.view(seat)["hand"]
        return hand

    def render_hand(self) -> None:
        hand = self.hand_codes()
        legal = self.legal()
        playable = {i for i, c in enumerate(hand) if any(
            a.verb in ("play", "jump_in") and c in _codes(a) for a in legal)}
        if self.cursor >= len(hand):
            self.cursor = max(0, len(hand) - 1)
        caption = (_("Your hand ({name})").format(name=self.table.player_name(self.viewer))
                   if self.viewer is not None else _("Bots only: watching"))
        self.query_one("#hand", HandView).show(hand, playable, self.cursor,
                                               hidden=self.viewer is None, caption=caption)

    def render_buttons(self) -> None:
        legal = self.legal()
        verbs = {a.verb for a in legal}
        t = self.table
        launcher = t.rules.deck.launcher
        labels = {
            "draw": (_("Press launcher [d]") if launcher else _("Draw [d]"),
                     "draw" in verbs),
            "pass": (_("Keep card [p]"), "pass" in verbs),
            "uno": (_("UNO! [u]") + (" ✓" if self.uno_armed else ""),
                    self.viewer is not None),
            "catch": (_("Catch [c]"), "catch" in verbs),
            "challenge": (_("Challenge [x]"), "challenge" in verbs),
            "accept": (_("Accept [a]"), "accept" in verbs),
            "help": (_("Help [?]"), True),
            "save": (_("Save [s]"), True),
            "lang": (_("Language [l]"), True),
            "quit": (_("Quit [q]"), True),
        }
        for bid, (label, enabled) in labels.items():
            b = self.query_one(f"#btn-{bid}", ActionButton)
            b.label = Text(label)
            b.disabled = not enabled
            if bid in ("pass", "catch", "challenge", "accept"):
                b.display = enabled  # shown only when it can be used
        self.query_one("#keys", Static).update(Text(
            _("keys: card keys or click to play · d draw · p pass · u UNO · c catch · "
              "? help · s save · l language · q quit"), style="dim"))

    # -- input -----------------------------------------------------------------------------
    def on_key(self, event: events.Key) -> None:
        ch = event.character
        if ch is not None and ch in CARD_KEYS:
            event.stop()
            i = CARD_KEYS.index(ch)
            if i < len(self.hand_codes()):
                self.cursor = i
                self.choose_card(i)

    def on_hand_view_picked(self, message: HandView.Picked) -> None:
        self.cursor = message.index
        self.choose_card(message.index)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        actions: dict[str, Callable[[], Any]] = {
            "btn-draw": self.action_draw, "btn-pass": self.action_pass_turn,
            "btn-uno": self.action_uno, "btn-catch": self.action_catch,
            "btn-challenge": self.action_challenge, "btn-accept": self.action_accept,
            "btn-help": self.action_help, "btn-save": self.action_save,
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
        self._simple("draw")

    def action_pass_turn(self) -> None:
        self._simple("pass")

    def action_challenge(self) -> None:
        self._simple("challenge")

    def action_accept(self) -> None:
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
        if self.viewer is None:
            return
        self.uno_armed = not self.uno_armed
        self.render_all()

    def _may_arm(self) -> bool:
        """Could arming UNO matter to the viewer: may its next play leave it one card?"""
        seat = self.viewer_seat
        return seat is not None and len(self.table.game.hand(seat)) <= 2

    def action_catch(self) -> None:
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
        self.message = _("Nobody can be caught now: the chance opens when a player is left "
                         "with one card without calling UNO, until the next player acts.")
        del g
        self.render_prompt()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.table.rules))

    def action_save(self) -> None:
        try:
            path = saves.save_table(self.table)
        except OSError as e:
            self.notify(_("Could not save: {error}").format(error=e), severity="error")
            return
        self.notify(_("Saved to {path}").format(path=path))

    def action_quit_game(self) -> None:
        if not self.table.match.is_over:
            try:
                path = saves.autosave(self.table)
            except OSError:
                pass
            else:
                self.app.saved_on_quit = str(path)  # type: ignore[attr-defined]
        self.app.exit(0)

    def action_language(self) -> None:
        from ..i18n import SUPPORTED, language, set_language
        langs = list(SUPPORTED)
        set_language(langs[(langs.index(language()) + 1) % len(langs)])
        self._log_key = ()
        self.render_all()

    def relabel(self) -> None:
        self._log_key = ()
        self.render_all()

    def action_cursor(self, step: int) -> None:
        n = len(self.hand_codes())
        if n:
            self.cursor = (self.cursor + step) % n
            self.render_hand()

    def action_play_cursor(self) -> None:
        if self.cursor < len(self.hand_codes()):
            self.choose_card(self.cursor)

    # -- choosing a play -----------------------------------------------------------------
    @work(exclusive=True, group="choose")
    async def choose_card(self, index: int) -> None:
        """Turn a card of the hand into one of the legal plays that use it."""
        hand = self.hand_codes()
        if index >= len(hand):
            return
        code = hand[index]
        legal = self.legal()
        plays = [a for a in legal if a.verb in ("play", "jump_in") and code in _codes(a)]
        if not plays:
            self._refuse(code)
            return
        groups: dict[tuple[str, tuple[int, ...]], list[Action]] = {}
        for a in plays:
            groups.setdefault((a.verb, a.cards), []).append(a)
        keys = list(groups)
        if len(keys) > 1:
            opts = [Option(k, self._combo_label(k[0], _codes_of(k[1])),
                           CARD_KEYS[i] if i < 10 else "") for i, k in enumerate(keys)]
            pick = await self.app.push_screen_wait(ChoiceDialog(
                "cards", _("How do you play {card}?").format(card=card_text(code)), opts))
            if pick is None:
                return
            variants = groups[pick]
        else:
            variants = groups[keys[0]]
        chosen = await self._resolve(variants)
        if chosen is not None:
            self.act(chosen)

    def _combo_label(self, verb: str, codes: list[str]) -> str:
        cards = " + ".join(codes)
        words = " + ".join(card_text(c) for c in codes)
        if verb == "jump_in":
            return _("jump in with {cards} ({words})").format(cards=cards, words=words)
        if len(codes) > 1:
            return _("{cards} ({words}), {last} on top").format(
                cards=cards, words=words, last=codes[-1])
        return f"{cards} ({words})"

    async def _resolve(self, variants: list[Action]) -> Action | None:
        """Ask what still differs between the variants: power, colour, target, UNO."""
        t = self.table
        powers = sorted({a.power for a in variants})
        if len(powers) > 1:
            names = {"": _("name a colour"), "color": _("name a colour"),
                     "look": _("look at a player's hand"),
                     "swap": _("swap 3 cards with a player")}
            keys = {"": "c", "color": "c", "look": "k", "swap": "w"}
            pick = await self.app.push_screen_wait(ChoiceDialog(
                "power", _("Wild power: what does your Wild do?"),
                [Option(p, names[p], keys[p]) for p in powers]))
            if pick is None:
                return None
            variants = [a for a in variants if a.power == pick]
        colors = sorted({a.color for a in variants if a.color >= 0})
        if len(colors) > 1:
            pick = await self.app.push_screen_wait(self._color_dialog(
                [COLOR_CODES[c] for c in colors], _("Choose the colour")))
            if pick is None:
                return None
            c = COLOR_CODES.index(pick)
            variants = [a for a in variants if a.color == c]
        targets = sorted({a.target for a in variants if a.target >= 0})
        if len(targets) > 1:
            sizes = t.game.hand_sizes()
            opts = [Option(s, _("{name} ({n} cards)").format(name=t.name(s), n=sizes[s]),
                           str(i + 1) if i < 9 else "") for i, s in enumerate(targets)]
            pick = await self.app.push_screen_wait(ChoiceDialog(
                "target", _("Choose a player"), opts))
            if pick is None:
                return None
            variants = [a for a in variants if a.target == pick]
        flagged = [a for a in variants if a.uno]
        plain = [a for a in variants if not a.uno]
        if self.uno_armed and flagged:
            return flagged[0]
        return plain[0] if plain else flagged[0] if flagged else None

    def _color_dialog(self, codes: list[str], title: str, cancel: bool = True) -> ChoiceDialog:
        opts = [Option(c, color_text(c), _COLOR_KEYS.get(c, ""), face_style(c).split(" on ")[-1])
                for c in codes]
        return ChoiceDialog("color", title, opts, cancel=cancel)

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
            self.message = illegal_text(e)
        else:
            self.message = _("{card} cannot be played now.").format(card=card_text(code))
        self.notify(self.message, severity="warning")
        self.render_prompt()

    @work(exclusive=True, group="ask")
    async def ask_starter_color(self, legal: list[Action]) -> None:
        codes = [COLOR_CODES[a.color] for a in legal if a.verb == "color"]
        pick = await self.app.push_screen_wait(self._color_dialog(
            codes, _("Name the colour of the first card"), cancel=False))
        if pick is not None:
            self.act(f"color {pick}")

    @work(exclusive=True, group="ask")
    async def ask_give(self, legal: list[Action]) -> None:
        gives = [a for a in legal if a.verb == "give"]
        g = self.table.game
        left = g.view(self.viewer_seat or 0).get("give_left", 1)
        target = next((e.get("target") for e in reversed(g.events)
                       if e.get("t") == "swap_start"), None)
        name = self.table.name(target) if isinstance(target, int) else "?"
        opts = [Option(_codes(a)[0], f"{_codes(a)[0]} ({card_text(_codes(a)[0])})",
                       CARD_KEYS[i] if i < len(CARD_KEYS) else "") for i, a in enumerate(gives)]
        pick = await self.app.push_screen_wait(ChoiceDialog(
            "give", _("Give a card to {name} ({n} more)").format(name=name, n=left), opts,
            cancel=False))
        if pick is not None:
            self.act(f"give {pick}")

    @work(exclusive=True, group="ask")
    async def ask_challenge(self, legal: list[Action]) -> None:
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
        pick = await self.app.push_screen_wait(ChoiceDialog(
            "challenge", _("{name} played a Wild Draw Four on you").format(name=name), opts,
            cancel=can_play, note=_("Esc: answer with a card instead") if can_play else ""))
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
        pick = await self.app.push_screen_wait(ChoiceDialog("uno", _("Who calls UNO?"), opts))
        if pick == "late":
            self.act(action, seat=seat)
        elif pick == "arm":
            self.uno_armed = not self.uno_armed
            self.render_all()

    @work(exclusive=True, group="ask")
    async def ask_hotseat_catch(self, catchers: list[tuple[int, Action]]) -> None:
        t = self.table
        opts = [Option(s, t.name(s), str(i + 1)) for i, (s, _a) in enumerate(catchers)]
        pick = await self.app.push_screen_wait(ChoiceDialog(
            "catch", _("Who calls it?"), opts))
        for s, a in catchers:
            if s == pick:
                self.act(a, seat=s)

    @work(exclusive=True, group="ask")
    async def ask_false_catch(self) -> None:
        t = self.table
        seat = self.viewer_seat
        opts = [Option(s, t.name(s), str(i + 1)) for i, s in
                enumerate(x for x in range(t.rules.players) if x != seat)]
        pick = await self.app.push_screen_wait(ChoiceDialog(
            "catch", _("Catch whom? A wrong catch costs you {n} cards.").format(
                n=t.rules.false_uno_penalty), opts))
        if pick is not None:
            self.act(f"catch {pick}")


def _codes(a: Action) -> list[str]:
    return _codes_of(a.cards)


def _codes_of(cards: tuple[int, ...]) -> list[str]:
    from ..engine import CODES
    return [CODES[k] for k in cards]
