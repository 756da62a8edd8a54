"""``unoarena mcp``: serve the arena's games to AI clients over the Model Context Protocol."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from ..text.i18n import _


def add_mcp_parser(subparsers: Any,
                   parents: Sequence[argparse.ArgumentParser] = ()) -> argparse.ArgumentParser:
    """Add the ``mcp`` command to the ``unoarena`` command line."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "mcp", parents=list(parents),
        help=_("let an AI agent play: a Model Context Protocol server"),
        description=_("Serve games against the bots as MCP tools, over stdin/stdout (for a "
                      "desktop AI client that starts this command) or streamable HTTP."))
    p.add_argument("--transport", choices=("stdio", "http"), default="stdio",
                   help=_("stdio (default) or http (streamable HTTP)"))
    p.add_argument("--host", default="127.0.0.1",
                   help=_("address to listen on with http (default 127.0.0.1)"))
    p.add_argument("--port", type=int, default=8765, help=_("port with http (default 8765)"))
    p.add_argument("--path", default="/mcp", help=_("URL path with http (default /mcp)"))
    p.set_defaults(handler=run_mcp)
    return p


def run_mcp(args: argparse.Namespace) -> int:
    """Serve until stopped."""
    if not 0 < args.port < 65536:
        print(_("error: {message}").format(message=_("the port must be from 1 to 65535")),
              file=sys.stderr)
        return 2
    try:
        from .server import run
    except ImportError as e:
        print(_("error: the MCP server needs the 'mcp' extra: pip install 'unoarena[mcp]' "
                "({error})").format(error=e), file=sys.stderr)
        return 2
    run(args.transport, args.host, args.port, args.path)
    return 0
