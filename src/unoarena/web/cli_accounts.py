"""``unoarena accounts``: what the server's operator does to accounts from a shell.

There is no e-mail here, so a person who forgot their password cannot reset it themselves:
they ask whoever runs the server, who sets a new one with ``accounts reset-password NAME`` on
the server's own database (the same ``--database-url`` as ``serve``, or its default SQLite
file). The password is read from a prompt, or from standard input when it is not a terminal,
never from the command line, which other users of the machine can read (``ps``) and shells
keep in their history.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from ..text.i18n import _, ngettext


def add_accounts_parser(subparsers: Any,
                        parents: Sequence[argparse.ArgumentParser] = ()
                        ) -> argparse.ArgumentParser:
    """Add the ``accounts`` command (and ``accounts reset-password``) to the command line."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "accounts", parents=list(parents),
        help=_("the server's accounts: reset a forgotten password"),
        description=_("Manage the accounts of an unoarena server from its machine."))
    sub = p.add_subparsers(title=_("accounts commands"), metavar="COMMAND")
    r = sub.add_parser(
        "reset-password", parents=list(parents),
        help=_("set a new password for an account and sign it out everywhere"),
        description=_("Set a new password for the account NAME and end all its sessions. The "
                      "password is asked for twice at a terminal, or read as one line from "
                      "standard input; never give it on the command line."))
    r.add_argument("name", metavar="NAME", help=_("the account's name (any case)"))
    r.add_argument("--database-url", default=None, metavar="URL",
                   help=_("the server's database, as given to serve --database-url "
                          "(default: the SQLite file in ~/.local/share/unoarena)"))
    r.set_defaults(handler=run_reset_password)
    p.set_defaults(help_of=p)  # without a subcommand: its help (cli.main)
    return p


def read_password(stdin: TextIO) -> str | None:
    """The new password: asked twice at a terminal (None when the two differ), else the first
    line of ``stdin`` without its line break."""
    if stdin.isatty():
        first = getpass.getpass(_("New password: "))
        if getpass.getpass(_("The same again: ")) != first:
            return None
        return first
    return stdin.readline().rstrip("\r\n")


def _error(message: str) -> None:
    print(_("error: {message}").format(message=message), file=sys.stderr)


def run_reset_password(args: argparse.Namespace) -> int:
    """Set the new password of ``args.name`` and end its sessions; the exit status (1: no such
    account or no database to change, 2: a password the server would refuse)."""
    try:
        from .accounts import PASSWORD_MAX, PASSWORD_MIN, hash_password, reset_password
        from .cli_serve import _safe
        from .store import Store, brief, require_driver
    except ImportError as e:
        _error(_("accounts need the 'web' extra: pip install 'unoarena[web]' ({error})"
                 ).format(error=e))
        return 2
    try:
        require_driver(args.database_url)
    except ImportError as e:
        _error(str(e))
        return 2
    password = read_password(sys.stdin)
    if password is None:
        _error(_("the two passwords differ; nothing was changed"))
        return 2
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        _error(_("a password has {min} to {max} characters; nothing was changed").format(
            min=PASSWORD_MIN, max=PASSWORD_MAX))
        return 2
    store = Store(args.database_url)
    try:
        ended = reset_password(store, args.name, hash_password(password))
    except Exception as e:
        _error(_("cannot change the accounts of the database {url}: {error}").format(
            url=_safe(store.url), error=brief(e)))
        return 1
    finally:
        store.close()
    if ended is None:
        _error(_("there is no account {name} in {url}").format(name=args.name,
                                                               url=_safe(store.url)))
        return 1
    name, sessions = ended
    print(ngettext("The password of {name} is changed; {n} session was signed out.",
                   "The password of {name} is changed; {n} sessions were signed out.",
                   sessions).format(name=name, n=sessions))
    return 0
