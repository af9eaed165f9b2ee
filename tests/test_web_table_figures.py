"""Each side's error rate on a player's page: a rated match's table analysed through the routes stores
both seats' figures once per level, and ``GET /api/players/{name}`` shows them by the player's seat
(null where never analysed); migration 0007 goes down and up; on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")
pytest.importorskip("argon2", reason="accounts need argon2-cffi (pip install 'tavola[web]')")

from fastapi.testclient import TestClient
from sqlalchemy import func, inspect, select
from sqlalchemy.orm import Session

from tavola.analysis.model import Analysis
from tavola.web.analyses import AnalysisJobs
from tavola.web.app import create_app
from tavola.web.limits import RateLimits
from tavola.web.storage import Store, migrate, open_database
from tavola.web.table_figures import TableFiguresRow, store_figures
from web_helpers import create, resign_when_able

pytestmark = pytest.mark.timeout(180)

PASSWORD = "correct horse battery"
FAST = {"level": "0-ply"}
MATCH = {"kind": "game", "series": "match", "length": 1, "rated": True}


@pytest.fixture
def club(url: str) -> Iterator[dict[str, TestClient]]:
    """Ann and Bob, each signed up and logged in with a client of their own, on one server."""
    app = create_app(open_database(url), posts=RateLimits(capacity=1e9, per_second=1e9))
    with TestClient(app) as ann:
        bob = TestClient(app)
        for client, name in ((ann, "Ann"), (bob, "Bob")):
            signed = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
            assert signed.status_code == 201, signed.text
        yield {"Ann": ann, "Bob": bob}


def _sit(client: TestClient, table: str, seat: int) -> str:
    sat = client.post(f"/api/tables/{table}/seats/{seat}", json={"name": None})
    assert sat.status_code == 200, sat.text
    return str(sat.json()["token"])


def _analysed(client: TestClient, table: str) -> dict[str, Any]:
    """The table's analysis at the fastest level, made through the routes (at most 60 seconds)."""
    started = client.post(f"/api/tables/{table}/analyses", params=FAST)
    assert started.status_code == 202, started.text
    deadline = time.monotonic() + 60
    while True:
        answer: dict[str, Any] = client.get(started.json()["url"]).json()
        if answer["status"] != "running":
            assert answer["status"] == "done", answer["error"]
            analysis: dict[str, Any] = answer["analysis"]
            return analysis
        assert time.monotonic() < deadline, "the analysis took over 60 seconds"
        time.sleep(0.05)


def _history(client: TestClient, name: str) -> list[dict[str, Any]]:
    page = client.get(f"/api/players/{name}")
    assert page.status_code == 200, page.text
    found: list[dict[str, Any]] = page.json()["history"]
    return found


def _store(client: TestClient) -> Store:
    store: Store = client.app.state.server.hub.store  # type: ignore[attr-defined]
    return store


def _rows(store: Store) -> int:
    with Session(store.engine) as session:
        return int(session.scalar(select(func.count()).select_from(TableFiguresRow)) or 0)


def test_a_rated_match_analysed_shows_both_sides_error_rates_on_each_players_page(
    club: dict[str, TestClient],
) -> None:
    ann, bob = club["Ann"], club["Bob"]
    table = create(ann, {**MATCH, "seats": [{}, {}]})
    tokens = {0: _sit(ann, table, 0), 1: _sit(bob, table, 1)}
    resign_when_able(ann, table, tokens, loser=1)
    never = create(ann, {**MATCH, "seats": [{}, {}]})
    resign_when_able(ann, never, {0: _sit(bob, never, 0), 1: _sit(ann, never, 1)}, loser=0)
    assert [entry["errors"] for entry in _history(ann, "Ann")] == [None, None]

    players = _analysed(ann, table)["players"]
    first, second = (player["error_rate_memg"] for player in players)
    assert first != second  # Bob resigned a game far from lost: a big error of his
    ann_history, bob_history = _history(ann, "Ann"), _history(ann, "Bob")
    assert [entry["table"] for entry in ann_history] == [never, table]
    assert ann_history[0]["errors"] is None  # never analysed
    assert ann_history[1]["errors"] == {
        "mine": first,
        "theirs": second,
        "mine_pr": players[0]["pr"],
        "theirs_pr": players[1]["pr"],
        "level": "0-ply",
    }
    assert bob_history[1]["errors"]["mine"] == second
    assert bob_history[1]["errors"]["theirs"] == first
    assert _rows(_store(ann)) == 1


def test_a_table_analysed_again_keeps_one_row_even_when_stored_at_once(club: dict[str, TestClient]) -> None:
    ann, bob = club["Ann"], club["Bob"]
    table = create(ann, {**MATCH, "seats": [{}, {}]})
    resign_when_able(ann, table, {0: _sit(ann, table, 0), 1: _sit(bob, table, 1)}, loser=0)
    made = _analysed(ann, table)
    server = ann.app.state.server  # type: ignore[attr-defined]
    analysis: Analysis = server.analyses.get(f"table-{table}-0-ply").analysis
    server.analyses = AnalysisJobs()  # this process forgets the job: asked again, it is made again
    assert _analysed(ann, table) == made
    store = _store(ann)
    assert _rows(store) == 1

    failures: list[BaseException] = []

    def again() -> None:
        try:
            store_figures(store, table, "1-ply", analysis)
        except BaseException as failure:  # told below
            failures.append(failure)

    threads = [threading.Thread(target=again) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert _rows(store) == 2  # one a level
    assert _history(ann, "Ann")[0]["errors"]["level"] == "1-ply"  # the deepest level's shown


def test_a_bot_levels_page_shows_its_own_seats_error_rate(tmp_path: Path) -> None:
    app = create_app(open_database(f"sqlite:///{tmp_path / 'server.sqlite3'}"))
    with TestClient(app) as client:
        assert client.post("/api/accounts", json={"name": "Ann", "password": PASSWORD}).status_code == 201
        table = create(client, {**MATCH, "seats": [{"bot": "beginner"}, {}]})
        resign_when_able(client, table, {1: _sit(client, table, 1)}, loser=1)
        players = _analysed(client, table)["players"]
        errors = _history(client, "Tavola beginner")[0]["errors"]
        assert (errors["mine"], errors["theirs"]) == (
            players[0]["error_rate_memg"],
            players[1]["error_rate_memg"],
        )
        assert _history(client, "Ann")[0]["errors"]["mine"] == players[1]["error_rate_memg"]


def test_an_uploaded_records_analysis_is_not_stored(tmp_path: Path) -> None:
    app = create_app(open_database(f"sqlite:///{tmp_path / 'server.sqlite3'}"))
    record = (Path(__file__).parent / "data" / "gnubg-money-beavers.mat").read_bytes()
    with TestClient(app) as client:
        started = client.post(
            "/api/analyses", content=record, params=FAST, headers={"content-type": "text/plain"}
        )
        assert started.status_code == 202, started.text
        deadline = time.monotonic() + 60
        while client.get(started.json()["url"]).json()["status"] == "running":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert _rows(_store(client)) == 0


def test_migration_0007_goes_down_and_up(url: str) -> None:
    engine = open_database(url)
    assert "tavola_table_figures" in inspect(engine).get_table_names()
    migrate(engine, "0006", down=True)
    assert "tavola_table_figures" not in inspect(engine).get_table_names()
    migrate(engine)
    assert "tavola_table_figures" in inspect(engine).get_table_names()
    assert _rows(Store(engine)) == 0
    engine.dispose()
