"""Spreading independent work over processes: for now in this process only.

``Spread(workers, ray).map(function, shared, items)`` gives
``[function(shared, item) for item in items]``, in the order of ``items``;
``function`` is a module-level callable so that it can travel to other
processes.

>>> Spread().map(pow, 2, [1, 2, 3])
[2, 4, 8]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

Shared = TypeVar("Shared")
Item = TypeVar("Item")
Result = TypeVar("Result")


class Spread:
    """Where the work goes: ``workers`` processes, or a Ray cluster at ``ray`` (here: this process)."""

    def __init__(self, workers: int = 1, ray: str | None = None) -> None:
        self.workers = workers
        self.ray = ray

    def map(
        self, function: Callable[[Shared, Item], Result], shared: Shared, items: Iterable[Item]
    ) -> list[Result]:
        """``function(shared, item)`` for every item, the results in the items' order."""
        return [function(shared, item) for item in items]
