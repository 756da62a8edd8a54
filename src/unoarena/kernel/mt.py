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

from ._jit import njit

N = 624
M = 397
MT_WORDS = N + 1  # the state and its position
_MATRIX_A = np.uint32(0x9908B0DF)
_UPPER = np.uint32(0x80000000)
_LOWER = np.uint32(0x7FFFFFFF)

U32 = npt.NDArray[np.uint32]


def _genrand_base() -> U32:
    """``init_genrand(19650218)``: where every ``init_by_array`` starts (a constant)."""
    mt = np.zeros(N, dtype=np.uint64)
    mt[0] = 19650218
    for i in range(1, N):
        prev = int(mt[i - 1])
        mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF
    return mt.astype(np.uint32)


_BASE = _genrand_base()


@njit
def seed_words(mt: U32, lo: int, hi: int) -> None:
    """Seed like ``random.Random(hi * 2**32 + lo)`` for a seed below 2**64 (key of one word
    when ``hi`` is 0, as CPython does)."""
    key0 = np.uint32(lo)
    key1 = np.uint32(hi)
    nkey = 2 if hi != 0 else 1
    for i in range(N):
        mt[i] = _BASE[i]
    i = 1
    j = 0
    for _ in range(N):  # max(N, key length) with a key of at most two words
        prev = mt[i - 1]
        key = key0 if j == 0 else key1
        mt[i] = np.uint32((mt[i] ^ np.uint32((prev ^ (prev >> np.uint32(30)))
                                             * np.uint32(1664525))) + key + np.uint32(j))
        i += 1
        j += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
        if j >= nkey:
            j = 0
    for _ in range(N - 1):
        prev = mt[i - 1]
        mt[i] = np.uint32((mt[i] ^ np.uint32((prev ^ (prev >> np.uint32(30)))
                                             * np.uint32(1566083941))) - np.uint32(i))
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    mt[0] = np.uint32(0x80000000)
    mt[N] = N


@njit
def seed(mt: U32, s: int) -> None:
    """Seed like ``random.Random(s)`` for ``0 <= s < 2**63``."""
    seed_words(mt, s & 0xFFFFFFFF, (s >> 32) & 0xFFFFFFFF)


@njit
def _twist(mt: U32) -> None:
    for kk in range(N - M):
        y = (mt[kk] & _UPPER) | (mt[kk + 1] & _LOWER)
        mt[kk] = mt[kk + M] ^ (y >> np.uint32(1)) ^ (_MATRIX_A if y & np.uint32(1) else
                                                     np.uint32(0))
    for kk in range(N - M, N - 1):
        y = (mt[kk] & _UPPER) | (mt[kk + 1] & _LOWER)
        mt[kk] = mt[kk + (M - N)] ^ (y >> np.uint32(1)) ^ (_MATRIX_A if y & np.uint32(1) else
                                                           np.uint32(0))
    y = (mt[N - 1] & _UPPER) | (mt[0] & _LOWER)
    mt[N - 1] = mt[M - 1] ^ (y >> np.uint32(1)) ^ (_MATRIX_A if y & np.uint32(1) else
                                                   np.uint32(0))
    mt[N] = 0


@njit
def genrand(mt: U32) -> np.uint32:
    """The next 32-bit output."""
    if mt[N] >= N:
        _twist(mt)
    y = mt[mt[N]]
    mt[N] += 1
    y ^= y >> np.uint32(11)
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    y ^= y >> np.uint32(18)
    return np.uint32(y)


@njit
def random(mt: U32) -> float:
    """``random.random()``: a 53-bit float in [0, 1)."""
    a = np.uint64(genrand(mt) >> np.uint32(5))
    b = np.uint64(genrand(mt) >> np.uint32(6))
    return (float(a) * 67108864.0 + float(b)) * (1.0 / 9007199254740992.0)


@njit
def getrandbits(mt: U32, k: int) -> int:
    """``random.getrandbits(k)`` for ``1 <= k <= 64``."""
    if k <= 32:
        return int(genrand(mt) >> np.uint32(32 - k))
    lo = int(genrand(mt))
    hi = int(genrand(mt) >> np.uint32(64 - k))
    return lo | (hi << 32)


@njit
def randbelow(mt: U32, n: int) -> int:
    """``random._randbelow(n)`` for ``1 <= n < 2**32`` (rejection on ``n.bit_length()`` bits)."""
    k = 0
    m = n
    while m:
        k += 1
        m >>= 1
    r = getrandbits(mt, k)
    while r >= n:
        r = getrandbits(mt, k)
    return r


@njit
def seed_many(out: U32, lo: npt.NDArray[np.int64], hi: npt.NDArray[np.int64],
              work: U32) -> None:
    """:func:`seed_words` for many generators at once: ``out[k]`` seeded with
    ``(lo[k], hi[k])``. Seeding one generator is a chain of 1,248 dependent multiplies (about
    3.6 us); with the generators as the inner loop (``work``: (626, K) scratch) the chains run
    side by side in vector registers."""
    kk = len(lo)
    for i in range(N):
        b = _BASE[i]
        row = work[i]
        for k in range(kk):
            row[k] = b
    # what init_by_array adds at even and odd steps: key[0] + 0, then key[1] + 1 (two words)
    for k in range(kk):
        work[N, k] = np.uint32(lo[k])
        work[N + 1, k] = np.uint32(lo[k]) if hi[k] == 0 else np.uint32(hi[k] + 1)
    i = 1
    for q in range(N):
        _mix(work[i], work[i - 1], work[N + (q & 1)], kk)
        i += 1
        if i >= N:
            _copy(work[0], work[N - 1], kk)
            i = 1
    for _ in range(N - 1):
        _mix2(work[i], work[i - 1], np.uint32(i), kk)
        i += 1
        if i >= N:
            _copy(work[0], work[N - 1], kk)
            i = 1
    for k in range(kk):
        out[k, 0] = np.uint32(0x80000000)
        out[k, N] = N
    for j in range(1, N):
        row = work[j]
        for k in range(kk):
            out[k, j] = row[k]


@njit
def _mix(row: U32, prev: U32, add: U32, kk: int) -> None:
    for k in range(kk):
        p = prev[k]
        row[k] = np.uint32((row[k] ^ np.uint32((p ^ (p >> np.uint32(30))) * np.uint32(1664525)))
                           + add[k])


@njit
def _mix2(row: U32, prev: U32, sub: np.uint32, kk: int) -> None:
    for k in range(kk):
        p = prev[k]
        row[k] = np.uint32((row[k] ^ np.uint32((p ^ (p >> np.uint32(30)))
                                               * np.uint32(1566083941))) - sub)


@njit
def _copy(dst: U32, src: U32, kk: int) -> None:
    for k in range(kk):
        dst[k] = src[k]
