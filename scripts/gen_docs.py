"""Generated parts of README.md: the table of rule-set keys, from the engine's own KEYS and
PRESETS, and the replay example, from what the commands print, so the documentation cannot
drift from the code.

    python scripts/gen_docs.py           # print the table
    python scripts/gen_docs.py --write   # put it into README.md between the markers
    python scripts/gen_docs.py --check   # exit 1 if README.md is out of date
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

README = Path(__file__).resolve().parent.parent / "README.md"
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
        raise SystemExit(f"README.md lacks the markers {start} ... {end}") from None
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


def generate(text: str) -> str:
    """README.md's text with every generated block made anew."""
    text = splice(text, keys_table())
    return splice(text, replay_example(), REPLAY_START, REPLAY_END)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = p.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help="update README.md in place")
    group.add_argument("--check", action="store_true", help="fail if README.md is out of date")
    args = p.parse_args(argv)
    if not (args.write or args.check):
        sys.stdout.write(keys_table() + "\n" + replay_example())
        return 0
    text = README.read_text(encoding="utf-8")
    new = generate(text)
    if args.check:
        if new != text:
            print("README.md's generated parts are out of date: run python scripts/gen_docs.py "
                  "--write", file=sys.stderr)
            return 1
        return 0
    README.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
