"""The luck of rolls, all turns at once: the roll rolled against the average of all 36.

A roll's luck (GNU Backgammon's definition) is the value of the position
after the best play of the roll rolled, less the average of that value over
the 36 rolls (the 21 distinct ones weighted by their chances). It is judged
at 0-ply, cubeless, by the evaluator: every turn's 21 rolls are generated in
one :func:`~tavola.movegen.generate_batch` call and their plays evaluated in
one :func:`~tavola.bot.search.evaluate_ply` call; the best play of each roll
is the best by cubeless equity, valued at the match score in a match
(match winning chances with the cube where it stands).

>>> from tavola import Dice, Position
>>> from tavola.bot.evaluate import Evaluator
>>> from tavola.bot.context import CubeContext
>>> from tavola.cube import Cube
>>> from tavola.rules import Rules
>>> spots = [LuckSpot(Position.start(), Dice(6, 6), CubeContext(0, Cube(), Rules()))]
>>> [(normalised, points)] = roll_luck(Evaluator.untrained(hidden=8, seed=1), spots)
>>> normalised == points
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tavola.bot.context import CubeContext
from tavola.bot.evaluate import Evaluator
from tavola.bot.network import flip_probabilities
from tavola.bot.search import ROLL_WEIGHTS, best_in_groups, evaluate_ply
from tavola.dice import ALL_ROLLS, Dice
from tavola.movegen import generate_batch
from tavola.position import Position, flip_array

_ROLLS = np.array(ALL_ROLLS, dtype=np.int8)
_INDEX = {roll: index for index, roll in enumerate(ALL_ROLLS)}


@dataclass(frozen=True)
class LuckSpot:
    """A roll to judge: the position before it (seen by the roller), the dice, the roller's cube context."""

    position: Position
    dice: Dice
    context: CubeContext


def roll_luck(evaluator: Evaluator, spots: Sequence[LuckSpot]) -> list[tuple[float, float]]:
    """Each roll's luck for its roller: normalised, and in the result's terms (points at the cube, or
    match winning chances)."""
    if not spots:
        return []
    evaluator = evaluator.for_variant(spots[0].context.variant)
    boards = np.stack([spot.position.to_array() for spot in spots])
    offsets, results, _ = generate_batch(
        np.repeat(boards, len(_ROLLS), axis=0), np.tile(_ROLLS, (len(spots), 1)), evaluator.variant.flags
    )
    probabilities = flip_probabilities(evaluate_ply(evaluator, flip_array(results), 0))
    best = best_in_groups(offsets, evaluator.equity(probabilities).astype(np.float64))
    by_roll = probabilities[best].reshape(len(spots), len(_ROLLS), -1)
    out = []
    for spot, rows in zip(spots, by_roll, strict=True):
        values = spot.context.cubeless(rows)
        rolled = float(values[_INDEX[spot.dice]])
        average = float(ROLL_WEIGHTS @ values)
        context = spot.context
        out.append(
            (context.normalised(rolled) - context.normalised(average), context.in_points(rolled - average))
        )
    return out
