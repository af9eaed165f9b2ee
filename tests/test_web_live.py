"""The web server live: the WebSocket, the bot in its seat, chouette tables, and tables rebuilt at start."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tavola.web.limits import RateLimits
from web_helpers import auth, client_on, create, log_of, play_on, record_of, sit, state

TWO_PEOPLE = {"kind": "game", "series": "single", "seats": [{}, {}]}


@pytest.fixture
def client(tmp_path: Path):  # type: ignore[no-untyped-def]
    with client_on(tmp_path / "server.sqlite3") as client:
        yield client


def _until_message(websocket: Any, version: int) -> dict[str, Any]:
    """The first state message at ``version`` or later that the WebSocket sends (chat and older states
    skipped)."""
    while True:
        message = websocket.receive_json()
        if message["type"] == "state" and message["state"]["version"] >= version:
            return dict(message)


def _until_state(websocket: Any, version: int) -> dict[str, Any]:
    """The state of :func:`_until_message`."""
    return dict(_until_message(websocket, version)["state"])


def test_the_websocket_sends_each_state_and_chat_and_takes_actions(client) -> None:
    table = create(client, TWO_PEOPLE)
    tokens = {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Bob")}
    with (
        client.websocket_connect(f"/api/tables/{table}/live") as spectator,
        client.websocket_connect(f"/api/tables/{table}/live") as player,
    ):
        first = spectator.receive_json()
        assert first["type"] == "state"
        assert first["state"]["you"] is None
        version = first["state"]["version"]
        player.receive_json()
        [acting] = first["state"]["to_act"]
        player.send_json({"type": "act", "action": {"action": "roll"}})
        assert player.receive_json()["error"].startswith("a seat acts only with its own token")
        player.send_json({"type": "hello", "token": tokens[acting]})
        mine = _until_state(player, version)
        assert mine["you"] == acting
        action = mine["legal_actions"][0]
        player.send_json({"type": "act", "action": action})
        message = _until_message(spectator, version + 1)
        seen, log = message["state"], message["log"]
        assert log["start"] == version  # what changed since the last state this connection was sent
        assert log["entries"][0] == {"seat": acting, **action}
        assert len(log["entries"]) == seen["version"] - version
        assert "log" not in seen
        assert seen["legal_actions"] == []
        player.send_json({"type": "act", "action": {"action": "play", "play": "24/1"}})
        error = player.receive_json()
        while error["type"] != "error":
            error = player.receive_json()
        assert error["error"].endswith("(R21)")  # the other seat is to act now
        spectator.send_json({"type": "chat", "text": "nice"})
        assert spectator.receive_json()["type"] == "error"
        said = client.post(f"/api/tables/{table}/chat", json={"text": " good luck "}, headers=auth(tokens[0]))
        assert said.status_code == 200
        message = spectator.receive_json()
        while message["type"] != "chat":
            message = spectator.receive_json()
        assert (message["message"]["name"], message["message"]["text"]) == ("Ann", "good luck")
        player.send_json({"type": "ping"})
        while player.receive_json()["type"] != "pong":
            pass
    with client.websocket_connect(f"/api/tables/{table}/live") as again:
        current = again.receive_json()["state"]
        assert current == state(client, table)
    assert [row["text"] for row in client.get(f"/api/tables/{table}/chat").json()["messages"]] == [
        "good luck"
    ]


def test_a_websocket_is_limited_in_size_and_rate(client) -> None:
    table = create(client, TWO_PEOPLE)
    with client.websocket_connect(f"/api/tables/{table}/live") as websocket:
        websocket.receive_json()
        websocket.send_text("x" * 20_000)
        assert websocket.receive_json()["error"] == "the message is too large: at most 16384 bytes"
        replies = []
        for _ in range(40):
            websocket.send_json({"type": "ping"})
        for _ in range(40):
            replies.append(websocket.receive_json())
        refused = [reply for reply in replies if reply["type"] == "error"]
        assert refused
        assert refused[0]["error"] == "too many requests: wait a moment and try again"


def test_posts_are_limited_per_client(tmp_path: Path) -> None:
    with client_on(tmp_path / "server.sqlite3", RateLimits(capacity=3, per_second=0.0)) as client:
        answers = [client.post("/api/tables", json=TWO_PEOPLE).status_code for _ in range(5)]
    assert answers == [201, 201, 201, 429, 429]


def test_a_bot_table_plays_the_bots_turns(client) -> None:
    table = create(client, {"kind": "game", "series": "single", "seats": [{"bot": "advanced"}, {}]})
    assert state(client, table)["seats"][0] == {
        "index": 0,
        "name": "Tavola",
        "bot": "advanced",
        "taken": True,
    }
    tokens = {1: sit(client, table, 1, "Ann")}
    seen = state(client, table)
    assert seen["to_act"] == [1]
    play_on(client, table, tokens, lambda seen: seen["status"] == "finished")
    final = state(client, table)
    bot_plays = [entry for entry in log_of(client, table) if entry["seat"] == 0 and entry["action"] == "play"]
    assert len(bot_plays) > 5
    assert final["game"]["outcome"] is not None
    assert final["dice"]["secret"] is not None


def test_a_chouette_table_with_bots_plays_a_game_and_the_next(client) -> None:
    options = {
        "kind": "chouette",
        "settings": {"cubes": "single", "rules": {"jacoby": True}},
        "seats": [{"bot": "advanced"}, {}, {"bot": "beginner"}],
    }
    table = create(client, options)
    opened = state(client, table)
    assert [seat["name"] for seat in opened["seats"]] == ["Tavola", None, "Tavola 2"]
    tokens = {1: sit(client, table, 1, "Ann")}
    seen = state(client, table)
    assert seen["status"] == "live"
    assert set(seen["game"]["team"]) | {seen["game"]["box"]} == {"Tavola", "Ann", "Tavola 2"}
    assert record_of(client, table)["settings"]["cubes"] == "single"
    play_on(client, table, tokens, lambda seen: seen["game"].get("number") == 1 and seen["game"]["is_over"])
    between = state(client, table, tokens[1])
    assert between["legal_actions"] == [{"action": "start_game"}, {"action": "end_session"}]
    assert sum(between["game"]["totals"].values()) == 0
    headers = auth(tokens[1])
    assert (
        client.post(
            f"/api/tables/{table}/actions", json={"action": "start_game"}, headers=headers
        ).status_code
        == 200
    )
    assert state(client, table)["game"]["number"] == 2
    refused = client.post(f"/api/tables/{table}/record.mat")
    assert refused.status_code == 405
    assert client.get(f"/api/tables/{table}/record.mat").status_code == 409
    assert client.get(f"/api/tables/{table}/record.json").json()["format"] == "tavola-chouette"


def test_a_restarted_server_rebuilds_its_tables_from_the_stored_actions(tmp_path: Path) -> None:
    database = tmp_path / "server.sqlite3"
    with client_on(database) as client:
        game = create(
            client, {"kind": "game", "series": "match", "length": 3, "seats": [{}, {"bot": "advanced"}]}
        )
        token = sit(client, game, 0, "Ann")
        play_on(client, game, {0: token}, lambda seen: seen["version"] > 30)
        waiting = create(client, TWO_PEOPLE)
        sit(client, waiting, 1, "Bob")
        before = {table: state(client, table, token) for table in (game, waiting)}
    with client_on(database) as client:
        after = {table: state(client, table, token) for table in (game, waiting)}
        assert after == before
        assert after[game]["you"] == 0
        play_on(client, game, {0: token}, lambda seen: seen["version"] > before[game]["version"] + 10)
        assert sit(client, waiting, 0, "Ann")
        assert state(client, waiting)["status"] == "live"
