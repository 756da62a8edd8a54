"""How a connection's messages reach its WebSocket: at once when they can, in order always.

A message for a client whose socket takes it now (the usual case: nothing of its own is
waiting to go out, and the transport is not applying back-pressure) is written at once, by
running the send to its end without a task switch. A send that has to wait, and every message
queued behind one, goes through the connection's outbox, which a task of its own (the pump)
sends in order; a slow client only slows itself.

Why not always the outbox: with 1,000 rooms, every message woke that connection's pump, and
every pump then waited again on a fresh future. Those waiting futures and coroutines, one set
per connection renewed at every message, were most of what the garbage collector's young
generations held (tens of thousands of objects at each collection of the middle generation);
written at once, nothing waits, and a message costs no task switch.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Generator
from contextlib import suppress
from functools import partial
from typing import Any

from starlette.websockets import WebSocket

from .seating import Conn


class _Rest:
    """The rest of a send that began at once and then had to wait: awaiting it resumes the
    same coroutine where it stopped, passing on what the awaiting task is sent or thrown (its
    cancellation too), as ``await`` would have."""

    def __init__(self, coro: Coroutine[Any, Any, None], waiting_on: Any) -> None:
        self.coro = coro
        self.waiting_on = waiting_on

    def __await__(self) -> Generator[Any, Any, None]:
        coro, value = self.coro, self.waiting_on
        while True:
            try:
                sent = yield value
            except GeneratorExit:
                coro.close()
                raise
            except BaseException as e:  # thrown in (a cancellation): handed on, as await does
                try:
                    value = coro.throw(e)
                except StopIteration:
                    return
            else:
                try:
                    value = coro.send(sent)
                except StopIteration:
                    return


def send_now(ws: WebSocket, text: str) -> _Rest | None:
    """Send ``text`` now: None when it went out whole; else the rest of the send, for the
    pump to finish before anything else. A socket that fails (the client went away) raises,
    and :meth:`Conn.push` then closes the connection, as the pump does."""
    coro = ws.send_text(text)
    try:
        waiting_on = coro.send(None)
    except StopIteration:
        return None
    return _Rest(coro, waiting_on)


async def pump(ws: WebSocket, conn: Conn) -> None:
    """Send a connection's outbox in order (what could not go at once), then, once the
    connection is closed, close the socket with its code and reason."""
    try:
        while True:
            item = await conn.outbox.get()
            if item is None:
                break
            conn.sending = True
            try:
                if isinstance(item, str):
                    await ws.send_text(item)
                else:
                    await item
            finally:
                conn.sending = False
    except Exception:  # the client went away mid-send
        conn.closed = True
    finally:
        if conn.closed:
            with suppress(Exception):
                await ws.close(conn.close_code, conn.close_reason)


def start_sending(ws: WebSocket, conn: Conn) -> asyncio.Task[None]:
    """Send ``conn``'s messages on ``ws`` from now on: at once when they can go, through the
    pump (returned: await it after closing the connection) when not."""
    conn.direct = partial(send_now, ws)  # the socket only: no cycle back to the connection
    return asyncio.create_task(pump(ws, conn))
