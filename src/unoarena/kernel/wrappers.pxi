def mt_seed_words(uint32_t[::1] mt, int64_t lo, int64_t hi):
    with nogil:
        _mt_seed_words(&mt[0], lo, hi)


def mt_seed(uint32_t[::1] mt, int64_t s):
    with nogil:
        _mt_seed(&mt[0], s)


def mt_genrand(uint32_t[::1] mt):
    cdef uint32_t _r
    with nogil:
        _r = _mt_genrand(&mt[0])
    return _r


def mt_random(uint32_t[::1] mt):
    cdef double _r
    with nogil:
        _r = _mt_random(&mt[0])
    return _r


def mt_getrandbits(uint32_t[::1] mt, int64_t k):
    cdef int64_t _r
    with nogil:
        _r = _mt_getrandbits(&mt[0], k)
    return _r


def mt_randbelow(uint32_t[::1] mt, int64_t n):
    cdef int64_t _r
    with nogil:
        _r = _mt_randbelow(&mt[0], n)
    return _r


def mt_seed_many(uint32_t[:, ::1] out, int64_t[::1] lo, int64_t[::1] hi, uint32_t[:, ::1] work):
    with nogil:
        _mt_seed_many(out, lo, &hi[0], work)


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


def core_shuffle(st, int64_t t, int32_t[::1] cards, int64_t m):
    cdef CState _st = _as_CState(st)
    with nogil:
        _core_shuffle(_st, t, &cards[0], m)


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


def core_legal(st, tb, int64_t t, int64_t seat, int32_t[::1] out):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _core_legal(_st, _tb, t, seat, &out[0])
    return _r


def core_window_seats(st, tb, int64_t t, int64_t[::1] out, int32_t[::1] buf):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _core_window_seats(_st, _tb, t, &out[0], &buf[0])
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


def core_play_ids(st, tb, int64_t t, int64_t seat, int32_t[::1] cards, int64_t ncards, bint is_hand, int32_t[::1] out, int64_t m):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _core_play_ids(_st, _tb, t, seat, &cards[0], ncards, is_hand, &out[0], m)
    return _r


def core_alone(tb, int64_t k):
    cdef CTables _tb = _as_CTables(tb)
    cdef bint _r
    with nogil:
        _r = _core_alone(_tb, k)
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


def core_give(st, tb, int64_t t, int64_t seat, int64_t k):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _core_give(_st, _tb, t, seat, k)


def core_draw_action(st, tb, int64_t t, int64_t seat):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _core_draw_action(_st, _tb, t, seat)


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


def kh_after(tr, st, tb, int64_t t):
    cdef CTracker _tr = _as_CTracker(tr)
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _kh_after(_tr, _st, _tb, t)


def kh_act(st, tb, tr, int64_t t, int64_t seat, int64_t player, double[::1] opt, int32_t[::1] ids, int64_t m):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef CTracker _tr = _as_CTracker(tr)
    cdef int64_t _r
    with nogil:
        _r = _kh_act(_st, _tb, _tr, t, seat, player, &opt[0], &ids[0], m)
    return _r


def kh_window(st, tb, tr, int64_t t, int64_t seat, int64_t player, double[::1] opt, int32_t[::1] ids, int64_t m):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef CTracker _tr = _as_CTracker(tr)
    cdef int64_t _r
    with nogil:
        _r = _kh_window(_st, _tb, _tr, t, seat, player, &opt[0], &ids[0], m)
    return _r


def kb_act(st, tb, int64_t t, int64_t seat, int64_t kind, int32_t[::1] ids, int64_t m, uint32_t[::1] g, int64_t[::1] scr):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _kb_act(_st, _tb, t, seat, kind, &ids[0], m, &g[0], &scr[0])
    return _r


def kb_decide(st, tb, tr, int64_t t, int64_t seat, bint in_window, int64_t kind, double[::1] opt, int32_t[::1] ids, int64_t m, uint32_t[::1] drv, uint32_t[::1] own, int64_t[::1] scr):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef CTracker _tr = _as_CTracker(tr)
    cdef int64_t _r
    with nogil:
        _r = _kb_decide(_st, _tb, _tr, t, seat, in_window, kind, &opt[0], &ids[0], m, &drv[0], &own[0], &scr[0])
    return _r


def kb_play_round(st, tb, int64_t t, int64_t[::1] who, int64_t[::1] kinds, double[:, ::1] opts, uint32_t[::1] drv, uint32_t[:, ::1] own, int64_t[::1] counts, int64_t[::1] chain_hist, int64_t max_actions, int32_t[::1] ids, int32_t[::1] buf, int64_t[::1] seats, int64_t[::1] scr, tr):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef CTracker _tr = _as_CTracker(tr)
    with nogil:
        _kb_play_round(_st, _tb, t, &who[0], &kinds[0], opts, &drv[0], own, &counts[0], &chain_hist[0], max_actions, &ids[0], &buf[0], &seats[0], &scr[0], _tr)


def kb_play_rounds(st, tb, int64_t[:, ::1] seeds, uint32_t[:, ::1] games, uint32_t[:, ::1] drivers, int64_t[::1] dealers, int64_t[:, ::1] kinds, double[:, :, ::1] opts, uint32_t[:, ::1] own, int64_t[:, ::1] counts, int64_t[::1] chain_hist, int64_t[::1] winners, int64_t[:, ::1] points, int64_t[:, ::1] scores, int64_t[:, ::1] drawn_by, int64_t max_actions, int32_t[::1] ids, int32_t[::1] buf, int64_t[::1] seats, int64_t[::1] scr, tr):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef CTracker _tr = _as_CTracker(tr)
    with nogil:
        _kb_play_rounds(_st, _tb, seeds, games, drivers, dealers, kinds, opts, own, counts, &chain_hist[0], &winners[0], points, scores, drawn_by, max_actions, &ids[0], &buf[0], &seats[0], &scr[0], _tr)


def km_first_dealer(tb, uint32_t[::1] g, int32_t[::1] deck, int64_t[::1] contenders, int64_t[::1] values):
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _km_first_dealer(_tb, &g[0], &deck[0], &contenders[0], &values[0])
    return _r


def ko_encode(st, tb, int64_t t, int64_t seat, bint window, int64_t[::1] lay, float[:, ::1] tmpl, int32_t[::1] ids, int64_t m, float[::1] out):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    with nogil:
        _ko_encode(_st, _tb, t, seat, window, &lay[0], tmpl, &ids[0], m, &out[0])


def ko_mask(int32_t[::1] ids, int64_t m, int64_t decline, int8_t[::1] out):
    with nogil:
        _ko_mask(&ids[0], m, decline, &out[0], out.shape[0])


def ko_encode_seat(st, tb, int64_t t, int64_t seat, bint window, int64_t[::1] lay, float[:, ::1] tmpl, int32_t[::1] ids, float[::1] out):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _ko_encode_seat(_st, _tb, t, seat, window, &lay[0], tmpl, &ids[0], &out[0])
    return _r


def kv_seed_tables(v, int64_t[:, ::1] words):
    cdef CVec _v = _as_CVec(v)
    with nogil:
        _kv_seed_tables(_v, words)


def kv_play(v, st, tb, int64_t t, int64_t aid, int64_t seat):
    cdef CVec _v = _as_CVec(v)
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef bint _r
    with nogil:
        _r = _kv_play(_v, _st, _tb, t, aid, seat)
    return _r


def kv_reset_batch(v, st, tb, float[:, ::1] obs, int8_t[:, ::1] msk):
    cdef CVec _v = _as_CVec(v)
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _kv_reset_batch(_v, _st, _tb, obs, msk)
    return _r


def kv_step_batch(v, st, tb, int64_t[::1] actions, float[:, ::1] obs, int8_t[:, ::1] msk, double[::1] rew, uint8_t[::1] term, uint8_t[::1] trunc, uint8_t[::1] fin, float[:, ::1] fin_obs, int8_t[:, ::1] fin_msk):
    cdef CVec _v = _as_CVec(v)
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _kv_step_batch(_v, _st, _tb, &actions[0], obs, msk, &rew[0], &term[0], &trunc[0], &fin[0], fin_obs, fin_msk)
    return _r


def kl_label_rounds(st, tb, tr, int64_t[:, ::1] game_words, int64_t[:, ::1] kinds, double[:, :, ::1] opts, int64_t[::1] seats_of, int64_t[::1] dealers, uint32_t[::1] drv, uint32_t[:, ::1] own, uint32_t[::1] rdrv, uint32_t[:, ::1] rown, uint32_t[::1] lab, int64_t[::1] p, int64_t[::1] lay, float[:, ::1] tmpl, float[:, ::1] obs, int32_t[:, ::1] oid, float[:, ::1] q, int64_t[:, ::1] meta, int32_t[::1] ids, int32_t[::1] keep, int32_t[::1] buf, int64_t[::1] seats, int64_t[::1] scr):
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef CTracker _tr = _as_CTracker(tr)
    cdef int64_t _r
    with nogil:
        _r = _kl_label_rounds(_st, _tb, _tr, game_words, kinds, opts, &seats_of[0], dealers, &drv[0], own, &rdrv[0], rown, &lab[0], &p[0], &lay[0], tmpl, obs, oid, q, meta, &ids[0], &keep[0], &buf[0], &seats[0], &scr[0])
    return _r


def km_play_match(st, tb, uint32_t[::1] mrng, uint32_t[::1] drv, uint32_t[:, ::1] own,
                  int64_t[::1] kinds, double[:, ::1] opts, int64_t max_actions, int64_t max_rounds,
                  int64_t[::1] result, int64_t[::1] winners, int64_t[:, ::1] counts,
                  int64_t[::1] chain_hist, int64_t[:, ::1] points, int64_t[:, ::1] scores,
                  int64_t[:, ::1] drawn_by, int64_t[::1] match_scores, int32_t[::1] ids,
                  int32_t[::1] buf, int64_t[::1] seats, int64_t[::1] scr, tr, tbs, trs):
    # a match switches tables when elimination deals fewer players: it keeps the GIL (the
    # lab runs matches in processes)
    _km_play_match(_as_CState(st), _as_CTables(tb), &mrng[0], &drv[0], own, &kinds[0], opts,
                   max_actions, max_rounds, result, winners, counts, &chain_hist[0], points,
                   scores, drawn_by, &match_scores[0], &ids[0], &buf[0], &seats[0], &scr[0],
                   _as_CTracker(tr),
                   tuple([_as_CTables(x) for x in tbs]), tuple([_as_CTracker(x) for x in trs]))


def kv_reset_range(v, st, tb, int64_t lo, int64_t hi, float[:, ::1] obs, int8_t[:, ::1] msk):
    cdef CVec _v = _as_CVec(v)
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _kv_reset_range(_v, _st, _tb, lo, hi, obs, msk)
    return _r


def kv_check_actions(v, int64_t[::1] actions):
    cdef CVec _v = _as_CVec(v)
    cdef int64_t _r
    with nogil:
        _r = _kv_check_actions(_v, &actions[0])
    return _r


def kv_step_range(v, st, tb, int64_t lo, int64_t hi, int64_t[::1] actions, float[:, ::1] obs,
                  int8_t[:, ::1] msk, double[::1] rew, uint8_t[::1] term, uint8_t[::1] trunc,
                  uint8_t[::1] fin, float[:, ::1] fin_obs, int8_t[:, ::1] fin_msk):
    cdef CVec _v = _as_CVec(v)
    cdef CState _st = _as_CState(st)
    cdef CTables _tb = _as_CTables(tb)
    cdef int64_t _r
    with nogil:
        _r = _kv_step_range(_v, _st, _tb, lo, hi, &actions[0], obs, msk, &rew[0], &term[0],
                            &trunc[0], &fin[0], fin_obs, fin_msk)
    return _r
