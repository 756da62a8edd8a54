"""``unoarena bot run``: play a remote bot seat of a room, from any machine."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from typing import Any

from ..text.i18n import _


def add_bot_parser(subparsers: Any,
                   parents: Sequence[argparse.ArgumentParser] = ()) -> argparse.ArgumentParser:
    """Add ``bot run`` to the ``unoarena`` command line."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "bot", parents=list(parents), help=_("play a remote bot seat of a room"),
        description=_("Remote bots: a room's host makes a seat remote and is given its bot "
                      "token; this command plays that seat from any machine."))
    sub = p.add_subparsers(title=_("bot commands"), metavar="COMMAND")
    run = sub.add_parser(
        "run", parents=list(parents), help=_("play a remote seat with a bot until the match "
                                             "ends"),
        description=_("Connect to the room at URL with the seat's bot token and play every "
                      "decision of that seat with the bot, reconnecting on its own when the "
                      "connection drops. Exit status: 0 the match is over, 1 no connection "
                      "for longer than --patience, 2 the token or the bot was refused."))
    run.add_argument("url", metavar="URL",
                     help=_("the room's link, e.g. http://HOST/r/ROOM"))
    run.add_argument("--token", required=True, metavar="T",
                     help=_("the remote seat's bot token (the host was shown it once)"))
    run.add_argument("--bot", default="heuristic", metavar="NAME|module:Class",
                     help=_("a registered bot spec (e.g. heuristic, ismcts:iterations=200) or "
                            "a class of your own, package.module:Class (default heuristic)"))
    run.add_argument("--seed", type=int, default=0, help=_("the bot's seed (default 0)"))
    run.add_argument("--patience", type=float, default=300.0, metavar="SECONDS",
                     help=_("give up after this long without a connection (default 300)"))
    run.add_argument("--quiet", action="store_true", help=_("say only what went wrong"))
    run.set_defaults(handler=run_bot)
    p.set_defaults(help_of=p)  # without a subcommand: its help (cli.main)
    return p


def run_bot(ns: argparse.Namespace) -> int:
    """Play until the match is over; the exit status says how it ended."""
    try:
        from .client import RemoteError, run
    except ImportError as e:
        print(_("error: remote bots need the 'web' extra: pip install 'unoarena[web]' "
                "({error})").format(error=e), file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.WARNING if ns.quiet else logging.INFO,
                        format="%(levelname)s %(message)s")
    try:
        return run(ns.url, ns.token, ns.bot, lang=getattr(ns, "lang", None) or "en",
                   seed=ns.seed, patience=ns.patience)
    except RemoteError as e:
        print(_("error: {message}").format(message=e), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 1
