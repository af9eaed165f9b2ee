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
from tavola.position import ARRAY_SIZE, MY_BAR, MY_OFF, THEIR_BAR, THEIR_OFF

INPUTS_PER_SIDE = 24 * 4 + 3
RAW_INPUTS = 2 * INPUTS_PER_SIDE
INPUTS = RAW_INPUTS + FEATURES

_ONE, _TWO, _THREE = np.float32(1), np.float32(2), np.float32(3)
_ZERO, _FIFTEEN, _TWENTY_FIVE, _PIP_SCALE = np.float32(0), np.float32(15), np.float32(25), np.float32(150)


@njit(cache=True, inline="always")
def _put(
    index: npt.NDArray[np.int64], value: npt.NDArray[np.float32], count: int, at: int, x: np.float32
) -> int:
    """Append input ``at`` with value ``x`` to the list when ``x`` is not 0; the new length (no branch)."""
    index[count] = at
    value[count] = x
    return count + (1 if x != _ZERO else 0)


@njit(cache=True)
def sparse_inputs(
    board: npt.NDArray[np.generic],
    features: bool,
    index: npt.NDArray[np.int64],
    value: npt.NDArray[np.float32],
    scratch: npt.NDArray[np.float32],
    sides: npt.NDArray[np.int64],
) -> int:
    """The non-zero inputs of one position: their columns in ``index``, values in ``value``; how many.

    The one encoder: :func:`encode` spreads its list into rows and the
    networks' first layer (:mod:`tavola.bot.network`) sums the weights of
    the listed inputs alone. Columns come in increasing order. ``index``
    and ``value`` hold :data:`INPUTS` entries; ``scratch`` (6 values) and
    ``sides`` (2, 26) are work arrays.

    Everything is computed as the first, NumPy-only version computed it
    (tests/test_bot_reference.py keeps that version and checks every bit):
    the values as float32, ``max(n - 3, 0) / 2``, and the pip count, a sum
    of small integers and so exact in any order, divided by 150.
    """
    count = 0
    for side in range(2):
        base = side * INPUTS_PER_SIDE
        pips = _ZERO
        for point in range(1, 25):
            # The mover's point p is point p; the opponent's own point p is the mover's 25 - p.
            on_point = np.float32(board[point]) if side == 0 else -np.float32(board[25 - point])
            checkers = max(on_point, _ZERO)
            if checkers > _ZERO:
                unit = base + 4 * (point - 1)
                count = _put(index, value, count, unit, _ONE if checkers >= _ONE else _ZERO)
                count = _put(index, value, count, unit + 1, _ONE if checkers >= _TWO else _ZERO)
                count = _put(index, value, count, unit + 2, _ONE if checkers >= _THREE else _ZERO)
                count = _put(index, value, count, unit + 3, max(checkers - _THREE, _ZERO) / _TWO)
                pips += checkers * np.float32(point)
        bar = np.float32(board[MY_BAR if side == 0 else THEIR_BAR])
        off = np.float32(board[MY_OFF if side == 0 else THEIR_OFF])
        count = _put(index, value, count, base + 96, bar / _TWO)
        count = _put(index, value, count, base + 97, off / _FIFTEEN)
        count = _put(index, value, count, base + 98, (pips + _TWENTY_FIVE * bar) / _PIP_SCALE)
    if features:
        row_features(board, sides[0], sides[1], scratch)
        for feature in range(FEATURES):
            count = _put(index, value, count, RAW_INPUTS + feature, scratch[feature])
    return count


@njit(cache=True)
def _encode_rows(boards: npt.NDArray[np.generic], features: bool, out: npt.NDArray[np.float32]) -> None:
    """Fill ``out`` (zeros) with the inputs of each board, from :func:`sparse_inputs`."""
    index = np.empty(INPUTS, dtype=np.int64)
    value = np.empty(INPUTS, dtype=np.float32)
    scratch = np.empty(FEATURES, dtype=np.float32)
    sides = np.empty((2, 26), dtype=np.int64)
    for row in range(boards.shape[0]):
        for entry in range(sparse_inputs(boards[row], features, index, value, scratch, sides)):
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


def encode(boards: npt.ArrayLike, *, features: bool = True) -> npt.NDArray[np.float32]:
    """The inputs of an (N, 30) batch of positions, each from its player on roll: (N, 204) float32.

    ``features=False`` gives the 198 raw inputs alone.
    """
    array = as_boards(boards)
    out = np.zeros((len(array), INPUTS if features else RAW_INPUTS), dtype=np.float32)
    _encode_rows(array, features, out)
    return out
