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

from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from tavola.position import MY_BAR, THEIR_BAR

FEATURES_PER_SIDE = 3
FEATURES = 2 * FEATURES_PER_SIDE
_REACH = 12
"""How far in front of the rearmost checker the other side's points count as a blockade."""


@njit(cache=True)
def _made(target: npt.NDArray[np.int64], point: int) -> bool:
    """Whether the target has made the hitter's point ``point`` (two or more checkers)."""
    return bool(target[25 - point] >= 2)


Bits = int | np.int64
"""A bit set of points or of rolls."""
_POINTS = np.int64((1 << 25) - 2)
"""The bits of points 1-24 in a bit set of points."""


class BoardSets(NamedTuple):
    """A board as bit sets of points 1-24 (bit p: point p), each side's points in its own numbering or
    in the other side's (``across``): what the features look at."""

    my_checkers: Bits
    my_made: Bits
    my_blots_across: Bits
    my_made_across: Bits
    their_checkers: Bits
    their_made: Bits
    their_blots_across: Bits
    their_made_across: Bits


@njit(cache=True)
def board_sets(board: npt.NDArray[np.generic]) -> BoardSets:
    """The bit sets of one board (see :class:`BoardSets`; "my": the player on roll), in one pass.

    >>> from tavola.position import Position
    >>> sets = board_sets(Position.start().to_array())
    >>> [point for point in range(1, 25) if sets.my_made >> point & 1], sets.my_made == sets.their_made
    ([6, 8, 13, 24], True)
    """
    my_checkers = my_made = my_blots_across = my_made_across = np.int64(0)
    their_checkers = their_made = their_blots_across = their_made_across = np.int64(0)
    for point in range(1, 25):
        value = np.int64(board[point])
        own = np.int64(1) << point  # the mover's point, the opponent's 25 - point
        across = np.int64(1) << (25 - point)
        my_checkers |= own if value > 0 else 0
        my_made |= own if value >= 2 else 0
        my_blots_across |= across if value == 1 else 0
        my_made_across |= across if value >= 2 else 0
        their_checkers |= across if value < 0 else 0
        their_made |= across if value <= -2 else 0
        their_blots_across |= own if value == -1 else 0
        their_made_across |= own if value <= -2 else 0
    return BoardSets(
        my_checkers, my_made, my_blots_across, my_made_across,
        their_checkers, their_made, their_blots_across, their_made_across,
    )  # fmt: skip


@njit(cache=True, inline="always")
def _count_bits(bits: Bits) -> int:
    """How many bits of ``bits`` (>= 0) are set."""
    x = np.int64(bits)
    x = x - ((x >> 1) & np.int64(0x5555555555555555))
    x = (x & np.int64(0x3333333333333333)) + ((x >> 2) & np.int64(0x3333333333333333))
    x = (x + (x >> 4)) & np.int64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.int64(0x0101010101010101)) >> 56)


_DOUBLES = np.int64(sum(1 << (7 * (die - 1)) for die in range(1, 7)))
"""The doubles' bits in a set of rolls (bit 6 (low - 1) + high - 1: the roll low-high)."""


@njit(cache=True, inline="always")
def _rolls_counted(rolls: Bits) -> int:
    """How many of the 36 rolls a set of the 21 rolls stands for: a double once, any other roll twice."""
    return 2 * _count_bits(rolls & ~_DOUBLES) + _count_bits(rolls & _DOUBLES)


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
def _shots(bar: int, checkers: Bits, blots: Bits, made: Bits) -> int:
    """How many of the 36 rolls let a hitter hit a blot (the sets in the hitter's numbering).

    ``bar`` is the hitter's checkers on its bar, ``checkers`` its points,
    ``blots`` and ``made`` the target's. Without checkers on the bar, each
    pair of a blot and a checker behind it marks the rolls that cover their
    distance; otherwise every roll is tried (:func:`_hits`). Both give the
    same count.
    """
    if not blots:
        return 0
    if bar == 0:
        return _shots_by_pairs(checkers, blots, made)
    return _shots_by_rolls(bar, checkers, blots, made)


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
def _shots_by_pairs(checkers: Bits, blots: Bits, made: Bits) -> int:
    """:func:`_shots` for a hitter with no checker on the bar: for each blot, the rolls that reach it.

    A roll hits a blot when a hitter's checker sits a die away, or the two
    dice away with a landing point open between, or (a double) up to four
    steps away with every landing point open. The hitter's checkers and the
    target's made points are bit sets of points, shifted to each blot, and
    the rolls are bit sets too: a die away and both dice away are looked
    up in tables. A double is stepped through for all the checkers at once
    (:func:`_hits_with_steps`): a step that lands on any blot hits.
    """
    hit = np.int64(0)  # bit 6 * (low - 1) + (high - 1) set: the roll low-high hits
    left = np.int64(blots)
    while left:
        lowest = left & -left
        left ^= lowest
        blot = _count_bits(lowest - 1)  # the blot's point
        behind = checkers >> blot  # bit d: a hitter's checker d pips behind the blot (none past 24)
        blocked = made >> blot  # bit d: the landing point d pips behind the blot is made
        hit |= _DIRECT[behind >> 1 & 63] | (_BY_SUM[behind >> 3 & 511] & _OPEN_PAIRS[blocked >> 1 & 63])
    for die in range(1, 7):
        if _hits_with_steps(checkers, die, 4, blots, made):
            hit |= np.int64(1) << (7 * (die - 1))  # the double die-die
    return _rolls_counted(hit)


@njit(cache=True)
def _shots_by_rolls(bar: int, checkers: Bits, blots: Bits, made: Bits) -> int:
    """:func:`_shots` roll by roll, following the bar's rules."""
    total = 0
    for low in range(1, 7):
        for high in range(low, 7):
            if _hits(bar, checkers, blots, made, low, high):
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


_ESCAPES_BY_WINDOW = _ESCAPES[
    [
        sum(1 << (_REACH - 1 - bit) for bit in range(_REACH) if window >> bit & 1)
        for window in range(1 << _REACH)
    ]
]
""":data:`_ESCAPES` by the made points ``start - 12 .. start - 1`` (bit j: point ``start - 12 + j``)."""


@njit(cache=True)
def _escapes_ahead(start: int, made: Bits) -> int:
    """:func:`_escapes` of a rearmost checker on ``start`` (25: the bar; 0: none), looked up in a table
    of the blocker's ``made`` points in front of it (a bit set in the runner's numbering)."""
    if start == 0:
        return 36
    window = made >> (start - _REACH) if start >= _REACH else made << (_REACH - start)
    return int(_ESCAPES_BY_WINDOW[window & ((1 << _REACH) - 1)])


@njit(cache=True, inline="always")
def _rearmost(bar: int, checkers: Bits) -> int:
    """A side's rearmost point (25: the bar; 0: no checker left) from its bar and its points."""
    if bar > 0:
        return 25
    for point in range(24, 0, -1):
        if checkers >> point & 1:
            return point
    return 0


@njit(cache=True)
def _prime(made: Bits) -> int:
    """The longest run of consecutive points in a set of made points.

    >>> _prime(0b111011100), _prime(0)
    (3, 0)
    """
    longest = 0
    while made:
        made &= made >> 1
        longest += 1
    return longest


@njit(cache=True, inline="always")
def _meet(my_rearmost: int, their_rearmost: int) -> bool:
    """Whether the sides still meet, their rearmost checkers on these points (each in its own numbering,
    25 the bar, 0 none left): the rule of :func:`in_contact`, which :func:`row_features` also follows."""
    return my_rearmost + their_rearmost > 25


@njit(cache=True)
def row_features(board: npt.NDArray[np.generic], out: npt.NDArray[np.float32]) -> None:
    """Write the six features of one board into ``out[:6]``.

    The one computation of the features: :func:`fill_features` and the
    encoder (:func:`tavola.bot.encode.sparse_inputs`) call it. Everything is
    found from the board's bit sets (:func:`board_sets`), each side's
    points taken in the numbering of the side that hits or runs.
    """
    sets = board_sets(board)
    out[2] = np.float32(_prime(sets.my_made)) / np.float32(6)
    out[5] = np.float32(_prime(sets.their_made)) / np.float32(6)
    my_bar, their_bar = int(board[MY_BAR]), int(board[THEIR_BAR])
    my_rearmost, their_rearmost = (
        _rearmost(my_bar, sets.my_checkers),
        _rearmost(their_bar, sets.their_checkers),
    )
    if not _meet(my_rearmost, their_rearmost):  # no contact (in_contact)
        # A race: nothing can be hit and nothing stands in front of anyone.
        out[0] = out[3] = np.float32(0)
        out[1] = out[4] = np.float32(1)
        return
    hit_me = _shots(their_bar, sets.their_checkers, sets.my_blots_across, sets.my_made_across)
    i_escape = _escapes_ahead(my_rearmost, sets.their_made_across)
    hit_them = _shots(my_bar, sets.my_checkers, sets.their_blots_across, sets.their_made_across)
    they_escape = _escapes_ahead(their_rearmost, sets.my_made_across)
    out[0] = np.float32(hit_me) / np.float32(36)
    out[1] = np.float32(i_escape) / np.float32(36)
    out[3] = np.float32(hit_them) / np.float32(36)
    out[4] = np.float32(they_escape) / np.float32(36)


@njit(cache=True)
def fill_features(boards: npt.NDArray[np.generic], out: npt.NDArray[np.float32], column: int) -> None:
    """Write the six features of each board into ``out[:, column:column + 6]``."""
    for row in range(boards.shape[0]):
        row_features(boards[row], out[row, column : column + FEATURES])


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
    theirs = 25 if board[THEIR_BAR] > 0 else 0  # the opponent's rearmost, in its own numbering
    if theirs == 0:
        for point in range(1, 25):
            if board[point] < 0:
                theirs = 25 - point
                break
    return _meet(mine, theirs)


def features(boards: npt.ArrayLike) -> npt.NDArray[np.float32]:
    """The (N, 6) contact features of an (N, 30) batch of positions, each from its player on roll."""
    array = np.ascontiguousarray(np.asarray(boards))
    out = np.empty((len(array), FEATURES), dtype=np.float32)
    fill_features(array, out, 0)
    return out
