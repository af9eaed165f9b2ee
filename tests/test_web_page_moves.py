"""Moving checkers on the page as players expect, in headless Chromium: a checker dragged with a mouse (at a
desktop's size) or a finger (a phone's touch screen) to a legal place makes that move, one dropped
elsewhere slides back and nothing is sent, a click on a checker and one on its place still move it; every
play slides on the board (the bot's too) and ends in the state's position, and nothing moves where the
player asked for reduced motion; a typed play is the server's to read, its refusal shown; the sounds
are off until turned on, and the choice is kept.

Screenshots go to the test's folder and to $TAVOLA_ARTEFACTS where it is set. Every wait is bounded.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")
pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (python)")

from test_web_page_look import CLICK, WAIT, Watch, _board_in_view, _context, _state
from web_helpers import Server, choose, screenshot

Page = Any

PLAY_LIMIT = 90.0  # seconds a test may spend bringing a game to the position it needs

SLIDES = """() => {
    // Every board drawn from now on: how many animations ran on it while it was marked as sliding.
    window.slid = [];
    new MutationObserver(() => {
        const svg = document.querySelector('#board svg.animating');
        if (svg) window.slid.push(svg.getAnimations({ subtree: true }).length);
    }).observe(document.querySelector('#main'), { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
}"""

DRAWN = """() => {
    // The checkers drawn on each place of the board against the state's (a stack shows five at most).
    const view = window.tavolaTable.boardView();
    const wrong = [];
    const drawn = (place, side) => document.querySelectorAll(`#board svg circle[data-place="${place}"][data-side="${side}"]`).length;
    view.board.forEach((count, index) => {
        for (const side of ['near', 'far']) {
            const expected = (side === 'near') === (count > 0) ? Math.min(Math.abs(count), 5) : 0;
            if (drawn(String(index + 1), side) !== expected) wrong.push(`${index + 1} ${side}`);
        }
    });
    ['near', 'far'].forEach((side, i) => { if (drawn('bar', side) !== Math.min(view.bar[i], 5)) wrong.push(`bar ${side}`); });
    return { wrong, animations: document.querySelector('#board svg').getAnimations({ subtree: true }).length };
}"""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "server.sqlite3")
    yield running
    running.kill()


def _two_people(server: Server) -> tuple[str, dict[int, str]]:
    """A single game between Ann (seat 0) and Bob (seat 1): the table and their tokens."""
    created = server.client.post("/api/tables", json={"kind": "game", "series": "single", "seats": [{}, {}]})
    table = str(created.json()["id"])
    tokens = {}
    for seat, name in ((0, "Ann"), (1, "Bob")):
        sat = server.client.post(f"/api/tables/{table}/seats/{seat}", json={"name": name})
        server.client.cookies.clear()
        tokens[seat] = sat.json()["token"]
    return table, tokens


def _until_ann_moves(server: Server, table: str, tokens: dict[int, str]) -> dict[str, Any]:
    """Act through the API (Ann rolls, Bob plays on) until Ann has checkers to move; her state."""
    started = time.monotonic()
    while time.monotonic() - started < PLAY_LIMIT:
        seen = server.state(table, tokens[0])
        if any(action["action"] == "move" for action in seen["legal_actions"]):
            return seen
        seat = seen["to_act"][0]
        legal = server.state(table, tokens[seat])["legal_actions"]
        action = {"action": "roll"} if {"action": "roll"} in legal else choose(legal)
        done = server.client.post(
            f"/api/tables/{table}/actions", json=action, headers={"Authorization": f"Bearer {tokens[seat]}"}
        )
        assert done.status_code == 200, done.text
    raise AssertionError("Ann never had checkers to move")


def _ann_page(
    browser: Any, watch: Watch, server: Server, table: str, token: str, size: str, **options: Any
) -> Page:
    """Ann's page at the table, her seat's token where the page keeps it."""
    context = _context(browser, watch, size, **options)
    seats = json.dumps({table: {"seat": 0, "token": token}})
    context.add_init_script(f"localStorage.setItem('tavola.seats', {json.dumps(seats)})")
    page = watch.page(context)
    page.goto(f"{server.url}/t/{table}")
    page.wait_for_selector("#main[data-status='live']", timeout=WAIT)
    page.wait_for_function("() => window.tavolaTable.socket?.readyState === WebSocket.OPEN", timeout=WAIT)
    return page


def _wait_version(page: Page, version: int) -> None:
    page.wait_for_function(
        "v => Number(document.querySelector('#main').dataset.version) > v", arg=version, timeout=WAIT
    )


def _moves(state: dict[str, Any]) -> list[tuple[str, str]]:
    """The one-checker moves Ann may make, as (from, to) places of the board."""
    places = []
    for action in state["legal_actions"]:
        if action["action"] == "move":
            start, end = action["moves"].replace("*", "").split("/")
            places.append((start, end))
    return places


def _centre(page: Page, selector: str) -> tuple[float, float]:
    """The middle of the last element `selector` finds, in the window (read in one step: the page draws
    the board anew with every state)."""
    x, y = page.evaluate(
        """selector => {
            const found = [...document.querySelectorAll(selector)].pop().getBoundingClientRect();
            return [found.x + found.width / 2, found.y + found.height / 2];
        }""",
        selector,
    )
    return float(x), float(y)


def _checker(place: str) -> str:
    """The top checker of Ann's on a place (the last drawn of its stack)."""
    return f'#board svg circle[data-place="{place}"][data-side="near"]'


def _target(place: str) -> str:
    return f'#board svg .place[data-point="{place}"]'


def _mouse_drag(page: Page, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=8)
    page.mouse.up()


def _finger_drag(page: Page, start: tuple[float, float], end: tuple[float, float]) -> None:
    """A finger on the touch screen (the browser's own touch events, as a phone sends them)."""
    session = page.context.new_cdp_session(page)
    session.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": start[0], "y": start[1]}]}
    )
    for step in range(1, 9):
        x = start[0] + (end[0] - start[0]) * step / 8
        y = start[1] + (end[1] - start[1]) * step / 8
        session.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    session.detach()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_checker_dragged_to_a_legal_place_moves_there_and_one_dropped_elsewhere_slides_back(
    browser: Any, server: Server, tmp_path: Path, size: str
) -> None:
    table, tokens = _two_people(server)
    seen = _until_ann_moves(server, table, tokens)
    watch = Watch(server)
    touch = size == "phone"
    options = {"has_touch": True, "is_mobile": True} if touch else {}
    page = _ann_page(browser, watch, server, table, tokens[0], size, **options)
    drag = _finger_drag if touch else _mouse_drag
    page.locator("#board").scroll_into_view_if_needed()

    # Dropped where it may not go: it slides back, nothing is sent.
    moves = _moves(seen)
    start = next(source for source, _ in moves if source.isdigit())
    allowed = {end for source, end in moves if source == start}
    elsewhere = next(
        str(point) for point in range(1, 25) if str(point) not in allowed and str(point) != start
    )
    before = _state(page)
    drag(page, _centre(page, _checker(start)), _centre(page, _target(elsewhere)))
    page.wait_for_function("() => !document.querySelector('#board svg .dragged')", timeout=WAIT)
    page.wait_for_timeout(400)  # time for anything sent to come back
    assert _state(page)["version"] == before["version"]
    assert page.locator(_checker(start)).last.evaluate("c => getComputedStyle(c).visibility") == "visible"
    screenshot(page, tmp_path, f"moves-{size}-dropped-back")

    # Dropped on a legal place: that move is made, the checker on it.
    end = sorted(allowed)[0]
    drag(page, _centre(page, _checker(start)), _centre(page, _target(end)))
    _wait_version(page, before["version"])
    after = _state(page)
    assert [move.replace("*", "") for move in after["game"]["moves"]] == [f"{start}/{end}"]
    assert page.evaluate(DRAWN)["wrong"] == []
    _board_in_view(page)
    screenshot(page, tmp_path, f"moves-{size}-dropped")

    # A click on a checker and one on its place still move it.
    more = _moves(after)
    if more:
        source, target = more[0]
        page.click(_target(source), timeout=CLICK)
        page.wait_for_selector(f"{_target(target)}.target", timeout=WAIT)
        page.click(_target(target), timeout=CLICK)
        _wait_version(page, after["version"])
        assert len(_state(page)["game"]["moves"]) == 2
    assert watch.problems == []


def _bot_table(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    page.fill("#play-bot input[name=name]", "Ann")
    page.select_option("#play-bot select[name=level]", "beginner")
    page.select_option("#play-bot select[name=series]", "single")
    page.click("#play-bot button[type=submit]")
    page.wait_for_selector("#main[data-status='live']", timeout=WAIT)


def _until_bot_played(page: Page, plays: int) -> None:
    """Play on as a test player does (the first play listed, rolls, takes) until the bot has made
    `plays` plays since the call."""
    started = time.monotonic()
    bot = _state(page)["seats"][1]["name"]
    seen = 0
    while seen < plays:
        assert time.monotonic() - started < PLAY_LIMIT, _state(page)
        page.wait_for_selector("#to-act.mine", timeout=WAIT)
        state = _state(page)
        action = choose(state["legal_actions"])
        page.evaluate("action => window.tavolaTable.act(action)", action)
        _wait_version(page, state["version"])
        if action["action"] == "play":  # the bot's turn next: played once it is Ann's again
            page.wait_for_selector("#to-act.mine", timeout=WAIT)
            last = _state(page)["game"]["last_play"] or {}
            seen += last.get("name") == bot


def test_every_play_slides_on_the_board_and_ends_in_the_states_position(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    watch = Watch(server)
    page = watch.page(_context(browser, watch, "desktop"))
    _bot_table(page, server)
    page.evaluate(SLIDES)
    _until_bot_played(page, 2)
    page.wait_for_function("() => !document.querySelector('#board svg.animating')", timeout=WAIT)
    slid = page.evaluate("window.slid")
    assert slid, "the board never slid"
    assert max(slid) > 0, slid  # checkers moved while the board was sliding
    assert int(page.get_attribute("#main", "data-animated") or 0) >= 2  # Ann's plays and the bot's
    drawn = page.evaluate(DRAWN)
    assert drawn == {"wrong": [], "animations": 0}
    assert page.locator("#board svg .dice").count() == 1  # the dice of the play just made, or of the roll
    screenshot(page, tmp_path, "moves-desktop-after-slides")
    assert watch.problems == []


def test_nothing_slides_where_the_player_asks_for_reduced_motion(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    watch = Watch(server)
    page = watch.page(_context(browser, watch, "desktop", reduced_motion="reduce"))
    _bot_table(page, server)
    page.evaluate(SLIDES)
    _until_bot_played(page, 2)
    assert page.evaluate("window.slid") == []
    assert page.get_attribute("#main", "data-animated") is None
    assert page.evaluate(DRAWN) == {"wrong": [], "animations": 0}
    assert watch.problems == []


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_typed_play_is_made_and_a_bad_one_shows_the_servers_refusal(
    browser: Any, server: Server, tmp_path: Path, size: str
) -> None:
    table, tokens = _two_people(server)
    seen = _until_ann_moves(server, table, tokens)
    watch = Watch(server)
    page = _ann_page(browser, watch, server, table, tokens[0], size)
    answer = server.client.post(
        f"/api/tables/{table}/actions",
        json={"action": "play", "play": "24/1"},
        headers={"Authorization": f"Bearer {tokens[0]}"},
    )
    assert answer.status_code == 400

    page.fill("#play-text", "24/1")
    page.click("#play-typed", timeout=CLICK)
    page.wait_for_selector("#error:not([hidden])", timeout=WAIT)
    refusal = page.inner_text("#error")
    assert refusal == answer.json()["error"]  # the server's own words: "24/1: no die of 5-3 moves ..."
    assert page.input_value("#play-text") == "24/1"  # kept, to be put right
    assert _state(page)["version"] == seen["version"]
    screenshot(page, tmp_path, f"moves-{size}-typed-refused")

    play = next(action["play"] for action in seen["legal_actions"] if action["action"] == "play")
    page.fill("#play-text", play)
    page.press("#play-text", "Enter")
    _wait_version(page, seen["version"])
    page.wait_for_function("() => document.querySelector('#play-text')?.value !== '24/1'", timeout=WAIT)
    last = _state(page)["game"]["last_play"]
    assert last["name"] == "Ann"
    assert last["play"] == play
    assert page.locator("#error").is_hidden()
    _board_in_view(page)
    assert watch.problems == []


def test_the_sounds_are_off_until_turned_on_and_the_choice_is_kept(browser: Any, server: Server) -> None:
    watch = Watch(server)
    page = watch.page(_context(browser, watch, "desktop"))
    _bot_table(page, server)
    made = "async () => (await import('/static/sounds.js')).made"
    _until_bot_played(page, 1)
    assert page.evaluate(made) == {"checker": 0, "dice": 0}
    assert not page.is_checked("#sounds")

    page.check("#sounds")
    assert json.loads(page.evaluate("localStorage.getItem('tavola.board')"))["sounds"] is True
    _until_bot_played(page, 1)
    heard = page.evaluate(made)
    assert heard["checker"] >= 2, heard  # checkers set down
    assert heard["dice"] >= 1, heard  # the dice rolled
    page.reload()
    page.wait_for_selector("#main[data-status='live']", timeout=WAIT)
    assert page.is_checked("#sounds")
    assert watch.problems == []


SLIDES_OF = """async () => {
    const { slides } = await import('/static/animate.js');
    const view = (points, bar = [0, 0], off = [0, 0]) => {
        const board = Array(24).fill(0);
        for (const [point, count] of Object.entries(points)) board[point - 1] = count;
        return { board, bar, off, waiting: [0, 0] };
    };
    const start = { 24: 2, 13: 5, 8: 3, 6: 5, 1: -2, 12: -5, 17: -3, 19: -5 };
    return {
        two: slides(view(start), view({ ...start, 24: 1, 18: 1, 13: 4, 10: 1 })),
        hit: slides(view({ 13: 2, 8: -1 }), view({ 13: 1, 8: 1 }, [0, 1])),
        entry: slides(view({ 20: -2 }, [1, 0]), view({ 20: -2, 22: 1 })),
        bearOff: slides(view({ 1: 2, 2: 1 }), view({ 1: 1, 2: 1 }, [0, 0], [1, 0])),
        theirs: slides(view({ 1: -2, 24: 1 }), view({ 1: -1, 7: -1, 24: 1 })),
        newGame: slides(view({ 1: 1, 2: 14, 24: -15 }, [0, 0], [0, 0]), view(start)),
    };
}"""


def test_the_checkers_that_slid_are_read_from_the_two_boards_hits_entries_and_bear_offs_too(
    browser: Any, server: Server
) -> None:
    watch = Watch(server)
    page = watch.page(_context(browser, watch, "desktop"))
    page.goto(server.url + "/")
    slid = page.evaluate(SLIDES_OF)
    near = "near"
    assert slid["two"] == [{"side": near, "from": "24", "to": "18"}, {"side": near, "from": "13", "to": "10"}]
    assert slid["hit"] == [{"side": near, "from": "13", "to": "8"}, {"side": "far", "from": "8", "to": "bar"}]
    assert slid["entry"] == [{"side": near, "from": "bar", "to": "22"}]
    assert slid["bearOff"] == [{"side": near, "from": "1", "to": "off"}]
    assert slid["theirs"] == [{"side": "far", "from": "1", "to": "7"}]
    assert slid["newGame"] == []  # every checker back in place: no play to slide
    assert watch.problems == []
