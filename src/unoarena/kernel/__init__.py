"""The compiled batch kernel (optional extra ``fast``: numba).

The same rounds as :mod:`unoarena.engine`, played on flat numpy arrays by code that numba
compiles to machine code: for simulation at millions of rounds and for vectorised learning
environments. The reference engine stays the specification; ``tests/kernel`` proves the two
play the same games. Import :func:`available` first where numba may be missing.
"""

from __future__ import annotations

import importlib.util


def available() -> bool:
    """True when numba (and so the kernel) can be imported here."""
    return importlib.util.find_spec("numba") is not None


def unavailable_reason() -> str:
    """Why the kernel cannot run here, in words for a command line."""
    if available():
        return ""
    return "the compiled kernel needs numba: pip install 'unoarena[fast]'"
