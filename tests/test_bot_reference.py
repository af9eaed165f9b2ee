"""The compiled encoder and the in-place forward pass give bit for bit what the first versions gave."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings

from strategies import positions
from tavola.bot.encode import INPUTS, INPUTS_PER_SIDE, POINT_CHECKERS, RAW_INPUTS, encode
from tavola.bot.network import Network, consistent
from tavola.position import MY_BAR, MY_OFF, THEIR_BAR, THEIR_OFF
from tavola.sampling import random_positions

_PIPS = np.arange(1, 25, dtype=np.float32)


def _reference_side(
    points: npt.NDArray[np.float32], bar: npt.NDArray[np.float32], off: npt.NDArray[np.float32]
) -> npt.NDArray[np.float32]:
    count = len(points)
    out = np.empty((count, INPUTS_PER_SIDE), dtype=np.float32)
    units = out[:, :96].reshape(count, 24, 4)
    units[:, :, 0] = points >= 1
    units[:, :, 1] = points >= 2
    units[:, :, 2] = points >= 3
    units[:, :, 3] = np.maximum(points - 3, 0) / 2
    out[:, 96] = bar / 2
    out[:, 97] = off / 15
    out[:, 98] = (points @ _PIPS + 25 * bar) / 150
    return out


def reference_encode(boards: npt.ArrayLike) -> npt.NDArray[np.float32]:
    """The encoder as first written, in NumPy alone (kept here as the reference)."""
    values = np.asarray(boards).astype(np.float32)
    mine = np.maximum(values[:, 1:25], 0)
    theirs = np.maximum(-values[:, 24:0:-1], 0)
    return np.concatenate(
        [
            _reference_side(mine, values[:, MY_BAR], values[:, MY_OFF]),
            _reference_side(theirs, values[:, THEIR_BAR], values[:, THEIR_OFF]),
        ],
        axis=1,
    )


def _same_bits(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def test_the_encoder_matches_the_reference_on_positions_from_random_games():
    boards = np.stack([p.to_array() for p in random_positions(5000, seed=11)])
    assert _same_bits(encode(boards, features=False), reference_encode(boards))


@settings(max_examples=200, deadline=None)
@given(positions())
def test_the_encoder_matches_the_reference_on_any_position(pos):
    board = pos.to_array()[None]
    assert _same_bits(encode(board, features=False), reference_encode(board))
    flipped = pos.flip().to_array()[None]
    assert _same_bits(encode(flipped, features=False), reference_encode(flipped))


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int64, np.float32, np.float64])
def test_any_numeric_dtype_encodes_the_same(dtype):
    boards = np.stack([p.to_array() for p in random_positions(200, seed=12)])
    assert _same_bits(encode(boards.astype(dtype), features=False), reference_encode(boards.astype(dtype)))
    assert _same_bits(encode(boards.tolist(), features=False), reference_encode(boards))


def test_an_empty_batch_and_bad_shapes():
    assert encode(np.zeros((0, 30), dtype=np.int8)).shape == (0, INPUTS)
    with pytest.raises(ValueError, match="batch"):
        encode(np.zeros(30, dtype=np.int8))
    with pytest.raises(ValueError, match="30"):
        encode(np.zeros((2, 29), dtype=np.int8))


def reference_probabilities(net: Network, inputs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The forward pass as first written: a new array for every step."""
    values = np.asarray(inputs, dtype=np.float32)
    for weights, bias in net.layers:
        values = (1.0 / (1.0 + np.exp(-np.clip(values @ weights + bias, -40.0, 40.0)))).astype(np.float32)
    return consistent(values)


@pytest.mark.parametrize("sizes", [[INPUTS, 128, 5], [INPUTS, 16, 8, 5]])
def test_the_forward_pass_matches_the_reference(sizes):
    """The first layer sums the non-zero inputs alone: the same numbers up to float32 rounding."""
    net = Network.random(sizes, seed=5)
    net.layers[-1] = (net.layers[-1][0] * 30, net.layers[-1][1])  # outputs out to the clipping at +-40
    inputs = encode(np.stack([p.to_array() for p in random_positions(3000, seed=13)]))
    for batch in (inputs, inputs[:1], inputs[:37]):
        kept = batch.copy()
        found = net.probabilities(batch)
        assert np.allclose(found, reference_probabilities(net, batch), rtol=1e-5, atol=1e-6)
        assert _same_bits(batch, kept)  # the inputs are left alone


@pytest.mark.parametrize("sizes", [[INPUTS, 128, 5], [INPUTS, 16, 8, 5], [RAW_INPUTS, 32, 5]])
def test_positions_give_the_same_bits_from_their_boards_as_from_their_inputs(sizes):
    net = Network.random(sizes, seed=6)
    boards = np.stack([p.to_array() for p in random_positions(500, seed=14)])
    assert _same_bits(net.of_boards(boards), net.probabilities(encode(boards, features=sizes[0] == INPUTS)))


def test_inputs_that_no_position_gives_are_summed_one_by_one():
    """Only a point's four inputs as the encoder gives them use its grouped row; any others count alone."""
    net = Network.random([INPUTS, 128, 5], seed=7)
    rng = np.random.default_rng(8)
    inputs = rng.random((50, INPUTS), dtype=np.float32)
    inputs[:, :4] = [1, 0, 1, 0]  # no number of checkers gives these
    inputs[:, 4:8] = [1, 1, 1, 0.25]
    assert np.allclose(net.probabilities(inputs), reference_probabilities(net, inputs), rtol=1e-5, atol=1e-6)


def test_a_point_beyond_the_grouped_rows_counts_its_inputs_one_by_one():
    net = Network.random([INPUTS, 128, 5], seed=9)
    board = np.zeros((1, 30), dtype=np.int8)
    board[0, 6] = POINT_CHECKERS + 1
    board[0, 19] = -3
    found = net.of_boards(board)
    assert _same_bits(found, net.probabilities(encode(board)))
    assert np.allclose(found, reference_probabilities(net, encode(board)), rtol=1e-5, atol=1e-6)
