"""A server process killed mid-game (SIGKILL: no clean shutdown) and started again on the same
database brings every room back exactly as it was, and play goes on."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from unoarena.testing.web_server import Client, pg_reason, pg_url, play


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Proc:
    """``python -m unoarena.web`` in its own process."""

    def __init__(self, url: str, port: int, env: dict[str, str]) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "unoarena.web", "--port", str(port), "--database-url", url,
             "--bot-delay", "0", "--window-delay", "0", "--round-pause", "0",
             "--create-rate", "0", "--log-level", "warning"], env=env, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                out = self.proc.stdout.read().decode() if self.proc.stdout else ""
                raise RuntimeError(f"the server did not start: {out}")
            time.sleep(0.05)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, dict[str, str]]:
    env = dict(os.environ)
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'restart.sqlite3'}", env
    reason = pg_reason()
    if reason:
        pytest.skip(reason)
    schema = request.getfixturevalue("pg_schema")
    url = pg_url()
    assert url is not None
    # the server has no schema option: a search_path in the URL puts it in the test schema
    return f"{url}?options=-csearch_path%3D{schema}", env


def test_killed_server_resumes_every_room(database: tuple[str, dict[str, str]]) -> None:
    url, env = database
    port = free_port()
    server = Proc(url, port, env)
    rooms: list[dict[str, Any]] = []
    try:
        for i in range(2):
            body = {"name": f"Host{i}", "preset": "house" if i else "classic",
                    "rules": {"players": 3},
                    "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]}
            r = httpx.post(server.url + "/api/rooms", json=body, timeout=10).json()
            c = Client(server.url, r["room"], r["token"])
            c.wait("welcome")
            c.send({"type": "start", "token": c.token})
            c.wait("state")
            play([c], random.Random(i), until=lambda cs: (cs[0].state or {}).get("seq", 0) > 8,
                 timeout=30)
            c.drain(0.2)
            rooms.append({"id": r["room"], "token": r["token"], "state": c.state})
            c.close()
    finally:
        server.kill()

    server = Proc(url, port, env)
    try:
        for room in rooms:
            c = Client(server.url, room["id"], room["token"])
            assert c.wait("welcome")["player"] == 0
            st = c.wait("state")
            old = room["state"]
            assert st["seq"] == old["seq"] and st["round"] == old["round"]
            assert st["view"]["hand"] == old["view"]["hand"]
            assert st["view"]["legal"] == old["view"]["legal"]
            assert st["view"]["top"] == old["view"]["top"]
            # and the game goes on from there
            target = old["seq"] + 3
            play([c], random.Random(9), until=lambda cs, target=target: (
                cs[0].state or {}).get("seq", 0) > target or cs[0].over is not None,
                timeout=30)
            c.close()
    finally:
        server.kill()
