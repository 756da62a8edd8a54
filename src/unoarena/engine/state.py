"""The state of one round: every field once, in one slotted dataclass.

Copy and equality are derived from the fields: each field says how a copy takes it
(``_COPY``: shared, a list copied, hands copied one level down, the generator's state, the
event log) and whether it takes part in equality (``compare``). A field added here is copied
and compared without touching any other code; ``tests/test_state.py`` fails for a field whose
copy would share a mutable value or whose change equality would miss.

Small shared helpers every rule module uses (events, turn order, the seeded shuffle) live here
too, as functions of the state (DIG-1: every random choice comes from ``State.rng``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, Final, Literal, cast

from .actions import Action, ActionSpace
from .events import Event
from .rules import RuleSet

PLAY: Final = 0
DRAWN: Final = 1
COLOR: Final = 2
GIVE: Final = 3
OVER: Final = 4
PHASES = ("play", "drawn", "color", "give", "over")

# pending penalty kinds
P_NONE: Final = 0
P_D2: Final = 1
P_W4: Final = 2
P_H2: Final = 3
P_WA: Final = 4
PKIND_NAMES = ("", "draw2", "draw4", "hit2", "attack")

# active edition effects
E_NONE: Final = 0
E_HYPER: Final = 1
E_LOCK: Final = 2

# verbs as small ints for dispatch
V_PLAY: Final = 0
V_DRAW: Final = 1
V_PASS: Final = 2
V_CATCH: Final = 3
V_UNO: Final = 4
V_COLOR: Final = 5
V_GIVE: Final = 6
V_JUMP: Final = 7
V_CHALLENGE: Final = 8
V_ACCEPT: Final = 9
V_TIMEOUT: Final = 10
#: In a round's history, the id of the move that ended it on time (HR-BLITZ): no action of
#: the action space, written ``time_up`` in records.
TIME_UP: Final = -1
VERB_CODE = {"play": V_PLAY, "draw": V_DRAW, "pass": V_PASS, "catch": V_CATCH, "uno": V_UNO,
             "color": V_COLOR, "give": V_GIVE, "jump_in": V_JUMP, "challenge": V_CHALLENGE,
             "accept": V_ACCEPT, "timeout": V_TIMEOUT}

_SPACES: dict[RuleSet, ActionSpace] = {}


def action_space(rules: RuleSet) -> ActionSpace:
    """The rule set's fixed integer action space (built once, shared)."""
    sp = _SPACES.get(rules)
    if sp is None:
        sp = _SPACES[rules] = ActionSpace(rules)
        sp.vcodes = tuple(VERB_CODE[a.verb] for a in sp.actions)
        sp.rows = {}
    return sp


class Termination(StrEnum):
    """Why a round ended; serialises as its value, so records and the wire keep the text."""

    OUT = "out"  # a seat played its last card (END-1)
    VOID = "void"  # the draw pile ran out under ``deck_exhausted: void`` (TURN-6)
    BLOCKED = "blocked"  # every hand at the limit and nobody can play (HR-HANDLIMIT)
    TIME = "time"  # the round's time ran out (HR-BLITZ): the fewest points in hand won


@dataclass(frozen=True)
class Outcome:
    """How a round ended (typed, like python-chess's ``Outcome``)."""

    winner: int | None  # the seat that went out (or held the fewest points when the time ran
    # out, HR-BLITZ); None when the round was void (TURN-6)
    reason: Termination
    hand_points: tuple[int, ...]  # points left in each hand (END-3)
    scores: tuple[int, ...]  # what each seat (or team, with teams) scores this round


# how a copy takes a field (the field's ``metadata["copy"]``; shared when absent)
_SHARE: Final = 0
_LIST: Final = 1
_LISTS: Final = 2
_RNG: Final = 3
_EVENTS: Final = 4
_PRIVATE: Final = 5


_AS_LIST = {"copy": _LIST}


@dataclass(slots=True, eq=False)
class State:
    """Everything about a round. ``compare=False`` marks what does not decide its future
    (set-up facts, caches, the rule set's derived flags, logs); equality skips those."""

    rules: RuleSet = field(compare=False)
    seed: int = field(compare=False)
    dealer: int = field(compare=False)
    space: ActionSpace = field(compare=False)
    n: int = field(compare=False)  # players
    # the fast generator's per (colour, top rank) rows: one cache per rule set, shared
    rows: dict[int, tuple[tuple[int, ...], ...]] = field(compare=False)
    rng: random.Random = field(metadata={"copy": _RNG})
    hands: list[list[int]] = field(default_factory=list, metadata={"copy": _LISTS})
    pile: list[int] = field(default_factory=list, metadata=_AS_LIST)  # the draw pile, top last
    discard: list[int] = field(default_factory=list, metadata=_AS_LIST)
    color: int = -1
    alt: tuple[int, ...] = ()  # extra matching ranks after a sum jump-in (HR-SUM)
    dir: int = 1
    turn: int = 0
    phase: int = PLAY
    pend: int = 0  # the pending penalty's total
    pkind: int = P_NONE
    resume: int = -1  # WA: where play resumes after the attack (ATK-9)
    # the W4s of the current chain: seat, guilty, hand after the play, colour before it
    chain: list[tuple[int, bool, tuple[int, ...], int]] = field(default_factory=list,
                                                                 metadata=_AS_LIST)
    nochallenge: bool = False
    drawn: list[int] = field(default_factory=list, metadata=_AS_LIST)
    declared: list[bool] = field(default_factory=list, metadata=_AS_LIST)
    exposed: int = -1  # the seat that can be caught without UNO (UNO-2)
    jump: bool = False  # a jump-in window is open
    last: int = -1  # the seat that played last
    effect: int = E_NONE
    ecolor: int = -1
    eowner: int = -1
    give_left: int = 0
    given: int = 0
    give_target: int = -1
    after_color: int = -1  # seat that plays first once a wild starter's colour is named
    after_color_pen: int = 0
    dry: int = 0  # launcher presses in a row that ejected nothing (ATK-2)
    closing: bool = field(default=False, compare=False)  # END-2 draws: reshuffle, never void
    void_due: bool = field(default=False, compare=False)  # the void round's event is to log
    xskip: int = 0  # hyperspeed skips owed once a pending penalty is taken (BUZZ-2)
    outcome: Outcome | None = None
    # derived from the rules once: rules the fast play generator does not handle, etc.
    simple: bool = field(default=True, compare=False)
    w4_strict: bool = field(default=False, compare=False)
    jump_on: bool = field(default=False, compare=False)
    double: bool = field(default=False, compare=False)
    special: bool = field(default=False, compare=False)
    acts: tuple[Action, ...] = field(default=(), compare=False)
    vcode: tuple[int, ...] = field(default=(), compare=False)
    # match scores before this round
    scores: list[int] = field(default_factory=list, compare=False, metadata=_AS_LIST)
    events: list[Event] | None = field(default_factory=list, compare=False,
                                       metadata={"copy": _EVENTS})
    private: dict[int, list[Event]] = field(default_factory=dict, compare=False,
                                            metadata={"copy": _PRIVATE})
    history: list[tuple[int, int]] = field(default_factory=list, compare=False,
                                           metadata=_AS_LIST)

    def copy(self) -> State:
        """An independent copy: mutable fields copied as their ``copy`` metadata says."""
        rng = random.Random(0)  # a seed, not the OS's entropy: its state is replaced at once
        rng.setstate(self.rng.getstate())
        c = State(self.rules, self.seed, self.dealer, self.space, self.n, self.rows, rng)
        for name in _SHARED:
            setattr(c, name, getattr(self, name))
        for name in _LISTED:
            setattr(c, name, list(getattr(self, name)))
        c.hands = [list(h) for h in self.hands]
        c.events = list(self.events) if self.events is not None else None
        c.private = {s: list(v) for s, v in self.private.items()}
        return c

    def fingerprint(self) -> tuple[Any, ...]:
        """Every compared field, as hashable values (the generator by its state)."""
        out: list[Any] = []
        for name, how in _COMPARED:
            v = getattr(self, name)
            if how == _LIST:
                v = tuple(v)
            elif how == _LISTS:
                v = tuple(tuple(h) for h in v)
            elif how == _RNG:
                v = v.getstate()
            out.append(v)
        return tuple(out)


def _copy_kind(f: Any) -> int:
    how: int = f.metadata.get("copy", _SHARE)
    return how


_FIELDS = fields(State)
_SHARED = tuple(f.name for f in _FIELDS if _copy_kind(f) == _SHARE)
_LISTED = tuple(f.name for f in _FIELDS if _copy_kind(f) == _LIST)
_COMPARED = tuple((f.name, _copy_kind(f)) for f in _FIELDS if f.compare)
# the kinds State.copy handles by name, one field each
assert {f.name for f in _FIELDS if _copy_kind(f) in (_LISTS, _RNG, _EVENTS, _PRIVATE)} \
    == {"hands", "rng", "events", "private"}, "State.copy names these fields"


# -- helpers shared by the rule modules ----------------------------------------------------------
def ev(s: State, **e: Any) -> None:
    """Log an event; one with ``to`` is private to that seat and indexed for its view."""
    if s.events is not None:
        event = cast(Event, e)  # the keyword names are Event's keys
        s.events.append(event)
        if "to" in e:
            s.private.setdefault(e["to"], []).append(event)


def direction_name(s: State) -> Literal["cw", "ccw"]:
    """The play direction as views and events name it: clockwise or counter-clockwise."""
    return "cw" if s.dir == 1 else "ccw"


def close_windows(s: State) -> None:
    """Close the catch and jump-in windows (UNO-2, HR-JUMP): the next action moved on."""
    s.exposed = -1
    s.jump = False


def set_turn(s: State, seat: int) -> None:
    """Give ``seat`` the turn directly (no skips); reaching the owner of forces of nature
    ends it (FRZ-2)."""
    s.turn = seat
    s.phase = PLAY
    if s.effect == E_LOCK and seat == s.eowner:  # FRZ-2
        s.effect = E_NONE
        ev(s, t="effect_end", kind="forces_of_nature")


def advance(s: State, seat: int, skips: int = 0) -> None:
    """Pass the turn on from ``seat``, skipping ``skips`` seats (each logged)."""
    n, d = s.n, s.dir
    nxt = (seat + d) % n
    for _ in range(skips):
        ev(s, t="skip", seat=nxt)
        nxt = (nxt + d) % n
    if s.drawn:
        s.drawn = []
    s.turn = nxt
    s.phase = PLAY
    if s.effect == E_LOCK and nxt == s.eowner:  # FRZ-2
        s.effect = E_NONE
        ev(s, t="effect_end", kind="forces_of_nature")


def shuffle(s: State, cards: list[int]) -> None:
    """Fisher-Yates driven by the round's generator (cheaper than ``random.shuffle``)."""
    rand = s.rng.random
    for i in range(len(cards) - 1, 0, -1):
        j = int(rand() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


def hands_moved(s: State) -> None:
    """Hands changed owners (HR-SEVEN-ZERO, HR-WILDPOWER): UNO declarations lapse."""
    for p in range(s.n):
        s.declared[p] = False
    s.exposed = -1
