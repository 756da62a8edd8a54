"""Every rule in scope has a scenario: RULES.md is the contract, scenarios/ pins each rule.

A rule ID counts as covered when a scenario names it in ``rules_covered`` or in its ``name``.
The few rules that a one-round scenario cannot state (a match's dealers) are covered by the
tests at the end of this file, listed in ``COVERED_BY_TESTS``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from unoarena.engine import Action, Game, IllegalAction, Setup, parse_card, preset
from unoarena.engine.match import Match, first_dealer
from unoarena.scenarios import load_scenarios

ROOT = Path(__file__).resolve().parents[1]
RULES_MD = ROOT / "docs" / "spec" / "RULES.md"
SCENARIO_DIR = ROOT / "scenarios"

#: RULES.md sections in scope: all of them (the game, every edition, every house rule).
SCOPE_SECTIONS: frozenset[int] = frozenset(range(19))
#: IDs no scenario can state.
OUT_OF_SCOPE: frozenset[str] = frozenset()

_SECTION = re.compile(r"^## (\d+)\.")
_RULE = re.compile(r"^- ([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+) ")
_ID_IN_TEXT = re.compile(r"\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\b")


def rule_ids() -> dict[str, int]:
    """Every rule ID of RULES.md with its section number."""
    out: dict[str, int] = {}
    section = -1
    for line in RULES_MD.read_text(encoding="utf-8").splitlines():
        m = _SECTION.match(line)
        if m:
            section = int(m.group(1))
            continue
        m = _RULE.match(line)
        if m:
            out[m.group(1)] = section
    return out


def in_scope() -> set[str]:
    return {r for r, sec in rule_ids().items() if sec in SCOPE_SECTIONS} - OUT_OF_SCOPE


def covered_by_scenarios() -> dict[str, list[str]]:
    """Rule ID -> the names of the scenarios that name it."""
    known = rule_ids()
    out: dict[str, list[str]] = {}
    for s in load_scenarios(SCENARIO_DIR):
        ids = set(s.rules_covered) | {m for m in _ID_IN_TEXT.findall(s.name) if m in known}
        for r in ids:
            out.setdefault(r, []).append(s.name)
    return out


def test_rules_md_is_read() -> None:
    ids = rule_ids()
    assert {"SEAT-1", "EFF-0", "WD4-2", "MATCH-4", "DIG-4", "HR-STACK"} <= set(ids)
    assert ids["DIG-4"] == 17 and ids["SEAT-1"] == 0 and ids["PEN-3"] == 11


def test_every_rule_in_scope_is_covered() -> None:
    covered = set(covered_by_scenarios()) | set(COVERED_BY_TESTS)
    missing = sorted(in_scope() - covered, key=_order)
    assert not missing, "rules in scope that no scenario names: " + ", ".join(missing)


def test_scenarios_name_only_rules_that_exist() -> None:
    known = rule_ids()
    bad = {s.name: sorted(set(s.rules_covered) - set(known))
           for s in load_scenarios(SCENARIO_DIR) if set(s.rules_covered) - set(known)}
    assert not bad, f"rules_covered names IDs that RULES.md lacks: {bad}"


def _order(rule: str) -> tuple[str, int]:
    head, _, num = rule.rpartition("-")
    return (head, int(num)) if num.isdigit() else (rule, 0)


# ================================================================================================
# rules a one-round scenario cannot state
# ================================================================================================
def test_set_1_first_dealer_is_the_high_card() -> None:
    """SET-1: each player draws; the highest number deals; action and wild cards count as 0;
    tied highest players draw again."""
    from unoarena.engine.cards import IS_NUMBER, KRANK

    rules = preset("classic", players=6)
    redraws = 0
    for seed in range(300):
        dealer, events = first_dealer(rules, random.Random(seed))
        draws = [dict(e["cards"]) for e in events if e["t"] == "dealer_draw"]
        contenders = set(range(rules.players))
        for cards in draws:
            assert set(cards) == contenders, (seed, draws)
            value = {s: KRANK[k] if IS_NUMBER[k] else 0
                     for s, k in ((s, parse_card(c)) for s, c in cards.items())}
            best = max(value.values())
            contenders = {s for s, v in value.items() if v == best}
        assert contenders == {dealer}, (seed, draws, dealer)
        redraws += len(draws) > 1
    assert redraws, "no tie in 300 seeds: the redraw was never exercised"
    assert first_dealer(preset("classic", first_dealer="random"), random.Random(1))[0] in range(4)


def _finish(match: Match) -> None:
    """Play the current round to its end: play when possible (declaring UNO), else draw."""
    g = match.game
    for _ in range(20000):
        if g.is_over:
            return
        acts = g.legal_actions(g.turn)
        pick = next((a for a in acts if a.verb == "play" and (a.uno or len(g.hand(g.turn)) != 2)),
                    None) or next((a for a in acts if a.verb in ("color", "accept", "draw",
                                                                 "pass")), acts[0])
        g.apply(pick, g.turn)
    raise AssertionError("the round did not end")


@pytest.mark.parametrize("next_dealer", ["left", "winner"])
def test_set_2_next_dealer_left_or_winner(next_dealer: str) -> None:
    """SET-2: later rounds are dealt by the player on the left, or by the last round's winner."""
    rules = preset("classic", players=4, next_dealer=next_dealer)
    for seed in range(6):
        m = Match(rules, seed)
        for _ in range(3):
            dealer = m.dealer
            _finish(m)
            result = m.finish_round()
            if m.is_over:
                break
            winner = result.outcome.winner
            expected = (dealer + 1) % 4 if next_dealer == "left" or winner is None else winner
            assert m.dealer == expected, (seed, dealer, winner, m.dealer)
            assert m.game.dealer == expected and m.game.turn in range(4)


def test_dig_2_views_hide_other_hands_and_the_challenged_hand_goes_to_the_challenger() -> None:
    """DIG-2 and WD4-2: a view holds its own hand and only the sizes of the others; the hand of
    a challenged W4 player is shown to the challenger alone."""
    c = parse_card
    setup = Setup(hands={0: [c("W4"), c("R2"), c("B1")], 1: [c("G4"), c("Y6")],
                         2: [c("Y3"), c("Y4")], 3: [c("G1"), c("G2")]},
                  discard=[c("R5")], turn=0)
    g = Game(preset("classic"), setup=setup)
    v = g.view(1)
    assert sorted(v["hand"]) == ["G4", "Y6"] and v["hand_sizes"] == [3, 2, 2, 2]
    assert "R2" not in str({k: x for k, x in v.items() if k != "legal"})
    g.apply("play W4 color=G", 0)
    g.apply("challenge", 1)
    shown = [e for e in g.events if e.get("t") == "hand_shown"]
    assert shown and all(e["to"] == 1 for e in shown), shown
    for seat in (0, 2, 3):
        assert not [e for e in g.events_for(seat) if e.get("t") == "hand_shown"]
    assert [e for e in g.events_for(1) if e.get("t") == "hand_shown"]


def test_dig_3_windows_are_offered_in_seat_order_from_the_actors_left() -> None:
    """DIG-3: a catch window is open to every other seat, offered from the actor's left."""
    c = parse_card
    setup = Setup(hands={0: [c("R1"), c("B1")], 1: [c("R2"), c("B2"), c("G2")],
                         2: [c("R3"), c("B3")], 3: [c("Y4"), c("B4")]},
                  discard=[c("R5")], turn=2)
    g = Game(preset("classic"), setup=setup)
    g.apply("play R3", 2)
    # seat 3 acts in its turn; the others from the actor's left: 0 and 1 may catch, 2 declare
    assert g.turn == 3 and g.window_seats() == [0, 1, 2]
    assert g.legal_actions(2) == [Action("uno")]
    assert g.legal_actions(0) == [Action("catch", target=2)]


def test_pen_3_there_is_no_action_to_suggest_a_play() -> None:
    """PEN-3: advice to other players is not modelled: no such verb exists."""
    g = Game(preset("classic"), seed=3)
    for text in ("suggest 2 play R5", "advise R5", "hint"):
        with pytest.raises(IllegalAction) as e:
            g.apply(text, (g.turn + 1) % 4)
        assert e.value.code == "bad_action"


@pytest.mark.parametrize(("how", "seat_exchange"), [("points", 0), ("cards", 1)])
def test_hr_elim_the_table_shrinks_until_one_player_is_left(how: str, seat_exchange: int) -> None:
    """HR-ELIM over a whole match: each round deals only the players left, in their order,
    the players put out are those the round's hands say, the last one left wins, and the
    match record replays to the same standing."""
    from unoarena.engine import match_record, replay_match
    from unoarena.engine.match import eliminated

    rules = preset("classic", players=5, elimination=how, seat_exchange=seat_exchange,
                   target_score=1)
    for seed in range(4):
        m = Match(rules, seed)
        left = list(range(5))
        while not m.is_over:
            g = m.game
            assert g.players == len(left) == len(m.players_left)
            assert sorted(m.player_at(s) for s in range(g.players)) == left
            _finish(m)
            gone = {m.player_at(s) for s in eliminated(rules, g.outcome, g.hand_sizes())}
            assert gone and m.player_at(g.outcome.winner) not in gone
            res = m.finish_round()
            assert set(res.out) == gone
            left = [p for p in left if p not in gone]
        assert m.winners == tuple(left) and len(left) == 1
        assert 1 <= m.rounds_played <= 4
        again = replay_match(match_record(m))
        assert again.winners == m.winners and again.scores == m.scores


#: Rule ID -> the test above that covers it instead of a scenario.
COVERED_BY_TESTS: dict[str, Callable[..., None]] = {
    "SET-1": test_set_1_first_dealer_is_the_high_card,
    "SET-2": test_set_2_next_dealer_left_or_winner,
}
