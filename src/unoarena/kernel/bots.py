"""The ``random``, ``basic`` and ``heuristic`` bots and the sequential driver (DIG-3),
compiled.

Each bot makes the decision its Python namesake (:mod:`unoarena.bots.simple`,
:mod:`unoarena.bots.heuristic`) makes from the same legal ids and the same generators, drawing
the same numbers in the same order: the driver's generator for decisions on the seat's turn,
the bot's own for its window decisions (the heuristic draws none). :func:`play_round` is
:func:`unoarena.driver.play_round`: windows are offered from the last actor's left, a seat that
declined is not asked again until an action other than a catch or an UNO call, then the turn
seat acts; the heuristic seats' card trackers (:mod:`unoarena.kernel.heuristic`) follow every
step. It also keeps the lab's per-round counts (turns and penalty chains, as
:class:`unoarena.lab.common.RoundTracker` does).

:func:`act` and :func:`window` are the bots without a tracker (``random``, ``basic``); the
drivers here call the heuristic's own.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
U32 = npt.NDArray[np.uint32]
F64 = npt.NDArray[np.float64]

BOT_RANDOM, BOT_BASIC, BOT_HEURISTIC = 0, 1, 2
#: A vector-environment seat whose decisions go back to the caller (self-play: another
#: network plays it), never decided in the kernel.
BOT_CALLER = 3
#: Bot names the kernel plays, by code.
KERNEL_BOTS = ("random", "basic", "heuristic")
#: The bots that decide from the table alone (:func:`act`, :func:`window`); the heuristic
#: also needs its card tracker, which only the round and match drivers keep.
STATELESS_BOTS = ("random", "basic")


# per-round counts written by play_round: C[t, ...]
(C_ACTIONS, C_TURNS, C_CHAINS, C_CHAIN, C_ERROR, NCOUNTS) = range(6)
#: C_ERROR codes: too many actions, no legal action, too long a chain, a tracker out of room
E_ACTIONS, E_STUCK, E_CHAIN, E_TRACKER = 1, 2, 3, 4
#: The bots' scratch row: small counters below SCR_WHO (see each function), the seat -> player
#: map of a round at SCR_WHO (a match keeps its player -> seat map 16 further), two id lists
#: from SCR_IDS.
SCR_WHO, SCR_IDS = 64, 96
#: Longest penalty chain the histogram holds (a longer one is an error, never silently cut).
MAX_CHAIN_LEN = 256


# =============================================================================================
# the bots
# =============================================================================================


# =============================================================================================
# the driver
# =============================================================================================
def scratch(n_actions: int, players: int) -> tuple[I32, I32, I64, I64]:
    """The driver's scratch arrays (legal ids, a second id buffer, window seats, the bots')."""
    return (np.empty(n_actions + 8, np.int32), np.empty(n_actions + 8, np.int32),
            np.empty(players, np.int64), np.zeros(SCR_IDS + 2 * (n_actions + 8), np.int64))


# the compiled functions (``_kernel.pyx``, part ``bots.pxi``)
from . import _kernel  # noqa: E402

act = _kernel.kb_act
decide = _kernel.kb_decide
play_round = _kernel.kb_play_round
play_rounds = _kernel.kb_play_rounds
