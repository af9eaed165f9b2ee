"""The tables the server holds: :class:`Hub` loads each once and keeps it, with the connections watching it.

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
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tavola.bot.levels import HINT_LEVEL
from tavola.bot.player import Bot
from tavola.i18n import _
from tavola.web.live import DamagedTableError, LiveTable, NotFoundError, StorageError
from tavola.web.options import ChouetteOptions, GameOptions
from tavola.web.state import table_state
from tavola.web.storage import ChatRow, Store

__all__ = ["MOST_CHANGES", "Connection", "Hub", "state_message"]

LOG = logging.getLogger("tavola.web")

MOST_CHANGES = 100
"""The most actions a state message brings; a connection further behind reads the log's route."""


def state_message(connection: Connection, state: dict[str, Any]) -> dict[str, Any]:
    """The state a connection is sent when it asks (at its start, or saying who it is): no actions come
    with it, and the next state brings those done after it."""
    connection.shown = state["version"]
    return {"type": "state", "state": state, "log": {"start": state["version"], "entries": []}}


@dataclass(eq=False)
class Connection:
    """A WebSocket watching a table: what it is sent waits in ``queue`` (filled from any thread)."""

    loop: asyncio.AbstractEventLoop
    address: str = "?"
    viewer: int | None = None
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    shown: int = 0
    """The table's version in the last state the connection was sent."""

    def send(self, message: dict[str, Any]) -> None:
        self.loop.call_soon_threadsafe(self.queue.put_nowait, message)


class Hub:
    """Every table in play, loaded once and kept; the connections watching each.

    Each table has its own lock (:attr:`LiveTable.lock`): the engine runs one
    action of a table at a time, and no table waits on another. The hub's
    own lock guards only its dictionaries. A table whose stored log no longer
    replays is set aside (:attr:`damaged`) and answered with
    :class:`~tavola.web.live.DamagedTableError`; the others are served.
    """

    def __init__(self, store: Store, make_bot: Callable[[str], Bot]) -> None:
        self.store = store
        self.make_bot = make_bot
        self.lock = threading.RLock()
        self.tables: dict[str, LiveTable] = {}
        self.damaged: dict[str, str] = {}
        """The tables set aside, with why."""
        self.watchers: dict[str, set[Connection]] = {}
        self._loading: dict[str, threading.Lock] = {}
        self._hint_bot: Bot | None = None

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
        return loaded

    def get(self, table_id: str) -> LiveTable:
        """The table, loaded from the store the first time; :class:`NotFoundError` where there is none,
        :class:`DamagedTableError` where it was set aside.

        A table is loaded holding a lock of its own, never the hub's: replaying a long session delays
        no other table.
        """
        with self.lock:
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
                table = LiveTable.load(table_id, self.store, self.make_bot)
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
                return self._watch(table)

    def store_chat(self, table_id: str, seat: int, text: str) -> ChatRow:
        """Store a chat message (:class:`StorageError` where the database cannot)."""
        try:
            return self.store.append_chat(table_id, seat, text)
        except Exception as error:
            raise StorageError(_not_stored_chat(error)) from error

    def create(self, options: GameOptions | ChouetteOptions) -> LiveTable:
        table = LiveTable.create(uuid.uuid4().hex[:16], options, self.store, self.make_bot)
        with self.lock:
            return self._watch(table)

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

    def _watch(self, table: LiveTable) -> LiveTable:
        table.listeners.append(self._changed)
        self.tables[table.id] = table
        return table

    def watch(self, table_id: str, connection: Connection) -> None:
        with self.lock:
            self.watchers.setdefault(table_id, set()).add(connection)

    def unwatch(self, table_id: str, connection: Connection) -> None:
        with self.lock:
            watching = self.watchers.get(table_id)
            if watching is not None:
                watching.discard(connection)
                if not watching:
                    del self.watchers[table_id]

    def connections(self, table_id: str) -> list[Connection]:
        with self.lock:
            return list(self.watchers.get(table_id, ()))

    def _changed(self, table: LiveTable) -> None:
        """Send the new state to everyone watching, with the actions done since the state each was sent
        last (computed here, under the table's lock, the state once per viewer): what changed, never the
        whole session. A connection too far behind gets no actions, and reads the log's route."""
        states: dict[int | None, dict[str, Any]] = {}
        version = len(table.actions)
        for connection in self.connections(table.id):
            if connection.viewer not in states:
                states[connection.viewer] = table_state(table, connection.viewer)
            start = connection.shown if 0 <= version - connection.shown <= MOST_CHANGES else version
            connection.shown = version
            log = {"start": start, "entries": table.log(start)}
            connection.send({"type": "state", "state": states[connection.viewer], "log": log})

    def broadcast(self, table_id: str, message: dict[str, Any]) -> None:
        for connection in self.connections(table_id):
            connection.send(message)


def _not_stored_chat(error: Exception) -> str:
    return _("the database could not store the message ({error}): send it again").format(
        error=type(error).__name__
    )
