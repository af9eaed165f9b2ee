"""Group commit: the writes of tables arriving together share a transaction, and each is answered only
once it is committed; one write's refusal or error is its own."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Connection

import tavola.web.commits
from tavola.web.commits import GroupCommit, RefusedWriteError
from tavola.web.storage import MovedOnError, Store, open_database


@pytest.fixture
def engine(tmp_path: Path):  # type: ignore[no-untyped-def]
    engine = create_engine(f"sqlite:///{tmp_path / 'commits.sqlite3'}")
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE written (key INTEGER PRIMARY KEY)"))
    yield engine
    engine.dispose()


def _insert(key: int):  # type: ignore[no-untyped-def]
    def write(connection: Connection) -> int:
        connection.execute(text("INSERT INTO written (key) VALUES (:key)"), {"key": key})
        return key

    return write


def _keys(engine) -> list[int]:  # type: ignore[no-untyped-def]
    with engine.connect() as connection:
        return [row[0] for row in connection.execute(text("SELECT key FROM written ORDER BY key"))]


def test_writes_arriving_together_share_transactions_and_each_is_committed_when_answered(engine) -> None:  # type: ignore[no-untyped-def]
    commits = GroupCommit(engine)
    answered: list[int] = []
    seen_committed: list[bool] = []
    lock = threading.Lock()

    def writer(first: int) -> None:
        for key in range(first, first + 20):
            assert commits.write(_insert(key)) == key
            committed = key in _keys(engine)  # read on another connection: it is on the disk
            with lock:
                answered.append(key)
                seen_committed.append(committed)

    threads = [threading.Thread(target=writer, args=(100 * number,)) for number in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    commits.close()
    assert sorted(answered) == _keys(engine)
    assert len(answered) == 320
    assert all(seen_committed)
    assert commits.writes == 320
    assert commits.transactions < commits.writes  # some writes waited together


def test_writes_coming_close_together_are_gathered_and_a_lone_one_is_not_held(  # type: ignore[no-untyped-def]
    engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tavola.web.commits, "GATHER_SECONDS", 0.3)
    commits = GroupCommit(engine)
    began = time.monotonic()
    commits.write(_insert(1))  # the first write: none came before, so none is waited for
    assert time.monotonic() - began < 0.25
    for key in range(2, 12):  # writes a few milliseconds apart: they come closer together than 0.3 s
        threading.Thread(target=commits.write, args=(_insert(key),)).start()
        time.sleep(0.005)
    commits.write(_insert(12))
    commits.close()
    assert _keys(engine) == list(range(1, 13))
    assert commits.transactions <= 4  # gathered, where one each would have been twelve


def test_a_refused_write_leaves_the_others_of_its_transaction_alone(engine) -> None:  # type: ignore[no-untyped-def]
    commits = GroupCommit(engine)

    def refused(connection: Connection) -> None:
        raise RefusedWriteError("not at this revision")

    outcomes: dict[int, object] = {}
    barrier = threading.Barrier(9)

    def write(number: int) -> None:
        barrier.wait()
        try:
            outcomes[number] = commits.write(refused if number == 4 else _insert(number))
        except RefusedWriteError as error:
            outcomes[number] = error

    threads = [threading.Thread(target=write, args=(number,)) for number in range(9)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    commits.close()
    assert isinstance(outcomes.pop(4), RefusedWriteError)
    assert outcomes == {number: number for number in range(9) if number != 4}
    assert _keys(engine) == [number for number in range(9) if number != 4]


def test_a_failing_write_fails_alone_its_transaction_is_tried_again_one_write_at_a_time(engine) -> None:  # type: ignore[no-untyped-def]
    commits = GroupCommit(engine)
    assert commits.write(_insert(7)) == 7
    outcomes: dict[int, object] = {}
    barrier = threading.Barrier(6)

    def write(number: int) -> None:
        barrier.wait()
        try:
            outcomes[number] = commits.write(_insert(7 if number == 3 else number + 10))  # 7: stored already
        except Exception as error:
            outcomes[number] = error

    threads = [threading.Thread(target=write, args=(number,)) for number in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    commits.close()
    assert "UNIQUE" in str(outcomes.pop(3))
    assert outcomes == {number: number + 10 for number in range(6) if number != 3}
    assert _keys(engine) == [7, 10, 11, 12, 14, 15]


def test_an_action_written_at_an_old_revision_changes_nothing(tmp_path: Path) -> None:
    store = Store(open_database(f"sqlite:///{tmp_path / 'server.sqlite3'}"))
    store.create_table("t1", "game", {"kind": "game"}, "00" * 32, [("Ann", None), ("Bob", None)])
    assert store.append_action("t1", 0, 0, {"action": "roll"}, revision=0) == 1
    with pytest.raises(MovedOnError):
        store.append_action("t1", 1, 1, {"action": "roll"}, revision=0)
    assert [row.action for row in store.actions("t1")] == [{"action": "roll"}]
    assert store.revision("t1") == 1
    store.close()
