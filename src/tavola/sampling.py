"""Positions from random games, for tests, benchmarks and training data.

Reproducible: every function takes a seed or a NumPy ``Generator``.

>>> positions = random_positions(5, seed=1)
>>> len(positions), all(p.result() is None for p in positions)
(5, True)
>>> random_positions(3, seed=1) == positions[:3]
True
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tavola.position import Position
from tavola.selfplay import RandomPolicy, key_of, play, subkey
from tavola.variants import STANDARD, Variant

_GAMES_AT_ONCE = 64
"""Games played together while sampling; the positions do not depend on it."""


def random_positions(
    count: int, seed: int | np.random.Generator | None = None, *, variant: Variant = STANDARD
) -> list[Position]:
    """``count`` positions met in games of ``variant`` where both sides play uniformly random legal plays.

    Every position is taken with the side to move on roll, game after game
    and turn after turn (a game ends, the next one begins), so the positions
    cover openings, middle games, races and bear-offs, and the first
    ``n`` positions of a seed are the same whatever the ``count``.
    """
    key = key_of(seed)
    policy = RandomPolicy(subkey(key, 0))
    found: list[npt.NDArray[np.int8]] = []
    total, first = 0, 0
    while total < count:
        games = _GAMES_AT_ONCE
        game: list[npt.NDArray[np.int64]] = []
        turn: list[npt.NDArray[np.int64]] = []
        boards: list[npt.NDArray[np.int8]] = []
        streams = np.arange(first, first + games)
        for step in play(policy, games, key, variant=variant, streams=streams, parallel=games):
            rolled = (step.dice > 0).all(axis=1)  # not the double an Acey-Deucey player chooses
            game.append(step.game[rolled])
            turn.append(step.turn[rolled])
            boards.append(step.boards[rolled])
        order = np.lexsort((np.concatenate(turn), np.concatenate(game)))
        found.append(np.concatenate(boards)[order])
        total += len(order)
        first += games
    return [Position._from_trusted_array(board, variant.checkers) for board in np.concatenate(found)[:count]]
