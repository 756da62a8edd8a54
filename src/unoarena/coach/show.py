"""A review in the terminal: a table per decision, a chart of the chance, a summary per seat."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..text.i18n import _
from .hints import action_words
from .review import LABEL_WORDS, THRESHOLDS, Review

_STYLE = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow"}
_BLOCKS = " ▁▂▃▄▅▆▇█"


def chart_lines(points: list[tuple[int, float]], width: int = 60, height: int = 8) -> list[str]:
    """A column chart of chances (0..100) over the round: one column per decision (sampled
    down to ``width``), ``height`` rows of eighth blocks, with a 0-100 scale."""
    if not points:
        return []
    values = [v for _i, v in points]
    if len(values) > width:
        values = [values[int(i * len(values) / width)] for i in range(width)]
    rows = []
    for r in range(height, 0, -1):
        lo = (r - 1) * 100.0 / height
        line = ""
        for v in values:
            fill = (v - lo) / (100.0 / height)
            line += _BLOCKS[max(0, min(8, round(fill * 8)))]
        scale = f"{round(r * 100 / height):>3}% " if r in (height, height // 2) else "     "
        rows.append(scale + "│" + line)
    rows.append("  0% └" + "─" * len(values))
    return rows


def show_review(console: Console, review: Review) -> None:
    """Print the review: decisions, then per seat the chart and the summary."""
    t = Table(title=_("Decisions"), show_lines=False)
    for head in (_("#"), _("Seat"), _("Played"), _("Before"), _("After"), _("Best other"),
                 _("Its chance"), _("Label")):
        t.add_column(head)
    for d in review.decisions:
        label = Text(_(LABEL_WORDS[d.label]) if d.label else (
            "·" if d.forced else ("" if d.judged else _("not judged"))),
                     style=_STYLE.get(d.label, "dim"))
        t.add_row(str(d.index + 1), str(d.seat), action_words(d.action),
                  f"{100 * d.before:.0f}%", f"{100 * d.after:.0f}%",
                  action_words(d.best) if d.best != d.action else "-",
                  f"{100 * d.best_chance:.0f}%" if d.best != d.action else "-", label)
    console.print(t)
    for seat, s in review.summaries.items():
        console.print(Text(_("Seat {seat}: chance of winning the round after each decision"
                             ).format(seat=seat), style="bold"))
        for line in chart_lines(review.chart(seat)):
            console.print(line, highlight=False)
        labels = _(", ").join(f"{s.labels[n]} {_(LABEL_WORDS[n])}" for n, _a in THRESHOLDS)
        console.print(_("Seat {seat}: accuracy {acc:.0f}% over {n} choices ({labels}); "
                        "{lost:.0f} points of chance lost in all").format(
            seat=seat, acc=s.accuracy, n=s.choices, labels=labels, lost=s.lost),
            highlight=False)
    if review.winner is not None:
        console.print(_("What really happened: seat {seat} won the round.").format(
            seat=review.winner), highlight=False)
