"""Golden games (DESIGN lesson 7): the games, their compact per-ply views and the writer that
``scripts/make_golden.py`` runs and ``tests/test_golden.py`` replays.

Golden files are regenerated ONLY by running that script, and the diff is reviewed before it
is committed:

    .venv/bin/python scripts/make_golden.py            # rewrite every golden file
    .venv/bin/python scripts/make_golden.py --check    # say which files would change

Each file ``<preset>_<players>p_seed<N>.json`` holds a game record (rules, seed, dealer,
actions) and, per ply, the sorted legal actions of the seat about to act and every seat's view,
compacted: the public part of the views once, each seat's private part, and from the second ply
on only what changed. ``tests/test_golden.py`` replays each record and compares ply by ply.
The functions here (``snapshot``, ``delta``, ``undelta``) are shared with that test.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from ..engine import Game, game_record, preset

FORMAT = "unoarena.golden"
VERSION = 1
#: View keys that depend on the seat; the rest is the same in every seat's view.
PRIVATE_KEYS = ("seat", "hand", "drawn", "legal", "seen", "give_left")

#: (preset, players, seed, overrides): every preset with 2 and 4 players, and a few house-rule
#: tables whose windows and effects the presets alone do not reach.
GAMES: list[tuple[str, int, int, dict[str, Any]]] = [
    ("classic", 2, 1, {}),
    ("classic", 4, 2, {}),
    ("buzz", 2, 1, {}),
    ("buzz", 4, 2, {}),
    ("frozen2", 2, 1, {}),
    ("frozen2", 4, 2, {}),
    ("house", 2, 1, {}),
    ("house", 4, 2, {}),
    ("attack", 2, 1, {}),
    ("attack", 4, 5, {}),  # single and multiple discard-alls, an attack-attack, a catch
    ("classic", 4, 3, {"stacking": "draw2", "draw4_on_draw2": True, "jump_in": True}),
    # looks, swaps, seven-zero, sum jump-ins and double plays
    ("house", 4, 5, {"seven_zero": True, "wild_powers": True, "sum_jump_in": "any_color",
                     "double_play": True}),
    ("house", 4, 6, {"teams": 2, "jump_in": True, "number_finish": True}),
]
MAX_PLIES = 400


def file_name(name: str, players: int, seed: int) -> str:
    """The file of one golden game in the golden folder."""
    return f"{name}_{players}p_seed{seed}.json"


# -- compact views (shared with tests/test_golden.py) ---------------------------------------------
def snapshot(game: Game) -> dict[str, Any]:
    """Every seat's view, compacted without loss of what the test compares: the public part
    once, then per seat its hand (sorted, as one string) and its private keys; card and action
    lists are sorted so that an engine may list them in any order."""
    views = [game.view(s) for s in range(game.players)]
    public = {k: v for k, v in views[0].items() if k not in PRIVATE_KEYS}
    seats: list[dict[str, Any]] = []
    for s, v in enumerate(views):
        other = {k: x for k, x in v.items() if k not in PRIVATE_KEYS}
        if other != public:
            diff = sorted(k for k in set(public) | set(other) if public.get(k) != other.get(k))
            raise ValueError(f"the public part of view({s}) differs from view(0) in {diff}")
        p: dict[str, Any] = {"hand": " ".join(sorted(v["hand"]))}
        if v["drawn"]:
            p["drawn"] = sorted(v["drawn"])
        if v["legal"]:
            p["legal"] = sorted(v["legal"])
        if "give_left" in v:
            p["give_left"] = v["give_left"]
        p["seen"] = len(v["seen"])
        p["seen_new"] = v["seen"]
        seats.append(p)
    return {"public": public, "seats": seats}


def delta(prev: dict[str, Any] | None, cur: dict[str, Any]) -> dict[str, Any]:
    """What changed from ``prev`` to ``cur`` (everything when ``prev`` is None). Seen events
    are stored only as the new ones since the previous ply."""
    out: dict[str, Any] = {}
    pub_prev = prev["public"] if prev else {}
    pub = {k: v for k, v in cur["public"].items() if k not in pub_prev or pub_prev[k] != v}
    gone = sorted(k for k in pub_prev if k not in cur["public"])
    if pub:
        out["public"] = pub
    if gone:
        out["public_gone"] = gone
    seats: dict[str, Any] = {}
    for s, p in enumerate(cur["seats"]):
        q = prev["seats"][s] if prev else {"seen": 0}
        d: dict[str, Any] = {}
        for k in ("hand", "drawn", "legal", "give_left"):
            if p.get(k) != q.get(k):
                d[k] = p.get(k)
        if p["seen"] != q["seen"]:
            d["seen"] = p["seen_new"][q["seen"]:]
        if d:
            seats[str(s)] = d
    if seats:
        out["seats"] = seats
    return out


def undelta(prev: dict[str, Any] | None, d: dict[str, Any], players: int) -> dict[str, Any]:
    """Inverse of :func:`delta`: the compact state after ``d``, without ``seen_new`` lists
    (seen events are kept as ``seen_events``, the full list)."""
    public = dict(prev["public"]) if prev else {}
    public.update(d.get("public", {}))
    for k in d.get("public_gone", []):
        public.pop(k, None)
    seats = []
    for s in range(players):
        q = dict(prev["seats"][s]) if prev else {"seen_events": []}
        change = d.get("seats", {}).get(str(s), {})
        for k in ("hand", "drawn", "legal", "give_left"):
            if k in change:
                if change[k] is None:
                    q.pop(k, None)
                else:
                    q[k] = change[k]
        if "seen" in change:
            q["seen_events"] = [*q["seen_events"], *change["seen"]]
        seats.append(q)
    return {"public": public, "seats": seats}


def comparable(snap: dict[str, Any]) -> dict[str, Any]:
    """A live :func:`snapshot` in the form :func:`undelta` rebuilds."""
    seats = []
    for p in snap["seats"]:
        q = {k: v for k, v in p.items() if k not in ("seen", "seen_new")}
        q["seen_events"] = p["seen_new"]
        seats.append(q)
    return {"public": snap["public"], "seats": seats}


# -- playing and writing ---------------------------------------------------------------------------
def play(name: str, players: int, seed: int, overrides: dict[str, Any]) -> Game:
    """A seeded game: random legal actions biased to plays, with out-of-turn windows taken
    half the time. Ids are sorted first, so the game does not depend on the order in which
    the engine lists them."""
    rules = preset(name, players=players, **overrides)
    game = Game(rules, seed, seed % players)
    rng = random.Random(seed)
    acts = game.space.actions
    while not game.is_over and len(game.history) < MAX_PLIES:
        seats = sorted(game.window_seats())
        seat = rng.choice(seats) if seats and rng.random() < 0.5 else game.turn
        ids = sorted(game.legal_ids(seat))  # the same game whatever order the engine lists
        plays = [i for i in ids if acts[i].verb in ("play", "jump_in")]
        aid = rng.choice(plays) if plays and rng.random() < 0.85 else rng.choice(ids)
        game.step(aid, seat)
    return game


def build(name: str, players: int, seed: int, overrides: dict[str, Any]) -> dict[str, Any]:
    """The golden document of one game."""
    game = play(name, players, seed, overrides)
    record = game_record(game)
    replay = Game(game.rules, game.seed, game.dealer)
    plies: list[dict[str, Any]] = []
    prev: dict[str, Any] | None = None
    for seat, aid in [*game.history, (None, None)]:
        snap = snapshot(replay)
        ply: dict[str, Any] = {"views": delta(prev, snap)}
        if seat is not None:
            ply["legal"] = sorted(str(a) for a in replay.legal_actions(seat))
        plies.append(ply)
        prev = snap
        if seat is not None and aid is not None:
            replay.apply(aid, seat)
    assert replay == game
    outcome = game.outcome
    return {
        "format": FORMAT,
        "version": VERSION,
        "regenerate": "python scripts/make_golden.py",
        "record": record,
        "outcome": None if outcome is None else {
            "winner": outcome.winner, "reason": outcome.reason,
            "hand_points": list(outcome.hand_points), "scores": list(outcome.scores)},
        "plies": plies,
    }


def dumps(doc: dict[str, Any]) -> str:
    """JSON with one line per action and per ply, so that a diff shows what changed."""

    def line(x: Any) -> str:
        return json.dumps(x, sort_keys=True, separators=(",", ":"))

    record = dict(doc["record"])
    actions = record.pop("actions")
    out = ["{"]
    for k in sorted(doc):
        if k in ("record", "plies"):
            continue
        out.append(f" {json.dumps(k)}: {line(doc[k])},")
    out.append(' "record": {')
    for k in sorted(record):
        out.append(f"  {json.dumps(k)}: {line(record[k])},")
    out.append('  "actions": [')
    out.append(",\n".join(f"   {line(a)}" for a in actions))
    out.append("  ]")
    out.append(" },")
    out.append(' "plies": [')
    out.append(",\n".join(line(p) for p in doc["plies"]))
    out.append(" ]")
    out.append("}")
    return "\n".join(out) + "\n"


def main(golden: Path, argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` compare) every golden file in the folder ``golden``."""
    ap = argparse.ArgumentParser(description="Write the golden games in tests/golden/.")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if any golden file would change")
    args = ap.parse_args(argv)
    golden.mkdir(parents=True, exist_ok=True)
    wanted = set()
    changed = []
    total = 0
    for name, players, seed, overrides in GAMES:
        path = golden / file_name(name, players, seed)
        wanted.add(path.name)
        text = dumps(build(name, players, seed, overrides))
        json.loads(text)
        total += len(text)
        old = path.read_text() if path.exists() else None
        if old != text:
            changed.append(path.name)
            if not args.check:
                path.write_text(text)
    stale = sorted(p.name for p in golden.glob("*.json") if p.name not in wanted)
    for name in changed:
        print(("would change " if args.check else "wrote ") + name)
    for name in stale:
        print(f"not made by this script (remove it by hand if it is obsolete): {name}")
    print(f"{len(GAMES)} golden games, {total // 1024} KiB, {len(changed)} changed")
    return 1 if args.check and changed else 0
