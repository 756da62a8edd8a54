"""Observations and action masks built in the kernel: :meth:`unoarena.encoding.Encoder.
encode_fast`, field by field, written into rows of preallocated arrays.

A vector environment encodes thousands of observations per call; building them in Python
would cost more than playing the game. The vector is the same versioned layout
(:data:`~unoarena.encoding.ENCODING_VERSION`): the offsets come from the Python encoder
(:func:`layout_of`), so the two cannot drift apart, and ``tests/kernel/test_vector_env.py``
compares them on the same states. Options: the default encoding and ``seer``; the public
history (``history > 0``) is refused (:class:`ObservationUnsupported`).

Fields that stay fixed for a round (match scores before it, teammates) are a per-seat
template row copied first (:func:`templates`); everything else is filled from the state.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..engine.cards import NKINDS
from . import core
from ._jit import inline, njit
from .core import State, Tables
from .tables import R_DECK, R_N, R_OPEN

I8 = npt.NDArray[np.int8]
I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
F32 = npt.NDArray[np.float32]

# offsets of the fields (L[...]): the hand is always at 0
(L_SIZES, L_DECLARED, L_EXPOSED, L_TURN, L_WINDOW, L_PHASE, L_TOP, L_COLOR, L_DIRECTION,
 L_DRAWN, L_PEND, L_SOURCE, L_EFFECT, L_ECOLOR, L_OWNER, L_PILE, L_SEER, L_SEER_PILE,
 L_OPEN, NLAYOUT) = range(20)
_FIELDS = ("hand_sizes", "uno_declared", "uno_exposed", "turn", "window", "phase", "top",
           "color", "direction", "drawn", "pending_amount", "pending_source", "effect",
           "effect_color", "effect_owner", "draw_pile")


class ObservationUnsupported(ValueError):
    """An encoder option the kernel does not build; the message says which and what to use."""


def layout_of(encoder: object) -> I64:
    """The offsets of an :class:`~unoarena.encoding.Encoder`'s fields, as the kernel reads
    them (``-1`` for the seer fields when the encoder has none)."""
    from ..encoding import Encoder

    if not isinstance(encoder, Encoder):
        raise TypeError(f"expected an Encoder, not {type(encoder).__name__}")
    if encoder.history:
        raise ObservationUnsupported(
            f"the compiled observation has no public history (history={encoder.history}): "
            "use history=0, or the Python environments (unoarena/Uno-v0, the AEC env)")
    by = encoder.by_name
    if by["hand"].offset != 0:
        raise ObservationUnsupported("the hand must be the first field of the encoding")
    out = np.full(NLAYOUT, -1, np.int64)
    for i, name in enumerate(_FIELDS):
        out[i] = by[name].offset
    if encoder.seer:
        out[L_SEER] = by["seer_hand1"].offset
        out[L_SEER_PILE] = by["seer_draw_pile"].offset
    if "open_hand1" in by:  # HR-OPEN: the open hands of relative seats 1.., one after another
        out[L_OPEN] = by["open_hand1"].offset
    return out


def templates(encoder: object, scores: npt.NDArray[np.float64] | None = None) -> F32:
    """Per observing seat, the vector with the round's fixed fields (``scores``: the match
    scores before the round, per seat; teammates) and zeros elsewhere: ``(players, size)``."""
    from ..encoding import SCORE_CLIP, Encoder

    assert isinstance(encoder, Encoder)
    n = encoder.players
    out = np.zeros((n, encoder.size), np.float32)
    o_scores = encoder.by_name["scores"].offset
    o_team = encoder.by_name["teammate"].offset
    div = float(encoder.rules.target_score)
    for seat in range(n):
        for i in range(n):
            s = (seat + i) % n
            if scores is not None:
                out[seat, o_scores + i] = max(-SCORE_CLIP, min(SCORE_CLIP, scores[s] / div))
            out[seat, o_team + i] = encoder._teams[seat][i]
    return out


@inline
def encode(st: State, tb: Tables, t: int, seat: int, window: bool, lay: I64, tmpl: F32,
           ids: I32, m: int, out: F32) -> None:
    """Write ``seat``'s observation of table ``t`` to the row ``out``; ``ids[:m]``: its legal
    ids when it acts now (they name the playable drawn cards), else ``m = 0``."""
    s = st.s[t]
    p = tb.p
    n = p[R_N]
    row = tmpl[seat]
    for i in range(len(out)):
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
    ex = s[core.F_EXPOSED]
    if ex >= 0:
        out[lay[L_EXPOSED] + (ex - seat) % n] = 1.0
    turn = s[core.F_TURN]
    out[lay[L_TURN] + (turn - seat) % n] = 1.0
    if window:
        out[lay[L_WINDOW]] = 1.0
    phase = s[core.F_PHASE]
    out[lay[L_PHASE] + phase] = 1.0
    out[lay[L_TOP] + st.disc[t, s[core.F_NDISC] - 1]] = 1.0
    if s[core.F_COLOR] >= 0:
        out[lay[L_COLOR] + s[core.F_COLOR]] = 1.0
    if s[core.F_DIR] == 1:
        out[lay[L_DIRECTION]] = 1.0
    if phase == core.DRAWN and turn == seat:
        o = lay[L_DRAWN]
        for i in range(m):
            aid = ids[i]
            if aid < len(tb.a_ncards) and tb.a_ncards[aid] > 0:
                out[o + tb.a_cards[aid, 0]] = 1.0
    pend = s[core.F_PEND]
    if pend:
        out[lay[L_PEND]] = min(pend, p[R_DECK])
        out[lay[L_SOURCE] + s[core.F_PKIND] - 1] = 1.0
    eff = s[core.F_EFFECT]
    if eff != core.E_NONE:
        out[lay[L_EFFECT] + eff - 1] = 1.0
        out[lay[L_ECOLOR] + s[core.F_ECOLOR]] = 1.0
        if eff == core.E_LOCK:
            out[lay[L_OWNER] + (s[core.F_EOWNER] - seat) % n] = 1.0
    out[lay[L_PILE]] = s[core.F_NPILE]
    if lay[L_OPEN] >= 0:  # HR-OPEN: the others' hands that lie face up
        for i in range(1, n):
            other = (seat + i) % n
            if st.hsize[t, other] <= p[R_OPEN]:
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
        for j in range(s[core.F_NPILE]):
            out[o + st.pile[t, j]] += 1.0


@inline
def mask(ids: I32, m: int, decline: int, out: I8) -> None:
    """The row ``out`` of a legal-action mask: ``ids[:m]``, and ``decline`` when it is >= 0."""
    for i in range(len(out)):
        out[i] = 0
    for i in range(m):
        out[ids[i]] = 1
    if decline >= 0:
        out[decline] = 1


@njit
def encode_seat(st: State, tb: Tables, t: int, seat: int, window: bool, lay: I64, tmpl: F32,
                ids: I32, out: F32) -> int:
    """:func:`encode` for one seat, its legal ids computed here (into ``ids``; returns how
    many): what a caller outside the vector environment (a test, a table driven from
    Python) uses."""
    m = core.legal(st, tb, t, seat, ids)
    encode(st, tb, t, seat, window, lay, tmpl, ids, m, out)
    return m

