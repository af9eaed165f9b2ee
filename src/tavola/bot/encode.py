"""Network inputs: a whole batch of positions encoded in one compiled call.

Positions are arrays in :meth:`Position.to_array`'s layout, each seen from the
player on roll. For each side, from that side's own point of view:

* each of its points 1-24 gives four inputs: at least 1 checker, at least 2,
  at least 3, and (checkers - 3) / 2 beyond three;
* its bar gives checkers / 2 and its borne-off checkers checkers / 15;
* its pip count / 150.

That is 99 inputs a side, the player on roll's first: :data:`RAW_INPUTS` =
198. The six contact features of :mod:`tavola.bot.features` (shots, escapes
and primes of each side) follow them: :data:`INPUTS` = 204. Networks trained
before the features existed take the first 198 only (``features=False``).

Checkers not yet entered (Acey-Deucey) count as checkers on the bar in all
of these, the nearest thing a standard position has: they start from where
a bar checker does. The networks trained on a variant (:data:`VARIANT_INPUTS`
= 208, ``extras=True``) take :data:`EXTRAS` more inputs that tell the two
apart and carry the variants' own rules: each side's checkers waiting to
enter / 15, then for each side 1 while it has no checker in its home board
nor borne off (in Dutch backgammon it may not hit yet, V1), else 0.

A point's four inputs depend on its checkers alone, so the networks' first
layer keeps, beside the weights of the inputs, one row per side, point and
number of checkers (1 to :data:`POINT_CHECKERS`): the four inputs' weighted
sum made once (:data:`GROUPED` rows after the :data:`INPUTS` columns,
numbered by :func:`grouped_column`). Listed ``grouped``, an occupied point
is one entry of that row with the value 1 instead of up to four.

>>> from tavola.position import Position
>>> inputs = encode(Position.start().to_array()[None])
>>> inputs.shape, inputs.dtype
((1, 204), dtype('float32'))
>>> [float(value) for value in inputs[0, 20:24]]  # the mover's 6-point: 5 checkers
[1.0, 1.0, 1.0, 1.0]
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from tavola.bot.features import FEATURES, row_features
from tavola.position import ARRAY_SIZE, MY_BAR, MY_OFF, MY_WAITING, THEIR_BAR, THEIR_OFF, THEIR_WAITING

INPUTS_PER_SIDE = 24 * 4 + 3
RAW_INPUTS = 2 * INPUTS_PER_SIDE
INPUTS = RAW_INPUTS + FEATURES
EXTRAS = 4
"""The variant networks' inputs after :data:`INPUTS`: waiting checkers and "none home yet", of each side."""
VARIANT_INPUTS = INPUTS + EXTRAS
POINT_CHECKERS = 15
"""The most checkers on a point that a grouped row stands for (more: the point's inputs one by one)."""
GROUPED = 2 * 24 * POINT_CHECKERS
"""Grouped rows of the first layer: one per side, point 1-24 and number of checkers on it."""
EXTRA_ROWS = INPUTS + GROUPED
"""The first layer's row of the first of the :data:`EXTRAS` inputs, where its rows are grouped."""

_ONE, _TWO, _THREE = np.float32(1), np.float32(2), np.float32(3)
_ZERO, _FIFTEEN, _TWENTY_FIVE, _PIP_SCALE = np.float32(0), np.float32(15), np.float32(25), np.float32(150)
_MOST = np.float32(POINT_CHECKERS)


@njit(cache=True, inline="always")
def _put(
    index: npt.NDArray[np.int64], value: npt.NDArray[np.float32], count: int, at: int, x: np.float32
) -> int:
    """Append input ``at`` with value ``x`` to the list when ``x`` is not 0; the new length (no branch)."""
    index[count] = at
    value[count] = x
    return count + (1 if x != _ZERO else 0)


@njit(cache=True, inline="always")
def point_inputs(checkers: np.float32) -> tuple[np.float32, np.float32, np.float32, np.float32]:
    """The four inputs of a point holding ``checkers`` (>= 0) of one side: >= 1, >= 2, >= 3, beyond 3 / 2.

    >>> [float(value) for value in point_inputs(np.float32(6))]
    [1.0, 1.0, 1.0, 1.5]
    """
    return (
        _ONE if checkers >= _ONE else _ZERO,
        _ONE if checkers >= _TWO else _ZERO,
        _ONE if checkers >= _THREE else _ZERO,
        max(checkers - _THREE, _ZERO) / _TWO,
    )


@njit(cache=True, inline="always")
def grouped_column(side: int, point: int, checkers: int) -> int:
    """The first layer's row for ``checkers`` (1 to :data:`POINT_CHECKERS`) on ``side``'s own ``point``.

    >>> grouped_column(0, 1, 1) == INPUTS, grouped_column(1, 24, POINT_CHECKERS) == INPUTS + GROUPED - 1
    (True, True)
    """
    return INPUTS + ((side * 24 + point - 1) * POINT_CHECKERS + checkers - 1)


@njit(cache=True, inline="always")
def grouped_checkers(one: np.float32, two: np.float32, three: np.float32, beyond: np.float32) -> int:
    """The checkers (1 to :data:`POINT_CHECKERS`) whose :func:`point_inputs` these four are; else 0.

    >>> grouped_checkers(*point_inputs(np.float32(7))), grouped_checkers(np.float32(1), _ZERO, _ONE, _ZERO)
    (7, 0)
    """
    total = one + two + three + _TWO * beyond  # the checkers, where these are a point's inputs
    if not (total >= _ONE and total <= _MOST):
        return 0
    checkers = int(total)
    if point_inputs(np.float32(checkers)) != (one, two, three, beyond):
        return 0
    return checkers


@njit(cache=True)
def sparse_inputs(
    board: npt.NDArray[np.generic],
    features: bool,
    index: npt.NDArray[np.int64],
    value: npt.NDArray[np.float32],
    scratch: npt.NDArray[np.float32],
    grouped: bool = False,
    extras: bool = False,
    seen: npt.NDArray[np.int8] | None = None,
) -> int:
    """The non-zero inputs of one position: their columns in ``index``, values in ``value``; how many.

    The one encoder: :func:`encode` spreads its list into rows and the
    networks' first layer (:mod:`tavola.bot.network`) sums the weights of
    the listed inputs alone. Columns come in increasing order, but with
    ``grouped`` a point's inputs are one entry of its grouped row
    (:func:`grouped_column`, value 1) where it holds up to
    :data:`POINT_CHECKERS` checkers. With ``extras`` the :data:`EXTRAS`
    inputs follow, in columns from :data:`INPUTS` (from :data:`EXTRA_ROWS`
    when ``grouped``). ``index`` and ``value`` hold :data:`VARIANT_INPUTS`
    entries; ``scratch`` (6 values) and ``seen`` (a board, needed where
    checkers wait to enter) are work arrays.

    Everything is computed as the first, NumPy-only version computed it
    (tests/test_bot_reference.py keeps that version and checks every bit):
    the values as float32, ``max(n - 3, 0) / 2``, and the pip count, a sum
    of small integers and so exact in any order, divided by 150.
    """
    count = 0
    waiting = board[MY_WAITING] != 0 or board[THEIR_WAITING] != 0
    none_home_mine = none_home_theirs = _ONE
    for side in range(2):
        base = side * INPUTS_PER_SIDE
        pips = _ZERO
        home = False
        for point in range(1, 25):
            # The mover's point p is point p; the opponent's own point p is the mover's 25 - p.
            on_point = np.float32(board[point]) if side == 0 else -np.float32(board[25 - point])
            checkers = max(on_point, _ZERO)
            if checkers > _ZERO:
                home = home or point <= 6
                pips += checkers * np.float32(point)
                if grouped and checkers <= _MOST:
                    index[count] = grouped_column(side, point, int(checkers))
                    value[count] = _ONE
                    count += 1
                    continue
                unit = base + 4 * (point - 1)
                one, two, three, beyond = point_inputs(checkers)
                count = _put(index, value, count, unit, one)
                count = _put(index, value, count, unit + 1, two)
                count = _put(index, value, count, unit + 2, three)
                count = _put(index, value, count, unit + 3, beyond)
        bar = np.float32(board[MY_BAR if side == 0 else THEIR_BAR])
        waits = np.float32(board[MY_WAITING if side == 0 else THEIR_WAITING])
        off = np.float32(board[MY_OFF if side == 0 else THEIR_OFF])
        count = _put(index, value, count, base + 96, (bar + waits) / _TWO)
        count = _put(index, value, count, base + 97, off / _FIFTEEN)
        count = _put(index, value, count, base + 98, (pips + _TWENTY_FIVE * (bar + waits)) / _PIP_SCALE)
        if home or off > _ZERO:
            if side == 0:
                none_home_mine = _ZERO
            else:
                none_home_theirs = _ZERO
    if features:
        if waiting:
            assert seen is not None
            row_features(entered(board, seen), scratch)
        else:
            row_features(board, scratch)
        for feature in range(FEATURES):
            count = _put(index, value, count, RAW_INPUTS + feature, scratch[feature])
    if extras:
        first = EXTRA_ROWS if grouped else INPUTS
        count = _put(index, value, count, first, np.float32(board[MY_WAITING]) / _FIFTEEN)
        count = _put(index, value, count, first + 1, np.float32(board[THEIR_WAITING]) / _FIFTEEN)
        count = _put(index, value, count, first + 2, none_home_mine)
        count = _put(index, value, count, first + 3, none_home_theirs)
    return count


@njit(cache=True)
def entered(board: npt.NDArray[np.generic], seen: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    """``board`` copied into ``seen`` with the checkers waiting to enter put on the bar; ``seen``."""
    for column in range(ARRAY_SIZE):
        seen[column] = board[column]
    seen[MY_BAR] += seen[MY_WAITING]
    seen[THEIR_BAR] += seen[THEIR_WAITING]
    seen[MY_WAITING] = 0
    seen[THEIR_WAITING] = 0
    return seen


@njit(cache=True)
def _encode_rows(
    boards: npt.NDArray[np.generic], features: bool, extras: bool, out: npt.NDArray[np.float32]
) -> None:
    """Fill ``out`` (zeros) with the inputs of each board, from :func:`sparse_inputs`."""
    index = np.empty(VARIANT_INPUTS, dtype=np.int64)
    value = np.empty(VARIANT_INPUTS, dtype=np.float32)
    scratch = np.empty(FEATURES, dtype=np.float32)
    seen = np.empty(ARRAY_SIZE, dtype=np.int8)
    for row in range(boards.shape[0]):
        for entry in range(sparse_inputs(boards[row], features, index, value, scratch, False, extras, seen)):
            out[row, index[entry]] = value[entry]


def as_boards(boards: npt.ArrayLike) -> npt.NDArray[np.generic]:
    """``boards`` as a contiguous (N, 30) numeric array for the compiled encoder, or a ValueError."""
    array = np.asarray(boards)
    if array.ndim != 2:
        raise ValueError(f"encode takes a batch of positions, shape (N, 30), not {array.shape}")
    if array.shape[1] != ARRAY_SIZE:
        raise ValueError(f"positions have {ARRAY_SIZE} values each, not {array.shape[1]}")
    if array.dtype.kind not in "iuf":
        array = array.astype(np.float32)
    return np.ascontiguousarray(array)


def encode(boards: npt.ArrayLike, *, features: bool = True, extras: bool = False) -> npt.NDArray[np.float32]:
    """The inputs of an (N, 30) batch of positions, each from its player on roll: (N, 204) float32.

    ``features=False`` gives the 198 raw inputs alone, ``extras=True`` the
    208 of a variant network (:data:`VARIANT_INPUTS`).

    >>> from tavola.variants import ACEY_DEUCEY
    >>> [float(value) for value in encode(ACEY_DEUCEY.start.to_array()[None], extras=True)[0, INPUTS:]]
    [1.0, 1.0, 1.0, 1.0]
    """
    if extras and not features:
        raise ValueError("the variant networks' inputs include the contact features")
    array = as_boards(boards)
    width = VARIANT_INPUTS if extras else INPUTS if features else RAW_INPUTS
    out = np.zeros((len(array), width), dtype=np.float32)
    _encode_rows(array, features, extras, out)
    return out
