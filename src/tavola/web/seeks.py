"""Seeks: people looking for an opponent, and the table made once one is found.

A **seek** is a person's offer of a game (:class:`SeekRequest`): a single
game, a money session or a match of some length, a variant, rated or not, and
a time control (``clock``, handed to the table's options as it is). Anyone
else may accept it (:meth:`Seeks.accept`); the table is then made with the
seek's options through the hub, as ``POST /api/tables`` makes one, and both
people are seated.

* **The poster** gets a secret with the seek (256 random bits, like a seat's
  token; only its SHA-256 is stored). It is how they withdraw the seek, how
  they look at it, and, once it is accepted, their seat's token: the table is
  made with the poster's seat taken under the hash of that secret, so the
  database never holds a token anyone could act with.
* **The person who accepts** sits down with a new token, given in the
  answer, as the seat route gives one.
* **Rated** seeks are matches between two people logged in; the table's
  ``rated`` option says whether its match counts for the ratings
  (:mod:`tavola.web.ratings`). The seats of people logged in are linked to
  their accounts either way, so that the table is on their pages.
* **Accepting is atomic**: the seek's row goes from ``open`` to ``taken`` in
  one conditional write before anything is made; of two people accepting at
  once, in one process or two, one makes the table and the other is refused
  (:class:`SeekTakenError`).
* **A seek lasts while its poster waits for it**: each look of its poster
  keeps it open :data:`KEPT_SECONDS` more, for at most :data:`MOST_SECONDS`
  in all; a seek nobody looks after ends by itself. Ended and accepted seeks
  are deleted :data:`FORGOTTEN_SECONDS` after their end.

**Play now** (``"auto": true``): the seek is not listed; the server pairs it
with another play-now seek of the same options (series, length, variant,
rated, clock) whose poster's rating in the variant is close to this one's
(a guest counts as :data:`~tavola.web.ratings.INITIAL_RATING`). "Close" is a
window that widens while they wait (:func:`rating_window`): the longer wait of
the two counts. Of the seeks in the window, the closest in rating is taken,
then the oldest. Pairing is tried when the seek is posted and at every look
of a waiting poster, so it needs no thread of its own and works across
processes: the seeks are rows of the shared database.

>>> rating_window(0), rating_window(20), rating_window(600)
(100.0, 300.0, 600.0)
"""

from __future__ import annotations

import datetime
import hmac
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import Field
from sqlalchemy import JSON, Boolean, Float, ForeignKey, Integer, String, delete, select, update
from sqlalchemy.orm import Mapped, mapped_column, sessionmaker

from tavola.errors import SeatingError, TavolaError
from tavola.i18n import _
from tavola.schema import Shape, read_shape
from tavola.variants import find_variant
from tavola.web.accounts import AccountRow, Accounts
from tavola.web.hub import Hub
from tavola.web.live import NotFoundError, StateError, TokenError, new_token, token_hash
from tavola.web.options import NAME_LENGTH, GameOptions, read_options, seat_name
from tavola.web.ratings import INITIAL_RATING, RatingRow
from tavola.web.storage import Base

__all__ = [
    "FORGOTTEN_SECONDS",
    "KEPT_SECONDS",
    "MOST_SECONDS",
    "Seated",
    "SeekError",
    "SeekLoginError",
    "SeekRequest",
    "SeekRow",
    "SeekTakenError",
    "Seeker",
    "Seeks",
    "rating_window",
    "seek_json",
    "table_options",
]

KEPT_SECONDS = 30.0
"""How long an open seek lasts after its poster last looked at it."""
MOST_SECONDS = 30 * 60.0
"""How long an open seek lasts at most, however often its poster looks."""
FORGOTTEN_SECONDS = 10 * 60.0
"""How long an accepted or ended seek is kept (for its poster to read) before it is deleted."""
WINDOW_START = 100.0
"""How far apart two play-now seekers' ratings may be at once."""
WINDOW_PER_SECOND = 10.0
"""How much wider the window grows each second the longer waiting of the two has waited."""
WINDOW_MOST = 600.0
"""The widest window."""


def rating_window(waited: float) -> float:
    """How far apart two play-now seekers' ratings may be once one of them has waited ``waited`` seconds."""
    return min(WINDOW_MOST, WINDOW_START + WINDOW_PER_SECOND * max(0.0, waited))


class SeekError(TavolaError):
    """A seek that cannot be posted or accepted as asked: the message says why."""


class SeekLoginError(TokenError):
    """A rated seek posted or accepted by a guest, or a seek's secret that is not the one given."""


class SeekTakenError(StateError):
    """A seek accepted by someone else first, or one's own seek."""


class SeekRequest(Shape):
    """What a seek offers: the game, rated or not, a time control; ``auto`` asks to be paired by the server;
    ``name`` is a guest's (a person logged in plays under their account's name)."""

    kind: Literal["game"] = "game"
    series: Literal["single", "money", "match"] = "match"
    length: int = 5
    variant: Annotated[str, Field(max_length=40)] = "standard"
    rated: bool = False
    clock: dict[str, Any] | None = None
    """The time control, handed to the table's options as it is (``{"delay": s, "bank": s}``)."""
    auto: bool = False
    name: Annotated[str, Field(max_length=4 * NAME_LENGTH)] | None = None


class SeekRow(Base):
    __tablename__ = "tavola_seeks"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    secret_hash: Mapped[str] = mapped_column(String(64))
    """The SHA-256 of the poster's secret, which becomes their seat's token."""
    name: Mapped[str] = mapped_column(String(64))
    account_id: Mapped[int | None] = mapped_column(ForeignKey("tavola_accounts.id"))
    game: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The game offered: ``series``, ``variant``, a match's ``length``, the ``clock`` where there is one."""
    rated: Mapped[bool] = mapped_column(Boolean)
    auto: Mapped[bool] = mapped_column(Boolean)
    rating: Mapped[float] = mapped_column(Float)
    """The poster's rating in the variant when they posted it."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``open``, ``taken`` (its table being made) or ``accepted``."""
    table_id: Mapped[str | None] = mapped_column(ForeignKey("tavola_tables.id"))
    seat: Mapped[int | None] = mapped_column(Integer)
    """The poster's seat at the table made."""
    seated_by_secret: Mapped[bool] = mapped_column(Boolean)
    """Whether the poster's seat token is their secret (they waited), rather than one given in the answer
    to the request that paired them."""
    created: Mapped[float] = mapped_column(Float)
    expires: Mapped[float] = mapped_column(Float)
    """When an open seek ends (Unix time), or one being made ends unless made by then; when an accepted one
    was accepted. A seek is deleted :data:`FORGOTTEN_SECONDS` after."""


@dataclass(frozen=True)
class Seeker:
    """Someone posting or accepting a seek: the name they sit under, their account where logged in, and
    the secret of a seek of theirs where their request holds one."""

    name: str | None
    account: AccountRow | None = None
    secret: str | None = None

    def seat_name(self) -> str:
        """The name they sit under: their account's, else the one they gave (:class:`SeekError` without)."""
        if self.account is not None:
            return self.account.name
        if not self.name or not self.name.strip():
            raise SeekError(_("a guest gives the name they play under"))
        return seat_name(self.name)


@dataclass(frozen=True)
class Seated:
    """A seat at the table made from a seek: the table, the seat, and its token (None: the seat's token
    is the person's own seek's secret, which they hold)."""

    table: str
    seat: int
    token: str | None


def table_options(game: dict[str, Any], names: tuple[str, str]) -> dict[str, Any]:
    """The options of the table a seek makes (the poster in seat 0), as ``POST /api/tables`` takes them.

    >>> table_options({"series": "match", "length": 3, "variant": "standard"}, ("Ann", "Bob"))["seats"]
    [{'name': 'Ann'}, {'name': 'Bob'}]
    """
    return {"kind": "game", **game, "seats": [{"name": names[0]}, {"name": names[1]}]}


def _game(request: SeekRequest) -> dict[str, Any]:
    """The game a seek offers, checked by the rules as a table's options are, in one plain form."""
    game: dict[str, Any] = {"series": request.series, "variant": request.variant}
    if request.series == "match":
        game["length"] = request.length
    if request.clock is not None:
        game["clock"] = request.clock
    options = read_options(table_options(game, ("Player 0", "Player 1")))
    assert isinstance(options, GameOptions)
    game["variant"] = find_variant(options.variant).name
    if options.clock is not None:
        game["clock"] = options.clock.model_dump(mode="json")
    if request.rated and request.series != "match":
        raise SeekError(_("only matches are rated: ask for a match, or an unrated game"))
    return game


class Seeks:
    """The seeks in ``hub``'s database: posting, listing, looking, withdrawing, accepting, pairing.

    ``clock`` tells the time (Unix time), ``make_secret`` makes a poster's secret.
    """

    def __init__(
        self,
        hub: Hub,
        accounts: Accounts,
        *,
        clock: Callable[[], float] = time.time,
        make_secret: Callable[[], str] = new_token,
    ) -> None:
        self.hub = hub
        self.accounts = accounts
        self.clock = clock
        self.make_secret = make_secret
        self._sessions = sessionmaker(hub.store.engine, expire_on_commit=False)

    # --- posting and reading ---------------------------------------------------------------------

    def post(self, data: object, account: AccountRow | None) -> tuple[SeekRow, str, Seated | None]:
        """Post the seek ``data`` asks for, by a guest or the person logged in to ``account``: its row, the
        poster's secret, and for a play-now seek paired at once, the poster's seat (with a new token)."""
        request: SeekRequest = read_shape(SeekRequest, data, SeekError, "the seek")
        game = _game(request)
        if request.rated and account is None:
            raise SeekLoginError(_("a rated seek is for people logged in: log in first"))
        name = Seeker(request.name, account).seat_name()
        now = self.clock()
        secret = self.make_secret()
        row = SeekRow(
            id=uuid.uuid4().hex[:16],
            secret_hash=token_hash(secret),
            name=name,
            account_id=account.id if account is not None else None,
            game=game,
            rated=request.rated,
            auto=request.auto,
            rating=INITIAL_RATING,
            status="open",
            seated_by_secret=False,
            created=now,
            expires=now + KEPT_SECONDS,
        )
        with self._sessions() as session, session.begin():
            session.execute(delete(SeekRow).where(SeekRow.expires < now - FORGOTTEN_SECONDS))
            if account is not None:
                rating = session.get(RatingRow, (account.id, game["variant"]))
                row.rating = rating.rating if rating is not None else INITIAL_RATING
            session.add(row)
        seated = self._pair(row) if request.auto else None
        return self._read(row.id) or row, secret, seated

    def open_seeks(self, limit: int = 100) -> list[SeekRow]:
        """The seeks anyone may accept now, newest first (play-now seeks are the server's to pair)."""
        query = (
            select(SeekRow)
            .where(SeekRow.status == "open", SeekRow.auto.is_(False), SeekRow.expires > self.clock())
            .order_by(SeekRow.created.desc(), SeekRow.id)
            .limit(limit)
        )
        with self._sessions() as session:
            return list(session.scalars(query))

    def find(self, seek_id: str) -> SeekRow:
        """The seek, open or accepted (:class:`NotFoundError` where it ended or never was)."""
        row = self._read(seek_id)
        if row is None or (row.status != "accepted" and row.expires <= self.clock()):
            raise NotFoundError(_("there is no seek {seek}").format(seek=seek_id))
        return row

    def look(self, seek_id: str, secret: str | None, *, keep: bool = True) -> tuple[SeekRow, Seated | None]:
        """Its poster's look at the seek: it stays open :data:`KEPT_SECONDS` more (unless ``keep`` is
        false), and a play-now seek is paired where it can be (the poster's seat then comes back, with a
        new token)."""
        row = self._own(seek_id, secret)
        if row.status != "open":
            return row, None
        if keep:
            now = self.clock()
            with self._sessions() as session, session.begin():
                session.execute(
                    update(SeekRow)
                    .where(SeekRow.id == seek_id, SeekRow.status == "open")
                    .values(expires=min(now + KEPT_SECONDS, row.created + MOST_SECONDS))
                )
        seated = self._pair(row) if row.auto else None
        return self._read(seek_id) or row, seated

    def withdraw(self, seek_id: str, secret: str | None) -> None:
        """Its poster withdraws an open seek (:class:`SeekTakenError` once it is accepted)."""
        self._own(seek_id, secret)
        with self._sessions() as session, session.begin():
            gone = session.execute(delete(SeekRow).where(SeekRow.id == seek_id, SeekRow.status == "open"))
        if gone.rowcount != 1:  # type: ignore[attr-defined]
            raise SeekTakenError(_("this seek was accepted already"))

    def _own(self, seek_id: str, secret: str | None) -> SeekRow:
        row = self.find(seek_id)
        if not secret or not hmac.compare_digest(token_hash(secret), row.secret_hash):
            raise SeekLoginError(_("only the person who posted a seek may do this: send its secret"))
        return row

    def _read(self, seek_id: str) -> SeekRow | None:
        with self._sessions() as session:
            return session.get(SeekRow, seek_id)

    # --- accepting and pairing -------------------------------------------------------------------

    def accept(self, seek_id: str, taker: Seeker) -> Seated:
        """``taker`` accepts the seek: the table is made with its options, its poster seated in seat 0
        (their secret the seat's token) and the taker in seat 1 with a new token, which comes back."""
        row = self.find(seek_id)
        if row.auto:
            raise NotFoundError(_("there is no seek {seek}").format(seek=seek_id))
        own_account = taker.account is not None and taker.account.id == row.account_id
        own_secret = taker.secret is not None and hmac.compare_digest(
            token_hash(taker.secret), row.secret_hash
        )
        if own_account or own_secret:
            raise SeekTakenError(_("this seek is your own: wait for someone else to accept it"))
        if row.rated and taker.account is None:
            raise SeekLoginError(_("a rated seek is for people logged in: log in first"))
        name = taker.seat_name()
        if name == row.name:
            raise SeatingError(_("{player} is at the table already").format(player=name))
        if not self._claim([row.id]):
            if self._read(seek_id) is None:
                raise NotFoundError(_("there is no seek {seek}").format(seek=seek_id))
            raise SeekTakenError(_("this seek was accepted already"))
        return self._make(row, name, taker.account, taker_row=None)

    def _pair(self, row: SeekRow) -> Seated | None:
        """Pair the open play-now seek ``row`` with the closest one in the rating window, where there is
        one: the table is made, and both posters seated by their seeks' secrets."""
        now = self.clock()
        query = select(SeekRow).where(
            SeekRow.status == "open",
            SeekRow.auto.is_(True),
            SeekRow.rated.is_(row.rated),
            SeekRow.expires > now,
            SeekRow.id != row.id,
        )
        with self._sessions() as session:
            candidates = [
                other
                for other in session.scalars(query)
                if other.game == row.game
                and other.name != row.name
                and (row.account_id is None or other.account_id != row.account_id)
                and abs(other.rating - row.rating) <= rating_window(now - min(other.created, row.created))
            ]
        candidates.sort(key=lambda other: (abs(other.rating - row.rating), other.created, other.id))
        for other in candidates:
            if self._claim([other.id, row.id]):
                account = self._account(row.account_id)
                return self._make(other, row.name, account, taker_row=row)
        return None

    def _account(self, account_id: int | None) -> AccountRow | None:
        if account_id is None:
            return None
        with self._sessions() as session:
            return session.get(AccountRow, account_id)

    def _claim(self, ids: list[str]) -> bool:
        """Take the open seeks ``ids`` from the list, all or none (one conditional write), for as long as
        an open seek lasts unless its table is made by then; whether done."""
        with self._sessions() as session:
            taken = session.execute(
                update(SeekRow)
                .where(SeekRow.id.in_(ids), SeekRow.status == "open", SeekRow.expires > self.clock())
                .values(status="taken", expires=self.clock() + KEPT_SECONDS)
            )
            if taken.rowcount != len(ids):  # type: ignore[attr-defined]
                session.rollback()
                return False
            session.commit()
        return True

    def _make(
        self, poster: SeekRow, name: str, account: AccountRow | None, *, taker_row: SeekRow | None
    ) -> Seated:
        """Make the table of the claimed seek ``poster`` for the person called ``name`` (whose own play-now
        seek is ``taker_row``, where they have one); the seeks go back to open where it fails."""
        claimed = [poster.id] + ([taker_row.id] if taker_row is not None else [])
        try:
            options = read_options({**table_options(poster.game, (poster.name, name)), "rated": poster.rated})
            table = self.hub.create(options)
            with table.lock:
                self.hub.store.take_seat(
                    table.id, 0, poster.name, poster.secret_hash, revision=table.revision
                )
                table.sync()  # the poster's seat, written beside the table's own copy, read into it
            if taker_row is None:
                token: str | None = table.take_seat(1, name)
            else:  # paired: seated by their own seek's secret, which a lost answer does not lose
                table.take_seat(1, name, held=taker_row.secret_hash)
                token = None
            if poster.account_id is not None:  # the seats are the accounts' (rated or not: the options)
                self.accounts.link_seat(table.id, 0, poster.account_id)
            if account is not None:
                self.accounts.link_seat(table.id, 1, account.id)
        except BaseException:
            with self._sessions() as session, session.begin():
                session.execute(
                    update(SeekRow)
                    .where(SeekRow.id.in_(claimed), SeekRow.status == "taken")
                    .values(status="open")
                )
            raise
        now = self.clock()
        with self._sessions() as session, session.begin():
            session.execute(
                update(SeekRow)
                .where(SeekRow.id == poster.id)
                .values(status="accepted", table_id=table.id, seat=0, seated_by_secret=True, expires=now)
            )
            if taker_row is not None:
                session.execute(
                    update(SeekRow)
                    .where(SeekRow.id == taker_row.id)
                    .values(status="accepted", table_id=table.id, seat=1, seated_by_secret=True, expires=now)
                )
        return Seated(table.id, 1, token)


def seek_json(row: SeekRow, secret: str | None = None) -> dict[str, Any]:
    """A seek as anyone sees it; with its poster's ``secret``, when an open seek ends, or once accepted,
    their table, seat and token (null where the token came in the answer that paired them)."""
    seen: dict[str, Any] = {
        "id": row.id,
        "name": row.name,
        "rating": round(row.rating, 2) if row.account_id is not None else None,
        **row.game,
        "rated": row.rated,
        "auto": row.auto,
        "status": "accepted" if row.status == "accepted" else "open",
        "since": datetime.datetime.fromtimestamp(row.created, datetime.UTC).isoformat(),
    }
    if secret is not None and row.status != "accepted":
        seen["expires"] = datetime.datetime.fromtimestamp(row.expires, datetime.UTC).isoformat()
    elif secret is not None:
        token = secret if row.seated_by_secret else None
        seen.update(table=row.table_id, seat=row.seat, token=token)
    return seen
