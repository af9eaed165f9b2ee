"""The page as a player sees it, in headless Chromium at a desktop's size (1400x900) and a phone's (390x844):
the board stays whole in the window while playing and after a hint; every cube action, answer and
resignation is told (a message, the game's log and the live region a screen reader reads); a finished
table shows its result with a rematch and the way back to the lobby; no page (the lobby, a table, a
finished table, ``/docs``) logs an error, fails a request or asks anything of another host.

Screenshots go to the test's folder and to $TAVOLA_ARTEFACTS where it is set. Every wait is bounded
(``WAIT``, ``CLICK``, and ``PLAY_LIMIT`` for a whole game).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (python)")

from web_helpers import Server, screenshot  # noqa: E402 (after the skips)

WAIT = 30_000  # milliseconds a page may take to show what the server sent
CLICK = 3_000  # milliseconds a click may wait for its element
PLAY_LIMIT = 120.0  # seconds a test's game against the bot may last

SIZES = {"desktop": {"width": 1400, "height": 900}, "phone": {"width": 390, "height": 844}}

Page = Any


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "server.sqlite3")
    yield running
    running.kill()


class Watch:
    """What went wrong on a context's pages: console errors, uncaught exceptions, failed requests, answers
    of 400 or more, and requests to any other host (refused before they leave)."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.problems: list[str] = []

    def page(self, context: Any) -> Page:
        page = context.new_page()
        page.on("console", lambda message: self._console(message))
        page.on("pageerror", lambda error: self.problems.append(f"exception: {error}"))
        page.on("requestfailed", lambda request: self._failed(request))
        page.on("response", lambda response: self._answered(response))
        return page

    def route(self, route: Any) -> None:
        url = route.request.url
        if url.startswith(self.server.url + "/") or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            self.problems.append(f"outside: {url}")
            route.abort()

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.problems.append(f"console: {message.text}")

    def _failed(self, request: Any) -> None:
        if request.failure != "net::ERR_ABORTED" or not self._outside(request.url):
            self.problems.append(f"failed: {request.url} {request.failure}")

    def _answered(self, response: Any) -> None:
        if response.status >= 400:
            self.problems.append(f"{response.status}: {response.url}")

    def _outside(self, url: str) -> bool:
        return any(url in problem for problem in self.problems if problem.startswith("outside:"))


def _context(browser: Any, watch: Watch, size: str, **options: Any) -> Any:
    context = browser.new_context(viewport=SIZES[size], **options)
    context.set_default_timeout(WAIT)
    context.set_default_navigation_timeout(WAIT)
    context.route("**/*", watch.route)
    return context


def _state(page: Page) -> dict[str, Any]:
    return dict(page.evaluate("window.tavolaTable.state"))


def _board_in_view(page: Page) -> None:
    """The board's box lies wholly inside the window, and is the largest thing on the table's page. Read
    in one step: the page draws the board anew with every state."""
    seen = page.evaluate(
        """() => {
            const box = (element) => { const r = element.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; };
            return {
                board: box(document.querySelector('#board svg')),
                view: { width: window.innerWidth, height: window.innerHeight },
                panels: [...document.querySelectorAll('.side > *')].map(box),
            };
        }"""
    )
    box, view = seen["board"], seen["view"]
    assert box["x"] >= 0, box
    assert box["y"] >= 0, box
    assert box["x"] + box["width"] <= view["width"] + 1, (box, view)
    assert box["y"] + box["height"] <= view["height"] + 1, (box, view)
    assert box["width"] >= 0.5 * view["width"] or box["height"] >= 0.6 * view["height"], (box, view)
    for other in seen["panels"]:
        assert other["width"] * other["height"] < box["width"] * box["height"], other


def _wait_mine(page: Page) -> None:
    page.wait_for_selector("#to-act.mine, #summary", timeout=WAIT)


def _named(page: Page, name: str) -> dict[str, Any] | None:
    return next((action for action in _state(page)["legal_actions"] if action["action"] == name), None)


def _click_and_wait(page: Page, selector: str) -> None:
    """Click, then wait until the table's state moves on (or the page shows a refusal)."""
    version = _state(page)["version"]
    page.click(selector, timeout=CLICK)
    page.wait_for_function(
        "v => Number(document.querySelector('#main').dataset.version) > v || !document.querySelector('#error')?.hidden",
        arg=version,
        timeout=WAIT,
    )


def _play_a_turn(page: Page) -> None:
    """The first whole play of the list, opened from the side column where it is folded."""
    page.evaluate("() => { document.querySelector('#plays-panel').open = true; }")
    _click_and_wait(page, "#plays button")


def _new_bot_table(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    page.fill("#play-bot input[name=name]", "Ann")
    page.select_option("#play-bot select[name=level]", "beginner")
    page.select_option("#play-bot select[name=series]", "single")
    page.click("#play-bot button[type=submit]")
    page.wait_for_selector("#main[data-status='live']", timeout=WAIT)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_game_against_the_bot_keeps_the_board_in_view_tells_the_cube_and_the_resignation_and_ends_with_a_rematch(
    browser: Any, server: Server, tmp_path: Path, size: str
) -> None:
    started = time.monotonic()
    watch = Watch(server)
    page = watch.page(_context(browser, watch, size))
    _new_bot_table(page, server)
    screenshot(page, tmp_path, f"look-{size}-table-start")
    first = _state(page)
    bot = first["seats"][1]["name"]

    # Play until Ann may double; the board in view all the while; one hint on the way.
    hinted = False
    while True:
        assert time.monotonic() - started < PLAY_LIMIT, _state(page)
        _wait_mine(page)
        _board_in_view(page)
        assert page.locator("#plays-panel[open]").count() == 0  # the list of plays stays folded
        if not hinted and page.locator("#hint-button").count():  # the roll's plays, or the cube
            page.click("#hint-button", timeout=CLICK)
            page.wait_for_selector("#hint h2", timeout=WAIT)
            _board_in_view(page)
            screenshot(page, tmp_path, f"look-{size}-table-hint")
            hinted = True
        if _named(page, "double"):
            break
        if _named(page, "play"):
            _play_a_turn(page)
        elif _named(page, "roll") and not _named(page, "double"):
            _click_and_wait(page, "#actions button[data-action='roll']")
    assert hinted

    # Ann doubles: the bot's answer is told beside the board, in the log and to a screen reader.
    _click_and_wait(page, "#actions button[data-action='double']")
    answer = page.wait_for_function(
        """bot => {
            const said = document.querySelector('#announce')?.innerText || '';
            return [`${bot} takes`, `${bot} drops`].find((words) => said.includes(words));
        }""",
        arg=bot,
        timeout=WAIT,
    ).json_value()
    assert answer in page.inner_text("#game-log")
    assert answer in page.inner_text("#live-region")
    assert "Ann doubles" in page.inner_text("#game-log")  # "to 2" where the page saw the offer or the take
    _board_in_view(page)
    screenshot(page, tmp_path, f"look-{size}-table-after-double")

    if answer.endswith("takes"):  # Ann resigns a backgammon, which the bot accepts: the table ends
        _wait_mine(page)
        page.click("details.resign summary", timeout=CLICK)
        _click_and_wait(page, "details.resign button[data-kind='backgammon']")
        page.wait_for_selector("#summary", timeout=WAIT)
        log = page.inner_text("#game-log")
        assert "Ann offers to resign a backgammon" in log
        assert f"{bot} accepts the resignation" in log
    page.wait_for_selector("#summary", timeout=WAIT)
    result = page.inner_text("#result")
    assert f"{bot} wins" in result, result
    assert "Final score" in result, result
    assert page.get_attribute("#to-lobby", "href") == "/"
    screenshot(page, tmp_path, f"look-{size}-table-finished")

    # A rematch: a new table with the same options, Ann in the same seat.
    page.click("#rematch", timeout=CLICK)
    page.wait_for_function("id => !location.pathname.endsWith(id)", arg=first["id"], timeout=WAIT)
    page.wait_for_selector("#main[data-status='live']", timeout=WAIT)
    again = _state(page)
    assert again["id"] != first["id"]
    assert again["options"] == first["options"]
    assert again["you"] == 0
    assert again["seats"][0]["name"] == "Ann"
    assert watch.problems == []
    print(f"bot game at {size}: {time.monotonic() - started:.1f} s")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_no_page_logs_an_error_fails_a_request_or_reaches_another_host(
    browser: Any, server: Server, tmp_path: Path, size: str
) -> None:
    watch = Watch(server)
    context = _context(browser, watch, size)
    page = watch.page(context)
    page.goto(server.url + "/")
    page.wait_for_selector("#tables-live li", timeout=WAIT)
    page.wait_for_selector("#tables-finished li", timeout=WAIT)
    screenshot(page, tmp_path, f"look-{size}-lobby")

    # A finished table, played through the API: its page, its summary and its dice checked.
    created = server.client.post("/api/tables", json={"kind": "game", "series": "single", "seats": [{}, {}]})
    table = created.json()["id"]
    tokens = {}
    for seat, name in ((0, "Ann"), (1, "Bob")):
        sat = server.client.post(f"/api/tables/{table}/seats/{seat}", json={"name": name})
        server.client.cookies.clear()
        tokens[seat] = sat.json()["token"]
    for action in (
        "play",
        {"action": "double"},
        {"action": "take"},
        "play",
        {"action": "resign", "kind": "gammon"},
        {"action": "accept"},
    ):
        seen = server.state(table, tokens[0])
        seat = seen["to_act"][0]
        if action == "play":
            legal = server.state(table, tokens[seat])["legal_actions"]
            action = next(choice for choice in legal if choice["action"] == "play")
        done = server.client.post(
            f"/api/tables/{table}/actions", json=action, headers={"Authorization": f"Bearer {tokens[seat]}"}
        )
        assert done.status_code == 200, (action, done.text)
    assert server.state(table, tokens[0])["status"] == "finished"
    page.goto(f"{server.url}/t/{table}")
    page.wait_for_selector("#summary", timeout=WAIT)
    page.wait_for_selector("#verified.ok", timeout=WAIT)
    page.wait_for_selector("#game-log li[data-at]", timeout=WAIT)
    assert page.locator("#rematch").count() == 0  # a spectator goes back to the lobby only
    screenshot(page, tmp_path, f"look-{size}-finished-watched")

    page.goto(server.url + "/docs")
    page.wait_for_selector(".swagger-ui .opblock", timeout=WAIT)
    assert "/api/tables" in page.inner_text(".swagger-ui")
    screenshot(page, tmp_path, f"look-{size}-docs")
    icon = page.request.get(server.url + "/favicon.ico")
    assert icon.ok
    assert icon.headers["content-type"].startswith("image/svg+xml")
    licence = page.request.get(server.url + "/docs/assets/LICENSE")
    assert licence.ok
    assert "Apache License" in licence.text()
    assert watch.problems == []


WORDS = """async () => {
    const i18n = await import('/static/i18n.js');
    const narration = await import('/static/narration.js');
    const said = {};
    for (const code of ['en', 'it', 'es']) {
        await i18n.useLanguage(code);
        const outcome = (points) => i18n.t('turn.outcome', { name: 'Ann', kind: i18n.t('win.single'), points, count: points });
        said[code] = { one: outcome(1), two: outcome(2) };
    }
    await i18n.useLanguage('en');
    const names = ['Ann', 'Bob', 'Cy'];
    const entries = [
        { seat: 0, action: 'resign', kind: 'single' }, { seat: 1, action: 'decline' },
        { seat: 0, action: 'play', play: '' }, { seat: null, action: 'start_game' },
        { seat: 1, action: 'double', value: 2 }, { seat: 0, action: 'drop' },
        { seat: 1, action: 'roll' }, { seat: 1, action: 'move', moves: '8/5' }, { seat: 1, action: 'move', moves: '6/5' },
        { seat: 1, action: 'commit', dice: [3, 1] }, { seat: 0, action: 'double', against: ['Bob', 'Cy'] },
        { seat: 2, action: 'take' },
    ].map((entry, at) => ({ ...entry, at }));
    said.log = narration.sentences(entries, (seat) => names[seat], (entry) => entry.action).map((line) => line.text);
    return said;
}"""


def test_points_and_resignations_are_said_as_people_say_them_invite_links_show_whole_and_a_match_length_is_asked_only_for_a_match(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    watch = Watch(server)
    page = watch.page(_context(browser, watch, "desktop"))
    page.goto(server.url + "/")
    page.wait_for_selector("#play-bot select[name=series]", timeout=WAIT)
    assert page.input_value("#play-bot select[name=series]") == "single"
    assert not page.is_visible("#play-bot .match-length")
    page.select_option("#play-bot select[name=series]", "match")
    assert page.is_visible("#play-bot .match-length")
    page.select_option("#play-bot select[name=series]", "money")
    assert not page.is_visible("#play-bot .match-length")
    assert page.is_visible("#play-friend .match-length")  # a friend's table is a match at first

    said = page.evaluate(WORDS)
    assert said["en"] == {"one": "Ann wins a single game: 1 point", "two": "Ann wins a single game: 2 points"}
    assert said["it"]["one"].endswith("1 punto")
    assert said["it"]["two"].endswith("2 punti")
    assert said["es"]["one"].endswith("1 punto")
    assert said["es"]["two"].endswith("2 puntos")
    assert said["log"] == [
        "Ann offers to resign a single game",
        "Bob declines the resignation",
        "Ann cannot move",
        "A new game begins",
        "Bob doubles to 2",
        "Ann drops",
        "Bob rolls 3-1 and plays 8/5 6/5",
        "Ann doubles against Bob, Cy",
        "Cy takes",
    ]

    # A chouette's free seats: each link whole in its field, ?seat=N to be seen at its end.
    page.fill("#chouette input[name=name]", "Ann")
    page.fill("#chouette input[name=seats]", "4")
    page.fill("#chouette input[name=bots]", "0")
    page.click("#chouette button[type=submit]")
    page.wait_for_selector("#invite-3", timeout=WAIT)
    links = []
    for seat in (1, 2, 3):
        field = page.locator(f"#invite-{seat}")
        links.append(field.input_value())
        assert links[-1].endswith(f"?seat={seat}")
        assert field.evaluate(
            "e => e.scrollHeight <= e.clientHeight + 1 && e.scrollWidth <= e.clientWidth + 1"
        )
        assert f"seat {seat + 1}" in page.inner_text(f".seats li[data-seat='{seat}']")
    assert len(set(links)) == 3
    screenshot(page, tmp_path, "look-desktop-chouette-invites")
    assert watch.problems == []
