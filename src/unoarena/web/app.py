"""The web application: the page, a small JSON API, and one WebSocket per person at a table.

HTTP is for what happens once (create a room, join it, look up rules, replays); everything at
the table travels over the WebSocket, where the server pushes each person their own view.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy.exc import SQLAlchemyError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import ClientDisconnect, HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..bots import available, describe
from ..bots.levels import LEVEL_NAMES, LEVELS, level_of, leveled_first, levels_hint, plays
from ..engine import KEY_INFO, KEYS, PRESETS, IllegalAction
from ..text.i18n import _
from ..text.rules import KEY_RULES, allowed_values, explain, preset_summary, special_cards
from .accounts import ACCOUNT_STATUS, account_routes
from .catalog import LANGUAGES, T_, dictionary, gettext_in, normalize, speaking
from .chat import watcher_key
from .learn import learn_routes
from .protocol import (
    MAX_MESSAGE_BYTES,
    Field,
    ProtocolError,
    check_fields,
    clean_name,
    dumps,
    parse_message,
)
from .quickplay import quick_play
from .replay import replay_steps
from .rooms import (
    ERROR_TEXT,
    FINISHED,
    MOVED,
    Conn,
    Player,
    Room,
    RoomManager,
    ServerConfig,
    make_rules,
    store_problem,
)
from .sending import start_sending
from .store import DatabaseBusy, Store, StoreError, unreachable

log = logging.getLogger("unoarena.web")

STATIC_DIR = Path(__file__).resolve().parent / "static"
MAX_BODY_BYTES = 16 * 1024
MAX_STRIKES = 200  # rate-limited messages before a flooding client is disconnected
POLICY_VIOLATION = 1008  # the WebSocket close code for a client dropped for its conduct
REPLAY_CACHE = 32
CONFIG_ENV = "UNOARENA_SERVER_CONFIG"  # how `serve --workers N` hands its options to each process

_CREATE = {"name": Field(str, max_len=64), "preset": Field(str, max_len=32),
           "rules": Field(dict, required=False), "seats": Field(list),
           "lang": Field(str, required=False, max_len=16),
           "public": Field(bool, required=False),
           "rated": Field(bool, required=False)}
_QUICK = {"name": Field(str, max_len=64), "preset": Field(str, max_len=32),
          "level": Field(str, max_len=16), "lang": Field(str, required=False, max_len=16)}
_JOIN = {"name": Field(str, max_len=64), "player": Field(int, required=False, hi=63),
         "lang": Field(str, required=False, max_len=16)}
_RULES = {"preset": Field(str, max_len=32), "rules": Field(dict, required=False),
          "lang": Field(str, required=False, max_len=16)}
_SEAT_LINK = {"token": Field(str, max_len=64), "player": Field(int, hi=63),
              "lang": Field(str, required=False, max_len=16)}


class JSON(JSONResponse):
    """A JSON response encoded with orjson, the encoder the WebSocket messages use (and a
    faster one than the standard library's)."""

    def render(self, content: Any) -> bytes:
        """The response body: ``content`` as orjson's UTF-8 bytes."""
        return orjson.dumps(content)


def _lang(request: Request, body: dict[str, Any] | None = None) -> str:
    if body and isinstance(body.get("lang"), str):
        return normalize(body["lang"])
    q = request.query_params.get("lang")
    if q:
        return normalize(q)
    header = request.headers.get("accept-language", "")
    for part in header.split(","):
        tag = part.split(";")[0].strip()
        if tag:
            lang = normalize(tag)
            if lang != "en" or tag.lower().startswith("en"):
                return lang
    return "en"


def _error(lang: str, e: ProtocolError, status: int = 400) -> JSON:
    text = gettext_in(lang, e.message)
    try:
        text = text.format(**e.params) if e.params else text
    except (KeyError, IndexError, ValueError):
        text = e.message.format(**e.params)
    return JSON({"type": "error", "code": e.code, "message": text}, status_code=status)


_STATUS = {"no_room": 404, "no_match": 404, "rate_limited": 429, "too_large": 413,
           "too_many_rooms": 503, "room_full": 409, "already_started": 409, "seat_taken": 409,
           "bad_token": 403, "not_host": 403, "server_error": 503, "no_database": 503}
_STATUS.update(ACCOUNT_STATUS)


def _too_large(size: int | str) -> ProtocolError:
    return ProtocolError("too_large", T_("request too large: {size} bytes (at most {max})"),
                         size=size, max=MAX_BODY_BYTES)


async def _body(request: Request, schema: dict[str, Field]) -> dict[str, Any]:
    """The request's JSON object, refused before it is read when ``Content-Length`` says it
    is too large, and while it streams when it grows too large without one (chunked)."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit() or len(declared) > 12:
            raise ProtocolError("bad_message", T_("a message must be a JSON object"))
        if int(declared) > MAX_BODY_BYTES:
            raise _too_large(int(declared))
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise _too_large(f"{size}+")
        chunks.append(chunk)
    raw = b"".join(chunks)
    try:
        body = orjson.loads(raw or b"{}")
    except orjson.JSONDecodeError:
        raise ProtocolError("bad_message", T_("a message must be a JSON object")) from None
    if not isinstance(body, dict):
        raise ProtocolError("bad_message", T_("a message must be a JSON object"))
    check_fields(body, schema)
    return body


Handler = Callable[[Request], Awaitable[Response]]


def _api(fn: Callable[[Request], Awaitable[Any]]) -> Handler:
    """JSON in, JSON out; a :class:`ProtocolError` becomes a translated error response, and so
    does a database that failed. A client that goes away in the middle of its request is an
    everyday event: one line in the debug log."""
    async def wrapped(request: Request) -> Response:
        try:
            result = await fn(request)
        except ProtocolError as e:
            return _error(_lang(request), e, _STATUS.get(e.code, 400))
        except (StoreError, SQLAlchemyError) as e:
            problem = store_problem(e, getattr(request.app.state, "manager", None))
            return _error(_lang(request), problem, 503)
        except ClientDisconnect:
            log.debug("a client went away in the middle of %s %s", request.method,
                      request.url.path)
            return Response(status_code=400)
        if isinstance(result, Response):
            return result
        return JSON(result)
    return wrapped


def _bot_meta(name: str) -> dict[str, str]:
    """A bot as the new-game page lists it: its summary and, for a level's bot, the level's
    name and what it plays like (from ``bots.levels``, so the page and the terminal agree)."""
    entry = {"name": name, "summary": describe(name)}
    level = level_of(name)
    if level is not None:
        entry["level"] = _(LEVEL_NAMES[level])
        entry["plays"] = plays(level)
    return entry


@asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """Migrate and hold the database, restore the rooms, serve; then close everything."""
    cfg: ServerConfig = app.state.config
    store: Store | None = app.state.given_store
    ready: Callable[[], None] | None = app.state.ready
    st = store or Store(cfg.database_url)
    cluster: Any = None
    if cfg.broker_url:
        from .cluster import Cluster, check_database

        check_database(st)
    await asyncio.to_thread(st.migrate)
    shared = bool(cfg.broker_url)
    try:
        await asyncio.to_thread(st.claim, shared)
    except DatabaseBusy as e:
        log.error("cannot start: %s", e)
        raise
    st.start()
    manager = RoomManager(st, cfg)
    manager.claim_shared = shared
    if cfg.broker_url:
        cluster = Cluster(manager, st, cfg, session, room_op)
        count = await cluster.start()
        app.state.cluster = cluster
    else:
        count = await manager.load()
    sweeper = asyncio.create_task(manager.lobby.sweeping())
    pacer: asyncio.Task[None] | None = None
    if cfg.tune_gc:
        tune_gc()
        pacer = asyncio.create_task(pace_gc(lambda: app.state.sockets > 0))
    log.info("database %s: %d room(s) restored", _safe_url(st.url), count)
    app.state.manager = manager
    app.state.store = st
    if ready is not None:
        ready()
    try:
        yield
    finally:
        if pacer is not None:
            pacer.cancel()
        sweeper.cancel()
        await manager.close()
        if cluster is not None:
            await cluster.close()
        if store is None:
            await asyncio.to_thread(st.close)
        else:
            await asyncio.to_thread(st.release)


# -- handlers: each reads what it needs from request.app.state ----------------------------
# -- pages --------------------------------------------------------------------------
async def page(request: Request) -> Response:
    """The single page: every address of the site is drawn by its script."""
    return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})


async def service_worker(request: Request) -> Response:
    """The service worker, at the root so that its scope is the whole site (see sw.js)."""
    return FileResponse(STATIC_DIR / "sw.js", media_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})


async def health(request: Request) -> Response:
    """Whether this process serves, and which rooms it owns (with several processes: the
    lease of each, until when, on the database's clock)."""
    m = _manager(request)
    extra: dict[str, Any] = {"database": "ok" if m.db_ok else "lost",
                             "outages": m.outages}
    broken = sorted(r.id for r in m.rooms.values() if r.saving.broken is not None)
    if broken:
        extra["broken"] = broken
    cluster = request.app.state.cluster
    if cluster is not None:
        return JSON({"ok": True, **cluster.health(), **extra})
    return JSON({"ok": True, "rooms": len(m.rooms), **extra})


async def on_room(request: Request, op: str, args: dict[str, Any]) -> Any:
    """Run ``op`` on the request's room: here, or in the process that owns it."""
    room_id = request.path_params["room"]
    cluster = request.app.state.cluster
    if cluster is None:
        return await room_op(_manager(request).get(room_id), op, args)
    return await cluster.run(room_id, op, args)


# -- reference data --------------------------------------------------------------------
@_api
async def meta(request: Request) -> Any:
    """The presets, house-rule keys, bots and languages the new-game page offers."""
    lang = _lang(request)
    base = PRESETS["classic"].to_dict()
    keys = []
    with speaking(lang):
        for key in KEYS:
            if key == "preset":
                continue
            allowed = allowed_values(key)
            value = base[key]
            if isinstance(value, bool):
                kind, choices = "bool", []
            elif isinstance(value, str):
                kind, choices = "choice", allowed.split(", ")
            elif isinstance(value, list):
                kind, choices = "list", []
            else:
                kind, choices = ("int?" if allowed.endswith("or none") else "int"), []
            keys.append({"key": key, "type": kind, "choices": choices,
                         "allowed": allowed, "rule": KEY_RULES.get(key, ""),
                         "label": _(KEY_INFO[key].label)})
        presets = [{"name": name, "summary": preset_summary(name),
                    "rules": r.to_dict()} for name, r in PRESETS.items()]
        bots = [_bot_meta(b) for b in leveled_first(available())]
        hint = levels_hint()
        levels = [{"id": level, "name": _(LEVEL_NAMES[level]), "bot": bot,
                   "plays": plays(level)} for level, bot, _doc in LEVELS]
    return {"presets": presets, "keys": keys, "bots": bots, "levels_hint": hint,
            "levels": levels,
            "languages": LANGUAGES,
            "lang": lang, "limits": {"message_bytes": MAX_MESSAGE_BYTES, "name": 24}}


@_api
async def rules(request: Request) -> Any:
    """A rule set checked and explained in the reader's language."""
    body = await _body(request, _RULES)
    lang = _lang(request, body)
    rs = make_rules(body["preset"], body.get("rules"))
    with speaking(lang):
        rows = [{"key": k, "value": v, "text": t} for k, v, t in explain(rs)]
        cards = special_cards(rs)
        summary = preset_summary(rs.preset)
    return {"rules": rs.to_dict(), "overrides": rs.overrides(), "explain": rows,
            "cards": cards, "summary": summary}


@_api
async def i18n(request: Request) -> Any:
    """The page's own messages in one language."""
    lang = normalize(request.path_params["lang"])
    return dictionary(lang)


# -- rooms ---------------------------------------------------------------------------
@_api
async def create_room(request: Request) -> Any:
    """A new room with its creator in seat 0, and the creator's seat token."""
    body = await _body(request, _CREATE)
    name = clean_name(body["name"])
    rs = make_rules(body["preset"], body.get("rules"))
    seats = body["seats"]
    if len(seats) > 10 or not all(
            isinstance(s, dict) and set(s) <= {"kind", "bot"}
            and isinstance(s.get("kind", ""), str) and len(s.get("kind", "")) <= 16
            and isinstance(s.get("bot", ""), str) and len(s.get("bot", "")) <= 64
            for s in seats):
        raise ProtocolError("bad_seats", T_("a seat is human or bot"))
    client = request.client.host if request.client else ""
    rated = body.get("rated") is True
    if rated and not request.app.state.config.accounts:
        raise ProtocolError("no_accounts", T_("this server has no accounts, so no rated "
                                              "rooms: leave rated off"))
    room, token = await _manager(request).create(name, rs, seats, client,
                                                 public=bool(body.get("public", False)),
                                                 rated=rated)
    return {"room": room.id, "player": 0, "token": token, "url": f"/r/{room.id}"}


@_api
async def quick(request: Request) -> Any:
    """Quick play: a seat at an open public table of the chosen rule set, or a new one that
    bots of the chosen level fill after a short wait (quickplay.py)."""
    body = await _body(request, _QUICK)
    name = clean_name(body["name"])
    client = request.client.host if request.client else ""

    async def join_at(room_id: str) -> dict[str, Any]:  # here, or where the room is
        cluster = request.app.state.cluster
        args = {"name": name, "player": None}
        if cluster is None:
            seat: dict[str, Any] = await room_op(_manager(request).get(room_id), "join", args)
            return seat
        seat = await cluster.run(room_id, "join", args)
        return seat

    return await quick_play(_manager(request), name, body["preset"], body["level"], join_at,
                            client)


@_api
async def lobby_list(request: Request) -> Any:
    """The public rooms of this server as the lobby lists them now."""
    return _manager(request).lobby.snapshot()


async def lobby_socket(websocket: WebSocket) -> None:
    """The lobby, live: the list once, then what changes (lobby.py); a client may only ping."""
    await websocket.accept()
    conn = Conn(normalize(websocket.query_params.get("lang")), websocket.app.state.config)
    pump = start_sending(websocket, conn)
    lobby = _manager(websocket).lobby
    lobby.watch(conn)
    try:
        while not conn.closed:
            raw = await _receive(websocket)
            if raw is None:
                break
            if not conn.limiter.allow():
                conn.close(POLICY_VIOLATION, "too many messages")
                break
            try:
                msg = parse_message(raw)
                if msg["type"] != "ping":
                    raise ProtocolError("bad_message", T_("the lobby only answers ping"))
                conn.push(dumps({"type": "pong", "t": msg.get("t")}))
            except ProtocolError as e:
                conn.error(e.code, e.message, **e.params)
    except WebSocketDisconnect:
        pass
    finally:
        lobby.unwatch(conn)
        conn.close()
        try:
            await asyncio.wait_for(pump, 5)
        except (TimeoutError, asyncio.CancelledError):
            pump.cancel()


@_api
async def room_info(request: Request) -> Any:
    """The room as anyone may see it."""
    return await on_room(request, "info", {"lang": _lang(request)})


@_api
async def join(request: Request) -> Any:
    """Take an open seat: the player number and its secret token."""
    if request.app.state.cluster is None:
        _manager(request).get(request.path_params["room"])  # no such room: 404 before the body
    body = await _body(request, _JOIN)
    return await on_room(request, "join", {"name": clean_name(body["name"]),
                                           "player": body.get("player")})


@_api
async def seat_link(request: Request) -> Any:
    """The host hands a person's seat to their new device: a fresh personal link."""
    if request.app.state.cluster is None:
        _manager(request).get(request.path_params["room"])
    body = await _body(request, _SEAT_LINK)
    return await on_room(request, "seat_link", {"token": body["token"],
                                                "player": body["player"]})


# -- replays -------------------------------------------------------------------------
@_api
async def replays(request: Request) -> Any:
    """The latest finished matches."""
    st: Store = request.app.state.store
    rows = await asyncio.to_thread(st.finished_matches, 100)
    return {"matches": rows}


@_api
async def replay(request: Request) -> Any:
    """A finished match, step by step, narrated in the reader's language."""
    st: Store = request.app.state.store
    room_id = request.path_params["room"]
    raw_no = request.path_params["match"]
    if not (raw_no.isascii() and raw_no.isdigit()) or len(raw_no) > 9:  # not a match number
        raise ProtocolError("no_match", T_("there is no such finished game"))
    match_no = int(raw_no)
    lang = _lang(request)
    key = (room_id, match_no, lang)
    replay_cache = request.app.state.replay_cache
    cached = replay_cache.get(key)
    if cached is not None:
        return Response(cached, media_type="application/json")
    row = await asyncio.to_thread(st.match_row, room_id, match_no)
    if row is None or row["finished_at"] is None:
        raise ProtocolError("no_match", T_("there is no such finished game"))
    acts = await asyncio.to_thread(st.match_actions, room_id, match_no)
    body = orjson.dumps(replay_steps(row, acts, lang))  # a finished match never changes
    if len(replay_cache) >= REPLAY_CACHE:
        replay_cache.pop(next(iter(replay_cache)))
    replay_cache[key] = body
    return Response(body, media_type="application/json")


# -- the table -----------------------------------------------------------------------
async def table(websocket: WebSocket) -> None:
    """One WebSocket at a table: a client of a room here, or relayed to its owner."""
    await websocket.accept()
    lang = normalize(websocket.query_params.get("lang"))
    conn = Conn(lang, websocket.app.state.config)
    pump = start_sending(websocket, conn)
    websocket.app.state.sockets += 1  # counted down in the finally below, whatever happens

    async def receive() -> str | bytes | None:
        return await _receive(websocket)

    cluster = websocket.app.state.cluster
    try:
        room_id = websocket.path_params["room"]
        if cluster is None:
            await session(_manager(websocket).get(room_id), conn, receive)
        else:  # here or, relayed, at the process that owns the room
            await cluster.serve(room_id, conn, receive)
    except ProtocolError as e:
        conn.error(e.code, e.message, **e.params)
    except (TimeoutError, WebSocketDisconnect):
        pass
    except Exception as e:  # the broker or database of several processes failed: the
        # client reconnects, as when a process dies
        if cluster is None:
            raise
        if isinstance(e, (StoreError, SQLAlchemyError)):  # (a database away is logged
            problem = store_problem(e, _manager(websocket))  # once, by the rooms it pauses)
            conn.error(problem.code, problem.message)
        if not unreachable(e):  # the broker away, say: said once while it lasts
            cluster.trouble("reaching a room for a client", e)
    finally:
        websocket.app.state.sockets -= 1
        conn.close()
        try:
            await asyncio.wait_for(pump, 5)
        except (TimeoutError, asyncio.CancelledError):
            pump.cancel()
        with suppress(RuntimeError):
            await websocket.close(conn.close_code, conn.close_reason)


async def session(room: Room, conn: Conn,
                  receive: Callable[[], Awaitable[str | bytes | None]]) -> None:
    """One client at the table, from its hello to its leaving: the same whether it is
    connected to this process or to another that relays it (cluster.py)."""
    try:
        first = await asyncio.wait_for(receive(), room.config.hello_timeout)
        if first is None:
            return
        hello = parse_message(first)
        if hello["type"] != "hello":
            raise ProtocolError("bad_message", T_("say hello first"))
        conn.lang = normalize(hello.get("lang") or conn.lang)
        conn.watcher_key = watcher_key(hello.get("watcher"))
        player: Player | None = None
        heir: Player | None = None  # quick play: the bot's seat this person takes next round
        if hello.get("token"):
            player = room.seating.check_token(hello["token"])
            if player is None or player.kind not in ("human", "remote"):
                player = None
                heir = room.seating.heir_by_token(hello["token"])
                if heir is None:
                    conn.error("bad_token", T_("this seat token is not valid here; you are "
                                               "watching"))
        async with room.lock:  # not while a move's write is pending: it is not shown yet
            if room.status == MOVED:  # taken over meanwhile: reconnect to find it
                return
            room.seating.attach(conn, player, heir)
        while not conn.closed:
            raw = await receive()
            if raw is None:
                break
            if not conn.limiter.allow():
                conn.strikes += 1
                if conn.strikes > MAX_STRIKES:  # a policy violation, said as one (RFC 6455)
                    conn.close(POLICY_VIOLATION, "too many messages")
                    break
                conn.error("rate_limited", T_("too many messages; slow down"))
                continue
            try:
                await _dispatch(room, conn, parse_message(raw))
            except ProtocolError as e:
                conn.error(e.code, e.message, **e.params)
            except IllegalAction as e:
                conn.error(e.code, ERROR_TEXT.get(e.code, e.code), detail=e.message)
            except StoreError as e:
                problem = store_problem(e, None)  # (the room has paused itself)
                conn.error(problem.code, problem.message)
    except ProtocolError as e:
        conn.error(e.code, e.message, **e.params)
    except (TimeoutError, WebSocketDisconnect):
        pass
    finally:
        if conn.room is room:
            room.seating.detach(conn)
        conn.close()


ROUTES = [
    Route("/", page), Route("/r/{room}", page), Route("/replays", page),
    Route("/replay/{room}/{match}", page), Route("/healthz", health),
    Route("/sw.js", service_worker),
    Route("/api/meta", meta), Route("/api/rules", rules, methods=["POST"]),
    Route("/api/i18n/{lang}", i18n),
    Route("/api/rooms", create_room, methods=["POST"]),
    Route("/api/quick", quick, methods=["POST"]),
    Route("/api/lobby", lobby_list), Route("/lobby", page),
    WebSocketRoute("/ws/lobby", lobby_socket),
    Route("/api/rooms/{room}", room_info),
    Route("/api/rooms/{room}/join", join, methods=["POST"]),
    Route("/api/rooms/{room}/seat-link", seat_link, methods=["POST"]),
    Route("/api/replays", replays),
    Route("/api/replays/{room}/{match}", replay),
    WebSocketRoute("/ws/{room}", table),
    *learn_routes(page),
    *account_routes(page, _api, _body),
    Mount("/static", StaticFiles(directory=str(STATIC_DIR)), name="static"),
]


def create_app(config: ServerConfig | None = None, *, store: Store | None = None,
               ready: Callable[[], None] | None = None) -> Starlette:
    """The whole server as an ASGI app; the database is migrated, held for this server (see
    :meth:`Store.claim`) and rooms restored at start, after which ``ready`` is called.

    Everything a handler needs lives on ``app.state``: ``config``, and from start-up the
    ``store``, the ``manager`` of the rooms and, with several processes, the ``cluster``."""
    app = Starlette(routes=ROUTES, lifespan=lifespan,
                    middleware=[Middleware(GZipMiddleware, minimum_size=2048)])
    app.state.config = config or ServerConfig()
    app.state.given_store = store  # a store the caller owns: released, not closed, at the end
    app.state.ready = ready
    app.state.cluster = None
    app.state.sockets = 0  # open WebSockets (the collector is paced while there are any)
    app.state.replay_cache = {}  # (room, match, lang): the JSON of a finished match
    return app


def _manager(conn: HTTPConnection) -> RoomManager:
    """The rooms of the app serving ``conn``."""
    m: RoomManager = conn.app.state.manager
    return m


async def _receive(ws: WebSocket) -> str | bytes | None:
    msg = await ws.receive()
    if msg["type"] == "websocket.disconnect":
        return None
    text = msg.get("text")
    if text is not None:
        return str(text)
    data = msg.get("bytes")
    return bytes(data) if data is not None else b""


async def _dispatch(room: Any, conn: Conn, msg: dict[str, Any]) -> None:
    kind = msg["type"]
    if kind == "ping":
        conn.push(dumps({"type": "pong", "t": msg.get("t")}))
        return
    if kind == "hello":
        raise ProtocolError("bad_message", T_("you have already said hello"))
    if kind == "lang":
        conn.lang = normalize(msg["lang"])
        conn.push(dumps(room.out.info(conn.lang, conn.player)))
        async with room.lock:  # the table as stored, not a move whose write is pending
            if room.match is not None:
                room.out.broadcast_state([], only=conn)
                conn.push(dumps({"type": "log", "lines": room.out.round_log(conn)}))
            note = room.out.notice(conn.lang)
            if note["message"] is not None:
                conn.push(dumps(note))
        return
    if kind == "log":
        async with room.lock:
            conn.push(dumps({"type": "log", "lines": room.out.round_log(conn)}))
        return
    if kind == "chat":  # who speaks is the connection's seat (or none: a spectator)
        await room.talk.say(conn, msg["text"])
        return
    if kind == "react":
        room.talk.react(conn, msg["emote"])
        return
    # everything else acts for a seat: the connection's own, proven by its token
    if conn.player is None:
        raise ProtocolError("not_seated", T_("you are watching: join the room to play"))
    player = room.seating.check_token(msg["token"])
    if player is None or player.index != conn.player:
        raise ProtocolError("bad_token", T_("this seat token does not belong to your seat"))
    if kind == "act":
        await room.act(player, msg["action"], msg.get("seq"), msg.get("id"))
    elif kind == "start":
        await room.start(player)
    elif kind == "again":
        await room.again(player)
    elif kind == "remove":
        await room.seating.remove(player, msg["player"])
    elif kind == "seat":
        token = await room.seating.set_seat(player, msg["player"], msg["kind"], msg.get("bot"))
        if token is not None:  # a remote seat's bot token: told its host once, never again
            conn.push(dumps({"type": "bot_token", "player": msg["player"], "token": token}))
    elif kind == "mute":
        await room.talk.mute(player.index, msg.get("player"), msg["muted"], msg.get("watcher"))
    elif kind == "vote":
        await room.votes.vote(player, msg["player"])


async def room_op(room: Room, op: str, args: dict[str, Any]) -> Any:
    """What an HTTP call does to a room, given its checked arguments; the process that owns
    the room runs it (for a call that reached another, cluster.py forwards it)."""
    if op == "info":
        return room.out.info(args["lang"])
    if op == "join":
        player, token = await room.seating.join(args["name"], args["player"])
        return {"room": room.id, "player": player, "token": token, "name": args["name"],
                "url": f"/r/{room.id}",
                # quick play: a bot's seat, the person's from the next round on
                "waiting": room.players[player].heir is not None}
    if op == "seat_link":
        host = room.seating.check_token(args["token"])
        if host is None:
            raise ProtocolError("bad_token", T_("this seat token does not belong to your seat"))
        try:
            token = await room.seating.hand_over(host, args["player"])
        except StoreError as e:
            raise store_problem(e, None) from None
        return {"player": args["player"], "url": f"/r/{room.id}#seat={token}"}
    raise ValueError(f"unknown room operation {op!r}")


def tune_gc() -> None:
    """Pauses of the cyclic garbage collector stall every room at once. What exists after
    start-up (modules, restored rooms) lives for good: freeze it out of the collector's scans.
    :func:`pace_gc` collects on a clock; the thresholds are raised so that the collector's own
    trigger, whose young and middle collections would cascade into full ones, stays a safety
    net for allocation faster than the clock."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


#: How often :func:`pace_gc` collects the youngest generation (seconds), every how many of
#: those the middle one, how much the heap may grow before the rest is collected, every how
#: many young collections that happens at least, and every how many the whole heap is thawed
#: and collected (see :func:`pace_gc` for why, and docs/research/performance.md).
GC_YOUNG_EVERY = 0.025
GC_MIDDLE_EVERY = 4
GC_FULL_GROWTH = 0.25
GC_FULL_EVERY = 24_000  # ten minutes
GC_THAW_EVERY = 72_000  # half an hour


async def pace_gc(busy: Callable[[], bool], every: float = GC_YOUNG_EVERY,
                  middle: int = GC_MIDDLE_EVERY, full: int = GC_FULL_EVERY,
                  growth: float = GC_FULL_GROWTH, thaw: int = GC_THAW_EVERY,
                  heap: Callable[[], int] = sys.getallocatedblocks) -> None:
    """Collect the garbage collector's generations on a clock while clients are connected.

    Left to its own trigger, the collector let ~100,000 young objects build up on a busy
    server and then stalled every room for 30 ms or more. Measured at 1,000 rooms, what a
    server keeps past a young collection lives for seconds (rounds, connections) and is
    freed by reference counting, not the collector (its young and middle collections found
    nothing to free): the cost of a collection is the objects it looks at, so each generation
    is collected often enough to stay small. Young every 25 ms and middle every 100 ms take a
    few milliseconds each. What survives those is collected when the heap (memory blocks in
    use) has grown by ``growth`` or after ``full`` ticks, and then frozen: the next such
    collection looks only at what came after, where a scan of every room and connection had
    taken half a second. Every ``thaw`` ticks the frozen objects are collected too (one such
    pause per half an hour), so that cycles among them are freed in the end. Idle, it looks
    once a second and collects nothing.
    """
    ticks = since_full = 0
    base = heap()
    while True:
        if not busy():
            await asyncio.sleep(1.0)
            continue
        await asyncio.sleep(every)
        ticks += 1
        since_full += 1
        if ticks % middle:
            gc.collect(0)
        elif ticks % thaw == 0:
            gc.unfreeze()
            gc.collect(2)
            gc.freeze()
            since_full, base = 0, heap()
        elif since_full >= full or heap() > base * (1 + growth):
            gc.collect(2)
            gc.freeze()
            since_full, base = 0, heap()
        else:
            gc.collect(1)


def app_from_env() -> Starlette:
    """The app of one of ``unoarena serve --workers N``'s processes: uvicorn imports this
    factory in each, and the parent leaves its options in the environment."""
    import json
    import os

    raw = os.environ.get(CONFIG_ENV)
    cfg = ServerConfig(**json.loads(raw)) if raw else ServerConfig()
    from .cli_serve import quiet_libraries

    level = logging.getLogger("uvicorn").getEffectiveLevel()
    logging.basicConfig(level=level, format="%(levelname)s %(message)s")
    quiet_libraries(logging.getLevelName(level))
    return create_app(cfg)


def _safe_url(url: str) -> str:
    """The database URL without its password, for logs."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


__all__ = ["FINISHED", "create_app"]
