"""Remote bots in the lab: ``unoarena tournament --remote`` seats programs that play over the
protocol beside the local bots, on the same duplicate deals, rated by openskill as always."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from sqlalchemy import select

from unoarena.cli import main
from unoarena.engine import preset
from unoarena.lab.common import LabError
from unoarena.lab.tournament import tournament
from unoarena.remote.lab import RemoteArena, parse_entrants
from unoarena.web.store import Store, matches

NODE_BOT = Path(__file__).resolve().parents[2] / "clients" / "node" / "uno-bot.mjs"


def test_a_remote_entrant_plays_every_deal_from_every_seat() -> None:
    rules = preset("classic", players=2)
    with RemoteArena({"far": "heuristic"}) as arena:
        result = tournament(rules, ["basic", "far"], 3, seed=5, play=arena.play_games,
                            external=["far"])
        store: Store = arena._app.state.store
        with store.reading() as conn:
            seeds = conn.execute(select(matches.c.seed)).scalars().all()
    assert result.engine == "server"
    far = next(s for s in result.standings if s.name == "far")
    assert far.games == 3 * 2 and far.seat_games == [3, 3]  # every deal from both seats
    assert sum(s.wins for s in result.standings) + result.void == 6
    assert far.rating.sigma < 25 / 3  # rated: uncertainty came down from the prior
    # duplicate deals: the two seatings of each deal were dealt the same cards
    assert sorted(Counter(g.deal for g in result.games).values()) == [2, 2, 2]
    assert len(seeds) == 6 and sorted(Counter(seeds).values()) == [2, 2, 2]


def test_the_command_line_rates_remote_entrants(capsys: pytest.CaptureFixture[str]) -> None:
    entrants = ["--remote", "far=heuristic"]
    if shutil.which("node"):  # a program of another language, started for each game
        entrants += ["--remote", f"js=node {NODE_BOT} {{url}} --token {{token}}"]
    code = main(["tournament", "--bots", "basic", *entrants, "--games", "1", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    names = {s["name"] for s in out["standings"]}
    assert {"basic", "far"} <= names
    assert all(s["games"] > 0 for s in out["standings"])


def test_bad_remote_entrants_are_refused_before_any_game() -> None:
    with pytest.raises(LabError, match="NAME=COMMAND"):
        parse_entrants(["no-equals-sign"], [])
    with pytest.raises(LabError, match="already an entrant"):
        parse_entrants(["basic=heuristic"], ["basic"])
    with pytest.raises(LabError, match="unknown bot"):
        parse_entrants(["far=nosuchbot"], [])
    assert parse_entrants(["js=node bot.mjs {url} --token {token}"], []) == {
        "js": "node bot.mjs {url} --token {token}"}
