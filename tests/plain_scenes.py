"""Plain mode on an exact table, for the tmux tests: ``python plain_scenes.py NAME`` plays the
scene NAME on this terminal's input and output (this module holds no tests of its own)."""

from __future__ import annotations

import sys

from unoarena.testing.tui import exact_table, register_forgetful
from unoarena.tui.plain import run_plain
from unoarena.tui.session import Player, Table


def _named(table: Table, *names: str) -> Table:
    """The same table with the other seats' bots named."""
    for i, name in enumerate(names, 1):
        p = table.players[i]
        table.players[i] = Player(name, p.kind, p.bot)
    return table


def scene(name: str) -> Table:
    """The tables of the tests: a seven to swap, a last card but one, a wild, a Wild Draw Four
    to challenge."""
    if name == "seven":
        return _named(exact_table("classic", {0: ["R7", "G1", "Y5"], 1: ["B1", "B2", "B3"],
                                              2: ["Y1", "Y2"]},
                                  top=["R5"], players=3, seven_zero=True), "Anna", "Ben")
    if name == "uno":
        return _named(exact_table("classic", {0: ["R1", "R2"], 1: ["B1", "B2", "B3"]},
                                  top=["R5"], players=2), "Anna")
    if name == "wild":
        return _named(exact_table("classic", {0: ["W", "Y2", "Y3"], 1: ["B1", "B2", "B3"]},
                                  top=["R5"], players=2), "Anna")
    if name == "challenge":
        register_forgetful()
        return _named(exact_table("classic", {0: ["R1", "R2", "R3"], 1: ["W4", "G1", "G2"]},
                                  top=["B5"], players=2, turn=1, bots="forgetful"), "Anna")
    raise SystemExit(f"no scene {name!r}")


if __name__ == "__main__":
    raise SystemExit(run_plain(scene(sys.argv[1]), sys.stdin, sys.stdout))
