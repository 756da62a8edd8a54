"""One kernel table driven from Python, action by action: what the differential test compares
with the reference engine, and a way to look inside the kernel when a difference shows."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..engine import RuleSet
from . import core
from .core import State, Tables
from .tables import compile_rules

I64 = npt.NDArray[np.int64]

_PKINDS = ("", "draw2", "draw4", "hit2", "attack")
_REASONS = ("", "out", "void", "blocked")  # core.REASON_*: how the engine names each


def split_seed(seed: int) -> tuple[int, int]:
    """The two 32-bit words CPython seeds MT19937 with for ``seed`` (``abs`` first, as
    ``random.seed`` does); seeds of 2**64 and more are refused."""
    s = abs(int(seed))
    if s >= 1 << 64:
        raise ValueError(f"seed {seed} is out of range for the compiled kernel: "
                         "use a seed below 2**64 in absolute value")
    return s & 0xFFFFFFFF, s >> 32


class KernelGame:
    """A round on the kernel with the reference ``Game``'s basic interface."""

    def __init__(self, rules: RuleSet, seed: int = 0, dealer: int = 0) -> None:
        n = rules.players
        if not 0 <= dealer < n:
            raise ValueError(f"dealer {dealer} is not a seat of a {n}-player game (0..{n - 1})")
        self.rules = rules
        self.kr = compile_rules(rules)
        self.tb: Tables = core.tables_of(self.kr)
        self.st: State = core.new_state(1, n, rules.deck.size, self.kr.n_actions)
        self._buf = np.empty(self.kr.n_actions + 8, np.int32)
        lo, hi = split_seed(seed)
        core.deal(self.st, self.tb, 0, lo, hi, dealer)

    @property
    def is_over(self) -> bool:
        """Whether the round has ended (won or void)."""
        return bool(self.st.s[0, core.F_PHASE] == core.OVER)

    @property
    def turn(self) -> int:
        """The seat whose turn it is."""
        return int(self.st.s[0, core.F_TURN])

    def legal_ids(self, seat: int) -> list[int]:
        """The seat's legal action ids now, sorted (turn and window ids together)."""
        m = core.legal(self.st, self.tb, 0, seat, self._buf)
        return [int(x) for x in self._buf[:m]]

    def window_seats(self) -> list[int]:
        """The seats other than the turn seat with an open window, in DIG-3 order from the last
        actor's left."""
        out = np.empty(self.rules.players, np.int64)
        m = core.window_seats(self.st, self.tb, 0, out, self._buf)
        return [int(x) for x in out[:m]]

    def step(self, aid: int, seat: int) -> None:
        """Apply action id ``aid`` for ``seat``. The kernel trusts it: pass only an id from
        :meth:`legal_ids`."""
        core.step(self.st, self.tb, 0, aid, seat)

    def snapshot(self) -> dict[str, Any]:
        """The state in the terms of :func:`reference_snapshot`."""
        st, n = self.st, self.rules.players
        s = st.s[0]

        def seq(a: npt.NDArray[Any], m: int) -> tuple[int, ...]:
            return tuple(int(x) for x in a[:m])

        over = s[core.F_PHASE] == core.OVER
        reason = int(s[core.F_REASON])
        width = self.rules.team_count or n
        return {
            "hands": tuple(seq(st.hands[0, i], int(st.hsize[0, i])) for i in range(n)),
            "pile": seq(st.pile[0], int(s[core.F_NPILE])),
            "discard": seq(st.disc[0], int(s[core.F_NDISC])),
            "color": int(s[core.F_COLOR]),
            "alt": seq(st.alt[0], int(s[core.F_NALT])),
            "direction": int(s[core.F_DIR]),
            "turn": int(s[core.F_TURN]),
            "phase": int(s[core.F_PHASE]),
            "pending": (int(s[core.F_PEND]), _PKINDS[int(s[core.F_PKIND])]),
            "resume": int(s[core.F_RESUME]),
            "chain": tuple((int(st.chain[0, i, 0]), bool(st.chain[0, i, 1]),
                            int(st.chain[0, i, 2])) for i in range(int(s[core.F_NCHAIN]))),
            "nochallenge": bool(s[core.F_NOCHAL]),
            "drawn": seq(st.drawn[0], int(s[core.F_NDRAWN])),
            "declared": tuple(bool(x) for x in st.declared[0, :n]),
            "exposed": int(s[core.F_EXPOSED]),
            "jump": bool(s[core.F_JUMP]),
            "last": int(s[core.F_LAST]),
            "effect": (int(s[core.F_EFFECT]), int(s[core.F_ECOLOR]), int(s[core.F_EOWNER])),
            "give": (int(s[core.F_GIVE_LEFT]), int(s[core.F_GIVE_TARGET]),
                     int(s[core.F_GIVEN])),
            "after_color": (int(s[core.F_AFTER_COLOR]), int(s[core.F_AFTER_PEN])),
            "dry": int(s[core.F_DRY]),
            "xskip": int(s[core.F_XSKIP]),
            "actions": int(s[core.F_NACTIONS]),
            "rng": self._rng_state(),
            "outcome": None if not over else (
                None if reason != core.REASON_OUT else int(s[core.F_WINNER]),
                _REASONS[reason],
                tuple(int(x) for x in st.points[0, :n]),
                tuple(int(x) for x in st.scores[0, :width])),
        }

    def _rng_state(self) -> tuple[int, ...]:
        return tuple(int(x) for x in self.st.rng[0])


def reference_snapshot(game: Any) -> dict[str, Any]:
    """The same facts read from a reference :class:`~unoarena.engine.Game`."""
    g = game.state
    out = g.outcome
    rng = g.rng.getstate()[1]
    return {
        "hands": tuple(tuple(h) for h in g.hands),
        "pile": tuple(g.pile),
        "discard": tuple(g.discard),
        "color": g.color,
        "alt": tuple(g.alt),
        "direction": g.dir,
        "turn": g.turn,
        "phase": g.phase,
        "pending": (g.pend, _PKINDS[g.pkind]),
        "resume": g.resume,
        "chain": tuple((s, bool(gu), before) for s, gu, _snap, before in g.chain),
        "nochallenge": bool(g.nochallenge),
        "drawn": tuple(g.drawn),
        "declared": tuple(bool(x) for x in g.declared),
        "exposed": g.exposed,
        "jump": bool(g.jump),
        "last": g.last,
        "effect": (g.effect, g.ecolor, g.eowner),
        "give": (g.give_left, g.give_target, g.given),
        "after_color": (g.after_color, g.after_color_pen),
        "dry": g.dry,
        "xskip": g.xskip,
        "actions": len(g.history),
        "rng": tuple(rng),
        "outcome": None if out is None else (out.winner, out.reason, tuple(out.hand_points),
                                             tuple(out.scores)),
    }
