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
from .events import Event, EventKind
from .game import (
    PHASES,
    TIME_UP,
    TIME_UP_TEXT,
    Game,
    Outcome,
    Setup,
    Termination,
    action_space,
    move_text,
)
from .match import Match, RoundResult, first_dealer, settle
from .record import (
    GameRecord,
    GameResult,
    MatchRecord,
    MatchResult,
    Record,
    RecordError,
    SetupDict,
    game_record,
    iter_game,
    match_record,
    replay_game,
    replay_match,
)
from .rules import ALIASES, KEY_INFO, KEYS, PRESETS, KeyInfo, RuleSet, parse_overrides, preset
from .view_types import Effect, Pending, View

__all__ = [
    "ALIASES",
    "CODES",
    "COLOR_CODES",
    "EDITIONS",
    "ERROR_CODES",
    "KEYS",
    "KEY_INFO",
    "PHASES",
    "POINTS",
    "PRESETS",
    "TIME_UP",
    "TIME_UP_TEXT",
    "Action",
    "ActionSpace",
    "ConfigError",
    "Edition",
    "Effect",
    "Event",
    "EventKind",
    "Game",
    "GameRecord",
    "GameResult",
    "IllegalAction",
    "KeyInfo",
    "Match",
    "MatchRecord",
    "MatchResult",
    "Outcome",
    "Pending",
    "Record",
    "RecordError",
    "RoundResult",
    "RuleSet",
    "Setup",
    "SetupDict",
    "Termination",
    "View",
    "action_space",
    "card_code",
    "card_name",
    "first_dealer",
    "game_record",
    "iter_game",
    "match_record",
    "move_text",
    "parse_card",
    "parse_color",
    "parse_overrides",
    "preset",
    "replay_game",
    "replay_match",
    "settle",
]
