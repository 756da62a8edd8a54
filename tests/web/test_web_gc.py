"""The served process collects garbage on a clock while clients are connected (see
``pace_gc``): young collections often, the middle generation every few, the whole heap rarely,
and nothing while nobody is connected."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator
from typing import Any

import pytest

from unoarena.testing.web_server import run_apart
from unoarena.web.app import pace_gc


@pytest.fixture
def collections() -> Iterator[list[int]]:
    """The generation of every collection that runs meanwhile (the collector's own trigger
    off, so only the pacer's count)."""
    seen: list[int] = []

    def note(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            seen.append(int(info["generation"]))

    was_on = gc.isenabled()
    gc.disable()
    gc.callbacks.append(note)
    try:
        yield seen
    finally:
        gc.callbacks.remove(note)
        if was_on:
            gc.enable()


async def _run(seen: list[int], busy: bool, until: int, seconds: float) -> None:
    """Pace for ``seconds`` at most, or until ``until`` collections were seen."""
    task = asyncio.create_task(pace_gc(lambda: busy, every=0.005, middle=3, full=7))
    deadline = asyncio.get_running_loop().time() + seconds
    while len(seen) < until and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.01)
    task.cancel()


def test_a_busy_server_collects_young_often_and_older_generations_in_turn(
        collections: list[int]) -> None:
    run_apart(_run(collections, True, until=15, seconds=30))  # a slow machine ticks late
    n = len(collections)
    assert n >= 15, collections
    # tick k collects the whole heap when 7 divides k, else the middle one when 3 does
    want = [2 if k % 7 == 0 else 1 if k % 3 == 0 else 0 for k in range(1, n + 1)]
    assert collections == want


def test_an_idle_server_collects_nothing(collections: list[int]) -> None:
    run_apart(_run(collections, False, until=1, seconds=0.3))
    assert collections == []
