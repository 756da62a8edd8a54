"""The full-screen terminal game: a new-game screen, or straight to the table."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from .newgame import NewGameScreen
from .session import Table, Timing
from .table_screen import TableScreen


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

    def on_mount(self) -> None:
        """Open the table when a match was given (resumed or set up on the command line), else the
        new-game screen."""
        if self.table is not None:
            self.push_screen(TableScreen(self.table))
        else:
            self.push_screen(NewGameScreen(timing=self.timing, **self.newgame))

    def on_new_game_screen_start(self, message: NewGameScreen.Start) -> None:
        """The person started a game on the new-game screen: it is replaced by the table."""
        self.switch_screen(TableScreen(message.table))

    def on_table_screen_new_game(self, _message: TableScreen.NewGame) -> None:
        """After a match the person asked for another: the table is replaced by a fresh new-game
        screen."""
        self.switch_screen(NewGameScreen())

    def action_save_and_quit(self) -> None:
        """Ctrl+Q and Ctrl+C: like q at the table, the match is saved before quitting."""
        ts = self.table_screen
        if ts is not None:
            ts.action_quit_game()
        else:
            self.exit(0)

    @property
    def table_screen(self) -> TableScreen | None:
        """The table, wherever it is in the stack of screens."""
        for screen in reversed(self.screen_stack):
            if isinstance(screen, TableScreen):
                return screen
        return None
