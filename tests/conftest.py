"""Shared fixtures: every test starts and ends in English, whatever the one before did.

In parallel (``pytest -n auto``, pytest-xdist) each test file runs whole in one process, and
the files go in this order to whichever process is free (``--dist loadfile
--no-loadscope-reorder`` in ``pyproject.toml``): a file's tests may share a module's set-up (a
live server, a Ray instance). What files share is per process: each server listens on a free
port, the PostgreSQL tests work in a schema named after their process, temporary directories
are per process."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from unoarena.text.i18n import set_language


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")
