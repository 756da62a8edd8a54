"""Every screen fits 80×24 with 2 to 10 players in English, 繁體中文 and 简体中文: the table with
its seats, piles, status lines, prompt, hand, buttons and key hint; the round summary and the
match result with their buttons; the new-game screen's Start button and key hint. Below 80×24
a message says the size needed. The large pile cards are painted whole and grow with the
terminal; the log rewraps when the terminal is resized, never scrolls sideways, and breaks
Chinese lines between characters, not at the spaces around names."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from rich.text import Text
from textual.widgets import Static

from unoarena.engine import preset
from unoarena.testing.tui import (
    exact_table,
    finish_match,
    inside,
    painted,
    region_text,
    register_forgetful,
    run,
    screen_text,
    settle,
)
from unoarena.text.i18n import set_language
from unoarena.tui.app import UnoApp
from unoarena.tui.cards import FACE
from unoarena.tui.dialogs import MatchResultScreen, RoundSummaryScreen
from unoarena.tui.newgame import NewGameScreen
from unoarena.tui.session import Table, Timing, default_players
from unoarena.tui.table_screen import TableScreen

LANGS = ("en", "zh_TW", "zh_CN")


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNOARENA_HOME", str(tmp_path))


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _hands(players: int, last: str, colors: str = "RYGB") -> dict[int, list[str]]:
    """Five different cards a seat, the last seat (the one before South) holding ``last``."""
    pool = [f"{c}{n}" for n in range(1, 10) for c in colors] * 2
    hands = {s: pool[5 * s:5 * s + 5] for s in range(players)}
    hands[players - 1] = [last, *hands[players - 1][1:]]
    return hands


def _check_table(app: UnoApp) -> None:
    """Nothing of the table is cut off: the seats inside the felt and their names whole, the
    status lines under the piles, the prompt and the key hint whole, the buttons on screen."""
    ts = app.table_screen
    assert ts is not None and app.screen is ts
    screen = ts.region
    felt = ts.query_one("#felt").region
    n = ts.table.game.players
    for j in range(n - 1):
        slot = ts.query_one(f"#slot-{j}")
        assert inside(slot.region, felt), (j, slot.region, felt)
        seat = (ts.bottom_seat() + 1 + j) % n
        assert _flat(ts.table.name(seat)) in _flat(region_text(app, slot))
    for wid in ("#pile", "#status", "#me"):
        assert inside(ts.query_one(wid).region, felt), wid
    status = ts.status_text().plain
    assert _flat(status) in _flat(region_text(app, ts.query_one("#status")))
    assert _flat(ts.prompt_text()) in _flat(region_text(app, ts.query_one("#prompt")))
    for wid in ("#topbar", "#prompt", "#hand", "#buttons", "#keys"):
        assert inside(ts.query_one(wid).region, screen), wid
    hint = ts.query_one("#keys", Static).content
    assert isinstance(hint, Text) and _flat(hint.plain)
    assert _flat(hint.plain) in _flat(region_text(app, ts.query_one("#keys")))
    for button in ts.query("#buttons ActionButton"):
        if button.display:
            assert inside(button.region, screen), button.id


def _fit_all_languages(table: Table, status_word: dict[str, str]) -> None:
    """The table at 80×24 in each language (``l`` switches), checked whole; the status line
    says ``status_word`` (in that language)."""
    app = UnoApp(table=table)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            for lang in LANGS:
                await pilot.pause()
                ts = app.table_screen
                assert ts is not None
                _check_table(app)
                assert status_word[lang] in ts.status_text().plain, ts.status_text().plain
                await pilot.press("l")
                await settle(pilot, app)
                del lang

    run(go())


@pytest.mark.parametrize("players", range(2, 11))
def test_the_table_fits_80x24_with_a_penalty_pending(players: int) -> None:
    """The issue's cut status line ("Pending: South must") and everything else, 2-10 players."""
    table = exact_table("house", _hands(players, "GD2"), top=["G0"], players=players,
                        turn=players - 1)
    _fit_all_languages(table, {"en": "must draw 2 cards",
                               "zh_TW": "待處理", "zh_CN": "待处理"})


@pytest.mark.parametrize(("rules", "card", "words"), [
    ("frozen2", "WN", {"en": "Forces of Nature", "zh_TW": "自然", "zh_CN": "自然"}),
    ("buzz", "WH", {"en": "Hyperspeed on", "zh_TW": "超速", "zh_CN": "超速"}),
])
@pytest.mark.parametrize("players", [4, 10])
def test_the_table_fits_80x24_with_an_effect(rules: str, card: str, words: dict[str, str],
                                             players: int) -> None:
    register_forgetful()  # plays its wild first
    table = exact_table(rules, _hands(players, card, "RYGP" if rules == "frozen2" else "RYGB"),
                        top=["G0"], players=players,
                        turn=players - 1, bots="forgetful")
    _fit_all_languages(table, words)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("players", [4, 10])
def test_the_match_result_fits_80x24_after_14_rounds(players: int, lang: str) -> None:
    """The last round's summary and the result keep their buttons, the rounds played and the
    record's path in view; the scoreboard scrolls (players go down when they do not fit
    across)."""
    set_language(lang)
    rules = preset("classic", players=players, rounds=14, scoring="penalty")
    table = Table(rules, default_players(rules, "basic", people=0), 4, timing=Timing.zero())
    finish_match(table)
    app = UnoApp(table=table)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            summary = app.screen
            assert isinstance(summary, RoundSummaryScreen)
            for button in summary.query("Button"):
                assert inside(button.region, summary.region), button.id
            await pilot.press("enter")
            await settle(pilot, app)
            result = app.screen
            assert isinstance(result, MatchResultScreen)
            for wid in ("#result-text", "#result-rounds", "#result-record", "#new", "#quit"):
                assert inside(result.query_one(wid).region, result.region), wid
            assert "14" in _flat(region_text(app, result.query_one("#result-rounds")))
            record = _flat(region_text(app, result.query_one("#result-record")))
            assert _flat(str(result.record)) in record

    run(go())


@pytest.mark.parametrize("lang", LANGS)
def test_the_new_game_screen_shows_how_to_start_at_80x24(lang: str) -> None:
    set_language(lang)
    app = UnoApp()

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            scr = app.screen
            assert isinstance(scr, NewGameScreen)
            for wid in ("#start", "#ng-keys", "#lang", "#quit"):
                assert inside(scr.query_one(wid).region, scr.region), wid
            assert "Ctrl+S" in region_text(app, scr.query_one("#start"))
            assert "Ctrl+S" in region_text(app, scr.query_one("#ng-keys"))

    run(go())


def test_below_80x24_a_message_says_the_size_needed() -> None:
    from unoarena.tui.dialogs import TooSmallScreen

    rules = preset("classic", players=4)
    table = Table(rules, default_players(rules, "basic"), 3, timing=Timing.zero())
    app = UnoApp(table=table)

    async def go() -> None:
        async with app.run_test(size=(40, 12)) as pilot:
            await settle(pilot, app)
            assert isinstance(app.screen, TooSmallScreen)
            text = screen_text(app)
            assert "40×12" in text and "80×24" in text
            await pilot.resize_terminal(79, 30)
            await settle(pilot, app)
            assert "79×30" in screen_text(app)
            await pilot.resize_terminal(80, 24)
            await settle(pilot, app)
            assert isinstance(app.screen, TableScreen)
            _check_table(app)

    run(go())


def _card_block(app: UnoApp, face: str, w: int) -> list[tuple[int, int, int]]:
    """The rows painted in a card face's colour exactly ``w`` cells wide (the large top card,
    not the small hand cards)."""
    return [r for r in painted(app, face) if r[2] - r[1] + 1 == w]


@pytest.mark.parametrize("size", [(80, 24), (160, 48), (300, 80)])
def test_the_large_top_card_is_painted_whole_and_grows(size: tuple[int, int]) -> None:
    """Every row of the top card is painted edge to edge, the same columns each row (before,
    its padding was stripped and its blank rows left unpainted); at 300×80 it is large."""
    table = exact_table("classic", {0: ["R1", "R2", "Y3"], 1: ["G1", "G2", "G3"]},
                        top=["B5"], players=2)
    app = UnoApp(table=table)

    async def go() -> tuple[int, int, list[tuple[int, int, int]], str]:
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            ts = app.table_screen
            assert ts is not None
            face = FACE["B"].split(" on ")[-1]
            w = max((b - a + 1 for _y, a, b in painted(app, face)), default=0)
            rows = _card_block(app, face, w)
            return w, len(rows), rows, screen_text(app)

    w, h, rows, text = run(go())
    assert w > 6 and h >= 3  # wider than a card of the hand
    assert len({(a, b) for _y, a, b in rows}) == 1
    ys = [y for y, _a, _b in rows]
    assert ys == list(range(ys[0], ys[0] + h))  # one block, no row missing
    lines = text.split("\n")
    x0 = rows[0][1]
    face = [lines[y][x0:x0 + w] for y in ys]
    sym = next(line for line in face if line.strip() == "5")
    left, right = len(sym) - len(sym.lstrip()), len(sym) - len(sym.rstrip())
    assert abs(left - right) <= 1  # centred: even padding
    if size == (300, 80):
        assert w >= 26 and h >= 11


def test_the_log_rewraps_on_resize_without_a_sideways_scrollbar() -> None:
    rules = preset("house", players=4)
    table = Table(rules, default_players(rules, "basic"), 7, timing=Timing.zero())
    app = UnoApp(table=table)

    async def go() -> None:
        async with app.run_test(size=(160, 48)) as pilot:
            await settle(pilot, app)
            for _ in range(4):
                await pilot.press("d")
                await settle(pilot, app)
                await pilot.press("p")
                await settle(pilot, app)
            for size in ((80, 24), (120, 30), (80, 24)):
                await pilot.resize_terminal(*size)
                await settle(pilot, app)
                await pilot.pause(0.05)
                ts = app.table_screen
                assert ts is not None
                log = ts.query_one("#log")
                room = log.scrollable_content_region.width
                assert log.max_scroll_x == 0 and log.virtual_size.width <= room + 2
                assert max(line.cell_length for line in log.lines) <= room

    run(go())


def test_chinese_log_lines_break_between_characters_not_at_names() -> None:
    """In Chinese the spaces around names and numbers are part of the sentence: a line breaks
    between two Chinese characters, never at a space beside one ("北 抽了 4 / 張牌")."""
    set_language("zh_TW")
    rules = preset("house", players=4)
    table = Table(rules, default_players(rules, "basic"), 7, timing=Timing.zero())
    app = UnoApp(table=table)

    async def go() -> tuple[list[str], list[str]]:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            for _ in range(6):
                await pilot.press("d")
                await settle(pilot, app)
                await pilot.press("p")
                await settle(pilot, app)
            ts = app.table_screen
            assert ts is not None
            log = ts.query_one("#log")
            shown = [line.text.rstrip() for line in log.lines]
            said = [line for e in table.log for line in e.render(ts.viewer)]
            return shown, said

    shown, said = run(go())
    breaks = 0
    i = 0
    for line in said:  # the log's rows, matched back to the sentences they show
        pieces = [shown[i]]
        i += 1
        while _flat("".join(pieces)) != _flat(line):
            pieces.append(shown[i])
            i += 1
        at = 0
        for piece in pieces[:-1]:
            at = line.index(piece.strip(), at) + len(piece.strip())
            gap = line[at:at + 1]
            if gap == " ":  # a break at a space: only between two Latin words
                assert not _wide(line[at - 1]) and not _wide(line[at + 1]), (line, pieces)
            breaks += 1
    assert breaks >= 3  # the test saw lines wrap


def test_the_log_heading_follows_the_language() -> None:
    rules = preset("classic", players=2)
    table = Table(rules, default_players(rules, "basic"), 7, timing=Timing.zero())
    app = UnoApp(table=table)

    async def go() -> list[str]:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            ts = app.table_screen
            assert ts is not None
            heads = []
            for _ in range(3):
                heads.append(region_text(app, ts.query_one("#log-title")).strip())
                await pilot.press("l")
                await settle(pilot, app)
            return heads

    assert run(go()) == ["Log", "紀錄", "记录"]
