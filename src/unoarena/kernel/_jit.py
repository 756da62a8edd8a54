"""The one place that imports numba: typed decorators, so the kernel's modules stay checkable by
mypy, and every compiled function is cached on disk (compiling is paid once per machine, not once
per process).

The kernel runs without numba's reference counting (``_nrt=False``): every function takes a
table's arrays in two named tuples, and with reference counting each call would increment and
decrement forty array counters (measured: about 400 ns a call, more than the work). So the
kernel never allocates: scratch space is part of the state, and numba refuses to compile any
allocation that slips in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

F = TypeVar("F", bound=Callable[..., Any])
#: numba's options (``_nrt`` is not in its published signature, hence a plain mapping)
_OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}


def njit(fn: F) -> F:
    """A compiled entry point, with the function's own type kept."""
    return cast(F, numba.njit(**_OPTIONS)(fn))


def inline(fn: F) -> F:
    """A helper that LLVM always inlines into its callers (small functions, hot loops)."""
    return cast(F, numba.njit(forceinline=True, **_OPTIONS)(fn))
