"""Positions from random games, for tests, benchmarks and training data.

Reproducible: every function takes a seed or a NumPy ``Generator``.

>>> positions = random_positions(5, seed=1)
>>> len(positions), all(p.result() is None for p in positions)
(5, True)
"""

from __future__ import annotations

import numpy as np

from tavola.movegen import generate
from tavola.position import Position, flip_array


def random_positions(count: int, seed: int | np.random.Generator | None = None) -> list[Position]:
    """``count`` positions met in games where both sides play uniformly random legal plays.

    Every position is taken with the side to move on roll; finished games
    are replaced by new ones, so the positions cover openings, middle games,
    races and bear-offs.
    """
    rng = np.random.default_rng(seed)
    start = Position.start().to_array().copy()
    board = start.copy()
    found: list[Position] = []
    while len(found) < count:
        found.append(Position._from_trusted_array(board.copy()))
        results, _ = generate(board, int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        # Choose among the plays in a fixed order, so the games do not depend on generation order.
        ordered = sorted(results.tolist())
        after = np.array(ordered[rng.integers(len(ordered))], dtype=np.int8)
        board = start.copy() if after[0] == 15 else flip_array(after)
    return found
