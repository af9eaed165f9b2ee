"""The bot's searches, run in worker processes: no table, no request and no event loop waits on them.

A search (a bot's play or cube decision, a hint) takes from a tenth of a
second to several at the strongest level, all of it computing. Run in the
server's own process it would hold the interpreter while it runs, and every
other table's request would wait. :class:`SearchPool` runs each in one of a
few worker processes, each with the shipped networks loaded once; the
server's threads wait for the answer without holding anything another table
needs, and its event loop awaits it (:meth:`SearchPool.run`).

:class:`PooledBot` is a :class:`~tavola.bot.player.Bot` whose searches go to
the pool: the table layer and the bot's own decisions
(:func:`tavola.bot.actor.choose_action`) use it as they use any bot, so no
rule of the game is written here.

An analysis of a finished table (:func:`analysis_html`) is a long run of
searches: it goes to a worker too (:meth:`SearchPool.compute`), so that no
table waits for it. An analysis for the page to step through
(:func:`analysis_of`) tells its progress as it goes: from a worker, through
a queue the pool reads in a thread of its own (:meth:`SearchPool.compute_told`).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import multiprocessing.queues
import os
import pickle
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from tavola.analysis.analyze import Progress, analyze_series
from tavola.analysis.html import report_html
from tavola.analysis.model import Analysis
from tavola.bot.context import MONEY, CubeContext
from tavola.bot.evaluate import Evaluator
from tavola.bot.levels import HINT_LEVEL, Level
from tavola.bot.player import Bot, Choice
from tavola.dice import Dice
from tavola.i18n import use_language
from tavola.play import LegalPlays
from tavola.position import Position
from tavola.variants import STANDARD, Variant

__all__ = ["PooledBot", "SearchPool", "analysis_html", "analysis_of", "default_workers", "end_with_parent"]

_Answer = TypeVar("_Answer")
_FORGET = -1
"""Told in place of a step: the job is over, forget it."""
_HEARD_WITHIN = 5.0
"""Seconds a job waits, once over, for its last steps to be passed on."""


def default_workers() -> int:
    """As many worker processes as the machine has cores for this process (at least one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class SearchPool:
    """``workers`` processes running the bot's searches, started at once and warmed in the background.

    A worker answers ``(level, method, args, kwargs)`` with ``Bot(level).method(*args, **kwargs)`` on
    the shipped networks.
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.long_at_once = max(1, workers - 1)
        """How many long computations (:meth:`compute`) run at once; the others wait their turn."""
        self._long_works = asyncio.Semaphore(self.long_at_once)
        self._lock = threading.Lock()
        self._told: dict[str, tuple[Progress, asyncio.AbstractEventLoop, asyncio.Future[None]]] = {}
        """The jobs whose progress is awaited: whom to tell, and the future set once the job is forgotten."""
        self._progress: multiprocessing.queues.SimpleQueue[tuple[str, int, int] | None] = (
            multiprocessing.get_context("spawn").SimpleQueue()
        )
        threading.Thread(target=self._hear_progress, name="tavola-progress", daemon=True).start()
        self._executor = self._started()

    def _started(self) -> ProcessPoolExecutor:
        executor = ProcessPoolExecutor(
            self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(os.getpid(), self._progress),
        )
        for _ in range(self.workers):
            executor.submit(_warm)
        return executor

    def _replaced(self, broken: ProcessPoolExecutor) -> ProcessPoolExecutor:
        """A pool in place of ``broken`` (a worker died: killed, out of memory), unless another
        thread has replaced it already."""
        with self._lock:
            if self._executor is broken:
                broken.shutdown(wait=False, cancel_futures=True)
                self._executor = self._started()
            return self._executor

    def _submit(self, work: Callable[..., Any], *args: Any) -> tuple[ProcessPoolExecutor, Future[Any]]:
        executor = self._executor
        try:
            return executor, executor.submit(work, *args)
        except BrokenProcessPool:
            executor = self._replaced(executor)
            return executor, executor.submit(work, *args)

    def call(self, level: str | Level, method: str, *args: Any, **kwargs: Any) -> Any:
        """The search's answer, the calling thread waiting for it (holding nothing but its own table);
        a search whose worker died is asked once more of a new pool."""
        executor, future = self._submit(_search, level, method, args, kwargs)
        try:
            return future.result()
        except BrokenProcessPool:
            self._replaced(executor)
            return self._submit(_search, level, method, args, kwargs)[1].result()

    async def run(self, level: str | Level, method: str, *args: Any, **kwargs: Any) -> Any:
        """The search's answer, awaited: no thread waits for it."""
        return await self._awaited(_search, level, method, args, kwargs)

    async def compute(self, work: Callable[..., _Answer], *args: Any) -> _Answer:
        """``work(*args)`` run in a worker, awaited: a long computation made of many searches, such as
        :func:`analysis_html`. ``work`` is a module's function, and its arguments and answer can be
        pickled.

        At most :attr:`long_at_once` of them run at once (all the workers but one, where there are
        several), so that the bots' turns and the hints always find a worker that is not tied up.
        """
        async with self._long_works:
            answer: _Answer = await self._awaited(work, *args)
            return answer

    async def compute_told(
        self, job: str, told: Progress, work: Callable[..., _Answer], *args: Any
    ) -> _Answer:
        """:meth:`compute`, for a ``work`` that tells its progress under the name ``job``
        (:func:`analysis_of`): ``told(done, total)`` is called, from a thread of the pool, as the worker
        tells it."""
        loop = asyncio.get_running_loop()
        heard: asyncio.Future[None] = loop.create_future()
        self._told[job] = (told, loop, heard)
        try:
            return await self.compute(work, *args)
        finally:
            # The worker's every word was written before its answer came: the reader passes each step on,
            # then forgets the job, and says so.
            self._progress.put((job, _FORGET, _FORGET))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(heard), _HEARD_WITHIN)

    def _hear_progress(self) -> None:
        """Pass what the workers tell of their progress on to whoever waits for it, until :meth:`close`."""
        while (heard := self._progress.get()) is not None:
            job, done, total = heard
            listener = self._told.pop(job, None) if done == _FORGET else self._told.get(job)
            if listener is None:
                continue
            told, loop, forgotten = listener
            if done == _FORGET:
                loop.call_soon_threadsafe(_settled, forgotten)
            else:
                told(done, total)

    async def _awaited(self, work: Callable[..., Any], *args: Any) -> Any:
        """``work(*args)``'s answer, awaited; asked once more of a new pool if its worker died."""
        executor, future = self._submit(work, *args)
        try:
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:
            self._replaced(executor)
            return await asyncio.wrap_future(self._submit(work, *args)[1])

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
        self._progress.put(None)


class PooledBot(Bot):
    """A bot whose searches run in ``pool``; the rest (its cube arithmetic) is done here, on
    ``evaluator``, as any bot does it."""

    def __init__(self, pool: SearchPool, evaluator: Evaluator, level: str | Level) -> None:
        super().__init__(evaluator, level)
        self.pool = pool

    def hint(
        self,
        position: Position,
        dice: Dice,
        context: CubeContext | None = None,
        *,
        level: str | Level | None = None,
        legal: LegalPlays | None = None,
        chosen_double: bool = False,
    ) -> list[Choice]:
        best: list[Choice] = self._roll_searched("hint", position, dice, context, level, legal, chosen_double)
        return best

    def play(
        self,
        position: Position,
        dice: Dice,
        context: CubeContext | None = None,
        *,
        level: str | Level | None = None,
        legal: LegalPlays | None = None,
        chosen_double: bool = False,
    ) -> Choice:
        answer: Choice = self._roll_searched("play", position, dice, context, level, legal, chosen_double)
        return answer

    def _roll_searched(
        self,
        method: str,
        position: Position,
        dice: Dice,
        context: CubeContext | None,
        level: str | Level | None,
        legal: LegalPlays | None,
        chosen_double: bool,
    ) -> Any:
        """``method`` (:meth:`Bot.hint` or :meth:`Bot.play`) of a roll, asked of the pool; legal plays
        given are checked as the bot checks them, and made again in the worker (sending them costs
        more)."""
        if legal is not None:
            self._legal(position, dice, (context or MONEY).variant, legal)
        return self.pool.call(
            self._level(level), method, position, dice, context, chosen_double=chosen_double
        )

    def double_hint(
        self, position: Position, variant: Variant, level: str | Level | None = None
    ) -> list[Choice]:
        answer: list[Choice] = self.pool.call(self._level(level), "double_hint", position, variant)
        return answer

    def probabilities(
        self, position: Position, level: str | Level | None = None, variant: Variant = STANDARD
    ) -> npt.NDArray[np.float32]:
        answer: npt.NDArray[np.float32] = self.pool.call(
            self.level, "probabilities", position, level, variant
        )
        return answer


def analysis_html(series: bytes, level: Level, source: str, language: str) -> str:
    """The HTML report (:func:`~tavola.analysis.html.report_html`) of the match or session pickled in
    ``series``, analysed at ``level``, in ``language``: made in a worker (:meth:`SearchPool.compute`),
    or in a thread of a server without a pool, the same either way.

    >>> from tavola.bot.levels import analysis_level
    >>> from tavola.dicesource import RandomDice
    >>> from tavola.match import Match
    >>> match = Match(1, dice=RandomDice(seed=3), players=("Ann", "Ben"))
    >>> game = match.new_game()
    >>> game.roll() and game.play("13/11 13/8")
    >>> game.double()
    >>> game.drop()
    >>> report = analysis_html(pickle.dumps(match), analysis_level("0-ply"), "/t/t1", "it")
    >>> report.startswith('<!DOCTYPE html>\\n<html lang="it">'), "Ann" in report
    (True, True)
    """
    with use_language(language):
        return report_html(analyze_series(pickle.loads(series), level=level, source=source))


def _settled(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def analysis_of(series: bytes, level: Level, source: str, job: str, told: Progress | None = None) -> Analysis:
    """The analysis of the match or session pickled in ``series`` at ``level``, its progress (games
    judged) told as it goes: to ``told`` where given (in the server's process), else, in a worker of
    :meth:`SearchPool.compute_told`, to the pool under the name ``job``.

    >>> from tavola.bot.levels import analysis_level
    >>> from tavola.dicesource import RandomDice
    >>> from tavola.match import Match
    >>> match = Match(1, dice=RandomDice(seed=3), players=("Ann", "Ben"))
    >>> game = match.new_game()
    >>> game.roll() and game.play("13/11 13/8")
    >>> game.double()
    >>> game.drop()
    >>> steps = []
    >>> told = lambda done, total: steps.append((done, total))
    >>> analysis = analysis_of(pickle.dumps(match), analysis_level("0-ply"), "a.mat", "j1", told)
    >>> steps[-1], [decision.played for decision in analysis.decisions]
    ((4, 4), ['13/11 13/8'])
    """
    return analyze_series(pickle.loads(series), level=level, source=source, progress=told or _telling(job))


# --- in a worker process ------------------------------------------------------------------------

_bots: dict[str | Level, Bot] = {}
_progress: list[multiprocessing.queues.SimpleQueue[tuple[str, int, int] | None]] = []
"""The queue through which this worker tells the server the progress of its long computations."""


def _start_worker(
    server: int, progress: multiprocessing.queues.SimpleQueue[tuple[str, int, int] | None]
) -> None:
    from tavola.bot.hypergammon import solve_on_first_use

    solve_on_first_use(False)  # players wait for moves, not for a solve
    _progress.append(progress)
    end_with_parent(server)


def _telling(job: str) -> Progress | None:
    """What tells the server the progress of ``job``, in a worker; None elsewhere (nobody to tell)."""
    if not _progress:
        return None
    queue = _progress[0]
    return lambda done, total: queue.put((job, done, total))


def end_with_parent(parent: int) -> None:
    """End this process once the process that started it (``parent``) is gone, however it went
    (``kill -9`` too): watched from a thread of its own."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="tavola-parent", daemon=True).start()


def _bot(level: str | Level) -> Bot:
    bot = _bots.get(level)
    if bot is None:
        evaluator = next(iter(_bots.values())).evaluator if _bots else Evaluator.default()
        bot = _bots[level] = Bot(evaluator, level)
    return bot


def _warm() -> None:
    """Load the networks and compile the search before the first player waits for it."""
    _bot(HINT_LEVEL).hint(Position.start(), Dice(2, 1))


def _search(level: str | Level, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    return getattr(_bot(level), method)(*args, **kwargs)
