"""Solving hypergammon: every position's cubeless chances by value iteration over its plays."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
from numba import njit

from tavola.bot.features import in_contact
from tavola.bot.hypergammon.indexing import (
    BAR_SLOT,
    MAX_CHECKERS,
    Boards,
    FloatArray,
    Indices,
    boards_of,
    fill_board,
    position_classes,
    ranks_after_hits,
    side_rank,
    side_slots,
)
from tavola.bot.network import LOSE_BACKGAMMON, LOSE_GAMMON, OUTPUTS, WIN, WIN_BACKGAMMON, WIN_GAMMON, equity
from tavola.dice import ALL_ROLLS
from tavola.gameover import Scoring, game_points
from tavola.movegen import MAX_SEQUENCES, Scratch, plays_into
from tavola.position import ARRAY_SIZE

Progress = Callable[[int, int, float], None]
"""Told (pass, positions done in it, largest change of the pass before) as a solve goes on."""

TOLERANCE = 1e-6
"""A solve stops when a pass changes no probability by more than this."""
MAX_PASSES = 1_000
"""A solve that has not settled after this many passes stops with an error (hypergammon's takes 47)."""


_ROLLS = np.array(ALL_ROLLS, dtype=np.int64)
_WEIGHTS = np.array([1.0 if roll.is_double else 2.0 for roll in ALL_ROLLS])  # in 36ths
# Cubeless money equity as a linear function of the five chances, taken from the one definition.
_EQUITY_OFFSET = float(equity(np.zeros((1, OUTPUTS), np.float32))[0])
_EQUITY_WEIGHTS = np.asarray(equity(np.eye(OUTPUTS, dtype=np.float32)), np.float64) - _EQUITY_OFFSET
_TIE = 1e-12
"""Equities this close count as equal: then the play that leaves the opponent fewer wins is chosen
(at the same equity, fewer wins for it means more net gammons for it)."""


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
        fill_board(order[position] // count, opponent, slots, board)
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
                packed[fill] = side_rank(after, True, checkers) | hits << _HIT_SHIFT
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
        fill_board(order[row] // count, order[row] % count, slots, board)
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

    valid, over, pips = position_classes(checkers)
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
    hit_ranks = ranks_after_hits(checkers)
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
