"""Persistence: rooms, players, matches and the append-only action log, through SQLAlchemy.

A match is its rules, its seed and its actions (DIG-1), so the database stores exactly that and
a restarted server rebuilds every room by replaying the log. All writes go through one writer
thread that commits whatever has queued up in one transaction (group commit): a room awaits the
commit of its action before anyone hears of it, yet a busy server pays one commit for many
actions, which matters most on PostgreSQL where every commit is a disk flush.
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKeyConstraint,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    false,
    select,
    text,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as SATimeoutError

from ..text.i18n import N_

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"

metadata = MetaData()

rooms = Table(
    "rooms", metadata,
    Column("id", String(32), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("status", String(16), nullable=False),
    Column("rules", Text, nullable=False),
    Column("host", Integer, nullable=False),
    Column("match_no", Integer, nullable=False),
    Column("public", Boolean, nullable=False, server_default=false()),  # listed in the lobby
    Column("fill_bot", String(64)),  # a quick-play table: the bot its empty seats get
    Column("rated", Boolean, nullable=False, server_default="0"),  # the host's choice
)

players = Table(
    "players", metadata,
    Column("room_id", String(32), primary_key=True),
    Column("player", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("name", String(64), nullable=False),
    Column("token_hash", String(64)),
    Column("bot", String(64), nullable=False),
    ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE"),
)

matches = Table(
    "matches", metadata,
    Column("room_id", String(32), primary_key=True),
    Column("match_no", Integer, primary_key=True),
    Column("seed", BigInteger, nullable=False),
    Column("rules", Text, nullable=False),
    Column("names", Text, nullable=False),
    Column("started_at", Float, nullable=False),
    Column("finished_at", Float),
    Column("winners", Text),
    Column("scores", Text),
    ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE"),
)

actions = Table(
    "actions", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room_id", String(32), nullable=False),
    Column("match_no", Integer, nullable=False),
    Column("round_no", Integer, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("action", String(255), nullable=False),
    Column("source", String(8), nullable=False),
    Column("at", Float, nullable=False),
    UniqueConstraint("room_id", "match_no", "seq", name="uq_actions_seq"),
    ForeignKeyConstraint(["room_id", "match_no"], ["matches.room_id", "matches.match_no"],
                         ondelete="CASCADE"),
)


room_leases = Table(
    "room_leases", metadata,
    Column("room_id", String(32), primary_key=True),
    Column("owner", String(96), nullable=False),
    Column("expires_at", Float, nullable=False),  # seconds since the epoch, the database's clock
    ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE"),
)

#: PostgreSQL advisory lock held while migrating ("unoarena" in ASCII)
MIGRATE_LOCK = 0x756E6F6172656E61
#: The first key of the advisory lock that guards a schema for its server ("uno!"); the second
#: is the schema's hash (see :meth:`Store.claim`).
GUARD_KEY = 0x756E6F21

#: The database's clock in seconds since the epoch: every process compares leases on one clock.
DB_NOW = "EXTRACT(EPOCH FROM clock_timestamp())"


def default_url() -> str:
    """A SQLite file in the user's data directory (``$XDG_DATA_HOME/unoarena``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    path = Path(base) / "unoarena" / "server.sqlite3"
    return f"sqlite:///{path}"


def normalize_url(url: str) -> str:
    """Accept the usual spellings: ``postgres://`` and ``postgresql://`` use psycopg 3."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    return url


def require_driver(url: str | None) -> None:
    """Refuse, by name, a database whose driver is not installed: PostgreSQL's (psycopg) is
    the ``postgres`` extra, so that a server on SQLite installs nothing it does not use."""
    u = make_url(normalize_url(url or default_url()))
    try:
        u.get_dialect().import_dbapi()
    except ImportError as e:
        extra = "" if u.get_backend_name() == "sqlite" else " pip install 'unoarena[postgres]'"
        raise ImportError(f"the database {u.render_as_string(hide_password=True)} needs a "
                          f"driver that is not installed:{extra} ({e})") from e


@dataclass
class PlayerRow:
    """A ``players`` row: a place at a room's table by player number (joining order),
    with its kind, name, hashed seat token and bot spec."""

    player: int
    kind: str
    name: str
    token_hash: str | None
    bot: str


@dataclass
class ActionRow:
    """An ``actions`` row: one engine action of a match with its round (from 0), its
    number in the match (``seq``, from 1), the seat, and its source (human, bot, away or timer)."""

    round_no: int
    seq: int
    seat: int
    action: str
    source: str


@dataclass
class RoomRow:
    """A room as stored, with its players and the seed and actions of its current (or
    last) match: what :class:`RoomManager` replays it from."""

    id: str
    status: str
    rules: dict[str, Any]
    host: int
    match_no: int
    created_at: float
    players: list[PlayerRow] = field(default_factory=list)
    seed: int | None = None  # the current match's
    actions: list[ActionRow] = field(default_factory=list)  # the current match's
    public: bool = False  # listed in the lobby (else found by its link only)
    fill_bot: str | None = None  # a quick-play table: the bot its empty seats get
    rated: bool = False


class StoreError(RuntimeError):
    """The database refused a write, or could not be reached (``unreachable``: the connection
    failed or broke, so the server cannot tell whether a write in flight committed); the room
    that asked goes back to what its stored log holds."""

    def __init__(self, message: str, *, unreachable: bool = False, cause: str = "") -> None:
        super().__init__(message)
        self.unreachable = unreachable
        self.cause = cause or message  # the driver's own words, for the log


class DatabaseBusy(RuntimeError):
    """Another server process without a broker serves this database (see :meth:`Store.claim`):
    ``template`` (an English msgid) formatted with ``params`` says who and what to do."""

    def __init__(self, template: str, **params: str) -> None:
        super().__init__(template.format(**params))
        self.template = template
        self.params = params


BUSY_SHARED = N_("another unoarena server{who} serves the database {url} without a broker; "
                 "processes that share a database must all be given the same --broker-url "
                 "(or stop that one first)")
BUSY_ALONE = N_("another unoarena server{who} already serves the database {url}; processes "
                "that share a database must all be given the same --broker-url, or give this "
                "one a database of its own")


def unreachable(e: BaseException) -> bool:
    """Whether ``e`` says the database could not be reached (rather than that it refused
    something): a connection that failed, broke or timed out."""
    if isinstance(e, StoreError):
        return e.unreachable
    if isinstance(e, (OperationalError, InterfaceError, SATimeoutError)):
        return True
    return isinstance(e, DBAPIError) and bool(e.connection_invalidated)


def brief(e: BaseException) -> str:
    """One line of what went wrong, without the statement and its parameters (which SQLAlchemy
    puts in an error's text: a multi-row insert would fill the log)."""
    if isinstance(e, StoreError):
        return e.cause
    orig = getattr(e, "orig", None)
    text_ = str(orig if orig is not None else e).strip().splitlines()
    return (text_[0] if text_ else type(e).__name__)[:300]


_STOP = object()


class Store:
    """One database. Reads are synchronous (start-up, replays); writes go through
    :meth:`write`, which resolves once the transaction holding them has committed."""

    def __init__(self, url: str | None = None, *, schema: str | None = None) -> None:
        require_driver(url)
        self.url = normalize_url(url or default_url())
        self.schema = schema
        u = make_url(self.url)
        self.is_sqlite = u.get_backend_name() == "sqlite"
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            db = u.database
            if db and db != ":memory:":
                Path(db).expanduser().parent.mkdir(parents=True, exist_ok=True)
            kwargs["connect_args"] = {"check_same_thread": False}
        else:
            kwargs["connect_args"] = _pg_connect_args(u.query, schema)
            # a pooled connection the database dropped (it restarted, a proxy between cut it) is
            # found before a write uses it, so that the first move after an outage goes through
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        #: set when several processes share the database: appends to a room's log commit only
        #: while this process holds the room's lease (see :func:`_check_leases`)
        self.owner: str | None = None
        self.commits = 0
        self.writes = 0
        self._guard: Any = None  # what holds the database for this process (see claim)
        self._guard_shared = False

    # -- schema ---------------------------------------------------------------------------
    def migrate(self) -> None:
        """Bring the schema to the newest migration (run at every start)."""
        from alembic import command
        from alembic.config import Config

        with self.engine.begin() as conn:
            if self.engine.dialect.name == "postgresql":
                # processes starting together migrate one after another
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATE_LOCK})
            if self.schema and not self.is_sqlite:
                conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"'))
            cfg = Config()
            cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    def drop_schema(self) -> None:
        """Remove a test schema (PostgreSQL) and everything in it."""
        if self.schema and not self.is_sqlite:
            with self.engine.begin() as conn:
                conn.execute(text(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE'))

    # -- the writer -----------------------------------------------------------------------
    def start(self) -> None:
        """Start the writer thread (once); :meth:`write` futures resolve only once it runs."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="unoarena-db-writer",
                                            daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Let the writer commit what is queued, stop it, let go of the database (see
        :meth:`claim`) and close its connections."""
        if self._thread is not None:
            self._queue.put(_STOP)
            self._thread.join(timeout=10)
            self._thread = None
        self.release()
        self.engine.dispose()

    # -- reachability and the one-server guard ------------------------------------------------
    def ping(self) -> None:
        """Reach the database (a trivial query); raises what the driver raises when it cannot."""
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    def claim(self, shared: bool, wait: float = 3.0) -> None:
        """Hold the database for this server, for as long as the process runs: exclusively for
        a server without a broker, shared among the processes of one with a broker. Two
        processes that each think they own every room would serve the same rooms apart and
        fork their logs; the second is refused with a :class:`DatabaseBusy` saying who holds
        the database. On PostgreSQL an advisory lock of the schema held by a connection of its
        own (the database lets go of it when the process dies); on SQLite a lock on a file
        beside the database's. ``wait``: seconds to wait for a holder that is going away (a
        process killed a moment ago). Claiming again (the database came back) keeps a hold
        that survived and takes one that did not."""
        if self._guard is not None and self._guard_alive():
            return
        self.release()
        deadline = time.monotonic() + wait
        while True:
            if self._try_claim(shared):
                self._guard_shared = shared
                return
            if time.monotonic() >= deadline:
                holders = "" if self.is_sqlite else self._holders()
                raise DatabaseBusy(BUSY_SHARED if shared else BUSY_ALONE,
                                   who=f" ({holders})" if holders else "",
                                   url=make_url(self.url).render_as_string(hide_password=True))
            time.sleep(0.2)

    def _try_claim(self, shared: bool) -> bool:
        if self.is_sqlite:
            db = make_url(self.url).database
            if not db or db == ":memory:":
                self._guard = True
                return True
            import fcntl

            path = Path(db).expanduser()
            fd = os.open(path.with_name(path.name + ".lock"), os.O_CREAT | os.O_RDWR, 0o644)
            try:
                fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                return False
            self._guard = fd
            return True
        conn = self.engine.connect()
        fn = "pg_try_advisory_lock_shared" if shared else "pg_try_advisory_lock"
        try:
            got = conn.execute(text(f"SELECT {fn}(:k, hashtext(current_schema()))"),
                               {"k": GUARD_KEY}).scalar()
            conn.commit()
        except Exception:
            conn.close()
            raise
        if not got:
            conn.close()
            return False
        self._guard = conn
        return True

    def _guard_alive(self) -> bool:
        if not isinstance(self._guard, Connection):
            return True  # a file lock lasts as long as the process
        try:
            self._guard.execute(text("SELECT 1"))
            self._guard.commit()
            return True
        except Exception:  # the connection died with the outage, and its lock with it
            return False

    def release(self) -> None:
        """Let go of the database (see :meth:`claim`)."""
        guard, self._guard = self._guard, None
        if guard is None or guard is True:
            return
        with suppress(Exception):  # a connection that is already gone
            # a lock dies with its session (PostgreSQL) or its file (SQLite)
            if isinstance(guard, int):
                os.close(guard)
            else:  # closed, not handed back to the pool with the lock still held
                guard.invalidate()
                guard.close()

    def _holders(self) -> str:
        """The processes holding this schema's guard, as the database knows them."""
        try:
            with self.engine.connect() as conn:
                key = conn.execute(text("SELECT hashtext(current_schema())")).scalar_one()
                rows = conn.execute(text(
                    "SELECT a.application_name, a.client_addr, l.objid FROM pg_locks l "
                    "JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' "
                    "AND l.granted AND l.classid = :k"), {"k": GUARD_KEY}).all()
        except Exception:  # the message only says less
            return ""
        names = sorted({f"{r[0] or 'a client'}" + (f" at {r[1]}" if r[1] else "")
                        for r in rows if int(r[2]) == int(key) & 0xFFFFFFFF})
        return ", ".join(names[:4])

    def write(self, fn: Callable[[Connection], None]) -> asyncio.Future[None]:
        """Queue ``fn(conn)``; the future resolves after its transaction commits."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._queue.put((fn, fut, loop))
        return fut

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is _STOP:
                return
            batch = [first]
            stop = False
            while True:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is _STOP:
                    stop = True
                    break
                batch.append(item)
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: list[Any]) -> None:
        results: list[BaseException | None]
        try:
            with self.engine.begin() as conn:
                _run_batch(conn, [fn for fn, _w, _l in batch], self.owner)
            results = [None] * len(batch)
            self.commits += 1
        except Exception as e:
            if unreachable(e):  # every write fails alike: trying them one by one would only
                # wait for the database again, once for each
                why = brief(e)
                results = [StoreError(f"the database cannot be reached: {why}",
                                      unreachable=True, cause=why) for _ in batch]
            else:  # isolate the failing write: the others still commit
                results = [self._commit_one(fn) for fn, _w, _l in batch]
        self.writes += len(batch)
        for (_fn, waiter, loop), err in zip(batch, results, strict=True):
            if not loop.is_closed():
                loop.call_soon_threadsafe(_resolve, waiter, err)

    def _commit_one(self, fn: Callable[[Connection], None]) -> StoreError | None:
        try:
            with self.engine.begin() as conn:
                _run_batch(conn, [fn], self.owner)
        except StoreError as e:  # the lease fence
            return e
        except Exception as e:  # reported to the one that asked
            why = brief(e)
            if unreachable(e):
                return StoreError(f"the database cannot be reached: {why}", unreachable=True,
                                  cause=why)
            return StoreError(f"the database refused a write: {why}", cause=why)
        self.commits += 1
        return None

    # -- reads ----------------------------------------------------------------------------
    @contextmanager
    def reading(self) -> Iterator[Connection]:
        """A connection for reads beside the writer; it sees what the writer has
        committed."""
        with self.engine.connect() as conn:
            yield conn

    def load_rooms(self, ids: Sequence[str] | None = None) -> list[RoomRow]:
        """Every room (or those of ``ids``) with its players and its current (or last) match's
        actions."""
        out: list[RoomRow] = []
        q = select(rooms).order_by(rooms.c.created_at)
        if ids is not None:
            q = q.where(rooms.c.id.in_(list(ids)))
        with self.reading() as conn:
            for r in conn.execute(q).mappings():
                out.append(RoomRow(r["id"], r["status"], json.loads(r["rules"]), r["host"],
                                   r["match_no"], r["created_at"], public=bool(r["public"]),
                                   fill_bot=r["fill_bot"], rated=bool(r["rated"])))
            by_id = {r.id: r for r in out}
            pq = select(players).order_by(players.c.room_id, players.c.player)
            mq = select(matches.c.room_id, matches.c.match_no, matches.c.seed)
            if ids is not None:
                pq = pq.where(players.c.room_id.in_(list(ids)))
                mq = mq.where(matches.c.room_id.in_(list(ids)))
            for p in conn.execute(pq).mappings():
                room = by_id.get(p["room_id"])
                if room is not None:
                    room.players.append(PlayerRow(p["player"], p["kind"], p["name"],
                                                  p["token_hash"], p["bot"]))
            for m in conn.execute(mq).mappings():
                room = by_id.get(m["room_id"])
                if room is not None and room.match_no == m["match_no"]:
                    room.seed = int(m["seed"])
            live = [r for r in out if r.seed is not None]
            for room in live:
                room.actions = self.match_actions(room.id, room.match_no, conn)
        return out

    def match_actions(self, room_id: str, match_no: int,
                      conn: Connection | None = None) -> list[ActionRow]:
        """A match's action log in order, on ``conn`` or on a connection of its own:
        for a replay, or a room rebuilding itself."""
        q = (select(actions.c.round_no, actions.c.seq, actions.c.seat, actions.c.action,
                    actions.c.source)
             .where(actions.c.room_id == room_id, actions.c.match_no == match_no)
             .order_by(actions.c.seq))
        if conn is None:
            with self.reading() as c:
                rows = c.execute(q).all()
        else:
            rows = conn.execute(q).all()
        return [ActionRow(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    def finished_matches(self, limit: int = 50) -> list[dict[str, Any]]:
        """The ``limit`` most recently finished matches, newest first, as the
        replays page lists them."""
        with self.reading() as conn:
            rows = conn.execute(
                select(matches).where(matches.c.finished_at.is_not(None))
                .order_by(matches.c.finished_at.desc()).limit(limit)).mappings().all()
        return [{"room": r["room_id"], "match": r["match_no"],
                 "preset": json.loads(r["rules"]).get("preset"),
                 "names": json.loads(r["names"]), "started_at": r["started_at"],
                 "finished_at": r["finished_at"],
                 "winners": json.loads(r["winners"] or "[]"),
                 "scores": json.loads(r["scores"] or "[]")} for r in rows]

    def match_row(self, room_id: str, match_no: int) -> dict[str, Any] | None:
        """One match's record (seed, rules, names, result) for its replay; None when
        there is no such match."""
        with self.reading() as conn:
            r = conn.execute(select(matches).where(matches.c.room_id == room_id,
                                                   matches.c.match_no == match_no)
                             ).mappings().first()
        if r is None:
            return None
        return {"room": r["room_id"], "match": r["match_no"], "seed": int(r["seed"]),
                "rules": json.loads(r["rules"]), "names": json.loads(r["names"]),
                "finished_at": r["finished_at"], "winners": json.loads(r["winners"] or "[]"),
                "scores": json.loads(r["scores"] or "[]")}


def _pg_connect_args(query: Any, schema: str | None) -> dict[str, Any]:
    """How the server connects to PostgreSQL: in ``schema`` (tests), named after this process
    (so that a second server refused by :meth:`Store.claim` can say who holds the database),
    giving up on a connection after a few seconds instead of the system's minutes, and
    finding a dead peer by TCP keepalives: a database that went away is then noticed, and
    noticed coming back, in seconds. Parameters given in the URL win."""
    name = f"unoarena {socket.gethostname()[:30]}:{os.getpid()}"
    args: dict[str, Any] = {"application_name": name, "connect_timeout": 3, "keepalives": 1,
                            "keepalives_idle": 5, "keepalives_interval": 2,
                            "keepalives_count": 3}
    for key in list(args):
        if key in query:
            del args[key]
    if schema:
        args["options"] = f"-csearch_path={schema}"
    return args


def _resolve(fut: asyncio.Future[None], err: BaseException | None) -> None:
    if fut.done():
        return
    if err is None:
        fut.set_result(None)
    else:
        fut.set_exception(err)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """WAL with synchronous=NORMAL: a commit is an append to the log, not a flush, and a
    crash of the server process (not of the machine) still loses nothing committed."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


# -- write operations (each runs inside the writer's transaction) ----------------------------
def op_create_room(room_id: str, rules: dict[str, Any], host: int,
                   people: Sequence[PlayerRow], public: bool = False,
                   fill_bot: str | None = None, rated: bool = False
                   ) -> Callable[[Connection], None]:
    """The write that stores a new room, in the lobby, with all its players (``public``:
    listed in the lobby; ``fill_bot``: a quick-play table's bot for its empty seats;
    ``rated``: the host's choice)."""
    now = time.time()
    rules_json = json.dumps(rules)
    player_rows = [{"room_id": room_id, "player": p.player, "kind": p.kind, "name": p.name,
                    "token_hash": p.token_hash, "bot": p.bot} for p in people]

    def run(conn: Connection) -> None:
        conn.execute(rooms.insert().values(id=room_id, created_at=now, updated_at=now,
                                           status="lobby", rules=rules_json, host=host,
                                           match_no=0, public=public, fill_bot=fill_bot,
                                           rated=rated))
        conn.execute(players.insert(), player_rows)
    return run


def op_set_player(room_id: str, p: PlayerRow) -> Callable[[Connection], None]:
    """The write that updates one player's place (someone joined or left, a seat
    changed kind)."""
    values = {"kind": p.kind, "name": p.name, "token_hash": p.token_hash, "bot": p.bot}

    def run(conn: Connection) -> None:
        conn.execute(players.update().where(players.c.room_id == room_id,
                                            players.c.player == p.player).values(**values))
    return run


def op_start_match(room_id: str, match_no: int, seed: int, rules: dict[str, Any],
                   names: list[str], people: Sequence[PlayerRow]
                   ) -> Callable[[Connection], None]:
    """The write that starts match ``match_no``: its seed, rules and names, the room
    playing, and the players as they are seated."""
    now = time.time()
    rules_json = json.dumps(rules)
    names_json = json.dumps(names)
    updates = [(p.player, {"kind": p.kind, "name": p.name, "token_hash": p.token_hash,
                           "bot": p.bot}) for p in people]

    def run(conn: Connection) -> None:
        conn.execute(matches.insert().values(room_id=room_id, match_no=match_no, seed=seed,
                                             rules=rules_json, names=names_json,
                                             started_at=now))
        conn.execute(rooms.update().where(rooms.c.id == room_id).values(
            status="playing", match_no=match_no, updated_at=now))
        for player, values in updates:
            conn.execute(players.update().where(players.c.room_id == room_id,
                                                players.c.player == player).values(**values))
    return run


class AppendOp:
    """Append rows to a table (the action log, a room's chat). The writer merges the appends
    that follow one another in a batch into one multi-row insert per table: on a busy server
    most of a batch is appends, and one statement for all of them costs a fraction of one per
    room."""

    __slots__ = ("table", "values")

    def __init__(self, table: Table, values: list[dict[str, Any]]) -> None:
        self.table = table
        self.values = values

    def __call__(self, conn: Connection) -> None:
        """Insert the rows on their own (the writer merges consecutive appends instead)."""
        conn.execute(self.table.insert(), self.values)


class ActionsOp(AppendOp):
    """Append actions to the log (see :class:`AppendOp`); with several processes, only to the
    log of a room this process holds the lease of."""

    __slots__ = ()

    def __init__(self, values: list[dict[str, Any]]) -> None:
        super().__init__(actions, values)


def op_actions(room_id: str, match_no: int, rows: Sequence[ActionRow]) -> ActionsOp:
    """The write that appends actions to a match's log, stamped with the time now."""
    now = time.time()
    return ActionsOp([{"room_id": room_id, "match_no": match_no, "round_no": a.round_no,
                       "seq": a.seq, "seat": a.seat, "action": a.action, "source": a.source,
                       "at": now} for a in rows])


def _run_batch(conn: Connection, fns: Sequence[Callable[[Connection], None]],
               owner: str | None = None) -> None:
    """Run a batch's writes in order, consecutive appends as one insert per table (their order
    within a table is kept; rows of different tables do not depend on one another); with an
    ``owner``, first check that it holds the lease of every room the batch appends actions
    to."""
    if owner is not None:
        held = {v["room_id"] for fn in fns if isinstance(fn, ActionsOp) for v in fn.values}
        if held:
            _check_leases(conn, owner, held)
    merged: dict[Table, list[dict[str, Any]]] = {}
    for fn in fns:
        if isinstance(fn, AppendOp):
            merged.setdefault(fn.table, []).extend(fn.values)
            continue
        for table, rows in merged.items():
            conn.execute(table.insert(), rows)
        merged = {}
        fn(conn)
    for table, rows in merged.items():
        conn.execute(table.insert(), rows)


def _check_leases(conn: Connection, owner: str, room_ids: set[str]) -> None:
    """The fence of several processes: a process that lost a room (paused past its lease, cut
    off from the database) must not append to its log after another took it over. The share
    lock holds the leases until this transaction commits, so a take-over waits for it and then
    replays a log that includes these actions."""
    ids = sorted(room_ids)
    rows = conn.execute(text(
        f"SELECT room_id FROM room_leases WHERE room_id = ANY(:ids) AND owner = :me "
        f"AND expires_at > {DB_NOW} ORDER BY room_id FOR SHARE"),
        {"ids": ids, "me": owner}).scalars().all()
    lost = room_ids - set(rows)
    if lost:
        raise StoreError(f"this process no longer holds room(s) {', '.join(sorted(lost))}")


def op_finish_match(room_id: str, match_no: int, winners: list[int],
                    scores: list[int]) -> Callable[[Connection], None]:
    """The write that records a match's winners and final scores and marks the room
    finished."""
    now = time.time()

    def run(conn: Connection) -> None:
        conn.execute(matches.update().where(matches.c.room_id == room_id,
                                            matches.c.match_no == match_no).values(
            finished_at=now, winners=json.dumps(winners), scores=json.dumps(scores)))
        conn.execute(rooms.update().where(rooms.c.id == room_id).values(
            status="finished", updated_at=now))
    return run
