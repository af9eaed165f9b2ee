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


def test_C2_C3_a_hint_before_the_roll_is_the_cube_decision_and_to_a_double_the_answer(client) -> None:
    table, tokens = _live_friends(client, hints=True)
    mover = state(client, table)["to_act"][0]
    play = next(a for a in state(client, table, tokens[mover])["legal_actions"] if a["action"] == "play")
    assert (
        client.post(f"/api/tables/{table}/actions", json=play, headers=auth(tokens[mover])).status_code == 200
    )
    seen = state(client, table)
    roller = 1 - mover
    assert (seen["game"]["phase"], seen["to_act"]) == ("roll", [roller])
    advice = client.get(f"/api/tables/{table}/hint", headers=auth(tokens[roller])).json()
    assert advice["kind"] == "cube"
    assert advice["cube"]["action"] in ("no double", "double", "too good to double")
    assert advice["cube"]["no_double"] > advice["cube"]["double_take"] - 1  # equities, not words
    double = next(a for a in state(client, table, tokens[roller])["legal_actions"] if a["action"] == "double")
    assert (
        client.post(f"/api/tables/{table}/actions", json=double, headers=auth(tokens[roller])).status_code
        == 200
    )
    waiting = client.get(f"/api/tables/{table}/hint?lang=en", headers=auth(tokens[roller]))
    assert waiting.status_code == 409
    assert "your own side" in waiting.json()["error"]
    advice = client.get(f"/api/tables/{table}/hint", headers=auth(tokens[mover])).json()
    assert (advice["kind"], advice["redoubles"], set(advice["answers"])) == ("answer", 0, {"take", "drop"})
    assert advice["answers"][advice["answer"]] == max(advice["answers"].values())
    assert advice["answers"]["drop"] == -1.0  # the doubled player's own side: a drop pays the cube


def test_a_table_of_people_without_the_hints_option_gives_no_hint(client) -> None:
    table, tokens = _live_friends(client)
    refused = client.get(f"/api/tables/{table}/hint?lang=en", headers=auth(tokens[0]))
    assert refused.status_code == 409
    assert refused.json()["error"].startswith("this table gives no hints")


def test_a_table_with_the_bot_but_without_the_hints_option_gives_no_hint(client) -> None:
    table = create(client, {"kind": "game", "series": "single", "seats": [{}, {"bot": "beginner"}]})
    token = sit(client, table, 0, "Ann")
    assert state(client, table, token)["may_hint"] is False
    refused = client.get(f"/api/tables/{table}/hint?lang=en", headers=auth(token))
    assert refused.status_code == 409
    assert refused.json()["error"].startswith("this table gives no hints")


def test_a_hint_is_for_the_roll_of_the_seat_asking_not_the_opponents(client) -> None:
    table, tokens = _live_friends(client, hints=True)
    seen = state(client, table)
    waiting = 1 - seen["to_act"][0]
    assert state(client, table, tokens[waiting])["may_hint"] is False
    refused = client.get(f"/api/tables/{table}/hint?lang=en", headers=auth(tokens[waiting]))
    assert refused.status_code == 409
    assert "your own side" in refused.json()["error"]


def test_hints_are_limited_per_seat(client) -> None:
    table, tokens = _live_friends(client, hints=True)
    mover = state(client, table)["to_act"][0]
    answers = [
        client.get(f"/api/tables/{table}/hint", headers=auth(tokens[mover])).status_code for _ in range(5)
    ]
    assert answers[:3] == [200, 200, 200]
    assert answers[3:] == [429, 429]


def _chouette_in_play(
    client: Any, consultation: str, hints: bool
) -> tuple[str, dict[int, str], dict[str, Any]]:
    """A money chouette of three people, its first game in play with the team's dice rolled."""
    options = {
        "kind": "chouette",
        "hints": hints,
        "settings": {"consultation": consultation},
        "seats": [{}, {}, {}],
    }
    table = create(client, options)
    tokens = {seat: sit(client, table, seat, name) for seat, name in enumerate(["Ann", "Bob", "Cy"])}
    for _ in range(40):
        seen = state(client, table)
        if seen["game"]["phase"] == "move" and seen["game"]["side_on_roll"] == 1:
            return table, tokens, seen
        roller = seen["game"]["roller"]
        seat = next((seat for seat, name in enumerate(["Ann", "Bob", "Cy"]) if name == roller), None)
        acting = seat if seat in seen["to_act"] else seen["to_act"][0]
        mine = state(client, table, tokens[acting])["legal_actions"]
        wanted = next(
            (a for a in mine if a["action"] in ("play", "roll", "commit", "decline_partnership")), mine[0]
        )
        client.post(f"/api/tables/{table}/actions", json=wanted, headers=auth(tokens[acting]))
    raise AssertionError("the team never came to move")


@pytest.mark.parametrize(("consultation", "member_may"), [("free", True), ("none", False)])
def test_H4_at_a_chouette_a_side_gets_hints_for_its_own_roll_as_consultation_allows(
    client, consultation: str, member_may: bool
) -> None:
    table, tokens, seen = _chouette_in_play(client, consultation, hints=True)
    names = {seat: seen["seats"][seat]["name"] for seat in tokens}
    game = seen["game"]
    seat_of = {name: seat for seat, name in names.items()}
    captain = seat_of[game["captain"]]
    assert client.get(f"/api/tables/{table}/hint", headers=auth(tokens[captain])).status_code == 200
    box = seat_of[game["box"]]  # the box asks for the captain's best play: never
    refused = client.get(f"/api/tables/{table}/hint?lang=en", headers=auth(tokens[box]))
    assert refused.status_code == 409, refused.text
    assert "your own side" in refused.json()["error"]
    assert state(client, table, tokens[box])["may_hint"] is False
    members = [seat_of[name] for name in game["team"] if name in seat_of and seat_of[name] != captain]
    for member in members:
        answer = client.get(f"/api/tables/{table}/hint?lang=en", headers=auth(tokens[member]))
        assert (answer.status_code == 200) is member_may, answer.text
        assert state(client, table, tokens[member])["may_hint"] is member_may


def test_a_chouette_created_without_hints_gives_none_even_with_a_bot_seat(client) -> None:
    options = {"kind": "chouette", "seats": [{}, {}, {}, {"bot": "beginner"}]}
    table = create(client, options)
    tokens = {seat: sit(client, table, seat, name) for seat, name in enumerate(["Ann", "Bob", "Cy"])}
    assert state(client, table)["status"] == "live"
    for token in tokens.values():
        assert state(client, table, token)["may_hint"] is False
        refused = client.get(f"/api/tables/{table}/hint?lang=en", headers=auth(token))
        assert refused.status_code == 409
        assert refused.json()["error"].startswith("this table gives no hints")


def test_a_one_game_tables_report_is_the_analysis_of_a_single_game_not_of_a_money_session(client) -> None:
    table, tokens = _live_friends(client)
    resigning = state(client, table)["to_act"][0]
    for seat, action in (
        (resigning, {"action": "resign", "kind": "single"}),
        (1 - resigning, {"action": "accept"}),
    ):
        done = client.post(f"/api/tables/{table}/actions", json=action, headers=auth(tokens[seat]))
        assert done.status_code == 200, done.text
    assert state(client, table)["status"] == "finished"
    report = client.get(f"/api/tables/{table}/analysis.html?level=0-ply")
    assert report.status_code == 200, report.text
    assert "Analysis of a single game at" in report.text
    assert "money session" not in report.text
