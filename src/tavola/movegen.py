"""Legal play generation (R5-R17): the one place where the movement rules live.

Everything runs on the int8 layout of :meth:`Position.to_array` (30 values seen
from the mover: 0 = mover's off, 1-24 = points, 25 = mover's bar, 26 =
mover's checkers waiting to enter, then the opponent's bar, off and waiting)
and is compiled with Numba.

:func:`generate` gives the plays of one position and roll; :func:`generate_batch`
does many position-roll pairs in one call so that a bot pays no Python
overhead per position. Both return every legal play once per resulting
position, with the single-die moves that reach it::

    results[k]  the position after play k, still seen from the mover
    moves[k, i] the i-th single-die move of play k as (source, destination, hit),
                (-1, -1, -1) after the last move; source 25 is the bar, 26 a checker
                not yet entered, destination 0 is off

The rules, as the generator applies them:

* a checker moves forward by one die to an open point (R5), several dice may
  move one checker, each landing point open (R6), doubles give four moves (R7);
* landing on a single opposing checker hits it (R8);
* nothing moves while the mover has a checker on the bar (R9, R10);
* checkers not yet entered (Acey-Deucey) enter like bar checkers, whenever
  the mover likes, and keep the mover from bearing off;
* with ``HIT_NEEDS_HOME`` (Dutch backgammon) a checker may hit only once one
  of the mover's checkers is in its home board or borne off;
* as many dice as possible are used (R11), the larger die when only one of
  two can be (R12), and a roll that cannot be used at all is one empty play,
  the pass (R13);
* bearing off needs every checker home; a die larger than the highest
  occupied point bears off from it, otherwise it must move a checker (R14-R16).

>>> import numpy as np
>>> from tavola.position import Position
>>> results, moves = generate(Position.start().to_array(), 3, 1)
>>> results.shape, moves.shape
((16, 30), (16, 4, 3))

One move at a time, with the single-step helpers the generator is made of:

>>> board = Position.start().to_array().copy()
>>> top = highest_checker(board, 24)
>>> target = destination(board, 24, 3, top, may_hit(board, 0))
>>> top, target, move_checker(board, 24, target), int(board[21])
(24, 21, 0, 1)
"""

from __future__ import annotations

import threading

import numpy as np
import numpy.typing as npt
from numba import njit

from tavola.position import ARRAY_SIZE, MY_BAR, MY_OFF, MY_WAITING, THEIR_BAR

IntArray = npt.NDArray[np.int8]

MAX_SEQUENCES = 4096
"""Room for the plays of one position and roll, far above the real maximum."""
_NO_MOVE = -1

HIT_NEEDS_HOME = 1
"""Flag: no hitting until one of the mover's checkers is home or off (Dutch backgammon, V1)."""


@njit(cache=True, inline="always")
def highest_checker(board: IntArray, bound: int) -> int:
    """The mover's furthest-back checker: 25 for the bar, then 26 for one waiting to enter, else its point.

    ``bound`` is a point no checker on the board is above (24 when nothing
    is known; a checker only moves down, so the value before a move is a
    bound after it); 0 when every checker is off. A single-step helper,
    like :func:`destination`, :func:`may_hit` and :func:`move_checker`: the
    generator and :class:`~tavola.turn.Turn` make moves with them.
    """
    if board[MY_BAR] > 0:
        return 25
    if board[MY_WAITING] > 0:
        return 26
    for point in range(min(bound, 24), 0, -1):
        if board[point] > 0:
            return point
    return 0


@njit(cache=True, inline="always")
def destination(board: IntArray, source: int, die: int, highest: int, hitting: bool) -> int:
    """Where one checker from ``source`` lands with ``die`` (0 is off), or -1 if the rules forbid it.

    ``highest`` is :func:`highest_checker` of the board and ``hitting`` is
    :func:`may_hit` of it. Checks one move alone: the bar first (R9), open
    points (R5), no hit before a checker is home where the variant says so
    (V1), and bearing off (R14, R15); whether the rest of the roll can still
    be played (R11, R12) is the generator's business.
    """
    if board[source] <= 0 or (highest == 25 and source != 25):
        return -1  # no checker there, or one on the bar has to enter first (R9)
    target = min(source, 25) - die  # waiting checkers enter like bar checkers
    if target >= 1:
        if board[target] < -1:
            return -1  # blocked by two or more (R5)
        if board[target] == -1 and not hitting:
            return -1  # no hitting yet (V1)
        return target
    if highest > 6:
        return -1  # bearing off needs every checker home (R14)
    if target == 0 or source == highest:
        return 0  # exact, or a larger die from the highest point (R15)
    return -1


@njit(cache=True, inline="always")
def may_hit(board: IntArray, flags: int) -> bool:
    """Whether the mover may hit now: always, but under :data:`HIT_NEEDS_HOME` only with a checker home.

    ``flags`` are the variant's rule flags (:attr:`tavola.variants.Variant.flags`).
    """
    return not flags & HIT_NEEDS_HOME or _has_home(board)


@njit(cache=True)
def _has_home(board: IntArray) -> bool:
    """Whether one of the mover's checkers is in its home board or borne off."""
    if board[MY_OFF] > 0:
        return True
    for point in range(1, 7):  # noqa: SIM110 (a plain loop compiles to the fastest code)
        if board[point] > 0:
            return True
    return False


@njit(cache=True, inline="always")
def _unmove(board: IntArray, source: int, target: int, hit: int) -> None:
    """Take back a move made by :func:`move_checker`."""
    board[source] += 1
    if target == 0:
        board[MY_OFF] -= 1
        return
    board[target] -= 1
    if hit:
        board[target] = -1
        board[THEIR_BAR] -= 1


@njit(cache=True, inline="always")
def move_checker(board: IntArray, source: int, target: int) -> int:
    """Move one checker from ``source`` to ``target`` (0 is off) in place; return 1 when it hits a blot (R8).

    The move is not checked: ``target`` comes from :func:`destination`. A
    hit checker goes to the opponent's bar.
    """
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


TABLE_SIZE = 1 << 14
"""Slots of the hash table that finds repeated positions (a power of two above MAX_SEQUENCES)."""
_WRITTEN, _BEST_RANK, _STAMP, _FLAGS = 0, 1, 2, 3  # the fields of the ``state`` array


class Scratch:
    """Work arrays for :func:`plays_into`, reused across the positions of a batch.

    ``state`` holds how many plays are written for the current position, the
    best rank seen so far, a stamp that tells this position's hash table
    entries from older ones (so the table never needs clearing), and the
    rule flags.
    """

    def __init__(self) -> None:
        self.levels = np.zeros((5, ARRAY_SIZE), dtype=np.int8)
        self.path = np.zeros((4, 3), dtype=np.int8)
        self.state = np.zeros(4, dtype=np.int64)
        self.table_index = np.zeros(TABLE_SIZE, dtype=np.int32)
        self.table_stamp = np.full(TABLE_SIZE, -1, dtype=np.int64)

    def arrays(
        self,
    ) -> tuple[IntArray, IntArray, npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[np.int64]]:
        """The arrays in the order :func:`plays_into` takes them after ``flags``."""
        return self.levels, self.path, self.state, self.table_index, self.table_stamp


@njit(cache=True, inline="always")
def board_hash(board: IntArray) -> int:
    """A hash of a board (an int64; take its low bits for a table of a power of two), four bytes a step.

    The one hash of positions: the generator's table of positions reached and
    the search's table of positions evaluated (:mod:`tavola.bot.search`) use it.
    """
    value = 0  # int64 arithmetic wraps around, which is all a hash needs
    whole = ARRAY_SIZE - ARRAY_SIZE % 4
    for index in range(0, whole, 4):
        word = (
            (board[index] & 0xFF)
            | ((board[index + 1] & 0xFF) << 8)
            | ((board[index + 2] & 0xFF) << 16)
            | ((board[index + 3] & 0xFF) << 24)
        )
        value = (value ^ word) * 1099511628211
    for index in range(whole, ARRAY_SIZE):
        value = (value ^ (board[index] & 0xFF)) * 1099511628211
    return value ^ (value >> 29)


@njit(cache=True, inline="always")
def _same(a: IntArray, b: IntArray) -> bool:
    for index in range(ARRAY_SIZE):  # noqa: SIM110 (a plain loop compiles to the fastest code)
        if a[index] != b[index]:
            return False
    return True


@njit(cache=True)
def _emit(
    board: IntArray,
    path: IntArray,
    rank: int,
    state: npt.NDArray[np.int64],
    table_index: npt.NDArray[np.int32],
    table_stamp: npt.NDArray[np.int64],
    out_boards: IntArray,
    out_moves: IntArray,
    out_start: int,
) -> None:
    """Keep a finished sequence of moves if it ranks best so far and reaches a new position.

    The rank says how much of the roll a sequence uses (R11, R12); one that
    ranks higher than everything before it discards what was kept.
    """
    if rank < state[_BEST_RANK]:
        return
    if rank > state[_BEST_RANK]:
        state[_BEST_RANK] = rank
        state[_WRITTEN] = 0
        state[_STAMP] += 1
    stamp = state[_STAMP]
    mask = TABLE_SIZE - 1
    slot = board_hash(board) & mask
    while table_stamp[slot] == stamp:
        if _same(out_boards[out_start + table_index[slot]], board):
            return  # another order of moves already reached this position
        slot = (slot + 1) & mask
    written = state[_WRITTEN]
    if written >= MAX_SEQUENCES:
        raise ValueError("more plays than the move generator has room for")
    table_stamp[slot] = stamp
    table_index[slot] = written
    out_boards[out_start + written, :] = board
    out_moves[out_start + written, :, :] = path
    state[_WRITTEN] = written + 1


@njit(cache=True)
def _plays_two_dice(
    start: IntArray,
    high: int,
    low: int,
    levels: IntArray,
    path: IntArray,
    state: npt.NDArray[np.int64],
    table_index: npt.NDArray[np.int32],
    table_stamp: npt.NDArray[np.int64],
    out_boards: IntArray,
    out_moves: IntArray,
    out_start: int,
) -> None:
    """Every way to play a non-double, in both orders.

    Ranks: both dice 3, the larger alone 2, the smaller alone 1. The larger
    die goes first, then the smaller. In the second pass (smaller first),
    two different checkers whose larger move was already legal at the start
    were found by the first pass, so they are skipped: the smaller move
    cannot make the larger one illegal or change where it lands.
    """
    flags = state[_FLAGS]
    top0 = highest_checker(start, 25)
    hit0 = may_hit(start, flags)
    occupied = np.empty(26, dtype=np.int64)  # the mover's points at the start, highest first
    count = 0
    for point in range(MY_WAITING if start[MY_WAITING] > 0 else top0, 0, -1):
        if start[point] > 0:
            occupied[count] = point
            count += 1
    board = levels[1]
    for order in range(2):
        first = high if order == 0 else low
        second = low if order == 0 else high
        for index1 in range(count):
            source1 = occupied[index1]
            target1 = destination(start, source1, first, top0, hit0)
            if target1 < 0:
                continue
            board[:] = start
            path[:, :] = _NO_MOVE
            path[0, 0], path[0, 1] = source1, target1
            path[0, 2] = move_checker(board, source1, target1)
            top1 = highest_checker(board, top0)
            hit1 = may_hit(board, flags)
            used_both = False
            # The second checker stands where a checker stood at the start, or where the first one landed.
            newly = target1 if target1 > 0 and start[target1] <= 0 else 0
            for index2 in range(-1 if newly else 0, count):
                source2 = newly if index2 < 0 else occupied[index2]
                target2 = destination(board, source2, second, top1, hit1)
                if target2 < 0:
                    continue
                used_both = True
                if order == 1 and source2 != target1 and destination(start, source2, high, top0, hit0) >= 0:
                    continue  # the first pass played these two moves the other way round
                hit = move_checker(board, source2, target2)
                path[1, 0], path[1, 1], path[1, 2] = source2, target2, hit
                _emit(board, path, 3, state, table_index, table_stamp, out_boards, out_moves, out_start)
                _unmove(board, source2, target2, hit)
            if not used_both:
                path[1, :] = _NO_MOVE
                rank = 2 if first == high else 1
                _emit(board, path, rank, state, table_index, table_stamp, out_boards, out_moves, out_start)


@njit(cache=True)
def _plays_double(
    start: IntArray,
    die: int,
    count: int,
    levels: IntArray,
    path: IntArray,
    state: npt.NDArray[np.int64],
    table_index: npt.NDArray[np.int32],
    table_stamp: npt.NDArray[np.int64],
    out_boards: IntArray,
    out_moves: IntArray,
    out_start: int,
) -> None:
    """Every way to play ``count`` moves of one die (4 for a double), from non-increasing points.

    The rank of a sequence is its number of moves.
    Any legal order of the four moves can be sorted so that sources never
    rise and stay legal, so this reaches every resulting position without
    trying the same moves in every order. Under ``HIT_NEEDS_HOME`` that holds
    on each side of the move that first brings a checker home: the moves
    before it do not hit, and after it any checker may, so the order starts
    again from the back there. A depth-first search over four levels:
    ``sources[d]`` is the next point to try at level ``d``.
    """
    sources = np.empty(5, dtype=np.int64)
    tops = np.empty(5, dtype=np.int64)
    hits = np.empty(5, dtype=np.bool_)
    moved = np.zeros(5, dtype=np.bool_)
    levels[0, :] = start
    tops[0] = highest_checker(start, 25)
    hits[0] = may_hit(start, state[_FLAGS])
    sources[0] = tops[0]
    path[:, :] = _NO_MOVE
    depth = 0
    while True:
        if depth == count:
            _emit(
                levels[depth], path, depth, state, table_index, table_stamp, out_boards, out_moves, out_start
            )
            depth -= 1
            path[depth, :] = _NO_MOVE
            sources[depth] -= 1
            continue
        source = sources[depth]
        if source < 1 or (tops[depth] == 25 and source < 25):
            if depth > 0 and not moved[depth]:
                _emit(
                    levels[depth],
                    path,
                    depth,
                    state,
                    table_index,
                    table_stamp,
                    out_boards,
                    out_moves,
                    out_start,
                )
            if depth == 0:
                return
            depth -= 1
            path[depth, :] = _NO_MOVE
            sources[depth] -= 1
            continue
        target = destination(levels[depth], source, die, tops[depth], hits[depth])
        if target < 0:
            sources[depth] -= 1
            continue
        moved[depth] = True
        levels[depth + 1, :] = levels[depth]
        path[depth, 0], path[depth, 1] = source, target
        path[depth, 2] = move_checker(levels[depth + 1], source, target)
        depth += 1
        tops[depth] = highest_checker(levels[depth], tops[depth - 1])
        hits[depth] = may_hit(levels[depth], state[_FLAGS])
        # Bar checkers go first (R9), then checkers waiting to enter, then points from the back.
        # A move that first allows hitting (V1) starts the order again: a checker further back
        # may now hit, which it could not before this move.
        restart = source == MY_BAR or (hits[depth] and not hits[depth - 1])
        sources[depth] = tops[depth] if restart else min(source, tops[depth])
        moved[depth] = False


@njit(cache=True)
def plays_into(
    start: IntArray,
    die1: int,
    die2: int,
    count: int,
    flags: int,
    levels: IntArray,
    path: IntArray,
    state: npt.NDArray[np.int64],
    table_index: npt.NDArray[np.int32],
    table_stamp: npt.NDArray[np.int64],
    out_boards: IntArray,
    out_moves: IntArray,
    out_start: int,
) -> int:
    """Write the legal plays of one position and roll at ``out_start``; return how many.

    ``count`` is the number of moves a double gives (4, fewer for what is
    left of one); two different dice always give two. ``flags`` are rule
    flags such as :data:`HIT_NEEDS_HOME`. ``levels`` to ``table_stamp`` are
    a :class:`Scratch`'s arrays; the results and moves go to rows
    ``out_start`` onwards of ``out_boards`` and ``out_moves`` (laid out as
    :func:`generate` returns them), which need room for
    :data:`MAX_SEQUENCES` rows there. The compiled entry point for code that
    is itself compiled, such as the bear-off database's construction.
    """
    state[_FLAGS] = flags
    state[_WRITTEN] = 0
    state[_BEST_RANK] = 0
    state[_STAMP] += 1
    if die1 == die2:
        _plays_double(
            start,
            die1,
            count,
            levels,
            path,
            state,
            table_index,
            table_stamp,
            out_boards,
            out_moves,
            out_start,
        )
    else:
        high, low = max(die1, die2), min(die1, die2)
        _plays_two_dice(
            start, high, low, levels, path, state, table_index, table_stamp, out_boards, out_moves, out_start
        )
    if state[_BEST_RANK] == 0:  # nothing can be played: the pass (R13)
        out_boards[out_start, :] = start
        out_moves[out_start, :, :] = _NO_MOVE
        return 1
    return int(state[_WRITTEN])


def generate(position: IntArray, die1: int, die2: int, flags: int = 0) -> tuple[IntArray, IntArray]:
    """The legal plays of one position (an array in :meth:`Position.to_array`'s layout) and roll.

    Returns ``(results, moves)`` as described in the module docstring.
    """
    return generate_dice(position, (die1, die2) if die1 != die2 else (die1,) * 4, flags)


def generate_dice(position: IntArray, dice: tuple[int, ...], flags: int = 0) -> tuple[IntArray, IntArray]:
    """The legal ways to play what is left of a roll: one die, two different dice, or 1-4 of one.

    A turn played part way uses this to see what can still follow.

    >>> from tavola.position import Position
    >>> results, moves = generate_dice(Position.start().to_array(), (6,))
    >>> [(int(move[0, 0]), int(move[0, 1])) for move in moves]
    [(24, 18), (13, 7), (8, 2)]
    """
    start = np.array(position, dtype=np.int8).reshape(1, ARRAY_SIZE)
    _offsets, results, moves = generate_dice_batch(start, dice, flags)
    return results.copy(), moves.copy()


def single_moves(position: IntArray, die: int, flags: int = 0) -> tuple[IntArray, IntArray]:
    """Every single checker's move with one ``die`` the rules allow on its own (whatever the rest of the
    roll), in one compiled call: ``(moves, results)``, each move ``(source, destination, hit)`` (0 is
    off) and the board it leaves, the sources from the furthest back. Whether the rest of the roll can
    still be played after it is :func:`generate_dice_batch`'s to say.

    >>> from tavola.position import Position
    >>> moves, results = single_moves(Position.start().to_array(), 6)
    >>> moves.tolist(), results.shape
    ([[24, 18, 0], [13, 7, 0], [8, 2, 0]], (3, 30))
    """
    if not 1 <= die <= 6:
        raise ValueError(f"a die is a value 1-6, not {die}")
    board = np.ascontiguousarray(position, dtype=np.int8)
    moves = np.empty((MY_WAITING, 3), dtype=np.int8)
    results = np.empty((MY_WAITING, ARRAY_SIZE), dtype=np.int8)
    count = _single_moves(board, die, flags, moves, results)
    return moves[:count], results[:count]


@njit(cache=True)
def _single_moves(board: IntArray, die: int, flags: int, moves: IntArray, results: IntArray) -> int:
    """:func:`single_moves` into ``moves`` and ``results``; how many there are."""
    top = highest_checker(board, 25)
    hitting = may_hit(board, flags)
    count = 0
    for source in range(MY_WAITING, 0, -1):
        target = destination(board, source, die, top, hitting)
        if target < 0:
            continue
        results[count, :] = board
        moves[count, 0] = source
        moves[count, 1] = target
        moves[count, 2] = move_checker(results[count], source, target)
        count += 1
    return count


def next_moves(
    position: IntArray, dice: tuple[int, ...], legal_results: IntArray, flags: int = 0
) -> IntArray:
    """The single-die moves that may come next in a turn played part way, in one compiled call: those after
    which some way to play the rest of ``dice`` (what is left of the roll) ends in one of ``legal_results``,
    the boards the roll's legal plays leave (R11, R12). Each move ``(source, destination, hit)``, the
    larger die's first, sources from the furthest back; a move either die makes (bearing off) once. No
    move where no dice are left.

    >>> from tavola.position import Position
    >>> start = Position.start().to_array()
    >>> results, _moves = generate(start, 6, 5)
    >>> next_moves(start, (6, 5), results).tolist()
    [[24, 18, 0], [13, 7, 0], [8, 2, 0], [13, 8, 0], [8, 3, 0]]
    """
    if not dice:
        return np.empty((0, 3), dtype=np.int8)
    _check_dice_left(dice)
    board = np.ascontiguousarray(position, dtype=np.int8)
    results = np.ascontiguousarray(legal_results, dtype=np.int8)
    if board.shape != (ARRAY_SIZE,) or results.ndim != 2 or results.shape[1] != ARRAY_SIZE:
        raise ValueError(f"a board of {ARRAY_SIZE} values and (N, {ARRAY_SIZE}) results, not {board.shape}")
    left = np.array(sorted(dice, reverse=True), dtype=np.int8)
    return _next_moves(board, left, flags, results)


def _check_dice_left(dice: tuple[int, ...]) -> None:
    """Refuse what is no roll's dice left: one die, two different dice, or one to four of one value."""
    if not 1 <= len(dice) <= 4 or any(not 1 <= die <= 6 for die in dice):
        raise ValueError(f"dice are one to four values 1-6, not {dice}")
    if len(set(dice)) > 1 and len(dice) != 2:
        raise ValueError(f"more than two dice are all the same value, not {dice}")


@njit(cache=True)
def _next_moves(board: IntArray, dice: IntArray, flags: int, legal: IntArray) -> IntArray:
    """:func:`next_moves`, ``dice`` sorted from the largest."""
    hashes = np.empty(legal.shape[0], dtype=np.int64)
    for row in range(legal.shape[0]):
        hashes[row] = board_hash(legal[row])
    order = np.argsort(hashes)
    ordered = hashes[order]
    found = np.empty((2 * MY_WAITING, 3), dtype=np.int8)
    count = 0
    moves = np.empty((MY_WAITING, 3), dtype=np.int8)
    afters = np.empty((MY_WAITING, ARRAY_SIZE), dtype=np.int8)
    levels = np.empty((4, ARRAY_SIZE), dtype=np.int8)
    rest = dice.shape[0] - 1
    for index in range(dice.shape[0]):
        die = dice[index]
        if index > 0 and dice[index - 1] == die:
            continue  # each die value once
        other = dice[1] if index == 0 and rest > 0 else dice[0]  # what is left is one die, or a double's
        for move in range(_single_moves(board, die, flags, moves, afters)):
            if _found(found, count, moves[move, 0], moves[move, 1]):
                continue
            levels[0] = afters[move]
            if _reaches(levels, other, rest, flags, legal, ordered, order):
                found[count] = moves[move]
                count += 1
    return found[:count].copy()


@njit(cache=True)
def _reaches(
    levels: IntArray,
    die: int,
    count: int,
    flags: int,
    legal: IntArray,
    ordered: npt.NDArray[np.int64],
    order: npt.NDArray[np.int64],
) -> bool:
    """Whether some way to move ``count`` times ``die`` from ``levels[0]``, or as many times as the rules let
    it move, leaves one of the ``legal`` boards: a depth-first search, stopped at the first found.

    A way stops only where no move is left: a legal play uses as many dice as can be used (R11), so a
    board with a move left is no legal play's (R12 is the boards': where only one die of two is played,
    the legal boards are the larger die's)."""
    sources = np.empty(count + 1, dtype=np.int64)
    moved = np.zeros(count + 1, dtype=np.bool_)
    depth = 0
    sources[0] = MY_WAITING
    while depth >= 0:
        current = levels[depth]
        if depth == count:
            if _among(current, legal, ordered, order):
                return True
            depth -= 1
            continue
        top = highest_checker(current, MY_BAR)
        hitting = may_hit(current, flags)
        went_on = False
        while sources[depth] > 0:
            source = sources[depth]
            sources[depth] -= 1
            target = destination(current, source, die, top, hitting)
            if target < 0:
                continue
            moved[depth] = True
            levels[depth + 1] = current
            move_checker(levels[depth + 1], source, target)
            depth += 1
            sources[depth] = MY_WAITING
            moved[depth] = False
            went_on = True
            break
        if not went_on:
            if not moved[depth] and _among(current, legal, ordered, order):
                return True  # nothing moves from here: the way stops at this board
            depth -= 1
    return False


@njit(cache=True, inline="always")
def _found(found: IntArray, count: int, source: int, target: int) -> bool:
    for row in range(count):  # noqa: SIM110 (a plain loop compiles to the fastest code)
        if found[row, 0] == source and found[row, 1] == target:
            return True
    return False


@njit(cache=True, inline="always")
def _among(
    board: IntArray, legal: IntArray, ordered: npt.NDArray[np.int64], order: npt.NDArray[np.int64]
) -> bool:
    """Whether ``board`` is a row of ``legal``, whose hashes are ``ordered`` (sorted; ``order`` the rows)."""
    value = board_hash(board)
    at = np.searchsorted(ordered, value)
    while at < ordered.shape[0] and ordered[at] == value:
        if _same(legal[order[at]], board):
            return True
        at += 1
    return False


def generate_dice_batch(
    positions: IntArray, dice: tuple[int, ...], flags: int = 0
) -> tuple[npt.NDArray[np.int64], IntArray, IntArray]:
    """:func:`generate_dice` of many positions with the same dice left, in one compiled call.

    ``positions`` is an (N, 30) int8 array. Returns ``(offsets, results, moves)`` as
    :func:`generate_batch` does; the arrays are the calling thread's own, valid until its next call:
    copy what is kept.

    >>> from tavola.position import Position
    >>> start = Position.start().to_array()
    >>> offsets, results, moves = generate_dice_batch(np.stack([start, start]), (6, 5))
    >>> offsets.tolist()
    [0, 7, 14]
    """
    _check_dice_left(dice)
    work = _work_arrays()
    boards = np.ascontiguousarray(positions, dtype=np.int8)
    if boards.ndim != 2 or boards.shape[1] != ARRAY_SIZE:
        raise ValueError(f"positions must have shape (N, {ARRAY_SIZE}), not {boards.shape}")
    rolls = np.empty((len(boards), 2), dtype=np.int8)
    rolls[:, 0], rolls[:, 1] = dice[0], dice[-1]
    offsets, work.out_boards, work.out_moves = _batch(
        boards, rolls, len(dice), flags, *work.arrays(), work.out_boards, work.out_moves
    )
    written = offsets[-1]
    return offsets, work.out_boards[:written], work.out_moves[:written]


class _WorkArrays(Scratch):
    """A thread's scratch and output arrays for single calls, made once and reused."""

    def __init__(self) -> None:
        super().__init__()
        self.out_boards = np.empty((MAX_SEQUENCES, ARRAY_SIZE), dtype=np.int8)
        self.out_moves = np.empty((MAX_SEQUENCES, 4, 3), dtype=np.int8)


_THREAD = threading.local()


def _work_arrays() -> _WorkArrays:
    work: _WorkArrays | None = getattr(_THREAD, "work", None)
    if work is None:
        work = _THREAD.work = _WorkArrays()
    return work


@njit(cache=True)
def _batch(
    positions: IntArray,
    dice: IntArray,
    count: int,
    flags: int,
    levels: IntArray,
    path: IntArray,
    state: npt.NDArray[np.int64],
    table_index: npt.NDArray[np.int32],
    table_stamp: npt.NDArray[np.int64],
    out_boards: IntArray,
    out_moves: IntArray,
) -> tuple[npt.NDArray[np.int64], IntArray, IntArray]:
    """The plays of every position-roll pair, written into ``out_*`` (grown when they are too small).

    The one compiled entry to :func:`plays_into`, for a batch and for a single
    position alike, so that it is compiled once. ``count`` is the number of
    moves a double gives (4, fewer for what is left of one).
    """
    total = positions.shape[0]
    offsets = np.zeros(total + 1, dtype=np.int64)
    filled = 0
    for index in range(total):
        if filled + MAX_SEQUENCES > out_boards.shape[0]:
            capacity = 2 * out_boards.shape[0] + MAX_SEQUENCES
            grown_boards = np.empty((capacity, ARRAY_SIZE), dtype=np.int8)
            grown_moves = np.empty((capacity, 4, 3), dtype=np.int8)
            grown_boards[:filled] = out_boards[:filled]
            grown_moves[:filled] = out_moves[:filled]
            out_boards, out_moves = grown_boards, grown_moves
        filled += plays_into(
            positions[index], int(dice[index, 0]), int(dice[index, 1]), count, flags,
            levels, path, state, table_index, table_stamp, out_boards, out_moves, filled,
        )  # fmt: skip
        offsets[index + 1] = filled
    return offsets, out_boards, out_moves


def generate_batch(
    positions: npt.ArrayLike, dice: npt.ArrayLike, flags: int = 0
) -> tuple[npt.NDArray[np.int64], IntArray, IntArray]:
    """The legal plays of many position-roll pairs in one compiled call.

    ``positions`` is an (N, 30) int8 array, ``dice`` an (N, 2) array of die
    values, ``flags`` the variant's rule flags. Returns ``(offsets, results, moves)``: the plays of pair ``i``
    are rows ``offsets[i]:offsets[i + 1]`` of ``results`` and ``moves``.

    >>> from tavola.position import Position
    >>> from tavola.dice import ALL_ROLLS
    >>> start = Position.start().to_array()
    >>> offsets, results, moves = generate_batch([start] * 21, list(ALL_ROLLS))
    >>> {str(roll): int(n) for roll, n in zip(ALL_ROLLS, np.diff(offsets))}["31"]
    16
    """
    boards = np.ascontiguousarray(positions, dtype=np.int8)
    rolls = np.ascontiguousarray(dice, dtype=np.int8)
    if boards.ndim != 2 or boards.shape[1] != ARRAY_SIZE:
        raise ValueError(f"positions must have shape (N, {ARRAY_SIZE}), not {boards.shape}")
    if rolls.shape != (boards.shape[0], 2) or (rolls.size and (rolls.min() < 1 or rolls.max() > 6)):
        raise ValueError("dice must be an (N, 2) array of values 1 to 6, one row per position")
    capacity = max(4 * MAX_SEQUENCES, 32 * len(boards))
    offsets, results, moves = _batch(
        boards,
        rolls,
        4,
        flags,
        *Scratch().arrays(),
        np.empty((capacity, ARRAY_SIZE), dtype=np.int8),
        np.empty((capacity, 4, 3), dtype=np.int8),
    )
    return offsets, results[: offsets[-1]], moves[: offsets[-1]]
