"""The served process collects garbage on a clock while clients are connected (see
``pace_gc``): young collections often, the middle generation every few, the whole heap when it
has grown by a quarter (or after a long while), and nothing while nobody is connected."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable, Iterator
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


async def _run(seen: list[int], busy: bool, until: int, seconds: float,
               heap: Callable[[], int] = lambda: 100) -> None:
    """Pace for ``seconds`` at most, or until ``until`` collections were seen."""
    task = asyncio.create_task(pace_gc(lambda: busy, every=0.005, middle=3, full=7,
                                       heap=heap))
    deadline = asyncio.get_running_loop().time() + seconds
    while len(seen) < until and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.01)
    task.cancel()


def test_a_busy_server_collects_young_often_and_older_generations_in_turn(
        collections: list[int]) -> None:
    run_apart(_run(collections, True, until=15, seconds=30))  # a slow machine ticks late
    n = len(collections)
    assert n >= 15, collections
    # a steady heap: the middle generation every third tick, and on the first of those at
    # least 7 ticks after the last whole-heap collection, the whole heap (ticks 9, 18, ...)
    want = [2 if k % 9 == 0 else 1 if k % 3 == 0 else 0 for k in range(1, n + 1)]
    assert collections == want


def test_a_heap_grown_by_a_quarter_is_collected_whole_at_the_next_middle_tick(
        collections: list[int]) -> None:
    sizes = iter([100, 110, 126, 126, 126, 158])  # read at start, then at each middle tick
    # (and again after a whole-heap collection, as its new base)
    run_apart(_run(collections, True, until=12, seconds=30, heap=lambda: next(sizes, 158)))
    assert collections[:12] == [0, 0, 1, 0, 0, 2, 0, 0, 1, 0, 0, 2]


def test_an_idle_server_collects_nothing(collections: list[int]) -> None:
    run_apart(_run(collections, False, until=1, seconds=0.3))
    assert collections == []
