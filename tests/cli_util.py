"""Running the ``unoarena`` command in-process, for the CLI and lab tests."""

from __future__ import annotations

import pytest

from unoarena.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``unoarena ARGS...``: its exit code, stdout and stderr."""
    rc = main(list(args))
    out, err = capsys.readouterr()
    return rc, out, err
