"""Accounts: signing up, logging in and out, their refusals and limits, sessions as cookies that only the
server's own pages use, and seats taken by a logged-in person being theirs; on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")
pytest.importorskip("argon2", reason="accounts need argon2-cffi (pip install 'tavola[web]')")

from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from tavola.web.accounts import (
    SESSION_SECONDS,
    AccountNameError,
    AccountRow,
    Accounts,
    LoginError,
    NameTakenError,
    PasswordError,
    SeatAccountRow,
    SessionRow,
)
from tavola.web.app import create_app
from tavola.web.limits import RateLimits
from tavola.web.live import token_hash
from tavola.web.storage import Store, open_database
from web_helpers import create, state

pytestmark = pytest.mark.timeout(120)

PASSWORD = "correct horse battery"
OTHER_SITE = {"Origin": "http://127.0.0.1:9999"}
"""What a browser adds to a request made by a page of another origin."""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with _client(f"sqlite:///{tmp_path / 'server.sqlite3'}") as client:
        yield client


def _client(url: str) -> TestClient:
    return TestClient(create_app(open_database(url), posts=RateLimits(capacity=1e9, per_second=1e9)))


def _sign_up(client: TestClient, name: str, password: str = PASSWORD) -> None:
    response = client.post("/api/accounts", json={"name": name, "password": password})
    assert response.status_code == 201, response.text


def _who(client: TestClient) -> str | None:
    response = client.get("/api/session")
    assert response.status_code == 200, response.text
    account = response.json()["account"]
    return None if account is None else str(account["name"])


def _store(client: TestClient) -> Store:
    store: Store = client.app.state.server.hub.store  # type: ignore[attr-defined]
    return store


def test_sign_up_log_out_and_log_in_again(url: str) -> None:
    with _client(url) as client:
        assert _who(client) is None
        signed = client.post("/api/accounts", json={"name": " Ann ", "password": PASSWORD})
        assert signed.status_code == 201, signed.text
        assert signed.json()["account"]["name"] == "Ann"
        cookie = signed.headers["set-cookie"]
        assert "tavola_session=" in cookie
        assert "HttpOnly" in cookie
        assert "SameSite=strict" in cookie
        assert "Path=/" in cookie
        assert "Secure" not in cookie  # the request came by http
        assert _who(client) == "Ann"
        token = client.cookies["tavola_session"]
        with Session(_store(client).engine) as session:
            row = session.scalars(select(AccountRow)).one()
            sessions = list(session.scalars(select(SessionRow)))
        assert row.key == "ann"
        assert row.password_hash is not None
        assert row.password_hash.startswith("$argon2id$")
        assert PASSWORD not in row.password_hash
        assert [stored.token_hash for stored in sessions] == [token_hash(token)]  # never the token itself
        out = client.delete("/api/session")
        assert out.status_code == 200
        assert out.json() == {"account": None}
        assert _who(client) is None
        client.cookies.set("tavola_session", token)  # the old token is no one's now
        assert _who(client) is None
        client.cookies.clear()
        back = client.post("/api/session", json={"name": "ANN", "password": PASSWORD})
        assert back.status_code == 200, back.text
        assert back.json()["account"]["name"] == "Ann"
        assert _who(client) == "Ann"


def test_a_name_is_taken_in_every_case_and_form(url: str) -> None:
    with _client(url) as client:
        _sign_up(client, "Ann")
        for same in ("ann", "ANN", "\uff21nn"):  # the last with a full-width A
            refused = client.post("/api/accounts", json={"name": same, "password": PASSWORD})
            assert refused.status_code == 409, refused.text
            assert "taken" in refused.json()["error"]


@pytest.mark.parametrize(
    ("name", "password", "says"),
    [
        ("Ann", "short", "a password has 8 to 256 characters"),
        ("Ann", "x" * 257, "a password has 8 to 256 characters"),
        ("", PASSWORD, "name"),
        ("Ann:Bo", PASSWORD, "U+003A"),
        ("Ann\u202eBo", PASSWORD, "U+202E"),
        ("Tavola", PASSWORD, "the bots'"),
        ("tavola Expert", PASSWORD, "the bots'"),
    ],
)
def test_sign_up_refuses_a_bad_name_or_password_saying_why(
    client: TestClient, name: str, password: str, says: str
) -> None:
    refused = client.post("/api/accounts", json={"name": name, "password": password})
    assert refused.status_code == 400, refused.text
    assert says in refused.json()["error"]
    assert _who(client) is None


def test_a_name_like_a_bots_but_not_one_is_a_persons(client: TestClient) -> None:
    _sign_up(client, "Tavolara")
    assert _who(client) == "Tavolara"


def test_a_body_without_its_fields_is_refused(client: TestClient) -> None:
    refused = client.post("/api/accounts", json={"name": "Ann"})
    assert refused.status_code == 400
    assert "password" in refused.json()["error"]


def test_login_refuses_a_wrong_password_and_an_unknown_name_alike(url: str) -> None:
    with _client(url) as client:
        _sign_up(client, "Ann")
        client.delete("/api/session")
        wrong = client.post("/api/session", json={"name": "Ann", "password": "not the password"})
        unknown = client.post("/api/session", json={"name": "Nobody", "password": PASSWORD})
        assert wrong.status_code == unknown.status_code == 403
        assert wrong.json() == unknown.json() == {"error": "no account has this name and password"}
        assert "set-cookie" not in wrong.headers
        assert _who(client) is None


def test_logins_are_limited_per_name_whatever_the_address(client: TestClient) -> None:
    _sign_up(client, "Ann")
    for _attempt in range(5):
        wrong = client.post("/api/session", json={"name": "ann", "password": "not the password"})
        assert wrong.status_code == 403
    limited = client.post("/api/session", json={"name": "ANN", "password": PASSWORD})
    assert limited.status_code == 429
    assert "too many" in limited.json()["error"]
    assert client.post("/api/session", json={"name": "Bob", "password": PASSWORD}).status_code == 403


def test_sign_ups_and_logins_are_limited_per_address(client: TestClient) -> None:
    answers = [
        client.post("/api/session", json={"name": f"Player {number}", "password": PASSWORD}).status_code
        for number in range(10)
    ]
    assert answers == [403] * 10
    assert client.post("/api/accounts", json={"name": "Ann", "password": PASSWORD}).status_code == 429


def test_a_page_of_another_origin_can_neither_log_in_nor_out_nor_see_the_session(client: TestClient) -> None:
    refused = client.post("/api/accounts", json={"name": "Ann", "password": PASSWORD}, headers=OTHER_SITE)
    assert refused.status_code == 403
    _sign_up(client, "Ann")
    login = client.post("/api/session", json={"name": "Ann", "password": PASSWORD}, headers=OTHER_SITE)
    assert login.status_code == 403
    assert client.delete("/api/session", headers=OTHER_SITE).status_code == 403
    seen = client.get("/api/session", headers=OTHER_SITE)
    assert seen.status_code == 200
    assert seen.json() == {"account": None}  # the cookie is not believed from another origin's page
    assert _who(client) == "Ann"


def test_the_session_cookie_is_secure_over_https(tmp_path: Path) -> None:
    app = create_app(open_database(f"sqlite:///{tmp_path / 'server.sqlite3'}"))
    with TestClient(app, base_url="https://club.example") as client:
        signed = client.post("/api/accounts", json={"name": "Ann", "password": PASSWORD})
        assert signed.status_code == 201
        assert "Secure" in signed.headers["set-cookie"]


def test_a_logged_in_person_sits_under_their_name_and_the_seat_is_theirs(url: str) -> None:
    with _client(url) as client:
        _sign_up(client, "Ann")
        guest = TestClient(client.app)
        table = create(client, {"kind": "game", "series": "match", "length": 1, "seats": [{}, {}]})
        sat = client.post(f"/api/tables/{table}/seats/0", json={"name": "Someone else"})
        assert sat.status_code == 200, sat.text
        assert sat.json()["account"] == "Ann"
        as_guest = guest.post(f"/api/tables/{table}/seats/1", json={"name": "Bob"})
        assert as_guest.json()["account"] is None
        seen = state(client, table, sat.json()["token"])
        assert [seat["name"] for seat in seen["seats"]] == ["Ann", "Bob"]
        assert seen["you"] == 0  # the seat's token is the seat's, as a guest's is
        with Session(_store(client).engine) as session:
            links = [(row.table_id, row.seat) for row in session.scalars(select(SeatAccountRow))]
        assert links == [(table, 0)]
        page = client.get("/api/players/ann")
        assert page.status_code == 200
        assert page.json()["tables"] == [{"table": table, "seat": 0, "kind": "game", "status": "live"}]
        assert client.get("/api/players/Bob").status_code == 404


def test_a_logged_in_person_comes_back_to_their_seat_from_another_device(url: str) -> None:
    with _client(url) as phone:
        _sign_up(phone, "Ann")
        table = create(phone, {"kind": "game", "series": "match", "length": 1, "seats": [{}, {}]})
        first = phone.post(f"/api/tables/{table}/seats/0", json={}).json()["token"]
        TestClient(phone.app).post(f"/api/tables/{table}/seats/1", json={"name": "Bob"})
        laptop = TestClient(phone.app)
        stranger = TestClient(phone.app)
        assert laptop.post("/api/session", json={"name": "Ann", "password": PASSWORD}).status_code == 200
        back = laptop.post(f"/api/tables/{table}/seats/0", json={})
        assert back.status_code == 200, back.text
        assert back.json()["account"] == "Ann"
        assert back.json()["state"]["you"] == 0
        second = back.json()["token"]
        assert second != first
        assert state(laptop, table, second)["you"] == 0
        assert state(phone, table, first)["you"] is None  # the earlier device's token no longer counts
        _sign_up(stranger, "Cid")
        taken = stranger.post(f"/api/tables/{table}/seats/0", json={})
        assert taken.status_code == 409, taken.text  # another account's seat stays taken
        guest = TestClient(phone.app).post(f"/api/tables/{table}/seats/1", json={"name": "Bob"})
        assert guest.status_code == 409  # a guest's seat comes back only with its token


def test_a_websocket_of_the_device_left_behind_acts_no_more(tmp_path: Path) -> None:
    with _client(f"sqlite:///{tmp_path / 'server.sqlite3'}") as phone:
        _sign_up(phone, "Ann")
        table = create(phone, {"kind": "game", "series": "money", "seats": [{}, {}]})
        first = phone.post(f"/api/tables/{table}/seats/0", json={}).json()["token"]
        bob = TestClient(phone.app).post(f"/api/tables/{table}/seats/1", json={"name": "Bob"}).json()
        with phone.websocket_connect(f"/api/tables/{table}/live") as socket:
            socket.send_json({"type": "hello", "token": first})
            assert socket.receive_json()["state"]["you"] == 0
            laptop = TestClient(phone.app)
            assert laptop.post("/api/session", json={"name": "Ann", "password": PASSWORD}).status_code == 200
            assert laptop.post(f"/api/tables/{table}/seats/0", json={}).status_code == 200
            seen = state(phone, table, bob["token"])
            seat = seen["to_act"][0]
            action = seen["legal_actions"][0] if seat == 1 else state(laptop, table)["legal_actions"][0]
            socket.send_json({"type": "act", "action": action, "version": seen["version"]})
            while (answer := socket.receive_json())["type"] == "state":
                pass
        assert answer["status"] == 403
        assert "another device" in answer["error"]
        assert state(phone, table, bob["token"])["version"] == seen["version"]  # nothing was done


def test_a_session_ends_after_its_time(tmp_path: Path) -> None:
    now = [1_000_000.0]
    store = Store(open_database(f"sqlite:///{tmp_path / 'server.sqlite3'}"))
    accounts = Accounts(store, clock=lambda: now[0], make_token=lambda: "the-token")
    made = accounts.sign_up("Ann", PASSWORD)
    row, token = accounts.log_in("Ann", PASSWORD)
    assert token == "the-token"
    assert row.id == made.id
    now[0] += SESSION_SECONDS - 1
    found = accounts.account_of(token)
    assert found is not None
    assert found.name == "Ann"
    now[0] += 2
    assert accounts.account_of(token) is None
    store.close()


def test_the_accounts_refuse_with_errors_naming_what_was_wrong(tmp_path: Path) -> None:
    store = Store(open_database(f"sqlite:///{tmp_path / 'server.sqlite3'}"))
    accounts = Accounts(store)
    accounts.sign_up("Ann", PASSWORD)
    with pytest.raises(NameTakenError, match="the name aNN is taken"):
        accounts.sign_up("aNN", PASSWORD)
    with pytest.raises(PasswordError, match="8 to 256"):
        accounts.sign_up("Bob", "1234567")
    with pytest.raises(AccountNameError, match="bots'"):
        accounts.sign_up("Tavola 2", PASSWORD)
    with pytest.raises(LoginError):
        accounts.log_in("Ann", PASSWORD.upper())
    assert accounts.account_of(None) is None
    assert accounts.account_of("no such token") is None
    store.close()


def test_a_hash_made_with_weaker_settings_is_made_again_at_the_next_login(tmp_path: Path) -> None:
    store = Store(open_database(f"sqlite:///{tmp_path / 'server.sqlite3'}"))
    Accounts(store, hasher=PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)).sign_up("Ann", PASSWORD)
    accounts = Accounts(store)
    before = accounts.find("Ann")
    assert before is not None
    assert before.password_hash is not None
    assert accounts.hasher.check_needs_rehash(before.password_hash)
    accounts.log_in("Ann", PASSWORD)
    after = accounts.find("Ann")
    assert after is not None
    assert after.password_hash is not None
    assert not accounts.hasher.check_needs_rehash(after.password_hash)
    assert accounts.log_in("ann", PASSWORD)[0].id == before.id
    store.close()
