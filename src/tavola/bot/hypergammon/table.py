"""The solved table of exact chances: evaluating boards with it, saving it and reading it back."""

from __future__ import annotations

import os
import zipfile
import zlib
from pathlib import Path

import numpy as np
import numpy.typing as npt

from tavola.bot.bearoff import _write_npz as write_npz
from tavola.bot.hypergammon import solver
from tavola.bot.hypergammon.indexing import (
    MAX_CHECKERS,
    position_classes,
    position_index,
    positions_count,
    side_count,
)
from tavola.bot.hypergammon.solver import TOLERANCE, Progress
from tavola.bot.network import OUTPUTS
from tavola.errors import TavolaError
from tavola.gameover import Scoring, in_play
from tavola.position import ARRAY_SIZE, MY_BAR, MY_OFF, MY_WAITING, THEIR_BAR, THEIR_OFF, THEIR_WAITING
from tavola.variants import Variant

FORMAT = 2
"""Version of the cached file's layout."""
SOLVER_VERSION = 1
"""Version of the solver's rules and choices: a file made by another is solved again."""


class ExactTable:
    """The exact cubeless chances of every position with ``checkers`` a side, for the player on roll.

    ``probabilities[index]`` holds (win, win gammon, win backgammon, lose
    gammon, lose backgammon) as float32 for each :func:`position_index`
    (NaN where an index is no position); ``passes`` says how many passes
    the solve took, ``tolerance`` the largest change of its last pass
    allowed. The table keeps its own read-only copy of the chances.

    >>> table = ExactTable.solve(checkers=1)
    >>> len(table), table.checkers, table.tolerance
    (651, 1, 1e-06)
    """

    __slots__ = ("checkers", "passes", "probabilities", "tolerance")

    def __init__(
        self, probabilities: npt.ArrayLike, checkers: int, passes: int = 0, tolerance: float = TOLERANCE
    ) -> None:
        count = side_count(checkers)
        values = np.array(probabilities, dtype=np.float32)  # a copy: the caller's array stays its own
        if values.shape != (count * count, OUTPUTS):
            raise ValueError(f"a table of {checkers} checkers a side has shape {(count * count, OUTPUTS)}")
        values.flags.writeable = False
        self.probabilities = values
        self.checkers = checkers
        self.passes = passes
        self.tolerance = tolerance

    def __len__(self) -> int:
        """How many positions the table holds."""
        return positions_count(self.checkers)

    @classmethod
    def solve(
        cls, checkers: int = MAX_CHECKERS, tolerance: float = TOLERANCE, progress: Progress | None = None
    ) -> ExactTable:
        """Solve every position (see the module docstring); ``progress`` is told how it goes."""
        values, passes = solver.solve_values(checkers, tolerance, progress)
        return cls(values, checkers, passes, tolerance)

    def evaluate(self, boards: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """The (N, 5) chances of each (N, 30) board's player on roll; a TavolaError for boards not covered.

        Finished games are in the table too, scored as :func:`tavola.gameover.game_points` scores them.

        >>> table = ExactTable.solve(checkers=1)
        >>> from tavola.position import Position
        >>> board = Position([0] * 5 + [1] + [0] * 17 + [-1], checkers=1).to_array().copy()
        >>> board[0], board[25] = -1, 1  # a checker "borne off" -1 times and one more on the bar
        >>> table.evaluate(board[None])
        Traceback (most recent call last):
        ...
        tavola.errors.TavolaError: board 0 has a negative count of checkers off or on the bar
        """
        array = np.ascontiguousarray(boards, dtype=np.int8)
        if array.ndim != 2 or array.shape[1] != ARRAY_SIZE:
            raise TavolaError(f"boards must have shape (N, {ARRAY_SIZE}), not {array.shape}")
        negative = (array[:, [MY_OFF, MY_BAR, THEIR_BAR, THEIR_OFF]] < 0).any(axis=1)
        if negative.any():
            raise TavolaError(
                f"board {int(np.flatnonzero(negative)[0])} has a negative count of checkers off or on the bar"
            )
        mover, opponent = in_play(array)
        waiting = array[:, [MY_WAITING, THEIR_WAITING]].any(axis=1)
        wrong = mover + array[:, MY_OFF] != self.checkers
        wrong |= opponent + array[:, THEIR_OFF] != self.checkers
        wrong |= waiting | (array[:, [MY_OFF, THEIR_OFF]] == self.checkers).all(axis=1)
        if wrong.any():
            raise TavolaError(
                f"board {int(np.flatnonzero(wrong)[0])} is not a position of {self.checkers} checkers a side"
            )
        return self.probabilities[position_index(array, self.checkers)]

    # --- storing it -------------------------------------------------------------

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the table compactly (the chances of positions only), replacing ``path`` atomically."""
        valid, _, _ = position_classes(self.checkers)
        arrays: dict[str, npt.NDArray[np.generic]] = {
            "format": np.array(FORMAT),
            "solver": np.array(SOLVER_VERSION),
            "tolerance": np.array(self.tolerance),
            "checkers": np.array(self.checkers),
            "passes": np.array(self.passes),
            "probabilities": self.probabilities[valid],
        }
        write_npz(Path(path), arrays)

    @classmethod
    def load(cls, path: str | os.PathLike[str], tolerance: float | None = None) -> ExactTable:
        """Read a table that :meth:`save` wrote; a TavolaError naming ``path`` and what is wrong if it is
        not one, if this solver did not make it, or (given ``tolerance``) if it was solved to another."""
        try:
            with np.load(path, allow_pickle=False) as stored:
                table = cls._from_stored(stored, tolerance)
        except TavolaError as error:
            raise TavolaError(f"{path} is not an exact table Tavola can use: {error}") from error
        except (
            KeyError, OSError, ValueError, TypeError, EOFError, zipfile.BadZipFile, zlib.error
        ) as error:  # fmt: skip
            reason = str(error) or type(error).__name__
            raise TavolaError(f"{path} is not an exact table Tavola can use: {reason}") from error
        return table

    @classmethod
    def _from_stored(cls, stored: np.lib.npyio.NpzFile, tolerance: float | None) -> ExactTable:
        """The table of an open .npz file, checked (a TavolaError saying what is wrong)."""
        if int(stored["format"]) != FORMAT:
            raise TavolaError(f"its layout is of format {int(stored['format'])}, not {FORMAT}")
        if int(stored["solver"]) != SOLVER_VERSION:
            raise TavolaError(f"it was solved by solver {int(stored['solver'])}, not {SOLVER_VERSION}")
        solved_to = float(stored["tolerance"])
        if tolerance is not None and solved_to != tolerance:
            raise TavolaError(f"it was solved to a tolerance of {solved_to:g}, not {tolerance:g}")
        checkers = int(stored["checkers"])
        if not 1 <= checkers <= MAX_CHECKERS:
            raise TavolaError(f"it claims {checkers} checkers a side")
        valid, _, _ = position_classes(checkers)
        chances = stored["probabilities"]
        if chances.shape != (int(valid.sum()), OUTPUTS):
            raise TavolaError(f"its chances have shape {chances.shape}, not {(int(valid.sum()), OUTPUTS)}")
        if not np.isfinite(chances).all() or chances.min() < 0 or chances.max() > 1 + 1e-5:
            raise TavolaError("some of its chances are not numbers from 0 to 1")
        values = np.full((len(valid), OUTPUTS), np.nan, dtype=np.float32)
        values[valid] = chances
        return cls(values, checkers, int(stored["passes"]), solved_to)


def covers(variant: Variant) -> bool:
    """Whether exact tables judge ``variant``: standard movement and scoring with at most 3 checkers a side.

    >>> from tavola.variants import HYPERGAMMON, STANDARD
    >>> covers(HYPERGAMMON), covers(STANDARD)
    (True, False)
    """
    start = variant.start.to_array()
    return (
        variant.checkers <= MAX_CHECKERS
        and variant.flags == 0
        and variant.scoring is Scoring.STANDARD
        and not variant.acey_deucey_roll
        and not start[[MY_WAITING, THEIR_WAITING]].any()
    )
