"""Remote bots in the lab: tournament games played at a server's tables, over the protocol.

A remote entrant is a program that plays a remote bot seat (``unoarena bot run``, the Node
client, anything that speaks docs/protocol/). :class:`RemoteArena` serves the web app on a
free port of 127.0.0.1 with a database of its own, and plays every game of a tournament at a
table of it: one room per game, the local bots seated as the room's bots, each remote entrant
at a remote seat whose token its program is handed. The match is one round dealt from the
tournament's deal seed, so every seating of a deal gets the same cards (duplicate deals), and
the results are rated as any tournament's are (:func:`unoarena.lab.tournament.tournament`).

An entrant is given as ``NAME=COMMAND``, where COMMAND holds ``{url}`` and ``{token}`` and is
started for each game (``node clients/node/uno-bot.mjs {url} --token {token}``), or as
``NAME=SPEC``: a registered bot or ``module:Class`` played by this process's own protocol
client (:mod:`unoarena.remote.client`) over a real WebSocket, as ``unoarena bot run`` would.
"""

from __future__ import annotations

import asyncio
import shlex
import subprocess
import tempfile
import threading
import time
from collections.abc import Coroutine, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from ..engine import RuleSet
from ..lab.common import LabError
from ..lab.tournament import GameResult, TourJob
from ..seeding import derive
from ..text.i18n import _
from ..web.app import create_app
from ..web.rooms import FINISHED, Room, ServerConfig
from ..web.store import Store
from .client import RemoteError, load_bot, run_seat

T = TypeVar("T")


def parse_entrants(items: list[str], local: list[str]) -> dict[str, str]:
    """``NAME=COMMAND`` or ``NAME=SPEC`` options as a name -> how mapping; a
    :class:`LabError` for a malformed one, a name used twice or one that is a local bot's."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, how = item.partition("=")
        name, how = name.strip(), how.strip()
        if not sep or not name or not how or "," in name:
            raise LabError(_("--remote {item}: give NAME=COMMAND (with {{url}} and {{token}}) "
                             "or NAME=BOT").format(item=item))
        if name in out or name in local:
            raise LabError(_("--remote {name}: that name is already an entrant").format(
                name=name))
        if "{token}" not in how:
            try:
                load_bot(how)
            except RemoteError as e:
                raise LabError(f"--remote {name}: {e}") from None
        out[name] = how
    return out


class RemoteArena:
    """A server of tables for a tournament with remote entrants (a context manager)."""

    def __init__(self, entrants: Mapping[str, str], *, connect_s: float = 30.0,
                 game_s: float = 600.0, remote_move_s: float = 5.0) -> None:
        self.entrants = dict(entrants)
        self.connect_s, self.game_s = connect_s, game_s
        self.config = ServerConfig(bot_delay=0.0, window_delay=0.0, person_window=0.0,
                                   round_pause=0.0, idle_after=0.0, rate=0.0,
                                   remote_move_s=remote_move_s, max_rooms=1_000_000)
        self._dir = tempfile.TemporaryDirectory(prefix="unoarena-arena-")
        self._store = Store(f"sqlite:///{Path(self._dir.name) / 'arena.sqlite3'}")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready = threading.Event()
        self.url = ""
        self._server: Any = None
        self._thread: threading.Thread | None = None

    def __enter__(self) -> RemoteArena:
        import uvicorn

        app = create_app(self.config, store=self._store, ready=self._on_ready)
        self._app = app
        self._server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0,
                                                     log_level="warning", lifespan="on"))
        self._thread = threading.Thread(target=self._server.run, name="arena", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 30
        while not (self._ready.is_set() and self._server.started):
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise LabError(_("the tables' server did not start"))
            time.sleep(0.01)
        port = self._server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        return self

    def _on_ready(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._ready.set()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(20)
        self._store.close()
        self._dir.cleanup()

    def _call(self, coro: Coroutine[Any, Any, T]) -> T:
        assert self._loop is not None
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(30)

    # -- the games -----------------------------------------------------------------------------
    def play_games(self, job: TourJob, start: int, stop: int) -> list[GameResult]:
        """Games ``start..stop-1`` of the tournament, each at a table of this server (the
        :func:`~unoarena.lab.tournament.play_games` of remote entrants)."""
        rules = RuleSet.from_dict({**job.rules, "rounds": 1})
        return [self._game(job, rules, g) for g in range(start, stop)]

    def _game(self, job: TourJob, rules: RuleSet, g: int) -> GameResult:
        deal, t, rot = job.locate(g)
        seats = job.seating(deal, t, rot)
        names = [job.specs[who] for who in seats]
        plan = [("remote", "basic") if n in self.entrants else ("bot", n) for n in names]
        manager = self._app.state.manager
        room, tokens = self._call(manager.create_table(rules, plan))
        link = f"{self.url}/r/{room.id}"
        players = [self._launch(names[s], link, tok, derive(job.seed, "bot", deal, s))
                   for s, tok in tokens.items()]
        try:
            self._wait(lambda: all(room.players[s].conns for s in tokens), self.connect_s,
                       _("a remote bot did not connect within {s:.0f} s: {names}").format(
                           s=self.connect_s, names=", ".join(names[s] for s in tokens)))
            self._call(room.begin(derive(job.seed, "deal", deal)))
            self._wait(lambda: room.status == FINISHED, self.game_s,
                       _("a game did not end within {s:.0f} s").format(s=self.game_s))
            return _result(room, job, deal, t, rot, seats)
        finally:
            for p in players:
                p.stop()
            assert self._loop is not None
            self._loop.call_soon_threadsafe(manager.drop, room.id)

    def _launch(self, name: str, link: str, token: str, seed: int) -> _Program:
        how = self.entrants[name]
        if "{token}" in how:
            argv = [a.replace("{url}", link).replace("{token}", token) for a in shlex.split(how)]
            return _Process(argv)
        return _InProcess(link, token, how, seed)

    @staticmethod
    def _wait(done: Any, timeout: float, why: str) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                raise LabError(why)
            time.sleep(0.002)


class _Program:
    def stop(self) -> None:
        """Wait a moment for the program to end by itself (it does once the match is
        over), then end it."""


class _Process(_Program):
    """A remote entrant's own command, started for one game."""

    def __init__(self, argv: list[str]) -> None:
        try:
            self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL)
        except OSError as e:
            raise LabError(_("cannot start {command}: {error}").format(command=argv[0],
                                                                       error=e)) from None

    def stop(self) -> None:
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class _InProcess(_Program):
    """A bot of this process played over the protocol, as ``unoarena bot run`` does."""

    def __init__(self, link: str, token: str, spec: str, seed: int) -> None:
        bot = load_bot(spec, seed)
        self.thread = threading.Thread(
            target=lambda: asyncio.run(run_seat(link, token, bot, seed=seed, patience=10.0)),
            daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.thread.join(10)


def _result(room: Room, job: TourJob, deal: int, t: int, rot: int,
            seats: tuple[int, ...]) -> GameResult:
    """The finished one-round match of ``room`` as a tournament game."""
    assert room.match is not None
    res = room.match.results[0]
    out = res.outcome
    rules = room.rules
    p = rules.players
    scores = (tuple(out.scores[rules.team_of(s)] for s in range(p)) if rules.teams
              else tuple(out.scores))
    return GameResult(deal, t, rot, seats, out.winner, tuple(out.hand_points), scores,
                      len(res.actions))
