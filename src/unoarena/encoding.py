"""The observation encoding: what one seat may know (RULES DIG-2) as a flat float32 vector.

The layout is versioned (:data:`ENCODING_VERSION`): a model trained on one version reads the
same fields at the same offsets for the same rule set and player count. Change the version
whenever a field is added, removed, moved or rescaled. ``docs/observations.md`` is generated
from :func:`field_table` by ``scripts/gen_obs_docs.py``.

Seat-indexed fields are *relative*: entry 0 is the observing seat, entry 1 the next seat
clockwise (seat + 1), and so on, so one policy can play any seat. Card-indexed fields use the
engine's card kinds (``unoarena.engine.CODES`` order: colour x rank, then the wilds), the same
80 entries for every edition, so the layout does not change with the deck.

:meth:`Encoder.encode` reads the game through its public accessors for speed and takes only
what the seat's :meth:`Game.view` holds; :meth:`Encoder.encode_view` builds the same vector
from the view itself and is the reference the tests compare against. The ``seer`` option adds
every hand and the draw pile: for debugging only, never the default.
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .engine import CODES, COLOR_CODES, Game, RuleSet, action_space

#: Bump on any change of fields, order, offsets or scaling.
ENCODING_VERSION = 1

NKINDS = len(CODES)  # 80: every card kind of every edition
NCOLORS = len(COLOR_CODES)  # R Y G B P
PHASE_NAMES = ("play", "drawn", "color", "give", "over")
PENDING_SOURCES = ("draw2", "draw4", "hit2", "attack")
EFFECT_KINDS = ("hyperspeed", "forces_of_nature")
#: Verbs of the engine's actions, in the order of the history's verb one-hot.
VERB_NAMES = ("play", "draw", "pass", "uno", "catch", "challenge", "accept", "color", "jump_in",
              "give", "timeout")
#: Match scores are divided by the rule set's target score and clipped to +-SCORE_CLIP.
SCORE_CLIP = 8.0

Obs = npt.NDArray[np.float32]

_KIND = {c: k for k, c in enumerate(CODES)}
_COLOR = {c: i for i, c in enumerate(COLOR_CODES)}
_PHASE = {p: i for i, p in enumerate(PHASE_NAMES)}
_SOURCE = {s: i for i, s in enumerate(PENDING_SOURCES)}
_EFFECT = {e: i for i, e in enumerate(EFFECT_KINDS)}
_VERB = {v: i for i, v in enumerate(VERB_NAMES)}


@dataclass(frozen=True)
class Field:
    """One named block of the vector: ``obs[offset:offset + size]``."""

    name: str
    offset: int
    size: int
    low: float
    high: float
    index: str  # what the entries are indexed by
    doc: str

    @property
    def slice(self) -> slice:
        """The slice of the observation vector this field occupies."""
        return slice(self.offset, self.offset + self.size)


def _field_specs(rules: RuleSet, seer: bool, history: int) -> list[tuple[str, int, float, float,
                                                                          str, str]]:
    """(name, size, low, high, index, meaning) of every field, in vector order."""
    n = rules.players
    deck = rules.deck.size
    copies = float(max(rules.deck.counts))
    seats = "relative seat"
    kinds = "card kind"
    specs: list[tuple[str, int, float, float, str, str]] = [
        ("hand", NKINDS, 0.0, copies, kinds, "copies of each card kind in the own hand"),
        ("hand_sizes", n, 0.0, float(deck), seats, "number of cards in each hand"),
        ("uno_declared", n, 0.0, 1.0, seats, "1 when that seat has declared UNO (UNO-1)"),
        ("uno_exposed", n, 0.0, 1.0, seats,
         "1 for the seat that can be caught for a missing UNO right now (UNO-2)"),
        ("turn", n, 0.0, 1.0, seats, "1 for the seat whose turn it is"),
        ("window", 1, 0.0, 1.0, "-",
         "1 when this observation is for an out-of-turn window (catch, late UNO, jump-in; "
         "DIG-3): the turn is another seat's and `decline` is legal"),
        ("phase", len(PHASE_NAMES), 0.0, 1.0, "phase: " + ", ".join(PHASE_NAMES),
         "one-hot phase of the turn seat"),
        ("top", NKINDS, 0.0, 1.0, kinds, "one-hot kind of the discard pile's top card"),
        ("color", NCOLORS, 0.0, 1.0, "colour: " + ", ".join(COLOR_CODES),
         "one-hot active colour (all 0 until a wild starter's colour is named)"),
        ("direction", 1, 0.0, 1.0, "-", "1 when play goes clockwise, 0 counter-clockwise"),
        ("drawn", NKINDS, 0.0, 1.0, kinds,
         "1 for each kind of the own playable drawn cards (phase drawn, own turn; TURN-3)"),
        ("pending_amount", 1, 0.0, float(deck), "-",
         "pending penalty on the turn seat (cards, or launcher presses in Attack; EFF-0)"),
        ("pending_source", len(PENDING_SOURCES), 0.0, 1.0,
         "source: " + ", ".join(PENDING_SOURCES), "one-hot kind of the pending penalty"),
        ("effect", len(EFFECT_KINDS), 0.0, 1.0, "effect: " + ", ".join(EFFECT_KINDS),
         "one-hot active edition effect (BUZZ-2, FRZ-1)"),
        ("effect_color", NCOLORS, 0.0, 1.0, "colour: " + ", ".join(COLOR_CODES),
         "one-hot colour of the active effect"),
        ("effect_owner", n, 0.0, 1.0, seats, "one-hot owner of a Forces of Nature lock (FRZ-2)"),
        ("scores", n, -SCORE_CLIP, SCORE_CLIP, seats,
         "match scores before this round (per team with teams) / target_score, clipped"),
        ("teammate", n, 0.0, 1.0, seats, "1 for seats on the own team (HR-TEAM; self is 1)"),
        ("draw_pile", 1, 0.0, float(deck), "-",
         "cards in the draw pile (the discard pile holds the rest of the deck)"),
    ]
    if rules.open_hands is not None:  # HR-OPEN: only rule sets with open hands have these
        for i in range(1, n):
            specs.append((f"open_hand{i}", NKINDS, 0.0, copies, kinds,
                          f"the hand of relative seat {i} while it lies face up (HR-OPEN), "
                          "else 0"))
    for h in range(history):
        p = f"history{h}_"
        age = "the last public action" if h == 0 else f"the public action {h} before the last"
        specs += [
            (p + "valid", 1, 0.0, 1.0, "-", f"1 when {age} exists"),
            (p + "seat", n, 0.0, 1.0, seats, f"one-hot seat that took {age}"),
            (p + "verb", len(VERB_NAMES), 0.0, 1.0, "verb: " + ", ".join(VERB_NAMES),
             f"one-hot verb of {age}"),
            (p + "cards", NKINDS, 0.0, copies, kinds,
             f"cards played by {age} (never the cards of a private `give`)"),
            (p + "color", NCOLORS, 0.0, 1.0, "colour: " + ", ".join(COLOR_CODES),
             f"one-hot colour named by {age}"),
            (p + "target", n, 0.0, 1.0, seats, f"one-hot target seat of {age}"),
            (p + "size_change", n, -float(deck), float(deck), seats,
             f"change of each hand size caused by {age} (draws, penalties, swaps)"),
        ]
    if seer:
        for i in range(1, n):
            specs.append((f"seer_hand{i}", NKINDS, 0.0, copies, kinds,
                          f"SEER ONLY: the hand of relative seat {i}"))
        specs.append(("seer_draw_pile", NKINDS, 0.0, copies, kinds,
                      "SEER ONLY: copies of each kind in the draw pile"))
    return specs


def layout(rules: RuleSet, *, seer: bool = False, history: int = 0) -> list[Field]:
    """The fields of the vector for a rule set, in order, with offsets."""
    out: list[Field] = []
    off = 0
    for name, size, low, high, index, doc in _field_specs(rules, seer, history):
        out.append(Field(name, off, size, low, high, index, doc))
        off += size
    return out


class History:
    """The last ``depth`` public actions of a round, newest first, as small tuples.

    Recorded by the environments from the action ids they apply (the engine's events are off
    for speed). Each entry: (seat, action id, hand-size change per seat).
    """

    __slots__ = ("depth", "entries")

    def __init__(self, depth: int) -> None:
        self.depth = depth
        self.entries: deque[tuple[int, int, tuple[int, ...]]] = deque(maxlen=depth)

    def clear(self) -> None:
        """Forget every entry (a new round starts)."""
        self.entries.clear()

    def record(self, seat: int, aid: int, before: Sequence[int], after: Sequence[int]) -> None:
        """Record that ``seat`` applied action ``aid``; ``before`` and ``after`` are every seat's
        hand size around it, kept as their change."""
        self.entries.appendleft((seat, aid, tuple(a - b for a, b in zip(after, before,
                                                                          strict=True))))


class Encoder:
    """Encodes a seat's observation for one rule set (fixed shape per rule set and options)."""

    def __init__(self, rules: RuleSet, *, seer: bool = False, history: int = 0) -> None:
        if history < 0:
            raise ValueError(f"history must be 0 or more, not {history}")
        self.rules = rules
        self.seer = seer
        self.history = history
        self.fields = layout(rules, seer=seer, history=history)
        self.by_name = {f.name: f for f in self.fields}
        self.size = sum(f.size for f in self.fields)
        self.low: Obs = np.concatenate([np.full(f.size, f.low, np.float32) for f in self.fields])
        self.high: Obs = np.concatenate([np.full(f.size, f.high, np.float32)
                                         for f in self.fields])
        n = self.players = rules.players
        self._rel = [tuple((seat + i) % n for i in range(n)) for seat in range(n)]
        self._buf = array("f", bytes(4 * self.size))
        self._zero = array("f", bytes(4 * self.size))
        self._view: Obs = np.frombuffer(self._buf, dtype=np.float32)
        o = {f.name: f.offset for f in self.fields}
        self._o = o
        assert o["hand"] == 0
        self._offs = tuple(o[name] for name in (
            "hand_sizes", "uno_declared", "uno_exposed", "turn", "window", "phase",
            "top", "color", "direction", "drawn", "pending_amount", "pending_source", "effect",
            "effect_color", "effect_owner", "draw_pile"))
        self._open = rules.open_hands  # HR-OPEN: hands of at most this many cards are seen
        self._tgame: Game | None = None  # the game the templates were made for
        self._tmpl: list[array[float]] = []
        self._pend_high = self.by_name["pending_amount"].high
        self._score_div = float(rules.target_score)
        self._teams = [tuple(float(rules.team_of(s) == rules.team_of(seat)) if rules.teams
                             else float(s == seat) for s in self._rel[seat])
                       for seat in range(n)]
        space = action_space(rules)
        self._space = space
        acts = space.actions
        # per action id (and the env's extra `decline` id at the end): its first card or -1
        self._first_card = (*(a.cards[0] if a.cards else -1 for a in acts), -1)
        self._verb = tuple(_VERB[a.verb] for a in acts)

    def field(self, obs: npt.NDArray[Any], name: str) -> npt.NDArray[Any]:
        """The entries of one field in an observation (or a batch, on the last axis)."""
        return obs[..., self.by_name[name].slice]

    # -- fast path ------------------------------------------------------------------------------
    def encode(self, game: Game, seat: int, *, window: bool = False,
               history: History | None = None, legal: Sequence[int] | None = None) -> Obs:
        """The observation of ``seat`` (a new array). ``window``: the seat acts in an
        out-of-turn window. ``history``: recent public actions (when the encoder has them).
        ``legal``: ``game.legal_ids(seat)`` when the caller has it already."""
        return self.encode_fast(game, seat, window, history, legal)

    def encode_fast(self, game: Game, seat: int, window: bool, history: History | None,
                    legal: Sequence[int] | None) -> Obs:
        """:meth:`encode` with positional arguments (the environments' hot path)."""
        if game is not self._tgame:
            self._templates(game)
        buf = self._buf
        buf[:] = self._tmpl[seat]
        (o_sizes, o_declared, o_exposed, o_turn, o_window, o_phase, o_top, o_color,
         o_direction, o_drawn, o_pend, o_source, o_effect, o_ecolor, o_owner,
         o_pile) = self._offs
        n = self.players
        for k in game.hand(seat):  # the hand is the first field: offset 0
            buf[k] += 1.0
        sizes = game.hand_sizes()
        i = o_sizes
        for s in self._rel[seat]:
            buf[i] = sizes[s]
            i += 1
        if 1 in sizes:
            for i, s in enumerate(self._rel[seat]):
                if sizes[s] == 1 and game.declared(s):
                    buf[o_declared + i] = 1.0
        ex = game.uno_exposed
        if ex is not None:
            buf[o_exposed + (ex - seat) % n] = 1.0
        turn = game.turn
        buf[o_turn + (turn - seat) % n] = 1.0
        if window:
            buf[o_window] = 1.0
        phase = game.phase
        buf[o_phase + _PHASE[phase]] = 1.0
        buf[o_top + game.top] = 1.0
        color = game.color
        if color >= 0:
            buf[o_color + color] = 1.0
        if game.direction == "cw":
            buf[o_direction] = 1.0
        if phase == "drawn" and turn == seat:
            first = self._first_card
            for aid in legal if legal is not None else game.legal_ids(seat):
                k = first[aid]
                if k >= 0:
                    buf[o_drawn + k] = 1.0
        pend = game.pending
        if pend is not None:
            buf[o_pend] = min(float(pend["amount"]), self._pend_high)
            buf[o_source + _SOURCE[pend["source"]]] = 1.0
        eff = game.effect
        if eff is not None:
            buf[o_effect + _EFFECT[eff["kind"]]] = 1.0
            buf[o_ecolor + _COLOR[eff["color"]]] = 1.0
            if "owner" in eff:
                buf[o_owner + (eff["owner"] - seat) % n] = 1.0
        buf[o_pile] = game.draw_pile_size
        if self._open is not None:
            self._encode_open(buf, game, seat)
        if history is not None and self.history:
            self._encode_history(buf, seat, history)
        if self.seer:
            self._encode_seer(buf, game, seat)
        return self._view.copy()

    def _templates(self, game: Game) -> None:
        """Per seat, the vector with the fields that stay fixed for a round (scores, teams)
        filled in and the rest zero; encoding starts from a copy."""
        n = self.players
        scores = game.scores
        o_scores = self._o["scores"]
        o_team = self._o["teammate"]
        div = self._score_div
        self._tmpl = []
        for seat in range(n):
            t = array("f", self._zero)
            for i, s in enumerate(self._rel[seat]):
                t[o_scores + i] = max(-SCORE_CLIP, min(SCORE_CLIP, scores[s] / div))
                t[o_team + i] = self._teams[seat][i]
            self._tmpl.append(t)
        self._tgame = game

    def _encode_history(self, buf: array[float], seat: int, history: History) -> None:
        n = self.players
        acts = self._space.actions
        for h, (actor, aid, change) in enumerate(history.entries):
            if h >= self.history:
                break
            b = self._o[f"history{h}_valid"]
            buf[b] = 1.0
            b += 1
            buf[b + (actor - seat) % n] = 1.0
            b += n
            buf[b + self._verb[aid]] = 1.0
            b += len(VERB_NAMES)
            a = acts[aid]
            if a.verb != "give":
                for k in a.cards:
                    buf[b + k] += 1.0
            b += NKINDS
            if a.color >= 0:
                buf[b + a.color] = 1.0
            b += NCOLORS
            if a.target >= 0:
                buf[b + (a.target - seat) % n] = 1.0
            b += n
            rel = self._rel[seat]
            for i in range(n):
                buf[b + i] = change[rel[i]]

    def _encode_open(self, buf: array[float], game: Game, seat: int) -> None:
        """HR-OPEN: the opponents' hands that lie face up."""
        rel = self._rel[seat]
        limit = self._open
        sizes = game.hand_sizes()
        for i in range(1, self.players):
            if limit is not None and sizes[rel[i]] <= limit:
                b = self._o[f"open_hand{i}"]
                for k in game.hand(rel[i]):
                    buf[b + k] += 1.0

    def _encode_seer(self, buf: array[float], game: Game, seat: int) -> None:
        rel = self._rel[seat]
        for i in range(1, self.players):
            b = self._o[f"seer_hand{i}"]
            for k in game.hand(rel[i]):
                buf[b + k] += 1.0
        b = self._o["seer_draw_pile"]
        for k in game.draw_pile():
            buf[b + k] += 1.0

    # -- reference path -------------------------------------------------------------------------
    def encode_view(self, view: Mapping[str, Any], *, window: bool = False,
                    history: History | None = None) -> Obs:
        """The same vector built from ``Game.view(seat)`` alone: the definition of what the
        encoding may contain (slow; for tests and for code that only has views)."""
        if self.seer:
            raise ValueError("a view holds no other hands: the seer encoding needs the game")
        out = np.zeros(self.size, np.float32)
        f = self.by_name
        n = self.players
        seat = int(view["seat"])
        rel = self._rel[seat]

        def put(name: str, i: int, value: float) -> None:
            out[f[name].offset + i] = value

        for k in _kinds(view["hand"]):
            out[f["hand"].offset + k] += 1.0
        for i in range(n):
            put("hand_sizes", i, view["hand_sizes"][rel[i]])
            put("uno_declared", i, float(view["uno_declared"][rel[i]]))
            put("scores", i, max(-SCORE_CLIP, min(SCORE_CLIP, view["scores"][rel[i]]
                                                  / self._score_div)))
            if "teams" in view:
                put("teammate", i, float(view["teams"][rel[i]] == view["teams"][seat]))
            else:
                put("teammate", i, float(i == 0))
        if view["uno_exposed"] is not None:
            put("uno_exposed", (view["uno_exposed"] - seat) % n, 1.0)
        put("turn", (view["turn"] - seat) % n, 1.0)
        put("window", 0, float(window))
        put("phase", _PHASE[view["phase"]], 1.0)
        put("top", _KIND[view["top"]], 1.0)
        if view["color"] is not None:
            put("color", _COLOR[view["color"]], 1.0)
        put("direction", 0, float(view["direction"] == "cw"))
        for k in set(_kinds(view["drawn"])):
            put("drawn", k, 1.0)
        pend = view["pending"]
        if pend is not None:
            put("pending_amount", 0, min(float(pend["amount"]), self._pend_high))
            put("pending_source", _SOURCE[pend["source"]], 1.0)
        eff = view["effect"]
        if eff is not None:
            put("effect", _EFFECT[eff["kind"]], 1.0)
            put("effect_color", _COLOR[eff["color"]], 1.0)
            if "owner" in eff:
                put("effect_owner", (eff["owner"] - seat) % n, 1.0)
        put("draw_pile", 0, view["draw_pile_size"])
        for i, cards in enumerate(view.get("open_hands") or ()):
            if cards is not None and (i - seat) % n:  # HR-OPEN: the others' open hands
                for k in _kinds(cards):
                    out[f[f"open_hand{(i - seat) % n}"].offset + k] += 1.0
        if history is not None and self.history:
            buf = array("f", out.tobytes())
            self._encode_history(buf, seat, history)
            out = np.frombuffer(buf, dtype=np.float32).copy()
        return out


def _kinds(codes: Iterable[str]) -> list[int]:
    return [_KIND[c] for c in codes]


def field_table(rules: RuleSet, *, seer: bool = False, history: int = 0) -> list[dict[str, Any]]:
    """Rows describing every field (for the generated documentation)."""
    return [{"name": f.name, "offset": f.offset, "size": f.size, "low": f.low, "high": f.high,
             "index": f.index, "meaning": f.doc}
            for f in layout(rules, seer=seer, history=history)]
