"""The events a round emits (DIG-2): JSON-ready dicts tagged by ``t``, logged in order by
``Game.events`` and filtered per seat by ``Game.events_for`` and a view's ``history``.

One :class:`Event` type with every key but ``t`` optional, rather than one type a kind: the
consumers (narration, inference, the table screens, the web client) read events by tag and
by the few keys they need, and a tagged union would make each of them narrow before every
read. ``t`` is the one key every event has; which other keys come with which kind is listed
below and in the engine's emitters.
"""

# annotations stay evaluated (no __future__ import): the TypedDicts' NotRequired and
# Required marks are read from them at run time (test_views checks the engine against them)
from typing import Any, Literal, Required, TypedDict

EventKind = Literal[
    # set-up (SET-1, SET-3, SET-4, START-1..8)
    "dealer", "dealer_draw", "deal", "starter", "starter_returned",
    # turns and cards (TURN-1..7, EFF-1..5, HR-JUMP, HR-TIMER)
    "play", "draw", "drew", "press", "pass", "skip", "reverse", "color", "reshuffle",
    "jump_in", "timeout",
    # penalties and challenges (EFF-0, PEN-1, PEN-2, WD4-1..3, HR-REVENGE)
    "penalty", "draw_penalty", "misplay", "challenge", "challenge_result", "hand_shown",
    "accept", "revenge",
    # UNO calls (UNO-1..4)
    "uno", "catch",
    # house rules and editions (HR-SEVEN-ZERO, HR-WILDPOWER, ATK-*, BUZZ-1, FRZ-1)
    "swap_hands", "rotate_hands", "look", "swap_start", "give", "swap_taken", "swap_cards",
    "attack", "effect", "effect_end",
    # the end (END-1..3)
    "round_over",
]


class Event(TypedDict, total=False):
    """One event. Keys by kind: ``seat`` (who acted) on most; ``target`` on ``catch``,
    ``attack``, ``look``, ``swap_*``, ``give`` and targeted plays; ``to`` marks an event
    private to that seat (only its views and ``events_for(seat)`` show it)."""

    t: Required[EventKind]
    seat: int
    target: int
    to: int
    #: card codes (``play``, ``drew``, ``hand_shown``, ``jump_in``, ``misplay``, ``give``,
    #: ``swap_cards``); how many cards were reshuffled (``reshuffle``); ``[seat, code]`` pairs
    #: (``dealer_draw``). The one key whose type depends on the kind, hence ``Any``.
    cards: Any
    card: str
    color: str
    count: int
    presses: int
    reason: str
    direction: str
    kind: str
    owner: int
    power: str
    discarded: list[str]
    uno: bool
    code: str
    how: str
    where: str
    dealer: int
    hand_size: int
    targets: list[int]
    guilty: list[int]
    winner: int | None
    void: bool
    blocked: bool
    #: the round ended because its time ran out (HR-BLITZ, ``round_over``)
    on_time: bool
    points: list[int]
    scores: list[int]
