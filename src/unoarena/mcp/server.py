"""``unoarena mcp``: the arena's games as tools of a Model Context Protocol server.

An AI client (a desktop assistant, an agent framework) connects over stdio or streamable HTTP
and plays UNO against the arena's bots with these tools; the games run on the engine in this
process (:mod:`.games`), so no web server is needed. The client plays its own seat only: the
tools show that seat's view and the narration it may read, and take only actions the engine
lists for it. A refused call is a tool error that says what was wrong and what is allowed.
"""

from __future__ import annotations

import threading
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from .. import __version__
from ..text.i18n import _
from .games import GameError, Games

INSTRUCTIONS = """\
Play UNO against bots. Call list_rule_sets (and explain_rules) to choose, then start_game: it
returns a game id, your view and your options. On each call of play_action give one of the
'action' strings from 'options' (its 'description' says what it does in words); the bots answer
at once and you get the new narration, your view and your next options. 'decline' lets a chance
(catch a player who forgot UNO, call UNO, jump in) pass. read_log gives the whole narration.
You see only your own hand, as a player at the table would."""


def build_server(games: Games | None = None) -> MCPServer:
    """The MCP server with its tools, over ``games`` (a fresh :class:`Games` by default)."""
    table = games if games is not None else Games()
    # the SDK runs each call of a plain function in a worker thread: one call at a time
    # touches the games, so two calls on one game (or a start and an end) cannot interleave
    lock = threading.Lock()
    server = MCPServer("unoarena", version=__version__, instructions=INSTRUCTIONS)

    def refused(e: GameError) -> ToolError:
        return ToolError(str(e))

    @server.tool()
    def list_rule_sets() -> dict[str, Any]:
        """The rule sets (presets) with what each plays, the bots one may play against, and
        how to add house rules."""
        return Games.rule_sets()

    @server.tool()
    def explain_rules(preset: str = "classic", rules: dict[str, Any] | None = None,
                      key: str | None = None) -> dict[str, Any]:
        """Every rule of a preset with house rules ('rules': key to value), or one 'key', with
        its value and what it means in play (citing the rule books' rule IDs)."""
        try:
            with lock:
                return {"rules": Games.explain(preset, rules, key)}
        except GameError as e:
            raise refused(e) from None

    @server.tool()
    def start_game(preset: str = "classic", rules: dict[str, Any] | None = None,
                   players: int | None = None, bots: list[str] | None = None,
                   name: str = "", seed: int | None = None) -> dict[str, Any]:
        """Start a match against bots: you are player 0. 'players' counts everyone (2 to 10);
        'bots' is one bot name for all the others or one per other place (default: the
        medium level); 'rules' sets house rules; 'seed' repeats a deal. Returns the game id,
        your view and your options."""
        try:
            with lock:
                game = table.start(preset, rules, players, bots, name, seed)
                return {"new_lines": list(game.lines), **game.view(),
                        "options": game.options()}
        except GameError as e:
            raise refused(e) from None

    @server.tool()
    def get_view(game: str) -> dict[str, Any]:
        """Your view of the table: your hand (codes and words), the top card and colour, how
        many cards each player holds, whose turn it is, the scores, and what awaits you."""
        try:
            with lock:
                return table.get(game).view()
        except GameError as e:
            raise refused(e) from None

    @server.tool()
    def legal_actions(game: str) -> dict[str, Any]:
        """What you may do now: each 'action' with a 'description' in plain words (empty
        while nothing is yours to decide, or once the match is over)."""
        try:
            with lock:
                g = table.get(game)
                return {"waiting_for_you": g.waiting or None, "options": g.options()}
        except GameError as e:
            raise refused(e) from None

    @server.tool()
    def play_action(game: str, action: str) -> dict[str, Any]:
        """Play one of your options (its 'action' string); the bots answer until you must
        decide again. Returns the new narration, your view and your next options."""
        try:
            with lock:
                return table.play(game, action)
        except GameError as e:
            raise refused(e) from None

    @server.tool()
    def read_log(game: str, since: int = 0) -> dict[str, Any]:
        """The match's narration as you may read it, from line 'since' (0: all of it)."""
        if since < 0:
            raise ToolError(_("since must be 0 or more"))
        try:
            with lock:
                g = table.get(game)
                return {"lines": g.lines[since:], "next": len(g.lines)}
        except GameError as e:
            raise refused(e) from None

    @server.tool()
    def end_game(game: str) -> dict[str, Any]:
        """Leave a game and forget it."""
        try:
            with lock:
                table.end(game)
        except GameError as e:
            raise refused(e) from None
        return {"ended": game}

    return server


def run(transport: str = "stdio", host: str = "127.0.0.1", port: int = 8765,
        path: str = "/mcp") -> None:
    """Serve until stopped: over stdin/stdout, or streamable HTTP at ``http://host:port/path``."""
    server = build_server()
    if transport == "stdio":
        server.run("stdio")
    elif transport == "http":
        server.run("streamable-http", host=host, port=port, streamable_http_path=path)
    else:
        raise ValueError(f"transport {transport!r}: use stdio or http")
