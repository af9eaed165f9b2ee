"""Network inputs: a whole batch of positions encoded in one NumPy call.

Positions are arrays in :meth:`Position.to_array`'s layout, each seen from the
player on roll. For each side, from that side's own point of view:

* each of its points 1-24 gives four inputs: at least 1 checker, at least 2,
  at least 3, and (checkers - 3) / 2 beyond three;
* its bar gives checkers / 2 and its borne-off checkers checkers / 15;
* its pip count / 150.

That is 99 inputs a side, the player on roll's first: :data:`INPUTS` = 198.

>>> from tavola.position import Position
>>> inputs = encode(Position.start().to_array()[None])
>>> inputs.shape, inputs.dtype
((1, 198), dtype('float32'))
>>> [float(value) for value in inputs[0, 20:24]]  # the mover's 6-point: 5 checkers
[1.0, 1.0, 1.0, 1.0]
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tavola.position import MY_BAR, MY_OFF, THEIR_BAR, THEIR_OFF

INPUTS_PER_SIDE = 24 * 4 + 3
INPUTS = 2 * INPUTS_PER_SIDE
_PIPS = np.arange(1, 25, dtype=np.float32)


def _side(
    points: npt.NDArray[np.float32], bar: npt.NDArray[np.float32], off: npt.NDArray[np.float32]
) -> npt.NDArray[np.float32]:
    """One side's inputs from its checkers on its own points 1-24 (one row per position)."""
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


def encode(boards: npt.ArrayLike) -> npt.NDArray[np.float32]:
    """The inputs of an (N, 30) batch of positions, each from its player on roll: (N, 198) float32."""
    array = np.asarray(boards)
    if array.ndim != 2:
        raise ValueError(f"encode takes a batch of positions, shape (N, 30), not {array.shape}")
    values = array.astype(np.float32)
    mine = np.maximum(values[:, 1:25], 0)
    theirs = np.maximum(-values[:, 24:0:-1], 0)  # the opponent's points 1-24 from its side
    return np.concatenate(
        [
            _side(mine, values[:, MY_BAR], values[:, MY_OFF]),
            _side(theirs, values[:, THEIR_BAR], values[:, THEIR_OFF]),
        ],
        axis=1,
    )
