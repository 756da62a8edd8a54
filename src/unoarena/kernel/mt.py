"""CPython's Mersenne Twister, step for step, so the kernel deals the reference's cards.

``random.Random(seed)`` seeds MT19937 with ``init_by_array`` over the 32-bit words of
``abs(seed)`` (one zero word for seed 0); ``random()`` joins two outputs into a 53-bit float;
``getrandbits(k)`` and ``_randbelow`` (used by ``random.shuffle``) take the high bits of one
output per 32 bits, retrying out-of-range values. A generator is a row of 625 ``uint32``: the
624 words of state and the position in them (index 624).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

N = 624
M = 397
MT_WORDS = N + 1  # the state and its position

U32 = npt.NDArray[np.uint32]


# the compiled functions (``_kernel.pyx``, part ``mt.pxi``)
from . import _kernel  # noqa: E402

genrand = _kernel.mt_genrand
getrandbits = _kernel.mt_getrandbits
randbelow = _kernel.mt_randbelow
random = _kernel.mt_random
seed = _kernel.mt_seed
seed_many = _kernel.mt_seed_many
seed_words = _kernel.mt_seed_words
