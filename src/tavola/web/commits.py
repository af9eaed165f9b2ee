"""Group commit: the writes of several tables that arrive together, committed in one transaction.

Every action is stored before it is acknowledged, and on SQLite with
``synchronous=FULL`` each commit waits for the disk. Where several tables
write at once, :class:`GroupCommit` gathers the writes waiting and commits
them together, so that the disk is waited for once: each caller waits until
the transaction holding its write is committed, then gets its own result,
so an acknowledged action is as durable as before. Where writes have lately
come closer together than :data:`GATHER_SECONDS` (people playing many
tables, each action a write of its own), a transaction waits that long for
more before it commits: two milliseconds more for an action, against a
commit (the disk's flush above all) for each. A write that refuses
itself before writing anything (:class:`RefusedWriteError`, raised by its first
statement) is left out without harming the others; where any other error
fails the transaction, its writes are tried again one by one, so that each
error is only its own write's. A SQLite database in memory, which each
thread sees apart, is written from the caller's thread, one write a
transaction. Where several processes write one SQLite file, each
transaction first takes an exclusive lock on a file beside it
(``lock_file``), so that a process waits its turn asleep in the kernel
rather than in SQLite's retries, which sleep up to a tenth of a second
at a time.

>>> from sqlalchemy import create_engine, text
>>> engine = create_engine("sqlite://")
>>> commits = GroupCommit(engine)
>>> commits.write(lambda connection: connection.execute(text("SELECT 1 + 1")).scalar())
2
>>> commits.close()
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import IO, Any, TypeVar

from sqlalchemy.engine import Connection, Engine

__all__ = ["MOST_WRITES", "GroupCommit", "RefusedWriteError", "exclusive"]

MOST_WRITES = 64
"""The most writes one transaction holds."""

GATHER_SECONDS = 0.002
"""How long a transaction waits for more writes, where writes have lately come closer together than
this (:class:`GroupCommit`); at once where they come further apart."""

_Result = TypeVar("_Result")
_Write = tuple[str, Callable[[Connection], Any], Future[Any]]
"""A write waiting: its key, its work, and the future its caller waits on."""


@contextlib.contextmanager
def exclusive(lock_file: Path) -> Iterator[None]:
    """An exclusive lock on ``lock_file`` (made where missing) while the block runs: one process's turn
    among those sharing a SQLite file, the others waiting asleep in the kernel. Where there is no
    ``fcntl`` (Windows), the block runs at once."""
    try:
        import fcntl  # noqa: F401  (only to know whether there is one)
    except ImportError:
        yield
        return
    with lock_file.open("a") as held, _locked(held):
        yield


@contextlib.contextmanager
def _locked(held: IO[str]) -> Iterator[None]:
    """An exclusive lock on the open file ``held`` while the block runs (POSIX only)."""
    import fcntl

    fcntl.flock(held, fcntl.LOCK_EX)
    try:
        yield
    finally:
        fcntl.flock(held, fcntl.LOCK_UN)


class RefusedWriteError(Exception):
    """A write that refused itself before writing anything: the transaction goes on without it."""


class GroupCommit:
    """Commits the writes handed to :meth:`write`, those waiting together in one transaction, in a thread of
    its own (started at the first write)."""

    def __init__(self, engine: Engine, lock_file: Path | None = None) -> None:
        self.engine = engine
        self.lock_file = lock_file
        self._alone = engine.dialect.name == "sqlite" and engine.url.database in (None, "", ":memory:")
        self._waiting: queue.SimpleQueue[_Write | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._connection: Connection | None = None
        """The commit thread's connection (:meth:`_transaction`)."""
        self._lock_held: IO[str] | None = None
        """The commit thread's handle on :attr:`lock_file` (:meth:`_turn`)."""
        self._arrived = 0.0
        self._gap = 2 * GATHER_SECONDS
        """How far apart the writes have lately come, in seconds (an average weighing the latest most)."""
        self.transactions = 0
        """How many transactions were committed (or tried)."""
        self.writes = 0
        """How many writes they held."""

    def write(self, work: Callable[[Connection], _Result], key: str = "") -> _Result:
        """Do ``work`` in a transaction, with the writes of other threads waiting at the same time; its
        result once the transaction is committed, or its error (or the transaction's). A transaction
        does its writes in the order of their ``key`` (the table they change), so that two processes
        committing at once lock the same rows in the same order and never wait on each other."""
        if self._alone:
            with self.engine.begin() as connection:
                return work(connection)
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="tavola-commits", daemon=True)
                self._thread.start()
        done: Future[_Result] = Future()
        now = time.monotonic()
        gap = min(now - self._arrived, 2 * GATHER_SECONDS)  # a quiet while counts as no more than that
        self._gap += (gap - self._gap) / 4  # under the GIL: at worst a sample is lost
        self._arrived = now
        self._waiting.put((key, work, done))
        return done.result()

    def close(self) -> None:
        """Stop the thread, once the writes handed on before are done."""
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._waiting.put(None)
            thread.join(timeout=30)

    def _run(self) -> None:
        try:
            self._serve()
        finally:
            self._let_go()
            if self._lock_held is not None:
                self._lock_held.close()
                self._lock_held = None

    def _serve(self) -> None:
        while True:
            first = self._waiting.get()
            if first is None:
                return
            batch = [first]
            gather_until = time.monotonic() + GATHER_SECONDS if self._gap < GATHER_SECONDS else 0.0
            while len(batch) < MOST_WRITES:
                try:
                    more = self._waiting.get(timeout=max(0.0, gather_until - time.monotonic()))
                except queue.Empty:
                    break
                if more is None:
                    self._commit(batch)
                    return
                batch.append(more)
            self._commit(batch)

    @contextlib.contextmanager
    def _turn(self) -> Iterator[None]:
        """This process's turn to write, among those sharing :attr:`lock_file` (at once without one)."""
        if self.lock_file is None:
            yield
            return
        if self._lock_held is None:  # opened once, by the commit thread, and kept open until it ends
            self._lock_held = self.lock_file.open("a")
        with _locked(self._lock_held):
            yield

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[Connection]:
        """A transaction on the thread's own connection, kept open from one transaction to the next (a
        connection taken from the pool and given back for each would cost a rollback each time); after
        any error the connection is let go, and the next transaction opens another."""
        if self._connection is None:
            self._connection = self.engine.connect()
        try:
            with self._connection.begin():
                yield self._connection
        except BaseException:
            self._let_go(broken=True)
            raise

    def _let_go(self, *, broken: bool = False) -> None:
        """Close the thread's connection; ``broken``: it failed, and is not given back to the pool."""
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):  # a connection broken already has nothing to close
                if broken:
                    connection.invalidate()
                connection.close()

    def _commit(self, batch: list[_Write]) -> None:
        outcomes: list[tuple[Future[Any], Any, BaseException | None]] = []
        self.transactions += 1
        self.writes += len(batch)
        written = False
        try:
            with self._turn(), self._transaction() as connection:
                for _key, work, done in sorted(batch, key=lambda write: write[0]):
                    try:
                        outcomes.append((done, work(connection), None))
                    except RefusedWriteError as refused:
                        outcomes.append((done, None, refused))
                written = True  # what fails from here is the commit itself
        except Exception as error:
            if written or len(batch) == 1:  # a commit that failed may have happened: each caller is told
                for _key, _work, done in batch:
                    done.set_exception(error)
            else:  # a write's statement failed: each write is tried again alone
                for write in batch:
                    self._commit([write])
            return
        for done, result, refusal in outcomes:
            if refusal is not None:
                done.set_exception(refusal)
            else:
                done.set_result(result)
