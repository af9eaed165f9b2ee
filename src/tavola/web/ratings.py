"""Ratings by the FIBS formula, one per variant, changed by every rated match once it is finished.

**The formula** is the one the First Internet Backgammon Server gives for
``help formula`` (quoted in the Backgammon FAQ and on rec.games.backgammon),
which players know from the sites that took it up. Everyone starts at
:data:`INITIAL_RATING` with no experience. In an ``N``-point match between
players rated ``Ra`` and ``Rb``, ``a`` wins with the probability
``1 / (1 + 10 ** ((Rb - Ra) * sqrt(N) / 2000))`` (:func:`win_probability`):
the match length stretches the difference, since luck evens out over a
longer match. The winner gains ``4 * K * sqrt(N)`` times the probability the
loser had of winning, and the loser gives up as much with their own ``K``
(:func:`rating_changes`): an upset moves the ratings more than the expected
result. ``K``, the experience factor (:func:`experience_factor`), is
``max(1, 5 - experience / 100)``, a player's experience being the sum of
the lengths of the rated matches they finished (before this one): a new
player's rating moves up to five times as fast, an experienced one's (400
points and more) at the base rate. Where both players' ``K`` are the same,
what one gains the other loses.

**A rated match** is a match (not a single game, nor money play) at a
two-player table whose seats are each a person's account (they sat down
logged in, :mod:`tavola.web.accounts`) or a bot level, each level being an
account of its own, as on the sites where bots are rated. Only a finished
match counts. Its ratings are per variant: a player rated 1620 at standard
backgammon starts nackgammon at 1500.

**Rating a table once.** :func:`rate_finished_table` writes both players'
new ratings and the table's row of ``tavola_rated_matches`` in one
transaction; the row's key is the table, so a table rated again (by another
process that read it, or at start) changes nothing. A rating is written
only where the player's row still counts the matches it was read with, so
two matches ending at once for one player never lose either change: the
later is worked out again on the new rating.

**Rated as it finishes.** The hub has every table rate its match in the
transaction that stores the action ending it, with the table's status
``finished`` (:func:`rating_as_finished`, a savepoint of it), so a match's
last action, its end and its ratings are stored together or not at all.
Where that rating fails (two matches of one player ending at the same
moment on PostgreSQL), it is undone, the action and the table's end are
stored all the same, and :func:`rate_when_finished` rates it right after; a
server stopped before that rates it at its next start
(:func:`rate_unrated_tables`). Either finds the table's row of
``tavola_rated_matches`` where the rating was stored, and rates nothing twice.

>>> round(win_probability(1600, 1500, 1), 4), round(win_probability(1600, 1500, 9), 4)
(0.5288, 0.5855)
>>> experience_factor(0), experience_factor(250), experience_factor(1000)
(5.0, 2.5, 1.0)
>>> [round(change, 2) for change in rating_changes(Standing(1500, 400), Standing(1500, 400), 1)]
[2.0, -2.0]
"""

from __future__ import annotations

import contextlib
import datetime
import logging
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import DateTime, Float, ForeignKey, Index, Integer, String, exists, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from tavola.match import Match
from tavola.table import GameTable
from tavola.variants import find_variant
from tavola.web.accounts import AccountRow, SeatAccountRow, bot_account, utc_text
from tavola.web.live import LiveTable
from tavola.web.options import ChouetteOptions, GameOptions, read_options
from tavola.web.storage import Base, SeatRow, Store, TableRow
from tavola.web.table_figures import SeatFigures, deepest

__all__ = [
    "INITIAL_RATING",
    "MatchResult",
    "RatedMatchRow",
    "RatingRow",
    "Standing",
    "errors_json",
    "experience_factor",
    "history",
    "leaderboard",
    "match_result",
    "rate_finished_table",
    "rate_unrated_tables",
    "rate_when_finished",
    "rated_players",
    "rating_as_finished",
    "rating_changes",
    "ratings_of",
    "win_probability",
]

LOG = logging.getLogger("tavola.web")

INITIAL_RATING = 1500.0
MOST_TRIES = 5
"""How many times a rating is worked out again when another one changed a player's meanwhile."""

Player = int | str
"""A side of a rated match: an account's id, or a bot level (whose account is made when first rated)."""


UNRATED_FORFEITS = ("absent", "award")
"""Forfeits that leave a match unrated: never played (a player absent), or given by a tournament's
director; a match lost on time, or left, counts."""


def win_probability(rating: float, other: float, length: int) -> float:
    """The chance a player rated ``rating`` wins a ``length``-point match against one rated ``other``."""
    return 1 / (1 + 10 ** ((other - rating) * math.sqrt(length) / 2000))


def experience_factor(experience: int) -> float:
    """How much faster than the base rate a rating with this experience moves (``K``)."""
    return max(1.0, 5 - experience / 100)


@dataclass(frozen=True)
class Standing:
    """A player's rating in a variant and their experience there (the points of the matches rated)."""

    rating: float = INITIAL_RATING
    experience: int = 0


def rating_changes(winner: Standing, loser: Standing, length: int) -> tuple[float, float]:
    """What the winner of a ``length``-point match gains and the loser loses (a negative number)."""
    stake = 4 * math.sqrt(length) * (1 - win_probability(winner.rating, loser.rating, length))
    return experience_factor(winner.experience) * stake, -experience_factor(loser.experience) * stake


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


class RatingRow(Base):
    __tablename__ = "tavola_ratings"
    __table_args__ = (Index("ix_tavola_ratings_variant_rating", "variant", "rating"),)

    account_id: Mapped[int] = mapped_column(ForeignKey("tavola_accounts.id"), primary_key=True)
    variant: Mapped[str] = mapped_column(String(40), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    experience: Mapped[int] = mapped_column(Integer)
    matches: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)


class RatedMatchRow(Base):
    """A finished rated match: who won and lost, and both ratings before and after."""

    __tablename__ = "tavola_rated_matches"

    table_id: Mapped[str] = mapped_column(ForeignKey("tavola_tables.id"), primary_key=True)
    variant: Mapped[str] = mapped_column(String(40))
    length: Mapped[int] = mapped_column(Integer)
    winner_id: Mapped[int] = mapped_column(ForeignKey("tavola_accounts.id"), index=True)
    loser_id: Mapped[int] = mapped_column(ForeignKey("tavola_accounts.id"), index=True)
    winner_before: Mapped[float] = mapped_column(Float)
    winner_after: Mapped[float] = mapped_column(Float)
    loser_before: Mapped[float] = mapped_column(Float)
    loser_after: Mapped[float] = mapped_column(Float)
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=_now)


@dataclass(frozen=True)
class MatchResult:
    """A finished rated match: its table, variant and length, its winner and loser."""

    table_id: str
    variant: str
    length: int
    winner: Player
    loser: Player


def rated_players(
    options: GameOptions | ChouetteOptions, bots: list[str | None], accounts: Mapping[int, int]
) -> tuple[Player, Player] | None:
    """Who plays seats 0 and 1 of a rated match with these options, bot levels (one a seat) and accounts
    (by seat); None where the match is not rated.

    >>> match = read_options(
    ...     {"kind": "game", "series": "match", "length": 3, "rated": True, "seats": [{}, {}]}
    ... )
    >>> rated_players(match, [None, "expert"], {0: 7}), rated_players(match, [None, None], {0: 7})
    ((7, 'expert'), None)
    >>> rated_players(match.model_copy(update={"rated": False}), [None, "expert"], {0: 7}) is None
    True
    """
    if not isinstance(options, GameOptions) or options.series != "match" or not options.rated:
        return None
    players = [bot if bot is not None else accounts.get(seat) for seat, bot in enumerate(bots)]
    first, second = players
    if first is None or second is None or first == second:
        return None
    return first, second


def match_result(table: LiveTable, accounts: Mapping[int, int]) -> MatchResult | None:
    """The result of ``table`` as a rated match, its seats' ``accounts`` given; None where the table is
    not a finished rated match."""
    with table.lock:
        players = rated_players(table.options, [seat.bot for seat in table.seats], accounts)
        over = _match_over(table)
        if table.status != "finished" or players is None or over is None:
            return None
        variant, length, winner = over
        return MatchResult(table.id, variant, length, players[winner], players[1 - winner])


def _match_over(table: LiveTable) -> tuple[str, int, int] | None:
    """The variant, length and winner of the table's match once it is won; None for any other table."""
    engine = table.served.table if table.served is not None else None
    options = table.options
    if not isinstance(engine, GameTable) or not isinstance(options, GameOptions):
        return None
    series = engine.series
    if not isinstance(series, Match) or series.winner is None:
        return None
    if series.forfeited is not None and series.forfeited.reason in UNRATED_FORFEITS:
        return None
    return find_variant(options.variant).name, series.length, series.winner


def rating_as_finished(table: LiveTable) -> Callable[[Connection], None] | None:
    """A table's finishing hook (:attr:`LiveTable.finishing <tavola.web.live.LiveTable.finishing>`): for
    a match won, the write that rates it in the transaction that stores the action ending the match and
    the table finished, so the match's end and its ratings are stored together. A rating that fails there
    (another match of the same player rated at the same moment) is undone to a savepoint, the action and
    the table's end stored all the same, and rated by :func:`rate_when_finished` right after, as any rating
    left undone."""
    over = _match_over(table)
    if over is None:
        return None
    variant, length, winner = over
    table_id, options, bots = table.id, table.options, [seat.bot for seat in table.seats]

    def rate(connection: Connection) -> None:
        try:  # in a savepoint of the status's transaction, released by the commit, undone by an error
            with Session(bind=connection, join_transaction_mode="create_savepoint") as session:
                players = rated_players(options, bots, _accounts_at(session, table_id))
                if players is not None:
                    _rate(
                        session, MatchResult(table_id, variant, length, players[winner], players[1 - winner])
                    )
                session.commit()
        except Exception as error:  # the savepoint undone: rated right after the table is finished
            LOG.warning("table %s: its match was not rated as it finished (%s)", table_id, error)

    return rate


def rate_finished_table(store: Store, table: LiveTable) -> RatedMatchRow | None:
    """Rate ``table``'s match once it is finished and rated: the row stored for it (the one stored
    before, where it was rated already), or None where it is no finished rated match."""
    with Session(store.engine) as session:
        accounts = _accounts_at(session, table.id)
    result = match_result(table, accounts)
    if result is None:
        return None
    for _attempt in range(MOST_TRIES - 1):
        with contextlib.suppress(IntegrityError, _MovedError):  # rated, or a rating changed, meanwhile
            return _rate_once(store, result)
    return _rate_once(store, result)


def rate_when_finished(table: LiveTable) -> None:
    """A table's listener: rate its match once it is finished (:func:`rate_finished_table`). A rating
    that fails is logged, never raised into the table, and done again at the next start
    (:func:`rate_unrated_tables`)."""
    if table.status != "finished":
        return
    try:
        rate_finished_table(table.store, table)
    except Exception:
        LOG.exception("table %s: its match was not rated", table.id)


def rate_unrated_tables(store: Store, get: Callable[[str], LiveTable]) -> int:
    """Rate the finished rated matches left without their rating (a server stopped between a match's end
    and its rating), each table read through ``get``; how many were rated."""
    rated = exists().where(RatedMatchRow.table_id == TableRow.id)
    linked = exists().where(SeatAccountRow.table_id == TableRow.id)
    bot = exists().where(SeatRow.table_id == TableRow.id, SeatRow.bot.is_not(None))  # two bots: no links
    query = select(TableRow).where(
        TableRow.status == "finished", TableRow.kind == "game", ~rated, or_(linked, bot)
    )
    with Session(store.engine) as session:
        waiting = [(row, _accounts_at(session, row.id)) for row in session.scalars(query)]
    done = 0
    for row, accounts in waiting:
        try:
            bots = [seat.bot for seat in store.seats(row.id)]
            if rated_players(read_options(row.options), bots, accounts) is not None:
                done += rate_finished_table(store, get(row.id)) is not None
        except Exception:
            LOG.exception("table %s: its match was not rated", row.id)
    return done


class _MovedError(Exception):
    """A player's rating changed since it was read: the rating is worked out again."""


def _accounts_at(session: Session, table_id: str) -> dict[int, int]:
    found = session.execute(
        select(SeatAccountRow.seat, SeatAccountRow.account_id).where(SeatAccountRow.table_id == table_id)
    )
    return {seat: account for seat, account in found}


def _rate_once(store: Store, result: MatchResult) -> RatedMatchRow:
    with Session(store.engine, expire_on_commit=False) as session, session.begin():
        return _rate(session, result)


def _rate(session: Session, result: MatchResult) -> RatedMatchRow:
    done = session.get(RatedMatchRow, result.table_id)
    if done is not None:
        return done
    winner, loser = (_account_id(session, player) for player in (result.winner, result.loser))
    won, lost = (session.get(RatingRow, (account, result.variant)) for account in (winner, loser))
    gain, loss = rating_changes(_standing(won), _standing(lost), result.length)
    row = RatedMatchRow(
        table_id=result.table_id,
        variant=result.variant,
        length=result.length,
        winner_id=winner,
        loser_id=loser,
        winner_before=_standing(won).rating,
        winner_after=_standing(won).rating + gain,
        loser_before=_standing(lost).rating,
        loser_after=_standing(lost).rating + loss,
    )
    _write(session, winner, result, won, row.winner_after, wins=1)
    _write(session, loser, result, lost, row.loser_after, wins=0)
    session.add(row)
    session.flush()
    return row


def _account_id(session: Session, player: Player) -> int:
    return player if isinstance(player, int) else bot_account(session, player).id


def _standing(row: RatingRow | None) -> Standing:
    return Standing() if row is None else Standing(row.rating, row.experience)


def _write(
    session: Session, account: int, result: MatchResult, before: RatingRow | None, rating: float, *, wins: int
) -> None:
    """Store the account's new rating, where its row is still the one read (else :class:`_MovedError`)."""
    if before is None:
        session.add(
            RatingRow(
                account_id=account,
                variant=result.variant,
                rating=rating,
                experience=result.length,
                matches=1,
                wins=wins,
            )
        )
        session.flush()
        return
    changed = session.execute(
        update(RatingRow)
        .where(
            RatingRow.account_id == account,
            RatingRow.variant == result.variant,
            RatingRow.matches == before.matches,
        )
        .values(
            rating=rating,
            experience=before.experience + result.length,
            matches=before.matches + 1,
            wins=before.wins + wins,
        )
        .execution_options(synchronize_session=False)
    )
    if changed.rowcount != 1:  # type: ignore[attr-defined]
        raise _MovedError(f"the rating of account {account} changed meanwhile")


# --- reading -------------------------------------------------------------------------------------


def ratings_of(store: Store, account_id: int) -> list[dict[str, Any]]:
    """The account's rating in each variant it has played rated matches of, as JSON."""
    with Session(store.engine) as session:
        rows = session.scalars(
            select(RatingRow).where(RatingRow.account_id == account_id).order_by(RatingRow.variant)
        )
        return [_rating_json(row) for row in rows]


def history(
    store: Store, account_id: int, variant: str | None = None, limit: int = 100
) -> list[dict[str, Any]]:
    """The account's rated matches, newest first (of ``variant`` only, where given), as JSON: each with
    the opponent, whether it was won, the rating before and after, and both sides' error rates where the
    table was analysed (``errors``, else None: :func:`errors_json`)."""
    mine = or_(RatedMatchRow.winner_id == account_id, RatedMatchRow.loser_id == account_id)
    query = select(RatedMatchRow).where(mine).order_by(RatedMatchRow.created.desc()).limit(limit)
    if variant is not None:
        query = query.where(RatedMatchRow.variant == variant)
    with Session(store.engine) as session:
        rows = list(session.scalars(query))
        ids = {row.winner_id for row in rows} | {row.loser_id for row in rows}
        named = session.execute(select(AccountRow.id, AccountRow.name).where(AccountRow.id.in_(ids)))
        names = {account: name for account, name in named}
        tables = [row.table_id for row in rows]
        figures = deepest(session, tables)
        seats = _seats_of(session, account_id, [table for table in tables if table in figures])
    entries = []
    for row in rows:
        won = row.winner_id == account_id
        entries.append(
            {
                "table": row.table_id,
                "variant": row.variant,
                "length": row.length,
                "opponent": names[row.loser_id if won else row.winner_id],
                "won": won,
                "before": row.winner_before if won else row.loser_before,
                "after": row.winner_after if won else row.loser_after,
                "time": utc_text(row.created),
                "errors": errors_json(figures.get(row.table_id), seats.get(row.table_id)),
            }
        )
    return entries


def errors_json(figures: SeatFigures | None, seat: int | None) -> dict[str, Any] | None:
    """A rated match's error rates as its player's page shows them: the player's (``mine``, at ``seat``)
    and their opponent's (``theirs``), in mEMG, with both PRs and the level analysed; None where the table
    was never analysed (or the player's seat is not known).

    >>> errors_json(SeatFigures("0-ply", (8.25, 12.5), (4.1, 6.2)), 1)
    {'mine': 12.5, 'theirs': 8.25, 'mine_pr': 6.2, 'theirs_pr': 4.1, 'level': '0-ply'}
    >>> errors_json(None, 0) is None
    True
    """
    if figures is None or seat not in (0, 1):
        return None
    other = 1 - seat
    return {
        "mine": figures.error_rates[seat],
        "theirs": figures.error_rates[other],
        "mine_pr": figures.prs[seat],
        "theirs_pr": figures.prs[other],
        "level": figures.level,
    }


def _seats_of(session: Session, account_id: int, tables: list[str]) -> dict[str, int]:
    """The seat the account played at each of ``tables``: a person's linked seat, a bot level's own."""
    if not tables:
        return {}
    linked = select(SeatAccountRow.table_id, SeatAccountRow.seat).where(
        SeatAccountRow.account_id == account_id, SeatAccountRow.table_id.in_(tables)
    )
    seats = {table: seat for table, seat in session.execute(linked)}
    level = session.scalar(select(AccountRow.bot).where(AccountRow.id == account_id))
    if level is not None:
        played = select(SeatRow.table_id, SeatRow.index).where(
            SeatRow.bot == level, SeatRow.table_id.in_(tables)
        )
        seats.update({table: seat for table, seat in session.execute(played)})
    return seats


def leaderboard(store: Store, variant: str, start: int = 0, limit: int = 50) -> list[dict[str, Any]]:
    """The players of ``variant`` by rating, highest first, from place ``start`` (0: the first), as JSON."""
    query = (
        select(RatingRow, AccountRow.name, AccountRow.bot)
        .join(AccountRow, AccountRow.id == RatingRow.account_id)
        .where(RatingRow.variant == variant)
        .order_by(RatingRow.rating.desc(), AccountRow.key)
        .offset(start)
        .limit(limit)
    )
    with Session(store.engine) as session:
        found = session.execute(query)
        return [
            {"place": start + number + 1, "name": name, "bot": bot, **_rating_json(row)}
            for number, (row, name, bot) in enumerate(found)
        ]


def _rating_json(row: RatingRow) -> dict[str, Any]:
    return {
        "variant": row.variant,
        "rating": row.rating,
        "experience": row.experience,
        "matches": row.matches,
        "wins": row.wins,
    }
