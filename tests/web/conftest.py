"""Fixtures of the server tests: a real server in this process over SQLite, and the same
over PostgreSQL when one is reachable (``UNOARENA_TEST_DATABASE_URL``, default the local
``test`` database; set it to ``off`` to skip), in a fresh schema for each test run."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server tests need the 'web' extra")
pytest.importorskip("uvicorn", reason="the server tests need the 'web' extra")
pytest.importorskip("websockets", reason="the server tests need the 'web' extra")

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fault_util import Cutter, target_of, through
from server_util import LiveServer, fast_config, fresh_schema, pg_reason, pg_url

from unoarena.web.store import Store


@pytest.fixture(scope="session")
def pg_schema() -> Iterator[str]:
    """One fresh schema for the whole run, dropped at the end."""
    reason = pg_reason()
    if reason:
        pytest.skip(reason)
    yield from fresh_schema("unoarena_test")


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


def _servers(stores: Callable[[], Store]) -> Iterator[Callable[..., LiveServer]]:
    """A factory of servers, each on a new store from ``stores``; all stopped at the end."""
    started: list[tuple[LiveServer, Store]] = []

    def make(**kw: Any) -> LiveServer:
        store = stores()
        server = LiveServer(fast_config(**kw), store=store)
        started.append((server, store))
        return server

    yield make
    for server, store in started:
        server.stop()
        store.close()


@pytest.fixture
def make_server(db: Callable[[], Store]) -> Iterator[Callable[..., LiveServer]]:
    """Start servers on the test's database: ``make_server(bot_delay=0, ...)``."""
    yield from _servers(db)


@pytest.fixture
def cut_server(pg_schema: str) -> Iterator[tuple[Cutter, Callable[..., LiveServer]]]:
    """A proxy to the test PostgreSQL, and a factory of servers that reach it through it."""
    reason = pg_reason()
    if reason:
        pytest.skip(reason)
    url = pg_url()
    assert url is not None
    cutter = Cutter(*target_of(url, 5432))
    started: list[tuple[LiveServer, Store]] = []

    def make(**kw: Any) -> LiveServer:
        store = Store(through(url, cutter), schema=pg_schema)
        server = LiveServer(fast_config(**kw), store=store)
        started.append((server, store))
        return server

    yield cutter, make
    for server, store in started:
        server.stop()
        store.close()
    cutter.close()


@pytest.fixture
def server(make_server: Callable[..., LiveServer]) -> LiveServer:
    return make_server()


CHROMIUM = os.environ.get("UNOARENA_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium (Debian's, driven by Playwright) for every browser test."""
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="browser tests need playwright (pip install playwright)")
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        pytest.skip(f"browser tests need Chromium at {CHROMIUM} (scripts/ci_browser_setup.sh "
                    "installs Debian's package)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the browser tests save what they saw: ``UNOARENA_SCREENSHOTS`` if set (to keep
    them and look at them), else a temporary directory."""
    chosen = os.environ.get("UNOARENA_SCREENSHOTS")
    if chosen:
        path = Path(chosen)
        path.mkdir(parents=True, exist_ok=True)
        return path
    return tmp_path_factory.mktemp("screenshots")


@pytest.fixture
def page_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server for one browser test, on its own SQLite file, with quick bots."""
    store = Store(f"sqlite:///{tmp_path / 'page.sqlite3'}")
    server = LiveServer(fast_config(bot_delay=0.05, window_delay=0.05), store=store)
    yield server
    server.stop()
    store.close()


@pytest.fixture
def solo(tmp_path: Path) -> Iterator[Callable[..., LiveServer]]:
    """Servers on a SQLite file of the test's own: ``solo(quick_wait=0.5, ...)``. For what
    depends on every room of the database (the lobby's list, where quick play seats people),
    which PostgreSQL's test schema shares with other tests."""
    yield from _servers(lambda: Store(f"sqlite:///{tmp_path / 'solo.sqlite3'}"))
