"""Exact hypergammon: the cubeless chances of every position, solved by dynamic programming.

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
``python -m tavola.bot.hypergammon --build`` solves it ahead of time:
measured, 641 s of one core (about 40% of it listing 888 million plays, 2 bytes each;
then 47 passes) and 2.9 GB of memory at the peak. Hypergammon's
start is worth +0.1107 cubeless to the player on roll (52.8% wins).

>>> table = ExactTable.solve(checkers=1)
>>> from tavola.position import Position
>>> last = Position([0] * 5 + [1] + [0] * 17 + [-1], checkers=1)  # 6-point against 1-point: gammons
>>> [round(float(p), 4) for p in table.evaluate(last.to_array()[None])[0]]  # 27 rolls of 36 bear off
[0.75, 0.75, 0.0, 0.25, 0.0]
"""

from __future__ import annotations

import argparse
import functools
import itertools
import logging
import math
import multiprocessing
import os
import sys
import threading
import time
import zipfile
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
from numba import njit

from tavola.bot.bearoff import _write_npz as write_npz
from tavola.bot.features import in_contact
from tavola.bot.network import LOSE_BACKGAMMON, LOSE_GAMMON, OUTPUTS, WIN, WIN_BACKGAMMON, WIN_GAMMON, equity
from tavola.files import data_file
from tavola.dice import ALL_ROLLS
from tavola.errors import TavolaError
from tavola.gameover import Scoring, game_points, in_play
from tavola.i18n import N_, _
from tavola.movegen import MAX_SEQUENCES, Scratch, plays_into
from tavola.position import ARRAY_SIZE, MY_BAR, MY_OFF, MY_WAITING, THEIR_BAR, THEIR_OFF, THEIR_WAITING
from tavola.variants import Variant

FloatArray = npt.NDArray[np.float64]
Indices = npt.NDArray[np.int64]
Boards = npt.NDArray[np.int8]
Progress = Callable[[int, int, float], None]
"""Told (pass, positions done in it, largest change of the pass before) as a solve goes on."""

SLOTS = 26
"""Where a checker can be, from its own side: 0 off, 1-24 the points, 25 the bar."""
BAR_SLOT = 25
MAX_CHECKERS = 3
"""The most checkers a side a table is made for (hypergammon's)."""
TOLERANCE = 1e-6
"""A solve stops when a pass changes no probability by more than this."""
FORMAT = 2
"""Version of the cached file's layout."""
SOLVER_VERSION = 1
"""Version of the solver's rules and choices: a file made by another is solved again."""
MAX_PASSES = 1_000
"""A solve that has not settled after this many passes stops with an error (hypergammon's takes 47)."""

_BINOMIAL = np.array(
    [[math.comb(n, k) for k in range(MAX_CHECKERS + 1)] for n in range(SLOTS + MAX_CHECKERS)]
)
_ROLLS = np.array(ALL_ROLLS, dtype=np.int64)
_WEIGHTS = np.array([1.0 if roll.is_double else 2.0 for roll in ALL_ROLLS])  # in 36ths
# Cubeless money equity as a linear function of the five chances, taken from the one definition.
_EQUITY_OFFSET = float(equity(np.zeros((1, OUTPUTS), np.float32))[0])
_EQUITY_WEIGHTS = np.asarray(equity(np.eye(OUTPUTS, dtype=np.float32)), np.float64) - _EQUITY_OFFSET
_TIE = 1e-12
"""Equities this close count as equal: then the play that leaves the opponent fewer wins is chosen
(at the same equity, fewer wins for it means more net gammons for it)."""


def side_count(checkers: int = MAX_CHECKERS) -> int:
    """How many ways one side's ``checkers`` lie in the 26 slots.

    >>> side_count(1), side_count(2), side_count(3)
    (26, 351, 3276)
    """
    _check_checkers(checkers)
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
def _side_rank(board: Boards, mover: bool, checkers: int) -> int:
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
        out[row] = _side_rank(boards[row], True, checkers) * count + _side_rank(boards[row], False, checkers)


@njit(cache=True)
def _fill_board(mover: int, opponent: int, slots: Indices, board: Boards) -> bool:
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
        if not _fill_board(index // count, index % count, slots, out[row]):
            raise ValueError(f"{index} is no position: both sides would hold a point")
    return out


@functools.cache
def _classes(checkers: int) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_], Indices]:
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
    valid, over, _ = _classes(checkers)
    if finished is None:
        return int(valid.sum())
    return int((over if finished else valid & ~over).sum())


def _check_checkers(checkers: int) -> None:
    if not 1 <= checkers <= MAX_CHECKERS:
        raise ValueError(f"exact tables are made for 1 to {MAX_CHECKERS} checkers a side, not {checkers}")


@functools.cache
def _hit_ranks(checkers: int) -> Indices:
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


_HIT_SHIFT = 12
"""A stored play: the rank of the mover's side after it, or'ed with the opponent's checkers hit, shifted."""
_ROOM = len(ALL_ROLLS) * MAX_SEQUENCES
"""Room a position's plays may need at most."""


@njit(cache=True)
def _list_plays(
    order: Indices,
    start: int,
    stop: int,
    slots: Indices,
    counts: npt.NDArray[np.uint8],
    offsets: Indices,
    packed: npt.NDArray[np.uint16],
    fill: int,
    levels: Boards,
    path: Boards,
    state: Indices,
    table_index: npt.NDArray[np.int32],
    table_stamp: Indices,
    out_boards: Boards,
    out_moves: Boards,
) -> tuple[int, int]:
    """Store the plays of each roll of positions ``order[start:stop]`` from ``packed[fill]`` on.

    Stops early where ``packed`` has too little room left; returns the
    position it stopped at and the new fill. ``offsets[p]`` is where the
    plays of position ``p`` start, ``counts[p, k]`` how many roll ``k`` has.
    """
    count = slots.shape[0]
    checkers = slots.shape[1]
    board = np.zeros(ARRAY_SIZE, dtype=np.int8)
    position = start
    while position < stop and fill + _ROOM <= packed.shape[0]:
        opponent = order[position] % count
        _fill_board(order[position] // count, opponent, slots, board)
        offsets[position] = fill
        for k in range(_ROLLS.shape[0]):
            plays = plays_into(
                board, _ROLLS[k, 0], _ROLLS[k, 1], 4, 0, levels, path, state, table_index, table_stamp,
                out_boards, out_moves, 0,
            )  # fmt: skip
            counts[position, k] = plays
            for play in range(plays):
                after = out_boards[play]
                hits = 0
                for i in range(checkers):
                    slot = slots[opponent, i]
                    if 0 < slot < BAR_SLOT and after[25 - slot] >= 0:
                        hits |= 1 << i
                packed[fill] = _side_rank(after, True, checkers) | hits << _HIT_SHIFT
                fill += 1
        position += 1
    return position, fill


@njit(cache=True, inline="always")
def _before(values: FloatArray, reached: int, best: int) -> bool:
    """Between results of equal equity, whether ``reached`` comes before ``best``: fewer wins for the
    opponent (so, at that equity, more net gammons for it), then the lower index, so that the chances
    found are the same every time."""
    if best < 0:
        return True
    if values[reached, WIN] != values[best, WIN]:
        return bool(values[reached, WIN] < values[best, WIN])
    return reached < best


@njit(cache=True)
def _sweep(
    order: Indices,
    start: int,
    stop: int,
    only_contact: bool,
    contact: npt.NDArray[np.bool_],
    counts: npt.NDArray[np.uint8],
    offsets: Indices,
    packed: npt.NDArray[np.uint16],
    hit_ranks: Indices,
    values: FloatArray,
    equities: FloatArray,
    equity_weights: FloatArray,
    equity_offset: float,
) -> float:
    """Update positions ``order[start:stop]`` in place from their successors; return the largest change.

    Each roll's play is the one whose result is worth most to the mover
    (the least to the opponent, on roll next; :func:`_before` breaks
    ties); the position's chances are
    the average over the rolls of that result's chances seen from the
    mover. Finished positions are never updated: they are exact already.
    """
    count = hit_ranks.shape[0]
    total = np.zeros(OUTPUTS)
    largest = 0.0
    for position in range(start, stop):
        if only_contact and not contact[position]:
            continue
        index = order[position]
        opponent = index % count
        total[:] = 0.0
        at = offsets[position]
        for k in range(_ROLLS.shape[0]):
            best = -1
            best_equity = np.inf  # the opponent's equity in the result: the mover wants it lowest
            for _play in range(counts[position, k]):
                play = packed[at]
                at += 1
                # Seen by the opponent, on roll next: its side (after any hits) comes first.
                reached = hit_ranks[opponent, play >> _HIT_SHIFT] * count + (play & ((1 << _HIT_SHIFT) - 1))
                value = equities[reached]
                if value < best_equity - _TIE or (
                    value <= best_equity + _TIE and _before(values, reached, best)
                ):
                    best, best_equity = reached, value
            weight = _WEIGHTS[k]
            total[WIN] += weight * (1.0 - values[best, WIN])
            total[WIN_GAMMON] += weight * values[best, LOSE_GAMMON]
            total[WIN_BACKGAMMON] += weight * values[best, LOSE_BACKGAMMON]
            total[LOSE_GAMMON] += weight * values[best, WIN_GAMMON]
            total[LOSE_BACKGAMMON] += weight * values[best, WIN_BACKGAMMON]
        worth = equity_offset
        for column in range(OUTPUTS):
            chance = total[column] / 36.0
            largest = max(largest, abs(chance - values[index, column]))
            values[index, column] = chance
            worth += equity_weights[column] * chance
        equities[index] = worth
    return largest


@njit(cache=True)
def _in_contact(order: Indices, slots: Indices) -> npt.NDArray[np.bool_]:
    """Whether each position of ``order`` still has contact (:func:`tavola.bot.features.in_contact`)."""
    count = slots.shape[0]
    board = np.zeros(ARRAY_SIZE, dtype=np.int8)
    out = np.empty(order.shape[0], dtype=np.bool_)
    for row in range(order.shape[0]):
        _fill_board(order[row] // count, order[row] % count, slots, board)
        out[row] = in_contact(board)
    return out


CHUNK = 1 << 16
"""Positions a call of a kernel handles, between two reports of progress."""
_BLOCK = 1 << 20
"""Positions whose plays are stored in one array."""
_PLAYS_A_POSITION = 128
"""Room for the plays of a position, all rolls together (hypergammon averages 112)."""


def solve_values(
    checkers: int = MAX_CHECKERS,
    tolerance: float = TOLERANCE,
    progress: Progress | None = None,
    max_passes: int = MAX_PASSES,
) -> tuple[FloatArray, int]:
    """The (S * S, 5) chances of every index (NaN where it is no position), and the passes it took.

    A RuntimeError if a pass gives NaN chances or ``max_passes`` passes do not settle it.

    First every roll's plays of every unfinished position are listed once
    with the move generator (stored as 16-bit successors, about 2 bytes a
    play), then the passes go over those lists.
    """
    from tavola.bot.evaluate import exact_probabilities

    valid, over, pips = _classes(checkers)
    slots = side_slots(checkers)
    count = len(slots)
    values = np.zeros((count * count, OUTPUTS))
    ended = np.flatnonzero(over)
    values[ended] = exact_probabilities(game_points(boards_of(ended, checkers), Scoring.STANDARD))
    equities = values @ _EQUITY_WEIGHTS + _EQUITY_OFFSET
    unfinished = np.flatnonzero(valid & ~over)
    total_pips = pips[unfinished // count] + pips[unfinished % count]
    order = unfinished[np.lexsort((unfinished // count, unfinished % count, total_pips))]
    contact = _in_contact(order, slots)
    counts = np.zeros((len(order), len(ALL_ROLLS)), dtype=np.uint8)
    offsets = np.zeros(len(order), dtype=np.int64)
    blocks = _list_all_plays(order, slots, counts, offsets, progress)
    hit_ranks = _hit_ranks(checkers)
    change = math.inf
    passes = 0
    while change > tolerance:
        if passes == max_passes:
            raise RuntimeError(f"the solve has not settled after {passes} passes (last change {change:.2e})")
        largest = 0.0
        for start, stop, packed in blocks:
            for begin in range(start, stop, CHUNK):
                if progress is not None:
                    progress(passes + 1, begin, change)
                moved = _sweep(
                    order, begin, min(begin + CHUNK, stop), passes > 0, contact, counts, offsets, packed,
                    hit_ranks, values, equities, _EQUITY_WEIGHTS, _EQUITY_OFFSET,
                )  # fmt: skip
                largest = max(largest, moved)
        if math.isnan(largest) or np.isnan(equities).any():  # a NaN never wins max()
            raise RuntimeError(f"pass {passes + 1} of the solve gave NaN chances")
        change = largest
        passes += 1  # a race is exact after the first pass: the others only visit contact
    values[~valid] = np.nan
    return values, passes


def _list_all_plays(
    order: Indices,
    slots: Indices,
    counts: npt.NDArray[np.uint8],
    offsets: Indices,
    progress: Progress | None,
) -> list[tuple[int, int, npt.NDArray[np.uint16]]]:
    """Every position's plays, in blocks of positions: (first position, end, the stored plays)."""
    scratch = Scratch()
    out_boards = np.empty((MAX_SEQUENCES, ARRAY_SIZE), dtype=np.int8)
    out_moves = np.empty((MAX_SEQUENCES, 4, 3), dtype=np.int8)
    blocks = []
    start = 0
    while start < len(order):
        packed = np.empty(min(_BLOCK, len(order) - start) * _PLAYS_A_POSITION + _ROOM, dtype=np.uint16)
        position, fill = start, 0
        while position < min(start + _BLOCK, len(order)):
            if progress is not None:
                progress(0, position, math.inf)
            reached, fill = _list_plays(
                order, position, min(position + CHUNK, start + _BLOCK, len(order)), slots, counts, offsets,
                packed, fill, *scratch.arrays(), out_boards, out_moves,
            )  # fmt: skip
            if reached == position:
                break  # the block is full
            position = reached
        blocks.append((start, position, packed[:fill]))
        start = position
    return blocks


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
        values, passes = solve_values(checkers, tolerance, progress)
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
        valid, _, _ = _classes(self.checkers)
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
        valid, _, _ = _classes(checkers)
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
BUILD_COMMAND = "python -m tavola.bot.hypergammon --build"

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
    _check_checkers(checkers)
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


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tavola.bot.hypergammon --build [--output FILE]``: solve hypergammon and keep the table."""
    parser = argparse.ArgumentParser(prog="python -m tavola.bot.hypergammon", description=main.__doc__)
    parser.add_argument("--build", action="store_true", help="solve every position and write the table")
    parser.add_argument("--output", type=Path, default=None, help=f"where to write it ({cache_file()})")
    parser.add_argument("--checkers", type=int, default=MAX_CHECKERS, help="checkers a side (3)")
    parser.add_argument("--tolerance", type=float, default=TOLERANCE, help=f"last change ({TOLERANCE})")
    args = parser.parse_args(argv)
    if not args.build:
        parser.error("nothing to do: pass --build")
    output = args.output or cache_file(args.checkers)
    began = time.perf_counter()
    table = solve_with_progress_bar(args.checkers, args.tolerance)
    solved = time.perf_counter() - began
    table.save(output)
    print(
        f"{len(table):,} positions solved in {solved:.0f} s ({table.passes} passes); "
        f"wrote {output} ({output.stat().st_size:,} bytes)",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
