"""A connection's messages go out at once when the socket takes them, and in order always: a
send that has to wait (back-pressure) is finished by the pump before anything queued behind it,
a cancelled pump cancels the waiting send, and a socket that fails closes the connection."""

from __future__ import annotations

import asyncio
import gc
import weakref
from typing import Any

import pytest

from unoarena.testing.web_server import fast_config, run_apart
from unoarena.web.seating import Conn
from unoarena.web.sending import start_sending


class Socket:
    """The two calls the sender makes on a WebSocket; ``blocked`` is back-pressure: a send
    then waits until the transport drains (the Event is set)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.drained = asyncio.Event()
        self.drained.set()
        self.closed: tuple[int, str] | None = None
        self.fail = False
        self.cancelled = False

    async def send_text(self, text: str) -> None:
        if self.fail:
            raise RuntimeError("the client went away")
        try:
            await self.drained.wait()
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        self.sent.append(text)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = (code, reason)


def _start(ws: Socket) -> tuple[Conn, asyncio.Task[None]]:
    conn = Conn("en", fast_config())
    return conn, start_sending(ws, conn)  # type: ignore[arg-type]


def test_a_message_goes_out_at_once_when_the_socket_takes_it() -> None:
    async def go() -> list[str]:
        ws = Socket()
        conn, pump = _start(ws)
        conn.push("one")
        conn.push("two")
        seen = list(ws.sent)  # before any other task has run
        conn.close()
        await pump
        return seen
    assert run_apart(go()) == ["one", "two"]


def test_messages_behind_a_waiting_send_follow_it_in_order() -> None:
    async def go() -> tuple[list[str], list[str], Any]:
        ws = Socket()
        conn, pump = _start(ws)
        conn.push("a")
        ws.drained.clear()  # the client stops reading: the transport is full
        conn.push("b")  # begins, and waits
        conn.push("c")
        conn.push("d")
        await asyncio.sleep(0.01)
        during = list(ws.sent)
        ws.drained.set()
        await asyncio.sleep(0.01)
        conn.push("e")
        conn.close(1008, "bye")
        await pump
        return during, ws.sent, ws.closed
    during, sent, closed = run_apart(go())
    assert during == ["a"]
    assert sent == ["a", "b", "c", "d", "e"]
    assert closed == (1008, "bye")


def test_a_cancelled_pump_cancels_the_send_it_was_finishing() -> None:
    async def go() -> bool:
        ws = Socket()
        conn, pump = _start(ws)
        ws.drained.clear()
        conn.push("stuck")
        await asyncio.sleep(0.01)
        pump.cancel()
        with pytest.raises(asyncio.CancelledError):
            await pump
        return ws.cancelled
    assert run_apart(go()) is True


def test_a_socket_that_fails_closes_the_connection_and_drops_what_follows() -> None:
    async def go() -> tuple[bool, list[str]]:
        ws = Socket()
        conn, pump = _start(ws)
        ws.fail = True
        conn.push("lost")
        ws.fail = False
        conn.push("never")
        await asyncio.wait_for(pump, 5)
        return conn.closed, ws.sent
    closed, sent = run_apart(go())
    assert closed is True and sent == []


def test_a_finished_connection_is_freed_without_the_cycle_collector() -> None:
    async def go() -> bool:
        ws = Socket()
        conn, pump = _start(ws)
        conn.push("hello")
        conn.close()
        await pump
        gone = weakref.ref(conn)
        del conn, pump
        return gone() is None
    was_on = gc.isenabled()
    gc.disable()  # reference counting alone: a cycle through the sender would keep it
    try:
        assert run_apart(go()) is True
    finally:
        if was_on:
            gc.enable()
