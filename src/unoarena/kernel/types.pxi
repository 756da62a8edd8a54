cdef class CState:
    cdef int64_t[:, ::1] s
    cdef int32_t[:, :, ::1] hands
    cdef int64_t[:, ::1] hsize
    cdef int32_t[:, ::1] pile
    cdef int32_t[:, ::1] disc
    cdef int32_t[:, ::1] drawn
    cdef int64_t[:, ::1] declared
    cdef int32_t[:, ::1] alt
    cdef int64_t[:, :, ::1] chain
    cdef uint32_t[:, ::1] rng
    cdef int64_t[:, ::1] points
    cdef int64_t[:, ::1] scores
    cdef int64_t[:, ::1] drawn_by
    cdef int32_t[:, ::1] work
    cdef int64_t[:, ::1] tmp
    cdef int64_t[:, ::1] log

    def __init__(self, src):
        self.s = src.s
        self.hands = src.hands
        self.hsize = src.hsize
        self.pile = src.pile
        self.disc = src.disc
        self.drawn = src.drawn
        self.declared = src.declared
        self.alt = src.alt
        self.chain = src.chain
        self.rng = src.rng
        self.points = src.points
        self.scores = src.scores
        self.drawn_by = src.drawn_by
        self.work = src.work
        self.tmp = src.tmp
        self.log = src.log


cdef class CTables:
    cdef int64_t[::1] p
    cdef double[::1] launcher
    cdef int32_t[::1] deck
    cdef int32_t[::1] colors
    cdef int32_t[::1] slot
    cdef int32_t[::1] a_verb
    cdef int32_t[::1] a_ncards
    cdef int32_t[:, ::1] a_cards
    cdef int32_t[::1] a_color
    cdef int32_t[::1] a_target
    cdef int32_t[::1] a_power
    cdef int32_t[::1] a_uno
    cdef int32_t[::1] a_group
    cdef int32_t[::1] play1
    cdef int32_t[:, ::1] wild
    cdef int32_t[::1] play7
    cdef int32_t[::1] wa
    cdef int32_t[::1] power
    cdef int32_t[::1] double
    cdef int32_t[::1] jump1
    cdef int32_t[::1] jump7
    cdef int32_t[::1] give
    cdef int32_t[:, ::1] nummulti
    cdef int32_t[:, :, :, ::1] multi
    cdef int32_t[:, :, ::1] sum_ids
    cdef int32_t[:, :, :, ::1] sum_vec
    cdef int32_t[:, ::1] sum_n

    def __init__(self, src):
        self.p = src.p
        self.launcher = src.launcher
        self.deck = src.deck
        self.colors = src.colors
        self.slot = src.slot
        self.a_verb = src.a_verb
        self.a_ncards = src.a_ncards
        self.a_cards = src.a_cards
        self.a_color = src.a_color
        self.a_target = src.a_target
        self.a_power = src.a_power
        self.a_uno = src.a_uno
        self.a_group = src.a_group
        self.play1 = src.play1
        self.wild = src.wild
        self.play7 = src.play7
        self.wa = src.wa
        self.power = src.power
        self.double = src.double
        self.jump1 = src.jump1
        self.jump7 = src.jump7
        self.give = src.give
        self.nummulti = src.nummulti
        self.multi = src.multi
        self.sum_ids = src.sum_ids
        self.sum_vec = src.sum_vec
        self.sum_n = src.sum_n


cdef class CTracker:
    cdef int64_t[:, ::1] tf
    cdef int64_t[:, ::1] disc
    cdef int64_t[:, :, ::1] sf
    cdef int32_t[:, :, ::1] mine
    cdef int32_t[:, :, :, ::1] known
    cdef int64_t[:, :, ::1] nknown
    cdef int64_t[:, :, :, ::1] gcount
    cdef int64_t[:, :, :, ::1] gex0
    cdef int64_t[:, :, :, ::1] gex1
    cdef int64_t[:, :, :, ::1] glen
    cdef int64_t[:, :, ::1] ngroups
    cdef int32_t[:, :, ::1] snap
    cdef int64_t[:, ::1] nsnap
    cdef int64_t[:, :, ::1] stats
    cdef int64_t[::1] dcount
    cdef int64_t[:, ::1] cmask
    cdef int32_t[::1] hgroup
    cdef int64_t[:, ::1] cx
    cdef int32_t[:, ::1] hand
    cdef int32_t[:, ::1] rem
    cdef int64_t[:, ::1] cnt
    cdef int64_t[:, :, ::1] tg
    cdef int32_t[:, :, ::1] lst
    cdef double[:, ::1] fl

    def __init__(self, src):
        self.tf = src.tf
        self.disc = src.disc
        self.sf = src.sf
        self.mine = src.mine
        self.known = src.known
        self.nknown = src.nknown
        self.gcount = src.gcount
        self.gex0 = src.gex0
        self.gex1 = src.gex1
        self.glen = src.glen
        self.ngroups = src.ngroups
        self.snap = src.snap
        self.nsnap = src.nsnap
        self.stats = src.stats
        self.dcount = src.dcount
        self.cmask = src.cmask
        self.hgroup = src.hgroup
        self.cx = src.cx
        self.hand = src.hand
        self.rem = src.rem
        self.cnt = src.cnt
        self.tg = src.tg
        self.lst = src.lst
        self.fl = src.fl


cdef class CVec:
    cdef int64_t[:, ::1] ctl
    cdef int64_t[::1] opt
    cdef double[::1] scale
    cdef uint32_t[:, ::1] ep
    cdef uint32_t[:, ::1] drv
    cdef uint32_t[:, :, ::1] own
    cdef int32_t[:, ::1] ids
    cdef int64_t[:, ::1] kinds
    cdef double[:, :, ::1] opts
    cdef CTracker tr
    cdef int64_t[::1] lay
    cdef float[:, ::1] tmpl
    cdef uint32_t[::1] mrng
    cdef int32_t[::1] deck
    cdef int64_t[::1] cont
    cdef int64_t[::1] vals
    cdef int32_t[::1] buf
    cdef int32_t[::1] buf2
    cdef int64_t[::1] seats
    cdef int64_t[::1] scr

    def __init__(self, src):
        self.ctl = src.ctl
        self.opt = src.opt
        self.scale = src.scale
        self.ep = src.ep
        self.drv = src.drv
        self.own = src.own
        self.ids = src.ids
        self.kinds = src.kinds
        self.opts = src.opts
        self.tr = _as_CTracker(src.tr)
        self.lay = src.lay
        self.tmpl = src.tmpl
        self.mrng = src.mrng
        self.deck = src.deck
        self.cont = src.cont
        self.vals = src.vals
        self.buf = src.buf
        self.buf2 = src.buf2
        self.seats = src.seats
        self.scr = src.scr


