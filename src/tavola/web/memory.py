"""The garbage collector of a process that serves (``tavola serve``).

Python frees almost everything the tables make by reference counting, the
moment it is let go: nothing a table does makes a reference cycle, and a
table the hub lets go is freed whole. What is left for the cyclic collector
is the young objects of each action and, now and then, a cycle made by a
library (a closed connection's protocol objects, for instance).

Python's own schedule would still stop every table, a few times a minute
under load, to walk every object every table holds (a full collection,
longer the more games are played at once: 223 ms for 900 tables 40 actions
into their matches). So while serving:

- everything loaded before the first request is frozen out of the
  collector's walks (``gc.freeze``);
- the young generations are collected often, so each collection is short
  (:data:`THRESHOLDS`), and a full one is never started by allocation;
- :class:`FullCollections` collects everything once every
  :data:`FULL_COLLECTION_SECONDS` from a thread of its own, for the rare
  cycles that grew old, and logs how long it took.
"""

from __future__ import annotations

import gc
import logging
import threading
import time

__all__ = ["FULL_COLLECTION_SECONDS", "THRESHOLDS", "FullCollections", "settle"]

LOG = logging.getLogger(__name__)

THRESHOLDS = (1_000, 4, 1 << 30)
"""The collector's thresholds while serving: the youngest generation collected once 1,000 more objects
are held than were, the middle one every 4th time, the oldest never by these counts
(:class:`FullCollections` does it).

The counts are of objects made less objects freed, so the young generations hold far more than that
under load: everything the actions of the last moments made and still hold, tens of thousands of
objects at 900 games. Kept small, each collection lasts a few milliseconds (24 ms at most in a run of
900 games) for the same work in all."""

FULL_COLLECTION_SECONDS = 600.0
"""How often everything is collected while serving."""


def settle() -> None:
    """Once the tables are loaded: collect, freeze what is held (never walked again) and collect the young
    generations only, by :data:`THRESHOLDS`."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


class FullCollections:
    """Collects everything every ``seconds`` in a thread of its own, from :meth:`start` to :meth:`stop`.

    >>> collections = FullCollections(seconds=0.01)
    >>> collections.start()
    >>> collections.stop()
    >>> collections.done >= 0
    True
    """

    def __init__(self, seconds: float = FULL_COLLECTION_SECONDS) -> None:
        self.seconds = seconds
        self.done = 0
        """How many full collections were made."""
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="tavola-collections", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stopping.wait(self.seconds):
            started = time.perf_counter()
            freed = gc.collect()
            self.done += 1
            LOG.info(
                "full garbage collection: %d objects freed in %.0f ms",
                freed,
                1000 * (time.perf_counter() - started),
            )
