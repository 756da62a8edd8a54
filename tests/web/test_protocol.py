"""The client messages' checks on their own: what is accepted comes back as sent, and every
refusal names the field and what it allows, in the catalogue's words."""

from __future__ import annotations

import json
from typing import Any

import pytest

from unoarena.web.protocol import (
    MAX_MESSAGE_BYTES,
    Field,
    ProtocolError,
    check_fields,
    parse_message,
)

TOKEN = "t" * 32


def refusal(msg: Any) -> ProtocolError:
    with pytest.raises(ProtocolError) as e:
        parse_message(msg if isinstance(msg, str) else json.dumps(msg))
    return e.value


def test_a_valid_message_comes_back_with_only_the_fields_it_was_sent() -> None:
    act = {"type": "act", "action": "play R5 color=G", "token": TOKEN, "seq": 3}
    assert parse_message(json.dumps(act)) == act
    assert parse_message(json.dumps(act).encode()) == act
    assert parse_message('{"type": "hello"}') == {"type": "hello"}
    assert parse_message('{"type": "ping", "t": -9007199254740992}')["t"] == -(1 << 53)


@pytest.mark.parametrize(("msg", "text"), [
    ("not json", "a message must be a JSON object"),
    ("[1, 2]", "a message must be a JSON object"),
    ("[" * 2000 + "]" * 2000, "a message must be a JSON object"),
    ({"type": "fly"}, "unknown message type 'fly'; allowed: hello, act, start"),
    ({"token": TOKEN}, "unknown message type None"),
    ({"type": "start", "token": TOKEN, "evil": 1}, "unexpected field evil; allowed: token"),
    ({"type": "act", "token": TOKEN}, "missing field action"),
    ({"type": "act", "action": 7, "token": TOKEN}, "field action must be text"),
    ({"type": "hello", "token": None}, "field token must be text"),
    ({"type": "act", "action": "x" * 201, "token": TOKEN},
     "field action is too long (at most 200 characters)"),
    ({"type": "remove", "token": TOKEN, "player": 64}, "field player must be a whole number "
                                                       "from 0 to 63"),
    ({"type": "remove", "token": TOKEN, "player": True}, "field player must be a whole number"),
    ({"type": "remove", "token": TOKEN, "player": 2.0}, "field player must be a whole number"),
    ({"type": "seat", "token": TOKEN, "player": 1, "kind": "robot"},
     "field kind must be one of open, bot"),
])
def test_a_refusal_says_what_was_wrong_and_what_is_allowed(msg: Any, text: str) -> None:
    e = refusal(msg)
    assert e.code == "bad_message" and text in str(e), str(e)


def test_a_message_too_large_is_refused_before_it_is_read() -> None:
    e = refusal(json.dumps({"type": "act", "action": "x" * MAX_MESSAGE_BYTES, "token": TOKEN}))
    assert e.code == "too_large" and e.params["max"] == MAX_MESSAGE_BYTES


def test_request_bodies_are_checked_by_the_same_fields() -> None:
    schema = {"name": Field(str, max_len=8), "rules": Field(dict, required=False),
              "seats": Field(list), "fast": Field(bool, required=False)}
    check_fields({"name": "a", "seats": []}, schema)
    for body, text in [({"name": "a", "seats": {}}, "field seats must be a list"),
                       ({"name": "a", "seats": [], "rules": []}, "field rules must be an object"),
                       ({"name": "a", "seats": [], "fast": 1}, "field fast must be true or false"),
                       ({"name": "a" * 9, "seats": []}, "at most 8 characters"),
                       ({"seats": []}, "missing field name")]:
        with pytest.raises(ProtocolError, match=text):
            check_fields(body, schema)
