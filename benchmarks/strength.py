"""Bot strength: win rates of rounds between bots, with 95% Wilson intervals. Prints JSON.

Matchups (classic rules, single rounds: the winner is the seat that goes out first):

* two players: ``heuristic`` vs ``basic``, ``ismcts`` vs ``basic``, ``ismcts`` vs ``heuristic``;
* four players: one ``ismcts`` against three ``heuristic`` (par is 25%);
* the trained ``learned`` bot: against ``basic``, ``heuristic`` and ``ismcts`` with two
  players, against three ``heuristic`` with four; ``learned-search`` (the search anchored on
  the network's move) against ``basic`` and ``ismcts``, and against three ``heuristic``;
* ``--tournament DEALS``: ``basic``, ``heuristic``, ``ismcts`` and ``learned`` in a two-player
  round robin of duplicate deals (:func:`unoarena.lab.tournament.tournament`): the 4x4 table of
  head-to-head win rates and every bot's openskill rating.

Every deal is played once per seating (duplicate deals): in two-player games each bot holds
each hand once; in four-player games the searching bot sits at every seat in turn. Rounds go
through the sequential driver (:func:`unoarena.driver.play_round`); bots that ask for their
history and a determinizer (``wants_history``, ``wants_determinize``) get a
:class:`~unoarena.bots.SearchView`. Time per move is process CPU time around each ``act``
call (a busy machine does not inflate it), reported as mean and 95th percentile, for all
moves and for the moves the search actually searched.

Deals are split into chunks of ``--chunk`` deals; each chunk gets fresh bots (they learn an
opponent's bluffing within a chunk, as over a match) and its own seeds, so the result does not
depend on ``--workers``.

    python benchmarks/strength.py --quick                 # about two minutes
    python benchmarks/strength.py --games 4000 --ismcts-games 1000 --workers 2
    python benchmarks/strength.py --only ismcts-heuristic --iterations 300
    python benchmarks/strength.py --only ismcts-3heuristic --peek next   # a diagnostic

``--peek all`` or ``--peek next`` is a diagnostic that cheats: the searching bot's deals hold the
true hands of every opponent, or of the next player only (the draw pile stays hidden), which
shows how much of the game the hidden cards decide. Its results are not the bot's strength.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import platform
import random
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

from unoarena.bots import Bot, ISMCTSBot, SearchView, make_bot
from unoarena.bots.heuristic import Context
from unoarena.bots.ismcts import Builder
from unoarena.driver import play_round
from unoarena.engine import Action, Game, RuleSet, preset
from unoarena.lab import wilson

#: name -> (players, spec of the measured bot, spec of the others)
MATCHUPS: dict[str, tuple[int, str, str]] = {
    "heuristic-basic": (2, "heuristic", "basic"),
    "ismcts-basic": (2, "ismcts", "basic"),
    "ismcts-heuristic": (2, "ismcts", "heuristic"),
    "ismcts-3heuristic": (4, "ismcts", "heuristic"),
    "learned-basic": (2, "learned", "basic"),
    "learned-heuristic": (2, "learned", "heuristic"),
    "learned-ismcts": (2, "learned", "ismcts"),
    "learned-3heuristic": (4, "learned", "heuristic"),
    "learned-search-basic": (2, "learned-search", "basic"),
    "learned-search-ismcts": (2, "learned-search", "ismcts"),
    "learned-search-3heuristic": (4, "learned-search", "heuristic"),
}
TARGETS = {"ismcts-basic": 0.60, "ismcts-heuristic": 0.55, "ismcts-3heuristic": 0.33,
           "learned-basic": 0.75, "learned-ismcts": 0.50, "learned-3heuristic": 0.33,
           "learned-search-basic": 0.75, "learned-search-ismcts": 0.50,
           "learned-search-3heuristic": 0.33}
#: Bots that search, given the run's ``--ms``/``--iterations`` and ``--ismcts`` options.
SEARCHERS = ("ismcts", "learned-search")
#: The bots of ``--tournament``.
TOURNAMENT = ("basic", "heuristic", "ismcts", "learned")


class Seat:
    """Puts a bot at a seat of the current game: gives it a :class:`SearchView` when it asks
    for history or a determinizer, and times its decisions in process CPU time."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.game: Game | None = None
        self.seat = -1
        self.wants = bool(getattr(bot, "wants_history", False)
                          or getattr(bot, "wants_determinize", False))
        self.times: list[float] = []
        self.searched_times: list[float] = []

    def begin_round(self, rules: RuleSet, seat: int) -> None:
        self.seat = seat
        self.bot.begin_round(rules, seat)

    def _view(self, view: Mapping[str, Any]) -> Mapping[str, Any]:
        if self.wants and self.game is not None:
            return SearchView(self.game, self.seat)
        return view

    def act(self, view: Mapping[str, Any], legal: Sequence[Action],
            rng: random.Random) -> Action:
        before = getattr(self.bot, "searched", 0)
        t = time.process_time()
        a = self.bot.act(self._view(view), legal, rng)
        dt = time.process_time() - t
        self.times.append(dt)
        if getattr(self.bot, "searched", 0) != before:
            self.searched_times.append(dt)
        return a

    def window(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        return self.bot.window(self._view(view), legal)


class PeekingISMCTS(ISMCTSBot):
    """The diagnostic of ``--peek``: an ``ismcts`` whose deals hold the true hands of every
    opponent (``all``) or of the next player (``next``) of ``table``, the real game."""

    peek = "all"
    table: Game | None = None

    def _builder(self, view: Mapping[str, Any], ctx: Context, rules: RuleSet) -> Builder | None:
        honest = super()._builder(view, ctx, rules)
        g, seat = self.table, self.seat
        tracker = self.heuristic.tracker
        if g is None or honest is None or tracker is None:
            return honest
        n = g.players
        if self.peek == "all":
            truth = {s: g.hand(s) for s in range(n) if s != seat}
        else:
            nxt = (seat + (1 if g.direction == "cw" else -1)) % n
            truth = {nxt: g.hand(nxt)}
        layout = tracker.hidden_layout(view)
        table = g

        def peeking(r: random.Random) -> Game:
            # the true hands first: a sampled card they hold is dealt elsewhere instead
            known = dict(truth)
            for s, cards in layout.draw(r)[0].items():
                known.setdefault(s, cards)
            return table.determinize(seat, r, known=known)
        return peeking


def _make(spec: str, seed: int, peek: str) -> Bot:
    bot = make_bot(spec, seed)
    if peek and isinstance(bot, ISMCTSBot):
        spy = PeekingISMCTS.__new__(PeekingISMCTS)
        spy.__dict__.update(bot.__dict__)
        spy.peek = peek
        return spy
    return bot


def run_chunk(job: tuple[str, int, int, int, int, str, str, str]) -> dict[str, Any]:
    """Play deals ``first .. first+count-1`` of one matchup; returns raw counts and times."""
    name, first, count, seed, _players, mine, other, peek = job
    players = MATCHUPS[name][0]
    rules = preset("classic", players=players)
    chunk_seed = seed * 1_000_003 + first
    me = Seat(_make(mine, chunk_seed, peek))
    others = [Seat(make_bot(other, chunk_seed + 1 + i)) for i in range(players - 1)]
    wins = 0.0
    games = 0
    iterations = 0
    for d in range(first, first + count):
        for rot in range(players):
            g = Game(rules, seed * 7_919 + d, dealer=d % players)
            seats: list[Seat] = list(others)
            seats.insert(rot, me)
            for s in seats:
                s.game = g
            if isinstance(me.bot, PeekingISMCTS):
                me.bot.table = g
            play_round(g, seats, random.Random(seed * 104_729 + d * 16 + rot))
            out = g.outcome
            assert out is not None
            games += 1
            if out.winner is None:
                wins += 1.0 / players
            elif seats[out.winner] is me:
                wins += 1.0
    iterations = getattr(me.bot, "total_iterations", 0)
    return {"name": name, "games": games, "wins": wins, "times": me.times,
            "searched_times": me.searched_times, "iterations": iterations,
            "searched": getattr(me.bot, "searched", 0)}


def _sub(spec: str, ismcts: str) -> str:
    """A searching bot gets this run's search options (``ismcts`` is ``ismcts:OPTIONS``)."""
    if spec.split(":")[0] not in SEARCHERS:
        return spec
    opts = ismcts[len("ismcts:"):]
    return f"{spec},{opts}" if ":" in spec else f"{spec}:{opts}"


def round_robin(deals: int, seed: int, workers: int, ismcts: str) -> dict[str, Any]:
    """``--tournament``: two-player duplicate deals among :data:`TOURNAMENT`; the head-to-head
    win rates (row beats column) with 95% intervals and the openskill ratings."""
    from unoarena.lab.tournament import tournament

    specs = [_sub(b, ismcts) for b in TOURNAMENT]
    res = tournament(preset("classic", players=2), specs, deals, seed, workers=workers)
    k = len(specs)
    wins = [[0] * k for _ in range(k)]
    games = [[0] * k for _ in range(k)]
    for g in res.games:
        a, b = g.seats
        games[a][b] += 1
        games[b][a] += 1
        if g.winner is not None:
            w = g.seats[g.winner]
            wins[w][b if w == a else a] += 1
    table: dict[str, dict[str, Any]] = {}
    for i, name in enumerate(TOURNAMENT):
        table[name] = {}
        for j, other in enumerate(TOURNAMENT):
            if i != j and games[i][j]:
                lo, hi = wilson(wins[i][j], games[i][j])
                table[name][other] = {"win_rate": round(wins[i][j] / games[i][j], 4),
                                      "ci95": [round(lo, 4), round(hi, 4)],
                                      "games": games[i][j]}
    by_spec = {s.spec: s for s in res.standings}
    ratings = {name: {"mu": round(by_spec[spec].rating.mu, 2),
                      "sigma": round(by_spec[spec].rating.sigma, 2),
                      "ordinal": round(by_spec[spec].rating.ordinal, 2),
                      "win_rate": round(by_spec[spec].win_rate, 4)}
               for name, spec in zip(TOURNAMENT, specs, strict=True)}
    return {"deals": deals, "games": len(res.games), "head_to_head": table,
            "ratings": ratings, "seconds": round(res.elapsed, 1)}


def _ms(xs: list[float]) -> dict[str, float] | None:
    if not xs:
        return None
    s = sorted(xs)
    return {"mean": round(statistics.fmean(s) * 1000, 2),
            "p95": round(s[min(len(s) - 1, int(0.95 * len(s)))] * 1000, 2),
            "max": round(s[-1] * 1000, 2), "moves": len(s)}


def measure(names: list[str], games: dict[str, int], seed: int, workers: int, chunk: int,
            ismcts: str, peek: str = "") -> list[dict[str, Any]]:
    jobs: list[tuple[str, int, int, int, int, str, str, str]] = []
    for name in names:
        players, mine, other = MATCHUPS[name]
        mine, other = _sub(mine, ismcts), _sub(other, ismcts)
        deals = max(1, math.ceil(games[name] / players))
        for first in range(0, deals, chunk):
            jobs.append((name, first, min(chunk, deals - first), seed, players, mine, other,
                         peek))
    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            parts = pool.map(run_chunk, jobs, chunksize=1)
    else:
        parts = [run_chunk(j) for j in jobs]
    out = []
    for name in names:
        mine_parts = [p for p in parts if p["name"] == name]
        n = sum(p["games"] for p in mine_parts)
        w = sum(p["wins"] for p in mine_parts)
        times = [t for p in mine_parts for t in p["times"]]
        searched = [t for p in mine_parts for t in p["searched_times"]]
        its = sum(p["iterations"] for p in mine_parts)
        nsearch = sum(p["searched"] for p in mine_parts)
        players, mine, other = MATCHUPS[name]
        lo, hi = wilson(w, n)
        row: dict[str, Any] = {
            "matchup": name, "players": players,
            "bot": _sub(mine, ismcts), "against": _sub(other, ismcts),
            "games": n, "wins": w, "win_rate": round(w / n, 4) if n else None,
            "ci95": [round(lo, 4), round(hi, 4)],
            "par": round(1 / players, 4),
            "ms_per_move": _ms(times),
        }
        if searched:
            row["ms_per_searched_move"] = _ms(searched)
            row["iterations_per_search"] = round(its / max(1, nsearch), 1)
            row["searched_share"] = round(len(searched) / max(1, len(times)), 3)
        if name in TARGETS:
            row["target"] = TARGETS[name]
            row["target_met"] = lo >= TARGETS[name] if n else False
            row["point_estimate_meets_target"] = (w / n >= TARGETS[name]) if n else False
        out.append(row)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=4000,
                    help="games of each matchup without a search (default 4000)")
    ap.add_argument("--ismcts-games", type=int, default=400,
                    help="games of each matchup with ismcts or learned-search (default 400)")
    ap.add_argument("--ms", type=float, default=50.0,
                    help="ismcts CPU milliseconds per move (default 50)")
    ap.add_argument("--iterations", type=int, default=0,
                    help="ismcts iterations per move instead of --ms (deterministic)")
    ap.add_argument("--ismcts", default="",
                    help="extra ismcts options, e.g. 'c=0.5,rollout=20'")
    ap.add_argument("--learned", default="",
                    help="options of the learned bot, e.g. 'weights=runs/learned/learned.npz'")
    ap.add_argument("--search", default="",
                    help="extra options of learned-search only, e.g. 'leaf=value'")
    ap.add_argument("--only", action="append", choices=sorted(MATCHUPS),
                    help="run only this matchup (repeatable)")
    ap.add_argument("--quick", action="store_true",
                    help="a small run (about two minutes on one core)")
    ap.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    ap.add_argument("--chunk", type=int, default=25, help="deals per chunk of fresh bots")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--peek", choices=("all", "next"), default="",
                    help="diagnostic that cheats: ismcts deals with the true hands of every "
                         "opponent or of the next player")
    ap.add_argument("--tournament", type=int, default=0, metavar="DEALS",
                    help="also play the 4x4 round robin of basic, heuristic, ismcts and learned "
                         "over DEALS duplicate deals")
    ap.add_argument("--json", action="store_true", help="print JSON (the default)")
    args = ap.parse_args(argv)
    names = args.only if args.only is not None else ([] if args.tournament else list(MATCHUPS))
    searching = {n for n in names if set(MATCHUPS[n][1:]) & set(SEARCHERS)}
    games = {n: (args.ismcts_games if n in searching else args.games) for n in names}
    if args.quick:
        games = {n: (1000 if n not in searching else 40 if MATCHUPS[n][0] == 2 else 20)
                 for n in names}
    opts = [f"iterations={args.iterations}" if args.iterations else f"ms={args.ms:g}"]
    if args.ismcts:
        opts.append(args.ismcts)
    ismcts = "ismcts:" + ",".join(opts)
    start = time.perf_counter()
    if args.learned:
        MATCHUPS.update({k: (p, f"learned:{args.learned}" if b == "learned" else b, o)
                         for k, (p, b, o) in MATCHUPS.items()})
    if args.search:
        MATCHUPS.update({k: (p, f"learned-search:{args.search}" if b == "learned-search" else b,
                             o) for k, (p, b, o) in MATCHUPS.items()})
    rows = measure(names, games, args.seed, args.workers, args.chunk, ismcts, args.peek)
    robin = (round_robin(args.tournament, args.seed, args.workers, ismcts)
             if args.tournament else None)
    result = {
        "benchmark": "strength",
        "rules": "classic",
        "unit": "rounds (the first seat to go out wins)",
        "ismcts": ismcts,
        "peek": args.peek or None,
        "seed": args.seed,
        "workers": args.workers,
        "seconds": round(time.perf_counter() - start, 1),
        "python": platform.python_version(),
        "engine": "compiled" if _compiled() else "pure Python",
        "results": rows,
    }
    if robin is not None:
        result["tournament"] = robin
    json.dump(result, sys.stdout, indent=1)
    print()
    return 0


def _compiled() -> bool:
    import unoarena.engine.game as game_module
    return not str(game_module.__file__).endswith(".py")


if __name__ == "__main__":
    raise SystemExit(main())
