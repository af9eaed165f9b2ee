"""Each side's figures from the analysis of a finished two-player table, kept for the players' pages.

When the analysis of a finished table is made (a ``table-...`` job of
:mod:`tavola.web.analyses`, at any level), :func:`store_figures` writes a
row of ``tavola_table_figures``: the table, the level, and for each seat the
error rate (thousandths of an equity point per decision, mEMG) and the
performance rating (PR), in one transaction. Its key is the table and the
level: the same table analysed again at the same level keeps the row (an
analysis at a level always comes out the same), and two processes storing it
at once leave one row. An uploaded record's analysis belongs to no table and
is not stored.

A player's page (:func:`tavola.web.ratings.history`) shows, for each rated
match, the figures of its deepest level analysed (:func:`deepest`), by the
player's seat and their opponent's.

>>> level_plies("0-ply"), level_plies("3-ply")
(0, 3)
"""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import Collection
from dataclasses import dataclass

from sqlalchemy import DateTime, Float, ForeignKey, Integer, String, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from tavola.analysis.model import Analysis
from tavola.web.storage import Base, Store

__all__ = ["SeatFigures", "TableFiguresRow", "deepest", "level_plies", "store_figures"]


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def level_plies(level: str) -> int:
    """How deep an analysis level ("2-ply") looks: the deeper, the better its figures."""
    return int(level.split("-", 1)[0])


class TableFiguresRow(Base):
    """The figures of both seats of a finished table analysed at one level."""

    __tablename__ = "tavola_table_figures"

    table_id: Mapped[str] = mapped_column(ForeignKey("tavola_tables.id"), primary_key=True)
    level: Mapped[str] = mapped_column(String(16), primary_key=True)
    plies: Mapped[int] = mapped_column(Integer)
    first_error_rate: Mapped[float] = mapped_column(Float)
    second_error_rate: Mapped[float] = mapped_column(Float)
    first_pr: Mapped[float] = mapped_column(Float)
    second_pr: Mapped[float] = mapped_column(Float)
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=_now)


@dataclass(frozen=True)
class SeatFigures:
    """A table's figures at its deepest level analysed: the level, and each seat's error rate and PR."""

    level: str
    error_rates: tuple[float, float]
    prs: tuple[float, float]


def store_figures(store: Store, table_id: str, level: str, analysis: Analysis) -> None:
    """Keep both seats' figures of the finished table ``table_id``'s ``analysis`` at ``level`` (a
    two-player analysis: its players are the seats, in order), unless they are kept already."""
    first, second = analysis.players
    row = TableFiguresRow(
        table_id=table_id,
        level=level,
        plies=level_plies(level),
        first_error_rate=first.error_rate_memg,
        second_error_rate=second.error_rate_memg,
        first_pr=first.pr,
        second_pr=second.pr,
    )
    with contextlib.suppress(IntegrityError), Session(store.engine) as session, session.begin():
        if session.get(TableFiguresRow, (table_id, level)) is None:  # else stored before
            session.add(row)  # a process storing it meanwhile makes this one's commit fail: one row kept


def deepest(session: Session, tables: Collection[str]) -> dict[str, SeatFigures]:
    """The figures of each of ``tables`` analysed, at its deepest level analysed."""
    if not tables:
        return {}
    found: dict[str, TableFiguresRow] = {}
    for row in session.scalars(select(TableFiguresRow).where(TableFiguresRow.table_id.in_(tables))):
        kept = found.get(row.table_id)
        if kept is None or row.plies > kept.plies:
            found[row.table_id] = row
    return {
        table: SeatFigures(
            row.level, (row.first_error_rate, row.second_error_rate), (row.first_pr, row.second_pr)
        )
        for table, row in found.items()
    }
