"""Tesauro's pubeval: the public linear evaluator, as a move chooser and a benchmark opponent.

Pubeval scores the position *after* a play, seen from the player who made it,
with one of two published weight vectors (``data/pubeval.json``): the race
weights when there was no contact *before* the play, the contact weights
otherwise. It plays the legal play with the highest score.

Its 122 inputs (Tesauro's ``setx``), for the position after the play:

* 5 per point, points 24 down to 1 as the player who moved sees them, for the
  ``n`` checkers there (the opponent's count negative): ``n == -1`` (an
  opposing blot), ``n == 1``, ``n >= 2``, ``n == 3``, and ``(n - 3) / 2`` for
  ``n >= 4``; an opposing point of two or more gives no input;
* the opponent's checkers on the bar, halved;
* the mover's checkers borne off, over 15.

A play that bears off the last checker wins at once, so it always scores best.

>>> from tavola.movegen import generate
>>> from tavola.position import Position
>>> start = Position.start().to_array()
>>> results, _ = generate(start, 3, 1)
>>> after = results[PubEval().choose(start, results)]
>>> [int(after[point]) for point in (8, 6, 5)]  # 8/5 6/5
[2, 4, 2]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Annotated

import numpy as np
import numpy.typing as npt
from pydantic import Field

from tavola.bot.evaluate import contact
from tavola.bot.features import in_contact
from tavola.errors import TavolaError
from tavola.position import CHECKERS, MY_OFF, THEIR_BAR
from tavola.schema import Shape, parse_json, read_shape

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int8]

INPUTS = 122
"""Inputs per position."""
WIN_SCORE = float("inf")
"""The score of a play that bears off the mover's last checker."""
_MAX_COUNT = CHECKERS  # checkers on one point range over -15..15


@dataclass(frozen=True)
class PubEvalWeights:
    """The two published weight vectors, 122 values each."""

    race: FloatArray
    contact: FloatArray

    @classmethod
    def load(cls) -> PubEvalWeights:
        """The weights shipped with Tavola (``tavola/bot/data/pubeval.json``).

        >>> weights = PubEvalWeights.load()
        >>> weights.race.shape, float(weights.contact[0])
        ((122,), 0.25696)
        """
        return _shipped_weights()


class _WeightsShape(Shape):
    """The shape of ``pubeval.json``: the race and the contact weights, one per input."""

    race: Annotated[list[float], Field(min_length=INPUTS, max_length=INPUTS)]
    contact: Annotated[list[float], Field(min_length=INPUTS, max_length=INPUTS)]


@cache
def _shipped_weights() -> PubEvalWeights:
    text = resources.files("tavola.bot").joinpath("data", "pubeval.json").read_text(encoding="utf-8")
    shape: _WeightsShape = read_shape(_WeightsShape, parse_json(text), TavolaError, "pubeval.json")
    race, contact = (np.array(weights, dtype=np.float64) for weights in (shape.race, shape.contact))
    race.flags.writeable = contact.flags.writeable = False
    return PubEvalWeights(race, contact)


def _point_features(count: int) -> tuple[float, float, float, float, float]:
    """The 5 inputs of a point holding ``count`` checkers (negative: the opponent's)."""
    return (
        float(count == -1),
        float(count == 1),
        float(count >= 2),
        float(count == 3),
        (count - 3) / 2 if count >= 4 else 0.0,
    )


_FEATURES = np.array([_point_features(n) for n in range(-_MAX_COUNT, _MAX_COUNT + 1)])
"""``_FEATURES[n + 15]``: the 5 inputs of a point holding ``n`` checkers."""


def inputs(results: npt.ArrayLike) -> FloatArray:
    """Pubeval's 122 inputs for positions after a play, seen from the player who made it.

    ``results`` is one position array or an (N, 30) batch; the answer has
    shape (122,) or (N, 122).

    >>> from tavola.position import Position
    >>> x = inputs(Position.start().to_array())
    >>> x[:5].tolist(), x[5 * 18 : 5 * 19].tolist()  # point 24: 2 checkers; point 6: 5
    ([0.0, 0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0, 1.0])
    """
    boards = np.asarray(results, dtype=np.int8)
    points = boards[..., _CELLS[:24]].astype(np.intp) + _MAX_COUNT
    x = np.empty((*boards.shape[:-1], INPUTS))
    x[..., :120] = _FEATURES[points].reshape(*boards.shape[:-1], 120)
    x[..., 120] = boards[..., THEIR_BAR] / 2
    x[..., 121] = boards[..., MY_OFF] / CHECKERS
    return x


def is_race(board: IntArray) -> bool:
    """Whether no checker still has to pass an opposing one: not :func:`~tavola.bot.features.in_contact`.

    >>> from tavola.position import Position
    >>> is_race(Position.start().to_array())
    False
    >>> is_race(Position([1] + [0] * 22 + [-1], off=(14, 14)).to_array())
    True
    """
    return not in_contact(board)


class PubEval:
    """Pubeval as a :class:`~tavola.bot.arena.Chooser`: the play whose result scores highest.

    The score is linear in the inputs, so each weight vector becomes one
    table: ``table[j, n + 15]`` is what cell ``j`` (points 24 down to 1, then
    the opponent's bar and the mover's borne-off checkers) holding ``n``
    checkers adds to the score. Scoring a batch of results is one gather and
    a sum; bearing off the fifteenth checker adds infinity.
    """

    __slots__ = ("_stacked", "_tables", "_weights")

    def __init__(self, weights: PubEvalWeights | None = None) -> None:
        self._weights = weights if weights is not None else PubEvalWeights.load()
        self._tables = (_table(self._weights.contact), _table(self._weights.race))
        self._stacked = np.concatenate(self._tables)

    @property
    def weights(self) -> PubEvalWeights:
        return self._weights

    def scores(self, before: IntArray, results: IntArray) -> FloatArray:
        """The score of each result row (an (N, 30) batch seen from the mover); higher is better.

        >>> from tavola.movegen import generate
        >>> from tavola.position import Position
        >>> start = Position.start().to_array()
        >>> results, _ = generate(start, 6, 5)
        >>> scores = PubEval().scores(start, results)
        >>> bool(np.allclose(scores, inputs(results) @ PubEvalWeights.load().contact))
        True
        """
        table = self._tables[is_race(before)]
        total: FloatArray = table.take(results[:, _CELLS] + _CELL_OFFSETS).sum(axis=1)
        return total

    def scores_many(self, boards: IntArray, offsets: npt.NDArray[np.int64], results: IntArray) -> FloatArray:
        """:meth:`scores` of many positions in one call: ``boards[i]`` has rows ``offsets[i]:offsets[i + 1]``.

        >>> from tavola.movegen import generate_batch
        >>> from tavola.position import Position
        >>> race = Position([1] + [0] * 22 + [-1], off=(14, 14))
        >>> boards = np.stack([Position.start().to_array(), race.to_array()])
        >>> offsets, results, _ = generate_batch(boards, [[6, 5], [2, 1]])
        >>> many = PubEval().scores_many(boards, offsets, results)
        >>> bool(np.array_equal(many[offsets[1]:], PubEval().scores(boards[1], results[offsets[1]:])))
        True
        """
        race = np.repeat(~contact(boards), np.diff(offsets)).astype(np.intp)
        cells = results[:, _CELLS] + _CELL_OFFSETS + (race * len(self._tables[0]))[:, None]
        total: FloatArray = self._stacked.take(cells).sum(axis=1)
        return total

    def choose(self, before: IntArray, results: IntArray) -> int:
        """The index of the best-scoring row of ``results`` (the first of equals)."""
        return int(self.scores(before, results).argmax())

    def __repr__(self) -> str:
        return "PubEval()"


_CELLS = np.array([*range(24, 0, -1), THEIR_BAR, MY_OFF])
"""The array indices the score reads: points 24 down to 1, the opponent's bar, the mover's off."""
_WIDTH = 2 * _MAX_COUNT + 1
_CELL_OFFSETS = np.arange(len(_CELLS)) * _WIDTH + _MAX_COUNT
"""Where cell ``j`` holding 0 checkers sits in a flattened table."""


def _table(weights: FloatArray) -> FloatArray:
    """The flattened score table of one weight vector (see :class:`PubEval`)."""
    table = np.zeros((len(_CELLS), _WIDTH))
    table[:24] = weights[:120].reshape(24, 5) @ _FEATURES.T
    counts = np.arange(-_MAX_COUNT, _MAX_COUNT + 1)
    table[24] = np.where(counts >= 0, weights[120] * counts / 2, 0.0)
    table[25] = np.where(counts >= 0, weights[121] * counts / CHECKERS, 0.0)
    table[25, -1] = WIN_SCORE
    return table.ravel()
