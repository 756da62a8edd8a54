"""One round of UNO under any rule set: the public façade over the round's state and its rules.

``Game`` holds a :class:`~.state.State` and applies actions to it. ``step`` (unchecked) and
``apply`` (checked) share one implementation; ``apply`` only adds the legality check, the error
diagnosis and the misplay penalties. Every random choice comes from the state's own
``random.Random`` (DIG-1).

Turn structure: the seat in ``turn`` must act in ``phase``:
``play`` (play, draw, or answer a pending penalty), ``drawn`` (play the drawn card or pass),
``color`` (name the colour of a wild starter), ``give`` (choose cards for a wild-power swap),
``over``. Other seats may act only inside windows (DIG-3): catch an undeclared UNO, declare a
late UNO, jump in.

Where each rule lives: ``deal`` (SET, START), ``moves`` (legal actions, TURN-1 matching),
``play`` (card effects, EFF, END-1/2), ``draws`` (draws, penalties, launcher, WD4 challenge),
``seven_zero``, ``wild_powers``, ``attack``, ``editions`` (Buzz, Frozen II), ``calls`` (UNO,
timeouts), ``scoring`` (END-3, MATCH), ``diagnose`` (DIG-4, PEN, UNO-3), ``views`` (DIG-2).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Collection, Mapping, Sequence
from numbers import Integral
from typing import Any, SupportsIndex

from .actions import POWERS, Action, ActionSpace
from .calls import catch, timeout, uno
from .cards import CODES, COLOR_CODES, NKINDS, codes
from .deal import Setup, deal, name_starter_color
from .diagnose import diagnose, penalize_fault
from .draws import challenge, draw_action, penalize, take_pending
from .errors import IllegalAction, excerpt
from .events import Event
from .moves import legal_ids, window_seats
from .play import play
from .rules import RuleSet
from .scoring import end_on_time, flush_void
from .state import (
    GIVE,
    OVER,
    PHASES,
    TIME_UP,
    V_ACCEPT,
    V_CATCH,
    V_CHALLENGE,
    V_COLOR,
    V_DRAW,
    V_GIVE,
    V_JUMP,
    V_PASS,
    V_PLAY,
    V_TIMEOUT,
    V_UNO,
    VERB_CODE,
    Outcome,
    State,
    Termination,
    action_space,
    advance,
    close_windows,
    direction_name,
    ev,
)
from .view_types import Effect, Pending, View
from .views import determinize, effect, events_for, pending, view
from .wild_powers import give

__all__ = ["MAX_ACTION_TEXT", "PHASES", "TIME_UP", "TIME_UP_TEXT", "Game", "Outcome", "Setup",
           "Termination", "action_space", "move_text"]

#: How records write the move that ended a round on time (HR-BLITZ).
TIME_UP_TEXT = "time_up"


def move_text(space: ActionSpace, aid: int) -> str:
    """A history entry's action as records write it: the action's text, or ``time_up``."""
    return TIME_UP_TEXT if aid == TIME_UP else str(space.actions[aid])


class Game:
    """A round of UNO. ``Game(rules, seed)`` deals; actions are applied for a seat."""

    def __init__(self, rules: RuleSet, seed: int = 0, dealer: int = 0, *,
                 setup: Setup | None = None, scores: Sequence[int] | None = None,
                 record_events: bool = True, _state: State | None = None) -> None:
        if _state is not None:  # clone(): no deal, the copied state
            self.state = _state
            return
        n = rules.players
        if not 0 <= dealer < n:
            raise ValueError(f"dealer {dealer} is not a seat of a {n}-player game (0..{n - 1})")
        space = action_space(rules)
        s = self.state = State(rules, seed, dealer, space, n, space.rows, random.Random(seed))
        s.hands = [[] for _ in range(n)]
        s.declared = [False] * n
        s.simple = not (rules.seven_zero or rules.double_play or rules.multi_play
                        or rules.same_number_play
                        or rules.number_finish or rules.no_wild_finish or rules.wild_powers
                        or rules.sum_jump_in != "off" or rules.deck.launcher)
        s.w4_strict = rules.w4_rule == "restricted" and not rules.wd4_challenge
        s.jump_on = rules.jump_in or rules.sum_jump_in != "off"
        s.double = rules.double_play
        s.special = rules.seven_zero or rules.wild_powers or rules.deck.launcher
        s.acts = space.actions
        s.vcode = space.vcodes
        s.scores = list(scores) if scores is not None else [0] * n
        s.events = [] if record_events else None
        deal(s, setup)
        if s.void_due:
            flush_void(s)

    # ======================================================================================
    # public read-only state
    # ======================================================================================
    @property
    def rules(self) -> RuleSet:
        """The rule set this round is played under."""
        return self.state.rules

    @property
    def seed(self) -> int:
        """The round's seed: with the rules, the dealer and the actions, it replays the
        round (DIG-1)."""
        return self.state.seed

    @property
    def dealer(self) -> int:
        """The seat that dealt this round (SET-1, SET-2)."""
        return self.state.dealer

    @property
    def space(self) -> ActionSpace:
        """Every action these rules can express, numbered: what action ids and masks index."""
        return self.state.space

    @property
    def history(self) -> list[tuple[int, int]]:
        """``(seat, action id)`` of every action applied, in order."""
        return self.state.history

    @property
    def players(self) -> int:
        """How many seats the table has."""
        return self.state.n

    @property
    def turn(self) -> int:
        """The seat whose turn it is (the one answering a penalty or naming a colour, too)."""
        return self.state.turn

    @property
    def phase(self) -> str:
        """What the turn seat must do: ``play``, ``drawn`` (decide on drawn cards, TURN-3),
        ``color`` (name a colour), ``give`` (HR-WILDPOWER) or ``over``."""
        return PHASES[self.state.phase]

    @property
    def direction(self) -> str:
        """``cw`` or ``ccw``: the direction of play (EFF-2)."""
        return direction_name(self.state)

    @property
    def top(self) -> int:
        """The top card of the discard pile (a kind; ``CODES`` names it)."""
        return self.state.discard[-1]

    @property
    def color(self) -> int:
        """The active colour (an index into ``COLOR_CODES``; a wild's named colour, EFF-4),
        or -1 while none is named."""
        return self.state.color

    @property
    def is_over(self) -> bool:
        """True once the round has ended (END-1, or void when the deck runs out, TURN-6)."""
        return self.state.phase == OVER

    @property
    def outcome(self) -> Outcome | None:
        """Who won, how, and the points, once the round is over; None before."""
        return self.state.outcome

    @property
    def events(self) -> list[Event]:
        """Every event so far, private ones included: for logs and replays, never for a
        player (use :meth:`events_for` or :meth:`view`). Empty when events are not recorded."""
        events = self.state.events
        return events if events is not None else []

    def hand(self, seat: int) -> list[int]:
        """A copy of a seat's hand (kinds). Not for players: use :meth:`view`."""
        return list(self.state.hands[seat])

    def hand_sizes(self) -> list[int]:
        """How many cards each seat holds: public to all (DIG-2)."""
        return [len(h) for h in self.state.hands]

    @property
    def draw_pile_size(self) -> int:
        """How many cards are left to draw (public, DIG-2)."""
        return len(self.state.pile)

    @property
    def discard_pile(self) -> list[int]:
        """A copy of the discard pile, bottom first (its top is :attr:`top`)."""
        return list(self.state.discard)

    def draw_pile(self) -> list[int]:
        """The draw pile, top first. Not for players."""
        return self.state.pile[::-1]

    @property
    def pending(self) -> Pending | None:
        """The pending penalty (EFF-0), or None."""
        return pending(self.state)

    @property
    def effect(self) -> Effect | None:
        """The edition effect in force (BUZZ-1 hyperspeed, FRZ-1 forces of nature), or None."""
        return effect(self.state)

    @property
    def uno_exposed(self) -> int | None:
        """The seat that could be caught for a missing UNO right now, if any (UNO-2)."""
        exposed = self.state.exposed
        return exposed if exposed >= 0 else None

    def declared(self, seat: int) -> bool:
        """Whether ``seat`` has declared UNO on its current one card (UNO-1, UNO-4)."""
        return self.state.declared[seat]

    @property
    def scores(self) -> list[int]:
        """Match scores before this round (for views)."""
        return list(self.state.scores)

    # ======================================================================================
    # legal actions (moves.py)
    # ======================================================================================
    def legal_ids(self, seat: int) -> list[int]:
        """Integer ids of every action the seat may take now (empty if it may not act)."""
        return legal_ids(self.state, seat)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action the seat may take now, as :class:`Action` objects (empty if none)."""
        acts = self.state.space.actions
        return [acts[i] for i in legal_ids(self.state, seat)]

    def legal_mask(self, seat: int) -> list[bool]:
        """The legal actions as a mask over :attr:`space`, for learning agents."""
        mask = [False] * len(self.state.space)
        for i in legal_ids(self.state, seat):
            mask[i] = True
        return mask

    def can_act(self, seat: int) -> bool:
        """Whether the seat has any legal action now: its turn, or an open window (DIG-3)."""
        return bool(legal_ids(self.state, seat))

    def window_seats(self) -> list[int]:
        """Seats other than the turn seat with an open window, from the last actor's left."""
        return window_seats(self.state)

    # ======================================================================================
    # applying actions
    # ======================================================================================
    def apply(self, action: object, seat: object = None) -> None:
        """Checked apply (DIG-4): an illegal action raises :class:`IllegalAction` and changes
        nothing, unless the rules turn that fault into a penalty (PEN-1/2, UNO-3).

        ``action`` is an :class:`Action`, its text or its integer id; ``seat`` an integer (by
        default the seat whose turn it is). Both are typed ``object`` because this is the
        engine's boundary: anything else is refused with ``bad_action``, even compiled."""
        s = self.state
        if seat is None:
            who = s.turn
        elif type(seat) is int:
            who = seat
        else:
            who = _boundary_seat(seat)
        if not 0 <= who < s.n:
            raise IllegalAction("bad_target", f"seat {who} does not exist (0..{s.n - 1})")
        sp = s.space
        if type(action) is int:
            if not 0 <= action < len(sp):
                raise IllegalAction("bad_action", f"action id {action} is outside 0..{len(sp) - 1}")
            act = sp.actions[action]
            aid: int | None = action
        else:
            given = action if type(action) is Action else _boundary_action(action)
            if isinstance(given, int):  # an integer-like id (numpy's, say)
                self.apply(given, who)
                return
            if given.power == "color":
                # HR-WILDPOWER's "name a colour" is the wild's plain play
                given = Action(given.verb, given.cards, given.color, given.target, "",
                               given.uno, given.give)
            act = given
            try:
                aid = sp.index.get(act)
            except TypeError:  # a field of an unhashable type (a list of cards)
                aid = None
            if aid is None:
                _check_action(act)
        if s.phase == OVER:
            raise IllegalAction("round_over", "the round is over")
        if act.give and act.verb == "play":
            self._apply_compound(act, who)
            return
        if act.verb == "timeout" and s.rules.turn_timer is not None and who == s.turn:
            self.step(sp.timeout, who)  # HR-TIMER: never listed as legal, always possible
            return
        legal = legal_ids(s, who)
        if aid is not None and aid in legal:
            self.step(aid, who)
            return
        if act.uno and s.rules.false_uno_penalty and not s.rules.silent_uno \
                and act.verb in ("play", "jump_in"):
            plain = sp.index.get(act.without_uno())
            if plain is not None and plain in legal:  # UNO-3: a false declaration on a play
                self.step(plain, who)
                s.history[-1] = (who, sp.index[act])  # the record keeps the declaration
                ev(s, t="uno", seat=who)
                penalize(s, who, s.rules.false_uno_penalty, "false_uno")
                if s.void_due:
                    flush_void(s)
                return
        code, msg = diagnose(s, act, who)
        if penalize_fault(s, code, act, who):
            return
        raise IllegalAction(code, msg)

    def time_up(self) -> None:
        """HR-BLITZ: the caller's clock says the round's ``blitz`` seconds are over. The seat
        holding the fewest points in hand wins the round (ties: the fewest cards, then the
        first in play order from the turn seat) and the round is scored. Like HR-TIMER's
        timeout, the engine has no clock of its own; the history records the move as
        ``TIME_UP`` for the turn seat, so a record replays it. Refused (changing nothing)
        without a round time limit or once the round is over."""
        s = self.state
        if s.rules.blitz is None:
            raise IllegalAction("not_in_rules", "these rules set no time limit for a round "
                                                "(blitz)")
        if s.phase == OVER:
            raise IllegalAction("round_over", "the round is over")
        s.history.append((s.turn, TIME_UP))
        close_windows(s)
        end_on_time(s)

    def _apply_compound(self, act: Action, seat: int) -> None:
        """``play W power=swap target=2 give=R1+G5+Y9``: the play, then each give, atomically."""
        snapshot = self.state.copy()
        try:
            self.apply(Action(act.verb, act.cards, act.color, act.target, act.power, act.uno),
                       seat)
            for k in act.give:
                if self.state.phase != GIVE:
                    raise IllegalAction("bad_action", "more cards to give than the swap takes")
                self.apply(Action("give", (k,)), seat)
            if self.state.phase == GIVE:
                raise IllegalAction("bad_action",
                                    f"the swap takes {self.state.give_left} more card(s) to give")
        except IllegalAction:
            self.state = snapshot
            raise

    def step(self, aid: int, seat: int) -> None:
        """Unchecked fast path: apply a legal action id for a seat."""
        s = self.state
        s.history.append((seat, aid))
        v = s.vcode[aid]
        if v == V_PLAY:
            s.exposed = -1
            s.jump = False
            play(s, seat, s.acts[aid], False)
        elif v == V_DRAW:
            s.exposed = -1
            s.jump = False
            draw_action(s, seat)
        elif v == V_PASS:
            s.exposed = -1
            s.jump = False
            ev(s, t="pass", seat=seat)
            advance(s, seat)
        else:
            _step_rare(s, v, s.acts[aid], seat)
        if s.void_due:
            flush_void(s)

    # ======================================================================================
    # views, cloning, equality (views.py, state.py)
    # ======================================================================================
    def view(self, seat: int, history: bool = False) -> View:
        """What ``seat`` may know (DIG-2), JSON-ready. Other hands appear only as sizes.

        With ``history``, the round's events as this seat saw them (public ones and its own
        private ones) are included under ``"history"``: what search bots infer hands from.
        A seat that is not at this table (a negative one too: it must not read another seat's
        hand by indexing from the end) is a ``ValueError``.
        """
        n = self.state.n
        if type(seat) is not int:  # the hot path (every bot's every step) skips the ABC check
            if isinstance(seat, bool) or not isinstance(seat, Integral):
                raise ValueError(f"seat {seat!r} is not a seat of this {n}-player game: "
                                 f"0 to {n - 1}")
            seat = int(seat)
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat!r} is not a seat of this {n}-player game: 0 to {n - 1}")
        return view(self.state, seat, history)

    def events_for(self, seat: int | None) -> list[Event]:
        """The event stream as ``seat`` saw it (None: only public events)."""
        return events_for(self.state, seat)

    def clone(self, record_events: bool = True) -> Game:
        """An independent copy (same future for the same actions)."""
        state = self.state.copy()
        if not record_events:
            state.events = None
        return Game(state.rules, _state=state)

    def determinize(self, seat: int, rng: random.Random, *,
                    known: Mapping[int, Sequence[int]] | None = None,
                    excluded: Mapping[int, Collection[int]] | None = None) -> Game:
        """A copy for search in which everything ``seat`` cannot see is sampled anew.

        Other hands keep their sizes; their cards and the draw pile's order are re-dealt at
        random from the cards ``seat`` has not seen, and the copy gets a fresh generator, so
        nothing hidden (hands, pile order, future shuffles, a W4 player's guilt) survives.
        ``known`` gives cards ``seat`` knows to be in a hand (shown to it, or given by it);
        ``excluded`` gives kinds a seat is believed not to hold (inferred from its draws):
        the sampler honours them where the unseen cards allow. The result records no events.
        """
        state = determinize(self.state, seat, rng, known=known, excluded=excluded)
        return Game(state.rules, _state=state)

    def fingerprint(self) -> tuple[Any, ...]:
        """Everything that determines the future of the game (for equality checks)."""
        return self.state.fingerprint()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.rules == other.rules and self.fingerprint() == other.fingerprint()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        s = self.state
        return (f"<Game {s.rules.preset} {s.n}p turn={s.turn} phase={self.phase} "
                f"top={CODES[s.discard[-1]] if s.discard else '-'}>")


def _step_rare(s: State, v: int, act: Action, seat: int) -> None:
    """The verbs other than play, draw and pass."""
    if v == V_CATCH:
        catch(s, seat, act.target)
    elif v == V_UNO:
        uno(s, seat)
    elif v == V_COLOR:
        name_starter_color(s, act.color)
    elif v == V_GIVE:
        give(s, seat, act.cards[0])
    else:
        close_windows(s)
        if v == V_JUMP:
            ev(s, t="jump_in", seat=seat, cards=codes(act.cards))
            play(s, seat, act, True)
        elif v == V_CHALLENGE:
            challenge(s, seat)
        elif v == V_ACCEPT:
            ev(s, t="accept", seat=seat)
            take_pending(s, seat)
        elif v == V_TIMEOUT:
            timeout(s, seat)


#: A longer action text is refused before it is parsed (the longest real one is far shorter).
MAX_ACTION_TEXT = 200
_POWER_VALUES = ("", *POWERS)


def _boundary_action(action: object) -> Action | int:
    """An action given to :meth:`Game.apply` as anything but an ``int``: text is parsed, an
    :class:`Action` passes, an integer-like id (not a bool) is converted; the rest is refused."""
    if isinstance(action, Action):
        return action
    if isinstance(action, str):
        if len(action) > MAX_ACTION_TEXT:
            raise IllegalAction("bad_action", f"an action is at most {MAX_ACTION_TEXT} "
                                              f"characters, not {len(action)}")
        return Action.parse(action)
    if not isinstance(action, bool) and isinstance(action, SupportsIndex):
        return operator.index(action)
    raise IllegalAction("bad_action", "an action is an Action, its text or its id (a whole "
                                      f"number), not {excerpt(action)}")


def _boundary_seat(seat: object) -> int:
    """A seat given as anything but an ``int``: an integer-like value (not a bool) or refused."""
    if not isinstance(seat, bool) and isinstance(seat, SupportsIndex):
        return operator.index(seat)
    raise IllegalAction("bad_action", f"a seat is a whole number, not {excerpt(seat)}")


def _kinds_ok(cards: object) -> bool:
    return type(cards) is tuple and all(type(k) is int and 0 <= k < NKINDS for k in cards)


def _check_action(act: Action) -> None:
    """Refuse an :class:`Action` built with fields no action can have (DIG-4 ``bad_action``),
    before anything reads them; a well-formed but illegal one is diagnosed as usual."""
    problem = ""
    if type(act.verb) is not str or act.verb not in VERB_CODE:
        problem = f"unknown verb {excerpt(act.verb)}"
    elif not _kinds_ok(act.cards) or not _kinds_ok(act.give):
        problem = (f"cards are card kinds 0..{NKINDS - 1}, not "
                   f"{excerpt(act.cards if not _kinds_ok(act.cards) else act.give)}")
    elif type(act.color) is not int or not -1 <= act.color < len(COLOR_CODES):
        problem = f"a colour is -1 or 0..{len(COLOR_CODES) - 1}, not {excerpt(act.color)}"
    elif type(act.target) is not int or act.target < -1:
        problem = f"a target is -1 or a seat number, not {excerpt(act.target)}"
    elif type(act.power) is not str or act.power not in _POWER_VALUES:
        problem = f"power is one of {', '.join(POWERS)}, not {excerpt(act.power)}"
    elif type(act.uno) is not bool:
        problem = f"uno is true or false, not {excerpt(act.uno)}"
    if problem:
        raise IllegalAction("bad_action", problem)
