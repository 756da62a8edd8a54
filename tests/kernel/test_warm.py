"""``python -m unoarena.kernel.warm`` compiles the kernel's parts ahead of time and says
clearly what it cannot do."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("numba")

from unoarena.kernel import warm


def test_a_part_compiles_and_reports_its_time(capsys: pytest.CaptureFixture[str]) -> None:
    assert warm.main(["single", "--workers", "1"]) == 0
    took = json.loads(capsys.readouterr().out)
    assert list(took) == ["single"] and took["single"] >= 0


def test_unknown_parts_and_bad_workers_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert warm.main(["lab", "gpu"]) == 2
    err = capsys.readouterr().err
    assert "unknown kernel part(s) gpu" in err and "lab, single, vector, label" in err
    assert warm.main(["--workers", "0"]) == 2
    assert "workers must be 1 or more" in capsys.readouterr().err


def test_every_installed_part_is_listed() -> None:
    assert warm.available_parts()[:2] == ["lab", "single"]
