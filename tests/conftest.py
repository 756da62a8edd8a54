"""Shared fixtures: every test starts and ends in English, whatever the one before did."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from unoarena.i18n import set_language


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")
