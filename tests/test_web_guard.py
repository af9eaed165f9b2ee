"""What the server takes from a request: only its own pages act, bodies are JSON within their limit
however sent, names and texts are ones every file and database can hold, and one address cannot flood
it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from tavola.match import MoneySession
from tavola.records import mat_text, parse_mat
from tavola.web.app import create_app
from tavola.web.limits import MAX_MESSAGE, Limits, RateLimits
from tavola.web.options import NameRefusedError, seat_name
from tavola.web.storage import open_database
from web_helpers import auth, client_on, create, sit, state

TWO_PEOPLE = {"kind": "game", "series": "single", "seats": [{}, {}]}


@pytest.fixture
def client(tmp_path: Path):  # type: ignore[no-untyped-def]
    with client_on(tmp_path / "server.sqlite3") as client:
        yield client


def _live(client: Any) -> tuple[str, dict[int, str]]:
    table = create(client, TWO_PEOPLE)
    return table, {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Bob")}


# --- origins ----------------------------------------------------------------------------------


def test_an_action_from_a_page_of_another_origin_is_refused_and_the_table_untouched(client) -> None:
    table, tokens = _live(client)
    before = state(client, table)
    for origin in ("http://127.0.0.1:9999", "http://testserver:8081", "null", "https://elsewhere.example"):
        refused = client.post(
            f"/api/tables/{table}/actions?lang=en",
            json={"action": "resign", "kind": "single"},
            headers={**auth(tokens[0]), "Origin": origin},
        )
        assert refused.status_code == 403, origin
        assert refused.json()["error"] == "this server takes actions only from its own pages"
    refused = client.post(
        f"/api/tables/{table}/actions",
        json={"action": "resign", "kind": "single"},
        headers={**auth(tokens[0]), "Sec-Fetch-Site": "same-site"},
    )
    assert refused.status_code == 403
    assert state(client, table)["version"] == before["version"]


def test_the_servers_own_pages_and_programs_without_an_origin_act(client) -> None:
    table, tokens = _live(client)
    mover = state(client, table)["to_act"][0]
    mine = state(client, table, tokens[mover])
    play = next(action for action in mine["legal_actions"] if action["action"] == "play")
    own = client.post(
        f"/api/tables/{table}/actions",
        json=play,
        headers={**auth(tokens[mover]), "Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"},
    )
    assert own.status_code == 200, own.text


def test_an_origin_the_server_was_told_to_trust_acts(tmp_path: Path) -> None:
    engine = open_database(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    app = create_app(engine, trusted_origins=["https://club.example"])
    with TestClient(app) as client:
        created = client.post("/api/tables", json=TWO_PEOPLE, headers={"Origin": "https://club.example"})
        assert created.status_code == 201
        refused = client.post("/api/tables", json=TWO_PEOPLE, headers={"Origin": "https://other.example"})
        assert refused.status_code == 403


def test_a_seats_cookie_on_a_request_from_another_origin_of_the_site_is_not_the_seat(client) -> None:
    table = create(client, TWO_PEOPLE)
    sat = client.post(f"/api/tables/{table}/seats/0", json={"name": "Ann"})
    cookie = sat.cookies.get("tavola_seat")
    assert cookie
    sit(client, table, 1, "Bob")
    cookies = {"tavola_seat": cookie}
    client.cookies.update(cookies)
    try:
        own = client.get(f"/api/tables/{table}", headers={"Sec-Fetch-Site": "same-origin"})
        assert own.json()["you"] == 0
        other = client.get(f"/api/tables/{table}", headers={"Sec-Fetch-Site": "same-site"})
        assert other.json()["you"] is None
        assert other.json()["legal_actions"] == []
    finally:
        client.cookies.clear()


def test_a_websocket_opened_by_a_page_of_another_origin_is_refused(client) -> None:
    table, _tokens = _live(client)
    with (
        pytest.raises(WebSocketDisconnect) as denied,
        client.websocket_connect(f"/api/tables/{table}/live", headers={"Origin": "http://127.0.0.1:9999"}),
    ):
        pass
    assert denied.value.code == 1008  # closed before it was accepted: uvicorn answers the handshake 403
    with client.websocket_connect(f"/api/tables/{table}/live", headers={"Origin": "http://testserver"}) as ok:
        assert ok.receive_json()["type"] == "state"


# --- bodies -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", ""]
)
def test_a_body_that_is_not_sent_as_json_is_refused(client, kind: str) -> None:
    table, tokens = _live(client)
    headers = {**auth(tokens[0])}
    if kind:
        headers["Content-Type"] = kind
    refused = client.post(f"/api/tables/{table}/actions", content=b'{"action": "roll"}', headers=headers)
    assert refused.status_code == 415
    charset = client.post(
        "/api/tables",
        content=b'{"kind": "game", "seats": [{}, {}]}',
        headers={"Content-Type": "application/json; charset=utf-8"},
    )
    assert charset.status_code == 201


def test_a_chunked_body_past_the_limit_is_refused_as_it_comes(client) -> None:
    table = create(client, TWO_PEOPLE)

    def chunks() -> Iterator[bytes]:
        yield b'{"name": "'
        for _ in range(1000):
            yield b"x" * 1000
        yield b'"}'

    refused = client.post(
        f"/api/tables/{table}/seats/0", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert refused.status_code == 413
    assert state(client, table)["seats"][0]["taken"] is False
    small = client.post(
        f"/api/tables/{table}/seats/0",
        content=iter([b'{"name": ', b'"Ann"}']),
        headers={"Content-Type": "application/json"},
    )
    assert small.status_code == 200, small.text


# --- names and texts --------------------------------------------------------------------------

BAD_NAMES = [
    "x" * 41,
    "x" * 16_000,
    "Ann\x00",
    "Ann\u2028Bo",
    "Ann\x1cBo",
    "Ann\x85Bo",
    "Ann\u202eoB",
    "Ann: the first",
    "",
    "   ",
]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_seat_name_that_no_record_could_hold_is_refused_with_a_clear_error(client, name: str) -> None:
    table = create(client, TWO_PEOPLE)
    refused = client.post(f"/api/tables/{table}/seats/0?lang=en", json={"name": name})
    assert refused.status_code == 400
    assert refused.json()["error"].startswith("a name ")
    created = client.post("/api/tables?lang=en", json={**TWO_PEOPLE, "seats": [{"name": name}, {}]})
    assert created.status_code == 400
    assert "seats[0].name" in created.json()["error"]
    assert state(client, table)["seats"][0]["taken"] is False


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("seats/0", '{"name": "\\ud800x"}'),
        ("chat", '{"text": "\\udfff hello"}'),
        ("actions", '{"action": "\\ud800"}'),
    ],
)
def test_a_lone_surrogate_in_a_body_is_refused_not_a_server_error(client, path: str, body: str) -> None:
    table, tokens = _live(client)
    answer = client.post(
        f"/api/tables/{table}/{path}",
        content=body.encode(),
        headers={**auth(tokens[0]), "Content-Type": "application/json"},
    )
    assert answer.status_code == 400, answer.text
    assert "no Unicode character" in answer.json()["error"]


def test_a_chat_message_with_a_control_character_is_refused(client) -> None:
    table, tokens = _live(client)
    refused = client.post(
        f"/api/tables/{table}/chat?lang=en", json={"text": "hi\x00"}, headers=auth(tokens[0])
    )
    assert refused.status_code == 400
    assert "U+0000" in refused.json()["error"]
    assert (
        client.post(
            f"/api/tables/{table}/chat", json={"text": "two\nlines"}, headers=auth(tokens[0])
        ).status_code
        == 200
    )


def test_a_websocket_answers_bad_text_and_binary_frames_and_stays_open(client) -> None:
    table, tokens = _live(client)
    with client.websocket_connect(f"/api/tables/{table}/live?lang=en") as websocket:
        assert websocket.receive_json()["type"] == "state"
        websocket.send_text('{"type": "hello", "token": "\\ud800"}')
        assert "no Unicode character" in websocket.receive_json()["error"]
        websocket.send_json({"type": "hello", "token": tokens[0]})
        assert websocket.receive_json()["state"]["you"] == 0
        websocket.send_text('{"type": "chat", "text": "\\udfff hello"}')
        assert "no Unicode character" in websocket.receive_json()["error"]
        websocket.send_bytes(b'{"type": "ping"}')
        answer = websocket.receive_json()
        assert answer["type"] == "error"
        assert answer["error"] == "messages are JSON text, not binary frames"
        websocket.send_json({"type": "ping"})
        assert websocket.receive_json() == {"type": "pong"}


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=1, max_size=60))
def test_every_name_a_seat_takes_is_written_to_a_mat_file_that_reads_back(text: str) -> None:
    try:
        name = seat_name(text)
    except NameRefusedError:
        return
    other = "Bo" if name != "Bo" else "Cy"
    session = MoneySession(players=(name, other))
    assert parse_mat(mat_text(session)).players == (name, other)


# --- rates ------------------------------------------------------------------------------------


def test_websocket_connections_are_capped_per_address(tmp_path: Path) -> None:
    engine = open_database(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    app = create_app(engine, posts=RateLimits(1e9, 1e9), limits=Limits(connections_per_address=3))
    with TestClient(app) as client:
        table = create(client, TWO_PEOPLE)
        opened = [client.websocket_connect(f"/api/tables/{table}/live") for _ in range(3)]
        for websocket in opened:
            websocket.__enter__()
            websocket.receive_json()
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(f"/api/tables/{table}/live"):
            pass
        opened[0].__exit__(None, None, None)
        again = client.websocket_connect(f"/api/tables/{table}/live")
        again.__enter__()  # the place given back is taken again
        assert again.receive_json()["type"] == "state"
        for websocket in [*opened[1:], again]:
            websocket.__exit__(None, None, None)


def test_websocket_messages_are_limited_per_address_across_its_connections(tmp_path: Path) -> None:
    engine = open_database(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    limits = Limits(connections_per_address=50, messages_at_once=10, messages_per_second=0.01)
    app = create_app(engine, posts=RateLimits(1e9, 1e9), limits=limits)
    with TestClient(app) as client:
        table, _tokens = _live(client)
        sockets = [client.websocket_connect(f"/api/tables/{table}/live") for _ in range(8)]
        answers = []
        for websocket in sockets:
            websocket.__enter__()
            websocket.receive_json()
            for _ in range(3):  # each connection alone is well inside its own 20 at once
                websocket.send_json({"type": "ping"})
                answers.append(websocket.receive_json())
        for websocket in sockets:
            websocket.__exit__(None, None, None)
    assert sum(answer["type"] == "pong" for answer in answers) == 10
    refused = [answer for answer in answers if answer["type"] == "error"]
    assert len(refused) == 14
    assert all(answer["status"] == 429 for answer in refused)


def test_a_message_past_the_limit_is_refused_on_the_websocket(client) -> None:
    table, _tokens = _live(client)
    with client.websocket_connect(f"/api/tables/{table}/live") as websocket:
        websocket.receive_json()
        websocket.send_text('{"type": "ping", "pad": "' + "x" * MAX_MESSAGE + '"}')
        assert websocket.receive_json()["status"] == 413
