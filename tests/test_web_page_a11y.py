"""Tavola's pages pass an automated accessibility audit: axe-core (``tests/vendor/axe-core``, run inside
headless Chromium) finds no serious or critical violation on the lobby, a table during play (at a
desktop's size and a phone's), the form to upload a record and the analysis to step through; the board
has a text alternative (its position ID and the pips) that follows the play.

axe is put into each page by the test itself: the server never serves it, and no request leaves it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")
pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (python)")

from test_web_page_review import CLICK, MATCH, WAIT, Watch
from web_helpers import Server

pytestmark = pytest.mark.timeout(180)

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
FAILING = ("serious", "critical")
"""The impacts that fail the audit."""

Page = Any


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("a11y") / "server.sqlite3")
    yield running
    running.kill()


def violations(page: Page) -> list[str]:
    """axe's serious and critical violations on the page as it is, each with the elements at fault."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found = page.evaluate("async () => (await axe.run(document, { resultTypes: ['violations'] })).violations")
    return [
        f"{violation['impact']} {violation['id']}: {violation['help']} at "
        + ", ".join(" ".join(node["target"]) for node in violation["nodes"][:5])
        for violation in found
        if violation["impact"] in FAILING
    ]


def _bot_table(page: Page, server: Server) -> None:
    """A single game against the bot, begun from the lobby's form."""
    page.goto(server.url + "/")
    page.fill("#play-bot input[name=name]", "Ann")
    page.select_option("#play-bot select[name=level]", "beginner")
    page.select_option("#play-bot select[name=series]", "single")
    page.click("#play-bot button[type=submit]", timeout=CLICK)
    page.wait_for_selector("#main[data-status='live'] #board svg", timeout=WAIT)


def test_the_lobby_and_the_upload_form_pass_the_audit(browser: Any, server: Server) -> None:
    watch = Watch(server)
    context = watch.context(browser, "desktop")
    page = watch.page(context)
    page.goto(server.url + "/")
    page.wait_for_selector("#play-bot", timeout=WAIT)
    assert violations(page) == []
    page.goto(server.url + "/analysis")
    page.wait_for_selector("#upload", timeout=WAIT)
    assert violations(page) == []
    assert watch.problems == []
    context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_table_during_a_play_passes_the_audit_and_its_board_tells_the_position_and_the_pips(
    browser: Any, server: Server, size: str
) -> None:
    watch = Watch(server)
    context = watch.context(browser, size)
    page = watch.page(context)
    _bot_table(page, server)
    page.wait_for_selector("#to-act.mine", timeout=WAIT)
    if page.locator("button.action-roll").count():
        page.click("button.action-roll", timeout=CLICK)
    page.wait_for_selector("#board rect[role=button]", timeout=WAIT)  # the checkers to move, to click
    board = page.locator("#board svg")
    assert board.get_attribute("role") == "img"
    position = page.evaluate("window.tavolaTable.state.game.position")
    label = board.get_attribute("aria-label")
    assert position["position_id"] in label
    assert all(str(pips) in label for pips in position["pips"])
    assert violations(page) == []
    assert watch.problems == []
    context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_analysis_to_step_through_passes_the_audit(browser: Any, server: Server, size: str) -> None:
    started = server.client.post(
        "/api/analyses",
        content=MATCH.read_bytes(),
        params={"name": MATCH.name, "level": "0-ply"},
        headers={"content-type": "application/octet-stream"},
    )
    assert started.status_code == 202, started.text
    watch = Watch(server)
    context = watch.context(browser, size)
    page = watch.page(context)
    page.goto(server.url + started.json()["page"])
    page.wait_for_selector("#main[data-status='done'] #board svg", timeout=WAIT)
    assert violations(page) == []
    page.click("#review-next-error", timeout=CLICK)
    assert violations(page) == []
    assert watch.problems == []
    context.close()
