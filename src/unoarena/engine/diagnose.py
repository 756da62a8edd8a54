"""Illegal actions: why one is refused (DIG-4's error codes, one function per kind of action)
and the faults the rules punish instead of refusing (PEN-1, PEN-2 misplays, UNO-3 false calls).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .actions import Action, alone
from .calls import catch, uno
from .cards import (
    CODES,
    COLOR_CODES,
    DISCARD_ALL,
    IS_NUMBER,
    IS_WILD,
    KCOLOR,
    KRANK,
    WILD,
    WILD4,
    WILD_ATTACK,
    codes,
)
from .draws import penalize, take_pending
from .moves import da_ok, is_answer, matches, w4_ok
from .rules import RuleSet
from .scoring import flush_void
from .state import (
    COLOR,
    DRAWN,
    E_LOCK,
    GIVE,
    OVER,
    P_W4,
    PLAY,
    State,
    advance,
    close_windows,
    ev,
)

#: An error code (errors.ERROR_CODES) and a message saying what would be allowed.
Diagnosis = tuple[str, str]


def diagnose(s: State, act: Action, seat: int) -> Diagnosis:
    """Why ``act`` is not legal for ``seat`` now (the caller knows it is not)."""
    if act.verb not in ("play", "jump_in") and act.give:
        return "bad_action", "give= belongs to a wild played with power=swap"
    out_of_turn = _OUT_OF_TURN.get(act.verb)
    if out_of_turn is not None:
        return out_of_turn(s, act, seat)
    if act.verb == "play":
        combination = _play_combination(s.rules, act.cards)
        if combination:
            return combination
    if seat != s.turn:
        return "not_your_turn", f"it is seat {s.turn}'s turn, not seat {seat}'s"
    return _turn_action(s, act, seat)


# -- actions that are not bound to the turn ----------------------------------------------------
_SILENT = ("not_in_rules", "silent_uno (HR-SILENT): nobody calls UNO and nobody is caught")


def _catch(s: State, act: Action, seat: int) -> Diagnosis:
    if s.rules.silent_uno:
        return _SILENT
    n = s.n
    if not 0 <= act.target < n or act.target == seat:
        return "bad_target", f"catch names another seat, 0..{n - 1} but not {seat}"
    return "no_window", (f"seat {act.target} cannot be caught now: the catch window is "
                         "open only until the next player acts, and only for a player "
                         "with one card who did not declare UNO")


def _uno(s: State, act: Action, seat: int) -> Diagnosis:
    if s.rules.silent_uno:
        return _SILENT
    return "no_window", ("UNO can be declared by a player left with one card after "
                         "their play, before the next player acts")


def _challenge_or_accept(s: State, act: Action, seat: int) -> Diagnosis:
    if not s.rules.wd4_challenge and act.verb == "challenge":
        return "not_in_rules", "these rules have no Wild Draw Four challenge"
    if seat != s.turn or s.pkind != P_W4:
        return "no_window", ("only the player a W4 targets may challenge or accept it, "
                             "before doing anything else")
    if s.discard[-1] == WILD4 and len(s.discard) == 1:
        return "not_in_rules", ("a W4 turned over first counts as the dealer's and cannot be "
                                "challenged (START-5): draw it")
    if s.discard[-1] != WILD4:
        return "no_window", (f"this Wild Draw Four total was passed on by "
                             f"{CODES[s.discard[-1]]} and can no longer be challenged: draw "
                             "it or answer it")
    return "no_window", "this Wild Draw Four cannot be challenged now: draw it"


def _timeout(s: State, act: Action, seat: int) -> Diagnosis:
    if s.rules.turn_timer is None:
        return "not_in_rules", "these rules have no turn timer"
    return "not_your_turn", "only the seat that must act can run out of time"


def _jump_in(s: State, act: Action, seat: int) -> Diagnosis:
    rules = s.rules
    cards = act.cards
    if not rules.jump_in and rules.sum_jump_in == "off":
        return "not_in_rules", "these rules have no jump-in (jump_in and sum_jump_in off)"
    if not cards:
        return "bad_action", "a jump-in needs cards"
    if act.uno and rules.silent_uno:
        return _SILENT
    sum_play = len(cards) > 1
    if sum_play and rules.sum_jump_in == "off":
        return "not_in_rules", "a jump-in is one identical card: these rules have no sum " \
                               "jump-in (sum_jump_in off)"
    if not sum_play and not rules.jump_in:
        return "not_in_rules", "these rules jump in only with a sum of numbers (jump_in off)"
    if sum_play and any(alone(rules, k) for k in cards):
        return "not_in_rules", "with seven_zero a 7 or a 0 is played alone"
    turn_sum = sum_play and seat == s.turn and s.phase == PLAY and not s.pend
    if not s.jump or seat == s.last or (seat == s.turn and not turn_sum):
        return "no_window", ("a jump-in is possible only on the coloured card just played, "
                             "before the next player acts, by another player (the next player "
                             "plays an identical card on their turn)")
    if not _has(s.hands[seat], cards):
        return "card_not_in_hand", f"seat {seat} does not hold {_join(cards)}"
    problem = _jump_fields(s, act, seat)
    if problem:
        return problem
    top = s.discard[-1]
    if sum_play:
        fits = (IS_NUMBER[top] and all(IS_NUMBER[k] for k in cards)
                and len({KCOLOR[k] for k in cards}) == 1
                and sum(KRANK[k] for k in cards) == KRANK[top]
                and (rules.sum_jump_in == "any_color" or KCOLOR[cards[0]] == KCOLOR[top]))
        if not fits:
            colour = "" if rules.sum_jump_in == "any_color" else f"{COLOR_CODES[KCOLOR[top]]} "
            return "does_not_match", (f"{_join(cards)} is not a sum jump-in on {CODES[top]}: "
                                      f"two or more {colour}number cards of one colour whose "
                                      f"numbers add up to {KRANK[top] if IS_NUMBER[top] else '-'}")
    elif cards[0] != top and cards[0] not in s.alt:
        return "does_not_match", (f"{CODES[cards[0]]} is not identical to the card just "
                                  f"played ({_join((top, *s.alt))})")
    if s.effect == E_LOCK and seat != s.eowner and any(KCOLOR[k] != s.ecolor for k in cards):
        return "does_not_match", f"Forces of Nature: only {COLOR_CODES[s.ecolor]} cards may be " \
                                 "played"
    return _play_finish(rules, act, s.hands[seat], jump=True)


def _jump_fields(s: State, act: Action, seat: int) -> Diagnosis | None:
    """A jump-in's target and colour fields, as its card needs them."""
    n = s.n
    if act.color >= 0:
        return "bad_action", "only a wild takes color=, and no wild is jumped in"
    if act.power:
        return "bad_action", "only a wild has a power"
    seven = s.rules.seven_zero and len(act.cards) == 1 and KRANK[act.cards[0]] == 7 \
        and not IS_WILD[act.cards[0]]
    if seven:
        if not 0 <= act.target < n or act.target == seat:
            return "bad_target", "with seven_zero a 7 names another seat to swap hands with"
    elif act.target >= 0:
        return "bad_action", "this jump-in takes no target"
    return None


def _give(s: State, act: Action, seat: int) -> Diagnosis:
    if s.phase != GIVE or seat != s.turn:
        return "not_your_turn", "nothing to give now"
    return "card_not_in_hand", f"seat {seat} does not hold {_join(act.cards)}"


_OUT_OF_TURN: dict[str, Callable[[State, Action, int], Diagnosis]] = {
    "catch": _catch, "uno": _uno, "challenge": _challenge_or_accept,
    "accept": _challenge_or_accept, "timeout": _timeout, "jump_in": _jump_in, "give": _give,
}


# -- the turn seat's actions ---------------------------------------------------------------------
def _turn_action(s: State, act: Action, seat: int) -> Diagnosis:
    phase, verb = s.phase, act.verb
    if verb == "color":
        if phase != COLOR:
            return "not_your_turn", "a colour is named only for a wild starter"
        return "must_name_color", _colors_allowed(s.rules)
    if phase == COLOR:
        return "must_name_color", "first name the starter's colour: " + _colors_allowed(s.rules)
    if phase == GIVE:
        return "not_your_turn", f"choose {s.give_left} more card(s) to give"
    if verb == "pass":
        if phase == DRAWN and s.rules.forced_draw_play:
            return "not_in_rules", ("forced_draw_play (HR-DRAWPLAY): a drawn card that fits "
                                    "must be played")
        return "not_your_turn", "pass is possible only after drawing a playable card"
    if verb == "draw":
        if phase == DRAWN:
            return "only_drawn_card", "you have drawn: play the drawn card or pass"
        if s.pkind == P_W4:
            return "must_answer_penalty", "challenge or accept the Wild Draw Four"
        if s.rules.force_play and phase == PLAY and not s.pend:
            return "not_in_rules", ("force_play (HR-FORCE): a player who can play must play; "
                                    "draw only without a playable card")
        return "not_your_turn", "draw is not possible now"
    return (_play_cards(s, act, seat) or _play_fields(s, act, seat)
            or _play_fit(s, act, seat))


def _play_cards(s: State, act: Action, seat: int) -> Diagnosis | None:
    """The cards are held (their combination was checked first, :func:`_play_combination`)."""
    if not _has(s.hands[seat], act.cards):
        return "card_not_in_hand", f"seat {seat} does not hold {_join(act.cards)}"
    return None


def _play_combination(rules: RuleSet, cards: tuple[int, ...]) -> Diagnosis | None:
    """Some cards, in a combination the rules allow at all (DIG-4: before the turn)."""
    if not cards:
        return "bad_action", "a play needs cards"
    if len(cards) > 1:
        same = all(c == cards[0] for c in cards)
        numbers = all(IS_NUMBER[c] and KRANK[c] == KRANK[cards[0]] for c in cards)
        if not rules.multi_play and not (rules.double_play and same and len(cards) == 2) \
                and not (rules.same_number_play and numbers):
            return "not_in_rules", "these rules play one card at a time"
        if any(alone(rules, k) for k in cards):
            return "not_in_rules", "with seven_zero a 7 or a 0 is played alone"
    return None


def _play_fields(s: State, act: Action, seat: int) -> Diagnosis | None:
    """The play's colour, target and power, as its last card needs them."""
    rules, n, last = s.rules, s.n, act.cards[-1]
    if IS_WILD[last]:
        if last == WILD_ATTACK:
            if act.color not in rules.deck.colors:
                return "must_name_color", _colors_allowed(rules)
            if not 0 <= act.target < n or act.target == seat:
                return "bad_target", "a wild attack-attack names another seat to attack"
        elif act.power in ("look", "swap"):
            if last != WILD or not rules.wild_powers:
                return "not_in_rules", "wild powers are off (wild_powers)"
            if not 0 <= act.target < n or act.target == seat:
                return "bad_target", f"power={act.power} names another seat"
        elif act.color not in rules.deck.colors:
            return "must_name_color", _colors_allowed(rules)
    elif act.color >= 0:
        return "bad_action", "only a wild takes color="
    if rules.seven_zero and KRANK[last] == 7 and not IS_WILD[last]:
        if not 0 <= act.target < n or act.target == seat:
            return "bad_target", "with seven_zero a 7 names another seat to swap hands with"
    elif act.target >= 0 and last != WILD_ATTACK and not act.power:
        return "bad_action", "this card takes no target"
    return None


def _play_fit(s: State, act: Action, seat: int) -> Diagnosis:
    """Whether the play fits the table: drawn card, pending penalty, matching, finishing."""
    rules, cards, hand = s.rules, act.cards, s.hands[seat]
    first = cards[0]
    if s.phase == DRAWN and not _has(s.drawn, cards):
        return "only_drawn_card", (f"after drawing only the drawn card "
                                   f"({_join(s.drawn)}) may be played")
    if s.pend and not all(is_answer(s, c, seat) for c in cards):
        return "must_answer_penalty", ("a penalty is pending: answer it with a card the "
                                       "rules allow, or take it")
    locked = s.effect == E_LOCK and seat != s.eowner
    if locked and any(KCOLOR[k] != s.ecolor for k in cards):  # FRZ-1: each card of a set
        return "does_not_match", (f"Forces of Nature: only "
                                  f"{COLOR_CODES[s.ecolor]} cards may be played")
    if not s.pend and not matches(s, first, seat):
        return "does_not_match", (f"{CODES[first]} does not match {CODES[s.discard[-1]]}"
                                  f" on {COLOR_CODES[s.color]}")
    if first == WILD4 and s.w4_strict and not w4_ok(s, [c for c in hand if c != WILD4]):
        return "w4_not_allowed", (f"a W4 may be played only without any "
                                  f"{COLOR_CODES[s.color]} card in hand")
    return _play_finish(rules, act, hand)


def _play_finish(rules: RuleSet, act: Action, hand: list[int], *,
                 jump: bool = False) -> Diagnosis:
    """The rules on what a play (or a jump-in) leaves: number finish, UNO, double play,
    discard-all."""
    cards, last = act.cards, act.cards[-1]
    if act.uno and rules.silent_uno:
        return _SILENT
    if len(hand) == len(cards) and rules.number_finish and not IS_NUMBER[last] \
            and last != WILD_ATTACK:
        return "last_card_must_be_number", "the last card must be a number card: draw instead"
    if len(hand) == len(cards) and rules.no_wild_finish and IS_WILD[last]:
        return "last_card_is_wild", "the last card may not be a wild: draw instead (HR-WILDFIN)"
    # HR-DOUBLE's UNO rule is about two identical cards on one's turn, not a sum (HR-SUM)
    double_out = rules.double_play and not jump and len(cards) == 2 and len(hand) == 2
    if act.uno and len(hand) - len(cards) != 1 and not double_out:
        return "bad_action", "uno goes with a play that leaves exactly one card"
    if double_out and not act.uno:
        return "bad_action", "HR-DOUBLE: playing your last two cards at once needs UNO"
    if KRANK[last] == DISCARD_ALL and not da_ok(hand, cards):
        return "last_card_must_be_number", "a discard-all may not empty the hand (ATK-7)"
    if len(cards) > 1:
        return "not_in_rules", "these cards cannot be played together"
    return "does_not_match", f"{_join(cards)} cannot be played now"


# -- faults the rules punish -------------------------------------------------------------------
def penalize_fault(s: State, code: str, act: Action, seat: int) -> bool:
    """PEN-1/PEN-2 under ``misplay: penalty``; UNO-3 under ``false_uno_penalty``. True when
    the fault was applied (recorded, penalised) instead of refused."""
    rules = s.rules
    if rules.false_uno_penalty and code == "no_window" and act.verb in ("uno", "catch"):
        return _false_call(s, act, seat)
    if rules.misplay != "penalty" or seat != s.turn or act.verb != "play":
        return False
    if code in ("does_not_match", "must_answer_penalty", "w4_not_allowed",
                "last_card_must_be_number", "last_card_is_wild"):
        amount = rules.misplay_penalty
    elif code == "only_drawn_card":
        amount = 3
    else:
        return False
    aid = s.space.index.get(act.without_uno())
    if aid is None:
        return False
    close_windows(s)
    s.history.append((seat, aid))
    ev(s, t="misplay", seat=seat, cards=codes(act.cards), code=code)
    penalize(s, seat, amount, "misplay")
    if s.phase != OVER:
        if s.pend:
            take_pending(s, seat)
        else:
            advance(s, seat)
    if s.void_due:
        flush_void(s)
    return True


def _false_call(s: State, act: Action, seat: int) -> bool:
    """UNO-3: a call out of its window is played, and costs the caller."""
    canon = Action("uno") if act.verb == "uno" else Action("catch", target=act.target)
    aid = s.space.index.get(canon)
    if act != canon or aid is None or (act.verb == "catch" and act.target == seat):
        return False
    s.history.append((seat, aid))
    if act.verb == "uno":
        uno(s, seat)
    else:
        catch(s, seat, act.target)
    if s.void_due:
        flush_void(s)
    return True


def _has(hand: Iterable[int], cards: tuple[int, ...]) -> bool:
    h = list(hand)
    for c in cards:
        if c in h:
            h.remove(c)
        else:
            return False
    return True


def _join(cards: Iterable[int]) -> str:
    return "+".join(CODES[k] for k in cards)


def _colors_allowed(rules: RuleSet) -> str:
    return "name one of " + ", ".join(COLOR_CODES[c] for c in rules.deck.colors)
