"""The one place that imports numba: a typed ``njit`` shim, so the kernel's modules stay
checkable by mypy and every compiled function is cached on disk (compiling is paid once per
machine, not once per process)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

F = TypeVar("F", bound=Callable[..., Any])


def njit(fn: F) -> F:
    """``numba.njit(cache=True, nogil=True)`` with the function's own type kept."""
    return cast(F, numba.njit(cache=True, nogil=True)(fn))
