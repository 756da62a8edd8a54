"""Every refusal says why, truly (DIG-4): random illegal actions against a small oracle.

The oracle below restates, independently of ``engine/diagnose.py``, why an action of a few common
kinds is refused: a seat acting out of turn, a card it does not hold, a card that does not match
(or breaks the Forces of Nature lock), a last card that is not a number under number finish, an
out-of-turn call with no window, a rule the table does not play. It reads the state directly and
checks in DIG-4's order: the rules, the turn or the window, the cards, the fields, the fit, the
finish. Actions it has no opinion on are skipped; those it has one on must get its code.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_combined_rules import stress_rules

from unoarena.engine import Action, Game, IllegalAction
from unoarena.engine.cards import IS_NUMBER, IS_WILD, KCOLOR, KRANK, NKINDS, WILD4, WILD_ATTACK
from unoarena.engine.state import DRAWN, E_LOCK, OVER, P_W4, PLAY


def _holds(hand: list[int], cards: tuple[int, ...]) -> bool:
    left = list(hand)
    for k in cards:
        if k not in left:
            return False
        left.remove(k)
    return True


def _fits(game: Game, seat: int, k: int) -> bool:
    """TURN-1 matching (FRZ-1 under a lock), restated."""
    s = game.state
    if s.effect == E_LOCK and seat != s.eowner:
        return KCOLOR[k] == s.ecolor
    if IS_WILD[k] or KCOLOR[k] == s.color:
        return True
    return KRANK[k] in {KRANK[c] for c in (s.discard[-1], *s.alt)}


def _empties_badly(game: Game, seat: int, cards: tuple[int, ...]) -> str | None:
    if len(game.state.hands[seat]) != len(cards):
        return None
    if game.rules.number_finish and not IS_NUMBER[cards[-1]] and cards[-1] != WILD_ATTACK:
        return "last_card_must_be_number"
    if game.rules.no_wild_finish and IS_WILD[cards[-1]]:
        return "last_card_is_wild"
    return None


def oracle(game: Game, seat: int, act: Action) -> str | None:
    """The code the engine must give for ``act`` by ``seat``, or None where it does not say."""
    s, rules = game.state, game.rules
    if s.phase == OVER:
        return "round_over"
    hand = s.hands[seat]
    if act.verb == "catch":
        if rules.silent_uno:
            return "not_in_rules"
        if not 0 <= act.target < game.players or act.target == seat:
            return "bad_target"
        return "no_window"
    if act.verb == "challenge":
        if not rules.wd4_challenge:
            return "not_in_rules"
        if seat != s.turn or s.pkind != P_W4:
            return "no_window"
        return "not_in_rules" if len(s.discard) == 1 else "no_window"
    if act.verb == "jump_in":
        if not rules.jump_in and rules.sum_jump_in == "off":
            return "not_in_rules"
        if len(act.cards) != 1 or act.uno:
            return None
        if not rules.jump_in:
            return "not_in_rules"
        if not s.jump or seat in (s.last, s.turn):
            return "no_window"
        if not _holds(hand, act.cards):
            return "card_not_in_hand"
        k = act.cards[0]
        if k != s.discard[-1] and k not in s.alt:
            return "does_not_match"
        if s.effect == E_LOCK and seat != s.eowner and KCOLOR[k] != s.ecolor:
            return "does_not_match"
        return _empties_badly(game, seat, act.cards)
    if act.verb != "play":
        return None
    if len(act.cards) > 1 and not (rules.multi_play or rules.double_play
                                   or rules.same_number_play):
        return "not_in_rules"
    if seat != s.turn:
        return "not_your_turn" if len(act.cards) == 1 else None
    if s.phase not in (PLAY, DRAWN):
        return None
    if not _holds(hand, act.cards):
        return "card_not_in_hand" if len(act.cards) == 1 else None
    if len(act.cards) > 1:
        return None
    if s.phase == DRAWN or s.pend or act.uno:
        return None
    k = act.cards[0]
    if not _fits(game, seat, k):
        return "does_not_match"
    if k == WILD4 and rules.w4_rule == "restricted" and not rules.wd4_challenge \
            and any(KCOLOR[c] == s.color for c in hand if c != WILD4):
        return "w4_not_allowed"
    return _empties_badly(game, seat, act.cards)


def _candidate(game: Game, seat: int, rng: random.Random) -> Action:
    """A random action of the kinds the oracle knows, well formed for its card."""
    s, n = game.state, game.players
    hand = s.hands[seat]
    verb = rng.choice(("play", "play", "play", "jump_in", "jump_in", "catch", "challenge"))
    if verb == "catch":
        return Action("catch", target=rng.randrange(n))
    if verb == "challenge":
        return Action("challenge")
    k = rng.choice(hand) if hand and rng.random() < 0.8 else rng.randrange(NKINDS)
    cards = (k,)
    if verb == "play" and len(hand) >= 2 and rng.random() < 0.15:
        cards = tuple(rng.sample(hand, 2))
    color = rng.choice(game.rules.deck.colors) if IS_WILD[cards[-1]] else -1
    target = -1
    needs_target = cards[-1] == WILD_ATTACK or (
        game.rules.seven_zero and len(cards) == 1 and not IS_WILD[k] and KRANK[k] == 7)
    if needs_target:
        target = rng.choice([t for t in range(n) if t != seat])
    if verb == "jump_in" and IS_WILD[k]:
        color = -1
    return Action(verb, cards, color, target)


def check(seed: int, rounds: int = 2, per_state: int = 6) -> list[str]:
    """Random tables; at each state random illegal candidates, their code against the oracle."""
    rng = random.Random(seed)
    wrong: list[str] = []
    judged = 0
    for _ in range(rounds):
        rules = stress_rules(rng).replace(misplay="reject", false_uno_penalty=0)
        game = Game(rules, rng.getrandbits(32), rng.randrange(rules.players),
                    record_events=False)
        for _step in range(80):
            if game.is_over:
                break
            for _ in range(per_state):
                seat = rng.randrange(game.players)
                act = _candidate(game, seat, rng)
                aid = game.space.index.get(act)
                if aid is not None and aid in game.legal_ids(seat):
                    continue
                want = oracle(game, seat, act)
                if want is None:
                    continue
                before = game.fingerprint()
                try:
                    game.apply(act, seat)
                except IllegalAction as e:
                    judged += 1
                    if e.code != want:
                        wrong.append(f"{rules.preset} seat {seat} {act}: engine {e.code} "
                                     f"({e}), oracle {want}")
                    assert game.fingerprint() == before, "a refusal changed the game"
                    continue
                wrong.append(f"{act} by seat {seat} was applied; the oracle says {want}")
                return wrong
            seats = [game.turn, *game.window_seats()]
            actor = rng.choice(seats)
            game.step(rng.choice(game.legal_ids(actor)), actor)
    assert judged or rounds == 0
    return wrong


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_random_refusals_give_the_reason_the_oracle_gives(seed: int) -> None:
    assert check(seed) == []


def test_the_oracle_judges_every_kind_it_knows() -> None:
    """The random search reaches each code the oracle can give (or the test above proves
    little)."""
    kinds = {"not_your_turn", "card_not_in_hand", "does_not_match", "no_window",
             "not_in_rules", "bad_target", "last_card_must_be_number"}
    seen: set[str] = set()
    rng = random.Random(5)
    for _ in range(200):  # until every kind was reached (rarer rule sets take a while)
        if seen >= kinds:
            break
        rules = stress_rules(rng).replace(misplay="reject", false_uno_penalty=0)
        game = Game(rules, rng.getrandbits(32), 0, record_events=False)
        for _step in range(60):
            if game.is_over:
                break
            for _ in range(6):
                seat = rng.randrange(game.players)
                act = _candidate(game, seat, rng)
                aid = game.space.index.get(act)
                if aid is None or aid not in game.legal_ids(seat):
                    want = oracle(game, seat, act)
                    if want:
                        seen.add(want)
            actor = rng.choice([game.turn, *game.window_seats()])
            game.step(rng.choice(game.legal_ids(actor)), actor)
    assert seen >= kinds, seen
