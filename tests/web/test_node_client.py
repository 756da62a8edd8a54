"""The protocol stands without the project's Python code: the Node client (clients/node/, no
dependencies, its own WebSocket on node:http) plays a remote seat to the end of the match, every
message it sends and receives checked against docs/protocol/schema.json by its own checker."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from unoarena.testing.web_server import Client, LiveServer, create_room, wait_for

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "clients" / "node" / "uno-bot.mjs"
SCHEMA = ROOT / "docs" / "protocol" / "schema.json"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="the Node client's test needs node (20 "
                                                     "or later) on PATH")


def _remote_seat(server: LiveServer, **rules: object) -> tuple[dict[str, object], Client, str]:
    room = create_room(server, ["bot", "bot"], players=3, rounds=1, **rules)
    host = Client(server.url, str(room["room"]), str(room["token"]))
    host.wait("welcome")
    host.send({"type": "seat", "token": room["token"], "player": 1, "kind": "remote",
               "bot": "basic"})
    return room, host, str(host.wait("bot_token")["token"])


def _node(*args: str) -> subprocess.Popen[str]:
    assert NODE is not None
    return subprocess.Popen([NODE, str(BOT), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_the_node_client_plays_a_match_on_the_schema(make_server: Callable[..., LiveServer]
                                                     ) -> None:
    server = make_server(idle_after=0.01)  # (the host's own turns are played for them)
    room, host, token = _remote_seat(server)
    proc = _node(f"{server.url}/r/{room['room']}", "--token", token, "--seed", "7",
                 "--schema", str(SCHEMA))
    wait_for(lambda: server.manager.get(room["room"]).players[1].conns, 20,
             "the Node client did not connect")
    host.send({"type": "start", "token": room["token"]})
    out, err = proc.communicate(timeout=90)
    assert proc.returncode == 0, (out, err)
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["decisions"] >= 1 and summary["checked"] > summary["decisions"]
    assert not set(summary["errors"]) - {"stale"}, summary  # its moves were legal
    # every move of the seat was the program's own: no stand-in had to play for it
    host.drain(0.1)
    log = [line for m in host.messages for line in m.get("log") or []]
    assert log and not any("played for it" in line for line in log), log
    host.close()


def test_the_node_client_stops_on_a_refused_token(server: LiveServer) -> None:
    room, host, _token = _remote_seat(server)
    proc = _node(f"{server.url}/r/{room['room']}", "--token", "not-a-token")
    out, _err = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert json.loads(out.strip().splitlines()[-1])["decisions"] == 0
    host.close()


def test_the_schema_checker_refuses_what_the_schema_does() -> None:
    assert NODE is not None
    script = f"""
import {{ check }} from {json.dumps(BOT.as_uri())};
import {{ readFileSync }} from "node:fs";
const s = JSON.parse(readFileSync({json.dumps(str(SCHEMA))}, "utf8"));
const c = (v, w) => check(v, s.$defs[w], s).length;
console.log(JSON.stringify([
  c({{type: "pong", t: 1}}, "ServerMessage"), c({{type: "pong", t: 1, extra: 1}}, "ServerMessage"),
  c({{type: "surprise"}}, "ServerMessage"),
  c({{type: "act", token: "t", action: "x".repeat(201)}}, "ClientMessage"),
  c({{type: "act", token: "t", action: "play R5", seq: 3}}, "ClientMessage"),
  c({{type: "seat", token: "t", player: 1, kind: "remote"}}, "ClientMessage")]));
"""
    out = subprocess.run([NODE, "--input-type=module", "-e", script], capture_output=True,
                         text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    ok_pong, extra, unknown, too_long, ok_act, ok_seat = json.loads(out.stdout)
    assert (ok_pong, ok_act, ok_seat) == (0, 0, 0)
    assert extra and unknown and too_long
