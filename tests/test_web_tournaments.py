"""Tournaments through the server's API: an 8-player knockout with two bots and a consolation bracket, and
a 6-player Swiss, each run to the end with the test playing the people; a forfeit, the seats kept for the
players' accounts, the clocks waiting for both, the director's rights, and a restart in the middle; on
SQLite and PostgreSQL."""

from __future__ import annotations

import datetime
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")
pytest.importorskip("argon2", reason="accounts need argon2-cffi (pip install 'tavola[web]')")

import httpx
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import event, select
from sqlalchemy.orm import Session

from tavola.web.accounts import AccountRow, Accounts
from tavola.web.app import create_app
from tavola.web.limits import RateLimits
from tavola.web.live import token_hash
from tavola.web.options import read_options
from tavola.web.ratings import RatedMatchRow, RatingRow, rate_when_finished
from tavola.web.routes.accounts import AccountsState
from tavola.web.storage import TableRow, open_database
from tavola.web.tournament_rows import TournamentMatchRow, TournamentRow, utc_now
from tavola.web.tournaments import Tournaments
from test_web_clocks import FakeTime
from web_helpers import Server, auth, choose, create, sit, state

pytestmark = pytest.mark.timeout(240)

PASSWORD = "correct horse battery"
RESIGN = {"action": "resign", "kind": "single"}
ACCEPT = {"action": "accept"}


class Club:
    """A server and its people: a client of their own each, logged in (``director`` directs)."""

    def __init__(
        self, url: str, names: list[str], *, accounts: bool = True, shared: bool | None = None
    ) -> None:
        self.app = create_app(
            open_database(url), posts=RateLimits(capacity=1e9, per_second=1e9), shared=shared
        )
        # Quick hashes: the tests log in many people, and the hashes' strength is tested elsewhere.
        store = self.app.state.server.hub.store
        self.app.state.accounts = AccountsState.of(
            Accounts(store, hasher=PasswordHasher(time_cost=1, memory_cost=64, parallelism=1))
        )
        self.director = TestClient(self.app)
        self.clients = {name: TestClient(self.app) for name in names}
        self.names = names
        self.accounts = accounts

    def __enter__(self) -> Club:
        self.director.__enter__()
        for name, client in [("Director", self.director), *self.clients.items()]:
            how = ("/api/accounts", 201) if self.accounts else ("/api/session", 200)
            done = client.post(how[0], json={"name": name, "password": PASSWORD})
            assert done.status_code == how[1], done.text
        return self

    def __exit__(self, *exc: object) -> None:
        self.director.__exit__(*exc)

    @property
    def tournaments(self) -> Tournaments:
        found: Tournaments = self.app.state.tournaments
        return found

    def create(self, settings: dict[str, Any], bots: tuple[str, ...] = ()) -> str:
        made = self.director.post("/api/tournaments", json=settings)
        assert made.status_code == 201, made.text
        tournament = str(made.json()["id"])
        for name in self.names:
            entered = self.clients[name].post(f"/api/tournaments/{tournament}/entries")
            assert entered.status_code == 200, entered.text
        for level in bots:
            entered = self.director.post(f"/api/tournaments/{tournament}/bots", json={"level": level})
            assert entered.status_code == 200, entered.text
        return tournament

    def view(self, tournament: str) -> dict[str, Any]:
        seen = self.director.get(f"/api/tournaments/{tournament}")
        assert seen.status_code == 200, seen.text
        result: dict[str, Any] = seen.json()
        return result


def play(
    club: Club,
    tournament: str,
    loser: Callable[[dict[str, Any]], str | None],
    until: Callable[[dict[str, Any]], bool] = lambda seen: seen["status"] == "finished",
    timeout: float = 120,
) -> dict[str, Any]:
    """Play the people's matches until ``until`` holds: each takes their seat from the tournament's page,
    the player ``loser(match)`` names resigns when they may, the others play on and accept."""
    held: dict[tuple[int, str], dict[str, Any]] = {}
    ends = time.monotonic() + timeout
    while True:
        seen = club.view(tournament)
        if until(seen):
            return seen
        assert time.monotonic() < ends, _waiting(club, seen)
        acted = False
        for match in seen["matches"]:
            if match["decided"] is not None or match["players"][1] is None:
                continue
            for name in match["players"]:
                if name in club.clients:
                    acted = _act(club.clients[name], tournament, match, name, loser(match), held) or acted
        if not acted:
            time.sleep(0.05)


def _waiting(club: Club, seen: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The undecided matches, each with its table's status and whose turn it is: what a test waited on."""
    waiting = []
    for match in seen["matches"]:
        if match["decided"] is None:
            table = state(club.director, match["table"]) if match["table"] else {}
            waiting.append((match["players"], match["present"], table.get("status"), table.get("to_act")))
    return waiting


def _act(
    client: TestClient,
    tournament: str,
    match: dict[str, Any],
    name: str,
    loser: str | None,
    held: dict[tuple[int, str], dict[str, Any]],
) -> bool:
    key = (match["id"], name)
    if key not in held:
        taken = client.post(f"/api/tournaments/{tournament}/matches/{match['id']}/seat")
        if taken.status_code == 409:
            return False  # decided meanwhile (a forfeit, an award)
        assert taken.status_code == 200, taken.text
        held[key] = taken.json()
    seat, table, token = held[key]["seat"], held[key]["table"], held[key]["token"]
    seen = state(client, table, token)
    if seen["status"] != "live" or seat not in seen["to_act"]:
        return False
    legal = seen["legal_actions"]
    action = RESIGN if name == loser and RESIGN in legal else ACCEPT if ACCEPT in legal else choose(legal)
    done = client.post(f"/api/tables/{table}/actions", json=action, headers=auth(token))
    assert done.status_code in (200, 409), done.text
    return True


def _round(seen: dict[str, Any], number: int, bracket: str = "main") -> list[list[str | None]]:
    return [
        match["players"]
        for match in seen["matches"]
        if match["round"] == number and match["bracket"] == bracket
    ]


def _winners(seen: dict[str, Any], number: int, bracket: str = "main") -> list[str]:
    return [m["winner"] for m in seen["matches"] if m["round"] == number and m["bracket"] == bracket]


# --- a knockout -----------------------------------------------------------------------------------

PEOPLE = ["P1", "P2", "P3", "P4", "P5", "P6"]
KNOCKOUT = {"name": "Friday knockout", "kind": "knockout", "lengths": [1], "consolation": True}


def _knockout_loser(match: dict[str, Any]) -> str | None:
    """The people lose to the bots; between people the second (the lower seed) loses."""
    first, second = match["players"]
    if first in PEOPLE and second in PEOPLE:
        return str(second)
    return str(first) if first in PEOPLE else str(second) if second in PEOPLE else None


def test_an_eight_player_knockout_with_two_bots_runs_to_the_end_with_its_consolation(url: str) -> None:
    with Club(url, PEOPLE) as club:
        tournament = club.create(KNOCKOUT, bots=("beginner", "casual"))
        started = club.director.post(f"/api/tournaments/{tournament}/start")
        assert started.status_code == 200, started.text
        # All rated 1500: seeded in the order of entry; 1 v 8, 4 v 5, 2 v 7, 3 v 6.
        seen = started.json()
        assert [entry["seed"] for entry in seen["entries"]] == [1, 2, 3, 4, 5, 6, 7, 8]
        assert _round(seen, 1) == [
            ["P1", "Tavola casual"],
            ["P4", "P5"],
            ["P2", "Tavola beginner"],
            ["P3", "P6"],
        ]
        seen = play(club, tournament, _knockout_loser)
        table = state(club.director, seen["matches"][0]["table"])
    assert [seat["name"] for seat in table["seats"]] == ["P1", "Tavola casual"]  # seated by their accounts
    assert (table["options"]["series"], table["options"]["length"]) == ("match", 1)
    assert _winners(seen, 1) == ["Tavola casual", "P4", "Tavola beginner", "P3"]
    assert _round(seen, 2) == [["Tavola casual", "P4"], ["Tavola beginner", "P3"]]
    assert _winners(seen, 2) == ["Tavola casual", "Tavola beginner"]
    assert _round(seen, 3) == [["Tavola casual", "Tavola beginner"]]
    final = next(match for match in seen["matches"] if match["round"] == 3)
    champion = final["winner"]
    assert final["decided"] == "table"
    assert champion in ("Tavola casual", "Tavola beginner")
    finalist = "Tavola beginner" if champion == "Tavola casual" else "Tavola casual"
    # The consolation: the first round's losers, seeded as in the main draw (1, 2, 5, 6): 1 v 6, 2 v 5.
    assert _round(seen, 1, "consolation") == [["P1", "P6"], ["P2", "P5"]]
    assert _round(seen, 2, "consolation") == [["P1", "P2"]]
    assert _winners(seen, 2, "consolation") == ["P1"]
    assert seen["standings"] == [
        {"place": 1, "name": champion},
        {"place": 2, "name": finalist},
        {"place": 3, "name": "P4"},
        {"place": 3, "name": "P3"},
        {"place": 5, "name": "P1"},
        {"place": 5, "name": "P5"},
        {"place": 5, "name": "P2"},
        {"place": 5, "name": "P6"},
    ]
    assert all(match["decided"] in ("table", "bye") for match in seen["matches"])


# --- a Swiss --------------------------------------------------------------------------------------

SWISS_PLAYERS = ["S1", "S2", "S3", "S4", "S5", "S6"]
SWISS = {"name": "Swiss evening", "kind": "swiss", "rounds": 3, "lengths": [1]}


def test_a_six_player_swiss_pairs_by_score_without_repeats_and_ranks_the_standings(url: str) -> None:
    with Club(url, SWISS_PLAYERS) as club:
        tournament = club.create(SWISS)
        assert club.director.post(f"/api/tournaments/{tournament}/start").status_code == 200
        seen = play(club, tournament, lambda match: match["players"][1])  # the better-ranked wins
    rounds = [_round(seen, number) for number in (1, 2, 3)]
    # Round 1 by entry (all 1500); round 2 the winners together, 1 v 3, then 5 v 2 and 4 v 6.
    assert rounds[0] == [["S1", "S2"], ["S3", "S4"], ["S5", "S6"]]
    assert rounds[1] == [["S1", "S3"], ["S5", "S2"], ["S4", "S6"]]
    pairs = [frozenset(pair) for played in rounds for pair in played]
    assert len(set(pairs)) == len(pairs) == 9  # nobody met twice
    for played in rounds:
        assert sorted(name for pair in played for name in pair if name) == SWISS_PLAYERS
    wins = {name: 0 for name in SWISS_PLAYERS}
    for match in seen["matches"]:
        assert match["decided"] == "table"
        assert match["winner"] == match["players"][0]
        wins[match["winner"]] += 1
    standings = seen["standings"]
    assert [line["place"] for line in standings] == [1, 2, 3, 4, 5, 6]
    assert {line["name"]: line["points"] for line in standings} == wins
    assert [line["points"] for line in standings] == sorted(
        (line["points"] for line in standings), reverse=True
    )
    # After round 2: S1 2 (Buchholz 1), S5 2 (0), S3 1 (3), S4 1 (1), S2 0 (4), S6 0 (3). S3 met S4, and S4
    # met S6: round 3 goes back from S3 v S2 to S3 v S6, leaving S4 v S2.
    assert rounds[2] == [["S1", "S5"], ["S3", "S6"], ["S4", "S2"]]
    # S1 3; S3, S5 and S4 2 each, by Buchholz (S4 2 + S1 3 + S6 0 = 5, S6 0 + S2 0 + S1 3 = 3, S3 2 + S6 0
    # + S2 0 = 2); S2 and S6 0 (Buchholz 7 and 6).
    assert [line["name"] for line in standings] == ["S1", "S3", "S5", "S4", "S2", "S6"]
    assert [line["buchholz"] for line in standings] == [4, 5, 3, 2, 7, 6]


# --- forfeits, the director, a restart ---------------------------------------------------------------


def test_a_player_who_does_not_take_their_seat_in_time_forfeits(url: str) -> None:
    with Club(url, ["Ann", "Bob", "Cid", "Dee"]) as club:
        clock = {"delay": 12.0, "bank": 60.0}
        tournament = club.create({"name": "Quick", "kind": "knockout", "start_seconds": 60, "clock": clock})
        assert club.director.post(f"/api/tournaments/{tournament}/start").status_code == 200
        seen = club.view(tournament)
        assert _round(seen, 1) == [["Ann", "Dee"], ["Bob", "Cid"]]
        first = seen["matches"][0]
        taken = club.clients["Dee"].post(f"/api/tournaments/{tournament}/matches/{first['id']}/seat")
        assert taken.status_code == 200, taken.text
        later = datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=61)
        club.tournaments.clock = lambda: later
        club.tournaments.advance(tournament)
        seen = club.view(tournament)
        tables = [state(club.director, match["table"]) for match in seen["matches"][:2]]
        ratings = _ratings(club)
    assert [(m["winner"], m["decided"]) for m in seen["matches"][:2]] == [
        ("Dee", "forfeit"),
        ("Bob", "forfeit"),
    ]
    assert all(table["options"]["clock"] == clock for table in tables)  # the tournament's time control
    # The tables end by the absent player's forfeit (both absent: the second's), as their records keep it.
    assert [(table["status"], table["forfeit"]["seat"], table["forfeit"]["reason"]) for table in tables] == [
        ("finished", 0, "absent"),
        ("finished", 1, "absent"),
    ]
    assert _round(seen, 2) == [["Dee", "Bob"]]  # both absent: the better seed (Bob, seed 2) goes through
    assert ratings == ([], [])  # a rated tournament, but a match forfeited for absence is rated for nobody


def _ratings(club: Club) -> tuple[list[Any], list[Any]]:
    """The rated matches and the ratings stored."""
    with Session(club.app.state.server.hub.store.engine) as session:
        return list(session.scalars(select(RatedMatchRow))), list(session.scalars(select(RatingRow)))


def test_a_player_absent_against_a_bot_forfeits_and_no_rating_changes(url: str) -> None:
    with Club(url, ["Ann"]) as club:
        tournament = club.create(
            {"name": "Bot night", "kind": "knockout", "start_seconds": 60}, ("beginner",)
        )
        assert club.director.post(f"/api/tournaments/{tournament}/start").status_code == 200
        later = datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=61)
        club.tournaments.clock = lambda: later
        club.tournaments.advance(tournament)
        seen = club.view(tournament)
        table = state(club.director, seen["matches"][0]["table"])
        assert _ratings(club) == ([], [])
    assert seen["status"] == "finished"
    assert (seen["matches"][0]["winner"], seen["matches"][0]["decided"]) == ("Tavola beginner", "forfeit")
    assert (table["status"], table["forfeit"]["reason"]) == ("finished", "absent")


def test_a_players_seat_token_is_new_each_time_and_the_rows_keep_none(tmp_path: Path) -> None:
    with Club(f"sqlite:///{tmp_path / 'server.sqlite3'}", ["Ann", "Bob"]) as club:
        tournament = club.create({"name": "Friendly", "kind": "knockout", "rated": False})
        assert club.director.post(f"/api/tournaments/{tournament}/start").status_code == 200
        match = club.view(tournament)["matches"][0]
        route = f"/api/tournaments/{tournament}/matches/{match['id']}/seat"
        first = club.clients["Ann"].post(route).json()
        second = club.clients["Ann"].post(route).json()  # from another device, say
        assert first["token"] != second["token"]
        assert state(club.clients["Ann"], first["table"], first["token"])["you"] is None
        seen = state(club.clients["Ann"], second["table"], second["token"])
        assert seen["you"] == second["seat"]
        assert seen["options"]["rated"] is False  # the tournament's
        store = club.app.state.server.hub.store
        with Session(store.engine) as session:
            rows = [
                [getattr(row, column.key) for column in TournamentMatchRow.__table__.columns]
                for row in session.scalars(select(TournamentMatchRow))
            ]
        assert not any("token" in column.key for column in TournamentMatchRow.__table__.columns)
        assert not {
            first["token"],
            second["token"],
            token_hash(first["token"]),
            token_hash(second["token"]),
        } & {value for row in rows for value in row}
        ann = club.director.get("/api/players/Ann").json()
        assert [row["table"] for row in ann["tables"]] == [first["table"]]  # linked though unrated


def _sign_up(club: Club, name: str) -> TestClient:
    """A client of the club's server logged in as a new account ``name`` (entered in no tournament)."""
    client = TestClient(club.app)
    made = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    return client


def test_a_player_who_sits_at_the_table_itself_is_present_and_nobody_else_takes_their_seat(url: str) -> None:
    with Club(url, ["Ann", "Bob"]) as club:
        tournament = club.create({"name": "Direct", "kind": "knockout", "start_seconds": 60})
        assert club.director.post(f"/api/tournaments/{tournament}/start").status_code == 200
        match = club.view(tournament)["matches"][0]
        table, ann = match["table"], match["players"].index("Ann")
        assert state(club.director, table)["status"] == "open"
        lobby = club.director.get("/api/tables").json()["tables"]
        assert table not in [line["id"] for line in lobby]  # kept seats: not offered in the lobby
        route = f"/api/tables/{table}/seats/{ann}"
        for stranger in (_sign_up(club, "Eve"), TestClient(club.app), club.clients["Bob"]):
            refused = stranger.post(route, json={"name": "Ann"})
            assert refused.status_code == 403, refused.text
            assert "kept for Ann" in refused.json()["error"]
        sat = club.clients["Ann"].post(route, json={})  # the table's own seat request, not the tournament's
        assert sat.status_code == 200, sat.text
        assert (sat.json()["seat"], sat.json()["account"]) == (ann, "Ann")
        assert club.view(tournament)["matches"][0]["present"][ann] is True
        again = club.clients["Ann"].post(route, json={})  # from another device: a new token
        assert again.status_code == 200, again.text
        assert again.json()["token"] != sat.json()["token"]
        bob = club.clients["Bob"].post(f"/api/tournaments/{tournament}/matches/{match['id']}/seat")
        assert bob.status_code == 200, bob.text
        later = datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=61)
        club.tournaments.clock = lambda: later
        assert club.tournaments.due() == []  # both sat: nothing due at the deadline
        club.tournaments.advance(tournament)
        seen = club.view(tournament)
        assert state(club.director, table)["status"] == "live"
    assert (seen["matches"][0]["decided"], seen["matches"][0]["present"]) == (None, [True, True])


def test_the_clocks_wait_until_both_players_sat_down(tmp_path: Path) -> None:
    with Club(f"sqlite:///{tmp_path / 'server.sqlite3'}", ["Ann", "Bob"]) as club:
        now = FakeTime()
        club.app.state.server.hub.now = now
        clock = {"delay": 5.0, "bank": 10.0}
        tournament = club.create({"name": "Timed", "kind": "knockout", "clock": clock})
        assert club.director.post(f"/api/tournaments/{tournament}/start").status_code == 200
        match = club.view(tournament)["matches"][0]
        route = f"/api/tournaments/{tournament}/matches/{match['id']}/seat"
        assert club.clients["Ann"].post(route).status_code == 200
        now.now += 1000  # far past any bank: nobody's clock runs before both sat
        time.sleep(0.5)  # the hub looks at the clocks five times a second
        waiting = state(club.director, match["table"])
        assert (waiting["status"], waiting["clock"]["running"]) == ("open", None)
        assert waiting["clock"]["left"] == [10.0, 10.0]
        assert club.clients["Bob"].post(route).status_code == 200
        started = state(club.director, match["table"])
        assert started["status"] == "live"
        assert started["clock"]["running"] in (0, 1)  # the opening roll's winner's, from now
        assert started["clock"]["left"] == [10.0, 10.0]
        now.now += 16  # the delay and the bank spent
        for _attempt in range(100):
            ended = state(club.director, match["table"])
            if ended["status"] == "finished":
                break
            time.sleep(0.05)
    assert (ended["status"], ended["forfeit"]["reason"]) == ("finished", "time")


def test_a_table_made_with_no_seat_taken_or_a_seat_taken_unlinked_is_sat_at_after_a_restart(url: str) -> None:
    """As a stop leaves them: the table made but nobody seated; a seat taken but not linked to its account."""
    with Club(url, ["Ann", "Bob"]) as club:
        tournament = club.create({"name": "Stopped", "kind": "knockout"})
        assert club.director.post(f"/api/tournaments/{tournament}/start").status_code == 200
        match = club.view(tournament)["matches"][0]
        bob = match["players"].index("Bob")
        club.app.state.server.hub.get(match["table"]).take_seat(bob, "Bob")  # its link never written
    with Club(url, ["Ann", "Bob"], accounts=False) as club:
        route = f"/api/tournaments/{tournament}/matches/{match['id']}/seat"
        assert club.view(tournament)["matches"][0]["present"][bob] is True
        taken = {name: club.clients[name].post(route) for name in ("Ann", "Bob")}
        assert all(answer.status_code == 200 for answer in taken.values()), taken
        seen = {
            name: state(club.clients[name], match["table"], answer.json()["token"])
            for name, answer in taken.items()
        }
        bob_tables = club.director.get("/api/players/Bob").json()["tables"]
    assert (seen["Bob"]["you"], seen["Ann"]["you"]) == (bob, 1 - bob)
    assert seen["Ann"]["status"] == "live"
    assert [row["table"] for row in bob_tables] == [match["table"]]  # linked now


def test_the_sweep_looks_only_at_tournaments_with_something_due(tmp_path: Path) -> None:
    with Club(f"sqlite:///{tmp_path / 'server.sqlite3'}", ["Ann", "Bob"]) as club:
        club.tournaments.stop()  # the test sweeps by hand
        idle = club.create({"name": "Idle", "kind": "knockout"})
        tournament = club.create({"name": "Due", "kind": "knockout", "start_seconds": 60})
        assert club.director.post(f"/api/tournaments/{tournament}/start").status_code == 200
        assert club.tournaments.due() == []  # entries open without a closing time; a match not yet due
        later = datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=61)
        club.tournaments.clock = lambda: later
        assert club.tournaments.due() == [tournament]  # a deadline passed, a seat not taken
        with Session(club.app.state.server.hub.store.engine) as session:
            revisions = dict(session.execute(select(TournamentRow.id, TournamentRow.revision)).all())
        club.tournaments.advance_all()
        with Session(club.app.state.server.hub.store.engine) as session:
            after = dict(session.execute(select(TournamentRow.id, TournamentRow.revision)).all())
        assert after[idle] == revisions[idle]
        assert after[tournament] > revisions[tournament]
        assert club.view(tournament)["status"] == "finished"  # both absent: the better seed won
        assert club.tournaments.due() == []  # its table ended: nothing left to look at


def test_only_the_director_changes_a_tournament_and_anyone_reads_it(url: str) -> None:
    with Club(url, ["Ann", "Bob"]) as club:
        tournament = club.create({"name": "Club night", "kind": "knockout"})
        ann, guest = club.clients["Ann"], TestClient(club.app)
        for path in ("start", "pause", "resume"):
            assert ann.post(f"/api/tournaments/{tournament}/{path}").status_code == 403
            assert guest.post(f"/api/tournaments/{tournament}/{path}").status_code == 403
        assert ann.post(f"/api/tournaments/{tournament}/bots", json={"level": "expert"}).status_code == 403
        assert guest.post(f"/api/tournaments/{tournament}/entries").status_code == 403
        assert (
            guest.post("/api/tournaments", json={"name": "Mine", "kind": "swiss", "rounds": 2}).status_code
            == 403
        )
        assert club.director.post(f"/api/tournaments/{tournament}/start").status_code == 200
        match = club.view(tournament)["matches"][0]
        assert (
            ann.post(
                f"/api/tournaments/{tournament}/matches/{match['id']}/award", json={"winner": "Ann"}
            ).status_code
            == 403
        )
        assert (
            club.clients["Bob"].post(f"/api/tournaments/{tournament}/matches/{match['id']}/seat").status_code
            == 200
        )
        assert guest.post(f"/api/tournaments/{tournament}/matches/{match['id']}/seat").status_code == 403
        assert ann.post(f"/api/tournaments/{tournament}/entries").status_code == 409  # entries closed
        seen = guest.get(f"/api/tournaments/{tournament}").json()
        assert seen["you"] is None
        assert "token" not in str(seen)
        listed = guest.get("/api/tournaments").json()["tournaments"]
        assert [(row["name"], row["players"], row["status"]) for row in listed] == [
            ("Club night", 2, "running")
        ]
        assert ann.post(f"/api/tournaments/{tournament}/matches/{match['id']}/seat").status_code == 200
        assert state(club.director, match["table"])["status"] == "live"  # both sat: a rated match in play
        awarded = club.director.post(
            f"/api/tournaments/{tournament}/matches/{match['id']}/award", json={"winner": "Bob"}
        )
        assert awarded.status_code == 200, awarded.text
        seen = club.view(tournament)
        table = state(club.director, match["table"])
        with Session(club.app.state.server.hub.store.engine) as session:
            ratings = session.scalars(select(RatingRow)).all()
    assert seen["status"] == "finished"
    assert seen["standings"] == [{"place": 1, "name": "Bob"}, {"place": 2, "name": "Ann"}]
    # The match's table ends too, by Ann's forfeit for the award, which counts for no rating.
    assert (table["status"], table["forfeit"]["seat"], table["forfeit"]["reason"]) == ("finished", 0, "award")
    assert ratings == []


def test_bad_settings_are_refused_saying_why(tmp_path: Path) -> None:
    with Club(f"sqlite:///{tmp_path / 'server.sqlite3'}", []) as club:
        for settings, words in (
            ({"name": "X", "kind": "swiss"}, "rounds"),
            ({"name": "X", "kind": "knockout", "lengths": [0]}, "lengths"),
            ({"name": "X", "kind": "knockout", "variant": "chess"}, "chess"),
            ({"name": "X", "kind": "swiss", "rounds": 3, "consolation": True}, "consolation"),
            ({"name": "X", "kind": "knockout", "closes": "soon"}, "closes"),
            ({"name": "X", "kind": "knockout", "closes": "2020-01-01T20:00:00Z"}, "still to come"),
            ({"name": "X", "kind": "knockout", "clock": {"delay": -1, "bank": 60}}, "clock.delay"),
            ({"name": " ", "kind": "knockout"}, "name"),
        ):
            refused = club.director.post("/api/tournaments", json=settings)
            assert refused.status_code == 400, refused.text
            assert words in refused.json()["error"]
        assert club.director.get("/api/tournaments").json() == {"tournaments": []}
        tournament = club.create({"name": "Bots", "kind": "knockout"})
        refused = club.director.post(f"/api/tournaments/{tournament}/bots", json={"level": "grandmaster"})
        assert refused.status_code == 400, refused.text
        assert refused.json()["error"].startswith("level: ")
        entered = club.director.post(f"/api/tournaments/{tournament}/bots", json={"level": "expert"})
        assert [entry["name"] for entry in entered.json()["entries"]] == ["Tavola expert"]
        again = club.director.post(f"/api/tournaments/{tournament}/bots", json={"level": "expert"})
        assert again.status_code == 409, again.text
        withdrawn = club.director.delete(f"/api/tournaments/{tournament}/bots/expert")
        assert withdrawn.json()["entries"] == []


def test_entries_close_at_their_time_and_the_tournament_starts(tmp_path: Path) -> None:
    closes = datetime.datetime.now(datetime.UTC) + datetime.timedelta(hours=1)
    with Club(f"sqlite:///{tmp_path / 'server.sqlite3'}", ["Ann", "Bob", "Cid"]) as club:
        tournament = club.create(
            {"name": "Later", "kind": "swiss", "rounds": 2, "closes": closes.isoformat()}
        )
        club.tournaments.advance(tournament)
        assert club.view(tournament)["status"] == "entry"
        club.tournaments.clock = lambda: closes
        club.tournaments.advance(tournament)
        seen = club.view(tournament)
    assert seen["status"] == "running"
    assert _round(seen, 1) == [["Ann", "Bob"], ["Cid", None]]  # the bye: the lowest-ranked
    assert seen["matches"][1]["decided"] == "bye"


def test_a_restart_in_the_middle_carries_on(url: str) -> None:
    names = ["R1", "R2", "R3", "R4"]
    with Club(url, names) as club:
        tournament = club.create({"name": "Restarted", "kind": "knockout"})
        assert club.director.post(f"/api/tournaments/{tournament}/start").status_code == 200
        play(
            club, tournament, lambda match: match["players"][1], until=lambda seen: len(seen["matches"]) == 3
        )
    with Club(url, names, accounts=False) as club:
        seen = play(club, tournament, lambda match: match["players"][1])
    assert _round(seen, 2) == [["R1", "R2"]]
    assert seen["standings"][0] == {"place": 1, "name": "R1"}


def test_two_servers_on_one_database_take_each_step_once(url: str) -> None:
    """Two applications serving one database, each sweeping the tournaments: every round is paired once, and
    the Swiss runs to the end as with one."""
    with Club(url, SWISS_PLAYERS, shared=True) as club:
        other = create_app(open_database(url), posts=RateLimits(capacity=1e9, per_second=1e9), shared=True)
        with TestClient(other) as second:
            tournament = club.create({**SWISS, "rounds": 2})
            for _attempt in range(3):  # both advance at once, again and again
                threads = [
                    threading.Thread(target=app.state.tournaments.advance, args=(tournament,))
                    for app in (club.app, other)
                ]
                for thread in threads:
                    thread.start()
                assert club.director.post(f"/api/tournaments/{tournament}/start").status_code in (200, 409)
                for thread in threads:
                    thread.join()
            seen = play(club, tournament, lambda match: match["players"][1])
            assert second.get(f"/api/tournaments/{tournament}").json()["standings"] == seen["standings"]
    assert [len(_round(seen, number)) for number in (1, 2)] == [3, 3]
    assert len(seen["matches"]) == 6
    assert [line["name"] for line in seen["standings"]][:1] == ["S1"]


def test_a_server_killed_in_the_middle_of_a_round_carries_on_after_its_restart(tmp_path: Path) -> None:
    database = tmp_path / "server.sqlite3"
    server = Server(database, options=("--search-workers", "0"))
    try:
        players = ("K1", "K2", "K3", "K4")
        clients, tournament = _started(server.url, players, {"name": "Killed", "kind": "knockout"})
        first = clients["Director"].get(f"/api/tournaments/{tournament}").json()["matches"][0]
        seat = _post(clients["K1"], f"/api/tournaments/{tournament}/matches/{first['id']}/seat")
        assert seat.status_code == 200, seat.text
    finally:
        server.kill()
    with Club(f"sqlite:///{database}", ["K1", "K2", "K3", "K4"], accounts=False) as club:
        seen = club.view(tournament)
        assert seen["matches"][0]["present"] == [True, False]  # stored before the kill
        seen = play(club, tournament, lambda match: match["players"][1])
    assert seen["standings"][:2] == [{"place": 1, "name": "K1"}, {"place": 2, "name": "K2"}]


def _post(client: httpx.Client, path: str, body: Any = None) -> httpx.Response:
    """POST, sent again a moment later while the server's limit on POST requests refuses it."""
    while True:
        answer = client.post(path, json=body)
        if answer.status_code != 429:
            return answer
        time.sleep(0.2)


def _started(
    url: str, players: tuple[str, ...], settings: dict[str, Any]
) -> tuple[dict[str, httpx.Client], str]:
    """On the server at ``url``: an account (and a client of its own) for the director and each of
    ``players``, the tournament of ``settings`` made by the director, the players entered, and started;
    the clients by name and the tournament's id."""
    clients = {}
    for name in ("Director", *players):
        clients[name] = httpx.Client(base_url=url, timeout=30)
        made = _post(clients[name], "/api/accounts", {"name": name, "password": PASSWORD})
        assert made.status_code == 201, made.text
    tournament = str(_post(clients["Director"], "/api/tournaments", settings).json()["id"])
    for name in players:
        assert _post(clients[name], f"/api/tournaments/{tournament}/entries").status_code == 200
    assert _post(clients["Director"], f"/api/tournaments/{tournament}/start").status_code == 200
    return clients, tournament


def test_a_paused_tournament_records_results_but_pairs_no_round_nor_counts_a_forfeit(tmp_path: Path) -> None:
    with Club(f"sqlite:///{tmp_path / 'server.sqlite3'}", ["Ann", "Bob", "Cid", "Dee"]) as club:
        tournament = club.create({"name": "Paused", "kind": "knockout", "start_seconds": 60})
        assert club.director.post(f"/api/tournaments/{tournament}/start").status_code == 200
        paused = club.director.post(f"/api/tournaments/{tournament}/pause")
        assert paused.json()["status"] == "paused"
        assert club.director.post(f"/api/tournaments/{tournament}/pause").status_code == 409
        later = datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=120)
        club.tournaments.clock = lambda: later
        seen = play(club, tournament, lambda match: match["players"][1], until=_all_decided)
        club.tournaments.advance(tournament)
        seen = club.view(tournament)
        assert [match["decided"] for match in seen["matches"]] == ["table", "table"]  # no forfeit
        assert len(seen["matches"]) == 2  # no round paired
        resumed = club.director.post(f"/api/tournaments/{tournament}/resume")
        assert resumed.json()["status"] == "running"
        final = resumed.json()["matches"][2]
    assert final["players"] == ["Ann", "Bob"]
    deadline = datetime.datetime.fromisoformat(final["deadline"])
    assert deadline == later + datetime.timedelta(seconds=60)


def _all_decided(seen: dict[str, Any]) -> bool:
    return all(match["decided"] is not None for match in seen["matches"])


def test_the_field_is_seeded_by_rating_in_the_variant_and_the_top_seed_gets_the_bye(tmp_path: Path) -> None:
    with Club(f"sqlite:///{tmp_path / 'server.sqlite3'}", ["Ann", "Bob", "Cid"]) as club:
        tournament = club.create({"name": "Seeded", "kind": "knockout", "variant": "nackgammon"})
        with Session(club.app.state.server.hub.store.engine) as session, session.begin():
            cid = session.scalars(select(AccountRow).where(AccountRow.name == "Cid")).one()
            bob = session.scalars(select(AccountRow).where(AccountRow.name == "Bob")).one()
            session.add(
                RatingRow(
                    account_id=cid.id, variant="nackgammon", rating=1620, experience=50, matches=5, wins=4
                )
            )
            session.add(
                RatingRow(
                    account_id=bob.id, variant="standard", rating=1800, experience=50, matches=5, wins=5
                )
            )
        seen = club.director.post(f"/api/tournaments/{tournament}/start").json()
    assert [(entry["name"], entry["seed"], entry["rating"]) for entry in seen["entries"]] == [
        ("Ann", 2, 1500),
        ("Bob", 3, 1500),  # rated at standard, not at nackgammon
        ("Cid", 1, 1620),
    ]
    assert _round(seen, 1) == [["Cid", None], ["Ann", "Bob"]]


# --- a match's end, stored with the action that ends it ---------------------------------------------


def _seat_both(club: Club, tournament: str, match: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each player of ``match`` sits down from the tournament's page: name -> {table, seat, token}."""
    seats = {}
    for name in match["players"]:
        taken = club.clients[name].post(f"/api/tournaments/{tournament}/matches/{match['id']}/seat")
        assert taken.status_code == 200, taken.text
        seats[name] = taken.json()
    return seats


def _until_accepting(
    clients: Mapping[str, TestClient | httpx.Client],
    seats: dict[str, dict[str, Any]],
    winner: str,
    loser: str,
) -> None:
    """Play until ``winner`` may accept ``loser``'s resignation: the action that ends the match (each
    player through their client, an action sent again a moment later while a server's limit refuses it)."""
    for _attempt in range(2000):
        for name in (winner, loser):
            held = seats[name]
            seen = state(clients[name], held["table"], held["token"])  # type: ignore[arg-type]
            if name == winner and ACCEPT in seen["legal_actions"]:
                return
            if seen["status"] != "live" or held["seat"] not in seen["to_act"]:
                continue
            legal = seen["legal_actions"]
            action = RESIGN if name == loser and RESIGN in legal else choose(legal)
            route = f"/api/tables/{held['table']}/actions"
            while (
                done := clients[name].post(route, json=action, headers=auth(held["token"]))
            ).status_code == 429:
                time.sleep(0.2)
            assert done.status_code == 200, done.text
    raise AssertionError("the resignation never came")


def _stored_end(club: Club, table: str) -> tuple[Any, ...]:
    """What the database holds of a tournament table's end: the table's status and revision, its actions,
    its rated match, and its tournament match's result with the tournament's revision."""
    hub = club.app.state.server.hub
    actions = hub.store.actions(table)
    with Session(hub.store.engine) as session:
        match = session.scalars(select(TournamentMatchRow).where(TournamentMatchRow.table_id == table)).one()
        tournament = session.get(TournamentRow, match.tournament_id)
        assert tournament is not None
        winner = session.get(AccountRow, match.winner_id) if match.winner_id is not None else None
        row = hub.store.table(table)
        return (
            row.status,
            row.revision - 2 - len(actions),  # every change but the two seats taken is an action
            actions[-1].action["action"],
            session.get(RatedMatchRow, table) is not None,
            (match.decided, winner.name if winner is not None else None),
            tournament.revision,
        )


def _written_apart(*args: object, **kwargs: object) -> int:
    raise AssertionError("the table's end written in a transaction of its own")


def _until_over(club: Club, table: str) -> dict[str, Any]:
    for _attempt in range(100):
        seen = state(club.director, table)
        if seen["status"] == "finished":
            return seen
        time.sleep(0.05)
    raise AssertionError("the table never finished")


@pytest.mark.parametrize("ending", ["accept", "time", "left"])
def test_the_action_that_ends_a_match_stores_the_table_finished_its_ratings_and_its_result_at_once(
    url: str, monkeypatch: pytest.MonkeyPatch, ending: str
) -> None:
    """The last action's own transaction holds the table's end, both ratings and the tournament's record of
    the result: nothing is written after it (no status apart, no rating by the listener, no step of the
    sweep), so a kill -9 right after the action loses none of them; the last action a resignation
    accepted, a forfeit on time or a forfeit for leaving."""
    now = FakeTime()
    with Club(url, ["Ann", "Bob"]) as club:
        hub = club.app.state.server.hub
        hub.now = now
        settings: dict[str, Any] = {"name": "At once", "kind": "knockout", "lengths": [1]}
        if ending == "time":
            settings["clock"] = {"delay": 5.0, "bank": 10.0}
        tournament = club.create(settings)
        assert club.director.post(f"/api/tournaments/{tournament}/start").status_code == 200
        club.tournaments.stop()  # no sweep: a result must come with the action
        monkeypatch.setattr(hub.store, "set_status", _written_apart)
        match = club.view(tournament)["matches"][0]
        seats = _seat_both(club, tournament, match)
        table = seats["Ann"]["table"]
        names = {held["seat"]: name for name, held in seats.items()}
        hub.get(table).listeners.remove(rate_when_finished)  # nothing rates it after the action
        if ending == "accept":
            _until_accepting(club.clients, seats, "Ann", "Bob")
        before = club.view(tournament)
        revision = _stored_end(club, table)[-1]
        if ending == "accept":
            accepted = club.clients["Ann"].post(
                f"/api/tables/{table}/actions", json=ACCEPT, headers=auth(seats["Ann"]["token"])
            )
            assert accepted.status_code == 200, accepted.text
            winner = "Ann"
        elif ending == "time":
            loser = names[state(club.director, table)["clock"]["running"]]
            winner = names[1 - seats[loser]["seat"]]
            now.now += 5 + 10 + 1  # the hub's look at the clocks, or the one here, forfeits the loser
            hub.get(table).time_out()
        else:
            hub.get(table).forfeit(seats["Bob"]["seat"], "left")
            winner = "Ann"
        ended = _until_over(club, table)
        stored = _stored_end(club, table)
        club.tournaments.advance(tournament)  # what follows from the result: the final standings
        seen = club.view(tournament)
    if ending != "accept":
        assert ended["forfeit"]["reason"] == ending
    last = "accept" if ending == "accept" else "forfeit"
    assert stored == ("finished", 0, last, True, ("table", winner), revision + 1)
    assert before["matches"][0]["decided"] is None
    assert seen["status"] == "finished"
    assert seen["standings"][0] == {"place": 1, "name": winner}


def test_only_a_tournament_match_ending_at_its_table_wakes_the_sweep(tmp_path: Path) -> None:
    """Each look of the sweep reads every tournament: a table that is no tournament's ends without one, and a
    match won at its table makes the sweep look at once, for what follows from the result."""
    with Club(f"sqlite:///{tmp_path / 'server.sqlite3'}", ["Ann", "Bob"]) as club:
        hub = club.app.state.server.hub
        tournament = club.create({"name": "Woken", "kind": "knockout", "lengths": [1]})
        assert club.director.post(f"/api/tournaments/{tournament}/start").status_code == 200
        club.tournaments.stop()  # the test looks at the wake-up by hand
        club.tournaments._wake.clear()
        plain = hub.create(read_options({"kind": "game", "series": "single", "seats": [{}, {}]}))
        plain.take_seat(0, "Cy")
        plain.take_seat(1, "Di")
        plain.forfeit(1, "left")
        assert plain.status == "finished"
        assert not club.tournaments._wake.is_set()
        seats = _seat_both(club, tournament, club.view(tournament)["matches"][0])
        hub.get(seats["Ann"]["table"]).forfeit(seats["Bob"]["seat"], "left")
        assert _until_over(club, seats["Ann"]["table"])["status"] == "finished"
        assert club.tournaments._wake.is_set()


@pytest.mark.parametrize("series", ["single", "money"])
def test_the_action_that_ends_a_single_game_or_a_money_session_stores_the_table_finished_at_once(
    url: str, monkeypatch: pytest.MonkeyPatch, series: str
) -> None:
    """A table of no tournament: its last action (a single game's resignation accepted, a money session's
    end) is stored with the status finished, in that action's one transaction."""
    with Club(url, ["Ann", "Bob"]) as club:
        hub = club.app.state.server.hub
        monkeypatch.setattr(hub.store, "set_status", _written_apart)
        table = create(club.director, {"kind": "game", "series": series, "seats": [{}, {}]})
        sitting = TestClient(club.app)
        seats: dict[str, dict[str, Any]] = {
            name: {"table": table, "seat": index, "token": sit(sitting, table, index, name)}
            for index, name in enumerate(("Ann", "Bob"))
        }
        _until_accepting(club.clients, seats, "Ann", "Bob")
        route, token = f"/api/tables/{table}/actions", auth(seats["Ann"]["token"])
        accepted = club.clients["Ann"].post(route, json=ACCEPT, headers=token)
        assert accepted.status_code == 200, accepted.text
        between = state(club.director, table)["status"]
        if series == "money":
            ended = club.clients["Ann"].post(route, json={"action": "end_session"}, headers=token)
            assert ended.status_code == 200, ended.text
        row, actions = hub.store.table(table), hub.store.actions(table)
        assert row is not None
    assert between == ("live" if series == "money" else "finished")
    assert (row.status, row.revision - 2 - len(actions)) == ("finished", 0)
    assert actions[-1].action["action"] == ("end_session" if series == "money" else "accept")


@pytest.mark.parametrize("decided", ["award", "forfeit"])
def test_a_table_its_tournament_decided_ends_writing_nothing_more_to_the_tournament(
    url: str, monkeypatch: pytest.MonkeyPatch, decided: str
) -> None:
    """A match awarded by the director, or forfeited for absence, is decided by the tournament's step; the
    forfeit that then ends its table is stored with the table's end and writes nothing to the tournament
    (its revision as the step left it, the match as decided, nobody rated)."""
    with Club(url, ["Ann", "Bob"]) as club:
        tournament = club.create({"name": "Decided", "kind": "knockout", "lengths": [1]})
        assert club.director.post(f"/api/tournaments/{tournament}/start").status_code == 200
        club.tournaments.stop()
        match = club.view(tournament)["matches"][0]
        taken = club.clients["Ann"].post(f"/api/tournaments/{tournament}/matches/{match['id']}/seat")
        assert taken.status_code == 200, taken.text
        table = taken.json()["table"]
        make_tables = club.tournaments._make_tables
        monkeypatch.setattr(club.tournaments, "_make_tables", lambda tournament_id: None)  # ended apart
        if decided == "award":
            route = f"/api/tournaments/{tournament}/matches/{match['id']}/award"
            awarded = club.director.post(route, json={"winner": "Ann"})
            assert awarded.status_code == 200, awarded.text
        else:
            later = utc_now() + datetime.timedelta(days=1)
            club.tournaments.clock = lambda: later  # Bob's time to sit down has passed
            club.tournaments.advance(tournament)
        hub = club.app.state.server.hub
        opened = hub.store.table(table)
        with Session(hub.store.engine) as session:
            found = session.get(TournamentRow, tournament)
            assert found is not None
            revision = found.revision
        make_tables(tournament)  # the table ended by the forfeit of the seat that did not go through
        after = _stored_end(club, table)
        forfeit = state(club.director, table)["forfeit"]
    assert opened is not None
    assert opened.status == "open"
    assert after == ("finished", 0, "forfeit", False, (decided, "Ann"), revision)
    assert (forfeit["seat"], forfeit["reason"]) == (1, "absent" if decided == "forfeit" else "award")


def test_a_result_whose_write_fails_with_the_end_is_recorded_by_the_sweep_once(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tournament's record of the result is a savepoint of the action's transaction: where it fails,
    the action and the table's end are stored all the same (its ratings too), and the sweep records the
    result from the finished table, once."""
    with Club(url, ["Ann", "Bob"]) as club:
        tournament = club.create({"name": "Later", "kind": "knockout", "lengths": [1]})
        assert club.director.post(f"/api/tournaments/{tournament}/start").status_code == 200
        club.tournaments.stop()
        hub = club.app.state.server.hub
        seats = _seat_both(club, tournament, club.view(tournament)["matches"][0])
        table = seats["Ann"]["table"]
        _until_accepting(club.clients, seats, "Ann", "Bob")
        revision = _stored_end(club, table)[-1]
        armed = True

        def held(_connection: Any, _cursor: Any, statement: str, *args: Any) -> None:
            if armed and statement.lstrip().upper().startswith("UPDATE TAVOLA_TOURNAMENT_MATCHES"):
                raise RuntimeError("the tournament's match held by another process")

        event.listen(hub.store.engine, "before_cursor_execute", held)
        try:
            accepted = club.clients["Ann"].post(
                f"/api/tables/{table}/actions", json=ACCEPT, headers=auth(seats["Ann"]["token"])
            )
        finally:
            armed = False
            event.remove(hub.store.engine, "before_cursor_execute", held)
        assert accepted.status_code == 200, accepted.text
        stored = _stored_end(club, table)
        decisions: list[tuple[str, int | None]] = []
        decide = club.tournaments._decide

        def counted(match: TournamentMatchRow, winner: int | None, how: str, now: datetime.datetime) -> None:
            if match.table_id == table:
                decisions.append((how, winner))
            decide(match, winner, how, now)

        monkeypatch.setattr(club.tournaments, "_decide", counted)
        for _sweep in range(3):
            club.tournaments.advance_all()
        done = _stored_end(club, table)
        seen = club.view(tournament)
    ann = Accounts(hub.store).find("Ann")
    assert ann is not None
    assert stored == ("finished", 0, "accept", True, (None, None), revision)
    assert decisions == [("table", ann.id)]
    assert done[4] == ("table", "Ann")
    assert seen["status"] == "finished"


def test_an_end_whose_writes_fail_leaves_the_ending_action_unstored_with_them(url: str) -> None:
    """One transaction: where a write of the table's end fails, the action that ended it is not stored
    either (the table as stored, still live, its match undecided, nobody rated); done again, all are."""
    with Club(url, ["Ann", "Bob"]) as club:
        tournament = club.create({"name": "All or nothing", "kind": "knockout", "lengths": [1]})
        assert club.director.post(f"/api/tournaments/{tournament}/start").status_code == 200
        club.tournaments.stop()
        match = club.view(tournament)["matches"][0]
        seats = _seat_both(club, tournament, match)
        table = seats["Ann"]["table"]
        live = club.app.state.server.hub.get(table)

        def failing(_table: object) -> Callable[[Any], None]:
            def write(_connection: Any) -> None:
                raise OSError("the disk is full")

            return write

        live.finishing.append(failing)
        _until_accepting(club.clients, seats, "Ann", "Bob")
        before = _stored_end(club, table)
        route, token = f"/api/tables/{table}/actions", auth(seats["Ann"]["token"])
        refused = club.clients["Ann"].post(route, json=ACCEPT, headers=token)
        after_failure = _stored_end(club, table)
        seen = state(club.clients["Ann"], table, seats["Ann"]["token"])
        live.finishing.remove(failing)
        accepted = club.clients["Ann"].post(route, json=ACCEPT, headers=token)
        assert accepted.status_code == 200, accepted.text
        done = _stored_end(club, table)
    assert refused.status_code == 503, refused.text
    assert after_failure == before
    assert before[:5] == ("live", 0, "resign", False, (None, None))
    assert (seen["status"], ACCEPT in seen["legal_actions"]) == ("live", True)
    assert done == ("finished", 0, "accept", True, ("table", "Ann"), before[-1] + 1)


def test_a_server_killed_right_after_the_action_that_ends_a_match_has_its_end_ratings_and_result(
    tmp_path: Path,
) -> None:
    """A kill -9 of ``tavola serve`` right after the answer to the action ending a tournament's match: the
    database holds the action, the table finished, both ratings and the match's result; after a restart
    the tournament goes on from them."""
    database = tmp_path / "server.sqlite3"
    server = Server(database, options=("--search-workers", "0"))
    try:
        settings = {"name": "Killed at the end", "kind": "knockout", "lengths": [1]}
        clients, tournament = _started(server.url, ("Ann", "Bob"), settings)
        match = clients["Director"].get(f"/api/tournaments/{tournament}").json()["matches"][0]
        seats = {
            name: _post(clients[name], f"/api/tournaments/{tournament}/matches/{match['id']}/seat").json()
            for name in ("Ann", "Bob")
        }
        table = seats["Ann"]["table"]
        _until_accepting(clients, seats, "Ann", "Bob")
        route, token = f"/api/tables/{table}/actions", auth(seats["Ann"]["token"])
        while (accepted := clients["Ann"].post(route, json=ACCEPT, headers=token)).status_code == 429:
            time.sleep(0.2)
        assert accepted.status_code == 200, accepted.text
    finally:
        server.kill()  # kill -9, at once
    engine = open_database(f"sqlite:///{database}")
    try:
        with Session(engine) as session:
            row = session.get(TableRow, table)
            found = session.scalars(
                select(TournamentMatchRow).where(TournamentMatchRow.table_id == table)
            ).one()
            ann = session.scalars(select(AccountRow).where(AccountRow.name == "Ann")).one()
            stored = (
                None if row is None else row.status,
                session.get(RatedMatchRow, table) is not None,
                (found.decided, found.winner_id == ann.id),
            )
    finally:
        engine.dispose()
    with Club(f"sqlite:///{database}", ["Ann", "Bob"], accounts=False) as club:
        club.tournaments.advance(tournament)
        seen = club.view(tournament)
        last = club.app.state.server.hub.store.actions(table)[-1].action
    assert stored == ("finished", True, ("table", True))
    assert last == ACCEPT
    assert seen["status"] == "finished"
    assert seen["standings"][0] == {"place": 1, "name": "Ann"}
