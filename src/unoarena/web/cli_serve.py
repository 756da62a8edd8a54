"""``unoarena serve``: start the server for friends on this machine or network.

Two commands are enough: install with the ``web`` extra, then ``unoarena serve --host 0.0.0.0``
and share the printed link. ``--database-url`` points it at PostgreSQL instead of the default
SQLite file; the schema is migrated at every start. A host runs several processes sharing the
rooms (``--workers N`` on this port, or processes on several machines behind a proxy) with
PostgreSQL and ``--broker-url`` (Redis): see cluster.py.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import socket
import sys
import threading
import webbrowser
from collections.abc import Sequence
from typing import Any

from ..text.i18n import _

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def add_serve_parser(subparsers: Any,
                     parents: Sequence[argparse.ArgumentParser] = ()) -> argparse.ArgumentParser:
    """Add the ``serve`` command to the ``unoarena`` command line."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "serve", parents=list(parents),
        help=_("play in the browser: start a server for friends"),
        description=_("Start the unoarena server: rooms, the browser page and its database."))
    configure_parser(p)
    p.set_defaults(handler=run_serve)
    return p


def configure_parser(p: argparse.ArgumentParser) -> None:
    """Add the server's options to ``p``: shared by ``unoarena serve`` and
    ``python -m unoarena.web``."""
    p.add_argument("--host", default=DEFAULT_HOST,
                   help=_("address to listen on (0.0.0.0: every network; default "
                          "127.0.0.1)"))
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=_("port (default 8000)"))
    p.add_argument("--database-url", default=None, metavar="URL",
                   help=_("SQLAlchemy database URL, e.g. postgresql://user@host/db "
                          "(default: a SQLite file in ~/.local/share/unoarena)"))
    p.add_argument("--open", action="store_true", help=_("open the page in a browser"))
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help=_("server processes sharing this port (default 1; more need "
                          "--broker-url and a PostgreSQL --database-url)"))
    p.add_argument("--broker-url", default=None, metavar="URL",
                   help=_("Redis URL, e.g. redis://127.0.0.1:6379: this process shares the "
                          "rooms with every other one given the same database and broker"))
    p.add_argument("--forwarded-allow-ips", default=None, metavar="IPS",
                   help=_("addresses of the proxies whose X-Forwarded-For header names the "
                          "client, comma-separated, or * for any (default: the "
                          "FORWARDED_ALLOW_IPS environment variable, else 127.0.0.1); each "
                          "client's limits then count apart"))
    p.add_argument("--accounts", action="store_true",
                   help=_("let people create accounts and play rated games (leaderboards, "
                          "profiles); without it everyone plays as a guest"))
    adv = p.add_argument_group(_("advanced"))
    adv.add_argument("--bot-delay", type=float, default=1.0, metavar="S",
                     help=_("seconds a bot waits before its turn (default 1)"))
    adv.add_argument("--window-delay", type=float, default=0.8, metavar="S",
                     help=_("seconds before a bot catches or jumps in (default 0.8)"))
    adv.add_argument("--round-pause", type=float, default=4.0, metavar="S",
                     help=_("seconds between rounds before bots play on (default 4)"))
    adv.add_argument("--away-after", type=float, default=30.0, metavar="S",
                     help=_("seconds a disconnected player may keep the table waiting "
                            "before a bot plays for them (default 30)"))
    adv.add_argument("--quick-wait", type=float, default=20.0, metavar="S",
                     help=_("seconds a new quick-play table waits for people before bots "
                            "take its empty seats (default 20)"))
    adv.add_argument("--idle-after", type=float, default=120.0, metavar="S",
                     help=_("seconds a connected player may keep the table waiting at their "
                            "turn before a bot makes that move (0: never; rooms with a turn "
                            "timer use the timer instead; default 120)"))
    adv.add_argument("--remote-move-s", type=float, default=5.0, metavar="S",
                     help=_("seconds a remote bot may take a move before its stand-in makes "
                            "it (rooms with a turn timer use the timer instead; default 5)"))
    adv.add_argument("--rate", type=float, default=20.0, metavar="N",
                     help=_("messages a second a connection may send (default 20)"))
    adv.add_argument("--create-rate", type=float, default=1.0, metavar="N",
                     help=_("rooms a second one address may create, on average (0: no "
                            "limit; default 1)"))
    adv.add_argument("--lease-ttl", type=float, default=4.0, metavar="S",
                     help=_("with several processes: seconds before the rooms of a process "
                            "that stopped are taken over (default 4)"))
    adv.add_argument("--log-level", default="info",
                     choices=("debug", "info", "warning", "error"),
                     help=_("how much the server logs: debug, info (default), warning or "
                            "error"))


def cluster_problem(workers: int, database_url: str | None, broker_url: str | None
                    ) -> str | None:
    """Why these options cannot run (several processes need PostgreSQL and a broker), or
    None."""
    if workers < 1:
        return _("--workers must be at least 1, not {n}").format(n=workers)
    if workers > 1 and not broker_url:
        return _("--workers {n} needs --broker-url redis://host:6379 and --database-url "
                 "postgresql://user@host/db: the processes share the rooms through "
                 "them").format(n=workers)
    if broker_url:
        url = (database_url or "sqlite").lower()
        if not url.startswith("postgres"):
            return _("several server processes need PostgreSQL: give --database-url "
                     "postgresql://user@host/db (SQLite is for one process: leave out "
                     "--broker-url and --workers to use it)")
        if not broker_url.lower().startswith(("redis://", "rediss://", "unix://")):
            return _("--broker-url must be a Redis URL (redis://host:6379, rediss://... or "
                     "unix://...), not {url}").format(url=broker_url[:60])
    return None


def run_serve(args: argparse.Namespace) -> int:
    """Run the server until interrupted; returns the exit status."""
    problem = cluster_problem(args.workers, args.database_url, args.broker_url)
    if not 0 < args.lease_ttl <= 3600:
        problem = _("--lease-ttl must be more than 0 and at most 3600 seconds, not "
                    "{s}").format(s=args.lease_ttl)
    if not 0 < args.remote_move_s <= 3600:
        problem = _("--remote-move-s must be more than 0 and at most 3600 seconds, not "
                    "{s}").format(s=args.remote_move_s)
    if problem:
        print(_("error: {message}").format(message=problem), file=sys.stderr)
        return 2
    try:
        import uvicorn

        from .app import CONFIG_ENV, create_app
        from .rooms import ServerConfig
        from .store import Store, require_driver
    except ImportError as e:
        print(_("error: the web server needs the 'web' extra: pip install 'unoarena[web]' "
                "({error})").format(error=e), file=sys.stderr)
        return 2
    try:
        require_driver(args.database_url)
    except ImportError as e:  # PostgreSQL without the 'postgres' extra
        print(_("error: {message}").format(message=e), file=sys.stderr)
        return 2
    config = ServerConfig(database_url=args.database_url, bot_delay=args.bot_delay,
                          window_delay=args.window_delay, round_pause=args.round_pause,
                          away_after=args.away_after, idle_after=args.idle_after,
                          quick_wait=args.quick_wait, remote_move_s=args.remote_move_s,
                          rate=args.rate,
                          burst=max(args.rate * 2, 1.0), create_rate=args.create_rate,
                          tune_gc=True, broker_url=args.broker_url,
                          lease_ttl=args.lease_ttl, heartbeat=min(1.0, args.lease_ttl / 4),
                          accounts=args.accounts)
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(message)s")
    quiet_libraries(args.log_level)
    problem = _port_problem(args.host, args.port)
    if problem:
        print(_("error: cannot listen on {host}:{port}: {problem} (choose another with "
                "--port)").format(host=args.host, port=args.port, problem=problem),
              file=sys.stderr)
        return 1
    store = Store(args.database_url)
    problem = _reach(store, args.broker_url)
    if problem:
        store.close()
        print(_("error: {message}").format(message=problem), file=sys.stderr)
        return 2
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    url = f"http://{shown}:{args.port}/"

    def ready() -> None:
        print(_("unoarena is ready at {url} (Ctrl+C stops it)").format(url=url), flush=True)
        if args.open:
            threading.Timer(1.0, webbrowser.open, (url,)).start()

    options: dict[str, Any] = {
        "host": args.host, "port": args.port, "log_level": args.log_level,
        "ws_max_size": 64 * 1024, "ws_ping_interval": 20.0, "ws_ping_timeout": 20.0,
        "ws_per_message_deflate": False, "access_log": False,
        # without it a proxy on another address is every client at once (one limit for all)
        "forwarded_allow_ips": forwarded_allow_ips(args.forwarded_allow_ips)}
    try:
        if args.workers > 1:  # uvicorn starts each process from the factory, and restarts
            # one that dies; the parent's configuration reaches them in the environment
            store.close()  # each process holds the database (shared) for itself
            os.environ[CONFIG_ENV] = json.dumps(dataclasses.asdict(config))
            ready()
            uvicorn.run("unoarena.web.app:app_from_env", factory=True,
                        workers=args.workers, **options)
        else:  # the database this process holds already; ready once the rooms are loaded
            uvicorn.run(create_app(config, store=store, ready=ready), **options)
    except KeyboardInterrupt:
        pass
    except SystemExit as e:  # uvicorn exits when it cannot start (its log says why)
        return e.code if isinstance(e.code, int) and e.code else 1
    except OSError as e:
        print(_("error: {message}").format(message=e), file=sys.stderr)
        return 1
    finally:
        store.close()
    return 0


def forwarded_allow_ips(option: str | None) -> str:
    """The proxies trusted to name the client: the option, else ``FORWARDED_ALLOW_IPS``, else
    this machine only (uvicorn's own default)."""
    return option or os.environ.get("FORWARDED_ALLOW_IPS") or "127.0.0.1"


def _reach(store: Any, broker_url: str | None) -> str | None:
    """Why the server cannot start on this database and broker (or None): either cannot be
    reached (both are tried before anything is changed), the schema cannot be brought up to
    date, or another server without a broker holds the database. On success the database is
    held for this process (Store.claim)."""
    from .store import DatabaseBusy, brief

    where = _safe(store.url)
    try:
        store.ping()
    except Exception as e:
        return _("cannot reach the database {url}: {error}").format(url=where, error=brief(e))
    if broker_url:
        import redis

        try:
            redis.Redis.from_url(broker_url, socket_connect_timeout=3, socket_timeout=3).ping()
        except Exception as e:
            return _("cannot reach the broker {url}: {error}").format(
                url=_safe(broker_url), error=str(e).splitlines()[0] if str(e) else
                type(e).__name__)
    try:
        store.migrate()
    except Exception as e:
        return _("cannot prepare the database {url}: {error}").format(url=where,
                                                                     error=brief(e))
    try:
        store.claim(shared=bool(broker_url))
    except DatabaseBusy as e:
        return _(e.template).format(**e.params)
    except Exception as e:
        return _("cannot reach the database {url}: {error}").format(url=where, error=brief(e))
    return None


def _safe(url: str) -> str:
    """A database or broker URL without its password, for messages."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL SQLAlchemy reads: say only where it points
        return url.split("@")[-1]


def quiet_libraries(level: str) -> None:
    """Alembic says at INFO every plugin it loads and how it migrates, at every start: only
    its warnings are the server's business, unless the log is for debugging."""
    if level.lower() != "debug":
        logging.getLogger("alembic").setLevel(logging.WARNING)


def _port_problem(host: str, port: int) -> str | None:
    """Why the server could not listen there, before anything starts (or None)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as e:
            return e.strerror or str(e)
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m unoarena.web``: the server without the rest of the CLI; the exit status."""
    parser = argparse.ArgumentParser(prog="python -m unoarena.web",
                                     description=_("Start the unoarena server."))
    configure_parser(parser)
    return run_serve(parser.parse_args(argv))
