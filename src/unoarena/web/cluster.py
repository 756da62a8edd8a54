"""Several server processes sharing the rooms: leases in PostgreSQL, messages over Redis.

Each room is owned by one process at a time, the one holding its lease (``room_leases``: owner
and expiry on the database's clock). Only the owner applies actions, so the single server's
rules hold unchanged: the owner's room is the only authority, it computes every seat's view,
and it commits each action before anyone hears of it. A process renews its leases every
``heartbeat`` seconds; one that stops (killed, cut off) loses them after ``lease_ttl``, and the
others take its rooms over by replaying the stored log, as a restarted server does. Appends to
the log are fenced: they commit only while the lease is held (store._check_leases), so a
process that lost a room cannot add to its log, and nothing is applied twice.

A client may reach any process (through any proxy). A process that does not own the client's
room relays: it forwards the WebSocket's messages to the owner, which runs the very session a
local client gets, and the owner sends that connection's outbox back, to that process only.
HTTP calls about a room (its info, joining, a seat link) are forwarded the same way. The
lobby's list of public rooms travels on a channel every process listens to (lobby.py).

Redis pub/sub carries it, one channel per process. Why Redis rather than NATS: ``PUBLISH``
answers how many subscribers got the message, and ``PUBSUB NUMSUB`` how many listen, which tells
at once that a process is gone (its subscription dies with its connection); it is the broker a
host most likely already runs; and redis-py is a small, well-kept dependency. Pub/sub keeps no
message for a listener that is gone, which is what a relay wants: a message for a dead process
is moot, its client reconnects and is told the stored state.

Frames are ``KIND ARG...`` and, after a newline, a payload:
``open CID ORIGIN ROOM LANG``, ``msg CID\\nRAW``, ``close CID`` (a relay to the owner);
``out CID\\nTEXT\\nTEXT...``, ``end CID [CODE\\nREASON]`` (the owner to a relay);
``call ID ORIGIN\\nJSON``, ``reply ID\\nJSON`` (forwarded HTTP calls);
``lobby ORIGIN\\nJSON`` (a process's public rooms that changed) and ``lobby-sync ORIGIN`` (a
process that started asks the others for theirs), on the shared channel :data:`LOBBY`.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import logging
import os
import random
import re
import secrets
import socket
import threading
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from .catalog import T_
from .protocol import ProtocolError
from .rooms import FINISHED, Conn, Room, RoomManager, ServerConfig, store_problem
from .store import DB_NOW, Store, StoreError, brief, unreachable

log = logging.getLogger("unoarena.web.cluster")

CHANNEL = "unoarena:proc:"
LOBBY = "lobby"  # the channel (CHANNEL + LOBBY) of the public rooms' changes, heard by all
_ROOM_ID = re.compile(r"[A-Za-z0-9]{1,32}")
CALL_TIMEOUT = 10.0
BROKER_CONNECTIONS = 32
TAKE_AT_ONCE = 100  # rooms one heartbeat takes over, so that survivors share a dead one's rooms

Receive = Callable[[], Awaitable[str | bytes | None]]
_T = TypeVar("_T")
Session = Callable[[Room, Conn, Receive], Awaitable[None]]
RoomOp = Callable[[Room, str, dict[str, Any]], Awaitable[Any]]

# every statement that locks several leases locks them in the order of their ids (as the log's
# fence does), so that a renewal, a take-over and an append never wait on one another in a cycle
_CLAIM = text(f"""
    INSERT INTO room_leases (room_id, owner, expires_at)
    SELECT id, :me, {DB_NOW} + :ttl FROM rooms WHERE id = ANY(:ids) ORDER BY id
    ON CONFLICT (room_id) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
    WHERE room_leases.expires_at < {DB_NOW} OR room_leases.owner = EXCLUDED.owner
    RETURNING room_id, expires_at""")
_RENEW = text(f"""
    UPDATE room_leases SET expires_at = {DB_NOW} + :ttl
    WHERE owner = :me AND room_id IN (
        SELECT room_id FROM room_leases WHERE owner = :me ORDER BY room_id FOR UPDATE)
    RETURNING room_id, expires_at""")
_RELEASE = text("DELETE FROM room_leases WHERE owner = :me AND room_id = ANY(:ids)")
_RELEASE_ALL = text("DELETE FROM room_leases WHERE owner = :me")
_OWNER = text(f"""
    SELECT l.owner, l.expires_at > {DB_NOW} FROM rooms r
    LEFT JOIN room_leases l ON l.room_id = r.id WHERE r.id = :id""")
_UNHELD = text(f"""
    SELECT r.id, l.owner FROM rooms r LEFT JOIN room_leases l ON l.room_id = r.id
    WHERE r.status <> '{FINISHED}' AND (l.room_id IS NULL OR l.expires_at < {DB_NOW})
    LIMIT 1000""")


class ClusterError(RuntimeError):
    """Several processes cannot run as configured (the message says what is allowed)."""


class OwnerGone(Exception):
    """The process that held a room stopped listening, or let the room go, before anything
    sent to it took effect: look again."""


def _no_answer() -> ProtocolError:
    """What a client is told when no process serves its room in time."""
    return ProtocolError("server_error", T_("the room's server does not answer; try again in "
                                            "a moment"))


def check_database(store: Store) -> None:
    """Refuse SQLite for several processes with a :class:`ClusterError` saying what to
    give instead: the room leases and their row locks need PostgreSQL."""
    if store.is_sqlite:
        raise ClusterError(
            "several server processes need PostgreSQL: give --database-url "
            "postgresql://user@host/db (SQLite is for one process; leave out --broker-url "
            "and --workers to use it)")


@dataclass
class _Inbound:
    """At the owner: a client connected to another process."""

    conn: Conn
    origin: str
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)


@dataclass
class _Outbound:
    """At a relay: a client of this process whose room another process owns."""

    conn: Conn
    owner: str
    room: str


class Cluster:
    """This process's part: its leases, its channel, the clients it relays and serves."""

    def __init__(self, manager: RoomManager, store: Store, config: ServerConfig,
                 session: Session, room_op: RoomOp) -> None:
        check_database(store)
        if not config.broker_url:
            raise ClusterError("several server processes need a broker: give --broker-url "
                               "redis://host:6379")
        if not 0 < config.heartbeat < config.lease_ttl:
            raise ClusterError(f"the heartbeat ({config.heartbeat} s) must be shorter than the "
                               f"lease ({config.lease_ttl} s)")
        import redis.asyncio as aioredis

        self.id = f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"
        self.manager = manager
        self.store = store
        self.config = config
        self.session = session
        self.room_op = room_op
        # a bounded pool that waits for a free connection: a burst of clients (a thousand
        # reconnecting at once) shares a few connections instead of opening one each
        pool = aioredis.BlockingConnectionPool.from_url(
            config.broker_url, decode_responses=True, max_connections=BROKER_CONNECTIONS,
            timeout=CALL_TIMEOUT)
        self.redis: Any = aioredis.Redis(connection_pool=pool)
        self.pubsub: Any = None
        self.expiries: dict[str, float] = {}  # rooms held, and until when (database clock)
        # rooms whose lease this process took and whose log it is replaying (a count: a
        # client's lookup and the heartbeat may claim one room at once)
        self.claiming: collections.Counter[str] = collections.Counter()
        self._claimed = asyncio.Condition()  # notified when a claim ends
        self.inbound: dict[str, _Inbound] = {}
        self.outbound: dict[str, _Outbound] = {}
        self.calls: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        self.taken_over = 0  # rooms this process took from another
        self._ids = itertools.count()
        self._closing = False
        self._stray: set[str] = set()
        self._stop = threading.Event()
        self._outgoing: list[tuple[str, str, asyncio.Future[int]]] = []
        self._wake = asyncio.Event()
        self._thread: threading.Thread | None = None
        self._failing: set[str] = set()  # what is failing now, said once (see trouble)

    def trouble(self, what: str, e: BaseException) -> None:
        """Say once, in one line, that ``what`` fails (the database or the broker is away),
        not at every heartbeat with a traceback."""
        if what not in self._failing:
            self._failing.add(what)
            log.warning("cluster: %s failed: %s: %s (trying again every %.1f s)", what,
                        type(e).__name__, brief(e), self.config.heartbeat)

    def _fine(self, what: str) -> None:
        if what in self._failing:
            self._failing.discard(what)
            log.warning("cluster: %s works again", what)

    @staticmethod
    def channel(process: str) -> str:
        """The broker channel ``process`` listens on: calls and relayed messages for its
        rooms are published there."""
        return CHANNEL + process

    # ======================================================================================
    # start and stop
    # ======================================================================================
    async def start(self) -> int:
        """Listen on this process's channel and take every room that nobody holds; returns
        how many were loaded."""
        self.store.owner = self.id
        self.manager.lease_op = self._lease_op
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self.pubsub.subscribe(self.channel(self.id), self.channel(LOBBY))
        self._spawn(self._listen())
        self._spawn(self._sender())
        lobby = self.manager.lobby
        lobby.me = self.id
        lobby.publish = self._lobby_changed
        self._spawn(self._lobby_publish(f"lobby-sync {self.id}"))
        await self._take_over()
        self._spawn(self._heartbeat())
        self._thread = threading.Thread(target=self._renewer, args=(asyncio.get_running_loop(),),
                                        name="unoarena-leases", daemon=True)
        self._thread.start()
        log.info("cluster process %s: %d room(s) taken", self.id, len(self.manager.rooms))
        return len(self.manager.rooms)

    async def close(self) -> None:
        """Let the rooms go at once (after their last writes), so that the other processes
        take them over without waiting for the leases to run out."""
        self._closing = True
        self._stop.set()
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join, 10)
        for ob in list(self.outbound.values()):
            ob.conn.close()
        for inb in list(self.inbound.values()):
            inb.conn.close()
        await asyncio.sleep(0.05)  # the owner's last frames go out
        me = self.id

        def release(conn: Any) -> None:
            conn.execute(_RELEASE_ALL, {"me": me})

        with suppress(StoreError):  # queued after every write of the rooms: they commit first
            await self.store.write(release)
        for task in list(self.tasks):
            task.cancel()
        with suppress(Exception):
            await self.pubsub.aclose()
        with suppress(Exception):
            await self.redis.aclose()

    def _spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    # ======================================================================================
    # leases
    # ======================================================================================
    def _lease_op(self, room_id: str) -> Callable[[Any], None]:
        me, ttl = self.id, self.config.lease_ttl

        def run(conn: Any) -> None:
            conn.execute(_CLAIM, {"me": me, "ttl": ttl, "ids": [room_id]})
        return run

    def _db(self, stmt: Any, **params: Any) -> list[Any]:
        with self.store.engine.begin() as conn:
            return list(conn.execute(stmt, params).all())

    async def _claim_load(self, ids: list[str], owners: dict[str, str | None] | None = None
                          ) -> None:
        """Take the leases of ``ids`` that nobody holds and rebuild those rooms from the log;
        ``owners``: who held each before (whose lease ran out), for the log."""
        self.claiming.update(ids)
        try:
            got = await asyncio.to_thread(self._db, _CLAIM, me=self.id,
                                          ttl=self.config.lease_ttl, ids=ids)
            if not got:
                return
            for rid, expires in got:
                self.expiries[rid] = float(expires)
            held = [rid for rid, _ in got if rid not in self.manager.rooms]
            await self.manager.load(held)
            loaded = [rid for rid in held if rid in self.manager.rooms]
            self.taken_over += len(loaded)
            self._say_taken(loaded, owners or {})
            failed = [rid for rid in held if rid not in self.manager.rooms]
            if failed:
                await asyncio.to_thread(self._db_release, failed)
        finally:
            self.claiming -= collections.Counter(ids)  # keeps only counts above zero
            async with self._claimed:
                self._claimed.notify_all()

    def _say_taken(self, loaded: list[str], owners: dict[str, str | None]) -> None:
        """Log the rooms this process took over, by the process that held them."""
        by_owner: dict[str, int] = collections.Counter()
        for rid in loaded:
            by_owner[owners.get(rid) or ""] += 1
        for owner, n in sorted(by_owner.items()):
            if not owner:
                log.info("cluster: took %d room(s) that no process held", n)
            elif owner != self.id:
                log.warning("cluster: took over %d room(s) of process %s (its lease ran out)",
                            n, owner)

    def _db_release(self, ids: list[str]) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(_RELEASE, {"me": self.id, "ids": ids})
        for rid in ids:
            self.expiries.pop(rid, None)

    async def _take_over(self) -> None:
        rows = await asyncio.to_thread(self._db, _UNHELD)
        owners = {str(r[0]): r[1] for r in rows}
        ids = list(owners)
        if ids:
            random.shuffle(ids)
            await self._claim_load(ids[:TAKE_AT_ONCE], owners)

    def _renewer(self, loop: asyncio.AbstractEventLoop) -> None:
        """Renew every lease each heartbeat, in a thread of its own: a lease says the process
        is alive, and an event loop held up for seconds (a machine short of CPU) must not make
        the others take its rooms, only to have them taken back."""
        while not self._stop.wait(self.config.heartbeat):
            before = set(self.manager.rooms)  # rooms created or taken meanwhile: next time
            try:
                rows = self._db(_RENEW, me=self.id, ttl=self.config.lease_ttl)
            except Exception as e:  # the database is away: try again next beat
                if unreachable(e):  # the rooms pause, and that is logged once
                    with suppress(RuntimeError):  # (the loop has closed)
                        loop.call_soon_threadsafe(self.manager.database_lost, brief(e))
                else:
                    self.trouble("renewing the leases", e)
                continue
            self._fine("renewing the leases")
            renewed = {rid: float(exp) for rid, exp in rows}
            with suppress(RuntimeError):  # the loop has closed
                loop.call_soon_threadsafe(self._renewed, before, renewed)

    def _renewed(self, before: set[str], renewed: dict[str, float]) -> None:
        """Let go of the rooms another process took (this one was cut off or stalled past
        its leases)."""
        for rid in before:
            if rid not in renewed and rid in self.manager.rooms:
                log.warning("room %s: taken over by another process; letting it go", rid)
                self.manager.drop(rid)
        # a lease without its room (a load that failed) goes back; seen twice, since a room
        # whose creation has just committed is not in the manager yet
        stray = {rid for rid in renewed
                 if rid not in self.manager.rooms and rid not in self.claiming}
        if stray & self._stray:
            self._spawn(asyncio.to_thread(self._db_release, sorted(stray & self._stray)))
        self._stray = stray - self._stray
        self.expiries = {rid: exp for rid, exp in renewed.items() if rid in self.manager.rooms}

    async def _heartbeat(self) -> None:
        """Take the rooms nobody holds; drop the clients of processes that are gone."""
        while True:
            await asyncio.sleep(self.config.heartbeat)
            try:
                await self._take_over()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the database is away: try again next beat
                if unreachable(e):  # the rooms pause, and that is logged once
                    self.manager.database_lost(brief(e))
                else:
                    self.trouble("looking for rooms nobody holds", e)
            else:
                self._fine("looking for rooms nobody holds")
            try:
                await self._check_peers()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the broker is away: try again next beat
                self.trouble("asking the broker which processes listen", e)
            else:
                self._fine("asking the broker which processes listen")

    async def _check_peers(self) -> None:
        """A process that died takes its subscription with it: the clients it relayed to
        rooms here are gone (they count as disconnected, bots stand in after ``away_after``),
        and the clients relayed to it reconnect and find the room's new owner."""
        peers = ({inb.origin for inb in self.inbound.values()}
                 | {ob.owner for ob in self.outbound.values()})
        if not peers:
            return
        counts = await self.redis.pubsub_numsub(*(self.channel(p) for p in peers))
        dead = {ch[len(CHANNEL):] for ch, n in counts if n == 0}
        for inb in list(self.inbound.values()):
            if inb.origin in dead:
                inb.queue.put_nowait(None)
        for ob in list(self.outbound.values()):
            if ob.owner in dead:
                ob.conn.close()

    async def alive(self, process: str) -> bool:
        """Whether ``process`` still listens on its channel (as the broker counts subscribers):
        a room held by one that does not is not relayed to; its lease is waited out."""
        counts = await self.redis.pubsub_numsub(self.channel(process))
        return bool(counts and counts[0][1] > 0)

    # ======================================================================================
    # where a room is
    # ======================================================================================
    async def locate(self, room_id: str) -> Room | str:
        """The room, if this process holds it (taking it when nobody does), or the process
        that does. While a process that died still holds the lease, wait for it to run out."""
        if not _ROOM_ID.fullmatch(room_id):
            raise ProtocolError("no_room", T_("there is no room {room}"), room=room_id[:40])
        loop = asyncio.get_running_loop()
        deadline = self._deadline()
        while True:
            room = self.manager.rooms.get(room_id)
            if room is not None:
                return room
            rows = await asyncio.to_thread(self._db, _OWNER, id=room_id)
            if not rows:
                raise ProtocolError("no_room", T_("there is no room {room}"), room=room_id)
            owner, live = rows[0]
            if not live or owner == self.id:
                await self._claim_load([room_id], {room_id: owner})
                room = self.manager.rooms.get(room_id)
                if room is not None:
                    return room
            elif await self.alive(owner):
                return str(owner)
            if loop.time() > deadline:
                raise _no_answer()
            await asyncio.sleep(self.config.heartbeat / 4)

    def _deadline(self) -> float:
        """When looking for a room's owner gives up (event loop time): a lease and three
        heartbeats from now, time for a dead owner's lease to run out and the room to be
        taken."""
        return asyncio.get_running_loop().time() + self.config.lease_ttl + \
            3 * self.config.heartbeat

    async def run(self, room_id: str, op: str, args: dict[str, Any]) -> Any:
        """An HTTP call about a room, run where the room is. A call that no holder of the room
        heard goes to the next owner (see :meth:`_at_owner`); one that was heard but not
        answered in :data:`CALL_TIMEOUT` is not sent again, since it may have run (a second
        ``join`` would seat the player twice): the caller is told the server does not answer."""
        return await self._at_owner(
            room_id, lambda room: self.room_op(room, op, args),
            lambda owner: self._call(owner, room_id, op, args))

    async def _at_owner(self, room_id: str, here: Callable[[Room], Awaitable[_T]],
                        there: Callable[[str], Awaitable[_T]]) -> _T:
        """``here(room)`` when this process holds the room, else ``there(owner)``. An owner
        that died as it was looked up (the broker had not yet noticed: ``there`` raises
        :class:`OwnerGone`) is looked up again until :meth:`_deadline`, instead of failing the
        client."""
        loop = asyncio.get_running_loop()
        deadline = self._deadline()
        while True:
            where = await self.locate(room_id)
            self._fine("reaching a room for a client")
            if not isinstance(where, str):
                return await here(where)
            try:
                return await there(where)
            except OwnerGone:
                if loop.time() > deadline:
                    raise _no_answer() from None
                await asyncio.sleep(self.config.heartbeat / 4)

    async def _call(self, owner: str, room_id: str, op: str, args: dict[str, Any]) -> Any:
        rid = f"{self.id}#{next(self._ids)}"
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.calls[rid] = fut
        try:
            body = orjson.dumps({"op": op, "room": room_id, "args": args}).decode()
            if await self._publish(owner, f"call {rid} {self.id}\n{body}") == 0:
                raise OwnerGone
            try:
                reply = await asyncio.wait_for(fut, CALL_TIMEOUT)
            except TimeoutError:
                raise _no_answer() from None  # heard, so it may have run: never sent again
        finally:
            self.calls.pop(rid, None)
        if reply.get("gone"):
            raise OwnerGone
        if not reply["ok"]:
            raise ProtocolError(reply["code"], reply["message"], **reply["params"])
        return reply["result"]

    async def _answer(self, rid: str, origin: str, body: str) -> None:
        req = orjson.loads(body)
        room = self.manager.rooms.get(req["room"])
        reply: dict[str, Any]
        if room is None:
            reply = {"ok": False, "gone": True}
        else:
            try:
                reply = {"ok": True, "result": await self.room_op(room, req["op"], req["args"])}
            except ProtocolError as e:
                reply = {"ok": False, "code": e.code, "message": e.message, "params": e.params}
            except (StoreError, SQLAlchemyError) as e:  # the caller must not wait
                p = store_problem(e, self.manager)
                reply = {"ok": False, "code": p.code, "message": p.message, "params": {}}
            except Exception:  # a bug: the caller must not wait either
                log.exception("room %s: a forwarded %s failed", req["room"], req["op"])
                reply = {"ok": False, "code": "server_error", "params": {},
                         "message": T_("the room's server does not answer; try again in "
                                       "a moment")}
        await self._publish(origin, f"reply {rid}\n{orjson.dumps(reply).decode()}")

    # ======================================================================================
    # relaying a client to the owner
    # ======================================================================================
    async def serve(self, room_id: str, conn: Conn, receive: Receive) -> None:
        """A client's table connection, wherever its room is: served here when this process
        holds the room, relayed to the owner otherwise (:meth:`_at_owner`: an owner that died
        as the client came is looked up again, instead of closing on the client)."""
        await self._at_owner(room_id, lambda room: self.session(room, conn, receive),
                             lambda owner: self.relay(owner, room_id, conn, receive))

    async def relay(self, owner: str, room_id: str, conn: Conn, receive: Receive) -> None:
        """Forward a client's messages to the room's owner until either side closes; what
        the owner sends this connection arrives as ``out`` frames (see :meth:`_listen`).
        Raises :class:`OwnerGone` when the owner died between :meth:`locate` and the opening,
        before anything of the client's was read: the caller may look the room up again."""
        cid = f"{self.id}#{next(self._ids)}"
        self.outbound[cid] = _Outbound(conn, owner, room_id)
        opened = False
        try:
            if await self._publish(owner, f"open {cid} {self.id} {room_id} {conn.lang}") == 0:
                raise OwnerGone
            opened = True
            while not conn.closed:
                raw = await receive()
                if raw is None:
                    break
                if isinstance(raw, bytes):
                    raw = raw.decode("utf-8", "replace")
                if await self._publish(owner, f"msg {cid}\n{raw}") == 0:
                    break
        finally:
            self.outbound.pop(cid, None)
            if opened and not self._closing:
                with suppress(Exception):
                    await self._publish(owner, f"close {cid}")

    async def _open(self, cid: str, room_id: str, inb: _Inbound) -> None:
        """At the owner: a client connected elsewhere asks for one of its rooms. A room
        whose lease this process has just taken is waited for while its log replays (the
        other processes already see the lease); one it does not hold ends the relay, and the
        client reconnects to find the room."""
        if room_id in self.claiming and room_id not in self.manager.rooms:
            with suppress(TimeoutError):
                async with self._claimed:
                    await asyncio.wait_for(
                        self._claimed.wait_for(lambda: room_id not in self.claiming),
                        CALL_TIMEOUT)
        room = self.manager.rooms.get(room_id)
        if room is None or self._closing:
            self.inbound.pop(cid, None)
            await self._publish(inb.origin, f"end {cid}")
            return
        await self._serve_inbound(cid, room, inb)

    async def _serve_inbound(self, cid: str, room: Room, inb: _Inbound) -> None:
        """At the owner: the session of a client connected elsewhere, as a local one's."""
        pump = asyncio.ensure_future(self._pump_out(cid, inb))
        try:
            await self.session(room, inb.conn, inb.queue.get)
        finally:
            inb.conn.close()
            try:
                await asyncio.wait_for(pump, 5)
            except (TimeoutError, asyncio.CancelledError):
                pump.cancel()
            self.inbound.pop(cid, None)

    async def _pump_out(self, cid: str, inb: _Inbound) -> None:
        """Send a remote connection's outbox to its process, whatever has queued at once."""
        conn = inb.conn
        while True:
            first = await conn.outbox.get()
            batch: list[str] = []
            done = first is None
            if isinstance(first, str):  # (a relayed connection has no at-once sends)
                batch.append(first)
            while not done and not conn.outbox.empty():
                item = conn.outbox.get_nowait()
                if item is None:
                    done = True
                elif isinstance(item, str):
                    batch.append(item)
            if batch:
                try:
                    n = await self._publish(inb.origin, f"out {cid}\n" + "\n".join(batch))
                except Exception:
                    n = 0
                if n == 0:  # its process is gone
                    conn.closed = True
                    inb.queue.put_nowait(None)
                    return
            if done:  # with the close code and reason, when they are not the plain ones
                end = f"end {cid}"
                if conn.close_code != 1000:
                    end += f" {conn.close_code}\n{conn.close_reason}"
                with suppress(Exception):
                    await self._publish(inb.origin, end)
                return

    # ======================================================================================
    # the channel
    # ======================================================================================
    async def _publish(self, process: str, frame: str) -> int:
        """Send a frame; returns how many processes listened (0: that process is gone).
        Frames go out in the order of the calls, all that queued meanwhile in one pipeline
        (one round trip to the broker for many), from :meth:`_sender`."""
        fut: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._outgoing.append((self.channel(process), frame, fut))
        self._wake.set()
        return await fut

    async def _sender(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._outgoing = self._outgoing, []
            if not batch:
                continue
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, frame, _ in batch:
                        pipe.publish(channel, frame)
                    counts = await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the broker is away: every sender hears of it
                for _, _, fut in batch:
                    if not fut.done():
                        fut.set_exception(e)
                continue
            for (_, _, fut), n in zip(batch, counts, strict=True):
                if not fut.done():
                    fut.set_result(int(n))

    async def _listen(self) -> None:
        while True:
            try:
                async for msg in self.pubsub.listen():
                    if msg.get("type") == "message":
                        self._frame(str(msg["data"]))
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the broker went away: resubscribe when it is back
                self.trouble("listening to the broker", e)
                await asyncio.sleep(self.config.heartbeat)
                with suppress(Exception):
                    await self.pubsub.subscribe(self.channel(self.id), self.channel(LOBBY))
                    self._fine("listening to the broker")

    def _frame(self, data: str) -> None:
        head, _, body = data.partition("\n")
        parts = head.split(" ")
        kind, cid = parts[0], parts[1] if len(parts) > 1 else ""
        if kind == "out":
            ob = self.outbound.get(cid)
            if ob is not None:
                for line in body.split("\n"):
                    ob.conn.push(line)
        elif kind == "end":
            ob = self.outbound.get(cid)
            if ob is not None:
                code = parts[2] if len(parts) > 2 else ""
                if code.isdigit():  # the owner closed it for a reason (a flooder: 1008)
                    ob.conn.close(int(code), body)
                else:
                    ob.conn.close()
        elif kind == "msg":
            inb = self.inbound.get(cid)
            if inb is not None:
                inb.queue.put_nowait(body)
        elif kind == "open" and len(parts) == 5:
            origin, room_id, lang = parts[2], parts[3], parts[4]
            inb = _Inbound(Conn(lang, self.config), origin)
            self.inbound[cid] = inb  # the client's first messages may come before its room
            self._spawn(self._open(cid, room_id, inb))
        elif kind == "close":
            inb = self.inbound.get(cid)
            if inb is not None:
                inb.queue.put_nowait(None)
        elif kind == "call" and len(parts) == 3:
            self._spawn(self._answer(cid, parts[2], body))
        elif kind == "reply":
            fut = self.calls.get(cid)
            if fut is not None and not fut.done():
                fut.set_result(orjson.loads(body))
        elif kind == "lobby" and cid != self.id:  # (cid: the process that published it)
            self.manager.lobby.merge(cid, orjson.loads(body))
        elif kind == "lobby-sync" and cid != self.id:
            self._lobby_changed(self.manager.lobby.own())

    # ======================================================================================
    # the lobby's list across processes
    # ======================================================================================
    def _lobby_changed(self, payload: dict[str, Any]) -> None:
        """Publish this process's public rooms that changed, for every other process's lobby."""
        self._spawn(self._lobby_publish(f"lobby {self.id}\n{orjson.dumps(payload).decode()}"))

    async def _lobby_publish(self, frame: str) -> None:
        try:
            await self._publish(LOBBY, frame)
            self._fine("telling the lobby")
        except Exception as e:  # the broker is away: the list catches up with the next change
            self.trouble("telling the lobby", e)

    # ======================================================================================
    # what the health endpoint shows
    # ======================================================================================
    def health(self) -> dict[str, Any]:
        """This process's part of ``/healthz``: its id, rooms, each lease's expiry
        (database clock, seconds), rooms taken over and clients relayed either way."""
        return {"process": self.id, "rooms": len(self.manager.rooms),
                "leases": {rid: round(exp, 3) for rid, exp in sorted(self.expiries.items())},
                "taken_over": self.taken_over, "relayed_clients": len(self.outbound),
                "remote_clients": len(self.inbound)}
