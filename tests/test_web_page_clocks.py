"""The clocks on the page, in a real browser (headless Chromium through Playwright) against ``tavola serve``
in its own process: a match made in the lobby with a time control of its own, both clocks by the
players' names, the running one counting down by itself with its delay apart, and the player who lets
it run out told they lost on time; a paused tournament's table, its clocks shown stopped, counting nothing
down, until the tournament is resumed.

A screenshot goes to the test's folder, and to $TAVOLA_ARTEFACTS where it is set.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")
pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (python)")

from web_helpers import Server, screenshot

pytestmark = pytest.mark.timeout(180)

WAIT = 30_000  # milliseconds a page may take to show what the server sent
DELAY, BANK = 4, 6  # seconds: a 1-point match, so the bank is 6 s


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "server.sqlite3")
    yield running
    running.kill()


def test_the_page_shows_both_clocks_counting_down_and_the_match_lost_on_time(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    context = browser.new_context()
    context.set_default_timeout(WAIT)
    page = context.new_page()
    page.goto(server.url + "/")
    page.fill("#play-friend input[name=name]", "Ann")
    page.select_option("#play-friend select[name=series]", "match")
    page.fill("#play-friend input[name=match_length]", "1")
    page.select_option("#play-friend select[name=clock]", "custom")
    page.fill("#play-friend input[name=clock_delay]", str(DELAY))
    page.fill("#play-friend input[name=clock_bank]", str(BANK))
    page.click("#play-friend button[type=submit]")
    page.wait_for_selector("#invite-1")
    table = page.evaluate("window.tavolaTable.state.id")
    options = page.evaluate("window.tavolaTable.state.options")
    assert options["clock"] == {"delay": DELAY, "bank": BANK}

    sat = server.client.post(f"/api/tables/{table}/seats/1", json={"name": "Ben"})
    assert sat.status_code == 200, sat.text
    page.wait_for_selector("#main[data-status='live']")
    assert page.inner_text("#clock-0 .clock-name") == "Ann"
    assert page.inner_text("#clock-1 .clock-name") == "Ben"
    running = page.get_attribute(".clock.running", "id")
    assert running in ("clock-0", "clock-1")
    loser = int(running[-1])
    assert page.inner_text("h1") == f"Match to 1 · {DELAY} s + {BANK} s a point"
    page.wait_for_function(  # the delay shown apart, counting down before the bank does
        "() => /^[+][1-4] s$/.test(document.querySelector('.clock.running .clock-delay').textContent)"
    )
    # Counting down by itself, with no state coming: the delay first, then the bank below its 6 s.
    page.wait_for_function(
        "() => Number(document.querySelector('.clock.running').dataset.left) < 5", timeout=WAIT
    )
    assert float(page.get_attribute(f"#clock-{1 - loser}", "data-left")) == BANK
    screenshot(page, tmp_path, "page-clocks-running", whole=True)

    page.wait_for_selector("#forfeit", timeout=WAIT)
    who = "Ann" if loser == 0 else "Ben"
    assert page.inner_text("#forfeit") == f"{who} lost on time"
    assert "out" in (page.get_attribute(f"#clock-{loser}", "class") or "")
    assert page.inner_text(f"#clock-{loser} .clock-bank") == "out of time"
    assert page.get_attribute("#main", "data-status") == "finished"
    screenshot(page, tmp_path, "page-clocks-lost-on-time", whole=True)
    context.close()


def _tournament_table(server: Server) -> tuple[httpx.Client, str, str]:
    """A timed knockout of Ann and Bob on ``server``, both seated: its director's client, the tournament
    and the match's table."""
    clients = {}
    for name in ("Director", "Ann", "Bob"):
        clients[name] = httpx.Client(base_url=server.url, timeout=30)
        signed = clients[name].post("/api/accounts", json={"name": name, "password": "correct horse battery"})
        assert signed.status_code == 201, signed.text
    settings = {"name": "Break", "kind": "knockout", "clock": {"delay": DELAY, "bank": 60}}
    tournament = clients["Director"].post("/api/tournaments", json=settings).json()["id"]
    for name in ("Ann", "Bob"):
        assert clients[name].post(f"/api/tournaments/{tournament}/entries").status_code == 200
    assert clients["Director"].post(f"/api/tournaments/{tournament}/start").status_code == 200
    match = clients["Director"].get(f"/api/tournaments/{tournament}").json()["matches"][0]
    for name in ("Ann", "Bob"):
        seat = clients[name].post(f"/api/tournaments/{tournament}/matches/{match['id']}/seat")
        assert seat.status_code == 200, seat.text
    return clients["Director"], tournament, match["table"]


def test_the_page_shows_a_paused_tournaments_clocks_stopped_then_running_again(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    director, tournament, table = _tournament_table(server)
    assert director.post(f"/api/tournaments/{tournament}/pause").status_code == 200
    context = browser.new_context()
    context.set_default_timeout(WAIT)
    page = context.new_page()
    page.goto(f"{server.url}/t/{table}")
    page.wait_for_selector("#clock-0.paused")
    assert page.query_selector(".clock.running") is None
    assert page.inner_text("#clock-1 .clock-paused") == "paused"
    stood = [page.get_attribute(f"#clock-{seat}", "data-left") for seat in (0, 1)]
    page.wait_for_timeout(1500)  # no countdown while stopped
    assert [page.get_attribute(f"#clock-{seat}", "data-left") for seat in (0, 1)] == stood
    screenshot(page, tmp_path, "page-clocks-paused", whole=True)

    assert director.post(f"/api/tournaments/{tournament}/resume").status_code == 200
    page.wait_for_selector(".clock.running")  # the state sent as the clocks start again
    assert page.query_selector(".clock.paused") is None
    assert page.is_hidden("#clock-0 .clock-paused")
    context.close()
