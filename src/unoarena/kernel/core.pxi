# ---- core --------------------------------------------------------------------------------
cdef inline void _core_hand_remove(CState st, int64_t t, int64_t seat, int64_t k) noexcept nogil:
    """``list.remove``: the first copy of ``k`` leaves the hand, later cards move up."""
    cdef int32_t* h
    cdef int64_t i
    cdef int64_t j
    cdef int64_t m
    h = &st.hands[t, seat, 0]
    m = st.hsize[t, seat]
    i = 0
    while h[i] != k:
        i += 1
    for j in range(i, m - 1):
        h[j] = h[j + 1]
    st.hsize[t, seat] = m - 1


cdef inline void _core_hand_append(CState st, int64_t t, int64_t seat, int64_t k) noexcept nogil:
    """``list.append``: card ``k`` joins the end of the seat's hand."""
    cdef int64_t m
    m = st.hsize[t, seat]
    st.hands[t, seat, m] = k
    st.hsize[t, seat] = m + 1


cdef inline int64_t _core_hand_count(CState st, int64_t t, int64_t seat, int64_t k) noexcept nogil:
    """How many copies of card ``k`` the seat holds."""
    cdef int64_t c
    cdef int64_t i
    c = 0
    for i in range(st.hsize[t, seat]):
        if st.hands[t, seat, i] == k:
            c += 1
    return c


cdef inline (int64_t, int64_t, bint) _core_mark(int64_t lo, int64_t hi, int64_t k) noexcept nogil:
    """A set of card kinds as two 64-bit words: add ``k``; False if it was there already
    (the reference iterates ``set(hand)``; this visits each kind once without allocating)."""
    cdef int64_t bit
    bit = (<int64_t>1) << (k & 63)
    if k < 64:
        return lo | bit, hi, not lo & bit
    return lo, hi | bit, not hi & bit


cdef inline void _core_note(CState st, int64_t t, int64_t what, int64_t seat, int64_t count) noexcept nogil:
    """Add an entry to the draw log (see ``LOG_CAP``); the count runs on past the capacity, so
    a reader can tell that entries were lost."""
    cdef int64_t i
    cdef int64_t* s
    s = &st.s[t, 0]
    i = s[F_NLOG]
    if i < LOG_CAP:
        st.log[t, i] = what + 4 * seat + 64 * count
    s[F_NLOG] = i + 1


cdef inline int64_t _core_top(CState st, int64_t t) noexcept nogil:
    """The top card of the discard pile (the last one: piles keep their top at the end)."""
    return <int64_t>(st.disc[t, st.s[t, F_NDISC] - 1])


cdef inline void _core_shuffle(CState st, int64_t t, int32_t* cards, int64_t m) noexcept nogil:
    """The reference's Fisher-Yates on ``cards[:m]`` (``j = int(random() * (i + 1))``)."""
    cdef uint32_t* g
    cdef int64_t i
    cdef int64_t j
    cdef int64_t x
    g = &st.rng[t, 0]
    for i in range(m - 1, 0, -1):
        j = <int64_t>(_mt_random(g) * (i + 1))
        x = cards[i]
        cards[i] = cards[j]
        cards[j] = x


cdef inline void _core_pile_to_bottom(CState st, int64_t t, int64_t card) noexcept nogil:
    """``pile.insert(0, card)``."""
    cdef int64_t i
    cdef int64_t m
    cdef int32_t* p
    cdef int64_t* s
    s = &st.s[t, 0]
    m = s[F_NPILE]
    p = &st.pile[t, 0]
    for i in range(m, 0, -1):
        p[i] = p[i - 1]
    p[0] = card
    s[F_NPILE] = m + 1


cdef void _core_deal(CState st, CTables tb, int64_t t, int64_t seed_lo, int64_t seed_hi, int64_t dealer) noexcept nogil:
    """``Game(rules, seed, dealer)``: clear the table, shuffle, deal, turn the starter."""
    _mt_seed_words(&st.rng[t, 0], seed_lo, seed_hi)
    _core_deal_seeded(st, tb, t, dealer)


cdef inline void _core_deal_seeded(CState st, CTables tb, int64_t t, int64_t dealer) noexcept nogil:
    """:func:`deal` with the table's generator already seeded (by :func:`mt.seed_many`)."""
    cdef int64_t _
    cdef int64_t first
    cdef int64_t i
    cdef int64_t m
    cdef int64_t n
    cdef int64_t* p
    cdef int32_t* pile
    cdef int64_t* s
    cdef int64_t size
    p = &tb.p[0]
    n = p[R_PLAYERS]
    s = &st.s[t, 0]
    for i in range(NFIELDS):
        s[i] = 0
    s[F_DIR] = 1
    s[F_COLOR] = -1
    s[F_RESUME] = -1
    s[F_EXPOSED] = -1
    s[F_LAST] = -1
    s[F_ECOLOR] = -1
    s[F_EOWNER] = -1
    s[F_GIVE_TARGET] = -1
    s[F_AFTER_COLOR] = -1
    s[F_WINNER] = -1
    s[F_DEALER] = dealer
    for i in range(n):
        st.hsize[t, i] = 0
        st.declared[t, i] = 0
        st.points[t, i] = 0
        st.scores[t, i] = 0
    for i in range(NREASONS):
        st.drawn_by[t, i] = 0
    size = p[R_DECK]
    pile = &st.pile[t, 0]
    first = (dealer + 1) % n
    while True:
        for i in range(size):
            pile[i] = tb.deck[i]
        _core_shuffle(st, t, pile, size)
        m = size
        for _ in range(p[R_HAND_SIZE]):
            for i in range(n):
                m -= 1
                _core_hand_append(st, t, (first + i) % n, pile[m])
        s[F_NPILE] = m
        if _core_turn_starter(st, tb, t):
            return
        for i in range(n):  # START-9: no card left may start: a fresh deck, dealt again
            st.hsize[t, i] = 0


cdef inline bint _core_starter_ok(CTables tb, int64_t card) noexcept nogil:
    """May ``card`` stay as the first card (START-5, START-7)?"""
    if tb.p[R_STARTER_NUMBER_ONLY] and not (card < NCOLORED and _KRANK[card] <= 9):
        return False
    return card != WILD4 or tb.p[R_STARTER_W4] == SW4_DEALER or tb.p[R_WILD_STARTER_STAYS] != 0


cdef inline bint _core_turn_starter(CState st, CTables tb, int64_t t) noexcept nogil:
    """Turn over the first card and apply START-1..8; False, with nothing turned, when no
    card left in the pile may start (START-9)."""
    cdef int64_t card
    cdef int64_t chooser
    cdef int64_t dealer
    cdef int64_t first
    cdef int64_t i
    cdef int64_t n
    cdef int64_t* p
    cdef bint possible
    cdef int64_t rank
    cdef int64_t* s
    cdef bint stays
    p = &tb.p[0]
    s = &st.s[t, 0]
    n = p[R_PLAYERS]
    dealer = s[F_DEALER]
    first = (dealer + 1) % n
    while True:
        s[F_NPILE] -= 1
        card = <int64_t>(st.pile[t, s[F_NPILE]])
        if _core_starter_ok(tb, card):
            break
        _core_pile_to_bottom(st, t, card)  # START-7, ATK-10 and START-5: back to the bottom
        if not (p[R_STARTER_NUMBER_ONLY] and not (card < NCOLORED and _KRANK[card] <= 9)) \
                and p[R_STARTER_W4] == SW4_RESHUFFLE:
            _core_shuffle(st, t, &st.pile[t, 0], s[F_NPILE])
        possible = False
        for i in range(s[F_NPILE]):
            if _core_starter_ok(tb, <int64_t>(st.pile[t, i])):
                possible = True
                break
        if not possible:
            return False
    st.disc[t, 0] = card
    s[F_NDISC] = 1
    s[F_LAST] = dealer
    if card >= NCOLORED:
        stays = p[R_WILD_STARTER_STAYS] != 0  # HR-WILDSTART: any wild only names a colour
        chooser = first
        if stays:
            if p[R_STARTER_WILD_CHOOSER]:
                chooser = dealer
        elif card == WILD4 or ((card == WILD or card == WILD_ATTACK) and p[R_STARTER_WILD_CHOOSER]):
            chooser = dealer
        if card == WILD_NATURE and not stays:
            s[F_EOWNER] = dealer
        s[F_AFTER_COLOR] = first
        s[F_AFTER_PEN] = 4 if card == WILD4 and not stays else 0
        s[F_TURN] = chooser
        s[F_PHASE] = COLOR
        return True
    s[F_COLOR] = _KCOLOR[card]
    s[F_JUMP] = p[R_JUMPON]  # 003: the starter counts as the dealer's play (HR-JUMP, HR-SUM)
    rank = _KRANK[card]
    if rank == REVERSE:  # START-2
        if p[R_STARTER_REVERSE]:  # the dealer's play: reversed, from the dealer's other side
            if n == 2:
                _core_set_turn(st, t, dealer)
            else:
                s[F_DIR] = -1
                _core_set_turn(st, t, (dealer - 1) % n)
            return True
        if n == 2:
            _core_set_turn(st, t, dealer)
        else:
            s[F_DIR] = -1
            _core_set_turn(st, t, dealer)
        return True
    if rank == SKIP:  # START-3
        _core_set_turn(st, t, (first + 1) % n)
        return True
    if rank == DRAW2 or rank == HIT2:  # START-1, START-8
        _core_start_penalty(st, tb, t, first, 2, P_D2 if rank == DRAW2 else P_H2)
        return True
    _core_set_turn(st, t, first)
    return True


cdef inline void _core_start_penalty(CState st, CTables tb, int64_t t, int64_t target, int64_t amount, int64_t kind) noexcept nogil:
    """A penalty on the first player from the starter, counted as the dealer's play."""
    cdef int64_t* s
    s = &st.s[t, 0]
    if _core_answerable(st, tb, t, kind):
        s[F_PEND] = amount
        s[F_PKIND] = kind
        _core_set_turn(st, t, target)
        return
    _core_penalize(st, tb, t, target, amount, D_STARTER)
    if s[F_PHASE] == OVER:
        return
    _core_set_turn(st, t, (target + s[F_DIR]) % tb.p[R_PLAYERS])


cdef inline int64_t _core_keep_equal(ints_p ids, int64_t m, int32_t* column, int64_t value) noexcept nogil:
    """Keep, in order, the ids of ``ids[:m]`` whose entry in an action column (``tb.a_color``,
    ``tb.a_target``...) is ``value``; returns how many (the bots' choice among variants)."""
    cdef int64_t i
    cdef int64_t k
    k = 0
    for i in range(m):
        if column[ids[i]] == value:
            ids[k] = ids[i]
            k += 1
    return k


cdef inline int64_t _core_prefer_plain(CTables tb, ints_p ids, int64_t m) noexcept nogil:
    """Keep the plays of ``ids[:m]`` that use no edition power, if there are any (the bots play
    a card plainly unless only its power is offered)."""
    cdef int64_t i
    for i in range(m):
        if tb.a_power[ids[i]] == POWER_NONE:
            return _core_keep_equal(ids, m, &tb.a_power[0], POWER_NONE)
    return m


cdef inline int64_t _core_uno_first(CTables tb, ints_p ids, int64_t m) noexcept nogil:
    """The first UNO-flagged id of ``ids[:m]``, else the first (the bots call UNO)."""
    cdef int64_t i
    for i in range(m):
        if tb.a_uno[ids[i]]:
            return <int64_t>(ids[i])
    return <int64_t>(ids[0])


cdef inline int64_t _core_legal(CState st, CTables tb, int64_t t, int64_t seat, int32_t* out) noexcept nogil:
    """Write the sorted legal ids of ``seat`` to ``out``; return how many."""
    cdef int64_t i
    cdef int64_t j
    cdef int64_t m
    cdef int64_t* s
    cdef int64_t x
    s = &st.s[t, 0]
    if s[F_PHASE] == OVER:
        return 0
    m = 0
    if seat == s[F_TURN]:
        m = _core_turn_ids(st, tb, t, seat, out, m)
    if s[F_EXPOSED] >= 0 or s[F_JUMP]:
        m = _core_window_ids(st, tb, t, seat, out, m)
    # insertion sort: the lists are short and nearly sorted
    for i in range(1, m):
        x = out[i]
        j = i - 1
        while j >= 0 and out[j] > x:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = x
    return m


cdef inline int64_t _core_window_seats(CState st, CTables tb, int64_t t, int64_t* out, int32_t* buf) noexcept nogil:
    """Seats other than the turn seat with an open window, from the last actor's left."""
    cdef int64_t i
    cdef int64_t m
    cdef int64_t n
    cdef int64_t* s
    cdef int64_t seat
    cdef int64_t start
    s = &st.s[t, 0]
    if s[F_PHASE] == OVER:
        return 0
    if s[F_EXPOSED] < 0 and not s[F_JUMP]:
        return 0
    n = tb.p[R_PLAYERS]
    start = s[F_LAST] if s[F_LAST] >= 0 else s[F_TURN]
    m = 0
    for i in range(1, n + 1):
        seat = (start + i) % n
        if seat != s[F_TURN] and _core_window_ids(st, tb, t, seat, buf, 0) > 0:
            out[m] = seat
            m += 1
    return m


cdef inline int64_t _core_window_ids(CState st, CTables tb, int64_t t, int64_t seat, int32_t* out, int64_t m) noexcept nogil:
    """Write the seat's out-of-turn ids at ``out[m:]``: its late UNO call or a catch of the exposed
    seat (UNO-2), and any jump-ins (HR-JUMP, HR-SUM); return the new count."""
    cdef int64_t ex
    cdef int64_t* s
    s = &st.s[t, 0]
    ex = s[F_EXPOSED]
    if ex >= 0:
        if ex == seat:
            out[m] = A_UNO
        else:
            out[m] = A_COLOR0 + tb.p[R_NCOL] + ex
        m += 1
    if s[F_JUMP] and seat != s[F_LAST]:
        if seat != s[F_TURN]:
            m = _core_jump_ids(st, tb, t, seat, False, out, m)
        elif s[F_PHASE] == PLAY and not s[F_PEND]:
            m = _core_jump_ids(st, tb, t, seat, True, out, m)
    return m


cdef inline int64_t _core_jump_ids(CState st, CTables tb, int64_t t, int64_t seat, bint sums_only, int32_t* out, int64_t m) noexcept nogil:
    """HR-JUMP and HR-SUM: plays out of turn on the card just played; the turn seat
    (``sums_only``) may make a sum play, never an identical card's jump-in."""
    cdef int64_t c
    cdef int64_t ci
    cdef int64_t* cnt
    cdef bint fresh
    cdef int64_t i
    cdef int64_t j
    cdef int64_t k
    cdef int64_t last
    cdef bint lock
    cdef int64_t ncards
    cdef int64_t ncol
    cdef int64_t need
    cdef bint ok
    cdef int64_t* p
    cdef int64_t r
    cdef int64_t* s
    cdef int64_t seen_hi
    cdef int64_t seen_lo
    cdef int64_t tg
    cdef int64_t total
    cdef int64_t tp
    s = &st.s[t, 0]
    p = &tb.p[0]
    tp = _core_top(st, t)
    if tp >= NCOLORED:
        return m
    lock = s[F_EFFECT] == E_LOCK and seat != s[F_EOWNER]
    if p[R_JUMP_IN] and not sums_only:
        seen_lo = 0
        seen_hi = 0
        for i in range(-1, s[F_NALT]):
            k = tp if i < 0 else <int64_t>(st.alt[t, i])
            seen_lo, seen_hi, fresh = _core_mark(seen_lo, seen_hi, k)
            if not fresh:
                continue
            if _core_hand_count(st, t, seat, k) and (not lock or _KCOLOR[k] == s[F_ECOLOR]):
                if tb.jump7[k] >= 0:  # HR-SEVEN-ZERO: a 7 names the seat to swap with
                    for tg in range(p[R_PLAYERS]):
                        if tg != seat:
                            m = _core_add_play(st, tb, t, seat, tb.jump7[k] + 2 * tg, 1, k, 0, False, out, m)
                else:
                    m = _core_add_play(st, tb, t, seat, tb.jump1[k], 1, k, 0, False, out, m)
    if p[R_SUM_JUMP_IN] != SUM_OFF and _KRANK[tp] <= 9:
        total = _KRANK[tp]
        ncol = p[R_NCOL]
        for ci in range(ncol):
            c = tb.colors[ci]
            if p[R_SUM_JUMP_IN] == SUM_SAME and c != _KCOLOR[tp]:
                continue
            if lock and c != s[F_ECOLOR]:
                continue
            cnt = &st.tmp[t, 0]
            for r in range(10):
                cnt[r] = 0
            for i in range(st.hsize[t, seat]):
                k = st.hands[t, seat, i]
                if k < NCOLORED and _KCOLOR[k] == c and _KRANK[k] <= 9:
                    cnt[_KRANK[k]] += 1
            for j in range(tb.sum_n[ci, total]):
                ok = True
                ncards = 0
                last = 0
                for r in range(10):
                    need = tb.sum_vec[ci, total, j, r]
                    if need > cnt[r]:
                        ok = False
                        break
                    if need:
                        ncards += need
                        last = r
                if ok:
                    m = _core_add_play(st, tb, t, seat, tb.sum_ids[ci, total, j], ncards, c * 15 + last, 0, False, out, m)
    return m


cdef inline int64_t _core_add_play(CState st, CTables tb, int64_t t, int64_t seat, int64_t aid, int64_t ncards, int64_t last, int64_t gone, bint pair, int32_t* out, int64_t m) noexcept nogil:
    """A play and its UNO-flagged twin where it leaves one card; plays that break number
    finish (HR-NUMFIN, ATK-6), HR-DOUBLE's UNO rule or HR-WILDFIN are refused. ``gone``: the colours a
    discard-all takes with it (a bit per colour)."""
    cdef int64_t left
    cdef int64_t* p
    p = &tb.p[0]
    left = _core_da_gone_left(st, t, seat, gone) if gone else st.hsize[t, seat] - ncards
    if left == 0:
        if p[R_NUMBER_FINISH] and not (last < NCOLORED and _KRANK[last] <= 9) and last != WILD_ATTACK:
            return m
        if p[R_NO_WILD_FINISH] and last >= NCOLORED:  # HR-WILDFIN: draw instead
            return m
        if p[R_DOUBLE_PLAY] and pair and not p[R_SILENT_UNO]:
            out[m] = aid + 1
            return m + 1
        out[m] = aid
        return m + 1
    out[m] = aid
    m += 1
    if left == 1 and not p[R_SILENT_UNO]:
        out[m] = aid + 1
        m += 1
    return m


cdef inline bint _core_matches(CState st, int64_t t, int64_t k, int64_t seat) noexcept nogil:
    """TURN-1 matching, with the Forces of Nature lock (FRZ-1)."""
    cdef int64_t i
    cdef int64_t r
    cdef int64_t* s
    s = &st.s[t, 0]
    if s[F_EFFECT] == E_LOCK and seat != s[F_EOWNER]:
        return <bint>(_KCOLOR[k] == s[F_ECOLOR])
    if k >= NCOLORED:
        return True
    if _KCOLOR[k] == s[F_COLOR]:
        return True
    r = _KRANK[k]
    if r == _KRANK[_core_top(st, t)]:
        return True
    for i in range(s[F_NALT]):
        if _KRANK[st.alt[t, i]] == r:
            return True
    return False


cdef inline bint _core_w4_ok(CState st, int64_t t, int64_t seat) noexcept nogil:
    """WD4-1: no card of the active colour in hand."""
    cdef int64_t color
    cdef int64_t i
    color = st.s[t, F_COLOR]
    for i in range(st.hsize[t, seat]):
        if _KCOLOR[st.hands[t, seat, i]] == color:
            return False
    return True


cdef inline int64_t _core_da_gone_left(CState st, int64_t t, int64_t seat, int64_t gone) noexcept nogil:
    """How many cards a discard-all taking the colours ``gone`` leaves (ATK-7)."""
    cdef int64_t c
    cdef int64_t i
    cdef int64_t left
    left = 0
    for i in range(st.hsize[t, seat]):
        c = _KCOLOR[st.hands[t, seat, i]]
        if c < 0 or not (gone >> c) & 1:
            left += 1
    return left


cdef inline int64_t _core_turn_ids(CState st, CTables tb, int64_t t, int64_t seat, int32_t* out, int64_t m) noexcept nogil:
    """Write the turn seat's ids at ``out[m:]`` for the phase: answers to a pending penalty, draw
    and the hand's plays, pass and the drawn card's plays, a colour, or a card to give; return
    the new count."""
    cdef bint fresh
    cdef int64_t i
    cdef int64_t k
    cdef int64_t m0
    cdef int64_t phase
    cdef int64_t* s
    cdef int64_t seen_hi
    cdef int64_t seen_lo
    s = &st.s[t, 0]
    phase = s[F_PHASE]
    if phase == PLAY:
        if s[F_PEND]:
            return _core_answer_ids(st, tb, t, seat, out, m)
        m0 = m
        m = _core_play_ids(st, tb, t, seat, &st.hands[t, seat, 0], st.hsize[t, seat], True, out, m)
        if not (tb.p[R_FORCE_PLAY] and m > m0):  # HR-FORCE: no draw beside a play
            out[m] = A_DRAW
            m += 1
        return m
    if phase == DRAWN:
        m0 = m
        m = _core_play_ids(st, tb, t, seat, &st.drawn[t, 0], s[F_NDRAWN], False, out, m)
        if not (tb.p[R_FORCED_DRAW_PLAY] and m > m0):  # HR-DRAWPLAY: no keeping
            out[m] = A_PASS
            m += 1
        return m
    if phase == COLOR:
        for i in range(tb.p[R_NCOL]):
            out[m] = A_COLOR0 + i
            m += 1
        return m
    if phase == GIVE:
        seen_lo = 0
        seen_hi = 0
        for i in range(st.hsize[t, seat]):
            k = <int64_t>(st.hands[t, seat, i])
            seen_lo, seen_hi, fresh = _core_mark(seen_lo, seen_hi, k)
            if not fresh:
                continue
            out[m] = tb.give[k]
            m += 1
    return m


cdef inline int64_t _core_play_ids(CState st, CTables tb, int64_t t, int64_t seat, int32_t* cards, int64_t ncards, bint is_hand, int32_t* out, int64_t m) noexcept nogil:
    """Every legal play from ``cards`` (the hand, or the drawn cards)."""
    cdef int64_t base
    cdef int64_t ci
    cdef bint fresh
    cdef int64_t gone
    cdef int64_t i
    cdef int64_t k
    cdef bint lock
    cdef int64_t n
    cdef int64_t* p
    cdef int64_t pw
    cdef int64_t r
    cdef int64_t* s
    cdef int64_t seen_hi
    cdef int64_t seen_lo
    cdef int64_t tg
    s = &st.s[t, 0]
    p = &tb.p[0]
    n = p[R_PLAYERS]
    lock = s[F_EFFECT] == E_LOCK and seat != s[F_EOWNER]
    seen_lo = 0
    seen_hi = 0
    for i in range(ncards):
        k = <int64_t>(cards[i])
        seen_lo, seen_hi, fresh = _core_mark(seen_lo, seen_hi, k)
        if not fresh:
            continue
        if lock:
            if _KCOLOR[k] != s[F_ECOLOR]:
                continue
        elif not _core_matches(st, t, k, seat):
            continue
        if k < NCOLORED:
            r = _KRANK[k]
            if r == DISCARD_ALL and _core_da_gone_left(st, t, seat, (<int64_t>1) << _KCOLOR[k]) == 0:
                continue
            gone = ((<int64_t>1) << _KCOLOR[k]) if r == DISCARD_ALL else 0
            if r == 7 and p[R_SEVEN_ZERO]:
                base = tb.play7[k]
                for tg in range(n):
                    if tg != seat:
                        m = _core_add_play(st, tb, t, seat, base + 2 * tg, 1, k, 0, False, out, m)
            else:
                m = _core_add_play(st, tb, t, seat, tb.play1[k], 1, k, gone, False, out, m)
            # double[k] is -1 for a kind played alone (a 7 or a 0 under seven-zero)
            if p[R_DOUBLE_PLAY] and is_hand and tb.double[k] >= 0 \
                    and _core_hand_count(st, t, seat, k) >= 2:
                m = _core_add_play(st, tb, t, seat, tb.double[k], 2, k, gone, True, out, m)
            if (p[R_MULTI_PLAY] or (p[R_SAME_NUMBER_PLAY] and r <= 9)) and is_hand and not _core_alone(tb, k):
                m = _core_multi_ids(st, tb, t, seat, k, lock, False, out, m)
        else:
            if k == WILD4 and p[R_W4STRICT] and not _core_w4_ok(st, t, seat):
                continue
            if k == WILD_ATTACK:
                for ci in range(p[R_NCOL]):
                    base = tb.wa[tb.colors[ci]]
                    for tg in range(n):
                        if tg != seat:
                            m = _core_add_play(st, tb, t, seat, base + 2 * tg, 1, k, 0, False, out, m)
                continue
            for ci in range(p[R_NCOL]):
                m = _core_add_play(st, tb, t, seat, tb.wild[k, tb.colors[ci]], 1, k, 0, False, out, m)
            if k == WILD and p[R_WILD_POWERS] and st.hsize[t, seat] != 1:
                for pw in range(2):
                    base = tb.power[pw]
                    for tg in range(n):
                        if tg != seat:
                            m = _core_add_play(st, tb, t, seat, base + 2 * tg, 1, k, 0, False, out, m)
    return m


cdef inline bint _core_alone(CTables tb, int64_t k) noexcept nogil:
    """HR-SEVEN-ZERO: a 7 or a 0 is always played alone (``engine.actions.alone``)."""
    return <bint>(tb.p[R_SEVEN_ZERO] and k < NCOLORED and (_KRANK[k] == 7 or _KRANK[k] == 0))


cdef inline int64_t _core_multi_ids(CState st, CTables tb, int64_t t, int64_t seat, int64_t first, bint lock, bint answers, int32_t* out, int64_t m) noexcept nogil:
    """ATK-4 plays starting with ``first``: copies of one number, or action cards of one rank
    in any colours (first, the middle ones in order, last). With ``answers`` only plays whose
    every card may answer the pending penalty; under a Forces of Nature ``lock`` only cards of
    the locked colour (FRZ-1). HR-SAMENUM: numbers of one number in any colours, as action
    cards are."""
    cdef int64_t aid
    cdef int64_t c
    cdef int64_t ci
    cdef int64_t* cnt
    cdef int64_t code
    cdef int64_t fs
    cdef int64_t gone
    cdef int64_t i
    cdef int64_t k
    cdef int64_t last
    cdef int64_t ls
    cdef int64_t* mid
    cdef int64_t ncol
    cdef int64_t* p
    cdef int64_t rank
    cdef int64_t size
    cdef int64_t w
    p = &tb.p[0]
    if _KRANK[first] <= 9 and not p[R_SAME_NUMBER_PLAY]:
        c = _core_hand_count(st, t, seat, first)
        for size in range(2, c + 1):
            m = _core_add_play(st, tb, t, seat, tb.nummulti[first, size], size, first, 0, False, out, m)
        return m
    rank = _KRANK[first]
    ncol = p[R_NCOL]
    cnt = &st.tmp[t, 16]
    for ci in range(4):
        cnt[ci] = 0
    for i in range(st.hsize[t, seat]):
        k = st.hands[t, seat, i]
        if k < NCOLORED and _KRANK[k] == rank:
            cnt[tb.slot[_KCOLOR[k]]] += 1
    fs = tb.slot[_KCOLOR[first]]
    cnt[fs] -= 1
    if lock:
        for ci in range(ncol):
            if tb.colors[ci] != st.s[t, F_ECOLOR]:
                cnt[ci] = 0
    if answers:
        for ci in range(ncol):
            if cnt[ci] and not _core_is_answer(st, tb, t, <int64_t>(tb.colors[ci]) * 15 + rank, seat):
                cnt[ci] = 0
    mid = &st.tmp[t, 20]
    for ls in range(ncol):
        if cnt[ls] == 0:
            continue
        cnt[ls] -= 1
        for ci in range(4):
            mid[ci] = 0
        while True:
            code = 0
            size = 2
            gone = ((<int64_t>1) << tb.colors[fs]) | ((<int64_t>1) << tb.colors[ls])
            w = 1
            for ci in range(4):
                code += mid[ci] * w
                w *= 3
                size += mid[ci]
                if mid[ci]:
                    gone |= (<int64_t>1) << tb.colors[ci]
            aid = tb.multi[rank, fs, ls, code]
            if aid >= 0:
                last = <int64_t>(tb.colors[ls]) * 15 + rank
                if rank == DISCARD_ALL:
                    if _core_da_gone_left(st, t, seat, gone) > 0:
                        m = _core_add_play(st, tb, t, seat, aid, size, last, gone, False, out, m)
                else:
                    m = _core_add_play(st, tb, t, seat, aid, size, last, 0, False, out, m)
            # next middle vector (odometer over the four colours)
            ci = 0
            while ci < ncol:
                if mid[ci] < cnt[ci]:
                    mid[ci] += 1
                    break
                mid[ci] = 0
                ci += 1
            if ci == ncol:
                break
        cnt[ls] += 1
    return m


cdef inline bint _core_answerable(CState st, CTables tb, int64_t t, int64_t kind) noexcept nogil:
    """EFF-0: do the rules give a penalty of this kind any answer?"""
    cdef int64_t* p
    p = &tb.p[0]
    if kind == P_D2:
        return <bint>(p[R_STACKING] != STACK_OFF)
    if kind == P_W4:
        return <bint>(p[R_STACK_DRAW4] or p[R_REVERSE_DEFLECTS_DRAW4] or p[R_DRAW2_ON_DRAW4] or (p[R_WD4_CHALLENGE] and not st.s[t, F_NOCHAL]))
    return kind == P_H2 or kind == P_WA


cdef inline bint _core_is_answer(CState st, CTables tb, int64_t t, int64_t k, int64_t seat) noexcept nogil:
    """May card ``k`` answer the pending penalty (HR-STACK, HR-STACK4, HR-4ON2, HR-REV4,
    HR-2ON4, ATK-8/9)?"""
    cdef int64_t kind
    cdef int64_t* p
    cdef int64_t r
    cdef int64_t* s
    s = &st.s[t, 0]
    p = &tb.p[0]
    kind = s[F_PKIND]
    if s[F_EFFECT] == E_LOCK and seat != s[F_EOWNER] and _KCOLOR[k] != s[F_ECOLOR]:
        return False
    if kind == P_D2:
        if k == WILD4:
            return <bint>(p[R_DRAW4_ON_DRAW2])
        r = _KRANK[k]
        if p[R_STACKING] == STACK_DRAW2:
            return <bint>(r == DRAW2)
        if k < NCOLORED and (r == SKIP or r == REVERSE or r == DRAW2):
            return <bint>(_KCOLOR[k] == s[F_COLOR] or r == _KRANK[_core_top(st, t)])
        return False
    if kind == P_W4:
        if k == WILD4:
            return <bint>(p[R_STACK_DRAW4])
        if k < NCOLORED and _KRANK[k] == REVERSE and p[R_REVERSE_DEFLECTS_DRAW4]:  # HR-REV4: named colour
            return <bint>(_KCOLOR[k] == s[F_COLOR] or _KRANK[_core_top(st, t)] == REVERSE)
        if k < NCOLORED and _KRANK[k] == DRAW2 and p[R_DRAW2_ON_DRAW4]:  # HR-2ON4: named colour
            return <bint>(_KCOLOR[k] == s[F_COLOR] or _KRANK[_core_top(st, t)] == DRAW2)
        return False
    if kind == P_H2:
        return k < NCOLORED and _KRANK[k] == HIT2
    if kind == P_WA:  # a Hit 2 of the named colour, or an attack-attack
        if k == WILD_ATTACK:  # an attack-attack of one's own, unless it is the last card
            return <bint>(st.hsize[t, seat] > 1)
        return <bint>(k < NCOLORED and _KRANK[k] == HIT2 and _KCOLOR[k] == s[F_COLOR])
    return False


cdef inline int64_t _core_answer_ids(CState st, CTables tb, int64_t t, int64_t seat, int32_t* out, int64_t m) noexcept nogil:
    """Write the ids of a seat facing a pending penalty at ``out[m:]`` (EFF-0): challenge and accept
    for a challengeable W4 (WD4-2), else draw, then every card that answers it (HR-STACK,
    HR-STACK4, HR-4ON2, ATK-8, ATK-9); return the new count."""
    cdef int64_t base
    cdef int64_t ci
    cdef bint fresh
    cdef int64_t i
    cdef int64_t k
    cdef int64_t* p
    cdef int64_t* s
    cdef int64_t seen_hi
    cdef int64_t seen_lo
    cdef int64_t tg
    s = &st.s[t, 0]
    p = &tb.p[0]
    if s[F_PKIND] == P_W4 and p[R_WD4_CHALLENGE] and not s[F_NOCHAL]:
        out[m] = A_CHALLENGE
        out[m + 1] = A_ACCEPT
        m += 2
    else:
        out[m] = A_DRAW
        m += 1
    seen_lo = 0
    seen_hi = 0
    for i in range(st.hsize[t, seat]):
        k = <int64_t>(st.hands[t, seat, i])
        seen_lo, seen_hi, fresh = _core_mark(seen_lo, seen_hi, k)
        if not fresh:
            continue
        if not _core_is_answer(st, tb, t, k, seat):
            continue
        if k == WILD4:
            for ci in range(p[R_NCOL]):
                m = _core_add_play(st, tb, t, seat, tb.wild[k, tb.colors[ci]], 1, k, 0, False, out, m)
            continue
        if k == WILD_ATTACK:
            for ci in range(p[R_NCOL]):
                base = tb.wa[tb.colors[ci]]
                for tg in range(p[R_PLAYERS]):
                    if tg != seat:
                        m = _core_add_play(st, tb, t, seat, base + 2 * tg, 1, k, 0, False, out, m)
            continue
        m = _core_add_play(st, tb, t, seat, tb.play1[k], 1, k, 0, False, out, m)
        if p[R_DOUBLE_PLAY] and tb.double[k] >= 0 and _core_hand_count(st, t, seat, k) >= 2:
            m = _core_add_play(st, tb, t, seat, tb.double[k], 2, k, 0, True, out, m)
        if p[R_MULTI_PLAY] and not _core_alone(tb, k):
            m = _core_multi_ids(st, tb, t, seat, k, False, True, out, m)
    return m


cdef inline void _core_step(CState st, CTables tb, int64_t t, int64_t aid, int64_t seat) noexcept nogil:
    """Apply a legal action id for a seat (the reference's ``Game.step``)."""
    cdef int64_t* s
    cdef int64_t v
    s = &st.s[t, 0]
    s[F_NACTIONS] += 1
    v = tb.a_verb[aid]
    if v == V_PLAY:
        s[F_EXPOSED] = -1
        s[F_JUMP] = 0
        _core_play(st, tb, t, seat, aid, False)
    elif v == V_DRAW:
        s[F_EXPOSED] = -1
        s[F_JUMP] = 0
        _core_draw_action(st, tb, t, seat)
    elif v == V_PASS:
        s[F_EXPOSED] = -1
        s[F_JUMP] = 0
        _core_advance(st, tb, t, seat, 0)
    elif v == V_CATCH:
        _core_catch(st, tb, t, seat, tb.a_target[aid])
    elif v == V_UNO:
        _core_uno(st, tb, t, seat)
    elif v == V_COLOR:
        _core_name_starter_color(st, tb, t, tb.a_color[aid])
    elif v == V_GIVE:
        _core_give(st, tb, t, seat, tb.a_cards[aid, 0])
    else:
        s[F_EXPOSED] = -1
        s[F_JUMP] = 0
        if v == V_JUMP:
            _core_play(st, tb, t, seat, aid, True)
        elif v == V_CHALLENGE:
            _core_challenge(st, tb, t, seat)
        elif v == V_ACCEPT:
            _core_take_pending(st, tb, t, seat)
        elif v == V_TIMEOUT:
            _core_timeout(st, tb, t, seat)


cdef inline void _core_set_turn(CState st, int64_t t, int64_t seat) noexcept nogil:
    """Give the turn to ``seat`` in the play phase, ending a forces-of-nature lock when its owner's
    turn comes (FRZ-2)."""
    cdef int64_t* s
    s = &st.s[t, 0]
    s[F_TURN] = seat
    s[F_PHASE] = PLAY
    if s[F_EFFECT] == E_LOCK and seat == s[F_EOWNER]:  # FRZ-2
        s[F_EFFECT] = E_NONE


cdef inline void _core_advance(CState st, CTables tb, int64_t t, int64_t seat, int64_t skips) noexcept nogil:
    """Pass the turn from ``seat`` to the next seat in the direction of play, jumping ``skips`` more
    seats (SEAT-2, EFF-3); ends a lock as :func:`set_turn` does."""
    cdef int64_t _
    cdef int64_t d
    cdef int64_t n
    cdef int64_t nxt
    cdef int64_t* s
    s = &st.s[t, 0]
    n = tb.p[R_PLAYERS]
    d = s[F_DIR]
    nxt = (seat + d) % n
    for _ in range(skips):
        nxt = (nxt + d) % n
    s[F_NDRAWN] = 0
    s[F_TURN] = nxt
    s[F_PHASE] = PLAY
    if s[F_EFFECT] == E_LOCK and nxt == s[F_EOWNER]:  # FRZ-2
        s[F_EFFECT] = E_NONE


cdef inline bint _core_refill(CState st, CTables tb, int64_t t) noexcept nogil:
    """TURN-6: the discard pile but its top becomes the draw pile; False if void."""
    cdef int32_t* disc
    cdef int64_t i
    cdef int64_t nd
    cdef int32_t* pile
    cdef int64_t* s
    cdef int64_t tp
    s = &st.s[t, 0]
    if tb.p[R_DECK_EXHAUSTED] and not s[F_CLOSING]:
        _core_end_void(st, tb, t, REASON_VOID)
        return False
    nd = s[F_NDISC]
    if nd <= 1:
        return False
    tp = st.disc[t, nd - 1]
    pile = &st.pile[t, 0]
    disc = &st.disc[t, 0]
    for i in range(nd - 1):
        pile[i] = disc[i]
    disc[0] = tp
    s[F_NDISC] = 1
    _core_shuffle(st, t, pile, nd - 1)
    s[F_NPILE] = nd - 1
    _core_note(st, t, LOG_RESHUFFLE, 0, 0)
    return True


cdef inline int64_t _core_take(CState st, CTables tb, int64_t t, int64_t seat, int64_t count, int64_t reason) noexcept nogil:
    """Move up to ``count`` cards from the draw pile to the end of a hand; how many moved
    (counted under ``reason``, one of :data:`DRAW_REASONS`); never past HR-HANDLIMIT."""
    cdef int64_t _
    cdef int64_t got
    cdef int64_t limit
    cdef int64_t* s
    s = &st.s[t, 0]
    got = 0
    limit = tb.p[R_HAND_LIMIT]
    if limit >= 0:
        count = min(count, limit - st.hsize[t, seat])
    for _ in range(count):
        if s[F_NPILE] == 0 and (s[F_PHASE] == OVER or not _core_refill(st, tb, t)):
            break
        s[F_NPILE] -= 1
        _core_hand_append(st, t, seat, st.pile[t, s[F_NPILE]])
        got += 1
    if got:
        st.drawn_by[t, reason] += got
        st.declared[t, seat] = 0
        if s[F_EXPOSED] == seat:
            s[F_EXPOSED] = -1
    return got


cdef inline int64_t _core_sample(double[::1] probs, int64_t lo, double x) noexcept nogil:
    """The index i (from ``lo``) where the running sum of ``probs[lo:]`` first exceeds ``x``."""
    cdef int64_t i
    for i in range(lo, probs.shape[0]):
        x -= probs[i]
        if x < 0:
            return i - lo
    return probs.shape[0] - 1 - lo


cdef inline int64_t _core_press(CState st, CTables tb, int64_t t, int64_t seat, int64_t reason) noexcept nogil:
    """ATK-2: one press of the launcher ejects k cards; how many reached the hand."""
    cdef uint32_t* g
    cdef int64_t got
    cdef int64_t i
    cdef int64_t k
    cdef int64_t* p
    cdef int64_t* s
    cdef double total
    s = &st.s[t, 0]
    p = &tb.p[0]
    g = &st.rng[t, 0]
    if p[R_LAUNCHER_MAX_DRY] >= 0 and s[F_DRY] >= p[R_LAUNCHER_MAX_DRY]:
        total = 0.0
        for i in range(1, p[R_NLAUNCH]):
            total += tb.launcher[i]
        k = 1 + _core_sample(tb.launcher, 1, _mt_random(g) * total)
    else:
        k = _core_sample(tb.launcher, 0, _mt_random(g))
    if s[F_NPILE] == 0 and s[F_PHASE] != OVER:
        _core_refill(st, tb, t)
    k = min(k, s[F_NPILE])
    s[F_DRY] = s[F_DRY] + 1 if k == 0 else 0
    got = _core_take(st, tb, t, seat, k, reason) if k else 0
    _core_note(st, t, LOG_TURN if reason == D_TURN else LOG_DRAW, seat, got)
    return got


cdef inline void _core_penalize(CState st, CTables tb, int64_t t, int64_t seat, int64_t amount, int64_t reason) noexcept nogil:
    """A penalty of ``amount`` cards (Attack: presses of the launcher)."""
    cdef int64_t _
    if tb.p[R_LAUNCH]:
        for _ in range(amount):
            if st.s[t, F_PHASE] == OVER:
                break
            _core_press(st, tb, t, seat, reason)
        return
    _core_note(st, t, LOG_DRAW, seat, _core_take(st, tb, t, seat, amount, reason))


cdef inline void _core_play(CState st, CTables tb, int64_t t, int64_t seat, int64_t aid, bint jump) noexcept nogil:
    """Play action ``aid``'s cards for ``seat`` (on its turn, or out of turn when ``jump``):
    discard, colour, UNO declaration or exposure (UNO-1), the round's end and every card effect,
    in the reference's order."""
    cdef int64_t _
    cdef bint answering
    cdef int64_t before
    cdef int64_t c
    cdef int32_t* cards
    cdef int64_t ci
    cdef int64_t count
    cdef int64_t d
    cdef int64_t flips
    cdef int64_t gone
    cdef int64_t guilty
    cdef int32_t* h
    cdef int64_t i
    cdef int64_t k
    cdef int64_t keep
    cdef int64_t kind
    cdef int64_t last
    cdef int64_t left
    cdef int64_t n
    cdef int64_t nc
    cdef int64_t nd
    cdef int64_t* p
    cdef int64_t passer
    cdef int64_t penalty
    cdef int64_t rank
    cdef int64_t* s
    cdef bint single
    cdef int64_t skips
    cdef int64_t target
    cdef int64_t total
    cdef int64_t xskip
    s = &st.s[t, 0]
    p = &tb.p[0]
    n = p[R_PLAYERS]
    nc = tb.a_ncards[aid]
    cards = &tb.a_cards[aid, 0]
    last = <int64_t>(cards[nc - 1])
    guilty = 0
    before = s[F_COLOR]
    if last == WILD4:  # WD4-1 guilt, judged on the hand before the play
        for i in range(st.hsize[t, seat]):
            k = st.hands[t, seat, i]
            if k != WILD4 and _KCOLOR[k] == before:
                guilty = 1
                break
    rank = _KRANK[last]
    single = nc == 1 and rank != DISCARD_ALL
    if single:
        _core_hand_remove(st, t, seat, last)
        st.disc[t, s[F_NDISC]] = last
        s[F_NDISC] += 1
    else:
        for i in range(nc):
            _core_hand_remove(st, t, seat, cards[i])
    if last >= NCOLORED:
        if tb.a_power[aid] == POWER_NONE:
            s[F_COLOR] = tb.a_color[aid]
    else:
        s[F_COLOR] = _KCOLOR[last]
    if not single:
        if rank == DISCARD_ALL:  # ATK-7: the colour's cards go under the DA
            gone = 0
            for i in range(nc):
                if _KRANK[cards[i]] == DISCARD_ALL:
                    gone |= (<int64_t>1) << _KCOLOR[cards[i]]
            h = &st.hands[t, seat, 0]
            keep = 0
            nd = s[F_NDISC]
            for i in range(st.hsize[t, seat]):
                k = h[i]
                c = _KCOLOR[k]
                if c >= 0 and (gone >> c) & 1:
                    st.disc[t, nd] = k
                    nd += 1
                else:
                    h[keep] = k
                    keep += 1
            st.hsize[t, seat] = keep
            s[F_NDISC] = nd
        for i in range(nc):
            st.disc[t, s[F_NDISC]] = cards[i]
            s[F_NDISC] += 1
        if jump:
            for i in range(nc - 1):
                st.alt[t, i] = cards[i]
            s[F_NALT] = nc - 1
        else:
            s[F_NALT] = 0
    else:
        s[F_NALT] = 0
    passer = s[F_LAST]  # who passed a pending total on to this seat (HR-REVENGE)
    s[F_LAST] = seat
    s[F_NDRAWN] = 0
    left = st.hsize[t, seat]
    if left == 1:
        if not p[R_SILENT_UNO]:  # HR-SILENT: nobody declares, nobody is caught
            st.declared[t, seat] = tb.a_uno[aid]
            if not tb.a_uno[aid]:
                s[F_EXPOSED] = seat
    elif st.declared[t, seat]:
        st.declared[t, seat] = 0
    if p[R_JUMPON] and last < NCOLORED:
        s[F_JUMP] = 1

    # -- effects (EFF-*, TWO-1, BUZZ-2, ATK-*, HR-*) ------------------------------------------
    answering = s[F_PEND] > 0
    count = nc
    skips = 0
    penalty = 0
    kind = s[F_PKIND]
    if rank <= 9:
        pass
    elif rank == SKIP:
        skips = 1 if p[R_DOUBLE_PLAY] and count == 2 and not jump else count
    elif rank == REVERSE:
        flips = 0 if p[R_DOUBLE_PLAY] and count == 2 and not jump else count
        if n == 2:
            skips = flips
        elif flips % 2:
            s[F_DIR] = -s[F_DIR]
    elif rank == DRAW2:
        penalty = 2 * count
        kind = kind if kind == P_W4 else P_D2
    elif rank == HIT2:
        penalty = 2 * count
        kind = P_H2
        s[F_RESUME] = -1
    elif last == WILD4:
        penalty = 4
        kind = P_W4
        s[F_NOCHAL] = 0
        if not answering or s[F_PKIND] != P_W4:
            s[F_NCHAIN] = 0
        ci = s[F_NCHAIN]
        st.chain[t, ci, 0] = seat
        st.chain[t, ci, 1] = guilty
        st.chain[t, ci, 2] = before
        s[F_NCHAIN] = ci + 1
    if answering and kind == P_W4 and last != WILD4:
        s[F_NOCHAL] = 1  # HR-REV4, HR-2ON4: passed on by another card, no more challenge
        s[F_NCHAIN] = 0  # a W4 stacked later starts the only run that can be judged
    if answering and n == 2 and (rank == SKIP or rank == REVERSE):
        skips = 0  # HR-STACK: with two players S and R pass the total to the opponent
    xskip = 0
    if s[F_EFFECT] == E_HYPER:  # BUZZ-2: a skip per card of the colour, in the order laid
        for i in range(nc):
            k = cards[i]
            if k < NCOLORED and _KCOLOR[k] == s[F_ECOLOR]:
                xskip += 1
            else:
                s[F_EFFECT] = E_NONE
                break
    if last >= NCOLORED and left:
        if last == WILD_HYPER:  # BUZZ-1
            s[F_EFFECT] = E_HYPER
            s[F_ECOLOR] = s[F_COLOR]
        elif last == WILD_NATURE:  # FRZ-1
            s[F_EFFECT] = E_LOCK
            s[F_ECOLOR] = s[F_COLOR]
            s[F_EOWNER] = seat

    if count >= 3 and rank <= 9 and not jump and p[R_BOMB]:
        # HR-BOMB: every other player draws one, from the next; before the round can end
        if left == 0:
            s[F_CLOSING] = 1
        for i in range(1, n):
            _core_penalize(st, tb, t, (seat + s[F_DIR] * i) % n, 1, D_BOMB)
            if s[F_PHASE] == OVER:
                return
    d = s[F_DIR]
    if left == 0:  # END-1, END-2: the next player first takes what this play gave them
        total = s[F_PEND] + penalty
        s[F_PEND] = 0
        s[F_PKIND] = P_NONE
        if total and last != WILD_ATTACK:
            target = (seat + d) % n
            for _ in range(skips):
                target = (target + d) % n
            if answering and not penalty and target == passer and p[R_REVENGE]:
                total *= 2  # HR-REVENGE
            s[F_CLOSING] = 1  # END-2 draws reshuffle but never void the round
            _core_penalize(st, tb, t, target, total, D_LAST_CARD)
        _core_end_round(st, tb, t, seat)
        return

    if p[R_SPECIAL] and _core_special_effects(st, tb, t, seat, aid, last, rank, left):
        return
    if penalty or answering:
        if penalty:
            s[F_PEND] += penalty
            s[F_PKIND] = kind
        target = (seat + d) % n
        for _ in range(skips):
            target = (target + d) % n
        if answering and not penalty and target == passer and p[R_REVENGE]:
            s[F_PEND] *= 2  # HR-REVENGE: a Skip or Reverse sent the total back: it doubles
        s[F_XSKIP] = xskip
        if not penalty or _core_answerable(st, tb, t, kind):
            _core_set_turn(st, t, target)
            return
        total = s[F_PEND]  # EFF-0: no answer possible, carried out at once
        s[F_PEND] = 0
        s[F_PKIND] = P_NONE
        s[F_XSKIP] = 0
        _core_penalize(st, tb, t, target, total, D_PKIND + kind)
        if s[F_PHASE] == OVER:
            return
        _core_advance(st, tb, t, target, xskip)
        return
    _core_advance(st, tb, t, seat, skips + xskip)


cdef inline bint _core_special_effects(CState st, CTables tb, int64_t t, int64_t seat, int64_t aid, int64_t last, int64_t rank, int64_t left) noexcept nogil:
    """HR-SEVEN-ZERO, HR-WILDPOWER and ATK-9; True when the turn has been settled here."""
    cdef int64_t d
    cdef int64_t i
    cdef int64_t n
    cdef int64_t* p
    cdef int64_t* s
    cdef int64_t target
    s = &st.s[t, 0]
    p = &tb.p[0]
    n = p[R_PLAYERS]
    target = tb.a_target[aid]
    if p[R_SEVEN_ZERO] and last < NCOLORED:
        if rank == 7 and target >= 0:
            _core_swap_hands(st, t, seat, target)
            _core_after_hands_move(st, tb, t)
        elif rank == 0:
            d = s[F_DIR]
            # new[s] = old[(s - d) % n]: a rotation by one seat in the play direction
            if d == 1:
                for i in range(n - 1, 0, -1):
                    _core_swap_hands(st, t, i, i - 1)
            else:
                for i in range(n - 1):
                    _core_swap_hands(st, t, i, i + 1)
            _core_after_hands_move(st, tb, t)
    elif last == WILD and tb.a_power[aid] == POWER_LOOK:
        pass  # the look shows a hand to its player: nothing changes on the table
    elif last == WILD and tb.a_power[aid] == POWER_SWAP:
        s[F_GIVE_LEFT] = min(3, left, st.hsize[t, target])  # an even exchange (003 五(十))
        s[F_GIVEN] = s[F_GIVE_LEFT]
        s[F_GIVE_TARGET] = target
        s[F_PHASE] = GIVE
        s[F_TURN] = seat
        return True
    elif last == WILD_ATTACK:
        s[F_PEND] += 2  # an answer to an attack adds its two presses (ATK-9)
        s[F_PKIND] = P_WA
        s[F_RESUME] = (seat + s[F_DIR]) % n
        s[F_NCHAIN] = 0
        _core_set_turn(st, t, target)
        return True
    return False


cdef inline void _core_swap_hands(CState st, int64_t t, int64_t a, int64_t b) noexcept nogil:
    """Exchange two seats' hands, order and size (HR-SEVEN-ZERO)."""
    cdef int32_t* ha
    cdef int32_t* hb
    cdef int64_t i
    cdef int64_t m
    cdef int64_t x
    cdef int64_t x2
    ha = &st.hands[t, a, 0]
    hb = &st.hands[t, b, 0]
    m = max(st.hsize[t, a], st.hsize[t, b])
    for i in range(m):
        x = ha[i]
        ha[i] = hb[i]
        hb[i] = x
    x2 = st.hsize[t, a]
    st.hsize[t, a] = st.hsize[t, b]
    st.hsize[t, b] = x2


cdef inline void _core_after_hands_move(CState st, CTables tb, int64_t t) noexcept nogil:
    """After hands change owners no UNO declaration stands and nobody is exposed to a catch."""
    cdef int64_t i
    for i in range(tb.p[R_PLAYERS]):
        st.declared[t, i] = 0
    st.s[t, F_EXPOSED] = -1


cdef inline void _core_give(CState st, CTables tb, int64_t t, int64_t seat, int64_t k) noexcept nogil:
    """One card of a wild-power swap goes to the target (HR-WILDPOWER); after the last one the
    player takes as many of the target's own cards at random and the turn passes."""
    cdef int64_t* s
    s = &st.s[t, 0]
    _core_hand_remove(st, t, seat, k)
    _core_hand_append(st, t, s[F_GIVE_TARGET], k)
    s[F_GIVE_LEFT] -= 1
    if s[F_GIVE_LEFT] == 0:
        _core_finish_swap(st, tb, t, seat)
        _core_advance(st, tb, t, seat, 0)


cdef inline void _core_finish_swap(CState st, CTables tb, int64_t t, int64_t seat) noexcept nogil:
    """The swap's second half: the W player takes random cards of the target's."""
    cdef int64_t _
    cdef uint32_t* g
    cdef int32_t* h
    cdef int64_t i
    cdef int64_t j
    cdef int64_t k
    cdef int64_t own
    cdef int64_t* s
    cdef int64_t tg
    s = &st.s[t, 0]
    tg = s[F_GIVE_TARGET]
    own = st.hsize[t, tg] - s[F_GIVEN]  # the given cards are at the end of the hand
    g = &st.rng[t, 0]
    for _ in range(min(s[F_GIVEN], own)):
        j = <int64_t>(_mt_random(g) * own)
        k = st.hands[t, tg, j]
        h = &st.hands[t, tg, 0]
        for i in range(j, st.hsize[t, tg] - 1):
            h[i] = h[i + 1]
        st.hsize[t, tg] -= 1
        _core_hand_append(st, t, seat, k)
        own -= 1
    _core_after_hands_move(st, tb, t)
    s[F_GIVE_TARGET] = -1


cdef inline void _core_draw_action(CState st, CTables tb, int64_t t, int64_t seat) noexcept nogil:
    """The ``draw`` verb: take a pending penalty if one is due (EFF-0), else draw (one card, until
    playable, or one launcher press); a playable drawn card opens the ``drawn`` phase, otherwise
    the turn passes (TURN-3, TURN-4, TURN-7)."""
    cdef int64_t drew
    cdef int64_t got
    cdef int64_t had
    cdef int64_t hs
    cdef int64_t i
    cdef int64_t k
    cdef int64_t nplay
    cdef int64_t one
    cdef int64_t* p
    cdef int64_t* s
    s = &st.s[t, 0]
    p = &tb.p[0]
    if s[F_PEND]:
        _core_take_pending(st, tb, t, seat)
        return
    if p[R_LAUNCH]:
        got = _core_press(st, tb, t, seat, D_TURN)
    elif p[R_DRAW_COUNT]:
        got = 0
        while True:
            one = _core_take(st, tb, t, seat, 1, D_TURN)
            if not one:
                break
            got += 1
            k = st.hands[t, seat, st.hsize[t, seat] - 1]
            if _core_playable_drawn(st, tb, t, seat, k):
                break
    else:
        got = _core_take(st, tb, t, seat, 1, D_TURN)
    if not p[R_LAUNCH]:
        _core_note(st, t, LOG_TURN, seat, got)
    if s[F_PHASE] == OVER:
        return
    drew = got
    if p[R_DRAW_COUNT] and got and not p[R_LAUNCH]:
        got = 1
    hs = st.hsize[t, seat]
    nplay = 0
    for i in range(hs - got if not p[R_BLIND_DRAW] else hs, hs):  # HR-BLIND: never played
        k = st.hands[t, seat, i]
        if _core_playable_drawn(st, tb, t, seat, k):
            st.drawn[t, nplay] = k
            nplay += 1
    if nplay and p[R_VOLUNTARY_DRAW_PLAY]:
        # TURN-4 may_not: a voluntary draw (the hand had a play) ends the turn
        st.hsize[t, seat] = hs - drew
        had = _core_play_ids(st, tb, t, seat, &st.hands[t, seat, 0], hs - drew, True, &st.work[t, 0], 0)
        st.hsize[t, seat] = hs
        if had:
            nplay = 0
    if nplay:
        s[F_NDRAWN] = nplay
        s[F_PHASE] = DRAWN
        return
    _core_advance(st, tb, t, seat, 0)
    if drew == 0 and p[R_HAND_LIMIT] >= 0 and _core_blocked(st, tb, t):
        _core_end_void(st, tb, t, REASON_BLOCKED)


cdef inline bint _core_blocked(CState st, CTables tb, int64_t t) noexcept nogil:
    """HR-HANDLIMIT: every hand holds the limit and no seat has a play on this top, so no card
    can ever move again."""
    cdef int64_t limit
    cdef int64_t n
    cdef int64_t seat
    limit = tb.p[R_HAND_LIMIT]
    n = tb.p[R_PLAYERS]
    for seat in range(n):
        if st.hsize[t, seat] < limit:
            return False
    for seat in range(n):
        if _core_play_ids(st, tb, t, seat, &st.hands[t, seat, 0], st.hsize[t, seat], True, &st.work[t, 0], 0):
            return False
    return True


cdef inline bint _core_playable_drawn(CState st, CTables tb, int64_t t, int64_t seat, int64_t k) noexcept nogil:
    """Whether drawn card ``k`` could be played by ``seat`` now (matching, the lock, WD4-1 when it
    applies, and the rule set having such a play)."""
    cdef int32_t* one
    cdef int32_t[::1] work
    if not _core_matches(st, t, k, seat):
        return False
    if k == WILD4 and tb.p[R_W4STRICT]:
        return _core_w4_ok(st, t, seat)
    work = st.work[t]
    one = &work[work.shape[0] - 1:][0]  # past anything play_ids writes (at most one id per action)
    one[0] = k
    return _core_play_ids(st, tb, t, seat, one, 1, False, &work[0], 0) > 0


cdef inline void _core_take_pending(CState st, CTables tb, int64_t t, int64_t seat) noexcept nogil:
    """Draw the whole pending total and lose the turn (EFF-0)."""
    cdef int64_t kind
    cdef int64_t resume
    cdef int64_t* s
    cdef int64_t total
    cdef int64_t xskip
    s = &st.s[t, 0]
    total = s[F_PEND]
    kind = s[F_PKIND]
    s[F_PEND] = 0
    s[F_PKIND] = P_NONE
    s[F_NCHAIN] = 0
    s[F_NOCHAL] = 0
    _core_penalize(st, tb, t, seat, total, D_PKIND + kind)
    if s[F_PHASE] == OVER:
        return
    xskip = s[F_XSKIP]
    s[F_XSKIP] = 0
    if kind == P_WA:
        resume = s[F_RESUME]
        s[F_RESUME] = -1
        s[F_NDRAWN] = 0
        _core_set_turn(st, t, resume)
        return
    s[F_RESUME] = -1
    _core_advance(st, tb, t, seat, xskip)


cdef inline void _core_challenge(CState st, CTables tb, int64_t t, int64_t seat) noexcept nogil:
    """WD4-2 and HR-CHAIN-CHALLENGE."""
    cdef int64_t i
    cdef int64_t j
    cdef int64_t nch
    cdef int64_t nguilty
    cdef int64_t rem
    cdef int64_t* s
    cdef int64_t share
    cdef int64_t total
    s = &st.s[t, 0]
    total = s[F_PEND]
    nch = s[F_NCHAIN]
    nguilty = 0
    for i in range(nch):
        if st.chain[t, i, 1]:
            nguilty += 1
    s[F_PEND] = 0
    s[F_PKIND] = P_NONE
    s[F_NCHAIN] = 0
    if nguilty:
        share = total // nguilty
        rem = total % nguilty
        j = 0
        for i in range(nch):
            if st.chain[t, i, 1]:
                _core_penalize(st, tb, t, <int64_t>(st.chain[t, i, 0]), share + (1 if j < rem else 0), D_GUILTY)
                j += 1
                if s[F_PHASE] == OVER:
                    return
        _core_set_turn(st, t, seat)  # the challenger plays on the named colour
        return
    _core_penalize(st, tb, t, seat, total + 2 * nch, D_INNOCENT)
    if s[F_PHASE] == OVER:
        return
    _core_advance(st, tb, t, seat, 0)


cdef inline void _core_catch(CState st, CTables tb, int64_t t, int64_t seat, int64_t target) noexcept nogil:
    """``seat`` calls out ``target``: the exposed seat draws ``uno_penalty`` (UNO-2), while a wrong
    catch costs the caller ``false_uno_penalty`` (UNO-3)."""
    cdef int64_t* s
    s = &st.s[t, 0]
    if target == s[F_EXPOSED]:
        s[F_EXPOSED] = -1
        _core_penalize(st, tb, t, target, tb.p[R_UNO_PENALTY], D_CAUGHT)
    else:  # UNO-3: a false catch costs the caller
        _core_penalize(st, tb, t, seat, tb.p[R_FALSE_UNO_PENALTY], D_FALSE_CATCH)


cdef inline void _core_uno(CState st, CTables tb, int64_t t, int64_t seat) noexcept nogil:
    """``seat`` declares UNO: it ends its exposure when it has one undeclared card (UNO-4), else
    costs it ``false_uno_penalty`` (UNO-3)."""
    cdef int64_t* s
    s = &st.s[t, 0]
    if seat == s[F_EXPOSED]:
        s[F_EXPOSED] = -1
        st.declared[t, seat] = 1
    else:
        _core_penalize(st, tb, t, seat, tb.p[R_FALSE_UNO_PENALTY], D_FALSE_UNO)


cdef inline void _core_name_starter_color(CState st, CTables tb, int64_t t, int64_t color) noexcept nogil:
    """START-4/5/6: the chooser names the colour of a wild starter."""
    cdef int64_t first
    cdef int64_t* s
    cdef int64_t tp
    s = &st.s[t, 0]
    s[F_COLOR] = color
    tp = _core_top(st, t)
    if tb.p[R_WILD_STARTER_STAYS]:  # HR-WILDSTART: no effect
        pass
    elif tp == WILD_HYPER:  # BUZZ-3
        s[F_EFFECT] = E_HYPER
        s[F_ECOLOR] = color
    elif tp == WILD_NATURE:  # FRZ-3
        s[F_EFFECT] = E_LOCK
        s[F_ECOLOR] = color
    first = s[F_AFTER_COLOR]
    if s[F_AFTER_PEN]:  # START-5 dealer_plays: the first player draws 4, no challenge
        s[F_NOCHAL] = 1
        s[F_NCHAIN] = 0
        _core_start_penalty(st, tb, t, first, s[F_AFTER_PEN], P_W4)
        s[F_NOCHAL] = 1 if s[F_PEND] > 0 else 0
        return
    _core_set_turn(st, t, first)


cdef inline void _core_timeout(CState st, CTables tb, int64_t t, int64_t seat) noexcept nogil:
    """HR-TIMER: the seat that must act ran out of time."""
    cdef uint32_t* g
    cdef int64_t j
    cdef int64_t* p
    cdef int64_t phase
    cdef int64_t* s
    s = &st.s[t, 0]
    p = &tb.p[0]
    phase = s[F_PHASE]
    g = &st.rng[t, 0]
    if phase == COLOR:
        _core_penalize(st, tb, t, seat, p[R_TIMER_PENALTY], D_TIMEOUT)
        if s[F_PHASE] != OVER:
            _core_name_starter_color(st, tb, t, tb.colors[<int64_t>(_mt_random(g) * p[R_NCOL])])
        return
    if phase == GIVE:
        _core_penalize(st, tb, t, seat, p[R_TIMER_PENALTY], D_TIMEOUT)
        while s[F_PHASE] == GIVE:
            j = <int64_t>(_mt_random(g) * st.hsize[t, seat])
            _core_give(st, tb, t, seat, st.hands[t, seat, j])
        return
    if s[F_PEND]:
        _core_penalize(st, tb, t, seat, p[R_TIMER_PENALTY], D_TIMEOUT)
        if s[F_PHASE] != OVER:
            _core_take_pending(st, tb, t, seat)
        return
    _core_penalize(st, tb, t, seat, p[R_TIMER_PENALTY], D_TIMEOUT)
    if s[F_PHASE] != OVER:
        _core_advance(st, tb, t, seat, 0)


cdef inline int64_t _core__hand_points(CState st, CTables tb, int64_t t) noexcept nogil:
    cdef int64_t i
    cdef int64_t pts
    cdef int64_t seat
    cdef int64_t total
    total = 0
    for seat in range(tb.p[R_PLAYERS]):
        pts = 0
        for i in range(st.hsize[t, seat]):
            pts += _POINTS[st.hands[t, seat, i]]
        st.points[t, seat] = pts
        total += pts
    return total


cdef inline void _core_end_round(CState st, CTables tb, int64_t t, int64_t winner) noexcept nogil:
    """``winner`` went out (END-1): count every hand's points (END-3), write the round's scores by
    the scoring rule and teams (MATCH-1..4) and end the round."""
    cdef int64_t lost
    cdef int64_t n
    cdef int64_t nt
    cdef int64_t* p
    cdef int64_t* s
    cdef int64_t* sc
    cdef int64_t seat
    cdef int64_t tm
    cdef int64_t total
    cdef int64_t wt
    s = &st.s[t, 0]
    p = &tb.p[0]
    n = p[R_PLAYERS]
    total = _core__hand_points(st, tb, t)
    sc = &st.scores[t, 0]
    if p[R_TEAMS]:
        nt = p[R_TEAMCOUNT]
        wt = winner % nt
        for tm in range(nt):
            sc[tm] = 0
        for seat in range(n):
            sc[seat % nt] += st.points[t, seat]
        lost = total - sc[wt]
        if p[R_SCORING] == SC_WINNER:  # MATCH-4: other teams' hands only
            for tm in range(nt):
                sc[tm] = lost if tm == wt else 0
        elif p[R_SCORING] != SC_PENALTY:
            for tm in range(nt):
                sc[tm] = lost if tm == wt else -sc[tm]
        for tm in range(nt, n):
            sc[tm] = 0
    elif p[R_SCORING] == SC_WINNER:  # MATCH-1
        for seat in range(n):
            sc[seat] = total if seat == winner else 0
    elif p[R_SCORING] == SC_PENALTY:  # MATCH-2
        for seat in range(n):
            sc[seat] = st.points[t, seat]
    else:  # MATCH-3 chips
        for seat in range(n):
            sc[seat] = total if seat == winner else -st.points[t, seat]
    if p[R_DOUBLE_SCORE]:  # HR-DOUBLESCORE: the winner's points (and chips paid) count twice
        for seat in range(n):
            sc[seat] *= 2
    s[F_WINNER] = winner
    s[F_REASON] = REASON_OUT
    s[F_PHASE] = OVER
    s[F_PEND] = 0
    s[F_PKIND] = P_NONE
    s[F_EXPOSED] = -1
    s[F_JUMP] = 0


cdef inline void _core_end_void(CState st, CTables tb, int64_t t, int64_t reason) noexcept nogil:
    """The round ends with no winner and no score (TURN-6 ``deck_exhausted: void``, or
    ``REASON_BLOCKED``: HR-HANDLIMIT's blocked table); hand points are still counted."""
    cdef int64_t i
    cdef int64_t* s
    s = &st.s[t, 0]
    _core__hand_points(st, tb, t)
    for i in range(tb.p[R_PLAYERS]):
        st.scores[t, i] = 0
    s[F_WINNER] = -1
    s[F_REASON] = reason
    s[F_PHASE] = OVER
    s[F_PEND] = 0
    s[F_PKIND] = P_NONE
    s[F_EXPOSED] = -1
    s[F_JUMP] = 0


