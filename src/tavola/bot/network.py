"""The bot's neural networks, run with NumPy and one compiled first layer.

A :class:`Network` is a multilayer perceptron: the 204 inputs of
:mod:`tavola.bot.encode` (or its 198 raw inputs), hidden layers of sigmoid units, and five sigmoid
outputs, the probabilities for the player on roll of winning, winning a
gammon, winning a backgammon, losing a gammon and losing a backgammon
(gammons include backgammons). Weights are saved as ``.npz`` files; training
(:mod:`tavola.train`) writes them, the bot only reads them.

Most inputs of a position are 0 (a point holds no checker, or fewer than
three), so the first layer, by far the largest, adds up the weights of the
non-zero inputs alone, row by row, in the order of the inputs (its sums do
not depend on the batch; the small layers after it are BLAS products). An
occupied point's inputs count once: one grouped row per side, point and
number of checkers holds their weighted sum (:func:`grouped_weights`, see
:mod:`tavola.bot.encode`). :meth:`Network.of_boards` goes from positions
to probabilities without writing the inputs out at all: the encoder lists
each position's non-zero inputs, grouped, as it goes; :meth:`Network.probabilities`
finds the same groups in its inputs, so both give the same bits.

>>> net = Network.random([204, 8, 5], seed=1)
>>> from tavola.position import Position
>>> from tavola.bot.encode import encode
>>> probabilities = net.probabilities(encode(Position.start().to_array()[None]))
>>> probabilities.shape
(1, 5)
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt
from numba import njit

from tavola.bot.encode import (
    EXTRA_ROWS,
    EXTRAS,
    INPUTS,
    INPUTS_PER_SIDE,
    POINT_CHECKERS,
    RAW_INPUTS,
    VARIANT_INPUTS,
    as_boards,
    grouped_checkers,
    grouped_column,
    point_inputs,
    sparse_inputs,
)
from tavola.bot.features import FEATURES
from tavola.errors import TavolaError
from tavola.files import write_atomically

FloatArray = npt.NDArray[np.float32]
OUTPUTS = 5
SLICE = 1024
"""Rows run through the network at a time: their first layer's sums (512 KB) stay in the cache."""
WIN, WIN_GAMMON, WIN_BACKGAMMON, LOSE_GAMMON, LOSE_BACKGAMMON = range(OUTPUTS)


class NetworkError(TavolaError):
    """A weights file that is missing, malformed or does not fit the network."""


def _sigmoid(values: FloatArray) -> FloatArray:
    """``1 / (1 + exp(-clip(values, -40, 40)))`` in float32, computed in place over ``values``."""
    np.clip(values, -40.0, 40.0, out=values)
    np.negative(values, out=values)
    np.exp(values, out=values)
    values += 1.0
    np.divide(1.0, values, out=values)
    return values


class Network:
    """Layers of weights ``(W, b)``: inputs @ W + b, then the sigmoid, layer after layer."""

    def __init__(self, layers: Sequence[tuple[FloatArray, FloatArray]]) -> None:
        if not layers:
            raise NetworkError("a network has at least one layer")
        for index, (weights, bias) in enumerate(layers):
            if weights.ndim != 2 or bias.shape != (weights.shape[1],):
                raise NetworkError(f"layer {index}: weights {weights.shape} and bias {bias.shape} do not fit")
            if index and weights.shape[0] != layers[index - 1][0].shape[1]:
                raise NetworkError(
                    f"layer {index} takes {weights.shape[0]} inputs, the one before gives more or fewer"
                )
        if layers[-1][0].shape[1] != OUTPUTS:
            raise NetworkError(f"the last layer gives {OUTPUTS} outputs, not {layers[-1][0].shape[1]}")
        self.layers = [(weights.astype(np.float32), bias.astype(np.float32)) for weights, bias in layers]
        self._grouped: tuple[FloatArray, FloatArray] | None = None  # the first layer's weights, and grouped

    @property
    def sizes(self) -> list[int]:
        """Units per layer, inputs first."""
        return [self.layers[0][0].shape[0]] + [weights.shape[1] for weights, _ in self.layers]

    @classmethod
    def random(cls, sizes: Sequence[int], seed: int | None = None) -> Network:
        """Small random weights, for tests and the start of training."""
        rng = np.random.default_rng(seed)
        layers = []
        for fan_in, fan_out in itertools.pairwise(sizes):
            scale = 1.0 / np.sqrt(fan_in)
            layers.append(
                (rng.normal(0, scale, (fan_in, fan_out)).astype(np.float32), np.zeros(fan_out, np.float32))
            )
        return cls(layers)

    def probabilities(self, inputs: FloatArray) -> FloatArray:
        """(N, 5) probabilities for the player on roll, made consistent (a gammon is a win, and so on)."""
        values = np.ascontiguousarray(inputs, dtype=np.float32)
        if values.ndim != 2 or values.shape[1] != self.sizes[0]:
            raise ValueError(f"the network takes (N, {self.sizes[0]}) inputs, not {values.shape}")
        grouped = self.sizes[0] in (RAW_INPUTS, INPUTS, VARIANT_INPUTS)
        weights, bias = self._first_layer() if grouped else self._layer(0)
        return self._by_slices(
            len(values), lambda rows, hidden: _layer_of_inputs(values[rows], grouped, weights, bias, hidden)
        )

    def of_boards(self, boards: npt.ArrayLike) -> FloatArray:
        """:meth:`probabilities` of the inputs of an (N, 30) batch of positions, encoded on the way.

        The same bits as ``probabilities(encode(boards, features=..., extras=...))``,
        the features and a variant network's extra inputs included when the network takes them.
        """
        array = as_boards(boards)
        weights, bias = self._first_layer()
        features, extras = self.sizes[0] >= INPUTS, self.sizes[0] == VARIANT_INPUTS
        return self._by_slices(
            len(array),
            lambda rows, hidden: _first_layer_of_boards(array[rows], features, extras, weights, bias, hidden),
        )

    def _by_slices(self, count: int, first_layer: Callable[[slice, FloatArray], None]) -> FloatArray:
        """The probabilities of ``count`` rows, :data:`SLICE` rows at a time: ``first_layer`` fills the
        first layer's sums of a slice of rows, the rest of the network follows while they are in the cache."""
        out = np.empty((count, OUTPUTS), dtype=np.float32)
        for start in range(0, count, SLICE):
            rows = slice(start, min(start + SLICE, count))
            hidden = _hidden_buffer(rows.stop - start, self.sizes[1])
            first_layer(rows, hidden)
            out[rows] = self._rest(hidden)
        return out

    def _layer(self, number: int) -> tuple[FloatArray, FloatArray]:
        weights, bias = self.layers[number]
        return np.ascontiguousarray(weights, dtype=np.float32), np.ascontiguousarray(bias, dtype=np.float32)

    def _first_layer(self) -> tuple[FloatArray, FloatArray]:
        """The first layer with its grouped rows (:func:`grouped_weights`), made once for its weights."""
        weights, bias = self._layer(0)
        made = self._grouped
        if made is None or made[0] is not self.layers[0][0]:
            made = self._grouped = (self.layers[0][0], grouped_weights(weights))
        return made[1], bias

    def _rest(self, hidden: FloatArray) -> FloatArray:
        """The first layer's sigmoid, the (small) layers after it as BLAS products, :func:`consistent`."""
        values = _sigmoid(hidden)
        for weights, bias in self.layers[1:]:
            values = values @ weights
            values += bias
            values = _sigmoid(values)
        return consistent(values)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the weights as an ``.npz`` file (atomically: a temporary file, then a rename)."""
        arrays = {f"w{index}": weights for index, (weights, _) in enumerate(self.layers)}
        arrays |= {f"b{index}": bias for index, (_, bias) in enumerate(self.layers)}
        write_atomically(path, lambda file: np.savez_compressed(file, allow_pickle=False, **arrays))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Network:
        """Read weights written by :meth:`save`."""
        try:
            with np.load(path) as data:
                count = len([name for name in data.files if name.startswith("w")])
                return cls([(data[f"w{index}"], data[f"b{index}"]) for index in range(count)])
        except (OSError, KeyError, ValueError) as error:
            raise NetworkError(f"cannot read network weights from {path}: {error}") from error


UNROLLED = 128
"""The first layer's width whose sums are compiled with a loop of fixed length (see :func:`_weighted_sum`)."""


@njit(cache=True, inline="always")
def _weighted_sum(
    index: npt.NDArray[np.int64],
    value: FloatArray,
    count: int,
    weights: FloatArray,
    bias: FloatArray,
    sums: FloatArray,
    out: FloatArray,
) -> None:
    """``out = bias + value[0] * weights[index[0]] + ...`` over the ``count`` inputs listed, in that order.

    The sums are made in ``sums``, a work array of their own, then copied
    to ``out``; four inputs are added in each pass over the units, one
    after the other, so that each unit's sum is read and written once for
    four rows of weights (the same additions in the same order as one
    input a pass). With :data:`UNROLLED` hidden units (the shipped
    networks') the loop over them has a fixed length, which the compiler
    turns into a few vector instructions (:func:`_unrolled_sum`); each
    unit's sum is the same either way.
    """
    units = sums.shape[0]
    for unit in range(units):
        sums[unit] = bias[unit]
    entry = 0
    while entry + 4 <= count:
        row0, row1, row2, row3 = index[entry], index[entry + 1], index[entry + 2], index[entry + 3]
        factor0, factor1, factor2, factor3 = (
            value[entry],
            value[entry + 1],
            value[entry + 2],
            value[entry + 3],
        )
        for unit in range(units):
            total = sums[unit] + factor0 * weights[row0, unit]
            total = total + factor1 * weights[row1, unit]
            total = total + factor2 * weights[row2, unit]
            sums[unit] = total + factor3 * weights[row3, unit]
        entry += 4
    for rest in range(entry, count):
        row, factor = index[rest], value[rest]
        for unit in range(units):
            sums[unit] += factor * weights[row, unit]
    for unit in range(units):
        out[unit] = sums[unit]


@njit(cache=True, inline="always")
def _unrolled_sum(
    index: npt.NDArray[np.int64],
    value: FloatArray,
    count: int,
    weights: FloatArray,
    bias: FloatArray,
    sums: FloatArray,
    out: FloatArray,
) -> None:
    """:func:`_weighted_sum` for :data:`UNROLLED` units, every loop over them of that fixed length."""
    for unit in range(UNROLLED):
        sums[unit] = bias[unit]
    entry = 0
    while entry + 4 <= count:
        row0, row1, row2, row3 = index[entry], index[entry + 1], index[entry + 2], index[entry + 3]
        factor0, factor1, factor2, factor3 = (
            value[entry],
            value[entry + 1],
            value[entry + 2],
            value[entry + 3],
        )
        for unit in range(UNROLLED):
            total = sums[unit] + factor0 * weights[row0, unit]
            total = total + factor1 * weights[row1, unit]
            total = total + factor2 * weights[row2, unit]
            sums[unit] = total + factor3 * weights[row3, unit]
        entry += 4
    for rest in range(entry, count):
        row, factor = index[rest], value[rest]
        for unit in range(UNROLLED):
            sums[unit] += factor * weights[row, unit]
    for unit in range(UNROLLED):
        out[unit] = sums[unit]


@njit(cache=True)
def _layer_of_inputs(
    inputs: FloatArray, grouped: bool, weights: FloatArray, bias: FloatArray, out: FloatArray
) -> None:
    """A layer's sums for rows of inputs: each row's non-zero inputs listed, then summed, row by row.

    With ``grouped`` (a first layer of the encoder's inputs, ``weights``
    holding its grouped rows, see :func:`grouped_weights`) a point's four
    inputs that the encoder gives for 1 to :data:`~tavola.bot.encode.POINT_CHECKERS`
    checkers are listed as their grouped row, as the encoder lists them
    itself: the same sums as :func:`_first_layer_of_boards`, bit for bit.
    """
    index = np.empty(inputs.shape[1], dtype=np.int64)
    value = np.empty(inputs.shape[1], dtype=np.float32)
    sums = np.empty(weights.shape[1], dtype=np.float32)
    for row in range(inputs.shape[0]):
        count = 0
        column = 0
        while column < inputs.shape[1]:
            within = column % INPUTS_PER_SIDE
            if grouped and column < RAW_INPUTS and within < 96 and within % 4 == 0:
                one, two, three = inputs[row, column], inputs[row, column + 1], inputs[row, column + 2]
                beyond = inputs[row, column + 3]
                if one == 0 and two == 0 and three == 0 and beyond == 0:
                    column += 4
                    continue
                checkers = grouped_checkers(one, two, three, beyond)
                if checkers > 0:
                    index[count] = grouped_column(column // INPUTS_PER_SIDE, within // 4 + 1, checkers)
                    value[count] = 1.0
                    count += 1
                    column += 4
                    continue
            index[count] = EXTRA_ROWS + column - INPUTS if grouped and column >= INPUTS else column
            value[count] = inputs[row, column]
            count += 1 if inputs[row, column] != 0 else 0
            column += 1
        if len(sums) == UNROLLED:
            _unrolled_sum(index, value, count, weights, bias, sums, out[row])
        else:
            _weighted_sum(index, value, count, weights, bias, sums, out[row])


@njit(cache=True)
def _first_layer_of_boards(
    boards: npt.NDArray[np.generic],
    features: bool,
    extras: bool,
    weights: FloatArray,
    bias: FloatArray,
    out: FloatArray,
) -> None:
    """The first layer's sums for positions: each one's inputs from the encoder, grouped, then summed.

    ``weights`` hold the grouped rows (:func:`grouped_weights`).
    """
    index = np.empty(VARIANT_INPUTS, dtype=np.int64)
    value = np.empty(VARIANT_INPUTS, dtype=np.float32)
    scratch = np.empty(FEATURES, dtype=np.float32)
    seen = np.empty(boards.shape[1], dtype=np.int8)
    sums = np.empty(weights.shape[1], dtype=np.float32)
    for row in range(boards.shape[0]):
        count = sparse_inputs(boards[row], features, index, value, scratch, True, extras, seen)
        if len(sums) == UNROLLED:
            _unrolled_sum(index, value, count, weights, bias, sums, out[row])
        else:
            _weighted_sum(index, value, count, weights, bias, sums, out[row])


def grouped_weights(weights: FloatArray) -> FloatArray:
    """A first layer's weights (198, 204 or 208 rows) with its grouped rows after row 204, then the rows
    of a variant network's extra inputs (from :data:`~tavola.bot.encode.EXTRA_ROWS`).

    Grouped row ``grouped_column(side, point, n)`` is the weighted sum of
    the four inputs of ``n`` checkers on that point (:func:`point_inputs`),
    added in the order of the inputs as the first layer adds them.

    >>> layer = Network.random([INPUTS, 4, 5], seed=1).layers[0][0]
    >>> table = grouped_weights(layer)
    >>> table.shape == (EXTRA_ROWS + EXTRAS, 4)
    True
    >>> bool((table[grouped_column(0, 6, 2)] == layer[20] + layer[21]).all())  # 2 on the 6-point
    True
    """
    table = np.zeros((EXTRA_ROWS + EXTRAS, weights.shape[1]), dtype=np.float32)
    table[: min(len(weights), INPUTS)] = weights[:INPUTS]
    table[EXTRA_ROWS : EXTRA_ROWS + len(weights) - INPUTS] = weights[INPUTS:]
    for checkers in range(1, POINT_CHECKERS + 1):
        rows = np.zeros((2, 24, weights.shape[1]), dtype=np.float32)
        for offset, input_value in enumerate(point_inputs(np.float32(checkers))):
            if input_value != 0:
                units = weights[
                    [side * INPUTS_PER_SIDE + 4 * point + offset for side in range(2) for point in range(24)]
                ]
                rows += np.float32(input_value) * units.reshape(2, 24, -1)
        for side in range(2):
            for point in range(1, 25):
                table[grouped_column(side, point, checkers)] = rows[side, point - 1]
    return table


_THREAD = threading.local()


def _hidden_buffer(rows: int, units: int) -> FloatArray:
    """A (rows, units) float32 work array, this thread's, reused from call to call (grown as needed)."""
    buffer: FloatArray | None = getattr(_THREAD, "hidden", None)
    if buffer is None or buffer.shape[0] < rows or buffer.shape[1] != units:
        buffer = _THREAD.hidden = np.empty((max(rows, 1024), units), dtype=np.float32)
    return buffer[:rows]


def consistent(probabilities: FloatArray) -> FloatArray:
    """Clip raw outputs so that backgammons <= gammons <= wins (and the same for losses)."""
    out = probabilities.copy()
    win = out[:, WIN]
    out[:, WIN_GAMMON] = np.minimum(out[:, WIN_GAMMON], win)
    out[:, WIN_BACKGAMMON] = np.minimum(out[:, WIN_BACKGAMMON], out[:, WIN_GAMMON])
    out[:, LOSE_GAMMON] = np.minimum(out[:, LOSE_GAMMON], 1 - win)
    out[:, LOSE_BACKGAMMON] = np.minimum(out[:, LOSE_BACKGAMMON], out[:, LOSE_GAMMON])
    return out


def equity(probabilities: FloatArray) -> npt.NDArray[np.float32]:
    """Cubeless money equity for the player on roll: points won per game at a stake of 1.

    >>> float(equity(np.array([[0.5, 0.1, 0.0, 0.1, 0.0]], np.float32))[0])
    0.0
    """
    p = probabilities
    return (
        2 * p[:, WIN]
        - 1
        + p[:, WIN_GAMMON]
        - p[:, LOSE_GAMMON]
        + p[:, WIN_BACKGAMMON]
        - p[:, LOSE_BACKGAMMON]
    ).astype(np.float32)


def flip_probabilities(probabilities: FloatArray) -> FloatArray:
    """The same probabilities seen by the other player."""
    p = probabilities
    return np.stack(
        [1 - p[:, WIN], p[:, LOSE_GAMMON], p[:, LOSE_BACKGAMMON], p[:, WIN_GAMMON], p[:, WIN_BACKGAMMON]],
        axis=1,
    ).astype(np.float32)
