"""A table being played on the server: its seats, its table of the engine, its dice, and its stored log.

:class:`LiveTable` drives a table of the engine (:class:`~tavola.table.Table`,
a two-player one or a chouette, as :mod:`tavola.web.kinds` serves it) for
people who reach it over the network. Every action, a person's, a bot's or a forced one, goes through the
table and is stored (one transaction each) before anyone is told of it; the
dice are :class:`~tavola.dicesource.VerifiableDice` whose secret is kept
with the table. Rebuilding a table is replaying its stored actions through
the engine with the same secret: the dice come out the same, so the game
does too (:meth:`LiveTable.load`).

A table is ``open`` until every person's seat is taken, ``live`` while it
is played and ``finished`` once its match, its single game or its session
is over, when the dice's secret is revealed. The action that ends it (the
last play, a drop, a resignation accepted, a forfeit, the session's end) is
stored with the status ``finished`` and whatever its end writes (the
:attr:`LiveTable.finishing` hooks': a rated match's ratings, a tournament's
record of the match's result), all in that action's one transaction.

Memory never runs ahead of storage. The engine applies an action before it
is written, so a write that fails (the database locked by another program,
a disk full) leaves the engine's table holding an action nobody stored:
the table then rebuilds itself from what was stored, in place and before
its lock is let go, so that every connection holding it sees the stored
table and nothing else (:class:`StorageError`). Where even reading fails,
the table stays marked and every later use tries again first.

Several processes may serve the same database (:attr:`Store.shared
<tavola.web.storage.Store.shared>`). Each keeps its own copy of a table and
brings it up to the stored revision before every use (:meth:`LiveTable.sync`,
replaying the actions another process stored); a write at a revision the
store has left behind changes nothing (:class:`~tavola.web.storage.MovedOnError`),
and the table is read again. The table's own actions (a bot's turn, a forced
play, the next game) are made by the process holding the table's lease:
the one that stored the action before them, or, once that lease has run
out (its process killed), whichever process looks at the table next.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import logging
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from sqlalchemy.engine import Connection
from sqlalchemy.exc import SQLAlchemyError

from tavola.actions import Played
from tavola.bot.player import Bot
from tavola.dicesource import VerifiableDice
from tavola.errors import IllegalActionError, SeatingError, TavolaError
from tavola.hooks import weak_hook
from tavola.i18n import _
from tavola.match import Forfeit
from tavola.schema import json_text
from tavola.table import GameTable, Seat
from tavola.web.actions import TABLE_ACTIONS, TableAction, is_table_action
from tavola.web.clocks import Clock, clock_of, forfeit_action, read_forfeit, time_text
from tavola.web.kinds import ServedTable, serve
from tavola.web.options import ChouetteOptions, GameOptions, read_options, seat_name
from tavola.web.storage import LEASE_SECONDS, MovedOnError, Store

__all__ = [
    "BotMaker",
    "DamagedTableError",
    "FinishingHook",
    "LiveTable",
    "NotFoundError",
    "RefusedError",
    "SeatState",
    "Status",
    "StorageError",
    "TableMovedError",
    "TokenError",
    "new_token",
    "not_playing",
    "token_hash",
]

LOG = logging.getLogger("tavola.web")
Status = Literal["open", "live", "finished"]
_Result = TypeVar("_Result")
BotMaker = Callable[[str], Bot]
"""Makes the bot for a seat, from its level."""
FinishingHook = Callable[["LiveTable"], Callable[[Connection], None] | None]
"""Asked as a table finishes: the write its end makes, in the transaction of the action ending it, or None
(:attr:`LiveTable.finishing`)."""


class NotFoundError(TavolaError):
    """No such table, or no such seat at it."""


class TokenError(TavolaError):
    """An action asked without the token of the seat it is for."""


class SeatTakenUpError(TokenError):
    """A token that no longer counts: its seat was taken up again on another device."""


class RefusedError(TavolaError):
    """An action the table refused: the engine's message, naming the seats by who sits there."""


class StateError(TavolaError):
    """Something the table cannot do in its state: a seat taken, a table not being played."""


class StorageError(TavolaError):
    """The database could not store what a table did: the table is as stored, and may be asked again."""


class TableMovedError(StateError):
    """An action refused because another server process changed the table first: look at it again."""


class DamagedTableError(TavolaError):
    """A table whose stored log no longer replays through the engine: it is set aside, not served."""


def not_playing(status: Status) -> str:
    """Why a table that is not live takes no action."""
    if status == "open":
        return _("this table waits for its players to sit down")
    return _("this table is finished")


def new_token() -> str:
    """A seat's secret token: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What is stored of a token: its SHA-256, in hexadecimal.

    >>> token_hash("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class SeatState:
    """A seat: its person's name once taken (a bot's at once), the bot's level, the token's hash."""

    name: str | None
    bot: str | None
    token_hash: str | None = None

    @property
    def taken(self) -> bool:
        return self.bot is not None or self.token_hash is not None


class LiveTable:
    """One table of the server; every method that reads or changes it holds :attr:`lock`, the table's own."""

    def __init__(
        self,
        table_id: str,
        options: GameOptions | ChouetteOptions,
        seats: list[SeatState],
        secret: str,
        store: Store,
        make_bot: BotMaker,
        *,
        status: Status = "open",
        now: Callable[[], float] = time.time,
    ) -> None:
        self.id = table_id
        self.options = options
        self.options_json: dict[str, Any] = options.model_dump(mode="json")
        """The options as JSON, made once (every state shows them): read it, never change it."""
        self.seats = seats
        self.store = store
        self.make_bot = make_bot
        self.now = now
        """The clocks' time: Unix seconds (:mod:`tavola.web.clocks`)."""
        self.clock: Clock | None = clock_of(options)
        """The players' clocks after the last action, where the table has a time control."""
        self.status: Status = status
        self.dice = VerifiableDice(bytes.fromhex(secret))
        self.lock = threading.RLock()
        self.actions: list[tuple[int | None, dict[str, Any]]] = []
        """Every action done, in order: the seat (None: the table itself) and the action's JSON."""
        self.listeners: list[Callable[[LiveTable], None]] = []
        """Told after every stored action (from the thread that made it, holding :attr:`lock`); once for
        a person's action and the table's own actions after it, where no bot sits at the table
        (:meth:`_told_once`)."""
        self.finishing: list[FinishingHook] = []
        """Asked, holding :attr:`lock`, as the table finishes (its engine's table over, the action that
        ended it about to be stored): each gives a write to make in the transaction that stores that action
        and the table finished (a finished match's ratings, a tournament's result), or None."""
        self.served: ServedTable[Any] | None = None
        """The engine's table, once the play has started."""
        self._replaying = False
        self._holding = False
        """Whether the listeners are told of changes at the end of the work in hand (:meth:`_told_once`)."""
        self._held = False
        """Whether a change waits to be told at the end of the work in hand."""
        self._unsaved: list[tuple[int | None, dict[str, Any]]] = []
        """The actions done while the listeners wait (:meth:`_told_once`), to be stored together, in one
        transaction, at the end of the work in hand (:meth:`_keeping_storage`)."""
        self._unsaved_end: list[Callable[[Connection], None]] | None = None
        """Where those actions end the table: the finishing hooks' writes, stored with them."""
        self._needs: Literal["reload", "settle"] | None = None
        """What the table must do before it is used again, after a write failed."""
        self._secret = secret
        self.revision = 0
        """The table's revision as stored (:class:`~tavola.web.storage.TableRow`): its changes so far."""
        self.changed_at = time.monotonic()
        """When this process last saw the table change."""
        self._looked_at = -1
        """The revision at which :meth:`take_over` last found nothing to do."""
        self._lease_read_at = -LEASE_SECONDS
        """When :meth:`take_over` last read the lease."""
        self.followed = False
        """Whether this process hears the events of the others sharing the store for this table and brings
        the copy up to date with each (:class:`~tavola.web.hub.Hub`: while a connection here watches it).
        An action is then judged against the copy as it is, without reading the table's revision first:
        a write at a revision left behind changes nothing all the same, and an action the copy refuses is
        judged again once the copy is up to date (:meth:`act`)."""
        self._legal: tuple[tuple[int, int, str, int], dict[int, list[dict[str, Any]]]] = ((-1, -1, "", 0), {})
        """Each seat's legal actions as listed at the change the key names (:meth:`legal_actions`)."""

    # --- making and loading ------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        table_id: str,
        options: GameOptions | ChouetteOptions,
        store: Store,
        make_bot: BotMaker,
        *,
        now: Callable[[], float] = time.time,
    ) -> LiveTable:
        """A new open table, stored; bots sit down at once."""
        if all(seat.bot is not None for seat in options.seats):
            raise StateError(_("a table needs at least one seat for a person"))
        seats = [
            SeatState(seat.name or (_bot_name(options, index) if seat.bot else None), seat.bot)
            for index, seat in enumerate(options.seats)
        ]
        secret = VerifiableDice().reveal()  # a fresh secret; this source is not used for dice
        store.create_table(
            table_id,
            options.kind,
            options.model_dump(mode="json"),
            secret,
            [(seat.name, seat.bot) for seat in seats],
        )
        table = cls(table_id, options, seats, secret, store, make_bot, now=now)
        return table

    @classmethod
    def load(
        cls,
        table_id: str,
        store: Store,
        make_bot: BotMaker,
        *,
        now: Callable[[], float] = time.time,
        prepare: Callable[[LiveTable], None] | None = None,
    ) -> LiveTable:
        """The table as stored, its actions replayed through the engine; a live one then carries on
        with what needs nobody (a bot's turn cut short, or a whole match between two bots), after
        ``prepare`` has given it its listeners and finishing hooks, so that they hear that too.

        A stored log the engine no longer takes raises :class:`DamagedTableError`, naming the table
        and the action at fault.
        """
        row = store.table(table_id)
        if row is None:
            raise NotFoundError(_("there is no table {table}").format(table=table_id))
        try:
            options = read_options(row.options)
            table = cls(table_id, options, [], row.secret, store, make_bot, now=now)
        except (TavolaError, ValueError) as error:  # options the server no longer takes, a bad secret
            raise DamagedTableError(_damaged(table_id, str(error))) from None
        if prepare is not None:
            prepare(table)
        with table.lock:
            table._reload()
            table._needs = "settle"
            table._catch_up(sync=False)
        return table

    def _reload(self) -> None:
        """Make this table what the store holds: seats, status, and the engine replayed from the log.

        Done in place, so that whoever holds this object sees the stored table.
        """
        row = self.store.table(self.id)
        if row is None:
            raise NotFoundError(_("there is no table {table}").format(table=self.id))
        # The row first: a revision read before the actions is never ahead of them, so a write made at
        # it never passes over an action this copy has not replayed.
        seats = [SeatState(seat.name, seat.bot, seat.token_hash) for seat in self.store.seats(self.id)]
        stored = self.store.actions(self.id)
        self.seats = seats
        self.status = row.status  # type: ignore[assignment]
        self.revision = row.revision
        self.changed_at = time.monotonic()
        self.dice = VerifiableDice(bytes.fromhex(self._secret))
        self.actions = []
        self.served = None
        self.clock = clock_of(self.options)
        if self.status == "open":
            self._read_clock()  # stopped before the play started (a tournament paused)
            return
        self._start_engine()
        self._replay([(action.number, action.seat, action.action) for action in stored])
        self._read_clock()
        if self.status == "finished":
            if row.status != "finished":  # its end was stored, its status not yet
                with contextlib.suppress(MovedOnError):  # else stored by another process meanwhile
                    self.revision = self.store.set_status(self.id, "finished", revision=self.revision)
            self.dice.reveal()

    def _replay(self, stored: list[tuple[int, int | None, dict[str, Any]]]) -> None:
        """Do the stored actions again through the engine (number, seat, action each), which must take
        each as it did."""
        self._replaying = True
        try:
            for number, seat, action in stored:
                try:
                    self._redo(seat, action)
                except Exception as error:
                    if _is_storage(error):
                        raise
                    refusal = self._refusal(error) if isinstance(error, TavolaError) else repr(error)
                    where = _("its stored action {number} ({action}) no longer replays: {error}").format(
                        number=number, action=json_text(action), error=refusal
                    )
                    raise DamagedTableError(_damaged(self.id, where)) from None
        finally:
            self._replaying = False

    def sync(self) -> bool:
        """Bring this copy of the table up to the store's, where another process changed it (one read of
        the table's revision when nothing changed); whether it changed. Hold the lock."""
        stored = self.store.revision(self.id)
        if stored is None:
            raise NotFoundError(_("there is no table {table}").format(table=self.id))
        if stored == self.revision:
            return False
        row = self.store.table(self.id)
        if row is None:
            raise NotFoundError(_("there is no table {table}").format(table=self.id))
        if self.status == "open" or self.served is None:
            self._reload()  # seats taken elsewhere, or the play started there
        else:
            newer = self.store.actions(self.id, len(self.actions))
            try:
                self._replay([(action.number, action.seat, action.action) for action in newer])
            except Exception:
                self._needs = "reload"  # half replayed: rebuilt whole at the next use
                raise
            if row.revision - self.revision > len(newer):  # more than actions: a seat's token renewed,
                for held, row_seat in zip(self.seats, self.store.seats(self.id), strict=True):  # or the
                    held.name, held.token_hash = row_seat.name, row_seat.token_hash  # clocks stopped
            self._read_clock()
            self.revision = row.revision
            self.changed_at = time.monotonic()
            if row.status == "finished" and self.status != "finished":
                self.status = "finished"
                self.dice.reveal()
        self._changed()
        return True

    def heard_all(self, events: list[dict[str, Any] | None]) -> None:
        """Another process changed the table: :meth:`heard` each event (None: read the table from the
        store), in order; the listeners are told once, of them all, as they are of a person's action
        and the table's own after it where it was made."""
        failed: Exception | None = None
        with self.lock, self._told_once():
            for event in events:
                try:
                    if event is None:
                        self._catch_up()
                    else:
                        self.heard(event)
                except Exception as error:  # the next event may still bring the table up to date
                    failed = failed or error
        if failed is not None:
            raise failed

    def heard(self, event: dict[str, Any]) -> None:
        """Another process changed the table: where ``event`` brings the actions it stored in one
        transaction (``revision`` after them, ``number`` of the first, ``actions``: each its seat and
        its JSON) and this copy is just that far behind, they are done here as they were there;
        otherwise the table is read from the store (:meth:`sync`)."""
        with self.lock:
            if self._needs is not None:
                self._catch_up()  # rebuilt from the store, or brought up to it, then settled
                return
            actions = event.get("actions")
            number = len(self.actions)
            if (
                isinstance(actions, list)
                and actions
                and all(isinstance(entry, list) and len(entry) == 2 for entry in actions)
                and all(isinstance(action, dict) for _seat, action in actions)
                and self.served is not None
                and self.status == "live"
                and event.get("revision") == self.revision + len(actions)
                and event.get("number") == number
            ):
                try:
                    self._replay(
                        [(number + index, seat, action) for index, (seat, action) in enumerate(actions)]
                    )
                except DamagedTableError:
                    self._needs = "reload"
                    return
                if self.clock is not None:
                    self.clock = self.clock.stored(event.get("clock"))
                self.revision += len(actions)
                self.changed_at = time.monotonic()
                self._changed()
            else:
                self._catch_up()

    def take_over(self) -> bool:
        """Make the table's own actions if they wait for a process whose lease has run out (killed in
        the middle of a bot's turn); whether the table was looked at. Each revision is looked at once."""
        with self.lock:
            if self.status != "live":
                return False
            if time.monotonic() - self._lease_read_at < LEASE_SECONDS:
                return False  # read lately: once a lease's length is often enough
            try:
                self._lease_read_at = time.monotonic()
                lease = self.store.lease(self.id)
                if lease is None:
                    return False
                revision, holder, left = lease
                held_elsewhere = holder != self.store.origin and left is not None and left > 0
                if revision == self._looked_at or held_elsewhere:
                    return False  # looked at already, or another process is at it
                self._catch_up()
                if self._own_turn() and not self._keeping_storage(self._settle_here, catch_up=False):
                    return True  # another process took the lease first: looked at again later
            except Exception as error:  # looked at again at the next sweep
                LOG.warning("table %s: its own actions were not made: %s", self.id, error)
                return True
            if not self._own_turn():
                self._looked_at = self.revision
            return True

    def _keeping_storage(self, work: Callable[[], _Result], *, catch_up: bool = True) -> _Result:
        """Do ``work``, which may change the table; should a write fail, the table goes back to what
        is stored before anyone else may look, and :class:`StorageError` says so (or
        :class:`TableMovedError`, where another process changed the table first).

        An error of the engine (an action refused) leaves the table untouched and passes as it is.
        """
        if catch_up:
            self._catch_up()
        try:
            result = work()
            self._save()
            return result
        except TavolaError:
            if self._unsaved:  # done here, not stored: the table goes back to what is stored
                self._forget_unsaved()
            raise
        except MovedOnError:
            self._drop_unsaved()
            self._needs = "reload"
            self._catch_up(sync=False)
            raise TableMovedError(_moved_on()) from None
        except Exception as error:
            self._drop_unsaved()
            self._needs = "reload"
            if _is_storage(error):
                LOG.warning("table %s: a write failed (%s); it is rebuilt from the database", self.id, error)
            else:
                LOG.exception("table %s: an error; it is rebuilt from the database", self.id)
            try:
                self._reload()
            except Exception as again:  # the database cannot be read either: try again at the next use
                LOG.warning("table %s: rebuilding it failed too (%s)", self.id, again)
            else:
                self._needs = "settle"
                self._changed()
            if _is_storage(error):
                raise StorageError(_not_stored(error)) from error
            raise

    def _save(self) -> None:
        """Store the actions done while the listeners waited, in one transaction (:meth:`_stored`)."""
        if not self._unsaved:
            return
        actions, self._unsaved = self._unsaved, []
        ending, self._unsaved_end = self._unsaved_end, None
        first = len(self.actions) - len(actions)
        clock = None if self.clock is None else self.clock.to_json()
        extra: dict[str, Any] = {} if ending is None else {"status": "finished", "also": ending}
        self.revision = self.store.append_actions(
            self.id, first, actions, revision=self.revision, clock=clock, **extra
        )
        self.changed_at = time.monotonic()

    def _drop_unsaved(self) -> None:
        """Let go of the actions waiting to be stored, and of the writes their end would make."""
        self._unsaved.clear()
        self._unsaved_end = None

    def _forget_unsaved(self) -> None:
        """Actions done here but never stored: the table is rebuilt from the store."""
        self._drop_unsaved()
        self._needs = "reload"
        try:
            self._reload()
        except Exception as again:  # the database cannot be read: tried again at the next use
            LOG.warning("table %s: rebuilding it failed (%s)", self.id, again)
        else:
            self._needs = "settle"

    def _catch_up(self, *, sync: bool = True) -> None:
        """Make the table the stored one: after a failed write, rebuild it from the store and carry on
        with what needs nobody; where other processes share the store, ``sync`` with it."""
        if sync and self.store.shared and self._needs != "reload":
            self._synced()
        if self._needs == "reload":
            try:
                self._reload()
            except TavolaError:
                raise
            except Exception as error:
                raise StorageError(_not_stored(error)) from error
            self._needs = "settle"
            self._changed()
        if self._needs == "settle":
            self._needs = None
            try:
                self._keeping_storage(self._settle_here, catch_up=False)
            except TavolaError:
                self._needs = self._needs or "settle"  # tried again at the next use
                raise

    def clocks_changed(self) -> None:
        """The table's clocks were stopped or started again in the store (with its revision, by a
        tournament paused or resumed): read again, whether or not other processes share the store. A
        read that fails leaves the table to be rebuilt at its next use (an action at its old revision is
        refused by the store meanwhile)."""
        with self.lock:
            try:
                self.sync()
            except Exception as error:
                LOG.warning("table %s: its clocks were not read again (%s)", self.id, error)
                self._needs = self._needs or "reload"

    def check(self) -> None:
        """Make sure the table is what the store holds, after a failed write (or raise
        :class:`StorageError`); whatever shows the table starts here."""
        with self.lock:
            self._catch_up()

    # --- reading -----------------------------------------------------------------------------

    @property
    def kind(self) -> str:
        return self.options.kind

    @property
    def names(self) -> list[str]:
        return [seat.name or "" for seat in self.seats]

    @property
    def secret(self) -> str | None:
        """The dice's secret, once the table is finished; None before."""
        return self._secret if self.status == "finished" else None

    def log(self, start: int = 0, stop: int | None = None) -> list[dict[str, Any]]:
        """The actions numbered ``start`` up to ``stop`` (the end, if None) as JSON, each with its seat
        (None: the table's own); hold the table's lock."""
        return [{"seat": seat, **action} for seat, action in self.actions[start:stop]]

    def seat_of_token(self, token: str | None) -> int | None:
        """The seat whose token this is, or None (a spectator). Where other processes share the store,
        a token this copy does not know is looked for again once the copy is up to date (the seat may
        have been taken through another process a moment ago); one this copy knows may have been given
        to another device through another process since: :meth:`act` checks it again, up to date."""
        if not token:
            return None
        found = self._seat_of(token)
        if found is None and self.store.shared:
            with self.lock:
                self._catch_up()
                found = self._seat_of(token)
        return found

    def _seat_of(self, token: str) -> int | None:
        wanted = token_hash(token)
        for index, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, wanted):
                return index
        return None

    def side_of_seat(self, index: int) -> list[int]:
        """The seats playing on the same side as seat ``index`` in the chouette game in play (the box
        and its partner, or the team), ``index`` among them; empty when it plays in no such game."""
        if self.served is None or self.status != "live":
            return []
        return list(self.served.table.side(index))

    def to_act(self) -> list[int]:
        """The seats that may act now (at a chouette, several may)."""
        if self.status != "live":
            return []
        seats = [index for index in range(len(self.seats)) if self.legal_actions(index)]
        return seats

    def legal_actions(self, index: int) -> list[dict[str, Any]]:
        """What seat ``index`` may do now, as JSON: the engine's legal actions, and the table's.

        Listed once per change of the table (its revision, actions and status) and kept: the state
        sent to every viewer, who is to act and the check of an action all ask for them. Read the list,
        never change it."""
        key = (self.revision, len(self.actions), self.status, id(self.served))
        memo = self._legal
        if memo[0] != key:
            memo = self._legal = (key, {})
        listed = memo[1].get(index)
        if listed is None:
            listed = memo[1][index] = self._list_legal(index)
        return listed

    def _list_legal(self, index: int) -> list[dict[str, Any]]:
        if self.status != "live" or self.seats[index].bot is not None:
            return []
        served = self.served
        assert served is not None
        return served.legal_json(index) + [{"action": name} for name in self._table_actions()]

    def _table_actions(self) -> tuple[TableAction, ...]:
        """The table's actions open to every person now: between games of a session or a chouette."""
        served = self.served
        assert served is not None
        table = served.table
        waiting = not (table.in_game or table.is_over or table.next_game_due or served.one_game)
        return TABLE_ACTIONS if waiting else ()

    # --- acting ------------------------------------------------------------------------------

    def take_seat(self, index: int, name: str | None, *, again: bool = True, held: str | None = None) -> str:
        """Seat a person at ``index``: the seat's token (stored only as its hash). The last seat taken
        starts the play. Where another process changed the table first, it is read again and the seat
        asked for once more (``again``). ``held``: the hash of a token the person holds already (a
        seek's secret), which becomes the seat's; no token is made then, and the answer is empty."""
        with self.lock:
            self._catch_up()
            seat = self._seat(index)
            if seat.taken:
                raise StateError(_("seat {seat} is taken").format(seat=index))
            name = seat_name((name or "").strip() or seat.name or "")
            others = [
                other.name for number, other in enumerate(self.seats) if number != index and other.taken
            ]
            if name in others:
                raise SeatingError(_("{player} is at the table already").format(player=name))
            token = new_token() if held is None else ""
            hashed = token_hash(token) if held is None else held
            last = all(other.taken for number, other in enumerate(self.seats) if number != index)
            try:
                self.revision = self.store.take_seat(
                    self.id, index, name, hashed, revision=self.revision, status="live" if last else None
                )
            except MovedOnError:
                self._needs = "reload"
                self._catch_up(sync=False)
                if again:
                    return self.take_seat(index, name, again=False, held=held)
                raise TableMovedError(_moved_on()) from None
            except Exception as error:
                self._needs = "reload"  # the write may have happened after all
                raise StorageError(_not_stored(error)) from error
            seat.name, seat.token_hash = name, hashed
            if not last:
                self._changed()
                return token
            self.status = "live"
            # The seat is stored, so its token is theirs even if what follows is not: the play then
            # starts at the table's next request.
            try:
                with self._told_once():
                    self._keeping_storage(self._start, catch_up=False)
            except Exception:  # logged by _keeping_storage where it is not the database's
                self._needs = self._needs or "settle"
            return token

    def renew_token(self, index: int, *, again: bool = True) -> str:
        """A new token for the person at seat ``index`` (taken), who comes back from another device: the
        seat's earlier token no longer counts. Only for a person the server knows is theirs (an
        account's linked seat, :meth:`tavola.web.accounts.Accounts.account_at`)."""
        with self.lock:
            self._catch_up()
            seat = self._seat(index)
            if not seat.taken or seat.bot is not None:
                raise StateError(_("seat {seat} is nobody's yet: take it").format(seat=index))
            token = new_token()
            hashed = token_hash(token)
            try:
                self.revision = self.store.take_seat(
                    self.id, index, seat.name or "", hashed, revision=self.revision
                )
            except MovedOnError:
                self._needs = "reload"
                self._catch_up(sync=False)
                if again:
                    return self.renew_token(index, again=False)
                raise TableMovedError(_moved_on()) from None
            except Exception as error:
                self._needs = "reload"
                raise StorageError(_not_stored(error)) from error
            seat.token_hash = hashed
            return token

    def _start(self) -> None:
        self._start_engine()
        self._read_clock()  # stopped before the play started (a tournament paused)
        self._changed()
        self._settle()

    def act(self, index: int, data: object, version: int | None = None, *, token: str | None = None) -> None:
        """Do the action ``data`` (JSON) for seat ``index``, then whatever needs nobody; a refused
        action raises the engine's :class:`~tavola.errors.TavolaError`, the table untouched.

        ``version``, when given, is the table's version (how many actions it has stored) that the
        action was chosen at: at any other version the action is refused, so an action sent again
        (its answer lost with a connection) is never done twice. ``token``, when given, is the token
        the seat was found by: it must still be the seat's once the table is up to date with the store
        (:class:`SeatTakenUpError` where the seat was taken up again on another device, through any
        process). A write that fails raises :class:`StorageError`, the table as stored.
        """
        with self.lock, self._told_once():
            if not (self.followed and self.store.shared):
                self._act_judged(index, data, version, token, sync=True)
                return
            try:
                self._act_judged(index, data, version, token, sync=False)
            except (RefusedError, StateError, TokenError):  # judged against the copy as this process heard
                if not self._synced():  # it: where the store has nothing newer, the refusal stands
                    raise
                self._act_judged(index, data, version, token, sync=False)

    def _synced(self) -> bool:
        """:meth:`sync`, its storage errors as :class:`StorageError`; whether the table changed."""
        try:
            return self.sync()
        except TavolaError:
            raise
        except Exception as error:
            if not _is_storage(error):
                raise
            raise StorageError(_not_stored(error)) from error

    def _act_judged(
        self, index: int, data: object, version: int | None, token: str | None, *, sync: bool
    ) -> None:
        """:meth:`act`'s checks and its work on the table as it is here, after reading the store's
        revision (``sync``); judged again where the write finds another process changed the table first."""
        for attempt in range(2):
            self._catch_up(sync=sync)
            if token is not None and self._seat_of(token) != index:
                raise SeatTakenUpError(taken_up_again())
            self._time_out()  # a player out of time loses before any action comes too late
            if self.status != "live":
                raise StateError(not_playing(self.status))
            if self.seats[index].bot is not None:
                raise TokenError(_("seat {seat} is the bot's").format(seat=index))
            if version is not None and version != len(self.actions):
                moved_on = _("the table has moved on: the action was for version {version}, it is at {now}")
                raise StateError(moved_on.format(version=version, now=len(self.actions)))
            try:
                self._keeping_storage(lambda: self._act(index, data), catch_up=False)
                return
            except TableMovedError:  # the table changed first (read again): judged again at the new
                if attempt == 1 or (version is not None and version != len(self.actions)):  # state,
                    raise  # where no action was stored meanwhile (its clocks stopped) at its version

    def _act(self, index: int, data: object) -> None:
        try:
            self._do(index, data)
        except TavolaError as error:
            raise RefusedError(self._refusal(error)) from None
        try:
            self._settle()
        except MovedOnError:  # the action is stored; another process went on with the table's own
            self._needs = "reload"
            self._catch_up(sync=False)

    def _refusal(self, error: TavolaError) -> str:
        """What the engine says of a refused action, naming the seats by who sits there."""
        return self.served.table.refusal(error) if self.served is not None else str(error)

    def _seat(self, index: int) -> SeatState:
        if not 0 <= index < len(self.seats):
            raise NotFoundError(_("there is no seat {seat} at this table").format(seat=index))
        return self.seats[index]

    def _do(self, index: int | None, data: object) -> None:
        """Read ``data`` and do it through the table, as seat ``index`` (None: the table)."""
        assert self.served is not None
        forfeit = read_forfeit(data) if index is None else None  # the table's own: never a person's
        if forfeit is not None:
            self._forfeit(forfeit)
            return
        action = self.served.read(data)
        if is_table_action(action):
            self._table_action(index, action)
        else:
            assert index is not None, "only the table's own actions have no seat"
            self.served.table.act(index, action)

    def _table_action(self, index: int | None, action: TableAction) -> None:
        if index is not None and action not in self._table_actions():
            raise IllegalActionError(
                _("{action}: the table takes it between the games of a money session or a chouette").format(
                    action=action
                )
            )
        if action == "start_game":
            assert self.served is not None
            self.served.table.start_game()
        self._stored(index, {"action": action})
        if action == "end_session":
            self._finish()

    def _redo(self, index: int | None, data: dict[str, Any]) -> None:
        """Replay a stored action: the engine must take it as it did (anything else is a broken store)."""
        self._do(index, data)

    def _own_turn(self) -> bool:
        """Whether the table waits on nobody but itself: a bot's turn, a forced play, the next game."""
        return self.status == "live" and not self.to_act()

    def _settle_here(self) -> bool:
        """:meth:`_settle`, where no other process holds the lease on the table's own actions (taken
        here first, where several share the store); False where another holds it."""
        if self.store.shared and self._own_turn() and not self.store.take_lease(self.id, self.revision):
            return False  # another process is making them; looked at again once its lease runs out
        try:
            self._settle()
        except MovedOnError:  # another process made them after all: read what it stored
            self._needs = "reload"
            self._catch_up(sync=False)
        return True

    def _settle(self) -> None:
        """Make what needs nobody: the bots' actions and forced plays, the next game of a match, the end."""
        if self.status != "live":
            return
        assert self.served is not None
        table = self.served.table
        while True:
            table.advance()
            if table.in_game:
                return
            if table.is_over or self.served.one_game:
                self._finish()
                return
            if not table.next_game_due:
                return  # a money session or a chouette: the people say whether to play on
            self._table_action(None, "start_game")

    def _finish(self) -> None:
        """The engine's table over: the table finished here, its dice's secret revealed, where the action
        that ended it has not done so already (:meth:`_stored` stores that action with the status
        ``finished`` and the finishing hooks' writes, in one transaction)."""
        if self.status == "finished":
            return
        self.status = "finished"
        self.dice.reveal()
        self._changed()

    # --- forfeits and clocks -------------------------------------------------------------------

    def forfeit(self, seat: int, reason: str) -> None:
        """Seat ``seat`` loses the match (in money play the game in progress, and the session ends) for
        ``reason``: out of ``time``, ``absent`` (never came to play), ``left``, ``award`` (a tournament's
        director gave the match to the other player). Stored as the table's own
        action (``{"action": "forfeit", "player", "reason", "at"}``), so a replay does it again; the
        table is then finished. Refused at a table not live, at a chouette, and for an unknown reason.
        """
        with self.lock:
            self._catch_up()
            if self.status != "live":
                raise StateError(not_playing(self.status))
            self._seat(seat)
            forfeit = Forfeit(seat, reason, time_text(self.now()))
            self._keeping_storage(lambda: self._do(None, forfeit_action(forfeit)), catch_up=False)

    def time_out(self) -> bool:
        """Forfeit for the player whose clock ran out, if one did (on time: ``time``); whether one did.
        Where another process did it first, the table is read again."""
        with self.lock:
            if self.clock is None or self.status != "live" or self.clock.expired(self.now()) is None:
                return False
            self._catch_up()
            return self._time_out()

    def _time_out(self) -> bool:
        """:meth:`time_out` on a table up to date, holding its lock."""
        seat = None if self.clock is None or self.status != "live" else self.clock.expired(self.now())
        if seat is None:
            return False
        forfeit = Forfeit(seat, "time", time_text(self.now()))
        self._keeping_storage(lambda: self._do(None, forfeit_action(forfeit)), catch_up=False)
        return True

    def _forfeit(self, forfeit: Forfeit) -> None:
        table = self.served.table if self.served is not None else None
        if not isinstance(table, GameTable):
            raise StateError(_("a chouette has no forfeits"))
        table.forfeit(forfeit)
        self._stored(None, forfeit_action(forfeit))
        self._finish()

    def _clock_now(self) -> Clock | None:
        """The clocks once the action just done is stored: the turn that ran ends where the table now
        waits for someone else (the bot and the time between games are not timed)."""
        table = self.served.table if self.served is not None else None
        if self.clock is None or not isinstance(table, GameTable):
            return self.clock
        seat = table.seat_to_act
        if seat is not None and self.seats[seat].bot is not None:
            seat = None
        turn = sum(1 for entry in table.game.log if isinstance(entry.action, Played))
        return self.clock.after(seat, game=len(table.series.games), turn=turn, now=self.now())

    def _read_clock(self) -> None:
        """The clocks as stored with the last action replayed (kept as they are where the store holds
        them for a later action, which a sync brings)."""
        if self.clock is None:
            return
        row = self.store.clock(self.id)
        if row is not None and row.number == len(self.actions) - 1:
            self.clock = self.clock.stored(row.clock)
        if self.status == "finished":  # no clock runs or stands stopped once the table is over
            self.clock = self.clock.resumed(self.now())

    # --- the engine --------------------------------------------------------------------------

    def _start_engine(self) -> None:
        """Sit everybody down at the engine's table (the first game starts with it)."""
        seats = [Seat(name, seat.bot) for name, seat in zip(self.names, self.seats, strict=True)]
        bots = {index: self.make_bot(seat.bot) for index, seat in enumerate(self.seats) if seat.bot}
        self.served = serve(self.options, seats, self.dice, bots, weak_hook(self._stored))

    def _stored(self, index: int | None, data: dict[str, Any]) -> None:
        """Keep an action done: stored in its own transaction, then the listeners told. The action that
        ends the table is stored with the status ``finished`` and the finishing hooks' writes, in that
        one transaction; replayed, it finishes the table here as it did."""
        ends = self._ends(data)
        if not self._replaying:
            clock = self._clock_now()
            if ends and clock is not None:  # the table over: its clocks no longer stopped (a tournament
                clock = clock.resumed(self.now())  # paused), as no resume will reach a finished table
            writes = [write for hook in self.finishing if (write := hook(self)) is not None] if ends else []
            if self._holding:  # stored with the others done before the listeners are told (_save)
                self._unsaved.append((index, data))
                if ends:
                    self._unsaved_end = writes
            else:
                timed: dict[str, Any] = {} if clock is None else {"clock": clock.to_json()}  # with it
                if ends:
                    timed.update(status="finished", also=writes)
                self.revision = self.store.append_action(
                    self.id, len(self.actions), index, data, revision=self.revision, **timed
                )
                self.changed_at = time.monotonic()
            self.clock = clock
        self.actions.append((index, data))
        if ends:
            self.status = "finished"
            self.dice.reveal()
        self._changed()

    def _ends(self, data: dict[str, Any]) -> bool:
        """Whether the action ``data``, just done, ends the table: the session ended, or the engine's
        table over (the match won or forfeited, the single game played, a money session forfeited)."""
        if self.status != "live" or self.served is None:
            return False
        if data.get("action") == "end_session":
            return True
        table = self.served.table
        return not table.in_game and (table.is_over or self.served.one_game)

    def _changed(self) -> None:
        if self._replaying:
            return
        if self._holding:
            self._held = True
            return
        for listener in list(self.listeners):
            listener(self)

    @contextlib.contextmanager
    def _told_once(self) -> Iterator[None]:
        """Tell the listeners once, at the end, of the changes made inside: a person's action and the
        table's own actions after it (a forced roll, a forced play, the next game) make one new state,
        so no viewer is shown, and no player acts on, a state the table has already left; and they are
        stored in one transaction (:meth:`_save`), which the other processes hear as one change. Where
        a bot sits at the table, each change is stored and told at once: the person's action is shown
        while the bot thinks."""
        if self._holding or any(seat.bot is not None for seat in self.seats):
            yield
            return
        self._holding = True
        try:
            yield
        finally:
            self._holding = False
            if self._unsaved:  # a change made outside _keeping_storage, which stores them: never kept
                LOG.error("table %s: actions done were not stored; it is rebuilt from the database", self.id)
                self._forget_unsaved()
            if self._held:
                self._held = False
                self._changed()


def taken_up_again() -> str:
    """What a device whose seat was taken up again on another device is told when it acts."""
    return _("this seat was taken up again on another device: sit down again here to play from here")


def _is_storage(error: Exception) -> bool:
    """Whether ``error`` is the database's (or the disk's) rather than a fault of the server's code."""
    return isinstance(error, SQLAlchemyError | sqlite3.Error | OSError)


def _not_stored(error: Exception) -> str:
    return _(
        "the database could not store the table's action ({error}): the table is as stored; "
        "look at it again and retry"
    ).format(error=type(error).__name__)


def _moved_on() -> str:
    return _("another of the server's processes changed the table first: look at it again")


def _damaged(table_id: str, why: str) -> str:
    return _("table {table} is set aside: {why}").format(table=table_id, why=why)


def _bot_name(options: GameOptions | ChouetteOptions, index: int) -> str:
    """A bot's name at the table: Tavola, then Tavola 2, Tavola 3... for the bots after the first."""
    before = sum(1 for seat in options.seats[:index] if seat.bot is not None)
    return "Tavola" if before == 0 else f"Tavola {before + 1}"
