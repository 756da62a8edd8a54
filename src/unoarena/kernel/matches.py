"""Whole matches on the kernel: :class:`unoarena.engine.Match`, compiled.

The match's own generator chooses the first dealer (SET-1: high card with redraws among the
tied, or at random), seeds every round (``getrandbits(63)``) and shuffles seats (HR-SEATS),
in the reference's order; the scores settle as :func:`unoarena.engine.settle` says
(MATCH-1..4), and the deal passes as SET-2 says. Bots follow their players across seats, and
a heuristic's BluffStats follow its player through the match.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
U32 = npt.NDArray[np.uint32]
F64 = npt.NDArray[np.float64]

# what play_match returns in ``result``: rounds played, an error code, then one flag per
# player (or team) that won the match
M_ROUNDS, M_ERROR, M_WINNERS = 0, 1, 2
E_ROUNDS, E_ROUND, E_CAPACITY = 1, 2, 3


# the compiled functions (``_kernel.pyx``, part ``matches.pxi``)
from . import _kernel  # noqa: E402

first_dealer = _kernel.km_first_dealer
play_match = _kernel.km_play_match
