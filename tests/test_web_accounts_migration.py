"""Migration 0003 (accounts, sessions, seats' accounts, ratings): from a database of 0002 holding tables, up
and back down with nothing of the tables lost, the schema the models describe; on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")
pytest.importorskip("argon2", reason="accounts need argon2-cffi (pip install 'tavola[web]')")

from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlalchemy.engine import Engine

import tavola.web.ratings  # its models join the metadata compared, as do those below
import tavola.web.seeks
import tavola.web.table_figures
import tavola.web.tournament_rows  # noqa: F401 - its models join the metadata compared
from tavola.web.accounts import Accounts
from tavola.web.storage import MIGRATIONS, Base, Store, migrate, open_database

pytestmark = pytest.mark.timeout(120)

NEW = {"tavola_accounts", "tavola_sessions", "tavola_seat_accounts", "tavola_ratings", "tavola_rated_matches"}


def _head() -> str | None:
    """The latest revision the migrations reach."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(config).get_current_head()


def _revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def _differences(engine: Engine) -> list[object]:
    with engine.connect() as connection:
        return list(compare_metadata(MigrationContext.configure(connection), Base.metadata))


def test_0003_and_later_go_up_from_0002_and_back_down_keeping_the_tables(url: str) -> None:
    engine = open_database(url, migrated=False)
    migrate(engine, "0002")
    store = Store(engine)
    store.create_table("t1", "game", {"kind": "game"}, "00" * 32, [("Ann", None), (None, "expert")])
    store.append_action("t1", 0, 0, {"action": "roll"}, revision=0)
    assert not NEW & set(inspect(engine).get_table_names())

    migrate(engine)
    assert _revision(engine) == _head()
    assert set(inspect(engine).get_table_names()) >= NEW
    assert _differences(engine) == []  # the migration makes what the models describe
    accounts = Accounts(store)
    ann = accounts.sign_up("Ann", "correct horse battery")
    accounts.link_seat("t1", 0, ann.id)
    assert [(table.id, seat) for table, seat in accounts.seats_of(ann.id)] == [("t1", 0)]

    migrate(engine, "0002", down=True)
    assert _revision(engine) == "0002"
    assert not NEW & set(inspect(engine).get_table_names())
    assert [row.action for row in store.actions("t1")] == [{"action": "roll"}]
    assert [seat.name for seat in store.seats("t1")] == ["Ann", None]

    migrate(engine)
    assert _revision(engine) == _head()
    assert Accounts(store).find("ann") is None  # the accounts went with the downgrade
    store.close()
