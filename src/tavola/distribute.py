"""One way to run ordered, independent pieces of work: here, in processes, or on a Ray cluster.

:class:`Spread` says where the work runs; :meth:`Spread.map` calls
``function(shared, item)`` for each item and yields the results in the
order of the items, whatever order they finish in. ``shared`` (an
evaluator, the settings of a rollout) is sent once to each process or, on
Ray, put once in the object store; ``function`` is a module-level callable,
so that other processes can import it. Closing the iterator early (a
rollout that reached its target) cancels the items not yet begun.

* ``Spread()``: one process, this one;
* ``Spread(workers=4)``: four processes started afresh (spawned, so that no
  process copies another's threads);
* ``Spread(ray="auto")`` or ``Spread(ray="10.0.0.5:6379")``: one Ray task
  per item, on the cluster at that address (``"auto"``: the one this
  machine belongs to), or on the Ray already started in this process. Ray
  is an optional extra: ``pip install 'tavola[distributed]'``.

Ray runs its tasks with one BLAS thread unless told otherwise, and the
BLAS library sums in another order with one thread than with several, so
Ray's tasks are given this process's BLAS thread settings
(:func:`blas_settings`): the same work gives the same bits here and there.
Machines of a cluster that differ in this way can differ in the last bits;
``OPENBLAS_NUM_THREADS=1`` everywhere makes them agree.

>>> list(Spread().map(pow, 2, [1, 5, 10]))
[2, 32, 1024]
>>> Spread(workers=0)
Traceback (most recent call last):
...
tavola.distribute.SpreadError: work is spread over 1 process or more, not 0
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from tavola.errors import TavolaError
from tavola.i18n import _

Shared = TypeVar("Shared")
Item = TypeVar("Item")
Result = TypeVar("Result")

INSTALL_RAY = "pip install 'tavola[distributed]'"
"""The command that installs Ray for Tavola."""


class SpreadError(TavolaError):
    """A :class:`Spread` that cannot be: a bad number of processes, or Ray asked for and missing."""


@dataclass(frozen=True)
class Spread:
    """Where independent pieces of work run: ``workers`` processes, or Ray at the address ``ray``.

    >>> Spread(workers=2)
    Spread(workers=2, ray=None)
    """

    workers: int = 1
    ray: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.workers, bool) or not isinstance(self.workers, int) or self.workers < 1:
            raise SpreadError(
                _("work is spread over 1 process or more, not {value}").format(value=self.workers)
            )
        if self.ray is not None and (not isinstance(self.ray, str) or not self.ray.strip()):
            raise SpreadError(
                _("Ray is reached at an address or 'auto', not {value}").format(value=repr(self.ray))
            )

    def map(
        self, function: Callable[[Shared, Item], Result], shared: Shared, items: Iterable[Item]
    ) -> Iterator[Result]:
        """``function(shared, item)`` for each item, yielded in the order of ``items``.

        Closing the iterator before the end cancels the work not yet begun.
        """
        if self.ray is not None:
            return _on_ray(self.ray, function, shared, list(items))
        if self.workers == 1:
            return (function(shared, item) for item in items)
        return _in_processes(self.workers, function, shared, list(items))


# --- processes ------------------------------------------------------------------------------------------

_worker_shared: Any = None


def _start_worker(shared: object) -> None:
    global _worker_shared
    _worker_shared = shared


def _call_in_worker(function: Callable[[Any, Item], Result], item: Item) -> Result:
    return function(_worker_shared, item)


def _in_processes(
    workers: int, function: Callable[[Shared, Item], Result], shared: Shared, items: list[Item]
) -> Iterator[Result]:
    context = multiprocessing.get_context("spawn")  # no fork of a process whose BLAS runs threads
    with ProcessPoolExecutor(workers, context, initializer=_start_worker, initargs=(shared,)) as pool:
        futures: list[Future[Result]] = [pool.submit(_call_in_worker, function, item) for item in items]
        try:
            for future in futures:
                yield future.result()
        finally:
            for future in futures:
                future.cancel()


# --- Ray ------------------------------------------------------------------------------------------------


def _ray_module() -> Any:
    """Ray, imported on first use; a :class:`SpreadError` naming the extra to install if it is missing."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise SpreadError(_("Ray is not installed: {command}").format(command=INSTALL_RAY)) from None


BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""The environment variables that set how many threads the BLAS library runs."""


def blas_settings() -> dict[str, str]:
    """This process's BLAS thread settings, each as set or, where unset, the threads the BLAS runs.

    That is the first of them that is set (OpenBLAS reads them in this
    order), or else the CPUs this process may run on.

    >>> sorted(blas_settings()) == sorted(BLAS_THREADS)
    True
    """
    cpus = str(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
    running = next((os.environ[name] for name in BLAS_THREADS if os.environ.get(name)), cpus)
    return {name: os.environ.get(name) or running for name in BLAS_THREADS}


def _call(function: Callable[[Shared, Item], Result], shared: Shared, item: Item) -> Result:
    """What a Ray task runs (Ray hands it ``shared`` from the object store)."""
    return function(shared, item)


def _on_ray(
    address: str, function: Callable[[Shared, Item], Result], shared: Shared, items: list[Item]
) -> Iterator[Result]:
    ray = _ray_module()
    if not ray.is_initialized():
        try:
            ray.init(address=address)
        except ConnectionError as error:
            raise SpreadError(
                _("no Ray cluster answers at {address}: {error}").format(address=address, error=error)
            ) from None
    task = ray.remote(_call).options(runtime_env={"env_vars": blas_settings()})
    stored = ray.put(shared)
    pending = [task.remote(function, stored, item) for item in items]
    fetched = 0
    try:
        for reference in pending:
            result = ray.get(reference)
            fetched += 1
            yield result
    finally:
        # Only the tasks whose results were never fetched (a caller that stopped early): cancelling a
        # finished task can race with Ray's own bookkeeping of its completion and abort the driver.
        for reference in pending[fetched:]:
            ray.cancel(reference)
