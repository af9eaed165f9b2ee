"""The analysis to step through, in headless Chromium at a desktop's size (1400x900) and a phone's
(390x844): a record uploaded with the page's form is analysed while a progress bar shows, then stepped
through forward and back (buttons and arrow keys), from error to error, with the candidates of a checker
play, the choices of a cube decision and a click on the chart; no request leaves the server and no page
logs an error.

Screenshots go to the test's folder and to $TAVOLA_ARTEFACTS where it is set. Every wait is bounded
(``WAIT``, ``CLICK``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")
pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (python)")

from web_helpers import Server, auth, choose, create, screenshot, sit

pytestmark = pytest.mark.timeout(180)

WAIT = 30_000  # milliseconds a page may take to show what the server sent
CLICK = 3_000  # milliseconds a click may wait for its element
SIZES = {"desktop": {"width": 1400, "height": 900}, "phone": {"width": 390, "height": 844}}
MATCH = Path(__file__).parent / "data" / "gnubg-5-point-match.mat"
"""A 5-point match of six games, with doubles, takes and drops: 222 decisions, 21 of them errors at 0-ply."""

Page = Any


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("review") / "server.sqlite3")
    yield running
    running.kill()


class Watch:
    """What went wrong on a context's pages: console errors, uncaught exceptions, failed requests, answers
    of 400 or more, and requests to any other host (refused before they leave)."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.problems: list[str] = []

    def context(self, browser: Any, size: str) -> Any:
        context = browser.new_context(viewport=SIZES[size])
        context.set_default_timeout(WAIT)
        context.route("**/*", self._route)
        return context

    def page(self, context: Any) -> Page:
        page = context.new_page()
        page.on("console", lambda message: message.type == "error" and self.problems.append(message.text))
        page.on("pageerror", lambda error: self.problems.append(f"exception: {error}"))
        page.on("requestfailed", lambda request: self._failed(request))
        page.on("response", lambda response: response.status >= 400 and self.problems.append(response.url))
        return page

    def _failed(self, request: Any) -> None:
        """A request that failed; one cut short by leaving its page (or refused by :meth:`_route`) is not."""
        if request.failure != "net::ERR_ABORTED":
            self.problems.append(f"failed: {request.url} {request.failure}")

    def _route(self, route: Any) -> None:
        url = route.request.url
        if url.startswith(self.server.url + "/") or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            self.problems.append(f"outside: {url}")
            route.abort()


def uploaded(page: Page, server: Server) -> str:
    """Upload :data:`MATCH` with the page's form at 0-ply; the job's id, once the analysis is shown."""
    page.goto(server.url + "/analysis")
    page.set_input_files("#upload-file", str(MATCH))
    page.select_option("#upload-level", "0-ply")
    page.click("#upload button[type=submit]", timeout=CLICK)
    page.wait_for_selector("#main[data-status='running'], #main[data-status='done']", timeout=WAIT)
    page.wait_for_selector("#main[data-status='done'] #board svg", timeout=WAIT)
    return str(page.evaluate("location.pathname").removeprefix("/analysis/"))


def _at(page: Page) -> int:
    return int(page.get_attribute("#main", "data-at"))


def _step(page: Page, selector: str, expected: int) -> None:
    page.click(selector, timeout=CLICK)
    page.wait_for_function("at => document.querySelector('#main').dataset.at === String(at)", arg=expected)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_stepping_through_an_uploaded_match_from_move_to_move_and_error_to_error(
    browser: Any, server: Server, size: str, tmp_path: Path
) -> None:
    watch = Watch(server)
    context = watch.context(browser, size)
    page = watch.page(context)
    job = uploaded(page, server)
    analysis = server.client.get(f"/api/analyses/{job}").json()["analysis"]
    decisions = analysis["decisions"]
    errors = [index for index, decision in enumerate(decisions) if decision["skill"] != "none"]
    first = decisions[0]
    label = page.get_attribute("#board svg", "aria-label")
    assert first["position_id"] in label
    assert "167" in label  # the pips
    assert page.get_attribute("#board svg", "role") == "img"
    assert page.is_visible("#candidates")
    assert page.locator("#candidates tbody tr").count() == len(first["alternatives"])
    won = [game for game in analysis["games"] if game["winner"] is not None]
    assert page.locator(".review-sheet .small-print").count() == len(won)  # each game's result
    screenshot(page, tmp_path, f"review-{size}-start")

    _step(page, "#review-forward", 1)
    _step(page, "#review-back", 0)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('#main').dataset.at === '2'")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => document.querySelector('#main').dataset.at === '1'")
    assert decisions[1]["played"] in page.inner_text("#review-caption")
    assert decisions[1]["position_id"] in page.get_attribute("#board svg", "aria-label")  # told each step

    _step(page, "#review-next-error", errors[0])
    _step(page, "#review-next-error", errors[1])
    _step(page, "#review-previous-error", errors[0])
    assert page.get_attribute(f".review-moves button[data-at='{errors[0]}']", "aria-current") == "step"

    cube = next(index for index, decision in enumerate(decisions) if decision["kind"] == "cube")
    _step(page, f".review-moves button[data-at='{cube}']", cube)
    assert page.is_visible("#cube-table")
    rows = page.locator("#cube-table tbody tr")
    assert rows.count() == len(decisions[cube]["alternatives"])
    assert page.locator("#cube-table .tag.right").count() == 1
    screenshot(page, tmp_path, f"review-{size}-cube")

    mark = page.locator("#chart .mark").nth(3)
    _step(page, "#chart .mark >> nth=3", int(mark.get_attribute("data-at")))
    box = page.locator("#chart").bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.999, box["y"] + box["height"] / 2)
    page.wait_for_function(
        "last => document.querySelector('#main').dataset.at === String(last)", arg=len(decisions) - 1
    )
    assert page.is_disabled("#review-forward")
    screenshot(page, tmp_path, f"review-{size}-chart")
    assert watch.problems == []
    context.close()


def _resigned_game(server: Server) -> str:
    """A single game between two people, ended by a resignation after a few plays (a few requests: the
    server limits them)."""
    client = server.client
    table = create(client, {"kind": "game", "series": "single", "seats": [{}, {}]})  # type: ignore[arg-type]
    tokens = {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Bob")}  # type: ignore[arg-type]
    for turn in range(40):
        seen = server.state(table, tokens[0])
        if seen["status"] == "finished":
            return table
        seat = seen["to_act"][0]
        legal = server.state(table, tokens[seat])["legal_actions"]
        resign = next((action for action in legal if action["action"] == "resign"), None)
        action = resign if resign is not None and turn > 6 else choose(legal)
        answer = client.post(f"/api/tables/{table}/actions", json=action, headers=auth(tokens[seat]))
        assert answer.status_code == 200, answer.text
    raise AssertionError("the game did not end")


def test_a_finished_tables_analysis_opens_from_its_page_shows_its_progress_and_lists_every_decision(
    browser: Any, server: Server
) -> None:
    client = server.client
    table = _resigned_game(server)
    watch = Watch(server)
    context = watch.context(browser, "desktop")
    page = watch.page(context)
    answered: list[str] = []

    def running_first(route: Any) -> None:
        """The job's first answer says it is at step 2 of 5, whatever it is: the progress bar shows it."""
        if answered:
            route.continue_()
        else:
            answered.append(route.request.url)
            route.fulfill(json={"id": "j", "status": "running", "done": 2, "total": 5, "analysis": None})

    page.route("**/api/analyses/table-*", running_first)
    page.goto(f"{server.url}/t/{table}")
    page.wait_for_selector("#main[data-status='finished']", timeout=WAIT)
    page.click("#analysis-steps", timeout=CLICK)
    page.wait_for_selector("#main[data-status='running'] #review-progress", timeout=WAIT)
    assert page.get_attribute("#review-progress", "value") == "2"
    assert page.get_attribute("#review-progress", "max") == "5"
    assert "2" in page.inner_text(".review-progress [role=status]")
    page.wait_for_selector("#main[data-status='done'] #board svg", timeout=WAIT)
    assert page.evaluate("location.pathname") == f"/t/{table}/analysis"
    assert page.inner_text("#review-title") == "Ann \N{EN DASH} Bob"
    decisions = client.get(f"/api/analyses/table-{table}-1-ply").json()["analysis"]["decisions"]
    assert page.locator(".review-moves button").count() == len(decisions)
    assert watch.problems == []
    context.close()


def test_a_record_that_does_not_read_is_refused_on_the_form_with_its_readers_message(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    watch = Watch(server)
    context = watch.context(browser, "desktop")
    page = watch.page(context)
    broken = tmp_path / "broken.mat"
    broken.write_text(MATCH.read_text().replace(" 5 point match", " five point match"))
    page.goto(server.url + "/analysis")
    page.set_input_files("#upload-file", str(broken))
    page.click("#upload button[type=submit]", timeout=CLICK)
    page.wait_for_function("() => document.querySelector('#upload-error').textContent !== ''")
    assert page.inner_text("#upload-error").startswith("broken.mat: ")
    refusal = f"{server.url}/api/analyses?name=broken.mat&level=1-ply&lang=en"
    assert refusal in watch.problems  # the 400, which the browser logs too; nothing else went wrong
    assert [problem for problem in watch.problems if problem != refusal and "400" not in problem] == []
    context.close()
