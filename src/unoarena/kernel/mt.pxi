# ---- mt --------------------------------------------------------------------------------
cdef void _mt_seed_words(uint32_t* mt, int64_t lo, int64_t hi) noexcept nogil:
    """Seed like ``random.Random(hi * 2**32 + lo)`` for a seed below 2**64 (key of one word
    when ``hi`` is 0, as CPython does)."""
    cdef int64_t _
    cdef int64_t i
    cdef int64_t j
    cdef int64_t key
    cdef int64_t key0
    cdef int64_t key1
    cdef int64_t nkey
    cdef int64_t prev
    key0 = <uint32_t>(lo)
    key1 = <uint32_t>(hi)
    nkey = 2 if hi != 0 else 1
    for i in range(N):
        mt[i] = _BASE[i]
    i = 1
    j = 0
    for _ in range(N):  # max(N, key length) with a key of at most two words
        prev = mt[i - 1]
        key = key0 if j == 0 else key1
        mt[i] = <uint32_t>((mt[i] ^ <uint32_t>((prev ^ (prev >> <uint32_t>(30))) * <uint32_t>(1664525))) + key + <uint32_t>(j))
        i += 1
        j += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
        if j >= nkey:
            j = 0
    for _ in range(N - 1):
        prev = mt[i - 1]
        mt[i] = <uint32_t>((mt[i] ^ <uint32_t>((prev ^ (prev >> <uint32_t>(30))) * <uint32_t>(1566083941))) - <uint32_t>(i))
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    mt[0] = <uint32_t>(0x80000000LL)
    mt[N] = N


cdef void _mt_seed(uint32_t* mt, int64_t s) noexcept nogil:
    """Seed like ``random.Random(s)`` for ``0 <= s < 2**63``."""
    _mt_seed_words(mt, s & 0xFFFFFFFFLL, (s >> 32) & 0xFFFFFFFFLL)


cdef void _mt__twist(uint32_t* mt) noexcept nogil:
    cdef int64_t kk
    cdef int64_t y
    for kk in range(N - M):
        y = (mt[kk] & _UPPER) | (mt[kk + 1] & _LOWER)
        mt[kk] = mt[kk + M] ^ (y >> <uint32_t>(1)) ^ (_MATRIX_A if y & <uint32_t>(1) else <uint32_t>(0))
    for kk in range(N - M, N - 1):
        y = (mt[kk] & _UPPER) | (mt[kk + 1] & _LOWER)
        mt[kk] = mt[kk + (M - N)] ^ (y >> <uint32_t>(1)) ^ (_MATRIX_A if y & <uint32_t>(1) else <uint32_t>(0))
    y = (mt[N - 1] & _UPPER) | (mt[0] & _LOWER)
    mt[N - 1] = mt[M - 1] ^ (y >> <uint32_t>(1)) ^ (_MATRIX_A if y & <uint32_t>(1) else <uint32_t>(0))
    mt[N] = 0


cdef uint32_t _mt_genrand(uint32_t* mt) noexcept nogil:
    """The next 32-bit output."""
    cdef int64_t y
    if mt[N] >= N:
        _mt__twist(mt)
    y = mt[mt[N]]
    mt[N] += 1
    y ^= y >> <uint32_t>(11)
    y ^= (y << <uint32_t>(7)) & <uint32_t>(0x9D2C5680LL)
    y ^= (y << <uint32_t>(15)) & <uint32_t>(0xEFC60000LL)
    y ^= y >> <uint32_t>(18)
    return <uint32_t>(y)


cdef double _mt_random(uint32_t* mt) noexcept nogil:
    """``random.random()``: a 53-bit float in [0, 1)."""
    cdef int64_t a
    cdef int64_t b
    a = <uint64_t>(_mt_genrand(mt) >> <uint32_t>(5))
    b = <uint64_t>(_mt_genrand(mt) >> <uint32_t>(6))
    return (<double>(a) * 67108864.0 + <double>(b)) * (1.0 / 9007199254740992.0)


cdef int64_t _mt_getrandbits(uint32_t* mt, int64_t k) noexcept nogil:
    """``random.getrandbits(k)`` for ``1 <= k <= 64``."""
    cdef int64_t hi
    cdef int64_t lo
    if k <= 32:
        return <int64_t>(_mt_genrand(mt) >> <uint32_t>(32 - k))
    lo = <int64_t>(_mt_genrand(mt))
    hi = <int64_t>(_mt_genrand(mt) >> <uint32_t>(64 - k))
    return lo | (hi << 32)


cdef int64_t _mt_randbelow(uint32_t* mt, int64_t n) noexcept nogil:
    """``random._randbelow(n)`` for ``1 <= n < 2**32`` (rejection on ``n.bit_length()`` bits)."""
    cdef int64_t k
    cdef int64_t m
    cdef int64_t r
    k = 0
    m = n
    while m:
        k += 1
        m >>= 1
    r = _mt_getrandbits(mt, k)
    while r >= n:
        r = _mt_getrandbits(mt, k)
    return r


cdef void _mt_seed_many(uint32_t[:, ::1] out, int64_t[::1] lo, int64_t* hi, uint32_t[:, ::1] work) noexcept nogil:
    """:func:`seed_words` for many generators at once: ``out[k]`` seeded with
    ``(lo[k], hi[k])``. Seeding one generator is a chain of 1,248 dependent multiplies (about
    3.6 us); with the generators as the inner loop (``work``: (626, K) scratch) the chains run
    side by side in vector registers."""
    cdef int64_t _
    cdef int64_t b
    cdef int64_t i
    cdef int64_t j
    cdef int64_t k
    cdef int64_t kk
    cdef int64_t q
    cdef uint32_t* row
    kk = lo.shape[0]
    for i in range(N):
        b = _BASE[i]
        row = &work[i, 0]
        for k in range(kk):
            row[k] = b
    # what init_by_array adds at even and odd steps: key[0] + 0, then key[1] + 1 (two words)
    for k in range(kk):
        work[N, k] = <uint32_t>(lo[k])
        work[N + 1, k] = <uint32_t>(lo[k]) if hi[k] == 0 else <uint32_t>(hi[k] + 1)
    i = 1
    for q in range(N):
        _mt__mix(&work[i, 0], &work[i - 1, 0], &work[N + (q & 1), 0], kk)
        i += 1
        if i >= N:
            _mt__copy(&work[0, 0], &work[N - 1, 0], kk)
            i = 1
    for _ in range(N - 1):
        _mt__mix2(&work[i, 0], &work[i - 1, 0], <uint32_t>(i), kk)
        i += 1
        if i >= N:
            _mt__copy(&work[0, 0], &work[N - 1, 0], kk)
            i = 1
    for k in range(kk):
        out[k, 0] = <uint32_t>(0x80000000LL)
        out[k, N] = N
    for j in range(1, N):
        row = &work[j, 0]
        for k in range(kk):
            out[k, j] = row[k]


cdef void _mt__mix(uint32_t* row, uint32_t* prev, uint32_t* add, int64_t kk) noexcept nogil:
    cdef int64_t k
    cdef int64_t p
    for k in range(kk):
        p = prev[k]
        row[k] = <uint32_t>((row[k] ^ <uint32_t>((p ^ (p >> <uint32_t>(30))) * <uint32_t>(1664525))) + add[k])


cdef void _mt__mix2(uint32_t* row, uint32_t* prev, uint32_t sub, int64_t kk) noexcept nogil:
    cdef int64_t k
    cdef int64_t p
    for k in range(kk):
        p = prev[k]
        row[k] = <uint32_t>((row[k] ^ <uint32_t>((p ^ (p >> <uint32_t>(30))) * <uint32_t>(1566083941))) - sub)


cdef void _mt__copy(uint32_t* dst, uint32_t* src, int64_t kk) noexcept nogil:
    cdef int64_t k
    for k in range(kk):
        dst[k] = src[k]


