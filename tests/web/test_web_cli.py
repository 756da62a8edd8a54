"""``unoarena serve``: the sub-command's options, and its clear refusals of a busy port and of
a database whose driver is not installed."""

from __future__ import annotations

import argparse
import socket
import sys

import pytest

from unoarena.web.cli_serve import DEFAULT_PORT, add_serve_parser, main, run_serve


def test_serve_parser_defaults_and_options() -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--lang", default=argparse.SUPPRESS)
    p = argparse.ArgumentParser(prog="unoarena")
    sub = p.add_subparsers()
    add_serve_parser(sub, [common])
    ns = p.parse_args(["serve"])
    assert (ns.host, ns.port, ns.database_url, ns.open) == ("127.0.0.1", DEFAULT_PORT, None,
                                                            False)
    assert ns.handler is run_serve
    ns = p.parse_args(["serve", "--host", "0.0.0.0", "--port", "9000", "--database-url",
                       "postgresql://u@h/db", "--open", "--lang", "zh_TW"])
    assert (ns.host, ns.port, ns.database_url, ns.open) == ("0.0.0.0", 9000,
                                                            "postgresql://u@h/db", True)


def test_a_busy_port_is_a_clear_error(tmp_path: object, capsys: object) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        db = f"sqlite:///{tmp_path}/cli.sqlite3"
        status = main(["--port", str(port), "--database-url", db, "--log-level", "error"])
    assert status != 0


def test_postgresql_without_its_driver_says_which_extra(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    """psycopg is the 'postgres' extra: without it a PostgreSQL URL is refused by name (and
    its password is not printed), while SQLite needs nothing more than the 'web' extra."""
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if it were not installed
    status = main(["--port", "0", "--database-url", "postgresql://ann:secret@dbhost/rooms",
                   "--log-level", "error"])
    err = capsys.readouterr().err
    assert status == 2
    assert "pip install 'unoarena[postgres]'" in err and "dbhost/rooms" in err
    assert "secret" not in err


def test_accounts_are_off_unless_asked_for(monkeypatch: pytest.MonkeyPatch,
                                          tmp_path: object) -> None:
    """``serve --accounts`` hands the server ``accounts=True``; without it the server has
    none (and plays as before)."""
    import uvicorn

    seen: list[bool] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.append(
        app.state.config.accounts))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    db = f"sqlite:///{tmp_path}/serve.sqlite3"
    assert main(["--port", str(port), "--database-url", db]) == 0
    assert main(["--port", str(port), "--database-url", db, "--accounts"]) == 0
    assert seen == [False, True]
