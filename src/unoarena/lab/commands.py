"""The ``unoarena simulate`` and ``unoarena tournament`` commands: options, tables, JSON, plots.

:func:`add_lab_parsers` adds both to the main parser. Results go to stdout, the progress bar
(on a terminal only) and notes to stderr. Exit status as the rest of the CLI: 0 success, 1 a run
that failed (a bot or engine error), 2 a usage error; a bad rule key or value is left to the
main command, which reports every ``ConfigError`` the same way.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any, TextIO

from ..bots import available, describe, split_specs
from ..driver import BotError
from ..engine import ConfigError, RuleSet, parse_overrides, preset
from ..text.i18n import _, ngettext, pad, width
from . import plots
from .common import LabError, parse_rule_spec, spec_label
from .progress import ProgressBar
from .simulate import MATCH_METRIC, CompareResult, SimResult, compare, simulate
from .stats import Tally, wilson
from .tournament import TournamentResult, tournament

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
DEFAULT_ROUNDS, DEFAULT_MATCHES, DEFAULT_DEALS = 2000, 200, 100


#: Makes the tables of remote entrants (``--remote``), a context manager with ``play_games``:
#: given by the command line (:mod:`unoarena.remote.lab` is a layer above the lab).
RemoteArenas = Callable[[list[str], list[str]], AbstractContextManager[Any]]


def add_lab_parsers(sub: Any, parents: Sequence[argparse.ArgumentParser],
                    remote_arena: RemoteArenas | None = None) -> None:
    """Add ``simulate`` and ``tournament`` to the subcommands ``sub`` of the main parser;
    ``remote_arena(items, local_specs)`` serves ``tournament --remote``."""
    s = sub.add_parser(
        "simulate", parents=list(parents), help=_("simulate rounds or matches with bots"),
        description=_("Play many rounds (or whole matches) with bots and summarise them; "
                      "--compare plays several rule sets on the same seeds side by side."))
    s.add_argument("--rules", metavar="PRESET",
                   help=_("preset name (default classic)"))
    _rule_options(s)
    s.add_argument("--games", type=_positive_int, metavar="N",
                   help=_("rounds to play, or matches with --matches (default {rounds} rounds, "
                          "{matches} matches)").format(rounds=DEFAULT_ROUNDS,
                                                       matches=DEFAULT_MATCHES))
    s.add_argument("--matches", action="store_true",
                   help=_("play whole matches (rounds until the rule set's scoring ends them) "
                          "instead of single rounds"))
    s.add_argument("--bots", default="basic", metavar="SPECS",
                   help=_("one bot for every seat or one per seat, comma-separated, e.g. "
                          "basic or basic,random,basic,basic; 'list' shows the bots "
                          "(default basic)"))
    s.add_argument("--compare", nargs="+", metavar="SPEC",
                   help=_("compare two or more rule sets on the same seeds: PRESET or "
                          "PRESET:key=value,key=value, e.g. classic house "
                          "classic:stacking=draw2 (--set and --players apply to all)"))
    _run_options(s)
    s.add_argument("--threads", type=int, metavar="N",
                   help=_("threads of the compiled kernel in each process (default: every "
                          "core, shared among the worker processes); the numbers are the same"))
    s.add_argument("--save-record", metavar="FILE",
                   help=_("save the record of the first round (or match) for unoarena replay"))
    s.set_defaults(handler=cmd_simulate)

    t = sub.add_parser(
        "tournament", parents=list(parents), help=_("rate bots against each other"),
        description=_("Bots play duplicate deals: every deal at every table of the schedule, "
                      "once from every seat rotation. Win rates with 95% intervals, mean "
                      "points and openskill ratings."))
    t.add_argument("--bots", required=True, metavar="SPECS",
                   help=_("the bots, comma-separated, e.g. basic,heuristic,ismcts:ms=20; "
                          "list a bot twice to enter two copies; 'list' shows the bots"))
    t.add_argument("--rules", default="classic", metavar="PRESET",
                   help=_("preset name (default classic)"))
    _rule_options(t, players_help=_("seats per table, 2-10 (default: the number of bots)"))
    t.add_argument("--games", type=_positive_int, default=DEFAULT_DEALS, metavar="N",
                   help=_("deals to play (default {n}); each is played at every table from "
                          "every seat").format(n=DEFAULT_DEALS))
    t.add_argument("--remote", action="append", default=[], metavar="NAME=COMMAND",
                   help=_("a remote entrant, playing over the protocol at a server's tables: "
                          "NAME=COMMAND started for each game with {url} and {token} put in, "
                          "e.g. 'js=node clients/node/uno-bot.mjs {url} --token {token}', or "
                          "NAME=BOT played by this program's own client (repeatable)"))
    _run_options(t)
    t.set_defaults(handler=cmd_tournament, remote_arena=remote_arena)


def _rule_options(p: argparse.ArgumentParser, players_help: str | None = None) -> None:
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="sets",
                   help=_("override a rule key, e.g. --set stacking=draw2 (repeatable)"))
    p.add_argument("--players", type=int, metavar="N",
                   help=players_help or _("number of players (2-10)"))


def _run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, default=0, metavar="S", help=_("seed (default 0)"))
    p.add_argument("--workers", type=int, metavar="N",
                   help=_("worker processes (default 1); with --cluster local, the CPUs of "
                          "the Ray instance it starts (default: all)"))
    p.add_argument("--cluster", metavar="ADDRESS",
                   help=_("run on Ray: local (start one here), auto (the one running here) or "
                          "a cluster address such as ray://head:10001; needs "
                          "pip install 'unoarena[cluster]'"))
    p.add_argument("--engine", choices=("auto", "kernel", "python"), default="auto",
                   help=_("what plays the games: the compiled kernel (built when unoarena "
                          "is installed with a C compiler; its bots: random, basic, "
                          "heuristic), the Python engine, or auto (the kernel where it can; "
                          "the default). The numbers are the same"))
    p.add_argument("--json", action="store_true", help=_("print the result as JSON"))
    p.add_argument("--plot", metavar="DIR",
                   help=_("also write plots (PNG) into DIR; needs "
                          "pip install 'unoarena[lab]'"))


def _positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(_("{value!r} is not a whole number of 1 or more"
                                           ).format(value=text))
    return n


def _fail(message: object) -> int:
    print(_("error: {message}").format(message=message), file=sys.stderr)
    return EXIT_USAGE


def _list_bots() -> int:
    for name in available():
        sys.stdout.write(f"{name:<10} {describe(name)}\n")
    return EXIT_OK


def _base_overrides(sets: Sequence[str], players: int | None) -> dict[str, Any]:
    overrides = parse_overrides(list(sets))
    if players is not None:
        overrides["players"] = players
    return overrides


def _check_plot(ns: argparse.Namespace) -> None:
    if ns.plot and not plots.available():
        raise LabError(_("--plot needs matplotlib, which is not installed: {hint}").format(
            hint=plots.INSTALL_HINT))


def _workers(ns: argparse.Namespace) -> int:
    """``--workers``, defaulting to 1 process, or to every CPU of a local Ray instance."""
    if ns.workers is None:
        return 0 if ns.cluster else 1
    return int(ns.workers)


def _run_guarded(run: Callable[[], int]) -> int:
    """Usage mistakes found late (a bot spec, Ray missing) exit 2; failures in play exit 1;
    Ctrl-C stops the workers and exits 130, as shells expect."""
    # SIGTERM stops a run as Ctrl+C does: one line, exit status 130, workers stopped (only
    # the main thread may set a handler; elsewhere the caller's stays)
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, signal.default_int_handler) if main else None
    try:
        return run()
    except ConfigError:
        raise
    except KeyboardInterrupt:
        print("\n" + _("interrupted"), file=sys.stderr)
        return 130
    except LabError as e:
        return _fail(e)
    except (BotError, RuntimeError) as e:
        print(_("error: {message}").format(message=e), file=sys.stderr)
        return EXIT_FAILED
    except ValueError as e:  # a bot spec: unknown bot, bad option
        return _fail(e)
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)


def _write_json(d: dict[str, Any], ns: argparse.Namespace) -> None:
    d["workers"] = _workers(ns)
    if ns.cluster:
        d["cluster"] = ns.cluster
    json.dump(d, sys.stdout, indent=2)
    sys.stdout.write("\n")


def _wrote_plots(files: Sequence[Any], directory: str) -> None:
    names = ", ".join(f.name for f in files)
    print(_("wrote {n} plots to {dir}: {names}").format(n=len(files), dir=directory,
                                                        names=names), file=sys.stderr)


# ================================================================================================
# simulate
# ================================================================================================
def cmd_simulate(ns: argparse.Namespace) -> int:
    """``unoarena simulate``: list the bots for ``--bots list``, else play and print (or write as
    JSON) the summary or the comparison; returns the exit status."""
    if ns.bots.strip().lower() in ("list", "help"):
        return _list_bots()
    return _run_guarded(lambda: _simulate(ns))


def _simulate(ns: argparse.Namespace) -> int:
    base = _base_overrides(ns.sets, ns.players)
    games = ns.games or (DEFAULT_MATCHES if ns.matches else DEFAULT_ROUNDS)
    _check_plot(ns)
    if ns.compare:
        if ns.rules:
            raise LabError(_("give the rule sets either with --compare or with --rules, not "
                             "both (e.g. --compare {rules} house)").format(rules=ns.rules))
        if ns.save_record:
            raise LabError(_("--save-record saves a round of one rule set; it cannot be used "
                             "with --compare"))
        if len(ns.compare) < 2:
            raise LabError(_("--compare needs two or more rule sets, e.g. --compare classic "
                             "house classic:stacking=draw2"))
        rulesets = [parse_rule_spec(spec, base) for spec in ns.compare]
        bar = ProgressBar(sys.stderr, "compare", _("seeds"))
        try:
            cmp = compare(rulesets, ns.bots, games, ns.seed, matches=ns.matches,
                          workers=_workers(ns), cluster=ns.cluster, progress=bar,
                          engine=ns.engine, threads=ns.threads)
        finally:
            bar.close()
        if ns.json:
            _write_json(cmp.to_dict(), ns)
        else:
            sys.stdout.write(format_compare(cmp, _workers(ns), ns.cluster))
        if ns.plot:
            files = plots.plot_simulation(ns.plot, list(zip(cmp.labels, cmp.tallies,
                                                            strict=True)), cmp.bots)
            _wrote_plots(files, ns.plot)
        return EXIT_OK

    rules = preset(ns.rules or "classic", **base)
    with contextlib.ExitStack() as stack:
        record_file: TextIO | None = None
        if ns.save_record:  # opened first: an unwritable path fails before the long run
            try:
                record_file = stack.enter_context(open(ns.save_record, "w", encoding="utf-8"))
            except OSError as e:
                raise LabError(_("cannot write {file}: {reason}").format(
                    file=ns.save_record, reason=e.strerror or e)) from None
        unit = _("matches") if ns.matches else _("rounds")
        bar = ProgressBar(sys.stderr, "simulate", unit)
        try:
            result = simulate(rules, ns.bots, games, ns.seed, matches=ns.matches,
                              workers=_workers(ns), cluster=ns.cluster,
                              keep_records=1 if record_file else 0, progress=bar,
                              engine=ns.engine, threads=ns.threads)
        finally:
            bar.close()
        if record_file is not None:
            json.dump(result.records[0], record_file)
            record_file.write("\n")
            what = _("match") if ns.matches else _("round")
            print(_("saved the record of {what} 0 to {file}").format(what=what,
                                                                   file=ns.save_record),
                  file=sys.stderr)
    if ns.json:
        _write_json(result.to_dict(), ns)
    else:
        sys.stdout.write(format_summary(result, _workers(ns), ns.cluster))
    if ns.plot:
        files = plots.plot_simulation(ns.plot, [(spec_label(rules), result.tally)],
                                      [result.bots])
        _wrote_plots(files, ns.plot)
    return EXIT_OK


def _table(rows: Sequence[Sequence[str]], right: Sequence[bool], indent: int = 2) -> list[str]:
    """Columns padded to their widest cell; ``right[i]`` right-aligns column ``i``."""
    widths = [max(width(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for r in rows:
        cells = [pad(c, w, right[i]) for i, (c, w) in enumerate(zip(r, widths, strict=True))]
        out.append(" " * indent + "  ".join(cells).rstrip())
    return out


def _dist_row(name: str, t: Any) -> list[str]:
    return [name, f"{t.mean:.1f}", f"{t.median:g}", str(t.quantile(0.1)), str(t.quantile(0.9)),
            str(t.quantile(0.99))]


def _time_text(elapsed: float, n: int, unit: str, workers: int, cluster: str | None,
               engine: str = "python") -> str:
    where = (_("Ray cluster {address}").format(address=cluster) if cluster
             else _("{n} workers").format(n=workers) if workers > 1 else _("1 process"))
    if engine == "kernel":
        where += ", " + _("compiled kernel")
    rate = n / elapsed if elapsed > 0 else 0.0
    return _("{secs:.2f} s ({rate:,.0f} {unit}/s, {where})").format(
        secs=elapsed, rate=rate, unit=unit, where=where)


def _interval(lo: float, hi: float) -> str:
    return f"{lo:.1%}–{hi:.1%}"


def _rules_title(rules: RuleSet) -> str:
    over = ", ".join(f"{k}={_value(v)}" for k, v in rules.overrides().items() if k != "players")
    return f"{rules.preset}" + (f" ({over})" if over else "")


def _value(v: object) -> str:
    if isinstance(v, bool):
        return "on" if v else "off"
    return "none" if v is None else str(v)


def _reasons(t: Tally) -> str:
    n = t.rounds or 1
    items = sorted(t.drawn_by.items(), key=lambda kv: (-kv[1], kv[0]))
    return " · ".join(f"{r} {c / n:.1f}" for r, c in items) or "-"


def _chains_text(t: Tally) -> str:
    c = t.chains
    if not c.n:
        return _("none")
    stacked = sum(k for v, k in c.counts.items() if v > 1)
    return _("{per:.2f} per round · {stacked:.0%} stacked · longest {longest}").format(
        per=c.n / (t.rounds or 1), stacked=stacked / c.n, longest=max(c.counts))


def format_summary(result: SimResult, workers: int = 1, cluster: str | None = None) -> str:
    """The tables that ``unoarena simulate`` prints."""
    t = result.tally
    r = result.rules
    mode = (ngettext("{n:,} match", "{n:,} matches", t.matches).format(n=t.matches)
            if result.matches else
            ngettext("{n:,} round", "{n:,} rounds", t.rounds).format(n=t.rounds))
    lines = [_("Simulation: {rules}, {n} players, {mode}, seed {seed}").format(
        rules=_rules_title(r), n=r.players, mode=mode, seed=result.seed), ""]
    rows = [[_("per round"), _("mean"), _("median"), "p10", "p90", "p99"],
            _dist_row(_("actions per round"), t.actions),
            _dist_row(_("turns per round"), t.turns),
            _dist_row(_("cards drawn per round"), t.drawn),
            _dist_row(_("penalty cards per round"), t.penalty),
            _dist_row(_("points per round"), t.points)]
    if t.matches:
        rows.append(_dist_row(_("rounds per match"), t.match_rounds))
    lines += _table(rows, [False, True, True, True, True, True])
    lines.append("")
    unit = _("matches") if result.matches else _("rounds")
    facts = [
        (_("rounds"), _("{games:,} ({void} void)").format(games=t.rounds, void=t.void)),
        (_("cards drawn by reason"), _reasons(t)),
        (_("penalty chains"), _chains_text(t)),
        (_("time"), _time_text(result.elapsed, t.matches or t.rounds, unit, workers, cluster,
                               result.engine)),
    ]
    key_width = max(width(k) for k, _v in facts)
    lines += [f"  {pad(k, key_width)}  {v}" for k, v in facts]
    lines.append("")
    rows = [[_("seat"), _("bot"), _("wins"), _("win rate"), _("95% interval")]]
    for seat, (bot, wins, rate, ci) in enumerate(zip(
            result.bots, t.seat_wins, t.win_rates(), t.win_cis(), strict=True)):
        rows.append([str(seat), bot, str(wins), f"{rate:.1%}", _interval(*ci)])
    if result.matches and r.seat_exchange:
        lines.append("  " + _("(seats change between rounds: bots are listed by player)"))
    lines += _table(rows, [True, False, True, True, True])
    if t.matches:
        lines.append("")
        who = _("team") if t.teams else _("player")
        rows = [[who, _("match wins"), _("win rate"), _("95% interval")]]
        m = t.matches
        for i, w in enumerate(t.match_wins):
            label = f"{i}" if t.teams else f"{i} {result.bots[i]}"
            rows.append([label, str(w), f"{w / m:.1%}", _interval(*wilson(w, m))])
        lines += _table(rows, [False, True, True, True])
        if t.match_shared:
            lines.append("  " + _("{n} matches ended in a tie for the best score; each tied "
                                  "winner counts a win").format(n=t.match_shared))
    return "\n".join(lines) + "\n"


_DIFF_NAMES = {
    "actions": "actions per round", "turns": "turns per round",
    "cards_drawn": "cards drawn per round", "penalty_cards": "penalty cards per round",
    "points": "points per round", "chains": "penalty chains per round",
    "void": "void rounds (share)", MATCH_METRIC: "rounds per match",
}


def format_compare(cmp: CompareResult, workers: int = 1, cluster: str | None = None) -> str:
    """The side-by-side table and the differences that ``simulate --compare`` prints."""
    ts = cmp.tallies
    unit = _("matches") if cmp.matches else _("rounds")
    bots = sorted(set(cmp.bots[0]))
    lines = [_("Comparison: {n:,} {unit} on the same seeds (seed {seed}), bots {bots}").format(
        n=cmp.games, unit=unit, seed=cmp.seed, bots=", ".join(bots)), ""]
    header = [_("metric"), *cmp.labels]
    rows: list[list[str]] = [header, [_("players"), *(str(t.players) for t in ts)]]

    def row(name: str, fmt: Callable[[Tally], str]) -> None:
        rows.append([name, *(fmt(t) for t in ts)])

    row(_("rounds"), lambda t: f"{t.rounds:,}")
    row(_("actions per round (mean)"), lambda t: f"{t.actions.mean:.1f}")
    row(_("actions per round (median)"), lambda t: f"{t.actions.median:g}")
    row(_("actions per round (p90)"), lambda t: str(t.actions.quantile(0.9)))
    row(_("turns per round (mean)"), lambda t: f"{t.turns.mean:.1f}")
    row(_("cards drawn per round"), lambda t: f"{t.drawn.mean:.1f}")
    row(_("penalty cards per round"), lambda t: f"{t.penalty.mean:.1f}")
    row(_("points per round"), lambda t: f"{t.points.mean:.1f}")
    row(_("penalty chains per round"), lambda t: f"{t.chains.n / (t.rounds or 1):.2f}")
    row(_("longest penalty chain"), lambda t: str(max(t.chains.counts, default=0)))
    row(_("void rounds"), lambda t: f"{t.void / (t.rounds or 1):.1%}")
    for seat in range(max(t.players for t in ts)):
        rows.append([_("seat {seat} win rate").format(seat=seat),
                     *(f"{t.win_rates()[seat]:.1%}" if seat < t.players else "" for t in ts)])
    if cmp.matches:
        row(_("rounds per match (mean)"), lambda t: f"{t.match_rounds.mean:.1f}")
    lines += _table(rows, [False] + [True] * len(ts))
    lines += ["", _("Differences from {base} (mean difference, 95% interval; * when the "
                    "interval excludes 0)").format(base=cmp.labels[0])]
    diffs = cmp.differences()
    rows = [[_("metric"), *cmp.labels[1:]]]
    for key, name in _DIFF_NAMES.items():
        if not any(key in d for d in diffs) or (key == "void" and not any(t.void for t in ts)):
            continue
        cells = []
        for d in diffs:
            r = d.get(key)
            if r is None:
                cells.append("")
                continue
            lo, hi = r["ci"]
            spec = "+.1%" if key == "void" else "+.2f"
            star = "*" if lo > 0 or hi < 0 else " "
            cells.append(f"{r['diff']:{spec}} [{lo:{spec}}, {hi:{spec}}]{star}")
        rows.append([_(name), *cells])
    lines += _table(rows, [False] + [True] * (len(ts) - 1))
    unpaired = any(not r["paired"] for d in diffs for r in d.values())
    lines.append("  " + (_("paired by seed where units pair up; rounds inside matches are "
                           "compared as independent samples") if unpaired
                         else _("paired by seed: round i of every rule set has the same seeds")))
    lines += ["", "  " + _("time") + "  " + _time_text(
        cmp.elapsed, cmp.games * len(ts), unit, workers, cluster, cmp.engine)]
    return "\n".join(lines) + "\n"


# ================================================================================================
# tournament
# ================================================================================================
def cmd_tournament(ns: argparse.Namespace) -> int:
    """``unoarena tournament``: list the bots for ``--bots list``, else play the tournament and
    print (or write as JSON) its standings; returns the exit status."""
    if ns.bots.strip().lower() in ("list", "help"):
        return _list_bots()
    return _run_guarded(lambda: _tournament(ns))


def _tournament(ns: argparse.Namespace) -> int:
    local = split_specs(ns.bots)
    remote = [item.partition("=")[0].strip() for item in ns.remote]
    specs = local + remote
    base = _base_overrides(ns.sets, ns.players)
    if "players" not in base:
        if not 2 <= len(specs) <= 10:
            raise LabError(_("{n} bots: give --players (2-10), the seats at each table"
                             ).format(n=len(specs)))
        base["players"] = len(specs)
    rules = preset(ns.rules, **base)
    _check_plot(ns)
    bar = ProgressBar(sys.stderr, "tournament", _("games"))
    arena: AbstractContextManager[Any] = nullcontext()
    if remote:
        if ns.remote_arena is None:
            raise LabError(_("remote entrants need the 'web' extra"))
        arena = ns.remote_arena(ns.remote, local)
    try:
        with arena as tables:
            result = tournament(rules, specs, ns.games, ns.seed, workers=_workers(ns),
                                cluster=ns.cluster, progress=bar, engine=ns.engine,
                                play=tables.play_games if remote else None, external=remote)
    finally:
        bar.close()
    if ns.json:
        _write_json(result.to_dict(), ns)
    else:
        sys.stdout.write(format_tournament(result, _workers(ns), ns.cluster))
    if ns.plot:
        _wrote_plots(plots.plot_tournament(ns.plot, result), ns.plot)
    return EXIT_OK


def format_tournament(result: TournamentResult, workers: int = 1,
                      cluster: str | None = None) -> str:
    """The ranked table that ``unoarena tournament`` prints."""
    r = result.rules
    p = r.players
    tables = len(result.tables) if result.tables else len(result.standings)
    lines = [
        _("Tournament: {rules}, tables of {p}, seed {seed}").format(
            rules=_rules_title(r), p=p, seed=result.seed),
        "  " + _("{deals} × {tables} × {seatings} = {games} ({schedule})").format(
            deals=ngettext("{n:,} deal", "{n:,} deals", result.deals).format(n=result.deals),
            tables=ngettext("{n} table", "{n} tables", tables).format(n=tables),
            seatings=ngettext("{n} seating", "{n} seatings", p).format(n=p),
            games=ngettext("{n:,} game", "{n:,} games", len(result.games)).format(
                n=len(result.games)),
            schedule=_("every combination of bots") if result.tables
            else _("balanced schedule")),
        "",
    ]
    rows = [[_("rank"), _("bot"), _("games"), _("wins"), _("win rate"), _("95% interval"),
             _("mean score"), _("hand points"), _("rating"), "μ", "σ"]]
    for i, s in enumerate(result.standings):
        d = s.to_dict(i + 1)
        rows.append([str(i + 1), s.name, f"{s.games:,}", f"{s.wins:,}", f"{s.win_rate:.1%}",
                     _interval(*s.win_ci), f"{d['mean_score']:.1f}",
                     f"{d['mean_hand_points']:.1f}", f"{s.rating.ordinal:.1f}",
                     f"{s.rating.mu:.1f}", f"{s.rating.sigma:.2f}"])
    lines += _table(rows, [True, False] + [True] * 9)
    lines.append("")
    n = len(result.games)
    seats = " · ".join(f"{s}: {w / n:.1%}" if n else f"{s}: -"
                       for s, w in enumerate(result.seat_wins()))
    lines.append("  " + _("rounds won by seat: {seats}").format(seats=seats))
    if result.void:
        lines.append("  " + _("{n} void rounds (no winner; not rated)").format(n=result.void))
    lines.append("  " + _("rating: openskill Plackett-Luce ordinal μ − 3σ; each round ranks"))
    lines.append("  " + _("the winner first, then the others by the points left in hand"))
    lines.append("  " + _("time") + "  " + _time_text(result.elapsed, n, _("games"), workers,
                                                      cluster, result.engine))
    return "\n".join(lines) + "\n"
