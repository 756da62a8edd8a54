"""Every console example of the README and ``docs/`` prints what it shows (``...`` standing
for any text): a change that moves a figure fails here until ``python scripts/examples.py
--write`` brings the examples up to date."""

from __future__ import annotations

from pathlib import Path

import pytest

from unoarena.testing.examples import Block, blocks, difference, matches, run

ROOT = Path(__file__).resolve().parents[1]
FILES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCKS = [b for f in FILES for b in blocks(f)]


def test_the_examples_are_found() -> None:
    commands = [" ".join(c.argv[:2]) for b in BLOCKS for c in b.commands]
    assert {"unoarena rules", "unoarena simulate", "unoarena tournament",
            "unoarena replay"} <= set(commands)
    # the README's own example and the guides' (a page moved out of docs/ would drop them)
    pages = {str(b.path.relative_to(ROOT)) for b in BLOCKS}
    assert {"README.md", "docs/guides/study.md"} <= pages


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.name)
def test_each_example_prints_what_it_shows(block: Block, tmp_path: Path) -> None:
    for c in block.commands:
        got = run(c.argv, tmp_path)
        assert matches(c.want, got), (
            f"{block.name}: `{' '.join(c.argv)}` printed otherwise (python scripts/examples.py "
            f"--write updates it):\n{difference(c.want, got)}")
