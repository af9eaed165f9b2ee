"""Analyses to step through: an uploaded ``.mat``, SGF or JSON record (``POST /api/analyses``) or a finished
table (``POST /api/tables/{id}/analyses``) analysed off the request path, followed at ``GET
/api/analyses/{id}`` (the progress, then the analysis), saved at ``.../report.html``."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")

from fastapi.testclient import TestClient

from tavola.analysis.model import Analysis
from tavola.records import read_mat, to_json
from tavola.web.analyses import AnalysisJob, AnalysisJobs, JobsFullError
from tavola.web.app import create_app
from tavola.web.limits import RateLimits
from tavola.web.routes.analyses import MAX_UPLOAD
from tavola.web.searches import SearchPool
from tavola.web.storage import open_database
from web_helpers import create, play_on, sit, state

pytestmark = pytest.mark.timeout(120)

DATA = Path(__file__).parent / "data"
BEAVERS = DATA / "gnubg-money-beavers.mat"
"""A short money session of four games with doubles, beavers, raccoons and a resignation."""
SINGLE_GAME = {"kind": "game", "series": "single", "seats": [{}, {}]}
CHOUETTE = {"kind": "chouette", "seats": [{}, {}, {}]}
FAST = {"level": "0-ply"}


def _client(url: str, searches: SearchPool | None = None) -> TestClient:
    return TestClient(create_app(open_database(url), searches=searches, posts=RateLimits(1e9, 1e9)))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with _client(f"sqlite:///{tmp_path / 'server.sqlite3'}") as client:
        yield client


def _upload(client: TestClient, body: bytes, name: str | None = None, level: str = "0-ply") -> Any:
    params = {"level": level, **({"name": name} if name else {})}
    return client.post("/api/analyses", content=body, params=params, headers={"content-type": "text/plain"})


def _made(client: TestClient, job: str) -> tuple[dict[str, Any], list[tuple[int, int]]]:
    """The job's answer once made, and the progress seen on the way (at most 60 seconds)."""
    seen: list[tuple[int, int]] = []
    deadline = time.monotonic() + 60
    while True:
        response = client.get(f"/api/analyses/{job}")
        assert response.status_code == 200, response.text
        answer: dict[str, Any] = response.json()
        seen.append((answer["done"], answer["total"]))
        if answer["status"] != "running":
            return answer, seen
        assert answer["analysis"] is None
        assert time.monotonic() < deadline, "the analysis took over 60 seconds"
        time.sleep(0.05)


def _jobs(client: TestClient) -> Any:
    return client.app.state.server.analyses  # type: ignore[attr-defined]


def test_an_uploaded_mat_is_analysed_off_the_request_path_with_every_move_its_candidates_and_chances(
    client: TestClient,
) -> None:
    started = _upload(client, BEAVERS.read_bytes(), "beavers.mat")
    assert started.status_code == 202, started.text
    job = started.json()
    assert job["url"] == f"/api/analyses/{job['id']}"
    assert job["page"] == f"/analysis/{job['id']}"
    answer, seen = _made(client, job["id"])
    assert answer["status"] == "done", answer["error"]
    assert answer["source"] == "beavers.mat"
    assert answer["level"] == "0-ply"
    assert answer["table"] is None
    assert answer["done"] == answer["total"] == 4 + 3  # four games judged, and the replay, cube and luck
    assert all(done <= total for done, total in seen)
    analysis = answer["analysis"]
    assert [player["name"] for player in analysis["players"]] == ["Ann", "Ben"]
    moves = [decision for decision in analysis["decisions"] if decision["kind"] == "move"]
    assert [move["played"] for move in moves[:2]] == ["8/5 6/5", "24/18 13/9"]
    first = moves[0]
    assert first["board"]["pips"] == [167, 167]
    assert first["dice"] == [3, 1]
    assert first["player"] == 1
    assert sum(first["board"]["points"]) == 0  # the starting position: 15 checkers each
    for alternative in first["alternatives"]:
        win, gammon, backgammon, lose_gammon, lose_backgammon = alternative["probabilities"]
        assert 0 <= backgammon <= gammon <= win <= 1
        assert 0 <= lose_backgammon <= lose_gammon <= 1 - win
    equities = [alternative["equity"] for alternative in first["alternatives"]]
    assert equities == sorted(equities, reverse=True)
    doubles = [decision for decision in analysis["decisions"] if decision["played"].startswith("double")]
    assert doubles
    assert {"no double", "double, take"} <= {item["text"] for item in doubles[0]["alternatives"]}
    assert doubles[0]["best"] == doubles[0]["alternatives"][0]["text"]
    referenced = [item["reference"] for item in doubles[0]["alternatives"]]  # the double answered otherwise
    assert referenced == [False, False] + [True] * (len(referenced) - 2)
    assert len(referenced) > 2
    traced = sum(len(game["trace"]) for game in analysis["games"])
    assert traced == len(analysis["decisions"])  # one point of the chart a decision


def test_a_json_record_uploaded_as_a_form_is_analysed_as_its_mat(client: TestClient) -> None:
    record = json.dumps(to_json(read_mat(BEAVERS))).encode()
    files = {"file": ("session.json", record, "application/json")}
    started = client.post("/api/analyses", files=files, params=FAST)
    assert started.status_code == 202, started.text
    from_json, _ = _made(client, started.json()["id"])
    from_mat, _ = _made(client, _upload(client, BEAVERS.read_bytes()).json()["id"])
    assert from_json["source"] == "session.json"
    assert from_mat["source"] == "upload"
    played = [[d["played"] for d in answer["analysis"]["decisions"]] for answer in (from_json, from_mat)]
    assert played[0] == played[1]


def test_the_same_record_at_the_same_level_is_one_job(client: TestClient) -> None:
    body = BEAVERS.read_bytes()
    first, again = _upload(client, body, "a.mat").json(), _upload(client, body, "b.mat").json()
    assert first["id"] == again["id"]
    deeper = _upload(client, body, "a.mat", level="1-ply").json()
    assert deeper["id"] != first["id"]
    assert len(_jobs(client)) == 2
    _made(client, first["id"])
    assert _upload(client, body).json() == {**first, "status": "done", "done": 7, "total": 7}


def test_a_bad_upload_or_one_from_another_origin_is_refused_and_nothing_is_kept(client: TestClient) -> None:
    broken = BEAVERS.read_text().replace("64: 24/18 13/9", "64: 24/12")
    refused = _upload(client, broken.encode(), "broken.mat")
    assert refused.status_code == 400
    assert refused.json()["error"].startswith("broken.mat: ")
    assert "line" in refused.json()["error"]
    assert _upload(client, b'{"format": "tavola-record"', "x.json").json()["error"].startswith("x.json: ")
    assert "not UTF-8" in _upload(client, b"\xff\xfe\x00", "bad.mat").json()["error"]
    chouette = json.dumps({"format": "tavola-chouette", "version": 1}).encode()
    assert "chouette" in _upload(client, chouette, "c.json").json()["error"]
    assert "suffix" in _upload(client, b"hello", "notes.txt").json()["error"]
    no_part = client.post("/api/analyses", files={"other": ("a.mat", b"x")}, params=FAST)
    assert no_part.status_code == 400
    assert "file" in no_part.json()["error"]
    assert _upload(client, BEAVERS.read_bytes(), level="casual").status_code == 400  # noise
    too_big = _upload(client, b" " * (MAX_UPLOAD + 1), "big.mat")
    assert too_big.status_code == 413
    elsewhere = {"content-type": "multipart/form-data; boundary=b", "origin": "https://elsewhere.example"}
    assert client.post("/api/analyses", content=b"--b--", headers=elsewhere).status_code == 403  # a form
    assert client.post("/api/tables", content=b"x", headers={"content-type": "text/plain"}).status_code == 415
    assert len(_jobs(client)) == 0
    unknown = client.get("/api/analyses/upload-0123")
    assert unknown.status_code == 404
    assert "upload the record again" in unknown.json()["error"]


def test_the_report_of_a_made_analysis_is_the_html_report_in_the_requests_language(
    client: TestClient,
) -> None:
    job = _upload(client, BEAVERS.read_bytes(), "beavers.mat").json()["id"]
    _made(client, job)
    report = client.get(f"/api/analyses/{job}/report.html", params={"lang": "it"})
    assert report.status_code == 200
    assert report.text.startswith('<!DOCTYPE html>\n<html lang="it">')
    assert "Ann" in report.text


def test_a_finished_table_is_analysed_and_made_again_where_this_process_does_not_know_the_job(
    url: str,
) -> None:
    with _client(url) as client:
        table = create(client, SINGLE_GAME)
        tokens = {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Bob")}
        refused = client.post(f"/api/tables/{table}/analyses", params=FAST)
        assert refused.status_code == 409
        assert "finished" in refused.json()["error"]
        play_on(client, table, tokens, lambda seen: seen["status"] == "finished")
        started = client.post(f"/api/tables/{table}/analyses", params=FAST)
        assert started.status_code == 202, started.text
        job = started.json()["id"]
        assert job == f"table-{table}-0-ply"
        assert client.post(f"/api/tables/{table}/analyses", params=FAST).json()["id"] == job  # one job
        answer, _ = _made(client, job)
        assert answer["status"] == "done", answer["error"]
        assert answer["table"] == table
        assert answer["source"] == f"/t/{table}"
        names = [player["name"] for player in answer["analysis"]["players"]]
        assert names == [seat["name"] for seat in state(client, table)["seats"]]
    with _client(url) as other:  # another process of the same database: the job is made again there
        again, _ = _made(other, job)
        assert again["analysis"] == answer["analysis"]


def test_a_chouette_an_unknown_table_and_a_bad_level_are_refused(client: TestClient) -> None:
    chouette = create(client, CHOUETTE)
    for seat, name in enumerate(["Ann", "Bob", "Cy"]):
        sit(client, chouette, seat, name)
    refused = client.post(f"/api/tables/{chouette}/analyses", params=FAST)
    assert refused.status_code == 409
    assert "chouette" in refused.json()["error"]
    assert client.post("/api/tables/nothing-here/analyses").status_code == 404
    assert client.get("/api/analyses/table-nothing-here-0-ply").status_code == 404
    assert client.post(f"/api/tables/{chouette}/analyses", params={"level": "9-ply"}).status_code == 400
    assert len(_jobs(client)) == 0


def test_an_analysis_in_a_worker_process_tells_its_progress_through_the_pool(tmp_path: Path) -> None:
    pool = SearchPool(1)
    with _client(f"sqlite:///{tmp_path / 'server.sqlite3'}", searches=pool) as client:
        told: list[tuple[int, int]] = []
        original = pool.compute_told

        async def watched(job: str, tell: Any, work: Any, *args: Any) -> Any:
            return await original(
                job, lambda done, total: (told.append((done, total)), tell(done, total)), work, *args
            )

        pool.compute_told = watched  # type: ignore[method-assign]
        job = _upload(client, BEAVERS.read_bytes(), "beavers.mat").json()["id"]
        answer, _ = _made(client, job)
        assert answer["status"] == "done", answer["error"]
        assert told == [(step, 7) for step in range(1, 8)]  # each step, from the worker, in order
        assert answer["done"] == answer["total"] == 7


def test_past_the_bound_the_oldest_job_made_goes_none_being_made_and_a_failed_job_starts_again() -> None:
    async def kept() -> None:
        jobs = AnalysisJobs(most=2)
        release = asyncio.Event()

        async def held(job: AnalysisJob) -> Analysis:
            await release.wait()
            raise ValueError("stopped")  # made, as far as the bound goes: failed jobs are let go too

        async def failing(job: AnalysisJob) -> Analysis:
            raise ValueError("the worker died")

        async def written(analysis: Analysis) -> dict[str, Any]:
            return {}

        broken = jobs.start(AnalysisJob("upload-3", "c.mat", "0-ply", None), failing, written)
        await asyncio.sleep(0.05)  # the failing job fails
        assert broken.json()["status"] == "failed"
        assert broken.json()["error"] == "the worker died"
        again = jobs.start(AnalysisJob("upload-3", "c.mat", "0-ply", None), held, written)
        assert again is not broken
        assert jobs.get("upload-3") is again
        first = jobs.start(AnalysisJob("upload-1", "a.mat", "0-ply", None), held, written)
        with pytest.raises(JobsFullError):  # both kept are being made: neither is let go half made
            jobs.start(AnalysisJob("upload-2", "b.mat", "0-ply", None), held, written)
        assert jobs.get("upload-1") is first
        assert first.task is not None
        assert not first.task.done()
        release.set()
        await asyncio.sleep(0.05)  # both end
        newest = jobs.start(AnalysisJob("upload-2", "b.mat", "0-ply", None), held, written)
        assert jobs.get("upload-3") is None  # the oldest made goes first
        assert jobs.get("upload-1") is first
        assert jobs.get("upload-2") is newest
        assert len(jobs) == 2

    asyncio.run(kept())
