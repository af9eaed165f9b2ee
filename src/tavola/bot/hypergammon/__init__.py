"""Exact hypergammon: the cubeless chances of every position, solved by dynamic programming.

The package's modules each do one thing: :mod:`.indexing` numbers the
positions, :mod:`.solver` solves them, :mod:`.table` holds the result and
its file, :mod:`.cache` keeps the tables and says when one may be solved,
and :mod:`.progress` shows a solve at the terminal.

Hypergammon (V5) is backgammon with 3 checkers a side. Each side's checkers
lie in 26 *slots*, seen from its own side: 0 is off, 1-24 the points, 25 the
bar; three checkers take one of ``C(28, 3) = 3,276`` multisets of slots, so a
position (the player on roll's side, then the opponent's) is a pair of side
ranks, ``index = mover * 3,276 + opponent`` (:func:`position_index`), and the
same position seen by the other player is the pair swapped. Of the 10,732,176
pairs, 7,959,903 are positions (no point held by both sides, not both sides
all off): 6,550 finished and 7,953,353 with a game to play
(:func:`positions_count`), 93% of them in contact. The same holds for any
number of checkers a side (1 and 2 make the small tables the tests check by brute force).

:meth:`ExactTable.solve` finds, for every position with the player on roll before the
roll, the five cubeless chances (win, win gammon, win backgammon, lose gammon,
lose backgammon; gammons include backgammons) when both sides play to
maximise their cubeless money equity. Its kernel takes each roll's legal
plays from Tavola's compiled move generator (:func:`tavola.movegen.plays_into`),
so the rules live in one place. Positions are visited in order of the pips
both sides have left: a play without a hit lowers that count, so a race is
exact after one pass, and a contact position's value only waits on positions
where a checker was hit (more pips) or a roll could not be played (the same
pips). Passes are repeated over the contact positions until no probability
changes by more than the tolerance (Gauss-Seidel value iteration).

:class:`ExactTable` holds the result and evaluates batches of boards;
:func:`exact_table` gives the table of a number of checkers: solved at once
for 1 and 2, and for 3 read from Tavola's data folder, else solved and kept
there for next time (129 MB: float32 chances of positions only, deflated; too
large to ship in the package). :func:`ready_table`, which the evaluator uses,
solves a missing table only where a person waits at a terminal or where it is
asked to (:func:`may_solve`); elsewhere (servers, engines, worker processes)
it answers None, and the evaluator judges hypergammon with its networks.
``python -m tavola.cli.hypergammon --build`` solves it ahead of time:
measured, 641 s of one core (about 40% of it listing 888 million plays, 2 bytes each;
then 47 passes) and 2.9 GB of memory at the peak. Hypergammon's
start is worth +0.1107 cubeless to the player on roll (52.8% wins).

>>> table = ExactTable.solve(checkers=1)
>>> from tavola.position import Position
>>> last = Position([0] * 5 + [1] + [0] * 17 + [-1], checkers=1)  # 6-point against 1-point: gammons
>>> [round(float(p), 4) for p in table.evaluate(last.to_array()[None])[0]]  # 27 rolls of 36 bear off
[0.75, 0.75, 0.0, 0.25, 0.0]
"""

from tavola.bot.hypergammon.cache import (
    BUILD_COMMAND,
    SOLVE_VARIABLE,
    cache_file,
    exact_table,
    may_solve,
    ready_table,
    solve_on_first_use,
)
from tavola.bot.hypergammon.indexing import (
    MAX_CHECKERS,
    boards_of,
    position_index,
    positions_count,
    side_count,
    side_slots,
)
from tavola.bot.hypergammon.solver import TOLERANCE, solve_values
from tavola.bot.hypergammon.table import FORMAT, SOLVER_VERSION, ExactTable, covers

__all__ = [
    "BUILD_COMMAND",
    "FORMAT",
    "MAX_CHECKERS",
    "SOLVER_VERSION",
    "SOLVE_VARIABLE",
    "TOLERANCE",
    "ExactTable",
    "boards_of",
    "cache_file",
    "covers",
    "exact_table",
    "may_solve",
    "position_index",
    "positions_count",
    "ready_table",
    "side_count",
    "side_slots",
    "solve_on_first_use",
    "solve_values",
]
