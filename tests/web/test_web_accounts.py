"""Accounts and ratings over HTTP, on SQLite and PostgreSQL: passwords hashed with Argon2id,
session cookies, rate limits, CSRF refusal, no account enumeration, deleting an account, a
guest who signs up keeping their seat, and a rated match moving the ratings of the people and
the bot at the table."""

from __future__ import annotations

import secrets
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from unoarena.engine import preset
from unoarena.testing.web_server import Client, LiveServer, create_room, join, wait_for
from unoarena.web import accounts as acc
from unoarena.web.ratings import (
    Result,
    Seat,
    family_of,
    op_rate_match,
    rating_history,
    ratings,
    rule_family,
)


@pytest.fixture
def users(make_server: Callable[..., LiveServer]
          ) -> Iterator[tuple[LiveServer, Callable[[], httpx.Client]]]:
    """A server with accounts (quick bots; people away at once are played by stand-ins) and
    a factory of browsers: each a client with its own cookies, sending this site's Origin.
    Accounts and ratings start empty (PostgreSQL keeps one schema for the whole run)."""
    server = make_server(accounts=True, away_after=0.05, idle_after=0.05)
    with server.app.state.store.engine.begin() as conn:
        for table in (rating_history, ratings, acc.accounts):
            conn.execute(table.delete())
    made: list[httpx.Client] = []

    def browser() -> httpx.Client:
        c = httpx.Client(base_url=server.url, timeout=10, headers={"Origin": server.url})
        made.append(c)
        return c
    yield server, browser
    for c in made:
        c.close()


def signup(c: httpx.Client, name: str, password: str = "correct horse",
           **extra: Any) -> httpx.Response:
    return c.post("/api/account/signup", json={"name": name, "password": password, **extra})


def test_passwords_are_hashed_with_argon2id_and_salted() -> None:
    a, b = acc.hash_password("s3cret pass"), acc.hash_password("s3cret pass")
    assert a.startswith("$argon2id$") and a != b and "s3cret" not in a
    assert acc.verify_password(a, "s3cret pass")
    assert not acc.verify_password(a, "s3cret pasS")
    assert not acc.verify_password(None, "s3cret pass")  # no account: refused, after the work


def test_account_names_and_passwords_are_checked() -> None:
    assert acc.check_name(" 小明_42 ") == "小明_42"
    for bad in ("ab", "x" * 25, "has space", "semi;colon", "bot:easy", 7):
        with pytest.raises(acc.ProtocolError) as e:
            acc.check_name(bad)
        assert e.value.code == "bad_name"
    with pytest.raises(acc.ProtocolError):
        acc.check_password("short")
    assert acc.name_key("ＡＮＮ") == acc.name_key("ann")  # full-width and case fold together


def test_sign_up_sets_a_session_cookie_and_logs_in(users: Any) -> None:
    _server, browser = users
    ann = browser()
    assert ann.get("/api/account").json() == {"enabled": True, "account": None}
    for path in ("/account", "/leaderboard", "/u/Ann"):  # the page draws them
        assert '<main id="app"' in ann.get(path).text, path
    r = signup(ann, "Ann")
    assert r.status_code == 200, r.text
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Secure" not in cookie
    assert "Max-Age=" in cookie
    assert ann.get("/api/account").json()["account"] == {"name": "Ann"}
    assert ann.post("/api/account/logout", json={}).status_code == 200
    assert ann.get("/api/account").json()["account"] is None
    r = ann.post("/api/account/login", json={"name": "ann", "password": "correct horse"})
    assert r.status_code == 200 and r.json()["account"] == {"name": "Ann"}
    assert ann.get("/api/account").json()["account"] == {"name": "Ann"}
    again = signup(browser(), "ANN")
    assert again.status_code == 409 and again.json()["code"] == "name_taken"


def test_the_cookie_is_secure_behind_a_tls_proxy(users: Any) -> None:
    """uvicorn trusts 127.0.0.1 as a proxy: a request it forwarded from HTTPS gets a Secure
    cookie (and its Origin is the https one the browser saw)."""
    server, _browser = users
    with httpx.Client(base_url=server.url, timeout=10) as c:
        host = server.url.removeprefix("http://")
        r = c.post("/api/account/signup", json={"name": "Tess", "password": "correct horse"},
                   headers={"X-Forwarded-Proto": "https", "Origin": f"https://{host}"})
        assert r.status_code == 200, r.text
        assert "Secure" in r.headers["set-cookie"]


def test_a_failed_login_does_not_say_whether_the_name_exists(users: Any) -> None:
    _server, browser = users
    assert signup(browser(), "Bob").status_code == 200
    c = browser()
    wrong = c.post("/api/account/login", json={"name": "Bob", "password": "wrong horse"})
    nobody = c.post("/api/account/login", json={"name": "Nobody", "password": "wrong horse"})
    assert wrong.status_code == nobody.status_code == 401
    assert wrong.json() == nobody.json()
    assert "set-cookie" not in wrong.headers and "set-cookie" not in nobody.headers
    zh = c.post("/api/account/login?lang=zh_TW", json={"name": "Nobody", "password": "x" * 8})
    assert zh.json()["message"] != nobody.json()["message"]  # translated


def test_logins_and_sign_ups_are_rate_limited(users: Any) -> None:
    _server, browser = users
    c = browser()
    burst = int(acc.LOGIN_LIMIT[1])
    codes = [c.post("/api/account/login", json={"name": f"n{i}", "password": "x" * 8}
                    ).status_code for i in range(burst + 5)]  # (a token comes back in 5 s)
    assert codes[:burst] == [401] * burst and codes[-1] == 429
    codes = [signup(c, f"user{i}").status_code for i in range(int(acc.SIGNUP_LIMIT[1]) + 1)]
    assert codes[-1] == 429 and 429 not in codes[:-1]
    logouts = [c.post("/api/account/logout", json={}).status_code
               for _ in range(int(acc.POST_LIMIT[1]))]
    assert logouts[0] == 200 and logouts[-1] == 429  # (the sign-ups and logins counted too)
    # the refused sign-up created nothing
    last = f"user{int(acc.SIGNUP_LIMIT[1])}"
    assert c.get(f"/api/players/{last}").status_code == 404


def test_failed_logins_are_limited_per_name_too() -> None:
    lim = acc.Limits(*acc.NAME_FAIL_LIMIT)
    now = time.monotonic() + 1.0  # (a bucket is stamped when made: later than this line)
    for _ in range(int(acc.NAME_FAIL_LIMIT[1])):
        assert lim.allow("ann", now=now)
    assert not lim.peek("ann") and lim.peek("bob")
    assert not lim.allow("ann", now=now)
    assert lim.allow("ann", now=now + 1 / acc.NAME_FAIL_LIMIT[0])  # one more after a while


def test_a_request_from_another_site_is_refused_and_changes_nothing(users: Any) -> None:
    server, browser = users
    ann = browser()
    assert signup(ann, "Ann").status_code == 200
    for headers in ({"Origin": "https://evil.example"}, {"Origin": "null"}):
        r = ann.post("/api/account/logout", json={}, headers=headers)
        assert r.status_code == 403 and r.json()["code"] == "cross_site"
    with httpx.Client(base_url=server.url, timeout=10, cookies=ann.cookies) as bare:
        r = bare.post("/api/account/delete", json={"password": "correct horse"})
        assert r.status_code == 403 and r.json()["code"] == "cross_site"
        r = bare.post("/api/account/signup", json={"name": "Mallory", "password": "x" * 8})
        assert r.status_code == 403
    assert ann.get("/api/account").json()["account"] == {"name": "Ann"}
    assert ann.get("/api/players/Ann").status_code == 200
    assert ann.get("/api/players/Mallory").status_code == 404


def test_a_guest_who_signs_up_keeps_their_seat(users: Any) -> None:
    server, browser = users
    guest = browser()
    room = guest.post("/api/rooms", json={"name": "Gus", "preset": "classic",
                                          "rules": {"players": 2}, "rated": True,
                                          "seats": [{"kind": "human"}, {"kind": "bot"}]}).json()
    r = signup(guest, "Gus", seats=[{"room": room["room"], "token": room["token"]},
                                    {"room": room["room"], "token": "not-a-seat-token"}])
    assert r.status_code == 200 and r.json()["linked"] == [room["room"]]
    seat = Client(server.url, room["room"], room["token"])
    try:
        welcome = seat.wait("welcome")
        assert welcome["player"] == 0 and welcome["host"] is True
        assert seat.wait("room")["rated"] is True
    finally:
        seat.close()


def test_a_rated_match_moves_the_ratings_of_both_players_and_the_bot(
        users: Any, make_server: Callable[..., LiveServer]) -> None:
    server, browser = users
    ann, bob = browser(), browser()
    assert signup(ann, "Ann").status_code == 200
    assert signup(bob, "Bob").status_code == 200
    room = ann.post("/api/rooms", json={
        "name": "Ann", "preset": "classic", "rated": True, "rules": {"players": 3, "rounds": 1},
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "basic"}]}).json()
    rid = room["room"]
    assert ann.post("/api/account/seats", json={"seats": [
        {"room": rid, "token": room["token"]}]}).json()["linked"] == [rid]
    joined = bob.post(f"/api/rooms/{rid}/join", json={"name": "Bobby"}).json()
    assert bob.post("/api/account/seats", json={"seats": [
        {"room": rid, "token": joined["token"]}]}).json()["linked"] == [rid]
    host = Client(server.url, rid, room["token"])
    try:
        host.wait("welcome")
        host.send({"type": "start", "token": room["token"]})
        host.wait("match_over", timeout=60)  # away people are played by stand-ins
    finally:
        host.close()
    family = "classic/3-4"
    board = wait_for(lambda: (lambda b: b if len(b) == 3 else None)(
        ann.get(f"/api/leaderboard?family={family}").json()["players"]), 10, "ratings")
    names = {p["name"] for p in board}
    assert names == {"Ann", "Bob", "easy"}
    assert all(p["games"] == 1 for p in board) and sum(p["wins"] for p in board) >= 1
    values = [p["rating"] for p in board]
    fresh = round(25 - 3 * 25 / 3, 2)  # openskill's first rating: mu 25, sigma 25/3
    assert all(r != fresh for r in values)  # everyone's moved
    assert values == sorted(values, reverse=True)
    prof = ann.get("/api/players/Ann").json()
    assert prof["played"] == 1 and prof["families"][0]["family"] == family
    game = prof["games"][0]
    assert (game["room"], game["match"]) == (rid, 1)
    assert ann.get(f"/api/replays/{rid}/1").status_code == 200  # the profile's replay link
    assert len(prof["series"][family]) == 1
    bot = ann.get("/api/players/bot:easy").json()
    assert bot["bot"] is True and bot["played"] == 1
    # a match is rated once: rating the same result again changes nothing
    store = server.app.state.store
    before = ann.get(f"/api/leaderboard?family={family}").json()["players"]
    again = Result(rid, 1, family, (Seat(0, "bot", "basic", None), Seat(1, "bot", "heuristic",
                                                                        None)),
                   (0, 1), frozenset({0}))
    with store.engine.begin() as conn:
        op_rate_match(again)(conn)
    assert ann.get(f"/api/leaderboard?family={family}").json()["players"] == before
    # a rating lost (its process died before it was stored) is made by the next start
    with store.engine.begin() as conn:
        for table in (rating_history, ratings):
            conn.execute(table.delete())
    server.stop()
    later = make_server(accounts=True)
    board = wait_for(lambda: (lambda b: b if len(b) == 3 else None)(
        later.http.get(f"/api/leaderboard?family={family}").json()["players"]), 10,
        "the restarted server did not rate the match")
    assert board == before


def test_deleting_an_account_removes_it_and_its_ratings(users: Any) -> None:
    _server, browser = users
    ann = browser()
    assert signup(ann, "Ann").status_code == 200
    wrong = ann.post("/api/account/delete", json={"password": "not the one"})
    assert wrong.status_code == 401 and ann.get("/api/account").json()["account"]
    r = ann.post("/api/account/delete", json={"password": "correct horse"})
    assert r.status_code == 200 and r.json()["deleted"] is True
    assert ann.get("/api/account").json()["account"] is None
    assert ann.get("/api/players/Ann").status_code == 404
    again = browser().post("/api/account/login", json={"name": "Ann",
                                                        "password": "correct horse"})
    assert again.status_code == 401
    assert signup(browser(), "Ann", "another pass").status_code == 200  # the name is free


def test_changing_the_password_signs_the_other_sessions_out(users: Any) -> None:
    server, browser = users
    ann, phone = browser(), browser()
    assert signup(ann, "Ann", "old password").status_code == 200
    assert phone.post("/api/account/login", json={"name": "Ann", "password": "old password"}
                      ).status_code == 200
    with httpx.Client(base_url=server.url, timeout=10, cookies=ann.cookies,
                      headers={"Origin": "https://evil.example"}) as other_site:
        r = other_site.post("/api/account/password", json={"old": "old password",
                                                           "new": "evil password"})
        assert r.status_code == 403 and r.json()["code"] == "cross_site"
    wrong = ann.post("/api/account/password", json={"old": "not the one", "new": "new password"})
    assert wrong.status_code == 401 and wrong.json()["code"] == "bad_login"
    short = ann.post("/api/account/password", json={"old": "old password", "new": "short"})
    assert short.status_code == 400 and short.json()["code"] == "bad_password"
    assert phone.get("/api/account").json()["account"] == {"name": "Ann"}  # nothing changed
    r = ann.post("/api/account/password", json={"old": "old password", "new": "new password"})
    assert r.status_code == 200 and r.json()["changed"] is True
    assert ann.get("/api/account").json()["account"] == {"name": "Ann"}  # this one stays
    assert phone.get("/api/account").json()["account"] is None  # every other one is out
    old = browser().post("/api/account/login", json={"name": "Ann", "password": "old password"})
    assert old.status_code == 401
    new = browser().post("/api/account/login", json={"name": "Ann", "password": "new password"})
    assert new.status_code == 200
    signed_out = browser().post("/api/account/password", json={"old": "new password",
                                                               "new": "third password"})
    assert signed_out.status_code == 401 and signed_out.json()["code"] == "not_signed_in"


def test_guessing_the_old_password_is_rate_limited_like_a_login(users: Any) -> None:
    _server, browser = users
    ann = browser()
    assert signup(ann, "Ann", "old password").status_code == 200
    codes = [ann.post("/api/account/password", json={"old": f"guess {i}",
                                                     "new": "new password"}).status_code
             for i in range(int(acc.LOGIN_LIMIT[1]) + 2)]
    assert codes[0] == 401 and codes[-1] == 429
    right = ann.post("/api/account/password", json={"old": "old password",
                                                    "new": "new password"})
    assert right.status_code == 429  # even the right one waits: a guesser learns nothing


def test_the_operator_resets_a_password_and_ends_every_session(make_live: Any,
                                                               tmp_path: Any) -> None:
    """``unoarena accounts reset-password`` on a running server's SQLite file: the password
    comes from standard input, never the command line."""
    server = make_live(accounts=True)
    url = server.app.state.store.url
    with httpx.Client(base_url=server.url, timeout=10, headers={"Origin": server.url}) as ann:
        assert signup(ann, "Ann", "forgotten one").status_code == 200
        cli = [sys.executable, "-m", "unoarena.cli", "accounts", "reset-password", "--lang",
               "en", "--database-url", url]
        done = subprocess.run([*cli, "ANN"], input="brand new pass\n", capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == ("The password of Ann is changed; 1 session was signed "
                                       "out.")
        assert ann.get("/api/account").json()["account"] is None
        for password, status in (("forgotten one", 401), ("brand new pass", 200)):
            r = ann.post("/api/account/login", json={"name": "Ann", "password": password})
            assert r.status_code == status
        nobody = subprocess.run([*cli, "Nobody"], input="brand new pass\n",
                                capture_output=True, text=True, timeout=60)
        assert nobody.returncode == 1 and "there is no account Nobody" in nobody.stderr
        short = subprocess.run([*cli, "Ann"], input="short\n", capture_output=True, text=True,
                               timeout=60)
        assert short.returncode == 2 and "8 to 128 characters" in short.stderr
        assert ann.post("/api/account/login", json={"name": "Ann", "password": "brand new pass"}
                        ).status_code == 200


def at_a_terminal(argv: list[str], answers: list[str]) -> tuple[int, str]:
    """Run ``argv`` with a terminal of its own (a pty, its controlling terminal, where
    ``getpass`` asks), typing each of ``answers`` after a prompt; its exit status and what the
    terminal showed."""
    import os
    import pty
    import select

    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, its terminal the pty
        os.execv(argv[0], argv)
    shown, answered = b"", 0
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the child closed the terminal: it is done
            break
        if not chunk:
            break
        shown += chunk
        prompts = shown.count(b"password: ") + shown.count(b"again: ")
        # (each answer after its own prompt: getpass drops what was typed before it)
        if answered < min(prompts, len(answers)) and shown.endswith(b": "):
            os.write(fd, answers[answered].encode() + b"\r")
            answered += 1
    else:
        os.kill(pid, 9)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), shown.decode(errors="replace")


def test_at_a_terminal_the_reset_asks_twice_and_echoes_nothing(make_live: Any) -> None:
    server = make_live(accounts=True)
    with httpx.Client(base_url=server.url, timeout=10, headers={"Origin": server.url}) as ann:
        assert signup(ann, "Ann", "forgotten one").status_code == 200
    cli = [sys.executable, "-m", "unoarena.cli", "accounts", "reset-password", "Ann",
           "--lang", "en", "--database-url", server.app.state.store.url]
    rc, shown = at_a_terminal(cli, ["typed once", "typed twice"])
    assert rc == 2 and "New password:" in shown and "The same again:" in shown
    assert "the two passwords differ; nothing was changed" in shown
    assert "typed" not in shown  # not echoed
    rc, shown = at_a_terminal(cli, ["the new one", "the new one"])
    assert rc == 0 and "The password of Ann is changed" in shown and "new one" not in shown
    with httpx.Client(base_url=server.url, timeout=10, headers={"Origin": server.url}) as c:
        assert c.post("/api/account/login", json={"name": "Ann", "password": "the new one"}
                      ).status_code == 200


def test_a_server_without_accounts_works_as_before(server: LiveServer) -> None:
    http = server.http
    assert http.get("/api/account").json() == {"enabled": False, "account": None}
    r = http.post("/api/account/signup", json={"name": "Ann", "password": "x" * 8},
                  headers={"Origin": server.url})
    assert r.status_code == 404 and r.json()["code"] == "no_accounts"
    assert http.get("/api/leaderboard").status_code == 404
    room = create_room(server, ["human"])
    assert join(server, room["room"], "Bob")["player"] == 1
    refused = http.post("/api/rooms", json={"name": "Ann", "preset": "classic",
                                            "rules": {"players": 2}, "rated": True,
                                            "seats": [{"kind": "human"}, {"kind": "bot"}]})
    assert refused.status_code == 404 and "rated" in refused.json()["message"]
    assert rated(server, http, public=True) is False  # a public table, but nobody to rate


def rated(srv: LiveServer, http: httpx.Client, **body: Any) -> bool:
    """Whether a new room (a person and a bot) made with ``body`` says it is rated."""
    room = http.post("/api/rooms", json={
        "name": "Ann", "preset": "classic", "rules": {"players": 2},
        "seats": [{"kind": "human"}, {"kind": "bot"}], **body}).json()
    seat = Client(srv.url, room["room"], room["token"])
    try:
        return bool(seat.wait("room")["rated"])
    finally:
        seat.close()


def test_public_tables_are_rated_and_private_ones_only_when_chosen(users: Any) -> None:
    with_accounts, browser = users
    ann = browser()
    assert rated(with_accounts, ann, public=True) is True
    assert rated(with_accounts, ann) is False
    assert rated(with_accounts, ann, rated=True) is True


def test_the_leaderboard_refuses_an_unknown_family(users: Any) -> None:
    _server, browser = users
    r = browser().get("/api/leaderboard?family=chess/2")
    assert r.status_code == 400 and "classic/2" in r.json()["message"]


def test_rule_and_size_families() -> None:
    assert family_of(preset("classic", players=2)) == "classic/2"
    assert family_of(preset("classic", players=4, target_score=100)) == "classic/3-4"
    assert family_of(preset("buzz", players=6)) == "editions/5-10"
    assert family_of(preset("classic", players=3, jump_in=True)) == "house/3-4"
    assert rule_family(preset("house")) == "house"


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_migration_adds_accounts_to_a_database_with_rooms_and_comes_off_again(
        backend: str, tmp_path: Any) -> None:
    """A database of the version before accounts, with a room in it: upgraded, the room is
    there and unrated and accounts can be stored; downgraded, the room is still there."""
    import sqlalchemy as sa
    from alembic import command
    from alembic.config import Config

    from unoarena.testing.web_server import pg_reason, pg_url
    from unoarena.web.store import MIGRATIONS_DIR, Store

    if backend == "sqlite":
        store = Store(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    else:
        reason = pg_reason()
        if reason:
            pytest.skip(reason)
        store = Store(pg_url(), schema=f"unoarena_mig_{secrets.token_hex(3)}")
        with store.engine.begin() as conn:
            conn.execute(sa.text(f'CREATE SCHEMA "{store.schema}"'))

    def to(revision: str, down: bool = False) -> None:
        with store.engine.begin() as conn:
            cfg = Config()
            cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
            cfg.attributes["connection"] = conn
            (command.downgrade if down else command.upgrade)(cfg, revision)

    try:
        to("0002")
        with store.engine.begin() as conn:
            conn.execute(sa.text("INSERT INTO rooms (id, created_at, updated_at, status, rules, "
                                 "host, match_no) VALUES ('old', 1, 1, 'lobby', '{}', 0, 0)"))
        store.migrate()
        with store.engine.begin() as conn:
            assert conn.execute(sa.text("SELECT rated FROM rooms WHERE id = 'old'")
                                ).scalar_one() in (False, 0)
            conn.execute(acc.accounts.insert().values(name="Ann", name_key="ann",
                                                      password_hash="x", created_at=1.0))
        to("0002", down=True)
        with store.engine.begin() as conn:
            assert conn.execute(sa.text("SELECT id FROM rooms")).scalars().all() == ["old"]
            assert "accounts" not in sa.inspect(conn).get_table_names()
    finally:
        store.drop_schema()
        store.close()


def test_the_leaderboard_is_the_best_by_mu_minus_three_sigma(tmp_path: Any) -> None:
    """A sure middling player ranks above an unsure one with a higher mu; only the best
    ``limit`` come back, best first, and other families stay out."""
    from unoarena.web.ratings import leaderboard
    from unoarena.web.store import Store

    store = Store(f"sqlite:///{tmp_path / 'board.sqlite3'}")
    store.migrate()
    rows = [("a", 30.0, 8.0), ("b", 26.0, 1.0), ("c", 20.0, 2.0), ("d", 40.0, 9.0),
            ("e", 10.0, 1.0)]
    try:
        with store.engine.begin() as conn:
            for name, mu, sigma in rows:
                conn.execute(ratings.insert().values(
                    subject=f"account:{name}", family="house/2", name=name, mu=mu,
                    sigma=sigma, games=1, wins=0, updated_at=0.0))
            conn.execute(ratings.insert().values(
                subject="account:z", family="house/3-4", name="z", mu=90.0, sigma=1.0,
                games=1, wins=1, updated_at=0.0))
        with store.reading() as conn:
            board = leaderboard(conn, "house/2", limit=3)
        assert [p["name"] for p in board] == ["b", "c", "d"]  # 23, 14, 13
        assert [p["rating"] for p in board] == [23.0, 14.0, 13.0]
    finally:
        store.close()
