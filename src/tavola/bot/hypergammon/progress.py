"""A progress bar on the standard error stream while a table is solved."""

from __future__ import annotations

from tavola.bot.hypergammon.indexing import MAX_CHECKERS, positions_count
from tavola.bot.hypergammon.solver import TOLERANCE
from tavola.bot.hypergammon.table import ExactTable
from tavola.i18n import N_, _


def solve_with_progress_bar(checkers: int = MAX_CHECKERS, tolerance: float = TOLERANCE) -> ExactTable:
    """:meth:`ExactTable.solve` with a rich progress bar on the standard error stream."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    positions = positions_count(checkers, finished=False)
    with Progress(TextColumn("{task.description}"), *columns, console=Console(stderr=True)) as bar:
        task = bar.add_task(_(_LISTING), total=positions)
        seen = [0]

        def update(passes: int, done: int, change: float) -> None:
            if passes != seen[0]:
                seen[0] = passes
                bar.update(task, description=_(_PASS).format(number=passes), completed=0)
            bar.update(task, completed=done)

        table = ExactTable.solve(checkers, tolerance, update)
        bar.update(task, completed=positions)
    return table


_LISTING = N_("Exact hypergammon, solved once: listing the plays")
_PASS = N_("Exact hypergammon, solved once: pass {number}")
