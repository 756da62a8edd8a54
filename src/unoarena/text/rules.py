"""Words for people about the rules: card names, what every rule key means at its current
value, the deck of an edition. Shared by the command line, the terminal and the browser, so
every sentence goes through :mod:`unoarena.text.i18n`; what happened in a game is told by
:mod:`unoarena.text.narrate`.

Every explanation cites the rule IDs of ``docs/spec/RULES.md`` in parentheses, so a reader can
look up the exact rule and a test can check that no key goes unexplained.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine import CODES, COLOR_CODES, KEY_INFO, KEYS, PRESETS, ConfigError, RuleSet, preset
from ..engine.errors import excerpt
from .i18n import N_, _, ngettext

# ================================================================================================
# cards
# ================================================================================================
COLOR_WORDS: dict[str, str] = {
    "R": N_("red"), "Y": N_("yellow"), "G": N_("green"), "B": N_("blue"), "P": N_("purple"),
}
RANK_WORDS: dict[str, str] = {
    "S": N_("Skip"), "R": N_("Reverse"), "D2": N_("Draw Two"), "H2": N_("Hit 2"),
    "DA": N_("Discard All"),
}
WILD_WORDS: dict[str, str] = {
    "W": N_("Wild"), "W4": N_("Wild Draw Four"), "WH": N_("Wild Hyperspeed"),
    "WN": N_("Wild Forces of Nature"), "WA": N_("Wild Attack-Attack"),
}
_KIND = {code: k for k, code in enumerate(CODES)}


def color_text(code: str) -> str:
    """``"R"`` -> ``"red"`` (translated)."""
    return _(COLOR_WORDS.get(code, code))


def rank_text(rank: str) -> str:
    """``"S"`` -> ``"Skip"``, ``"7"`` -> ``"7"``."""
    return _(RANK_WORDS[rank]) if rank in RANK_WORDS else rank


def card_text(code: str) -> str:
    """A card code as words: ``"RS"`` -> ``"red Skip"``, ``"W4"`` -> ``"Wild Draw Four"``."""
    if code in WILD_WORDS:
        return _(WILD_WORDS[code])
    if len(code) < 2 or code[0] not in COLOR_WORDS:
        return code
    return _("{color} {rank}").format(color=color_text(code[0]), rank=rank_text(code[1:]))


def _count(rules: RuleSet, code: str) -> int:
    return rules.deck.counts[_KIND[code]]


def _has(rules: RuleSet, code: str) -> bool:
    return _count(rules, code) > 0


def value_text(value: Any) -> str:
    """A rule value as a command line would write it (``on``/``off``, ``none``)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "none"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in value) + "]"
    return str(value)


# ================================================================================================
# the deck (ED-*) and its special cards
# ================================================================================================
_EDITION_IDS = {"classic": "ED-1", "buzz": "ED-2", "frozen2": "ED-3", "attack": "ED-4, ATK-1"}
_RANK_ORDER = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "D2", "H2", "DA")


def deck_lines(rules: RuleSet) -> list[str]:
    """The edition's cards with their counts: one line per colour group and one for wilds."""
    deck = rules.deck
    colors = [COLOR_CODES[c] for c in deck.colors]
    per_color = {c: [(r, _count(rules, c + r)) for r in _RANK_ORDER
                     if c + r in _KIND and _count(rules, c + r)] for c in colors}
    lines = [_("{edition}: {n} cards ({ids})").format(
        edition=rules.edition, n=deck.size, ids=_EDITION_IDS.get(rules.edition, "ED-5"))]
    groups: list[tuple[list[str], list[tuple[str, int]]]] = []
    for c in colors:  # colours with the same composition share a line
        for names, comp in groups:
            if comp == per_color[c]:
                names.append(c)
                break
        else:
            groups.append(([c], per_color[c]))
    for names, comp in groups:
        parts = _rank_counts(comp)
        total = sum(n for _r, n in comp)
        lines.append(_("each of {colors}: {cards} ({n} a colour)").format(
            colors=", ".join(color_text(c) for c in names), cards="; ".join(parts), n=total))
    wilds = [f"{_count(rules, w)} × {card_text(w)}" for w in WILD_WORDS if _has(rules, w)]
    if wilds:
        lines.append(_("wild cards: {cards}").format(cards="; ".join(wilds)))
    return lines


def _rank_counts(comp: list[tuple[str, int]]) -> list[str]:
    """``[("0", 1), ("1", 2) .. ("9", 2), ("S", 2)]`` -> ``["1 × 0", "2 × 1-9", "2 × Skip"]``."""
    out: list[str] = []
    i = 0
    while i < len(comp):
        rank, n = comp[i]
        j = i
        if rank.isdigit():
            while (j + 1 < len(comp) and comp[j + 1][0].isdigit() and comp[j + 1][1] == n
                   and int(comp[j + 1][0]) == int(comp[j][0]) + 1):
                j += 1
        label = rank_text(rank) if j == i else f"{rank}-{comp[j][0]}"
        out.append(f"{n} × {label}")
        i = j + 1
    return out


def special_cards(rules: RuleSet) -> list[str]:
    """One sentence per action and wild card of the edition: what it does, and its points."""
    two = rules.players == 2
    launcher = rules.deck.launcher
    effects: dict[str, str] = {
        "S": _("the next player loses their turn (EFF-3)"),
        "R": (_("with two players it acts as a Skip: the same player plays again (TWO-1)")
              if two else _("the direction of play reverses (EFF-2)")),
        "D2": _("the next player draws 2 and loses their turn (EFF-1)"),
        "H2": _("the next player presses the launcher twice and loses their turn, unless they "
                "pass it on with their own Hit 2, adding two presses (ATK-8)"),
        "DA": _("played on its colour or another Discard All, it takes every card of its "
                "colour out of its player's hand without their effects; it may not empty the "
                "hand (ATK-7)"),
        "W": _("its player names any colour (EFF-4)"),
        "W4": _("its player names a colour; the next player draws 4 and loses their turn "
                "(EFF-5, WD4-1)"),
        "WH": _("its player names a colour C: while C is played, every C card also skips the "
                "player after it, until another colour or a wild is played (BUZZ-1, BUZZ-2)"),
        "WN": _("its player names a colour C: until their next turn the others may play only "
                "C cards (FRZ-1, FRZ-2)"),
        "WA": _("its player names a colour and another player, who must press the launcher "
                "twice, pass it on with a Hit 2 of that colour, or answer with a Wild "
                "Attack-Attack of their own, adding two presses (ATK-9)"),
    }
    out: list[str] = []
    for rank in ("S", "R", "D2", "H2", "DA"):
        codes = [c + rank for c in (COLOR_CODES[i] for i in rules.deck.colors)]
        if not any(_has(rules, c) for c in codes):
            continue
        points = 30 if rank == "DA" else 20
        out.append(_("{card} ({code}), {points} points: {effect}.").format(
            card=rank_text(rank), code=rank, points=points, effect=effects[rank]))
    for code in WILD_WORDS:
        if _has(rules, code):
            out.append(_("{card} ({code}), 50 points: {effect}.").format(
                card=card_text(code), code=code, effect=effects[code]))
    if launcher:
        out.append(_("Every draw is a press of the launcher, which ejects a random number of "
                     "cards, often none (ATK-2, ATK-3)."))
    out.append(_("Number cards score their face value (CARD-5)."))
    return out


# ================================================================================================
# what every key means at its value
# ================================================================================================
def _k_preset(r: RuleSet) -> str:
    over = r.overrides()
    if not over:
        return _("the {name} rules exactly as the preset defines them (RULES §16)").format(
            name=r.preset)
    return ngettext("the {name} preset with {n} key changed: {keys} (RULES §16)",
                    "the {name} preset with {n} keys changed: {keys} (RULES §16)",
                    len(over)).format(name=r.preset, n=len(over), keys=", ".join(over))


def _k_edition(r: RuleSet) -> str:
    e = r.edition
    if e == "buzz":
        return _("the classic deck plus four Wild Hyperspeed, 112 cards (ED-2, BUZZ-1)")
    if e == "frozen2":
        return _("the classic deck with purple instead of blue, plus four Wild Forces of "
                 "Nature, 112 cards (ED-3, FRZ-1)")
    if e == "attack":
        return _("the UNO Attack deck of 108 cards, drawn through a card launcher: every "
                 "\"draw\" is a press (ED-4, ATK-1, ATK-2)")
    return _("the classic 108-card deck (ED-1)")


def _k_players(r: RuleSet) -> str:
    s = _("{n} seats numbered 0 to {last} clockwise; play starts clockwise (SEAT-1, SEAT-3)"
          ).format(n=r.players, last=r.players - 1)
    if r.players == 2:
        s += _("; with two players Reverse acts as Skip, and after Skip, Reverse, Draw Two or "
               "Wild Draw Four the same player plays again (TWO-1)")
    return s


def _k_hand_size(r: RuleSet) -> str:
    return ngettext("each player is dealt {n} card (SET-3)",
                    "each player is dealt {n} cards (SET-3)", r.hand_size).format(n=r.hand_size)


def _k_first_dealer(r: RuleSet) -> str:
    if r.first_dealer == "random":
        return _("the first dealer is chosen at random from the seed (SET-1)")
    return _("each player draws a card and the highest number deals first; action and wild "
             "cards count as 0 and tied players draw again (SET-1)")


def _k_next_dealer(r: RuleSet) -> str:
    if r.next_dealer == "winner":
        return _("the winner of a round deals the next one (SET-2)")
    return _("the deal passes to the left after every round (SET-2)")


def _k_voluntary_draw_play(r: RuleSet) -> str:
    if r.voluntary_draw_play == "may":
        return _("a player may draw even when holding a playable card, and may play the drawn "
                 "card at once if it fits (TURN-4, TURN-5)")
    return _("a player may draw even when holding a playable card, but then the turn passes "
             "at once (TURN-4)")


def _k_draw_count(r: RuleSet) -> str:
    if r.deck.launcher:
        return _("does not apply: in Attack a player without a play presses the launcher once "
                 "(ATK-3, TURN-7)")
    if r.draw_count == "until_playable":
        return _("a player without a playable card keeps drawing until one fits (TURN-7)")
    return _("a player without a playable card draws one card; if it fits they may play it, "
             "else the turn passes (TURN-3, TURN-7)")


def _k_deck_exhausted(r: RuleSet) -> str:
    if r.deck_exhausted == "void":
        return _("when the draw pile runs out the round ends void, with no score (TURN-6)")
    return _("when the draw pile runs out, the discard pile but its top card is shuffled into "
             "a new draw pile (TURN-6)")


def _k_starter_wild_chooser(r: RuleSet) -> str:
    if r.starter_wild_chooser == "dealer":
        return _("when a Wild is turned over first, the dealer names its colour (START-4)")
    return _("when a Wild is turned over first, the player left of the dealer names its "
             "colour (START-4)")


def _no_w4(r: RuleSet) -> str:
    return _("does not apply: the {edition} deck has no Wild Draw Four (ED-4)").format(
        edition=r.edition)


def _k_starter_w4(r: RuleSet) -> str:
    if not _has(r, "W4"):
        return _no_w4(r)
    if r.wild_starter_stays:
        return _("unused: a Wild Draw Four turned over first stays and only names a colour "
                 "(HR-WILDSTART)")
    if r.starter_w4 == "bottom":
        return _("a Wild Draw Four turned over first goes to the bottom of the draw pile and "
                 "another card is turned (START-5)")
    if r.starter_w4 == "dealer_plays":
        return _("a Wild Draw Four turned over first counts as played by the dealer, who names "
                 "the colour; the first player draws 4, with no challenge (START-5, START-8)")
    return _("a Wild Draw Four turned over first goes back into the draw pile, which is "
             "reshuffled, and another card is turned (START-5)")


def _k_starter_reverse(r: RuleSet) -> str:
    if r.starter_number_only:
        return _("does not apply: only a number card can be turned over first (START-7)")
    if r.starter_reverse == "dealer_played":
        if r.players == 2:
            return _("a Reverse turned over first counts as played by the dealer; with two "
                     "players it acts as a Skip, so the dealer plays first (START-8, TWO-1)")
        return _("a Reverse turned over first counts as played by the dealer: play goes "
                 "counter-clockwise and the player right of the dealer starts (START-8, EFF-2)")
    return _("a Reverse turned over first lets the dealer play first, counter-clockwise "
             "(START-2)")


def _k_starter_number_only(r: RuleSet) -> str:
    if r.starter_number_only:
        return _("any card but a number turned over first goes to the bottom of the draw pile "
                 "until a number shows (START-7, ATK-10)")
    return _("an action or wild card turned over first takes effect as the START rules say "
             "(START-1, START-2, START-3, START-4, START-6)")


def _k_w4_rule(r: RuleSet) -> str:
    if not _has(r, "W4"):
        return _no_w4(r)
    if r.w4_rule == "free":
        return _("a Wild Draw Four may always be played (WD4-3)")
    return _("a Wild Draw Four may be played only when its player holds no card of the active "
             "colour (WD4-1)")


def _k_wd4_challenge(r: RuleSet) -> str:
    if not _has(r, "W4"):
        return _no_w4(r)
    if r.wd4_challenge:
        return _("the target of a Wild Draw Four may challenge it and sees the hand: a guilty "
                 "player draws 4 instead, an innocent one makes the challenger draw 6 (WD4-2, "
                 "HR-CHAIN-CHALLENGE)")
    if r.w4_rule == "restricted":
        return _("no challenge: a Wild Draw Four that breaks WD4-1 is refused (WD4-3)")
    return _("no challenge: every Wild Draw Four stands (WD4-3)")


def _k_stacking(r: RuleSet) -> str:
    if r.deck.launcher:
        return _("does not apply: Attack has no Draw Two; Hit 2 chains are built in (ATK-8)")
    if r.stacking == "draw2":
        return _("a pending Draw Two may be answered with another Draw Two, adding 2 and "
                 "passing the total to the next player; whoever does not answer draws it all "
                 "(HR-STACK, EFF-0)")
    if r.stacking == "deflect":
        return _("while a Draw Two is pending its target may pass it on with a Skip, a Reverse "
                 "or another Draw Two matching the top card: Skip sends the total to the player "
                 "after next, Reverse back to the previous player, Draw Two adds 2 for the next; "
                 "whoever does not answer draws it all and loses the turn (HR-STACK, EFF-0)")
    return _("a Draw Two cannot be answered: its target draws 2 at once and loses the turn "
             "(EFF-1, HR-STACK)")


def _k_stack_draw4(r: RuleSet) -> str:
    if not _has(r, "W4"):
        return _no_w4(r)
    if r.stack_draw4:
        return _("a Wild Draw Four may be answered only with another, adding 4 for the next "
                 "player; whoever does not answer draws the total (HR-STACK4)")
    return _("a Wild Draw Four cannot be passed on with another (HR-STACK4)")


def _k_draw4_on_draw2(r: RuleSet) -> str:
    if not _has(r, "W4"):
        return _no_w4(r)
    if r.draw4_on_draw2:
        return _("a Wild Draw Four may also answer a pending Draw Two total, adding 4 (HR-4ON2)")
    return _("a Wild Draw Four cannot answer a pending Draw Two (HR-4ON2)")


def _k_reverse_deflects_draw4(r: RuleSet) -> str:
    if not _has(r, "W4"):
        return _no_w4(r)
    if r.reverse_deflects_draw4:
        return _("a Reverse of the named colour (or on a Reverse) sends a pending Wild Draw Four "
                 "total back to the previous player and reverses the direction; a total sent "
                 "back can no longer be challenged (HR-REV4)")
    return _("a Reverse cannot pass on a Wild Draw Four (HR-REV4)")


def _k_draw2_on_draw4(r: RuleSet) -> str:
    if not _has(r, "W4"):
        return _no_w4(r)
    if r.draw2_on_draw4:
        return _("a Draw Two of the named colour (or on a Draw Two) may answer a pending Wild "
                 "Draw Four total, adding 2 for the next player; the total can then no longer "
                 "be challenged (HR-2ON4)")
    return _("a Draw Two cannot answer a pending Wild Draw Four (HR-2ON4)")


def _k_revenge(r: RuleSet) -> str:
    if r.revenge:
        return _("a pending total that a Skip or Reverse sends back to the player who passed it "
                 "doubles (HR-REVENGE)")
    return _("a total sent back keeps its size (HR-REVENGE)")


def _k_jump_in(r: RuleSet) -> str:
    if r.deck.launcher:
        return _("off: Attack has no jump-in (ATK-5, HR-JUMP)")
    if r.jump_in:
        return _("a player holding a card identical to the coloured card just played may play "
                 "it out of turn, before the next player acts; play goes on from them (HR-JUMP, "
                 "DIG-3)")
    return _("no playing out of turn (HR-JUMP)")


def _k_double_play(r: RuleSet) -> str:
    if r.double_play:
        return _("two identical coloured cards may be played together: two Skips skip one "
                 "player, two Reverses keep the direction, two Draw Twos make the next player "
                 "draw 4 (HR-DOUBLE)")
    return _("no playing two identical cards together (HR-DOUBLE)")


def _k_multi_play(r: RuleSet) -> str:
    if r.multi_play:
        return _("several number cards of one colour and number, or several action cards of "
                 "one kind, may be played at once; each takes effect in order (ATK-4)")
    return _("one card at a time, unless double_play allows two (ATK-4)")


def _k_same_number_play(r: RuleSet) -> str:
    if r.same_number_play:
        return _("several number cards of one number, in any colours, may be played at once on "
                 "your turn; the first must match, the last sets the colour; playing your whole "
                 "hand this way wins without UNO (HR-SAMENUM)")
    return _("number cards of one number in different colours are played one at a time "
             "(HR-SAMENUM)")


def _k_bomb(r: RuleSet) -> str:
    if r.bomb:
        return _("playing three or more cards of one number at once on your turn makes every "
                 "other player draw one (HR-BOMB)")
    return _("no bomb: several cards of one number make nobody draw (HR-BOMB)")


def _k_sum_jump_in(r: RuleSet) -> str:
    if r.sum_jump_in == "same_color":
        return _("out of turn, a player may play several number cards of the colour just "
                 "played whose numbers add up to the number just played (HR-SUM)")
    if r.sum_jump_in == "any_color":
        return _("out of turn, a player may play several number cards of one colour (any "
                 "colour) whose numbers add up to the number just played (HR-SUM)")
    return _("no sum jump-in (HR-SUM)")


def _k_number_finish(r: RuleSet) -> str:
    if r.number_finish:
        return _("the last card must be a number card (a Wild Attack-Attack also ends the "
                 "round, without its effect); a player whose last card is not must draw instead "
                 "(HR-NUMFIN, ATK-6)")
    return _("any card may be the last one (HR-NUMFIN)")


def _k_teams(r: RuleSet) -> str:
    if r.teams:
        return _("teams of {size}, seated alternately (seat i plays for team i mod {count}); "
                 "a team scores its members' sums (HR-TEAM, MATCH-4)").format(
            size=r.teams, count=r.team_count)
    return _("everyone plays for themselves (HR-TEAM)")


def _k_wild_powers(r: RuleSet) -> str:
    if r.wild_powers:
        return _("a Wild's player chooses to name a colour, or look at another player's hand, "
                 "or swap 3 chosen cards for 3 random ones of another player (HR-WILDPOWER)")
    return _("a Wild only names a colour (HR-WILDPOWER, EFF-4)")


def _k_turn_timer(r: RuleSet) -> str:
    if r.turn_timer is None:
        return _("no turn timer (HR-TIMER)")
    return ngettext("in real-time play a player who takes longer than {n} second draws the "
                    "timer penalty and the turn passes; no meaning in simulation (HR-TIMER)",
                    "in real-time play a player who takes longer than {n} seconds draws the "
                    "timer penalty and the turn passes; no meaning in simulation (HR-TIMER)",
                    r.turn_timer).format(n=r.turn_timer)


def _k_timer_penalty(r: RuleSet) -> str:
    if r.turn_timer is None:
        return _("unused while there is no turn timer (HR-TIMER)")
    return ngettext("a player out of time draws {n} card (HR-TIMER)",
                    "a player out of time draws {n} cards (HR-TIMER)",
                    r.timer_penalty).format(n=r.timer_penalty)


def _k_seat_exchange(r: RuleSet) -> str:
    if r.seat_exchange:
        return ngettext("the seating is shuffled after every round (HR-SEATS)",
                        "the seating is shuffled every {n} rounds (HR-SEATS)",
                        r.seat_exchange).format(n=r.seat_exchange)
    return _("everyone keeps their seat for the whole match (HR-SEATS)")


def _k_seven_zero(r: RuleSet) -> str:
    if r.seven_zero:
        return _("a 7 swaps hands with a player of its player's choice; a 0 passes every hand "
                 "to the next player (HR-SEVEN-ZERO)")
    return _("7 and 0 are plain number cards (HR-SEVEN-ZERO)")


def _k_force_play(r: RuleSet) -> str:
    if r.force_play:
        return _("a player who can play must play: drawing is possible only without a playable "
                 "card; a pending penalty may still be taken, and jump-ins stay optional "
                 "(HR-FORCE)")
    return _("a player may draw instead of playing (HR-FORCE, TURN-4)")


def _k_forced_draw_play(r: RuleSet) -> str:
    if not r.forced_draw_play:
        return _("a drawn card that fits may be played at once or kept (HR-DRAWPLAY, TURN-3)")
    if r.voluntary_draw_play == "may_not" and not r.force_play:
        return _("a drawn card that fits must be played at once, unless the player drew while "
                 "holding a play: that card may not be played this turn (HR-DRAWPLAY, TURN-4)")
    return _("a drawn card that fits must be played at once: no keeping it (HR-DRAWPLAY)")


def _k_hand_limit(r: RuleSet) -> str:
    if r.hand_limit is None:
        return _("no limit on the cards in a hand (HR-HANDLIMIT)")
    return _("a hand of {n} cards draws no more: turn draws and penalties stop at {n} cards, "
             "and a player at the limit who draws simply passes (HR-HANDLIMIT)").format(
        n=r.hand_limit)


def _k_silent_uno(r: RuleSet) -> str:
    if r.silent_uno:
        return _("nobody calls UNO: there is no UNO declaration and no catch, so a player down "
                 "to one card is never penalised for it (HR-SILENT)")
    return _("a player left with one card must call UNO or may be caught (HR-SILENT, UNO-1)")


def _k_double_score(r: RuleSet) -> str:
    if not r.double_score:
        return _("a round scores its points once (HR-DOUBLESCORE)")
    if r.scoring == "chips":
        return _("every loser pays the round's winner twice their points in chips "
                 "(HR-DOUBLESCORE, MATCH-3)")
    return _("the round's winner scores twice the points left in the other hands "
             "(HR-DOUBLESCORE, MATCH-1)")


def _k_wild_starter_stays(r: RuleSet) -> str:
    if r.starter_number_only:
        return _("does not apply: only a number card can be turned over first (START-7)")
    if not r.wild_starter_stays:
        return _("a wild turned over first follows START-4 to START-6 (HR-WILDSTART)")
    who = (_("the dealer") if r.starter_wild_chooser == "dealer"
           else _("the player left of the dealer"))
    return _("any wild turned over first stays, Wild Draw Four and the editions' wilds too: "
             "{who} names its colour, it has no other effect and play starts left of the "
             "dealer (HR-WILDSTART, START-4)").format(who=who)


def _k_uno_penalty(r: RuleSet) -> str:
    if r.silent_uno:
        return _("unused: nobody calls UNO (HR-SILENT)")
    if r.deck.launcher:
        return ngettext("a player caught with one card and no UNO declared, before the next "
                        "player acts, presses the launcher {n} time (UNO-1, UNO-2, ATK-11)",
                        "a player caught with one card and no UNO declared, before the next "
                        "player acts, presses the launcher {n} times (UNO-1, UNO-2, ATK-11)",
                        r.uno_penalty).format(n=r.uno_penalty)
    return ngettext("a player caught with one card and no UNO declared, before the next player "
                    "acts, draws {n} card (UNO-1, UNO-2)",
                    "a player caught with one card and no UNO declared, before the next player "
                    "acts, draws {n} cards (UNO-1, UNO-2)", r.uno_penalty).format(n=r.uno_penalty)


def _k_false_uno_penalty(r: RuleSet) -> str:
    if r.silent_uno:
        return _("unused: nobody calls UNO (HR-SILENT)")
    if r.false_uno_penalty:
        return ngettext("a wrong UNO declaration or catch costs the caller {n} card (UNO-3)",
                        "a wrong UNO declaration or catch costs the caller {n} cards (UNO-3)",
                        r.false_uno_penalty).format(n=r.false_uno_penalty)
    return _("a wrong UNO declaration or catch is refused with an error, at no cost (UNO-3, "
             "DIG-4)")


def _k_misplay(r: RuleSet) -> str:
    if r.misplay == "penalty":
        return _("a card that does not fit goes back and its player draws the misplay penalty; "
                 "after drawing, playing another card than the drawn one costs 3 (PEN-1, PEN-2)")
    return _("an illegal action is refused with an error and changes nothing (DIG-4, PEN-1)")


def _k_misplay_penalty(r: RuleSet) -> str:
    if r.misplay != "penalty":
        return _("unused while misplays are refused (PEN-1)")
    return ngettext("a misplay costs {n} card (PEN-1)", "a misplay costs {n} cards (PEN-1)",
                    r.misplay_penalty).format(n=r.misplay_penalty)


def _k_scoring(r: RuleSet) -> str:
    if r.scoring == "penalty":
        return _("each player adds the points left in their own hand; when the match ends the "
                 "lowest total wins (MATCH-2, END-3)")
    if r.scoring == "chips":
        return _("each loser pays the round's winner chips equal to their points; after the set "
                 "number of rounds the most chips wins (MATCH-3, END-3)")
    return _("the round's winner scores the points left in everyone else's hand; the first to "
             "the target wins the match (MATCH-1, END-3)")


def _k_target_score(r: RuleSet) -> str:
    if r.scoring == "chips":
        return _("unused: the chips system ends after a number of rounds (MATCH-3)")
    if r.scoring == "penalty" and r.rounds is not None:
        return _("unused: this match ends after a number of rounds (MATCH-2)")
    if r.scoring == "penalty":
        return _("the match ends when a player reaches {n} points; the lowest total then wins "
                 "(MATCH-2)").format(n=r.target_score)
    return _("the first player to reach {n} points wins the match (MATCH-1)").format(
        n=r.target_score)


def _k_rounds(r: RuleSet) -> str:
    if r.rounds is None:
        return _("no fixed number of rounds: the target score ends the match (MATCH-1, MATCH-2)")
    return ngettext("the match ends after {n} round (MATCH-2, MATCH-3)",
                    "the match ends after {n} rounds (MATCH-2, MATCH-3)", r.rounds).format(
        n=r.rounds)


def _k_launcher(r: RuleSet) -> str:
    if not r.deck.launcher:
        return _("unused: only the Attack launcher ejects random volleys (ATK-2)")
    mean = sum(i * p for i, p in enumerate(r.launcher))
    return _("a press ejects k cards with these probabilities for k = 0, 1, 2, ...: it fires on "
             "{fire:.0%} of presses, {mean:.2f} cards a press on average (ATK-2)").format(
        fire=1 - r.launcher[0], mean=mean)


def _k_launcher_max_dry(r: RuleSet) -> str:
    if not r.deck.launcher:
        return _("unused without the Attack launcher (ATK-2)")
    if r.launcher_max_dry is None:
        return _("presses may fire nothing any number of times in a row (ATK-2)")
    return ngettext("after {n} press in a row that fired nothing, the next fires at least one "
                    "card (ATK-2)",
                    "after {n} presses in a row that fired nothing, the next fires at least one "
                    "card (ATK-2)", r.launcher_max_dry).format(n=r.launcher_max_dry)


def _k_open_hands(r: RuleSet) -> str:
    if r.open_hands is None:
        return _("every hand is hidden from the other players (HR-OPEN)")
    return ngettext("a hand of {n} card or fewer lies face up: everyone sees its cards (HR-OPEN)",
                    "a hand of {n} cards or fewer lies face up: everyone sees its cards "
                    "(HR-OPEN)", r.open_hands).format(n=r.open_hands)


def _k_blind_draw(r: RuleSet) -> str:
    if r.blind_draw:
        return _("a card drawn for the turn is taken face down and the turn ends: it cannot be "
                 "played that turn, and its owner sees it once the next player is on (HR-BLIND)")
    return _("a drawn card is seen at once and may be played as TURN-3 and TURN-4 allow "
             "(HR-BLIND)")


def _k_elimination(r: RuleSet) -> str:
    if r.elimination == "points":
        return _("after each round the player holding the most points in hand is out (all of "
                 "them on a tie, never the round's winner); the last player left wins the match "
                 "(HR-ELIM)")
    if r.elimination == "cards":
        return _("after each round the player holding the most cards is out (all of them on a "
                 "tie, never the round's winner); the last player left wins the match (HR-ELIM)")
    return _("nobody is put out: the match ends as its scoring says (HR-ELIM)")


def _k_blitz(r: RuleSet) -> str:
    if r.blitz is None:
        return _("a round lasts until someone goes out (HR-BLITZ)")
    return ngettext("in real-time play a round lasts at most {n} second: then the player "
                    "holding the fewest points in hand wins it (fewest cards on a tie); no "
                    "meaning in simulation (HR-BLITZ)",
                    "in real-time play a round lasts at most {n} seconds: then the player "
                    "holding the fewest points in hand wins it (fewest cards on a tie); no "
                    "meaning in simulation (HR-BLITZ)", r.blitz).format(n=r.blitz)


#: key -> its explanation at the rule set's current value. A test checks that every key of
#: :data:`unoarena.engine.KEYS` has one.
EXPLAIN: dict[str, Callable[[RuleSet], str]] = {
    "preset": _k_preset, "edition": _k_edition, "players": _k_players,
    "hand_size": _k_hand_size, "first_dealer": _k_first_dealer,
    "next_dealer": _k_next_dealer, "voluntary_draw_play": _k_voluntary_draw_play,
    "draw_count": _k_draw_count, "deck_exhausted": _k_deck_exhausted,
    "starter_wild_chooser": _k_starter_wild_chooser, "starter_w4": _k_starter_w4,
    "starter_reverse": _k_starter_reverse,
    "starter_number_only": _k_starter_number_only, "w4_rule": _k_w4_rule,
    "wd4_challenge": _k_wd4_challenge, "stacking": _k_stacking,
    "stack_draw4": _k_stack_draw4, "draw4_on_draw2": _k_draw4_on_draw2,
    "reverse_deflects_draw4": _k_reverse_deflects_draw4, "draw2_on_draw4": _k_draw2_on_draw4,
    "revenge": _k_revenge,
    "jump_in": _k_jump_in, "double_play": _k_double_play, "multi_play": _k_multi_play,
    "same_number_play": _k_same_number_play, "bomb": _k_bomb,
    "sum_jump_in": _k_sum_jump_in, "number_finish": _k_number_finish, "teams": _k_teams,
    "wild_powers": _k_wild_powers, "turn_timer": _k_turn_timer,
    "timer_penalty": _k_timer_penalty, "seat_exchange": _k_seat_exchange,
    "seven_zero": _k_seven_zero, "force_play": _k_force_play,
    "forced_draw_play": _k_forced_draw_play, "hand_limit": _k_hand_limit,
    "silent_uno": _k_silent_uno, "double_score": _k_double_score,
    "wild_starter_stays": _k_wild_starter_stays,
    "uno_penalty": _k_uno_penalty,
    "false_uno_penalty": _k_false_uno_penalty, "misplay": _k_misplay,
    "misplay_penalty": _k_misplay_penalty, "scoring": _k_scoring,
    "target_score": _k_target_score, "rounds": _k_rounds, "launcher": _k_launcher,
    "launcher_max_dry": _k_launcher_max_dry, "open_hands": _k_open_hands,
    "blind_draw": _k_blind_draw, "elimination": _k_elimination,
    "blitz": _k_blitz,
}

#: key -> the rule IDs it configures (for tables), from the keys' declarations.
KEY_RULES: dict[str, str] = {k: info.rules for k, info in KEY_INFO.items()}

PRESET_SUMMARIES: dict[str, str] = {
    "classic": N_("Mattel's classic UNO (rule book 000): 108 cards, Wild Draw Four with challenge, "
                  "the winner scores, first to 500"),
    "buzz": N_("UNO Buzz Lightyear (rule book 001): the classic deck plus Wild Hyperspeed"),
    "frozen2": N_("UNO Frozen II (rule book 002): purple instead of blue, plus Wild Forces of "
                  "Nature"),
    "house": N_("complete rules with house rules (rule book 003): deflecting Draw Two, stacked "
                "Wild Draw Four, penalty scoring"),
    "attack": N_("UNO Attack (rule book 004): card launcher, Hit 2, Discard All, Wild "
                 "Attack-Attack, lowest score wins"),
}


def explain_key(rules: RuleSet, key: str) -> str:
    """What ``key`` means in play at its current value, citing rule IDs."""
    fn = EXPLAIN.get(key)
    if fn is None:
        return _("no explanation yet (see docs/spec/RULES.md)")
    return fn(rules)


def explain(rules: RuleSet) -> list[tuple[str, str, str]]:
    """``(key, value, explanation)`` for every key of the rule set, in :data:`KEYS` order."""
    values = rules.to_dict()
    return [(k, value_text(values[k]), explain_key(rules, k)) for k in KEYS]


def preset_summary(name: str) -> str:
    """One translated line saying what preset ``name`` plays (its rule book and deck); a preset
    without a summary names its edition."""
    text = PRESET_SUMMARIES.get(name)
    if text is None:
        return _("edition {edition}").format(edition=PRESETS[name].edition)
    return _(text)


def allowed_values(key: str) -> str:
    """The values a key accepts, as the engine's own validation states them."""
    if key == "preset":
        return ", ".join(PRESETS)
    try:
        preset("classic", **{key: "\x00"})
    except ConfigError as e:
        if isinstance(e.allowed, (list, tuple)):
            return ", ".join(str(a) for a in e.allowed)
        text = str(e.allowed)
    else:
        return "?"
    try:  # optional keys also take "none"
        preset("classic", **{key: "none"})
    except ConfigError:
        return text
    return text + ", or none"


def keys_table() -> str:
    """The Markdown table of every rule-set key: rule IDs, allowed values, value per preset.
    ``scripts/gen_docs.py`` writes it into docs/rules/keys.md, and a test keeps that page in
    step."""
    names = list(PRESETS)
    default_launcher = PRESETS["classic"].launcher

    def cell(value: Any) -> str:
        if isinstance(value, (list, tuple)) and tuple(value) == default_launcher:
            return "default"
        return value_text(value).replace("|", "\\|")

    rows = ["| key | rules | values | " + " | ".join(names) + " |",
            "| --- | --- | --- | " + " | ".join("---" for _n in names) + " |"]
    for key in KEYS:
        vals = [cell(PRESETS[n].to_dict()[key]) for n in names]
        rows.append(f"| `{key}` | {KEY_RULES.get(key, '')} | {allowed_values(key)} | "
                    + " | ".join(vals) + " |")
    return "\n".join(rows) + "\n"


def config_message(e: ConfigError) -> str:
    """A refused rule set in the language in force, in one wording whatever the command: the
    key or value, the closest allowed name when one is close, and what is allowed."""
    allowed = (", ".join(str(a) for a in e.allowed) if isinstance(e.allowed, (list, tuple))
               else str(e.allowed))
    if len(e.keys) != 1:
        return str(e)
    if e.keys == ("key",):
        if e.suggestion:
            return _("unknown rule key {key!r} (did you mean {match}?): the keys are "
                     "{keys}").format(key=e.value, match=e.suggestion, keys=allowed)
        return _("unknown rule key {key!r}: the keys are {keys}").format(key=e.value,
                                                                       keys=allowed)
    value = excerpt(e.value)
    if e.suggestion:
        return _("bad value {value} for {key} (did you mean {match}?): allowed "
                 "{allowed}").format(value=value, key=e.keys[0], match=e.suggestion,
                                     allowed=allowed)
    return _("bad value {value} for {key}: allowed {allowed}").format(
        value=value, key=e.keys[0], allowed=allowed)
