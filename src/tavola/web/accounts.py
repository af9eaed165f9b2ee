"""People's accounts on the server: a name and a password, their sessions, and the seats they took.

An account is optional: a guest plays by link as before. A person who signs
up keeps their seats, results and ratings under one name, on any device.

* **A name** is checked as a seat's is (:func:`~tavola.web.options.seat_name`)
  and is unique whatever its case or Unicode form: the account keeps the name
  as given and, under a unique index, its :func:`name_key`. ``Tavola`` and
  the names starting ``Tavola`` and a space are the bots' (:func:`bot_name`):
  each bot level plays its rated matches as an account of its own, with no
  password, made the first time it plays one (:func:`bot_account`).
* **A password** (:data:`SHORTEST_PASSWORD` to :data:`LONGEST_PASSWORD`
  characters) is kept only as its Argon2id hash (``argon2-cffi``), never in
  clear; a hash made with weaker settings than today's is made again at the
  next login.
* **A session** is a token of 256 random bits (the same as a seat's) that the
  browser keeps in a cookie; the server keeps only its SHA-256, and when it
  ends (:data:`SESSION_SECONDS` after the login).
* **A seat** taken by a logged-in person is linked to their account
  (``tavola_seat_accounts``, by table and seat), which is what makes a match
  theirs, and rated (:mod:`tavola.web.ratings`).

>>> name_key("  Ånn "), name_key("ANN") == name_key("ann"), name_key("\\uff21nn")  # a full-width A
('ånn', True, 'ann')
>>> bot_name("expert")
'Tavola expert'
"""

from __future__ import annotations

import datetime
import time
import unicodedata
from collections.abc import Callable
from functools import cached_property

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import (
    DateTime,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Integer,
    String,
    delete,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from tavola.errors import TavolaError
from tavola.i18n import _
from tavola.web.live import StateError, TokenError, new_token, token_hash
from tavola.web.options import NAME_LENGTH, seat_name
from tavola.web.storage import Base, Store, TableRow

__all__ = [
    "LONGEST_PASSWORD",
    "SESSION_SECONDS",
    "SHORTEST_PASSWORD",
    "AccountNameError",
    "AccountRow",
    "Accounts",
    "LoginError",
    "NameTakenError",
    "PasswordError",
    "SeatAccountRow",
    "SessionRow",
    "account_name",
    "bot_account",
    "bot_name",
    "name_key",
    "utc_text",
]

SHORTEST_PASSWORD = 8
LONGEST_PASSWORD = 256
SESSION_SECONDS = 30 * 24 * 3600.0
"""How long a login lasts."""
KEY_LENGTH = 4 * NAME_LENGTH
"""The longest :func:`name_key` (a name's plain form may be longer than the name)."""
BOT_PREFIX = "Tavola"


class AccountNameError(TavolaError):
    """A name an account cannot take: one of the bots', or too long in its plain form."""


class NameTakenError(StateError):
    """A name another account has, in some case or form."""


class PasswordError(TavolaError):
    """A password too short or too long."""


class LoginError(TokenError):
    """A name and password that match no account, or a session that has ended."""


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


class AccountRow(Base):
    __tablename__ = "tavola_accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64))
    key: Mapped[str] = mapped_column(String(KEY_LENGTH), unique=True)
    """The name's :func:`name_key`: unique."""
    password_hash: Mapped[str | None] = mapped_column(String(256))
    """Argon2id's encoded hash; None for a bot's account, which nobody logs in to."""
    bot: Mapped[str | None] = mapped_column(String(32), unique=True)
    """The bot level the account is, or None for a person."""
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=_now)


class SessionRow(Base):
    __tablename__ = "tavola_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("tavola_accounts.id"), index=True)
    expires: Mapped[float] = mapped_column(Float)
    """When the session ends (Unix time)."""


class SeatAccountRow(Base):
    __tablename__ = "tavola_seat_accounts"
    __table_args__ = (
        ForeignKeyConstraint(["table_id", "seat"], ["tavola_seats.table_id", "tavola_seats.index"]),
    )

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("tavola_accounts.id"), index=True)


def utc_text(moment: datetime.datetime) -> str:
    """A stored time in ISO 8601, in UTC (the time a database keeping no time zone gives is UTC's).

    >>> utc_text(datetime.datetime(2025, 5, 1, 20, 30))
    '2025-05-01T20:30:00+00:00'
    """
    return moment.replace(tzinfo=moment.tzinfo or datetime.UTC).isoformat()


def name_key(name: str) -> str:
    """What makes two names the same: the name stripped, in Unicode's compatibility form, case folded."""
    return unicodedata.normalize("NFKC", name.strip()).casefold()


def bot_name(level: str) -> str:
    """The account name of the bot at ``level``."""
    return f"{BOT_PREFIX} {level}"


def account_name(text: str) -> str:
    """The name ``text`` gives an account: a seat's name (:func:`~tavola.web.options.seat_name`), none
    of the bots', its plain form at most :data:`KEY_LENGTH` characters.

    >>> account_name(" Ann ")
    'Ann'
    >>> account_name("tavola Expert")
    Traceback (most recent call last):
    ...
    tavola.web.accounts.AccountNameError: the names Tavola and Tavola followed by a space are the bots'
    """
    name = seat_name(text)
    key = name_key(name)
    bots = name_key(BOT_PREFIX)
    if key == bots or key.startswith(bots + " "):
        raise AccountNameError(_("the names Tavola and Tavola followed by a space are the bots'"))
    if len(key) > KEY_LENGTH:
        raise AccountNameError(_("this name is too long once its characters are written plainly"))
    return name


def _password(password: str) -> str:
    if not SHORTEST_PASSWORD <= len(password) <= LONGEST_PASSWORD:
        message = _("a password has {least} to {most} characters")
        raise PasswordError(message.format(least=SHORTEST_PASSWORD, most=LONGEST_PASSWORD))
    return password


def bot_account(session: Session, level: str) -> AccountRow:
    """The account of the bot at ``level`` (a level's own name), made in ``session``'s transaction the
    first time it is asked for."""
    found = session.scalar(select(AccountRow).where(AccountRow.bot == level))
    if found is not None:
        return found
    name = bot_name(level)
    row = AccountRow(name=name, key=name_key(name), password_hash=None, bot=level)
    session.add(row)
    session.flush()
    return row


class Accounts:
    """Signing up, logging in and out, and whose a session or a seat is, in ``store``'s database.

    ``hasher`` hashes the passwords (Argon2id with argon2-cffi's defaults unless given), ``make_token``
    makes a session's token, ``clock`` tells the time (Unix time) for the sessions' ends.
    """

    def __init__(
        self,
        store: Store,
        *,
        hasher: PasswordHasher | None = None,
        make_token: Callable[[], str] = new_token,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.hasher = hasher or PasswordHasher()
        self.make_token = make_token
        self.clock = clock
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    @cached_property
    def _unknown(self) -> str:
        """A hash checked when no account has the name, so that a name's existence takes no less time."""
        return self.hasher.hash(new_token())

    def sign_up(self, name: str, password: str) -> AccountRow:
        """A new account (:class:`NameTakenError` where the name is another's in any case or form)."""
        name = account_name(name)
        row = AccountRow(name=name, key=name_key(name), password_hash=self.hasher.hash(_password(password)))
        try:
            with self._sessions() as session, session.begin():
                session.add(row)
        except IntegrityError:
            raise NameTakenError(_("the name {name} is taken").format(name=name)) from None
        return row

    def log_in(self, name: str, password: str) -> tuple[AccountRow, str]:
        """The account and a new session's token, where ``password`` is the account's; else
        :class:`LoginError`, saying no more than that (neither which of the two was wrong)."""
        row = self.find(name)
        stored = row.password_hash if row is not None else None
        try:
            self.hasher.verify(stored or self._unknown, password)
        except (VerificationError, InvalidHashError):
            stored = None
        if row is None or stored is None:
            raise LoginError(_("no account has this name and password"))
        if self.hasher.check_needs_rehash(stored):
            rehashed = self.hasher.hash(password)
            with self._sessions() as session, session.begin():
                session.execute(
                    update(AccountRow).where(AccountRow.id == row.id).values(password_hash=rehashed)
                )
        return row, self.start_session(row.id)

    def start_session(self, account_id: int) -> str:
        """A new session of the account: its token (the sessions of the account that ended are deleted)."""
        now = self.clock()
        token = self.make_token()
        with self._sessions() as session, session.begin():
            ended = delete(SessionRow).where(SessionRow.account_id == account_id, SessionRow.expires < now)
            session.execute(ended)
            session.add(
                SessionRow(token_hash=token_hash(token), account_id=account_id, expires=now + SESSION_SECONDS)
            )
        return token

    def log_out(self, token: str) -> None:
        """End the session of ``token`` (nothing where there is none)."""
        with self._sessions() as session, session.begin():
            session.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash(token)))

    def account_of(self, token: str | None) -> AccountRow | None:
        """The account whose session ``token`` is, None where it is no session or one that ended."""
        if not token:
            return None
        with self._sessions() as session:
            return session.scalar(
                select(AccountRow)
                .join(SessionRow, SessionRow.account_id == AccountRow.id)
                .where(SessionRow.token_hash == token_hash(token), SessionRow.expires > self.clock())
            )

    def find(self, name: str) -> AccountRow | None:
        """The account called ``name`` (in any case or form), a person's or a bot's."""
        with self._sessions() as session:
            return session.scalar(select(AccountRow).where(AccountRow.key == name_key(name)))

    def link_seat(self, table_id: str, seat: int, account_id: int) -> None:
        """Make seat ``seat`` of the table the account's."""
        with self._sessions() as session, session.begin():
            session.add(SeatAccountRow(table_id=table_id, seat=seat, account_id=account_id))

    def account_at(self, table_id: str, seat: int) -> int | None:
        """The account whose seat ``seat`` of the table is, None for a guest's or a seat not taken."""
        with self._sessions() as session:
            return session.scalar(
                select(SeatAccountRow.account_id).where(
                    SeatAccountRow.table_id == table_id, SeatAccountRow.seat == seat
                )
            )

    def seats_of(self, account_id: int, limit: int = 50) -> list[tuple[TableRow, int]]:
        """The tables where the account took a seat, newest first, each with the seat."""
        with self._sessions() as session:
            found = session.execute(
                select(TableRow, SeatAccountRow.seat)
                .join(SeatAccountRow, SeatAccountRow.table_id == TableRow.id)
                .where(SeatAccountRow.account_id == account_id)
                .order_by(TableRow.created.desc())
                .limit(limit)
            )
            return [(table, seat) for table, seat in found]
