"""The compiled batch kernel (``_kernel``: Cython, built when the package is installed).

The same rounds as :mod:`unoarena.engine`, played on flat numpy arrays by code compiled ahead of
time to machine code: for simulation at millions of rounds and for vectorised learning
environments. The reference engine stays the specification; ``tests/kernel`` proves the two
play the same games. Import :func:`available` first where the extension may be missing (an
install without a C compiler).
"""

from __future__ import annotations

import importlib.util


def _has(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent missing, or a module blocked in sys.modules
        return False


def available() -> bool:
    """True when the compiled extension was built and can run here (it needs numpy)."""
    return _has("numpy") and _has("unoarena.kernel._kernel")


def unavailable_reason() -> str:
    """Why the kernel cannot run here, in one line for a command line."""
    if not _has("numpy"):
        return "the compiled kernel needs numpy: pip install numpy"
    if not _has("unoarena.kernel._kernel"):
        return ("the compiled kernel was not built (no C compiler when unoarena was "
                "installed): install gcc or clang, then reinstall unoarena (pip install "
                "--force-reinstall --no-deps unoarena, or pip install -e . in a checkout)")
    return ""
