"""Action values by rollouts, compiled: what the ``learned`` bot is trained on.

A round is played on table 0 by the kernel's bots, every seat included (``heuristic`` or
``basic``). At a share of the *labelled seat*'s decisions that offer a choice, every option
(each legal id, and ``decline`` in a window) is tried on a copy of the table (table 1): the
copy's draw pile is shuffled and its generators reseeded, the option taken, and the round
played to its end by the same bots. Each option gets ``rollouts`` such copies, and the k-th
copy of every option uses the same shuffle and seeds (common random numbers), so options are
compared on the same luck. Written out per decision: the seat's observation (the vector
environment's encoding), its options and each one's mean result for the seat (+1 won, -1
lost, 0 for a void round; a team's win counts for each member), and the option the seat's own
bot took.

The copies hold the other seats' true hands. Over many rounds those are drawn from exactly the
hands a seat faces at such a moment, so a network fitted to these values learns each option's
expected result given what the seat sees, and playing its best option is one step of policy
improvement over the bots (:mod:`unoarena.train.distill`).

Nothing in the compiled part (``label.pxi``) allocates.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from . import bots as kb
from . import core, mt, observe
from . import heuristic as kh

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
U32 = npt.NDArray[np.uint32]
F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]

#: What :func:`play_on` returns: the stop seat must decide, the round is over, or it cannot go
#: on (no legal action, too many actions, a card tracker out of room).
ASK, OVER, STUCK = 0, 1, 2
# options: opt[P_...]
(P_ROLLOUTS, P_MAX_ACTIONS, P_DECLINE, P_PERMILLE, NPOPT) = range(5)
# per-decision integers written out: meta[row, M_...]
(M_NOPT, M_WINDOW, M_CHOSEN, M_SEAT, M_ROUND, NMETA) = range(6)


def buffers(players: int, n_actions: int) -> dict[str, Any]:
    """The scratch arrays :func:`label_rounds` needs for one rule set."""
    ids, buf, seats, scr = kb.scratch(n_actions, players)
    return {"ids": ids, "keep": np.empty(n_actions + 8, np.int32), "buf": buf,
            "seats": seats, "scr": scr,
            "drv": np.zeros(mt.MT_WORDS, np.uint32),
            "own": np.zeros((players, mt.MT_WORDS), np.uint32),
            "rdrv": np.zeros(mt.MT_WORDS, np.uint32),
            "rown": np.zeros((players, mt.MT_WORDS), np.uint32)}


class Labeller:
    """Labelled decisions of one rule set, a batch of rounds at a time (see the module
    docstring). ``bots`` are the seats' specs (``heuristic`` or ``basic``), rotated with the
    labelled seat so that it sits everywhere; ``rollouts`` copies per option; ``share`` of the
    labelled seat's decisions with a choice are labelled."""

    def __init__(self, rules: Any, bots: list[str], seed: int, *, rollouts: int = 16,
                 share: float = 0.5, max_actions: int = 3000) -> None:
        from ..encoding import Encoder
        from .runner import bot_options
        from .single import split_seed
        from .tables import compile_rules

        n = rules.players
        if len(bots) != n:
            raise ValueError(f"{len(bots)} bots for {n} seats")
        rows = [bot_options(b) for b in bots]
        if any(k == kb.BOT_RANDOM for k, _o in rows):
            raise ValueError("the labeller plays heuristic and basic seats, not random")
        self.rules = rules
        self.kr = compile_rules(rules)
        self.tb = core.tables_of(self.kr)
        self.st = core.new_state(2, n, rules.deck.size, self.kr.n_actions)
        self.tr = kh.new_tracker(2, self.kr)
        enc = Encoder(rules)
        self.size = enc.size
        self.lay = observe.layout_of(enc)
        self.tmpl = observe.templates(enc)
        self.kinds = np.array([k for k, _o in rows], np.int64)
        self.opts = np.stack([o for _k, o in rows])
        self.buf = buffers(n, self.kr.n_actions)
        self.p = np.zeros(NPOPT, np.int64)
        self.p[P_ROLLOUTS] = rollouts
        self.p[P_MAX_ACTIONS] = max_actions
        self.p[P_DECLINE] = self.kr.n_actions
        self.p[P_PERMILLE] = round(1000 * share)
        self.width = self.kr.n_actions + 8
        self.lab = np.zeros(mt.MT_WORDS, np.uint32)
        lo, hi = split_seed(seed)
        mt.seed_words(self.lab, lo, hi)
        self.rounds = 0
        self.seed = seed

    def run(self, rounds: int, cap: int) -> dict[str, npt.NDArray[Any]]:
        """Play ``rounds`` more rounds (or until ``cap`` decisions are labelled): the
        observations, the options (ids, ``-1`` padded; ``decline`` is the layout's id), their
        values and each row's :data:`M_NOPT`... integers."""
        n = self.rules.players
        first = self.rounds
        gen = np.random.default_rng([self.seed, first])
        words = gen.integers(0, 2**32, size=(rounds, 2), dtype=np.int64)
        dealers = (np.arange(first, first + rounds) % n).astype(np.int64)
        seats_of = ((np.arange(first, first + rounds) // n) % n).astype(np.int64)
        kinds = np.empty((rounds, n), np.int64)
        opts = np.empty((rounds, n, kh.NOPT), np.float64)
        for i in range(rounds):  # the bots turn with the labelled seat: its own bot first
            for s in range(n):
                j = (s - int(seats_of[i])) % n
                kinds[i, s] = self.kinds[j]
                opts[i, s] = self.opts[j]
        obs = np.zeros((cap, self.size), np.float32)
        oid = np.full((cap, self.width), -1, np.int32)
        q = np.zeros((cap, self.width), np.float32)
        meta = np.zeros((cap, NMETA), np.int64)
        b = self.buf
        got = label_rounds(self.st, self.tb, self.tr, words, kinds, opts, seats_of, dealers,
                           b["drv"], b["own"], b["rdrv"], b["rown"], self.lab, self.p,
                           self.lay, self.tmpl, obs, oid, q, meta, b["ids"], b["keep"],
                           b["buf"], b["seats"], b["scr"])
        if got < 0:
            raise RuntimeError(f"round {first - 1 - got} of the labeller could not be played "
                               f"({self.rules.preset}, {n} players)")
        self.rounds += rounds
        return {"obs": obs[:got], "ids": oid[:got], "q": q[:got], "meta": meta[:got]}


# the compiled functions (``_kernel.pyx``, part ``label.pxi``)
from . import _kernel  # noqa: E402

label_rounds = _kernel.kl_label_rounds
