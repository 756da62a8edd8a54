"""Advantages for PPO when other seats' moves come between the learning seat's decisions.

In self-play the vector tables also stop for the seats a past version plays, so a table's
steps interleave the learning seat's decisions with others'; only the learning seat's are
trained on, and a round may end on another seat's move. Needs numpy only (tested without
PyTorch).
"""

from __future__ import annotations

from typing import Any

import numpy as np

Array = np.ndarray[Any, Any]


def advantages(learn: Array, value: Array,
               reward: Array, done: Array,
               last: Array, last_learn: Array, gamma: float,
               lam: float) -> tuple[Array, Array]:
    """GAE advantages and returns ``(steps, tables)`` over each table's learning-seat decisions
    only (``learn``; zero elsewhere). A round ends on whichever seat's step ends it: its
    reward belongs to the learning seat's last decision before it. The value after a table's
    last decision is ``last`` when the learning seat is to act again, else that decision's own
    value (the round goes on in a past version's hands)."""
    steps, tables = learn.shape
    adv = np.zeros((steps, tables), np.float32)
    ret = np.zeros((steps, tables), np.float32)
    for b in range(tables):
        idx = np.flatnonzero(learn[:, b])
        if not len(idx):
            continue
        owner = np.searchsorted(idx, np.arange(steps), side="right") - 1
        r = np.zeros(len(idx))
        d = np.zeros(len(idx))
        for t in np.flatnonzero(done[:, b]):
            o = owner[t]
            if o >= 0 and not d[o]:  # a round that ended before any decision is not ours
                r[o] = reward[t, b]
                d[o] = 1.0
        v = value[idx, b].astype(np.float64)
        boot = last[b] if last_learn[b] else v[-1]
        nxt = np.append(v[1:], boot)
        g = 0.0
        out = np.zeros(len(idx))
        for i in range(len(idx) - 1, -1, -1):
            live = 1.0 - d[i]
            delta = r[i] + gamma * nxt[i] * live - v[i]
            g = delta + gamma * lam * live * g
            out[i] = g
        adv[idx, b] = out
        ret[idx, b] = out + v
    return adv, ret
