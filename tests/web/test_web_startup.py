"""``unoarena serve`` tells the truth at start, and its log stays quiet.

Real ``python -m unoarena.web`` processes: a database or broker that cannot be reached is one
line on stderr naming it, exit status 2, and no "ready"; a second server on a database that
another serves without a broker is refused, saying who holds it (on PostgreSQL and on
SQLite); a client that leaves in the middle of its request leaves no trace at INFO.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from unoarena.testing.web_faults import free_port
from unoarena.testing.web_server import REDIS, pg_reason, pg_url, redis_reason, wait_for


def serve(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run ``serve`` until it exits by itself."""
    return subprocess.run([sys.executable, "-m", "unoarena.web", "--port", str(free_port()),
                           "--log-level", "info", *args], capture_output=True, text=True,
                          timeout=timeout)


class Serving:
    """``serve`` running in the background, its output in a file."""

    def __init__(self, log: Path, *args: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        with open(log, "wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "unoarena.web", "--port", str(self.port),
                 "--log-level", "info", *args], stdout=out, stderr=subprocess.STDOUT)
        wait_for(lambda: "ready at" in self.text() or self.proc.poll() is not None, 60,
                 "the server did not start")
        assert self.proc.poll() is None, self.text()
        # "ready" is said when the app has started; uvicorn binds its socket just after
        wait_for(self._listening, 30, "the server does not listen")

    def _listening(self) -> bool:
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
        except OSError:
            return False
        return True

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(15)


def closed_port() -> int:
    """A port nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def pg_db(pg_schema: str) -> str:
    url = pg_url()
    assert url is not None
    return f"{url}?options=-csearch_path%3D{pg_schema}"


def one_line_error(r: subprocess.CompletedProcess[str]) -> str:
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "ready" not in r.stdout
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    return lines[0]


def test_an_unreachable_database_is_one_line_and_status_2() -> None:
    port = closed_port()
    line = one_line_error(serve("--database-url", f"postgresql://ann:secret@127.0.0.1:{port}/db"))
    assert f"cannot reach the database postgresql+psycopg://ann:***@127.0.0.1:{port}/db" in line
    assert "secret" not in line


def test_an_unreachable_broker_is_one_line_and_status_2(pg_db: str) -> None:
    port = closed_port()
    line = one_line_error(serve("--database-url", pg_db, "--broker-url",
                                f"redis://127.0.0.1:{port}"))
    assert f"cannot reach the broker redis://127.0.0.1:{port}" in line


@pytest.fixture
def sqlite_db(tmp_path: Path) -> Iterator[str]:
    yield f"sqlite:///{tmp_path / 'rooms.sqlite3'}"


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_second_server_on_a_database_without_a_broker_is_refused(
        kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    if kind == "postgresql" and pg_reason():
        pytest.skip(pg_reason() or "")
    db = request.getfixturevalue("sqlite_db" if kind == "sqlite" else "pg_db")
    first = Serving(tmp_path / "first.log", "--database-url", db)
    try:
        line = one_line_error(serve("--database-url", db))
        assert "another unoarena server" in line and "already serves the database" in line
        assert "--broker-url" in line
        if kind == "postgresql":  # the database knows who holds it
            assert f":{first.proc.pid} at 127.0.0.1" in line
            if not redis_reason():  # nor may a process of several processes join it
                line = one_line_error(serve("--database-url", db, "--broker-url", REDIS))
                assert "without a broker" in line
        assert first.proc.poll() is None  # the first one serves on
        assert httpx.get(first.url + "/healthz", timeout=5).json()["ok"]
    finally:
        first.stop()
    # once it has stopped, another may serve the database
    again = Serving(tmp_path / "again.log", "--database-url", db)
    again.stop()


def test_a_client_that_leaves_mid_request_leaves_no_trace(sqlite_db: str,
                                                          tmp_path: Path) -> None:
    server = Serving(tmp_path / "serve.log", "--database-url", sqlite_db)
    try:
        for _ in range(3):
            with socket.create_connection(("127.0.0.1", server.port)) as s:
                s.sendall(b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: "
                          b"application/json\r\nContent-Length: 900\r\n\r\n{\"name\": ")
                time.sleep(0.1)
        time.sleep(0.5)
        assert httpx.get(server.url + "/healthz", timeout=5).status_code == 200
    finally:
        server.stop()
    text = server.text()
    assert "Traceback" not in text and "ClientDisconnect" not in text, text[-3000:]
    assert "ERROR" not in text, text[-3000:]
