"""Seeds derived from one seed: the lab, the batch kernel and the learning environments give
every game, seat and purpose its own seed this way, so a run is the same in every process and
on every machine. Standard library only, below everything that plays many games."""

from __future__ import annotations

import hashlib

_MASK63 = (1 << 63) - 1


def derive(seed: int, *parts: object) -> int:
    """A 63-bit seed for one purpose of one game: the same arguments give the same seed in
    every process and on every machine (BLAKE2b of their text; Python's ``hash`` is salted)."""
    text = repr((seed, *parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") & _MASK63
