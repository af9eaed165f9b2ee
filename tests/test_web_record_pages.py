"""A table's record read a page of games at a time (``GET /api/tables/{id}/record``), and the analysis
report made in the server's worker processes (``GET /api/tables/{id}/analysis.html``)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")

from fastapi.testclient import TestClient

from tavola.web.app import create_app
from tavola.web.limits import RateLimits
from tavola.web.routes.records import MOST_GAMES
from tavola.web.searches import SearchPool, analysis_html
from tavola.web.storage import open_database
from web_helpers import auth, client_on, create, log_of, play_on, record_of, sit, state

MATCH = {"kind": "game", "series": "match", "length": 3, "seats": [{}, {}]}
SHORT_GAMES_MATCH = {**MATCH, "length": 5, "variant": "hypergammon"}
"""A match of several games, each of a few turns (three checkers a side)."""
SINGLE_GAME = {"kind": "game", "series": "single", "seats": [{}, {}]}
CHOUETTE = {"kind": "chouette", "seats": [{}, {}, {}]}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_on(tmp_path / "server.sqlite3") as client:
        yield client


def _page(client: TestClient, table: str, **params: int) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table}/record", params=params)
    assert response.status_code == 200, response.text
    page: dict[str, Any] = response.json()
    return page


def _pages(client: TestClient, table: str, limit: int) -> list[dict[str, Any]]:
    """Every page of the table's record, ``limit`` games a page."""
    pages = [_page(client, table, start=0, limit=limit)]
    while pages[-1]["start"] + len(pages[-1]["games"]) < pages[-1]["total"]:
        pages.append(_page(client, table, start=pages[-1]["start"] + limit, limit=limit))
    return pages


def test_the_pages_of_a_match_joined_are_the_games_of_record_json(client: TestClient) -> None:
    table = create(client, SHORT_GAMES_MATCH)
    tokens = {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Bob")}
    play_on(client, table, tokens, lambda seen: seen["status"] == "finished")
    record = record_of(client, table)
    games = record.pop("games")
    assert len(games) >= 3
    version = len(log_of(client, table))
    for limit in (1, 2, MOST_GAMES):
        pages = _pages(client, table, limit)
        assert [game for page in pages for game in page["games"]] == games
        for page in pages:
            assert page["total"] == len(games)
            assert page["header"] == record  # players, length, rules, score so far, the dice's commitment
            assert page["version"] == version
    assert _page(client, table)["games"] == games[:MOST_GAMES]  # from the first game, at most MOST_GAMES
    beyond = _page(client, table, start=len(games))
    assert (beyond["start"], beyond["total"], beyond["games"]) == (len(games), len(games), [])


def test_a_page_of_a_live_match_shows_the_game_being_played(client: TestClient) -> None:
    table = create(client, MATCH)
    tokens = {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Bob")}
    play_on(client, table, tokens, lambda seen: seen["version"] > 10)
    page = _page(client, table)
    assert page["header"]["score"] == [0, 0]
    assert "secret" not in page["header"]["dice"]  # until the end
    assert len(page["header"]["dice"]["commitment"]) == 64
    assert page["total"] == 1
    [game] = page["games"]
    assert game["outcome"] is None
    assert game["log"] == record_of(client, table)["games"][0]["log"]


def test_a_bad_start_or_limit_is_refused_naming_it(client: TestClient) -> None:
    table = create(client, MATCH)
    sit(client, table, 0, "Ann")
    sit(client, table, 1, "Bob")
    for params, named in [
        ({"start": -1}, "start"),
        ({"start": "first"}, "start"),
        ({"limit": 0}, "limit"),
        ({"limit": MOST_GAMES + 1}, "limit"),
    ]:
        refused = client.get(f"/api/tables/{table}/record", params=params)
        assert refused.status_code == 400, params
        assert refused.json()["error"].startswith(f"{named}: "), refused.json()


def test_the_record_of_no_table_or_a_table_not_yet_played_is_refused(client: TestClient) -> None:
    assert client.get("/api/tables/nothing-here/record").status_code == 404
    waiting = create(client, MATCH)
    refused = client.get(f"/api/tables/{waiting}/record")
    assert refused.status_code == 409
    assert refused.json() == client.get(f"/api/tables/{waiting}/record.json").json()


def test_a_chouettes_record_is_paged_game_by_game_with_each_games_points(client: TestClient) -> None:
    table = create(client, CHOUETTE)
    tokens = {seat: sit(client, table, seat, name) for seat, name in enumerate(["Ann", "Bob", "Cy"])}
    play_on(client, table, tokens, lambda seen: seen["game"]["is_over"])
    started = client.post(
        f"/api/tables/{table}/actions", json={"action": "start_game"}, headers=auth(tokens[0])
    )
    assert started.status_code == 200, started.text
    play_on(client, table, tokens, lambda seen: seen["game"]["number"] == 2 and seen["version"] > 2)
    record = record_of(client, table)
    pages = _pages(client, table, limit=1)
    games = [game for page in pages for game in page["games"]]
    assert len(games) == pages[0]["total"] == 2
    header = pages[0]["header"]
    assert header["settings"] == record["settings"]
    assert header["totals"] == record["totals"]
    assert header["seating"] == record["seating"]
    assert "log" not in header
    assert "ledger" not in header
    assert [entry["action"] for entry in header["before_games"]] == ["join", "join", "join", "draw_order"]
    assert header["before_games"] + [entry for game in games for entry in game["log"]] == record["log"]
    assert all(game["log"][0]["action"] == "start_game" for game in games)
    assert [{"game": 0, "points": games[0]["points"]}] == record["ledger"]
    assert games[1]["points"] is None  # being played


# --- the analysis in the worker processes --------------------------------------------------------


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A database holding one finished game between two people, and its table."""
    database = tmp_path_factory.mktemp("analysed") / "server.sqlite3"
    with client_on(database) as client:
        table = create(client, SINGLE_GAME)
        tokens = {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Bob")}
        play_on(client, table, tokens, lambda seen: seen["status"] == "finished")
    return database, table


@pytest.fixture(scope="module")
def reports_in_process(finished: tuple[Path, str]) -> dict[str, str]:
    """The 0-ply report of the finished table in Spanish and in Italian, made by a server without a pool."""
    database, table = finished
    with client_on(database) as client:
        return {lang: _report(client, table, lang) for lang in ("es", "it")}


def _report(client: TestClient, table: str, lang: str) -> str:
    response = client.get(f"/api/tables/{table}/analysis.html", params={"level": "0-ply", "lang": lang})
    assert response.status_code == 200, response.text
    return response.text


def _pooled_app(database: Path, pool: SearchPool) -> Any:
    return create_app(open_database(f"sqlite:///{database}"), searches=pool, posts=RateLimits(1e9, 1e9))


class _CountedCompute:
    """A pool's :meth:`SearchPool.compute`, counting what it is given; each waits, where told, until
    ``ready()`` says so (at most 30 seconds)."""

    def __init__(self, pool: SearchPool, ready: Any = lambda: True) -> None:
        self.original = pool.compute
        self.ready = ready
        self.works: list[Any] = []

    async def __call__(self, work: Any, *args: Any) -> Any:
        self.works.append(work)
        deadline = time.monotonic() + 30
        while not self.ready() and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        return await self.original(work, *args)


def test_the_report_made_in_a_worker_is_the_one_made_in_the_server_in_the_requests_language(
    finished: tuple[Path, str], reports_in_process: dict[str, str]
) -> None:
    database, table = finished
    pool = SearchPool(1)
    counted = _CountedCompute(pool)
    pool.compute = counted  # type: ignore[method-assign]
    with TestClient(_pooled_app(database, pool)) as client:
        spanish = _report(client, table, "es")
        assert counted.works == [analysis_html]
        assert spanish == reports_in_process["es"]
        assert '<html lang="es"' in spanish
        assert _report(client, table, "it") == reports_in_process["it"] != spanish
        assert len(counted.works) == 2


class _WatchedReports(dict[tuple[str, str, str], "asyncio.Future[str]"]):
    """The server's reports, counting the requests that took one to wait for."""

    taken = 0

    def __getitem__(self, key: tuple[str, str, str]) -> asyncio.Future[str]:
        self.taken += 1
        return super().__getitem__(key)


def test_two_requests_at_once_for_one_report_make_it_once(
    finished: tuple[Path, str], reports_in_process: dict[str, str]
) -> None:
    database, table = finished
    pool = SearchPool(1)
    app = _pooled_app(database, pool)
    reports = app.state.server.reports = _WatchedReports()
    counted = _CountedCompute(pool, ready=lambda: reports.taken >= 2)  # made once both requests wait
    pool.compute = counted  # type: ignore[method-assign]
    with TestClient(app) as client:
        answers: list[str] = []
        asking = [
            threading.Thread(target=lambda: answers.append(_report(client, table, "es"))) for _ in range(2)
        ]
        for thread in asking:
            thread.start()
        for thread in asking:
            thread.join(60)
        assert answers == [reports_in_process["es"]] * 2
        assert counted.works == [analysis_html]
        assert reports.taken == 2


def test_a_chouette_or_an_unfinished_table_is_not_analysed_and_a_bad_level_is_refused(
    client: TestClient,
) -> None:
    chouette = create(client, CHOUETTE)
    for seat, name in enumerate(["Ann", "Bob", "Cy"]):
        sit(client, chouette, seat, name)
    refused = client.get(f"/api/tables/{chouette}/analysis.html")
    assert refused.status_code == 409
    assert "not a chouette" in refused.json()["error"]
    table = create(client, SINGLE_GAME)
    sit(client, table, 0, "Ann")
    sit(client, table, 1, "Bob")
    assert state(client, table)["status"] == "live"
    assert client.get(f"/api/tables/{table}/analysis.html").status_code == 409
    assert client.get(f"/api/tables/{table}/analysis.html", params={"level": "9-ply"}).status_code == 400
    assert client.get("/api/tables/nothing-here/analysis.html").status_code == 404
    assert client.app.state.server.reports == {}  # type: ignore[attr-defined]  # nothing refused is kept
