"""Where the server keeps its tables: SQLite or PostgreSQL through SQLAlchemy, migrated by Alembic.

Six tables: ``tavola_tables`` (a table's options, status, the secret
of its verifiable dice, its revision and the lease on its own actions),
``tavola_clocks`` (a timed table's clocks, written with each action),
``tavola_seats`` (who sits where, with a hash of the seat's token, never the
token), ``tavola_actions`` (every action done at a table, numbered from 0,
as :mod:`tavola.web.actions` writes it), ``tavola_chat`` and
``tavola_events`` (what changed, for the other processes of a SQLite
database). Each write is one transaction, committed before the server tells
anyone of it; :func:`open_database` brings any database to the latest
schema first (:mod:`tavola.web.migrations`).

Several processes may serve one database. Every change of a table is
written at the table's revision the writer knows, and bumps it: a writer
that is behind is refused with :class:`MovedOnError` and changes nothing,
so a table is changed by one process at a time. The process that writes a
table's action holds the table's lease for :data:`LEASE_SECONDS`: the
table's own actions (the bots' turns, forced plays) are made by the lease's
holder, or by another once the lease has run out.

>>> store = Store(open_database("sqlite://"))
>>> store.create_table("t1", "game", {"kind": "game"}, "00" * 32, [("Ann", None), (None, "expert")])
>>> store.append_action("t1", 0, 0, {"action": "roll"}, revision=0)
1
>>> [row.action for row in store.actions("t1")]
[{'action': 'roll'}]
>>> store.append_action("t1", 1, 1, {"action": "roll"}, revision=0)
Traceback (most recent call last):
...
tavola.web.storage.MovedOnError: table t1 is no longer at revision 0
"""

from __future__ import annotations

import contextlib
import datetime
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    literal,
    or_,
    select,
    text,
    type_coerce,
    update,
)
from sqlalchemy.engine import Connection, Dialect, Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from tavola.schema import json_text
from tavola.web.commits import GroupCommit, RefusedWriteError, exclusive
from tavola.web.integrity import check_sqlite_file

__all__ = [
    "CHANNEL",
    "LEASE_SECONDS",
    "ActionRow",
    "Base",
    "ChatRow",
    "ClockRow",
    "EventRow",
    "MovedOnError",
    "SeatRow",
    "Store",
    "TableRow",
    "default_database_url",
    "migrate",
    "open_database",
    "sqlite_lock_file",
]

MIGRATIONS = Path(__file__).parent / "migrations"

POOLED = 40
"""Connections a server process keeps open to its database (and as many more at a busy moment)."""

LEASE_SECONDS = 10.0
"""How long the process that last wrote a table's action holds the lease on the table's own actions."""

CHANNEL = "tavola_events"
"""PostgreSQL's ``NOTIFY`` channel of the events (:meth:`Store.publish`)."""

EVENTS_KEPT_SECONDS = 120.0
"""How long a SQLite database keeps an event for the processes that poll it."""

_MIGRATION_LOCK = 7_024_417_305
"""The PostgreSQL advisory lock that lets one server at a time migrate a database."""


class MovedOnError(RefusedWriteError):
    """A table changed by another process since this one read it: nothing was written."""


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


class Base(DeclarativeBase):
    """The server's tables."""


class TableRow(Base):
    __tablename__ = "tavola_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)
    secret: Mapped[str] = mapped_column(String(128))
    revision: Mapped[int] = mapped_column(Integer, default=0)
    """How many changes the table has had: seats taken, actions, its status."""
    holder: Mapped[str | None] = mapped_column(String(64))
    """The process holding the lease on the table's own actions, until ``held_until`` (Unix time)."""
    held_until: Mapped[float | None] = mapped_column(Float)
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=_now, onupdate=_now)


class SeatRow(Base):
    __tablename__ = "tavola_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tavola_tables.id"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str | None] = mapped_column(String(64))
    bot: Mapped[str | None] = mapped_column(String(32))
    token_hash: Mapped[str | None] = mapped_column(String(64))


class ActionRow(Base):
    __tablename__ = "tavola_actions"

    table_id: Mapped[str] = mapped_column(ForeignKey("tavola_tables.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=_now)


class ClockRow(Base):
    """A timed table's clocks after its action ``number`` (:meth:`tavola.web.clocks.Clock.to_json`): each
    bank, whose turn runs and since when; written with that action, in its transaction."""

    __tablename__ = "tavola_clocks"

    table_id: Mapped[str] = mapped_column(ForeignKey("tavola_tables.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer)
    clock: Mapped[dict[str, Any]] = mapped_column(JSON)


class ChatRow(Base):
    __tablename__ = "tavola_chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tavola_tables.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=_now)


class EventRow(Base):
    """What changed, for the processes polling a SQLite database (PostgreSQL notifies them instead)."""

    __tablename__ = "tavola_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    origin: Mapped[str] = mapped_column(String(64))
    event: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[float] = mapped_column(Float)


TABLES: Table = TableRow.__table__  # type: ignore[assignment]
SEATS: Table = SeatRow.__table__  # type: ignore[assignment]
ACTIONS: Table = ActionRow.__table__  # type: ignore[assignment]
EVENTS: Table = EventRow.__table__  # type: ignore[assignment]
CLOCKS: Table = ClockRow.__table__  # type: ignore[assignment]
CHAT: Table = ChatRow.__table__  # type: ignore[assignment]

# The statements of every action's write, made once: their values come as parameters (building each
# statement anew for every action showed in the server's profile).
_BUMP = update(TABLES).where(
    TABLES.c.id == bindparam("b_table"), TABLES.c.revision == bindparam("b_revision")
)
_BUMP_LEASED_ON_SERVER_CLOCK = _BUMP.values(
    holder=bindparam("b_holder"), held_until=func.extract("epoch", func.clock_timestamp()) + LEASE_SECONDS
)
"""A bump that takes the lease until the database's clock says so (PostgreSQL: every machine shares it)."""
_NOTIFY = select(func.pg_notify(CHANNEL, bindparam("payload")))
_INSERT_ACTION = insert(ACTIONS)
_SQLITE_BUMP = (
    f"UPDATE {TABLES.name} SET revision = ?, updated = ?, holder = ?, held_until = ?"
    " WHERE id = ? AND revision = ?"
)
_SQLITE_BUMP_STATUS = _SQLITE_BUMP.replace("held_until = ?", "held_until = ?, status = ?")
_SQLITE_INSERT_ACTIONS = (
    f"INSERT INTO {ACTIONS.name} (table_id, number, seat, action, created) VALUES (?, ?, ?, ?, ?)"
)
_SQLITE_INSERT_EVENT = f"INSERT INTO {EVENTS.name} (origin, event, created) VALUES (?, ?, ?)"
"""The statements of :meth:`Store._append_on_sqlite`, for SQLite's driver."""


class _SqliteValues:
    """The values of an action's row as SQLAlchemy's column types write them to SQLite: a moment's text and
    an action's JSON exactly as the other writes and the reads have them."""

    def __init__(self, dialect: Dialect) -> None:
        self._created = ACTIONS.c.created.type.dialect_impl(dialect).bind_processor(dialect)
        self._action = ACTIONS.c.action.type.dialect_impl(dialect).bind_processor(dialect)
        self._event = EVENTS.c.event.type.dialect_impl(dialect).bind_processor(dialect)
        self._read_event = EVENTS.c.event.type.dialect_impl(dialect).result_processor(dialect, None)

    def created(self, moment: datetime.datetime) -> Any:
        return moment if self._created is None else self._created(moment)

    def action(self, action: dict[str, Any]) -> Any:
        return action if self._action is None else self._action(action)

    def event(self, event: dict[str, Any]) -> Any:
        return event if self._event is None else self._event(event)

    def read_event(self, stored: Any) -> dict[str, Any]:
        """An event as stored, read back as the column's type reads it."""
        event = stored if self._read_event is None else self._read_event(stored)
        assert isinstance(event, dict), "an event is a JSON object"
        return event


_APPEND_ON_POSTGRESQL = text(
    """
    WITH bumped AS (
        UPDATE tavola_tables
        SET revision = :after, updated = :created, status = COALESCE(:status, status), holder = :holder,
            held_until = extract(epoch FROM clock_timestamp()) + :lease
        WHERE id = :table_id AND revision = :revision
        RETURNING id
    ), inserted AS (
        INSERT INTO tavola_actions (table_id, number, seat, action, created)
        SELECT bumped.id, stored.number, stored.seat, stored.action, :created
        FROM bumped,
            json_to_recordset(CAST(:rows AS json)) AS stored(number integer, seat integer, action json)
        RETURNING 1
    )
    SELECT (SELECT count(*) FROM inserted) AS stored, pg_notify(:channel, :payload) FROM bumped
    """
)
"""An action's write on PostgreSQL as one statement, one round trip: the table's revision bumped with its
lease (on the database's clock), the actions inserted and the other processes notified, all only where
the table is still at the revision the writer knows (no row comes back otherwise)."""
_REVISION = select(TABLES.c.revision).where(TABLES.c.id == bindparam("table_id"))
_LAST_EVENT = select(func.max(EVENTS.c.id))
_EVENTS_AFTER = (
    select(
        EVENTS.c.id,
        EVENTS.c.origin,
        func.json_extract(EVENTS.c.event, "$.table").label("table"),
        type_coerce(EVENTS.c.event, Text).label("text"),  # decoded only where the table is wanted
    )
    .where(EVENTS.c.id > bindparam("last"), EVENTS.c.origin != bindparam("origin"))
    .order_by(EVENTS.c.id)
)
_INSERT_EVENT = insert(EVENTS)


def _stored_event(
    table_id: str,
    first: int,
    actions: Sequence[tuple[int | None, dict[str, Any]]],
    revision: int,
    clock: dict[str, Any] | None,
    status: str | None,
) -> dict[str, Any]:
    """What the other processes hear of actions stored together (:meth:`Store.append_actions`): the table,
    its revision after them, the first one's number, each its seat and JSON, and the clocks and the
    status where the write set them."""
    event: dict[str, Any] = {
        "table": table_id,
        "revision": revision,
        "number": first,
        "actions": [[seat, action] for seat, action in actions],
    }
    if clock is not None:
        event["clock"] = clock
    if status is not None:
        event["status"] = status
    return event


def default_database_url() -> str:
    """A SQLite file where Tavola keeps its data: ``$XDG_DATA_HOME/tavola/server.sqlite3``.

    >>> default_database_url().endswith("/tavola/server.sqlite3")
    True
    """
    from tavola.files import data_file

    return f"sqlite:///{data_file('server.sqlite3')}"


def open_database(url: str, *, migrated: bool = True, shared: bool = False) -> Engine:
    """An engine on the database at ``url``, migrated to the latest schema (a SQLite file's folder made);
    ``migrated=False`` leaves the schema as it is (a process started by one that migrated it). ``shared``:
    other processes started apart may open the same SQLite file at the same moment (``tavola serve
    --shared``), so the file is checked and migrated in this process's turn on the lock file beside it
    (:func:`sqlite_lock_file`): never while another has made it and not yet written it, nor migrated
    twice. On PostgreSQL the servers always migrate one after the other."""
    with contextlib.ExitStack() as turn:
        if url.startswith("sqlite:///") and len(url) > len("sqlite:///"):
            path = Path(url.removeprefix("sqlite:///"))
            path.parent.mkdir(parents=True, exist_ok=True)
            if shared:
                turn.enter_context(exclusive(_lock_file_of(str(path))))
            check_sqlite_file(path)  # a damaged file is refused, never served
        if url.startswith("postgresql://"):
            url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
        memory = url in ("sqlite://", "sqlite:///:memory:")
        # As many pooled connections as the server has threads that read at once (anyio's 40): a connection
        # made and closed for each read beyond the pool cost more than the read.
        engine = create_engine(url) if memory else create_engine(url, pool_size=POOLED, max_overflow=POOLED)
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _sqlite_pragmas)
        if migrated:
            migrate(engine)
        return engine


def sqlite_lock_file(engine: Engine) -> Path | None:
    """The file beside a SQLite database that the processes sharing it lock in turn, to write (None: not a
    SQLite file)."""
    database = engine.url.database
    if engine.dialect.name != "sqlite" or database in (None, "", ":memory:"):
        return None
    return _lock_file_of(database)


def _lock_file_of(database: str) -> Path:
    return Path(f"{database}.lock")


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")  # a commit is on the disk when it returns
    cursor.execute("PRAGMA busy_timeout=5000")  # another process's write is waited for, as long as Python's
    cursor.close()


def migrate(engine: Engine, revision: str = "head", *, down: bool = False) -> None:
    """Upgrade the database to ``revision`` (the latest by default) with Alembic; ``down``: downgrade
    to it (``"base"``: an empty database)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":  # servers started at once migrate one after the other
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, revision)


class Store:
    """Reading and writing the server's tables, one transaction a call.

    ``origin`` names this process in the leases and events (a fresh name by
    default); ``shared`` says whether other processes may serve the same
    database, and so whether each change is published to them
    (:meth:`publish`): by default on PostgreSQL, not on SQLite, where
    ``tavola serve --workers`` asks for it.
    """

    def __init__(self, engine: Engine, *, origin: str | None = None, shared: bool | None = None) -> None:
        self.engine = engine
        self.origin = origin or uuid.uuid4().hex[:12]
        self.shared = engine.dialect.name == "postgresql" if shared is None else shared
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self._commits = GroupCommit(engine, sqlite_lock_file(engine) if self.shared else None)
        self._sqlite_values = _SqliteValues(engine.dialect) if engine.dialect.name == "sqlite" else None
        """How an action's row (and its event, where other processes share the file) is written to
        SQLite's driver (:meth:`_append_on_sqlite`)."""

    def close(self) -> None:
        """Stop the thread committing the writes (:class:`~tavola.web.commits.GroupCommit`)."""
        self._commits.close()

    @property
    def notifies(self) -> bool:
        """Whether the database tells the other processes itself (PostgreSQL's ``NOTIFY``)."""
        return self.engine.dialect.name == "postgresql"

    def _session(self) -> Session:
        return self._sessions()

    def create_table(
        self,
        table_id: str,
        kind: str,
        options: dict[str, Any],
        secret: str,
        seats: Sequence[tuple[str | None, str | None]],
    ) -> None:
        """A new open table with its seats: (name, bot level) each; its revision is 0. Written by the
        group commit, as the actions are: a write from another connection would wait its turn for
        SQLite's lock in SQLite's own retries, which sleep, while the actions' commits follow each
        other (a table took seconds to make under load)."""

        def write(connection: Connection) -> None:
            connection.execute(
                insert(TABLES).values(
                    id=table_id, kind=kind, options=options, status="open", secret=secret, revision=0
                )
            )
            connection.execute(
                insert(SEATS),
                [
                    {"table_id": table_id, "index": index, "name": name, "bot": bot, "token_hash": None}
                    for index, (name, bot) in enumerate(seats)
                ],
            )

        self._commits.write(write, table_id)

    def take_seat(
        self,
        table_id: str,
        index: int,
        name: str,
        token_hash: str,
        *,
        revision: int,
        status: str | None = None,
    ) -> int:
        """Seat ``name`` at ``index`` with the hash of their token, and, in the same transaction, set the
        table's ``status`` when given (the last seat taken makes it live); the table's new revision."""

        def write(connection: Connection) -> int:
            self._bump(connection, table_id, revision, status=status)
            connection.execute(
                update(SEATS)
                .where(SEATS.c.table_id == table_id, SEATS.c.index == index)
                .values(name=name, token_hash=token_hash)
            )
            self._publish_in(connection, {"table": table_id})
            return revision + 1

        return self._commits.write(write, table_id)

    def set_status(self, table_id: str, status: str, *, revision: int) -> int:
        """Set the table's status (an action ending the table sets it with the action:
        :meth:`append_action`); its new revision."""

        def write(connection: Connection) -> int:
            self._bump(connection, table_id, revision, status=status)
            self._publish_in(connection, {"table": table_id})
            return revision + 1

        return self._commits.write(write, table_id)

    def append_action(
        self,
        table_id: str,
        number: int,
        seat: int | None,
        action: dict[str, Any],
        *,
        revision: int,
        clock: dict[str, Any] | None = None,
        status: str | None = None,
        also: Sequence[Callable[[Connection], None]] = (),
    ) -> int:
        """Store action ``number`` (from 0) of the table: :meth:`append_actions` of that one action."""
        return self.append_actions(
            table_id, number, [(seat, action)], revision=revision, clock=clock, status=status, also=also
        )

    def append_actions(
        self,
        table_id: str,
        first: int,
        actions: Sequence[tuple[int | None, dict[str, Any]]],
        *,
        revision: int,
        clock: dict[str, Any] | None = None,
        status: str | None = None,
        also: Sequence[Callable[[Connection], None]] = (),
    ) -> int:
        """Store the table's actions numbered from ``first`` (from 0), each its seat (None: the table's
        own) and its JSON, in one transaction at the table's ``revision``, with the table's ``clock``
        after the last where it is timed, and take the lease on the table's own actions; the table's
        new revision (one more for each action). :class:`MovedOnError` where the table is no longer at
        that revision (nothing is written); it fails too if one of those numbers is stored already. The
        other processes hear of them as one change.

        Actions that end the table come with its ``status`` (``finished``) and the writes ``also``
        that its end makes (a rated match's ratings, a tournament's record of the match's result): all
        are one transaction, the actions'.

        The write is committed with those of other tables waiting at the same time
        (:class:`~tavola.web.commits.GroupCommit`), and this returns once it is."""
        if not actions:
            raise ValueError("no actions to store")
        last = first + len(actions) - 1
        after = revision + len(actions)

        def write(connection: Connection) -> int:
            if clock is None and not also:  # an untimed table's actions, ending nothing else
                if self.shared and self.notifies:
                    return self._append_on_postgresql(connection, table_id, first, actions, revision, status)
                if self._sqlite_values is not None:
                    return self._append_on_sqlite(connection, table_id, first, actions, revision, status)
            self._bump(connection, table_id, revision, status=status, lease=True, steps=len(actions))
            created = _now()
            rows = [
                {"table_id": table_id, "number": number, "seat": seat, "action": action, "created": created}
                for number, (seat, action) in enumerate(actions, first)
            ]
            connection.execute(_INSERT_ACTION, rows)
            if clock is not None:
                values = {"number": last, "clock": clock}
                kept = connection.execute(
                    update(CLOCKS).where(CLOCKS.c.table_id == table_id).values(**values)
                )
                if kept.rowcount != 1:
                    connection.execute(insert(CLOCKS).values(table_id=table_id, **values))
            for more in also:
                more(connection)
            self._publish_in(connection, _stored_event(table_id, first, actions, after, clock, status))
            return after

        return self._commits.write(write, table_id)

    def _append_on_postgresql(
        self,
        connection: Connection,
        table_id: str,
        first: int,
        actions: Sequence[tuple[int | None, dict[str, Any]]],
        revision: int,
        status: str | None,
    ) -> int:
        """:meth:`append_actions` of an untimed table's actions that end nothing but the table (no
        other writes), on PostgreSQL, in one statement: a third of the round trips."""
        after = revision + len(actions)
        event = {"origin": self.origin, **_stored_event(table_id, first, actions, after, None, status)}
        rows = [
            {"number": number, "seat": seat, "action": action}
            for number, (seat, action) in enumerate(actions, first)
        ]
        done = connection.execute(
            _APPEND_ON_POSTGRESQL,
            {
                "after": after,
                "created": _now(),
                "status": status,
                "holder": self.origin,
                "lease": LEASE_SECONDS,
                "table_id": table_id,
                "revision": revision,
                "rows": json_text(rows),
                "channel": CHANNEL,
                "payload": json_text(event),
            },
        ).first()
        if done is None:
            raise MovedOnError(f"table {table_id} is no longer at revision {revision}")
        return after

    def _append_on_sqlite(
        self,
        connection: Connection,
        table_id: str,
        first: int,
        actions: Sequence[tuple[int | None, dict[str, Any]]],
        revision: int,
        status: str | None,
    ) -> int:
        """:meth:`append_actions` of an untimed table's actions that end nothing but the table, in a SQLite
        file: the bump and the inserts (the event too, where other processes share the file) handed to
        the driver directly, their values made by the columns' own types. SQLAlchemy's making of each
        statement's execution cost more than SQLite's work (a tenth of the server's time under load)."""
        after = revision + len(actions)
        values = self._sqlite_values
        assert values is not None
        created = values.created(_now())
        bump = [after, created, self.origin, time.time() + LEASE_SECONDS]
        if status is not None:
            bump.append(status)
        rows = [
            (table_id, number, seat, values.action(action), created)
            for number, (seat, action) in enumerate(actions, first)
        ]
        cursor = connection.connection.cursor()
        try:
            cursor.execute(
                _SQLITE_BUMP_STATUS if status is not None else _SQLITE_BUMP, (*bump, table_id, revision)
            )
            if cursor.rowcount != 1:
                raise MovedOnError(f"table {table_id} is no longer at revision {revision}")
            cursor.executemany(_SQLITE_INSERT_ACTIONS, rows)
            if self.shared:
                event = _stored_event(table_id, first, actions, after, None, status)
                cursor.execute(_SQLITE_INSERT_EVENT, (self.origin, values.event(event), time.time()))
        finally:
            cursor.close()
        return after

    def change_clock_in(
        self,
        connection: Connection,
        table_id: str,
        change: Callable[[dict[str, Any] | None], dict[str, Any] | None],
    ) -> bool:
        """In the transaction of ``connection`` (another step's: a tournament paused), the table's clocks as
        stored (None: none stored yet, no action done) changed by ``change`` (which gives None to leave them
        as they are), written with the table's revision bumped and the change published; whether they
        changed. The table's row is locked before the clocks are read, so an action being stored meanwhile
        is waited for, and one stored after is refused at the revision it knew (:class:`MovedOnError`),
        read again with these clocks; a table finished meanwhile is left as it is (no clock runs there)."""
        found = connection.execute(
            select(TABLES.c.revision)
            .where(TABLES.c.id == table_id, TABLES.c.status.in_(("open", "live")))
            .with_for_update()
        ).one_or_none()
        if found is None:
            return False
        stored = connection.execute(
            select(CLOCKS.c.number, CLOCKS.c.clock).where(CLOCKS.c.table_id == table_id)
        ).one_or_none()
        clock = change(None if stored is None else stored.clock)
        if clock is None:
            return False
        revision = int(found.revision)
        self._bump(connection, table_id, revision)
        if stored is None:  # before the first action: the clocks the table starts with
            connection.execute(insert(CLOCKS).values(table_id=table_id, number=-1, clock=clock))
        else:
            connection.execute(update(CLOCKS).where(CLOCKS.c.table_id == table_id).values(clock=clock))
        self._publish_in(connection, {"table": table_id})
        return True

    def _bump(
        self,
        connection: Connection,
        table_id: str,
        revision: int,
        *,
        status: str | None = None,
        lease: bool = False,
        steps: int = 1,
    ) -> None:
        """Move the table from ``revision`` on by ``steps`` (taking the lease, setting the status where
        asked), or raise :class:`MovedOnError`. The row stays locked until the transaction ends."""
        values: dict[str, Any] = {"revision": revision + steps, "updated": _now()}
        if status is not None:
            values["status"] = status
        statement = _BUMP
        if lease and self.notifies:  # counted on the database's clock, which every machine shares
            statement = _BUMP_LEASED_ON_SERVER_CLOCK
            values["b_holder"] = self.origin
        elif lease:
            values.update(holder=self.origin, held_until=time.time() + LEASE_SECONDS)
        changed = connection.execute(statement, {"b_table": table_id, "b_revision": revision, **values})
        if changed.rowcount != 1:
            raise MovedOnError(f"table {table_id} is no longer at revision {revision}")

    def lease(self, table_id: str) -> tuple[int, str | None, float | None] | None:
        """The table's revision, who holds the lease on its own actions, and for how many more seconds
        (negative: it has run out; None: no such table)."""
        with self._session() as session:
            row = session.execute(
                select(TableRow.revision, TableRow.holder, TableRow.held_until - self._clock()).where(
                    TableRow.id == table_id
                )
            ).one_or_none()
            return None if row is None else (int(row[0]), row[1], None if row[2] is None else float(row[2]))

    def take_lease(self, table_id: str, revision: int) -> bool:
        """Take the lease on the table's own actions if the table is at ``revision`` and nobody else
        holds a lease that has not run out; whether it was taken."""
        now = self._clock()
        with self._session() as session, session.begin():
            taken = session.execute(
                update(TableRow)
                .where(
                    TableRow.id == table_id,
                    TableRow.revision == revision,
                    or_(
                        TableRow.holder.is_(None),
                        TableRow.holder == self.origin,
                        TableRow.held_until < now,
                    ),
                )
                .values(holder=self.origin, held_until=now + LEASE_SECONDS)
                .execution_options(synchronize_session=False)
            )
            return bool(taken.rowcount == 1)  # type: ignore[attr-defined]

    def _clock(self) -> Any:
        """Now, in seconds since 1970, as the leases count it: the database's own clock on PostgreSQL,
        which every machine serving it shares (on SQLite, every process is on one machine)."""
        if self.notifies:
            return func.extract("epoch", func.clock_timestamp())
        return literal(time.time())

    def append_chat(self, table_id: str, seat: int, text: str) -> ChatRow:
        """Store a chat message (by the group commit, as the actions are); the row stored."""
        created = _now()

        def write(connection: Connection) -> int:
            values = {"table_id": table_id, "seat": seat, "text": text, "created": created}
            stored = connection.execute(insert(CHAT).values(**values)).inserted_primary_key
            assert stored is not None  # an insert of one row
            return int(stored[0])

        number = self._commits.write(write, table_id)
        return ChatRow(id=number, table_id=table_id, seat=seat, text=text, created=created)

    def publish(self, event: dict[str, Any]) -> None:
        """Tell the other processes serving this database of ``event`` (a JSON object), in a transaction
        of its own; nothing where the database is not shared."""
        if self.shared:
            with self.engine.begin() as connection:
                self._publish_in(connection, event)

    def _publish_in(self, connection: Connection, event: dict[str, Any]) -> None:
        """Publish ``event`` with the transaction of ``connection``: the others hear of it once it
        commits."""
        if not self.shared:
            return
        if self.notifies:
            payload = json_text({"origin": self.origin, **event})
            connection.execute(_NOTIFY, {"payload": payload})
        else:
            connection.execute(_INSERT_EVENT, {"origin": self.origin, "event": event, "created": time.time()})

    def events_after(
        self, last: int, wanted: Callable[[str], bool] | None = None
    ) -> tuple[int, list[tuple[int, str, dict[str, Any]]]]:
        """The number of the last event read or stored (0: none), and the events the other processes
        stored after event ``last`` (SQLite), oldest first: each its number, origin and event (this
        process's own are never read). Where ``wanted`` is given, only the events of the tables it wants
        are decoded and returned (the table read from the stored text by SQLite): a process that serves
        some of the tables skips the others' at little cost. Read twenty times a second by every process:
        two statements made once, on one connection."""
        values = self._sqlite_values
        assert values is not None, "events are polled on SQLite only (PostgreSQL notifies)"
        with self.engine.connect() as connection:
            newest = int(connection.execute(_LAST_EVENT).scalar() or 0)
            if newest <= last:
                return newest, []
            rows = connection.execute(_EVENTS_AFTER, {"last": last, "origin": self.origin}).all()
        if rows:
            newest = max(newest, int(rows[-1].id))
        return newest, [
            (int(row.id), str(row.origin), values.read_event(row.text))
            for row in rows
            if wanted is None or (isinstance(row.table, str) and wanted(row.table))
        ]

    def last_event(self) -> int:
        """The number of the last event stored (0: none)."""
        with self.engine.connect() as connection:
            return int(connection.execute(_LAST_EVENT).scalar() or 0)

    def forget_events(self, older_than: float = EVENTS_KEPT_SECONDS) -> None:
        """Delete the events stored more than ``older_than`` seconds ago, but the last one: SQLite would
        give the next event a number used before, which the processes would take for one already heard."""
        newest = select(func.max(EventRow.id)).scalar_subquery()
        with self._session() as session, session.begin():
            session.execute(
                delete(EventRow).where(EventRow.created < time.time() - older_than, EventRow.id < newest)
            )

    def table(self, table_id: str) -> TableRow | None:
        with self._session() as session:
            return session.get(TableRow, table_id)

    def revision(self, table_id: str) -> int | None:
        """The table's revision as stored (None: no such table). Read before every use of a table where
        processes share the store: one statement made once, on a connection of the pool (no session)."""
        with self.engine.connect() as connection:
            found = connection.execute(_REVISION, {"table_id": table_id}).scalar()
            return None if found is None else int(found)

    def tables(self, statuses: Sequence[str] | None = None, limit: int = 200) -> list[TableRow]:
        """The tables in these statuses, newest first."""
        query = select(TableRow).order_by(TableRow.created.desc()).limit(limit)
        if statuses is not None:
            query = query.where(TableRow.status.in_(list(statuses)))
        with self._session() as session:
            return list(session.scalars(query))

    def seats(self, table_id: str) -> list[SeatRow]:
        with self._session() as session:
            return list(
                session.scalars(select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.index))
            )

    def clock(self, table_id: str) -> ClockRow | None:
        """A timed table's clocks as stored with its last action (None: no clock stored)."""
        with self._session() as session:
            return session.get(ClockRow, table_id)

    def actions(self, table_id: str, start: int = 0) -> list[ActionRow]:
        """The table's actions numbered ``start`` and after, in order."""
        with self._session() as session:
            query = (
                select(ActionRow)
                .where(ActionRow.table_id == table_id, ActionRow.number >= start)
                .order_by(ActionRow.number)
            )
            return list(session.scalars(query))

    def chat(self, table_id: str, limit: int = 100) -> list[ChatRow]:
        """The last ``limit`` chat messages, oldest first."""
        with self._session() as session:
            query = (
                select(ChatRow).where(ChatRow.table_id == table_id).order_by(ChatRow.id.desc()).limit(limit)
            )
            return list(reversed(list(session.scalars(query))))
