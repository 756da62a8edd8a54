"""Accounts, optional: a name and a password, a session cookie, the seats an account plays.

A server started without ``accounts`` (``serve --accounts``) answers every route here with
``no_accounts`` and plays exactly as before. With it, anyone may sign up; guests still play.

- Passwords are hashed with Argon2id (argon2-cffi's defaults, RFC 9106's low-memory profile),
  off the event loop; a login for an unknown name verifies a dummy hash so that it costs what
  a wrong password costs, and both get the same answer: no one learns which names exist from
  a failed login.
- Sign-up and login are rate-limited per client address, and failed logins per name.
- The session is a random token in an ``HttpOnly``, ``SameSite=Lax`` cookie (``Secure`` when
  the page was reached over HTTPS, as the proxy tells it); the database keeps its SHA-256 only.
- Every state-changing request here must come from this site: its ``Origin`` must name this
  host (docs/decisions.md says why an Origin check, not a token).
- A seat is linked to an account by showing its seat token (signing up or logging in links the
  seats this browser holds, so a guest who signs up keeps their seat and its games count).
"""

from __future__ import annotations

import asyncio
import re
import secrets
import time
import unicodedata
from collections.abc import Callable
from functools import cache
from typing import Any
from urllib.parse import urlsplit

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Column, Connection, Float, ForeignKeyConstraint, Integer, String, Table
from sqlalchemy import select as sa_select
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from .catalog import T_
from .protocol import Field, ProtocolError, RateLimit
from .ratings import (
    BOT_SUBJECTS,
    DEFAULT_FAMILY,
    FAMILIES,
    forget,
    leaderboard,
    profile,
)
from .rooms import together
from .seating import hash_token
from .store import Store, StoreError, metadata, players

accounts = Table(
    "accounts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(24), nullable=False),
    Column("name_key", String(96), nullable=False, unique=True),
    Column("password_hash", String(255), nullable=False),
    Column("created_at", Float, nullable=False),
)

account_sessions = Table(
    "account_sessions", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
)

seat_accounts = Table(
    "seat_accounts", metadata,
    Column("room_id", String(32), primary_key=True),
    Column("player", Integer, primary_key=True),
    Column("account_id", Integer, nullable=False),
    Column("token_hash", String(64), nullable=False),
    ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE"),
    ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
)

COOKIE = "unoarena_session"
SESSION_DAYS = 30
NAME_MIN, NAME_MAX = 3, 24
PASSWORD_MIN, PASSWORD_MAX = 8, 128
MAX_SEATS = 20  # seat tokens one request may link
_NAME = re.compile(r"[\w-]+")
HASHER = PasswordHasher()

#: (rate a second, burst) of each limit: every state-changing account request (logging out,
#: linking seats, deleting too), sign-ups and logins (and every check of a password: changing
#: it, deleting the account) per client address, failed logins per account name (a guesser
#: who spreads over many addresses still meets this one)
POST_LIMIT = (1.0, 30.0)
SIGNUP_LIMIT = (1 / 60, 5.0)
LOGIN_LIMIT = (0.2, 10.0)
NAME_FAIL_LIMIT = (1 / 60, 10.0)
MAX_BUCKETS = 10_000

_SIGNUP = {"name": Field(str, max_len=64), "password": Field(str, max_len=PASSWORD_MAX * 4),
           "seats": Field(list, required=False), "lang": Field(str, required=False, max_len=16)}
_LOGIN = _SIGNUP
_SEATS = {"seats": Field(list), "lang": Field(str, required=False, max_len=16)}
_DELETE = {"password": Field(str, max_len=PASSWORD_MAX * 4),
           "lang": Field(str, required=False, max_len=16)}
_PASSWORD = {"old": Field(str, max_len=PASSWORD_MAX * 4),
             "new": Field(str, max_len=PASSWORD_MAX * 4),
             "lang": Field(str, required=False, max_len=16)}
_EMPTY = {"lang": Field(str, required=False, max_len=16)}

#: The HTTP status of each error code of this module.
ACCOUNT_STATUS = {"no_accounts": 404, "cross_site": 403, "bad_login": 401,
                  "not_signed_in": 401, "name_taken": 409, "no_player": 404}
WRONG_LOGIN = T_("that name and password do not match an account")


class Limits:
    """Token buckets by key (a client address, an account name), trimmed when there are many:
    a full bucket is the same as no bucket."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.buckets: dict[str, RateLimit] = {}

    def allow(self, key: str, now: float | None = None) -> bool:
        """Take one token from ``key``'s bucket: False when it is empty."""
        if len(self.buckets) >= MAX_BUCKETS:
            t = time.monotonic() if now is None else now
            self.buckets = {k: b for k, b in self.buckets.items()
                            if b.tokens + (t - b.stamp) * b.rate < b.burst}
        bucket = self.buckets.setdefault(key, RateLimit(self.rate, self.burst))
        return bucket.allow(now)

    def peek(self, key: str) -> bool:
        """Whether ``key`` has a token left, without taking it."""
        bucket = self.buckets.get(key)
        if bucket is None:
            return True
        t = time.monotonic()
        return min(bucket.burst, bucket.tokens + (t - bucket.stamp) * bucket.rate) >= 1.0


class AccountLimits:
    """The rate limits of one server process."""

    def __init__(self) -> None:
        self.post = Limits(*POST_LIMIT)
        self.signup = Limits(*SIGNUP_LIMIT)
        self.login = Limits(*LOGIN_LIMIT)
        self.name_fail = Limits(*NAME_FAIL_LIMIT)


def name_key(name: str) -> str:
    """What two names that look alike share: NFKC, case-folded (``Ann`` and ``ann`` are one)."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_name(raw: Any) -> str:
    """An account name: 3 to 24 letters, digits, ``_`` or ``-`` (any script)."""
    if not isinstance(raw, str):
        raise ProtocolError("bad_name", T_("a name must be text"))
    name = unicodedata.normalize("NFKC", raw.strip())
    if not NAME_MIN <= len(name) <= NAME_MAX or not _NAME.fullmatch(name):
        raise ProtocolError("bad_name", T_("an account name has {min} to {max} letters, "
                                           "digits, _ or -"), min=NAME_MIN, max=NAME_MAX)
    return name


def check_password(raw: Any) -> str:
    """A password: 8 to 128 characters."""
    if not isinstance(raw, str) or not PASSWORD_MIN <= len(raw) <= PASSWORD_MAX:
        raise ProtocolError("bad_password", T_("a password has {min} to {max} characters"),
                            min=PASSWORD_MIN, max=PASSWORD_MAX)
    return raw


def hash_password(password: str) -> str:
    """The Argon2id hash of ``password`` (salted: the same password hashes differently)."""
    return HASHER.hash(password)


@cache
def _dummy_hash() -> str:
    """A hash of nothing anyone knows, made once (on the first login, not at every start)."""
    return HASHER.hash(secrets.token_urlsafe(16))


def verify_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches ``stored``; with no stored hash (no such account) a dummy
    is verified, so that the answer takes as long either way."""
    try:
        return HASHER.verify(stored or _dummy_hash(), password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


def same_origin(request: Request) -> bool:
    """Whether the request says it comes from a page of this site: its ``Origin`` header names
    the host the request was sent to. Browsers send ``Origin`` with every POST made by
    ``fetch``; a form or script on another site cannot forge it."""
    origin = request.headers.get("origin")
    host = request.headers.get("host")
    if not origin or not host or origin == "null":
        return False
    return urlsplit(origin).netloc.lower() == host.lower()


def require_same_origin(request: Request) -> None:
    """Refuse a state-changing request that does not come from this site (CSRF)."""
    if not same_origin(request):
        raise ProtocolError("cross_site", T_("this request did not come from this site's "
                                             "page; open the site and try again"))


def require_enabled(request: Request) -> None:
    """Refuse every account route on a server without accounts."""
    if not request.app.state.config.accounts:
        raise ProtocolError("no_accounts", T_("this server has no accounts: everyone plays "
                                              "as a guest"))


def client_of(request: Request) -> str:
    """The client's address (the proxy's word for it when the proxy is trusted)."""
    return request.client.host if request.client else ""


# -- reads and writes ------------------------------------------------------------------------
def find_session(store: Store, token: str) -> dict[str, Any] | None:
    """The account a session token belongs to, while the session lasts."""
    with store.reading() as conn:
        row = conn.execute(
            sa_select(accounts.c.id, accounts.c.name)
            .join(account_sessions, account_sessions.c.account_id == accounts.c.id)
            .where(account_sessions.c.token_hash == hash_token(token),
                   account_sessions.c.expires_at > time.time())).first()
    return {"id": row.id, "name": row.name} if row is not None else None


def find_account(store: Store, name: str) -> dict[str, Any] | None:
    """An account by name (any case), with its password hash."""
    with store.reading() as conn:
        row = conn.execute(sa_select(accounts).where(accounts.c.name_key == name_key(name))
                           ).first()
    if row is None:
        return None
    return {"id": row.id, "name": row.name, "password_hash": row.password_hash,
            "created_at": row.created_at}


def op_signup(name: str, password_hash: str, out: dict[str, Any]) -> Callable[[Connection], None]:
    """The write that creates an account; ``out["id"]`` is its id once committed."""
    now = time.time()

    def run(conn: Connection) -> None:
        res = conn.execute(accounts.insert().values(name=name, name_key=name_key(name),
                                                    password_hash=password_hash,
                                                    created_at=now))
        key = res.inserted_primary_key
        assert key is not None
        out["id"] = int(key[0])
    return run


def op_session(account: int | dict[str, Any], token: str) -> Callable[[Connection], None]:
    """The write that opens a session (``account``: an id, or ``op_signup``'s ``out``)."""
    now = time.time()

    def run(conn: Connection) -> None:
        aid = account if isinstance(account, int) else account["id"]
        conn.execute(account_sessions.insert().values(
            token_hash=hash_token(token), account_id=aid, created_at=now,
            expires_at=now + SESSION_DAYS * 86400))
        conn.execute(account_sessions.delete().where(account_sessions.c.expires_at < now))
    return run


def op_end_session(token: str) -> Callable[[Connection], None]:
    """The write that ends one session (logging out)."""
    def run(conn: Connection) -> None:
        conn.execute(account_sessions.delete().where(
            account_sessions.c.token_hash == hash_token(token)))
    return run


def op_link_seats(account: int | dict[str, Any], seats: list[tuple[str, str]],
                  out: dict[str, Any]) -> Callable[[Connection], None]:
    """The write that links to an account each seat whose token is shown (a person's seat
    still held by that token); ``out["linked"]`` lists the rooms linked."""
    def run(conn: Connection) -> None:
        aid = account if isinstance(account, int) else account["id"]
        linked = []
        for room_id, token in seats:
            digest = hash_token(token)
            row = conn.execute(sa_select(players.c.player).where(
                players.c.room_id == room_id, players.c.token_hash == digest,
                players.c.kind == "human")).first()
            if row is None:
                continue
            conn.execute(seat_accounts.delete().where(seat_accounts.c.room_id == room_id,
                                                      seat_accounts.c.player == row.player))
            conn.execute(seat_accounts.insert().values(room_id=room_id, player=row.player,
                                                       account_id=aid, token_hash=digest))
            linked.append(room_id)
        out["linked"] = linked
    return run


def op_set_password(account_id: int, password_hash: str, keep: str | None = None
                    ) -> Callable[[Connection], None]:
    """The write that changes an account's password hash and ends its sessions, all but the
    one whose token is ``keep`` (the browser that changed it stays signed in): whoever knew
    the old password is signed out everywhere else."""
    def run(conn: Connection) -> None:
        conn.execute(accounts.update().where(accounts.c.id == account_id)
                     .values(password_hash=password_hash))
        ended = account_sessions.delete().where(account_sessions.c.account_id == account_id)
        if keep is not None:
            ended = ended.where(account_sessions.c.token_hash != hash_token(keep))
        conn.execute(ended)
    return run


def reset_password(store: Store, name: str, password_hash: str) -> tuple[str, int] | None:
    """The operator's reset (``unoarena accounts reset-password``), straight on the database
    (a running server reads sessions from it at every request, so it signs them out at once):
    the account's name and how many sessions ended, or None when no account has ``name``."""
    with store.engine.begin() as conn:
        row = conn.execute(sa_select(accounts.c.id, accounts.c.name)
                           .where(accounts.c.name_key == name_key(name.strip()))).first()
        if row is None:
            return None
        sessions = conn.execute(sa_select(account_sessions.c.token_hash).where(
            account_sessions.c.account_id == row.id)).all()
        op_set_password(row.id, password_hash)(conn)
    return row.name, len(sessions)


def op_delete_account(account_id: int) -> Callable[[Connection], None]:
    """The write that deletes an account: its sessions, the links of its seats, its ratings
    and rating history, and the account itself."""
    def run(conn: Connection) -> None:
        forget(conn, f"account:{account_id}")
        conn.execute(seat_accounts.delete().where(seat_accounts.c.account_id == account_id))
        conn.execute(account_sessions.delete().where(
            account_sessions.c.account_id == account_id))
        conn.execute(accounts.delete().where(accounts.c.id == account_id))
    return run


def seat_list(raw: Any) -> list[tuple[str, str]]:
    """The ``seats`` a request shows: ``[{"room": id, "token": seat token}, ...]``."""
    if raw is None:
        return []
    if not isinstance(raw, list) or len(raw) > MAX_SEATS or not all(
            isinstance(s, dict) and isinstance(s.get("room"), str)
            and isinstance(s.get("token"), str) and len(s["room"]) <= 32
            and len(s["token"]) <= 64 for s in raw):
        raise ProtocolError("bad_seats", T_("seats are a list of at most {max} rooms with "
                                            "their seat tokens"), max=MAX_SEATS)
    return [(s["room"], s["token"]) for s in raw]


# -- handlers --------------------------------------------------------------------------------
def _store(request: Request) -> Store:
    st: Store = request.app.state.store
    return st


def _limits(request: Request) -> AccountLimits:
    lim = getattr(request.app.state, "account_limits", None)
    if lim is None:
        lim = request.app.state.account_limits = AccountLimits()
    return lim


async def current_account(request: Request) -> dict[str, Any] | None:
    """The signed-in account of a request (its session cookie), or None for a guest."""
    token = request.cookies.get(COOKIE)
    if not token or len(token) > 128 or not request.app.state.config.accounts:
        return None
    return await asyncio.to_thread(find_session, _store(request), token)


def _set_cookie(request: Request, response: Response, token: str) -> None:
    response.set_cookie(COOKIE, token, max_age=SESSION_DAYS * 86400, path="/", httponly=True,
                        samesite="lax", secure=request.url.scheme == "https")


def _clear_cookie(request: Request, response: Response) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax",
                           secure=request.url.scheme == "https")


def _rate_limited() -> ProtocolError:
    return ProtocolError("rate_limited", T_("too many tries; wait a minute and try again"))


async def _write(request: Request, op: Callable[[Connection], None]) -> None:
    await _store(request).write(op)


async def me(request: Request) -> Any:
    """Whether this server has accounts, and who is signed in here."""
    account = await current_account(request)
    return {"enabled": bool(request.app.state.config.accounts),
            "account": {"name": account["name"]} if account else None}


async def signup(request: Request, body: dict[str, Any]) -> Any:
    """Create an account, sign in, and link the seats this browser holds."""
    name = check_name(body["name"])
    password = check_password(body["password"])
    seats = seat_list(body.get("seats"))
    if not _limits(request).signup.allow(client_of(request)):
        raise _rate_limited()
    st = _store(request)
    if await asyncio.to_thread(find_account, st, name) is not None:
        raise ProtocolError("name_taken", T_("that name is taken; choose another"))
    hashed = await asyncio.to_thread(hash_password, password)
    out: dict[str, Any] = {}
    token = secrets.token_urlsafe(32)
    linked: dict[str, Any] = {}
    try:
        await _write(request, together(op_signup(name, hashed, out), op_session(out, token),
                                        op_link_seats(out, seats, linked)))
    except StoreError as e:
        if e.unreachable:
            raise
        raise ProtocolError("name_taken", T_("that name is taken; choose another")) from None
    response = _json({"account": {"name": name}, "linked": linked.get("linked", [])})
    _set_cookie(request, response, token)
    return response


async def login(request: Request, body: dict[str, Any]) -> Any:
    """Sign in with a name and password; links the seats this browser holds."""
    if not isinstance(body["name"], str) or not isinstance(body["password"], str):
        raise ProtocolError("bad_login", WRONG_LOGIN)
    seats = seat_list(body.get("seats"))
    lim = _limits(request)
    key = name_key(body["name"].strip())
    if not lim.login.allow(client_of(request)) or not lim.name_fail.peek(key):
        raise _rate_limited()
    st = _store(request)
    account = await asyncio.to_thread(find_account, st, body["name"].strip())
    ok = await asyncio.to_thread(verify_password,
                                 account["password_hash"] if account else None,
                                 body["password"])
    if not ok or account is None:
        lim.name_fail.allow(key)
        raise ProtocolError("bad_login", WRONG_LOGIN)
    token = secrets.token_urlsafe(32)
    linked: dict[str, Any] = {}
    await _write(request, together(op_session(account["id"], token),
                                    op_link_seats(account["id"], seats, linked)))
    response = _json({"account": {"name": account["name"]},
                      "linked": linked.get("linked", [])})
    _set_cookie(request, response, token)
    return response


async def logout(request: Request, body: dict[str, Any]) -> Any:
    """End this browser's session."""
    token = request.cookies.get(COOKIE)
    if token and len(token) <= 128:
        await _write(request, op_end_session(token))
    response = _json({"account": None})
    _clear_cookie(request, response)
    return response


async def link_seats(request: Request, body: dict[str, Any]) -> Any:
    """Link seats this browser holds to the signed-in account (after creating or joining a
    room)."""
    account = await _signed_in(request)
    seats = seat_list(body["seats"])
    linked: dict[str, Any] = {}
    await _write(request, op_link_seats(account["id"], seats, linked))
    return {"linked": linked.get("linked", [])}


async def delete(request: Request, body: dict[str, Any]) -> Any:
    """Delete the signed-in account, after checking its password again."""
    account = await _signed_in(request)
    lim = _limits(request)
    key = name_key(account["name"])
    if not lim.login.allow(client_of(request)) or not lim.name_fail.peek(key):
        raise _rate_limited()
    full = await asyncio.to_thread(find_account, _store(request), account["name"])
    ok = await asyncio.to_thread(verify_password, full["password_hash"] if full else None,
                                 body["password"])
    if not ok:
        lim.name_fail.allow(key)
        raise ProtocolError("bad_login", T_("that password is not this account's"))
    await _write(request, op_delete_account(account["id"]))
    response = _json({"account": None, "deleted": True})
    _clear_cookie(request, response)
    return response


async def change_password(request: Request, body: dict[str, Any]) -> Any:
    """Change the signed-in account's password, given the old one (limited like a login: a
    stolen session must not try passwords fast); signs its other sessions out."""
    account = await _signed_in(request)
    new = check_password(body["new"])
    lim = _limits(request)
    key = name_key(account["name"])
    if not lim.login.allow(client_of(request)) or not lim.name_fail.peek(key):
        raise _rate_limited()
    st = _store(request)
    full = await asyncio.to_thread(find_account, st, account["name"])
    ok = await asyncio.to_thread(verify_password, full["password_hash"] if full else None,
                                 body["old"])
    if not ok:
        lim.name_fail.allow(key)
        raise ProtocolError("bad_login", T_("that password is not this account's"))
    hashed = await asyncio.to_thread(hash_password, new)
    await _write(request, op_set_password(account["id"], hashed, request.cookies.get(COOKIE)))
    return {"account": {"name": account["name"]}, "changed": True}


async def _signed_in(request: Request) -> dict[str, Any]:
    account = await current_account(request)
    if account is None:
        raise ProtocolError("not_signed_in", T_("log in first"))
    return account


async def board(request: Request) -> Any:
    """The leaderboard of one family (``?family=classic/3-4``)."""
    family = request.query_params.get("family") or DEFAULT_FAMILY
    if family not in FAMILIES:
        raise ProtocolError("bad_family", T_("unknown rating family {family}: choose from "
                                             "{families}"),
                            family=family[:40], families=", ".join(FAMILIES))
    st = _store(request)

    def read() -> list[dict[str, Any]]:
        with st.reading() as conn:
            return leaderboard(conn, family)
    return {"family": family, "families": list(FAMILIES), "players": await
            asyncio.to_thread(read)}


async def player(request: Request) -> Any:
    """A player's (or a bot level's) profile: ratings, games, wins, history, recent games."""
    name = request.path_params["name"]
    st = _store(request)
    if name in BOT_SUBJECTS:
        subject, shown, bot = name, name, True
    else:
        account = await asyncio.to_thread(find_account, st, name[:NAME_MAX * 2])
        if account is None:
            raise ProtocolError("no_player", T_("there is no player {name}"), name=name[:40])
        subject, shown, bot = f"account:{account['id']}", account["name"], False

    def read() -> dict[str, Any]:
        with st.reading() as conn:
            return profile(conn, subject)
    return {"name": shown, "bot": bot, **await asyncio.to_thread(read)}


def _json(content: Any) -> Response:
    return JSONResponse(content)


Handler = Callable[[Request], Any]


def account_routes(page: Handler, api: Callable[[Handler], Handler],
                   body: Callable[..., Any]) -> list[BaseRoute]:
    """The account API and pages; ``api`` wraps a handler (errors become translated JSON) and
    ``body`` reads a request's checked JSON."""
    def post(fn: Callable[[Request, dict[str, Any]], Any],
             schema: dict[str, Field]) -> Callable[[Request], Any]:
        async def handler(request: Request) -> Any:
            require_enabled(request)
            require_same_origin(request)
            if not _limits(request).post.allow(client_of(request)):
                raise _rate_limited()
            return await fn(request, await body(request, schema))
        return api(handler)

    def get(fn: Callable[[Request], Any], always: bool = False) -> Callable[[Request], Any]:
        async def handler(request: Request) -> Any:
            if not always:
                require_enabled(request)
            return await fn(request)
        return api(handler)

    return [
        Route("/account", page), Route("/leaderboard", page), Route("/u/{name}", page),
        Route("/api/account", get(me, always=True)),
        Route("/api/account/signup", post(signup, _SIGNUP), methods=["POST"]),
        Route("/api/account/login", post(login, _LOGIN), methods=["POST"]),
        Route("/api/account/logout", post(logout, _EMPTY), methods=["POST"]),
        Route("/api/account/seats", post(link_seats, _SEATS), methods=["POST"]),
        Route("/api/account/password", post(change_password, _PASSWORD), methods=["POST"]),
        Route("/api/account/delete", post(delete, _DELETE), methods=["POST"]),
        Route("/api/leaderboard", get(board)),
        Route("/api/players/{name}", get(player)),
    ]
