"""The ``unoarena`` command: rules, simulate, tournament, replay, scenario run.

Everything a person reads goes through :mod:`unoarena.text.i18n`. Results go to stdout, progress
and errors to stderr. Exit status: 0 success, 1 a run that failed (a scenario, a bot or engine
error), 2 a usage error (bad option, bad rule key or value, unreadable file).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import shutil
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from . import __version__
from .engine import (
    ALIASES,
    CODES,
    COLOR_CODES,
    PRESETS,
    TIME_UP_TEXT,
    Action,
    ConfigError,
    Game,
    Match,
    RuleSet,
    iter_game,
    parse_overrides,
    preset,
)
from .engine.errors import suggest
from .engine.rules import INT_BOUNDS
from .lab.commands import add_lab_parsers
from .mcp.cli import add_mcp_parser
from .recordfile import UsageError, load_record
from .remote.cli import add_bot_parser
from .text.i18n import N_, SUPPORTED, _, ngettext, set_language
from .text.narrate import Narrator, round_start_lines
from .text.rules import (
    card_text,
    color_text,
    config_message,
    deck_lines,
    explain,
    preset_summary,
    special_cards,
    value_text,
)
from .tui.cli_learn import add_coach_parsers
from .tui.cli_play import add_play_parser
from .web.cli_accounts import add_accounts_parser
from .web.cli_serve import add_serve_parser

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
#: a command stopped by Ctrl+C or SIGTERM, as shells report SIGINT (128 + 2)
EXIT_INTERRUPTED = 130


# ================================================================================================
# entry point
# ================================================================================================
def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (the console script exits with it)."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        set_language(_scan_lang(args))
    except ValueError as e:
        print(_("error: {message}").format(message=e), file=sys.stderr)
        return EXIT_USAGE
    parser = build_parser()
    try:
        ns = parser.parse_args(args)
    except SystemExit as e:  # --help, --version and argparse's own usage errors
        return e.code if isinstance(e.code, int) else EXIT_USAGE
    handler: Callable[[argparse.Namespace], int] | None = getattr(ns, "handler", None)
    if handler is None:  # no command, or a command group without its subcommand
        getattr(ns, "help_of", parser).print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return handler(ns)
    except ConfigError as e:
        print(_("error: {message}").format(message=config_message(e)), file=sys.stderr)
        return EXIT_USAGE
    except UsageError as e:
        print(_("error: {message}").format(message=e), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:  # Ctrl+C anywhere (a replay waiting for Enter): one line, 130
        print("\n" + _("interrupted"), file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # `unoarena ... | head`: stop quietly, as the docs of signal advise
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


def _scan_lang(args: Sequence[str]) -> str | None:
    """``--lang`` must be known before the parser is built, since its help is translated."""
    for i, a in enumerate(args):
        if a == "--":
            break
        if a == "--lang" and i + 1 < len(args):
            return args[i + 1]
        if a.startswith("--lang="):
            return a.partition("=")[2]
    return None


class _Parser(argparse.ArgumentParser):
    """argparse that says "did you mean" for a mistyped choice (a command, ``--engine``),
    as the rule keys, presets and bots do; its sub-commands' parsers are of this class too."""

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        choices = action.choices
        if choices is not None and value not in choices:
            match = suggest(value, list(choices))
            if match is not None:
                raise argparse.ArgumentError(action, _(
                    "invalid choice: {value!r} (did you mean {match}?); choose from "
                    "{choices}").format(value=value, match=match,
                                        choices=", ".join(map(str, choices))))
        super()._check_value(action, value)


def build_parser() -> argparse.ArgumentParser:
    """Every subcommand and option of ``unoarena``; the texts are translated when built."""
    common = _Parser(add_help=False)
    common.add_argument("--lang", default=argparse.SUPPRESS, metavar="LANG",
                        help=_("language of the output: {langs} (default: from LANGUAGE, "
                               "LC_ALL or LANG)").format(langs=", ".join(SUPPORTED)))
    p = _Parser(
        prog="unoarena", parents=[common],
        description=_("UNO as the rule books describe it: play in the terminal or in the "
                      "browser against bots or friends, explain any rule set, simulate and "
                      "compare rule sets, rate bots in tournaments, replay recorded games and "
                      "run rule scenarios."))
    p.add_argument("--version", action="version", version=f"unoarena {__version__}")
    sub = p.add_subparsers(title=_("commands"), metavar="COMMAND")

    r = sub.add_parser("rules", parents=[common], help=_("show a rule set and explain it"),
                       description=_("Show a rule set (a preset with overrides) and explain "
                                     "every rule in force, citing the rule IDs."))
    r.add_argument("preset", nargs="?", default="classic", metavar="PRESET",
                   help=_("preset name (default classic): {names}").format(
                       names=", ".join(PRESETS)))
    _rule_options(r)
    r.add_argument("--json", action="store_true", help=_("print the rule set as JSON"))
    r.add_argument("--list", action="store_true", help=_("list the presets"))
    r.set_defaults(handler=cmd_rules)

    add_lab_parsers(sub, [common], remote_arena=_remote_arena)

    rp = sub.add_parser("replay", parents=[common], help=_("show a recorded game move by move"),
                        description=_("Show a game or match record move by move. Without "
                                      "--seat no hand is shown."))
    rp.add_argument("file", metavar="FILE", help=_("a game or match record (JSON)"))
    rp.add_argument("--seat", type=int, metavar="N",
                    help=_("also show this seat's hand and what only it saw"))
    rp.add_argument("--step", action="store_true",
                    help=_("wait for Enter after every action (q to stop)"))
    rp.set_defaults(handler=cmd_replay)

    sc = sub.add_parser("scenario", parents=[common], help=_("rule scenarios"),
                        description=_("Rule scenario files (docs/spec/SCENARIOS.md)."))
    sc.set_defaults(help_of=sc)
    scs = sc.add_subparsers(title=_("scenario commands"), metavar="COMMAND")
    run = scs.add_parser(
        "run", parents=[common], help=_("run scenario files or folders"),
        description=_("Run rule scenarios: each sets a table, plays its steps and checks what "
                      "it expects. One line a scenario, then how many passed and failed; exit "
                      "status 1 when any failed."))
    run.add_argument("paths", nargs="+", metavar="PATH", help=_("a scenario file or folder"))
    run.set_defaults(handler=cmd_scenario_run)

    add_play_parser(sub, [common])
    add_coach_parsers(sub, [common])
    add_serve_parser(sub, [common])
    add_accounts_parser(sub, [common])
    add_mcp_parser(sub, [common])
    add_bot_parser(sub, [common])
    return p


def _remote_arena(items: list[str], local: list[str]) -> Any:
    """The tables of ``tournament --remote``: a server of this process (the 'web' extra),
    imported only when a tournament has remote entrants."""
    from .remote.lab import RemoteArena, parse_entrants

    return RemoteArena(parse_entrants(items, local))


def _rule_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="sets",
                   help=_("override a rule key, e.g. --set stacking=draw2 (repeatable)"))
    p.add_argument("--players", type=int, metavar="N", help=_("number of players (2-10)"))



def _rules_from(name: str, sets: Sequence[str], players: int | None) -> RuleSet:
    overrides = parse_overrides(list(sets))
    if players is not None:
        overrides["players"] = players
    return preset(name, **overrides)


def _overrides_text(rules: RuleSet) -> str:
    """``jump_in=on, stacking=draw2``: what differs from the preset (players shown apart)."""
    return ", ".join(f"{k}={value_text(v)}" for k, v in rules.overrides().items()
                     if k != "players")


def _wrap(text: str, indent: int = 2, hanging: int = 4) -> str:
    width = max(60, min(shutil.get_terminal_size((100, 24)).columns, 100))
    return textwrap.fill(text, width=width, initial_indent=" " * indent,
                         subsequent_indent=" " * (indent + hanging))


# ================================================================================================
# rules
# ================================================================================================
def cmd_rules(ns: argparse.Namespace) -> int:
    """``unoarena rules``: list the presets, or explain one rule set's keys in words."""
    out = sys.stdout
    if ns.list:
        width = max(len(n) for n in PRESETS)
        for name in PRESETS:
            out.write(f"{name:<{width}}  {preset_summary(name)}\n")
        aliases = ", ".join(f"{a} → {n}" for a, n in sorted(ALIASES.items()))
        out.write(_wrap(_("aliases: {aliases}").format(aliases=aliases), 0) + "\n")
        return EXIT_OK
    rules = _rules_from(ns.preset, ns.sets, ns.players)
    if ns.json:
        json.dump(rules.to_dict(), out, indent=2, allow_nan=False)
        out.write("\n")
        return EXIT_OK
    out.write(_wrap(_("Rule set: {name}, {n} players — {summary}").format(
        name=rules.preset, n=rules.players, summary=preset_summary(rules.preset)), 0) + "\n")
    over = rules.overrides()
    if over:
        changed = ", ".join(f"{k}={value_text(v)}" for k, v in over.items())
        out.write(_("Changed from the preset: {changes}").format(changes=changed) + "\n")
    out.write("\n" + _("Deck") + "\n")
    for line in deck_lines(rules):
        out.write(_wrap(line) + "\n")
    out.write("\n" + _("Special cards") + "\n")
    for line in special_cards(rules):
        out.write(_wrap(line) + "\n")
    out.write("\n" + _("Rules in force") + "\n")
    for key, value, text in explain(rules):
        out.write(_wrap(f"{key}: {value} — {text}{_bounds(key)}") + "\n")
    return EXIT_OK


def _bounds(key: str) -> str:
    """`` [1..100000]``: the range an integer key accepts (`` [1..3600 | none]`` if optional)."""
    if key not in INT_BOUNDS:
        return ""
    lo, hi, optional = INT_BOUNDS[key]
    return f" [{lo}..{hi}{' | none' if optional else ''}]"


# ================================================================================================
# replay
# ================================================================================================
def cmd_replay(ns: argparse.Namespace) -> int:
    """``unoarena replay``: a stored game or match, one numbered line per action and the public
    state after it; with ``--seat``, that seat's hand and private events too (checked first)."""
    rec, rules = load_record(ns.file)
    players = rules.players
    if ns.seat is not None and not 0 <= ns.seat < players:
        raise UsageError(_("--seat {seat} is not a seat of this {n}-player game (0 to {last})"
                           ).format(seat=ns.seat, n=players, last=players - 1))
    shower = _Replay(sys.stdout, ns.seat, ns.step)
    try:
        if rec["format"] == "unoarena.game":
            shower.game(rec, rules)
        else:
            shower.match(rec, rules)
    except _Quit:
        pass
    return EXIT_OK


class _Quit(Exception):
    pass


class _Replay:
    """Prints a replay: one numbered line per action, the public state after it, and (for the
    chosen seat only) its hand and private events."""

    def __init__(self, out: TextIO, seat: int | None, step: bool) -> None:
        self.out = out
        self.seat = seat
        self.step = step
        self.count = 0  # actions shown
        self.seen = 0  # events of the current game already narrated
        self.narrator = Narrator([])

    def _seats(self, rules: RuleSet) -> None:
        """Players are called by their seats, as ``--seat`` and the state lines do."""
        self.narrator = Narrator([_("seat {seat}").format(seat=s) for s in range(rules.players)])

    def game(self, rec: dict[str, Any], rules: RuleSet) -> None:
        it = iter_game(rec)
        game, _s, _a = next(it)
        self._seats(rules)
        self._header(rules, rec.get("seed", 0),
                     _("dealer seat {dealer}").format(dealer=game.dealer))
        self._start(game)
        for game, seat, act in it:
            assert seat is not None
            self._action(game, seat, act)

    def match(self, rec: dict[str, Any], rules: RuleSet) -> None:
        m = Match(rules, int(rec.get("seed", 0)))
        self._seats(rules)
        self._header(rules, rec.get("seed", 0), _("match"))
        line, _p = self.narrator.line(m.dealer_events, self.seat)
        if line:
            self._print(line)
        for r, actions in enumerate(rec.get("rounds", [])):
            self._print("")
            self._print(_("Round {n}").format(n=r + 1))
            game = m.game
            self._start(game)
            for seat, text in actions:
                if text == TIME_UP_TEXT:  # HR-BLITZ: the round's time ran out
                    game.time_up()
                    self._action(game, int(seat), None)
                    continue
                act = Action.parse(text)
                game.apply(act, int(seat))
                self._action(game, int(seat), act)
            if game.is_over:
                m.finish_round()
                scores = ", ".join(f"{p}: {v}" for p, v in enumerate(m.scores))
                self._print(_("match scores: {scores}").format(scores=scores))
        if m.is_over:
            self._print(_("the match is over; winner: {winners}").format(
                winners=", ".join(str(w) for w in m.winners)))

    # -- pieces ------------------------------------------------------------------------------
    def _header(self, rules: RuleSet, seed: Any, what: str) -> None:
        over = _overrides_text(rules)
        self._print(_("Replay: {preset}{over}, {n} players, seed {seed}, {what}").format(
            preset=rules.preset, over=f" ({over})" if over else "", n=rules.players, seed=seed,
            what=what))

    def _start(self, game: Game) -> None:
        _public, private = self.narrator.line(game.events, self.seat)
        for i, line in enumerate(round_start_lines(game.events, self.narrator.names)):
            self._print(("   0. " if i == 0 else "      ") + line)
        self._after(game, private)
        self.seen = len(game.events)

    def _action(self, game: Game, seat: int, act: Action | None) -> None:
        """One move: an action, or (None) the round's time running out (HR-BLITZ)."""
        events = game.events[self.seen:]
        self.seen = len(game.events)
        self.count += 1
        line, private = self.narrator.line(events, self.seat, seat=seat,
                                           action=str(act) if act is not None else TIME_UP_TEXT)
        self._print(f"{self.count:>4}. {line}")
        self._after(game, private)
        if self.step:
            self._pause()

    def _after(self, game: Game, private: list[str]) -> None:
        for p in private:
            self._print("      " + _("(only seat {seat} sees) {text}").format(seat=self.seat,
                                                                            text=p))
        self._print("      " + public_state(game))
        if self.seat is not None:
            hand = " ".join(sorted(CODES[k] for k in game.hand(self.seat)))
            n = len(game.hand(self.seat))
            self._print("      " + ngettext("hand of seat {seat} ({n} card): {cards}",
                                            "hand of seat {seat} ({n} cards): {cards}", n
                                            ).format(seat=self.seat, n=n, cards=hand or "-"))

    def _pause(self) -> None:
        sys.stderr.write(_("-- Enter: next, q: quit -- "))
        sys.stderr.flush()
        answer = sys.stdin.readline()
        if not answer:  # end of input: show the rest without stopping
            self.step = False
        elif answer.strip().lower() in ("q", "quit"):
            raise _Quit

    def _print(self, line: str) -> None:
        self.out.write(line + "\n")


_PHASE_WORDS = {"color": N_("naming a colour"), "drawn": N_("after drawing"),
                "give": N_("choosing cards to give")}
_EFFECT_WORDS = {"hyperspeed": N_("hyperspeed"), "forces_of_nature": N_("Forces of Nature")}


def public_state(game: Game) -> str:
    """What every seat may see after an action (DIG-2): top, colour, turn, hand sizes, draw
    pile, pending penalty, effect."""
    parts: list[str] = []
    if game.discard_pile:
        color = (color_text(COLOR_CODES[game.color]) if game.color >= 0
                 else _("colour not named yet"))
        parts.append(_("top {card} ({color})").format(card=card_text(CODES[game.top]),
                                                      color=color))
    if game.is_over:
        parts.append(_("round over"))
    else:
        who = _("seat {seat} to act").format(seat=game.turn)
        if game.phase in _PHASE_WORDS:
            who += " (" + _(_PHASE_WORDS[game.phase]) + ")"
        parts.append(who)
    sizes = " ".join(f"{s}:{n}" for s, n in enumerate(game.hand_sizes()))
    parts.append(_("hands {sizes}").format(sizes=sizes))
    parts.append(_("draw pile {n}").format(n=game.draw_pile_size))
    parts.append(_("direction {d}").format(d=game.direction))
    pending = game.pending
    if pending:
        n = pending["amount"]
        text = (ngettext("pending: {n} press for seat {target}",
                         "pending: {n} presses for seat {target}", n)
                if pending["kind"] == "press" else
                ngettext("pending: {n} card for seat {target}",
                         "pending: {n} cards for seat {target}", n))
        parts.append(text.format(n=n, target=pending["target"]))
    effect = game.effect
    if effect:
        kind = _EFFECT_WORDS.get(effect["kind"], effect["kind"])
        parts.append(_("{effect} on {color}").format(effect=_(kind),
                                                     color=color_text(effect["color"])))
    return " · ".join(parts)


# ================================================================================================
# scenario run
# ================================================================================================
def cmd_scenario_run(ns: argparse.Namespace) -> int:
    """``unoarena scenario run``: run scenario files (SCENARIOS.md) and report each one's result."""
    try:
        module = importlib.import_module("unoarena.scenarios")
    except ImportError as e:
        raise UsageError(_("the scenario runner is not available: {reason}").format(
            reason=e)) from None
    run: Callable[[Sequence[str]], int] | None = getattr(module, "main", None)
    if run is None:
        raise UsageError(_("the scenario runner is not available: unoarena.scenarios has no "
                           "main()"))
    return int(run(list(ns.paths)) or 0)


if __name__ == "__main__":
    sys.exit(main())
