"""Shared checks for the engine's conformance, property, record, view and golden tests.

The checks here are the invariants of DESIGN lesson 8 and RULES ED-5, DIG-1, DIG-2 and DIG-4.
Each raises ``AssertionError`` with a message naming the rules, seed and ply, so that a failure
in a random game can be reproduced from the message alone.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from unoarena.engine import (
    CODES,
    ERROR_CODES,
    Action,
    Game,
    IllegalAction,
    RuleSet,
    game_record,
    replay_game,
)

# -- views (DIG-2) --------------------------------------------------------------------------------
#: Keys of a view that depend on the seat it is for; everything else is the same for every seat.
PRIVATE_KEYS = frozenset({"seat", "hand", "drawn", "legal", "seen", "give_left"})
#: Keys every view has.
VIEW_KEYS = frozenset({
    "seat", "players", "dealer", "turn", "phase", "direction", "top", "color", "hand",
    "hand_sizes", "uno_declared", "uno_exposed", "pending", "effect", "draw_pile_size",
    "discard_size", "scores", "drawn", "legal", "round_over", "winner", "seen",
})
PENDING_KEYS = frozenset({"kind", "amount", "target", "source"})
EFFECT_KEYS = frozenset({"kind", "color", "owner"})
#: Public events (no "to") that may name cards: cards that lie face up on the table.
PUBLIC_CARD_EVENTS = frozenset({
    "play", "jump_in", "starter", "starter_returned", "misplay", "dealer_draw",
})
CARD_FIELDS = ("card", "cards", "discarded")
CARD_CODES = frozenset(CODES)

_DECKS: dict[str, Counter[int]] = {}


def where(game: Game, note: str = "") -> str:
    """A reproduction line: rules overrides, seed, dealer, ply."""
    r = game.rules
    return (f"[{r.preset} players={r.players} overrides={r.overrides()} seed={game.seed} "
            f"dealer={game.dealer} ply={len(game.history)}{' ' + note if note else ''}]")


class Where:
    """A reproduction line built only when a check fails and prints it."""

    __slots__ = ("game", "note")

    def __init__(self, game: Game, note: str = "") -> None:
        self.game = game
        self.note = note

    def __str__(self) -> str:
        return where(self.game, self.note)

    __repr__ = __str__


def deck_counter(rules: RuleSet) -> Counter[int]:
    c = _DECKS.get(rules.edition)
    if c is None:
        c = _DECKS[rules.edition] = Counter(rules.deck.deck())
    return c


def check_conservation(game: Game) -> None:
    """ED-5: hands + draw pile + discard pile hold exactly the edition's deck."""
    seen: Counter[int] = Counter(game.draw_pile())
    seen.update(game.discard_pile)
    for s in range(game.players):
        seen.update(game.hand(s))
    deck = deck_counter(game.rules)
    if seen != deck:
        extra = {CODES[k]: v for k, v in (seen - deck).items()}
        missing = {CODES[k]: v for k, v in (deck - seen).items()}
        raise AssertionError(f"ED-5 cards not conserved {where(game)}: extra {extra}, "
                             f"missing {missing}")
    assert game.hand_sizes() == [len(game.hand(s)) for s in range(game.players)], where(game)


def check_turn(game: Game) -> None:
    """While not over the seat that must act has a legal action; legal ids are well formed."""
    n = len(game.space)
    if game.is_over:
        assert game.outcome is not None, where(game, "over without an outcome")
        for s in range(game.players):
            assert game.legal_ids(s) == [], where(game, f"seat {s} may act after the end")
        assert game.window_seats() == [], where(game, "windows open after the end")
        out = game.outcome
        if out.reason == "out":
            assert out.winner is not None and game.hand_sizes()[out.winner] == 0, where(game)
        return
    assert game.outcome is None, where(game, "an outcome before the end")
    ids = game.legal_ids(game.turn)
    assert ids, where(game, f"seat {game.turn} must act in phase {game.phase} but has no "
                            "legal action")
    windows = game.window_seats()
    for s in range(game.players):
        sids = ids if s == game.turn else game.legal_ids(s)
        assert len(set(sids)) == len(sids), where(game, f"duplicate legal ids for seat {s}")
        assert all(0 <= i < n for i in sids), where(game, f"legal id out of range, seat {s}")
        if s != game.turn:
            assert bool(sids) == (s in windows), where(
                game, f"seat {s}: window_seats disagrees with legal_ids {sids}")


def _action_cards(text: str) -> list[str]:
    """The card codes an action string names (its cards and any give= cards)."""
    out: list[str] = []
    parts = text.split()
    if parts and parts[0] in ("play", "jump_in", "give") and len(parts) > 1:
        out += parts[1].split("+")
        for p in parts[2:]:
            if p.startswith("give="):
                out += p[5:].split("+")
    return out


def check_view(game: Game, seat: int, deep: bool = True) -> dict[str, Any]:
    """DIG-2: the view of ``seat`` holds only what that seat may know. Returns the view.
    ``deep`` also checks that ``seen`` holds every event addressed to the seat (slower)."""
    v = game.view(seat)
    w = Where(game, f"view({seat})")
    rules = game.rules
    keys = set(v)
    allowed = set(VIEW_KEYS)
    if rules.teams:
        allowed.add("teams")
    if game.phase == "give" and seat == game.turn:
        allowed.add("give_left")
    if rules.open_hands is not None:
        allowed.add("open_hands")
        assert "open_hands" in keys, f"{w} no open_hands under HR-OPEN"
    assert keys - allowed == set(), f"{w} unexpected keys {sorted(keys - allowed)}"
    assert VIEW_KEYS - keys == set(), f"{w} missing keys {sorted(VIEW_KEYS - keys)}"
    json.dumps(v)  # JSON-ready
    n = game.players
    own = sorted(CODES[k] for k in game.hand(seat))
    assert sorted(v["hand"]) == own, f"{w} hand {v['hand']} is not the seat's hand {own}"
    assert v["seat"] == seat and v["players"] == n, w
    disc = game.discard_pile
    assert v["top"] == (CODES[disc[-1]] if disc else None), w
    assert v["hand_sizes"] == game.hand_sizes(), w
    assert v["draw_pile_size"] == len(game.draw_pile()), w
    assert v["discard_size"] == len(disc), w
    assert sum(v["hand_sizes"]) + v["draw_pile_size"] + v["discard_size"] == rules.deck.size, w
    assert v["turn"] == game.turn and v["phase"] == game.phase, w
    assert v["round_over"] == game.is_over, w
    assert isinstance(v["uno_declared"], list) and len(v["uno_declared"]) == n, w
    assert all(isinstance(x, bool) for x in v["uno_declared"]), w
    assert v["uno_exposed"] is None or 0 <= v["uno_exposed"] < n, w
    assert all(isinstance(x, int) for x in v["scores"]), w
    if v["pending"] is not None:
        assert set(v["pending"]) <= PENDING_KEYS, f"{w} pending {v['pending']}"
        assert all(not isinstance(x, (list, dict)) for x in v["pending"].values()), w
    if v["effect"] is not None:
        assert set(v["effect"]) <= EFFECT_KEYS, f"{w} effect {v['effect']}"
        assert all(not isinstance(x, (list, dict)) for x in v["effect"].values()), w
    if "teams" in v:
        assert v["teams"] == [rules.team_of(s) for s in range(n)], w
    if "open_hands" in v:  # HR-OPEN: small hands lie face up; a larger one is still hidden
        limit = rules.open_hands
        assert limit is not None, w
        want = [[CODES[k] for k in sorted(game.hand(s))] if len(game.hand(s)) <= limit else None
                for s in range(n)]
        assert v["open_hands"] == want, f"{w} open_hands {v['open_hands']} != {want}"
    # the only card lists: own hand, own drawn cards, own legal actions, events addressed to it,
    # and the hands that lie face up (HR-OPEN)
    hand_count = Counter(v["hand"])
    drawn = v["drawn"]
    if drawn:
        assert seat == game.turn and game.phase == "drawn", f"{w} drawn cards {drawn}"
    assert not Counter(drawn) - hand_count, f"{w} drawn {drawn} not in hand {v['hand']}"
    legal = [str(a) for a in game.legal_actions(seat)]
    assert sorted(v["legal"]) == sorted(legal), f"{w} legal {v['legal']} != {legal}"
    for text in v["legal"]:
        named = Counter(_action_cards(text))
        assert not named - hand_count, f"{w} legal action {text!r} names cards not in hand"
    seen = v["seen"]
    assert all(e.get("to") == seat for e in seen), f"{w} seen holds another seat's events"
    if deep:
        assert seen == [e for e in game.events if e.get("to") == seat], w
    return v


def check_views(game: Game, deep: bool = True) -> list[dict[str, Any]]:
    """Every seat's view is sound, and the seat-independent part is the same for all seats."""
    views = [check_view(game, s, deep) for s in range(game.players)]
    public = [{k: x for k, x in v.items() if k not in PRIVATE_KEYS} for v in views]
    for s in range(1, len(views)):
        if public[s] != public[0]:
            diff = sorted(k for k in public[0] if public[0][k] != public[s].get(k))
            raise AssertionError(f"{where(game)} public part of view({s}) differs from "
                                 f"view(0) in {diff}")
    return views


def _is_cards(x: object) -> bool:
    if isinstance(x, str):
        return x in CARD_CODES
    if isinstance(x, (list, dict)):
        vals = x.values() if isinstance(x, dict) else x
        return any(isinstance(c, str) and c in CARD_CODES for c in vals)
    return False


def check_events(game: Game, start: int = 0) -> None:
    """Public events name cards only when the cards lie face up; private ones have a seat."""
    evs = game.events
    for e in evs[start:]:
        if "to" in e:
            assert isinstance(e["to"], int) and 0 <= e["to"] < game.players, (where(game), e)
            continue
        if any(_is_cards(e.get(f)) for f in CARD_FIELDS):
            assert e.get("t") in PUBLIC_CARD_EVENTS, f"{where(game)} public event shows " \
                                                     f"cards: {e}"
    ends = [i for i, e in enumerate(evs) if e.get("t") == "round_over"]
    if game.is_over:
        assert len(ends) == 1, where(game, f"{len(ends)} round_over events")
        check_round_over_last(game)
    else:
        assert not ends, where(game, "a round_over event in a round that goes on")
    for s in range(game.players):
        for e in game.events_for(s)[-8:]:
            assert e.get("to", s) == s, (where(game), s, e)


def check_round_over_last(game: Game) -> None:
    """A finished round's last event is its round_over: nothing happens after the end."""
    evs = game.events
    ends = [i for i, e in enumerate(evs) if e.get("t") == "round_over"]
    assert ends and ends[-1] == len(evs) - 1, where(
        game, f"events after round_over: {evs[ends[0]:] if ends else 'no round_over'}")


def check_record(game: Game) -> None:
    """The record survives JSON and replays to an equal game (DIG-1)."""
    rec = json.loads(json.dumps(game_record(game)))
    again = replay_game(rec)
    assert again == game, where(game, "replayed record differs")
    assert again.history == game.history, where(game, "replayed history differs")
    assert again.events == game.events, where(game, "replayed events differ")


def rebuild(game: Game) -> Game:
    """The same rules, seed, dealer and actions, applied afresh (checked apply)."""
    g = Game(game.rules, game.seed, game.dealer)
    for seat, aid in game.history:
        g.apply(aid, seat)
    return g


def check_rebuild(game: Game) -> None:
    """DIG-1: same seed and same actions give the same game, events included."""
    g = rebuild(game)
    assert g == game, where(game, "same seed + same actions gave another game")
    assert g.events == game.events and g.history == game.history, where(game)


def punishable(game: Game, seat: int, act: Action) -> bool:
    """Whether the rules carry this illegal action out as a penalty instead of rejecting it:
    a false UNO or catch, or a UNO flag on a play that does not leave one card (UNO-3); a
    misplay by the seat to act (PEN-1, PEN-2); a timeout of the seat to act (HR-TIMER: never
    listed, always possible, front ends call it when the clock runs out)."""
    rules = game.rules
    if rules.turn_timer is not None and act.verb == "timeout" and seat == game.turn:
        return True
    if rules.false_uno_penalty and (act.verb in ("uno", "catch") or
                                    (act.verb == "play" and act.uno and seat == game.turn)):
        return True
    return rules.misplay == "penalty" and act.verb == "play" and seat == game.turn


def check_rejected(game: Game, seat: int, action: Action | str | int) -> str:
    """DIG-4: an illegal action raises IllegalAction with a known code and changes nothing."""
    before = game.fingerprint()
    hist = list(game.history)
    nev = len(game.events)
    try:
        game.apply(action, seat)
    except IllegalAction as e:
        assert e.code in ERROR_CODES, e.code
        assert e.message, "an IllegalAction without a sentence"
        assert game.fingerprint() == before, where(game, f"rejected {action!r} changed state")
        assert game.history == hist and len(game.events) == nev, where(game)
        return e.code
    raise AssertionError(where(game, f"seat {seat}: {action!r} was accepted"))


# -- policies --------------------------------------------------------------------------------------
PLAY_VERBS = ("play", "jump_in")


def choose(game: Game, rng: random.Random, *, window: float = 0.3,
           play_bias: float = 0.0) -> tuple[int, int]:
    """A random (seat, action id): a window action with probability ``window`` when a window
    is open, else the turn seat's action; with probability ``play_bias`` a play when one is
    legal."""
    seats = sorted(game.window_seats())
    seat = rng.choice(seats) if seats and rng.random() < window else game.turn
    ids = sorted(game.legal_ids(seat))  # games do not depend on the engine's listing order
    if play_bias and rng.random() < play_bias:
        acts = game.space.actions
        plays = [i for i in ids if acts[i].verb in PLAY_VERBS]
        if plays:
            return seat, rng.choice(plays)
    return seat, rng.choice(ids)


def finisher(game: Game) -> tuple[int, int]:
    """A greedy policy that tries to end the round: answer windows with plays, play the card
    that sheds the most, declare UNO, else draw/accept/pass."""
    acts = game.space.actions
    for s in sorted(game.window_seats()):
        for i in sorted(game.legal_ids(s)):
            if acts[i].verb in ("jump_in", "uno"):
                return s, i
    ids = sorted(game.legal_ids(game.turn))
    plays = [i for i in ids if acts[i].verb in PLAY_VERBS]
    if plays:
        return game.turn, max(plays, key=lambda i: (len(acts[i].cards), acts[i].uno, -i))
    for verb in ("color", "give", "uno", "accept", "draw", "pass", "challenge"):
        for i in ids:
            if acts[i].verb == verb:
                return game.turn, i
    return game.turn, ids[0]


def can_end(game: Game, cap: int = 5000) -> bool:
    """Whether the greedy finisher ends a copy of the game within ``cap`` actions."""
    g = game.clone()
    for _ in range(cap):
        if g.is_over:
            return True
        seat, aid = finisher(g)
        g.step(aid, seat)
    return g.is_over

