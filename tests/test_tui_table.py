"""The table as a person sees it, driven by keys at 160×48 and 80×24: players around the
table, the top card in the middle, the log at the side, dialogs that leave the hand in view,
one message at a time, the round summary's keys, quitting that saves, the help and the
scoreboard."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.containers import Vertical

from unoarena.engine import preset
from unoarena.testing.tui import exact_table, register_forgetful, run, screen_text, settle
from unoarena.tui.app import UnoApp
from unoarena.tui.dialogs import ChoiceDialog, HelpScreen, RoundSummaryScreen, ScoresScreen
from unoarena.tui.session import Table, Timing, default_players
from unoarena.tui.table_screen import TableScreen

SIZES = [(160, 48), (80, 24)]
#: Bots that think for longer than any test lasts: nothing moves unless a key says so.
SLOW = Timing(move=60.0, catch=60.0, window=60.0, other=60.0)


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNOARENA_HOME", str(tmp_path))


def _drive(table: Table, script: Any, size: tuple[int, int] = (120, 40), *,
           toasts: bool = False) -> Any:
    app = UnoApp(table=table)

    async def go() -> Any:
        async with app.run_test(size=size, notifications=toasts) as pilot:
            await settle(pilot, app)
            return await script(pilot, app)

    return run(go())


def _table_screen(app: UnoApp) -> TableScreen:
    ts = app.table_screen
    assert ts is not None
    return ts


@pytest.mark.parametrize("size", SIZES)
def test_players_sit_around_the_table(size: tuple[int, int]) -> None:
    """West on the left, North across, East on the right, the viewer at the bottom, the top
    card large in the middle; the log is a side panel, not most of the screen."""
    table = exact_table("classic", {0: ["R1", "R2"], 1: ["G1", "G2", "G3"],
                                    2: ["B1", "B2", "B3", "B4"], 3: ["Y1"]},
                        top=["R5"], players=4)

    async def script(pilot: Any, app: UnoApp) -> None:
        ts = _table_screen(app)
        pile = ts.query_one("#pile").region
        west, north, east = (ts.query_one(f"#slot-{i}").region for i in range(3))
        me = ts.query_one("#me").region
        assert west.right <= pile.x and east.x >= pile.right
        assert north.bottom <= pile.y + 1 and me.y >= pile.bottom - 1
        for seat, region in ((1, west), (2, north), (3, east)):
            text = str(ts.seat_text(seat))
            assert ts.table.name(seat) in text
            assert region.width > 0 and app.screen.region.contains_region(region)
        assert "3" in str(ts.seat_text(1)) and "▮▮▮" in str(ts.seat_text(1))
        assert "South (you)" in str(ts.seat_text(0, line=True))
        side = ts.query_one("#side").region
        assert side.width <= 0.4 * size[0]
        text = screen_text(app)
        assert "R5" in text and "North" in text and "East" in text and "West" in text

    _drive(table, script, size)


def test_open_hands_lie_face_up_around_the_table() -> None:
    """HR-OPEN: an opponent down to the limit shows its cards; a larger hand shows backs."""
    table = exact_table("classic", {0: ["R1", "R2"], 1: ["G1", "G2", "G3"],
                                    2: ["B1", "B2", "B3", "B4"], 3: ["Y1"]},
                        top=["R5"], players=4, open_hands=3)

    async def script(pilot: Any, app: UnoApp) -> None:
        ts = _table_screen(app)
        west, north, east = (str(ts.seat_text(s)) for s in (1, 2, 3))
        assert "G1" in west and "G3" in west and "▮" not in west
        assert "Y1" in east
        assert "B1" not in north and "▮▮▮" in north
        assert "R1" not in str(ts.seat_text(0, line=True))  # the own hand is below, as always

    _drive(table, script)


def test_round_ends_when_its_time_runs_out() -> None:
    """HR-BLITZ: once the round's clock passes, the fewest points in hand win the round and
    the summary says the time is up."""
    table = exact_table("classic", {0: ["R1", "R2"], 1: ["G1", "G2", "G3"],
                                    2: ["B1", "B2", "BS", "B4"], 3: ["Y9", "Y8"]},
                        top=["R5"], players=4, blitz=60)

    async def script(pilot: Any, app: UnoApp) -> None:
        ts = _table_screen(app)
        assert not table.game.is_over and ts._round_end is not None
        ends = ts._round_end[1]
        ts.now = lambda: ends - 42.5  # the table's clock, 17.5 s into the round
        assert "round ends in 42 s" in ts.prompt_text()
        ts._tick()
        assert not table.game.is_over
        ts.now = lambda: ends + 0.1  # the minute is over
        ts._tick()
        await settle(pilot, app)
        out = table.game.outcome
        assert out is not None and out.reason == "time" and out.winner == 0
        assert "Time is up" in screen_text(app)

    _drive(table, script, SIZES[0])


def test_a_player_put_out_leaves_the_table() -> None:
    """HR-ELIM: the round summary says who is out, and the next round is dealt at a smaller
    table whose empty place is drawn blank."""
    table = exact_table("classic", {0: ["R1"], 1: ["G1", "G2", "G3"], 2: ["B1", "B2"],
                                    3: ["Y1", "Y2"]}, top=["R5"], players=4,
                        elimination="cards")

    async def script(pilot: Any, app: UnoApp) -> None:
        await pilot.press("1")
        await settle(pilot, app)
        assert isinstance(app.screen, RoundSummaryScreen)
        assert "West is out of the match." in screen_text(app)
        await pilot.press("enter")
        await settle(pilot, app)
        ts = _table_screen(app)
        assert table.round_no == 2 and table.game.players == 3
        assert "West" not in " ".join(str(ts.query_one(f"#slot-{i}").render()) for i in range(3))

    _drive(table, script, SIZES[0])


def test_ten_players_all_on_screen_at_80_by_24() -> None:
    rules = preset("classic", players=10)
    table = Table(rules, default_players(rules, "basic"), 4, timing=SLOW)

    async def script(pilot: Any, app: UnoApp) -> None:
        ts = _table_screen(app)
        for j in range(9):
            region = ts.query_one(f"#slot-{j}").region
            assert app.screen.region.contains_region(region), (j, region)
            assert region.height == 3
        text = screen_text(app)
        for n in range(2, 11):
            assert f"Player {n}" in text

    _drive(table, script, (80, 24))


@pytest.mark.parametrize("size", SIZES)
def test_colour_is_chosen_with_the_hand_in_view(size: tuple[int, int]) -> None:
    table = exact_table("classic", {0: ["W", "R1", "G2"], 1: ["G1", "G3", "B3"]},
                        top=["B5"], players=2)

    async def script(pilot: Any, app: UnoApp) -> None:
        await pilot.press("3")  # R1 G2 W
        await settle(pilot, app)
        dlg = app.screen
        assert isinstance(dlg, ChoiceDialog) and dlg.kind == "color"
        box = dlg.query_one(Vertical).region
        hand = _table_screen(app).query_one("#hand").region
        assert not box.overlaps(hand), (box, hand)  # the real hand shows under the dialog
        text = screen_text(app)
        assert "Your hand:" in text and all(c in text for c in ("R1", "G2", "W"))
        await pilot.press("g")
        await settle(pilot, app)

    _drive(table, script, size)
    assert table.game.color == 2


def test_challenge_shows_the_colour_that_was_in_force() -> None:
    register_forgetful()
    table = exact_table("classic", {0: ["R1", "R2", "Y3"], 1: ["W4", "G2", "G3"]},
                        top=["G5"], turn=1, bots="forgetful", players=2)

    async def script(pilot: Any, app: UnoApp) -> str:
        dlg = app.screen
        assert isinstance(dlg, ChoiceDialog) and dlg.kind == "challenge"
        text = screen_text(app)
        await pilot.press("x")
        await settle(pilot, app)
        return text

    text = _drive(table, script, (80, 24))
    assert "Colour in force before it: ■ green (on green 5)" in text
    assert "A bluff if North held a green card." in text
    assert "Your hand:" in text and "R1" in text


@pytest.mark.parametrize("key", ["escape", "enter", "q"])
def test_round_summary_closes_with_esc_enter_and_q(key: str, tmp_path: Path) -> None:
    """Esc and Enter go on to the next round; q goes on and quits, saving the match."""
    table = exact_table("classic", {0: ["R1"], 1: ["G1", "G2", "W"]}, top=["R5"],
                        players=2, target_score=1000)

    async def script(pilot: Any, app: UnoApp) -> None:
        await pilot.press("1")
        await settle(pilot, app)
        assert isinstance(app.screen, RoundSummaryScreen)
        await pilot.press(key)
        await settle(pilot, app)
        assert not isinstance(app.screen, RoundSummaryScreen)
        if key != "q":
            assert app.table_screen is not None and table.round_no == 2

    app_saved = _drive(table, script)
    del app_saved
    assert table.match.rounds_played == 1
    saves = list((tmp_path / "saves").glob("*.json"))
    assert bool(saves) == (key == "q")


@pytest.mark.parametrize("key", ["ctrl+q", "ctrl+c", "q"])
def test_quitting_keys_save_the_match(key: str, tmp_path: Path) -> None:
    table = exact_table("classic", {0: ["R1", "R2"], 1: ["G1", "G2"]}, top=["R5"], players=2)
    app = UnoApp(table=table)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press(key)
            await pilot.pause()

    run(go())
    assert app.saved_on_quit and Path(app.saved_on_quit).exists()


def _help_text(rules_name: str, size: tuple[int, int] = (100, 40), **over: Any) -> str:
    table = exact_table(rules_name, {0: ["R5", "G1"], 1: ["B1", "B2"]}, top=["R2"], players=2,
                        **over)

    async def script(pilot: Any, app: UnoApp) -> str:
        await pilot.press("f1")
        await settle(pilot, app)
        assert isinstance(app.screen, HelpScreen)
        return screen_text(app)

    return str(_drive(table, script, size))


def test_help_starts_with_the_keys_of_this_edition() -> None:
    attack = _help_text("attack")
    classic = _help_text("classic")
    house = _help_text("house", seven_zero=True, wild_powers=True, jump_in=True)
    for text in (attack, classic, house):
        assert text.index("Keys") < text.index("Rules of this game")
    assert "x: challenge" not in attack and "press the launcher" in attack
    assert "Several cards at once" in attack and "Wild Attack-Attack names a colour" in attack
    assert "x: challenge a Wild Draw Four" in classic and "launcher" not in classic.split(
        "Rules of this game")[0]
    assert "Targets: a 7 swaps hands" in house and "Jump-in: when one of your cards" in house
    assert "rule book 000" in classic and "seed 000" not in classic


def test_silent_uno_hides_the_uno_button_and_keys() -> None:
    """HR-SILENT: with nobody calling UNO the table offers no UNO button, u arms nothing and the
    key hints leave out UNO and catching."""
    def table(**over: Any) -> Table:
        return exact_table("classic", {0: ["R5", "G1"], 1: ["B1", "B2"]}, top=["R2"], players=2,
                           **over)

    async def script(pilot: Any, app: UnoApp) -> tuple[bool, bool, str]:
        from unoarena.tui.table_screen import ActionButton

        ts = _table_screen(app)
        await pilot.press("u")
        await settle(pilot, app)
        shown = ts.query_one("#btn-uno", ActionButton).display
        return shown, ts.uno_armed, screen_text(app)

    shown, armed, text = _drive(table(silent_uno=True), script)
    assert not shown and not armed and "u UNO" not in text and "c catch" not in text
    shown, armed, text = _drive(table(), script)
    assert shown and armed and "UNO! [u]" in text  # the hint leaves out keys on buttons
    assert "u: call UNO" not in _help_text("classic", silent_uno=True)
    assert "u: call UNO" in _help_text("classic")


def test_end_reaches_the_bottom_of_the_help() -> None:
    table = exact_table("attack", {0: ["R5", "G1"], 1: ["B1", "B2"]}, top=["R2"], players=2)

    async def script(pilot: Any, app: UnoApp) -> tuple[str, str]:
        await pilot.press("question_mark")
        await settle(pilot, app)
        top = screen_text(app)
        await pilot.press("end")
        await pilot.pause()
        return top, screen_text(app)

    top, bottom = _drive(table, script, (80, 24))
    assert "launcher_max_dry" not in top
    assert "launcher_max_dry = 4" in bottom


def test_one_message_at_a_time_and_the_prompt_stays() -> None:
    """Two refused cards: the second message replaces the first; the turn prompt is still
    there, and the message names the card, not a seat number."""
    table = exact_table("classic", {0: ["B1", "B2", "R3"], 1: ["G1", "G2", "G3"]},
                        top=["R5"], players=2)

    async def script(pilot: Any, app: UnoApp) -> None:
        ts = _table_screen(app)
        await pilot.press("1")
        await settle(pilot, app)
        first = ts.last_toast
        await pilot.press("2")
        await settle(pilot, app)
        assert len(app._notifications) == 1  # one toast, not two piled up
        assert ts.last_toast != first and "B2" in ts.last_toast
        await pilot.pause()
        toasts = list(app.screen.query("Toast"))
        hand = ts.query_one("#hand").region
        assert len(toasts) == 1 and not toasts[0].region.overlaps(hand)  # not over the hand
        assert "Your turn" in ts.prompt_text()
        assert "Your turn" in screen_text(app)

    _drive(table, script, (80, 24), toasts=True)


def test_refusals_name_players_not_seats() -> None:
    table = exact_table("classic", {0: ["R1", "R2"], 1: ["G1", "G2"], 2: ["B1", "B2"]},
                        top=["G5"], turn=1, players=3)
    table.timing = SLOW

    async def script(pilot: Any, app: UnoApp) -> str:
        await pilot.press("d")  # not South's turn
        await settle(pilot, app)
        return _table_screen(app).last_toast

    text = _drive(table, script)
    assert "North-West" in text and "seat " not in text


def test_header_team_names_and_scoreboard_of_every_round() -> None:
    """jump_in=on in the header; team names whole; F2 shows every round, End and Home reach
    the last and the first."""
    rules = preset("house", players=4, teams=2, jump_in=True, target_score=100_000)
    table = Table(rules, default_players(rules, "basic", people=0), 6, timing=Timing.zero())
    for _i in range(30):  # thirty rounds played out at once: every seat is a bot
        while (d := table.next_decision()) is not None and d.action is not None:
            table.apply(d.seat, d.action)
        table.finish_round()
    table.timing = SLOW

    async def script(pilot: Any, app: UnoApp) -> tuple[str, str, str, str]:
        main = screen_text(app)
        scores = str(_table_screen(app).query_one("#scores").render())
        await pilot.press("f2")
        await settle(pilot, app)
        assert isinstance(app.screen, ScoresScreen)
        await pilot.press("end")
        await pilot.pause()
        end = screen_text(app)
        await pilot.press("home")
        await pilot.pause()
        return main, scores, end, screen_text(app)

    main, _scores, end, home = _drive(table, script, (80, 24))
    assert "jump_in=on" in main and "True" not in main.splitlines()[0]
    assert "R30" in end and "R1 " not in end
    assert "R1 " in home
    side = main.replace("│", " ")
    for word in ("Team", "1", "(South,", "North)", "(West,", "East)"):
        assert word in side


def _unplayable(n: int) -> list[str]:
    """``n`` red and yellow cards that do not fit a green 5 (they sort before blue)."""
    cards = [f"{c}{k}" for c in "RY" for k in (1, 2, 3, 4, 6, 7, 8, 9) for _twice in "ab"]
    return cards[:n]


def test_hands_past_27_cards_play_by_key() -> None:
    """A hand of 30 cards: the 28th card has the key B (Shift+b); at 80×24 the hand shows the
    rows around the cursor and says how many cards are out of sight."""
    table = exact_table("classic", {0: [*_unplayable(29), "B5"], 1: ["G1", "G2"]},
                        top=["G5"], players=2, hand_size=30)

    async def script(pilot: Any, app: UnoApp) -> str:
        ts = _table_screen(app)
        codes = ts.hand_codes()
        assert len(codes) == 30
        text = screen_text(app)
        idx = codes.index("B5")
        assert idx == 29
        for _i in range(idx):
            await pilot.press("right")
        await pilot.pause()
        assert "[" + "1234567890befghijkmnortvwyzBEFGHIJKMNORTVWYZ"[idx] + "]" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot, app)
        return text

    text = _drive(table, script, (80, 24))
    assert "more cards out of sight" in text
    assert "B5" not in table.game.view(0)["hand"]


def test_shift_letter_plays_the_28th_card() -> None:
    table = exact_table("classic", {0: [*_unplayable(27), "B5"], 1: ["G1", "G2"]},
                        top=["G5"], players=2, hand_size=28)

    async def script(pilot: Any, app: UnoApp) -> None:
        ts = _table_screen(app)
        assert ts.hand_codes()[27] == "B5"
        await pilot.press("B")
        await settle(pilot, app)

    _drive(table, script, (160, 48))
    assert "B5" not in table.game.view(0)["hand"]


def test_launcher_penalty_is_one_line_in_the_log() -> None:
    register_forgetful()
    table = exact_table("attack", {0: ["R1", "R2", "R3"], 1: ["WA", "G2", "G3"]},
                        top=["G5"], turn=1, bots="forgetful", players=2)

    async def script(pilot: Any, app: UnoApp) -> str:
        await settle(pilot, app)
        await pilot.press("d")  # take the Wild Attack-Attack's presses
        await settle(pilot, app)
        return screen_text(app)

    _drive(table, script, (160, 48))
    lines = [line for e in table.log for line in e.render(0)]
    took = [line for line in lines if "took the penalty" in line]
    assert len(took) == 1 and "presses the launcher" in took[0] and " times: " in took[0]


def test_every_round_says_what_the_first_card_did() -> None:
    table = exact_table("classic", {0: ["R1"], 1: ["G1", "G2", "W"]}, top=["R5"],
                        players=2, target_score=1000)

    async def script(pilot: Any, app: UnoApp) -> str:
        await pilot.press("1")
        await settle(pilot, app)
        await pilot.press("enter")
        await settle(pilot, app)
        return screen_text(app)

    _drive(table, script, (160, 48))
    lines = [line for e in table.log for line in e.render(0)]
    start = lines[lines.index("— Round 2 —") + 1:][:3]
    assert any("was turned over to start the discard pile" in line for line in start)
    assert any("plays first" in line or "names its colour" in line for line in start)
