"""Contact features: the shots at each side's blots, each side's escapes and primes.

The raw inputs of :mod:`tavola.bot.encode` say where every checker is; these
say what the placement means in the play that follows, which a small network
learns slowly on its own. For each side, from its own point of view:

* **shots**: of the 36 rolls, how many let the other side hit one of its
  blots. A roll hits when one checker can land on a blot with one die, or
  with both dice (or up to four steps of a double) through points that are
  not made (two or more checkers) by the side being hit. Checkers on the
  bar must come in first: with two or more on the bar (non-double) only the
  entering checkers can hit; with one, the other die is free for any
  checker; with a double, the dice left after entering are. Only single
  checkers hitting are looked at, and bearing off is ignored: a feature,
  not the rules (the generator in :mod:`tavola.movegen` has those).
* **escapes**: of the 36 rolls, how many let its rearmost checker (on the
  bar, if any) move past every point the other side has made within the
  12 points in front of it; 36 when there is no such point.
* **prime**: its longest run of consecutive made points.

:func:`features` returns them scaled to about 0-1 (shots and escapes / 36,
prime / 6), the player on roll's three first.

>>> from tavola.position import Position
>>> [round(float(value), 3) for value in features(Position.start().to_array()[None])[0]]
[0.0, 0.0, 0.167, 0.0, 0.0, 0.167]

At the start nothing can be hit, the back checkers cannot pass the
midpoint in one roll, and no two made points touch.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from tavola.position import MY_BAR, THEIR_BAR

FEATURES_PER_SIDE = 3
FEATURES = 2 * FEATURES_PER_SIDE
_REACH = 12
"""How far in front of the rearmost checker the other side's points count as a blockade."""


@njit(cache=True)
def _sides(board: npt.NDArray[np.generic], side: int, out: npt.NDArray[np.int64]) -> None:
    """``out[1..24]``: ``side``'s checkers on its own points 1-24, ``out[25]`` its bar (side 0: the mover)."""
    for point in range(1, 25):
        value = board[point] if side == 0 else -board[25 - point]
        out[point] = value if value > 0 else 0
    out[25] = board[MY_BAR] if side == 0 else board[THEIR_BAR]


@njit(cache=True)
def _made(target: npt.NDArray[np.int64], point: int) -> bool:
    """Whether the target has made the hitter's point ``point`` (two or more checkers)."""
    return bool(target[25 - point] >= 2)


Bits = int | np.int64
"""A bit set of points or of rolls."""
_POINTS = np.int64((1 << 25) - 2)
"""The bits of points 1-24 in a bit set of points."""


@njit(cache=True)
def _point_sets(target: npt.NDArray[np.int64], hitter: npt.NDArray[np.int64]) -> tuple[Bits, Bits, Bits]:
    """Bit sets of points 1-24 (bit p: point p): the hitter's checkers, the target's blots and points."""
    checkers = np.int64(0)
    blots = np.int64(0)
    made = np.int64(0)
    for point in range(1, 25):
        checkers |= np.int64(hitter[point] > 0) << point
        blots |= np.int64(target[25 - point] == 1) << point
        made |= np.int64(target[25 - point] >= 2) << point
    return checkers, blots, made


@njit(cache=True)
def _hits_with_steps(starts: Bits, die: int, steps: int, blots: Bits, made: Bits) -> bool:
    """Whether a checker on one of the points ``starts`` hits a blot within ``steps`` moves of ``die``.

    Each move lands on a point (1-24) that is not made; the first blot met is hit.
    """
    reach = starts
    for _ in range(steps):
        reach = (reach >> die) & _POINTS
        if reach & blots:
            return True
        reach &= ~made
        if not reach:
            return False
    return False


@njit(cache=True)
def _hits(bar: int, checkers: Bits, blots: Bits, made: Bits, low: int, high: int) -> bool:
    """Whether the hitter (``bar`` checkers on its bar) rolling ``low``-``high`` can hit a blot (above)."""
    if low == high:
        free = 4
        if bar > 0:
            entry = 25 - low
            if made >> entry & 1:
                return False
            if blots >> entry & 1:
                return True
            free = 4 - bar
            if free <= 0:
                return False
            if _hits_with_steps(np.int64(1) << entry, low, free, blots, made):
                return True
        return _hits_with_steps(checkers, low, free, blots, made)
    if bar >= 2:
        return bool((blots >> (25 - low) | blots >> (25 - high)) & 1)
    for first, second in ((low, high), (high, low)):
        if bar == 1:
            entry = 25 - first
            if made >> entry & 1:
                continue
            if blots >> entry & 1 or _hits_with_steps(np.int64(1) << entry, second, 1, blots, made):
                return True
            if _hits_with_steps(checkers, second, 1, blots, made):
                return True
        else:
            middle = (checkers >> first) & _POINTS
            if middle & blots or _hits_with_steps(middle & ~made, second, 1, blots, made):
                return True
    return False


@njit(cache=True)
def _shots(target: npt.NDArray[np.int64], hitter: npt.NDArray[np.int64]) -> int:
    """How many of the 36 rolls let ``hitter`` hit a blot of ``target``.

    Without checkers on the bar, each pair of a blot and a checker behind it
    marks the rolls that cover their distance; otherwise every roll is tried
    (:func:`_hits`). Both give the same count.
    """
    has_blot = False
    for point in range(1, 25):
        if target[point] == 1:
            has_blot = True
    if not has_blot:
        return 0
    if hitter[25] == 0:
        return _shots_by_pairs(target, hitter)
    return _shots_by_rolls(target, hitter)


def _roll_bit(low: int, high: int) -> int:
    """The bit of roll ``low``-``high`` (low <= high) in a set of rolls."""
    return 1 << (6 * (low - 1) + high - 1)


_PAIRS = [(low, high) for low in range(1, 7) for high in range(low + 1, 7)]  # the rolls that are no double
_DIRECT = np.array(
    [
        sum(
            {
                _roll_bit(min(die, other), max(die, other))
                for die in range(1, 7)
                if dice >> (die - 1) & 1
                for other in range(1, 7)
            }
        )
        for dice in range(64)
    ],
    dtype=np.int64,
)
"""For each set of distances 1-6 (bit d - 1: a checker d pips away), the rolls with one of them on a die."""
_OPEN_PAIRS = np.array(
    [
        sum(_roll_bit(low, high) for low, high in _PAIRS if not (made >> (low - 1) & made >> (high - 1) & 1))
        for made in range(64)
    ],
    dtype=np.int64,
)
"""For each set of made points 1-6 pips away, the rolls (no double) whose two landing points are not both
made."""
_BY_SUM = np.array(
    [
        sum(_roll_bit(low, high) for low, high in _PAIRS if sums >> (low + high - 3) & 1)
        for sums in range(512)
    ],
    dtype=np.int64,
)
"""For each set of distances 3-11 (bit d - 3), the rolls (no double) whose two dice add up to one of them."""


@njit(cache=True)
def _shots_by_pairs(target: npt.NDArray[np.int64], hitter: npt.NDArray[np.int64]) -> int:
    """:func:`_shots` for a hitter with no checker on the bar: for each blot, the rolls that reach it.

    A roll hits a blot when a hitter's checker sits a die away, or the two
    dice away with a landing point open between, or (a double) up to four
    steps away with every landing point open. The hitter's checkers and the
    target's made points are bit sets of points, shifted to each blot, and
    the rolls are bit sets too: a die away and both dice away are looked
    up in tables, the doubles stepped through.
    """
    checkers, _, made = _point_sets(target, hitter)
    hit = np.int64(0)  # bit 6 * (low - 1) + (high - 1) set: the roll low-high hits
    for own in range(1, 25):
        if target[own] != 1:
            continue
        blot = 25 - own  # the blot's point in the hitter's numbering
        behind = checkers >> blot  # bit d: a hitter's checker d pips behind the blot (none past 24)
        blocked = made >> blot  # bit d: the landing point d pips behind the blot is made
        hit |= _DIRECT[behind >> 1 & 63] | (_BY_SUM[behind >> 3 & 511] & _OPEN_PAIRS[blocked >> 1 & 63])
        for die in range(1, 7):
            for step in range(die, 4 * die + 1, die):
                if behind >> step & 1:
                    hit |= np.int64(1) << (7 * (die - 1))  # the double die-die, every landing point open
                    break
                if blocked >> step & 1:
                    break
    total = 0
    for low in range(1, 7):
        for high in range(low, 7):
            if hit & (np.int64(1) << (6 * (low - 1) + high - 1)):
                total += 1 if low == high else 2
    return total


@njit(cache=True)
def _shots_by_rolls(target: npt.NDArray[np.int64], hitter: npt.NDArray[np.int64]) -> int:
    """:func:`_shots` roll by roll, following the bar's rules."""
    checkers, blots, made = _point_sets(target, hitter)
    total = 0
    for low in range(1, 7):
        for high in range(low, 7):
            if _hits(hitter[25], checkers, blots, made, low, high):
                total += 1 if low == high else 2
    return total


@njit(cache=True)
def _passes(blocker: npt.NDArray[np.int64], start: int, die: int, steps: int, goal: int) -> bool:
    """Whether a checker at ``start`` passes ``goal`` by ``steps`` moves of ``die``; made points stop it."""
    point = start
    for _ in range(steps):
        point -= die
        if point < goal:
            return True
        if _made(blocker, point):
            return False
    return False


@njit(cache=True)
def _escapes(runner: npt.NDArray[np.int64], blocker: npt.NDArray[np.int64]) -> int:
    """How many of the 36 rolls take ``runner``'s rearmost checker past ``blocker``'s points before it."""
    start = 0
    for point in range(25, 0, -1):
        if runner[point] > 0:
            start = point
            break
    if start == 0:
        return 36
    goal = 0  # the lowest point the blocker has made within reach
    for point in range(max(1, start - _REACH), start):
        if _made(blocker, point):
            goal = point
            break
    if goal == 0:
        return 36
    total = 0
    for low in range(1, 7):
        for high in range(low, 7):
            if low == high:
                escaped = _passes(blocker, start, low, 4, goal)
            else:
                escaped = False
                for first, second in ((low, high), (high, low)):
                    middle = start - first
                    passed = middle < goal
                    if passed or (not _made(blocker, middle) and _passes(blocker, middle, second, 1, goal)):
                        escaped = True
            if escaped:
                total += 1 if low == high else 2
    return total


@njit(cache=True)
def _escape_table() -> npt.NDArray[np.int8]:
    """:func:`_escapes` for every set of made points in front of the rearmost checker.

    Entry ``s`` holds the escapes when bit ``k - 1`` of ``s`` says whether the
    point ``k`` pips in front of the rearmost checker is made (k = 1-12): all
    that :func:`_escapes` looks at.
    """
    table = np.empty(1 << _REACH, dtype=np.int8)
    runner = np.zeros(26, dtype=np.int64)
    runner[_REACH + 1] = 1
    blocker = np.zeros(26, dtype=np.int64)
    for made in range(1 << _REACH):
        for distance in range(1, _REACH + 1):
            blocker[25 - (_REACH + 1 - distance)] = 2 if made >> (distance - 1) & 1 else 0
        table[made] = _escapes(runner, blocker)
    return table


_ESCAPES = _escape_table()


@njit(cache=True)
def _escapes_ahead(runner: npt.NDArray[np.int64], blocker: npt.NDArray[np.int64]) -> int:
    """:func:`_escapes`, looked up in a table of the made points in front of the rearmost checker."""
    start = 0
    for point in range(25, 0, -1):
        if runner[point] > 0:
            start = point
            break
    if start == 0:
        return 36
    made = 0
    for distance in range(1, min(_REACH, start - 1) + 1):
        made |= (1 if _made(blocker, start - distance) else 0) << (distance - 1)
    return int(_ESCAPES[made])


@njit(cache=True)
def _prime(side: npt.NDArray[np.int64]) -> int:
    """The longest run of consecutive points 1-24 holding two or more of ``side``'s checkers."""
    best = 0
    run = 0
    for point in range(1, 25):
        if side[point] >= 2:
            run += 1
            if run > best:
                best = run
        else:
            run = 0
    return best


@njit(cache=True)
def row_features(
    board: npt.NDArray[np.generic],
    mover: npt.NDArray[np.int64],
    opponent: npt.NDArray[np.int64],
    out: npt.NDArray[np.float32],
) -> None:
    """Write the six features of one board into ``out[:6]``; ``mover`` and ``opponent`` are scratch (26,).

    The one computation of the features: :func:`fill_features` and the
    encoder (:func:`tavola.bot.encode.sparse_inputs`) call it.
    """
    _sides(board, 0, mover)
    _sides(board, 1, opponent)
    out[2] = np.float32(_prime(mover)) / np.float32(6)
    out[5] = np.float32(_prime(opponent)) / np.float32(6)
    if not in_contact(board):
        # A race: nothing can be hit and nothing stands in front of anyone.
        out[0] = out[3] = np.float32(0)
        out[1] = out[4] = np.float32(1)
        return
    # Seen by the opponent, the mover's points are the target's points 25 - p: _made and _blot
    # take the hitter's (or blocker's) numbering, so each side is passed as seen by itself.
    out[0] = np.float32(_shots(mover, opponent)) / np.float32(36)
    out[1] = np.float32(_escapes_ahead(mover, opponent)) / np.float32(36)
    out[3] = np.float32(_shots(opponent, mover)) / np.float32(36)
    out[4] = np.float32(_escapes_ahead(opponent, mover)) / np.float32(36)


@njit(cache=True)
def fill_features(boards: npt.NDArray[np.generic], out: npt.NDArray[np.float32], column: int) -> None:
    """Write the six features of each board into ``out[:, column:column + 6]``."""
    mover = np.zeros(26, dtype=np.int64)
    opponent = np.zeros(26, dtype=np.int64)
    for row in range(boards.shape[0]):
        row_features(boards[row], mover, opponent, out[row, column : column + FEATURES])


@njit(cache=True)
def in_contact(board: npt.NDArray[np.generic]) -> bool:
    """Whether a checker of the player on roll must still pass one of the opponent's (bars count).

    The one test of contact: the evaluator routes by it, the features use it,
    and pubeval picks its weights by it.

    >>> from tavola.position import Position
    >>> in_contact(Position.start().to_array()), in_contact(Position([2] + [0] * 22 + [-2]).to_array())
    (True, False)
    """
    mine = 25 if board[MY_BAR] > 0 else 0  # the mover's rearmost checker
    if mine == 0:
        for point in range(24, 0, -1):
            if board[point] > 0:
                mine = point
                break
    theirs = 0 if board[THEIR_BAR] > 0 else 25  # the opponent's rearmost, in the mover's numbering
    if theirs == 25:
        for point in range(1, 25):
            if board[point] < 0:
                theirs = point
                break
    return mine > theirs


def features(boards: npt.ArrayLike) -> npt.NDArray[np.float32]:
    """The (N, 6) contact features of an (N, 30) batch of positions, each from its player on roll."""
    array = np.ascontiguousarray(np.asarray(boards))
    out = np.empty((len(array), FEATURES), dtype=np.float32)
    fill_features(array, out, 0)
    return out
