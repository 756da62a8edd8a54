"""The compiled kernel's cache follows its sources: a change to a file compiles afresh every
module that inlines it, and only those (numba alone checks just the function's own file)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("numba")

from unoarena.kernel import _jit


def _tree(root: Path) -> Path:
    kernel = root / "pkg" / "kernel"
    kernel.mkdir(parents=True)
    (root / "pkg" / "engine").mkdir()
    (root / "pkg" / "engine" / "cards.py").write_text("KINDS = 80\n")
    (kernel / "core.py").write_text("from . import mt\nfrom .tables import R_N\n")
    (kernel / "mt.py").write_text("X = 1\n")
    (kernel / "tables.py").write_text("R_N = 0\n")
    (kernel / "bots.py").write_text("def f():\n    from . import core\n")
    (kernel / "other.py").write_text("from . import mt\n")
    return kernel


def _dirs(kernel: Path) -> dict[str, str]:
    _jit.cache_dir.cache_clear()
    return {m: _jit.cache_dir(m, kernel) for m in ("core", "mt", "tables", "bots", "other")}


def test_a_change_recompiles_what_depends_on_it_and_nothing_else(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    kernel = _tree(tmp_path)
    before = _dirs(kernel)
    assert before["core"].startswith(str(tmp_path / "cache" / "unoarena" / "kernel" / "core-"))
    (kernel / "tables.py").write_text("R_N = 1\n")
    after = _dirs(kernel)
    changed = {m for m in before if before[m] != after[m]}
    assert changed == {"tables", "core", "bots"}  # bots imports core inside a function
    (kernel.parent / "engine" / "cards.py").write_text("KINDS = 81\n")
    assert all(a != b for a, b in zip(after.values(), _dirs(kernel).values(), strict=True))


def test_the_users_cache_dir_is_the_root_and_still_goes_stale_safely(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """NUMBA_CACHE_DIR chooses where the caches live, not whether a change to ``core.py``
    recompiles the bots that inline it (numba alone would keep serving the old code)."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    kernel = _tree(tmp_path)
    before = _dirs(kernel)
    assert all(d.startswith(str(tmp_path / "mine") + os.sep) for d in before.values())
    assert before["bots"].startswith(str(tmp_path / "mine" / "bots-"))
    (kernel / "core.py").write_text((kernel / "core.py").read_text() + "\nX = 2\n")
    after = _dirs(kernel)
    assert after["bots"] != before["bots"] and after["core"] != before["core"]
    _jit.cache_dir.cache_clear()
