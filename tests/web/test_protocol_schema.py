"""The published protocol (docs/protocol/schema.json) is the code's: it is regenerated from the
message types, and real messages from a live server, sent and received, all satisfy it."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest

from unoarena.testing import load_script
from unoarena.testing.web_server import Client, LiveServer, create_room, join, play
from unoarena.web.protocol import PROTOCOL_VERSION
from unoarena.web.schema import decode_server, json_schema

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "docs" / "protocol" / "schema.json"


def _script() -> Any:
    return load_script(ROOT / "scripts" / "protocol_schema.py")


def _validator(which: str) -> jsonschema.Draft202012Validator:
    """A validator of the committed schema's ``$defs/which``."""
    doc = json.loads(COMMITTED.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator({**doc, "anyOf": [{"$ref": f"#/$defs/{which}"}]})


def test_the_committed_schema_is_the_codes() -> None:
    committed = json.loads(COMMITTED.read_text(encoding="utf-8"))
    assert committed == json.loads(json.dumps(json_schema())), (
        "docs/protocol/schema.json differs from the message types: run "
        "python scripts/protocol_schema.py and describe the change in docs/protocol/README.md")
    assert committed["x-protocol-version"] == PROTOCOL_VERSION
    jsonschema.Draft202012Validator.check_schema(committed)


def test_the_check_fails_on_a_stale_schema(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    script = _script()
    stale = json.loads(script.render())
    del stale["$defs"]["ActMessage"]["properties"]["seq"]
    out = tmp_path / "schema.json"
    out.write_text(json.dumps(stale), encoding="utf-8")
    monkeypatch.setattr(script, "OUT", out)
    assert script.main(["--check"]) == 1
    assert "out of date" in capsys.readouterr().err
    assert script.main([]) == 0 and script.main(["--check"]) == 0


def test_messages_of_a_live_match_satisfy_the_schema(server: LiveServer) -> None:
    sent: list[dict[str, Any]] = []
    room = create_room(server, ["bot", "bot"], rounds=1)
    client = Client(server.url, room["room"], room["token"])
    original = client.send

    def send(msg: dict[str, Any]) -> None:
        sent.append(msg)
        original(msg)
    client.send = send  # type: ignore[method-assign]
    client.send({"type": "hello", "token": room["token"], "lang": "en"})
    client.wait("welcome")
    client.send({"type": "ping", "t": 12345})
    client.wait("pong")
    client.send({"type": "start", "token": room["token"]})
    client.wait("state")
    client.send({"type": "act", "token": room["token"], "action": "no such action"})
    client.wait("error")
    client.send({"type": "log"})
    client.wait("log")
    play([client], random.Random(3))
    client.drain()
    received = client.messages
    kinds = {m["type"] for m in received}
    assert {"welcome", "room", "state", "log", "pong", "error", "round_over",
            "match_over"} <= kinds
    welcome = next(m for m in received if m["type"] == "welcome")
    assert welcome["protocol"] == PROTOCOL_VERSION
    server_schema, client_schema = _validator("ServerMessage"), _validator("ClientMessage")
    for m in received:
        server_schema.validate(m)
        decode_server(json.dumps(m))
    for m in sent:
        client_schema.validate(m)


def test_a_message_off_the_schema_is_refused() -> None:
    server_schema, client_schema = _validator("ServerMessage"), _validator("ClientMessage")
    assert not server_schema.is_valid({"type": "pong", "t": 1, "extra": True})
    assert not server_schema.is_valid({"type": "welcome", "room": "r"})
    assert not server_schema.is_valid({"type": "surprise"})
    assert not client_schema.is_valid({"type": "act", "token": "t", "action": "x" * 201})
    assert client_schema.is_valid({"type": "act", "token": "t", "action": "play R5"})


def test_http_bodies_and_a_removal_satisfy_the_schema(server: LiveServer) -> None:
    body = {"name": "Ann", "preset": "classic", "rules": {"players": 3, "rounds": 1},
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "basic"}]}
    _validator("CreateRoomRequest").validate(body)
    created = server.http.post("/api/rooms", json=body).json()
    _validator("CreateRoomResponse").validate(created)
    _validator("JoinRequest").validate({"name": "Bea"})
    bea = join(server, created["room"], "Bea")
    host = Client(server.url, created["room"], created["token"])
    guest = Client(server.url, created["room"], bea["token"])
    host.wait("welcome")
    guest.wait("welcome")
    remove = {"type": "remove", "token": created["token"], "player": bea["player"]}
    _validator("ClientMessage").validate(remove)
    host.send(remove)
    removed = guest.wait("removed")
    server_schema = _validator("ServerMessage")
    for m in host.messages + guest.messages:
        server_schema.validate(m)
    assert removed["message"]
    assert not _validator("CreateRoomRequest").is_valid({**body, "color": "red"})
    assert not _validator("JoinRequest").is_valid({"name": "x" * 65})
