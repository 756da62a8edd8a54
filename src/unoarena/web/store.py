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
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
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
    select,
    text,
)
from sqlalchemy.engine import make_url

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


@dataclass
class PlayerRow:
    player: int
    kind: str
    name: str
    token_hash: str | None
    bot: str


@dataclass
class ActionRow:
    round_no: int
    seq: int
    seat: int
    action: str
    source: str


@dataclass
class RoomRow:
    id: str
    status: str
    rules: dict[str, Any]
    host: int
    match_no: int
    created_at: float
    players: list[PlayerRow] = field(default_factory=list)
    seed: int | None = None  # the current match's
    actions: list[ActionRow] = field(default_factory=list)  # the current match's


class StoreError(RuntimeError):
    """The database refused a write; the room that asked rebuilds itself from the log."""


_STOP = object()


class Store:
    """One database. Reads are synchronous (start-up, replays); writes go through
    :meth:`write`, which resolves once the transaction holding them has committed."""

    def __init__(self, url: str | None = None, *, schema: str | None = None) -> None:
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
        elif schema:
            kwargs["connect_args"] = {"options": f"-csearch_path={schema}"}
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self.commits = 0
        self.writes = 0

    # -- schema ---------------------------------------------------------------------------
    def migrate(self) -> None:
        """Bring the schema to the newest migration (run at every start)."""
        from alembic import command
        from alembic.config import Config

        with self.engine.begin() as conn:
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
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="unoarena-db-writer",
                                            daemon=True)
            self._thread.start()

    def close(self) -> None:
        if self._thread is not None:
            self._queue.put(_STOP)
            self._thread.join(timeout=10)
            self._thread = None
        self.engine.dispose()

    def write(self, fn: Callable[[Connection], None]) -> asyncio.Future[None]:
        """Queue ``fn(conn)``; the future resolves after its transaction commits."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._queue.put((fn, fut, loop))
        return fut

    def write_sync(self, fn: Callable[[Connection], None]) -> None:
        """Queue ``fn(conn)`` and wait for the commit (outside the event loop)."""
        done = threading.Event()
        box: list[BaseException] = []

        def wrapped(conn: Connection) -> None:
            fn(conn)

        self._queue.put((wrapped, (done, box), None))
        if self._thread is None:
            self._drain_once()
        done.wait()
        if box:
            raise box[0]

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

    def _drain_once(self) -> None:
        batch = []
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is not _STOP:
                batch.append(item)
        if batch:
            self._commit(batch)

    def _commit(self, batch: list[Any]) -> None:
        results: list[BaseException | None]
        try:
            with self.engine.begin() as conn:
                _run_batch(conn, [fn for fn, _w, _l in batch])
            results = [None] * len(batch)
            self.commits += 1
        except Exception:  # isolate the failing write: the others still commit
            results = []
            for fn, _w, _l in batch:
                try:
                    with self.engine.begin() as conn:
                        fn(conn)
                    results.append(None)
                    self.commits += 1
                except Exception as e:  # reported to the one that asked
                    results.append(StoreError(f"the database refused a write: {e}"))
        self.writes += len(batch)
        for (_fn, waiter, loop), err in zip(batch, results, strict=True):
            if loop is None:
                done, box = waiter
                if err is not None:
                    box.append(err)
                done.set()
            elif not loop.is_closed():
                loop.call_soon_threadsafe(_resolve, waiter, err)

    # -- reads ----------------------------------------------------------------------------
    @contextmanager
    def reading(self) -> Iterator[Connection]:
        with self.engine.connect() as conn:
            yield conn

    def load_rooms(self) -> list[RoomRow]:
        """Every room with its players and its current (or last) match's actions."""
        out: list[RoomRow] = []
        with self.reading() as conn:
            for r in conn.execute(select(rooms).order_by(rooms.c.created_at)).mappings():
                out.append(RoomRow(r["id"], r["status"], json.loads(r["rules"]), r["host"],
                                   r["match_no"], r["created_at"]))
            by_id = {r.id: r for r in out}
            for p in conn.execute(select(players).order_by(players.c.room_id,
                                                           players.c.player)).mappings():
                room = by_id.get(p["room_id"])
                if room is not None:
                    room.players.append(PlayerRow(p["player"], p["kind"], p["name"],
                                                  p["token_hash"], p["bot"]))
            for m in conn.execute(select(matches.c.room_id, matches.c.match_no,
                                         matches.c.seed)).mappings():
                room = by_id.get(m["room_id"])
                if room is not None and room.match_no == m["match_no"]:
                    room.seed = int(m["seed"])
            live = [r for r in out if r.seed is not None]
            for room in live:
                room.actions = self.match_actions(room.id, room.match_no, conn)
        return out

    def match_actions(self, room_id: str, match_no: int,
                      conn: Connection | None = None) -> list[ActionRow]:
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
                   people: Sequence[PlayerRow]) -> Callable[[Connection], None]:
    now = time.time()
    rules_json = json.dumps(rules)
    player_rows = [{"room_id": room_id, "player": p.player, "kind": p.kind, "name": p.name,
                    "token_hash": p.token_hash, "bot": p.bot} for p in people]

    def run(conn: Connection) -> None:
        conn.execute(rooms.insert().values(id=room_id, created_at=now, updated_at=now,
                                           status="lobby", rules=rules_json, host=host,
                                           match_no=0))
        conn.execute(players.insert(), player_rows)
    return run


def op_set_player(room_id: str, p: PlayerRow) -> Callable[[Connection], None]:
    values = {"kind": p.kind, "name": p.name, "token_hash": p.token_hash, "bot": p.bot}

    def run(conn: Connection) -> None:
        conn.execute(players.update().where(players.c.room_id == room_id,
                                            players.c.player == p.player).values(**values))
    return run


def op_start_match(room_id: str, match_no: int, seed: int, rules: dict[str, Any],
                   names: list[str], people: Sequence[PlayerRow]
                   ) -> Callable[[Connection], None]:
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


class ActionsOp:
    """Append actions to the log. The writer merges the appends that follow one another in a
    batch into one multi-row insert: on a busy server most of a batch is appends, and one
    statement for all of them costs a fraction of one per room."""

    __slots__ = ("values",)

    def __init__(self, values: list[dict[str, Any]]) -> None:
        self.values = values

    def __call__(self, conn: Connection) -> None:
        conn.execute(actions.insert(), self.values)


def op_actions(room_id: str, match_no: int, rows: Sequence[ActionRow]) -> ActionsOp:
    now = time.time()
    return ActionsOp([{"room_id": room_id, "match_no": match_no, "round_no": a.round_no,
                       "seq": a.seq, "seat": a.seat, "action": a.action, "source": a.source,
                       "at": now} for a in rows])


def _run_batch(conn: Connection, fns: Sequence[Callable[[Connection], None]]) -> None:
    """Run a batch's writes in order, consecutive appends to the log as one insert."""
    merged: list[dict[str, Any]] = []
    for fn in fns:
        if isinstance(fn, ActionsOp):
            merged += fn.values
            continue
        if merged:
            conn.execute(actions.insert(), merged)
            merged = []
        fn(conn)
    if merged:
        conn.execute(actions.insert(), merged)


def op_finish_match(room_id: str, match_no: int, winners: list[int],
                    scores: list[int]) -> Callable[[Connection], None]:
    now = time.time()

    def run(conn: Connection) -> None:
        conn.execute(matches.update().where(matches.c.room_id == room_id,
                                            matches.c.match_no == match_no).values(
            finished_at=now, winners=json.dumps(winners), scores=json.dumps(scores)))
        conn.execute(rooms.update().where(rooms.c.id == room_id).values(
            status="finished", updated_at=now))
    return run
