"""Plain mode: the same game, one line at a time, for screen readers and scripts.

It prints the narration and, when a person must decide, the choices in words with the players'
names, one a line, numbered ("2. play the red 7"); the person types a choice's number. A card
chosen becomes an action through :func:`unoarena.play_choice.card_choices`, as in the
full-screen game and the browser: its questions (which cards, the Wild's power, the colour, the
player) come one after another as numbered lists, only those with more than one answer, then
the UNO call when it is optional. Scripts may type an action as the engine writes it
(``play W color=G``) or a card code alone. Out-of-turn chances (catch, late UNO, jump-in) are
offered in the order of RULES DIG-3; an empty line lets them pass. No colours, no cursor
movement, no clock but the house-rule turn timer.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from ..engine import CODES, Action, IllegalAction
from ..play_choice import Node, card_choices, first_action, plays_of, with_uno
from ..text.i18n import _, set_language
from ..text.narrate import direction_text
from ..text.rules import COLOR_WORDS, card_text, color_text
from . import saves
from .helptext import help_sections, plain_command_lines
from .session import Table, illegal_text
from .words import Choice, cards_words, challenge_note, choices, target_question


@dataclass
class _CardChoice(Choice):
    """A card of the hand to play (or jump in with); the questions of its plays follow."""

    code: str = ""


class _Quit(Exception):
    pass


class PlainGame:
    """Runs a :class:`Table` over a pair of text streams."""

    def __init__(self, table: Table, inp: TextIO, out: TextIO, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.table = table
        self.inp = inp
        self.out = out
        self.clock = clock
        humans = table.human_players()
        self.viewer: int | None = humans[0] if humans else None
        self._shown = 0

    def say(self, line: str = "") -> None:
        """Write one line and flush it, so a screen reader or a script sees it at once."""
        self.out.write(line + "\n")
        self.out.flush()

    # -- the loop --------------------------------------------------------------------------
    def run(self) -> int:
        """Play until the match ends or the person quits (``quit`` or end of input, which saves an
        unfinished match); returns the exit status, 0."""
        t = self.table
        self.say(_("UNO Arena, plain mode. Rules: {preset}. Type help for the commands, rules "
                   "for the rules.").format(preset=t.rules.preset))
        self.say(_("At the table: {names}.").format(names=_(", ").join(
            self._who(s) for s in range(t.game.players))))
        try:
            while True:
                self.show_log()
                if t.game.is_over:
                    self.round_over()
                    if t.match.is_over:
                        return 0
                    continue
                d = t.next_decision(ask_people_in_windows=True)
                if d is None:
                    continue
                if d.kind == "bot" and d.action is not None:
                    t.apply(d.seat, d.action)
                    continue
                self.person(d.seat, window=d.kind == "window")
        except _Quit:
            if not t.match.is_over:
                try:
                    path = saves.autosave(t)
                    self.say(_("Saved to {path}").format(path=path))
                except OSError:
                    pass
            self.say(_("Goodbye."))
            return 0

    def _who(self, seat: int) -> str:
        t = self.table
        p = t.players[t.player_at(seat)]
        kind = _("bot {name}").format(name=p.bot) if p.is_bot else _("person")
        return _("{name} ({kind})").format(name=t.name(seat), kind=kind)

    def show_log(self) -> None:
        """Print the narration added since the last call, as the person now at the screen may
        read it."""
        for entry in self.table.log[self._shown:]:
            for line in entry.render(self.viewer):
                self.say(line)
        self._shown = len(self.table.log)

    def round_over(self) -> None:
        """Score the finished round and print hand points, round scores and totals; at the match's
        end, the winner and where its record was saved."""
        t = self.table
        out = t.game.outcome
        assert out is not None
        points = _(", ").join(_("{name}: {points}").format(name=t.name(s), points=p)
                              for s, p in enumerate(out.hand_points))
        self.say(_("Points left in each hand: {points}.").format(points=points))
        res = t.finish_round()
        scored = t.round_scores(res)
        labels = t.score_labels()
        self.say(_("Scored this round: {scores}.").format(scores=_(", ").join(
            _("{name}: {points}").format(name=n, points=s) for n, s in zip(labels, scored,
                                                                            strict=True))))
        self.say(_("Totals: {scores}.").format(scores=_(", ").join(
            _("{name}: {points}").format(name=n, points=s)
            for n, s in zip(labels, t.match.scores, strict=True))))
        self._shown = len(t.log) if t.match.is_over else self._shown
        if t.match.is_over:
            self.say(_("The match is over. Winner: {names}").format(names=t.winners_text()))
            try:
                self.say(_("Record saved: {path}").format(path=saves.close_match(t)))
            except OSError as e:
                self.say(_("Could not save the record: {error}").format(error=e))

    # -- a person's decision ------------------------------------------------------------------
    def person(self, seat: int, *, window: bool) -> None:
        """Read lines until the person at ``seat`` has acted (in a window, an empty line lets it
        pass), answering commands meanwhile. In hot-seat play a new person is announced first. A
        line that arrives after the turn timer ran out times the turn out (HR-TIMER)."""
        t = self.table
        player = t.player_at(seat)
        if player != self.viewer:
            self.viewer = player
            if len(t.human_players()) > 1:
                self.say(_("--- Pass to {name}. ---").format(name=t.player_name(player)))
            self.show_log()
        started = self.clock()
        self.status(seat, window=window)
        while True:
            legal = t.legal(seat)
            text = self.ask()
            limit = t.rules.turn_timer
            if limit is not None and not window and self.clock() - started > limit:
                t.apply(seat, "timeout")
                return
            if not text:
                if window:
                    t.decline(seat)
                    return
                self.choices(seat)
                continue
            if self.command(text, seat, window):
                continue
            action = self.parse(text, legal, seat)
            if action is None:
                continue
            try:
                t.apply(seat, action)
            except IllegalAction as e:
                self.say(illegal_text(e, t))
                self.choices(seat)
                continue
            return

    def ask(self, prompt: str = "> ") -> str:
        """Read one line (the prompt first); the end of the input quits, saving the match."""
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            raise _Quit
        return line.strip()

    def command(self, text: str, seat: int, window: bool) -> bool:
        """The commands besides actions; True when ``text`` was one."""
        words = text.split()
        word = words[0].lower()
        t = self.table
        if word in ("quit", "exit", "q"):
            raise _Quit
        if word in ("help", "?"):
            for line in plain_command_lines():
                self.say(line)
            return True
        if word == "rules":
            every = len(words) > 1 and words[1].lower() == "all"
            for heading, lines in help_sections(t.rules, keys=False, settings=every):
                self.say(heading)
                for line in lines:
                    self.say("  " + line)
            return True
        if word == "hand":
            self.status(seat, window=window)
            return True
        if word in ("legal", "choices"):
            self.choices(seat)
            return True
        if word == "save":
            try:
                self.say(_("Saved to {path}").format(path=saves.save_table(t)))
            except OSError as e:
                self.say(_("Could not save: {error}").format(error=e))
            return True
        if word in ("lang", "language"):
            try:
                set_language(words[1] if len(words) > 1 else None)
            except ValueError as e:
                self.say(str(e))
            return True
        return False

    def parse(self, text: str, legal: list[Action], seat: int) -> Action | None:
        """An action from a line: a choice's number (then its card's questions, asked), or the
        action as the engine writes it, or cards alone (the questions it leaves open, asked);
        None to read another line."""
        if text.isdigit():
            options = self.options(legal, seat)
            i = int(text)
            if 1 <= i <= len(options):
                return self.complete(options[i - 1], legal)
            self.say(_("No choice {n}: choose 1 to {m}.").format(n=i, m=len(options)))
            return None
        try:
            action = Action.parse(text)
        except IllegalAction as first:
            try:
                action = Action.parse("play " + text)
            except IllegalAction:
                self.say(illegal_text(first, self.table))
                self.choices(seat)
                return None
        if action in legal or action.verb not in _PLAYS:
            return action
        fits = [a for a in legal if a.verb in _PLAYS and a.cards == action.cards
                and (action.color < 0 or a.color == action.color)
                and (action.target < 0 or a.target == action.target)
                and (not action.power or a.power == action.power)
                and a.uno == action.uno]
        if action.verb == "play" and not fits:
            fits = [a for a in legal if a.verb == "jump_in" and a.cards == action.cards
                    and a.uno == action.uno]
        if len(fits) == 1:
            return fits[0]
        code = CODES[action.cards[-1]]
        node = card_choices(fits, code)
        if node is not None:
            return self.walk(node, code)
        return action  # the engine says why not

    def complete(self, choice: Choice, legal: list[Action]) -> Action | None:
        """The action of a chosen line: a card's by its questions (:meth:`walk`), anything else
        as it stands."""
        if isinstance(choice, _CardChoice):
            node = card_choices(legal, choice.code)
            return None if node is None else self.walk(node, choice.code)
        return choice.pick()

    def walk(self, node: Node, code: str) -> Action | None:
        """Ask the questions of a card's plays in their order (see
        :func:`unoarena.play_choice.card_choices`), then the UNO call when the play may be made
        with or without it; None when the person types nothing (back to the choices)."""
        while "ask" in node:
            values = [o["value"] for o in node["options"]]
            pick = self.question(node, values, code)
            if pick is None:
                return None
            node = next(o["then"] for o in node["options"] if o["value"] == pick)
        uno = False
        if with_uno(node, False) != with_uno(node, True):
            while True:
                answer = self.ask(_("Call UNO as you play it? (y/n) ")).lower()
                if answer in _YES or answer in (_("y"), _("yes")):
                    uno = True
                    break
                if answer in _NO or answer in (_("n"), _("no")):
                    break
                if not answer:
                    return None
                self.say(_("Answer y or n."))
        return Action.parse(with_uno(node, uno))

    def question(self, node: Node, values: list[Any], code: str) -> Any:
        """One question of a card's plays as a numbered list; the answer is a number (a colour
        or a player may also be named); None for an empty line."""
        step = node["ask"]
        t = self.table
        if step == "cards":
            title = _("How do you play {card}?").format(card=card_text(code))
            labels = [_combo_text(str(v)) for v in values]
        elif step == "power":
            title = _("Wild power: what does your Wild do?")
            labels = [_power_text(str(v)) for v in values]
        elif step == "color":
            title = _("Which colour?")
            labels = [color_text(str(v)) for v in values]
        else:
            title = target_question(first_action(node))
            sizes = t.game.hand_sizes()
            labels = [_("{name} ({n} cards)").format(name=t.name(s), n=sizes[s])
                      for s in values]
        self.say(title)
        for i, label in enumerate(labels, 1):
            self.say(f"  {i}. {label}")
        while True:
            answer = self.ask().lower()
            if not answer:
                return None
            if answer.isdigit() and 1 <= int(answer) <= len(values):
                return values[int(answer) - 1]
            if step == "color":
                color = _pick_color(answer, [str(v) for v in values])
                if color is not None:
                    return color
                self.say(_("Choose 1 to {m}, or a colour.").format(m=len(values)))
                continue
            if step == "target":
                named = [s for s in values if t.name(s).lower() == answer]
                if named:
                    return named[0]
            self.say(_("No choice {n}: choose 1 to {m}.").format(n=answer, m=len(values)))

    # -- what a person is told ------------------------------------------------------------
    def status(self, seat: int, *, window: bool) -> None:
        """Tell the person at ``seat`` the table as they see it (top card, hand sizes, pending
        penalty, effect, their hand) and their choices."""
        t = self.table
        v = t.game.view(seat)
        name = t.name(seat)
        if window:
            self.say(_("{name}, you may act out of turn (an empty line lets it pass):").format(
                name=name))
        else:
            self.say(_("{name}, your turn.").format(name=name))
        top = v["top"]
        self.say(_("Top card: {card} ({code}); colour {color}; play goes {direction}.").format(
            card=card_text(top) if top else "-", code=top or "-",
            color=color_text(v["color"]) if v["color"] else "-",
            direction=direction_text(v["direction"])))
        sizes = _(", ").join(_("{name} {n}").format(name=t.name(s), n=n)
                             + (" UNO" if v["uno_declared"][s] and n == 1 else "")
                             for s, n in enumerate(v["hand_sizes"]))
        self.say(_("Cards in hand: {sizes}.").format(sizes=sizes))
        shown = v.get("open_hands") or []
        for s, cards in enumerate(shown):  # HR-OPEN: the small hands lie face up
            if cards and s != v["seat"]:
                self.say(_("{name} shows: {cards}.").format(
                    name=t.name(s), cards=_(", ").join(card_text(c) for c in cards)))
        if v["pending"]:
            p = v["pending"]
            self.say(_("Pending for {name}: {n} ({kind}).").format(
                name=t.name(p["target"]), n=p["amount"],
                kind=_("presses") if p["kind"] == "press" else _("cards")))
        if v["effect"]:
            e = v["effect"]
            if e["kind"] == "hyperspeed":
                self.say(_("Hyperspeed on {color}.").format(color=color_text(e["color"])))
            else:
                self.say(_("Forces of Nature: only {color} until {name}'s turn.").format(
                    color=color_text(e["color"]), name=t.name(e["owner"])))
        if "challenge" in {a.verb for a in t.legal(seat)}:
            note = challenge_note(t)
            if note:
                self.say(note)
        self.say(_("Your hand: {cards}.").format(
            cards=_(", ").join(card_text(c) for c in v["hand"]) or "-"))
        if v["drawn"]:
            self.say(_("You drew: {cards}.").format(
                cards=_(", ").join(card_text(c) for c in v["drawn"])))
        self.choices(seat)

    def options(self, legal: Sequence[Action], seat: int) -> list[Choice]:
        """What the person at ``seat`` may do, in the engine's order: each card that some play
        (or jump-in) uses once, as the full-screen hand offers it, and every other action as
        :func:`unoarena.tui.words.choices` words it."""
        rest = choices([a for a in legal if a.verb not in _PLAYS], self.table, seat)
        first = {id(c.actions[0]): c for c in rest}
        out: list[Choice] = []
        seen: set[str] = set()
        for a in legal:
            if a.verb not in _PLAYS:
                if id(a) in first:
                    out.append(first.pop(id(a)))
                continue
            for code in (CODES[k] for k in a.cards):
                if code not in seen:
                    seen.add(code)
                    out.append(_card_choice(legal, code))
        return out

    def choices(self, seat: int) -> None:
        """List what the person at ``seat`` may do, one choice a line, numbered from 1."""
        self.say(_("Your choices (type a number):"))
        for i, choice in enumerate(self.options(self.table.legal(seat), seat), 1):
            self.say(f"  {i}. {choice.text}")


_PLAYS = ("play", "jump_in")
_YES = frozenset({"y", "yes"})
_NO = frozenset({"n", "no"})


def _card_choice(legal: Sequence[Action], code: str) -> _CardChoice:
    """A card to play as one choice: "play the red 7", "jump in with the red 7" when only a
    jump-in uses it, and "then name a colour" when every play of it names one."""
    variants = plays_of(legal, code)
    verb = "jump_in" if all(a.verb == "jump_in" for a in variants) else "play"
    text = _combo_text(f"{verb} {code}")
    if all(a.color >= 0 for a in variants):
        text = _("{play}, then name a colour").format(play=text)
    return _CardChoice(text, variants, code=code)


def _combo_text(value: str) -> str:
    """A ``cards`` answer of :mod:`unoarena.play_choice` (``play R5+R5``) in words."""
    verb, cards = value.split(" ", 1)
    words = cards_words(cards.split("+"))
    return (_("jump in with {cards}") if verb == "jump_in" else _("play {cards}")).format(
        cards=words)


def _power_text(power: str) -> str:
    """A Wild's power (HR-WILDPOWER) as an answer to choose."""
    if power == "look":
        return _("look at a player's hand")
    if power == "swap":
        return _("swap 3 cards with a player")
    return _("name a colour")


def _pick_color(answer: str, codes: list[str]) -> str | None:
    """A colour from an answer: its number in the list, its code (``r``) or its name, in English or
    the language in use."""
    if answer.isdigit() and 1 <= int(answer) <= len(codes):
        return codes[int(answer) - 1]
    for code in codes:
        if answer in (code.lower(), color_text(code).lower(), COLOR_WORDS[code].lower()):
            return code
    return None


def run_plain(table: Table, inp: TextIO, out: TextIO) -> int:
    """Play ``table`` in plain mode over ``inp`` and ``out``; returns the exit status."""
    return PlainGame(table, inp, out).run()
