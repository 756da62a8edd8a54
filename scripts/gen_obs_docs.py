"""Generate docs/observations.md from the observation encoding (unoarena.encoding).

    python scripts/gen_obs_docs.py            # rewrite docs/observations.md
    python scripts/gen_obs_docs.py --check    # exit 1 when the file is out of date

The tables come from the code, so the documentation cannot drift from the encoding; a test
runs ``--check``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from unoarena.encoding import ENCODING_VERSION, Encoder, field_table
from unoarena.engine import CODES, action_space, preset

DOC = Path(__file__).resolve().parent.parent / "docs" / "observations.md"
PRESETS = ("classic", "buzz", "frozen2", "house", "attack")


def _num(x: float) -> str:
    return f"{x:g}"


def _fields(rows: list[dict[str, object]]) -> list[str]:
    out = ["| field | offset | size | range | indexed by | meaning |",
           "| --- | ---: | ---: | --- | --- | --- |"]
    for r in rows:
        rng = f"{_num(float(r['low']))} .. {_num(float(r['high']))}"  # type: ignore[arg-type]
        out.append(f"| `{r['name']}` | {r['offset']} | {r['size']} | {rng} | {r['index']} | "
                   f"{r['meaning']} |")
    return out


def render() -> str:
    rules = preset("classic", players=4)
    base = field_table(rules)
    with_hist = field_table(rules, history=1, seer=True)
    extra = [r for r in with_hist if r["name"] not in {b["name"] for b in base}]
    lines = [
        "# Observations of the learning environments",
        "",
        "<!-- the tables below follow unoarena.encoding: after changing it, run",
        "     python scripts/gen_obs_docs.py (a test fails while this file is stale) -->",
        "",
        f"Encoding version **{ENCODING_VERSION}** (`unoarena.rl.ENCODING_VERSION`). Every",
        "observation is `{\"observation\": float32 vector, \"action_mask\": int8 vector}`,",
        "built from what the observing seat may know (RULES DIG-2): its own hand, every hand's",
        "size, the top card, the active colour, the direction, pending penalties, edition",
        "effects, scores and (optionally) recent public actions. Never another hand or the draw",
        "pile's order: `seer=True` adds them for debugging and is never the default.",
        "",
        "* Seat-indexed fields are relative: entry 0 is the observing seat, entry i the seat",
        "  i places clockwise from it (seat + i mod n), so one policy can sit anywhere.",
        "* Card-indexed fields have 80 entries, one per card kind of every edition, in the order",
        "  of `unoarena.engine.CODES` (table below), whatever the deck.",
        "* `encoder.field(obs, name)` returns one field of an observation (or of a batch).",
        "* Privately shown cards (a challenged hand, the wild power's look) are not encoded in",
        "  this version.",
        "",
        "## Actions",
        "",
        "The action space is the engine's fixed integer space of the rule set (`Game.space`,",
        "`Discrete(len(space) + 1)`) plus one extra id at the end, **`decline`** =",
        "`len(space)`: legal only in an out-of-turn window turn (catch an undeclared UNO,",
        "declare a late UNO, jump in; RULES DIG-3), where it passes the window on to the next",
        "eligible seat. The `window` field is 1 in exactly those observations.",
        "",
        "| preset | players | action space | decline id | observation size | with history=8 |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name in PRESETS:
        for n in (2, 4, 10):
            r = preset(name, players=n)
            size = len(action_space(r))
            lines.append(f"| {name} | {n} | {size + 1} | {size} | {Encoder(r).size} | "
                         f"{Encoder(r, history=8).size} |")
    lines += [
        "",
        "## Fields (classic, 4 players)",
        "",
        "Offsets shift with the player count (every seat-indexed field has one entry per",
        "player); names, order and meaning do not.",
        "",
        *_fields(base),
        "",
        "## Optional fields",
        "",
        "`history=H` appends H blocks `history0_*` .. `history{H-1}_*` (newest first); `seer`",
        "appends the other hands and the draw pile. Shown for history=1 and seer, classic,",
        "4 players:",
        "",
        *_fields(extra),
        "",
        "## Card kinds",
        "",
        "| index | card |" + " index | card |" * 7,
        "| ---: | --- |" + " ---: | --- |" * 7,
    ]
    cells = [f"{k} | `{c}`" for k, c in enumerate(CODES)]
    for row in range(0, len(cells), 8):
        lines.append("| " + " | ".join(cells[row:row + 8]) + " |")
    lines += [
        "",
        "## Rewards",
        "",
        "`reward=\"win\"`: when a round ends, +1 for the winner (with teams, every member of the",
        "winning team), -1 for every other player, 0 for all when the round is void. With",
        "`episode=\"match\"` the reward comes once, when the match ends, for its winners.",
        "`reward=\"points\"`: when a round ends, the round's scores as the match counts them",
        "(MATCH-1..4), negated under penalty scoring so that more is always better, divided by",
        "`points_scale` (100). Under winner scoring the losers' round score is 0.",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail when the file is out of date")
    args = ap.parse_args(argv)
    text = render()
    if args.check:
        current = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
        if current != text:
            print(f"{DOC} is out of date: run python scripts/gen_obs_docs.py", file=sys.stderr)
            return 1
        return 0
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text(text, encoding="utf-8")
    print(f"wrote {DOC}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
