def mt_seed_words(uint32_t[:] mt, int64_t lo, int64_t hi):
    with nogil:
        _mt_seed_words(mt, lo, hi)


def mt_seed(uint32_t[:] mt, int64_t s):
    with nogil:
        _mt_seed(mt, s)


def mt__twist(uint32_t[:] mt):
    with nogil:
        _mt__twist(mt)


def mt_genrand(uint32_t[:] mt):
    cdef uint32_t _r
    with nogil:
        _r = _mt_genrand(mt)
    return _r


def mt_random(uint32_t[:] mt):
    cdef double _r
    with nogil:
        _r = _mt_random(mt)
    return _r


def mt_getrandbits(uint32_t[:] mt, int64_t k):
    cdef int64_t _r
    with nogil:
        _r = _mt_getrandbits(mt, k)
    return _r


def mt_randbelow(uint32_t[:] mt, int64_t n):
    cdef int64_t _r
    with nogil:
        _r = _mt_randbelow(mt, n)
    return _r


def mt_seed_many(uint32_t[:, :] out, int64_t[:] lo, int64_t[:] hi, uint32_t[:, :] work):
    with nogil:
        _mt_seed_many(out, lo, hi, work)


def mt__mix(uint32_t[:] row, uint32_t[:] prev, uint32_t[:] add, int64_t kk):
    with nogil:
        _mt__mix(row, prev, add, kk)


def mt__mix2(uint32_t[:] row, uint32_t[:] prev, uint32_t sub, int64_t kk):
    with nogil:
        _mt__mix2(row, prev, sub, kk)


def mt__copy(uint32_t[:] dst, uint32_t[:] src, int64_t kk):
    with nogil:
        _mt__copy(dst, src, kk)


def core_hand_remove(st, int64_t t, int64_t seat, int64_t k):
    cdef CState _st = _as_CState(st)
    with nogil:
        _core_hand_remove(_st, t, seat, k)


def core_hand_append(st, int64_t t, int64_t seat, int64_t k):
    cdef CState _st = _as_CState(st)
    with nogil:
        _core_hand_append(_st, t, seat, k)


def core_hand_count(st, int64_t t, int64_t seat, int64_t k):
    cdef CState _st = _as_CState(st)
    cdef int64_t _r
    with nogil:
        _r = _core_hand_count(_st, t, seat, k)
    return _r


def core_mark(int64_t lo, int64_t hi, int64_t k):
    cdef (int64_t, int64_t, bint) _r
    with nogil:
        _r = _core_mark(lo, hi, k)
    return _r


def core_note(st, int64_t t, int64_t what, int64_t seat, int64_t count):
    cdef CState _st = _as_CState(st)
    with nogil:
        _core_note(_st, t, what, seat, count)


def core_top(st, int64_t t):
    cdef CState _st = _as_CState(st)
    cdef int64_t _r
    with nogil:
        _r = _core_top(_st, t)
    return _r


def core_shuffle(st, int64_t t, int32_t[:] cards, int64_t m):
    cdef CState _st = _as_CState(st)
    with nogil:
        _core_shuffle(_st, t, cards, m)


def core_pile_to_bottom(st, int64_t t, int64_t card):
    cdef CState _st = _as_CState(st)
    with nogil:
        _core_pile_to_bottom(_st, t, card)


def core_deal(st, tb, int64_t t, int64_t seed_lo, int64_t seed_hi, int64_t dealer):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _core_deal(_st, _tb, t, seed_lo, seed_hi, dealer)


def core_deal_seeded(st, tb, int64_t t, int64_t dealer):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _core_deal_seeded(_st, _tb, t, dealer)


def core_starter_ok(tb, int64_t card):
    cdef CTables _tb = _as_CTables(tb)
    cdef bint _r
    with nogil:
        _r = _core_starter_ok(_tb, card)
    return _r


def core_turn_starter(st, tb, int64_t t):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef bint _r
    with nogil:
        _r = _core_turn_starter(_st, _tb, t)
    return _r


def core_start_penalty(st, tb, int64_t t, int64_t target, int64_t amount, int64_t kind):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _core_start_penalty(_st, _tb, t, target, amount, kind)


def core_legal(st, tb, int64_t t, int64_t seat, int32_t[:] out):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _core_legal(_st, _tb, t, seat, out)
    return _r


def core_window_seats(st, tb, int64_t t, int64_t[:] out, int32_t[:] buf):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _core_window_seats(_st, _tb, t, out, buf)
    return _r


def core_window_ids(st, tb, int64_t t, int64_t seat, int32_t[:] out, int64_t m):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _core_window_ids(_st, _tb, t, seat, out, m)
    return _r


def core_jump_ids(st, tb, int64_t t, int64_t seat, bint sums_only, int32_t[:] out, int64_t m):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _core_jump_ids(_st, _tb, t, seat, sums_only, out, m)
    return _r


def core_add_play(st, tb, int64_t t, int64_t seat, int64_t aid, int64_t ncards, int64_t last, int64_t gone, bint pair, int32_t[:] out, int64_t m):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _core_add_play(_st, _tb, t, seat, aid, ncards, last, gone, pair, out, m)
    return _r


def core_matches(st, int64_t t, int64_t k, int64_t seat):
    cdef CState _st = _as_CState(st)
    cdef bint _r
    with nogil:
        _r = _core_matches(_st, t, k, seat)
    return _r


def core_w4_ok(st, int64_t t, int64_t seat):
    cdef CState _st = _as_CState(st)
    cdef bint _r
    with nogil:
        _r = _core_w4_ok(_st, t, seat)
    return _r


def core_da_gone_left(st, int64_t t, int64_t seat, int64_t gone):
    cdef CState _st = _as_CState(st)
    cdef int64_t _r
    with nogil:
        _r = _core_da_gone_left(_st, t, seat, gone)
    return _r


def core_turn_ids(st, tb, int64_t t, int64_t seat, int32_t[:] out, int64_t m):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _core_turn_ids(_st, _tb, t, seat, out, m)
    return _r


def core_play_ids(st, tb, int64_t t, int64_t seat, int32_t[:] cards, int64_t ncards, bint is_hand, int32_t[:] out, int64_t m):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _core_play_ids(_st, _tb, t, seat, cards, ncards, is_hand, out, m)
    return _r


def core_alone(tb, int64_t k):
    cdef CTables _tb = _as_CTables(tb)
    cdef bint _r
    with nogil:
        _r = _core_alone(_tb, k)
    return _r


def core_multi_ids(st, tb, int64_t t, int64_t seat, int64_t first, bint lock, bint answers, int32_t[:] out, int64_t m):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _core_multi_ids(_st, _tb, t, seat, first, lock, answers, out, m)
    return _r


def core_answerable(st, tb, int64_t t, int64_t kind):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef bint _r
    with nogil:
        _r = _core_answerable(_st, _tb, t, kind)
    return _r


def core_is_answer(st, tb, int64_t t, int64_t k, int64_t seat):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef bint _r
    with nogil:
        _r = _core_is_answer(_st, _tb, t, k, seat)
    return _r


def core_answer_ids(st, tb, int64_t t, int64_t seat, int32_t[:] out, int64_t m):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _core_answer_ids(_st, _tb, t, seat, out, m)
    return _r


def core_step(st, tb, int64_t t, int64_t aid, int64_t seat):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _core_step(_st, _tb, t, aid, seat)


def core_set_turn(st, int64_t t, int64_t seat):
    cdef CState _st = _as_CState(st)
    with nogil:
        _core_set_turn(_st, t, seat)


def core_advance(st, tb, int64_t t, int64_t seat, int64_t skips):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _core_advance(_st, _tb, t, seat, skips)


def core_refill(st, tb, int64_t t):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef bint _r
    with nogil:
        _r = _core_refill(_st, _tb, t)
    return _r


def core_take(st, tb, int64_t t, int64_t seat, int64_t count, int64_t reason):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _core_take(_st, _tb, t, seat, count, reason)
    return _r


def core_sample(double[:] probs, int64_t lo, double x):
    cdef int64_t _r
    with nogil:
        _r = _core_sample(probs, lo, x)
    return _r


def core_press(st, tb, int64_t t, int64_t seat, int64_t reason):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _core_press(_st, _tb, t, seat, reason)
    return _r


def core_penalize(st, tb, int64_t t, int64_t seat, int64_t amount, int64_t reason):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _core_penalize(_st, _tb, t, seat, amount, reason)


def core_play(st, tb, int64_t t, int64_t seat, int64_t aid, bint jump):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _core_play(_st, _tb, t, seat, aid, jump)


def core_special_effects(st, tb, int64_t t, int64_t seat, int64_t aid, int64_t last, int64_t rank, int64_t left):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef bint _r
    with nogil:
        _r = _core_special_effects(_st, _tb, t, seat, aid, last, rank, left)
    return _r


def core_swap_hands(st, int64_t t, int64_t a, int64_t b):
    cdef CState _st = _as_CState(st)
    with nogil:
        _core_swap_hands(_st, t, a, b)


def core_after_hands_move(st, tb, int64_t t):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _core_after_hands_move(_st, _tb, t)


def core_give(st, tb, int64_t t, int64_t seat, int64_t k):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _core_give(_st, _tb, t, seat, k)


def core_finish_swap(st, tb, int64_t t, int64_t seat):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _core_finish_swap(_st, _tb, t, seat)


def core_draw_action(st, tb, int64_t t, int64_t seat):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _core_draw_action(_st, _tb, t, seat)


def core_blocked(st, tb, int64_t t):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef bint _r
    with nogil:
        _r = _core_blocked(_st, _tb, t)
    return _r


def core_playable_drawn(st, tb, int64_t t, int64_t seat, int64_t k):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef bint _r
    with nogil:
        _r = _core_playable_drawn(_st, _tb, t, seat, k)
    return _r


def core_take_pending(st, tb, int64_t t, int64_t seat):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _core_take_pending(_st, _tb, t, seat)


def core_challenge(st, tb, int64_t t, int64_t seat):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _core_challenge(_st, _tb, t, seat)


def core_catch(st, tb, int64_t t, int64_t seat, int64_t target):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _core_catch(_st, _tb, t, seat, target)


def core_uno(st, tb, int64_t t, int64_t seat):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _core_uno(_st, _tb, t, seat)


def core_name_starter_color(st, tb, int64_t t, int64_t color):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _core_name_starter_color(_st, _tb, t, color)


def core_timeout(st, tb, int64_t t, int64_t seat):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _core_timeout(_st, _tb, t, seat)


def core__hand_points(st, tb, int64_t t):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _core__hand_points(_st, _tb, t)
    return _r


def core_end_round(st, tb, int64_t t, int64_t winner):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _core_end_round(_st, _tb, t, winner)


def core_end_void(st, tb, int64_t t, int64_t reason):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _core_end_void(_st, _tb, t, reason)


def kh__has(int64_t e0, int64_t e1, int64_t k):
    cdef bint _r
    with nogil:
        _r = _kh__has(e0, e1, k)
    return _r


def kh__bits(int64_t x):
    cdef int64_t _r
    with nogil:
        _r = _kh__bits(x)
    return _r


def kh__opponent(tb, int64_t me, int64_t seat):
    cdef CTables _tb = _as_CTables(tb)
    cdef bint _r
    with nogil:
        _r = _kh__opponent(_tb, me, seat)
    return _r


def kh__urgency(st, int64_t t, int64_t seat):
    cdef CState _st = _as_CState(st)
    cdef int64_t _r
    with nogil:
        _r = _kh__urgency(_st, t, seat)
    return _r


def kh__sort_into(int32_t[:] src, int64_t m, int32_t[:] dst):
    with nogil:
        _kh__sort_into(src, m, dst)


def kh__add_group(tr, int64_t t, int64_t me, int64_t s, int64_t count, int64_t e0, int64_t e1, int64_t ln):
    cdef CTracker _tr = _as_CTracker(tr)
    cdef int64_t _r
    with nogil:
        _r = _kh__add_group(_tr, t, me, s, count, e0, e1, ln)
    return _r


def kh__del_group(tr, int64_t t, int64_t me, int64_t s, int64_t g):
    cdef CTracker _tr = _as_CTracker(tr)
    with nogil:
        _kh__del_group(_tr, t, me, s, g)


def kh__remove(tr, int64_t t, int64_t me, int64_t s, int64_t k):
    cdef CTracker _tr = _as_CTracker(tr)
    with nogil:
        _kh__remove(_tr, t, me, s, k)


def kh__forget(tr, int64_t t, int64_t me, int64_t s):
    cdef CTracker _tr = _as_CTracker(tr)
    with nogil:
        _kh__forget(_tr, t, me, s)


def kh__swap_rows(tr, int64_t t, int64_t me, int64_t a, int64_t b):
    cdef CTracker _tr = _as_CTracker(tr)
    with nogil:
        _kh__swap_rows(_tr, t, me, a, b)


def kh__give_mine(tr, int64_t t, int64_t me, int64_t other):
    cdef CTracker _tr = _as_CTracker(tr)
    with nogil:
        _kh__give_mine(_tr, t, me, other)


def kh__swap(tr, int64_t t, int64_t me, int64_t a, int64_t b):
    cdef CTracker _tr = _as_CTracker(tr)
    with nogil:
        _kh__swap(_tr, t, me, a, b)


def kh__rotate(tr, int64_t t, int64_t me, int64_t d, int64_t n):
    cdef CTracker _tr = _as_CTracker(tr)
    with nogil:
        _kh__rotate(_tr, t, me, d, n)


def kh__playable(tr, int64_t t, int64_t seat, int64_t k):
    cdef CTracker _tr = _as_CTracker(tr)
    cdef bint _r
    with nogil:
        _r = _kh__playable(_tr, t, seat, k)
    return _r


def kh__drew(tr, tb, int64_t t, int64_t me, int64_t s, int64_t count, bint turn):
    cdef CTracker _tr = _as_CTracker(tr)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _kh__drew(_tr, _tb, t, me, s, count, turn)


def kh__drop_mine(tr, int64_t t, int64_t me, int64_t k):
    cdef CTracker _tr = _as_CTracker(tr)
    with nogil:
        _kh__drop_mine(_tr, t, me, k)


def kh_begin(tr, st, tb, int64_t t, int64_t mask):
    cdef CTracker _tr = _as_CTracker(tr)
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _kh_begin(_tr, _st, _tb, t, mask)


def kh_before(tr, st, int64_t t, int64_t seat, int64_t aid):
    cdef CTracker _tr = _as_CTracker(tr)
    cdef CState _st = _as_CState(st)
    with nogil:
        _kh_before(_tr, _st, t, seat, aid)


def kh__read_log(tr, st, tb, int64_t t):
    cdef CTracker _tr = _as_CTracker(tr)
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _kh__read_log(_tr, _st, _tb, t)


def kh_after(tr, st, tb, int64_t t):
    cdef CTracker _tr = _as_CTracker(tr)
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _kh_after(_tr, _st, _tb, t)


def kh__after_play(tr, st, tb, int64_t t, int64_t actor, int64_t aid, int64_t skip):
    cdef CTracker _tr = _as_CTracker(tr)
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _kh__after_play(_tr, _st, _tb, t, actor, aid, skip)


def kh__observe(tr, st, tb, int64_t t, int64_t me, int64_t player):
    cdef CTracker _tr = _as_CTracker(tr)
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _kh__observe(_tr, _st, _tb, t, me, player)


def kh__without(tr, tb, int64_t t, int64_t aid):
    cdef CTracker _tr = _as_CTracker(tr)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _kh__without(_tr, _tb, t, aid)
    return _r


def kh__best_color(st, tb, tr, int64_t t, int32_t[:] cards, int64_t m, int64_t colors):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef CTracker _tr = _as_CTracker(tr)
    cdef int64_t _r
    with nogil:
        _r = _kh__best_color(_st, _tb, _tr, t, cards, m, colors)
    return _r


def kh__play_value(st, tb, tr, int64_t t, int64_t aid, double[:] opt, int64_t[:] stats):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef CTracker _tr = _as_CTracker(tr)
    cdef double _r
    with nogil:
        _r = _kh__play_value(_st, _tb, _tr, t, aid, opt, stats)
    return _r


def kh__is_bluff(tb, tr, int64_t t):
    cdef CTables _tb = _as_CTables(tb)
    cdef CTracker _tr = _as_CTracker(tr)
    cdef bint _r
    with nogil:
        _r = _kh__is_bluff(_tb, _tr, t)
    return _r


def kh__best_target(st, tb, int64_t t, int64_t me, int64_t targets):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _kh__best_target(_st, _tb, t, me, targets)
    return _r


def kh__variant(st, tb, tr, int64_t t, int32_t[:] var, int64_t nv):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef CTracker _tr = _as_CTracker(tr)
    cdef int64_t _r
    with nogil:
        _r = _kh__variant(_st, _tb, _tr, t, var, nv)
    return _r


def kh__best_play(st, tb, tr, int64_t t, int32_t[:] ids, int64_t m, double[:] opt, int64_t[:] stats):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef CTracker _tr = _as_CTracker(tr)
    cdef int64_t _r
    with nogil:
        _r = _kh__best_play(_st, _tb, _tr, t, ids, m, opt, stats)
    return _r


def kh__p_holds_color(st, tb, tr, int64_t t, int64_t seat, int64_t color):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef CTracker _tr = _as_CTracker(tr)
    cdef double _r
    with nogil:
        _r = _kh__p_holds_color(_st, _tb, _tr, t, seat, color)
    return _r


def kh__should_challenge(st, tb, tr, int64_t t, double[:] opt, int64_t[:] stats):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef CTracker _tr = _as_CTracker(tr)
    cdef bint _r
    with nogil:
        _r = _kh__should_challenge(_st, _tb, _tr, t, opt, stats)
    return _r


def kh__first(tb, int32_t[:] ids, int64_t m, int64_t verb):
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _kh__first(_tb, ids, m, verb)
    return _r


def kh_act(st, tb, tr, int64_t t, int64_t seat, int64_t player, double[:] opt, int32_t[:] ids, int64_t m):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef CTracker _tr = _as_CTracker(tr)
    cdef int64_t _r
    with nogil:
        _r = _kh_act(_st, _tb, _tr, t, seat, player, opt, ids, m)
    return _r


def kh__keep_value(tr, int64_t t, int64_t k):
    cdef CTracker _tr = _as_CTracker(tr)
    cdef double _r
    with nogil:
        _r = _kh__keep_value(_tr, t, k)
    return _r


def kh__keep_drawn(st, tb, tr, int64_t t, int64_t aid, double value):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef CTracker _tr = _as_CTracker(tr)
    cdef bint _r
    with nogil:
        _r = _kh__keep_drawn(_st, _tb, _tr, t, aid, value)
    return _r


def kh_window(st, tb, tr, int64_t t, int64_t seat, int64_t player, double[:] opt, int32_t[:] ids, int64_t m):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef CTracker _tr = _as_CTracker(tr)
    cdef int64_t _r
    with nogil:
        _r = _kh_window(_st, _tb, _tr, t, seat, player, opt, ids, m)
    return _r


def kb_best_color(st, int64_t t, int64_t seat, int64_t[:] colors, int64_t ncolors, uint32_t[:] g, int64_t[:] scr):
    cdef CState _st = _as_CState(st)
    cdef int64_t _r
    with nogil:
        _r = _kb_best_color(_st, t, seat, colors, ncolors, g, scr)
    return _r


def kb_weakest(st, int64_t t, int64_t[:] seats, int64_t nseats, uint32_t[:] g, int64_t[:] scr):
    cdef CState _st = _as_CState(st)
    cdef int64_t _r
    with nogil:
        _r = _kb_weakest(_st, t, seats, nseats, g, scr)
    return _r


def kb__add_distinct(int64_t[:] vals, int64_t n, int64_t v):
    cdef int64_t _r
    with nogil:
        _r = _kb__add_distinct(vals, n, v)
    return _r


def kb_basic_act(st, tb, int64_t t, int64_t seat, int32_t[:] ids, int64_t m, uint32_t[:] g, int64_t[:] scr):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _kb_basic_act(_st, _tb, t, seat, ids, m, g, scr)
    return _r


def kb_choose_play(st, tb, int64_t t, int64_t seat, int32_t[:] ids, int64_t m, int64_t group, uint32_t[:] g, int64_t[:] scr):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _kb_choose_play(_st, _tb, t, seat, ids, m, group, g, scr)
    return _r


def kb_act(st, tb, int64_t t, int64_t seat, int64_t kind, int32_t[:] ids, int64_t m, uint32_t[:] g, int64_t[:] scr):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _kb_act(_st, _tb, t, seat, kind, ids, m, g, scr)
    return _r


def kb_window(tb, int64_t kind, double decline, int32_t[:] ids, int64_t m, uint32_t[:] own):
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _kb_window(_tb, kind, decline, ids, m, own)
    return _r


def kb_decide(st, tb, tr, int64_t t, int64_t seat, bint in_window, int64_t kind, double[:] opt, int32_t[:] ids, int64_t m, uint32_t[:] drv, uint32_t[:] own, int64_t[:] scr):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef CTracker _tr = _as_CTracker(tr)
    cdef int64_t _r
    with nogil:
        _r = _kb_decide(_st, _tb, _tr, t, seat, in_window, kind, opt, ids, m, drv, own, scr)
    return _r


def kb_play_round(st, tb, int64_t t, int64_t[:] who, int64_t[:] kinds, double[:, :] opts, uint32_t[:] drv, uint32_t[:, :] own, int64_t[:] counts, int64_t[:] chain_hist, int64_t max_actions, int32_t[:] ids, int32_t[:] buf, int64_t[:] seats, int64_t[:] scr, tr):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef CTracker _tr = _as_CTracker(tr)
    with nogil:
        _kb_play_round(_st, _tb, t, who, kinds, opts, drv, own, counts, chain_hist, max_actions, ids, buf, seats, scr, _tr)


def kb__chain_done(int64_t length, int64_t[:] counts, int64_t[:] chain_hist):
    with nogil:
        _kb__chain_done(length, counts, chain_hist)


def kb_play_rounds(st, tb, int64_t[:, :] seeds, uint32_t[:, :] games, uint32_t[:, :] drivers, int64_t[:] dealers, int64_t[:, :] kinds, double[:, :, :] opts, uint32_t[:, :] own, int64_t[:, :] counts, int64_t[:] chain_hist, int64_t[:] winners, int64_t[:, :] points, int64_t[:, :] scores, int64_t[:, :] drawn_by, int64_t max_actions, int32_t[:] ids, int32_t[:] buf, int64_t[:] seats, int64_t[:] scr, tr):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef CTracker _tr = _as_CTracker(tr)
    with nogil:
        _kb_play_rounds(_st, _tb, seeds, games, drivers, dealers, kinds, opts, own, counts, chain_hist, winners, points, scores, drawn_by, max_actions, ids, buf, seats, scr, _tr)


def km_first_dealer(tb, uint32_t[:] g, int32_t[:] deck, int64_t[:] contenders, int64_t[:] values):
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _km_first_dealer(_tb, g, deck, contenders, values)
    return _r


def km__shuffle_seats(uint32_t[:] g, int64_t[:] seat_of, int64_t[:] perm, int64_t k, int64_t n):
    with nogil:
        _km__shuffle_seats(g, seat_of, perm, k, n)


def km__eliminate(st, tb, int64_t k, int64_t w, int64_t[:] gone):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _km__eliminate(_st, _tb, k, w, gone)
    return _r


def km__settled(tb, int64_t[:] sc, int64_t width, int64_t rounds, int64_t[:] result):
    cdef CTables _tb = _as_CTables(tb)
    cdef bint _r
    with nogil:
        _r = _km__settled(_tb, sc, width, rounds, result)
    return _r


def ko_encode(st, tb, int64_t t, int64_t seat, bint window, int64_t[:] lay, float[:, :] tmpl, int32_t[:] ids, int64_t m, float[:] out):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _ko_encode(_st, _tb, t, seat, window, lay, tmpl, ids, m, out)


def ko_mask(int32_t[:] ids, int64_t m, int64_t decline, int8_t[:] out):
    with nogil:
        _ko_mask(ids, m, decline, out)


def ko_encode_seat(st, tb, int64_t t, int64_t seat, bint window, int64_t[:] lay, float[:, :] tmpl, int32_t[:] ids, float[:] out):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _ko_encode_seat(_st, _tb, t, seat, window, lay, tmpl, ids, out)
    return _r


def kv_seed_tables(v, int64_t[:, :] words):
    cdef CVec _v = _as_CVec(v)
    with nogil:
        _kv_seed_tables(_v, words)


def kv_learner_acts(v, st, tb, int64_t t, int64_t window, int64_t declined, int64_t seat):
    cdef CVec _v = _as_CVec(v)
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _kv_learner_acts(_v, _st, _tb, t, window, declined, seat)
    return _r


def kv_play(v, st, tb, int64_t t, int64_t aid, int64_t seat):
    cdef CVec _v = _as_CVec(v)
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef bint _r
    with nogil:
        _r = _kv_play(_v, _st, _tb, t, aid, seat)
    return _r


def kv_bot_choice(v, st, tb, int64_t t, int64_t seat, bint window, int64_t m):
    cdef CVec _v = _as_CVec(v)
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _kv_bot_choice(_v, _st, _tb, t, seat, window, m)
    return _r


def kv_to_learner(v, st, tb, int64_t t, int64_t first):
    cdef CVec _v = _as_CVec(v)
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _kv_to_learner(_v, _st, _tb, t, first)
    return _r


def kv_start_episode(v, st, tb, int64_t t):
    cdef CVec _v = _as_CVec(v)
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _kv_start_episode(_v, _st, _tb, t)
    return _r


def kv_reward(v, st, tb, int64_t t):
    cdef CVec _v = _as_CVec(v)
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef double _r
    with nogil:
        _r = _kv_reward(_v, _st, _tb, t)
    return _r


def kv_write(v, st, tb, int64_t t, float[:] obs, int8_t[:] msk):
    cdef CVec _v = _as_CVec(v)
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _kv_write(_v, _st, _tb, t, obs, msk)


def kv_learner_step(v, st, tb, int64_t t, int64_t aid):
    cdef CVec _v = _as_CVec(v)
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _kv_learner_step(_v, _st, _tb, t, aid)
    return _r


def kv_legal_action(v, int64_t t, int64_t aid):
    cdef CVec _v = _as_CVec(v)
    cdef bint _r
    with nogil:
        _r = _kv_legal_action(_v, t, aid)
    return _r


def kv_reset_batch(v, st, tb, float[:, :] obs, int8_t[:, :] msk):
    cdef CVec _v = _as_CVec(v)
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _kv_reset_batch(_v, _st, _tb, obs, msk)
    return _r


def kv_step_batch(v, st, tb, int64_t[:] actions, float[:, :] obs, int8_t[:, :] msk, double[:] rew, uint8_t[:] term, uint8_t[:] trunc, uint8_t[:] fin, float[:, :] fin_obs, int8_t[:, :] fin_msk):
    cdef CVec _v = _as_CVec(v)
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _kv_step_batch(_v, _st, _tb, actions, obs, msk, rew, term, trunc, fin, fin_obs, fin_msk)
    return _r


def kl_copy_table(st, tr, int64_t src, int64_t dst):
    cdef CState _st = _as_CState(st)
    cdef CTracker _tr = _as_CTracker(tr)
    with nogil:
        _kl_copy_table(_st, _tr, src, dst)


def kl_apply(st, tb, tr, int64_t t, int64_t aid, int64_t seat):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef CTracker _tr = _as_CTracker(tr)
    cdef bint _r
    with nogil:
        _r = _kl_apply(_st, _tb, _tr, t, aid, seat)
    return _r


def kl_play_on(st, tb, tr, int64_t t, int64_t[:] kinds, double[:, :] opts, uint32_t[:] drv, uint32_t[:, :] own, int64_t stop, int64_t declined, int64_t max_actions, int32_t[:] ids, int32_t[:] buf, int64_t[:] seats, int64_t[:] scr):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef CTracker _tr = _as_CTracker(tr)
    cdef (int64_t, int64_t, int64_t, int64_t) _r
    with nogil:
        _r = _kl_play_on(_st, _tb, _tr, t, kinds, opts, drv, own, stop, declined, max_actions, ids, buf, seats, scr)
    return _r


def kl_result(st, tb, int64_t t, int64_t seat):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef double _r
    with nogil:
        _r = _kl_result(_st, _tb, t, seat)
    return _r


def kl_rollout(st, tb, tr, int64_t[:] kinds, double[:, :] opts, uint32_t[:] drv, uint32_t[:, :] own, int64_t seat, int64_t aid, int64_t declined, int64_t lo, int64_t hi, int64_t max_actions, int32_t[:] ids, int32_t[:] buf, int64_t[:] seats, int64_t[:] scr):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef CTracker _tr = _as_CTracker(tr)
    cdef double _r
    with nogil:
        _r = _kl_rollout(_st, _tb, _tr, kinds, opts, drv, own, seat, aid, declined, lo, hi, max_actions, ids, buf, seats, scr)
    return _r


def kl_label_round(st, tb, tr, int64_t[:] kinds, double[:, :] opts, uint32_t[:] drv, uint32_t[:, :] own, uint32_t[:] rdrv, uint32_t[:, :] rown, uint32_t[:] lab, int64_t seat, int64_t[:] p, int64_t[:] lay, float[:, :] tmpl, float[:, :] obs, int32_t[:, :] oid, float[:, :] q, int64_t[:, :] meta, int64_t row, int64_t round_no, int32_t[:] ids, int32_t[:] keep, int32_t[:] buf, int64_t[:] seats, int64_t[:] scr):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef CTracker _tr = _as_CTracker(tr)
    cdef int64_t _r
    with nogil:
        _r = _kl_label_round(_st, _tb, _tr, kinds, opts, drv, own, rdrv, rown, lab, seat, p, lay, tmpl, obs, oid, q, meta, row, round_no, ids, keep, buf, seats, scr)
    return _r


def kl_label_rounds(st, tb, tr, int64_t[:, :] game_words, int64_t[:, :] kinds, double[:, :, :] opts, int64_t[:] seats_of, int64_t[:] dealers, uint32_t[:] drv, uint32_t[:, :] own, uint32_t[:] rdrv, uint32_t[:, :] rown, uint32_t[:] lab, int64_t[:] p, int64_t[:] lay, float[:, :] tmpl, float[:, :] obs, int32_t[:, :] oid, float[:, :] q, int64_t[:, :] meta, int32_t[:] ids, int32_t[:] keep, int32_t[:] buf, int64_t[:] seats, int64_t[:] scr):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef CTracker _tr = _as_CTracker(tr)
    cdef int64_t _r
    with nogil:
        _r = _kl_label_rounds(_st, _tb, _tr, game_words, kinds, opts, seats_of, dealers, drv, own, rdrv, rown, lab, p, lay, tmpl, obs, oid, q, meta, ids, keep, buf, seats, scr)
    return _r


def km_play_match(st, tb, uint32_t[:] mrng, uint32_t[:] drv, uint32_t[:, :] own,
                  int64_t[:] kinds, double[:, :] opts, int64_t max_actions, int64_t max_rounds,
                  int64_t[:] result, int64_t[:] winners, int64_t[:, :] counts,
                  int64_t[:] chain_hist, int64_t[:, :] points, int64_t[:, :] scores,
                  int64_t[:, :] drawn_by, int64_t[:] match_scores, int32_t[:] ids,
                  int32_t[:] buf, int64_t[:] seats, int64_t[:] scr, tr, tbs, trs):
    # a match switches tables when elimination deals fewer players: it keeps the GIL (the
    # lab runs matches in processes)
    _km_play_match(_as_CState(st), _as_CTables(tb), mrng, drv, own, kinds, opts, max_actions,
                   max_rounds, result, winners, counts, chain_hist, points, scores, drawn_by,
                   match_scores, ids, buf, seats, scr, _as_CTracker(tr),
                   tuple([_as_CTables(x) for x in tbs]), tuple([_as_CTracker(x) for x in trs]))


def kv_reset_range(v, st, tb, int64_t lo, int64_t hi, float[:, :] obs, int8_t[:, :] msk):
    cdef CVec _v = _as_CVec(v)
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _kv_reset_range(_v, _st, _tb, lo, hi, obs, msk)
    return _r


def kv_check_actions(v, int64_t[:] actions):
    cdef CVec _v = _as_CVec(v)
    cdef int64_t _r
    with nogil:
        _r = _kv_check_actions(_v, actions)
    return _r


def kv_step_range(v, st, tb, int64_t lo, int64_t hi, int64_t[:] actions, float[:, :] obs,
                  int8_t[:, :] msk, double[:] rew, uint8_t[:] term, uint8_t[:] trunc,
                  uint8_t[:] fin, float[:, :] fin_obs, int8_t[:, :] fin_msk):
    cdef CVec _v = _as_CVec(v)
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _kv_step_range(_v, _st, _tb, lo, hi, actions, obs, msk, rew, term, trunc, fin,
                            fin_obs, fin_msk)
    return _r
