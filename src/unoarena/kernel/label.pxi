# ---- label --------------------------------------------------------------------------------
cdef inline void _kl__c1(arr2 a, int64_t src, int64_t dst) noexcept nogil:
    """Row ``dst`` of a per-table array becomes row ``src`` (loops: a slice copy would
    allocate)."""
    cdef int64_t i
    for i in range(a.shape[1]):
        a[dst, i] = a[src, i]


cdef inline void _kl__c2(arr3 a, int64_t src, int64_t dst) noexcept nogil:
    cdef int64_t i
    cdef int64_t j
    for i in range(a.shape[1]):
        for j in range(a.shape[2]):
            a[dst, i, j] = a[src, i, j]


cdef inline void _kl__c3(arr4 a, int64_t src, int64_t dst) noexcept nogil:
    cdef int64_t i
    cdef int64_t j
    cdef int64_t k
    for i in range(a.shape[1]):
        for j in range(a.shape[2]):
            for k in range(a.shape[3]):
                a[dst, i, j, k] = a[src, i, j, k]


cdef void _kl_copy_table(CState st, CTracker tr, int64_t src, int64_t dst) noexcept nogil:
    """Table ``dst`` becomes a copy of table ``src``: its state and its card trackers."""
    _kl__c1(st.s, src, dst)
    _kl__c2(st.hands, src, dst)
    _kl__c1(st.hsize, src, dst)
    _kl__c1(st.pile, src, dst)
    _kl__c1(st.disc, src, dst)
    _kl__c1(st.drawn, src, dst)
    _kl__c1(st.declared, src, dst)
    _kl__c1(st.alt, src, dst)
    _kl__c2(st.chain, src, dst)
    _kl__c1(st.points, src, dst)
    _kl__c1(st.scores, src, dst)
    _kl__c1(st.drawn_by, src, dst)
    _kl__c1(st.tmp, src, dst)
    _kl__c1(tr.tf, src, dst)
    _kl__c1(tr.disc, src, dst)
    _kl__c2(tr.sf, src, dst)
    _kl__c2(tr.mine, src, dst)
    _kl__c3(tr.known, src, dst)
    _kl__c2(tr.nknown, src, dst)
    _kl__c3(tr.gcount, src, dst)
    _kl__c3(tr.gex0, src, dst)
    _kl__c3(tr.gex1, src, dst)
    _kl__c3(tr.glen, src, dst)
    _kl__c2(tr.ngroups, src, dst)
    _kl__c2(tr.snap, src, dst)
    _kl__c1(tr.nsnap, src, dst)
    _kl__c2(tr.stats, src, dst)


cdef inline bint _kl_apply(CState st, CTables tb, CTracker tr, int64_t t, int64_t aid, int64_t seat) noexcept nogil:
    """``seat`` takes ``aid`` on table ``t``; the heuristic seats' trackers read what it did
    (False when one overflowed)."""
    cdef bint tracked
    tracked = tr.tf[t, TF_MASK] != 0
    if tracked:
        _kh_before(tr, st, t, seat, aid)
    st.s[t, F_NLOG] = 0
    _core_step(st, tb, t, aid, seat)
    if not tracked:
        return True
    _kh_after(tr, st, tb, t)
    return <bint>(tr.tf[t, TF_ERROR] == 0)


cdef (int64_t, int64_t, int64_t, int64_t) _kl_play_on(CState st, CTables tb, CTracker tr, int64_t t, int64_t* kinds, double[:, ::1] opts, uint32_t* drv, uint32_t[:, ::1] own, int64_t stop, int64_t declined, int64_t max_actions, int32_t* ids, int32_t* buf, int64_t* seats, int64_t* scr) noexcept nogil:
    """The bots play table ``t`` (windows first, in DIG-3 order, then the turn seat) until
    seat ``stop`` must decide (``ASK``: its ``m`` legal ids in ``ids``) or the round is over;
    returns ``(code, window, m, declined)``."""
    cdef int64_t actor
    cdef int64_t aid
    cdef int64_t choice
    cdef int64_t k
    cdef int64_t m
    cdef int64_t nw
    cdef int64_t* s
    cdef int64_t seat
    cdef int64_t taken
    cdef int64_t verb
    cdef bint window
    s = &st.s[t, 0]
    taken = 0
    while s[F_PHASE] != OVER:
        if taken >= max_actions:
            return STUCK, 0, 0, declined
        taken += 1
        nw = _core_window_seats(st, tb, t, seats, buf)
        actor = -1
        aid = -1
        for k in range(nw + 1):
            window = k < nw
            seat = seats[k] if window else s[F_TURN]
            if window and (declined >> seat) & 1:
                continue
            m = _core_legal(st, tb, t, seat, ids)
            if seat == stop:
                return ASK, 1 if window else 0, m, declined
            if m == 0 and not window:
                return STUCK, 0, 0, declined
            choice = _kb_decide(st, tb, tr, t, seat, window, kinds[seat], &opts[seat, 0], ids, m, drv, &own[seat, 0], scr)
            if window and choice < 0:
                declined |= (<int64_t>1) << seat
                continue
            actor = seat
            aid = choice
            break
        if not _kl_apply(st, tb, tr, t, aid, actor):
            return STUCK, 0, 0, declined
        verb = tb.a_verb[aid]
        if verb != V_CATCH and verb != V_UNO:
            declined = 0
    return KL_OVER, 0, 0, declined


cdef inline double _kl_result(CState st, CTables tb, int64_t t, int64_t seat) noexcept nogil:
    """``seat``'s result of table ``t``'s finished round: +1 won (its team won), -1 lost, 0
    void (the vector environment's reward)."""
    cdef int64_t nt
    cdef int64_t* s
    cdef int64_t w
    s = &st.s[t, 0]
    if s[F_REASON] == REASON_VOID or s[F_REASON] == REASON_BLOCKED:
        return 0.0
    w = s[F_WINNER]
    if tb.p[R_TEAMS]:
        nt = tb.p[R_TEAMCOUNT]
        return 1.0 if w % nt == seat % nt else -1.0
    return 1.0 if w == seat else -1.0


cdef inline double _kl_rollout(CState st, CTables tb, CTracker tr, int64_t* kinds, double[:, ::1] opts, uint32_t* drv, uint32_t[:, ::1] own, int64_t seat, int64_t aid, int64_t declined, int64_t lo, int64_t hi, int64_t max_actions, int32_t* ids, int32_t* buf, int64_t* seats, int64_t* scr) noexcept nogil:
    """Copy table 0 to table 1, shuffle its draw pile and seed its generators from
    ``(lo, hi)``, let ``seat`` take ``aid`` (or let its window pass when ``aid`` is
    negative), and let the bots play the round out: ``seat``'s result (0 when it could not
    be played out)."""
    cdef int64_t _d
    cdef int64_t _m
    cdef int64_t _w
    cdef int64_t code
    cdef int64_t p
    cdef int64_t verb
    _kl_copy_table(st, tr, 0, 1)
    _mt_seed_words(&st.rng[1, 0], lo, hi)
    _core_shuffle(st, 1, &st.pile[1, 0], st.s[1, F_NPILE])
    _mt_seed_words(drv, lo ^ 0x5BD1E995, hi)
    for p in range(own.shape[0]):
        _mt_seed_words(&own[p, 0], lo ^ (0x27D4EB2F * (p + 1) & 0xFFFFFFFFLL), hi)
    if aid >= 0:
        if not _kl_apply(st, tb, tr, 1, aid, seat):
            return 0.0
        verb = tb.a_verb[aid]
        if verb != V_CATCH and verb != V_UNO:
            declined = 0
    else:
        declined |= (<int64_t>1) << seat
    code, _w, _m, _d = _kl_play_on(st, tb, tr, 1, kinds, opts, drv, own, -1, declined, max_actions, ids, buf, seats, scr)
    if code != KL_OVER:
        return 0.0
    return _kl_result(st, tb, 1, seat)


cdef inline int64_t _kl_label_round(CState st, CTables tb, CTracker tr, int64_t* kinds, double[:, ::1] opts, uint32_t* drv, uint32_t[:, ::1] own, uint32_t* rdrv, uint32_t[:, ::1] rown, uint32_t* lab, int64_t seat, int64_t* p, int64_t* lay, float[:, ::1] tmpl, float[:, ::1] obs, int32_t[:, ::1] oid, float[:, ::1] q, int64_t[:, ::1] meta, int64_t row, int64_t round_no, int32_t* ids, int32_t* keep, int32_t* buf, int64_t* seats, int64_t* scr) noexcept nogil:
    """Play table 0 (dealt, trackers begun) to its end, labelling ``seat``'s decisions that
    offer a choice with probability ``p[P_PERMILLE] / 1000`` (drawn from ``lab``) while rows
    are left; returns the next free row, or ``-1 - row`` when the round could not be played.
    ``drv``/``own`` are the round's generators, ``rdrv``/``rown`` the rollouts'."""
    cdef int64_t _r
    cdef int64_t aid
    cdef int64_t cap
    cdef int64_t choice
    cdef int64_t code
    cdef int64_t decline
    cdef int64_t declined
    cdef int64_t hi
    cdef int64_t j
    cdef int64_t labelled
    cdef int64_t lo
    cdef int64_t m
    cdef int64_t max_actions
    cdef int64_t nopt
    cdef int64_t rollouts
    cdef int64_t verb
    cdef int64_t window
    rollouts = p[P_ROLLOUTS]
    max_actions = p[P_MAX_ACTIONS]
    decline = p[P_DECLINE]
    cap = meta.shape[0]
    declined = 0
    while True:
        code, window, m, declined = _kl_play_on(st, tb, tr, 0, kinds, opts, drv, own, seat, declined, max_actions, ids, buf, seats, scr)
        if code == KL_OVER:
            return row
        if code == STUCK:
            return -1 - row
        nopt = m + window
        labelled = -1
        if nopt >= 2 and row < cap and _mt_random(lab) * 1000.0 < p[P_PERMILLE]:
            labelled = row
            row += 1
            _ko_encode(st, tb, 0, seat, window == 1, lay, tmpl, ids, m, &obs[labelled, 0])
            for j in range(m):
                keep[j] = ids[j]
                oid[labelled, j] = ids[j]
                q[labelled, j] = 0.0
            if window:
                oid[labelled, m] = decline
                q[labelled, m] = 0.0
            meta[labelled, M_NOPT] = nopt
            meta[labelled, M_WINDOW] = window
            meta[labelled, M_SEAT] = seat
            meta[labelled, M_ROUND] = round_no
            for _r in range(rollouts):
                lo = <int64_t>(_mt_genrand(lab))
                hi = <int64_t>(_mt_genrand(lab))
                for j in range(nopt):
                    aid = keep[j] if j < m else -1
                    q[labelled, j] += _kl_rollout(st, tb, tr, kinds, opts, rdrv, rown, seat, aid, declined, lo, hi, max_actions, ids, buf, seats, scr) / rollouts
            for j in range(m):
                ids[j] = keep[j]
        choice = _kb_decide(st, tb, tr, 0, seat, window == 1, kinds[seat], &opts[seat, 0], ids, m, drv, &own[seat, 0], scr)
        if labelled >= 0:
            meta[labelled, M_CHOSEN] = m if choice < 0 else 0
            for j in range(m):
                if ids[j] == choice:
                    meta[labelled, M_CHOSEN] = j
        if window and choice < 0:
            declined |= (<int64_t>1) << seat
            continue
        if not _kl_apply(st, tb, tr, 0, choice, seat):
            return -1 - row
        verb = tb.a_verb[choice]
        if verb != V_CATCH and verb != V_UNO:
            declined = 0


cdef int64_t _kl_label_rounds(CState st, CTables tb, CTracker tr, int64_t[:, ::1] game_words, int64_t[:, ::1] kinds, double[:, :, ::1] opts, int64_t* seats_of, int64_t[::1] dealers, uint32_t* drv, uint32_t[:, ::1] own, uint32_t* rdrv, uint32_t[:, ::1] rown, uint32_t* lab, int64_t* p, int64_t* lay, float[:, ::1] tmpl, float[:, ::1] obs, int32_t[:, ::1] oid, float[:, ::1] q, int64_t[:, ::1] meta, int32_t* ids, int32_t* keep, int32_t* buf, int64_t* seats, int64_t* scr) noexcept nogil:
    """Round ``i``: dealt by ``dealers[i]`` from the seed words ``game_words[i]`` (lo, hi),
    seat ``s`` played by bot ``kinds[i, s]`` (options ``opts[i, s]``), seat ``seats_of[i]``
    labelled; the bots' generators ``drv``/``own`` are reseeded per round from ``lab``.
    Stops when the output rows are full; returns the rows written, or ``-1 - i`` when round
    ``i`` could not be played."""
    cdef int64_t hmask
    cdef int64_t lo, hi
    cdef int64_t i
    cdef int64_t j
    cdef int64_t n
    cdef int64_t row
    cdef int64_t s
    n = tb.p[R_PLAYERS]
    row = 0
    for i in range(dealers.shape[0]):
        if row >= meta.shape[0]:
            break
        _core_deal(st, tb, 0, game_words[i, 0], game_words[i, 1], dealers[i])
        lo = _mt_genrand(lab)  # C leaves the order of arguments open: draw in Python's
        hi = _mt_genrand(lab)
        _mt_seed_words(drv, lo, hi)
        hmask = 0
        for s in range(n):
            lo = _mt_genrand(lab)
            hi = _mt_genrand(lab)
            _mt_seed_words(&own[s, 0], lo, hi)
            if kinds[i, s] == BOT_HEURISTIC:
                hmask |= (<int64_t>1) << s
            for j in range(NST):
                tr.stats[0, s, j] = 0
        tr.tf[0, TF_MASK] = 0
        if hmask:
            _kh_begin(tr, st, tb, 0, hmask)
            if tr.tf[0, TF_ERROR]:
                return -1 - i
        row = _kl_label_round(st, tb, tr, &kinds[i, 0], opts[i], drv, own, rdrv, rown, lab, seats_of[i], p, lay, tmpl, obs, oid, q, meta, row, i, ids, keep, buf, seats, scr)
        if row < 0:
            return -1 - i
    return row


