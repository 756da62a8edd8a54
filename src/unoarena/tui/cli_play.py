"""``unoarena play``: its options, and starting the full-screen game or the plain mode.

Kept apart from :mod:`unoarena.cli` so that the command line does not import Textual unless a
game starts. Hooked in with ``add_play_parser(subparsers, [common])``.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..bots import split_specs
from ..bots.levels import LEVEL_NAMES, LEVELS
from ..engine import PRESETS, ConfigError, RuleSet, parse_overrides, preset
from ..text.i18n import _
from .session import BOT, Player, Table, Timing, best_bot, check_bot_spec, default_players

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def add_play_parser(subparsers: Any, parents: Sequence[argparse.ArgumentParser] = ()
                    ) -> argparse.ArgumentParser:
    """Add the ``play`` command to an ``add_subparsers()`` object."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "play", parents=list(parents), help=_("play in the terminal against bots or friends"),
        description=_("Play UNO in the terminal. Without rule options a new-game screen asks "
                      "for the rules and the players; with any of them the game starts at "
                      "once."))
    p.add_argument("--rules", metavar="PRESET",
                   help=_("preset name: {names} (default classic)").format(
                       names=", ".join(PRESETS)))
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="sets",
                   help=_("override a rule key, e.g. --set jump_in=on (repeatable)"))
    p.add_argument("--players", type=int, metavar="N", help=_("number of players (2-10)"))
    p.add_argument("--bots", metavar="SPECS",
                   help=_("the bots in the other seats: one spec for all, or one per bot seat, "
                          "comma-separated (default: {bot}); by level: {levels}").format(
                              bot=best_bot(), levels=", ".join(
                                  f"{_(LEVEL_NAMES[level]).lower()} {bot}"
                                  for level, bot, _doc in LEVELS)))
    p.add_argument("--people", type=int, metavar="N",
                   help=_("people at this terminal, in the first seats (default 1; more is "
                          "hot-seat play; 0 watches bots)"))
    p.add_argument("--target", type=int, metavar="POINTS", help=_("target score of the match"))
    p.add_argument("--seed", type=int, metavar="S", help=_("seed of the match (default random)"))
    p.add_argument("--plain", action="store_true",
                   help=_("line-by-line mode for screen readers and scripts"))
    p.add_argument("--resume", nargs="?", const="latest", metavar="FILE",
                   help=_("go on with a saved match (default: the latest save)"))
    p.add_argument("--delay", type=float, default=1.0, metavar="FACTOR",
                   help=_("how slowly bots act: 1 is a human pace, 0 at once (default 1)"))
    p.set_defaults(handler=run_play)
    return p


def _error(message: str) -> int:
    print(_("error: {message}").format(message=message), file=sys.stderr)
    return EXIT_USAGE


def rules_from_args(args: argparse.Namespace) -> RuleSet:
    """The rule set the ``play`` command line asks for: ``--rules`` (default classic) with
    ``--set``, ``--players`` and ``--target`` on top; a bad value raises ``ConfigError``."""
    over = parse_overrides(list(getattr(args, "sets", []) or []))
    if getattr(args, "players", None) is not None:
        over["players"] = args.players
    if getattr(args, "target", None) is not None:
        over["target_score"] = args.target
    return preset(getattr(args, "rules", None) or "classic", **over)


def players_from_args(rules: RuleSet, args: argparse.Namespace) -> list[Player]:
    """People first, then bots from ``--bots`` (one spec for all, or one per bot seat)."""
    people = 1 if getattr(args, "people", None) is None else int(args.people)
    if not 0 <= people <= rules.players:
        raise ValueError(_("--people {n}: choose 0 to {m} for {m} players").format(
            n=people, m=rules.players))
    specs = split_specs(args.bots) if getattr(args, "bots", None) else [best_bot()]
    for spec in specs:
        problem = check_bot_spec(spec)
        if problem:
            raise ValueError(problem)
    nbots = rules.players - people
    if len(specs) not in (1, nbots) and nbots:
        raise ValueError(_("--bots gives {n} bots for {m} bot seats: give one for all, or one "
                           "per seat").format(n=len(specs), m=nbots))
    players = default_players(rules, specs[0], people)
    bots = [i for i, p in enumerate(players) if p.kind == BOT]
    for j, i in enumerate(bots):
        players[i] = Player(players[i].name, BOT, specs[j % len(specs)])
    return players


def _quick(args: argparse.Namespace) -> bool:
    """Whether the command line already says enough to skip the new-game screen."""
    return bool(args.rules or args.sets or args.players is not None or args.bots
                or args.people is not None or args.target is not None or args.plain)


def run_play(args: argparse.Namespace) -> int:
    """The ``play`` command; returns the exit status."""
    if getattr(args, "lang", None):
        from ..text.i18n import set_language
        try:
            set_language(args.lang)
        except ValueError as e:
            return _error(str(e))
    delay = max(0.0, float(getattr(args, "delay", 1.0)))
    timing = Timing().scaled(delay)
    table: Table | None = None
    if getattr(args, "resume", None):
        from . import saves
        path = saves.latest_save() if args.resume == "latest" else Path(args.resume)
        if path is None:
            return _error(_("no saved match in {folder}").format(folder=saves.saves_dir()))
        try:
            table = saves.load_table(path, timing)
        except ValueError as e:
            return _error(str(e))
    elif _quick(args):
        try:
            rules = rules_from_args(args)
            players = players_from_args(rules, args)
            seed = args.seed if args.seed is not None else random.randrange(1 << 31)
            table = Table(rules, players, seed, timing=timing)
        except ConfigError as e:
            return _error(str(e))
        except ValueError as e:
            return _error(str(e))
    if getattr(args, "plain", False):
        from .plain import run_plain
        if table is None:
            table = Table(preset("classic"), default_players(preset("classic"), best_bot()),
                          random.randrange(1 << 31), timing=timing)
        return run_plain(table, sys.stdin, sys.stdout)
    try:
        from .app import UnoApp
    except ImportError:
        return _error(_("the full-screen game needs Textual (pip install textual); "
                        "--plain works without it"))
    app = UnoApp(table=table, timing=timing,
                 newgame={"seed": args.seed} if getattr(args, "seed", None) is not None else None)
    code = app.run()
    if app.saved_on_quit:
        print(_("Saved to {path}; go on with: unoarena play --resume").format(
            path=app.saved_on_quit))
    if app.return_code:  # an error ended the app (Textual printed it)
        return EXIT_FAILED
    return code if isinstance(code, int) else EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``play`` on its own (``python -m unoarena.tui.cli_play``)."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--lang", default=argparse.SUPPRESS, metavar="LANG")
    parser = argparse.ArgumentParser(prog="unoarena")
    sub = parser.add_subparsers()
    add_play_parser(sub, [common])
    args = parser.parse_args(["play", *(sys.argv[1:] if argv is None else argv)])
    return int(args.handler(args))


if __name__ == "__main__":
    raise SystemExit(main())
