"""The end of a game over arrays: whether it is over, who won, and what it pays (R19, V2, V5, M6).

Everything here works on one position array or a whole batch of them, in
:meth:`Position.to_array`'s layout (seen from the side to move), so a bot
judging thousands of positions and :meth:`Position.result` for one of them
ask the same question of the same code.

A game is over once a side has borne off all its checkers (15 in the
standard game, 3 in hypergammon: a position's own count, nothing to pass).
What it pays depends on the variant's :class:`Scoring`:

* ``STANDARD`` (R19): a single game 1, a gammon 2 (the loser has borne off
  none), a backgammon 3 (also a checker of the loser's on the bar, not yet
  entered, or in the winner's home board); with ``gammons=False`` every win
  is single (M6, V3);
* ``CHECKERS_LEFT`` (Acey-Deucey, V2): the loser pays one per checker not
  borne off, checkers never entered included; no gammons.

>>> from tavola.position import Position
>>> won = Position([-15] + [0] * 23, off=(15, 0)).to_array()  # all 15 of the loser's in the winner's home
>>> game_points(np.stack([Position.start().to_array(), won])).tolist()
[0, 3]
>>> int(game_points(won, scoring=Scoring.CHECKERS_LEFT)), int(game_points(won, gammons=False))
(15, 1)
"""

from __future__ import annotations

import enum

import numpy as np
import numpy.typing as npt
from numba import njit

from tavola.position import MY_BAR, MY_OFF, MY_WAITING, THEIR_BAR, THEIR_OFF, THEIR_WAITING


class Scoring(enum.Enum):
    """How a finished game is paid."""

    STANDARD = "standard"  # single, gammon, backgammon times the cube (R19, C5)
    CHECKERS_LEFT = "checkers-left"  # the stake times the loser's checkers not borne off (V2)


def in_play(boards: npt.ArrayLike) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Each side's checkers not borne off (on the board, on the bar or not yet entered): (mover, opponent).

    >>> from tavola.position import Position
    >>> mover, opponent = in_play(Position.start().to_array())
    >>> int(mover), int(opponent)
    (15, 15)
    """
    array = np.asarray(boards)
    rows = np.ascontiguousarray(array.reshape(-1, array.shape[-1]), dtype=np.int8)
    mover = np.empty(len(rows), dtype=np.int64)
    opponent = np.empty(len(rows), dtype=np.int64)
    _count_in_play(rows, mover, opponent)
    return mover.reshape(array.shape[:-1]), opponent.reshape(array.shape[:-1])


@njit(cache=True)
def _count_in_play(
    rows: npt.NDArray[np.int8], mover: npt.NDArray[np.int64], opponent: npt.NDArray[np.int64]
) -> None:
    """One compiled pass over each position (this check sits on the evaluator's path)."""
    for row in range(rows.shape[0]):
        mine = int(rows[row, MY_BAR]) + int(rows[row, MY_WAITING])
        theirs = int(rows[row, THEIR_BAR]) + int(rows[row, THEIR_WAITING])
        for point in range(1, 25):
            count = int(rows[row, point])
            if count > 0:
                mine += count
            else:
                theirs -= count
        mover[row], opponent[row] = mine, theirs


def game_over(boards: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """Whether each position's game is over: a side has borne off all its checkers (R18).

    A side's checkers are all it has on the board, on the bar, waiting and
    off, so the count per side (15, or 3 in hypergammon) is the position's own.

    >>> from tavola.position import Position
    >>> game_over(Position([-3] + [0] * 23, off=(3, 0), checkers=3).to_array()).item()
    True
    """
    array = np.asarray(boards)
    if array.ndim == 2 and array.dtype == np.int8 and array.flags.c_contiguous:
        return _over_rows(array)  # a batch as the generator gives it, in one compiled pass
    mover, opponent = in_play(array)
    return np.asarray((mover == 0) | (opponent == 0))


@njit(cache=True)
def _over_rows(rows: npt.NDArray[np.int8]) -> npt.NDArray[np.bool_]:
    over = np.empty(rows.shape[0], dtype=np.bool_)
    for row in range(rows.shape[0]):
        mine = rows[row, MY_BAR] > 0 or rows[row, MY_WAITING] > 0
        theirs = rows[row, THEIR_BAR] > 0 or rows[row, THEIR_WAITING] > 0
        for point in range(1, 25):
            mine = mine or rows[row, point] > 0
            theirs = theirs or rows[row, point] < 0
        over[row] = not (mine and theirs)
    return over


def game_points(
    boards: npt.ArrayLike, scoring: Scoring = Scoring.STANDARD, *, gammons: bool = True
) -> npt.NDArray[np.int64]:
    """What each position's game pays its mover at a stake of 1: positive won, negative lost, 0 not over.

    ``boards`` is one position array or an (N, 30) batch; the result has
    the same leading shape. The winner is the side with no checker left in
    play, whatever the number of checkers a side (see the module docstring
    for the scoring).
    """
    array = np.asarray(boards)
    mover_left, opponent_left = in_play(array)
    mover_won, opponent_won = mover_left == 0, opponent_left == 0
    if not (mover_won | opponent_won).any():
        return np.zeros(array.shape[:-1], dtype=np.int64)  # nothing is over: nothing more to count
    sign = mover_won.astype(np.int64) - opponent_won.astype(np.int64)
    if scoring is Scoring.CHECKERS_LEFT:
        return np.asarray(sign * np.where(mover_won, opponent_left, mover_left))
    if not gammons:
        return np.asarray(sign)
    gammoned = np.where(mover_won, array[..., THEIR_OFF], array[..., MY_OFF]) == 0
    # The winner's home board: points 1-6 for the mover, points 19-24 for the opponent.
    opponent_caught = (
        (array[..., THEIR_BAR] > 0) | (array[..., THEIR_WAITING] > 0) | (array[..., 1:7] < 0).any(axis=-1)
    )
    mover_caught = (
        (array[..., MY_BAR] > 0) | (array[..., MY_WAITING] > 0) | (array[..., 19:25] > 0).any(axis=-1)
    )
    caught = np.where(mover_won, opponent_caught, mover_caught)
    return np.asarray(sign * (1 + gammoned + (gammoned & caught)))
