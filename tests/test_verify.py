"""``tavola verify`` on a finished table's record.json, on its dice JSON, and on what is neither."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")

from tavola.cli import main
from tavola.dicesource import RandomDice
from tavola.match import Match
from tavola.records import from_json, to_json
from web_helpers import auth, client_on, create, play_on, sit


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What a server gives of three tables: a money session of one game and a chouette, both finished
    (their record.json and dice JSON), and the record.json of a table still in play."""
    got: dict[str, Any] = {}
    with client_on(tmp_path_factory.mktemp("server") / "server.sqlite3") as client:
        table = create(client, {"kind": "game", "series": "money", "seats": [{}, {}]})
        tokens = {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Bob")}
        play_on(client, table, tokens, lambda seen: seen["game"]["outcome"] is not None)
        ended = client.post(
            f"/api/tables/{table}/actions", json={"action": "end_session"}, headers=auth(tokens[0])
        )
        assert ended.status_code == 200, ended.text
        got["money"] = client.get(f"/api/tables/{table}/record.json").json()
        got["money dice"] = client.get(f"/api/tables/{table}/dice").json()
        options = {
            "kind": "chouette",
            "settings": {"cubes": "single"},
            "seats": [{"bot": "beginner"}, {}, {}],
        }
        table = create(client, options)
        tokens = {1: sit(client, table, 1, "Ann"), 2: sit(client, table, 2, "Cid")}
        play_on(
            client, table, tokens, lambda seen: seen["game"].get("number") == 1 and seen["game"]["is_over"]
        )
        ended = client.post(
            f"/api/tables/{table}/actions", json={"action": "end_session"}, headers=auth(tokens[1])
        )
        assert ended.status_code == 200, ended.text
        got["chouette"] = client.get(f"/api/tables/{table}/record.json").json()
        got["chouette dice"] = client.get(f"/api/tables/{table}/dice").json()
        table = create(client, {"kind": "game", "series": "single", "seats": [{}, {}]})
        tokens = {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Bob")}
        play_on(client, table, tokens, lambda seen: seen["version"] > 4)
        got["live"] = client.get(f"/api/tables/{table}/record.json").json()
    return got


def _verify(tmp_path: Path, data: object, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    status = main(["verify", str(path)])
    out, err = capsys.readouterr()
    return status, out, err


def _rolls(record: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """The last game's roll entries with their places in its log."""
    log = record["games"][-1]["log"]
    return [(index, entry) for index, entry in enumerate(log) if entry["action"] == "roll"]


def test_a_finished_tables_record_verifies_every_die_the_table_used(
    tables: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record, dice = tables["money"], tables["money dice"]
    assert record["dice"] == {
        "scheme": "tavola-dice-v1",
        "commitment": dice["commitment"],
        "used": len(dice["dice"]),
        "secret": dice["secret"],
    }
    status, out, err = _verify(tmp_path, record, capsys)
    assert (status, err) == (0, "")
    assert f"all {len(dice['dice'])} dice the table used come from the secret committed to as" in out
    assert dice["commitment"] in out
    assert from_json(record).games[0].log  # the record reads back with its dice field


def test_a_chouettes_record_verifies_its_draws_rolls_and_openings(
    tables: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record, dice = tables["chouette"], tables["chouette dice"]
    assert any(entry["action"] == "draw_order" for entry in record["log"])
    status, out, _err = _verify(tmp_path, record, capsys)
    assert status == 0
    assert f"all {len(dice['dice'])} dice the table used" in out


def test_a_record_with_a_roll_changed_is_not_honest_and_names_the_entry(
    tables: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = copy.deepcopy(tables["money"])
    index, entry = _rolls(record)[3]
    entry["dice"][0] = entry["dice"][0] % 6 + 1  # another pair, whichever way round
    status, out, err = _verify(tmp_path, record, capsys)
    assert (status, out) == (1, "")
    assert "the dice are NOT honest" in err
    assert f"games[0].log[{index}].dice: the roll was {entry['dice']}, but the secret gives" in err


def test_a_record_with_an_opening_die_changed_is_not_honest(
    tables: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = copy.deepcopy(tables["money"])
    opening = record["games"][0]["log"][0]
    assert opening["action"] == "opening_roll"
    opening["dice"].reverse()  # the same dice, but not the order rolled
    if opening["dice"][0] == opening["dice"][1]:
        opening["dice"][0] = opening["dice"][0] % 6 + 1
    status, _out, err = _verify(tmp_path, record, capsys)
    assert status == 1
    assert "games[0].log[0].dice: die 0 (counting from 0) was" in err


def test_a_record_with_dice_left_off_the_end_is_noticed(
    tables: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = copy.deepcopy(tables["money"])
    used = record["dice"]["used"]
    last = _rolls(record)[-1][0]
    record["games"][-1]["log"] = record["games"][-1]["log"][:last]  # the last roll and play cut off
    status, out, err = _verify(tmp_path, record, capsys)
    assert (status, out) == (1, "")
    assert f"the {used - 2} dice given come from the secret, but the table used {used}" in err
    assert "the last 2 are not there to check" in err


def test_a_record_with_more_dice_than_the_table_used_is_noticed(
    tables: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = copy.deepcopy(tables["money"])
    record["dice"]["used"] -= 2
    status, _out, err = _verify(tmp_path, record, capsys)
    assert status == 1
    assert f"{record['dice']['used'] + 2} dice are given, but the table used only" in err


def test_a_tables_dice_json_still_verifies(
    tables: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dice = tables["chouette dice"]
    status, out, _err = _verify(tmp_path, dice, capsys)
    assert status == 0
    assert f"all {len(dice['dice'])} dice the table used" in out
    changed = copy.deepcopy(dice)
    changed["dice"][5] = changed["dice"][5] % 6 + 1
    status, _out, err = _verify(tmp_path, changed, capsys)
    assert status == 1
    assert "die 5 (counting from 0) was" in err


def test_a_tables_dice_json_with_dice_left_off_the_end_is_noticed(
    tables: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dice = copy.deepcopy(tables["chouette dice"])
    assert dice["used"] == len(dice["dice"])
    dice["dice"] = dice["dice"][:-3]
    status, out, err = _verify(tmp_path, dice, capsys)
    assert (status, out) == (1, "")
    assert "the last 3 are not there to check" in err


def test_a_record_is_read_from_standard_input(
    tables: dict[str, Any], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for argv in (["verify"], ["verify", "-"]):
        monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(tables["money"])))
        assert main(argv) == 0
        assert "dice the table used come from the secret" in capsys.readouterr().out


def test_the_record_of_a_table_in_play_has_no_secret_to_check(
    tables: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tables["live"]
    assert "secret" not in record["dice"]
    status, _out, err = _verify(tmp_path, record, capsys)
    assert status == 2
    assert "the record's dice are not revealed (no secret)" in err


def test_a_record_of_dice_nobody_committed_to_has_nothing_to_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match = Match(3, dice=RandomDice(seed=3))
    match.new_game().roll()
    record = to_json(match)
    assert "dice" not in record
    status, _out, err = _verify(tmp_path, record, capsys)
    assert status == 2
    assert "the record holds no verifiable dice (no commitment)" in err


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("{not json", "record.json: not valid JSON: line 1"),
        (
            "[4, 4, 1, 5]",
            "expected a Tavola record (a table's record.json) or the JSON of a finished table's dice",
        ),
        ('{"format": "tavola-match"}', "not format 'tavola-match'"),
        (
            '{"commitment": "66", "secret": null, "dice": []}',
            "the dice are not revealed yet (the secret is null)",
        ),
        (
            '{"commitment": "66", "secret": "00", "dice": "4415"}',
            "commitment and secret as text, dice as numbers",
        ),
    ],
)
def test_malformed_input_gets_a_clear_error(
    text: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    assert main(["verify", str(path)]) == 2
    err = capsys.readouterr().err
    assert said in err
    assert "Traceback" not in err


def test_a_record_with_a_malformed_roll_names_the_field(
    tables: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = copy.deepcopy(tables["money"])
    index, entry = _rolls(record)[0]
    entry["dice"] = "31"
    status, _out, err = _verify(tmp_path, record, capsys)
    assert status == 2
    assert f"games[0].log[{index}].dice: two dice of 1 to 6, not '31'" in err


def test_a_record_with_another_scheme_is_refused(
    tables: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = copy.deepcopy(tables["money"])
    record["dice"]["scheme"] = "tavola-dice-v2"
    status, _out, err = _verify(tmp_path, record, capsys)
    assert status == 2
    assert "the dice follow the scheme 'tavola-dice-v2'" in err
