"""Rule sets: one frozen, validated value per game; presets by name (RULES sections 15-16).

Every rule the books disagree on, and every house rule, is a key here. The engine reads these
fields once, when a game starts; nothing in it asks which preset or edition it is playing beyond
the edition's deck and the keys below.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar, get_args, get_origin, get_type_hints

from .cards import EDITIONS, WILD4, Edition
from .errors import ConfigError

DEFAULT_LAUNCHER: tuple[float, ...] = (0.65, 0.05, 0.05, 0.06, 0.06, 0.05, 0.04, 0.02, 0.02)

# The choice-valued keys: each type lists its values once; validation reads them from it.
EditionName = Literal["classic", "buzz", "frozen2", "attack"]
FirstDealer = Literal["high_card", "random"]
NextDealer = Literal["left", "winner"]
VoluntaryDrawPlay = Literal["may", "may_not"]
StarterWildChooser = Literal["next", "dealer"]
StarterW4 = Literal["reshuffle", "bottom", "dealer_plays"]
StarterReverse = Literal["dealer_first", "dealer_played"]
W4Rule = Literal["restricted", "free"]
Stacking = Literal["off", "draw2", "deflect"]
SumJumpIn = Literal["off", "same_color", "any_color"]
DeckExhausted = Literal["reshuffle", "void"]
DrawCount = Literal["one", "until_playable"]
Misplay = Literal["reject", "penalty"]
Scoring = Literal["winner", "penalty", "chips"]
Elimination = Literal["off", "points", "cards"]

T = TypeVar("T")


def N_(text: str) -> str:
    """Marks a label for the catalogues: the engine shows no text, the UIs translate it."""
    return text


#: ``added`` of the keys that existed when rule sets were first stored.
NOT_ADDED: Any = object()

#: How the new-game screens (terminal and browser) offer a key: an on/off ``toggle``, a
#: ``choice`` of the declared values, or not at all (set with ``--set`` or the rules form).
Offer = Literal["toggle", "choice", "none"]


@dataclass(frozen=True)
class KeyInfo:
    """What one rule key's declaration says besides its type and default: the rule IDs it
    configures, its short name, how the UIs offer it, its bounds, and since when it exists."""

    rules: str
    label: str
    offer: Offer = "none"
    #: for a ``choice`` offer: the values offered (as typed after ``--set KEY=``) and names
    values: tuple[tuple[str, str], ...] = ()
    #: for an integer key: the smallest and largest value (every one is bounded, so that no
    #: value a person or a request can give is too big to store, send or compute with)
    bounds: tuple[int, int] | None = None
    #: the value that plays as the rule did before the key existed, for a key added after rule
    #: sets were first stored (records, saves, rooms); ``NOT_ADDED`` for the first keys
    added: Any = NOT_ADDED
    #: whether ``off``/``no``/``false`` on a command line means this integer key's 0
    off_is_zero: bool = False


def key(default: T, rules: str, label: str, *, offer: Offer = "none",
        values: tuple[tuple[str, str], ...] = (), bounds: tuple[int, int] | None = None,
        added: Any = NOT_ADDED, off_is_zero: bool = False) -> T:
    """Declare a rule key: its field in :class:`RuleSet` with everything else about it in the
    field's metadata, from which every list of keys is derived (validation, ``unoarena rules``,
    the new-game screens, stored rule sets that predate the key)."""
    info = KeyInfo(rules, label, offer, values, bounds, added, off_is_zero)
    return field(default=default, metadata={"key": info})


#: The launcher's distribution: at most this many volley sizes (0 .. 63 cards a press).
LAUNCHER_MAX = 64
_NONE = ("none", "null", "off")
_TRUE = {"on", "true", "yes", "1", "y"}
_FALSE = {"off", "false", "no", "0", "n"}
_OFF = N_("off")


@dataclass(frozen=True)
class RuleSet:
    """Every configurable rule. Build with :func:`preset` or :meth:`RuleSet.create`."""

    preset: str = key("classic", "§16", N_("Preset"))
    edition: EditionName = key("classic", "ED-1..4", N_("Edition"))
    players: int = key(4, "SEAT-3", N_("Players"), bounds=(2, 10))
    hand_size: int = key(7, "SET-3", N_("Cards dealt"), bounds=(1, 30))
    first_dealer: FirstDealer = key("high_card", "SET-1", N_("First dealer"))
    next_dealer: NextDealer = key("left", "SET-2", N_("Next dealer"))
    voluntary_draw_play: VoluntaryDrawPlay = key("may_not", "TURN-4",
                                                 N_("Draw though a card fits"))
    draw_count: DrawCount = key("one", "TURN-7", N_("Drawing"), offer="choice", values=(
        ("one", N_("one card")), ("until_playable", N_("until a card fits"))))
    deck_exhausted: DeckExhausted = key("reshuffle", "TURN-6", N_("Empty draw pile"))
    starter_wild_chooser: StarterWildChooser = key("next", "START-4",
                                                   N_("Who names a wild starter's colour"))
    starter_w4: StarterW4 = key("reshuffle", "START-5", N_("Wild Draw Four turned up first"))
    starter_number_only: bool = key(False, "START-7", N_("Only a number card starts"))
    starter_reverse: StarterReverse = key("dealer_first", "START-2, START-8",
                                          N_("Reverse turned up first"), added="dealer_first")
    w4_rule: W4Rule = key("restricted", "WD4-1, WD4-3", N_("When a Wild Draw Four may be played"))
    wd4_challenge: bool = key(True, "WD4-2", N_("Wild Draw Four challenge"), offer="toggle")
    stacking: Stacking = key("off", "HR-STACK", N_("Draw Two stacking"), offer="choice", values=(
        ("off", _OFF), ("draw2", N_("Draw Two on Draw Two")),
        ("deflect", N_("deflect with Skip, Reverse, Draw Two"))))
    stack_draw4: bool = key(False, "HR-STACK4", N_("Stack Wild Draw Four"), offer="toggle")
    draw4_on_draw2: bool = key(False, "HR-4ON2", N_("Wild Draw Four on Draw Two"),
                               offer="toggle")
    reverse_deflects_draw4: bool = key(False, "HR-REV4", N_("Reverse bounces Wild Draw Four"),
                                       offer="toggle", added=False)
    draw2_on_draw4: bool = key(False, "HR-2ON4", N_("Draw Two on Wild Draw Four"),
                               offer="toggle", added=False)
    revenge: bool = key(False, "HR-REVENGE", N_("Revenge: sent back doubles"), offer="toggle",
                        added=False)
    jump_in: bool = key(False, "HR-JUMP", N_("Jump-in"), offer="toggle")
    double_play: bool = key(False, "HR-DOUBLE", N_("Double play"), offer="toggle")
    multi_play: bool = key(False, "ATK-4", N_("Several cards of one number"))
    same_number_play: bool = key(False, "HR-SAMENUM", N_("Same number together"),
                                 offer="toggle", added=False)
    bomb: bool = key(False, "HR-BOMB", N_("Bomb: three of a number"), offer="toggle",
                     added=False)
    sum_jump_in: SumJumpIn = key("off", "HR-SUM", N_("Sum jump-in"), offer="choice", values=(
        ("off", _OFF), ("same_color", N_("same colour")), ("any_color", N_("any colour"))))
    number_finish: bool = key(False, "HR-NUMFIN, ATK-6", N_("Finish on a number"),
                              offer="toggle")
    no_wild_finish: bool = key(False, "HR-WILDFIN", N_("No wild as the last card"),
                               offer="toggle", added=False)
    #: HR-TEAM: players per team, 0 = no teams
    teams: int = key(0, "HR-TEAM", N_("Teams"), bounds=(0, 5), off_is_zero=True,
                     offer="choice", values=(("0", N_("no teams")), ("2", N_("teams of 2")),
                                             ("3", N_("teams of 3"))))
    wild_powers: bool = key(False, "HR-WILDPOWER", N_("Wild powers"), offer="toggle")
    turn_timer: int | None = key(None, "HR-TIMER", N_("Turn timer (seconds)"), bounds=(1, 3600))
    timer_penalty: int = key(1, "HR-TIMER", N_("Cards for a turn run out"), bounds=(0, 20))
    #: HR-SEATS: seats change every N rounds
    seat_exchange: int = key(0, "HR-SEATS", N_("Change seats every N rounds"),
                             bounds=(0, 1000), off_is_zero=True)
    seven_zero: bool = key(False, "HR-SEVEN-ZERO", N_("Seven-zero"), offer="toggle")
    force_play: bool = key(False, "HR-FORCE", N_("Forced play"), offer="toggle", added=False)
    forced_draw_play: bool = key(False, "HR-DRAWPLAY", N_("Play a drawn card that fits"),
                                 offer="toggle", added=False)
    #: HR-HANDLIMIT: a hand of this many cards draws no more
    hand_limit: int | None = key(None, "HR-HANDLIMIT", N_("Hand limit"), bounds=(2, 60),
                                 added=None, offer="choice", values=(
                                     ("None", N_("no limit")), ("10", N_("10 cards")),
                                     ("15", N_("15 cards")), ("20", N_("20 cards")),
                                     ("25", N_("25 cards")), ("30", N_("30 cards"))))
    silent_uno: bool = key(False, "HR-SILENT", N_("No UNO call"), offer="toggle", added=False)
    double_score: bool = key(False, "HR-DOUBLESCORE", N_("Double score"), offer="toggle",
                             added=False)
    wild_starter_stays: bool = key(False, "HR-WILDSTART", N_("Wild starter stays"),
                                   offer="toggle", added=False)
    uno_penalty: int = key(2, "UNO-2", N_("Cards for a missed UNO"), bounds=(0, 20))
    false_uno_penalty: int = key(0, "UNO-3", N_("Cards for a false UNO"), bounds=(0, 20))
    misplay: Misplay = key("reject", "PEN-1, PEN-2", N_("An illegal play"))
    misplay_penalty: int = key(2, "PEN-1", N_("Cards for an illegal play"), bounds=(0, 20))
    scoring: Scoring = key("winner", "MATCH-1..3", N_("Scoring"))
    target_score: int = key(500, "MATCH-1, MATCH-2", N_("Target score"), bounds=(1, 100_000))
    rounds: int | None = key(None, "MATCH-2, MATCH-3", N_("Rounds"), bounds=(1, 1000))
    launcher: tuple[float, ...] = key(DEFAULT_LAUNCHER, "ATK-2", N_("Launcher"))
    launcher_max_dry: int | None = key(4, "ATK-2", N_("Presses before the launcher fires"),
                                       bounds=(1, 100))
    #: HR-OPEN: hands of at most N cards lie face up
    open_hands: int | None = key(None, "HR-OPEN", N_("Open hands"), bounds=(1, 30), added=None,
                                 offer="choice", values=(
                                     ("None", _OFF), ("1", N_("the last card")),
                                     ("2", N_("2 cards or fewer")),
                                     ("3", N_("3 cards or fewer"))))
    #: HR-BLIND: a card drawn for the turn is kept unseen
    blind_draw: bool = key(False, "HR-BLIND", N_("Blind draw"), offer="toggle", added=False)
    #: HR-ELIM: the most points (or cards) in hand is out
    elimination: Elimination = key("off", "HR-ELIM", N_("Elimination"), added="off",
                                   offer="choice", values=(
                                       ("off", _OFF),
                                       ("points", N_("most points in hand is out")),
                                       ("cards", N_("most cards in hand is out"))))
    #: HR-BLITZ: seconds a round may last (the caller's clock)
    blitz: int | None = key(None, "HR-BLITZ", N_("Round time limit"), bounds=(10, 3600),
                            added=None, offer="choice", values=(
                                ("None", _OFF), ("60", N_("1 minute")),
                                ("180", N_("3 minutes")), ("300", N_("5 minutes"))))
    _deck: Edition = field(default=EDITIONS["classic"], repr=False, compare=False)

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def create(cls, preset_name: str = "classic", /, **overrides: Any) -> RuleSet:
        """A preset with overrides, validated. Values may be strings as on a command line."""
        base = (PRESETS.get(preset_name) or PRESETS.get(ALIASES.get(preset_name.lower(), ""))
                if isinstance(preset_name, str) else None)
        if base is None:
            raise ConfigError("preset", preset_name, sorted(PRESETS))
        values = base.to_dict()
        values["launcher"] = base.launcher
        for key, raw in overrides.items():
            if key == "preset":
                continue
            values[key] = coerce(key, raw)
        values["preset"] = base.preset
        rs = cls(**values, _deck=EDITIONS[values["edition"]])
        rs.validate()
        return rs

    @classmethod
    def from_dict(cls, data: object) -> RuleSet:
        """Inverse of :meth:`to_dict`; also accepts partial mappings with a ``preset`` key.
        ``data`` is typed ``object``: whatever a file or request holds is refused with a
        :class:`ConfigError`, in a compiled build too."""
        if not isinstance(data, Mapping):
            raise ConfigError("rules", data, "a mapping of rule keys to values")
        bad = [k for k in data if not isinstance(k, str)]
        if bad:
            raise ConfigError("key", bad[0], [k for k in KEYS if k != "preset"])
        d = dict(data)
        name = d.pop("preset", "classic")
        if not isinstance(name, str):
            raise ConfigError("preset", name, sorted(PRESETS))
        if all(k in d for k in KEYS if k != "preset" and k not in ADDED_KEYS):
            # a complete mapping (to_dict) stored before a key existed plays as it did then
            for key, then in ADDED_KEYS.items():
                d.setdefault(key, then)
        return cls.create(name, **d)

    def to_dict(self) -> dict[str, Any]:
        """Every key, JSON-ready (built field by field: ``asdict`` would deep-copy the deck)."""
        d = {k: getattr(self, k) for k in KEYS}
        d["launcher"] = list(self.launcher)
        return d

    def replace(self, **overrides: Any) -> RuleSet:
        """A copy with some keys changed, validated."""
        d = self.to_dict()
        d.update(overrides)
        return RuleSet.from_dict(d)

    def overrides(self) -> dict[str, Any]:
        """The keys that differ from this rule set's preset."""
        base = PRESETS[self.preset].to_dict()
        return {k: v for k, v in self.to_dict().items() if k != "preset" and base.get(k) != v}

    def __copy__(self) -> RuleSet:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> RuleSet:
        """Immutable, so a copy is the rule set itself (the compiled build cannot rebuild a
        frozen instance field by field, as ``copy`` otherwise would)."""
        return self

    @property
    def deck(self) -> Edition:
        """The edition the ``edition`` key names (ED-1..4)."""
        return self._deck

    @property
    def team_count(self) -> int:
        """How many teams play (HR-TEAM: ``players`` divided by the team size ``teams``), or 0 when
        nobody plays in teams."""
        return self.players // self.teams if self.teams else 0

    def team_of(self, seat: int) -> int:
        """HR-TEAM: seat i is in team i mod (players / team size)."""
        return seat % self.team_count if self.teams else seat

    # -- validation --------------------------------------------------------------------------
    def validate(self) -> None:
        """Raise :class:`ConfigError` naming the keys of any impossible combination."""
        for key in _CHOICES:
            coerce(key, getattr(self, key))
        for key in (*_BOOLS, *_INTS, *_OPTIONAL_INTS, "launcher"):
            coerce(key, getattr(self, key))
        deck = EDITIONS[self.edition]
        if self.hand_size * self.players >= deck.size:
            raise ConfigError(("hand_size", "players"), (self.hand_size, self.players),
                              f"hand_size x players must be below the deck's {deck.size} cards")
        if self.hand_limit is not None and self.hand_limit <= self.hand_size:
            raise ConfigError(("hand_limit", "hand_size"), (self.hand_limit, self.hand_size),
                              "hand_limit must be above hand_size, or none: a hand dealt at the "
                              "limit could never draw (HR-HANDLIMIT)")
        if self.teams and (self.teams < 2 or self.players % self.teams
                           or self.players // self.teams < 2):
            raise ConfigError(("teams", "players"), (self.teams, self.players),
                              "teams is the team size; it must be at least 2 and divide "
                              "players into at least two teams")
        has_w4 = deck.has(WILD4)
        if self.stack_draw4 and not has_w4:
            raise ConfigError(("stack_draw4", "edition"), (True, self.edition),
                              f"the {self.edition} deck has no W4 to stack")
        if self.draw4_on_draw2 and not has_w4:
            raise ConfigError(("draw4_on_draw2", "edition"), (True, self.edition),
                              f"the {self.edition} deck has no W4")
        if self.draw4_on_draw2 and self.stacking == "off":
            raise ConfigError(("draw4_on_draw2", "stacking"), (True, "off"),
                              "a W4 can answer a draw-two total only when stacking is on")
        if self.reverse_deflects_draw4 and not has_w4:
            raise ConfigError(("reverse_deflects_draw4", "edition"), (True, self.edition),
                              f"the {self.edition} deck has no W4 to deflect")
        if self.draw2_on_draw4 and not has_w4:
            raise ConfigError(("draw2_on_draw4", "edition"), (True, self.edition),
                              f"the {self.edition} deck has no W4 to answer")
        if self.revenge and self.stacking != "deflect" and not self.reverse_deflects_draw4:
            raise ConfigError(("revenge", "stacking"), (True, self.stacking),
                              "a penalty is passed back only by a Skip or Reverse: set stacking "
                              "to deflect, or reverse_deflects_draw4 on")
        if self.wd4_challenge and self.w4_rule == "free" and has_w4:
            raise ConfigError(("wd4_challenge", "w4_rule"), (True, "free"),
                              "with w4_rule free a W4 is always legal, so there is nothing to "
                              "challenge (WD4-3)")
        if deck.launcher and (self.jump_in or self.sum_jump_in != "off"):
            raise ConfigError(("jump_in" if self.jump_in else "sum_jump_in", "edition"),
                              (True, self.edition), "Attack has no jump-in (ATK-5)")
        if self.stacking != "off" and deck.launcher:
            raise ConfigError(("stacking", "edition"), (self.stacking, self.edition),
                              "Attack has no draw-two; its hit-2 chains are built in (ATK-8)")
        if self.double_play and self.multi_play:
            raise ConfigError(("double_play", "multi_play"), (True, True),
                              "choose one way of playing several cards at once")
        if self.wild_starter_stays and self.starter_number_only:
            raise ConfigError(("wild_starter_stays", "starter_number_only"), (True, True),
                              "with starter_number_only no wild is ever turned over first "
                              "(START-7, HR-WILDSTART)")
        if self.double_score and self.scoring == "penalty":
            raise ConfigError(("double_score", "scoring"), (True, "penalty"),
                              "under penalty scoring the round's winner scores nothing to "
                              "double: use scoring winner or chips (HR-DOUBLESCORE)")
        if self.elimination != "off":  # HR-ELIM: the last player left wins the match
            if self.teams:
                raise ConfigError(("elimination", "teams"), (self.elimination, self.teams),
                                  "players are put out one by one, so elimination is played "
                                  "without teams")
            if self.scoring == "chips":
                raise ConfigError(("elimination", "scoring"), (self.elimination, "chips"),
                                  "the chips system ends after a number of rounds; elimination "
                                  "ends when one player is left: use winner or penalty scoring")
            if self.rounds is not None:
                raise ConfigError(("elimination", "rounds"), (self.elimination, self.rounds),
                                  "elimination ends when one player is left, not after a "
                                  "number of rounds: set rounds to none")
        if self.same_number_play:
            for other in ("double_play", "multi_play", "seven_zero"):
                if getattr(self, other):
                    raise ConfigError(
                        ("same_number_play", other), (True, True),
                        "choose one: same_number_play already plays several cards of one "
                        "number at once" if other != "seven_zero" else
                        "a set of 7s or 0s would swap or pass hands several times over: play "
                        "same_number_play without seven_zero")
        if self.bomb and not self.same_number_play:
            raise ConfigError(("bomb", "same_number_play"), (True, False),
                              "a bomb is three or more cards of one number played at once: set "
                              "same_number_play on")
        if self.scoring == "chips" and self.rounds is None:
            raise ConfigError(("scoring", "rounds"), ("chips", None),
                              "the chips system ends after a number of rounds: set rounds")


#: Every rule key's declaration, in field order.
KEY_INFO: dict[str, KeyInfo] = {f.name: f.metadata["key"] for f in dataclasses.fields(RuleSet)
                                if "key" in f.metadata}
_TYPES = get_type_hints(RuleSet)
# the lists validation reads, derived from the declarations: choice keys (a Literal type lists
# its values once), on/off keys, integer keys with their bounds, and those that may be none
_CHOICES: dict[str, tuple[str, ...]] = {
    k: get_args(_TYPES[k]) for k in KEY_INFO if get_origin(_TYPES[k]) is Literal}
_BOOLS: tuple[str, ...] = tuple(k for k in KEY_INFO if _TYPES[k] is bool)
_INTS: dict[str, tuple[int, int]] = {
    k: b for k, i in KEY_INFO.items() if _TYPES[k] is int and (b := i.bounds) is not None}
_OPTIONAL_INTS: dict[str, tuple[int, int]] = {
    k: b for k, i in KEY_INFO.items() if _TYPES[k] == int | None and (b := i.bounds) is not None}
assert _CHOICES["edition"] == tuple(EDITIONS), "EditionName lists every edition, in order"
assert all(k in _INTS or k in _OPTIONAL_INTS for k in KEY_INFO if _TYPES[k] in (int, int | None)
           and k != "preset"), "every integer key declares its bounds"
#: Every integer key with its bounds and whether it may be none (for documentation and UIs).
INT_BOUNDS: dict[str, tuple[int, int, bool]] = {
    **{k: (lo, hi, False) for k, (lo, hi) in _INTS.items()},
    **{k: (lo, hi, True) for k, (lo, hi) in _OPTIONAL_INTS.items()},
}


def coerce(key: str, raw: Any) -> Any:
    """Turn a raw value (perhaps a command-line string) into the typed value of ``key``.

    Only scalars are read (text, booleans, whole numbers, and a list for the launcher), so a
    value from a file or a request can never be expensive to inspect; anything else is a
    :class:`ConfigError` that shows a bounded excerpt of it."""
    if key in _CHOICES:
        if isinstance(raw, bool):
            v = "on" if raw else "off"
        elif isinstance(raw, str):
            v = raw.strip().lower()
        else:
            raise ConfigError(key, raw, _CHOICES[key])
        if v in _FALSE and "off" in _CHOICES[key]:
            v = "off"
        if v not in _CHOICES[key]:
            raise ConfigError(key, raw, _CHOICES[key])
        return v
    if key in _BOOLS:
        if isinstance(raw, bool):
            return raw
        v = str(raw).strip().lower() if isinstance(raw, (str, int)) else ""
        if v in _TRUE:
            return True
        if v in _FALSE:
            return False
        raise ConfigError(key, raw, ("on", "off"))
    if key in _INTS or key in _OPTIONAL_INTS:
        optional = key in _OPTIONAL_INTS
        lo, hi = (_OPTIONAL_INTS if optional else _INTS)[key]
        allowed = f"an integer from {lo} to {hi}"
        text = raw.strip().lower() if isinstance(raw, str) else None
        if optional and (raw is None or text in _NONE):
            return None
        if text in _FALSE and KEY_INFO[key].off_is_zero:
            return 0
        n = _whole(raw)
        if n is None:
            raise ConfigError(key, raw, allowed)
        if not lo <= n <= hi:
            raise ConfigError(key, raw, allowed)
        return n
    if key == "launcher":
        return _coerce_launcher(raw)
    raise ConfigError("key", key, sorted([*_CHOICES, *_BOOLS, *_INTS, *_OPTIONAL_INTS,
                                          "launcher"]))


def _whole(raw: Any) -> int | None:
    """A whole number from an int, an integral finite float or a short decimal string;
    None for anything else (booleans, NaN, infinities, fractions, other types)."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, float):
        return int(raw) if math.isfinite(raw) and raw.is_integer() else None
    if isinstance(raw, str) and len(raw) <= 32:
        try:
            return int(raw.strip())
        except ValueError:
            return None
    return None


def _coerce_launcher(raw: Any) -> tuple[float, ...]:
    allowed = (f"a list of at most {LAUNCHER_MAX} finite probabilities for 0, 1, 2, ... cards "
               "a press, summing to 1")
    if isinstance(raw, str):
        if len(raw) > 40 * LAUNCHER_MAX:
            raise ConfigError("launcher", raw, allowed)
        raw = [p for p in raw.replace("[", "").replace("]", "").split(",") if p.strip()]
    if not isinstance(raw, (list, tuple)) or len(raw) > LAUNCHER_MAX:
        raise ConfigError("launcher", raw, allowed)
    probs: list[float] = []
    for p in raw:
        if isinstance(p, bool) or not isinstance(p, (int, float, str)):
            raise ConfigError("launcher", raw, allowed)
        try:
            probs.append(float(p))
        except (ValueError, OverflowError):
            raise ConfigError("launcher", raw, allowed) from None
    if not probs or not all(math.isfinite(p) and p >= 0 for p in probs) \
            or abs(sum(probs) - 1.0) > 1e-6 or probs[0] >= 1:
        raise ConfigError("launcher", raw, allowed + " (and not always 0)")
    return tuple(probs)


KEYS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(RuleSet) if f.name != "_deck")
#: Keys added after rule sets were first stored (records, saves, rooms), each with the
#: behaviour before it existed, which a complete stored mapping without the key keeps.
ADDED_KEYS: dict[str, Any] = {k: i.added for k, i in KEY_INFO.items() if i.added is not NOT_ADDED}


def _preset(name: str, **kw: Any) -> RuleSet:
    return RuleSet(preset=name, _deck=EDITIONS[kw.get("edition", "classic")], **kw)


PRESETS: dict[str, RuleSet] = {
    "classic": _preset("classic"),
    "buzz": _preset("buzz", edition="buzz", voluntary_draw_play="may", starter_w4="bottom"),
    "frozen2": _preset("frozen2", edition="frozen2", voluntary_draw_play="may",
                       starter_w4="bottom"),
    "house": _preset("house", voluntary_draw_play="may", starter_wild_chooser="dealer",
                     starter_w4="dealer_plays", starter_reverse="dealer_played",
                     w4_rule="free", wd4_challenge=False,
                     stacking="deflect", stack_draw4=True, next_dealer="winner",
                     scoring="penalty", false_uno_penalty=2, misplay_penalty=1),
    "attack": _preset("attack", edition="attack", voluntary_draw_play="may",
                      starter_number_only=True, wd4_challenge=False, multi_play=True,
                      number_finish=True, scoring="penalty"),
}
ALIASES: dict[str, str] = {
    "mattel": "classic", "standard": "classic", "official": "classic",
    "buzz-lightyear": "buzz", "buzz_lightyear": "buzz", "toy-story": "buzz",
    "frozen": "frozen2", "frozen-ii": "frozen2", "frozen_ii": "frozen2",
    "complete": "house", "house-rules": "house",
    "uno-attack": "attack", "uno_attack": "attack",
}


def preset(name: str = "classic", /, **overrides: Any) -> RuleSet:
    """``preset("house", players=3, jump_in=True)``: a validated rule set."""
    return RuleSet.create(name, **overrides)


def parse_overrides(items: list[str]) -> dict[str, Any]:
    """Parse ``["stacking=draw2", "players=3"]`` from a command line."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise ConfigError("--set", item, "KEY=VALUE, for example stacking=draw2")
        if key not in KEYS or key == "preset":
            raise ConfigError("key", key, [k for k in KEYS if k != "preset"])
        out[key] = value.strip()
    return out
