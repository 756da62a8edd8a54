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


# the compiled functions (``_kernel.pyx``, part ``observe.pxi``)
from . import _kernel  # noqa: E402

encode = _kernel.ko_encode
encode_seat = _kernel.ko_encode_seat
mask = _kernel.ko_mask
