"""A narrator: the engine's events as sentences about named players.

"North played a blue Skip: West loses the turn." One action's events become one line: the
actor's deed in the past tense, then what followed from it. Private events (drawn cards, a
shown hand) become separate lines addressed to their one viewer, and only to them (RULES
DIG-2). Shared by the terminal and the browser clients; every word goes through
:mod:`unoarena.text.i18n`, card codes stay as they are in every language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .i18n import N_, _, ngettext
from .rules import card_text, color_text

#: What the narrator reads: the engine's events (:class:`unoarena.engine.Event`) and the
#: narration-only ones made from them (``presses``: several launcher presses merged;
#: ``first_turn``: who opens a round), which carry keys and kinds the engine never emits.
Event = Mapping[str, Any]

#: Positions around a table, clockwise from the bottom of the screen, by player count.
_COMPASS: dict[int, tuple[str, ...]] = {
    2: ("South", "North"),
    3: ("South", "North-West", "North-East"),
    4: ("South", "West", "North", "East"),
    5: ("South", "West", "North-West", "North-East", "East"),
    6: ("South", "South-West", "North-West", "North", "North-East", "South-East"),
    7: ("South", "South-West", "West", "North-West", "North-East", "East", "South-East"),
    8: ("South", "South-West", "West", "North-West", "North", "North-East", "East",
        "South-East"),
}
_COMPASS_WORDS = (N_("South"), N_("North"), N_("West"), N_("East"), N_("North-West"),
                  N_("North-East"), N_("South-West"), N_("South-East"))

#: Why a penalty was drawn, as a short phrase.
_WHY: dict[str, str] = {
    "draw2": N_("Draw Two"), "draw4": N_("Wild Draw Four"), "hit2": N_("Hit 2"),
    "attack": N_("Wild Attack-Attack"), "starter": N_("the first card"),
    "last_card": N_("the last card's penalty"), "uno_caught": N_("caught without UNO"),
    "false_catch": N_("a wrong catch"), "false_uno": N_("a wrong UNO call"),
    "challenge_guilty": N_("bluff caught"), "challenge_innocent": N_("challenge lost"),
    "misplay": N_("misplay"), "timeout": N_("out of time"), "bomb": N_("a bomb"),
}

#: Events that start an action's line (the actor's deed); the rest are consequences.
_DEEDS = frozenset({"play", "jump_in", "draw_penalty", "pass", "uno", "catch", "challenge",
                    "accept", "color", "timeout", "misplay", "draw", "press", "presses",
                    "give"})


def default_names(players: int) -> list[str]:
    """Compass positions for up to eight players, numbered players beyond (untranslated:
    translate with :func:`display_name` where shown)."""
    if players in _COMPASS:
        return list(_COMPASS[players])
    return [f"Player {i + 1}" for i in range(players)]


def display_name(name: str) -> str:
    """A default position name in the current language; a chosen name as it is."""
    if name in _COMPASS_WORDS:
        return _(name)
    if name.startswith("Player ") and name[7:].isdigit():
        return _("Player {n}").format(n=name[7:])
    return name


def a_card(code: str) -> str:
    """One card with its article: ``"a blue Skip"``."""
    return _("a {card}").format(card=card_text(code))


def cards_phrase(codes: Sequence[str]) -> str:
    """One card with an article, several joined: ``"red 7 + red 7"``."""
    if len(codes) == 1:
        return a_card(codes[0])
    return " + ".join(card_text(c) for c in codes)


def direction_text(direction: str) -> str:
    """The direction of play (``cw`` or ``ccw``) in words, translated."""
    return _("clockwise") if direction == "cw" else _("counter-clockwise")


def why_text(reason: str) -> str:
    """A draw's reason code (``draw2``, ``uno_caught``...) as the words a player reads; an unknown
    code is shown as it is."""
    return _(_WHY[reason]) if reason in _WHY else reason


class Narrator:
    """Sentences about the players of one round; ``names`` is indexed by seat."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = [display_name(n) for n in names]

    def name(self, seat: Any) -> str:
        """The display name of ``seat``; anything that is not a seat of the round is shown as text,
        so a bad event still narrates."""
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return str(seat)

    def names_of(self, seats: Sequence[int]) -> str:
        """Several seats' names as one translated list."""
        return _(", ").join(self.name(s) for s in seats)

    # -- one action ------------------------------------------------------------------------
    def line(self, events: Sequence[Event], viewer: int | None = None, *,
             seat: int | None = None, action: str | None = None) -> tuple[str, list[str]]:
        """The public line of one action's events, and the private lines ``viewer`` may read.

        ``seat`` and ``action`` name the actor when every event is private (a swap's give).
        """
        deed = ""
        rest: list[str] = []
        private: list[str] = []
        jumped = False
        swapper = -1
        events = merge_presses(events)
        for e in events:
            t = e.get("t")
            if "to" in e:
                if viewer is not None and e["to"] == viewer:
                    private.append(self.private(e, viewer, swapper))
                continue
            if t == "swap_taken":
                swapper = int(e.get("seat", -1))
            if t == "jump_in":
                jumped = True
                deed = _("{name} jumped in with {cards}").format(
                    name=self.name(e["seat"]), cards=cards_phrase(e.get("cards", [])))
                continue
            if t == "play" and jumped:
                jumped = False
                extra = self._play_extras(e)
                deed += extra
                continue
            if t == "uno" and deed and not rest and events and _played_by(events, e["seat"]):
                deed += _(" and called UNO")
                continue
            if not deed and t in _DEEDS:
                deed = self.deed(e)
                continue
            text = self.consequence(e)
            if text:
                if not deed:
                    deed = text
                else:
                    rest.append(text)
        if not deed and seat is not None:
            if action and action.startswith("give"):
                deed = _("{name} gave a card away").format(name=self.name(seat))
            elif action:
                deed = _("{name}: {action}").format(name=self.name(seat), action=action)
        if not deed:
            return "", private
        if rest:
            return _("{deed}: {rest}.").format(deed=deed, rest=_("; ").join(rest)), private
        return _("{deed}.").format(deed=deed), private

    def lines(self, events: Sequence[Event], viewer: int | None = None) -> list[str]:
        """Public and private lines together (for a plain log)."""
        line, private = self.line(events, viewer)
        return ([line] if line else []) + private

    # -- the actor's deed ----------------------------------------------------------------------
    def _play_extras(self, e: Event) -> str:
        cards = list(e.get("cards", []))
        s = ""
        if cards and cards[-1].startswith("W") and e.get("power") not in ("look", "swap"):
            s += _(" and named {color}").format(color=color_text(e.get("color", "")))
        if e.get("discarded"):
            s += _(", discarding {cards}").format(
                cards=" + ".join(card_text(c) for c in e["discarded"]))
        return s

    def deed(self, e: Event) -> str:
        """What an actor did, in the past tense."""
        t = e.get("t")
        who = self.name(e.get("seat"))
        if t == "play":
            return _("{name} played {cards}").format(
                name=who, cards=cards_phrase(e.get("cards", []))) + self._play_extras(e)
        if t == "draw_penalty":
            return _("{name} took the penalty").format(name=who)
        if t == "pass":
            return _("{name} kept the drawn card").format(name=who)
        if t == "uno":
            return _("{name} called UNO").format(name=who)
        if t == "catch":
            return _("{name} caught {target} without UNO").format(
                name=who, target=self.name(e.get("target")))
        if t == "challenge":
            return _("{name} challenged the Wild Draw Four of {targets}").format(
                name=who, targets=self.names_of(e.get("targets", [])))
        if t == "accept":
            return _("{name} accepted the Wild Draw Four").format(name=who)
        if t == "color":
            return _("{name} named {color}").format(name=who, color=color_text(e["color"]))
        if t == "timeout":
            return _("{name} ran out of time").format(name=who)
        if t == "misplay":
            return _("{name} tried {cards}, which is not allowed; the cards go back").format(
                name=who, cards=cards_phrase(e.get("cards", [])))
        if t == "draw":
            n = int(e.get("count", 0))
            if e.get("reason", "turn") == "turn":
                if not n:
                    return _("{name} could not draw: no card is left").format(name=who)
                return ngettext("{name} drew {n} card", "{name} drew {n} cards", n).format(
                    name=who, n=n)
            return self.consequence(e) or ""
        if t == "presses":
            return self._presses(e, past=True)
        if t == "press":
            n = int(e.get("count", 0))
            if not n:
                return _("{name} pressed the launcher: nothing came out").format(name=who)
            return ngettext("{name} pressed the launcher: {n} card came out",
                            "{name} pressed the launcher: {n} cards came out", n).format(
                name=who, n=n)
        return self.consequence(e) or ""

    # -- what followed -----------------------------------------------------------------------
    def consequence(self, e: Event) -> str | None:
        """What happened as a result, in the present tense; None for silent events."""
        t = e.get("t")
        who = self.name(e.get("seat"))
        if t == "skip":
            return _("{name} loses the turn").format(name=who)
        if t == "reverse":
            return _("play now goes {direction}").format(
                direction=direction_text(e.get("direction", "cw")))
        if t == "uno":
            return _("{name} calls UNO").format(name=who)
        if t == "revenge":
            return _("revenge: the penalty sent back doubles to {n} for {name}").format(
                name=who, n=int(e.get("count", 0)))
        if t == "draw":
            n = int(e.get("count", 0))
            reason = e.get("reason", "turn")
            if reason == "turn":
                return ngettext("{name} draws {n} card", "{name} draws {n} cards", n).format(
                    name=who, n=n)
            return ngettext("{name} draws {n} card ({why})", "{name} draws {n} cards ({why})",
                            n).format(name=who, n=n, why=why_text(reason))
        if t == "press":
            n = int(e.get("count", 0))
            if not n:
                return _("{name} presses the launcher: nothing comes out").format(name=who)
            return ngettext("{name} presses the launcher: {n} card comes out",
                            "{name} presses the launcher: {n} cards come out", n).format(
                name=who, n=n)
        if t == "presses":
            return self._presses(e, past=False)
        if t == "first_turn":
            if e.get("names_color"):
                return _("{name} names its colour").format(name=who)
            if e.get("direction") == "ccw":
                return _("play goes counter-clockwise, and {name} plays first").format(name=who)
            return _("{name} plays first").format(name=who)
        if t == "penalty":
            n = int(e.get("presses", 0))
            return ngettext("{name} must press the launcher {n} time ({why})",
                            "{name} must press the launcher {n} times ({why})", n).format(
                name=who, n=n, why=why_text(e.get("reason", "")))
        if t == "reshuffle":
            n = int(e.get("cards", 0))
            return ngettext("the discard pile is shuffled into a new draw pile ({n} card)",
                            "the discard pile is shuffled into a new draw pile ({n} cards)",
                            n).format(n=n)
        if t == "effect":
            color = color_text(e.get("color", ""))
            if e.get("kind") == "hyperspeed":
                return _("Hyperspeed on {color}: every {color} card also skips the next "
                         "player").format(color=color)
            return _("Forces of Nature: only {color} cards until {name}'s next turn").format(
                color=color, name=self.name(e.get("owner")))
        if t == "effect_end":
            if e.get("kind") == "hyperspeed":
                return _("Hyperspeed ends")
            return _("the Forces of Nature lock ends")
        if t == "challenge_result":
            guilty = list(e.get("guilty", []))
            if not guilty:
                return _("the Wild Draw Four was played fairly")
            return _("{names} bluffed").format(names=self.names_of(guilty))
        if t == "attack":
            return _("{name} attacks {target}").format(name=who,
                                                       target=self.name(e.get("target")))
        if t == "swap_hands":
            return _("{name} swaps hands with {target}").format(
                name=who, target=self.name(e.get("target")))
        if t == "rotate_hands":
            return _("every hand passes to the next player ({direction})").format(
                direction=direction_text(e.get("direction", "cw")))
        if t == "look":
            return _("{name} looks at {target}'s hand").format(
                name=who, target=self.name(e.get("target")))
        if t == "swap_start":
            return _("{name} will swap 3 cards with {target}").format(
                name=who, target=self.name(e.get("target")))
        if t == "swap_taken":
            n = int(e.get("count", 0))
            return ngettext("{name} takes {n} random card from {target}",
                            "{name} takes {n} random cards from {target}", n).format(
                name=who, n=n, target=self.name(e.get("target")))
        if t == "round_over":
            if e.get("blocked"):
                return _("the round ends void: every hand is full and nobody can play")
            if e.get("winner") is None:
                return _("the round ends void: the draw pile ran out")
            if e.get("on_time"):  # HR-BLITZ
                return _("time is up: {name} holds the fewest points and wins the round").format(
                    name=self.name(e.get("winner")))
            return _("{name} has no cards left and wins the round").format(
                name=self.name(e.get("winner")))
        if t == "deal":
            n = int(e.get("hand_size", 7))
            return ngettext("{name} dealt {n} card to each player",
                            "{name} dealt {n} cards to each player", n).format(
                name=self.name(e.get("dealer")), n=n)
        if t == "starter":
            return _("{card} was turned over to start the discard pile").format(
                card=card_text(e.get("card", "")))
        if t == "starter_returned":
            where = (_("to the bottom of the draw pile") if e.get("where") == "bottom"
                     else _("back into the draw pile, which is reshuffled"))
            return _("{card} was turned over first and goes {where}").format(
                card=card_text(e.get("card", "")), where=where)
        if t == "jump_in":
            return _("{name} jumps in with {cards}").format(
                name=who, cards=cards_phrase(e.get("cards", [])))
        if t in ("draw_penalty", "play", "pass", "catch", "challenge", "accept", "color",
                 "timeout", "misplay"):
            return self.deed(e)
        if t == "dealer_draw":
            drawn = ", ".join(f"{self.name(s)}: {card_text(c)}" for s, c in e.get("cards", []))
            return _("cards drawn for the first deal: {cards}").format(cards=drawn)
        if t == "dealer":
            return _("{name} deals first").format(name=self.name(e["seat"]))
        return None

    def _presses(self, e: Event, *, past: bool) -> str:
        """Several presses of the launcher in a row, as one clause: how many, what came out."""
        who = self.name(e.get("seat"))
        times = int(e.get("times", 0))
        n = int(e.get("count", 0))
        if past:
            how = ngettext("{n} time", "{n} times", times).format(n=times)
            out = (ngettext("{n} card came out", "{n} cards came out", n).format(n=n) if n
                   else _("nothing came out"))
            return _("{name} pressed the launcher {times}: {result}").format(
                name=who, times=how, result=out)
        how = ngettext("{n} time", "{n} times", times).format(n=times)
        out = (ngettext("{n} card comes out", "{n} cards come out", n).format(n=n) if n
               else _("nothing comes out"))
        return _("{name} presses the launcher {times}: {result}").format(
            name=who, times=how, result=out)

    # -- private lines -----------------------------------------------------------------------
    def private(self, e: Event, viewer: int, swapper: int = -1) -> str:
        """An event only ``viewer`` sees, addressed to them."""
        t = e.get("t")
        cards = " + ".join(card_text(c) for c in e.get("cards", []))
        if t == "drew":
            return _("You drew {cards}.").format(cards=cards)
        if t == "hand_shown":
            return _("{name}'s hand, shown to you: {cards}.").format(
                name=self.name(e.get("seat")), cards=cards or _("no cards"))
        if t == "give":
            return _("{name} gave you {cards}.").format(name=self.name(e.get("seat")),
                                                        cards=cards)
        if t == "swap_cards":
            if e.get("seat") == viewer and viewer != swapper and swapper >= 0:
                return _("Taken from you in the swap: {cards}.").format(cards=cards)
            return _("You took {cards} in the swap.").format(cards=cards)
        return _("You see: {cards}.").format(cards=cards)


def _played_by(events: Sequence[Event], seat: Any) -> bool:
    """Whether the play that opens these events was by ``seat`` (its UNO joins the deed)."""
    for e in events:
        if e.get("t") in ("play", "jump_in"):
            return bool(e.get("seat") == seat)
        if e.get("t") in _DEEDS:
            return False
    return False


def merge_presses(events: Sequence[Event]) -> list[Event]:
    """Presses of the launcher one after another by one player (a penalty of ten presses)
    become one ``presses`` event with how many times and how many cards in all, and the
    cards each press gave, one private ``drew`` event after it: one clause, not ten."""
    out: list[Event] = []
    i = 0
    while i < len(events):
        e = events[i]
        if e.get("t") != "press":
            out.append(e)
            i += 1
            continue
        seat = e.get("seat")
        times = count = 0
        drawn: list[str] = []
        to = None
        j = i
        while j < len(events):
            x = events[j]
            if x.get("t") == "press" and x.get("seat") == seat:
                times += 1
                count += int(x.get("count", 0))
            elif x.get("t") == "drew" and x.get("seat") == seat and "to" in x:
                drawn += list(x.get("cards", []))
                to = x["to"]
            else:
                break
            j += 1
        if times == 1:
            out.extend(events[i:j])
        else:
            out.append({"t": "presses", "seat": seat, "times": times, "count": count})
            if to is not None:
                out.append({"t": "drew", "seat": seat, "cards": drawn, "to": to})
        i = j
    return out


def round_start_lines(events: Sequence[Event], names: Sequence[str],
                      viewer: int | None = None) -> list[str]:
    """The deal and the first card, with what the first card does and who plays first, as
    sentences (the events before any action); then the lines only ``viewer`` may read."""
    n = Narrator(names)
    out: list[str] = []
    private: list[str] = []
    sentence = ""
    rest: list[str] = []

    def close() -> None:
        if sentence:
            text = sentence[:1].upper() + sentence[1:]
            out.append(_("{deed}: {rest}.").format(deed=text, rest=_("; ").join(rest)) if rest
                       else _("{deed}.").format(deed=text))

    for e in events:
        if "to" in e:
            if viewer is not None and e["to"] == viewer:
                private.append(n.private(e, viewer))
            continue
        text = n.consequence(e)
        if not text:
            continue
        if e.get("t") in ("deal", "starter", "starter_returned", "dealer_draw", "dealer"):
            close()
            sentence, rest = text, []
        elif sentence:
            rest.append(text)
        else:
            sentence = text
    close()
    return out + private


def error_reason(code: str) -> str:
    """The sentence for a DIG-4 refusal code in the current language; an unknown code
    comes back as it is."""
    reasons = {
        "not_your_turn": _("it is not your turn and no window is open to you"),
        "no_window": _("that chance is not open now"),
        "card_not_in_hand": _("you do not hold that card"),
        "does_not_match": _("that card does not match the top card and colour"),
        "must_name_color": _("a wild needs a colour"),
        "w4_not_allowed": _("a Wild Draw Four only without a card of the active colour"),
        "must_answer_penalty": _("a penalty is pending: answer it or take it"),
        "only_drawn_card": _("after drawing, only the drawn card may be played"),
        "last_card_must_be_number": _("the last card must be a number card"),
        "last_card_is_wild": _("the last card may not be a wild card"),
        "bad_target": _("choose another player as the target"),
        "not_in_rules": _("these rules do not have that action"),
        "bad_action": _("that is not an action"),
        "round_over": _("the round is over"),
    }
    return reasons.get(code, code)
