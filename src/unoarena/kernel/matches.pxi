# ---- matches --------------------------------------------------------------------------------
cdef inline int64_t _km_first_dealer(CTables tb, uint32_t* g, int32_t* deck, int64_t* contenders, int64_t* values) noexcept nogil:
    """SET-1: each player draws a card; the highest number deals; the tied draw again."""
    cdef int64_t best
    cdef int64_t card
    cdef int64_t ci
    cdef int64_t i
    cdef int64_t j
    cdef int64_t k
    cdef int64_t m
    cdef int64_t n
    cdef int64_t nc
    cdef int64_t s
    cdef int64_t size
    cdef int64_t v
    cdef int64_t x
    n = tb.p[R_PLAYERS]
    if tb.p[R_FIRST_DEALER]:
        return <int64_t>(_mt_random(g) * n)
    nc = n
    for s in range(n):
        contenders[s] = s
    size = tb.p[R_DECK]
    while True:
        for i in range(size):
            deck[i] = tb.deck[i]
        for i in range(size - 1, 0, -1):  # random.shuffle: _randbelow, not random()
            j = _mt_randbelow(g, i + 1)
            x = deck[i]
            deck[i] = deck[j]
            deck[j] = x
        m = size
        best = -1
        for ci in range(nc):
            m -= 1
            card = deck[m]
            v = card % 15 if card < NCOLORED and card % 15 <= 9 else 0
            values[ci] = v
            best = max(best, v)
        k = 0
        for ci in range(nc):
            if values[ci] == best:
                contenders[k] = contenders[ci]
                k += 1
        nc = k
        if nc == 1:
            return <int64_t>(contenders[0])


cdef inline void _km__shuffle_seats(uint32_t* g, int64_t* seat_of, int64_t* perm, int64_t k, int64_t n) noexcept nogil:
    """HR-SEATS: ``perm = list(range(k)); rng.shuffle(perm); seat_of = [perm[s] ...]`` over the
    ``k`` seats of the ``n`` players, those put out (-1, HR-ELIM) staying out."""
    cdef int64_t i
    cdef int64_t j
    cdef int64_t p
    cdef int64_t x
    for i in range(k):
        perm[i] = i
    for i in range(k - 1, 0, -1):
        j = _mt_randbelow(g, i + 1)
        x = perm[i]
        perm[i] = perm[j]
        perm[j] = x
    for p in range(n):
        if seat_of[p] >= 0:
            seat_of[p] = perm[seat_of[p]]


cdef void _km_play_match(CState st, CTables tb, uint32_t* mrng, uint32_t* drv, uint32_t[:, ::1] own, int64_t* kinds, double[:, ::1] opts, int64_t max_actions, int64_t max_rounds, int64_t[::1] result, int64_t[::1] winners, int64_t[:, ::1] counts, int64_t* chain_hist, int64_t[:, ::1] points, int64_t[:, ::1] scores, int64_t[:, ::1] drawn_by, int64_t* match_scores, int32_t* ids, int32_t* buf, int64_t* seats, int64_t* scr, CTracker tr, tuple tbs, tuple trs):
    """Play one match (generators seeded) with player ``p``'s bot ``kinds[p]`` (options
    ``opts[p]``): round ``r``'s results in row ``r`` of the output arrays (``winners`` the
    seat that went out, -1 void); the match's totals in ``match_scores`` and ``result`` (see
    ``M_*``). ``tbs[k - 2]`` and ``trs[k - 2]`` are the tables and tracker of a ``k``-player
    table, where elimination (HR-ELIM) deals the players left."""
    cdef int64_t dealer
    cdef int64_t dealer_player
    cdef int64_t* gone
    cdef int64_t i
    cdef int64_t j
    cdef int64_t k
    cdef int64_t left
    cdef int64_t n
    cdef int64_t ngone
    cdef int64_t* p
    cdef int64_t* perm
    cdef int64_t pl
    cdef int64_t r
    cdef int64_t rounds
    cdef int64_t seat
    cdef int64_t* seat_of
    cdef int64_t seed
    cdef CTables tk
    cdef int64_t tm
    cdef int64_t* vals
    cdef int64_t w
    cdef int64_t* who
    cdef int64_t width
    p = &tb.p[0]
    n = p[R_PLAYERS]
    k = n  # players at the table
    # HR-ELIM: the seats a round puts out, in the bots' id scratch (free between rounds)
    gone = &scr[SCR_IDS]
    width = p[R_TEAMCOUNT] if p[R_TEAMCOUNT] else n
    seat_of = &scr[SCR_WHO + 16]
    who = &scr[SCR_WHO]
    perm = &st.tmp[0, 0]
    vals = &st.tmp[0, 16]
    for i in range(result.shape[0]):
        result[i] = 0
    for i in range(n):
        seat_of[i] = i
        for j in range(NST):
            tr.stats[0, i, j] = 0
    dealer = _km_first_dealer(tb, mrng, &st.disc[0, 0], perm, vals)
    for i in range(width):
        match_scores[i] = 0
    rounds = 0
    while True:
        if rounds >= max_rounds:
            result[M_ERROR] = E_ROUNDS
            return
        if rounds >= winners.shape[0]:
            result[M_ERROR] = E_CAPACITY
            return
        tk = <CTables>tbs[k - 2]
        trk = <CTracker>trs[k - 2]
        seed = _mt_getrandbits(mrng, 63)
        _mt_seed_words(&st.rng[0, 0], seed & 0xFFFFFFFFLL, seed >> 32)
        _core_deal_seeded(st, tk, 0, dealer)
        for pl in range(n):
            if seat_of[pl] >= 0:
                who[seat_of[pl]] = pl
        _kb_play_round(st, tk, 0, who, kinds, opts, drv, own, &counts[rounds, 0], chain_hist, max_actions, ids, buf, seats, scr, trk)
        if counts[rounds, C_ERROR]:
            result[M_ERROR] = E_ROUND
            result[M_ROUNDS] = rounds + 1
            return
        w = st.s[0, F_WINNER]
        winners[rounds] = w
        for seat in range(n):
            points[rounds, seat] = st.points[0, seat] if seat < k else 0
            scores[rounds, seat] = st.scores[0, seat] if seat < k else 0
        for r in range(NREASONS):
            drawn_by[rounds, r] = st.drawn_by[0, r]
        if p[R_TEAMCOUNT]:
            for tm in range(width):
                match_scores[tm] += st.scores[0, tm]
        else:
            for pl in range(n):
                if seat_of[pl] >= 0:
                    match_scores[pl] += st.scores[0, seat_of[pl]]
        rounds += 1
        ngone = _km__eliminate(st, tb, k, w, gone) if p[R_ELIMINATION] else 0
        if p[R_ELIMINATION]:  # HR-ELIM: the last player left wins
            if k - ngone == 1:
                for i in range(width):
                    result[M_WINNERS + i] = 0
                for seat in range(k):
                    if not gone[seat]:
                        result[M_WINNERS + who[seat]] = 1
                result[M_ROUNDS] = rounds
                return
        elif _km__settled(tb, match_scores, width, rounds, &result[0]):
            result[M_ROUNDS] = rounds
            return
        # SET-2: the deal passes to the left (the next player left), or to the winner
        # (followed across a reseat)
        if p[R_NEXT_DEALER] and w >= 0:
            dealer_player = who[w]
        else:
            seat = (dealer + 1) % k
            while ngone and gone[seat]:
                seat = (seat + 1) % k
            dealer_player = who[seat]
        if ngone:  # HR-ELIM: the others close up, in the same order
            left = 0
            for seat in range(k):
                if gone[seat]:
                    seat_of[who[seat]] = -1
                else:
                    seat_of[who[seat]] = left
                    left += 1
            k = left
        if p[R_SEAT_EXCHANGE] and rounds % p[R_SEAT_EXCHANGE] == 0:
            _km__shuffle_seats(mrng, seat_of, perm, k, n)
        dealer = seat_of[dealer_player]


cdef inline int64_t _km__eliminate(CState st, CTables tb, int64_t k, int64_t w, int64_t* gone) noexcept nogil:
    """``eliminated``: flag in ``gone`` the seats (but the winner ``w``) holding the most points
    or cards, all of them on a tie, none when that would be all ``k``; how many."""
    cdef int64_t best
    cdef int64_t count
    cdef int64_t seat
    cdef int64_t v
    best = -1
    for seat in range(k):
        gone[seat] = 0
        if seat != w:
            v = st.points[0, seat] if tb.p[R_ELIMINATION] == ELIM_POINTS else st.hsize[0, seat]
            best = max(best, v)
    count = 0
    for seat in range(k):
        if seat != w:
            v = st.points[0, seat] if tb.p[R_ELIMINATION] == ELIM_POINTS else st.hsize[0, seat]
            if v == best:
                gone[seat] = 1
                count += 1
    if count == k:
        for seat in range(k):
            gone[seat] = 0
        count = 0
    return count


cdef inline bint _km__settled(CTables tb, int64_t* sc, int64_t width, int64_t rounds, int64_t* result) noexcept nogil:
    """``settle``: is the match over, and who won (flags from ``result[M_WINNERS]``)?"""
    cdef int64_t best
    cdef int64_t hi
    cdef int64_t i
    cdef int64_t limit
    cdef int64_t lo
    cdef bint over
    cdef int64_t* p
    p = &tb.p[0]
    hi = sc[0]
    lo = sc[0]
    for i in range(1, width):
        hi = max(hi, sc[i])
        lo = min(lo, sc[i])
    limit = p[R_ROUNDS]
    if p[R_SCORING] == SC_WINNER:  # MATCH-1: first to the target
        over = hi >= p[R_TARGET_SCORE] or (limit >= 0 and rounds >= limit)
        best = hi
    elif p[R_SCORING] == SC_PENALTY:  # MATCH-2: the lowest total when someone reaches it
        over = rounds >= limit if limit >= 0 else hi >= p[R_TARGET_SCORE]
        best = lo
    else:  # MATCH-3 chips: the most after the rounds
        over = limit >= 0 and rounds >= limit
        best = hi
    if over:
        for i in range(width):
            result[M_WINNERS + i] = 1 if sc[i] == best else 0
    return <bint>(over)


