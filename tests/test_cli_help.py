"""Every command and option of ``unoarena`` says what it does, and ``unoarena --help`` names
everything the program does, in each language."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import pytest
from cli_util import run

from unoarena.cli import build_parser
from unoarena.text.i18n import set_language


def parsers(p: argparse.ArgumentParser, path: str = "unoarena"
            ) -> Iterator[tuple[str, argparse.ArgumentParser, str | None]]:
    """Every parser under ``p`` with its command line and the help its parent gives it."""
    yield path, p, None
    for action in p._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, sub in action.choices.items():
                for inner in parsers(sub, f"{path} {name}"):
                    yield inner if inner[1] is not sub else (inner[0], sub, helps.get(name))


@pytest.mark.parametrize("lang", ["en", "zh_TW", "zh_CN"])
def test_every_command_and_option_has_help(lang: str) -> None:
    set_language(lang)
    try:
        for path, p, help_text in parsers(build_parser()):
            if path != "unoarena":
                assert help_text, f"{path} has no help line in its parent's list"
            assert p.description, f"{path} has no description"
            for action in p._actions:
                if isinstance(action, argparse._SubParsersAction):
                    continue
                assert action.help and action.help != argparse.SUPPRESS, \
                    f"{path} {'/'.join(action.option_strings) or action.dest} has no help"
    finally:
        set_language("en")


def test_the_main_help_names_everything_the_program_does(
        capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _err = run(capsys, "--help")
    assert rc == 0
    for command in ("rules", "simulate", "tournament", "replay", "scenario", "play", "serve"):
        assert f"    {command}" in out
    for what in ("terminal", "browser", "simulate", "tournaments", "replay", "scenarios"):
        assert what in out


def test_scenario_run_says_what_it_does_and_errors_say_error(
        capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    rc, out, _err = run(capsys, "scenario", "run", "--help")
    assert rc == 0 and "Run rule scenarios" in out
    rc, _out, err = run(capsys, "scenario", "run", "no-such-file.yaml")
    assert rc == 2 and err.startswith("error: no such file or folder: no-such-file.yaml")


def test_a_file_that_is_no_record_says_so_once(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _out, err = run(capsys, "replay", "README.md")
    assert rc == 2
    assert err.startswith("error: README.md is not a record: not JSON: ") and \
        err.count("JSON") == 1


def test_counts_of_one_are_singular(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _err = run(capsys, "simulate", "--games", "1", "--engine", "python")
    assert rc == 0 and "4 players, 1 round, seed 0" in out
    rc, out, _err = run(capsys, "tournament", "--bots", "basic,random", "--games", "1")
    assert rc == 0 and "1 deal × 1 table × 2 seatings = 2 games" in out
