"""Seeks: posted, listed, accepted by another person (both seated at one table made with the seek's
options), their refusals, two people accepting at once, their end, and play now's pairing by a rating
window that widens with the wait; on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")
pytest.importorskip("argon2", reason="accounts need argon2-cffi (pip install 'tavola[web]')")

from argon2 import PasswordHasher
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tavola.web.accounts import Accounts, SeatAccountRow
from tavola.web.app import create_app
from tavola.web.hub import Hub
from tavola.web.limits import RateLimits
from tavola.web.ratings import RatingRow
from tavola.web.routes.accounts import AccountsState
from tavola.web.seeks import KEPT_SECONDS, MOST_SECONDS, Seeks, rating_window
from tavola.web.storage import TableRow, open_database
from web_helpers import auth, state

pytestmark = pytest.mark.timeout(180)

PASSWORD = "correct horse battery"


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(url: str, clock: Clock) -> Iterator[FastAPI]:
    """A server whose seeks tell the time by ``clock`` (and whose passwords hash quickly), started."""
    made = create_app(open_database(url), posts=RateLimits(capacity=1e9, per_second=1e9))
    hub: Hub = made.state.server.hub
    accounts = Accounts(hub.store, hasher=PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    made.state.accounts = AccountsState.of(accounts)
    made.state.seeks = Seeks(hub, accounts, clock=clock)
    with TestClient(made):
        yield made


def person(app: FastAPI, name: str | None = None) -> TestClient:
    """A browser of its own; signed up and logged in as ``name`` where given."""
    client = TestClient(app)
    if name is not None:
        signed = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert signed.status_code == 201, signed.text
    return client


def post(client: TestClient, **seek: Any) -> tuple[dict[str, Any], str]:
    """Post a seek: as its poster sees it, and its secret."""
    posted = client.post("/api/seeks", json=seek)
    assert posted.status_code == 201, posted.text
    return posted.json()["seek"], str(posted.json()["secret"])


def look(client: TestClient, seek: str, secret: str) -> dict[str, Any]:
    looked = client.get(f"/api/seeks/{seek}", headers=auth(secret))
    assert looked.status_code == 200, looked.text
    found: dict[str, Any] = looked.json()["seek"]
    return found


def listed(client: TestClient) -> list[str]:
    return [seek["id"] for seek in client.get("/api/seeks").json()["seeks"]]


def tables(app: FastAPI) -> int:
    with Session(app.state.server.hub.store.engine) as session:
        return int(session.scalar(select(func.count()).select_from(TableRow)) or 0)


def linked(app: FastAPI, table: str) -> dict[int, int]:
    with Session(app.state.server.hub.store.engine) as session:
        rows = session.scalars(select(SeatAccountRow).where(SeatAccountRow.table_id == table))
        return {row.seat: row.account_id for row in rows}


def rate(app: FastAPI, name: str, rating: float, variant: str = "standard") -> None:
    """Give the account ``name`` a rating in ``variant``, as rated matches would have."""
    accounts: Accounts = app.state.seeks.accounts
    account = accounts.find(name)
    assert account is not None
    with Session(app.state.server.hub.store.engine) as session, session.begin():
        session.add(
            RatingRow(account_id=account.id, variant=variant, rating=rating, experience=0, matches=0, wins=0)
        )


# --- posting and accepting -------------------------------------------------------------------------


def test_a_seek_accepted_by_another_person_seats_both_at_one_table_with_its_options(app: FastAPI) -> None:
    ann, bob = person(app), person(app)
    seek, secret = post(ann, name="Ann", series="match", length=3, variant="Nackgammon")
    assert seek["status"] == "open"
    assert (seek["series"], seek["length"], seek["variant"]) == ("match", 3, "nackgammon")
    assert seek["rated"] is False
    assert listed(bob) == [seek["id"]]
    assert "secret" not in str(bob.get("/api/seeks").json())  # nobody else learns the poster's secret

    accepted = bob.post(f"/api/seeks/{seek['id']}/accept", json={"name": "Bob"})
    assert accepted.status_code == 200, accepted.text
    taken = accepted.json()
    assert taken["seat"] == 1
    assert taken["state"]["status"] == "live"
    assert [seat["name"] for seat in taken["state"]["seats"]] == ["Ann", "Bob"]
    options = taken["state"]["options"]
    assert (options["series"], options["length"], options["variant"]) == ("match", 3, "nackgammon")
    assert listed(bob) == []

    mine = look(ann, seek["id"], secret)  # the poster learns the table, and their seat's token
    assert (mine["status"], mine["table"], mine["seat"]) == ("accepted", taken["table"], 0)
    assert state(ann, taken["table"], mine["token"])["you"] == 0
    assert state(bob, taken["table"], taken["token"])["you"] == 1
    assert tables(app) == 1
    assert linked(app, taken["table"]) == {}  # guests' seats belong to no account


def test_a_seeks_time_control_is_the_tables(app: FastAPI) -> None:
    ann, bob = person(app), person(app)
    seek, _secret = post(ann, name="Ann", series="match", length=3, clock={"delay": 12, "bank": 60})
    assert seek["clock"] == {"delay": 12, "bank": 60}
    taken = bob.post(f"/api/seeks/{seek['id']}/accept", json={"name": "Bob"}).json()
    assert taken["state"]["options"]["clock"] == {"delay": 12, "bank": 60}


def test_a_seeks_table_is_rated_as_the_seek_is_and_its_seats_the_accounts_either_way(app: FastAPI) -> None:
    ann, bob = person(app, "Ann"), person(app, "Bob")
    rated, _secret = post(ann, series="match", length=1, rated=True)
    taken = bob.post(f"/api/seeks/{rated['id']}/accept", json={}).json()
    assert taken["account"] == "Bob"
    assert [seat["name"] for seat in taken["state"]["seats"]] == ["Ann", "Bob"]
    accounts: Accounts = app.state.seeks.accounts
    ids = [accounts.find(name).id for name in ("Ann", "Bob")]  # type: ignore[union-attr]
    assert linked(app, taken["table"]) == {0: ids[0], 1: ids[1]}
    assert taken["state"]["options"]["rated"] is True

    unrated, _secret = post(ann, series="match", length=1)
    plain = bob.post(f"/api/seeks/{unrated['id']}/accept", json={}).json()
    assert linked(app, plain["table"]) == {0: ids[0], 1: ids[1]}  # on their pages all the same
    assert plain["state"]["options"]["rated"] is False  # the table's option keeps it out of the ratings


def test_the_poster_waiting_for_their_seek_hears_of_the_table_at_once(app: FastAPI) -> None:
    ann, bob = person(app), person(app)
    seek, secret = post(ann, name="Ann", series="single")
    heard: dict[str, Any] = {}

    def wait() -> None:
        heard.update(ann.get(f"/api/seeks/{seek['id']}?wait=15", headers=auth(secret)).json()["seek"])

    waiting = threading.Thread(target=wait)
    waiting.start()
    taken = bob.post(f"/api/seeks/{seek['id']}/accept", json={"name": "Bob"}).json()
    waiting.join(timeout=15)
    assert not waiting.is_alive()
    assert (heard["status"], heard["table"], heard["token"]) == ("accepted", taken["table"], secret)


@pytest.mark.parametrize(
    ("seek", "status", "says"),
    [
        ({"name": "Ann", "variant": "chess"}, 400, "no variant"),
        ({"name": "Ann", "series": "match", "length": 0}, 400, "1 to 64 points"),
        ({"name": "Ann", "series": "blitz"}, 400, "series"),
        ({"name": "Ann", "series": "money", "rated": True}, 400, "only matches are rated"),
        ({"series": "match"}, 400, "a guest gives the name"),
        ({"name": "Ann", "series": "match", "rated": True}, 403, "log in"),
        ({"name": "Ann", "clock": {"delay": -1, "bank": 60}}, 400, "clock.delay"),
    ],
)
def test_a_seek_with_bad_options_or_rated_by_a_guest_is_refused(
    app: FastAPI, seek: dict[str, Any], status: int, says: str
) -> None:
    guest = person(app)
    refused = guest.post("/api/seeks", json=seek)
    assert refused.status_code == status, refused.text
    assert says in refused.json()["error"]
    assert listed(guest) == []


def test_nobody_accepts_their_own_seek(app: FastAPI) -> None:
    ann = person(app, "Ann")
    seek, _secret = post(ann, series="single")
    own = ann.post(f"/api/seeks/{seek['id']}/accept", json={})
    assert own.status_code == 409, own.text
    assert "your own" in own.json()["error"]
    guest = person(app)
    posted, guest_secret = post(guest, name="Cid", series="single")
    again = guest.post(f"/api/seeks/{posted['id']}/accept", json={"name": "Dan"}, headers=auth(guest_secret))
    assert again.status_code == 409, again.text
    assert tables(app) == 0
    assert set(listed(ann)) == {seek["id"], posted["id"]}


def test_a_seek_taken_is_refused_to_the_next_with_409(app: FastAPI) -> None:
    ann, bob, cid = person(app), person(app), person(app)
    seek, _secret = post(ann, name="Ann", series="single")
    assert bob.post(f"/api/seeks/{seek['id']}/accept", json={"name": "Bob"}).status_code == 200
    late = cid.post(f"/api/seeks/{seek['id']}/accept", json={"name": "Cid"})
    assert late.status_code == 409, late.text
    assert "accepted already" in late.json()["error"]
    assert tables(app) == 1


def test_a_rated_seek_is_refused_to_a_guest_and_a_name_already_at_the_table(app: FastAPI) -> None:
    ann = person(app, "Ann")
    seek, _secret = post(ann, series="match", length=3, rated=True)
    guest = person(app)
    refused = guest.post(f"/api/seeks/{seek['id']}/accept", json={"name": "Bob"})
    assert refused.status_code == 403, refused.text
    plain, _secret = post(ann, series="single")
    same = guest.post(f"/api/seeks/{plain['id']}/accept", json={"name": "Ann"})
    assert same.status_code == 409, same.text
    assert tables(app) == 0
    assert set(listed(guest)) == {seek["id"], plain["id"]}


def test_only_its_poster_withdraws_a_seek(app: FastAPI) -> None:
    ann, bob = person(app), person(app)
    seek, secret = post(ann, name="Ann", series="single")
    assert bob.delete(f"/api/seeks/{seek['id']}").status_code == 403
    assert bob.delete(f"/api/seeks/{seek['id']}", headers=auth("not-the-secret")).status_code == 403
    assert listed(bob) == [seek["id"]]
    assert ann.delete(f"/api/seeks/{seek['id']}", headers=auth(secret)).status_code == 200
    assert listed(bob) == []
    gone = bob.post(f"/api/seeks/{seek['id']}/accept", json={"name": "Bob"})
    assert gone.status_code == 404, gone.text


def test_a_seek_ends_unless_its_poster_keeps_looking_at_it(app: FastAPI, clock: Clock) -> None:
    ann, bob = person(app), person(app)
    kept, kept_secret = post(ann, name="Ann", series="single")
    left, _secret = post(ann, name="Ann", series="money")
    for _minute in range(3):
        clock.now += KEPT_SECONDS - 1
        look(ann, kept["id"], kept_secret)
    assert listed(bob) == [kept["id"]]
    ended = bob.post(f"/api/seeks/{left['id']}/accept", json={"name": "Bob"})
    assert ended.status_code == 404, ended.text
    clock.now += MOST_SECONDS  # however often it is looked at, a seek ends in the end
    assert ann.get(f"/api/seeks/{kept['id']}", headers=auth(kept_secret)).status_code == 404
    assert listed(bob) == []


def test_two_people_accepting_at_once_make_one_table_and_the_other_hears_409(app: FastAPI) -> None:
    ann = person(app)
    seek, _secret = post(ann, name="Ann", series="single")
    takers = [person(app) for _ in range(4)]
    start = threading.Barrier(len(takers))
    answers: list[int] = []

    def accept(index: int) -> None:
        start.wait()
        answer = takers[index].post(f"/api/seeks/{seek['id']}/accept", json={"name": f"Taker {index}"})
        answers.append(answer.status_code)

    threads = [threading.Thread(target=accept, args=(index,)) for index in range(len(takers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(answers) == [200, 409, 409, 409]
    assert tables(app) == 1


def test_two_processes_serving_one_database_share_the_seeks_and_make_one_table(url: str) -> None:
    """Two servers on one database (as ``tavola serve --workers 2``): a seek posted through one is
    accepted through the other, its poster hears of it through the first, and both sit at one table
    that each server serves; of two people accepting at once through the two, one makes the table."""
    apps = [
        create_app(open_database(url), posts=RateLimits(capacity=1e9, per_second=1e9), shared=True)
        for _ in range(2)
    ]
    with TestClient(apps[0]) as first, TestClient(apps[1]) as second:
        seek, secret = post(first, name="Ann", series="single")
        assert listed(second) == [seek["id"]]
        taken = second.post(f"/api/seeks/{seek['id']}/accept", json={"name": "Bob"})
        assert taken.status_code == 200, taken.text
        mine = first.get(f"/api/seeks/{seek['id']}?wait=10", headers=auth(secret)).json()["seek"]
        assert mine["table"] == taken.json()["table"]
        assert state(first, mine["table"], secret)["you"] == 0
        assert state(first, mine["table"], taken.json()["token"])["you"] == 1

        other, _secret = post(first, name="Cid", series="single")
        start = threading.Barrier(2)
        answers: list[int] = []

        def accept(client: TestClient, name: str) -> None:
            start.wait()
            answers.append(client.post(f"/api/seeks/{other['id']}/accept", json={"name": name}).status_code)

        takers = [threading.Thread(target=accept, args=pair) for pair in ((first, "Dan"), (second, "Eve"))]
        for thread in takers:
            thread.start()
        for thread in takers:
            thread.join(timeout=60)
        assert sorted(answers) == [200, 409]
        assert tables(apps[0]) == 2


# --- play now --------------------------------------------------------------------------------------


def test_the_rating_window_widens_with_the_wait_up_to_its_widest() -> None:
    assert rating_window(0) == 100
    assert rating_window(10) < rating_window(20) < rating_window(30)
    assert rating_window(3600) == rating_window(7200) == 600


def test_play_now_pairs_the_closest_rating_in_the_window_which_widens_as_they_wait(
    app: FastAPI, clock: Clock
) -> None:
    people = {name: person(app, name) for name in ("Ann", "Bob", "Cid", "Eve")}
    for name, rating in (("Ann", 1500), ("Bob", 1750), ("Cid", 1580), ("Eve", 1520)):
        rate(app, name, rating)
    game = {"series": "match", "length": 3, "rated": True, "auto": True}
    ann, ann_secret = post(people["Ann"], **game)
    assert ann["status"] == "open"
    assert listed(people["Ann"]) == []  # play-now seeks are the server's to pair, not listed
    clock.now += 1
    bob, bob_secret = post(people["Bob"], **game)  # 250 apart: too far for a window of 110
    assert bob["status"] == "open"
    clock.now += 1
    eve, _secret = post(people["Eve"], **game)  # Ann 20 away, Bob 230: Ann
    assert eve["status"] == "accepted"
    assert look(people["Ann"], ann["id"], ann_secret)["table"] == eve["table"]
    assert [seat["name"] for seat in state(people["Eve"], eve["table"])["seats"]] == ["Ann", "Eve"]

    clock.now += 1
    cid, cid_secret = post(people["Cid"], **game)  # Bob 170 away, Bob waited 2 s: a window of 120
    assert cid["status"] == "open"
    clock.now += 4  # Bob has waited 6 s: 160, still short
    assert look(people["Bob"], bob["id"], bob_secret)["status"] == "open"
    clock.now += 2  # 8 s: 180
    paired = look(people["Bob"], bob["id"], bob_secret)
    assert paired["status"] == "accepted"
    assert paired["seat"] == 1
    assert paired["token"] == bob_secret  # seated by their own secret too: a lost answer loses nothing
    again = look(people["Bob"], bob["id"], bob_secret)
    assert (again["table"], again["seat"], again["token"]) == (paired["table"], 1, bob_secret)
    waited = look(people["Cid"], cid["id"], cid_secret)
    assert (waited["table"], waited["seat"], waited["token"]) == (paired["table"], 0, cid_secret)
    assert state(people["Cid"], paired["table"], waited["token"])["you"] == 0
    assert state(people["Bob"], paired["table"], paired["token"])["you"] == 1
    assert state(people["Eve"], eve["table"], eve["token"])["you"] == 1  # paired by posting
    assert tables(app) == 2


def test_play_now_pairs_only_the_same_game(app: FastAPI) -> None:
    ann, bob = person(app), person(app)
    post(ann, name="Ann", series="match", length=3, auto=True)
    for other in (
        {"series": "match", "length": 5},
        {"series": "match", "length": 3, "variant": "nackgammon"},
        {"series": "single"},
        {"series": "match", "length": 3, "clock": {"delay": 12, "bank": 60}},
    ):
        seek, _secret = post(bob, name="Bob", auto=True, **other)
        assert seek["status"] == "open", other
    seek, _secret = post(bob, name="Bob", series="match", length=3, auto=True)
    assert seek["status"] == "accepted"
    assert tables(app) == 1
