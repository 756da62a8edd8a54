# ---- heuristic --------------------------------------------------------------------------------
cdef inline bint _kh__has(int64_t e0, int64_t e1, int64_t k) noexcept nogil:
    """Is kind ``k`` in the exclusion words ``e0``, ``e1``?"""
    if k < 40:
        return <bint>((e0 >> k) & 1)
    return <bint>((e1 >> (k - 40)) & 1)


cdef inline int64_t _kh__bits(int64_t x) noexcept nogil:
    cdef int64_t c
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


cdef inline bint _kh__opponent(CTables tb, int64_t me, int64_t seat) noexcept nogil:
    """``Context.opponent``: another team's seat (any other seat without teams)."""
    if tb.p[R_TEAMS]:
        return <bint>(seat % tb.p[R_TEAMCOUNT] != me % tb.p[R_TEAMCOUNT])
    return seat != me


cdef inline int64_t _kh__urgency(CState st, int64_t t, int64_t seat) noexcept nogil:
    return max(0, 4 - <int64_t>(st.hsize[t, seat]))


cdef inline void _kh__sort_into(int32_t* src, int64_t m, int32_t* dst) noexcept nogil:
    """``sorted``: ``dst[:m]`` is ``src[:m]`` in ascending order (insertion sort)."""
    cdef int64_t i
    cdef int64_t j
    cdef int64_t x
    for i in range(m):
        x = src[i]
        j = i - 1
        while j >= 0 and dst[j] > x:
            dst[j + 1] = dst[j]
            j -= 1
        dst[j + 1] = x


cdef inline int64_t _kh__add_group(CTracker tr, int64_t t, int64_t me, int64_t s, int64_t count, int64_t e0, int64_t e1, int64_t ln) noexcept nogil:
    """Append a group; its index (-1, and the error flag, when the arrays are full)."""
    cdef int64_t g
    g = tr.ngroups[t, me, s]
    if g >= tr.gcount.shape[3]:
        tr.tf[t, TF_ERROR] = ERR_FULL
        return -1
    tr.gcount[t, me, s, g] = count
    tr.gex0[t, me, s, g] = e0
    tr.gex1[t, me, s, g] = e1
    tr.glen[t, me, s, g] = ln
    tr.ngroups[t, me, s] = g + 1
    return <int64_t>(g)


cdef inline void _kh__del_group(CTracker tr, int64_t t, int64_t me, int64_t s, int64_t g) noexcept nogil:
    cdef int64_t j
    cdef int64_t ng
    ng = tr.ngroups[t, me, s]
    for j in range(g, ng - 1):
        tr.gcount[t, me, s, j] = tr.gcount[t, me, s, j + 1]
        tr.gex0[t, me, s, j] = tr.gex0[t, me, s, j + 1]
        tr.gex1[t, me, s, j] = tr.gex1[t, me, s, j + 1]
        tr.glen[t, me, s, j] = tr.glen[t, me, s, j + 1]
    tr.ngroups[t, me, s] = ng - 1


cdef inline void _kh__remove(CTracker tr, int64_t t, int64_t me, int64_t s, int64_t k) noexcept nogil:
    """``CardTracker._remove``: card ``k`` left seat ``s``'s hand: a known card, else one
    slot of the first most constrained group that may hold it (else of the newest group)."""
    cdef int64_t best
    cdef int64_t g
    cdef int64_t i
    cdef int64_t j
    cdef int32_t* kn
    cdef int64_t ng
    cdef int64_t nk
    nk = tr.nknown[t, me, s]
    kn = &tr.known[t, me, s, 0]
    for i in range(nk):
        if kn[i] == k:
            for j in range(i, nk - 1):
                kn[j] = kn[j + 1]
            tr.nknown[t, me, s] = nk - 1
            return
    ng = tr.ngroups[t, me, s]
    best = -1
    for g in range(ng):
        if tr.gcount[t, me, s, g] and not _kh__has(tr.gex0[t, me, s, g], tr.gex1[t, me, s, g], k) \
                and (best < 0 or tr.glen[t, me, s, g] > tr.glen[t, me, s, best]):
            best = g
    if best < 0:
        for g in range(ng - 1, -1, -1):
            if tr.gcount[t, me, s, g]:
                best = g
                break
    if best >= 0:
        tr.gcount[t, me, s, best] -= 1
        if tr.gcount[t, me, s, best] == 0:
            _kh__del_group(tr, t, me, s, best)


cdef inline void _kh__forget(CTracker tr, int64_t t, int64_t me, int64_t s) noexcept nogil:
    """``CardTracker._forget``: the hand is one group of unknown cards again."""
    cdef int64_t g
    cdef int64_t size
    size = tr.nknown[t, me, s]
    for g in range(tr.ngroups[t, me, s]):
        size += tr.gcount[t, me, s, g]
    tr.nknown[t, me, s] = 0
    tr.ngroups[t, me, s] = 0
    if size:
        _kh__add_group(tr, t, me, s, size, 0, 0, 0)


cdef inline void _kh__swap4(int64_t[:, :, :, ::1] arr, int64_t t, int64_t me, int64_t a,
                            int64_t b, int64_t i) noexcept nogil:
    z = arr[t, me, a, i]
    arr[t, me, a, i] = arr[t, me, b, i]
    arr[t, me, b, i] = z


cdef inline void _kh__swap_rows(CTracker tr, int64_t t, int64_t me, int64_t a, int64_t b) noexcept nogil:
    """Exchange what tracker ``me`` knows of seats ``a`` and ``b``."""
    cdef int64_t arr
    cdef int64_t i
    cdef int32_t[:, ::1] kn
    cdef int64_t x
    cdef int64_t y
    cdef int64_t z
    kn = tr.known[t, me]
    for i in range(max(tr.nknown[t, me, a], tr.nknown[t, me, b])):
        x = kn[a, i]
        kn[a, i] = kn[b, i]
        kn[b, i] = x
    y = tr.nknown[t, me, a]
    tr.nknown[t, me, a] = tr.nknown[t, me, b]
    tr.nknown[t, me, b] = y
    for i in range(max(tr.ngroups[t, me, a], tr.ngroups[t, me, b])):
        _kh__swap4(tr.gcount, t, me, a, b, i)
        _kh__swap4(tr.gex0, t, me, a, b, i)
        _kh__swap4(tr.gex1, t, me, a, b, i)
        _kh__swap4(tr.glen, t, me, a, b, i)
    y = tr.ngroups[t, me, a]
    tr.ngroups[t, me, a] = tr.ngroups[t, me, b]
    tr.ngroups[t, me, b] = y


cdef inline void _kh__give_mine(CTracker tr, int64_t t, int64_t me, int64_t other) noexcept nogil:
    """This seat's hand (as it knew it) went to ``other``; its own lists start empty."""
    cdef int64_t i
    cdef int64_t nm
    nm = tr.sf[t, me, SF_NMINE]
    for i in range(nm):
        tr.known[t, me, other, i] = tr.mine[t, me, i]
    tr.nknown[t, me, other] = nm
    tr.ngroups[t, me, other] = 0
    tr.nknown[t, me, me] = 0
    tr.ngroups[t, me, me] = 0
    tr.sf[t, me, SF_NMINE] = 0


cdef inline void _kh__swap(CTracker tr, int64_t t, int64_t me, int64_t a, int64_t b) noexcept nogil:
    """``CardTracker._swap``: seats ``a`` and ``b`` exchanged hands (HR-SEVEN-ZERO)."""
    cdef int64_t other
    _kh__swap_rows(tr, t, me, a, b)
    other = b if a == me else (a if b == me else -1)
    if other >= 0:
        _kh__give_mine(tr, t, me, other)


cdef inline void _kh__rotate(CTracker tr, int64_t t, int64_t me, int64_t d, int64_t n) noexcept nogil:
    """``CardTracker._rotate``: every hand moved one seat in direction ``d``."""
    cdef int64_t i
    if d == 1:  # new[s] = old[s - 1]
        for i in range(n - 1, 0, -1):
            _kh__swap_rows(tr, t, me, i, i - 1)
    else:
        for i in range(n - 1):
            _kh__swap_rows(tr, t, me, i, i + 1)
    _kh__give_mine(tr, t, me, (me + d) % n)


cdef inline bint _kh__playable(CTracker tr, int64_t t, int64_t seat, int64_t k) noexcept nogil:
    """Is ``k`` in ``CardTracker._playable_kinds(seat)`` on the table before the step?"""
    cdef int64_t* tf
    cdef int64_t top
    cdef int64_t top_rank
    tf = &tr.tf[t, 0]
    if not tr.dcount[k]:
        return False
    if tf[TF_LOCK0] >= 0 and seat != tf[TF_LOCKOWNER0]:
        return k < NCOLORED and _KCOLOR[k] == tf[TF_LOCK0]
    top = tf[TF_TOP0]
    top_rank = _KRANK[top] if 0 <= top < NCOLORED else -1
    return k >= NCOLORED or _KCOLOR[k] == tf[TF_COLOR0] or _KRANK[k] == top_rank


cdef inline void _kh__drew(CTracker tr, CTables tb, int64_t t, int64_t me, int64_t s, int64_t count, bint turn) noexcept nogil:
    """``CardTracker._drew`` for another seat: a draw on its turn says it held nothing
    playable (and the drawn cards wait to be played, kept or not); a penalty adds a group
    of cards that may be anything."""
    cdef int64_t a
    cdef int64_t b
    cdef int64_t g
    cdef int64_t k
    cdef int64_t x0
    cdef int64_t x1
    cdef int64_t xl
    if turn:
        x0 = 0
        x1 = 0
        for k in range(NKINDS):
            if _kh__playable(tr, t, s, k):
                if k < 40:
                    x0 |= (<int64_t>1) << k
                else:
                    x1 |= (<int64_t>1) << (k - 40)
        xl = _kh__bits(x0) + _kh__bits(x1)
        for g in range(tr.ngroups[t, me, s]):
            a = tr.gex0[t, me, s, g] | x0
            b = tr.gex1[t, me, s, g] | x1
            tr.gex0[t, me, s, g] = a
            tr.gex1[t, me, s, g] = b
            tr.glen[t, me, s, g] = _kh__bits(a) + _kh__bits(b)
        if tb.p[R_DRAW_COUNT] and count > 1:
            _kh__add_group(tr, t, me, s, count - 1, x0, x1, xl)
            count = 1
        if count > 0:
            g = _kh__add_group(tr, t, me, s, count, x0, x1, xl)
            tr.sf[t, me, SF_DSEAT] = s
            tr.sf[t, me, SF_DIDX] = g
        return
    if count > 0:
        _kh__add_group(tr, t, me, s, count, 0, 0, 0)


cdef inline void _kh__drop_mine(CTracker tr, int64_t t, int64_t me, int64_t k) noexcept nogil:
    cdef int64_t i
    cdef int64_t j
    cdef int32_t* mine
    cdef int64_t nm
    nm = tr.sf[t, me, SF_NMINE]
    mine = &tr.mine[t, me, 0]
    for i in range(nm):
        if mine[i] == k:
            for j in range(i, nm - 1):
                mine[j] = mine[j + 1]
            tr.sf[t, me, SF_NMINE] = nm - 1
            return


cdef void _kh_begin(CTracker tr, CState st, CTables tb, int64_t t, int64_t mask) noexcept nogil:
    """A new round was dealt on table ``t``: the trackers of the seats in ``mask`` start
    afresh (the ``deal`` and ``starter`` events) and read the deal's draws."""
    cdef int64_t i
    cdef int64_t k
    cdef int64_t me
    cdef int64_t n
    cdef int64_t s
    cdef int64_t starter
    cdef int64_t* tf
    n = tb.p[R_PLAYERS]
    tf = &tr.tf[t, 0]
    for i in range(NTF):
        tf[i] = 0
    tf[TF_MASK] = mask
    tf[TF_W4SEAT] = -1
    tf[TF_W4BEFORE] = -1
    for k in range(NKINDS):
        tr.disc[t, k] = 0
    starter = st.disc[t, 0]
    tr.disc[t, starter] = 1
    tf[TF_DLAST] = starter
    for me in range(n):
        if not (mask >> me) & 1:
            continue
        for i in range(NSF):
            tr.sf[t, me, i] = 0
        tr.sf[t, me, SF_DSEAT] = -1
        for s in range(n):
            tr.nknown[t, me, s] = 0
            tr.ngroups[t, me, s] = 0
            if s != me:
                _kh__add_group(tr, t, me, s, tb.p[R_HAND_SIZE], 0, 0, 0)
    _kh__read_log(tr, st, tb, t)


cdef inline void _kh_before(CTracker tr, CState st, int64_t t, int64_t seat, int64_t aid) noexcept nogil:
    """What :func:`after` needs of the table as it was before ``seat`` steps ``aid``."""
    cdef bint lock
    cdef int64_t* s
    cdef int64_t* tf
    s = &st.s[t, 0]
    tf = &tr.tf[t, 0]
    tf[TF_ACTOR] = seat
    tf[TF_AID] = aid
    tf[TF_COLOR0] = s[F_COLOR]
    tf[TF_TOP0] = st.disc[t, s[F_NDISC] - 1]
    lock = s[F_EFFECT] == E_LOCK
    tf[TF_LOCK0] = s[F_ECOLOR] if lock else -1
    tf[TF_LOCKOWNER0] = s[F_EOWNER]
    tf[TF_NDISC0] = s[F_NDISC]
    tf[TF_HSIZE0] = st.hsize[t, seat]
    tf[TF_NCHAIN0] = s[F_NCHAIN]
    tf[TF_PEND0] = s[F_PEND]
    tf[TF_GLEFT0] = s[F_GIVE_LEFT] if s[F_PHASE] == GIVE else 0
    tf[TF_GTARGET0] = s[F_GIVE_TARGET]


cdef inline void _kh__read_log(CTracker tr, CState st, CTables tb, int64_t t) noexcept nogil:
    """The step's draws (``draw`` and ``press`` events, and the ``drew`` events of the
    tracking seat itself, whose cards are the last ones of its hand) and reshuffles."""
    cdef int64_t at
    cdef int64_t count
    cdef int64_t e
    cdef int64_t i
    cdef int64_t j
    cdef int64_t k
    cdef int64_t mask
    cdef int64_t me
    cdef int64_t n
    cdef int64_t nlog
    cdef int64_t nm
    cdef int64_t seat
    cdef int64_t* tf
    cdef int64_t tot
    cdef int64_t what
    n = tb.p[R_PLAYERS]
    tf = &tr.tf[t, 0]
    mask = tf[TF_MASK]
    nlog = st.s[t, F_NLOG]
    if nlog > LOG_CAP:
        tf[TF_ERROR] = ERR_LOG
        return
    for me in range(n):  # where the tracking seat's drawn cards start in its hand
        if (mask >> me) & 1:
            tot = 0
            for i in range(nlog):
                e = st.log[t, i]
                if e % 4 != LOG_RESHUFFLE and (e // 4) % 16 == me:
                    tot += e // 64
            tr.sf[t, me, SF_AT] = st.hsize[t, me] - tot
    for i in range(nlog):
        e = st.log[t, i]
        what = e % 4
        if what == LOG_RESHUFFLE:  # the discard pile but its top became the draw pile
            for k in range(NKINDS):
                tr.disc[t, k] = 0
            tr.disc[t, tf[TF_DLAST]] = 1
            continue
        seat = (e // 4) % 16
        count = e // 64
        for me in range(n):
            if not (mask >> me) & 1:
                continue
            if seat == me:
                at = tr.sf[t, me, SF_AT]
                nm = tr.sf[t, me, SF_NMINE]
                if nm + count > tr.mine.shape[2]:
                    tf[TF_ERROR] = ERR_FULL
                    return
                for j in range(count):
                    tr.mine[t, me, nm + j] = st.hands[t, me, at + j]
                tr.sf[t, me, SF_NMINE] = nm + count
                tr.sf[t, me, SF_AT] = at + count
            else:
                _kh__drew(tr, tb, t, me, seat, count, what == LOG_TURN)


cdef void _kh_after(CTracker tr, CState st, CTables tb, int64_t t) noexcept nogil:
    """Bring every tracker of table ``t`` up to date with the step recorded by :func:`before`
    (the events it emitted, in their order). A step that ended the round changes nothing
    anyone will read."""
    cdef int64_t actor
    cdef int64_t aid
    cdef int64_t cs
    cdef int64_t ds
    cdef int64_t g
    cdef bint guilty
    cdef int64_t i
    cdef int64_t j
    cdef int64_t m
    cdef int64_t mask
    cdef int64_t me
    cdef int64_t n
    cdef int64_t nch
    cdef int64_t* p
    cdef int64_t* s
    cdef int64_t skip
    cdef int64_t taken
    cdef int64_t target
    cdef int64_t* tf
    cdef int64_t v
    cdef int64_t w4
    s = &st.s[t, 0]
    if s[F_PHASE] == OVER:
        return
    p = &tb.p[0]
    n = p[R_PLAYERS]
    tf = &tr.tf[t, 0]
    mask = tf[TF_MASK]
    actor = tf[TF_ACTOR]
    aid = tf[TF_AID]
    v = tb.a_verb[aid]
    # the step's first event resolves a turn draw's group: played from, or kept
    skip = 0  # tracking seats for which the play's first card came from that group
    for me in range(n):
        if not (mask >> me) & 1:
            continue
        ds = tr.sf[t, me, SF_DSEAT]
        if ds < 0:
            continue
        tr.sf[t, me, SF_DSEAT] = -1
        g = tr.sf[t, me, SF_DIDX]
        if ds != actor or g < 0 or g >= tr.ngroups[t, me, ds]:
            continue
        if v == V_PASS:
            tr.gex0[t, me, ds, g] = 0
            tr.gex1[t, me, ds, g] = 0
            tr.glen[t, me, ds, g] = 0
        elif v == V_PLAY and tr.gcount[t, me, ds, g]:
            tr.gcount[t, me, ds, g] -= 1
            if tr.gcount[t, me, ds, g] == 0:
                _kh__del_group(tr, t, me, ds, g)
            skip |= (<int64_t>1) << me
    if v == V_PLAY or v == V_JUMP:
        _kh__after_play(tr, st, tb, t, actor, aid, skip)
    elif v == V_CHALLENGE:
        nch = tf[TF_NCHAIN0]
        guilty = False
        for i in range(nch):
            if st.chain[t, i, 1]:
                guilty = True
        w4 = tf[TF_W4SEAT]
        for me in range(n):
            if not (mask >> me) & 1:
                continue
            if w4 == me and actor != me:
                tr.sf[t, me, SF_TC] += 1
            if me == actor:  # the chain's hands are shown to the challenger
                for i in range(nch):
                    cs = st.chain[t, i, 0]
                    if cs != me:
                        m = tr.nsnap[t, i]
                        for j in range(m):
                            tr.known[t, me, cs, j] = tr.snap[t, i, j]
                        tr.nknown[t, me, cs] = m
                        tr.ngroups[t, me, cs] = 0
            if w4 != me:
                tr.sf[t, me, SF_G if guilty else SF_I] += 1
    elif v == V_ACCEPT:
        w4 = tf[TF_W4SEAT]
        for me in range(n):
            if (mask >> me) & 1 and w4 == me and actor != me:
                tr.sf[t, me, SF_TA] += 1
    elif v == V_GIVE:
        target = tf[TF_GTARGET0]
        if target >= 0 and (mask >> target) & 1:  # the give is shown to its target only
            _kh__remove(tr, t, target, actor, <int64_t>(tb.a_cards[aid, 0]))
        if tf[TF_GLEFT0] == 1:  # swap_taken: the player took that many of the target's
            taken = st.hsize[t, actor] - (tf[TF_HSIZE0] - 1)
            for me in range(n):
                if not (mask >> me) & 1:
                    continue
                if actor != me:
                    _kh__forget(tr, t, me, actor)
                if target != me:
                    _kh__forget(tr, t, me, target)
                if actor != me:
                    _kh__add_group(tr, t, me, actor, taken, 0, 0, 0)
    _kh__read_log(tr, st, tb, t)
    if v == V_DRAW and tf[TF_PEND0] == 0 and s[F_PHASE] != DRAWN:
        # nothing drawn was played: the engine says "pass", which empties the group's
        # exclusions (a kept card may have been playable)
        for me in range(n):
            if not (mask >> me) & 1:
                continue
            ds = tr.sf[t, me, SF_DSEAT]
            if ds >= 0:
                tr.sf[t, me, SF_DSEAT] = -1
                g = tr.sf[t, me, SF_DIDX]
                if 0 <= g < tr.ngroups[t, me, ds]:
                    tr.gex0[t, me, ds, g] = 0
                    tr.gex1[t, me, ds, g] = 0
                    tr.glen[t, me, ds, g] = 0


cdef inline void _kh__after_play(CTracker tr, CState st, CTables tb, int64_t t, int64_t actor, int64_t aid, int64_t skip) noexcept nogil:
    """The ``play`` event (and what follows it: swap_hands, rotate_hands, hand_shown)."""
    cdef int32_t* cards
    cdef int64_t ci
    cdef int64_t first
    cdef int64_t hs
    cdef int64_t i
    cdef int64_t last
    cdef int64_t mask
    cdef int64_t me
    cdef int64_t n
    cdef int64_t nc
    cdef int64_t nd0
    cdef int64_t ngone
    cdef int64_t* p
    cdef int64_t* s
    cdef int64_t target
    cdef int64_t* tf
    s = &st.s[t, 0]
    p = &tb.p[0]
    n = p[R_PLAYERS]
    tf = &tr.tf[t, 0]
    mask = tf[TF_MASK]
    nc = tb.a_ncards[aid]
    cards = &tb.a_cards[aid, 0]
    last = <int64_t>(cards[nc - 1])
    nd0 = tf[TF_NDISC0]
    ngone = 0
    if _KRANK[last] == DISCARD_ALL and last < NCOLORED:
        # ATK-7: the colour's cards went under the DA, in hand order, before the cards played
        ngone = tf[TF_HSIZE0] - nc - st.hsize[t, actor]
        if s[F_NDISC] != nd0 + ngone + nc:
            tf[TF_ERROR] = ERR_STEP
            return
    for i in range(ngone):
        tr.disc[t, st.disc[t, nd0 + i]] += 1
    for i in range(nc):
        tr.disc[t, cards[i]] += 1
    tf[TF_DLAST] = last
    if last == WILD4:
        tf[TF_W4BEFORE] = tf[TF_COLOR0]
        tf[TF_W4SEAT] = actor
        ci = s[F_NCHAIN] - 1
        if 0 <= ci < MAX_CHAIN:  # the hand a challenge of this W4 will show
            hs = st.hsize[t, actor]
            _kh__sort_into(&st.hands[t, actor, 0], hs, &tr.snap[t, ci, 0])
            tr.nsnap[t, ci] = hs
    for me in range(n):
        if not (mask >> me) & 1:
            continue
        if actor == me:
            for i in range(nc):
                _kh__drop_mine(tr, t, me, <int64_t>(cards[i]))
            for i in range(ngone):
                _kh__drop_mine(tr, t, me, <int64_t>(st.disc[t, nd0 + i]))
        else:
            first = 1 if (skip >> me) & 1 else 0
            for i in range(first, nc):
                _kh__remove(tr, t, me, actor, <int64_t>(cards[i]))
            for i in range(ngone):
                _kh__remove(tr, t, me, actor, <int64_t>(st.disc[t, nd0 + i]))
    if not p[R_SPECIAL]:
        return
    target = tb.a_target[aid]
    if p[R_SEVEN_ZERO] and last < NCOLORED:
        if _KRANK[last] == 7 and target >= 0:
            for me in range(n):
                if (mask >> me) & 1:
                    _kh__swap(tr, t, me, actor, target)
        elif _KRANK[last] == 0:
            for me in range(n):
                if (mask >> me) & 1:
                    _kh__rotate(tr, t, me, s[F_DIR], n)
    elif last == WILD and tb.a_power[aid] == POWER_LOOK and (mask >> actor) & 1 \
            and target != actor:
        hs = st.hsize[t, target]  # hand_shown to the player who looked
        _kh__sort_into(&st.hands[t, target, 0], hs, &tr.known[t, actor, target, 0])
        tr.nknown[t, actor, target] = hs
        tr.ngroups[t, actor, target] = 0


cdef inline void _kh__observe(CTracker tr, CState st, CTables tb, int64_t t, int64_t me, int64_t player) noexcept nogil:
    """``HeuristicBot.observe``: the tracker reads the history (its BluffStats counts land in
    the bot's), its own hand is the view's, and the decision context is decoded."""
    cdef int64_t c
    cdef int64_t ci
    cdef int64_t* cx
    cdef int64_t d
    cdef int64_t g
    cdef int32_t* hand
    cdef int64_t hs
    cdef int64_t i
    cdef int64_t m0
    cdef int64_t m1
    cdef int64_t n
    cdef int64_t ng
    cdef int64_t out
    cdef int64_t* s
    cdef int64_t seat
    cdef int64_t* sf
    cdef int64_t* stt
    cdef bint void
    sf = &tr.sf[t, me, 0]
    stt = &tr.stats[t, player, 0]
    stt[ST_TC] += sf[SF_TC]
    stt[ST_TA] += sf[SF_TA]
    stt[ST_G] += sf[SF_G]
    stt[ST_I] += sf[SF_I]
    sf[SF_TC] = 0
    sf[SF_TA] = 0
    sf[SF_G] = 0
    sf[SF_I] = 0
    hs = st.hsize[t, me]
    _kh__sort_into(&st.hands[t, me, 0], hs, &tr.mine[t, me, 0])
    sf[SF_NMINE] = hs
    hand = &tr.hand[t, 0]
    for i in range(hs):
        hand[i] = tr.mine[t, me, i]
    s = &st.s[t, 0]
    n = tb.p[R_PLAYERS]
    cx = &tr.cx[t, 0]
    d = s[F_DIR]
    cx[CX_ME] = me
    cx[CX_N] = n
    cx[CX_NXT] = (me + d) % n
    cx[CX_PREV] = (me - d) % n
    cx[CX_COLOR] = s[F_COLOR]
    cx[CX_PEND] = s[F_PEND]
    cx[CX_NH] = hs
    for seat in range(n):  # CardTracker.void_colors
        out = 0
        ng = tr.ngroups[t, me, seat]
        if seat != me and ng:
            for ci in range(tb.p[R_NCOL]):
                c = tb.colors[ci]
                m0 = tr.cmask[c, 0]
                m1 = tr.cmask[c, 1]
                void = True
                for g in range(ng):
                    if (tr.gex0[t, me, seat, g] & m0) != m0 or (tr.gex1[t, me, seat, g] & m1) != m1:
                        void = False
                        break
                if void:
                    for i in range(tr.nknown[t, me, seat]):
                        if _KCOLOR[tr.known[t, me, seat, i]] == c:
                            void = False
                            break
                if void:
                    out |= (<int64_t>1) << c
        cx[CX_VOID + seat] = out


cdef inline int64_t _kh__without(CTracker tr, CTables tb, int64_t t, int64_t aid) noexcept nogil:
    """``_without(ctx.hand, a.cards)`` into ``tr.rem``; its length."""
    cdef int64_t c
    cdef int64_t i
    cdef int64_t j
    cdef int64_t k
    cdef int64_t m
    cdef int64_t nh
    cdef int32_t* rem
    nh = tr.cx[t, CX_NH]
    rem = &tr.rem[t, 0]
    for i in range(nh):
        rem[i] = tr.hand[t, i]
    m = nh
    for c in range(tb.a_ncards[aid]):
        k = tb.a_cards[aid, c]
        for i in range(m):
            if rem[i] == k:
                for j in range(i, m - 1):
                    rem[j] = rem[j + 1]
                m -= 1
                break
    return <int64_t>(m)


cdef inline int64_t _kh__best_color(CState st, CTables tb, CTracker tr, int64_t t, int32_t* cards, int64_t m, int64_t colors) noexcept nogil:
    """``HeuristicBot.best_color``: the colour (of the bits of ``colors``) ``cards[:m]`` hold
    most, counting points a little, plus a bonus for one the next opponent lacks."""
    cdef int64_t best
    cdef int64_t c
    cdef double* counts
    cdef int64_t* cx
    cdef int64_t i
    cdef int64_t k
    cdef int64_t me
    cdef int64_t nxt
    cdef int64_t voids
    counts = &tr.fl[t, 0]
    for c in range(8):
        counts[c] = 0.0
    for i in range(m):
        k = cards[i]
        c = _KCOLOR[k]
        if c >= 0 and (colors >> c) & 1:
            counts[c] += 1.0 + 0.05 * _POINTS[k] / 20
    cx = &tr.cx[t, 0]
    me = cx[CX_ME]
    nxt = cx[CX_NXT]
    if _kh__opponent(tb, me, nxt):
        voids = cx[CX_VOID + nxt]
        for c in range(8):
            if (colors >> c) & 1 and (voids >> c) & 1:
                counts[c] += 1.5 + 0.5 * _kh__urgency(st, t, nxt)
    best = -1
    for c in range(8):
        if (colors >> c) & 1 and (best < 0 or counts[c] > counts[best]):
            best = c
    return best


cdef inline double _kh__play_value(CState st, CTables tb, CTracker tr, int64_t t, int64_t aid, double* opt, int64_t* stats) noexcept nogil:
    """``HeuristicBot.play_value``: the score of one play (1000 when it goes out)."""
    cdef int64_t c
    cdef int64_t color
    cdef int64_t color_after
    cdef int64_t* cx
    cdef int64_t follow
    cdef int64_t gone
    cdef int64_t i
    cdef int64_t j
    cdef int64_t lacking
    cdef int64_t last
    cdef int64_t me
    cdef int64_t n
    cdef int64_t nc
    cdef int64_t nrem
    cdef bint numbers
    cdef int64_t nxt
    cdef bint opp_nxt
    cdef int64_t* p
    cdef double p_chal
    cdef int64_t prev
    cdef int64_t prev_threat
    cdef int64_t rank
    cdef int32_t* rem
    cdef int64_t s
    cdef int64_t shed
    cdef int64_t threat
    cdef bint two
    cdef double v
    cdef bint wild
    p = &tb.p[0]
    cx = &tr.cx[t, 0]
    nc = tb.a_ncards[aid]
    last = <int64_t>(tb.a_cards[aid, nc - 1])
    nrem = _kh__without(tr, tb, t, aid)
    rem = &tr.rem[t, 0]
    rank = _KRANK[last]
    wild = last >= NCOLORED
    if rank == DISCARD_ALL and not wild:
        gone = 0
        for i in range(nc):
            gone |= (<int64_t>1) << _KCOLOR[tb.a_cards[aid, i]]
        j = 0
        for i in range(nrem):
            c = _KCOLOR[rem[i]]
            if c < 0 or not (gone >> c) & 1:
                rem[j] = rem[i]
                j += 1
        nrem = j
    if nrem == 0:
        return 1000.0
    me = cx[CX_ME]
    n = cx[CX_N]
    two = n == 2
    shed = cx[CX_NH] - nrem
    color = tb.a_color[aid]
    color_after = (color if color >= 0 else cx[CX_COLOR]) if wild else _KCOLOR[last]
    follow = 0
    for i in range(nrem):
        if _KCOLOR[rem[i]] == color_after:
            follow += 1
    nxt = cx[CX_NXT]
    opp_nxt = _kh__opponent(tb, me, nxt)
    threat = _kh__urgency(st, t, nxt) if opp_nxt else 0
    v = 2.0 * shed + W_FOLLOW * follow
    if opp_nxt and color_after >= 0 and (cx[CX_VOID + nxt] >> color_after) & 1:
        v += W_VOID * (1.0 + 0.3 * threat)
    if wild:
        v -= opt[O_WILD_KEEP] if nrem > 1 else 0.5
        if last == WILD4:
            v += 0.6 + 0.9 * threat
            if color >= 0 and _kh__is_bluff(tb, tr, t):
                p_chal = (stats[ST_TC] + 1.0) / (stats[ST_TC] + stats[ST_TA] + 2.0)
                v -= opt[O_BLUFF] * p_chal * 12.0 + 0.5
        elif last == WILD_HYPER:
            v += 0.4 * follow
        elif last == WILD_NATURE:
            lacking = 0
            for s in range(n):
                if _kh__opponent(tb, me, s) and color_after >= 0 \
                        and (cx[CX_VOID + s] >> color_after) & 1:
                    lacking += 1
            v += 0.8 * lacking + 0.2 * follow
        elif last == WILD_ATTACK and tb.a_target[aid] >= 0:
            v += 0.5 + 0.8 * _kh__urgency(st, t, tb.a_target[aid])
        elif last == WILD and tb.a_power[aid] != POWER_NONE:
            v -= 1.5
    elif rank == SKIP or rank == REVERSE:
        if two:
            v += W_EXTRA
        elif rank == SKIP or nc % 2:
            if rank == SKIP:
                v += 0.2 + 0.6 * threat
            else:
                prev = cx[CX_PREV]
                prev_threat = _kh__urgency(st, t, prev) if _kh__opponent(tb, me, prev) else 0
                v += 0.4 * (threat - prev_threat)
    elif rank == DRAW2:
        v += (W_EXTRA + 0.2 if two else 0.6) + 0.6 * threat
    elif rank == HIT2:
        v += (W_EXTRA if two else 0.6) + 0.6 * threat
    if p[R_SEVEN_ZERO] and not wild:
        if rank == 7 and tb.a_target[aid] >= 0:
            v += 1.5 * (nrem - st.hsize[t, tb.a_target[aid]])
        elif rank == 0:
            v += 1.5 * (nrem - st.hsize[t, cx[CX_PREV]])
    if p[R_NUMBER_FINISH]:
        numbers = False
        for i in range(nrem):
            if _IS_NUMBER[rem[i]]:
                numbers = True
                break
        if not numbers:
            v -= 2.5 if nrem <= 2 else 0.5
    if cx[CX_PEND] > 0:
        v += 3.0 + cx[CX_PEND]  # passing a penalty on beats taking it
    return <double>(v)


cdef inline bint _kh__is_bluff(CTables tb, CTracker tr, int64_t t) noexcept nogil:
    """Would a Wild Draw Four now break WD4-1 (a card of the active colour in hand)?"""
    cdef int64_t color
    cdef int64_t i
    cdef int64_t k
    if not tb.p[R_WD4_CHALLENGE]:
        return False
    color = tr.cx[t, CX_COLOR]
    for i in range(tr.cx[t, CX_NH]):
        k = tr.hand[t, i]
        if k != WILD4 and _KCOLOR[k] == color:
            return True
    return False


cdef inline int64_t _kh__best_target(CState st, CTables tb, int64_t t, int64_t me, int64_t targets) noexcept nogil:
    """``HeuristicBot.best_target``: the opponent (else any target) with the fewest cards."""
    cdef int64_t best
    cdef int64_t opp
    cdef int64_t s
    opp = 0
    for s in range(MAX_PLAYERS):
        if (targets >> s) & 1 and _kh__opponent(tb, me, s):
            opp |= (<int64_t>1) << s
    if not opp:
        opp = targets
    best = -1
    for s in range(MAX_PLAYERS):
        if (opp >> s) & 1 and (best < 0 or st.hsize[t, s] < st.hsize[t, best]):
            best = s
    return best


cdef inline int64_t _kh__variant(CState st, CTables tb, CTracker tr, int64_t t, int32_t* var, int64_t nv) noexcept nogil:
    """``HeuristicBot._variant``: among plays of the same cards, the plain one, the colour
    it holds most, the weakest target, the UNO flag."""
    cdef int64_t c
    cdef int64_t colors
    cdef int64_t i
    cdef int64_t nrem
    cdef int64_t targets
    cdef int64_t tg
    if nv > 1:
        nv = _core_prefer_plain(tb, var, nv)
        colors = 0
        for i in range(nv):
            if tb.a_color[var[i]] >= 0:
                colors |= (<int64_t>1) << tb.a_color[var[i]]
        if _kh__bits(colors) > 1:
            nrem = _kh__without(tr, tb, t, <int64_t>(var[0]))
            c = _kh__best_color(st, tb, tr, t, &tr.rem[t, 0], nrem, colors)
            nv = _core_keep_equal(var, nv, &tb.a_color[0], c)
        targets = 0
        for i in range(nv):
            if tb.a_target[var[i]] >= 0:
                targets |= (<int64_t>1) << tb.a_target[var[i]]
        if _kh__bits(targets) > 1:
            tg = _kh__best_target(st, tb, t, <int64_t>(tr.cx[t, CX_ME]), targets)
            nv = _core_keep_equal(var, nv, &tb.a_target[0], tg)
    return _core_uno_first(tb, var, nv)


cdef inline int64_t _kh__best_play(CState st, CTables tb, CTracker tr, int64_t t, int32_t* ids, int64_t m, double* opt, int64_t* stats) noexcept nogil:
    """``HeuristicBot.best_play``: plays, then jump-ins, grouped by their cards in order of
    first appearance; each group's variant scored; the first best wins."""
    cdef int64_t a
    cdef int64_t best
    cdef double best_v
    cdef bint first
    cdef int64_t g
    cdef int64_t i
    cdef int64_t j
    cdef int64_t no
    cdef int64_t nv
    cdef int32_t* order
    cdef double v
    cdef int32_t* var
    cdef int64_t verb
    order = &tr.lst[t, 0, 0]
    var = &tr.lst[t, 1, 0]
    no = 0
    for _j_verb in range(2):
        verb = V_PLAY if _j_verb == 0 else (V_JUMP)
        for i in range(m):
            if tb.a_verb[ids[i]] == verb:
                order[no] = ids[i]
                no += 1
    best = -1
    best_v = -1e9
    for i in range(no):
        g = tr.hgroup[order[i]]
        first = True
        for j in range(i):
            if tr.hgroup[order[j]] == g:
                first = False
                break
        if not first:
            continue
        nv = 0
        for j in range(i, no):
            if tr.hgroup[order[j]] == g:
                var[nv] = order[j]
                nv += 1
        a = _kh__variant(st, tb, tr, t, var, nv)
        v = _kh__play_value(st, tb, tr, t, a, opt, stats)
        if v > best_v:
            best = a
            best_v = v
    return best


cdef inline double _kh__p_holds_color(CState st, CTables tb, CTracker tr, int64_t t, int64_t seat, int64_t color) noexcept nogil:
    """``CardTracker.p_holds_color`` (through ``hidden_layout``): the chance ``seat`` holds a
    card of ``color``, its slots drawn independently from the unseen cards their groups
    allow."""
    cdef int64_t a0
    cdef int64_t a1
    cdef int64_t a2
    cdef int64_t a3
    cdef int64_t avail
    cdef int64_t c
    cdef int64_t* cnt
    cdef int64_t free
    cdef int64_t g
    cdef bint holds
    cdef int64_t i
    cdef int64_t j
    cdef int64_t k
    cdef int64_t kept
    cdef int64_t me
    cdef int64_t n
    cdef int64_t ng
    cdef int64_t of_color
    cdef double p_none
    cdef double q
    cdef int64_t s
    cdef int64_t size
    cdef int64_t take
    cdef int64_t[:, ::1] tg
    n = tb.p[R_PLAYERS]
    me = tr.cx[t, CX_ME]
    if seat == me:
        return 0.0
    cnt = &tr.cnt[t, 0]
    for k in range(NKINDS):
        cnt[k] = tr.dcount[k] - tr.disc[t, k]
    for i in range(st.hsize[t, me]):
        cnt[st.hands[t, me, i]] -= 1
    for k in range(NKINDS):
        if cnt[k] < 0:
            cnt[k] = 0
    holds = False
    free = 0
    for s in range(n):  # known cards, trimmed to what is unseen and to the hand's size
        if s == me:
            continue
        size = st.hsize[t, s]
        kept = 0
        for i in range(tr.nknown[t, me, s]):
            k = tr.known[t, me, s, i]
            if cnt[k] > 0 and kept < size:
                cnt[k] -= 1
                kept += 1
                if s == seat and _KCOLOR[k] == color:
                    holds = True
        if s == seat:
            free = size - kept
    if holds:
        return 1.0
    tg = tr.tg[t]
    ng = 0
    for g in range(tr.ngroups[t, me, seat] - 1, -1, -1):  # the newest groups first
        take = min(tr.gcount[t, me, seat, g], free)
        if take > 0:
            tg[ng, 0] = take
            tg[ng, 1] = tr.gex0[t, me, seat, g]
            tg[ng, 2] = tr.gex1[t, me, seat, g]
            tg[ng, 3] = tr.glen[t, me, seat, g]
            ng += 1
            free -= take
    if free > 0:
        tg[ng, 0] = free
        tg[ng, 1] = 0
        tg[ng, 2] = 0
        tg[ng, 3] = 0
        ng += 1
    for i in range(1, ng):  # a stable sort, most exclusions first
        a0 = tg[i, 0]
        a1 = tg[i, 1]
        a2 = tg[i, 2]
        a3 = tg[i, 3]
        j = i - 1
        while j >= 0 and tg[j, 3] < a3:
            for c in range(4):
                tg[j + 1, c] = tg[j, c]
            j -= 1
        tg[j + 1, 0] = a0
        tg[j + 1, 1] = a1
        tg[j + 1, 2] = a2
        tg[j + 1, 3] = a3
    p_none = 1.0
    for j in range(ng):
        avail = 0
        of_color = 0
        for k in range(NKINDS):
            if cnt[k] and not _kh__has(tg[j, 1], tg[j, 2], k):
                avail += cnt[k]
                if _KCOLOR[k] == color:
                    of_color += cnt[k]
        if avail == 0:
            continue
        q = of_color / avail
        p_none *= <double>(1.0 - q) ** <double>(tg[j, 0])  # both floats: C pow, as Python's
    return 1.0 - p_none


cdef inline bint _kh__should_challenge(CState st, CTables tb, CTracker tr, int64_t t, double* opt, int64_t* stats) noexcept nogil:
    """WD4-2: challenge when the chance of guilt beats the break-even m / (T + m)."""
    cdef int64_t chain
    cdef double odds
    cdef double p
    cdef double p_has
    cdef double r
    cdef int64_t total
    cdef int64_t w4_before
    cdef int64_t w4_seat
    total = tr.cx[t, CX_PEND]
    w4_seat = tr.tf[t, TF_W4SEAT]
    w4_before = tr.tf[t, TF_W4BEFORE]
    if total <= 0 or w4_seat < 0 or w4_before < 0:
        return False
    p_has = _kh__p_holds_color(st, tb, tr, t, w4_seat, w4_before)
    r = (stats[ST_G] + 2.0) / (stats[ST_G] + stats[ST_I] + 3.0)
    odds = r / (4.0 * (1.0 - r)) * opt[O_CHALLENGE]
    p = p_has * odds / (p_has * odds + (1.0 - p_has) + 1e-9)
    chain = max(1, total // 4)
    return <bint>(p > chain / (total + chain) - 0.05)


cdef inline int64_t _kh__first(CTables tb, int32_t* ids, int64_t m, int64_t verb) noexcept nogil:
    cdef int64_t i
    for i in range(m):
        if tb.a_verb[ids[i]] == verb:
            return <int64_t>(ids[i])
    return -1


cdef int64_t _kh_act(CState st, CTables tb, CTracker tr, int64_t t, int64_t seat, int64_t player, double* opt, int32_t* ids, int64_t m) noexcept nogil:
    """``HeuristicBot.act``: the id the seat (played by ``player``, options ``opt``) chooses
    among the sorted legal ``ids[:m]`` on its turn."""
    cdef int64_t a
    cdef int64_t best
    cdef int64_t c
    cdef int64_t chal
    cdef int64_t colors
    cdef int64_t draw
    cdef int64_t give
    cdef int64_t i
    cdef double kv
    cdef double low
    cdef int64_t pas
    cdef bint plays
    cdef int64_t* stats
    cdef double value
    cdef int64_t want
    _kh__observe(tr, st, tb, t, seat, player)
    if m == 1:
        return <int64_t>(ids[0])
    stats = &tr.stats[t, player, 0]
    for _j_want in range(2):
        want = V_CATCH if _j_want == 0 else (V_UNO)
        a = _kh__first(tb, ids, m, want)
        if a >= 0:
            return a
    colors = 0
    for i in range(m):
        if tb.a_verb[ids[i]] == V_COLOR:
            colors |= (<int64_t>1) << tb.a_color[ids[i]]
    if colors:
        c = _kh__best_color(st, tb, tr, t, &tr.hand[t, 0], <int64_t>(tr.cx[t, CX_NH]), colors)
        for i in range(m):
            if tb.a_verb[ids[i]] == V_COLOR and tb.a_color[ids[i]] == c:
                return <int64_t>(ids[i])
    give = -1
    low = 0.0
    for i in range(m):
        if tb.a_verb[ids[i]] == V_GIVE:
            kv = _kh__keep_value(tr, t, <int64_t>(tb.a_cards[ids[i], 0]))
            if give < 0 or kv < low:
                give = <int64_t>(ids[i])
                low = kv
    if give >= 0:
        return give
    plays = _kh__first(tb, ids, m, V_PLAY) >= 0 or _kh__first(tb, ids, m, V_JUMP) >= 0
    chal = _kh__first(tb, ids, m, V_CHALLENGE)
    if chal >= 0 and _kh__should_challenge(st, tb, tr, t, opt, stats):
        return chal
    draw = _kh__first(tb, ids, m, V_DRAW)
    pas = _kh__first(tb, ids, m, V_PASS)
    if plays:
        best = _kh__best_play(st, tb, tr, t, ids, m, opt, stats)
        value = _kh__play_value(st, tb, tr, t, best, opt, stats)
        if st.s[t, F_PHASE] == DRAWN and pas >= 0:
            if _kh__keep_drawn(st, tb, tr, t, best, value):
                return pas
            return best
        if tr.cx[t, CX_PEND] > 0 or value > -2.0 or (draw < 0 and pas < 0):
            return best
    for _j_want in range(4):
        want = V_ACCEPT if _j_want == 0 else (V_DRAW if _j_want == 1 else (V_PASS if _j_want == 2 else (V_CHALLENGE)))
        a = _kh__first(tb, ids, m, want)
        if a >= 0:
            return a
    return <int64_t>(ids[0])


cdef inline double _kh__keep_value(CTracker tr, int64_t t, int64_t k) noexcept nogil:
    """``HeuristicBot.keep_value``: how much a card is worth keeping (to choose gifts)."""
    cdef double base
    cdef int64_t i
    cdef int64_t same
    if k >= NCOLORED:
        return 10.0 + (2.0 if k == WILD4 else 0.0)
    same = 0
    for i in range(tr.cx[t, CX_NH]):
        if _KCOLOR[tr.hand[t, i]] == _KCOLOR[k]:
            same += 1
    base = 3.0 if not _IS_NUMBER[k] else 1.0
    return <double>(base + 0.5 * same - 0.01 * _POINTS[k])


cdef inline bint _kh__keep_drawn(CState st, CTables tb, CTracker tr, int64_t t, int64_t aid, double value) noexcept nogil:
    """After drawing: keep a drawn wild while the hand is big and nobody is close."""
    cdef int64_t last
    cdef int64_t me
    cdef int64_t s
    cdef int64_t threat
    last = tb.a_cards[aid, tb.a_ncards[aid] - 1]
    if last < NCOLORED or value > 50:
        return False
    me = tr.cx[t, CX_ME]
    threat = 0
    for s in range(tr.cx[t, CX_N]):
        if _kh__opponent(tb, me, s):
            threat = max(threat, _kh__urgency(st, t, s))
    return <bint>(tr.cx[t, CX_NH] >= 5 and threat == 0)


cdef int64_t _kh_window(CState st, CTables tb, CTracker tr, int64_t t, int64_t seat, int64_t player, double* opt, int32_t* ids, int64_t m) noexcept nogil:
    """``HeuristicBot.window``: always catch, always call UNO, jump in with the best-scored
    jump-in (UNO-flagged on a tie); -1 declines."""
    cdef int64_t a
    cdef int64_t best
    cdef int64_t best_u
    cdef double best_v
    cdef int64_t i
    cdef int64_t* stats
    cdef int64_t u
    cdef double v
    cdef int64_t want
    for _j_want in range(2):
        want = V_CATCH if _j_want == 0 else (V_UNO)
        a = _kh__first(tb, ids, m, want)
        if a >= 0:
            return a
    if _kh__first(tb, ids, m, V_JUMP) < 0:
        return -1
    _kh__observe(tr, st, tb, t, seat, player)
    stats = &tr.stats[t, player, 0]
    best = -1
    best_v = 0.0
    best_u = 0
    for i in range(m):
        a = <int64_t>(ids[i])
        if tb.a_verb[a] != V_JUMP:
            continue
        v = _kh__play_value(st, tb, tr, t, a, opt, stats)
        u = tb.a_uno[a]
        if best < 0 or v > best_v or (v == best_v and u > best_u):
            best = a
            best_v = v
            best_u = u
    return best


