"""The server load benchmark (``benchmarks/server_load.py``) in tiny runs of each of its modes, and how it
counts what went wrong."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import server_load  # noqa: E402
from server_load import MATCH, Decision, LoadReport, Run, check, run_capacity, run_load, run_money  # noqa: E402
from tavola.web.storage import Store, open_database  # noqa: E402


def test_games_played_through_a_kill_9_lose_and_duplicate_no_action(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    report = run_load(games=4, seconds=4.0, kill_at=2.0, database=database, seed=7)
    assert report.acknowledged > 40
    assert report.restart is not None
    assert report.recovery is not None  # an action was acknowledged after the restart
    assert report.stored >= report.acknowledged
    assert len(report.latencies) + report.recovered == report.acknowledged
    assert (report.lost, report.duplicated, report.diverged) == (0, 0, 0)
    assert report.errors == []
    assert (report.workers, report.database) == (1, "SQLite")


def test_games_on_postgresql_through_a_kill_9_lose_and_duplicate_no_action(postgresql: str) -> None:
    pytest.importorskip("psycopg", reason="PostgreSQL needs psycopg (pip install 'tavola[postgresql]')")
    report = run_load(games=3, seconds=4.0, kill_at=2.0, database=postgresql, seed=7, workers=1)
    assert (report.workers, report.database) == (1, "PostgreSQL")
    assert report.acknowledged > 20
    assert report.recovery is not None
    assert report.sound, (report.lost, report.duplicated, report.diverged, report.errors)


def test_games_on_servers_started_apart_each_table_on_one_lose_and_duplicate_no_action(
    tmp_path: Path,
) -> None:
    """``--servers 2``: two ``tavola serve --shared`` on one SQLite file, each game's requests sent to one
    of them by its table's id, and both killed and started again in the middle."""
    database = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    report = run_load(games=6, seconds=4.0, kill_at=2.0, database=database, seed=7, servers=2)
    assert (report.workers, report.apart, report.database) == (2, True, "SQLite")
    assert report.acknowledged > 40
    assert report.recovery is not None
    assert report.sound, (report.lost, report.duplicated, report.diverged, report.errors)


def test_the_games_held_are_searched_by_doubling_then_halving_the_gap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def held_up_to_300(games: int, *args: object, **kwargs: object) -> LoadReport:
        latency = 0.05 if games <= 300 else 0.5
        return LoadReport(games, 1.0, games, 0, 1, 1, 1, [latency], 0, {}, 0, 0, 0, [], 0.0, None, None)

    monkeypatch.setattr(server_load, "run_load", held_up_to_300)
    report = run_capacity(start=200, most=1600, steps=8)
    assert [step.games for step in report.steps] == [200, 400, 300, 350, 325]
    assert report.most_held == 300
    assert [step.games for step in run_capacity(start=200, most=1600, steps=3).steps] == [200, 400, 300]
    assert [step.games for step in run_capacity(start=1000, most=1600, steps=3).steps] == [1000, 500, 250]


def test_a_tiny_capacity_search_measures_each_step() -> None:
    report = run_capacity(
        start=2, most=4, steps=3, p99_under=10.0, seconds=2.0, think=0.2, seed=7, warm_up=0.5
    )
    assert [step.games for step in report.steps] == [2, 4]  # every step held: doubled up to the most
    assert report.most_held == 4
    for step in report.steps:
        assert step.warm_up == 0.5
        assert step.acknowledged > 5
        assert step.restart is None  # no kill
        assert 0 < step.latency(50) <= step.latency(99) < 10.0
        assert step.sound


def test_a_money_session_measures_its_messages_at_the_10th_action_and_at_the_last() -> None:
    report = run_money(actions=60, seed=7)
    assert [mark.action for mark in report.marks] == [10, 60]
    for mark in report.marks:
        assert mark.shown is not None
        version, size = mark.shown
        assert version >= mark.action
        assert size > 0
        assert mark.player_bytes > 0
        assert 0 < mark.latency < 5.0
    assert report.load.stored >= 60
    assert report.games >= 1
    assert report.load.sound, (report.load.lost, report.load.duplicated, report.load.diverged)


def test_the_examples_in_the_benchmark_hold() -> None:
    import doctest

    assert doctest.testmod(server_load).failed == 0


def _decision(version: int, seat: int, action: dict[str, Any], *, sends: int = 1) -> Decision:
    return Decision("t", seat, version, action, sent=0.0, connection=1, sends=sends, acknowledged=1.0)


def test_the_check_counts_lost_duplicated_and_diverged(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    store = Store(open_database(database))
    store.create_table("t", "game", MATCH, "00" * 32, [("Ann", None), ("Bob", None)])
    move, roll, commit = {"action": "move", "moves": "24/18"}, {"action": "roll"}, {"action": "commit"}
    stored = [
        (0, move),  # chosen at 0
        (0, move),  # chosen at no version: no table moves checkers by itself
        (0, roll),  # a forced roll: chosen by no one
        (1, roll),  # chosen at 3, sent twice
        (1, roll),  # the same again, where the table would not roll for its seat
        (None, {"action": "start_game"}),  # the table's own
    ]
    for number, (seat, action) in enumerate(stored):
        store.append_action("t", number, seat, action, revision=number)
    run = Run("http://127.0.0.1:1", seed=0, deadline=0.0, tables=["t"])
    run.decisions = [_decision(0, 0, move), _decision(3, 1, roll, sends=2), _decision(6, 0, commit)]
    run.seen["t"] = [{"seat": 0, **move}, {"seat": 0, **roll}]
    lost, duplicated, diverged, count, measured = check(run, database)
    assert (lost, duplicated, diverged, count, measured) == (1, 2, 1, 6, 6)  # all in the default window
    run.decisions = run.decisions[:2]
    run.seen["t"] = [{"seat": 0, **move}, {"seat": 0, **move}]
    assert check(run, database) == (0, 2, 0, 6, 6)
    run.window = (time.time() + 60, time.time() + 120)  # a measured time after them all
    assert check(run, database)[4] == 0


def test_the_hints_benchmark_reads_another_table_while_hints_are_asked(tmp_path: Path) -> None:
    import asyncio

    from server_hints import measure
    from server_load import ServerProcess, free_port

    server = ServerProcess(f"sqlite:///{tmp_path / 'server.sqlite3'}", free_port(), tmp_path / "server.log")
    server.start()
    try:
        asyncio.run(server.ready())
        reads, answers = measure(server.url, clients=2, seconds=1.5)
    finally:
        server.stop()
    assert len(reads) >= 5
    assert reads == sorted(reads)
    assert answers[200] >= 2  # each person's first hints are given
    assert set(answers) <= {200, 429}
