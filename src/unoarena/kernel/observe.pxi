# ---- observe --------------------------------------------------------------------------------
cdef inline void _ko_encode(CState st, CTables tb, int64_t t, int64_t seat, bint window, int64_t* lay, float[:, ::1] tmpl, int32_t* ids, int64_t m, float* out) noexcept nogil:
    """Write ``seat``'s observation of table ``t`` to the row ``out``; ``ids[:m]``: its legal
    ids when it acts now (they name the playable drawn cards), else ``m = 0``."""
    cdef int64_t aid
    cdef int64_t eff
    cdef int64_t ex
    cdef int64_t i
    cdef int64_t j
    cdef int64_t n
    cdef int64_t o
    cdef int64_t od
    cdef int64_t other
    cdef int64_t* p
    cdef int64_t pend
    cdef int64_t phase
    cdef float* row
    cdef int64_t[::1] s
    cdef int64_t sz
    cdef int64_t turn
    s = st.s[t]
    p = &tb.p[0]
    n = p[R_PLAYERS]
    row = &tmpl[seat, 0]
    for i in range(tmpl.shape[1]):  # the observation's size
        out[i] = row[i]
    for i in range(st.hsize[t, seat]):  # the hand: offset 0
        out[st.hands[t, seat, i]] += 1.0
    o = lay[L_SIZES]
    od = lay[L_DECLARED]
    for i in range(n):
        sz = st.hsize[t, (seat + i) % n]
        out[o + i] = sz
        if sz == 1 and st.declared[t, (seat + i) % n]:
            out[od + i] = 1.0
    ex = s[F_EXPOSED]
    if ex >= 0:
        out[lay[L_EXPOSED] + (ex - seat) % n] = 1.0
    turn = s[F_TURN]
    out[lay[L_TURN] + (turn - seat) % n] = 1.0
    if window:
        out[lay[L_WINDOW]] = 1.0
    phase = s[F_PHASE]
    out[lay[L_PHASE] + phase] = 1.0
    out[lay[L_TOP] + st.disc[t, s[F_NDISC] - 1]] = 1.0
    if s[F_COLOR] >= 0:
        out[lay[L_COLOR] + s[F_COLOR]] = 1.0
    if s[F_DIR] == 1:
        out[lay[L_DIRECTION]] = 1.0
    if phase == DRAWN and turn == seat:
        o = lay[L_DRAWN]
        for i in range(m):
            aid = ids[i]
            if aid < tb.a_ncards.shape[0] and tb.a_ncards[aid] > 0:
                out[o + tb.a_cards[aid, 0]] = 1.0
    pend = s[F_PEND]
    if pend:
        out[lay[L_PEND]] = min(pend, p[R_DECK])
        out[lay[L_SOURCE] + s[F_PKIND] - 1] = 1.0
    eff = s[F_EFFECT]
    if eff != E_NONE:
        out[lay[L_EFFECT] + eff - 1] = 1.0
        out[lay[L_ECOLOR] + s[F_ECOLOR]] = 1.0
        if eff == E_LOCK:
            out[lay[L_OWNER] + (s[F_EOWNER] - seat) % n] = 1.0
    out[lay[L_PILE]] = s[F_NPILE]
    if lay[L_OPEN] >= 0:  # HR-OPEN: the others' hands that lie face up
        for i in range(1, n):
            other = (seat + i) % n
            if st.hsize[t, other] <= p[R_OPEN_HANDS]:
                o = lay[L_OPEN] + (i - 1) * NKINDS
                for j in range(st.hsize[t, other]):
                    out[o + st.hands[t, other, j]] += 1.0
    if lay[L_SEER] >= 0:
        for i in range(1, n):
            o = lay[L_SEER] + (i - 1) * NKINDS
            other = (seat + i) % n
            for j in range(st.hsize[t, other]):
                out[o + st.hands[t, other, j]] += 1.0
        o = lay[L_SEER_PILE]
        for j in range(s[F_NPILE]):
            out[o + st.pile[t, j]] += 1.0


cdef inline void _ko_mask(int32_t* ids, int64_t m, int64_t decline, int8_t* out, int64_t width) noexcept nogil:
    """The row ``out`` (``width`` ids) of a legal-action mask: ``ids[:m]``, and ``decline``
    when it is >= 0."""
    cdef int64_t i
    for i in range(width):
        out[i] = 0
    for i in range(m):
        out[ids[i]] = 1
    if decline >= 0:
        out[decline] = 1


cdef int64_t _ko_encode_seat(CState st, CTables tb, int64_t t, int64_t seat, bint window, int64_t* lay, float[:, ::1] tmpl, int32_t* ids, float* out) noexcept nogil:
    """:func:`encode` for one seat, its legal ids computed here (into ``ids``; returns how
    many): what a caller outside the vector environment (a test, a table driven from
    Python) uses."""
    cdef int64_t m
    m = _core_legal(st, tb, t, seat, ids)
    _ko_encode(st, tb, t, seat, window, lay, tmpl, ids, m, out)
    return m


