"""The new-game screen: rules preset, house rules, who sits where, the target score.

Every choice is checked by building the rule set, so an impossible combination shows the
engine's reason before the game starts, and the line under the toggles explains the rule
last changed at its current value.
"""

from __future__ import annotations

import contextlib
import random
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Input, Label, RadioButton, RadioSet, Select, Static

from ..bots import available
from ..bots.levels import LEVEL_NAMES, LEVELS, level_of, leveled_first, plays
from ..engine import KEY_INFO, PRESETS, ConfigError, RuleSet, preset
from ..text.i18n import _
from ..text.narrate import default_names, display_name
from ..text.rules import explain_key, preset_summary
from .session import BOT, HUMAN, MAX_NAME, Player, Table, Timing, best_bot

#: Rules offered as on/off toggles, with their short names (from the keys' declarations):
#: the house rules first, then the books' own (the Wild Draw Four challenge), in field order.
TOGGLES: tuple[tuple[str, str], ...] = tuple(sorted(
    ((k, info.label) for k, info in KEY_INFO.items() if info.offer == "toggle"),
    key=lambda t: not KEY_INFO[t[0]].rules.startswith("HR-")))
#: House rules with several values: key, short name, values with their names.
CHOICES: tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...] = tuple(
    (k, info.label, info.values) for k, info in KEY_INFO.items() if info.offer == "choice")


class NewGameScreen(Screen[None]):
    """Where a game is set up: the person picks a preset, house rules, the number of players,
    who sits in each seat and the target score, then starts; posts :class:`Start` with the
    table."""

    class Start(Message):
        """Sent when the person starts the game set up here: the app opens its table."""

        def __init__(self, table: Table) -> None:
            super().__init__()
            self.table = table

    DEFAULT_CSS = """
    NewGameScreen #form { padding: 0 2; }
    NewGameScreen .title { text-style: bold; }
    NewGameScreen .section { text-style: bold underline; margin: 1 0 0 0; }
    NewGameScreen RadioSet { width: 100%; }
    NewGameScreen #toggles { layout: grid; grid-size: 2; grid-gutter: 0 2; grid-rows: 1;
        height: auto; }
    NewGameScreen #toggles Checkbox { width: 1fr; height: 1; }
    NewGameScreen #choices { layout: grid; grid-size: 1; grid-gutter: 0 2; grid-rows: 1;
        height: auto; margin-top: 1; }
    NewGameScreen .row { height: 1; }
    NewGameScreen .choice Label { width: 24; }
    NewGameScreen .choice Select { width: 1fr; max-width: 44; }
    NewGameScreen #seats { height: auto; }
    NewGameScreen .seat Label { width: 10; }
    NewGameScreen .seat Input { width: 22; margin-right: 2; }
    NewGameScreen .seat Select { width: 1fr; max-width: 40; }
    NewGameScreen #players-row Select { width: 8; margin-right: 3; }
    NewGameScreen #players-row Input { width: 8; }
    NewGameScreen #players-row Label { padding: 0 1 0 0; }
    NewGameScreen #form { height: 1fr; }
    NewGameScreen #bottom { dock: bottom; height: auto; padding: 0 2;
        border-top: solid $primary; }
    NewGameScreen #error { color: $error; text-style: bold; height: auto; }
    NewGameScreen #error.empty { display: none; }
    NewGameScreen #ng-keys { height: auto; }
    NewGameScreen #explain { color: $text-muted; margin-top: 1; }
    NewGameScreen #explain.empty { display: none; }
    NewGameScreen #actions { height: 1; }
    NewGameScreen #actions Button { margin-right: 2; min-width: 0; width: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", show=False), Binding("f3", "language", show=False),
        Binding("escape", "quit", show=False), Binding("f1", "help", show=False)]

    def __init__(self, *, players: int = 4, preset_name: str = "classic",
                 overrides: dict[str, Any] | None = None, seed: int | None = None,
                 timing: Timing | None = None) -> None:
        super().__init__(id="newgame")
        self.preset_name = preset_name
        self.values: dict[str, Any] = {}
        self.players_n = players
        self.target = ""
        self.seats: list[tuple[str, str]] = []  # (kind spec: "person" or "bot:NAME", name)
        self.seed = seed
        self.timing = timing
        self.error = ""
        self.explained = ""
        self.started = False
        self._load_preset(preset_name, overrides or {})
        self._fit_seats()

    # -- state -------------------------------------------------------------------------------
    def _load_preset(self, name: str, overrides: dict[str, Any]) -> None:
        self.preset_name = name
        base = PRESETS[name].to_dict()
        base.update({k: v for k, v in overrides.items()})
        self.values = {k: base[k] for k, _n in TOGGLES}
        for key, _n, _opts in CHOICES:
            self.values[key] = str(base[key])
        self.target = str(base["target_score"])

    def _fit_seats(self) -> None:
        names = default_names(self.players_n)
        bot = "bot:" + best_bot()
        seats = []
        for i in range(self.players_n):
            if i < len(self.seats):
                kind, name = self.seats[i]
                old_defaults = set(default_names(len(self.seats)))
                if name in old_defaults:
                    name = names[i]
            else:
                kind, name = ("person" if i == 0 else bot), names[i]
            seats.append((kind, name))
        seats[0] = ("person", seats[0][1])
        self.seats = seats

    def rules(self) -> RuleSet:
        """The rule set the screen describes; :class:`ConfigError` when it cannot be."""
        over: dict[str, Any] = dict(self.values)
        over["players"] = self.players_n
        if self.target.strip():
            over["target_score"] = self.target.strip()
        return preset(self.preset_name, **over)

    def players(self) -> list[Player]:
        """The seats as session players: a person at this terminal or a bot by its name, with the
        names as stored (default names untranslated)."""
        out = []
        for kind, name in self.seats:
            if kind.startswith("bot:"):
                out.append(Player(name, BOT, kind[4:]))
            else:
                out.append(Player(name, HUMAN))
        return out

    # -- drawing -----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        """The form: presets, house-rule toggles and choices, the explanation line, player count
        and target score, one row per seat, the bot levels, the error line and the buttons."""
        with VerticalScroll(id="form"):
            yield Label(_("UNO Arena — a new game"), classes="title")
            yield Label(_("Rules"), classes="section")
            with RadioSet(id="preset", compact=True):
                for name in PRESETS:
                    yield RadioButton(f"{name} — {preset_summary(name)}",
                                      value=name == self.preset_name, id=f"preset-{name}")
            yield Label(_("House rules"), classes="section")
            with Container(id="toggles"):
                for key, label in TOGGLES:
                    yield Checkbox(_(label), bool(self.values[key]), id=f"rule-{key}",
                                   compact=True)
            with Container(id="choices"):
                for key, label, opts in CHOICES:
                    with Horizontal(classes="row choice"):
                        yield Label(_(label))
                        yield Select([(_(n), v) for v, n in opts], value=self.values[key],
                                     allow_blank=False, id=f"rule-{key}", compact=True)
            yield Static(Text(self.explained), id="explain",
                         classes="" if self.explained else "empty")
            yield Label(_("Players"), classes="section")
            with Horizontal(id="players-row", classes="row"):
                yield Label(_("Number of players"))
                yield Select([(str(n), n) for n in range(2, 11)], value=self.players_n,
                             allow_blank=False, id="players", compact=True)
                yield Label(_("Target score"))
                yield Input(self.target, id="target", type="integer", compact=True)
            yield Vertical(*self._seat_rows(), id="seats")
            yield Static(Text(levels_text(), style="dim"), id="levels")
        with Vertical(id="bottom"):
            yield Static(Text(self.error), id="error", classes="" if self.error else "empty")
            with Horizontal(id="actions"):
                yield Button(_("Start (Ctrl+S)"), id="start", variant="primary", compact=True)
                yield Button(_("Language (F3)"), id="lang", compact=True)
                yield Button(_("Help (F1)"), id="help", compact=True)
                yield Button(_("Quit (Esc)"), id="quit", compact=True)
            yield Static(Text(_("Tab moves between fields, Space or Enter changes them, "
                                "Ctrl+S starts."), style="dim"), id="ng-keys")

    def on_mount(self) -> None:
        """When the screen opens, the house rules are laid out in as many columns as the width
        fits."""
        self._fit_columns(self.size.width)

    def on_resize(self, event: events.Resize) -> None:
        """When the person resizes the terminal, the house-rule columns follow the new width."""
        self._fit_columns(event.size.width)

    def _fit_columns(self, width: int) -> None:
        """Two columns of house rules on a narrow terminal, four on a wide one, so that no
        label is cut and the form stays short."""
        if not width:
            return
        toggles = self.query_one("#toggles")
        toggles.styles.grid_size_columns = 4 if width >= 140 else 2
        self.query_one("#choices").styles.grid_size_columns = 2 if width >= 140 else 1

    def _seat_rows(self) -> list[Horizontal]:
        bots = available()
        rows = []
        for i, (kind, name) in enumerate(self.seats):
            label = Label(_("Seat {n}").format(n=i))
            name_input = Input(display_name(name), id=f"name-{i}", compact=True,
                               max_length=MAX_NAME)
            if i == 0:
                who: Any = Label(_("You"))
            else:
                opts = [(_("Person on this terminal"), "person")]
                opts += [(bot_label(b), "bot:" + b) for b in leveled_first(bots)]
                value = kind if kind in {v for _l, v in opts} else opts[-1][1]
                who = Select(opts, value=value, allow_blank=False, id=f"seat-{i}",
                             compact=True)
            rows.append(Horizontal(label, name_input, who, classes="row seat"))
        return rows

    async def recompose_keeping_focus(self) -> None:
        """Rebuild the form (a new language) and give focus back to the same field."""
        focused = self.focused.id if self.focused is not None else None
        await self.recompose()
        self._fit_columns(self.size.width)
        if focused:
            with contextlib.suppress(NoMatches):
                self.query_one(f"#{focused}").focus()

    # -- changes -----------------------------------------------------------------------------
    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        """The person picks a preset: the house rules and target score reset to its values and its
        summary shows in the explanation line."""
        bid = event.pressed.id or ""
        if bid.startswith("preset-"):
            self._load_preset(bid[7:], {})
            self.explained = preset_summary(self.preset_name)
            self.error = ""
            self._show_values()

    def _show_values(self) -> None:
        """Put the preset's values into the fields in place, so that focus and the radio
        cursor stay where the person left them."""
        for key, _label in TOGGLES:
            box = self.query_one(f"#rule-{key}", Checkbox)
            with box.prevent(Checkbox.Changed):
                box.value = bool(self.values[key])
        for key, _label, _opts in CHOICES:
            select: Select[str] = self.query_one(f"#rule-{key}", Select)
            with select.prevent(Select.Changed):
                select.value = self.values[key]
        target = self.query_one("#target", Input)
        with target.prevent(Input.Changed):
            target.value = self.target
        self._show_error()
        explain = self.query_one("#explain", Static)
        explain.update(Text(self.explained))
        explain.set_class(not self.explained, "empty")

    def _show_error(self) -> None:
        """The error line under the form, in view beside the Start button; hidden when empty."""
        error = self.query_one("#error", Static)
        error.update(Text(self.error))
        error.set_class(not self.error, "empty")

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        """The person toggles a house rule: the rules are checked at once, and the explanation line
        describes it at its new value, or the error line gives the engine's reason."""
        key = (event.checkbox.id or "")[5:]
        if key in self.values and bool(self.values[key]) != event.value:
            self.values[key] = event.value
            self._check(key)

    async def on_select_changed(self, event: Select.Changed) -> None:
        """The person changes a dropdown: the number of players (the seat rows are rebuilt), a
        multi-valued house rule (checked as a toggle is), or who sits in a seat."""
        sid = event.select.id or ""
        if sid == "players" and isinstance(event.value, int) and event.value != self.players_n:
            self.players_n = event.value
            self._fit_seats()
            seats = self.query_one("#seats", Vertical)
            await seats.remove_children()
            await seats.mount_all(self._seat_rows())
            return
        if sid.startswith("rule-"):
            if self.values.get(sid[5:]) == str(event.value):
                return  # a field shown anew, not a change
            self.values[sid[5:]] = str(event.value)
            self._check(sid[5:])
        elif sid.startswith("seat-"):
            i = int(sid[5:])
            self.seats[i] = (str(event.value), self.seats[i][1])

    def on_input_changed(self, event: Input.Changed) -> None:
        """The person types the target score or renames a seat (an untouched default name stays
        stored untranslated)."""
        iid = event.input.id or ""
        if iid == "target":
            self.target = event.value
        elif iid.startswith("name-"):
            i = int(iid[5:])
            raw = self.seats[i][1]
            value = event.value.strip()
            name = raw if value == display_name(raw) else value or raw
            self.seats[i] = (self.seats[i][0], name)

    def _check(self, key: str) -> None:
        try:
            rules = self.rules()
        except ConfigError as e:
            self.error = config_error_text(e)
            self.explained = ""
        else:
            self.error = ""
            self.explained = f"{key}: {explain_key(rules, key)}"
        self._show_error()
        explain = self.query_one("#explain", Static)
        explain.update(Text(self.explained))
        explain.set_class(not self.explained, "empty")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The Start, Language and Quit buttons: start the game, switch the language, or leave
        the app."""
        event.stop()
        bid = event.button.id
        if bid == "start":
            self.action_start()
        elif bid == "lang":
            self.run_worker(self.action_language())
        elif bid == "help":
            self.action_help()
        elif bid == "quit":
            self.app.exit(0)

    def action_start(self) -> None:
        """Ctrl+S or Start: the game begins with the rules and seats shown, or the error line says
        why it cannot; the seed is the one given, else random. Once only: a second press before the
        table opens does nothing."""
        if self.started:
            return
        try:
            rules = self.rules()
        except ConfigError as e:
            self.error = config_error_text(e)
            self._show_error()
            return
        seed = self.seed if self.seed is not None else random.randrange(1 << 31)
        try:
            table = Table(rules, self.players(), seed, timing=self.timing)
        except ValueError as e:
            self.error = str(e)
            self._show_error()
            return
        self.started = True
        self.post_message(self.Start(table))

    async def action_language(self) -> None:
        """F3 or Language: the interface switches to the next language and the form is redrawn,
        focus kept."""
        from ..text.i18n import SUPPORTED, language, set_language
        langs = list(SUPPORTED)
        set_language(langs[(langs.index(language()) + 1) % len(langs)])
        await self.recompose_keeping_focus()

    def action_quit(self) -> None:
        """Esc or Quit: the person leaves the app without starting a game."""
        self.app.exit(0)

    def action_help(self) -> None:
        """F1: help on the rules as set here (the preset's rules while the settings conflict)."""
        from .dialogs import HelpScreen
        try:
            rules = self.rules()
        except ConfigError:
            rules = PRESETS[self.preset_name]
        self.app.push_screen(HelpScreen(rules))


def config_error_text(e: ConfigError) -> str:
    """A rule-set error in the user's language: the keys, and the engine's reason."""
    if len(e.keys) == 1:
        return _("The value {value} does not fit {key}: allowed {allowed}").format(
            value=e.value, key=e.keys[0], allowed=_allowed(e.allowed))
    return _("These settings cannot be combined: {keys} ({why})").format(
        keys=" + ".join(e.keys), why=_allowed(e.allowed))


def _allowed(allowed: object) -> str:
    if isinstance(allowed, (list, tuple)):
        return ", ".join(str(a) for a in allowed)
    return str(allowed)


def bot_label(name: str) -> str:
    """``Medium bot (heuristic)`` for a bot that is a level, ``Bot: random`` for the rest."""
    level = level_of(name)
    if level is None:
        return _("Bot: {name}").format(name=name)
    return _("{level} bot ({name})").format(level=_(LEVEL_NAMES[level]), name=name)




def levels_text() -> str:
    """One line per level: what a person can expect of it."""
    return "\n".join(_("{level}: {doc}").format(level=_(LEVEL_NAMES[level]), doc=plays(level))
                      for level, _b, _doc in LEVELS)

