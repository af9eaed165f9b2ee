"""The game's record on the page, in headless Chromium at a desktop's size and a phone's: the score sheet
as play goes on, a move of it shown on the board (from ``GET /api/tables/{id}/positions``) and stepped
through, the game log's lines read back with their dice, the end card's error rates once the table is
analysed, and on a phone the title kept in view after a play and point numbers large enough to read.

Screenshots go to the test's folder and to $TAVOLA_ARTEFACTS where it is set. Every wait is bounded.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")
pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (python)")

from test_web_page_look import (
    CLICK,
    WAIT,
    Watch,
    _board_in_view,
    _context,
    _play_a_turn,
    _state,
)
from test_web_page_moves import DRAWN, _ann_page, _until_bot_played, _wait_version
from web_helpers import Server, screenshot

Page = Any


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "server.sqlite3")
    yield running
    running.kill()


def _match_against_the_bot(browser: Any, watch: Watch, server: Server, size: str) -> tuple[Page, str]:
    """Ann's page at a match to 3 against the beginner bot; the table."""
    created = server.client.post(
        "/api/tables",
        json={"kind": "game", "series": "match", "length": 3, "seats": [{}, {"bot": "beginner"}]},
    )
    table = str(created.json()["id"])
    sat = server.client.post(f"/api/tables/{table}/seats/0", json={"name": "Ann"})
    server.client.cookies.clear()
    return _ann_page(browser, watch, server, table, sat.json()["token"], size), table


def _written(game: dict[str, Any]) -> list[str]:
    """The record's plays of a game as a score sheet writes them: "64: 24/18 13/9"."""
    plays = []
    dice: list[int] = []
    for entry in game["log"]:
        if entry["action"] in ("roll", "opening_roll"):
            dice = sorted(entry["dice"], reverse=True)
        elif entry["action"] == "play":
            plays.append(f"{dice[0]}{dice[1]}: {entry['play'] or '(no move)'}")
    return plays


def _shown_board(page: Page) -> list[int]:
    return list(page.evaluate("window.tavolaTable.boardView().board"))


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_score_sheet_follows_the_match_and_shows_any_move_on_the_board(
    browser: Any, server: Server, tmp_path: Path, size: str
) -> None:
    watch = Watch(server)
    page, table = _match_against_the_bot(browser, watch, server, size)
    if not page.locator("#score-sheet[open]").count():  # folded below a phone's board
        page.click("#score-sheet summary", timeout=CLICK)
    _until_bot_played(page, 3)

    # The sheet: the record's plays in order, two columns, as the match goes on.
    record = server.client.get(f"/api/tables/{table}/record").json()
    expected = _written(record["games"][0])
    page.wait_for_function(
        "count => document.querySelectorAll('#score-sheet .sheet-move').length >= count",
        arg=len(expected),
        timeout=WAIT,
    )
    shown = page.locator("#score-sheet .sheet-move").all_inner_texts()
    assert [text for text in shown if text in expected] == expected
    assert page.inner_text("#score-sheet thead").split() == ["Ann", "Tavola"]
    assert "Ann 0 · Tavola 0" in page.inner_text("#sheet-total")
    screenshot(page, tmp_path, f"record-{size}-score-sheet")

    # A move of the sheet on the board, read-only, stepped through, and back to the game.
    steps = server.client.get(f"/api/tables/{table}/positions", params={"game": 0}).json()["steps"]
    move = page.locator("#score-sheet .sheet-move").nth(2)
    at = int(move.get_attribute("data-at") or -1)
    label = move.inner_text()
    move.click(timeout=CLICK)
    page.wait_for_selector("#viewing", timeout=WAIT)
    assert label in page.inner_text("#viewing-label")
    assert _shown_board(page) == steps[at]["position"]["points"]  # Ann sits at seat 0: seen from her side
    assert page.evaluate(DRAWN)["wrong"] == []
    assert page.locator("#board svg .place.source").count() == 0  # nothing to move on a past board
    assert page.locator("#score-sheet .sheet-move.shown").count() == 1
    _board_in_view(page)
    screenshot(page, tmp_path, f"record-{size}-move-shown")

    page.click("#sheet-next", timeout=CLICK)
    page.wait_for_function("at => window.tavolaTable.viewing?.move.at > at", arg=at, timeout=WAIT)
    later = page.evaluate("window.tavolaTable.viewing.move.at")
    assert _shown_board(page) == steps[later]["position"]["points"]
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("at => window.tavolaTable.viewing?.move.at === at", arg=at, timeout=WAIT)
    page.click("#back-to-game", timeout=CLICK)
    page.wait_for_selector("#viewing", state="detached", timeout=WAIT)
    assert _shown_board(page) == _state(page)["game"]["position"]["points"]

    # Read back after a reload, the game log's lines have the dice each play was made with.
    page.reload()
    page.wait_for_selector("#game-log li[data-at]", timeout=WAIT)
    page.wait_for_function(
        "() => [...document.querySelectorAll('#game-log li')].some((line) => / rolls \\d-\\d and plays /.test(line.innerText))",
        timeout=WAIT,
    )
    plays = [line for line in page.locator("#game-log li").all_inner_texts() if " plays " in line]
    assert plays
    assert all(re.search(r" rolls \d-\d and plays ", line) for line in plays), plays
    assert watch.problems == []


def _finished_single_game(server: Server) -> str:
    """A single game between Ann and Bob, ended by a double dropped after a few plays: the table."""
    created = server.client.post("/api/tables", json={"kind": "game", "series": "single", "seats": [{}, {}]})
    table = str(created.json()["id"])
    tokens = {}
    for seat, name in ((0, "Ann"), (1, "Bob")):
        sat = server.client.post(f"/api/tables/{table}/seats/{seat}", json={"name": name})
        server.client.cookies.clear()
        tokens[seat] = sat.json()["token"]
    for action in ("play", "roll", "play", "roll", "play", {"action": "double"}, {"action": "drop"}):
        seen = server.state(table, tokens[0])
        seat = seen["to_act"][0]
        legal = server.state(table, tokens[seat])["legal_actions"]
        chosen = (
            action if isinstance(action, dict) else next(item for item in legal if item["action"] == action)
        )
        done = server.client.post(
            f"/api/tables/{table}/actions", json=chosen, headers={"Authorization": f"Bearer {tokens[seat]}"}
        )
        assert done.status_code == 200, (chosen, done.text)
    return table


@pytest.mark.timeout(240)
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_end_card_shows_each_players_error_rate_once_the_table_is_analysed(
    browser: Any, server: Server, tmp_path: Path, size: str
) -> None:
    table = _finished_single_game(server)
    watch = Watch(server)
    page = watch.page(_context(browser, watch, size))
    page.goto(f"{server.url}/t/{table}")
    page.wait_for_selector("#summary #analyse", timeout=WAIT)
    page.click("#analyse", timeout=CLICK)
    page.wait_for_selector("#error-rates", timeout=120_000)
    rows = page.locator("#error-rates tbody tr").all_inner_texts()
    assert [row.split()[0] for row in rows] == ["Ann", "Bob"]
    made = server.client.get(f"/api/analyses/table-{table}-1-ply").json()["analysis"]
    for row, player in zip(rows, made["players"], strict=True):
        assert f"{player['error_rate_memg']:.1f}" in row  # the analysis's own figures
    assert (page.get_attribute("#step-through", "href") or "").startswith("/analysis/")
    _board_in_view(page)
    screenshot(page, tmp_path, f"record-{size}-error-rates")

    # Opened again in this browser, the card shows them at once: the server kept the analysis.
    page.reload()
    page.wait_for_selector("#error-rates", timeout=WAIT)
    assert page.locator("#error-rates tbody tr").all_inner_texts() == rows
    assert page.locator("#analyse").count() == 0
    assert watch.problems == []


def test_on_a_phone_the_title_stays_in_view_after_a_play_and_the_points_numbers_can_be_read(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    watch = Watch(server)
    page, _ = _match_against_the_bot(browser, watch, server, "phone")
    for _turn in range(3):
        page.wait_for_selector("#to-act.mine", timeout=WAIT)
        seen = _state(page)
        if any(action["action"] == "play" for action in seen["legal_actions"]):
            _play_a_turn(page)  # chosen from the list of plays, below the board
            head = page.locator(".table-head").bounding_box()
            assert head is not None
            assert head["y"] >= 0, head
            _board_in_view(page)
        else:
            page.evaluate("() => window.tavolaTable.act({action: 'roll'})")
            _wait_version(page, seen["version"])
    numbers = page.evaluate(
        "() => [...document.querySelectorAll('#board svg .number')].map((number) => number.getBoundingClientRect().height)"
    )
    assert len(numbers) == 24
    assert min(numbers) >= 11, numbers  # pixels: readable on a phone
    screenshot(page, tmp_path, "record-phone-after-a-play")
    assert watch.problems == []


READ = """async () => {
    const i18n = await import('/static/i18n.js');
    const { cells, withDice } = await import('/static/scoresheet.js');
    const { sentences } = await import('/static/narration.js');
    await i18n.useLanguage('en');
    const games = [
        { log: [
            { player: 0, action: 'opening_roll', dice: [3, 3] }, { player: 0, action: 'opening_roll', dice: [2, 5] },
            { player: 1, action: 'play', play: '24/22 13/8' }, { player: 0, action: 'double' }, { player: 1, action: 'take' },
            { player: 0, action: 'roll', dice: [5, 5] }, { player: 0, action: 'play', play: '8/3(2) 6/1(2)' },
            { player: 1, action: 'roll', dice: [6, 6] }, { player: 1, action: 'play', play: '' },
        ] },
        { log: [{ player: 0, action: 'opening_roll', dice: [4, 1] }, { player: 0, action: 'play', play: '13/9' }, { player: 1, action: 'roll', dice: [2, 1] }] },
    ];
    const log = [
        { seat: 0, action: 'roll' }, { seat: 0, action: 'roll' }, { seat: 1, action: 'play', play: '24/22 13/8' },
        { seat: 0, action: 'double' }, { seat: 1, action: 'take' }, { seat: 0, action: 'roll' },
        { seat: 0, action: 'move', moves: '8/3(2)' }, { seat: 0, action: 'move', moves: '6/1(2)' }, { seat: 0, action: 'commit' },
        { seat: 1, action: 'roll' }, { seat: 1, action: 'play', play: '' }, { seat: null, action: 'start_game' },
        { seat: 0, action: 'roll' }, { seat: 0, action: 'play', play: '13/9' }, { seat: 1, action: 'roll' },
    ].map((entry, at) => ({ ...entry, at }));
    const names = ['Ann', 'Bob'];
    return {
        told: sentences(withDice(log, games), (seat) => names[seat], (entry) => entry.action).map((line) => line.text),
        written: games.map((game) => cells(game.log).map((cell) => [cell.player, cell.at, `${(cell.dice || []).join('')}: ${cell.text}`])),
    };
}"""


def test_the_sheet_writes_the_record_as_a_mat_file_does_and_the_log_takes_its_dice_from_it(
    browser: Any, server: Server
) -> None:
    watch = Watch(server)
    page = watch.page(_context(browser, watch, "desktop"))
    page.goto(server.url + "/")
    read = page.evaluate(READ)
    assert read["told"] == [
        "Opening roll 3-3: a tie, rolled again",
        "Bob rolls 5-2 and plays 24/22 13/8",
        "Ann doubles",
        "Bob takes",
        "Ann rolls 5-5 and plays 8/3(2) 6/1(2)",  # moved checker by checker, told once committed
        "Bob rolls 6-6 and cannot move",
        "A new game begins",
        "Ann rolls 4-1 and plays 13/9",
        "Bob rolls 2-1",  # rolled, not played yet
    ]
    assert read["written"] == [
        [
            [1, 2, "52: 24/22 13/8"],
            [0, 3, ": Doubles"],
            [1, 4, ": Takes"],
            [0, 6, "55: 8/3(2) 6/1(2)"],
            [1, 8, "66: (no move)"],
        ],
        [[0, 1, "41: 13/9"], [1, 2, "21: "]],
    ]
    assert watch.problems == []
