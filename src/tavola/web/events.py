"""What the other processes serving the same database did, heard as it happens.

Every change a process makes to a shared database is published with the
transaction that stores it (:class:`~tavola.web.storage.Store`): on PostgreSQL as a ``NOTIFY`` on
:data:`~tavola.web.storage.CHANNEL`, delivered to every listening process
when the transaction commits; on SQLite as a row of ``tavola_events``, which
every process polls (SQLite commits one transaction at a time, so the rows'
numbers follow the commits). An event is a JSON object naming its ``table``;
:class:`Listener` hands each event of another process to its callback, and
calls ``lost`` when events may have been missed (the connection to
PostgreSQL lost and made again), so that the server reads every table it
shows again.

>>> from tavola.web.storage import Store, open_database
>>> engine = open_database("sqlite://")
>>> ours, theirs = Store(engine, shared=True), Store(engine, shared=True)
>>> heard = []
>>> listener = Listener(ours, heard.append, lambda: None)
>>> theirs.publish({"table": "t1"})
>>> listener.poll_once()
>>> heard
[{'table': 't1'}]
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from tavola.web.storage import CHANNEL, EVENTS_KEPT_SECONDS, Store

__all__ = ["POLL_SECONDS", "Listener"]

LOG = logging.getLogger("tavola.web")

POLL_SECONDS = 0.05
"""How often a process of a SQLite database looks for the others' events."""

_RECONNECT_SECONDS = 1.0
_READY_SECONDS = 10.0


class Listener:
    """Hears the events of the other processes sharing ``store``'s database, in a thread of its own
    (:meth:`start`, :meth:`stop`); ``heard`` gets each event, ``lost`` is called where some may have
    been missed. Where ``wanted`` is given, a SQLite database's events of the tables it does not want
    are skipped undecoded."""

    def __init__(
        self,
        store: Store,
        heard: Callable[[dict[str, Any]], None],
        lost: Callable[[], None],
        wanted: Callable[[str], bool] | None = None,
    ) -> None:
        self.store = store
        self.heard = heard
        self.lost = lost
        self.wanted = wanted
        self._stop = threading.Event()
        self._listening = threading.Event()
        self._thread: threading.Thread | None = None
        self._last = 0 if store.notifies else store.last_event()
        self._forgotten_at = time.monotonic()

    def start(self) -> None:
        """Start hearing, and return once what the others say from now on will be heard (PostgreSQL:
        once ``LISTEN`` is done, or after :data:`_READY_SECONDS` where the database does not answer; it is
        listened to again then, and what was missed read from the tables)."""
        target = self._listen if self.store.notifies else self._poll
        self._thread = threading.Thread(target=target, name="tavola-events", daemon=True)
        self._thread.start()
        if self.store.notifies:
            self._listening.wait(_READY_SECONDS)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _tell(self, origin: str, event: dict[str, Any]) -> None:
        if origin == self.store.origin:
            return
        try:
            self.heard(event)
        except Exception:
            LOG.exception("an event of another process could not be handled: %s", event)

    # --- SQLite: the events table ---------------------------------------------------------------

    def _poll(self) -> None:
        while not self._stop.wait(POLL_SECONDS):
            try:
                self.poll_once()
            except Exception as error:  # the database busy or gone a moment: tried again
                LOG.warning("the events of the other processes could not be read: %s", error)

    def poll_once(self) -> None:
        """Hand on the events stored since the last look; now and then, forget the old ones."""
        newest, events = self.store.events_after(self._last, self.wanted)
        if newest < self._last:  # the numbers started again (the file replaced, say)
            self._last = 0
            self.lost()
            newest, events = self.store.events_after(self._last, self.wanted)
        for number, origin, event in events:
            self._last = number
            self._tell(origin, event)
        self._last = max(self._last, newest)  # read up to there: this process's own are left out
        if time.monotonic() - self._forgotten_at > EVENTS_KEPT_SECONDS / 4:
            self._forgotten_at = time.monotonic()
            self.store.forget_events()

    # --- PostgreSQL: LISTEN -------------------------------------------------------------------------

    def _listen(self) -> None:
        import psycopg

        url = self.store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        first = True
        while not self._stop.is_set():
            try:
                with psycopg.connect(url, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    if not first:
                        self.lost()  # what was said while no one listened is read from the tables
                    first = False
                    while not self._stop.is_set():
                        for notice in connection.notifies(timeout=0.5):
                            event = json.loads(notice.payload)
                            self._tell(str(event.pop("origin", "")), event)
            except Exception as error:
                if self._stop.is_set():
                    return
                LOG.warning("listening to the other processes failed (%s); listening again", error)
                first = False
                self._stop.wait(_RECONNECT_SECONDS)
