"""``GET /api/tables/{id}/positions``: the board and the cube after every entry of a game's record, as the
page's score sheet shows them, on SQLite and on PostgreSQL; a game past the last, an open table and a
chouette refused."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")

from fastapi.testclient import TestClient

from tavola.position import Position
from tavola.web.app import create_app
from tavola.web.kinds import position_json
from tavola.web.limits import RateLimits
from tavola.web.storage import open_database
from web_helpers import auth, create, play_on, sit, state


@pytest.fixture
def client(url: str) -> Iterator[TestClient]:
    app = create_app(open_database(url), posts=RateLimits(capacity=1e9, per_second=1e9))
    with TestClient(app) as made:
        yield made


def _act(client: TestClient, table: str, token: str, action: dict[str, Any]) -> None:
    done = client.post(f"/api/tables/{table}/actions", json=action, headers=auth(token))
    assert done.status_code == 200, done.text


@pytest.mark.timeout(120)
def test_positions_give_the_board_and_the_cube_after_every_entry_of_a_games_record(
    client: TestClient,
) -> None:
    table = create(client, {"kind": "game", "series": "match", "length": 3, "seats": [{}, {}]})
    tokens = {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Bob")}
    # Game 1: a few turns, a double dropped; game 2: a few turns.
    play_on(client, table, tokens, lambda seen: seen["version"] >= 6 and seen["game"]["phase"] == "roll")
    doubler = state(client, table)["to_act"][0]
    _act(client, table, tokens[doubler], {"action": "double"})
    _act(client, table, tokens[1 - doubler], {"action": "drop"})
    play_on(client, table, tokens, lambda seen: seen["version"] >= 14)

    record = client.get(f"/api/tables/{table}/record").json()
    assert record["total"] == 2
    for number, game in enumerate(record["games"]):
        answer = client.get(f"/api/tables/{table}/positions", params={"game": number})
        assert answer.status_code == 200, answer.text
        steps = answer.json()["steps"]
        assert len(steps) == len(game["log"])  # one board a entry of the record
        assert steps[0]["position"] == position_json(Position.start())  # after the opening roll
        for before, after, entry in zip(steps, steps[1:], game["log"][1:], strict=False):
            moved = entry["action"] == "play" and entry["play"]
            assert (after["position"] != before["position"]) == bool(moved), entry
    first = client.get(f"/api/tables/{table}/positions", params={"game": 0}).json()["steps"]
    assert first[-2]["cube"] == first[-1]["cube"] == {"value": 1, "owner": None}  # a double dropped
    now = state(client, table)["game"]
    last = client.get(f"/api/tables/{table}/positions", params={"game": 1}).json()
    assert last["steps"][-1] == {"position": now["position"], "cube": now["cube"]}
    assert last["version"] == state(client, table)["version"]

    missing = client.get(f"/api/tables/{table}/positions", params={"game": 2})
    assert missing.status_code == 404
    assert missing.json()["error"] == "there is no game 3 at this table: it has played 2"
    assert client.get(f"/api/tables/{table}/positions", params={"game": -1}).status_code == 400
    open_table = create(client, {"kind": "game", "seats": [{}, {}]})
    assert client.get(f"/api/tables/{open_table}/positions").status_code == 409
    chouette = create(client, {"kind": "chouette", "seats": [{}, {"bot": "beginner"}, {"bot": "beginner"}]})
    sit(client, chouette, 0, "Ann")
    refused = client.get(f"/api/tables/{chouette}/positions")
    assert refused.status_code == 409
    assert "chouette" in refused.json()["error"]
    assert client.get("/api/tables/nothing/positions").status_code == 404
