"""Legal play generation (R5-R17): the one place where the movement rules live.

Everything runs on the int8 layout of :meth:`Position.to_array` (28 values seen
from the mover: 0 = mover's off, 1-24 = points, 25 = mover's bar, 26 =
opponent's bar, 27 = opponent's off) and is compiled with Numba.

:func:`generate` gives the plays of one position and roll; :func:`generate_batch`
does many position-roll pairs in one call so that a bot pays no Python
overhead per position. Both return every legal play once per resulting
position, with the single-die moves that reach it::

    results[k]  the position after play k, still seen from the mover
    moves[k, i] the i-th single-die move of play k as (source, destination, hit),
                (-1, -1, 0) after the last move; source 25 is the bar, destination 0 is off

The rules, as the generator applies them:

* a checker moves forward by one die to an open point (R5), several dice may
  move one checker, each landing point open (R6), doubles give four moves (R7);
* landing on a single opposing checker hits it (R8);
* nothing moves while the mover has a checker on the bar (R9, R10);
* as many dice as possible are used (R11), the larger die when only one of
  two can be (R12), and a roll that cannot be used at all is one empty play,
  the pass (R13);
* bearing off needs every checker home; a die larger than the highest
  occupied point bears off from it, otherwise it must move a checker (R14-R16).

>>> import numpy as np
>>> from tavola.position import Position
>>> results, moves = generate(Position.start().to_array(), 3, 1)
>>> results.shape, moves.shape
((16, 28), (16, 4, 3))
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from tavola.position import ARRAY_SIZE, MY_BAR, MY_OFF, THEIR_BAR

IntArray = npt.NDArray[np.int8]

MAX_SEQUENCES = 16384
"""Room for the move sequences of one position and roll, far above the real maximum."""
_NO_MOVE = -1


@njit(cache=True, inline="always")
def _highest(board: IntArray) -> int:
    """The mover's furthest-back checker: 25 when on the bar, 0 when all are off."""
    if board[MY_BAR] > 0:
        return 25
    for point in range(24, 0, -1):
        if board[point] > 0:
            return point
    return 0


@njit(cache=True, inline="always")
def _destination(board: IntArray, source: int, die: int, highest: int) -> int:
    """Where a checker from ``source`` lands with ``die``, or -1 if it may not move."""
    if board[source] <= 0 or (highest == 25 and source != 25):
        return -1  # no checker there, or one on the bar has to enter first (R9)
    target = source - die
    if target >= 1:
        return target if board[target] >= -1 else -1  # blocked by two or more (R5)
    if highest > 6:
        return -1  # bearing off needs every checker home (R14)
    if target == 0 or source == highest:
        return 0  # exact, or a larger die from the highest point (R15)
    return -1


@njit(cache=True, inline="always")
def _move(board: IntArray, source: int, target: int) -> int:
    """Move one checker in place; return 1 when it hits a blot (R8)."""
    board[source] -= 1
    if target == 0:
        board[MY_OFF] += 1
        return 0
    hit = 0
    if board[target] == -1:
        board[target] = 0
        board[THEIR_BAR] += 1
        hit = 1
    board[target] += 1
    return hit


@njit(cache=True)
def _record(
    board: IntArray,
    path: IntArray,
    depth: int,
    first_die: int,
    count: int,
    seq_boards: IntArray,
    seq_moves: IntArray,
    seq_depth: npt.NDArray[np.int32],
    seq_first: npt.NDArray[np.int32],
) -> int:
    if count >= seq_boards.shape[0]:
        raise ValueError("move generator buffer too small")
    seq_boards[count, :] = board
    seq_moves[count, :, :] = path
    seq_depth[count] = depth
    seq_first[count] = first_die
    return count + 1


@njit(cache=True)
def _sequences_two_dice(
    start: IntArray,
    high: int,
    low: int,
    levels: IntArray,
    path: IntArray,
    seq_boards: IntArray,
    seq_moves: IntArray,
    seq_depth: npt.NDArray[np.int32],
    seq_first: npt.NDArray[np.int32],
) -> int:
    """Every way to play a non-double, in both orders, down to where it stops."""
    count = 0
    top0 = _highest(start)
    for order in range(2):
        first = high if order == 0 else low
        second = low if order == 0 else high
        for source1 in range(top0, 24 if top0 == 25 else 0, -1):
            target1 = _destination(start, source1, first, top0)
            if target1 < 0:
                continue
            levels[1, :] = start
            path[:, :] = _NO_MOVE
            path[0, 0], path[0, 1] = source1, target1
            path[0, 2] = _move(levels[1], source1, target1)
            top1 = _highest(levels[1])
            used_both = False
            for source2 in range(top1, 24 if top1 == 25 else 0, -1):
                target2 = _destination(levels[1], source2, second, top1)
                if target2 < 0:
                    continue
                levels[2, :] = levels[1]
                path[1, 0], path[1, 1] = source2, target2
                path[1, 2] = _move(levels[2], source2, target2)
                count = _record(levels[2], path, 2, first, count, seq_boards, seq_moves, seq_depth, seq_first)
                used_both = True
            if not used_both:
                path[1, :] = _NO_MOVE
                count = _record(levels[1], path, 1, first, count, seq_boards, seq_moves, seq_depth, seq_first)
    return count


@njit(cache=True)
def _sequences_double(
    start: IntArray,
    die: int,
    levels: IntArray,
    path: IntArray,
    seq_boards: IntArray,
    seq_moves: IntArray,
    seq_depth: npt.NDArray[np.int32],
    seq_first: npt.NDArray[np.int32],
) -> int:
    """Every way to play a double, taking checkers from non-increasing points.

    Any legal order of the four moves can be sorted so that sources never
    rise and stay legal, so this reaches every resulting position without
    trying the same moves in every order. A depth-first search over four
    levels: ``sources[d]`` is the next point to try at level ``d``.
    """
    count = 0
    sources = np.zeros(5, dtype=np.int64)
    tops = np.zeros(5, dtype=np.int64)
    moved = np.zeros(5, dtype=np.bool_)
    levels[0, :] = start
    tops[0] = _highest(start)
    sources[0] = tops[0]
    path[:, :] = _NO_MOVE
    depth = 0
    while True:
        if depth == 4:
            count = _record(levels[4], path, 4, die, count, seq_boards, seq_moves, seq_depth, seq_first)
            depth = 3
            path[3, :] = _NO_MOVE
            sources[3] -= 1
            continue
        source = sources[depth]
        if source < 1 or (tops[depth] == 25 and source < 25):
            if depth > 0 and not moved[depth]:
                count = _record(levels[depth], path, depth, die, count, seq_boards, seq_moves, seq_depth, seq_first)
            if depth == 0:
                return count
            depth -= 1
            path[depth, :] = _NO_MOVE
            sources[depth] -= 1
            continue
        target = _destination(levels[depth], source, die, tops[depth])
        if target < 0:
            sources[depth] -= 1
            continue
        moved[depth] = True
        levels[depth + 1, :] = levels[depth]
        path[depth, 0], path[depth, 1] = source, target
        path[depth, 2] = _move(levels[depth + 1], source, target)
        depth += 1
        tops[depth] = _highest(levels[depth])
        sources[depth] = min(source, tops[depth])
        moved[depth] = False


@njit(cache=True, inline="always")
def _hash(board: IntArray) -> int:
    value = 0  # int64 arithmetic wraps around, which is all a hash needs
    for index in range(ARRAY_SIZE):
        value = (value ^ (board[index] & 0xFF)) * 1099511628211
    return value


@njit(cache=True)
def _same(a: IntArray, b: IntArray) -> bool:
    for index in range(ARRAY_SIZE):
        if a[index] != b[index]:
            return False
    return True


class _Scratch:
    """Work arrays for one call, reused across the positions of a batch."""

    def __init__(self) -> None:
        self.levels = np.zeros((5, ARRAY_SIZE), dtype=np.int8)
        self.path = np.zeros((4, 3), dtype=np.int8)
        self.seq_boards = np.zeros((MAX_SEQUENCES, ARRAY_SIZE), dtype=np.int8)
        self.seq_moves = np.zeros((MAX_SEQUENCES, 4, 3), dtype=np.int8)
        self.seq_depth = np.zeros(MAX_SEQUENCES, dtype=np.int32)
        self.seq_first = np.zeros(MAX_SEQUENCES, dtype=np.int32)
        self.table = np.zeros(2 * MAX_SEQUENCES, dtype=np.int32)


@njit(cache=True)
def _plays_into(
    start: IntArray,
    die1: int,
    die2: int,
    levels: IntArray,
    path: IntArray,
    seq_boards: IntArray,
    seq_moves: IntArray,
    seq_depth: npt.NDArray[np.int32],
    seq_first: npt.NDArray[np.int32],
    table: npt.NDArray[np.int32],
    out_boards: IntArray,
    out_moves: IntArray,
    out_start: int,
) -> int:
    """Write the legal plays of one position and roll at ``out_start``; return how many."""
    high = max(die1, die2)
    low = min(die1, die2)
    if high == low:
        count = _sequences_double(start, high, levels, path, seq_boards, seq_moves, seq_depth, seq_first)
    else:
        count = _sequences_two_dice(start, high, low, levels, path, seq_boards, seq_moves, seq_depth, seq_first)
    if count == 0:  # nothing can be played: the pass (R13)
        out_boards[out_start, :] = start
        out_moves[out_start, :, :] = _NO_MOVE
        return 1
    most = 0  # as many dice as possible (R11)
    high_alone = False  # when only one die of two is used, the larger one (R12)
    for index in range(count):
        most = max(most, seq_depth[index])
    if high != low and most == 1:
        for index in range(count):
            if seq_first[index] == high:
                high_alone = True
    size = 2
    while size < 2 * count:
        size *= 2
    mask = size - 1
    table[:size] = -1
    written = 0
    for index in range(count):
        if seq_depth[index] != most or (high_alone and seq_first[index] != high):
            continue
        slot = _hash(seq_boards[index]) & mask
        while table[slot] >= 0 and not _same(out_boards[out_start + table[slot]], seq_boards[index]):
            slot = (slot + 1) & mask
        if table[slot] >= 0:
            continue  # another order of moves already reached this position
        table[slot] = written
        out_boards[out_start + written, :] = seq_boards[index]
        out_moves[out_start + written, :, :] = seq_moves[index]
        written += 1
    return written


def generate(position: IntArray, die1: int, die2: int) -> tuple[IntArray, IntArray]:
    """The legal plays of one position (28-value array) and roll.

    Returns ``(results, moves)`` as described in the module docstring.
    """
    scratch = _Scratch()
    out_boards = np.empty((MAX_SEQUENCES, ARRAY_SIZE), dtype=np.int8)
    out_moves = np.empty((MAX_SEQUENCES, 4, 3), dtype=np.int8)
    start = np.array(position, dtype=np.int8)
    written = _plays_into(
        start, die1, die2, scratch.levels, scratch.path, scratch.seq_boards, scratch.seq_moves,
        scratch.seq_depth, scratch.seq_first, scratch.table, out_boards, out_moves, 0,
    )  # fmt: skip
    return out_boards[:written].copy(), out_moves[:written].copy()


@njit(cache=True)
def _batch(
    positions: IntArray,
    dice: IntArray,
    levels: IntArray,
    path: IntArray,
    seq_boards: IntArray,
    seq_moves: IntArray,
    seq_depth: npt.NDArray[np.int32],
    seq_first: npt.NDArray[np.int32],
    table: npt.NDArray[np.int32],
) -> tuple[npt.NDArray[np.int64], IntArray, IntArray]:
    total = positions.shape[0]
    offsets = np.zeros(total + 1, dtype=np.int64)
    capacity = max(4 * MAX_SEQUENCES, 32 * total)
    out_boards = np.empty((capacity, ARRAY_SIZE), dtype=np.int8)
    out_moves = np.empty((capacity, 4, 3), dtype=np.int8)
    filled = 0
    for index in range(total):
        if filled + MAX_SEQUENCES > capacity:
            capacity *= 2
            grown_boards = np.empty((capacity, ARRAY_SIZE), dtype=np.int8)
            grown_moves = np.empty((capacity, 4, 3), dtype=np.int8)
            grown_boards[:filled] = out_boards[:filled]
            grown_moves[:filled] = out_moves[:filled]
            out_boards, out_moves = grown_boards, grown_moves
        filled += _plays_into(
            positions[index], dice[index, 0], dice[index, 1], levels, path, seq_boards, seq_moves,
            seq_depth, seq_first, table, out_boards, out_moves, filled,
        )  # fmt: skip
        offsets[index + 1] = filled
    return offsets, out_boards[:filled], out_moves[:filled]


def generate_batch(
    positions: npt.ArrayLike, dice: npt.ArrayLike
) -> tuple[npt.NDArray[np.int64], IntArray, IntArray]:
    """The legal plays of many position-roll pairs in one compiled call.

    ``positions`` is an (N, 28) int8 array, ``dice`` an (N, 2) array of die
    values. Returns ``(offsets, results, moves)``: the plays of pair ``i``
    are rows ``offsets[i]:offsets[i + 1]`` of ``results`` and ``moves``.

    >>> from tavola.position import Position
    >>> from tavola.dice import ALL_ROLLS
    >>> start = Position.start().to_array()
    >>> offsets, results, moves = generate_batch([start] * 21, list(ALL_ROLLS))
    >>> [int(n) for n in np.diff(offsets)][:6]
    [15, 15, 16, 15, 16, 14]
    """
    boards = np.ascontiguousarray(positions, dtype=np.int8)
    rolls = np.ascontiguousarray(dice, dtype=np.int8)
    if boards.ndim != 2 or boards.shape[1] != ARRAY_SIZE:
        raise ValueError(f"positions must have shape (N, {ARRAY_SIZE}), not {boards.shape}")
    if rolls.shape != (boards.shape[0], 2) or rolls.size and (rolls.min() < 1 or rolls.max() > 6):
        raise ValueError("dice must be an (N, 2) array of values 1 to 6, one row per position")
    scratch = _Scratch()
    return _batch(
        boards, rolls, scratch.levels, scratch.path, scratch.seq_boards, scratch.seq_moves,
        scratch.seq_depth, scratch.seq_first, scratch.table,
    )  # fmt: skip
