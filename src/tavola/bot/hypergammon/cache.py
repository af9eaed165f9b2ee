"""Where the solved tables are kept, and when a missing one may be solved: once a process, on first use."""

from __future__ import annotations

import logging
import multiprocessing
import os
import sys
import threading
from pathlib import Path

from tavola.bot.hypergammon.indexing import MAX_CHECKERS, check_checkers
from tavola.bot.hypergammon.progress import solve_with_progress_bar
from tavola.bot.hypergammon.solver import TOLERANCE
from tavola.bot.hypergammon.table import ExactTable
from tavola.errors import TavolaError
from tavola.files import data_file


def cache_file(checkers: int = MAX_CHECKERS) -> Path:
    """Where the table of ``checkers`` a side is kept: ``hypergammon-3.npz`` in Tavola's data folder.

    >>> cache_file().name
    'hypergammon-3.npz'
    """
    return data_file(f"hypergammon-{checkers}.npz")


_SOLVED_AT_ONCE = 2
"""Tables of up to this many checkers a side are solved when asked for (seconds), never kept in a file."""


SOLVE_VARIABLE = "TAVOLA_SOLVE_TABLES"
"""Environment variable: ``1`` lets any process solve a missing table on first use, ``0`` lets none."""
BUILD_COMMAND = "python -m tavola.cli.hypergammon --build"
"""The command that solves the table of 3 checkers a side ahead of time."""

_LOG = logging.getLogger(__name__)
_TABLES: dict[int, ExactTable] = {}
_TABLES_LOCK = threading.Lock()
_UNAVAILABLE: dict[int, tuple[int, int] | None] = {}
"""Tables found missing or unusable and not solved: the state of their file then (None: absent)."""
_solve_on_first_use: bool | None = None


def solve_on_first_use(allowed: bool | None) -> None:
    """Let this process solve a missing table when it first needs one (True), never (False), or decide by
    :func:`may_solve`'s rules (None). Servers and engines say False: nobody waits there for minutes."""
    global _solve_on_first_use
    _solve_on_first_use = allowed


def may_solve() -> bool:
    """Whether a table missing from Tavola's data folder may be solved when first needed.

    As :func:`solve_on_first_use` said, else as the ``TAVOLA_SOLVE_TABLES``
    variable says (``1`` or ``0``), else only where a person waits at a
    terminal: the main process, with its standard error stream a terminal.

    >>> solve_on_first_use(False)
    >>> may_solve()
    False
    >>> solve_on_first_use(None)
    """
    if _solve_on_first_use is not None:
        return _solve_on_first_use
    setting = os.environ.get(SOLVE_VARIABLE, "").strip().lower()
    if setting in ("1", "true", "yes"):
        return True
    if setting in ("0", "false", "no"):
        return False
    stderr = sys.stderr
    return multiprocessing.parent_process() is None and stderr is not None and stderr.isatty()


def exact_table(checkers: int = MAX_CHECKERS) -> ExactTable:
    """The table of ``checkers`` a side: read from :func:`cache_file`, else solved now and kept there.

    Solving 3 checkers a side takes some minutes; a progress bar shows how
    it goes. Smaller tables are solved at once and not kept. A table is
    made once a process, whichever thread asks first; the others wait for it.
    """
    table = _table(checkers, solve=True)
    assert table is not None
    return table


def ready_table(checkers: int = MAX_CHECKERS) -> ExactTable | None:
    """The table of ``checkers`` a side if it can be had now: read from :func:`cache_file`, or solved
    where :func:`may_solve` allows it; else None, with a warning (once) naming the command that builds it.

    >>> ready_table(1).checkers  # the small tables are solved in seconds, always
    1
    """
    return _table(checkers, solve=None)


def _table(checkers: int, solve: bool | None) -> ExactTable | None:
    check_checkers(checkers)
    with _TABLES_LOCK:
        if checkers not in _TABLES:
            table = _read_or_solve(checkers, solve)
            if table is None:
                return None
            _TABLES[checkers] = table
        return _TABLES[checkers]


def _file_state(path: Path) -> tuple[int, int] | None:
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_mtime_ns, status.st_size


def _read_or_solve(checkers: int, solve: bool | None) -> ExactTable | None:
    """The table read from its file, else solved (where ``solve``, or :func:`may_solve` if it is None)."""
    if checkers <= _SOLVED_AT_ONCE:
        return ExactTable.solve(checkers)
    path = cache_file(checkers)
    state = _file_state(path)
    allowed = may_solve() if solve is None else solve
    if not allowed and checkers in _UNAVAILABLE and _UNAVAILABLE[checkers] == state:
        return None  # the file is as it was when last found wanting: no need to read it again
    reason = f"{path} does not exist"
    if state is not None:
        try:
            table = ExactTable.load(path, TOLERANCE)
            if table.checkers == checkers:
                return table
            reason = f"{path} holds the table of {table.checkers} checkers a side"
        except TavolaError as error:
            reason = str(error)
    if not allowed:
        if checkers not in _UNAVAILABLE:
            _LOG.warning(
                "The exact table of %d checkers a side is not ready (%s), and solving it takes minutes: "
                "the networks judge those positions instead. `%s` builds it.",
                checkers, reason, BUILD_COMMAND,
            )  # fmt: skip
        _UNAVAILABLE[checkers] = state
        return None
    if state is not None:
        _LOG.warning("Solving the exact table of %d checkers a side again: %s", checkers, reason)
    table = solve_with_progress_bar(checkers)
    try:
        table.save(path)
    except OSError as error:
        _LOG.warning("The exact table is kept in memory only: writing %s failed (%s)", path, error)
    _UNAVAILABLE.pop(checkers, None)
    return table
