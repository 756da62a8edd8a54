"""Playing in the terminal: a full-screen Textual app and a plain line-by-line mode.

Both run a :class:`~unoarena.tui.session.Table`; only the app needs Textual, so the plain mode
and the table work without it.
"""

from .session import Player, Table, Timing, default_players

__all__ = ["Player", "Table", "Timing", "default_players"]
