"""A tournament paused by its director stops the clocks of its tables, as they stand, in the transaction that
pauses it, and resumed, starts them again from where they stood: nobody loses on time meanwhile, play goes
on with no clock running, across a restart, a kill -9 and two processes; on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")
pytest.importorskip("argon2", reason="accounts need argon2-cffi (pip install 'tavola[web]')")

import httpx
from fastapi.testclient import TestClient
from sqlalchemy import select

from tavola.web.app import create_app
from tavola.web.clocks import clock_of
from tavola.web.limits import RateLimits
from tavola.web.storage import TableRow, open_database
from tavola.web.tournament_rows import TournamentRow
from test_web_clocks import FakeTime
from test_web_tournaments import ACCEPT, PASSWORD, Club, _post, _seat_both, _started, _until_accepting
from web_helpers import Server, auth, choose, state

pytestmark = pytest.mark.timeout(240)

CLOCK = {"delay": 5.0, "bank": 10.0}


def _timed(club: Club, now: FakeTime) -> tuple[str, dict[str, dict[str, Any]]]:
    """A started knockout of Ann and Bob with a clock, both seated: the tournament and their seats."""
    club.app.state.server.hub.now = now
    tournament = club.create({"name": "Break", "kind": "knockout", "clock": CLOCK})
    assert club.director.post(f"/api/tournaments/{tournament}/start").status_code == 200
    return tournament, _seat_both(club, tournament, club.view(tournament)["matches"][0])


def _play_turn(club: Club, seats: dict[str, dict[str, Any]]) -> str:
    """The player to act plays until the other is to act; the other's name."""
    table = seats["Ann"]["table"]
    names = {held["seat"]: name for name, held in seats.items()}
    player = names[state(club.director, table)["to_act"][0]]
    held = seats[player]
    for _attempt in range(20):
        seen = state(club.clients[player], table, held["token"])
        if held["seat"] not in seen["to_act"]:
            return names[1 - held["seat"]]
        done = club.clients[player].post(
            f"/api/tables/{table}/actions", json=choose(seen["legal_actions"]), headers=auth(held["token"])
        )
        assert done.status_code == 200, done.text
    raise AssertionError(f"{player} never finished their turn")


def _until_finished(client: TestClient | httpx.Client, table: str) -> dict[str, Any]:
    for _attempt in range(100):
        seen = state(client, table)  # type: ignore[arg-type]
        if seen["status"] == "finished":
            return seen
        time.sleep(0.05)
    raise AssertionError("no forfeit on time")


def test_a_paused_tournament_stops_its_clocks_play_goes_on_and_resumed_they_go_on_from_where_they_stood(
    url: str,
) -> None:
    now = FakeTime()
    with Club(url, ["Ann", "Bob"]) as club:
        tournament, seats = _timed(club, now)
        table = seats["Ann"]["table"]
        first = state(club.director, table)["clock"]["running"]
        now.now += 7  # the delay and 2 s of the bank
        paused = club.director.post(f"/api/tournaments/{tournament}/pause")
        assert paused.status_code == 200, paused.text
        stopped = state(club.director, table)["clock"]
        now.now += 1000  # far past every bank
        time.sleep(0.5)  # the hub looks at the clocks five times a second
        waited = state(club.director, table)
        _play_turn(club, seats)  # play goes on while paused, no clock running
        played = state(club.director, table)["clock"]
    assert (stopped["paused"], stopped["running"], stopped["left"][first]) == (True, first, 8.0)
    assert (waited["status"], waited["clock"]["left"]) == ("live", stopped["left"])
    assert played["paused"]
    assert played["running"] == 1 - first
    assert played["left"] == stopped["left"]  # the first player's bank as it stood at the pause

    restarted = Club(url, ["Ann", "Bob"], accounts=False)
    restarted.app.state.server.hub.now = now
    with restarted as club:
        now.now += 1000  # stopped while no server ran, and after its restart
        time.sleep(0.5)
        after = state(club.director, table)
        resumed = club.director.post(f"/api/tournaments/{tournament}/resume")
        assert resumed.status_code == 200, resumed.text
        running = state(club.director, table)["clock"]
        now.now += 4  # within the whole delay of the player to act: their bank is full
        within = state(club.director, table)["clock"]
        now.now += 5 + 10
        ended = _until_finished(club.director, table)
    assert (after["status"], after["clock"]) == ("live", {**played, "now": after["clock"]["now"]})
    assert (running["paused"], running["running"], running["left"]) == (False, 1 - first, played["left"])
    assert within["left"][1 - first] == 10.0
    assert (ended["forfeit"]["seat"], ended["forfeit"]["reason"]) == (1 - first, "time")


def test_a_table_started_while_paused_starts_with_its_clocks_stopped(url: str) -> None:
    now = FakeTime()
    with Club(url, ["Ann", "Bob"]) as club:
        club.app.state.server.hub.now = now
        tournament = club.create({"name": "Late", "kind": "knockout", "clock": CLOCK})
        assert club.director.post(f"/api/tournaments/{tournament}/start").status_code == 200
        assert club.director.post(f"/api/tournaments/{tournament}/pause").status_code == 200
        seats = _seat_both(club, tournament, club.view(tournament)["matches"][0])
        table = seats["Ann"]["table"]
        now.now += 1000
        time.sleep(0.5)
        waited = state(club.director, table)
        assert club.director.post(f"/api/tournaments/{tournament}/resume").status_code == 200
        now.now += 5 + 10 + 1
        ended = _until_finished(club.director, table)
    assert (waited["status"], waited["clock"]["paused"], waited["clock"]["left"]) == (
        "live",
        True,
        [10.0, 10.0],
    )
    assert ended["forfeit"]["reason"] == "time"


def test_two_servers_on_one_database_see_the_clocks_stopped_and_started_again(url: str) -> None:
    now = FakeTime()
    with Club(url, ["Ann", "Bob"], shared=True) as club:
        other = create_app(open_database(url), posts=RateLimits(capacity=1e9, per_second=1e9), shared=True)
        other.state.server.hub.now = now
        with TestClient(other) as second:
            tournament, seats = _timed(club, now)
            table = seats["Ann"]["table"]
            assert state(second, table)["clock"]["paused"] is False  # the second holds the table too
            assert club.director.post(f"/api/tournaments/{tournament}/pause").status_code == 200
            for _attempt in range(100):  # the second hears of it
                seen = state(second, table)["clock"]
                if seen["paused"]:
                    break
                time.sleep(0.05)
            now.now += 1000
            time.sleep(0.5)  # neither process forfeits
            held = [state(client, table) for client in (club.director, second)]
            director = club.tournaments.accounts.find("Director")
            other.state.tournaments.pause(tournament, director, paused=False)  # resumed through the second
            for _attempt in range(100):
                running = state(club.director, table)["clock"]
                if not running["paused"]:
                    break
                time.sleep(0.05)
            now.now += 5 + 10 + 1
            ended = [_until_finished(client, table) for client in (club.director, second)]
    assert seen["paused"]
    assert [(table["status"], table["clock"]["paused"]) for table in held] == [("live", True)] * 2
    assert not running["paused"]
    assert [table["forfeit"]["reason"] for table in ended] == ["time", "time"]


def test_a_server_killed_while_paused_keeps_the_clocks_stopped_and_resumed_they_run(tmp_path: Path) -> None:
    database = tmp_path / "server.sqlite3"
    server = Server(database, options=("--search-workers", "0"))
    try:
        settings = {"name": "Killed", "kind": "knockout", "clock": {"delay": 1, "bank": 30}}
        clients, tournament = _started(server.url, ("Ann", "Bob"), settings)
        match = clients["Director"].get(f"/api/tournaments/{tournament}").json()["matches"][0]
        for name in ("Ann", "Bob"):
            seat = _post(clients[name], f"/api/tournaments/{tournament}/matches/{match['id']}/seat")
            assert seat.status_code == 200, seat.text
        assert _post(clients["Director"], f"/api/tournaments/{tournament}/pause").status_code == 200
        stopped = server.client.get(f"/api/tables/{match['table']}").json()["clock"]
    finally:
        server.kill()  # kill -9, the tournament paused
    time.sleep(2.5)  # past the delay while no server runs
    again = Server(database, options=("--search-workers", "0"))
    try:
        time.sleep(1)
        after = again.client.get(f"/api/tables/{match['table']}").json()
        director = httpx.Client(base_url=again.url, timeout=30)
        assert _post(director, "/api/session", {"name": "Director", "password": PASSWORD}).status_code == 200
        assert _post(director, f"/api/tournaments/{tournament}/resume").status_code == 200
        time.sleep(2.5)  # the delay again, then the bank runs down
        running = again.client.get(f"/api/tables/{match['table']}").json()["clock"]
    finally:
        again.kill()
    seat = stopped["running"]
    assert stopped["paused"]
    assert seat in (0, 1)
    assert (after["status"], after["clock"]["paused"], after["clock"]["left"]) == (
        "live",
        True,
        stopped["left"],
    )
    assert (running["paused"], running["running"]) == (False, seat)
    assert running["left"][seat] < stopped["left"][seat]


@pytest.mark.parametrize("ending", ["played", "awarded"])
def test_a_match_ended_while_paused_shows_its_clocks_not_stopped_after_a_resume_and_a_restart(
    url: str, ending: str
) -> None:
    """A table over while its tournament is paused (played to its end, or awarded) is stored with its
    clocks no longer stopped: no resume reaches a finished table, and none is needed."""
    now = FakeTime()
    with Club(url, ["Ann", "Bob"]) as club:
        club.app.state.server.hub.now = now
        tournament = club.create({"name": "Ended", "kind": "knockout", "lengths": [1], "clock": CLOCK})
        assert club.director.post(f"/api/tournaments/{tournament}/start").status_code == 200
        match = club.view(tournament)["matches"][0]
        seats = _seat_both(club, tournament, match)
        table = seats["Ann"]["table"]
        assert club.director.post(f"/api/tournaments/{tournament}/pause").status_code == 200
        paused = state(club.director, table)["clock"]["paused"]
        if ending == "played":
            _until_accepting(club.clients, seats, "Ann", "Bob")
            accepted = club.clients["Ann"].post(
                f"/api/tables/{table}/actions", json=ACCEPT, headers=auth(seats["Ann"]["token"])
            )
            assert accepted.status_code == 200, accepted.text
        else:
            route = f"/api/tournaments/{tournament}/matches/{match['id']}/award"
            assert club.director.post(route, json={"winner": "Ann"}).status_code == 200
        ended = state(club.director, table)
        assert club.director.post(f"/api/tournaments/{tournament}/resume").status_code == 200
        resumed = state(club.director, table)
        stored = club.app.state.server.hub.store.clock(table)
    restarted = Club(url, ["Ann", "Bob"], accounts=False)
    restarted.app.state.server.hub.now = now
    with restarted as club:
        again = state(club.director, table)
    assert paused is True
    assert stored is not None
    assert stored.clock["paused_at"] is None
    for seen in (ended, resumed, again):
        assert (seen["status"], seen["clock"]["paused"], seen["clock"]["running"]) == (
            "finished",
            False,
            None,
        )


def test_a_paused_tournaments_table_whose_clocks_run_is_due_and_stopped_at_the_next_sweep(url: str) -> None:
    """A timed table of a paused tournament whose clocks run (one made while paused whose stop did not
    follow) makes the tournament due: the next sweep stops them; once stopped, it is not due."""
    now = FakeTime()
    with Club(url, ["Ann", "Bob"]) as club:
        tournament, seats = _timed(club, now)
        table = seats["Ann"]["table"]
        club.tournaments.stop()
        assert club.director.post(f"/api/tournaments/{tournament}/pause").status_code == 200
        held = club.tournaments.due()
        store = club.app.state.server.hub.store
        with store.engine.begin() as connection:  # the clocks started again in the store: a stop missed
            store.change_clock_in(connection, table, lambda stored: {**(stored or {}), "paused_at": None})
        club.app.state.server.hub.get(table).clocks_changed()
        running = state(club.director, table)["clock"]["paused"]
        due = club.tournaments.due()
        club.tournaments.advance_all()
        after = club.tournaments.due()
        stopped = state(club.director, table)["clock"]["paused"]
    assert tournament not in held
    assert running is False
    assert tournament in due
    assert tournament not in after
    assert stopped is True


def test_an_action_at_the_version_before_a_pause_is_done(url: str) -> None:
    """A pause adds no action: an action sent at the table's version before it is done, even where the
    table's copy had not yet read the clocks stopped (its revision behind the store's)."""
    now = FakeTime()
    with Club(url, ["Ann", "Bob"]) as club:
        club.tournaments.stop()
        _tournament, seats = _timed(club, now)
        table = seats["Ann"]["table"]
        hub = club.app.state.server.hub
        live = hub.get(table)
        names = {held["seat"]: name for name, held in seats.items()}
        seat = state(club.director, table)["to_act"][0]
        seen = state(club.clients[names[seat]], table, seats[names[seat]]["token"])
        start = clock_of(live.options)
        assert start is not None

        def stop(stored: dict[str, Any] | None) -> dict[str, Any]:
            clock = start if stored is None else start.stored(stored)
            return clock.paused(now.now).to_json()

        with hub.store.engine.begin() as connection:  # stopped in the store; this copy not told yet
            assert hub.store.change_clock_in(connection, table, stop)
        live.act(seat, choose(seen["legal_actions"]), seen["version"])
        after = state(club.director, table)
    assert after["version"] == seen["version"] + 1
    assert after["clock"]["paused"] is True


def test_a_pause_locks_its_tables_rows_before_its_tournaments(postgresql: str) -> None:
    """An action ending a table locks the table's row, then its tournament's: a pause waiting on a table's
    row holds no lock on the tournament's row meanwhile, so neither waits on the other (PostgreSQL's row
    locks; SQLite locks the whole database for each write)."""
    url = postgresql
    now = FakeTime()
    with Club(url, ["Ann", "Bob"]) as club:
        tournament, seats = _timed(club, now)
        table = seats["Ann"]["table"]
        club.tournaments.stop()
        engine = club.app.state.server.hub.store.engine
        director = club.tournaments.accounts.find("Director")
        with engine.connect() as ending:  # an action ending the table, holding its row
            ending.execute(select(TableRow.id).where(TableRow.id == table).with_for_update())
            pausing = threading.Thread(target=club.tournaments.pause, args=(tournament, director))
            pausing.start()
            time.sleep(1.0)  # the pause waits on the table's row
            with engine.connect() as other:
                free = other.execute(
                    select(TournamentRow.id)
                    .where(TournamentRow.id == tournament)
                    .with_for_update(nowait=True)
                ).all()
                other.rollback()
            waited = pausing.is_alive()
            ending.rollback()
        pausing.join(timeout=30)
        seen = club.view(tournament)
    assert waited
    assert free == [(tournament,)]
    assert seen["status"] == "paused"
