"""What a seat may know (DIG-2): its view (shaped as ``view_types.View``), the events it saw,
and determinized copies for search, in which everything it cannot see is sampled anew."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence

from .cards import CODES, COLOR_CODES, KCOLOR, codes
from .events import Event
from .moves import legal_ids, playable_drawn
from .state import (
    DRAWN,
    E_HYPER,
    E_LOCK,
    GIVE,
    OVER,
    PHASES,
    PKIND_NAMES,
    State,
    direction_name,
    shuffle,
)
from .view_types import Effect, Pending, View


def pending(s: State) -> Pending | None:
    """The pending penalty (EFF-0), or None."""
    if not s.pend:
        return None
    return {"kind": "press" if s.rules.deck.launcher else "draw", "amount": s.pend,
            "target": s.turn, "source": PKIND_NAMES[s.pkind]}


def effect(s: State) -> Effect | None:
    """The edition effect in force (BUZZ-1, FRZ-1), or None."""
    if s.effect == E_HYPER:
        return {"kind": "hyperspeed", "color": COLOR_CODES[s.ecolor]}
    if s.effect == E_LOCK:
        return {"kind": "forces_of_nature", "color": COLOR_CODES[s.ecolor], "owner": s.eowner}
    return None


def view(s: State, seat: int, history: bool = False) -> View:
    """What ``seat`` may know, JSON-ready. Other hands appear only as sizes (and, under HR-OPEN,
    as cards once they are small enough); with ``history``,
    the round's events as this seat saw them (what search bots infer hands from)."""
    rules = s.rules
    top = s.discard[-1] if s.discard else None
    acts = s.space.actions
    v: View = {
        "seat": seat,
        "players": s.n,
        "dealer": s.dealer,
        "turn": s.turn,
        "phase": PHASES[s.phase],
        "direction": direction_name(s),
        "top": CODES[top] if top is not None else None,
        "color": COLOR_CODES[s.color] if s.color >= 0 else None,
        "hand": codes(sorted(s.hands[seat])),
        "hand_sizes": [len(h) for h in s.hands],
        "uno_declared": list(s.declared),
        "uno_exposed": s.exposed if s.exposed >= 0 else None,
        "pending": pending(s),
        "effect": effect(s),
        "draw_pile_size": len(s.pile),
        "discard_size": len(s.discard),
        "scores": list(s.scores),
        "drawn": codes(s.drawn) if seat == s.turn and s.phase == DRAWN else [],
        "legal": [str(acts[i]) for i in legal_ids(s, seat)],
        "round_over": s.phase == OVER,
        "winner": s.outcome.winner if s.outcome else None,
        "seen": list(s.private.get(seat, ())),
    }
    if rules.teams:
        v["teams"] = [rules.team_of(p) for p in range(s.n)]
    if rules.open_hands is not None:
        v["open_hands"] = open_hands(s)
    if s.phase == GIVE and seat == s.turn:
        v["give_left"] = s.give_left
    if history:
        v["history"] = events_for(s, seat)
    return v


def open_hands(s: State) -> list[list[str] | None]:
    """HR-OPEN: per seat, its cards when the hand is small enough to lie face up, else None."""
    limit = s.rules.open_hands
    return [codes(sorted(h)) if limit is not None and len(h) <= limit else None
            for h in s.hands]


def is_open(s: State, seat: int) -> bool:
    """HR-OPEN: whether ``seat``'s hand lies face up for everyone."""
    limit = s.rules.open_hands
    return limit is not None and len(s.hands[seat]) <= limit


def events_for(s: State, seat: int | None) -> list[Event]:
    """The event stream as ``seat`` saw it (None: only public events)."""
    if s.events is None:
        return []
    return [e for e in s.events if "to" not in e or e["to"] == seat]


def determinize(s: State, seat: int, rng: random.Random, *,
                known: Mapping[int, Sequence[int]] | None = None,
                excluded: Mapping[int, Collection[int]] | None = None) -> State:
    """A copy in which what ``seat`` cannot see is re-dealt (see ``Game.determinize``)."""
    g = s.copy()
    g.events = None  # a search copy records nothing
    g.rng = random.Random(rng.getrandbits(64))
    # HR-OPEN: a hand lying face up is seen, so it is kept as it is
    others = [p for p in range(s.n) if p != seat and not is_open(s, p)]
    pool = list(s.pile)
    for p in others:
        pool.extend(s.hands[p])
    new_hands: dict[int, list[int]] = {p: [] for p in others}
    if known:
        for p, cards in known.items():
            if p == seat or p not in new_hands:
                continue
            for c in cards:
                if c in pool and len(new_hands[p]) < len(s.hands[p]):
                    pool.remove(c)
                    new_hands[p].append(c)
    shuffle(g, pool)
    for p in others:
        need = len(s.hands[p]) - len(new_hands[p])
        bad = excluded.get(p, ()) if excluded else ()
        hand = new_hands[p]
        if bad:
            i = len(pool) - 1
            while need and i >= 0:  # prefer cards the seat may hold, from the top down
                if pool[i] not in bad:
                    hand.append(pool.pop(i))
                    need -= 1
                i -= 1
        for _ in range(need):
            hand.append(pool.pop())
        g.hands[p] = hand
    g.pile = pool
    # guilt of other players' W4s follows the sampled hands, never the real ones
    g.chain = [(p, any(KCOLOR[k] == before for k in g.hands[p]) if p in new_hands else guilty,
                tuple(sorted(g.hands[p])) if p in new_hands else snap, before)
               for p, guilty, snap, before in s.chain]
    if s.phase == DRAWN and s.turn != seat:
        # another seat is deciding on its drawn cards: which ones is hidden too
        cand = [c for c in g.hands[s.turn] if playable_drawn(g, s.turn, c)]
        g.drawn = cand[-len(s.drawn):] if cand else list(s.drawn)
    return g
