"""The console examples of the README and ``docs/``: each ```` ```console ```` block's ``$
unoarena ...`` commands are run and their output compared with the block's, ``...`` standing
for any text as in doctest. ``tests/test_examples.py`` fails when a figure moved;
``scripts/examples.py --write`` brings the blocks up to date (keeping their elisions) for a
review of the diff.
"""

from __future__ import annotations

import contextlib
import difflib
import doctest
import io
import os
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

#: Where a console block begins and ends.
_FENCE = re.compile(r"^```console\s*$")
_END = "```"
_CHECKER = doctest.OutputChecker()
_FLAGS = doctest.ELLIPSIS
#: The examples are shown as a terminal this wide prints them.
EXAMPLE_COLUMNS = 100


@dataclass
class Command:
    """One ``$ unoarena ...`` line of a block and the output shown under it."""

    argv: list[str]
    want: str
    #: line numbers (0-based, in the file) of the shown output
    lines: tuple[int, int]


@dataclass
class Block:
    """A console block: its commands, in order, run in one fresh folder."""

    path: Path
    start: int
    commands: list[Command]

    @property
    def name(self) -> str:
        """Where the block is, for test ids and messages."""
        return f"{self.path.name}:{self.start + 1}"


def blocks(path: Path) -> Iterator[Block]:
    """The console blocks of a Markdown file whose commands are all ``unoarena`` ones."""
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        if not _FENCE.match(lines[i]):
            i += 1
            continue
        start = i
        i += 1
        commands: list[Command] = []
        while i < len(lines) and lines[i].strip() != _END:
            if lines[i].startswith("$ "):
                first = i + 1
                j = first
                while j < len(lines) and lines[j].strip() != _END and \
                        not lines[j].startswith("$ "):
                    j += 1
                want = "\n".join(lines[first:j]) + ("\n" if j > first else "")
                commands.append(Command(shlex.split(lines[i][2:]), want, (first, j)))
                i = j
            else:
                i += 1
        if commands and all(c.argv[0] == "unoarena" for c in commands):
            yield Block(path, start, commands)
        i += 1


def run(argv: list[str], cwd: Path) -> str:
    """What ``unoarena ARGV`` prints on stdout, run in this process in ``cwd``."""
    from ..cli import main

    out = io.StringIO()
    here = Path.cwd()
    columns = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(EXAMPLE_COLUMNS)
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            main(argv[1:])
    finally:
        os.chdir(here)
        if columns is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = columns
    return out.getvalue()


def matches(want: str, got: str) -> bool:
    """Whether output ``got`` is what the block shows (``...`` standing for any text)."""
    return _CHECKER.check_output(want, got, _FLAGS)


def difference(want: str, got: str) -> str:
    """doctest's account of how ``got`` differs from ``want``."""
    example = doctest.Example("", want)
    return _CHECKER.output_difference(example, got, _FLAGS)


def updated(want: str, got: str) -> str:
    """``want`` brought up to date with ``got``: each shown line replaced by the line of
    ``got`` most like it (in order), elided lines (``...``) kept, and a line that elides
    part of itself kept while it still matches."""
    got_lines = got.splitlines()
    out: list[str] = []
    at = 0
    for line in want.splitlines():
        if line.strip() == "...":
            out.append(line)
            continue
        rest = got_lines[at:]
        if not rest:
            out.append(line)
            continue
        ratios = [difflib.SequenceMatcher(None, line, g).ratio() for g in rest]
        best = max(range(len(rest)), key=ratios.__getitem__)
        found = rest[best]
        at += best + 1
        keep = "..." in line and matches(line + "\n", found + "\n")
        out.append(line if keep else found)
    if at < len(got_lines) and out and out[-1].strip() != "...":
        out.append("...")  # the rest of the output is not shown
    return "\n".join(out) + ("\n" if want.endswith("\n") else "")


def rewrite(path: Path, cwd: Path) -> list[str]:
    """Bring every console block of ``path`` up to date; the names of the blocks changed."""
    lines = path.read_text(encoding="utf-8").splitlines()
    changed: list[str] = []
    edits: list[tuple[tuple[int, int], list[str]]] = []
    for block in blocks(path):
        for c in block.commands:
            got = run(c.argv, cwd)
            if c.want and not matches(c.want, got):
                edits.append((c.lines, updated(c.want, got).splitlines()))
                changed.append(block.name)
    for (a, b), new in sorted(edits, reverse=True):
        lines[a:b] = new
    if edits:
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return sorted(set(changed))
