"""A damaged SQLite database is refused at start, with a message naming the file, and never served."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy", reason="the web server needs the web extra (pip install 'tavola[web]')")

from tavola.web.integrity import DatabaseDamagedError, check_sqlite_file
from tavola.web.storage import Store, open_database

TABLES = 30
ACTIONS = 60
LOGGED = 3
"""Tables written to a database's log and not copied back into it."""
PAGE = 4096  # SQLite's default page size, which the server's databases have


def _fill(store: Store, first: int, count: int) -> None:
    for number in range(first, first + count):
        table = f"t{number:04d}"
        store.create_table(table, "game", {"kind": "game"}, "00" * 32, [("Ann", None), (None, "expert")])
        for index in range(ACTIONS):
            store.append_action(
                table, index, index % 2, {"action": "play", "play": "13/11 13/8"}, revision=index
            )


@pytest.fixture(scope="module")
def healthy_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A server database of many pages, closed (its log copied into it)."""
    path = tmp_path_factory.mktemp("healthy") / "server.sqlite3"
    engine = open_database(f"sqlite:///{path}")
    store = Store(engine)
    _fill(store, 0, TABLES)
    store.close()  # the writes' connection closed, then the others
    engine.dispose()
    assert not path.with_name(path.name + "-wal").exists()
    assert path.stat().st_size // PAGE > 50
    return path


@pytest.fixture
def database(healthy_database: Path, tmp_path: Path) -> Path:
    """A copy of the healthy database, for a test to damage."""
    return Path(shutil.copy(healthy_database, tmp_path / "server.sqlite3"))


@pytest.fixture
def database_with_a_log(healthy_database: Path, tmp_path: Path) -> Iterator[Path]:
    """A healthy database whose log holds pages not yet copied into it, as a server killed at that
    moment leaves it: the database and its -wal file, copied while a connection writes to them."""
    working = tmp_path / "working"
    working.mkdir()
    path = Path(shutil.copy(healthy_database, working / "server.sqlite3"))
    engine = open_database(f"sqlite:///{path}")
    store = Store(engine)
    try:
        _fill(store, TABLES, LOGGED)  # under 1,000 pages: SQLite copies none of them back yet
        for suffix in ("", "-wal"):
            shutil.copy(working / f"server.sqlite3{suffix}", tmp_path / f"server.sqlite3{suffix}")
        yield tmp_path / "server.sqlite3"
    finally:
        store.close()
        engine.dispose()


def _files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.is_file()}


def _refusal(path: Path) -> DatabaseDamagedError:
    with pytest.raises(DatabaseDamagedError) as caught:
        check_sqlite_file(path)
    assert str(path) in str(caught.value)
    assert "Restore it from a backup, or move it aside" in str(caught.value)
    return caught.value


def test_a_healthy_database_passes_and_nothing_is_created_or_changed(database: Path) -> None:
    before = _files(database.parent)
    check_sqlite_file(database)
    assert _files(database.parent) == before  # no -wal nor -shm file made, the database untouched


def _tables_in_the_file_alone(path: Path) -> int:
    connection = sqlite3.connect(path.resolve().as_uri() + "?mode=ro&immutable=1", uri=True)  # no log read
    try:
        return int(connection.execute("SELECT count(*) FROM tavola_tables").fetchone()[0])
    finally:
        connection.close()


def test_a_healthy_database_whose_log_is_not_copied_back_passes(database_with_a_log: Path) -> None:
    assert database_with_a_log.with_name("server.sqlite3-wal").stat().st_size > 100 * PAGE
    assert _tables_in_the_file_alone(database_with_a_log) == TABLES  # the newest tables are in the log only
    before = _files(database_with_a_log.parent)
    check_sqlite_file(database_with_a_log)
    after = _files(database_with_a_log.parent)
    assert {name: after[name] for name in before} == before  # only SQLite's -shm index may be made
    engine = open_database(f"sqlite:///{database_with_a_log}")
    try:
        assert len(Store(engine).tables()) == TABLES + LOGGED
    finally:
        engine.dispose()


def test_a_missing_file_is_no_damage(tmp_path: Path) -> None:
    check_sqlite_file(tmp_path / "server.sqlite3")
    assert not (tmp_path / "server.sqlite3").exists()


def test_an_empty_file_is_refused_and_left_empty(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    path.touch()
    assert _refusal(path).problem == "the file is empty (0 bytes)"
    assert path.stat().st_size == 0
    assert [file.name for file in tmp_path.iterdir()] == ["server.sqlite3"]


def test_a_database_cut_short_by_one_byte_is_refused(database: Path) -> None:
    size = database.stat().st_size
    with database.open("r+b") as file:
        file.truncate(size - 1)
    problem = _refusal(database).problem
    assert f"{size - 1} bytes, is not a whole number of its pages of {PAGE} bytes" in problem


def test_a_database_cut_short_by_a_page_is_refused(database: Path) -> None:
    size = database.stat().st_size
    with database.open("r+b") as file:
        file.truncate(size - PAGE)
    problem = _refusal(database).problem
    assert f"it holds {size - PAGE} bytes, but its header counts {size // PAGE} pages" in problem


def test_a_database_added_to_is_refused(database: Path) -> None:
    with database.open("ab") as file:
        file.write(bytes(PAGE))
    assert "it was cut short or added to" in _refusal(database).problem


@pytest.mark.parametrize("where", [0.05, 0.3, 0.5, 1.0])
def test_a_page_of_zeros_in_a_database_is_refused(database: Path, where: float) -> None:
    last = database.stat().st_size // PAGE - 1
    with database.open("r+b") as file:
        file.seek(round(where * last) * PAGE)
        file.write(bytes(PAGE))
    problem = _refusal(database).problem
    # SQLite's check lists the page (a leaf of the actions' table), or stops on the damage it meets
    assert "btreeInitPage() returns error code 11" in problem or "malformed" in problem


def test_a_page_of_zeros_in_a_database_with_a_log_is_refused(database_with_a_log: Path) -> None:
    with database_with_a_log.open("r+b") as file:  # a page the log does not hold: the first tables' actions
        file.seek(10 * PAGE)
        file.write(bytes(PAGE))
    assert "malformed" in _refusal(database_with_a_log).problem


def test_a_text_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    path.write_text("name,score\nAnn,3\nBen,1\n", encoding="utf-8")
    assert "not a SQLite database" in _refusal(path).problem


def test_a_file_cut_inside_the_header_is_refused(database: Path) -> None:
    with database.open("r+b") as file:
        file.truncate(40)
    assert "cut short: 40 bytes" in _refusal(database).problem


def test_a_header_without_a_valid_page_size_is_refused(database: Path) -> None:
    with database.open("r+b") as file:
        file.seek(16)
        file.write((3000).to_bytes(2, "big"))
    assert "3000 is no page size" in _refusal(database).problem


def test_open_database_refuses_a_damaged_file_before_changing_it(database: Path) -> None:
    with database.open("r+b") as file:
        file.truncate(database.stat().st_size - PAGE)
    before = _files(database.parent)
    with pytest.raises(DatabaseDamagedError):
        open_database(f"sqlite:///{database}")
    assert _files(database.parent) == before


def test_tavola_serve_refuses_a_damaged_database_naming_it_without_a_traceback(database: Path) -> None:
    from web_helpers import serve_to_the_end

    with database.open("r+b") as file:
        file.truncate(database.stat().st_size - 1)
    finished = serve_to_the_end(database, timeout=60)
    assert finished.returncode == 2
    assert f"tavola serve: the database {database} is damaged" in finished.stderr
    assert "Restore it from a backup" in finished.stderr
    assert "Traceback" not in finished.stderr


def test_tavola_serve_refuses_an_empty_file_where_its_database_was(tmp_path: Path) -> None:
    from web_helpers import serve_to_the_end

    path = tmp_path / "server.sqlite3"
    path.touch()
    finished = serve_to_the_end(path, timeout=60)
    assert finished.returncode == 2
    assert str(path) in finished.stderr
    assert "empty (0 bytes)" in finished.stderr
    assert "Traceback" not in finished.stderr
    assert path.stat().st_size == 0


def test_tavola_serve_says_why_it_cannot_read_a_folder_where_its_database_should_be(tmp_path: Path) -> None:
    from web_helpers import serve_to_the_end

    path = tmp_path / "server.sqlite3"
    path.mkdir()
    finished = serve_to_the_end(path, timeout=60)
    assert finished.returncode == 2
    assert f"tavola serve: {path}: Is a directory" in finished.stderr
    assert "Traceback" not in finished.stderr
