"""Tournaments: the duplicate schedule, ratings, determinism across workers, the command."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from unoarena.cli import main
from unoarena.engine import preset
from unoarena.lab import tournament
from unoarena.lab.ratings import finishing_ranks, rate
from unoarena.lab.tournament import MAX_TABLES, TourJob, labels_for, schedule
from unoarena.text.i18n import set_language


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


def job_for(bots: int, players: int, deals: int = 4) -> TourJob:
    rules = preset("classic", players=players)
    return TourJob(rules.to_dict(), tuple(f"bot{i}" for i in range(bots)), 11, deals,
                   schedule(bots, players))


@pytest.mark.parametrize(("bots", "players"), [(2, 2), (3, 2), (3, 3), (5, 3), (4, 4),
                                               (12, 4), (9, 2)])
def test_every_bot_plays_every_deal_from_every_seat(bots: int, players: int) -> None:
    job = job_for(bots, players)
    balanced = not job.tables
    assert balanced == (bots == 12), "12 bots at 4 seats exceed MAX_TABLES: balanced"
    seen: dict[tuple[int, int], set[int]] = {}  # (deal, bot) -> seats it played from
    count: dict[tuple[int, int], int] = {}
    for g in range(job.games):
        deal, t, rot = job.locate(g)
        seats = job.seating(deal, t, rot)
        assert len(set(seats)) == players  # nobody sits twice at one table
        for seat, who in enumerate(seats):
            seen.setdefault((deal, who), set()).add(seat)
            count[(deal, who)] = count.get((deal, who), 0) + 1
    for deal in range(job.deals):
        for who in range(bots):
            assert seen[(deal, who)] == set(range(players)), (deal, who)
    # every bot plays every deal equally often
    assert len(set(count.values())) == 1
    assert job.games == job.deals * job.tables_per_deal * players


def test_schedule_shapes() -> None:
    assert schedule(3, 2) == ((0, 1), (0, 2), (1, 2))
    assert schedule(4, 4) == ((0, 1, 2, 3),)
    assert schedule(12, 4) == ()  # C(12, 4) = 495 > MAX_TABLES
    assert MAX_TABLES >= 45  # ten bots in pairs still get every pairing
    with pytest.raises(ValueError, match="at least as many bots as seats"):
        schedule(2, 3)
    job = job_for(3, 3, deals=2)  # three seats: odd deals seat the bots the other way round
    assert job.table(0, 0) == (0, 1, 2) and job.table(1, 0) == (0, 2, 1)


def test_finishing_ranks_and_ratings() -> None:
    assert finishing_ranks(2, [30, 0, 0, 30]) == [2, 1, 0, 2]
    assert finishing_ranks(0, [0, 5]) == [0, 1]
    ratings = rate(2, [((0, 1), (0, 1))] * 10)
    assert ratings[0].ordinal > ratings[1].ordinal and ratings[0].mu > 25 > ratings[1].mu
    assert labels_for(["basic", "random", "basic"]) == ["basic#1", "random", "basic#2"]


def test_basic_rates_above_random() -> None:
    result = tournament(preset("classic", players=2), "random,basic", 30, seed=4)
    first, second = result.standings
    assert first.name == "basic" and second.name == "random"
    assert first.win_rate > 0.7 and first.win_ci[0] > second.win_ci[1]
    assert first.rating.ordinal > second.rating.ordinal
    assert first.games == second.games == 60  # 30 deals, both seats each
    assert first.seat_games == [30, 30]


def test_tournament_workers_give_identical_results() -> None:
    rules = preset("house", players=3)
    one = tournament(rules, "basic,random,random:decline=0,basic", 3, seed=2, workers=1)
    two = tournament(rules, "basic,random,random:decline=0,basic", 3, seed=2, workers=2)
    assert one.games == two.games
    da, db = one.to_dict(), two.to_dict()
    da.pop("elapsed_s")
    db.pop("elapsed_s")
    assert da == db
    assert da["games"] == 3 * 4 * 3 and da["schedule"] == "all_tables"


def test_tournament_command(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["tournament", "--bots", "basic,random,random:decline=0", "--players", "2",
               "--games", "5", "--seed", "1", "--json"])
    out, err = capsys.readouterr()
    assert rc == 0 and err == ""
    d = json.loads(out)
    assert d["command"] == "tournament" and d["games"] == 5 * 3 * 2 and d["deals"] == 5
    assert d["tables"] == [[0, 1], [0, 2], [1, 2]]
    ords = [s["rating"]["ordinal"] for s in d["standings"]]
    assert ords == sorted(ords, reverse=True)
    assert [s["rank"] for s in d["standings"]] == [1, 2, 3]
    for s in d["standings"]:
        assert s["games"] == 20 and s["win_ci"][0] <= s["win_rate"] <= s["win_ci"][1]
    rc = main(["tournament", "--bots", "basic,random", "--games", "4", "--rules", "attack"])
    out, _err = capsys.readouterr()
    assert rc == 0
    assert "Tournament: attack, tables of 2" in out and "4 deals × 1 tables × 2 seatings" in out
    assert "rating" in out and "95% interval" in out


@pytest.mark.parametrize(("args", "named"), [
    (["--bots", "basic,random", "--players", "3"], "at least as many bots as seats"),
    (["--bots", "basic,wizard"], "unknown bot 'wizard'"),
    (["--bots", "basic,random", "--set", "stacking=up"], "stacking"),
])
def test_tournament_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], args: list[str],
                                        named: str) -> None:
    rc = main(["tournament", "--games", "1", *args])
    out, err = capsys.readouterr()
    assert rc == 2 and out == "" and named in err, err


def test_tournament_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "plots"
    rc = main(["tournament", "--bots", "basic,random", "--games", "3", "--plot", str(out)])
    _out, err = capsys.readouterr()
    assert rc == 0 and "tournament.png" in err
    assert (out / "tournament.png").read_bytes().startswith(b"\x89PNG")
