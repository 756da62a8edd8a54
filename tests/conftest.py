"""Shared fixtures: every test starts and ends in English, whatever the one before did.

The tests that run the compiled kernel (directly, or through ``simulate`` and ``tournament``,
which use it by themselves) run last: on a new machine the kernel compiles for minutes, and CI
compiles it in the background while the other tests run (``.ci/run``).

In parallel (``pytest -n auto``, pytest-xdist) each test file runs whole in one process, and
the files go in this order to whichever process is free (``--dist loadfile
--no-loadscope-reorder`` in ``pyproject.toml``): a file's tests may share a module's set-up (a
live server, a Ray instance). What files share is per process: each server listens on a free
port, the PostgreSQL tests work in a schema named after their process, temporary directories
are per process, and numba writes its cache files atomically. Under ``.ci/run`` the kernel's
tests also wait for the background compile to finish (:func:`kernel_compiled`)."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator

import pytest

from unoarena.text.i18n import set_language

#: test files that compile the kernel when it is not cached yet
KERNEL_USERS = ("kernel/", "test_cli.py", "test_cluster.py", "test_docs_replay.py",
                "test_sim.py", "test_tournament.py")
#: a file that ``.ci/run``'s background compile holds locked until every part of the kernel is
#: cached: the kernel's tests wait for it rather than compile the same parts again beside it
#: (two processes compiling one part both do all the work, and CI has two cores)
WARM_LOCK = os.environ.get("UNOARENA_KERNEL_WARM_LOCK", "")
_warm_done = False


def uses_kernel(item: pytest.Item) -> bool:
    path = item.path.as_posix()
    return any(f"/tests/{name}" in path for name in KERNEL_USERS)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=uses_kernel)  # stable: each group keeps its order


@pytest.fixture(autouse=True)
def kernel_compiled(request: pytest.FixtureRequest) -> None:
    """Under ``.ci/run``: a test of the kernel starts once the background compile is done."""
    global _warm_done
    if _warm_done or not WARM_LOCK or not uses_kernel(request.node):
        return
    with open(WARM_LOCK, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_SH)  # blocks while the compile holds it
    _warm_done = True


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")
