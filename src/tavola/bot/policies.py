"""The bots as batched policies of the self-play kernel (:mod:`tavola.selfplay`).

* :class:`GreedyPolicy`: the 0-ply choice, each game's result best for the
  mover by an evaluator, with all the games' results evaluated in one call
  (optionally a keyed random play now and then, for variety);
* :class:`LookAheadPolicy`: the same choices, found among every roll's
  plays of each position before its roll, which also give the position's
  1-ply value (what a rollout's variance reduction needs);
* :class:`PubEvalPolicy`: pubeval's choice, all the games scored at once.

The n-ply search's policy, with its noise, is
:class:`tavola.bot.search.SearchPolicy`; uniform random play is
:class:`tavola.selfplay.RandomPolicy`.

>>> from tavola.bot.evaluate import Evaluator
>>> from tavola.selfplay import outcomes, play
>>> greedy = GreedyPolicy.of(Evaluator.untrained(hidden=8, seed=1))
>>> outcomes(play((greedy, PubEvalPolicy()), games=2, key=3), 2).points.shape
(2,)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from tavola.bot.continuation import kinds, mover_probabilities
from tavola.bot.evaluate import Evaluator
from tavola.bot.network import OUTPUTS, equity, flip_probabilities
from tavola.bot.pubeval import PubEval
from tavola.bot.search import ROLL_INDEX, best_in_groups, evaluate_ply, rolls_ahead
from tavola.dice import ALL_ROLLS
from tavola.position import flip_array
from tavola.selfplay import CHOICE, EXPLORE, Candidates, keyed_below, keyed_uniform

FloatArray = npt.NDArray[np.float32]
Indices = npt.NDArray[np.int64]


CONTINUATIONS = 2
"""The plays of an Acey-Deucey 1-2 per game whose every continuation self-play looks at (the best two
with the mover on roll; see :func:`tavola.bot.continuation.mover_probabilities`)."""


class GreedyPolicy:
    """Plays each game's result that is best for the mover at 0-ply.

    ``evaluate`` gives the five probabilities of the player on roll for a
    batch of boards; ``equity`` turns them into equity (money points by
    default). Every result of every game is evaluated in one call, seen
    by the opponent (on roll next); after each call :attr:`evaluations`
    holds those probabilities and :attr:`equities` the mover's equity of
    each result, for callers that record them. With ``explore`` above 0, a
    game plays a uniformly random result instead with that probability,
    keyed by ``key``, its stream and its turn.

    The policy of an evaluator (:meth:`of`) of Acey-Deucey judges a play
    after which its player goes on (a 1-2 or a chosen double played in
    full) by the rest of the turn (:mod:`tavola.bot.continuation`);
    :attr:`evaluations` then hold, for such a play, its value for the mover
    turned round.
    """

    def __init__(
        self,
        evaluate: Callable[[npt.NDArray[np.int8]], FloatArray],
        equity: Callable[[FloatArray], npt.NDArray[np.float32]] = equity,
        explore: float = 0.0,
        key: int = 0,
    ) -> None:
        if not 0.0 <= explore <= 1.0:
            raise ValueError(f"explore is a probability, not {explore}")
        self.evaluate, self.equity, self.explore, self.key = evaluate, equity, explore, key
        self.evaluations: FloatArray = np.zeros((0, 5), dtype=np.float32)
        self.equities: npt.NDArray[np.float64] = np.zeros(0)
        self.evaluator: Evaluator | None = None

    @classmethod
    def of(cls, evaluator: Evaluator, explore: float = 0.0, key: int = 0) -> GreedyPolicy:
        """The policy of ``evaluator``, judging in its variant's points, by its variant's turns."""
        policy = cls(evaluator.evaluate, evaluator.equity, explore, key)
        policy.evaluator = evaluator
        return policy

    def __call__(self, candidates: Candidates) -> Indices:
        evaluator = self.evaluator
        going_on = None
        if evaluator is not None and evaluator.variant.acey_deucey_roll:
            group = candidates.group
            chosen_double = (candidates.dice == 0).all(axis=1)
            going_on = kinds(evaluator.variant, candidates.dice[group], chosen_double[group], candidates.made)
        if going_on is None or not going_on.any():
            self.evaluations = self.evaluate(flip_array(candidates.results))
        else:
            assert evaluator is not None
            mover = mover_probabilities(
                evaluator, candidates.results, going_on, offsets=candidates.offsets, widest=CONTINUATIONS
            )
            self.evaluations = flip_probabilities(mover)
        self.equities = -self.equity(self.evaluations).astype(np.float64)
        return self._explored(candidates, best_in_groups(candidates.offsets, self.equities))

    def _explored(self, candidates: Candidates, rows: Indices) -> Indices:
        """``rows``, with a keyed random play instead in the games that explore."""
        if self.explore > 0:
            wander = keyed_uniform(self.key, EXPLORE, candidates.stream, candidates.turn) < self.explore
            pick = keyed_below(
                self.key,
                candidates.counts[wander],
                CHOICE,
                candidates.stream[wander],
                candidates.turn[wander],
            )
            rows[wander] = candidates.offsets[:-1][wander] + pick
        return rows

    def mover_probabilities(self, rows: Indices) -> FloatArray:
        """The probabilities of the results at ``rows`` of the last call, for the player who moved."""
        return flip_probabilities(self.evaluations[rows])


class LookAheadPolicy(GreedyPolicy):
    """:class:`GreedyPolicy`'s 0-ply choice, found by looking at all 21 rolls of each game's position.

    Each call judges, for every game's position before its roll, the plays
    of all 21 rolls at 0-ply (:func:`~tavola.bot.search.rolls_ahead`); the
    roll rolled is one of them, so its plays are judged once, and the best
    of them is the choice (the search's order of equal plays; up to float
    rounding, the greedy choice). After each call :attr:`means` holds each
    game's 1-ply probabilities (:func:`~tavola.bot.search.evaluate_ply` at
    1), what a rollout's variance reduction takes the luck of a roll from.
    Where some game rolls no dice (an Acey-Deucey double chosen), the step
    is the greedy one, and :attr:`means` is found on its own.

    >>> from tavola.bot.evaluate import Evaluator
    >>> from tavola.selfplay import play
    >>> policy = LookAheadPolicy(Evaluator.untrained(hidden=8, seed=1))
    >>> step = next(play(policy, games=2, key=3))
    >>> policy.means.shape, policy.mover_probabilities(step.chosen).shape
    ((2, 5), (2, 5))
    """

    def __init__(self, evaluator: Evaluator, explore: float = 0.0, key: int = 0) -> None:
        super().__init__(evaluator.evaluate, evaluator.equity, explore, key)
        self.evaluator = self._evaluator = evaluator
        self.means: FloatArray = np.zeros((0, OUTPUTS), dtype=np.float32)
        self._mover: FloatArray | None = None

    def __call__(self, candidates: Candidates) -> Indices:
        rolled = ROLL_INDEX[candidates.dice[:, 0], candidates.dice[:, 1]]
        if (rolled < 0).any():
            self._mover = None
            rows = super().__call__(candidates)
            self.means = np.zeros((len(candidates), OUTPUTS), dtype=np.float32)
            some = np.flatnonzero(rolled >= 0)
            self.means[some] = evaluate_ply(self._evaluator, candidates.boards[some], 1)
            return rows
        rolls, position = rolls_ahead(self._evaluator, candidates.boards)
        group = position * len(ALL_ROLLS) + rolled
        first = rolls.offsets[group]
        if not (rolls.offsets[group + 1] - first == candidates.counts).all():
            raise RuntimeError("the rolls looked at do not list the plays of the roll rolled")
        shift = np.repeat(first - candidates.offsets[:-1], candidates.counts)
        self._mover = rolls.probabilities[shift + np.arange(len(candidates.results))]
        self.evaluations = flip_probabilities(self._mover)
        self.equities = self.equity(self._mover).astype(np.float64)
        self.means = rolls.means[position]
        return self._explored(candidates, rolls.best[group] - first + candidates.offsets[:-1])

    def mover_probabilities(self, rows: Indices) -> FloatArray:
        """The probabilities of the results at ``rows`` of the last call, for the player who moved."""
        if self._mover is None:
            return super().mover_probabilities(rows)
        return self._mover[rows]


class PubEvalPolicy:
    """Plays pubeval's choice in every game (:class:`~tavola.bot.pubeval.PubEval`), scored in one call."""

    __slots__ = ("pubeval",)

    def __init__(self, pubeval: PubEval | None = None) -> None:
        self.pubeval = pubeval if pubeval is not None else PubEval()

    def __call__(self, candidates: Candidates) -> Indices:
        scores = self.pubeval.scores_many(candidates.boards, candidates.offsets, candidates.results)
        return best_in_groups(candidates.offsets, scores)
