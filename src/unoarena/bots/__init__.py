"""Automated players: the :class:`Bot` interface, a registry by name, and the built-in bots.

>>> from unoarena.bots import available, make_bot
>>> available()
['basic', 'random']
>>> make_bot("random:decline=0.2", seed=1).decline
0.2

Add a bot with :func:`register` (``register("mine", factory, "one line")``); a factory takes the
spec's options (strings) and a seed. See :mod:`unoarena.bots.base` for the contract.
"""

from collections.abc import Mapping

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

# -- the trained bot (numpy inference of the weights shipped in the package) -----------------------


def _needs_numpy(name: str, factory: str) -> BotFactory:
    """A factory that imports the learned module (and numpy) only when the bot is made, so
    the other bots work without numpy."""
    def make(options: Mapping[str, str], seed: int) -> Bot:
        try:
            from . import learned
        except ImportError as e:
            raise ValueError(f"bot {name} needs numpy ({e}): pip install numpy") from None
        made: Bot = getattr(learned, factory)(options, seed)
        return made
    return make


register("learned", _needs_numpy("learned", "make_learned"),
         "a network trained with reinforcement learning against the built-in bots, played "
         "with numpy; options temperature (0: its best action), weights (another .npz)")
register("learned-search", _needs_numpy("learned-search", "make_learned_search"),
         "ismcts's paired search anchored on the learned network's move instead of the "
         "heuristic's; options those of ismcts, and leaf (model, value: the network's "
         "value of the sampled deal, mix)")
