"""The tables the server holds: :class:`Hub` loads each once and keeps it, with the connections watching it.

Where other processes serve the same database (:attr:`Store.shared
<tavola.web.storage.Store.shared>`), the hub hears what they did
(:class:`~tavola.web.events.Listener`): a table one of them changed is read
again and its new state sent to this process's connections, and their chat
too. Now and then it looks for tables whose own actions wait on a process
whose lease ran out (:meth:`LiveTable.take_over
<tavola.web.live.LiveTable.take_over>`), and lets go of the tables nobody
has used for a while (read again at their next use).

>>> from tavola.web.options import read_options
>>> from tavola.web.storage import Store, open_database
>>> hub = Hub(Store(open_database("sqlite://")), make_bot=lambda level: None)
>>> table = hub.create(read_options({"kind": "game", "series": "single", "seats": [{}, {}]}))
>>> hub.get(table.id) is table, hub.state(table, None)["status"]
(True, 'open')
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tavola.bot.levels import HINT_LEVEL
from tavola.bot.player import Bot
from tavola.errors import TavolaError
from tavola.i18n import _
from tavola.web.actors import Actors
from tavola.web.events import Listener
from tavola.web.live import DamagedTableError, FinishingHook, LiveTable, NotFoundError, StorageError
from tavola.web.options import ChouetteOptions, GameOptions
from tavola.web.ratings import rate_unrated_tables, rate_when_finished, rating_as_finished
from tavola.web.state import table_state, table_states
from tavola.web.storage import LEASE_SECONDS, POOLED, ChatRow, Store
from tavola.web.wire import json_text, state_text

__all__ = ["IDLE_SECONDS", "MOST_CHANGES", "Connection", "Hub", "Message", "deliver", "state_message"]

LOG = logging.getLogger("tavola.web")

_Result = TypeVar("_Result")

MOST_CHANGES = 100
"""The most actions a state message brings; a connection further behind reads the log's route."""

IDLE_SECONDS = 600.0
"""How long a table nobody watches or uses stays loaded (a finished one: a tenth of it)."""

CLOCK_SECONDS = 0.2
"""How often the hub looks for a clock run out (:meth:`Hub.time_out`)."""

SWEEP_SECONDS = LEASE_SECONDS / 4
"""How often the hub looks for tables waiting on a lost lease, and for tables to let go."""


def state_message(connection: Connection, state: dict[str, Any]) -> dict[str, Any]:
    """The state a connection is sent when it asks (at its start, or saying who it is): no actions come
    with it, and the next state brings those done after it."""
    connection.shown = state["version"]
    return {"type": "state", "state": state, "log": {"start": state["version"], "entries": []}}


Message = dict[str, Any] | str
"""A message for a WebSocket: JSON data, or its text already written (:mod:`tavola.web.wire`)."""


@dataclass(eq=False)
class Connection:
    """A WebSocket watching a table: what it is sent waits in ``queue`` (filled from any thread)."""

    loop: asyncio.AbstractEventLoop
    address: str = "?"
    viewer: int | None = None
    token: str | None = field(default=None, repr=False)
    """The seat's token the connection was given (its cookie, or its hello): checked at each action, so
    that a seat taken up again on another device (:meth:`LiveTable.renew_token
    <tavola.web.live.LiveTable.renew_token>`) no longer acts from here."""
    queue: asyncio.Queue[Message] = field(default_factory=asyncio.Queue)
    shown: int = 0
    """The table's version in the last state the connection was sent."""

    def send(self, message: Message) -> None:
        self.loop.call_soon_threadsafe(self.queue.put_nowait, message)


def deliver(sends: list[tuple[Connection, Message]]) -> None:
    """Queue each message for its connection, waking each event loop once for all of them (rather than
    once a message: the wake-up costs more than the queueing)."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[Connection, Message]]] = {}
    for connection, message in sends:
        by_loop.setdefault(connection.loop, []).append((connection, message))
    for loop, batch in by_loop.items():
        loop.call_soon_threadsafe(_queue_all, batch)


def _queue_all(batch: list[tuple[Connection, Message]]) -> None:
    for connection, message in batch:
        connection.queue.put_nowait(message)


class Hub:
    """Every table in play, loaded once and kept; the connections watching each.

    Each table has its own lock (:attr:`LiveTable.lock`): the engine runs one
    action of a table at a time, and no table waits on another. The hub's
    own lock guards only its dictionaries. A table whose stored log no longer
    replays is set aside (:attr:`damaged`) and answered with
    :class:`~tavola.web.live.DamagedTableError`; the others are served.
    """

    def __init__(
        self, store: Store, make_bot: Callable[[str], Bot], *, now: Callable[[], float] = time.time
    ) -> None:
        self.store = store
        self.make_bot = make_bot
        self.now = now
        """The time of the tables' clocks, in Unix seconds (:mod:`tavola.web.clocks`)."""
        self.lock = threading.RLock()
        self.tables: dict[str, LiveTable] = {}
        self.damaged: dict[str, str] = {}
        """The tables set aside, with why."""
        self.watchers: dict[str, set[Connection]] = {}
        self._loading: dict[str, threading.Lock] = {}
        self._hint_bot: Bot | None = None
        self._used: dict[str, float] = {}
        """When each table was last asked for."""
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []
        self._listener: Listener | None = None
        self._refreshing: dict[str, list[dict[str, Any] | None]] = {}
        """The events of each table waiting for the thread bringing it up to date."""
        self._refreshers: ThreadPoolExecutor | None = None
        self.table_listeners: list[Callable[[LiveTable], None]] = []
        """Told of every change of every table, besides the hub's own (a tournament hears its tables end)."""
        self.table_finishing: list[FinishingHook] = []
        """Every table's finishing hooks, besides the ratings' (a tournament records its match's result
        with the action that ends it: :attr:`LiveTable.finishing <tavola.web.live.LiveTable.finishing>`)."""
        self._actors = Actors(POOLED, "tavola-act")
        """The threads that do the actions sent on WebSockets (:meth:`call`): as many as the database's
        connections, so that the actions of that many tables may wait on one group commit together."""

    async def call(self, work: Callable[..., _Result], *args: Any) -> _Result:
        """``work(*args)`` in one of the hub's threads (:class:`~tavola.web.actors.Actors`), awaited: the
        event loop goes on meanwhile. It is for the work of every action; the rest stays with
        Starlette's pool."""
        return await self._actors.call(work, *args)

    def start(self) -> None:
        """Start the hub's own work: hearing the other processes (where the store is shared), and the
        sweep (:meth:`sweep`)."""
        if self.store.shared:
            self._refreshers = ThreadPoolExecutor(4, thread_name_prefix="tavola-refresh")
            self._listener = Listener(self.store, self._heard, self._lost, self._watched)
            self._listener.start()
        sweeper = threading.Thread(target=self._sweep_often, name="tavola-sweep", daemon=True)
        sweeper.start()
        self._threads.append(sweeper)
        timer = threading.Thread(target=self._time_often, name="tavola-clocks", daemon=True)
        timer.start()
        self._threads.append(timer)

    def stop(self) -> None:
        self._stopping.set()
        if self._listener is not None:
            self._listener.stop()
        for thread in self._threads:
            thread.join(timeout=5)
        if self._refreshers is not None:
            self._refreshers.shutdown(wait=False, cancel_futures=True)
        self._actors.stop()
        self.store.close()

    def _sweep_often(self) -> None:
        while not self._stopping.wait(SWEEP_SECONDS):
            try:
                self.sweep()
            except Exception:
                LOG.exception("the sweep of the tables failed")

    def _time_often(self) -> None:
        while not self._stopping.wait(CLOCK_SECONDS):
            try:
                self.time_out()
            except Exception:
                LOG.exception("the tables' clocks were not looked at")

    def time_out(self) -> int:
        """Forfeit on time at every table held here whose running clock ran out
        (:meth:`LiveTable.time_out <tavola.web.live.LiveTable.time_out>`); how many. A table is locked
        only once its clock ran out, so a bot thinking at one holds up no other."""
        with self.lock:
            held = list(self.tables.values())
        done = 0
        for table in held:
            clock = table.clock
            if clock is None or table.status != "live" or clock.expired(self.now()) is None:
                continue
            try:
                done += table.time_out()
            except TavolaError as error:  # the database, or another process first: looked at again
                LOG.warning("table %s: the clock ran out, but: %s", table.id, error)
        return done

    def sweep(self) -> None:
        """Make the own actions of the tables left waiting by a process whose lease ran out (where the
        store is shared), and let go of the tables nobody watched or asked for lately."""
        now = time.monotonic()
        with self.lock:
            held = list(self.tables.values())
        for table in held:
            if (
                self.store.shared
                and now - table.changed_at > LEASE_SECONDS
                and self._looked_after(table.id, now)
            ):
                table.take_over()
        with self.lock:
            for table in held:
                idle = IDLE_SECONDS if table.status != "finished" else IDLE_SECONDS / 10
                unused = now - self._used.get(table.id, 0.0)  # asked for here, not changed elsewhere
                timed = table.clock is not None and table.clock.seat is not None and table.status == "live"
                if (
                    unused > idle
                    and not timed  # held while a clock runs, to be forfeited when it runs out
                    and not self.watchers.get(table.id)
                    and table.id not in self._loading
                ):
                    self.tables.pop(table.id, None)
                    self._used.pop(table.id, None)

    def _looked_after(self, table_id: str, now: float) -> bool:
        """Whether someone looks at the table through this process: a connection watches it, or it was
        asked for lately. Only then does this process make the table's own actions that another left
        waiting (:meth:`sweep`): a copy nobody here looks at is not kept up to date with the others'
        events, and bringing it up to date would be replaying, for nothing, what they did."""
        with self.lock:
            return (
                bool(self.watchers.get(table_id)) or now - self._used.get(table_id, 0.0) < IDLE_SECONDS / 10
            )

    def _watched(self, table_id: str) -> bool:
        """Whether a connection of this process watches the table: the events of the others are skipped
        undecoded where the database lets them be (SQLite), :meth:`_heard` doing nothing with them."""
        return table_id in self.watchers

    def _heard(self, event: dict[str, Any]) -> None:
        """Another process changed a table, or said something at it."""
        table_id = event.get("table")
        if not isinstance(table_id, str):
            return
        message = event.get("message")
        if isinstance(message, dict):
            seats = event.get("seats")
            self._send(table_id, message, seats if isinstance(seats, list) else None)
        elif self._watched(table_id):
            self._refresh(table_id, event)

    def _lost(self) -> None:
        """Events may have been missed: read every watched table again."""
        with self.lock:
            watched = list(self.watchers)
        for table_id in watched:
            self._refresh(table_id)

    def _refresh(self, table_id: str, event: dict[str, Any] | None = None) -> None:
        """Bring the table up to date in a thread of the hub's, with what ``event`` brings where it can
        (:meth:`LiveTable.heard <tavola.web.live.LiveTable.heard>`), else reading it again; events of one
        table are taken in order, and the thread does not wait on another's lock."""
        with self.lock:
            table = self.tables.get(table_id)
            if table is None or self._refreshers is None:
                return
            waiting = self._refreshing.get(table_id)
            if waiting is not None:  # a thread is on this table already: it takes this event next
                waiting.append(event)
                return
            self._refreshing[table_id] = [event]

        def refresh() -> None:
            while True:
                with self.lock:
                    events = self._refreshing.pop(table_id, [])
                    if not events:
                        return
                    self._refreshing[table_id] = []
                try:  # what the other processes stored, read or replayed, told the connections once
                    table.heard_all(events)
                except Exception as error:
                    LOG.warning("table %s could not be brought up to date: %s", table_id, error)

        self._refreshers.submit(refresh)

    def resume_all(self) -> int:
        """Load every unfinished table, replaying its actions; how many were loaded. A table that does
        not replay is set aside with one line in the log saying which and why."""
        rows = self.store.tables(("open", "live"), limit=1_000_000)
        loaded = 0
        for row in rows:
            try:
                self.get(row.id)
            except DamagedTableError:
                continue  # logged and set aside by get
            except Exception as error:  # the store failing now: the table is loaded at its next request
                LOG.warning("table %s was not loaded at start: %s", row.id, error)
                continue
            loaded += 1
        rate_unrated_tables(self.store, self.get)  # matches that ended as the server stopped
        return loaded

    def get(self, table_id: str) -> LiveTable:
        """The table, loaded from the store the first time; :class:`NotFoundError` where there is none,
        :class:`DamagedTableError` where it was set aside.

        A table is loaded holding a lock of its own, never the hub's: replaying a long session delays
        no other table.
        """
        with self.lock:
            self._used[table_id] = time.monotonic()
            table = self.tables.get(table_id)
            if table is not None:
                return table
            if table_id in self.damaged:
                raise DamagedTableError(self.damaged[table_id])
            loading = self._loading.setdefault(table_id, threading.Lock())
        with loading:
            try:
                with self.lock:  # loaded, or set aside, while this request waited for the loading lock
                    table = self.tables.get(table_id)
                    if table is not None:
                        return table
                    if table_id in self.damaged:
                        raise DamagedTableError(self.damaged[table_id])
                if self.store.table(table_id) is None:
                    raise NotFoundError(_("there is no table {table}").format(table=table_id))
                table = LiveTable.load(
                    table_id, self.store, self.make_bot, now=lambda: self.now(), prepare=self._hook
                )
            except DamagedTableError as error:
                with self.lock:
                    first = table_id not in self.damaged
                    self.damaged[table_id] = str(error)
                    self._loading.pop(table_id, None)
                if first:
                    LOG.error("%s", error)
                raise
            except BaseException:
                with self.lock:
                    self._loading.pop(table_id, None)
                raise
            with self.lock:  # kept and its loading lock gone at once: no second copy is ever loaded
                self._loading.pop(table_id, None)
                self.tables[table.id] = table
                return table

    def store_chat(self, table_id: str, seat: int, text: str) -> ChatRow:
        """Store a chat message (:class:`StorageError` where the database cannot)."""
        try:
            return self.store.append_chat(table_id, seat, text)
        except Exception as error:
            raise StorageError(_not_stored_chat(error)) from error

    def create(self, options: GameOptions | ChouetteOptions, table_id: str | None = None) -> LiveTable:
        """A new table (under ``table_id`` where given, else a fresh id)."""
        table = LiveTable.create(
            table_id or uuid.uuid4().hex[:16], options, self.store, self.make_bot, now=lambda: self.now()
        )
        self._hook(table)
        with self.lock:
            self.tables[table.id] = table
            return table

    def state(self, table: LiveTable, viewer: int | None) -> dict[str, Any]:
        """What ``viewer`` sees of ``table`` now: the stored table, never one ahead of the store."""
        with table.lock:
            table.check()
            return table_state(table, viewer)

    def hint_bot(self) -> Bot:
        """The bot that gives hints where no search pool does (made at the first hint, then kept)."""
        with self.lock:
            if self._hint_bot is None:
                self._hint_bot = self.make_bot(HINT_LEVEL.name)
            return self._hint_bot

    def _hook(self, table: LiveTable) -> None:
        """Give a table made or being loaded its listeners and finishing hooks."""
        table.listeners.append(self._changed)
        table.finishing.append(rating_as_finished)  # a won match's ratings, stored as it finishes
        table.listeners.append(rate_when_finished)  # the same, where that could not be done
        table.finishing.extend(self.table_finishing)
        table.listeners.extend(self.table_listeners)

    def watch(self, table_id: str, connection: Connection) -> None:
        """``connection`` watches the table: it is sent each new state, and this process follows the
        others' changes of the table as it hears them (:attr:`LiveTable.followed
        <tavola.web.live.LiveTable.followed>`)."""
        with self.lock:
            self.watchers.setdefault(table_id, set()).add(connection)
            self._follow(table_id, following=True)

    def unwatch(self, table_id: str, connection: Connection) -> None:
        with self.lock:
            watching = self.watchers.get(table_id)
            if watching is not None:
                watching.discard(connection)
                if not watching:
                    del self.watchers[table_id]
                    self._follow(table_id, following=False)

    def _follow(self, table_id: str, *, following: bool) -> None:
        """Mark the table followed, or no longer, where the hub hears the other processes (hold the lock)."""
        table = self.tables.get(table_id)
        if table is not None:
            table.followed = following and self._listener is not None

    def connections(self, table_id: str) -> list[Connection]:
        with self.lock:
            return list(self.watchers.get(table_id, ()))

    def _changed(self, table: LiveTable) -> None:
        """Send the new state to everyone watching, with the actions done since the state each was sent
        last (computed here, under the table's lock, the states of all viewers at once): what changed,
        never the whole session. A connection too far behind gets no actions, and reads the log's route."""
        connections = self.connections(table.id)
        if not connections:
            return
        states = table_states(table, {connection.viewer for connection in connections})
        texts = {viewer: json_text(state) for viewer, state in states.items()}
        version = len(table.actions)
        logs: dict[int, str] = {}
        sends: list[tuple[Connection, Message]] = []
        for connection in connections:
            start = connection.shown if 0 <= version - connection.shown <= MOST_CHANGES else version
            connection.shown = version
            if start not in logs:
                logs[start] = json_text({"start": start, "entries": table.log(start)})
            sends.append((connection, state_text(texts[connection.viewer], logs[start])))
        deliver(sends)

    def broadcast(self, table_id: str, message: dict[str, Any], seats: list[int] | None = None) -> None:
        """Send ``message`` to the connections watching the table (only those of ``seats`` where given),
        in every process serving the database."""
        self._send(table_id, message, seats)
        self.store.publish({"table": table_id, "message": message, "seats": seats})

    def _send(self, table_id: str, message: dict[str, Any], seats: list[int] | None) -> None:
        text = json_text(message)
        deliver(
            [
                (connection, text)
                for connection in self.connections(table_id)
                if seats is None or connection.viewer in seats
            ]
        )


def _not_stored_chat(error: Exception) -> str:
    return _("the database could not store the message ({error}): send it again").format(
        error=type(error).__name__
    )
