"""Hot-seat play: a hand-over screen between people hides the last hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from unoarena.testing.tui import exact_table, run, screen_text, settle
from unoarena.tui.app import UnoApp
from unoarena.tui.dialogs import HandoverScreen
from unoarena.tui.session import HUMAN, Player, Table, Timing
from unoarena.tui.table_screen import TableScreen

#: Bots that wait long enough for the people at the terminal to act first.
SLOW_BOTS = Timing(move=30.0, catch=30.0, window=30.0, other=30.0)


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNOARENA_HOME", str(tmp_path))


def test_handover_hides_the_last_hand() -> None:
    table = exact_table("classic", {0: ["R1", "R2", "R3"], 1: ["G7", "G8", "R4"],
                                    2: ["B1", "B2", "B3"]},
                        top=["R5"], players=3, people=2)

    async def go() -> None:
        app = UnoApp(table=table)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            # the first person is asked to take the terminal before any hand shows
            assert isinstance(app.screen, HandoverScreen)
            assert "Pass the terminal to South" in screen_text(app)
            await pilot.press("enter")
            await settle(pilot, app)
            assert isinstance(app.screen, TableScreen)
            text = screen_text(app)
            assert "Your hand (South)" in text and "R1" in text
            await pilot.press("1")  # South plays R1; North-West (a person) is next
            await settle(pilot, app)
            assert isinstance(app.screen, HandoverScreen)
            text = screen_text(app)
            assert "Pass the terminal to North-West" in text
            assert "Your hand" not in text and "R2" not in text and "G7" not in text
            await pilot.click("#ready")
            await settle(pilot, app)
            text = screen_text(app)
            assert "Your hand (North-West)" in text and "G7" in text and "R2" not in text
            ts = app.table_screen
            assert ts is not None and ts.viewer == 1

    run(go())


def test_private_lines_stay_with_their_player() -> None:
    table = exact_table("classic", {0: ["R1", "R2"], 1: ["G7", "G8"], 2: ["B1", "B2"]},
                        top=["Y5"], players=3, people=2, draw_pile=["Y9"])
    table.apply(0, "draw")  # South draws Y9: only South may read which card
    south = [line for e in table.log for line in e.render(0)]
    west = [line for e in table.log for line in e.render(1)]
    assert any("You drew yellow 9" in line for line in south)
    assert not any("yellow 9" in line for line in west)


def test_everyone_a_bot_is_watched() -> None:
    from unoarena.engine import preset
    rules = preset("classic", players=2, target_score=30)
    table = Table(rules, [Player("South", "bot", "basic"), Player("North", "bot", "basic")], 2,
                  timing=Timing.zero())

    async def go() -> None:
        app = UnoApp(table=table)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            ts = app.table_screen
            assert ts is not None and ts.viewer is None
            assert "Bots only" in ts.query_one("#hand").caption  # type: ignore[attr-defined]

    run(go())
    assert table.players[0].kind != HUMAN


def test_another_person_at_the_terminal_catches_a_forgotten_uno() -> None:
    """South plays down to one card without calling UNO; a bot is next and thinks. North-East,
    the other person at this terminal, presses c: the catch is theirs (UNO-2), South draws."""

    table = exact_table("classic", {0: ["R1", "R2"], 1: ["G7", "G8", "G9"],
                                    2: ["B1", "B2", "B3"]},
                        top=["R5"], players=3, people=1)
    table.players[2] = Player(table.players[2].name, HUMAN)  # seats 0 and 2 are people
    table.timing = SLOW_BOTS
    g = table.match.game

    async def go() -> None:
        app = UnoApp(table=table)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            if isinstance(app.screen, HandoverScreen):
                await pilot.press("enter")
                await settle(pilot, app)
            ts = app.table_screen
            assert ts is not None and ts.viewer_seat == 0
            await pilot.press("1")  # R1, UNO not armed
            await pilot.pause(0.1)
            assert g.uno_exposed == 0 and g.turn == 1
            text = screen_text(app)  # South's own screen: never "catch them"
            assert "You forgot UNO: press u now!" in text
            assert "Another person here may press c to catch you." in text
            assert "catch them" not in text
            await pilot.press("c")
            await pilot.pause(0.1)
            seat, aid = g.history[-1]
            assert seat == 2 and g.space.actions[aid].verb == "catch"
            assert len(g.hand(0)) == 1 + table.rules.uno_penalty

    run(go())


@pytest.mark.parametrize("north_west", [["G7", "G8", "G9"], ["G7", "G8"]])
def test_the_person_who_forgot_calls_uno_late_on_the_next_persons_screen(
        north_west: list[str]) -> None:
    """South plays down to one card without calling UNO; the terminal passes to North-West,
    another person. Before North-West acts, South may still shout UNO (UNO-2): u declares it
    for South. When North-West holds two cards, u could also mean North-West's own UNO for
    its next play, so a dialog asks which."""
    from textual.widgets import Button

    table = exact_table("classic", {0: ["R1", "R2"], 1: north_west, 2: ["B1", "B2", "B3"]},
                        top=["R5"], players=3, people=2)
    table.timing = SLOW_BOTS
    g = table.match.game

    async def go() -> None:
        app = UnoApp(table=table)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("enter")  # South takes the terminal
            await settle(pilot, app)
            await pilot.press("1")  # R1, UNO not armed: South is exposed
            await settle(pilot, app)
            assert isinstance(app.screen, HandoverScreen)
            await pilot.press("enter")  # North-West takes the terminal
            await settle(pilot, app)
            ts = app.table_screen
            assert ts is not None and ts.viewer_seat == 1 and g.uno_exposed == 0
            assert "South may still press u to call it." in screen_text(app)
            await pilot.press("u")
            await settle(pilot, app)
            if len(north_west) == 2:
                assert "Who calls UNO?" in screen_text(app)
                await pilot.click(next(b for b in app.screen.query(Button)
                                       if "calls UNO now" in str(b.label)))
                await settle(pilot, app)
            seat, aid = g.history[-1]
            assert seat == 0 and g.space.actions[aid].verb == "uno"
            assert g.uno_exposed is None and len(g.hand(0)) == 1 and g.turn == 1

    run(go())
