# ---- vector --------------------------------------------------------------------------------
cdef void _kv_seed_tables(CVec v, int64_t[:, ::1] words) noexcept nogil:
    """Seed every table's generators: ``words[b]`` holds :func:`table_seeds` as (lo, hi)
    pairs."""
    cdef int64_t i
    cdef int64_t n
    cdef int64_t s
    cdef int64_t t
    n = v.own.shape[1]
    for t in range(words.shape[0]):
        _mt_seed_words(&v.ep[t, 0], words[t, 0], words[t, 1])
        _mt_seed_words(&v.drv[t, 0], words[t, 2], words[t, 3])
        for s in range(n):
            _mt_seed_words(&v.own[t, s, 0], words[t, 4 + 2 * s], words[t, 5 + 2 * s])
        for i in range(NCTL):
            v.ctl[t, i] = 0


cdef inline int64_t _kv_learner_acts(CVec v, CState st, CTables tb, int64_t t, int64_t window, int64_t declined, int64_t seat) noexcept nogil:
    """``seat`` (the learning seat or a ``caller`` seat) acts now, in a window or on its turn:
    it becomes the table's actor, its legal ids go to ``v.ids``."""
    cdef int64_t* ctl
    ctl = &v.ctl[t, 0]
    ctl[C_ACTOR] = seat
    ctl[C_NIDS] = _core_legal(st, tb, t, seat, &v.ids[t, 0])
    ctl[C_WINDOW] = window
    ctl[C_DECLINED] = declined
    return _ACT


cdef inline bint _kv_play(CVec v, CState st, CTables tb, int64_t t, int64_t aid, int64_t seat) noexcept nogil:
    """``seat`` takes ``aid``, and the heuristic seats' trackers read what it did (False if
    a tracker overflowed: the round cannot go on)."""
    cdef bint tracked
    tracked = v.ctl[t, C_HMASK] != 0
    if tracked:
        _kh_before(v.tr, st, t, seat, aid)
        st.s[t, F_NLOG] = 0
    _core_step(st, tb, t, aid, seat)
    if not tracked:
        return True
    _kh_after(v.tr, st, tb, t)
    return <bint>(v.tr.tf[t, TF_ERROR] == 0)


cdef inline int64_t _kv_bot_choice(CVec v, CState st, CTables tb, int64_t t, int64_t seat, bint window, int64_t m) noexcept nogil:
    """The bot at ``seat`` chooses among the ``m`` legal ids in ``v.buf``: in a window (-1:
    it declines) or on its turn."""
    cdef int64_t me
    me = v.ctl[t, C_SEAT]
    return _kb_decide(st, tb, v.tr, t, seat, window, v.kinds[me, seat], &v.opts[me, seat, 0], &v.buf[0], m, &v.drv[t, 0], &v.own[t, seat, 0], &v.scr[0])


cdef int64_t _kv_to_learner(CVec v, CState st, CTables tb, int64_t t, int64_t first) noexcept nogil:
    """The actor (the learning seat or a ``caller`` seat) takes action ``first`` (none if
    negative), then the bots act (windows first, in DIG-3 order, then the turn seat) until the
    learning seat or a ``caller`` seat must act (its legal ids in ``v.ids[t]``) or the round
    is over."""
    cdef int64_t actor
    cdef int64_t aid
    cdef int64_t choice
    cdef int64_t* ctl
    cdef int64_t declined
    cdef int64_t k
    cdef int64_t m
    cdef int64_t me
    cdef int64_t nw
    cdef int64_t* s
    cdef int64_t seat
    cdef int64_t taken
    cdef int64_t verb
    cdef bint window
    s = &st.s[t, 0]
    ctl = &v.ctl[t, 0]
    me = ctl[C_SEAT]
    declined = ctl[C_DECLINED]
    taken = 0
    while s[F_PHASE] != OVER:
        actor = -1
        aid = first
        if first >= 0:
            actor = ctl[C_ACTOR]
            first = -1
        else:
            if taken >= v.opt[O_MAX_ACTIONS]:
                return _STUCK
            taken += 1
            nw = _core_window_seats(st, tb, t, &v.seats[0], &v.buf2[0])
            # the seats with a window, then the turn seat: the first that acts
            for k in range(nw + 1):
                window = k < nw
                seat = v.seats[k] if window else s[F_TURN]
                if window and (declined >> seat) & 1:
                    continue
                if seat == me or v.kinds[me, seat] == BOT_CALLER:
                    return _kv_learner_acts(v, st, tb, t, 1 if window else 0, declined, seat)
                m = _core_legal(st, tb, t, seat, &v.buf[0])
                if m == 0 and not window:
                    return _STUCK
                choice = _kv_bot_choice(v, st, tb, t, seat, window, m)
                if window and choice < 0:  # a bot lets its window pass
                    declined |= (<int64_t>1) << seat
                    continue
                actor = seat
                aid = choice
                break
        if not _kv_play(v, st, tb, t, aid, actor):
            return _STUCK
        verb = tb.a_verb[aid]
        if verb != V_CATCH and verb != V_UNO:
            declined = 0
    ctl[C_DECLINED] = declined
    ctl[C_NIDS] = 0
    ctl[C_WINDOW] = 0
    ctl[C_ACTOR] = me  # a finished round is observed by the learning seat
    return _OVER


cdef int64_t _kv_start_episode(CVec v, CState st, CTables tb, int64_t t) noexcept nogil:
    """Deal table ``t``'s next episode (again while the bots end it before the learning
    seat has a decision); ``_STUCK`` if a round could not be played."""
    cdef int64_t* ctl
    cdef int64_t dealer
    cdef int64_t e
    cdef uint32_t* ep
    cdef int64_t g
    cdef int64_t hmask
    cdef int64_t n
    cdef int64_t r
    cdef int64_t s
    ctl = &v.ctl[t, 0]
    ep = &v.ep[t, 0]
    n = tb.p[R_PLAYERS]
    ctl[C_SEAT] = _mt_randbelow(ep, n) if v.opt[O_SEAT] < 0 else v.opt[O_SEAT]
    ctl[C_STEPS] = 0
    ctl[C_SKIPPED] = 0
    ctl[C_RESET] = 0
    ctl[C_EPISODES] += 1
    while True:
        e = _mt_getrandbits(ep, 63)  # Match(rules, e): SET-1, then the round's seed
        _mt_seed_words(&v.mrng[0], e & 0xFFFFFFFFLL, e >> 32)
        dealer = _km_first_dealer(tb, &v.mrng[0], &v.deck[0], &v.cont[0], &v.vals[0])
        g = _mt_getrandbits(&v.mrng[0], 63)
        _mt_seed_words(&st.rng[t, 0], g & 0xFFFFFFFFLL, g >> 32)
        _core_deal_seeded(st, tb, t, dealer)
        ctl[C_DECLINED] = 0
        hmask = 0
        for s in range(n):
            if s != ctl[C_SEAT] and v.kinds[ctl[C_SEAT], s] == BOT_HEURISTIC:
                hmask |= (<int64_t>1) << s
        ctl[C_HMASK] = hmask
        if hmask:
            _kh_begin(v.tr, st, tb, t, hmask)
            if v.tr.tf[t, TF_ERROR]:
                return _STUCK
        r = _kv_to_learner(v, st, tb, t, -1)
        if r != _OVER:
            return r
        ctl[C_SKIPPED] += 1


cdef inline double _kv_reward(CVec v, CState st, CTables tb, int64_t t) noexcept nogil:
    """The learning seat's reward for the finished round (``Table._round_rewards``)."""
    cdef int64_t me
    cdef int64_t nt
    cdef int64_t* p
    cdef int64_t* s
    cdef int64_t w
    s = &st.s[t, 0]
    p = &tb.p[0]
    me = v.ctl[t, C_SEAT]
    nt = p[R_TEAMCOUNT]
    if v.opt[O_REWARD] == REWARD_POINTS:
        return <double>(st.scores[t, me % nt if p[R_TEAMS] else me]) * <double>(v.scale[0])
    if s[F_REASON] in (REASON_VOID, REASON_BLOCKED):
        return 0.0
    w = s[F_WINNER]
    if p[R_TEAMS]:
        return 1.0 if w % nt == me % nt else -1.0
    return 1.0 if w == me else -1.0


cdef void _kv_write(CVec v, CState st, CTables tb, int64_t t, float* obs, int8_t[::1] msk) noexcept nogil:
    """The actor's observation and mask (all zero once the round is over)."""
    cdef int64_t* ctl
    cdef int64_t m
    cdef bint window
    ctl = &v.ctl[t, 0]
    m = ctl[C_NIDS]
    window = ctl[C_WINDOW] == 1
    _ko_encode(st, tb, t, ctl[C_ACTOR], window, &v.lay[0], v.tmpl, &v.ids[t, 0], m, obs)
    _ko_mask(&v.ids[t, 0], m, v.opt[KV_O_DECLINE] if window else -1, &msk[0], msk.shape[0])


cdef inline int64_t _kv_learner_step(CVec v, CState st, CTables tb, int64_t t, int64_t aid) noexcept nogil:
    """Apply the actor's action ``aid`` (or its ``decline``) on table ``t`` and let the bots
    play on: what :func:`to_learner` returns."""
    if aid == v.opt[KV_O_DECLINE]:
        v.ctl[t, C_DECLINED] |= (<int64_t>1) << v.ctl[t, C_ACTOR]
        return _kv_to_learner(v, st, tb, t, -1)
    return _kv_to_learner(v, st, tb, t, aid)


cdef inline bint _kv_legal_action(CVec v, int64_t t, int64_t aid) noexcept nogil:
    """Whether ``aid`` is a legal choice for table ``t``'s learning seat: one of its offered ids, or
    ``decline`` while a window is open to it."""
    cdef int64_t* ctl
    cdef int64_t i
    cdef int32_t* ids
    ctl = &v.ctl[t, 0]
    if aid == v.opt[KV_O_DECLINE]:
        return <bint>(ctl[C_WINDOW] == 1)
    ids = &v.ids[t, 0]
    for i in range(ctl[C_NIDS]):
        if ids[i] == aid:
            return True
    return False


cdef int64_t _kv_reset_batch(CVec v, CState st, CTables tb, float[:, ::1] obs, int8_t[:, ::1] msk) noexcept nogil:
    """Start an episode on every table (generators seeded); :data:`OK`, or ``-2 - b`` when
    table ``b``'s round could not be played."""
    return _kv_reset_range(v, st, tb, 0, v.ctl.shape[0], obs, msk)


cdef int64_t _kv_reset_range(CVec v, CState st, CTables tb, int64_t lo, int64_t hi, float[:, ::1] obs, int8_t[:, ::1] msk) noexcept nogil:
    """:func:`reset_batch` for tables ``lo..hi`` (``v``'s scratch is this range's own)."""
    cdef int64_t t
    for t in range(lo, hi):
        v.ctl[t, C_EPISODES] = 0
        if _kv_start_episode(v, st, tb, t) == _STUCK:
            return -2 - t
        _kv_write(v, st, tb, t, &obs[t, 0], msk[t])
    return OK


cdef int64_t _kv_check_actions(CVec v, int64_t* actions) noexcept nogil:
    """The first table whose action is not legal, else :data:`OK` (every action is checked
    before any table moves)."""
    cdef int64_t t
    for t in range(v.ctl.shape[0]):
        if not v.ctl[t, C_RESET] and not _kv_legal_action(v, t, actions[t]):
            return t
    return OK


cdef int64_t _kv_step_batch(CVec v, CState st, CTables tb, int64_t* actions, float[:, ::1] obs, int8_t[:, ::1] msk, double* rew, uint8_t* term, uint8_t* trunc, uint8_t* fin, float[:, ::1] fin_obs, int8_t[:, ::1] fin_msk) noexcept nogil:
    """Apply each table's actor's action, let the bots play to the next decision of the
    learning seat or a ``caller`` seat, reward, and auto-reset finished tables: next step
    (the action of a table that finished last step is ignored and it starts over), or same
    step (the finished observation goes to ``fin_obs``/``fin_msk``, flagged in ``fin``).
    Returns :data:`OK`; the first table ``b`` whose action is not legal (nothing was
    stepped); or ``-2 - b`` when table ``b``'s round could not be played."""
    cdef int64_t r = _kv_check_actions(v, actions)
    if r != OK:
        return r
    return _kv_step_range(v, st, tb, 0, v.ctl.shape[0], actions, obs, msk, rew, term, trunc, fin, fin_obs, fin_msk)


cdef int64_t _kv_step_range(CVec v, CState st, CTables tb, int64_t lo, int64_t hi, int64_t* actions, float[:, ::1] obs, int8_t[:, ::1] msk, double* rew, uint8_t* term, uint8_t* trunc, uint8_t* fin, float[:, ::1] fin_obs, int8_t[:, ::1] fin_msk) noexcept nogil:
    """:func:`step_batch` for tables ``lo..hi``, their actions already checked (``v``'s
    scratch is this range's own: ranges run side by side on threads)."""
    cdef int64_t* ctl
    cdef int64_t max_steps
    cdef int64_t r
    cdef bint same
    cdef int64_t t
    same = v.opt[O_SAME_STEP] == 1
    max_steps = v.opt[O_MAX_STEPS]
    for t in range(lo, hi):
        ctl = &v.ctl[t, 0]
        rew[t] = 0.0
        term[t] = False
        trunc[t] = False
        fin[t] = False
        if ctl[C_RESET]:
            if _kv_start_episode(v, st, tb, t) == _STUCK:
                return -2 - t
            _kv_write(v, st, tb, t, &obs[t, 0], msk[t])
            continue
        if ctl[C_ACTOR] == ctl[C_SEAT]:  # max_steps counts the learning seat's actions
            ctl[C_STEPS] += 1
        r = _kv_learner_step(v, st, tb, t, actions[t])
        if r == _STUCK:
            return -2 - t
        if r == _OVER:
            rew[t] = _kv_reward(v, st, tb, t)
            term[t] = True
        elif max_steps >= 0 and ctl[C_STEPS] >= max_steps:
            trunc[t] = True
        if not (term[t] or trunc[t]):
            _kv_write(v, st, tb, t, &obs[t, 0], msk[t])
        elif same:
            _kv_write(v, st, tb, t, &fin_obs[t, 0], fin_msk[t])
            fin[t] = True
            if _kv_start_episode(v, st, tb, t) == _STUCK:
                return -2 - t
            _kv_write(v, st, tb, t, &obs[t, 0], msk[t])
        else:
            _kv_write(v, st, tb, t, &obs[t, 0], msk[t])
            ctl[C_RESET] = 1
    return OK
