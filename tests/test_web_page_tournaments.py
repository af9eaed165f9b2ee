"""Tournaments in a real browser (headless Chromium through Playwright), against ``tavola serve`` in its own
process: a director creates a knockout from the page's form, six people and two bots enter, and the
bracket is drawn as the rounds go by (the director awarding each match, through the API) to its final
standings, with the consolation bracket; a Swiss of six shows its rounds and its standings table. A
player sees the button to play their match, which seats them at its table. The pages pass axe-core's
audit (no serious or critical violation).

Screenshots (at 1400x900 and at a phone's 390x844) go to the test's folder, and to $TAVOLA_ARTEFACTS
where it is set.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")
pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (python)")

import httpx

from test_web_page_a11y import violations
from web_helpers import Server, screenshot

pytestmark = pytest.mark.timeout(300)

WAIT = 30_000  # milliseconds a page may take to show what the server sent
PASSWORD = "correct horse battery"
WIDE = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}
PEOPLE = ["P1", "P2", "P3", "P4", "P5", "P6"]

Page = Any


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "server.sqlite3")
    yield running
    running.kill()


def _post(client: httpx.Client, path: str, body: Any = None) -> httpx.Response:
    """POST, sent again a moment later while the server's limit on POST requests refuses it."""
    while True:
        answer = client.post(path, json=body)
        if answer.status_code != 429:
            return answer
        time.sleep(0.2)


def _signed_up(server: Server, name: str) -> httpx.Client:
    client = httpx.Client(base_url=server.url, timeout=30)
    made = _post(client, "/api/accounts", {"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    return client


def _browser_as(browser: Any, server: Server, size: dict[str, int], client: httpx.Client) -> Page:
    """A page logged in with ``client``'s session."""
    context = browser.new_context(viewport=size, locale="en-GB")
    context.set_default_timeout(WAIT)
    context.set_default_navigation_timeout(WAIT)
    session = client.cookies.get("tavola_session")
    context.add_cookies([{"name": "tavola_session", "value": session, "url": server.url}])
    return context.new_page()


def _award_round(director: httpx.Client, tournament: str) -> bool:
    """The director gives each undecided match to its first player (a bots' table that ended first keeps
    its result); whether the tournament is over."""
    seen = director.get(f"/api/tournaments/{tournament}").json()
    if seen["status"] == "finished":
        return True
    for match in seen["matches"]:
        if match["decided"] is None:
            given = _post(
                director,
                f"/api/tournaments/{tournament}/matches/{match['id']}/award",
                {"winner": match["players"][0]},
            )
            assert given.status_code in (200, 409), given.text
    return False


def test_the_knockout_bracket_and_the_swiss_standings_are_drawn(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    director = _signed_up(server, "Director")
    people = {name: _signed_up(server, name) for name in PEOPLE}
    page = _browser_as(browser, server, WIDE, director)
    page.goto(f"{server.url}/tournaments")
    page.fill("#tournament-form input[name=name]", "Friday knockout")
    page.select_option("#tournament-form select[name=kind]", "knockout")
    page.check("#tournament-form input[name=consolation]")
    page.fill("#tournament-form input[name=lengths]", "1")
    with page.expect_navigation():
        page.click("#tournament-form button[type=submit]")
    tournament = page.url.rsplit("/", 1)[1]
    for client in people.values():
        assert _post(client, f"/api/tournaments/{tournament}/entries").status_code == 200
    for level in ("beginner", "casual"):
        page.select_option("select[name=bot-level]", level)
        page.click("button:has-text('Enter the bot')")
        page.wait_for_selector(f".entries li:has-text('Tavola {level}')")
    page.click("#start")
    page.wait_for_selector("#bracket-main .match[data-match]")
    assert page.locator("#bracket-main .bracket-round").count() == 3
    assert page.locator("#bracket-main .bracket-round").first.locator(".match").count() == 4
    assert page.locator("#bracket-main .bracket-round h3").all_text_contents() == [
        "Round 1",
        "Semi-finals",
        "Final",
    ]
    screenshot(page, tmp_path, "tournament-knockout-running-wide", whole=True)
    assert violations(page) == []  # axe-core's audit of the bracket with the director's buttons

    player = _browser_as(browser, server, PHONE, people["P4"])
    player.goto(f"{server.url}/tournaments/{tournament}")
    mine = player.locator(".match[aria-label='P4 against P5']")
    mine.locator("button.play").wait_for()  # P4 plays P5 in the first round, to start by its deadline
    assert mine.locator(".start-by").text_content().startswith("to start by ")
    screenshot(player, tmp_path, "tournament-knockout-player-phone", whole=True)
    with player.expect_navigation():
        mine.locator("button.play").click()
    assert "/t/" in player.url
    player.wait_for_selector("#you:text-is('You are P4')")  # seated at the table by the token given

    # The director awards a match from the page; the menu stays open while the page is read again.
    page.click(".match[aria-label='P4 against P5'] summary")
    page.wait_for_timeout(3500)
    page.click(".match[aria-label='P4 against P5'] details[open] button:has-text('Give to P4')")
    page.wait_for_selector(".match[aria-label='P4 against P5: P4 won'] :text('awarded')")
    for _round in range(8):
        if _award_round(director, tournament):
            break
        time.sleep(0.5)
    page.wait_for_selector("#standings", timeout=WAIT)
    page.wait_for_selector("[data-status=finished]")
    assert page.locator("#standings tbody tr td:nth-child(2)").all_text_contents()[:2] == ["P1", "P2"]
    final = page.locator("#bracket-main .bracket-round").nth(2)
    assert final.locator(".player.won").all_text_contents() == ["P1"]
    assert final.locator(".match").get_attribute("aria-label") == "P1 against P2: P1 won"
    assert page.locator("#bracket-consolation .bracket-round").count() == 2
    screenshot(page, tmp_path, "tournament-knockout-finished-wide", whole=True)
    assert violations(page) == []
    phone = _browser_as(browser, server, PHONE, director)
    phone.goto(f"{server.url}/tournaments/{tournament}")
    phone.wait_for_selector("#standings")
    screenshot(phone, tmp_path, "tournament-knockout-finished-phone", whole=True)

    made = _post(director, "/api/tournaments", {"name": "Swiss evening", "kind": "swiss", "rounds": 3})
    assert made.status_code == 201, made.text
    swiss = made.json()["id"]
    for client in people.values():
        assert _post(client, f"/api/tournaments/{swiss}/entries").status_code == 200
    assert _post(director, f"/api/tournaments/{swiss}/start").status_code == 200
    for _round in range(6):
        if _award_round(director, swiss):
            break
        time.sleep(0.5)
    page.goto(f"{server.url}/tournaments/{swiss}")
    page.wait_for_selector("[data-status=finished] #standings")
    assert page.locator(".swiss-round").count() == 3
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 6
    assert rows.first.locator("td").all_text_contents()[:3] == ["1", "P1", "3"]
    screenshot(page, tmp_path, "tournament-swiss-wide", whole=True)
    assert violations(page) == []
    phone.goto(f"{server.url}/tournaments/{swiss}")
    phone.wait_for_selector("[data-status=finished] #standings")
    screenshot(phone, tmp_path, "tournament-swiss-phone", whole=True)
    page.goto(f"{server.url}/tournaments")
    page.wait_for_selector("#tournaments li a:has-text('Swiss evening')")
    assert page.locator("#tournaments li").count() == 2
    page.wait_for_selector("#tournament-form")
    assert violations(page) == []
