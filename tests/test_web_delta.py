"""What an action costs the server to tell: the same at the 10th action of a session and at the 1,000th.

A state is the game now, not the session: the table's log is its own route, a
page at a time, and each WebSocket message brings only the actions done since
the last state its connection was sent.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from web_helpers import auth, client_on, create, log_of, play_on, record_of, sit, state


@pytest.fixture
def client(tmp_path: Path):  # type: ignore[no-untyped-def]
    with client_on(tmp_path / "server.sqlite3") as client:
        yield client


def _size(data: dict[str, Any]) -> int:
    return len(json.dumps(data, separators=(",", ":")).encode())


def _money_session(client: Any) -> tuple[str, dict[int, str]]:
    table = create(client, {"kind": "game", "series": "money", "seats": [{}, {}]})
    return table, {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Bob")}


def _play_to(client: Any, table: str, tokens: dict[int, str], version: int) -> dict[str, Any]:
    """Play on (a new game after each one ends) until the table has done ``version`` actions and stands
    where a state is compared like with like: before a roll, a play made, no cube offered, nothing over."""

    def reached(seen: dict[str, Any]) -> bool:
        game = seen["game"]
        alike = game["phase"] == "roll" and game["last_play"] is not None and game["offer"] is None
        return bool(seen["version"] >= version and alike)

    while True:
        play_on(client, table, tokens, lambda seen: reached(seen) or seen["game"]["outcome"] is not None)
        seen = state(client, table)
        if reached(seen):
            return seen
        client.post(f"/api/tables/{table}/actions", json={"action": "start_game"}, headers=auth(tokens[0]))


def test_a_state_is_no_larger_at_the_1000th_action_of_a_session_than_at_the_10th(client) -> None:
    """A spectator's state, which lists no actions of its own, at the two moments, each before a roll: the
    figures in it (the game's number, the scores, the dice used) and the last play's text may take a few
    characters more, nothing grows with the log."""
    table, tokens = _money_session(client)
    early = _play_to(client, table, tokens, 10)
    late = _play_to(client, table, tokens, 1000)
    assert late["game"]["number"] > early["game"]["number"]
    assert _size(late) <= _size(early) + 64
    assert "log" not in late
    assert "record" not in late
    log = log_of(client, table)  # the log, read a page at a time, and the record are routes of their own
    assert len(log) == late["version"] >= 1000
    assert len(record_of(client, table)["games"]) == late["game"]["number"]


def test_the_log_is_read_a_page_at_a_time(client) -> None:
    table, tokens = _money_session(client)
    seen = _play_to(client, table, tokens, 30)
    whole = log_of(client, table)
    page = client.get(f"/api/tables/{table}/log", params={"start": 10, "limit": 5}).json()
    assert page == {"version": seen["version"], "start": 10, "entries": whole[10:15]}
    assert client.get(f"/api/tables/{table}/log", params={"start": 10_000}).json()["entries"] == []
    for bad in ({"start": -1}, {"limit": 0}, {"limit": 501}, {"start": "ten"}):
        refused = client.get(f"/api/tables/{table}/log", params=bad)
        assert refused.status_code == 400, bad
        assert next(iter(bad)) in refused.json()["error"]


def test_each_websocket_message_brings_the_actions_since_the_last_one_it_sent(client) -> None:
    table, tokens = _money_session(client)
    with client.websocket_connect(f"/api/tables/{table}/live") as spectator:
        first = spectator.receive_json()
        assert first["log"] == {"start": first["state"]["version"], "entries": []}
        shown = list(log_of(client, table))
        sizes = []
        for _ in range(40):
            seen = state(client, table)
            seat = seen["to_act"][0]
            mine = state(client, table, tokens[seat])
            action = mine["legal_actions"][0]
            response = client.post(f"/api/tables/{table}/actions", json=action, headers=auth(tokens[seat]))
            assert response.status_code == 200, response.text
            while len(shown) < response.json()["version"]:  # one message for each change the action made
                message = spectator.receive_json()
                if message["type"] != "state":
                    continue
                log = message["log"]
                assert log["start"] == len(shown)
                shown += log["entries"]
                assert len(shown) == message["state"]["version"]
                sizes.append(_size(message))
        assert shown == log_of(client, table)
        assert max(sizes) < 4096


def test_a_page_that_reconnects_mid_game_is_shown_exactly_the_state_the_server_has(client) -> None:
    table, tokens = _money_session(client)
    play_on(client, table, tokens, lambda seen: seen["version"] >= 6)
    with client.websocket_connect(f"/api/tables/{table}/live") as websocket:
        websocket.send_json({"type": "hello", "token": tokens[0]})
        while (message := websocket.receive_json())["state"]["you"] != 0:
            pass
        left_at = message["state"]["version"]
    # While Ann's page is away, the game goes on.
    play_on(client, table, tokens, lambda seen: seen["version"] >= left_at + 5)
    with client.websocket_connect(f"/api/tables/{table}/live") as websocket:
        websocket.send_json({"type": "hello", "token": tokens[0]})
        while (message := websocket.receive_json())["state"]["you"] != 0:
            pass
        assert message["state"] == state(client, table, tokens[0])
        # No actions come with it: the state is whole, and the log's route has what was missed.
        assert message["log"] == {"start": message["state"]["version"], "entries": []}
        assert len(log_of(client, table)) == message["state"]["version"] > left_at


def test_R11_an_action_and_the_forced_actions_after_it_come_as_one_state(client) -> None:
    """Without the cube every roll is forced (the table rolls for the player), and so are some plays: a
    person's action and whatever the table makes after it are one message, the actions all in its log,
    so no viewer is shown (and no player acts on) a state the table has already left."""
    table = create(client, {"kind": "game", "series": "money", "rules": {"cube": False}, "seats": [{}, {}]})
    tokens = {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Bob")}
    forced_after = 0
    with client.websocket_connect(f"/api/tables/{table}/live") as spectator:
        shown = spectator.receive_json()["state"]["version"]
        for _ in range(12):
            seen = state(client, table)
            if seen["game"]["outcome"] is not None:
                break
            seat = seen["to_act"][0]
            mine = state(client, table, tokens[seat])
            assert all(action["action"] != "roll" for action in mine["legal_actions"])  # forced: the table's
            play = next(action for action in mine["legal_actions"] if action["action"] == "play")
            response = client.post(f"/api/tables/{table}/actions", json=play, headers=auth(tokens[seat]))
            assert response.status_code == 200, response.text
            message = spectator.receive_json()
            while message["type"] != "state":
                message = spectator.receive_json()
            entries = message["log"]["entries"]
            assert message["log"]["start"] == shown
            assert message["state"]["version"] == shown + len(entries) == response.json()["version"]
            assert entries[0] == {"seat": seat, **play}
            forced_after += len(entries) > 1
            assert all(entry["action"] in ("roll", "play") for entry in entries[1:])
            shown = message["state"]["version"]
    assert forced_after >= 10  # the other player's roll, made by the table, came with nearly every play
