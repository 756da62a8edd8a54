"""Generated parts of the documentation: the table of rule-set keys (docs/rules/keys.md), from
the engine's own KEYS and PRESETS, and the replay example (docs/guides/study.md), from what the
commands print, so the documentation cannot drift from the code.

    python scripts/gen_docs.py           # print both
    python scripts/gen_docs.py --write   # put them into their pages between the markers
    python scripts/gen_docs.py --check   # exit 1 if a page is out of date
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import tempfile
from pathlib import Path

from unoarena.text.rules import keys_table

DOCS = Path(__file__).resolve().parent.parent / "docs"
#: The page of each generated block.
KEYS_PAGE = DOCS / "rules" / "keys.md"
REPLAY_PAGE = DOCS / "guides" / "study.md"
START = "<!-- keys-table:start -->"
END = "<!-- keys-table:end -->"
REPLAY_START = "<!-- replay-example:start -->"
REPLAY_END = "<!-- replay-example:end -->"
#: The commands of the replay example, and how many lines of the replay to show.
SIMULATE = ["simulate", "--games", "1", "--players", "3", "--seed", "3", "--save-record",
            "game.json"]
REPLAY = ["replay", "game.json", "--seat", "0"]
REPLAY_LINES = 7


def splice(text: str, table: str, start: str = START, end: str = END) -> str:
    """``text`` with the block between the markers replaced by ``table``."""
    try:
        head, rest = text.split(start, 1)
        _old, tail = rest.split(end, 1)
    except ValueError:
        raise SystemExit(f"the page lacks the markers {start} ... {end}") from None
    return f"{head}{start}\n{table}{end}{tail}"


def replay_example() -> str:
    """The console block of the replay example: both commands run here, in English, in a
    scratch folder, and the first lines of what ``replay`` prints."""
    from unoarena.cli import main as cli_main
    from unoarena.text.i18n import language, set_language

    before = language()
    cwd = os.getcwd()
    set_language("en")
    try:
        with tempfile.TemporaryDirectory() as tmp:
            os.chdir(tmp)
            quiet = io.StringIO()
            with contextlib.redirect_stdout(quiet), contextlib.redirect_stderr(io.StringIO()):
                if cli_main(["--lang", "en", *SIMULATE]) != 0:
                    raise SystemExit("the simulate command of the replay example failed")
            out = io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                if cli_main(["--lang", "en", *REPLAY]) != 0:
                    raise SystemExit("the replay command of the replay example failed")
    finally:
        os.chdir(cwd)
        set_language(before)
    lines = out.getvalue().splitlines()[:REPLAY_LINES]
    first = quiet.getvalue().splitlines()[:1]  # the simulation's heading; the rest left out
    body = "\n".join([f"$ unoarena {' '.join(SIMULATE)}", *first, "...",
                      f"$ unoarena {' '.join(REPLAY)}", *lines, "..."])
    return f"```console\n{body}\n```\n"


def generated() -> dict[Path, str]:
    """Each page with a generated block, with every block made anew."""
    keys = KEYS_PAGE.read_text(encoding="utf-8")
    replay = REPLAY_PAGE.read_text(encoding="utf-8")
    return {KEYS_PAGE: splice(keys, keys_table()),
            REPLAY_PAGE: splice(replay, replay_example(), REPLAY_START, REPLAY_END)}


def main(argv: list[str] | None = None) -> int:
    """Print the generated blocks, or write or check them in their pages."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = p.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help="update the pages in place")
    group.add_argument("--check", action="store_true", help="fail if a page is out of date")
    args = p.parse_args(argv)
    if not (args.write or args.check):
        sys.stdout.write(keys_table() + "\n" + replay_example())
        return 0
    pages = generated()
    stale = [path for path, new in pages.items() if new != path.read_text(encoding="utf-8")]
    if args.check:
        for path in stale:
            print(f"{path.relative_to(DOCS.parent)}'s generated part is out of date: run "
                  "python scripts/gen_docs.py --write", file=sys.stderr)
        return 1 if stale else 0
    for path in stale:
        path.write_text(pages[path], encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
