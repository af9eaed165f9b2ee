"""The web server's JSON API, in the test's process: tables, seats and tokens, actions, records, dice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tavola.cli import main
from tavola.dicesource import verify
from web_helpers import auth, client_on, create, log_of, play_on, record_of, sit, state

TWO_PEOPLE = {"kind": "game", "series": "single", "seats": [{}, {}]}


@pytest.fixture
def client(tmp_path: Path):  # type: ignore[no-untyped-def]
    with client_on(tmp_path / "server.sqlite3") as client:
        yield client


def test_two_seats_play_a_game_to_the_end(client, tmp_path: Path) -> None:
    table = create(client, TWO_PEOPLE)
    assert state(client, table)["status"] == "open"
    tokens = {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Bob")}
    assert state(client, table)["status"] == "live"
    actions = play_on(client, table, tokens, lambda seen: seen["status"] == "finished")
    assert actions > 20
    final = state(client, table)
    outcome = final["game"]["outcome"]
    assert outcome["ending"] == "bear-off"
    record = record_of(client, table)
    assert record["games"][0]["outcome"]["winner"] == outcome["winner"]
    assert record["players"] == ["Ann", "Bob"]
    assert "record" not in final  # the state is the game now: the record and the log are routes of their own
    assert "log" not in final
    assert len(log_of(client, table)) == final["version"]
    dice = client.get(f"/api/tables/{table}/dice").json()
    assert dice["secret"] == final["dice"]["secret"] is not None
    assert dice["verified"] is True
    assert len(dice["dice"]) == final["dice"]["used"] > 20
    verify(dice["commitment"], dice["secret"], dice["dice"])
    (tmp_path / "dice.json").write_text(json.dumps(dice), encoding="utf-8")
    assert main(["verify", str(tmp_path / "dice.json")]) == 0
    dice["dice"][3] = dice["dice"][3] % 6 + 1
    (tmp_path / "dice.json").write_text(json.dumps(dice), encoding="utf-8")
    assert main(["verify", str(tmp_path / "dice.json")]) == 1
    mat = client.get(f"/api/tables/{table}/record.mat")
    assert mat.status_code == 200
    assert "Ann" in mat.text
    assert "Bob" in mat.text
    downloaded = client.get(f"/api/tables/{table}/record.json")
    assert downloaded.headers["content-disposition"].startswith("attachment")
    assert downloaded.json() == record
    refused = client.post(f"/api/tables/{table}/actions", json={"action": "roll"}, headers=auth(tokens[0]))
    assert refused.status_code == 409


def test_the_commitment_is_shown_from_the_start_and_the_secret_only_at_the_end(client) -> None:
    table = create(client, TWO_PEOPLE)
    opened = state(client, table)
    assert len(opened["dice"]["commitment"]) == 64
    assert opened["dice"]["secret"] is None
    tokens = {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Bob")}
    for token in (None, tokens[0], tokens[1]):
        seen = state(client, table, token)
        assert seen["dice"]["secret"] is None
        assert seen["dice"]["commitment"] == opened["dice"]["commitment"]
        assert "secret" not in json.dumps({key: value for key, value in seen.items() if key != "dice"})
    assert client.get(f"/api/tables/{table}/dice").json()["secret"] is None


def test_R21_a_seat_cannot_act_with_another_seats_token(client) -> None:
    table = create(client, TWO_PEOPLE)
    tokens = {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Bob")}
    seen = state(client, table)
    [acting] = seen["to_act"]
    waiting = 1 - acting
    mine = state(client, table, tokens[acting])["legal_actions"][0]
    refused = client.post(f"/api/tables/{table}/actions", json=mine, headers=auth(tokens[waiting]))
    assert refused.status_code == 400
    names = ("Ann", "Bob")
    assert refused.json()["error"] == f"it is {names[acting]}'s turn to act, not {names[waiting]}'s (R21)"
    forged = client.post(f"/api/tables/{table}/actions", json=mine, headers=auth("not-a-token"))
    assert forged.status_code == 403
    assert state(client, table)["version"] == seen["version"]
    taken = client.post(f"/api/tables/{table}/seats/{acting}", json={"name": "Eve"})
    assert taken.status_code == 409
    assert state(client, table)["seats"][acting]["name"] == names[acting]


def test_a_spectator_cannot_act_and_sees_no_legal_actions(client) -> None:
    table = create(client, TWO_PEOPLE)
    tokens = {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Bob")}
    seen = state(client, table)
    assert seen["you"] is None
    assert seen["legal_actions"] == []
    [acting] = seen["to_act"]
    assert state(client, table, tokens[acting])["legal_actions"]
    refused = client.post(f"/api/tables/{table}/actions", json={"action": "roll"})
    assert refused.status_code == 403
    assert "token" in refused.json()["error"]
    assert client.post(f"/api/tables/{table}/chat", json={"text": "hello"}).status_code == 403
    assert state(client, table)["version"] == seen["version"]


def test_a_bad_action_gets_the_engines_error_and_the_table_is_unchanged(client) -> None:
    table = create(client, TWO_PEOPLE)
    tokens = {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Bob")}
    before = state(client, table)
    [acting] = before["to_act"]
    headers = auth(tokens[acting])
    illegal = client.post(
        f"/api/tables/{table}/actions", json={"action": "play", "play": "24/1"}, headers=headers
    )
    assert illegal.status_code == 400
    assert "24/1" in illegal.json()["error"]
    unknown = client.post(f"/api/tables/{table}/actions", json={"action": "fly"}, headers=headers)
    assert unknown.status_code == 400
    assert unknown.json()["error"].startswith("action: one of roll, double")
    not_json = client.post(
        f"/api/tables/{table}/actions",
        content=b"{roll",
        headers={**headers, "content-type": "application/json"},
    )
    assert not_json.status_code == 400
    too_large = client.post(
        f"/api/tables/{table}/actions", json={"action": "play", "play": "x" * 20_000}, headers=headers
    )
    assert too_large.status_code == 413
    wrong_time = client.post(f"/api/tables/{table}/actions", json={"action": "take"}, headers=headers)
    assert wrong_time.status_code == 400
    assert "take" in wrong_time.json()["error"]
    after = state(client, table)
    assert after == before
    good = client.post(
        f"/api/tables/{table}/actions",
        json=state(client, table, tokens[acting])["legal_actions"][0],
        headers=headers,
    )
    assert good.status_code == 200
    assert good.json()["version"] > before["version"]


def test_options_are_checked_by_the_rules(client) -> None:
    refusals = {
        "the Jacoby rule is for money play, not matches (P4)": {
            "kind": "game",
            "series": "match",
            "rules": {"jacoby": True},
            "seats": [{}, {}],
        },
        "rules.beavers: 'one' is not a whole number": {
            "kind": "game",
            "rules": {"beavers": "one"},
            "seats": [{}, {}],
        },
        "rules.doubling: there is no such rule": {
            "kind": "game",
            "rules": {"doubling": True},
            "seats": [{}, {}],
        },
        "seats[1].bot: no level called 'god'; known: beginner, casual, intermediate, advanced, expert, world-class, "
        "0-ply, 1-ply, 2-ply": {
            "kind": "game",
            "seats": [{}, {"bot": "god"}],
        },
        "settings.cubes: 'many' is not a known value": {
            "kind": "chouette",
            "settings": {"cubes": "many"},
            "seats": [{}, {}, {}],
        },
    }
    for message, options in refusals.items():
        response = client.post("/api/tables", json=options)
        assert response.status_code == 400, options
        assert response.json()["error"] == message
    nobody = client.post(
        "/api/tables", json={"kind": "game", "seats": [{"bot": "advanced"}, {"bot": "expert"}]}
    )
    assert nobody.status_code == 409
    assert client.get("/api/tables").json()["tables"] == []


def test_every_rule_and_variant_reaches_the_table(client) -> None:
    options = {
        "kind": "game",
        "series": "money",
        "stake": 2.5,
        "variant": "nackgammon",
        "rules": {"jacoby": True, "beavers": 2, "automatic_doubles": 1, "automatic_beavers": True},
        "seats": [{"name": "Ann"}, {}],
    }
    table = create(client, options)
    sit(client, table, 0, "")
    sit(client, table, 1, "Bob")
    record = record_of(client, table)
    assert record["variant"]["name"] == "nackgammon"
    assert record["stake"] == 2.5
    assert record["players"] == ["Ann", "Bob"]
    assert record["rules"] | options["rules"] == record["rules"]
    match = create(
        client,
        {
            "kind": "game",
            "series": "match",
            "length": 7,
            "rules": {"holland": True, "crawford": True},
            "seats": [{}, {}],
        },
    )
    sit(client, match, 0, "Ann")
    sit(client, match, 1, "Bob")
    seen = state(client, match)
    assert seen["game"]["score"] == {"length": 7, "points": [0, 0], "crawford": False}
    assert record_of(client, match)["rules"]["holland"] is True


def test_a_money_session_plays_on_until_a_seat_ends_it(client) -> None:
    table = create(client, {"kind": "game", "series": "money", "seats": [{}, {}]})
    tokens = {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Bob")}
    play_on(client, table, tokens, lambda seen: seen["game"]["outcome"] is not None)
    between = state(client, table, tokens[0])
    assert between["status"] == "live"
    assert between["legal_actions"] == [{"action": "start_game"}, {"action": "end_session"}]
    assert sorted(between["to_act"]) == [0, 1]
    headers = auth(tokens[1])
    assert (
        client.post(
            f"/api/tables/{table}/actions", json={"action": "start_game"}, headers=headers
        ).status_code
        == 200
    )
    assert state(client, table)["game"]["number"] == 2
    refused = client.post(f"/api/tables/{table}/actions", json={"action": "end_session"}, headers=headers)
    assert refused.status_code == 400
    play_on(client, table, tokens, lambda seen: seen["game"]["outcome"] is not None)
    ended = client.post(f"/api/tables/{table}/actions", json={"action": "end_session"}, headers=headers)
    assert ended.status_code == 200
    assert ended.json()["status"] == "finished"
    assert ended.json()["dice"]["secret"] is not None
    assert len(record_of(client, table)["games"]) == 2


def test_the_lobby_lists_open_and_live_tables(client) -> None:
    first = create(client, TWO_PEOPLE)
    second = create(client, {"kind": "game", "series": "match", "length": 3, "seats": [{}, {}]})
    sit(client, second, 0, "Ann")
    sit(client, second, 1, "Bob")
    lobby = {table["id"]: table for table in client.get("/api/tables").json()["tables"]}
    assert lobby[first]["status"] == "open"
    assert lobby[second]["status"] == "live"
    assert [seat["taken"] for seat in lobby[first]["seats"]] == [False, False]
    assert client.get("/api/tables?status=open").json()["tables"][0]["id"] == first
    assert client.get("/api/tables/nothing-here").status_code == 404
    assert client.get("/openapi.json").json()["paths"]["/api/tables"]["post"]["requestBody"]


def test_tavola_verify_takes_the_three_parts_as_options(capsys: pytest.CaptureFixture[str]) -> None:
    commitment = "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    secret = "00" * 32
    assert main(["verify", "--commitment", commitment, "--secret", secret, "--dice", "4 4 1 5"]) == 0
    assert "all 4 come from the secret" in capsys.readouterr().out
    assert main(["verify", "--commitment", commitment, "--secret", secret, "--dice", "4425"]) == 1
    assert "die 2 (counting from 0) was 2, but the secret gives 1" in capsys.readouterr().err
    assert main(["verify", "--commitment", commitment, "--dice", "44"]) == 2
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--help"])
    assert exited.value.code == 0
    assert "--database URL" in capsys.readouterr().out


def test_a_finished_table_is_analysed_as_the_html_report(client) -> None:
    table = create(client, TWO_PEOPLE)
    tokens = {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Bob")}
    early = client.get(f"/api/tables/{table}/analysis.html", params={"level": "0-ply"})
    assert early.status_code == 409
    assert "once it is finished" in early.json()["error"]
    play_on(client, table, tokens, lambda seen: seen["status"] == "finished")
    assert client.get(f"/api/tables/{table}/analysis.html", params={"level": "9-ply"}).status_code == 400
    report = client.get(f"/api/tables/{table}/analysis.html", params={"level": "0-ply", "lang": "it"})
    assert report.status_code == 200
    assert report.headers["content-type"].startswith("text/html")
    assert '<html lang="it"' in report.text
    assert "Ann" in report.text
    assert "Bob" in report.text
    assert "0-ply" in report.text
    again = client.get(f"/api/tables/{table}/analysis.html", params={"level": "0-ply", "lang": "it"})
    assert again.text == report.text
