"""Numbering hypergammon positions: each side's checkers as a rank, a position as a pair of ranks."""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
import numpy.typing as npt
from numba import njit

from tavola.errors import TavolaError
from tavola.position import ARRAY_SIZE, MY_BAR, MY_OFF, THEIR_BAR, THEIR_OFF

FloatArray = npt.NDArray[np.float64]
Indices = npt.NDArray[np.int64]
Boards = npt.NDArray[np.int8]

SLOTS = 26
"""Where a checker can be, from its own side: 0 off, 1-24 the points, 25 the bar."""
BAR_SLOT = 25
MAX_CHECKERS = 3
"""The most checkers a side a table is made for (hypergammon's)."""

_BINOMIAL = np.array(
    [[math.comb(n, k) for k in range(MAX_CHECKERS + 1)] for n in range(SLOTS + MAX_CHECKERS)]
)


def side_count(checkers: int = MAX_CHECKERS) -> int:
    """How many ways one side's ``checkers`` lie in the 26 slots.

    >>> side_count(1), side_count(2), side_count(3)
    (26, 351, 3276)
    """
    check_checkers(checkers)
    return math.comb(SLOTS + checkers - 1, checkers)


@functools.cache
def side_slots(checkers: int = MAX_CHECKERS) -> Indices:
    """The slots of each side rank, highest first: row ``r`` is the side of rank ``r``.

    A side's rank is the combinatorial number system on its slots
    ``s_0 >= s_1 >= ...`` made strictly decreasing, ``sum C(s_i + n - 1 - i, n - i)``;
    rank 0 is every checker off.

    >>> side_slots(3)[[0, 1, -1]].tolist()
    [[0, 0, 0], [1, 0, 0], [25, 25, 25]]
    """
    count = side_count(checkers)
    slots = np.zeros((count, checkers), dtype=np.int64)
    for chosen in itertools.combinations_with_replacement(range(SLOTS - 1, -1, -1), checkers):
        slots[_rank_slots(np.array(chosen, dtype=np.int64))] = chosen
    slots.flags.writeable = False
    return slots


@njit(cache=True)
def _rank_slots(high_first: Indices) -> int:
    """The rank of slots given highest first."""
    checkers = high_first.shape[0]
    rank = 0
    for i in range(checkers):
        rank += _BINOMIAL[high_first[i] + checkers - 1 - i, checkers - i]
    return rank


@njit(cache=True, inline="always")
def side_rank(board: Boards, mover: bool, checkers: int) -> int:
    """The rank of one side of ``board`` (the mover's, else the opponent's, each from its own side)."""
    rank = 0
    i = 0
    for slot in range(SLOTS - 1, -1, -1):
        if slot == BAR_SLOT:
            count = int(board[MY_BAR] if mover else board[THEIR_BAR])
        elif slot == 0:
            count = int(board[MY_OFF] if mover else board[THEIR_OFF])
        else:
            count = int(board[slot]) if mover else -int(board[25 - slot])
        for _checker in range(count):
            rank += _BINOMIAL[slot + checkers - 1 - i, checkers - i]
            i += 1
    return rank


@njit(cache=True)
def _indices(boards: Boards, checkers: int, out: Indices) -> None:
    count = _BINOMIAL[SLOTS + checkers - 1, checkers]
    for row in range(boards.shape[0]):
        out[row] = side_rank(boards[row], True, checkers) * count + side_rank(boards[row], False, checkers)


@njit(cache=True)
def fill_board(mover: int, opponent: int, slots: Indices, board: Boards) -> bool:
    """Write the position of a pair of side ranks into ``board``; False where both sides hold a point."""
    board[:] = 0
    for i in range(slots.shape[1]):
        slot = slots[mover, i]
        if slot == 0:
            board[MY_OFF] += 1
        elif slot == BAR_SLOT:
            board[MY_BAR] += 1
        else:
            board[slot] += 1
    for i in range(slots.shape[1]):
        slot = slots[opponent, i]
        if slot == 0:
            board[THEIR_OFF] += 1
        elif slot == BAR_SLOT:
            board[THEIR_BAR] += 1
        else:
            if board[25 - slot] > 0:
                return False
            board[25 - slot] -= 1
    return True


def position_index(boards: npt.ArrayLike, checkers: int = MAX_CHECKERS) -> Indices:
    """The index of each (N, 30) board in the tables of positions with ``checkers`` a side.

    >>> from tavola.variants import HYPERGAMMON
    >>> index = int(position_index(HYPERGAMMON.start.to_array()[None])[0])
    >>> divmod(index, side_count(3))  # both sides alike: the same side rank twice
    (2898, 2898)
    """
    array = np.ascontiguousarray(boards, dtype=np.int8)
    out = np.empty(len(array), dtype=np.int64)
    _indices(array, checkers, out)
    return out


def boards_of(indices: npt.ArrayLike, checkers: int = MAX_CHECKERS) -> Boards:
    """The (N, 30) boards of position indices (inverse of :func:`position_index` on positions).

    >>> from tavola.variants import HYPERGAMMON
    >>> start = HYPERGAMMON.start.to_array()
    >>> bool((boards_of(position_index(start[None]))[0] == start).all())
    True
    """
    wanted = np.asarray(indices, dtype=np.int64).reshape(-1)
    count = side_count(checkers)
    slots = side_slots(checkers)
    outside = (wanted < 0) | (wanted >= count * count)
    if outside.any():
        raise TavolaError(
            f"{int(wanted[outside][0])} is no position index of {checkers} checkers a side "
            f"(they run from 0 to {count * count - 1})"
        )
    out = np.zeros((len(wanted), ARRAY_SIZE), dtype=np.int8)
    for row, index in enumerate(wanted.tolist()):
        if not fill_board(index // count, index % count, slots, out[row]):
            raise ValueError(f"{index} is no position: both sides would hold a point")
    return out


@functools.cache
def position_classes(checkers: int) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_], Indices]:
    """Which indices are positions, which of those are finished, and each side rank's pips."""
    slots = side_slots(checkers)
    points = np.arange(1, 25)
    held = ((slots[:, :, None] == points) & (slots[:, :, None] > 0)).any(axis=1)  # (S, 24) own numbering
    mover_bits = (held.astype(np.int64) << (points - 1)).sum(axis=1)  # points seen from the mover
    opponent_bits = (held[:, ::-1].astype(np.int64) << (points - 1)).sum(axis=1)  # their point p is our 25-p
    all_off = np.arange(len(slots)) == 0
    valid = (mover_bits[:, None] & opponent_bits[None, :]) == 0
    valid &= ~(all_off[:, None] & all_off[None, :])
    over = valid & (all_off[:, None] | all_off[None, :])
    return valid.ravel(), over.ravel(), slots.sum(axis=1)


def positions_count(checkers: int = MAX_CHECKERS, *, finished: bool | None = None) -> int:
    """How many positions there are with ``checkers`` a side (only the finished or unfinished ones if given).

    >>> positions_count(3), positions_count(3, finished=True), positions_count(3, finished=False)
    (7959903, 6550, 7953353)
    >>> positions_count(1), positions_count(2)
    (651, 107252)
    """
    valid, over, _ = position_classes(checkers)
    if finished is None:
        return int(valid.sum())
    return int((over if finished else valid & ~over).sum())


def check_checkers(checkers: int) -> None:
    if not 1 <= checkers <= MAX_CHECKERS:
        raise ValueError(f"exact tables are made for 1 to {MAX_CHECKERS} checkers a side, not {checkers}")


@functools.cache
def ranks_after_hits(checkers: int) -> Indices:
    """``[rank, mask]``: side ``rank`` once its checkers set in ``mask`` (by place in its slots) are hit."""
    slots = side_slots(checkers)
    out = np.empty((len(slots), 1 << checkers), dtype=np.int64)
    for mask in range(1 << checkers):
        hit = slots.copy()
        for i in range(checkers):
            if mask >> i & 1:
                hit[:, i] = BAR_SLOT
        hit = -np.sort(-hit, axis=1)
        places = np.arange(checkers)
        out[:, mask] = _BINOMIAL[hit + checkers - 1 - places, checkers - places].sum(axis=1)
    return out
