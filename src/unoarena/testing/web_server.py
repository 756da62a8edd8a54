"""A real server in a background thread, and small clients for it (tests and benchmarks)."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import httpx
import uvicorn
from sqlalchemy import Connection
from websockets.sync.client import ClientConnection, connect

from ..web.app import create_app
from ..web.rooms import ServerConfig
from ..web.store import Store, normalize_url

T = TypeVar("T")


class LiveServer:
    """uvicorn serving the app on a free port of 127.0.0.1, in this process."""

    def __init__(self, config: ServerConfig, store: Store | None = None) -> None:
        self.config = config
        self.app = create_app(config, store=store)
        self.server = uvicorn.Server(uvicorn.Config(
            self.app, host="127.0.0.1", port=0, log_level="warning", ws_max_size=65536,
            lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        sock = self.server.servers[0].sockets[0]
        self.port = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.http = httpx.Client(base_url=self.url, timeout=10)

    @property
    def manager(self) -> Any:
        """The app's room manager (to look inside rooms)."""
        return self.app.state.manager

    def stop(self) -> None:
        """Stop the server and wait for its thread."""
        self.http.close()
        self.server.should_exit = True
        self.thread.join(timeout=20)


class Client:
    """One WebSocket at a table, with the last state it was told."""

    def __init__(self, base: str, room: str, token: str | None = None, lang: str = "en",
                 watcher: str | None = None) -> None:
        self.ws: ClientConnection = connect(f"ws{base[4:]}/ws/{room}?lang={lang}",
                                            open_timeout=10, max_size=2**22).__enter__()
        self.token = token
        self.state: dict[str, Any] | None = None
        self.room: dict[str, Any] | None = None
        self.messages: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.over: dict[str, Any] | None = None
        hello: dict[str, Any] = {"type": "hello", "lang": lang}
        if token:
            hello["token"] = token
        if watcher:  # a watching page's own key (it keeps its spectator number)
            hello["watcher"] = watcher
        self.send(hello)

    def send(self, msg: dict[str, Any]) -> None:
        """Send one message as JSON."""
        self.ws.send(json.dumps(msg))

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        """Read one message and keep what it says (the state, the room, errors, the end)."""
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.messages.append(msg)
        if msg["type"] == "state":
            self.state = msg
        elif msg["type"] == "room":
            self.room = msg
        elif msg["type"] == "error":
            self.errors.append(msg)
        elif msg["type"] == "match_over":
            self.over = msg
        return msg

    def wait(self, pred: Any, timeout: float = 10.0) -> dict[str, Any]:
        """Read messages until one satisfies ``pred`` (a type name or a function)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no message matching {pred!r}")
            msg = self.recv(left)
            if (msg["type"] == pred) if isinstance(pred, str) else pred(msg):
                return msg

    def drain(self, quiet: float = 0.05) -> None:
        """Read until nothing arrives for ``quiet`` seconds."""
        while True:
            try:
                self.recv(quiet)
            except TimeoutError:
                return

    def act(self, action: str, **extra: Any) -> None:
        """Send an action as this seat (its token)."""
        self.send({"type": "act", "action": action, "token": self.token, **extra})

    def close(self) -> None:
        """Close the WebSocket."""
        self.ws.close()


def fast_config(**kw: Any) -> ServerConfig:
    """A server configuration with no delays and no rate limit, so tests run at full speed."""
    base: dict[str, Any] = {"bot_delay": 0.0, "window_delay": 0.0, "person_window": 0.0,
                            "round_pause": 0.0,
                            "away_after": 60.0, "idle_after": 0.0, "rate": 0.0}
    base.update(kw)
    return ServerConfig(**base)


def create_room(server: LiveServer, seats: list[str], name: str = "Ann",
                preset: str = "classic", **rules: Any) -> dict[str, Any]:
    """A room whose seat 0 is the creator; ``seats`` lists the others ("human"/"bot")."""
    rules.setdefault("players", len(seats) + 1)
    body = {"name": name, "preset": preset, "rules": rules,
            "seats": [{"kind": "human"}] + [{"kind": k} for k in seats]}
    r = server.http.post("/api/rooms", json=body)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def join(server: LiveServer, room: str, name: str) -> dict[str, Any]:
    """Join ``room`` as ``name`` over HTTP; the reply (seat and token)."""
    r = server.http.post(f"/api/rooms/{room}/join", json={"name": name})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def host_and_bob(server: LiveServer, seats: list[str],
                 **rules: Any) -> tuple[str, Client, Client, dict[str, Any]]:
    """A room of Ann (the host) and ``seats``, with Bob joined and both connected: the room
    id, Ann's and Bob's clients, and Bob's join answer (his seat and token)."""
    room = create_room(server, seats, **rules)
    rid = room["room"]
    bob_seat = join(server, rid, "Bob")
    host = Client(server.url, rid, room["token"])
    bob = Client(server.url, rid, bob_seat["token"])
    host.wait("welcome")
    bob.wait("welcome")
    return rid, host, bob, bob_seat


def host_to_move(server: LiveServer, seed: int
                 ) -> tuple[dict[str, Any], Client, dict[str, Any]]:
    """A room of its host and a bot, played until it is the host's turn with moves to choose
    from: the room as created, the host's client and the state it was last told."""
    import random

    room = create_room(server, ["bot"])
    host = Client(server.url, room["room"], room["token"])
    host.wait("welcome")
    host.send({"type": "start", "token": host.token})
    play([host], random.Random(seed), until=lambda cs: bool(
        cs[0].state and cs[0].state["view"]["turn"] == cs[0].state["you"]
        and cs[0].state["view"]["legal"]), timeout=10)
    host.drain(0.1)
    assert host.state is not None
    return room, host, host.state


def pick(legal: list[str], rng: Any) -> str:
    """A random legal action, preferring plays with UNO declared, never a voluntary catch."""
    plays = [a for a in legal if a.startswith(("play", "color", "give", "accept"))]
    unos = [a for a in plays if a.endswith(" uno")]
    if unos:
        return str(rng.choice(unos))
    pool = plays or [a for a in legal if not a.startswith(("catch", "uno", "jump_in"))]
    pool = pool or legal
    return str(rng.choice(pool))


def play(clients: list[Client], rng: Any, until: Any = None, timeout: float = 60.0,
         max_actions: int = 5000) -> int:
    """Let the people at a table play at random until ``until(clients)`` or the match ends;
    returns how many actions they sent."""
    deadline = time.monotonic() + timeout
    sent = 0
    while time.monotonic() < deadline and sent < max_actions:
        for c in clients:
            c.drain(0.002)
        if until is not None and until(clients):
            return sent
        if until is None and any(c.over is not None for c in clients):
            return sent
        acted = False
        for c in clients:
            st = c.state
            if st is None or st["status"] != "playing":
                continue
            v = st["view"]
            if v["turn"] == st["you"] and v["legal"] and not v["round_over"]:
                c.act(pick(v["legal"], rng), seq=st["seq"])
                sent += 1
                acted = True
                c.wait(lambda m: m["type"] in ("state", "error"), timeout=10)
        if not acted:
            time.sleep(0.002)
    if until is None:
        return sent
    raise TimeoutError("the table did not reach the expected point")


def wait_for(pred: Callable[[], Any], timeout: float, what: str) -> Any:
    """``pred()`` once it is true, polling; a TimeoutError saying ``what`` did not happen."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = pred()
        if got:
            return got
        time.sleep(0.05)
    raise TimeoutError(what)


PG_DEFAULT = "postgresql+psycopg://postgres@127.0.0.1/test"


def pg_url() -> str | None:
    """The test PostgreSQL database's URL, or None when the tests are told to skip it."""
    url = os.environ.get("UNOARENA_TEST_DATABASE_URL", PG_DEFAULT)
    if not url or url.lower() in ("off", "none", "0"):
        return None
    return normalize_url(url)


_PG_REACHABLE: dict[str, str | None] = {}


def pg_reason() -> str | None:
    """None when PostgreSQL can be used, else why not."""
    if "r" in _PG_REACHABLE:
        return _PG_REACHABLE["r"]
    url = pg_url()
    reason: str | None = None
    if url is None:
        reason = "UNOARENA_TEST_DATABASE_URL is off"
    else:
        try:
            import psycopg

            plain = url.replace("postgresql+psycopg://", "postgresql://")
            psycopg.connect(plain, connect_timeout=3).close()
        except Exception as e:  # unreachable, no such database, no driver
            reason = f"PostgreSQL at {url} is not reachable: {e}"
    _PG_REACHABLE["r"] = reason
    return reason


REDIS = os.environ.get("UNOARENA_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def redis_reason() -> str | None:
    """None when the test Redis can be used, else why not."""
    try:
        import redis

        redis.Redis.from_url(REDIS, socket_connect_timeout=2).ping()
    except Exception as e:  # no client library, no server
        return f"Redis at {REDIS} is not reachable: {e}"
    return None


def fresh_schema(prefix: str) -> Iterator[str]:
    """A new PostgreSQL schema of the test database, migrated, dropped when the generator is
    closed (a fixture's body)."""
    name = f"{prefix}_{os.getpid()}_{secrets.token_hex(3)}"
    url = pg_url()
    assert url is not None
    store = Store(url, schema=name)
    store.migrate()
    yield name
    store.drop_schema()
    store.close()


def run_apart(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coro)`` in a thread of its own: a browser test earlier in the session
    (Playwright's sync API) leaves an event loop running in the main thread."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def write_batch(store: Store,
                ops: list[Callable[[Connection], None]]) -> list[BaseException | None]:
    """Run writes on a store outside a server: all are queued before its writer starts, so
    the writer takes them as one batch, as a busy server's writes arrive. Each write's error
    (or None); the writer is stopped again afterwards."""

    async def go() -> list[BaseException | None]:
        futures = [store.write(op) for op in ops]
        store.start()
        done = await asyncio.gather(*futures, return_exceptions=True)
        await asyncio.to_thread(store.close)  # stops the writer; the engine stays usable
        return list(done)

    return run_apart(go())
