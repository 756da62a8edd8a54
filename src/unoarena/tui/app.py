"""The full-screen terminal game: a new-game screen, or straight to the table."""

from __future__ import annotations

from typing import Any

from textual.app import App

from .newgame import NewGameScreen
from .session import Table, Timing
from .table_screen import TableScreen


class UnoApp(App[int]):
    """``UnoApp(table=...)`` starts at the table; ``UnoApp()`` asks for a new game first."""

    TITLE = "UNO Arena"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { background: #0b3d2e; }
    """

    def __init__(self, *, table: Table | None = None, timing: Timing | None = None,
                 newgame: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.table = table
        self.timing = timing
        self.newgame = newgame or {}
        self.saved_on_quit = ""

    def on_mount(self) -> None:
        if self.table is not None:
            self.push_screen(TableScreen(self.table))
        else:
            self.push_screen(NewGameScreen(timing=self.timing, **self.newgame))

    def on_new_game_screen_start(self, message: NewGameScreen.Start) -> None:
        self.switch_screen(TableScreen(message.table))

    def on_table_screen_new_game(self, _message: TableScreen.NewGame) -> None:
        self.switch_screen(NewGameScreen())

    @property
    def table_screen(self) -> TableScreen | None:
        """The table, wherever it is in the stack of screens."""
        for screen in reversed(self.screen_stack):
            if isinstance(screen, TableScreen):
                return screen
        return None
