"""Tournaments on the server: a director's knockout or Swiss, its entries, rounds, tables and standings.

A director (any account) creates a tournament
(:class:`~tavola.web.tournament_rows.TournamentSettings`):
a knockout, seeded by rating, with an optional consolation bracket for the
first round's losers, or a Swiss of a set number of rounds (the pairings are
:mod:`tavola.web.pairing`'s); the match length of each round, the variant,
rated or not, the clock, how long a player has to take their seat, and when
entries close. Players register themselves; the director enters bots by
level (each level plays as its account, :func:`~tavola.web.accounts.bot_account`).

**Running.** When the director starts it (or entries close), the entrants
are seeded by their ratings in the variant and the first round is paired.
Each match is a table made with the tournament's settings, each person's
seat kept for their account (:class:`~tavola.web.options.SeatOptions`'
``account``), not taken: a person sits down from the tournament's page
(:meth:`Tournaments.seat`) or at the table as at any other, logged in, and
nobody else may. A bot's seat is taken by the bot, as at any table. The
table goes live, and its clock runs, once both have sat down. As tables
finish, their winners are recorded and, once a round is over, the next is
paired; a player whose seat is not taken when the match's time to start has
passed forfeits it (both absent: in a knockout the better seed by the
tournament's seeding goes through, in a Swiss neither scores). The table then
takes the absent seats itself, under a token nobody is given and linked to no
account, and ends by the forfeit: a match forfeited for absence is rated for
nobody. The director may pause, resume, and award an undecided match. The
final standings stay.

**Paused.** No new round is paired and no forfeit for absence counted; the
matches under way play on, and their results are recorded, but no clock
runs at the tournament's tables: each timed table's clocks are stopped, as
they stand (each bank, and the delay of the player to act), in the
transaction that pauses the tournament (:meth:`Tournaments.pause`), with the
table's revision bumped so that no action stored meanwhile passes over it;
the actions made while paused count as made at the pause, so whoever is to
act when the tournament resumes has their whole delay. Resumed, in one
transaction with the tournament, each clock goes on from where it stood.
A table made while paused, or one whose clocks a stop left running, makes
the paused tournament due (:meth:`Tournaments.due`) and has them stopped at
the next sweep. Nobody loses on time while paused.

**Nothing lost, nothing forged.** Each step (a result, a forfeit, a round
paired, a start, an award, a pause) is written in one transaction with the
tournament's revision bumped where it is still the one read, so with several
server processes a step is taken once: the others see the revision moved
and read again. A match played to its end at its table has its result
written by the action that ends the table, in that action's transaction
(:meth:`Tournaments.result_as_finished`, a finishing hook of every table),
with the tournament's revision bumped; where that fails (it is undone to a
savepoint, the action stored all the same), the sweep records it from the
finished table. What follows from the results (the next round paired, its
tables made, the final standings) is a later step of the sweep, worked out
from the results stored, each written once. A match's table is made after the step that paired it, under
the id that step stored, so one missing (a server stopped between the two)
is made at the next sweep. Results come only from finished tables, awards
only from the director. The listener of each table
(:meth:`Tournaments.table_changed`) and a sweep every few seconds (and at
start) advance the tournaments with something due: a table finished, a
deadline passed with a seat not taken, a round over, a table to make or to
end, entries to close.

Its settings, rows and JSON are :mod:`tavola.web.tournament_rows`'.
"""

from __future__ import annotations

import contextlib
import datetime
import logging
import threading
import uuid
from collections.abc import Callable
from typing import Any

from sqlalchemy import and_, exists, func, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, aliased, sessionmaker

from tavola.bot.levels import UnknownLevelError, level
from tavola.dicesource import VerifiableDice
from tavola.i18n import _
from tavola.match import Match
from tavola.table import GameTable
from tavola.web.accounts import AccountRow, Accounts, bot_account, utc_text
from tavola.web.clocks import Clock, clock_of
from tavola.web.hub import Hub
from tavola.web.live import LiveTable, NotFoundError, StateError, StorageError, TokenError
from tavola.web.options import GameOptions, read_options
from tavola.web.pairing import (
    PairingError,
    Result,
    consolation_field,
    first_round,
    next_round,
    ranked,
    swiss_pairings,
    swiss_standings,
)
from tavola.web.ratings import INITIAL_RATING, RatingRow
from tavola.web.storage import ClockRow, MovedOnError, TableRow
from tavola.web.tournament_rows import (
    EntryRow,
    Loaded,
    TournamentMatchRow,
    TournamentRow,
    TournamentSettings,
    TournamentSettingsError,
    aware,
    read_settings,
    table_options,
    taken_seats,
    tournament_json,
    utc_now,
)

__all__ = [
    "MOST_PLAYERS",
    "SWEEP_SECONDS",
    "NotDirectorError",
    "TournamentStateError",
    "Tournaments",
]

LOG = logging.getLogger("tavola.web")

MOST_PLAYERS = 128
"""The largest field a tournament takes."""
SWEEP_SECONDS = 2.0
"""How often the running tournaments are looked at (for forfeits, entries closing, and steps missed)."""
MOST_STEPS = 64
"""The most steps one look at a tournament takes (each its own transaction)."""
MOST_TRIES = 10
"""How many times a step is worked out again when another process changed the tournament meanwhile."""


_ENDED_BY_THE_TOURNAMENT = ("forfeit", "award")
"""How a match is decided by the tournament rather than at its table, whose play is then ended."""


class NotDirectorError(TokenError):
    """A change of a tournament asked by someone other than its director, or by nobody logged in."""


class TournamentStateError(StateError):
    """Something the tournament cannot do now: entries closed, a match decided, too few players."""


class _MovedError(Exception):
    """The tournament changed since it was read: the step is worked out again."""


# --- the director ---------------------------------------------------------------------------------


class Tournaments:
    """Every tournament of the server: made, entered, run and read here (``clock``: the time, for the
    deadlines and entries closing).

    :meth:`start` begins the sweep in a thread of its own; :meth:`table_changed` is each table's
    listener (:attr:`Hub.table_listeners <tavola.web.hub.Hub.table_listeners>`), which wakes it when a
    table finishes.
    """

    def __init__(
        self,
        hub: Hub,
        *,
        clock: Callable[[], datetime.datetime] = utc_now,
        sweep_seconds: float = SWEEP_SECONDS,
    ) -> None:
        self.hub = hub
        self.accounts = Accounts(hub.store)
        self.clock = clock
        self.sweep_seconds = sweep_seconds
        self._sessions = sessionmaker(hub.store.engine, expire_on_commit=False)
        self._making: dict[str, threading.Lock] = {}
        """A lock for each tournament whose tables this process is making: one thread makes them at a time."""
        self._playing: set[str] = set()
        """The tables between two bots this process is playing through."""
        self._wake = threading.Event()
        self._ending: set[str] = set()
        """The tables whose end this process stores with a tournament's match (or failed to write it with):
        once one has finished, the sweep looks at once (:meth:`table_changed`)."""
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        hub.table_finishing.append(self.result_as_finished)

    # --- the sweep --------------------------------------------------------------------------------

    def start(self) -> None:
        """Advance every tournament now and every :attr:`sweep_seconds`, and whenever a table finishes."""
        self._thread = threading.Thread(target=self._sweep_often, name="tavola-tournaments", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def table_changed(self, table: LiveTable) -> None:
        """A table's listener: a table finished with a tournament's match (:meth:`result_as_finished`)
        makes the sweep look now, for what follows from the result. Any other table's end wakes nothing:
        each look reads every tournament, and most tables are no tournament's; a match's end stored by
        another process is followed up there, or at the next sweep."""
        if table.status == "finished" and table.id in self._ending:
            self._ending.discard(table.id)
            self._wake.set()

    def result_as_finished(self, table: LiveTable) -> Callable[[Connection], None] | None:
        """A table's finishing hook (:attr:`LiveTable.finishing <tavola.web.live.LiveTable.finishing>`):
        for a match won at its table, the write that records its winner at the tournament's match played
        there, still undecided, with the tournament's revision bumped, in the transaction that stores the
        action ending the table (None for a table whose match nobody won). Where no tournament's match is
        played there, or it is decided already (a forfeit for absence, an award), nothing is written. The
        write is a savepoint: where it fails (the tournament's row held by a step of another process), it
        is undone, the action stored all the same, and the sweep records the result from the table."""
        seat = _winner_at(table)
        if seat is None:
            return None
        table_id, decided_at = table.id, self.clock()

        def record(connection: Connection) -> None:
            match = TournamentMatchRow
            try:
                with connection.begin_nested():
                    found = connection.execute(
                        select(match.id, match.tournament_id).where(
                            match.table_id == table_id, match.decided.is_(None)
                        )
                    ).first()
                    if found is None:
                        return
                    self._ending.add(table_id)
                    winner = match.first_id if seat == 0 else match.second_id
                    decided = connection.execute(
                        update(match)
                        .where(match.id == found.id, match.decided.is_(None))
                        .values(winner_id=winner, decided="table", decided_at=decided_at)
                    )
                    if decided.rowcount == 1:
                        connection.execute(
                            update(TournamentRow)
                            .where(TournamentRow.id == found.tournament_id)
                            .values(revision=TournamentRow.revision + 1)
                        )
            except Exception as error:  # the savepoint undone: the sweep records it from the table
                self._ending.add(table_id)
                LOG.warning(
                    "table %s: its tournament match's result was not stored with its end (%s)",
                    table_id,
                    error,
                )

        return record

    def _sweep_often(self) -> None:
        while not self._stopping.is_set():
            try:
                self.advance_all()
            except Exception:
                LOG.exception("the sweep of the tournaments failed")
            self._wake.wait(self.sweep_seconds)
            self._wake.clear()

    def advance_all(self) -> None:
        """Advance every tournament with something due (:meth:`due`)."""
        for tournament_id in self.due():
            try:
                self.advance(tournament_id)
            except Exception:
                LOG.exception("tournament %s did not advance", tournament_id)

    def due(self) -> list[str]:
        """The tournaments with a step or a table due: entries to close; an undecided match whose table
        is finished, or missing, or open past its deadline (running); a round over (running); a match
        forfeited whose table is not ended yet; a timed table whose clocks run (paused: made while paused,
        its clocks to stop). Only these tournaments' undecided matches and the
        forfeited ones left to end are looked at, never a tournament with nothing to do."""
        now = self.clock()
        first, second = aliased(AccountRow), aliased(AccountRow)
        undecided = TournamentMatchRow.decided.is_(None)
        running = TournamentRow.status == "running"
        matches = (
            select(TournamentMatchRow.tournament_id)
            .join(TournamentRow, TournamentRow.id == TournamentMatchRow.tournament_id)
            .join(first, first.id == TournamentMatchRow.first_id)
            .outerjoin(second, second.id == TournamentMatchRow.second_id)
            .outerjoin(TableRow, TableRow.id == TournamentMatchRow.table_id)
            .where(
                TournamentRow.status.in_(("running", "paused")),
                TournamentMatchRow.table_id.is_not(None),
                or_(
                    and_(undecided, or_(TableRow.id.is_(None), TableRow.status == "finished")),
                    and_(undecided, running, TableRow.status == "open", TournamentMatchRow.deadline <= now),
                    and_(  # two bots' table left open by a stop
                        undecided, TableRow.status == "open", first.bot.is_not(None), second.bot.is_not(None)
                    ),
                    and_(
                        TournamentMatchRow.decided.in_(_ENDED_BY_THE_TOURNAMENT),
                        or_(TableRow.id.is_(None), TableRow.status != "finished"),
                    ),
                ),
            )
        )
        over = select(TournamentRow.id).where(
            running,
            ~exists().where(TournamentMatchRow.tournament_id == TournamentRow.id, undecided),
        )
        running_clocks = (  # a paused tournament's timed table whose clocks run (made while paused)
            select(TournamentMatchRow.tournament_id)
            .join(TournamentRow, TournamentRow.id == TournamentMatchRow.tournament_id)
            .join(TableRow, TableRow.id == TournamentMatchRow.table_id)
            .join(first, first.id == TournamentMatchRow.first_id)
            .join(second, second.id == TournamentMatchRow.second_id)
            .outerjoin(ClockRow, ClockRow.table_id == TableRow.id)
            .where(
                TournamentRow.status == "paused",
                TournamentRow.settings["clock"].as_string().is_not(None),
                undecided,
                TableRow.status.in_(("open", "live")),
                or_(first.bot.is_(None), second.bot.is_(None)),
                or_(ClockRow.table_id.is_(None), ClockRow.clock["paused_at"].as_float().is_(None)),
            )
        )
        with self._sessions() as session:
            ids = (
                set(session.scalars(matches))
                | set(session.scalars(over))
                | set(session.scalars(running_clocks))
            )
            for tournament_id, settings in session.execute(
                select(TournamentRow.id, TournamentRow.settings).where(TournamentRow.status == "entry")
            ):
                closes = TournamentSettings.model_validate(settings).closing_time()
                if closes is not None and closes <= now:
                    ids.add(tournament_id)
        return sorted(ids)

    def advance(self, tournament_id: str) -> None:
        """Take every step the tournament is due (results of finished tables, forfeits, entries closing,
        the next round), each in its own transaction, then make the tables its matches lack and end
        those of the matches forfeited."""
        for _step in range(MOST_STEPS):
            if not self._write(tournament_id, self._step):
                break
        self._make_tables(tournament_id)

    # --- a step, in one transaction ------------------------------------------------------------------

    def _write(self, tournament_id: str, change: Callable[[Loaded], bool]) -> bool:
        """Read the tournament and apply ``change`` in one transaction, written only where the tournament
        is still at the revision read (else read again and tried again, as where SQLite found the database
        written since this transaction read it); what ``change`` said (False: nothing to write)."""
        for attempt in range(MOST_TRIES):
            with self._sessions() as session:
                try:
                    loaded = self._load(session, tournament_id)
                    if not change(loaded):
                        session.rollback()
                        return False
                    self._bump(session, loaded.row)
                    session.commit()
                    return True
                except (_MovedError, MovedOnError, IntegrityError, OperationalError) as error:
                    session.rollback()
                    if attempt < MOST_TRIES - 1:
                        continue
                    if isinstance(error, OperationalError):
                        raise StorageError(_not_stored(error)) from error
                    raise TournamentStateError(_moved()) from None
        return False

    def _bump(self, session: Session, row: TournamentRow) -> None:
        revision = row.revision
        session.flush()
        moved = session.execute(
            update(TournamentRow)
            .where(TournamentRow.id == row.id, TournamentRow.revision == revision)
            .values(revision=revision + 1)
            .execution_options(synchronize_session=False)
        )
        if moved.rowcount != 1:  # type: ignore[attr-defined]
            raise _MovedError(row.id)

    def _load(self, session: Session, tournament_id: str) -> Loaded:
        row = session.get(TournamentRow, tournament_id)
        if row is None:
            raise NotFoundError(_("there is no tournament {id}").format(id=tournament_id))
        entries = list(
            session.scalars(
                select(EntryRow).where(EntryRow.tournament_id == tournament_id).order_by(EntryRow.number)
            )
        )
        ids = {entry.account_id for entry in entries} | {row.director_id}
        accounts = {
            account.id: account
            for account in session.scalars(select(AccountRow).where(AccountRow.id.in_(ids)))
        }
        matches = list(
            session.scalars(
                select(TournamentMatchRow).where(TournamentMatchRow.tournament_id == tournament_id)
            )
        )
        settings = TournamentSettings.model_validate(row.settings)
        return Loaded(row, settings, entries, accounts, matches, taken_seats(session, matches))

    def _step(self, loaded: Loaded) -> bool:
        """The tournament's next step, made in ``loaded``'s session; False where none is due. The tables'
        results and the seats taken are read in that session too, so a forfeit is never counted at a
        table that has finished (nor at one whose seats are both taken: a live table)."""
        row, now = loaded.row, self.clock()
        if row.status == "entry":
            closes = loaded.settings.closing_time()
            if closes is None or now < closes:
                return False
            self._begin(loaded, now)
            return True
        if row.status not in ("running", "paused"):
            return False
        session = Session.object_session(row)
        assert session is not None
        undecided = [match for match in loaded.matches if match.decided is None and match.table_id]
        statuses: dict[str | None, str] = dict(
            session.execute(
                select(TableRow.id, TableRow.status).where(
                    TableRow.id.in_([match.table_id for match in undecided])
                )
            ).all()
        )
        for match in undecided:
            if statuses.get(match.table_id) == "finished":
                seat = _winning_seat(self.hub.get(str(match.table_id)))
                if seat is not None:
                    self._decide(match, match.players[seat], "table", now)
                    return True
        if row.status == "paused":
            return False
        for match in undecided:
            due = match.deadline is not None and aware(match.deadline) <= now
            if due and statuses.get(match.table_id) != "finished" and not all(loaded.present(match)):
                self._forfeit(loaded, match, now)
                return True
        return self._next_round(loaded, now)

    def _decide(
        self, match: TournamentMatchRow, winner: int | None, how: str, now: datetime.datetime
    ) -> None:
        match.winner_id, match.decided, match.decided_at = winner, how, now

    def _forfeit(self, loaded: Loaded, match: TournamentMatchRow, now: datetime.datetime) -> None:
        """The absent player of ``match`` forfeits; both absent: the better seed (by the tournament's
        seeding) goes through a knockout, nobody wins a Swiss match."""
        first, second = loaded.present(match)
        if first != second:
            winner: int | None = match.first_id if first else match.second_id
        elif loaded.settings.kind == "knockout":
            seeds = ranked(loaded.entrants())
            winner = min(match.players, key=seeds.index)
        else:
            winner = None
        self._decide(match, winner, "forfeit", now)

    def _begin(self, loaded: Loaded, now: datetime.datetime) -> None:
        """Close the entries: seed the entrants by their ratings and pair the first round (too few
        entrants: the tournament is cancelled)."""
        row, settings = loaded.row, loaded.settings
        if len(loaded.entries) < 2:
            row.status = "cancelled"
            return
        session = Session.object_session(row)
        assert session is not None
        variant = settings.variant
        for entry in loaded.entries:
            rating = session.get(RatingRow, (entry.account_id, variant))
            entry.rating = rating.rating if rating is not None else INITIAL_RATING
        row.status = "running"
        seeds = ranked(loaded.entrants())
        if settings.kind == "knockout":
            self._pair(loaded, "main", 1, first_round(seeds), now)
        else:
            self._pair_swiss(loaded, 1, now)

    def _next_round(self, loaded: Loaded, now: datetime.datetime) -> bool:
        """Pair the next round of each bracket whose round is over, or finish the tournament."""
        if loaded.settings.kind == "swiss":
            rounds = loaded.bracket("main")
            last = max(rounds)
            if any(match.decided is None for match in rounds[last]):
                return False
            if last >= (loaded.settings.rounds or 0) or not self._pair_swiss(loaded, last + 1, now):
                loaded.row.status = "finished"
            return True
        paired = self._next_knockout_round(loaded, "main", now)
        if loaded.settings.consolation:
            paired = self._consolation(loaded, now) or paired
        if paired:
            return True
        brackets = [loaded.bracket("main")] + (
            [loaded.bracket("consolation")] if loaded.settings.consolation else []
        )
        if all(self._bracket_over(rounds) for rounds in brackets if rounds) and self._consolation_settled(
            loaded
        ):
            loaded.row.status = "finished"
            return True
        return False

    def _bracket_over(self, rounds: dict[int, list[TournamentMatchRow]]) -> bool:
        last = rounds[max(rounds)]
        return len(last) == 1 and last[0].decided is not None

    def _consolation_settled(self, loaded: Loaded) -> bool:
        """Whether the consolation bracket is paired, or never will be (off, or too few first losers)."""
        if not loaded.settings.consolation or loaded.bracket("consolation"):
            return True
        return len(self._consolation_players(loaded)) < 2

    def _next_knockout_round(self, loaded: Loaded, bracket: str, now: datetime.datetime) -> bool:
        rounds = loaded.bracket(bracket)
        if not rounds:
            return False
        last = max(rounds)
        matches = rounds[last]
        if len(matches) < 2 or any(match.decided is None for match in matches):
            return False
        winners = [match.winner_id for match in matches if match.winner_id is not None]
        self._pair(loaded, bracket, last + 1, next_round(winners), now)
        return True

    def _consolation_players(self, loaded: Loaded) -> list[int]:
        first = loaded.bracket("main").get(1, [])
        if not first or any(match.decided is None for match in first):
            return []
        pairs = [(match.first_id, match.second_id) for match in first]
        winners = [match.winner_id for match in first if match.winner_id is not None]
        return consolation_field(pairs, winners, ranked(loaded.entrants()))

    def _consolation(self, loaded: Loaded, now: datetime.datetime) -> bool:
        if loaded.bracket("consolation"):
            return self._next_knockout_round(loaded, "consolation", now)
        field = self._consolation_players(loaded)
        if len(field) < 2:
            return False
        self._pair(loaded, "consolation", 1, first_round(field), now)
        return True

    def _pair_swiss(self, loaded: Loaded, number: int, now: datetime.datetime) -> bool:
        """Pair Swiss round ``number``; False where no round is left without a repeat."""
        decided = [match for match in loaded.matches if match.decided is not None]
        results = [Result(match.first_id, match.second_id, match.winner_id) for match in decided]
        ranking = [line.id for line in swiss_standings(loaded.entrants(), results)]
        played = {frozenset(match.players) for match in loaded.matches if match.second_id is not None}
        had_bye = {match.first_id for match in loaded.matches if match.second_id is None}
        try:
            pairs, bye = swiss_pairings(ranking, played, had_bye)
        except PairingError:
            return False
        round_matches: list[tuple[int, int | None]] = [*pairs]
        if bye is not None:
            round_matches.append((bye, None))
        self._pair(loaded, "main", number, round_matches, now)
        return True

    def _pair(
        self,
        loaded: Loaded,
        bracket: str,
        number: int,
        pairs: list[tuple[int, int | None]] | list[tuple[int, int]],
        now: datetime.datetime,
    ) -> None:
        """Store a round's matches: a bye decided at once, each other with its table's id and deadline."""
        session = Session.object_session(loaded.row)
        assert session is not None
        settings = loaded.settings
        deadline = now + datetime.timedelta(seconds=settings.start_seconds)
        for slot, (first, second) in enumerate(pairs):
            match = TournamentMatchRow(
                tournament_id=loaded.row.id,
                bracket=bracket,
                round=number,
                slot=slot,
                first_id=first,
                second_id=second,
                length=settings.length(number),
            )
            if second is None:
                self._decide(match, first, "bye", now)
            else:
                match.table_id = uuid.uuid4().hex[:16]
                match.deadline = deadline
            session.add(match)
            loaded.matches.append(match)

    # --- tables -------------------------------------------------------------------------------------

    def _make_tables(self, tournament_id: str) -> None:
        """Make the table of each undecided match that lacks one, and end the table of each match
        forfeited (one thread of this process at a time; another process making the same table is
        refused by the store)."""
        with self._sessions() as session:
            loaded = self._load(session, tournament_id)
            wanted = [
                match
                for match in loaded.matches
                if match.table_id is not None
                and (match.decided is None or match.decided in _ENDED_BY_THE_TOURNAMENT)
            ]
            statuses: dict[str | None, str] = dict(
                session.execute(
                    select(TableRow.id, TableRow.status).where(
                        TableRow.id.in_([match.table_id for match in wanted])
                    )
                ).all()
            )
        making = self._making.setdefault(tournament_id, threading.Lock())
        with making:
            for match in wanted:
                status = statuses.get(match.table_id)
                bots = all(loaded.is_bot(player) for player in match.players)
                try:
                    if match.decided is None and (status is None or (bots and status != "finished")):
                        self._make_table(match, loaded)
                    elif match.decided in _ENDED_BY_THE_TOURNAMENT and status != "finished":
                        self._end_decided(match, loaded)
                except Exception:
                    LOG.exception(
                        "tournament %s: the table of match %s not made or ended", tournament_id, match.id
                    )
        if loaded.row.status == "paused":
            self._hold_paused(tournament_id)

    def _end_decided(self, match: TournamentMatchRow, loaded: Loaded) -> None:
        """The table of a match the tournament decided (forfeited for absence, or awarded by the
        director), ended by the forfeit of the seat of the player who did not go through (nobody went
        through: the second's), for ``absent`` or ``award``, where it is not finished: the table first
        takes the seats still free itself, under tokens nobody is given and linked to no account, which
        starts it. Neither counts for the ratings (:mod:`tavola.web.ratings`)."""
        table_id = match.table_id
        assert table_id is not None
        self._make_table(match, loaded)
        table = self.hub.get(table_id)
        for index, player in enumerate(match.players):
            with contextlib.suppress(StateError):  # taken: by the player, or by another process
                table.take_seat(index, loaded.accounts[player].name)
        seat = 1 - match.players.index(match.winner_id) if match.winner_id is not None else 1
        with contextlib.suppress(StateError):  # finished meanwhile
            table.forfeit(seat, "absent" if match.decided == "forfeit" else "award")

    def _make_table(self, match: TournamentMatchRow, loaded: Loaded) -> None:
        """Make the match's table where it is not made yet: each person's seat kept for their account,
        a bot's taken by the bot (two bots' table is played through at once)."""
        table_id = match.table_id
        assert table_id is not None
        assert match.second_id is not None
        store = self.hub.store
        players = [loaded.accounts[match.first_id], loaded.accounts[match.second_id]]
        seats = [
            {"name": player.name, "bot": player.bot}
            if player.bot is not None
            else {"name": player.name, "account": player.name}
            for player in players
        ]
        options = read_options(table_options(loaded.settings, match.length, seats))
        assert isinstance(options, GameOptions)
        if all(player.bot for player in players):
            self._make_bots_table(table_id, options, players)
        elif store.table(table_id) is None:
            with contextlib.suppress(IntegrityError):  # else made meanwhile by another process
                self.hub.create(options, table_id)

    def _make_bots_table(self, table_id: str, options: GameOptions, players: list[AccountRow]) -> None:
        """A table where two bots meet: stored with both seats taken and live, then loaded, which plays it
        through (in a thread of its own, one per table in this process) as a table plays a bot's turns.
        Each step is done again where it is missing, so a table left half made is finished."""
        store = self.hub.store
        if table_id in self._playing:
            return
        if store.table(table_id) is None:
            secret = VerifiableDice().reveal()
            names = [(player.name, player.bot) for player in players]
            with contextlib.suppress(IntegrityError):  # else made meanwhile by another process
                store.create_table(table_id, options.kind, options.model_dump(mode="json"), secret, names)
        row = store.table(table_id)
        if row is not None and row.status == "open":
            with contextlib.suppress(MovedOnError):  # else started meanwhile by another process
                store.set_status(table_id, "live", revision=row.revision)
        self._playing.add(table_id)

        def play() -> None:
            try:
                self.hub.get(table_id)
            except Exception:
                LOG.exception("table %s between two bots did not play", table_id)
            finally:
                self._playing.discard(table_id)
            self._wake.set()

        threading.Thread(target=play, name=f"tavola-bots-{table_id}", daemon=True).start()

    # --- what people and the director do ------------------------------------------------------------

    def create(self, account: AccountRow | None, data: object) -> str:
        """A new tournament directed by the logged-in ``account``, open for entries: its id."""
        director = _logged_in(account)
        settings = read_settings(data)
        closes = settings.closing_time()
        if closes is not None and closes <= self.clock():
            raise TournamentSettingsError(_("closes: entries close at a time still to come"))
        tournament_id = uuid.uuid4().hex[:16]
        with self._sessions() as session, session.begin():
            session.add(
                TournamentRow(
                    id=tournament_id,
                    name=settings.name,
                    director_id=director.id,
                    settings=settings.model_dump(mode="json"),
                    status="entry",
                    revision=0,
                    created=self.clock(),
                )
            )
        return tournament_id

    def enter(self, tournament_id: str, account: AccountRow | None) -> None:
        """Enter the logged-in player (a bot's account enters only by :meth:`enter_bot`)."""
        player = _logged_in(account)
        self._write(tournament_id, lambda loaded: self._add_entry(loaded, player.id))

    def enter_bot(self, tournament_id: str, director: AccountRow | None, level: str) -> None:
        """The director enters the bot at ``level`` (each level once: it plays as its account)."""
        chosen = _level(level)

        def entered(loaded: Loaded) -> bool:
            self._director(loaded, director)
            session = Session.object_session(loaded.row)
            assert session is not None
            return self._add_entry(loaded, bot_account(session, chosen).id)

        self._write(tournament_id, entered)

    def _add_entry(self, loaded: Loaded, account_id: int) -> bool:
        if loaded.row.status != "entry":
            raise TournamentStateError(_("the entries of this tournament are closed"))
        if any(entry.account_id == account_id for entry in loaded.entries):
            raise TournamentStateError(_("this player is entered already"))
        if len(loaded.entries) >= MOST_PLAYERS:
            raise TournamentStateError(
                _("this tournament is full ({most} players)").format(most=MOST_PLAYERS)
            )
        number = max((entry.number for entry in loaded.entries), default=-1) + 1
        session = Session.object_session(loaded.row)
        assert session is not None
        session.add(EntryRow(tournament_id=loaded.row.id, account_id=account_id, number=number))
        return True

    def withdraw(self, tournament_id: str, account: AccountRow | None) -> None:
        """Take the logged-in player's entry back, while entries are open."""
        player = _logged_in(account)
        self._write(tournament_id, lambda loaded: self._remove_entry(loaded, player.id))

    def withdraw_bot(self, tournament_id: str, director: AccountRow | None, level: str) -> None:
        """The director takes back the entry of the bot at ``level``, while entries are open."""
        chosen = _level(level)

        def withdrawn(loaded: Loaded) -> bool:
            self._director(loaded, director)
            bots = [
                entry.account_id
                for entry in loaded.entries
                if loaded.accounts[entry.account_id].bot == chosen
            ]
            return self._remove_entry(loaded, bots[0] if bots else None)

        self._write(tournament_id, withdrawn)

    def _remove_entry(self, loaded: Loaded, account_id: int | None) -> bool:
        if loaded.row.status != "entry":
            raise TournamentStateError(_("the entries of this tournament are closed"))
        wanted = [entry for entry in loaded.entries if entry.account_id == account_id]
        if not wanted:
            raise TournamentStateError(_("this player is not entered"))
        session = Session.object_session(loaded.row)
        assert session is not None
        session.delete(wanted[0])
        return True

    def begin(self, tournament_id: str, director: AccountRow | None) -> None:
        """The director closes the entries and starts the tournament (at least 2 entrants)."""

        def begun(loaded: Loaded) -> bool:
            self._director(loaded, director)
            if loaded.row.status != "entry":
                raise TournamentStateError(_("this tournament has started already"))
            if len(loaded.entries) < 2:
                raise TournamentStateError(_("a tournament needs at least 2 players"))
            self._begin(loaded, self.clock())
            return True

        self._write(tournament_id, begun)
        self.advance(tournament_id)

    def pause(self, tournament_id: str, director: AccountRow | None, *, paused: bool = True) -> None:
        """The director pauses the tournament (no new round, no forfeit, and the clocks of its tables
        stopped, in the same transaction) or resumes it (``paused`` False: the clocks go on from where they
        stood); the deadlines of the matches not yet started are put off by the time it was paused."""
        held: list[str] = []

        def changed(loaded: Loaded) -> bool:
            self._director(loaded, director)
            wanted, now = ("running", "paused") if paused else ("paused", "running")
            if loaded.row.status != wanted:
                raise TournamentStateError(
                    _("this tournament is not {status}").format(status=_status_word(wanted))
                )
            # The rows locked in the order an action ending a table locks them (the table's, its match's,
            # then the tournament's), so that neither waits on the other: the tables' clocks first.
            held[:] = self._hold_clocks(loaded, stopped=paused)
            if not paused:
                start = self.clock() + datetime.timedelta(seconds=loaded.settings.start_seconds)
                for match in loaded.matches:
                    if match.decided is None and match.deadline is not None and aware(match.deadline) < start:
                        match.deadline = start
            session = Session.object_session(loaded.row)
            assert session is not None
            session.flush()  # the matches' deadlines, then the tournament's row (written with its revision)
            loaded.row.status = now
            return True

        self._write(tournament_id, changed)
        self._clocks_changed(held)
        self.advance(tournament_id)

    def _hold_clocks(self, loaded: Loaded, *, stopped: bool) -> list[str]:
        """Stop (``stopped``) or start again the clocks of the tournament's timed tables being played or
        waiting for their players (those between two bots run none), in ``loaded``'s transaction, each
        table's revision bumped; the tables whose clocks changed. The clocks are read first without a lock:
        only the tables whose clocks are not as wanted (running while paused, stopped while not) have their
        rows locked (in the order of their ids, as every write of several tables' rows locks them, and
        before the tournament's row, as an action ending a table does) and their clocks changed."""
        session = Session.object_session(loaded.row)
        assert session is not None
        tables = [
            str(match.table_id)
            for match in loaded.matches
            if match.decided is None
            and match.table_id is not None
            and not all(loaded.is_bot(player) for player in match.players)
        ]
        if not tables:
            return []
        with session.no_autoflush:  # nothing of the tournament written before the tables' rows are locked
            found = session.execute(
                select(TableRow.id, TableRow.options, ClockRow.clock)
                .outerjoin(ClockRow, ClockRow.table_id == TableRow.id)
                .where(TableRow.id.in_(tables), TableRow.status.in_(("open", "live")))
            ).all()
        now = self.hub.now()

        def held(start: Clock, stored: dict[str, Any] | None) -> tuple[Clock, Clock]:
            clock = start if stored is None else start.stored(stored)
            return clock, clock.paused(now) if stopped else clock.resumed(now)

        starts: dict[str, Clock] = {}
        for table_id, options, stored in found:
            start = clock_of(read_options(options))
            if start is not None and (kept := held(start, stored))[0] != kept[1]:  # not as wanted
                starts[table_id] = start
        changed = []
        for table_id, start in sorted(starts.items()):

            def change(stored: dict[str, Any] | None, start: Clock = start) -> dict[str, Any] | None:
                clock, wanted = held(start, stored)
                return None if wanted == clock else wanted.to_json()

            if self.hub.store.change_clock_in(session.connection(), table_id, change):
                changed.append(table_id)
        return changed

    def _clocks_changed(self, tables: list[str]) -> None:
        """Have this process's copies of ``tables`` read their clocks again (the other processes hear of
        the change from the store)."""
        for table_id in tables:
            table = self.hub.tables.get(table_id)
            if table is not None:
                table.clocks_changed()

    def _hold_paused(self, tournament_id: str) -> None:
        """Stop the clocks a paused tournament's tables still run (a table made while paused)."""
        held: list[str] = []

        def stopped(loaded: Loaded) -> bool:
            if loaded.row.status != "paused":
                return False
            held[:] = self._hold_clocks(loaded, stopped=True)
            return bool(held)

        self._write(tournament_id, stopped)
        self._clocks_changed(held)

    def award(self, tournament_id: str, director: AccountRow | None, match_id: int, winner: str) -> None:
        """The director gives an undecided match to ``winner`` (one of its players, by name)."""

        def awarded(loaded: Loaded) -> bool:
            self._director(loaded, director)
            if loaded.row.status not in ("running", "paused"):
                raise TournamentStateError(_("only a tournament being played has matches to award"))
            match = _match(loaded, match_id)
            if match.decided is not None:
                raise TournamentStateError(_("this match is decided already"))
            chosen = [player for player in match.players if loaded.accounts[player].name == winner]
            if not chosen:
                raise TournamentStateError(_("{name} does not play this match").format(name=winner))
            self._decide(match, chosen[0], "award", self.clock())
            return True

        self._write(tournament_id, awarded)
        self.advance(tournament_id)

    def seat(self, tournament_id: str, match_id: int, account: AccountRow | None) -> dict[str, Any]:
        """The logged-in player sits down at their match's table, at the seat kept for them:
        ``{"table", "seat", "token"}``. Sat there already (from this page, the table's own seat request,
        or another device), they get a new token for it (the one given before no longer counts). Nothing
        of the token is kept by the tournament: whether they sat is the table's seat."""
        player = _logged_in(account)
        with self._sessions() as session:
            loaded = self._load(session, tournament_id)
        match = _match(loaded, match_id)
        if player.id not in match.players or match.second_id is None:
            raise NotDirectorError(_("only its players take the seats of a match"))
        if match.decided is not None:
            raise TournamentStateError(_("this match is decided already"))
        index = match.players.index(player.id)
        table_id = match.table_id
        assert table_id is not None
        self._make_table(match, loaded)  # where a stop left it unmade
        if loaded.row.status == "paused":
            self._hold_paused(tournament_id)  # its clocks stopped before the play starts
        table = self.hub.get(table_id)
        try:
            token = table.take_seat(index, player.name)
        except StateError:  # taken: by them before, or just now by another of their requests
            if table.status == "finished":
                raise TournamentStateError(_("this match is decided already")) from None
            if self.accounts.account_at(table_id, index) != player.id:  # its link lost with a stop
                with contextlib.suppress(IntegrityError):  # else linked meanwhile
                    self.accounts.link_seat(table_id, index, player.id)
            token = table.renew_token(index)
        else:
            self.accounts.link_seat(table_id, index, player.id)
        return {"table": table_id, "seat": index, "token": token}

    def _director(self, loaded: Loaded, account: AccountRow | None) -> None:
        if account is None or account.id != loaded.row.director_id:
            raise NotDirectorError(_("only the tournament's director changes it"))

    # --- reading ------------------------------------------------------------------------------------

    def listed(self, limit: int = 100) -> list[dict[str, Any]]:
        """The tournaments, newest first: ``{"id", "name", "kind", "variant", "status", "director",
        "players", "created"}``."""
        counts = (
            select(EntryRow.tournament_id, func.count().label("players"))
            .group_by(EntryRow.tournament_id)
            .subquery()
        )
        query = (
            select(TournamentRow, AccountRow.name, counts.c.players)
            .join(AccountRow, AccountRow.id == TournamentRow.director_id)
            .outerjoin(counts, counts.c.tournament_id == TournamentRow.id)
            .order_by(TournamentRow.created.desc())
            .limit(limit)
        )
        with self._sessions() as session:
            return [
                {
                    "id": row.id,
                    "name": row.name,
                    "kind": row.settings["kind"],
                    "variant": row.settings["variant"],
                    "status": row.status,
                    "director": director,
                    "players": players or 0,
                    "created": utc_text(row.created),
                }
                for row, director, players in session.execute(query)
            ]

    def view(self, tournament_id: str, viewer: AccountRow | None) -> dict[str, Any]:
        """The tournament as anyone sees it (:func:`tournament_json`), with ``you``: what the logged-in
        ``viewer`` may do (direct it; their entry and matches)."""
        with self._sessions() as session:
            loaded = self._load(session, tournament_id)
        seen = tournament_json(loaded)
        if viewer is not None:
            mine = [
                match.id
                for match in loaded.matches
                if viewer.id in match.players and match.decided is None and match.second_id is not None
            ]
            seen["you"] = {
                "name": viewer.name,
                "director": viewer.id == loaded.row.director_id,
                "entered": any(entry.account_id == viewer.id for entry in loaded.entries),
                "matches": mine,
            }
        else:
            seen["you"] = None
        return seen


def _level(name: str) -> str:
    """The ladder's name of the bot level called ``name`` (an unknown one refused, saying which there are)."""
    try:
        return level(name).name
    except UnknownLevelError as error:
        raise TournamentSettingsError(f"level: {error}") from None


def _logged_in(account: AccountRow | None) -> AccountRow:
    if account is None:
        raise NotDirectorError(_("log in first"))
    return account


def _match(loaded: Loaded, match_id: int) -> TournamentMatchRow:
    for match in loaded.matches:
        if match.id == match_id:
            return match
    raise NotFoundError(_("there is no match {match} in this tournament").format(match=match_id))


def _not_stored(error: Exception) -> str:
    return _("the database could not store the tournament's step ({error}): try again").format(
        error=type(error).__name__
    )


def _moved() -> str:
    return _("the tournament kept changing while this was being done: try again")


def _status_word(status: str) -> str:
    return {"running": _("running"), "paused": _("paused")}.get(status, status)


def _winner_at(table: LiveTable) -> int | None:
    """The seat that won the table's match, from its engine's table as it is (held by the caller)."""
    engine = table.served.table if table.served is not None else None
    if not isinstance(engine, GameTable) or not isinstance(engine.series, Match):
        return None
    return engine.series.winner


def _winning_seat(table: LiveTable) -> int | None:
    """The seat that won the table's match, once the table is finished."""
    with table.lock:
        table.check()
        engine = table.served.table if table.served is not None else None
        if table.status != "finished" or not isinstance(engine, GameTable):
            return None
        series = engine.series
        return series.winner if isinstance(series, Match) else None
