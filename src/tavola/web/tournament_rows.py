"""What a tournament is made of: its settings, its rows in the database, and the tournament as JSON.

:class:`TournamentSettings` is what a director creates a tournament with;
``tavola_tournaments``, ``tavola_tournament_entries`` and
``tavola_tournament_matches`` hold it (migration 0006), each match with its
bracket, round and slot, players, table, by when its players take their seats,
and winner (who took their seat is read from the table's seats: nothing of a
seat's token is kept here); :func:`tournament_json` is what anyone reads of it, the
standings worked out from the matches (:mod:`tavola.web.pairing`). The steps
that change it are :mod:`tavola.web.tournaments`'.

>>> settings = read_settings({"name": "Friday", "kind": "swiss", "rounds": 3, "lengths": [3]})
>>> settings.rounds, settings.length(5)
(3, 3)
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import Field
from sqlalchemy import JSON, DateTime, Float, ForeignKey, Integer, String, UniqueConstraint, or_, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from tavola.errors import TavolaError
from tavola.i18n import _
from tavola.schema import Shape, read_shape
from tavola.variants import find_variant
from tavola.web.accounts import AccountRow, utc_text
from tavola.web.options import read_options
from tavola.web.pairing import Entrant, Result, knockout_places, knockout_rounds, ranked, swiss_standings
from tavola.web.ratings import INITIAL_RATING
from tavola.web.storage import Base, SeatRow

__all__ = [
    "EntryRow",
    "Loaded",
    "TournamentMatchRow",
    "TournamentRow",
    "TournamentSettings",
    "TournamentSettingsError",
    "aware",
    "read_settings",
    "table_options",
    "taken_seats",
    "tournament_json",
    "utc_now",
]


class TournamentSettingsError(TavolaError):
    """Settings a tournament cannot be created with."""


def utc_now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


# --- settings -------------------------------------------------------------------------------------


class TournamentSettings(Shape):
    """What a tournament is created with. ``lengths``: the match length of each round, the last one for
    every round after; ``rounds``: a Swiss's rounds; ``start_seconds``: how long a player has to take
    their seat once a match is paired; ``closes``: when entries close (ISO 8601; the tournament then
    starts), or never (the director starts it); ``clock``: the tables' clock, as a table takes it."""

    name: Annotated[str, Field(min_length=1, max_length=80)]
    kind: Literal["knockout", "swiss"]
    lengths: Annotated[list[Annotated[int, Field(ge=1, le=25)]], Field(min_length=1, max_length=16)] = Field(
        default_factory=lambda: [1]
    )
    rounds: Annotated[int, Field(ge=1, le=16)] | None = None
    consolation: bool = False
    variant: Annotated[str, Field(max_length=40)] = "standard"
    rated: bool = True
    clock: dict[str, Any] | None = None
    start_seconds: Annotated[int, Field(ge=10, le=7 * 24 * 3600)] = 600
    closes: Annotated[str, Field(max_length=40)] | None = None

    def length(self, round_number: int) -> int:
        """The match length of round ``round_number`` (from 1)."""
        return self.lengths[min(round_number, len(self.lengths)) - 1]

    def closing_time(self) -> datetime.datetime | None:
        """When entries close, as a time in UTC."""
        if self.closes is None:
            return None
        try:
            moment = datetime.datetime.fromisoformat(self.closes)
        except ValueError:
            raise TournamentSettingsError(
                _("closes: a time such as 2026-05-01T20:00:00Z, not {value}").format(value=self.closes)
            ) from None
        return moment.replace(tzinfo=moment.tzinfo or datetime.UTC)


def read_settings(data: object) -> TournamentSettings:
    """The settings ``data`` gives, checked: the shape, the name, and each round's table options as the
    tables read them (the variant, the lengths, the clock)."""
    settings: TournamentSettings = read_shape(
        TournamentSettings, data, TournamentSettingsError, "the settings"
    )
    name = settings.name.strip()
    if not name or not name.isprintable():
        raise TournamentSettingsError(_("name: a tournament's name is printable text"))
    if settings.kind == "swiss" and settings.rounds is None:
        raise TournamentSettingsError(_("rounds: a Swiss needs its number of rounds"))
    if settings.kind == "knockout" and settings.rounds is not None:
        raise TournamentSettingsError(_("rounds: a knockout has as many rounds as its field needs"))
    if settings.kind == "swiss" and settings.consolation:
        raise TournamentSettingsError(_("consolation: only a knockout has a consolation bracket"))
    settings.closing_time()
    for length in set(settings.lengths):
        try:
            read_options(table_options(settings, length, [{}, {}]))
        except TavolaError as error:
            raise TournamentSettingsError(str(error)) from None
    return settings.model_copy(update={"name": name, "variant": find_variant(settings.variant).name})


def table_options(settings: TournamentSettings, length: int, seats: list[dict[str, Any]]) -> dict[str, Any]:
    options: dict[str, Any] = {
        "kind": "game",
        "series": "match",
        "length": length,
        "variant": settings.variant,
        "rated": settings.rated,
        "seats": seats,
    }
    if settings.clock is not None:
        options["clock"] = settings.clock
    return options


# --- storage --------------------------------------------------------------------------------------


class TournamentRow(Base):
    __tablename__ = "tavola_tournaments"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    director_id: Mapped[int] = mapped_column(ForeignKey("tavola_accounts.id"), index=True)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The :class:`TournamentSettings` as JSON."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    revision: Mapped[int] = mapped_column(Integer)
    """How many steps the tournament has taken: a step is written only at the revision it was read at."""
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


class EntryRow(Base):
    __tablename__ = "tavola_tournament_entries"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tavola_tournaments.id"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("tavola_accounts.id"), primary_key=True, index=True)
    number: Mapped[int] = mapped_column(Integer)
    """The order of entry, from 0: equal ratings are seeded by it."""
    rating: Mapped[float | None] = mapped_column(Float)
    """The rating in the tournament's variant when it started (its seeding)."""


class TournamentMatchRow(Base):
    """A match of a tournament: its bracket, round and place in it, its players (no second: a bye), its
    table, by when its players sit down, and its winner with how it was decided."""

    __tablename__ = "tavola_tournament_matches"
    __table_args__ = (UniqueConstraint("tournament_id", "bracket", "round", "slot"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tavola_tournaments.id"), index=True)
    bracket: Mapped[str] = mapped_column(String(16))
    """``main``, or ``consolation``."""
    round: Mapped[int] = mapped_column(Integer)
    slot: Mapped[int] = mapped_column(Integer)
    first_id: Mapped[int] = mapped_column(ForeignKey("tavola_accounts.id"))
    second_id: Mapped[int | None] = mapped_column(ForeignKey("tavola_accounts.id"))
    length: Mapped[int] = mapped_column(Integer)
    table_id: Mapped[str | None] = mapped_column(String(32), index=True)
    """The table's id, chosen when the match is paired (the table is made just after, its people's seats
    kept for their accounts); indexed (migration 0008): the action ending a table records its match's
    result."""
    deadline: Mapped[datetime.datetime | None] = mapped_column(DateTime(timezone=True))
    """When a player whose seat at the table is not taken forfeits."""
    winner_id: Mapped[int | None] = mapped_column(ForeignKey("tavola_accounts.id"))
    decided: Mapped[str | None] = mapped_column(String(16))
    """How: ``table``, ``bye``, ``forfeit`` or ``award``; None while undecided."""
    decided_at: Mapped[datetime.datetime | None] = mapped_column(DateTime(timezone=True))

    @property
    def players(self) -> list[int]:
        return [self.first_id] if self.second_id is None else [self.first_id, self.second_id]


def aware(moment: datetime.datetime) -> datetime.datetime:
    """A stored time with its zone (SQLite gives it back without)."""
    return moment.replace(tzinfo=moment.tzinfo or datetime.UTC)


def taken_seats(session: Session, matches: list[TournamentMatchRow]) -> set[tuple[str, int]]:
    """The seats taken (by a person, or a bot) at the tables of the undecided ``matches``, as read in
    ``session``: (table, seat) each."""
    tables = [match.table_id for match in matches if match.decided is None and match.table_id is not None]
    if not tables:
        return set()
    found = session.execute(
        select(SeatRow.table_id, SeatRow.index).where(
            SeatRow.table_id.in_(tables), or_(SeatRow.token_hash.is_not(None), SeatRow.bot.is_not(None))
        )
    )
    return {(table, index) for table, index in found}


@dataclass
class Loaded:
    """A tournament as read in one transaction: its row, settings, entries with their accounts, matches,
    and the seats taken at its undecided matches' tables."""

    row: TournamentRow
    settings: TournamentSettings
    entries: list[EntryRow]
    accounts: dict[int, AccountRow]
    matches: list[TournamentMatchRow]
    taken: set[tuple[str, int]]

    def present(self, match: TournamentMatchRow) -> list[bool]:
        """Whether each of the two seats of an undecided match is taken at its table (a bot's always is,
        a bye's second is nobody's to take)."""
        return [
            player is None or self.is_bot(player) or (match.table_id, index) in self.taken
            for index, player in enumerate((match.first_id, match.second_id))
        ]

    def bracket(self, name: str) -> dict[int, list[TournamentMatchRow]]:
        """The bracket's matches by round, each round in slot order."""
        rounds: dict[int, list[TournamentMatchRow]] = {}
        for match in sorted(self.matches, key=lambda match: (match.round, match.slot)):
            if match.bracket == name:
                rounds.setdefault(match.round, []).append(match)
        return rounds

    def entrants(self) -> list[Entrant]:
        return [
            Entrant(
                entry.account_id, entry.rating if entry.rating is not None else INITIAL_RATING, entry.number
            )
            for entry in self.entries
        ]

    def is_bot(self, account: int) -> bool:
        return self.accounts[account].bot is not None


def tournament_json(loaded: Loaded) -> dict[str, Any]:
    """A tournament as JSON: its settings, entries, matches (the bracket or the rounds) and standings."""
    row, settings = loaded.row, loaded.settings
    names = {account_id: account.name for account_id, account in loaded.accounts.items()}
    entrants = loaded.entrants()
    seeds = (
        {player: seed for seed, player in enumerate(ranked(entrants), start=1)}
        if row.status != "entry"
        else {}
    )
    entries = [
        {
            "name": names[entry.account_id],
            "bot": loaded.accounts[entry.account_id].bot,
            "rating": entry.rating,
            "seed": seeds.get(entry.account_id),
        }
        for entry in loaded.entries
    ]
    matches = [
        {
            "id": match.id,
            "bracket": match.bracket,
            "round": match.round,
            "slot": match.slot,
            "players": [
                names[match.first_id],
                names[match.second_id] if match.second_id is not None else None,
            ],
            "length": match.length,
            "table": match.table_id,
            "present": loaded.present(match),
            "deadline": utc_text(match.deadline) if match.deadline is not None else None,
            "winner": names[match.winner_id] if match.winner_id is not None else None,
            "decided": match.decided,
        }
        for match in sorted(
            loaded.matches, key=lambda match: (match.bracket != "main", match.round, match.slot)
        )
    ]
    rounds = settings.rounds
    if settings.kind == "knockout":
        rounds = knockout_rounds(len(entrants)) if len(entrants) >= 2 else None
    return {
        "id": row.id,
        "name": row.name,
        "director": names[row.director_id],
        "status": row.status,
        "created": utc_text(row.created),
        "settings": settings.model_dump(mode="json"),
        "rounds": rounds,
        "entries": entries,
        "matches": matches,
        "standings": _standings(loaded, names),
    }


def _standings(loaded: Loaded, names: dict[int, str]) -> list[dict[str, Any]]:
    """A Swiss's table as it stands; a finished knockout's places (the main bracket's)."""
    if loaded.settings.kind == "swiss":
        decided = [match for match in loaded.matches if match.decided is not None]
        results = [Result(match.first_id, match.second_id, match.winner_id) for match in decided]
        return [
            {
                "place": line.place,
                "name": names[line.id],
                "points": line.points,
                "buchholz": line.buchholz,
                "wins": line.wins,
                "rating": line.rating,
            }
            for line in swiss_standings(loaded.entrants(), results)
        ]
    if loaded.row.status != "finished":
        return []
    rounds = loaded.bracket("main")
    played = [
        [(match.first_id, match.second_id, match.winner_id) for match in rounds[number]]
        for number in sorted(rounds)
    ]
    return [{"place": place, "name": names[player]} for place, player in knockout_places(played)]
