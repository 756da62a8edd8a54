"""The shape of a seat's view (DIG-2) and its parts, as :func:`unoarena.engine.views.view`
builds them: what bots decide on and what the table screens and the web client draw.

Kept apart from ``views.py`` so that it stays interpreted: the compiled build erases a
TypedDict's ``NotRequired`` marks, and tests read them at run time to check the engine's
views against this declaration.
"""

# annotations stay evaluated (no __future__ import): the TypedDicts' NotRequired and
# Required marks are read from them at run time (test_views checks the engine against them)
from typing import Literal, NotRequired, TypedDict

from .events import Event


class Pending(TypedDict):
    """A penalty waiting on the seat to move (EFF-0): cards to draw, or launcher presses."""

    kind: Literal["draw", "press"]
    amount: int
    target: int
    #: what started it: ``draw2``, ``draw4``, ``hit2`` or ``attack``
    source: str


class Effect(TypedDict):
    """An edition effect in force (BUZZ-1 hyperspeed, FRZ-1 forces of nature)."""

    kind: Literal["hyperspeed", "forces_of_nature"]
    color: str
    #: the seat whose next turn ends it (forces of nature only)
    owner: NotRequired[int]


class View(TypedDict):
    """What one seat may know (DIG-2), JSON-ready: what bots decide on, what the table screens
    and the web client draw. Card and colour values are their codes (``R5``, ``W4``, ``R``)."""

    seat: int
    players: int
    dealer: int
    turn: int
    #: ``play``, ``drawn`` (TURN-3), ``color`` (a colour to name), ``give`` or ``over``
    phase: str
    direction: Literal["cw", "ccw"]
    top: str | None
    color: str | None
    hand: list[str]
    hand_sizes: list[int]
    uno_declared: list[bool]
    uno_exposed: int | None
    pending: Pending | None
    effect: Effect | None
    draw_pile_size: int
    discard_size: int
    scores: list[int]
    #: the cards just drawn that may still be played (TURN-3), for the seat deciding
    drawn: list[str]
    legal: list[str]
    round_over: bool
    winner: int | None
    #: each seat's team (team play only)
    teams: NotRequired[list[int]]
    #: per seat, its cards while the hand lies face up, else null (HR-OPEN only)
    open_hands: NotRequired[list[list[str] | None]]
    #: cards still to give (HR-WILDPOWER swap), for the giving seat only
    give_left: NotRequired[int]
    #: the private events this seat has seen (hands shown to it, cards it drew or got)
    seen: list[Event]
    #: the round's events as this seat saw them (``view(..., history=True)``)
    history: NotRequired[list[Event]]
