"""Acey-Deucey's turns that go on (V2): a play judged by what its player makes of the rest of the turn.

After a 1-2 whose both dice were played, the same player chooses a double
and plays it; after that double, if all four moves were played, the same
player rolls again. Such a play is not followed by the opponent's roll, so
it is not worth what the opponent's position is worth turned round. Each
result of a play is of one of three kinds (:func:`kinds`):

* :data:`NEXT`: the opponent is on roll next (every play of every other
  game, and a play that ends the game);
* :data:`AGAIN`: a chosen double played in full: the mover rolls again, so
  the result is worth the evaluator's value of it with the mover on roll;
* :data:`CHOOSE`: a 1-2 played in full: the mover chooses the double, so
  the result is worth the best of the six doubles' plays, each judged as
  :data:`NEXT` or :data:`AGAIN` by its own moves.

:func:`mover_probabilities` judges results of all kinds at once, for the
bot's choice of a play and of the double, its hints, and self-play
(:class:`tavola.bot.policies.GreedyPolicy`). Deeper searches judge the
results of a 1-2 by the continuation found at 0-ply, valued at their depth.

>>> import numpy as np
>>> from tavola.bot.evaluate import Evaluator
>>> from tavola.variants import ACEY_DEUCEY
>>> evaluator = Evaluator.untrained(hidden=8, seed=1).for_variant(ACEY_DEUCEY)
>>> plays = ACEY_DEUCEY.start.legal_plays(Dice(1, 2), ACEY_DEUCEY)
>>> of_plays = kinds(ACEY_DEUCEY, Dice(1, 2), False, [len(play.moves) for play in plays])
>>> set(of_plays.tolist())  # every play of the opening 1-2 uses both dice: the mover chooses a double
{2}
>>> mover_probabilities(evaluator, plays.results, of_plays).shape
(2, 5)
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from tavola.bot.evaluate import Evaluator
from tavola.bot.network import OUTPUTS, flip_probabilities
from tavola.dice import Dice
from tavola.gameover import game_over
from tavola.movegen import generate_batch
from tavola.play import LegalPlays
from tavola.position import flip_array
from tavola.variants import Variant

FloatArray = npt.NDArray[np.float32]
Indices = npt.NDArray[np.int64]

NEXT, AGAIN, CHOOSE = 0, 1, 2
"""What follows a play: the opponent's turn, the mover's roll again, the mover's choice of a double."""
DOUBLES = np.array([(number, number) for number in range(1, 7)], dtype=np.int8)
"""The six doubles a player may choose after a 1-2, in order."""


def kinds(
    variant: Variant,
    dice: Dice | npt.ArrayLike,
    chosen_double: bool | npt.ArrayLike,
    made: npt.ArrayLike,
) -> npt.NDArray[np.int8]:
    """What follows each play: :data:`NEXT`, :data:`AGAIN` or :data:`CHOOSE` (see the module docstring).

    ``dice`` are the roll the plays were made with (one, or one per play),
    ``chosen_double`` whether that roll is the double chosen after a 1-2
    (one flag, or one per play), ``made`` how many single-die moves each
    play made. A play that ends the game is :data:`NEXT` whatever it is:
    the caller's evaluator scores it exactly either way.

    >>> from tavola.variants import ACEY_DEUCEY, STANDARD
    >>> played = kinds(ACEY_DEUCEY, Dice(2, 1), False, [2, 1])
    >>> standard = kinds(STANDARD, Dice(2, 1), False, [2])
    >>> played.tolist(), standard.tolist()
    ([2, 0], [0])
    >>> chosen = kinds(ACEY_DEUCEY, Dice(5, 5), True, [4, 3])
    >>> rolled = kinds(ACEY_DEUCEY, Dice(5, 5), False, [4])
    >>> chosen.tolist(), rolled.tolist()
    ([1, 0], [0])
    """
    moves = np.asarray(made, dtype=np.int64).reshape(-1)
    out = np.full(len(moves), NEXT, dtype=np.int8)
    if not variant.acey_deucey_roll:
        return out
    pairs = np.broadcast_to(
        np.asarray(tuple(dice) if isinstance(dice, Dice) else dice, dtype=np.int8).reshape(-1, 2),
        (len(moves), 2),
    )
    chosen = np.broadcast_to(np.asarray(chosen_double, dtype=bool).reshape(-1), len(moves))
    one_two = (np.sort(pairs, axis=1) == (1, 2)).all(axis=1) & ~chosen
    out[one_two & (moves == 2)] = CHOOSE
    out[chosen & (moves == 4)] = AGAIN
    return out


def mover_probabilities(
    evaluator: Evaluator,
    results: npt.ArrayLike,
    kind: npt.ArrayLike,
    plies: int = 0,
    *,
    offsets: Indices | None = None,
    widest: int | None = None,
) -> FloatArray:
    """(N, 5) probabilities of each result for the player who made it, by what follows it (:func:`kinds`).

    ``results`` are seen from the mover. :data:`NEXT` results are judged
    with the opponent on roll and turned round, :data:`AGAIN` results with
    the mover on roll, both at ``plies`` (:func:`tavola.bot.search.evaluate_ply`);
    a :data:`CHOOSE` result by its best continuation (:func:`best_continuations`,
    found at 0-ply), valued at ``plies`` in the same way.

    Looking at every double's plays of every :data:`CHOOSE` result costs
    most where many checkers wait to enter. Given the groups (``offsets``,
    one group a position and roll, as :func:`~tavola.movegen.generate_batch`
    gives them) and ``widest``, only the ``widest`` :data:`CHOOSE` results of
    each group that are best with the mover on roll get their continuation;
    the others are judged as :data:`AGAIN` (on roll, with any roll: less than
    the double of one's choice, so they do not take the best one's place).
    """
    from tavola.bot.search import evaluate_ply, keep_in_groups

    boards = np.ascontiguousarray(results, dtype=np.int8)
    what = np.asarray(kind, dtype=np.int8).copy()
    out = np.empty((len(boards), OUTPUTS), dtype=np.float32)
    choosing = np.flatnonzero(what == CHOOSE)
    if len(choosing) and offsets is not None and widest is not None:
        on_roll_now = evaluator.equity(evaluator.evaluate(boards[choosing])).astype(np.float64)
        group = np.searchsorted(offsets, choosing, side="right") - 1
        best = keep_in_groups(group, on_roll_now, widest, math.inf)
        what[np.setdiff1d(choosing, choosing[best])] = AGAIN
    boards, what = continued(evaluator, boards, what)

    def on_roll(rows: npt.NDArray[np.int8]) -> FloatArray:
        return evaluator.evaluate(rows) if plies == 0 else evaluate_ply(evaluator, rows, plies)

    nexts, agains = what == NEXT, what == AGAIN
    if nexts.any():
        out[nexts] = flip_probabilities(on_roll(flip_array(boards[nexts])))
    if agains.any():
        out[agains] = on_roll(boards[agains])
    return out


def continued(
    evaluator: Evaluator, results: npt.ArrayLike, kind: npt.ArrayLike
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    """What to value each result by, and how: ``results`` with every :data:`CHOOSE` result replaced
    by its best continuation (:func:`best_continuations`), and each row's kind, :data:`NEXT` or
    :data:`AGAIN` (a finished game is :data:`NEXT`).

    A :data:`NEXT` row is worth the opponent's value of it turned round, an
    :data:`AGAIN` row its value with the mover on roll, at any depth: how
    :func:`mover_probabilities` and the search
    (:func:`tavola.bot.search.judge_plays` given the plays' kinds) judge them.

    >>> from tavola.bot.evaluate import Evaluator
    >>> from tavola.variants import ACEY_DEUCEY
    >>> evaluator = Evaluator.untrained(hidden=8, seed=1).for_variant(ACEY_DEUCEY)
    >>> plays = ACEY_DEUCEY.start.legal_plays(Dice(1, 2), ACEY_DEUCEY)
    >>> boards, what = continued(evaluator, plays.results, [CHOOSE] * len(plays))
    >>> boards.shape == plays.results.shape, set(what.tolist()) <= {NEXT, AGAIN}
    (True, True)
    """
    boards = np.array(results, dtype=np.int8)
    what = np.array(kind, dtype=np.int8).reshape(-1)
    what[game_over(boards)] = NEXT
    choosing = np.flatnonzero(what == CHOOSE)
    if len(choosing):
        boards[choosing], what[choosing] = best_continuations(evaluator, boards[choosing])
    return boards, what


def kinds_of(plays: LegalPlays, chosen_double: bool = False) -> npt.NDArray[np.int8]:
    """:func:`kinds` of every legal play of ``plays`` (``chosen_double``: its dice are the double chosen
    after a 1-2).

    >>> from tavola.variants import ACEY_DEUCEY
    >>> plays = ACEY_DEUCEY.start.legal_plays(Dice(5, 5), ACEY_DEUCEY)  # each makes all four moves
    >>> kinds_of(plays, chosen_double=True).tolist(), kinds_of(plays).tolist()
    ([1, 1, 1, 1, 1], [0, 0, 0, 0, 0])
    """
    return kinds(plays.variant, plays.dice, chosen_double, moves_made(plays.moves))


def moves_made(moves: npt.NDArray[np.int8]) -> Indices:
    """How many single-die moves each play of the move generator's ``moves`` array made (0: a pass)."""
    made: Indices = (moves[:, :, 0] >= 0).sum(axis=1).astype(np.int64)
    return made


def best_continuations(
    evaluator: Evaluator, boards: npt.ArrayLike
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    """For each position where its mover chooses a double (after a 1-2), the best result and its kind.

    Every play of the six doubles is judged at 0-ply as :func:`mover_probabilities`
    judges it (:data:`AGAIN` when it makes all four moves, else :data:`NEXT`);
    the best for the mover, in the variant's points, is the continuation.
    """
    positions = np.ascontiguousarray(boards, dtype=np.int8)
    choices = double_choices(evaluator, positions)
    best = choices.best()
    return choices.results[best], choices.kinds[best]


class DoubleChoices:
    """Every play of the six doubles for positions where the mover chooses one, judged at 0-ply.

    Rows ``offsets[6 p + d]:offsets[6 p + d + 1]`` of ``results`` are the
    plays of double ``d + 1`` in position ``p``; ``kinds`` and ``equities``
    (for the mover) go with each row.
    """

    def __init__(
        self,
        offsets: Indices,
        results: npt.NDArray[np.int8],
        kinds: npt.NDArray[np.int8],
        equities: npt.NDArray[np.float64],
    ) -> None:
        self.offsets, self.results, self.kinds, self.equities = offsets, results, kinds, equities

    def best(self) -> Indices:
        """The row of the best play of each position, over all six doubles (the first of equals)."""
        rows = self.by_double()
        best: Indices = rows[np.arange(len(rows)), np.argmax(self.equities[rows], axis=1)]
        return best

    def by_double(self) -> Indices:
        """The row of the best play of each double of each position, shape (positions, 6)."""
        from tavola.bot.search import best_in_groups

        return best_in_groups(self.offsets, self.equities).reshape(-1, len(DOUBLES))


def double_choices(evaluator: Evaluator, boards: npt.ArrayLike) -> DoubleChoices:
    """:class:`DoubleChoices` of ``boards`` (each seen from the mover, who chooses a double)."""
    positions = np.ascontiguousarray(boards, dtype=np.int8)
    offsets, results, moves = generate_batch(
        np.repeat(positions, len(DOUBLES), axis=0),
        np.tile(DOUBLES, (len(positions), 1)),
        evaluator.variant.flags,
    )
    what = np.where(moves_made(moves) == 4, AGAIN, NEXT).astype(np.int8)
    what[game_over(results)] = NEXT
    equities = evaluator.equity(mover_probabilities(evaluator, results, what)).astype(np.float64)
    return DoubleChoices(offsets, results, what, equities)
