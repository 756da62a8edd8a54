"""Fixtures of the server tests: a real server in this process over SQLite, and the same
over PostgreSQL when one is reachable (``UNOARENA_TEST_DATABASE_URL``, default the local
``test`` database; set it to ``off`` to skip), in a fresh schema for each test run."""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server tests need the 'web' extra")
pytest.importorskip("uvicorn", reason="the server tests need the 'web' extra")
pytest.importorskip("websockets", reason="the server tests need the 'web' extra")

sys.path.insert(0, str(Path(__file__).resolve().parent))

from server_util import LiveServer, fast_config, pg_reason, pg_url

from unoarena.web.store import Store


@pytest.fixture(scope="session")
def pg_schema() -> Iterator[str]:
    """One fresh schema for the whole run, dropped at the end."""
    reason = pg_reason()
    if reason:
        pytest.skip(reason)
    schema = f"unoarena_test_{os.getpid()}_{secrets.token_hex(3)}"
    url = pg_url()
    assert url is not None
    store = Store(url, schema=schema)
    store.migrate()
    yield schema
    store.drop_schema()
    store.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], Store]:
    """A factory of stores on one database (each call: a new engine on the same data)."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'server.sqlite3'}"
        return lambda: Store(url)
    schema = request.getfixturevalue("pg_schema")
    url = pg_url()
    assert url is not None
    return lambda: Store(url, schema=schema)


@pytest.fixture
def make_server(db: Callable[[], Store]) -> Iterator[Callable[..., LiveServer]]:
    """Start servers on the test's database: ``make_server(bot_delay=0, ...)``."""
    started: list[tuple[LiveServer, Store]] = []

    def make(**kw: Any) -> LiveServer:
        store = db()
        server = LiveServer(fast_config(**kw), store=store)
        started.append((server, store))
        return server

    yield make
    for server, store in started:
        server.stop()
        store.close()


@pytest.fixture
def server(make_server: Callable[..., LiveServer]) -> LiveServer:
    return make_server()
