"""The unoarena rules engine: pure, seeded, standard library only.

>>> from unoarena.engine import Game, preset
>>> g = Game(preset("classic", players=2), seed=1)
>>> g.players, len(g.hand(0))
(2, 7)
"""

from .actions import Action, ActionSpace
from .cards import (
    CODES,
    COLOR_CODES,
    EDITIONS,
    POINTS,
    Edition,
    card_code,
    card_name,
    parse_card,
    parse_color,
)
from .errors import ERROR_CODES, ConfigError, IllegalAction
from .game import PHASES, Game, Outcome, Setup, action_space
from .match import Match, RoundResult, first_dealer, settle
from .record import (
    RecordError,
    game_record,
    iter_game,
    match_record,
    replay_game,
    replay_match,
)
from .rules import ALIASES, KEYS, PRESETS, RuleSet, parse_overrides, preset

__all__ = [
    "ALIASES",
    "CODES",
    "COLOR_CODES",
    "EDITIONS",
    "ERROR_CODES",
    "KEYS",
    "PHASES",
    "POINTS",
    "PRESETS",
    "Action",
    "ActionSpace",
    "ConfigError",
    "Edition",
    "Game",
    "IllegalAction",
    "Match",
    "Outcome",
    "RecordError",
    "RoundResult",
    "RuleSet",
    "Setup",
    "action_space",
    "card_code",
    "card_name",
    "first_dealer",
    "game_record",
    "iter_game",
    "match_record",
    "parse_card",
    "parse_color",
    "parse_overrides",
    "preset",
    "replay_game",
    "replay_match",
    "settle",
]
