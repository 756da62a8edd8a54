"""Bot levels for people: easy, medium, hard and expert, each one of the registered bots.

People choosing an opponent think in levels, not in algorithms; the new-game screens of the
terminal and the browser offer these names and say what each level plays like. The order is
the measured strength (``benchmarks/strength.py``, the table of docs/research/bots.md),
weakest first.
"""

from __future__ import annotations

from ..text.i18n import N_, _

#: (level, bot spec, what it plays like), weakest first.
LEVELS: tuple[tuple[str, str, str], ...] = (
    ("easy", "basic", N_("plays any card it can, but calls UNO")),
    ("medium", "heuristic", N_("manages its colours, saves wild cards, attacks a player "
                               "about to go out")),
    ("hard", "learned", N_("a network trained over many rounds against the other bots: "
                           "quick, and judges positions from experience")),
    ("expert", "ismcts", N_("tries its moves on hundreds of possible deals of the hidden cards")),
)
#: Translatable names of the levels.
LEVEL_NAMES = {"easy": N_("Easy"), "medium": N_("Medium"), "hard": N_("Hard"),
               "expert": N_("Expert")}


def level_of(spec: str) -> str | None:
    """The level a bot spec stands for, or None when it is not one of the levels."""
    for level, bot, _doc in LEVELS:
        if bot == spec:
            return level
    return None


def plays(level: str) -> str:
    """What a level plays like, in the current language (the terminal and the browser show
    the same words); ``ValueError`` names the levels."""
    for name, _bot, doc in LEVELS:
        if name == level:
            return _(doc)
    raise ValueError(f"unknown bot level {level!r}: choose from "
                     f"{', '.join(n for n, _b, _d in LEVELS)}")


def bot_for(level: str) -> str:
    """The bot spec of a level; ``ValueError`` names the levels."""
    for name, bot, _doc in LEVELS:
        if name == level:
            return bot
    raise ValueError(f"unknown bot level {level!r}: choose from "
                     f"{', '.join(n for n, _b, _d in LEVELS)}")


def leveled_first(specs: list[str]) -> list[str]:
    """The levels' bots among ``specs`` first, weakest first, then the others as given."""
    leveled = [b for _l, b, _d in LEVELS if b in specs]
    return leveled + [b for b in specs if b not in leveled]


def levels_hint() -> str:
    """One sentence naming the levels and their bots, weakest first, in the current language."""
    return _("Bot levels, weakest first: {levels}.").format(levels=_(", ").join(
        _("{level} ({name})").format(level=_(LEVEL_NAMES[level]), name=bot)
        for level, bot, _doc in LEVELS))
