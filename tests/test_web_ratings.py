"""Ratings: the FIBS formula and its invariants, and rated matches through the server's API (between two
accounts, against a bot level's account), rated once however often asked; on SQLite and PostgreSQL."""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")
pytest.importorskip("argon2", reason="accounts need argon2-cffi (pip install 'tavola[web]')")

from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tavola.dicesource import VerifiableDice
from tavola.web.app import create_app
from tavola.web.hub import Hub
from tavola.web.limits import RateLimits
from tavola.web.ratings import (
    RatedMatchRow,
    RatingRow,
    Standing,
    experience_factor,
    rate_finished_table,
    rate_unrated_tables,
    rate_when_finished,
    rating_as_finished,
    rating_changes,
    win_probability,
)
from tavola.web.storage import open_database
from web_helpers import create, resign_when_able, state

pytestmark = pytest.mark.timeout(180)

PASSWORD = "correct horse battery"

ratings = st.floats(min_value=0, max_value=4000, allow_nan=False)
lengths = st.integers(min_value=1, max_value=64)
experiences = st.integers(min_value=0, max_value=2000)


# --- the formula ------------------------------------------------------------------------------


def test_the_formula_gives_the_fibs_numbers() -> None:
    """FIBS says it so: D the difference, P_upset = 1 / (10 ** (D * sqrt(n) / 2000) + 1) the underdog's
    chance; the favourite who wins gains 4 * K * sqrt(n) * P_upset, an underdog who wins
    4 * K * sqrt(n) * (1 - P_upset); K = max(1, 5 - experience / 100)."""
    upset = 1 / (10 ** (100 * math.sqrt(5) / 2000) + 1)
    favourite, underdog = Standing(1850, 500), Standing(1750, 500)
    stake = 4 * math.sqrt(5) * upset
    assert rating_changes(favourite, underdog, 5) == pytest.approx((stake, -stake))
    assert rating_changes(underdog, favourite, 5)[0] == pytest.approx(4 * math.sqrt(5) * (1 - upset))
    newcomer, seasoned = Standing(1500, 0), Standing(1500, 1000)
    assert rating_changes(newcomer, seasoned, 1) == pytest.approx((10.0, -2.0))
    assert rating_changes(Standing(1500, 250), newcomer, 9) == pytest.approx((2.5 * 6, -5 * 6))


@given(ratings, ratings, lengths, experiences)
def test_what_one_gains_the_other_loses_where_their_experience_is_the_same(
    winner: float, loser: float, length: int, experience: int
) -> None:
    gain, loss = rating_changes(Standing(winner, experience), Standing(loser, experience), length)
    assert gain == -loss
    assert 0 <= gain <= 4 * experience_factor(experience) * math.sqrt(length)


@given(ratings, ratings, ratings, lengths, experiences, experiences)
def test_the_lower_the_winner_was_rated_below_the_loser_the_more_they_gain(
    winner: float, other: float, loser: float, length: int, won: int, lost: int
) -> None:
    low, high = sorted((winner, other))
    gained_low, lost_low = rating_changes(Standing(low, won), Standing(loser, lost), length)
    gained_high, lost_high = rating_changes(Standing(high, won), Standing(loser, lost), length)
    assert gained_low >= gained_high
    assert lost_low <= lost_high


@given(ratings, ratings, lengths)
def test_the_two_players_chances_add_up_to_one_and_the_longer_match_favours_the_better(
    rating: float, other: float, length: int
) -> None:
    mine, theirs = win_probability(rating, other, length), win_probability(other, rating, length)
    assert mine + theirs == pytest.approx(1)
    longer = win_probability(rating, other, length + 1)
    assert (longer >= mine) if rating >= other else (longer <= mine)


@given(experiences, experiences)
def test_experience_slows_a_rating_down_to_the_base_rate_at_400_points(less: int, more: int) -> None:
    less, more = sorted((less, more))
    assert 5 >= experience_factor(less) >= experience_factor(more) >= 1
    assert (experience_factor(more) == 1) == (more >= 400)


# --- through the server -------------------------------------------------------------------------


@pytest.fixture
def club(url: str) -> Iterator[dict[str, TestClient]]:
    """Ann and Bob, each signed up and logged in with a client of their own, on one server."""
    app = create_app(open_database(url), posts=RateLimits(capacity=1e9, per_second=1e9))
    with TestClient(app) as ann:
        bob = TestClient(app)
        for client, name in ((ann, "Ann"), (bob, "Bob")):
            signed = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
            assert signed.status_code == 201, signed.text
        yield {"Ann": ann, "Bob": bob}


def _hub(client: TestClient) -> Hub:
    hub: Hub = client.app.state.server.hub  # type: ignore[attr-defined]
    return hub


def _sit(client: TestClient, table: str, seat: int, name: str | None = None) -> str:
    """Sit down: a logged-in person under their account's name, a guest under ``name``."""
    sat = client.post(f"/api/tables/{table}/seats/{seat}", json={"name": name})
    assert sat.status_code == 200, sat.text
    return str(sat.json()["token"])


def _match(club: dict[str, TestClient], length: int, variant: str = "standard") -> tuple[str, dict[int, str]]:
    """A match between Ann (seat 0) and Bob (seat 1), both seated."""
    options = {
        "kind": "game",
        "series": "match",
        "length": length,
        "variant": variant,
        "rated": True,
        "seats": [{}, {}],
    }
    table = create(club["Ann"], options)
    return table, {0: _sit(club["Ann"], table, 0), 1: _sit(club["Bob"], table, 1)}


def _rate(client: TestClient, table: str) -> RatedMatchRow | None:
    hub = _hub(client)
    return rate_finished_table(hub.store, hub.get(table))


def _rating(client: TestClient, name: str, variant: str = "standard") -> dict[str, Any]:
    page = client.get(f"/api/players/{name}")
    assert page.status_code == 200, page.text
    return next(rating for rating in page.json()["ratings"] if rating["variant"] == variant)


def _counts(client: TestClient) -> tuple[int, int]:
    with Session(_hub(client).store.engine) as session:
        rated = session.scalar(select(func.count()).select_from(RatedMatchRow))
        rows = session.scalar(select(func.count()).select_from(RatingRow))
    return int(rated or 0), int(rows or 0)


def test_a_rated_match_changes_both_ratings_by_the_formula_once(club: dict[str, TestClient]) -> None:
    ann = club["Ann"]
    table, tokens = _match(club, 1)
    resign_when_able(ann, table, tokens, loser=1)
    first = _rate(ann, table)
    assert first is not None
    assert (first.winner_before, first.winner_after) == (
        1500,
        1510,
    )  # K 5, sqrt(1), half a chance: 4 * 5 * 0.5
    assert (first.loser_before, first.loser_after) == (1500, 1490)
    assert _rating(ann, "Ann") == {
        "variant": "standard",
        "rating": 1510,
        "experience": 1,
        "matches": 1,
        "wins": 1,
    }
    assert _rating(ann, "bob")["rating"] == 1490
    again = _rate(ann, table)  # a table is rated once, however often asked
    assert again is not None
    assert again.winner_after == 1510
    assert _counts(ann) == (1, 2)
    assert _rating(ann, "Ann")["rating"] == 1510

    second, tokens = _match(club, 3)
    resign_when_able(ann, second, tokens, loser=0, kind="backgammon")  # three points: Bob takes the match
    _rate(ann, second)
    stake = 4 * math.sqrt(3) * (1 - 1 / (1 + 10 ** ((1510 - 1490) * math.sqrt(3) / 2000)))
    assert _rating(ann, "Bob")["rating"] == pytest.approx(1490 + 4.99 * stake)
    assert _rating(ann, "Ann") == {
        "variant": "standard",
        "rating": pytest.approx(1510 - 4.99 * stake),
        "experience": 4,
        "matches": 2,
        "wins": 1,
    }
    history = ann.get("/api/players/Ann").json()["history"]
    assert [(entry["table"], entry["opponent"], entry["won"], entry["length"]) for entry in history] == [
        (second, "Bob", False, 3),
        (table, "Bob", True, 1),
    ]
    assert history[1]["before"] == 1500
    assert history[1]["after"] == history[0]["before"] == 1510
    board = ann.get("/api/leaderboard").json()
    assert [(player["place"], player["name"]) for player in board["players"]] == [(1, "Bob"), (2, "Ann")]
    assert ann.get("/api/leaderboard", params={"variant": "nackgammon"}).json()["players"] == []


def test_ratings_are_per_variant(club: dict[str, TestClient]) -> None:
    ann = club["Ann"]
    table, tokens = _match(club, 1, variant="nackgammon")
    resign_when_able(ann, table, tokens, loser=0)
    _rate(ann, table)
    assert _rating(ann, "Bob", "nackgammon")["rating"] == 1510
    assert [rating["variant"] for rating in ann.get("/api/players/Bob").json()["ratings"]] == ["nackgammon"]
    board = ann.get("/api/leaderboard", params={"variant": "Nackgammon"}).json()
    assert board["variant"] == "nackgammon"
    assert [player["name"] for player in board["players"]] == ["Bob", "Ann"]
    assert ann.get("/api/players/Ann", params={"variant": "standard"}).json()["history"] == []
    refused = ann.get("/api/leaderboard", params={"variant": "chess"})
    assert refused.status_code == 400
    assert "no variant" in refused.json()["error"]


def test_a_match_against_a_bot_level_rates_the_levels_account_as_it_ends(tmp_path: Path) -> None:
    app = create_app(open_database(f"sqlite:///{tmp_path / 'server.sqlite3'}"))
    with TestClient(app) as client:
        assert client.post("/api/accounts", json={"name": "Ann", "password": PASSWORD}).status_code == 201
        options = {
            "kind": "game",
            "series": "match",
            "length": 1,
            "rated": True,
            "seats": [{}, {"bot": "beginner"}],
        }
        table = create(client, options)
        tokens = {0: _sit(client, table, 0)}
        resign_when_able(client, table, tokens, loser=0)
        assert _counts(client) == (1, 2)  # rated as the match ended
        rated = _rate(client, table)
        assert rated is not None
        assert rated.winner_after == 1510
        bot = client.get("/api/players/tavola BEGINNER").json()
        assert (bot["name"], bot["bot"]) == ("Tavola beginner", "beginner")
        assert bot["ratings"][0]["rating"] == 1510
        assert _rating(client, "Ann")["rating"] == 1490
        assert bot["history"][0]["opponent"] == "Ann"


def test_a_match_is_rated_only_between_accounts_or_bots_and_only_once_finished(tmp_path: Path) -> None:
    app = create_app(open_database(f"sqlite:///{tmp_path / 'server.sqlite3'}"))
    with TestClient(app) as ann:
        assert ann.post("/api/accounts", json={"name": "Ann", "password": PASSWORD}).status_code == 201
        guest = TestClient(app)
        table = create(
            ann, {"kind": "game", "series": "match", "length": 1, "rated": True, "seats": [{}, {}]}
        )
        tokens = {0: _sit(ann, table, 0), 1: _sit(guest, table, 1, "Cleo")}
        assert _rate(ann, table) is None  # not finished
        resign_when_able(ann, table, tokens, loser=1)
        assert _rate(ann, table) is None  # a guest's match
        single = create(ann, {"kind": "game", "series": "single", "seats": [{}, {"bot": "beginner"}]})
        resign_when_able(ann, single, {0: _sit(ann, single, 0)}, loser=0)
        assert _rate(ann, single) is None  # a single game is no match
        assert _counts(ann) == (0, 0)
        assert ann.get("/api/players/Ann").json()["ratings"] == []


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"series": "money", "rated": True}, "only a match is rated"),
        ({"series": "match", "rated": True, "hints": True}, "a rated match gives no hints"),
    ],
)
def test_a_rated_table_is_a_match_without_hints(
    club: dict[str, TestClient], options: dict[str, Any], says: str
) -> None:
    made = club["Ann"].post("/api/tables", json={"kind": "game", **options, "seats": [{}, {"bot": "expert"}]})
    assert made.status_code == 400
    assert says in made.json()["error"]


def test_a_rated_match_between_two_bot_levels_played_through_as_it_loads_is_rated(tmp_path: Path) -> None:
    app = create_app(open_database(f"sqlite:///{tmp_path / 'server.sqlite3'}"))
    with TestClient(app) as client:
        hub = _hub(client)
        options = {"kind": "game", "series": "match", "length": 1, "rated": True}
        seats = [{"bot": "beginner"}, {"bot": "casual"}]
        secret = VerifiableDice().reveal()
        names = [("Tavola beginner", "beginner"), ("Tavola casual", "casual")]
        hub.store.create_table("bots", "game", {**options, "seats": seats}, secret, names)
        hub.store.set_status("bots", "live", revision=hub.store.revision("bots") or 0)
        table = hub.get("bots")  # loading it plays the match through, its hooks already there
        assert table.status == "finished"
        assert _counts(client) == (1, 2)  # rated as it finished: both levels' accounts made and rated
        _rate(client, "bots")
        assert _counts(client) == (1, 2)  # once


def test_a_match_made_unrated_changes_no_rating_between_two_accounts(club: dict[str, TestClient]) -> None:
    options = {"kind": "game", "series": "match", "length": 1, "rated": False, "seats": [{}, {}]}
    table = create(club["Ann"], options)
    tokens = {0: _sit(club["Ann"], table, 0), 1: _sit(club["Bob"], table, 1)}
    resign_when_able(club["Ann"], table, tokens, loser=1)
    assert state(club["Ann"], table)["status"] == "finished"
    assert _rate(club["Ann"], table) is None
    assert _counts(club["Ann"]) == (0, 0)
    assert [row["table"] for row in club["Ann"].get("/api/players/Ann").json()["tables"]] == [table]


def test_a_match_left_unrated_by_a_stop_is_rated_at_the_next_start(club: dict[str, TestClient]) -> None:
    ann = club["Ann"]
    table, tokens = _match(club, 1)
    hub = _hub(ann)
    hub.get(table).finishing.remove(rating_as_finished)  # as if the rating failed as the match ended
    hub.get(table).listeners.remove(rate_when_finished)  # and the server stopped before rating it again
    resign_when_able(ann, table, tokens, loser=1)
    assert ann.get("/api/players/Ann").json()["ratings"] == []  # not rated yet
    assert rate_unrated_tables(hub.store, hub.get) == 1
    assert rate_unrated_tables(hub.store, hub.get) == 0
    assert _rating(ann, "Ann")["rating"] == 1510


def test_two_matches_of_one_player_rated_at_once_both_count(club: dict[str, TestClient]) -> None:
    ann = club["Ann"]
    tables = []
    for _number in range(2):
        table, tokens = _match(club, 1)
        resign_when_able(ann, table, tokens, loser=1)
        tables.append(table)
    hub = _hub(ann)
    finished = [hub.get(table) for table in tables]
    threads = [threading.Thread(target=rate_finished_table, args=(hub.store, table)) for table in finished]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert _rating(ann, "Ann")["matches"] == 2
    first, second = sorted((rate_finished_table(hub.store, table) for table in finished), key=_before)
    assert first.winner_after == second.winner_before  # the later was worked out on the earlier's rating
    assert _rating(ann, "Ann")["rating"] == pytest.approx(second.winner_after)


def _before(row: RatedMatchRow | None) -> float:
    assert row is not None
    return row.winner_before
