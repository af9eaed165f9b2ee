"""The server's database: migrations from empty and back, SQLite and PostgreSQL."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")

from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect

from tavola.web.app import create_app
from tavola.web.limits import RateLimits
from tavola.web.storage import LEASE_SECONDS, MIGRATIONS, Store, migrate, open_database
from web_helpers import create, play_on, sit, state

TABLES = {"tavola_tables", "tavola_seats", "tavola_actions", "tavola_chat"}


def _head() -> str:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


def _revision(engine) -> str | None:  # type: ignore[no-untyped-def]
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def test_a_fresh_database_and_an_old_one_reach_the_latest_schema(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    engine = open_database(url)
    assert _revision(engine) == _head()
    assert set(inspect(engine).get_table_names()) >= TABLES
    migrate(engine, "base", down=True)
    assert _revision(engine) is None
    assert not TABLES & set(inspect(engine).get_table_names())
    again = open_database(url)
    assert _revision(again) == _head()
    assert set(inspect(again).get_table_names()) >= TABLES
    open_database(url)  # at the latest already: nothing to do, nothing lost
    assert _revision(again) == _head()


def test_the_default_database_is_in_tavolas_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tavola.files import data_file
    from tavola.web.storage import default_database_url

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_database_url() == f"sqlite:///{tmp_path / 'tavola' / 'server.sqlite3'}"
    assert data_file("server.sqlite3").parent == data_file("autosave.json").parent
    open_database(default_database_url())
    assert (tmp_path / "tavola" / "server.sqlite3").is_file()


# --- PostgreSQL -------------------------------------------------------------------------------


def test_postgresql_round_trip(postgresql: str) -> None:
    pytest.importorskip("psycopg", reason="PostgreSQL needs psycopg (pip install 'tavola[postgresql]')")
    limits = RateLimits(capacity=1e9, per_second=1e9)
    with TestClient(create_app(open_database(postgresql), posts=limits)) as client:
        table = create(client, {"kind": "game", "series": "match", "length": 3, "seats": [{}, {}]})
        tokens = {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Bob")}
        play_on(client, table, tokens, lambda seen: seen["version"] > 20)
        said = client.post(
            f"/api/tables/{table}/chat",
            json={"text": "ciao"},
            headers={"Authorization": f"Bearer {tokens[0]}"},
        )
        assert said.status_code == 200
        before = state(client, table, tokens[1])
    engine = create_engine(postgresql.replace("postgresql://", "postgresql+psycopg://"))
    assert _revision(engine) == _head()
    with TestClient(create_app(open_database(postgresql), posts=limits)) as client:
        assert state(client, table, tokens[1]) == before
        assert client.get(f"/api/tables/{table}/chat").json()["messages"][0]["text"] == "ciao"
        play_on(client, table, tokens, lambda seen: seen["version"] > before["version"] + 5)


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_a_database_holding_play_goes_down_to_one_process_and_up_again(
    tmp_path: Path, database: str, request: pytest.FixtureRequest
) -> None:
    url = (
        f"sqlite:///{tmp_path / 'old.sqlite3'}"
        if database == "sqlite"
        else request.getfixturevalue("postgresql")
    )
    engine = open_database(url)
    store = Store(engine)
    store.create_table("t1", "game", {"kind": "game"}, "00" * 32, [("Ann", None), ("Bob", None)])
    for number in range(3):
        store.append_action("t1", number, number % 2, {"action": "roll"}, revision=number)
    store.close()
    migrate(engine, "0001", down=True)  # the schema of a server before several processes
    migrate(engine)
    again = Store(engine)
    assert again.revision("t1") == 3  # a table's revision counts its stored actions
    assert [row.number for row in again.actions("t1")] == [0, 1, 2]
    again.close()


@pytest.mark.parametrize("shared", [False, True], ids=["own", "shared"])
def test_actions_stored_by_sqlites_driver_are_the_rows_the_general_write_makes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared: bool
) -> None:
    """A SQLite file, a process's own or shared by several: an untimed table's actions are handed to the
    driver directly. Their rows, the table's revision, status and lease, and the event the other processes
    hear, are what the general write (a timed table's, or one with other writes) makes, read back the
    same; at a revision left behind nothing is written."""
    from sqlalchemy import text

    from tavola.web.storage import MovedOnError

    engine = open_database(f"sqlite:///{tmp_path / 'own.sqlite3'}")
    store = Store(engine, shared=shared)
    direct = store._append_on_sqlite
    handed: list[str] = []

    def counted(connection: object, table_id: str, *rest: object) -> int:
        handed.append(table_id)
        return direct(connection, table_id, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "_append_on_sqlite", counted)
    try:
        actions = [(0, {"action": "play", "play": "8/5 6/5", "note": "àé"}), (None, {"action": "roll"})]
        for table_id in ("direct", "general"):
            store.create_table(table_id, "game", {"kind": "game"}, "00" * 32, [("Ann", None), ("Bob", None)])
        also = [lambda connection: None]  # another write with the actions: the general way
        assert store.append_actions("direct", 0, actions, revision=0, status="finished") == 2
        assert store.append_actions("general", 0, actions, revision=0, status="finished", also=also) == 2
        with pytest.raises(MovedOnError):
            store.append_actions("direct", 2, [(1, {"action": "roll"})], revision=1)
        assert handed == ["direct", "direct"]  # the general write was the other table's
        with engine.connect() as connection:
            rows = {
                table_id: connection.execute(
                    text(
                        "SELECT number, seat, action, typeof(created), length(created) FROM tavola_actions"
                        " WHERE table_id = :table ORDER BY number"
                    ),
                    {"table": table_id},
                ).all()
                for table_id in ("direct", "general")
            }
            tables = {
                row[0]: row[1:]
                for row in connection.execute(
                    text(
                        "SELECT id, revision, status, holder, typeof(updated), length(updated) FROM tavola_tables"
                    )
                )
            }
        assert rows["direct"] == rows["general"]
        assert tables["direct"] == tables["general"] == (2, "finished", store.origin, "text", 26)
        read = {table_id: [(row.seat, row.action) for row in store.actions(table_id)] for table_id in rows}
        assert read["direct"] == read["general"] == actions
        lease = store.lease("direct")
        assert lease is not None
        assert lease[1:] == (store.origin, pytest.approx(LEASE_SECONDS, abs=5))
        with engine.connect() as connection:
            created = connection.execute(text("SELECT DISTINCT typeof(created) FROM tavola_events")).all()
        heard = Store(engine, shared=True).events_after(0)[1]  # as another process reads them
        events = {event.pop("table"): (origin, event) for _number, origin, event in heard}
        if shared:
            assert events["direct"] == events["general"]
            assert events["direct"] == (
                store.origin,
                {
                    "revision": 2,
                    "number": 0,
                    "actions": [list(action) for action in actions],
                    "status": "finished",
                },
            )
            assert created == [("real",)]
        else:
            assert events == {}
    finally:
        store.close()
        engine.dispose()


def test_a_listener_started_hears_what_is_said_right_after(request: pytest.FixtureRequest) -> None:
    """PostgreSQL: starting to hear the other processes returns once ``LISTEN`` is done, so that an event
    published the moment after is heard (a process never misses what follows its start)."""
    from tavola.web.events import Listener

    pytest.importorskip("psycopg", reason="PostgreSQL needs psycopg (pip install 'tavola[postgresql]')")
    engine = open_database(request.getfixturevalue("postgresql"))
    speaker, hearer = Store(engine, shared=True), Store(engine, shared=True)
    try:
        for attempt in range(5):
            heard: list[dict[str, object]] = []
            listener = Listener(hearer, heard.append, lambda: None)
            listener.start()
            try:
                speaker.publish({"table": f"t{attempt}"})
                deadline = time.monotonic() + 10
                while not heard and time.monotonic() < deadline:
                    time.sleep(0.01)
            finally:
                listener.stop()
            assert heard == [{"table": f"t{attempt}"}]
    finally:
        speaker.close()
        hearer.close()
        engine.dispose()


def test_a_sqlite_listener_decodes_only_the_events_of_the_tables_it_wants(tmp_path: Path) -> None:
    """A process hears only the tables its connections watch: the others' events are skipped undecoded,
    and read past, never read again."""
    from tavola.web.events import Listener

    engine = open_database(f"sqlite:///{tmp_path / 'shared.sqlite3'}")
    speaker, hearer = Store(engine, shared=True), Store(engine, shared=True)
    heard: list[dict[str, object]] = []
    listener = Listener(hearer, heard.append, lambda: None, wanted=lambda table: table == "watched")
    try:
        for number, table in enumerate(["watched", "other", "watched", "other"]):
            speaker.publish({"table": table, "number": number})
        listener.poll_once()
        assert heard == [{"table": "watched", "number": 0}, {"table": "watched", "number": 2}]
        newest, events = hearer.events_after(0)  # no table wanted: every one, decoded
        assert [event["number"] for _number, _origin, event in events] == [0, 1, 2, 3]
        assert hearer.events_after(newest, lambda table: True) == (newest, [])
        speaker.publish({"table": "other", "number": 4})
        listener.poll_once()
        assert len(heard) == 2
    finally:
        speaker.close()
        hearer.close()
        engine.dispose()


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_actions_stored_together_are_one_change_or_none(
    database: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """A person's action and the table's own after it: one write at the table's revision, the lease
    taken, one event published (on PostgreSQL one statement does it all); at a revision left behind
    nothing is written."""
    from tavola.web.events import Listener
    from tavola.web.storage import MovedOnError

    if database == "postgresql":
        pytest.importorskip("psycopg", reason="PostgreSQL needs psycopg (pip install 'tavola[postgresql]')")
    url = (
        f"sqlite:///{tmp_path / 'shared.sqlite3'}"
        if database == "sqlite"
        else request.getfixturevalue("postgresql")
    )
    engine = open_database(url)
    writer, hearer = Store(engine, shared=True), Store(engine, shared=True)
    heard: list[dict[str, object]] = []
    listener = Listener(hearer, heard.append, lambda: None)
    listener.start()
    try:
        writer.create_table("t9", "game", {"kind": "game"}, "00" * 32, [("Ann", None), ("Bob", None)])
        together = [(0, {"action": "play", "play": "8/5 6/5"}), (1, {"action": "roll"})]
        assert writer.append_actions("t9", 0, together, revision=0) == 2  # one more for each
        with pytest.raises(MovedOnError):  # another process's copy, still at revision 0
            writer.append_actions("t9", 2, [(1, {"action": "roll"})], revision=0)
        assert writer.revision("t9") == 2
        stored = [(row.number, row.seat, row.action) for row in writer.actions("t9")]
        assert stored == [(0, 0, together[0][1]), (1, 1, together[1][1])]
        lease = writer.lease("t9")
        assert lease is not None
        assert lease[1] == writer.origin
        deadline = time.monotonic() + 10
        while not any(event.get("actions") for event in heard) and time.monotonic() < deadline:
            time.sleep(0.05)
        (event,) = [event for event in heard if event.get("actions")]
        assert event["revision"] == 2
        assert event["number"] == 0
        assert event["actions"] == [[0, together[0][1]], [1, together[1][1]]]
    finally:
        listener.stop()
        writer.close()
        hearer.close()
        engine.dispose()


def test_processes_started_at_once_on_a_new_shared_sqlite_file_migrate_it_in_turn(tmp_path: Path) -> None:
    """``tavola serve --shared``, several started at the same moment on a file not made yet: each migrates
    it in its turn on the lock file beside it, and finds the others' work done (two migrations at once
    made the same table twice, and one of the servers failed to start)."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from tavola.web.storage import sqlite_lock_file

    for attempt in range(3):
        url = f"sqlite:///{tmp_path / f'shared{attempt}.sqlite3'}"
        together = threading.Barrier(3)

        def started(_number: int, url: str = url, together: threading.Barrier = together) -> Any:
            together.wait()
            return open_database(url, shared=True)

        with ThreadPoolExecutor(3) as starting:
            engines = list(starting.map(started, range(3)))
        store = Store(engines[0], shared=True)
        store.create_table("t1", "game", {"kind": "game"}, "00" * 32, [("Ann", None), ("Bob", None)])
        assert [row.id for row in Store(engines[2], shared=True).tables()] == ["t1"]
        assert sqlite_lock_file(engines[0]) == tmp_path / f"shared{attempt}.sqlite3.lock"
        store.close()
        for engine in engines:
            engine.dispose()
