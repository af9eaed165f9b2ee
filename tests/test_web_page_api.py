"""What the server adds for its page: the page itself, its words, the bot's hints and a chouette side's
own chat channel."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from web_helpers import auth, client_on, create, sit, state

STATIC = Path(__file__).resolve().parents[1] / "src" / "tavola" / "web" / "static"


@pytest.fixture
def client(tmp_path: Path):  # type: ignore[no-untyped-def]
    with client_on(tmp_path / "server.sqlite3") as client:
        yield client


def test_the_lobby_and_a_table_are_the_same_page_and_its_files_are_served(client) -> None:
    lobby = client.get("/")
    assert lobby.status_code == 200
    assert lobby.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/app.js">' in lobby.text
    assert client.get("/t/0123456789abcdef").text == lobby.text
    for name in ("app.js", "board.js", "table.js", "lobby.js", "style.css", "i18n/it.json"):
        assert client.get(f"/static/{name}").status_code == 200, name
    assert client.get("/static/nothing.js").status_code == 404
    assert "/" not in client.get("/openapi.json").json()["paths"]


def test_the_page_words_have_the_same_keys_in_every_language_and_every_key_used_exists() -> None:
    words = {code: json.loads((STATIC / "i18n" / f"{code}.json").read_text()) for code in ("en", "it", "es")}
    assert set(words["it"]) == set(words["en"]) == set(words["es"])
    for code, table in words.items():
        for key, text in table.items():
            assert text.strip(), (code, key)
            assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", words["en"][key])), key
    families = {key.split(".")[0] for key in words["en"]}
    source = "\n".join(path.read_text() for path in [*STATIC.glob("*.js"), STATIC / "index.html"])
    used = {
        literal
        for literal in re.findall(r"""["']([a-z_]+\.[a-z_-]+)["']""", source)
        if literal.split(".")[0] in families
    }
    assert used - set(words["en"]) == set()
    assert len(used) > 60
    for family in re.findall(r"t\(`([a-z_]+)\.\$\{", source):  # keys made from a value: their family is there
        assert any(key.startswith(family + ".") for key in words["en"]), family


def _live_friends(client: Any, **options: Any) -> tuple[str, dict[int, str]]:
    table = create(client, {"kind": "game", "series": "single", "seats": [{}, {}], **options})
    return table, {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Bob")}


def test_a_hint_is_the_bots_best_plays_for_the_roll_where_the_table_allows_hints(client) -> None:
    table, tokens = _live_friends(client, hints=True)
    seen = state(client, table)
    assert seen["game"]["phase"] == "move"  # the opening roll is made by the table
    mover = seen["to_act"][0]
    hint = client.get(f"/api/tables/{table}/hint", headers=auth(tokens[mover]))
    assert hint.status_code == 200, hint.text
    data = hint.json()
    assert data["dice"] == seen["game"]["dice"]
    legal = {
        action["play"] for action in state(client, table, tokens[mover])["legal_actions"] if "play" in action
    }
    assert data["plays"]
    assert {choice["play"] for choice in data["plays"]} <= legal
    equities = [choice["equity"] for choice in data["plays"]]
    assert equities[0] == max(equities)
    spectator = client.get(f"/api/tables/{table}/hint")
    assert spectator.status_code == 403


def test_a_table_of_people_without_the_hints_option_gives_no_hint(client) -> None:
    table, tokens = _live_friends(client)
    refused = client.get(f"/api/tables/{table}/hint?lang=en", headers=auth(tokens[0]))
    assert refused.status_code == 409
    assert refused.json()["error"].startswith("this table gives no hints")


def test_a_table_with_the_bot_gives_hints_only_while_dice_are_played(client) -> None:
    table = create(client, {"kind": "game", "series": "single", "seats": [{}, {"bot": "beginner"}]})
    token = sit(client, table, 0, "Ann")
    seen = state(client, table, token)
    if seen["game"]["phase"] == "move":
        assert client.get(f"/api/tables/{table}/hint", headers=auth(token)).status_code == 200
    else:
        assert seen["game"]["phase"] == "roll"
        refused = client.get(f"/api/tables/{table}/hint", headers=auth(token))
        assert refused.status_code == 409
        assert refused.json()["error"].startswith("there are no dice to play")


def _next_chat(websocket: Any) -> dict[str, Any]:
    while True:
        message = websocket.receive_json()
        if message["type"] == "chat":
            return dict(message["message"])


def test_a_chouette_side_talks_on_its_own_channel_that_nobody_else_hears(client) -> None:
    table = create(client, {"kind": "chouette", "seats": [{}, {}, {}, {"bot": "beginner"}]})
    names = ["Ann", "Bob", "Cy"]
    tokens = {seat: sit(client, table, seat, name) for seat, name in enumerate(names)}
    game = state(client, table)["game"]
    team = [seat for seat, name in enumerate(names) if name in game["team"]]
    others = [seat for seat in tokens if seat not in team]
    speaker = team[0]
    sockets = {seat: client.websocket_connect(f"/api/tables/{table}/live") for seat in tokens}
    with client.websocket_connect(f"/api/tables/{table}/live") as spectator:
        spectator.receive_json()
        try:
            for seat, websocket in sockets.items():
                websocket.__enter__()
                websocket.send_json({"type": "hello", "token": tokens[seat]})
                # each socket is its own task: wait until the server knows the seat, or a team
                # message sent meanwhile would rightly not reach it
                while (message := websocket.receive_json())["type"] != "state" or message["state"][
                    "you"
                ] != seat:
                    pass
            sockets[speaker].send_json({"type": "chat", "text": "take it", "scope": "team"})
            for seat in team:
                heard = _next_chat(sockets[seat])
                assert (heard["name"], heard["text"], heard["scope"]) == (names[speaker], "take it", "team")
            client.post(
                f"/api/tables/{table}/chat", json={"text": "hello all"}, headers=auth(tokens[speaker])
            )
            for websocket in [spectator, *(sockets[seat] for seat in others)]:
                assert _next_chat(websocket)["text"] == "hello all"  # the team's message never came first
            assert [row["text"] for row in client.get(f"/api/tables/{table}/chat").json()["messages"]] == [
                "hello all"
            ]
        finally:
            for websocket in sockets.values():
                websocket.__exit__(None, None, None)


def test_a_two_player_table_has_no_team_channel(client) -> None:
    table, tokens = _live_friends(client)
    with client.websocket_connect(f"/api/tables/{table}/live?lang=en") as websocket:
        websocket.receive_json()
        websocket.send_json({"type": "hello", "token": tokens[0]})
        websocket.send_json({"type": "chat", "text": "psst", "scope": "team"})
        while (message := websocket.receive_json())["type"] != "error":
            pass
        assert message["error"].startswith("the team's channel is for the players of a chouette game")
        websocket.send_json({"type": "chat", "text": "psst", "scope": "room"})
        while (message := websocket.receive_json())["type"] != "error":
            pass
        assert message["error"] == "scope: one of table, team"
