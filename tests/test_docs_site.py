"""The documentation site builds with ``mkdocs build --strict`` (``mkdocs.yml``, extra ``docs``):
a broken link or anchor, a page left out of the navigation or an API reference that does not
resolve fails here, as it fails ``.ci/run``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

pytest.importorskip("mkdocs")
pytest.importorskip("material")
pytest.importorskip("mkdocstrings_handlers.python")

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


def build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config),
                           "-d", str(site)], capture_output=True, text=True, timeout=300,
                          env=ENV, cwd=ROOT, check=False)  # snippets are read from ROOT/docs


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    done = build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert done.returncode == 0, done.stderr[-4000:]
    site = tmp_path / "site"
    home = (site / "index.html").read_text(encoding="utf-8")
    assert "繁體中文" in home and "简体中文" in home
    # the API pages are generated from the docstrings, not left empty
    engine = (site / "api" / "engine" / "index.html").read_text(encoding="utf-8")
    assert "unoarena.engine.Game" in engine and "legal_actions" in engine
    # written in reST for help(): its doctests are code here, not quotes, its roles plain code
    api = "".join((site / "api" / m / "index.html").read_text(encoding="utf-8")
                  for m in ("engine", "bots", "lab", "rl", "kernel", "scenarios"))
    assert '<span class="gp">&gt;&gt;&gt; </span>' in engine
    assert "<blockquote" not in api and ":class:`" not in api and ":func:`" not in api
    # the terminal's table, read from docs/screenshots/ at build time
    assert "Your hand (South)" in (site / "guides" / "play" / "index.html").read_text("utf-8")
    for page in ("guides/play", "guides/host", "guides/study", "guides/train",
                 "guides/write-a-bot", "rules", "research/bots", "decisions"):
        assert (site / page / "index.html").is_file(), page


def test_a_broken_link_fails_the_build(tmp_path: Path) -> None:
    """The project's own settings (strict, and links and anchors checked) refuse a page that
    links to a missing page or a missing heading."""
    project = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\n[rules](rules.md#no-such-heading)\n")
    (docs / "rules.md").write_text("# Rules\n\n[gone](gone.md)\n")
    config = tmp_path / "mkdocs.yml"
    config.write_text(yaml.safe_dump({
        "site_name": "t", "strict": project["strict"], "validation": project["validation"],
        "nav": ["index.md", "rules.md"]}))
    done = build(config, tmp_path / "site")
    assert done.returncode != 0
    assert "gone.md" in done.stderr and "no-such-heading" in done.stderr
