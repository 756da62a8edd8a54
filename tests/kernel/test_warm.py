"""``python -m unoarena.kernel.warm`` compiles the kernel's parts ahead of time and says
clearly what it cannot do."""

from __future__ import annotations

import json
from pathlib import Path

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


def _mark(path: str, part: str) -> None:
    import time

    with open(path, "a") as f:
        f.write(f"{part} start {time.monotonic()}\n")
    time.sleep(0.3)
    with open(path, "a") as f:
        f.write(f"{part} end {time.monotonic()}\n")


def test_the_lab_compiles_alone_before_the_parts_that_share_its_helpers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import functools
    import multiprocessing

    if multiprocessing.get_start_method() != "fork":
        pytest.skip("the recording parts reach the workers only by fork")
    log = str(tmp_path / "order.log")
    fakes = {p: functools.partial(_mark, log, p) for p in warm.PARTS}
    monkeypatch.setattr(warm, "PARTS", fakes)
    took = warm.warm(["label", "single", "lab", "vector"], workers=2)
    assert set(took) == {"lab", "single", "vector", "label"}
    events: dict[tuple[str, str], float] = {}
    for line in Path(log).read_text().splitlines():
        part, what, when = line.split()
        events[part, what] = float(when)
    assert all(events["lab", "end"] <= events[p, "start"] for p in ("single", "vector", "label"))
    # the others side by side: two of them started before the first of them ended
    starts = sorted(events[p, "start"] for p in ("single", "vector", "label"))
    ends = sorted(events[p, "end"] for p in ("single", "vector", "label"))
    assert starts[1] < ends[0]
