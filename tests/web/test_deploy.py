"""The deployment files work: the image's install, and the server behind a proxy.

No Docker daemon runs here, so the image is checked the way it is built: the files that
deploy/Dockerfile copies (its COPY lines, read from the file) are copied alone into a fresh
folder, installed with the extras its RUN line names into a fresh virtual environment, and
``unoarena serve`` from that install serves PostgreSQL (as every server of compose.yaml does).

Behind a proxy on another address, uvicorn believes X-Forwarded-For only from the addresses
``--forwarded-allow-ips`` (or FORWARDED_ALLOW_IPS) names: without it every client behind the
proxy shares one room-creation limit, with it each has its own.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from unoarena.testing.web_faults import free_port
from unoarena.testing.web_server import fresh_schema, pg_reason, pg_url, wait_for

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "deploy" / "Dockerfile"
PROXY = "127.0.0.5"  # the proxy's address: another loopback address than the server's


def dockerfile_lines() -> list[str]:
    """The Dockerfile's instructions, continuation lines joined, comments left out."""
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text())
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.lstrip()
            .startswith("#")]


def copy_like_the_image(dest: Path) -> None:
    """Copy what the Dockerfile's COPY lines copy (relative to WORKDIR) into ``dest``."""
    copies = [shlex.split(ln)[1:] for ln in dockerfile_lines() if ln.upper().startswith("COPY ")]
    assert copies, "the Dockerfile copies nothing"
    for args in copies:
        args = [a for a in args if not a.startswith("--")]
        *sources, target = args
        into = dest / target
        for src in sources:
            path = ROOT / src
            assert path.exists(), f"the Dockerfile copies {src}, which does not exist"
            if path.is_dir():
                # COPY dir ./dir copies the folder's contents into ./dir
                shutil.copytree(path, into, ignore=shutil.ignore_patterns(
                    "__pycache__", "*.egg-info", "*.so"), dirs_exist_ok=True)
            else:
                where = into if not target.endswith("/") else into / path.name
                where.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, where)


def image_install_spec() -> str:
    """What the image's ``pip install`` installs, e.g. ``.[web,postgres]``."""
    for ln in dockerfile_lines():
        if ln.upper().startswith("RUN ") and "pip install" in ln:
            words = [w for w in shlex.split(ln[4:]) if not w.startswith("-")]
            return words[words.index("install") + 1]
    raise AssertionError("the Dockerfile installs nothing with pip")


@pytest.fixture
def image_schema() -> Iterator[str]:
    reason = pg_reason()
    if reason:
        pytest.skip(reason)
    yield from fresh_schema("unoarena_image")


def test_the_image_builds_from_what_it_copies_and_serves_postgresql(
        tmp_path: Path, image_schema: str) -> None:
    app = tmp_path / "app"
    app.mkdir()
    copy_like_the_image(app)
    spec = image_install_spec()
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    done = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", spec], cwd=app,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-4000:]
    # the installed package, not this checkout's source
    where = subprocess.run([str(venv / "bin" / "python"), "-c",
                            "import unoarena; print(unoarena.__file__)"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=60, check=True)
    assert str(venv) in where.stdout, where.stdout
    url = pg_url()
    assert url is not None
    port = free_port()
    log = tmp_path / "serve.log"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [str(venv / "bin" / "unoarena"), "serve", "--port", str(port), "--database-url",
             f"{url}?options=-csearch_path%3D{image_schema}"], cwd=tmp_path, env=env,
            stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: "ready at" in log.read_text() or proc.poll() is not None, 60,
                 "the server did not start")
        assert proc.poll() is None, log.read_text()
        base = f"http://127.0.0.1:{port}"
        assert httpx.get(base + "/healthz", timeout=10).json()["ok"]
        r = httpx.post(base + "/api/rooms", timeout=10, json={
            "name": "Ann", "preset": "classic", "rules": {"players": 2},
            "seats": [{"kind": "human"}, {"kind": "bot"}]})
        assert r.status_code == 200, r.text
        page = httpx.get(base + r.json()["url"], timeout=10)
        assert page.status_code == 200 and "<html" in page.text.lower()
        for path in ("/sw.js", "/static/manifest.webmanifest", "/static/icons/icon-512.png",
                     "/static/js/app.js"):  # the installed package has the page's files
            assert httpx.get(base + path, timeout=10).status_code == 200, path
    finally:
        proc.terminate()
        proc.wait(15)
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]


class Serving:
    """``serve`` from this checkout in the background, on a SQLite file."""

    def __init__(self, tmp: Path, *args: str, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tmp / f"serve-{self.port}.log"
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "unoarena.web", "--port", str(self.port),
                 "--database-url", f"sqlite:///{tmp / f'rooms-{self.port}.sqlite3'}",
                 "--create-rate", "0.05", *args], stdout=out, stderr=subprocess.STDOUT,
                env={**os.environ, **(env or {})})
        wait_for(lambda: "ready at" in self.log.read_text() or self.proc.poll() is not None,
                 60, "the server did not start")
        assert self.proc.poll() is None, self.log.read_text()

    def create_as(self, client: str) -> int:
        """Create a room through the proxy for ``client``; the status code."""
        transport = httpx.HTTPTransport(local_address=PROXY)
        with httpx.Client(transport=transport, base_url=self.url, timeout=10) as h:
            r = h.post("/api/rooms", headers={"X-Forwarded-For": client}, json={
                "name": "Ann", "preset": "classic", "rules": {"players": 2},
                "seats": [{"kind": "human"}, {"kind": "bot"}]})
        return r.status_code

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(15)


@pytest.mark.parametrize("how", ["untrusted", "option", "environment"])
def test_clients_behind_a_trusted_proxy_have_their_own_creation_limits(
        tmp_path: Path, how: str) -> None:
    args = ("--forwarded-allow-ips", f"10.9.8.7,{PROXY}") if how == "option" else ()
    env = {"FORWARDED_ALLOW_IPS": PROXY} if how == "environment" else {"FORWARDED_ALLOW_IPS": ""}
    server = Serving(tmp_path, *args, env=env)
    try:
        assert server.create_as("203.0.113.1") == 200
        second = server.create_as("203.0.113.2")  # another client behind the same proxy
        if how == "untrusted":  # the proxy is the client: one limit for all behind it
            assert second == 429
        else:
            assert second == 200
            assert server.create_as("203.0.113.1") == 429  # each client still has a limit
    finally:
        server.stop()
