"""The replay example of the guide to studying rule sets is what the two commands print
today."""

from __future__ import annotations

from pathlib import Path

from unoarena.testing import load_script

ROOT = Path(__file__).resolve().parent.parent


def test_replay_example_matches_the_commands() -> None:
    gen_docs = load_script(ROOT / "scripts" / "gen_docs.py")
    text = gen_docs.REPLAY_PAGE.read_text(encoding="utf-8")
    block = text.split(gen_docs.REPLAY_START + "\n", 1)[1].split(gen_docs.REPLAY_END)[0]
    assert block == gen_docs.replay_example(), "run: python scripts/gen_docs.py --write"
    assert "$ unoarena replay game.json --seat 0\nReplay: classic, 3 players" in block


def test_rules_list_names_rule_books_not_seeds() -> None:
    import contextlib
    import io

    from unoarena.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["--lang", "en", "rules", "--list"]) == 0
    text = out.getvalue()
    assert "(rule book 000)" in text and "(rule book 004)" in text and "seed 00" not in text
