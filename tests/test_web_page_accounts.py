"""Accounts, seeks and ratings in a real browser (headless Chromium through Playwright), against ``tavola
serve`` in its own process: two people sign up in the header, one posts a rated seek in the lobby and the
other accepts it in another browser, and both land at the one table; once rated matches are played, a
player's page shows their ratings, the chart of their rating's history and their matches, and the
leaderboard ranks them, and a match analysed shows both sides' error rates there (one never analysed, a
link to analyse it); logging out and in again works from the header.

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

from web_helpers import Server, auth, choose, screenshot

pytestmark = pytest.mark.timeout(300)

WAIT = 30_000  # milliseconds a page may take to show what the server sent
PASSWORD = "correct horse battery"
WIDE = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}

Page = Any


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "server.sqlite3")
    yield running
    running.kill()


def _page(browser: Any, server: Server, size: dict[str, int], path: str = "/") -> Page:
    context = browser.new_context(viewport=size, locale="en-GB")
    context.set_default_timeout(WAIT)
    context.set_default_navigation_timeout(WAIT)
    page = context.new_page()
    page.goto(server.url + path)
    return page


def _enter(page: Page, name: str, button: str) -> None:
    """Log in or sign up (``button``) from the header's form; the page comes back with the account."""
    page.click("#account-toggle")
    page.fill("#login input[name=name]", name)
    page.fill("#login input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.click(f"#login button[value={button}]")
    page.wait_for_selector(f"#account a.account-name:text-is('{name}')")


def _finish(server: Server, table: str, tokens: dict[int, str]) -> None:
    """Play the table's match to its end through the API, both seats by their tokens, within the server's
    limit on POST requests (an action refused for it is sent again a moment later)."""
    for _action in range(2000):
        seen = server.state(table, tokens[0])
        if seen["status"] == "finished":
            return
        seat = seen["to_act"][0]
        action = choose(server.state(table, tokens[seat])["legal_actions"])
        done = _post(server.client, f"/api/tables/{table}/actions", action, auth(tokens[seat]))
        assert done.status_code == 200, done.text
    raise AssertionError("the match did not end in 2000 actions")


def _post(
    client: httpx.Client, path: str, body: Any, headers: dict[str, str] | None = None
) -> httpx.Response:
    """POST, sent again a moment later while the server's limit on POST requests refuses it."""
    while True:
        answer = client.post(path, json=body, headers=headers)
        if answer.status_code != 429:
            return answer
        time.sleep(0.2)


def _rated_match_through_the_api(server: Server, ann: httpx.Client, bob: httpx.Client) -> None:
    posted = _post(ann, "/api/seeks", {"series": "match", "length": 1, "rated": True})
    assert posted.status_code == 201, posted.text
    seek, secret = posted.json()["seek"], posted.json()["secret"]
    taken = _post(bob, f"/api/seeks/{seek['id']}/accept", {})
    assert taken.status_code == 200, taken.text
    _finish(server, taken.json()["table"], {0: secret, 1: taken.json()["token"]})


def _logged_in(server: Server, name: str) -> httpx.Client:
    client = httpx.Client(base_url=server.url, timeout=30)
    entered = _post(client, "/api/session", {"name": name, "password": PASSWORD})
    assert entered.status_code == 200, entered.text
    return client


def test_sign_up_post_a_seek_accept_it_elsewhere_then_the_player_page_and_the_leaderboard(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    ann = _page(browser, server, WIDE)
    bob = _page(browser, server, PHONE)
    _enter(ann, "Ann", "sign-up")
    _enter(bob, "Bob", "sign-up")

    ann.click("#seeks .seek-new summary")
    ann.select_option("#seek-form select[name=series]", "match")
    ann.fill("#seek-form input[name=match_length]", "1")
    ann.check("#seek-form input[name=rated]")
    ann.click("#post-seek")
    ann.wait_for_selector("#seeks .seek-waiting:not([hidden])")
    accept = bob.wait_for_selector("#seeks li[data-seek] .accept-seek")
    assert "Ann" in bob.inner_text("#seeks li[data-seek]")
    screenshot(ann, tmp_path, "seeks-lobby-1400x900", whole=True)
    screenshot(bob, tmp_path, "seeks-lobby-390x844", whole=True)

    with bob.expect_navigation():
        accept.click()
    ann.wait_for_url("**/t/*")
    assert ann.url == bob.url  # both at the one table
    for page, seat in ((ann, 0), (bob, 1)):
        page.wait_for_function(
            "s => window.tavolaTable && window.tavolaTable.state && window.tavolaTable.state.you === s",
            arg=seat,
        )
    table = ann.url.rsplit("/", 1)[1]
    tokens = {
        seat: page.evaluate("t => JSON.parse(localStorage.getItem('tavola.seats'))[t].token", table)
        for seat, page in ((0, ann), (1, bob))
    }
    assert server.state(table, tokens[0])["status"] == "live"
    _finish(server, table, tokens)

    ann_api, bob_api = _logged_in(server, "Ann"), _logged_in(server, "Bob")
    for _match in range(2):
        _rated_match_through_the_api(server, ann_api, bob_api)

    for page, size in ((ann, "1400x900"), (bob, "390x844")):
        page.goto(f"{server.url}/players/Ann")
        page.wait_for_selector("svg.rating-chart")
        assert page.locator("svg.rating-chart circle").count() == 3  # a dot per rated match
        assert page.locator("table.matches tbody tr").count() == 3
        assert "standard" in page.inner_text("table.ratings")
        screenshot(page, tmp_path, f"player-{size}", whole=True)
        page.goto(f"{server.url}/leaderboard")
        page.wait_for_selector("table.ratings tbody tr a")
        names = page.locator("table.ratings tbody tr td:nth-child(2)").all_inner_texts()
        assert sorted(names) == ["Ann", "Bob"]
        screenshot(page, tmp_path, f"leaderboard-{size}", whole=True)
    ratings = {row["name"]: row["rating"] for row in server.client.get("/api/leaderboard").json()["players"]}
    assert names == sorted(ratings, key=lambda name: -ratings[name])  # highest first

    with ann.expect_navigation():
        ann.click("#log-out")
    ann.wait_for_selector("#account-toggle")
    assert server.client.get("/api/session").json()["account"] is None
    _enter(ann, "Ann", "log-in")
    assert ann.url.endswith("/leaderboard")


def test_a_guest_posts_a_seek_and_another_guest_accepts_it_both_seated(browser: Any, server: Server) -> None:
    ann = _page(browser, server, WIDE)
    bob = _page(browser, server, PHONE)
    ann.click("#seeks .seek-new summary")
    ann.fill("#seek-form input[name=name]", "Ann")
    assert ann.is_disabled("#seek-form input[name=rated]")  # a guest's seeks are unrated
    ann.select_option("#seek-form select[name=series]", "single")
    ann.click("#post-seek")
    ann.wait_for_selector("#seeks .seek-waiting:not([hidden])")
    bob.click("#seeks .seek-new summary")
    bob.fill("#seek-form input[name=name]", "Bob")
    accept = bob.wait_for_selector("#seeks li[data-seek] .accept-seek")
    with bob.expect_navigation():
        accept.click()
    ann.wait_for_url("**/t/*")
    assert ann.url == bob.url
    table = ann.url.rsplit("/", 1)[1]
    token = ann.evaluate("t => JSON.parse(localStorage.getItem('tavola.seats'))[t].token", table)
    seen = server.client.get(f"/api/tables/{table}", headers=auth(token)).json()
    assert (seen["you"], [seat["name"] for seat in seen["seats"]]) == (0, ["Ann", "Bob"])


def test_two_guests_asking_to_play_now_are_paired_at_one_table(browser: Any, server: Server) -> None:
    pages = [_page(browser, server, WIDE), _page(browser, server, PHONE)]
    for page, name in zip(pages, ("Ann", "Bob"), strict=True):
        page.click("#seeks .seek-new summary")
        page.fill("#seek-form input[name=name]", name)
        page.select_option("#seek-form select[name=series]", "single")
    pages[0].click("#play-now")
    pages[0].wait_for_selector("#seeks .seek-waiting:not([hidden])")
    assert server.client.get("/api/seeks").json()["seeks"] == []  # play now is the server's to pair
    with pages[1].expect_navigation():
        pages[1].click("#play-now")
    pages[0].wait_for_url("**/t/*")
    assert pages[0].url == pages[1].url
    for page, seat in zip(pages, (0, 1), strict=True):
        page.wait_for_function(
            "s => window.tavolaTable && window.tavolaTable.state && window.tavolaTable.state.you === s",
            arg=seat,
        )


def test_a_rated_match_against_the_bot_made_in_the_lobby_and_taken_up_on_another_device(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    laptop = _page(browser, server, WIDE)
    _enter(laptop, "Ann", "sign-up")
    laptop.fill("#play-bot input[name=name]", "Ann")
    laptop.select_option("#play-bot select[name=series]", "match")
    laptop.check("#play-bot input[name=rated]")
    assert not laptop.is_checked("#play-bot input[name=hints]")  # a rated match gives no hints
    laptop.click("#play-bot button[type=submit]")
    laptop.wait_for_url("**/t/*")
    table = laptop.url.rsplit("/", 1)[1].split("?")[0]
    seen = server.client.get(f"/api/tables/{table}").json()
    assert seen["options"]["rated"] is True
    assert seen["seats"][0]["name"] == "Ann"
    phone = _page(browser, server, PHONE)
    _enter(phone, "Ann", "log-in")
    phone.goto(f"{server.url}/t/{table}")
    phone.click("#come-back-0")  # her own seat, taken up on this device
    phone.wait_for_selector("#come-back-0", state="detached")
    assert phone.evaluate(f"JSON.parse(localStorage.getItem('tavola.seats'))['{table}'].seat") == 0
    screenshot(phone, tmp_path, "account-seat-taken-up-390x844", whole=True)
    held = laptop.evaluate(f"JSON.parse(localStorage.getItem('tavola.seats'))['{table}'].token")
    assert server.state(table, held)["you"] is None  # the laptop's token no longer counts


def test_the_player_page_shows_both_sides_error_rates_once_a_match_is_analysed(
    browser: Any, server: Server
) -> None:
    clients = {}
    for name in ("Ann", "Bob"):
        clients[name] = httpx.Client(base_url=server.url, timeout=30)
        signed = _post(clients[name], "/api/accounts", {"name": name, "password": PASSWORD})
        assert signed.status_code == 201, signed.text
    _rated_match_through_the_api(server, clients["Ann"], clients["Bob"])
    analysed = server.client.get("/api/players/Ann").json()["history"][0]["table"]
    job = _post(server.client, f"/api/tables/{analysed}/analyses?level=0-ply", {}).json()["id"]
    deadline = time.monotonic() + 60
    while (answer := server.client.get(f"/api/analyses/{job}").json())["status"] == "running":
        assert time.monotonic() < deadline, "the analysis took over 60 seconds"
        time.sleep(0.1)
    assert answer["status"] == "done", answer["error"]
    mine, theirs = (player["error_rate_memg"] for player in answer["analysis"]["players"])  # Ann sat at 0
    _rated_match_through_the_api(server, clients["Ann"], clients["Bob"])  # never analysed

    page = _page(browser, server, WIDE, "/players/Ann")
    page.wait_for_selector("table.matches tbody tr")
    assert "Error rate (mEMG): Ann / opponent" in page.inner_text("table.matches thead")
    newest, older = page.locator("table.matches tbody tr td.errors").all()
    assert older.inner_text() == f"{mine:.1f} / {theirs:.1f}"
    link = newest.locator("a")
    assert link.inner_text() == "Analyse"
    assert link.get_attribute("href").endswith("/analysis")
