"""Dice for many self-play games at once.

>>> import numpy as np
>>> dice = roll_batch(np.random.default_rng(1), np.array([True] * 50 + [False] * 50))
>>> dice.shape, bool((dice[:50, 0] != dice[:50, 1]).all())  # R4: no double opens a game
((100, 2), True)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt


def roll_batch(rng: np.random.Generator, opening: npt.NDArray[np.bool_]) -> npt.NDArray[np.int8]:
    """Two dice for each game; a game whose ``opening`` is set gets no double (R4: doubles roll again)."""
    dice = rng.integers(1, 7, size=(len(opening), 2)).astype(np.int8)
    while (clash := opening & (dice[:, 0] == dice[:, 1])).any():
        dice[clash] = rng.integers(1, 7, size=(int(clash.sum()), 2))
    return dice
