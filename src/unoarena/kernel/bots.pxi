# ---- bots --------------------------------------------------------------------------------
cdef inline int64_t _kb_best_color(CState st, int64_t t, int64_t seat, int64_t* colors, int64_t ncolors, uint32_t* g, int64_t* scr) noexcept nogil:
    """``BasicBot._best_color``: the colour among ``colors`` the hand holds most, ties at
    random (always one draw, as the reference draws even when there is no tie)."""
    cdef int64_t* best
    cdef int64_t c
    cdef int64_t* counts
    cdef int64_t i
    cdef int64_t nbest
    cdef int64_t top
    counts = &scr[0]
    for c in range(8):
        counts[c] = 0
    for i in range(st.hsize[t, seat]):
        c = _KCOLOR[st.hands[t, seat, i]]
        if c >= 0:
            counts[c] += 1
    top = -1
    for i in range(ncolors):
        if counts[colors[i]] > top:
            top = counts[colors[i]]
    nbest = 0
    best = &scr[8]
    for c in range(8):  # ascending colour, as sorted() does
        for i in range(ncolors):
            if colors[i] == c and counts[c] == top:
                best[nbest] = c
                nbest += 1
                break
    return <int64_t>(best[<int64_t>(_mt_random(g) * nbest)])


cdef inline int64_t _kb_weakest(CState st, int64_t t, int64_t* seats, int64_t nseats, uint32_t* g, int64_t* scr) noexcept nogil:
    """``BasicBot._weakest``: the seat among ``seats`` with the fewest cards, ties at random."""
    cdef int64_t* best
    cdef int64_t i
    cdef int64_t low
    cdef int64_t nbest
    cdef int64_t sidx
    low = (<int64_t>1) << 30
    for i in range(nseats):
        if st.hsize[t, seats[i]] < low:
            low = st.hsize[t, seats[i]]
    best = &scr[16]
    nbest = 0
    for sidx in range(MAX_PLAYERS):
        for i in range(nseats):
            if seats[i] == sidx and st.hsize[t, sidx] == low:
                best[nbest] = sidx
                nbest += 1
                break
    return <int64_t>(best[<int64_t>(_mt_random(g) * nbest)])


cdef inline int64_t _kb__add_distinct(int64_t* vals, int64_t n, int64_t v) noexcept nogil:
    cdef int64_t i
    for i in range(n):
        if vals[i] == v:
            return n
    vals[n] = v
    return n + 1


cdef inline int64_t _kb_basic_act(CState st, CTables tb, int64_t t, int64_t seat, int32_t* ids, int64_t m, uint32_t* g, int64_t* scr) noexcept nogil:
    """``BasicBot.act``: the action id it chooses among the sorted legal ``ids[:m]``."""
    cdef int64_t best
    cdef int64_t* colors
    cdef int64_t* groups
    cdef int64_t i
    cdef int64_t ncol
    cdef int64_t ngive
    cdef int64_t ngroups
    cdef int64_t pick
    cdef int32_t* verb
    cdef int64_t want
    verb = &tb.a_verb[0]
    for _j_want in range(2):
        want = V_CATCH if _j_want == 0 else (V_UNO)
        for i in range(m):
            if verb[ids[i]] == want:
                return <int64_t>(ids[i])
    ncol = 0
    colors = &scr[32]
    for i in range(m):
        if verb[ids[i]] == V_COLOR:
            ncol = _kb__add_distinct(colors, ncol, tb.a_color[ids[i]])
    if ncol:
        best = _kb_best_color(st, t, seat, colors, ncol, g, scr)
        for i in range(m):
            if verb[ids[i]] == V_COLOR and tb.a_color[ids[i]] == best:
                return <int64_t>(ids[i])
    ngive = 0
    for i in range(m):
        if verb[ids[i]] == V_GIVE:
            ngive += 1
    if ngive:
        pick = <int64_t>(_mt_random(g) * ngive)
        for i in range(m):
            if verb[ids[i]] == V_GIVE:
                if pick == 0:
                    return <int64_t>(ids[i])
                pick -= 1
    # plays: groups of the same cards in order of first appearance, one picked at random
    groups = &scr[SCR_IDS]
    ngroups = 0
    for i in range(m):
        if verb[ids[i]] == V_PLAY:
            ngroups = _kb__add_distinct(groups, ngroups, tb.a_group[ids[i]])
    if ngroups:
        return _kb_choose_play(st, tb, t, seat, ids, m, groups[<int64_t>(_mt_random(g) * ngroups)], g, scr)
    for _j_want in range(3):  # accept, draw, pass (their fixed ids)
        want = 3 if _j_want == 0 else (0 if _j_want == 1 else (1))
        for i in range(m):
            if ids[i] == want:
                return want
    return <int64_t>(ids[0])


cdef inline int64_t _kb_choose_play(CState st, CTables tb, int64_t t, int64_t seat, int32_t* ids, int64_t m, int64_t group, uint32_t* g, int64_t* scr) noexcept nogil:
    """``BasicBot._choose_play`` once the cards are chosen: the plain variant, the colour it
    holds most, the weakest target, the UNO flag when offered."""
    cdef int64_t best
    cdef int64_t* colors
    cdef int64_t i
    cdef int64_t ncol
    cdef int64_t nseat
    cdef int64_t nv
    cdef int64_t* seats
    cdef int64_t tgt
    cdef int64_t* var
    var = &scr[SCR_IDS + m]
    nv = 0
    for i in range(m):
        if tb.a_verb[ids[i]] == V_PLAY and tb.a_group[ids[i]] == group:
            var[nv] = ids[i]
            nv += 1
    if nv > 1:
        nv = _core_prefer_plain(tb, var, nv)
        colors = &scr[40]
        ncol = 0
        for i in range(nv):
            if tb.a_color[var[i]] >= 0:
                ncol = _kb__add_distinct(colors, ncol, tb.a_color[var[i]])
        if ncol > 1:
            best = _kb_best_color(st, t, seat, colors, ncol, g, scr)
            nv = _core_keep_equal(var, nv, &tb.a_color[0], best)
        seats = &scr[48]
        nseat = 0
        for i in range(nv):
            if tb.a_target[var[i]] >= 0:
                nseat = _kb__add_distinct(seats, nseat, tb.a_target[var[i]])
        if nseat > 1:
            tgt = _kb_weakest(st, t, seats, nseat, g, scr)
            nv = _core_keep_equal(var, nv, &tb.a_target[0], tgt)
    return _core_uno_first(tb, var, nv)


cdef inline int64_t _kb_act(CState st, CTables tb, int64_t t, int64_t seat, int64_t kind, int32_t* ids, int64_t m, uint32_t* g, int64_t* scr) noexcept nogil:
    """The seat's bot chooses on its turn (``g``: the driver's generator)."""
    if kind == BOT_RANDOM:
        return <int64_t>(ids[<int64_t>(_mt_random(g) * m)])
    return _kb_basic_act(st, tb, t, seat, ids, m, g, scr)


cdef inline int64_t _kb_window(CTables tb, int64_t kind, double decline, int32_t* ids, int64_t m, uint32_t* own) noexcept nogil:
    """A window decision, -1 to decline (``own``: the bot's own generator)."""
    cdef int64_t i
    cdef int64_t want
    if kind == BOT_RANDOM:
        if _mt_random(own) < decline:
            return -1
        return <int64_t>(ids[<int64_t>(_mt_random(own) * m)])
    for _j_want in range(2):  # basic: always catch, always call; never jump in
        want = V_CATCH if _j_want == 0 else (V_UNO)
        for i in range(m):
            if tb.a_verb[ids[i]] == want:
                return <int64_t>(ids[i])
    return -1


cdef inline int64_t _kb_decide(CState st, CTables tb, CTracker tr, int64_t t, int64_t seat, bint in_window, int64_t kind, double* opt, int32_t* ids, int64_t m, uint32_t* drv, uint32_t* own, int64_t* scr) noexcept nogil:
    """The bot of ``kind`` (options ``opt``) at ``seat`` chooses among ``ids[:m]``: in a window
    (-1: it lets the window pass) or on its turn; ``drv`` is the driver's generator, ``own``
    the seat's own, ``tr`` the heuristic seats' trackers."""
    if kind == BOT_HEURISTIC:
        if in_window:
            return _kh_window(st, tb, tr, t, seat, seat, opt, ids, m)
        return _kh_act(st, tb, tr, t, seat, seat, opt, ids, m)
    if in_window:
        return _kb_window(tb, kind, opt[O_DECLINE], ids, m, own)
    return _kb_act(st, tb, t, seat, kind, ids, m, drv, scr)


cdef void _kb_play_round(CState st, CTables tb, int64_t t, int64_t* who, int64_t* kinds, double[:, ::1] opts, uint32_t* drv, uint32_t[:, ::1] own, int64_t* counts, int64_t* chain_hist, int64_t max_actions, int32_t* ids, int32_t* buf, int64_t* seats, int64_t* scr, CTracker tr) noexcept nogil:
    """Play table ``t`` (already dealt) to its end; write the round's counts to ``counts`` and
    add its penalty chains to ``chain_hist``. Seat ``s`` is played by player ``who[s]``, whose
    bot is ``kinds[p]`` (options ``opts[p]``, see ``heuristic.O_*``) with its own generator
    ``own[p]`` (seeded only for bots that draw from it) and, for a heuristic, its BluffStats
    in ``tr.stats[t, p]``. ``ids``, ``buf``, ``seats`` and ``scr`` are scratch (see
    :func:`scratch`), ``tr`` the heuristic seats' trackers: nothing here allocates."""
    cdef int64_t aid
    cdef int64_t chain
    cdef int64_t choice
    cdef int64_t declined
    cdef int64_t hmask
    cdef int64_t i
    cdef int64_t m
    cdef int64_t nw
    cdef bint pending
    cdef int64_t phase
    cdef int64_t pw
    cdef int64_t* s
    cdef int64_t seat
    cdef int64_t taken
    cdef int64_t v
    cdef int64_t w
    cdef int64_t ws
    s = &st.s[t, 0]
    for i in range(NCOUNTS):
        counts[i] = 0
    hmask = 0
    for seat in range(tb.p[R_PLAYERS]):
        if kinds[who[seat]] == BOT_HEURISTIC:
            hmask |= (<int64_t>1) << seat
    if hmask:
        _kh_begin(tr, st, tb, t, hmask)
        if tr.tf[t, TF_ERROR]:
            counts[C_ERROR] = E_TRACKER
            return
    chain = 1 if s[F_PEND] > 0 else 0
    declined = 0
    taken = 0
    while s[F_PHASE] != OVER:
        if taken >= max_actions:
            counts[C_ERROR] = E_ACTIONS
            return
        seat = -1
        aid = -1
        nw = _core_window_seats(st, tb, t, seats, buf)
        for w in range(nw):
            ws = seats[w]
            if (declined >> ws) & 1:
                continue
            m = _core_legal(st, tb, t, ws, ids)
            pw = who[ws]
            if kinds[pw] == BOT_HEURISTIC:
                choice = _kh_window(st, tb, tr, t, ws, pw, &opts[pw, 0], ids, m)
            else:
                choice = _kb_window(tb, kinds[pw], opts[pw, O_DECLINE], ids, m, &own[pw, 0])
            if choice < 0:
                declined |= (<int64_t>1) << ws
                continue
            seat = ws
            aid = choice
            break
        if seat < 0:
            seat = s[F_TURN]
            m = _core_legal(st, tb, t, seat, ids)
            if m == 0:
                counts[C_ERROR] = E_STUCK
                return
            pw = who[seat]
            if kinds[pw] == BOT_HEURISTIC:
                aid = _kh_act(st, tb, tr, t, seat, pw, &opts[pw, 0], ids, m)
            else:
                aid = _kb_act(st, tb, t, seat, kinds[pw], ids, m, drv, scr)
        if hmask:
            _kh_before(tr, st, t, seat, aid)
        s[F_NLOG] = 0
        _core_step(st, tb, t, aid, seat)
        if hmask:
            _kh_after(tr, st, tb, t)
            if tr.tf[t, TF_ERROR]:
                counts[C_ERROR] = E_TRACKER
                return
        v = tb.a_verb[aid]
        if v != V_CATCH and v != V_UNO:
            declined = 0
        # the lab's counts: turns, and penalty chains (RoundTracker)
        phase = s[F_PHASE]
        if v != V_CATCH and v != V_UNO and v != V_COLOR and (phase == PLAY or phase == OVER):
            counts[C_TURNS] += 1
        pending = s[F_PEND] > 0
        if v == V_PLAY or v == V_JUMP:
            if chain:
                chain += 1
            elif pending or _PENALTY_KIND[tb.a_cards[aid, tb.a_ncards[aid] - 1]]:
                chain = 1
        if chain and not pending:
            _kb__chain_done(chain, counts, chain_hist)
            chain = 0
        taken += 1
    if chain:
        _kb__chain_done(chain, counts, chain_hist)
    counts[C_ACTIONS] = s[F_NACTIONS]


cdef inline void _kb__chain_done(int64_t length, int64_t* counts, int64_t* chain_hist) noexcept nogil:
    counts[C_CHAINS] += 1
    if length >= MAX_CHAIN_LEN:
        counts[C_ERROR] = E_CHAIN
        return
    chain_hist[length] += 1


cdef void _kb_play_rounds(CState st, CTables tb, int64_t[:, ::1] seeds, uint32_t[:, ::1] games, uint32_t[:, ::1] drivers, int64_t[::1] dealers, int64_t[:, ::1] kinds, double[:, :, ::1] opts, uint32_t[:, ::1] own, int64_t[:, ::1] counts, int64_t* chain_hist, int64_t* winners, int64_t[:, ::1] points, int64_t[:, ::1] scores, int64_t[:, ::1] drawn_by, int64_t max_actions, int32_t* ids, int32_t* buf, int64_t* seats, int64_t* scr, CTracker tr) noexcept nogil:
    """Round ``i`` of a chunk on table 0, its generators seeded beforehand (``games[i]``,
    ``drivers[i]``; :func:`mt.seed_many`), each random bot's from ``seeds[i]`` (words of the
    game, driver, seat 0, seat 1, ... seeds); ``kinds[i, s]`` and ``opts[i, s]`` are
    round ``i``'s bot at seat ``s`` (its bot is new: no BluffStats yet); results per round in
    the output rows."""
    cdef uint32_t* drv
    cdef uint32_t* g
    cdef int64_t i
    cdef int64_t j
    cdef int64_t n
    cdef int64_t r
    cdef int64_t seat
    cdef int64_t* who
    n = tb.p[R_PLAYERS]
    who = &scr[SCR_WHO]  # every player in their own seat
    for i in range(dealers.shape[0]):
        for seat in range(n):
            who[seat] = seat
        g = &st.rng[0, 0]
        for j in range(MT_WORDS):
            g[j] = games[i, j]
        _core_deal_seeded(st, tb, 0, dealers[i])
        drv = &drivers[i, 0]
        for seat in range(n):
            if kinds[i, seat] == BOT_RANDOM:
                _mt_seed_words(&own[seat, 0], seeds[i, 4 + 2 * seat], seeds[i, 5 + 2 * seat])
            for j in range(NST):
                tr.stats[0, seat, j] = 0
        _kb_play_round(st, tb, 0, who, &kinds[i, 0], opts[i], drv, own, &counts[i, 0], chain_hist, max_actions, ids, buf, seats, scr, tr)
        winners[i] = st.s[0, F_WINNER]
        for seat in range(n):
            points[i, seat] = st.points[0, seat]
            scores[i, seat] = st.scores[0, seat]
        for r in range(NREASONS):
            drawn_by[i, r] = st.drawn_by[0, r]


