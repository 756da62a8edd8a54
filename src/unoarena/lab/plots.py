"""Plots of simulations, comparisons and tournaments, as PNG files (``--plot DIR``).

matplotlib is an optional extra (``pip install 'unoarena[lab]'``). Figures are drawn with
matplotlib's object interface (``Figure`` and the Agg renderer), never ``pyplot``: no window,
no display needed, and no global backend switched under a program that imports the lab.
Every plot takes one series per rule set, so a comparison draws its rule sets over each other.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..text.i18n import _
from .common import LabError
from .stats import Hist, Tally, wilson

INSTALL_HINT = "pip install 'unoarena[lab]' (or pip install matplotlib)"

#: Colour-blind-safe (Okabe-Ito) colours for the series.
COLORS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
          "#000000")

Series = tuple[str, Tally]


def _figure(width: float, height: float) -> Any:
    try:
        figure = importlib.import_module("matplotlib.figure")
    except ImportError:
        raise LabError(f"--plot needs matplotlib, which is not installed: {INSTALL_HINT}"
                       ) from None
    return figure.Figure(figsize=(width, height), dpi=110, layout="constrained")


def available() -> bool:
    """Whether matplotlib can be imported."""
    try:
        importlib.import_module("matplotlib.figure")
    except ImportError:
        return False
    return True


def _save(fig: Any, path: Path) -> Path:
    try:
        fig.savefig(path)
    except OSError as e:
        raise LabError(f"cannot write {path}: {e.strerror or e}") from None
    return path


def _outdir(directory: str | Path) -> Path:
    out = Path(directory)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise LabError(f"cannot create the plot folder {out}: {e.strerror or e}") from None
    return out


def _hist_step(ax: Any, hists: Sequence[tuple[str, Hist]], xlabel: str, cut: float = 0.99
               ) -> None:
    """Step histograms (share of rounds per bin) of several series, the x axis cut at the
    ``cut`` quantile of the widest series so that a rare long tail does not squash the rest."""
    hists = [(label, h) for label, h in hists if h.n]
    if not hists:
        ax.text(0.5, 0.5, _("no data"), ha="center", va="center", transform=ax.transAxes)
        return
    lo = min(min(h.counts) for _l, h in hists)
    hi = max(h.quantile(cut) for _l, h in hists)
    width = max(1, math.ceil((hi - lo + 1) / 60))
    edges = [lo - 0.5 + i * width for i in range(math.ceil((hi - lo + 1) / width) + 1)]
    for i, (label, h) in enumerate(hists):
        values = sorted(h.counts)
        ax.hist(values, bins=edges, weights=[h.counts[v] / h.n for v in values],
                histtype="step", linewidth=1.6, color=COLORS[i % len(COLORS)],
                label=f"{label} (mean {h.mean:.1f}, median {h.median:g})")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(_("share of rounds"))
    ax.legend(fontsize="small")
    ax.grid(alpha=0.3)
    if any(max(h.counts) > hi for _l, h in hists):
        ax.set_title(_("x axis cut at the 99th percentile"), fontsize="small", loc="right")


def plot_simulation(directory: str | Path, series: Sequence[Series],
                    bots: Sequence[Sequence[str]] = ()) -> list[Path]:
    """The simulation plots (several series for a comparison); returns the files written."""
    out = _outdir(directory)
    files = [
        _game_length(out, series),
        _seat_wins(out, series, bots),
        _cards_drawn(out, series),
        _points(out, series),
        _chains(out, series),
    ]
    if any(t.matches for _l, t in series):
        files.append(_matches(out, series))
    return files


def _title(series: Sequence[Series], what: str) -> str:
    if len(series) == 1:
        return f"{what} — {series[0][0]}, {series[0][1].rounds:,} " + _("rounds")
    return what


def _game_length(out: Path, series: Sequence[Series]) -> Path:
    fig = _figure(11, 4.2)
    a1, a2 = fig.subplots(1, 2)
    _hist_step(a1, [(label, t.actions) for label, t in series], _("actions per round"))
    _hist_step(a2, [(label, t.turns) for label, t in series], _("turns per round"))
    fig.suptitle(_title(series, _("Game length")))
    return _save(fig, out / "game_length.png")


def _seat_wins(out: Path, series: Sequence[Series], bots: Sequence[Sequence[str]]) -> Path:
    fig = _figure(max(6.0, 1.2 * max(t.players for _l, t in series) + 3), 4.5)
    ax = fig.subplots()
    k = len(series)
    width = 0.8 / k
    for i, (label, t) in enumerate(series):
        rates = t.win_rates()
        cis = t.win_cis()
        xs = [s - 0.4 + width * (i + 0.5) for s in range(t.players)]
        err = [[r - lo for r, (lo, _h) in zip(rates, cis, strict=True)],
               [hi - r for r, (_lo, hi) in zip(rates, cis, strict=True)]]
        ax.bar(xs, rates, width, yerr=err, capsize=4, color=COLORS[i % len(COLORS)],
               label=label, alpha=0.85)
        ax.axhline((1 - t.void / t.rounds if t.rounds else 1) / t.players,
                   color=COLORS[i % len(COLORS)], linestyle="--", linewidth=1)
    players = max(t.players for _l, t in series)
    names = [f"{_('seat')} {s}" for s in range(players)]
    if len(series) == 1 and bots and len(set(bots[0])) > 1:
        names = [f"{_('seat')} {s}\n{bots[0][s]}" for s in range(players)]
    ax.set_xticks(range(players), names)
    ax.set_ylabel(_("share of rounds won"))
    ax.yaxis.set_major_formatter(_percent())
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize="small")
    fig.suptitle(_title(series, _("Seat win rates with 95% intervals (dashed: an even share)")))
    return _save(fig, out / "seat_win_rates.png")


def _percent() -> Any:
    ticker = importlib.import_module("matplotlib.ticker")
    return ticker.PercentFormatter(1.0)


def _cards_drawn(out: Path, series: Sequence[Series]) -> Path:
    fig = _figure(11, 4.2)
    a1, a2 = fig.subplots(1, 2)
    _hist_step(a1, [(label, t.drawn) for label, t in series], _("cards drawn per round"))
    reasons = sorted({r for _l, t in series for r in t.drawn_by},
                     key=lambda r: -sum(t.drawn_by.get(r, 0) / max(1, t.rounds)
                                        for _l, t in series))
    k = len(series)
    height = 0.8 / k
    for i, (label, t) in enumerate(series):
        ys = [j - 0.4 + height * (i + 0.5) for j in range(len(reasons))]
        vals = [t.drawn_by.get(r, 0) / t.rounds if t.rounds else 0.0 for r in reasons]
        a2.barh(ys, vals, height, color=COLORS[i % len(COLORS)], label=label)
    a2.set_yticks(range(len(reasons)), reasons)
    a2.invert_yaxis()
    a2.set_xlabel(_("cards per round"))
    a2.set_title(_("by reason"), fontsize="medium")
    a2.grid(axis="x", alpha=0.3)
    if k > 1:
        a2.legend(fontsize="small")
    fig.suptitle(_title(series, _("Cards drawn")))
    return _save(fig, out / "cards_drawn.png")


def _points(out: Path, series: Sequence[Series]) -> Path:
    fig = _figure(8, 4.2)
    ax = fig.subplots()
    _hist_step(ax, [(label, t.points) for label, t in series],
               _("points left in the other hands when a round ends (END-3)"))
    fig.suptitle(_title(series, _("Points per round")))
    return _save(fig, out / "points_per_round.png")


def _chains(out: Path, series: Sequence[Series]) -> Path:
    fig = _figure(8, 4.2)
    ax = fig.subplots()
    longest = max([max(t.chains.counts, default=1) for _l, t in series] + [1])
    k = len(series)
    width = 0.8 / k
    for i, (label, t) in enumerate(series):
        xs = [x - 0.4 + width * (i + 0.5) for x in range(1, longest + 1)]
        per_round = [t.chains.counts.get(x, 0) / t.rounds if t.rounds else 0.0
                     for x in range(1, longest + 1)]
        ax.bar(xs, per_round, width, color=COLORS[i % len(COLORS)], label=label)
    ax.set_xticks(range(1, longest + 1))
    ax.set_yscale("log")
    ax.set_xlabel(_("chain length: the penalty card and every answer that passed it on"))
    ax.set_ylabel(_("chains per round (log scale)"))
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize="small")
    fig.suptitle(_title(series, _("Penalty chain lengths")))
    return _save(fig, out / "penalty_chains.png")


def _matches(out: Path, series: Sequence[Series]) -> Path:
    fig = _figure(11, 4.2)
    a1, a2 = fig.subplots(1, 2)
    _hist_step(a1, [(label, t.match_rounds) for label, t in series if t.matches],
               _("rounds per match"), cut=1.0)
    a1.set_ylabel(_("share of matches"))
    k = len(series)
    width = 0.8 / k
    for i, (label, t) in enumerate(series):
        if not t.matches:
            continue
        rates = [w / t.matches for w in t.match_wins]
        cis = [wilson(w, t.matches) for w in t.match_wins]
        xs = [p - 0.4 + width * (i + 0.5) for p in range(len(rates))]
        err = [[r - lo for r, (lo, _h) in zip(rates, cis, strict=True)],
               [hi - r for r, (_lo, hi) in zip(rates, cis, strict=True)]]
        a2.bar(xs, rates, width, yerr=err, capsize=4, color=COLORS[i % len(COLORS)],
               label=label)
    entrants = max(len(t.match_wins) for _l, t in series)
    a2.set_xticks(range(entrants), [str(i) for i in range(entrants)])
    a2.set_xlabel(_("team") if any(t.teams for _l, t in series) else _("player"))
    a2.set_ylabel(_("share of matches won"))
    a2.yaxis.set_major_formatter(_percent())
    a2.grid(axis="y", alpha=0.3)
    fig.suptitle(_title(series, _("Matches")))
    return _save(fig, out / "matches.png")


def plot_tournament(directory: str | Path, result: Any) -> list[Path]:
    """Win rates with 95% intervals and ratings, best bot on top; returns the files written.

    ``result`` is a :class:`~unoarena.lab.tournament.TournamentResult`."""
    out = _outdir(directory)
    standings = result.standings
    n = len(standings)
    fig = _figure(11, max(3.0, 0.5 * n + 1.6))
    a1, a2 = fig.subplots(1, 2, sharey=True)
    ys = list(range(n))
    names = [s.name for s in standings]
    rates = [s.win_rate for s in standings]
    err = [[s.win_rate - s.win_ci[0] for s in standings],
           [s.win_ci[1] - s.win_rate for s in standings]]
    a1.barh(ys, rates, xerr=err, capsize=4, color=[COLORS[i % len(COLORS)] for i in ys])
    a1.axvline(1 / result.players, color="grey", linestyle="--", linewidth=1)
    a1.set_yticks(ys, names)
    a1.invert_yaxis()
    a1.xaxis.set_major_formatter(_percent())
    a1.set_xlabel(_("rounds won, with 95% intervals (dashed: an even share)"))
    a1.grid(axis="x", alpha=0.3)
    mus = [s.rating.mu for s in standings]
    sig = [3 * s.rating.sigma for s in standings]
    a2.errorbar(mus, ys, xerr=sig, fmt="o", capsize=4, color="black", label="μ ± 3σ")
    a2.scatter([s.rating.ordinal for s in standings], ys, marker="|", s=300, color="#D55E00",
               label=_("ordinal μ − 3σ (ranks by it)"), zorder=3)
    a2.set_xlabel(_("openskill rating (Plackett-Luce)"))
    a2.grid(axis="x", alpha=0.3)
    a2.legend(fontsize="small", loc="lower right")
    fig.suptitle(_("Tournament: {deals} deals, {games} games, tables of {players}").format(
        deals=result.deals, games=len(result.games), players=result.players))
    return [_save(fig, out / "tournament.png")]
