"""Automated players: the :class:`Bot` interface, a registry by name, and the built-in bots.

>>> from unoarena.bots import available, make_bot
>>> available()
['basic', 'random']
>>> make_bot("random:decline=0.2", seed=1).decline
0.2

Add a bot with :func:`register` (``register("mine", factory, "one line")``); a factory takes the
spec's options (strings) and a seed. See :mod:`unoarena.bots.base` for the contract.
"""

from .base import BaseBot, Bot, Options
from .registry import BotFactory, available, describe, make_bot, parse_spec, register, split_specs
from .simple import BasicBot, RandomBot, make_basic, make_random

register("random", make_random,
         "uniform over every legal action; declines windows with probability decline=0.5")
register("basic", make_basic,
         "a random legal play, UNO declared, colour it holds most; catches, never jumps in")

__all__ = [
    "BaseBot", "BasicBot", "Bot", "BotFactory", "Options", "RandomBot", "available",
    "describe", "make_bot", "parse_spec", "register", "split_specs",
]

# -- search and rule-based bots --------------------------------------------------------------------
from .heuristic import HeuristicBot, make_heuristic  # noqa: E402
from .ismcts import ISMCTSBot, SearchView, make_ismcts  # noqa: E402

register("heuristic", make_heuristic,
         "rule-based: colour management, keeps wilds, attacks a player close to going out, "
         "catches, challenges a W4 on evidence, bluffs sensibly")
register("ismcts", make_ismcts,
         "information-set MCTS over determinizations consistent with what it saw; "
         "options iterations, ms (CPU per move, default 50), c, determinizations, depth, rollout")
__all__ += ["HeuristicBot", "ISMCTSBot", "SearchView"]
