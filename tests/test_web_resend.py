"""An action sent again with the version it was chosen at is done at most once (its answer may be lost)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from web_helpers import auth, client_on, create, log_of, sit, state

TWO_PEOPLE = {"kind": "game", "series": "match", "length": 3, "seats": [{}, {}]}


@pytest.fixture
def client(tmp_path: Path):  # type: ignore[no-untyped-def]
    with client_on(tmp_path / "server.sqlite3") as client:
        yield client


def _seated(client: Any) -> tuple[str, dict[int, str]]:
    table = create(client, TWO_PEOPLE)
    return table, {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Bob")}


def _receive_until(websocket: Any, wanted: Any) -> dict[str, Any]:
    while True:
        message = dict(websocket.receive_json())
        if wanted(message):
            return message


def _answer_to(websocket: Any, message: dict[str, Any]) -> dict[str, Any] | None:
    """The error a message is answered with, or None (a ping after it answered first: no error came)."""
    websocket.send_json(message)
    websocket.send_json({"type": "ping"})
    reply = _receive_until(websocket, lambda reply: reply["type"] in ("error", "pong"))
    return reply if reply["type"] == "error" else None


def test_a_move_sent_twice_over_the_websocket_moves_one_checker(client) -> None:
    table, tokens = _seated(client)
    [seat] = state(client, table)["to_act"]
    with client.websocket_connect(f"/api/tables/{table}/live") as websocket:
        websocket.send_json({"type": "hello", "token": tokens[seat]})
        mine = _receive_until(websocket, lambda message: message["state"]["you"] == seat)["state"]
        move = next(action for action in mine["legal_actions"] if action["action"] == "move")
        version = mine["version"]
        act = {"type": "act", "action": move, "version": version}
        websocket.send_json(act)
        message = _receive_until(websocket, lambda message: message["state"]["version"] > version)
        moved = message["state"]
        assert message["log"]["entries"][version - message["log"]["start"]] == {"seat": seat, **move}
        assert moved["game"]["moves"] == [move["moves"]]
        refused = _answer_to(websocket, act)  # as a client does that never heard of its first one
        assert refused is not None
        assert refused["status"] == 409
        assert refused["error"] == (
            f"the table has moved on: the action was for version {version}, it is at {version + 1}"
        )
    after = state(client, table)
    assert after["version"] == version + 1
    assert after["game"]["moves"] == [move["moves"]]


def test_an_action_posted_twice_with_its_version_is_done_once(client) -> None:
    table, tokens = _seated(client)
    [seat] = state(client, table)["to_act"]
    mine = state(client, table, tokens[seat])
    move = next(action for action in mine["legal_actions"] if action["action"] == "move")
    path = f"/api/tables/{table}/actions?version={mine['version']}"
    first = client.post(path, json=move, headers=auth(tokens[seat]))
    assert first.status_code == 200, first.text
    again = client.post(path, json=move, headers=auth(tokens[seat]))
    assert again.status_code == 409
    assert "moved on" in again.json()["error"]
    assert state(client, table) == {**first.json(), "you": None, "legal_actions": []}


def test_an_action_at_the_tables_version_is_done(client) -> None:
    table, tokens = _seated(client)
    [seat] = state(client, table)["to_act"]
    mine = state(client, table, tokens[seat])
    action = mine["legal_actions"][0]
    response = client.post(
        f"/api/tables/{table}/actions?version={mine['version']}", json=action, headers=auth(tokens[seat])
    )
    assert response.status_code == 200, response.text
    assert response.json()["version"] > mine["version"]
    assert log_of(client, table)[mine["version"]] == {"seat": seat, **action}


@pytest.mark.parametrize("version", [-1, "3", 2.5, True])
def test_a_version_that_is_no_whole_number_is_refused(client, version: object) -> None:
    table, tokens = _seated(client)
    [seat] = state(client, table)["to_act"]
    before = state(client, table)
    with client.websocket_connect(f"/api/tables/{table}/live") as websocket:
        websocket.send_json({"type": "hello", "token": tokens[seat]})
        mine = _receive_until(websocket, lambda message: message["state"]["you"] == seat)["state"]
        refused = _answer_to(
            websocket, {"type": "act", "action": mine["legal_actions"][0], "version": version}
        )
        assert refused is not None
        assert refused["status"] == 400
        assert refused["error"].startswith("version:")
    assert state(client, table) == before
