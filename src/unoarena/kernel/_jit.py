"""The one place that imports numba: typed decorators, so the kernel's modules stay checkable by
mypy, and every compiled function is cached on disk (compiling is paid once per machine, not once
per process).

The kernel runs without numba's reference counting (``_nrt=False``): every function takes a
table's arrays in two named tuples, and with reference counting each call would increment and
decrement forty array counters (measured: about 400 ns a call, more than the work). So the
kernel never allocates: scratch space is part of the state, and numba refuses to compile any
allocation that slips in.

Where the compiled code is cached: numba checks only the source file of each cached function,
yet the kernel's entry points inline helpers from other files (a change to ``core.py`` would
leave ``bots.py``'s cached rounds stale). So each module's cache lives in a directory named
after a digest of its source, of every kernel source it imports and of the card tables they
freeze in (``~/.cache/unoarena/kernel/<module>-<digest>``, under ``$XDG_CACHE_HOME`` when
set): a change compiles afresh what depends on it, and nothing else. A ``NUMBA_CACHE_DIR``
set by the user takes the place of ``~/.cache/unoarena/kernel`` and keeps the digest-named
directories under it (numba itself would use it as one flat directory and run stale inlined
code after a change to another kernel file).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numba

F = TypeVar("F", bound=Callable[..., Any])
#: numba's options (``_nrt`` is not in its published signature, hence a plain mapping)
_OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}


_HERE = Path(__file__).resolve().parent
#: files outside the kernel (relative to the package) whose tables the kernel's modules freeze
#: in as constants
_FROZEN = ("engine/cards.py",)


def _kernel_imports(path: Path) -> set[str]:
    """The kernel modules one kernel source imports (``from . import x``, ``from .x import``)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out.update(a.name for a in node.names)
    return {m for m in out if (path.parent / f"{m}.py").is_file()}


@functools.cache
def cache_dir(module: str, here: Path = _HERE) -> str:
    """Where the compiled functions of kernel module ``module`` (``core``, ``bots``...) are
    cached: named after a digest of its source and of every kernel source it imports, directly
    or not (see the module docstring). ``here``: the kernel's directory."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(_kernel_imports(here / f"{m}.py"))
    digest = hashlib.sha256(numba.__version__.encode())
    for path in [*(here / f"{m}.py" for m in sorted(seen)),
                 *(here.parent / f for f in _FROZEN)]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    if os.environ.get("NUMBA_CACHE_DIR"):
        root = Path(os.environ["NUMBA_CACHE_DIR"])
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                                  ".cache")
        root = Path(base, "unoarena", "kernel")
    _prune(root, module)
    path = root / f"{module}-{digest.hexdigest()[:16]}"
    if path.is_dir():
        os.utime(path)  # in use: keep it from being pruned
    return str(path)


def _prune(root: Path, module: str, days: float = 14.0) -> None:
    """Remove this module's caches of sources not compiled for ``days`` (each is megabytes)."""
    limit = time.time() - days * 86400
    for old in root.glob(f"{module}-*"):
        try:
            if old.stat().st_mtime < limit:
                shutil.rmtree(old)
        except OSError:
            pass  # another process uses or removed it: leave it


def _plain(t: Any) -> Any:
    """The type a call's argument is compiled for: a constant's type without its value, an
    integer as int64 (see :func:`_one_version`)."""
    types: Any = numba.types  # numba ships no type hints
    t = types.unliteral(t)
    if isinstance(t, types.Integer) and t.signed:
        return types.int64
    return t


def _one_version(dispatcher: Any) -> Any:
    """Compile one version of a kernel function for all its callers.

    Called from compiled code, numba compiles a function once per distinct argument types, a
    constant's value included: ``press(st, tb, t, seat, D_TURN)`` and ``press(..., D_DRAW2)``
    were two versions, ``int32`` and ``int64`` seats two more. The kernel had a dozen versions
    of its busiest helpers, each optimised on its own, and the vector environment took over 20
    minutes to compile. One version costs about 9% of the round loop (the constants no longer
    specialise it; measured side by side), and compiles the vector environment in 2 minutes
    instead of 5.4. (A call that only types with its constants falls back to numba's own
    way.)"""
    typed = dispatcher.get_call_template

    def get_call_template(args: tuple[Any, ...], kws: dict[str, Any]) -> Any:
        try:
            return typed(tuple(_plain(a) for a in args),
                         {k: _plain(v) for k, v in kws.items()})
        except numba.core.errors.TypingError:
            return typed(args, kws)

    dispatcher.get_call_template = get_call_template
    return dispatcher


def _compile(fn: F, **options: Any) -> F:
    # numba picks a function's cache directory when it is decorated, from its global config:
    # set it for the kernel's functions only, and leave other libraries' caches alone
    config: Any = numba.config
    saved = config.CACHE_DIR
    config.CACHE_DIR = cache_dir(fn.__module__.rpartition(".")[2])
    try:
        return cast(F, _one_version(numba.njit(**options, **_OPTIONS)(fn)))
    finally:
        config.CACHE_DIR = saved


def njit(fn: F) -> F:
    """A compiled entry point, with the function's own type kept."""
    return _compile(fn)


def inline(fn: F) -> F:
    """A helper that LLVM always inlines into its callers (small functions, hot loops)."""
    return _compile(fn, forceinline=True)


def body(fn: F) -> F:
    """A large part of one entry point, called from one or two places in it: numba copies its
    code into the callers before compiling them. A compiled function called from another is
    compiled on its own and then linked into, optimised and turned into machine code again with
    every caller, and with every caller of those: the labeller's chain of four such functions
    compiled its rollout loop four times."""
    return cast(F, numba.njit(inline="always", **_OPTIONS)(fn))
