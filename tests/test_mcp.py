"""``unoarena mcp``: AI clients play whole matches through the MCP tools, with the SDK's own
client, seeing only their own seat; refused calls say why and change nothing."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP server needs the 'mcp' extra")

from mcp import Client, StdioServerParameters

from unoarena.cli import main
from unoarena.mcp.games import DECLINE, Games
from unoarena.mcp.server import build_server

COLOURS = ("red", "yellow", "green", "blue", "purple")


def run(fn: Callable[[Client, Games], Awaitable[None]]) -> None:
    """``fn(client, games)`` with the SDK's client connected in-process to a fresh server."""
    games = Games()

    async def go() -> None:
        async with Client(build_server(games)) as client:
            await fn(client, games)
    asyncio.run(go())


async def call(client: Client, tool: str, **args: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, args)
    assert not result.is_error, result.content
    out: dict[str, Any] = result.structured_content or {}
    return out


async def refused(client: Client, tool: str, **args: Any) -> str:
    result = await client.call_tool(tool, args)
    assert result.is_error
    text: str = result.content[0].text  # type: ignore[union-attr]
    return text


async def play_to_the_end(client: Client, games: Games, rng: random.Random,
                          **start: Any) -> tuple[dict[str, Any], list[str], set[str]]:
    """A scripted agent: starts a match and plays a random option until the match is over,
    checking at every step that what it reads is its own seat's. Returns the last state, the
    narration it read and the verbs it was offered."""
    state = await call(client, "start_game", **start)
    gid = state["game"]
    lines = list(state["new_lines"])
    verbs: set[str] = set()
    for _step in range(5000):
        if state["over"]:
            break
        game = games.get(gid)
        seat = state["you"]["seat"]
        assert seat is not None and seat == game.table.seat_of(0)
        assert state["view"] == json.loads(json.dumps(game.table.game.view(seat)))
        assert state["view"]["seat"] == seat
        options = state["options"]
        assert options and all(o["description"] for o in options)
        listed = await call(client, "legal_actions", game=gid)
        assert listed["options"] == options
        pick = rng.choice(options)
        verbs.add(pick["action"].split()[0])
        state = await call(client, "play_action", game=gid, action=pick["action"])
        lines += state["new_lines"]
    assert state["over"] and state["winners"] and state["options"] == []
    log = await call(client, "read_log", game=gid)
    assert log["lines"] == lines and log["next"] == len(lines)
    return state, lines, verbs


def test_a_scripted_agent_plays_whole_matches_to_the_end() -> None:
    async def fn(client: Client, games: Games) -> None:
        tools = {t.name for t in (await client.list_tools()).tools}
        assert {"list_rule_sets", "explain_rules", "start_game", "get_view", "legal_actions",
                "play_action", "read_log", "end_game"} <= tools
        seen: set[str] = set()
        for i, (preset, players, rules) in enumerate([
                ("classic", 2, {"rounds": 2}), ("house", 4, {"rounds": 1, "jump_in": True}),
                ("attack", 3, {"rounds": 1}), ("frozen2", 5, {"rounds": 1})]):
            state, lines, verbs = await play_to_the_end(
                client, games, random.Random(i), preset=preset, players=players, rules=rules,
                seed=i, bots=["basic"] if i % 2 else None)
            seen |= verbs
            assert len(state["rounds"]) == rules["rounds"]
            assert state["match_scores"] == state["rounds"][-1]["match_scores"]
            assert any("wins the round" in line or "round" in line for line in lines)
            assert len(state["players"]) == players
        assert {"play", "draw"} <= seen
        assert DECLINE in seen  # jump-in chances were offered and let pass
    run(fn)


def test_the_agent_reads_only_its_own_seat() -> None:
    async def fn(client: Client, games: Games) -> None:
        state, lines, _verbs = await play_to_the_end(client, games, random.Random(7),
                                                     players=4, seed=11, rules={"rounds": 1})
        me = state["you"]["name"]
        others = [p["name"] for p in state["players"] if p["name"] != me]
        for line in lines:  # another player's draws are counted, never shown
            for name in others:
                for colour in COLOURS:
                    assert not line.startswith(f"{name} drew {colour}"), line
        view = state["view"]
        assert "hands" not in view and set(view["hand_sizes"]) and "hand" in view
        assert len(state["hand_in_words"]) == len(view["hand"])
    run(fn)


def test_a_player_put_out_sees_no_hand() -> None:
    async def fn(client: Client, games: Games) -> None:
        state, _lines, _verbs = await play_to_the_end(
            client, games, random.Random(7), players=4, seed=7,
            rules={"elimination": "cards"})
        assert games.get(state["game"]).table.match.seat_of[0] == -1  # South was put out
        assert state["you"]["seat"] is None
        assert state["view"]["seat"] is None and state["view"]["hand"] == []
        assert state["hand_in_words"] == [] and state["options"] == []
    run(fn)


def test_rules_are_listed_and_explained_with_house_rules() -> None:
    async def fn(client: Client, games: Games) -> None:
        sets = await call(client, "list_rule_sets")
        assert {p["name"] for p in sets["presets"]} >= {"classic", "house", "attack"}
        assert {"basic", "heuristic"} <= {b["name"] for b in sets["bots"]}
        one = await call(client, "explain_rules", key="stacking", rules={"stacking": "draw2"})
        assert one["rules"][0]["value"] == "draw2" and "HR-STACK" in one["rules"][0][
            "explanation"]
        every = await call(client, "explain_rules", preset="attack")
        assert len(every["rules"]) > 40
        state = await call(client, "start_game", preset="house", players=3,
                           rules={"seven_zero": True, "stacking": "draw2"}, seed=3)
        assert games.get(state["game"]).table.rules.seven_zero
    run(fn)


def test_refused_calls_say_why_and_change_nothing() -> None:
    async def fn(client: Client, games: Games) -> None:
        state = await call(client, "start_game", players=3, seed=5)
        gid = state["game"]
        assert "allowed attack, buzz, classic" in await refused(client, "start_game",
                                                                preset="nope")
        assert "stacking" in await refused(client, "start_game", rules={"stackin": "draw2"})
        assert "from 2 to 10" in await refused(client, "start_game", players=11)
        assert "available bots are" in await refused(client, "start_game", bots=["zzz"])
        assert "one bot for every other place (2)" in await refused(
            client, "start_game", players=3, bots=["basic"] * 3)
        assert "no game" in await refused(client, "get_view", game="nope")
        before = await call(client, "get_view", game=gid)
        allowed = ", ".join(o["action"] for o in state["options"])
        text = await refused(client, "play_action", game=gid, action="play Z9")
        assert "is not one of your actions now" in text and allowed in text
        assert await call(client, "get_view", game=gid) == before
        assert "at most 200 characters" in await refused(client, "play_action", game=gid,
                                                         action="play R5 " * 100)
        assert "from 0 to" in await refused(client, "start_game", seed=-1)
        assert "since must be 0 or more" in await refused(client, "read_log", game=gid,
                                                          since=-1)
        assert await call(client, "get_view", game=gid) == before
        assert len(games.games) == 1
        await call(client, "end_game", game=gid)
        assert "no game" in await refused(client, "legal_actions", game=gid)
    run(fn)


def test_calls_at_once_on_one_game_play_one_move_each() -> None:
    async def fn(client: Client, games: Games) -> None:
        state = await call(client, "start_game", players=3, seed=9)
        gid, pick = state["game"], state["options"][0]["action"]
        results = await asyncio.gather(*(client.call_tool(
            "play_action", {"game": gid, "action": pick}) for _ in range(8)))
        ok = [r for r in results if not r.is_error]
        assert ok  # the first is played; the rest are played or refused, one at a time
        for r in results:
            if r.is_error:
                assert "is not one of your actions now" in r.content[0].text  # type: ignore
        after = await call(client, "get_view", game=gid)  # the game is whole and goes on
        assert after["over"] or (await call(client, "legal_actions", game=gid))["options"]
    run(fn)


def test_actions_are_accepted_as_the_engine_writes_them() -> None:
    async def fn(client: Client, games: Games) -> None:
        state = await call(client, "start_game", players=2, seed=1)
        pick = state["options"][0]["action"]
        spaced = "  " + pick.replace(" ", "   ") + " "
        after = await call(client, "play_action", game=state["game"], action=spaced)
        assert after["new_lines"]
    run(fn)


def test_the_command_refuses_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mcp", "--transport", "http", "--port", "0"]) == 2
    assert "port" in capsys.readouterr().err


def _command(*extra: str) -> list[str]:
    return [sys.executable, "-c", "import sys; from unoarena.cli import main; "
            "sys.exit(main(sys.argv[1:]))", "mcp", *extra]


def test_over_stdio_a_desktop_client_plays() -> None:
    params = StdioServerParameters(command=_command()[0], args=_command()[1:],
                                   env={**os.environ, "PYTHONUNBUFFERED": "1"})

    async def go() -> None:
        async with Client(params) as client:
            state = await call(client, "start_game", players=2, seed=2)
            after = await call(client, "play_action", game=state["game"],
                               action=state["options"][0]["action"])
            assert after["game"] == state["game"]
    asyncio.run(go())


def test_over_streamable_http_a_client_plays() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(_command("--transport", "http", "--port", str(port)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "no server"
                time.sleep(0.1)

        async def go() -> None:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                sets = await call(client, "list_rule_sets")
                assert sets["presets"]
                state = await call(client, "start_game", players=3, seed=4)
                assert re.fullmatch(r"[\w-]{16}", state["game"])
        asyncio.run(go())
    finally:
        proc.terminate()
        proc.wait(10)


def test_the_latency_benchmark_times_every_tool(capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    from unoarena.testing import load_script
    bench = load_script(Path(__file__).resolve().parents[1] / "benchmarks" / "mcp_latency.py")
    assert bench.main(["--matches", "2", "--players", "3"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report["ms"]) == {"start_game", "get_view", "legal_actions", "play_action",
                                 "read_log", "end_game"}
    assert report["ms"]["start_game"]["calls"] == 2
    assert report["calls"] == sum(t["calls"] for t in report["ms"].values())
    assert 0 < report["all_p50_ms"] <= report["all_p99_ms"]
