"""The full-screen terminal game: a new-game screen, or straight to the table."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from typing import Any, ClassVar

from textual import events
from textual.app import App
from textual.binding import Binding, BindingType

from .dialogs import TooSmallScreen, too_small
from .newgame import NewGameScreen
from .session import Table, Timing
from .table_screen import TableScreen

#: Signals that end the program from outside (the terminal window closed, a shutdown): the
#: match is saved as Ctrl+Q saves it.
_SAVE_ON = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class UnoApp(App[int]):
    """``UnoApp(table=...)`` starts at the table; ``UnoApp()`` asks for a new game first."""

    TITLE = "UNO Arena"
    ENABLE_COMMAND_PALETTE = False
    # Dialogs dim the table behind them instead of hiding it; messages appear at the top
    # right, over the log, never over the hand.
    CSS = """
    Screen { background: #0b3d2e; }
    ModalScreen { background: #000000 45%; }
    ToastRack { dock: top; align: right top; margin-top: 1; margin-bottom: 0; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "save_and_quit", show=False, priority=True),
        Binding("ctrl+c", "save_and_quit", show=False, priority=True)]

    def __init__(self, *, table: Table | None = None, timing: Timing | None = None,
                 newgame: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.table = table
        self.timing = timing
        self.newgame = newgame or {}
        self.saved_on_quit = ""
        self._mounted = False  # the first screen is up: resizes may cover it

    def on_mount(self) -> None:
        """Open the table when a match was given (resumed or set up on the command line), else the
        new-game screen."""
        if self.table is not None:
            self.push_screen(TableScreen(self.table))
        else:
            self.push_screen(NewGameScreen(timing=self.timing, **self.newgame))
        self._mounted = True
        self.fit_terminal()
        loop = asyncio.get_running_loop()
        for sig in _SAVE_ON:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, self.action_save_and_quit)

    def on_resize(self, event: events.Resize) -> None:
        """The terminal was resized: cover the screens, or uncover them (:meth:`fit_terminal`)."""
        self.fit_terminal(event.size.width, event.size.height)

    def fit_terminal(self, width: int = 0, height: int = 0) -> None:
        """Below the smallest size every screen fits in, a message covers them all and says what
        size is needed; at that size or larger, the screens are uncovered as they were. The size
        is the app's unless given (a resize not yet applied)."""
        if not self._mounted:
            return  # before the first screen: on_mount checks the size
        small = too_small(*((width, height) if width else self.size))
        top = self.screen_stack[-1] if self.screen_stack else None
        if small and not isinstance(top, TooSmallScreen):
            self.push_screen(TooSmallScreen())
        elif not small and isinstance(top, TooSmallScreen):
            top.dismiss(None)

    def on_new_game_screen_start(self, message: NewGameScreen.Start) -> None:
        """The person started a game on the new-game screen: it is replaced by the table (once:
        a second Start from the same screen, pressed twice, is ignored)."""
        if isinstance(self.screen, NewGameScreen):
            self.switch_screen(TableScreen(message.table))

    def on_table_screen_new_game(self, _message: TableScreen.NewGame) -> None:
        """After a match the person asked for another: the table is replaced by a fresh new-game
        screen."""
        if isinstance(self.screen, TableScreen):
            self.switch_screen(NewGameScreen())

    def action_save_and_quit(self) -> None:
        """Ctrl+Q and Ctrl+C (and SIGTERM, SIGHUP): like q at the table, the match is saved before
        quitting."""
        ts = self.table_screen
        if ts is not None:
            ts.action_quit_game()
        else:
            self.exit(0)

    def _handle_exception(self, error: Exception) -> None:
        """An error nobody caught ends the app, as in any Textual app; an unfinished match is saved
        first, so that even a crash does not lose it."""
        ts = self.table_screen
        if ts is not None and not self.saved_on_quit:
            with contextlib.suppress(Exception):  # the first error is the one to report
                self.saved_on_quit = ts.save_for_quit()
        super()._handle_exception(error)

    @property
    def table_screen(self) -> TableScreen | None:
        """The table, wherever it is in the stack of screens."""
        for screen in reversed(self.screen_stack):
            if isinstance(screen, TableScreen):
                return screen
        return None
