"""Where the server keeps its tables: SQLite or PostgreSQL through SQLAlchemy, migrated by Alembic.

Four tables: ``tavola_tables`` (a table's options, status and the secret
of its verifiable dice), ``tavola_seats`` (who sits where, with a hash of
the seat's token, never the token), ``tavola_actions`` (every action done at
a table, numbered from 0, as :mod:`tavola.web.actions` writes it) and
``tavola_chat``. Each write is one transaction, committed before the server
tells anyone of it; :func:`open_database` brings any database to the latest
schema first (:mod:`tavola.web.migrations`).

>>> store = Store(open_database("sqlite://"))
>>> store.create_table("t1", "game", {"kind": "game"}, "00" * 32, [("Ann", None), (None, "expert")])
>>> store.append_action("t1", 0, 0, {"action": "roll"})
>>> [row.action for row in store.actions("t1")]
[{'action': 'roll'}]
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, Text, create_engine, event, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from tavola.web.integrity import check_sqlite_file

__all__ = [
    "ActionRow",
    "Base",
    "ChatRow",
    "SeatRow",
    "Store",
    "TableRow",
    "default_database_url",
    "migrate",
    "open_database",
]

MIGRATIONS = Path(__file__).parent / "migrations"


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


class ChatRow(Base):
    __tablename__ = "tavola_chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tavola_tables.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=_now)


def default_database_url() -> str:
    """A SQLite file where Tavola keeps its data: ``$XDG_DATA_HOME/tavola/server.sqlite3``.

    >>> default_database_url().endswith("/tavola/server.sqlite3")
    True
    """
    from tavola.files import data_file

    return f"sqlite:///{data_file('server.sqlite3')}"


def open_database(url: str) -> Engine:
    """An engine on the database at ``url``, migrated to the latest schema (a SQLite file's folder made)."""
    if url.startswith("sqlite:///") and len(url) > len("sqlite:///"):
        path = Path(url.removeprefix("sqlite:///"))
        check_sqlite_file(path)  # a damaged file is refused, never served
        path.parent.mkdir(parents=True, exist_ok=True)
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    engine = create_engine(url)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    migrate(engine)
    return engine


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")  # a commit is on the disk when it returns
    cursor.close()


def migrate(engine: Engine, revision: str = "head", *, down: bool = False) -> None:
    """Upgrade the database to ``revision`` (the latest by default) with Alembic; ``down``: downgrade
    to it (``"base"``: an empty database)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, revision)


class Store:
    """Reading and writing the server's tables, one transaction a call."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)

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
        """A new open table with its seats: (name, bot level) each."""
        with self._session() as session, session.begin():
            session.add(TableRow(id=table_id, kind=kind, options=options, status="open", secret=secret))
            session.flush()
            for index, (name, bot) in enumerate(seats):
                session.add(SeatRow(table_id=table_id, index=index, name=name, bot=bot))

    def take_seat(
        self, table_id: str, index: int, name: str, token_hash: str, *, status: str | None = None
    ) -> None:
        """Seat ``name`` at ``index`` with the hash of their token, and, in the same transaction, set the
        table's ``status`` when given (the last seat taken makes it live)."""
        with self._session() as session, session.begin():
            seat = session.get(SeatRow, (table_id, index))
            assert seat is not None
            seat.name, seat.token_hash = name, token_hash
            if status is not None:
                table = session.get(TableRow, table_id)
                assert table is not None
                table.status = status

    def set_status(self, table_id: str, status: str) -> None:
        with self._session() as session, session.begin():
            table = session.get(TableRow, table_id)
            assert table is not None
            table.status = status

    def append_action(self, table_id: str, number: int, seat: int | None, action: dict[str, Any]) -> None:
        """Store action ``number`` (from 0) of the table: it fails if that number is stored already."""
        with self._session() as session, session.begin():
            session.add(ActionRow(table_id=table_id, number=number, seat=seat, action=action))

    def append_chat(self, table_id: str, seat: int, text: str) -> ChatRow:
        with self._session() as session, session.begin():
            row = ChatRow(table_id=table_id, seat=seat, text=text)
            session.add(row)
        return row

    def table(self, table_id: str) -> TableRow | None:
        with self._session() as session:
            return session.get(TableRow, table_id)

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

    def actions(self, table_id: str) -> list[ActionRow]:
        with self._session() as session:
            query = select(ActionRow).where(ActionRow.table_id == table_id).order_by(ActionRow.number)
            return list(session.scalars(query))

    def chat(self, table_id: str, limit: int = 100) -> list[ChatRow]:
        """The last ``limit`` chat messages, oldest first."""
        with self._session() as session:
            query = (
                select(ChatRow).where(ChatRow.table_id == table_id).order_by(ChatRow.id.desc()).limit(limit)
            )
            return list(reversed(list(session.scalars(query))))
