"""Clocks and forfeits: a forfeit in the match, the records and the table; a time control on the server,
its delay and bank, a player losing on time (recorded, rated with the match's end, refused after), across
a restart, a kill -9 and a reconnect, with two processes holding the table; on SQLite and PostgreSQL."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tavola.dicesource import RandomDice
from tavola.errors import IllegalActionError
from tavola.match import Forfeit, Match, MoneySession, Settlement
from tavola.position import WinKind
from tavola.records import from_json, mat_text, parse_mat, parse_sgf, sgf_text, to_json
from tavola.scoring import Ending
from tavola.table import GameTable, Seat
from tavola.table.events import Forfeited, GameOver, SeriesOver

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")
pytest.importorskip("argon2", reason="accounts need argon2-cffi (pip install 'tavola[web]')")

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tavola.web import ratings
from tavola.web.accounts import bot_account
from tavola.web.app import create_app
from tavola.web.clocks import Clock
from tavola.web.hub import Hub
from tavola.web.limits import RateLimits
from tavola.web.options import ClockOptions
from tavola.web.ratings import RatedMatchRow, rate_when_finished
from tavola.web.storage import open_database
from web_helpers import Server, auth, choose, create, sit, state

pytestmark = pytest.mark.timeout(180)

PASSWORD = "correct horse battery"


class FakeTime:
    """A clock the test moves by hand (Unix seconds)."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


# --- the forfeit in the match and its records ---------------------------------------------------


def _match_in_play() -> Match:
    match = Match(5, dice=RandomDice(seed=4), players=("Ann", "Ben"))
    game = match.new_game()
    game.roll()
    return match


def test_a_forfeited_match_is_won_by_the_other_player_with_every_point_missing() -> None:
    match = _match_in_play()
    match.forfeit(Forfeit(0, "time", "2026-05-01T12:00:00Z"))
    game = match.games[-1]
    assert (match.is_over, match.winner, match.score) == (True, 1, (0, 5))
    assert game.outcome is not None
    assert game.outcome.ending is Ending.FORFEIT
    assert game.outcome.winner == 1
    assert game.player_to_act is None
    assert game.legal_actions() == []
    with pytest.raises(IllegalActionError, match="the match is over"):
        match.forfeit(Forfeit(1, "time"))
    with pytest.raises(IllegalActionError, match="the match is over"):
        match.new_game()


def test_a_forfeit_loses_the_game_as_the_board_would_count_if_the_other_bore_off_now() -> None:
    session = MoneySession(dice=RandomDice(seed=4), players=("Ann", "Ben"))
    session.new_game()
    session.forfeit(Forfeit(1, "left"))
    outcome = session.games[-1].outcome
    assert outcome is not None  # at the start, two of the loser's checkers sit in the winner's home board
    assert (outcome.winner, outcome.kind, outcome.points) == (0, WinKind.BACKGAMMON, 3)
    assert session.score.points == (3, -3)
    assert session.is_over


def test_a_forfeit_names_a_player_and_a_known_reason() -> None:
    with pytest.raises(IllegalActionError, match="players are 0 and 1"):
        Forfeit(2, "time")
    with pytest.raises(IllegalActionError, match="a forfeit is for time, absent, left"):
        Forfeit(0, "bored")


def test_the_json_record_says_who_forfeited_why_and_when_and_reads_back() -> None:
    match = _match_in_play()
    match.forfeit(Forfeit(0, "time", "2026-05-01T12:00:00Z"))
    data = to_json(match)
    assert data["forfeit"] == {"player": 0, "reason": "time", "at": "2026-05-01T12:00:00Z"}
    assert data["games"][-1]["outcome"]["ending"] == "forfeit"
    assert data["score"] == [0, 5]
    again = from_json(data)
    assert again.forfeited == match.forfeited
    assert again.score == (0, 5)
    del data["forfeit"]
    with pytest.raises(ValueError, match="the game is not over"):
        from_json(data)


def test_the_mat_file_tags_the_forfeit_and_gives_the_winner_every_point_missing() -> None:
    match = _match_in_play()
    match.forfeit(Forfeit(0, "time", "2026-05-01T12:00:00Z"))
    text = mat_text(match)
    assert '; [Forfeit "Player 1 time 2026-05-01T12:00:00Z"]' in text
    assert text.rstrip().endswith("Wins 5 points and the match")
    again = parse_mat(text)
    assert again.forfeited == match.forfeited
    assert again.score == (0, 5)
    with pytest.raises(ValueError, match="by the forfeit, Ben wins 5 points"):
        parse_mat(text.replace("Wins 5 points", "Wins 4 points"))


def test_the_sgf_file_holds_the_forfeit_and_gives_the_winner_every_point_missing() -> None:
    match = _match_in_play()
    match.forfeit(Forfeit(1, "left", "2026-05-01T12:00:00Z"))
    text = sgf_text(match)
    assert "XF[Player 2 left 2026-05-01T12:00:00Z]RE[W+5]" in text
    again = parse_sgf(text)
    assert again.forfeited == match.forfeited
    assert again.score == (5, 0)
    with pytest.raises(ValueError, match="by the forfeit, Ann wins 5 points"):
        parse_sgf(text.replace("RE[W+5]", "RE[W+3]"))
    with pytest.raises(ValueError, match="a forfeit names the player, why"):
        parse_sgf(text.replace("XF[Player 2 left", "XF[Player 2 bored"))


def test_a_money_game_forfeited_before_its_first_play_is_written_and_read_back() -> None:
    session = MoneySession(dice=RandomDice(seed=4), players=("Ann", "Ben"))
    session.new_game()
    session.forfeit(Forfeit(0, "absent"))
    for again in (parse_sgf(sgf_text(session)), parse_mat(mat_text(session)), from_json(to_json(session))):
        assert again.forfeited == Forfeit(0, "absent")
        assert isinstance(again.score, Settlement)
        assert isinstance(session.score, Settlement)
        assert again.score.points == session.score.points


def test_the_table_announces_the_forfeit_then_the_game_and_the_match_over() -> None:
    table = GameTable(_match_in_play(), (Seat("Ann"), Seat("Ben")))
    table.forfeit(Forfeit(1, "absent"))
    events = table.events
    assert isinstance(events[-3], Forfeited)
    assert events[-3].reason == "absent"
    assert isinstance(events[-2], GameOver)
    assert isinstance(events[-1], SeriesOver)
    assert table.is_over
    assert table.seat_to_act is None


# --- the clocks -----------------------------------------------------------------------------------


def test_the_delay_does_not_count_then_the_bank_runs_down_and_runs_out() -> None:
    clock = Clock.start(ClockOptions(delay=10, bank=20), length=3).after(0, game=1, turn=0, now=100.0)
    assert clock.banks == (60.0, 60.0)
    assert clock.left(0, 109.0) == 60.0
    assert clock.left(0, 130.0) == 40.0
    assert clock.left(1, 130.0) == 60.0
    assert clock.expired(169.9) is None
    assert clock.expired(170.0) == 0
    clock = clock.after(1, game=1, turn=1, now=130.0)  # seat 0 is done: 20 s past the delay spent
    assert clock.banks == (40.0, 60.0)
    assert (clock.seat, clock.since) == (1, 130.0)


def test_one_turn_keeps_its_delay_while_the_same_seat_acts_on() -> None:
    clock = Clock.start(ClockOptions(delay=10, bank=20), length=1).after(0, game=1, turn=0, now=0.0)
    assert clock.after(0, game=1, turn=0, now=8.0) is clock  # the roll, then the play: one turn, one delay
    assert clock.after(1, game=1, turn=1, now=15.0).banks == (15.0, 20.0)


def test_a_player_has_the_delay_once_a_turn_however_often_the_other_answers() -> None:
    clock = Clock.start(ClockOptions(delay=10, bank=20), length=1).after(0, game=1, turn=3, now=0.0)
    for answer in range(5):  # seat 0 offers to resign (or doubles) every 2 s, seat 1 declines 2 s later
        clock = clock.after(1, game=1, turn=3, now=answer * 4.0 + 2.0)
        clock = clock.after(0, game=1, turn=3, now=answer * 4.0 + 4.0)
    assert clock.banks == (12.0, 12.0)  # each had one delay in the turn, then spent 2 s a time, 4 times
    assert (clock.since, clock.left(0, 20.0)) == (10.0, 12.0)  # running again, its delay used up
    later = clock.after(1, game=1, turn=4, now=20.0).after(0, game=1, turn=5, now=21.0)
    assert later.left(0, 30.0) == 12.0  # a new turn: a new delay


def test_the_bot_and_the_time_between_games_are_not_timed_and_money_banks_fill_again() -> None:
    clock = Clock.start(ClockOptions(delay=0, bank=30), length=None).after(0, game=1, turn=0, now=0.0)
    waiting = clock.after(None, game=1, turn=0, now=10.0)  # the bot to act, or between games
    assert waiting.banks == (20.0, 30.0)
    assert waiting.expired(1e9) is None
    assert waiting.after(1, game=2, turn=0, now=500.0).banks == (30.0, 30.0)  # money play: a bank a game


# --- on the server --------------------------------------------------------------------------------


def _app(url: str, now: FakeTime) -> TestClient:
    """A client of a server on ``url`` whose clocks read ``now`` (set before it starts its tables)."""
    app = create_app(open_database(url), posts=RateLimits(capacity=1e9, per_second=1e9))
    _hub(app).now = now
    return TestClient(app)


def _hub(app: Any) -> Hub:
    hub: Hub = app.state.server.hub
    return hub


def _timed_match(client: TestClient, delay: float = 10, bank: float = 20) -> tuple[str, dict[int, str]]:
    options = {
        "kind": "game",
        "series": "match",
        "length": 3,
        "clock": {"delay": delay, "bank": bank},
        "seats": [{}, {}],
    }
    table = create(client, options)
    return table, {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Ben")}


def _until_finished(client: TestClient, table: str) -> dict[str, Any]:
    """The table's state once the hub's clocks forfeited for the player out of time (a few tenths of a
    second: the hub looks five times a second)."""
    for _attempt in range(100):
        seen = state(client, table)
        if seen["status"] == "finished":
            return seen
        time.sleep(0.05)
    raise AssertionError("no forfeit on time")


@pytest.mark.parametrize(
    ("clock", "message"),
    [
        ({"delay": -1, "bank": 60}, "clock.delay: 0 to 600 seconds, not -1"),
        ({"delay": 12, "bank": 0}, "clock.bank: more than 0 and up to 3600 seconds, not 0"),
        ({"delay": 12, "bank": 1e9}, "clock.bank: more than 0 and up to 3600 seconds"),
        ({"delay": "12", "bank": 60}, "clock.delay: 0 to 600 seconds, not '12'"),
        ({"delay": 12}, "bank"),
    ],
)
def test_a_time_control_out_of_bounds_is_refused_naming_the_field(
    tmp_path: Path, clock: dict[str, Any], message: str
) -> None:
    with _app(f"sqlite:///{tmp_path / 's.sqlite3'}", FakeTime()) as client:
        options = {"kind": "game", "series": "match", "length": 3, "clock": clock, "seats": [{}, {}]}
        response = client.post("/api/tables", json=options)
        assert response.status_code == 400
        assert message in response.json()["error"]
        chouette = {"kind": "chouette", "clock": {"delay": 12, "bank": 60}, "seats": [{}, {}, {}]}
        refused = client.post("/api/tables", json=chouette)
        assert refused.status_code == 400
        assert refused.json()["error"] == "clock: a chouette is played without a clock"


def test_the_state_counts_the_delay_then_the_bank_of_the_player_to_act(tmp_path: Path) -> None:
    now = FakeTime()
    with _app(f"sqlite:///{tmp_path / 's.sqlite3'}", now) as client:
        table, tokens = _timed_match(client)
        seen = state(client, table)
        seat = seen["to_act"][0]
        clock = seen["clock"]
        assert (clock["delay"], clock["running"], clock["since"]) == (10, seat, now.now)
        assert clock["left"] == [60, 60]
        assert clock["banks"] == [60, 60]
        now.now += 5
        assert state(client, table)["clock"]["left"] == [60, 60]  # in the delay
        now.now += 25
        assert state(client, table)["clock"]["left"][seat] == 40
        legal = state(client, table, tokens[seat])["legal_actions"]
        acted = client.post(f"/api/tables/{table}/actions", json=choose(legal), headers=auth(tokens[seat]))
        assert acted.status_code == 200, acted.text
        after = acted.json()["clock"]
        assert after["banks"][seat] == 40
        assert after["running"] == 1 - seat
        assert after["since"] == now.now


def test_a_player_out_of_time_loses_the_match_recorded_so_and_an_action_after_is_refused(
    tmp_path: Path,
) -> None:
    now = FakeTime()
    with _app(f"sqlite:///{tmp_path / 's.sqlite3'}", now) as client:
        table, tokens = _timed_match(client, delay=1, bank=0.5)
        seat = state(client, table)["to_act"][0]
        legal = state(client, table, tokens[seat])["legal_actions"]
        now.now += 2.6  # 1 s of delay and the 1.5 s bank of a 3-point match, and a little more
        late = client.post(f"/api/tables/{table}/actions", json=choose(legal), headers=auth(tokens[seat]))
        assert late.status_code == 409
        assert late.json()["error"] == "this table is finished"
        seen = state(client, table)
        assert seen["status"] == "finished"
        assert seen["dice"]["secret"] is not None
        assert seen["forfeit"] == {"seat": seat, "reason": "time", "at": seen["forfeit"]["at"]}
        assert seen["game"]["outcome"]["ending"] == "forfeit"
        assert seen["game"]["outcome"]["winner"] == 1 - seat
        assert seen["game"]["score"]["points"][1 - seat] == 3
        assert seen["game"]["series_over"]
        assert seen["clock"]["running"] is None
        assert seen["clock"]["left"][seat] == 0
        record = client.get(f"/api/tables/{table}/record.json").json()
        assert record["forfeit"]["player"] == seat
        assert record["forfeit"]["reason"] == "time"
        sgf = client.get(f"/api/tables/{table}/record.sgf").text
        assert f"XF[Player {seat + 1} time " in sgf
        mat = client.get(f"/api/tables/{table}/record.mat").text
        assert f'; [Forfeit "Player {seat + 1} time ' in mat
        assert "and the match" in mat
        log = client.get(f"/api/tables/{table}/log").json()["entries"]
        assert log[-1]["seat"] is None
        assert log[-1]["action"] == "forfeit"
        assert log[-1]["player"] == seat


def test_the_clock_runs_out_by_itself_and_the_match_lost_on_time_is_rated(url: str) -> None:
    now = FakeTime()
    with _app(url, now) as ann:
        signed = ann.post("/api/accounts", json={"name": "Ann", "password": PASSWORD})
        assert signed.status_code == 201, signed.text
        options = {
            "kind": "game",
            "series": "match",
            "length": 1,
            "rated": True,
            "clock": {"delay": 1, "bank": 2},
            "seats": [{}, {"bot": "beginner"}],
        }
        table = create(ann, options)
        sat = ann.post(f"/api/tables/{table}/seats/0", json={})
        assert sat.status_code == 200, sat.text
        assert state(ann, table)["to_act"] == [0]  # the bot's turn, if it had one, is done
        now.now += 3.5
        seen = _until_finished(ann, table)
        assert seen["forfeit"]["seat"] == 0
        assert seen["game"]["outcome"]["winner"] == 1
        ratings = ann.get("/api/players/Ann").json()["ratings"]
        assert ratings[0]["matches"] == 1
        assert ratings[0]["wins"] == 0
        assert ratings[0]["rating"] < 1500


def test_the_clock_goes_on_across_a_restart_shows_the_same_time_and_runs_out(url: str) -> None:
    now = FakeTime()
    with _app(url, now) as client:
        table, _tokens = _timed_match(client, delay=10, bank=20)
        seat = state(client, table)["to_act"][0]
        now.now += 25
    now.now += 20  # the server is down: the time counts all the same
    with _app(url, now) as again:
        seen = state(again, table)
        assert seen["status"] == "live"
        assert seen["clock"]["left"][seat] == 60 - 35
        assert TestClient(again.app).get(f"/api/tables/{table}").json()["clock"] == seen["clock"]  # reconnect
        now.now += 25.5
        finished = _until_finished(again, table)
        assert finished["forfeit"]["seat"] == seat
        assert finished["forfeit"]["reason"] == "time"
    with _app(url, now) as third:  # the forfeit is in the log: a third start replays it
        assert state(third, table)["forfeit"] == finished["forfeit"]


def test_a_forfeit_for_absence_through_the_table_and_its_refusals(tmp_path: Path) -> None:
    now = FakeTime()
    with _app(f"sqlite:///{tmp_path / 's.sqlite3'}", now) as client:
        table, tokens = _timed_match(client)
        live = _hub(client.app).get(table)
        with pytest.raises(IllegalActionError, match="a forfeit is for time, absent, left"):
            live.forfeit(1, "bored")
        assert state(client, table)["status"] == "live"
        live.forfeit(1, "absent")
        seen = state(client, table)
        assert seen["forfeit"]["reason"] == "absent"
        assert seen["game"]["outcome"]["winner"] == 0
        with pytest.raises(ValueError, match="this table is finished"):
            live.forfeit(0, "left")
        forged = {"action": "forfeit", "player": 0, "reason": "time"}
        assert (
            client.post(f"/api/tables/{table}/actions", json=forged, headers=auth(tokens[0])).status_code
            == 409
        )


def test_a_person_cannot_send_a_forfeit_as_an_action(tmp_path: Path) -> None:
    with _app(f"sqlite:///{tmp_path / 's.sqlite3'}", FakeTime()) as client:
        table, tokens = _timed_match(client)
        seat = state(client, table)["to_act"][0]
        forged = {"action": "forfeit", "player": 1 - seat, "reason": "time"}
        refused = client.post(f"/api/tables/{table}/actions", json=forged, headers=auth(tokens[seat]))
        assert refused.status_code == 400
        assert "forfeit" in refused.json()["error"]
        assert state(client, table)["status"] == "live"


def test_two_processes_holding_a_timed_table_forfeit_it_once(postgresql: str) -> None:
    pytest.importorskip("psycopg", reason="PostgreSQL needs psycopg (pip install 'tavola[postgresql]')")
    now = FakeTime()
    with _app(postgresql, now) as first, _app(postgresql, now) as second:
        table, _tokens = _timed_match(first, delay=1, bank=1)
        seat = state(second, table)["to_act"][0]  # the second process holds the table too
        now.now += 4
        for client in (first, second):
            assert _until_finished(client, table)["forfeit"]["seat"] == seat
        log = first.get(f"/api/tables/{table}/log").json()["entries"]
        assert [entry["action"] for entry in log].count("forfeit") == 1
        assert log[-1]["action"] == "forfeit"


def test_the_ratings_of_a_match_lost_on_time_are_stored_with_its_end(
    url: str, caplog: pytest.LogCaptureFixture
) -> None:
    now = FakeTime()
    with _app(url, now) as ann:
        signed = ann.post("/api/accounts", json={"name": "Ann", "password": PASSWORD})
        assert signed.status_code == 201, signed.text
        options = {
            "kind": "game",
            "series": "match",
            "length": 3,
            "rated": True,
            "clock": {"delay": 1, "bank": 1},
            "seats": [{}, {"bot": "beginner"}],
        }
        table = create(ann, options)
        assert ann.post(f"/api/tables/{table}/seats/0", json={}).status_code == 200
        live = _hub(ann.app).get(table)
        live.listeners.remove(rate_when_finished)  # nothing rates it after its end
        now.now += 10
        assert live.time_out()
        assert "not rated" not in caplog.text
        with Session(_hub(ann.app).store.engine) as session:
            rated = session.get(RatedMatchRow, table)
        assert rated is not None
        assert rated.loser_after < rated.loser_before
        assert rated.length == 3


def test_a_rating_that_fails_as_the_match_ends_is_undone_and_done_right_after(
    url: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    rate = ratings._rate

    def failing_once(session: Session, result: ratings.MatchResult) -> RatedMatchRow:
        calls.append(result.table_id)
        if len(calls) == 1:
            bot_account(session, "beginner")  # a write, undone with the rest
            raise RuntimeError("a rating that fails")
        return rate(session, result)

    monkeypatch.setattr(ratings, "_rate", failing_once)
    now = FakeTime()
    with _app(url, now) as ann:
        assert ann.post("/api/accounts", json={"name": "Ann", "password": PASSWORD}).status_code == 201
        options = {
            "kind": "game",
            "series": "match",
            "length": 1,
            "rated": True,
            "clock": {"delay": 1, "bank": 1},
            "seats": [{}, {"bot": "beginner"}],
        }
        table = create(ann, options)
        assert ann.post(f"/api/tables/{table}/seats/0", json={}).status_code == 200
        now.now += 10
        assert _hub(ann.app).get(table).time_out()
        assert "its match was not rated as it finished (a rating that fails)" in caplog.text
        assert state(ann, table)["status"] == "finished"
        assert len(calls) == 2  # once as it finished, undone; once by the listener right after
        ratings_now = ann.get("/api/players/Ann").json()["ratings"]
        assert ratings_now[0]["matches"] == 1
        assert ratings_now[0]["wins"] == 0


def test_a_clock_runs_out_while_the_server_is_killed_and_the_match_is_lost_at_its_restart(
    tmp_path: Path,
) -> None:
    database = tmp_path / "server.sqlite3"
    server = Server(database)
    try:
        options = {"kind": "game", "series": "match", "length": 1, "clock": {"delay": 1, "bank": 2}}
        created = server.client.post("/api/tables", json={**options, "seats": [{}, {}]})
        table = created.json()["id"]
        for seat, name in ((0, "Ann"), (1, "Ben")):
            assert (
                server.client.post(f"/api/tables/{table}/seats/{seat}", json={"name": name}).status_code
                == 200
            )
        seat = server.client.get(f"/api/tables/{table}").json()["to_act"][0]
    finally:
        server.kill()  # kill -9, the clock running
    time.sleep(3.5)  # past the delay and the bank while no server runs
    again = Server(database)
    try:
        for _attempt in range(100):
            seen = again.client.get(f"/api/tables/{table}").json()
            if seen["status"] == "finished":
                break
            time.sleep(0.05)
        assert seen["forfeit"]["seat"] == seat
        assert seen["forfeit"]["reason"] == "time"
        assert seen["game"]["score"]["points"][1 - seat] == 1
    finally:
        again.kill()
