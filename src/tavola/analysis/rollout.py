"""Rollouts: a position, or the best plays of a roll, played out many times by the bot, cubeless.

A rollout plays a position to the end (or for ``truncation`` plays, then
takes the evaluator's cubeless judgement) again and again with the bot on
both sides, through the self-play kernel (:func:`tavola.selfplay.play`),
and averages the results: the chances of the five outcomes (win, win a
gammon, win a backgammon, lose a gammon, lose a backgammon) and the
equity, each with its standard error and 95% interval.

* :func:`rollout_position` rolls out a position before the roll, for the
  player on roll;
* :func:`rollout_plays` rolls out the best plays of a roll side by side,
  trial ``t`` of every play on the same dice, for the player who moves,
  and gives each play's equity less the best play's with its own standard
  error (paired: the dice they share cancel out of the difference).

**Variance reduction** (as GNU Backgammon does it): at each roll of a
trial, the luck of the roll, the 0-ply chances after the best play of the
roll rolled less their mean over the 21 rolls (the 1-ply value of the
position, :func:`~tavola.bot.search.evaluate_ply`), seen by the player the
result is counted for, is taken off the trial's result. The luck's mean is
0 whatever the evaluator, so the estimate stays unbiased; the better the
evaluator, the more of the dice's noise goes.

**Quasi-random dice**: trial ``t``'s first roll is roll ``t mod 36`` of a
keyed shuffle of the 36 (one shuffle per block of 36 trials), its second
roll is stratified the same way over every 1296 trials (each block of 1296
trials meets each pair of first two rolls once); later rolls are keyed
random dice. Each trial's dice depend only on the seed and the trial's
number.

**Splitting**: trials are played in blocks of :data:`BLOCK`, each block by
one call of the kernel, and gathered as exact sums
(:class:`~tavola.analysis.stats.Moments`), so the same seed and settings
give the same result, bit for bit, however the blocks are shared out in
chunks, between processes (``workers``) or not.

>>> from tavola.bot.evaluate import Evaluator
>>> from tavola.position import Position
>>> settings = RolloutSettings(trials=36, truncation=2, seed=1)
>>> result = rollout_position(Position.start(), settings, Evaluator.untrained(hidden=8, seed=1))
>>> result.trials, len(result.probabilities), result.equity.standard_error > 0
(36, 5, True)
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import numpy.typing as npt

from tavola.analysis.stats import Estimate, Moments, merge
from tavola.bot.evaluate import Evaluator, exact_probabilities
from tavola.bot.network import OUTPUTS, flip_probabilities
from tavola.bot.policies import GreedyPolicy, LookAheadPolicy
from tavola.bot.search import SearchPolicy, evaluate_ply, judge_plays
from tavola.dice import Dice
from tavola.errors import TavolaError
from tavola.gameover import game_over, game_points
from tavola.i18n import _
from tavola.play import Play
from tavola.position import Position, flip_array
from tavola.selfplay import Policy, Step, key_of, keyed, play, subkey
from tavola.variants import STANDARD, Variant

IntArray = npt.NDArray[np.int8]
FloatArray = npt.NDArray[np.float64]

BLOCK = 36
"""Trials played by one call of the self-play kernel: one turn of the quasi-random first roll."""
CHUNK = 2 * BLOCK
"""Trials a chunk holds by default: between chunks a rollout reports progress and may stop early."""
COLUMNS = OUTPUTS + 1
"""What a trial gives for each play: the five outcomes, then the equity."""
_FIRST_ROLL, _SECOND_ROLL = 1, 2  # the quasi-random shuffles' own keys (selfplay.subkey)


class RolloutError(TavolaError):
    """Rollout settings or a request that cannot be rolled out."""


@dataclass(frozen=True)
class RolloutSettings:
    """How to roll out: the trials, where to stop, how the bot plays, and the dice.

    ``truncation`` is ``None`` (play every game to its end) or a number of
    plays, after which the evaluator's cubeless judgement is the result;
    ``plies`` is how far the bot looks ahead to choose its plays (0 or 1);
    ``seed`` keys the dice (``None``: drawn from the OS for each rollout,
    and given back in the result).

    >>> RolloutSettings(trials=0)
    Traceback (most recent call last):
    ...
    tavola.analysis.rollout.RolloutError: a rollout plays at least 1 trial, not 0
    """

    trials: int = 1296
    truncation: int | None = None
    plies: int = 0
    variance_reduction: bool = True
    quasi_random: bool = True
    seed: int | None = None
    variant: Variant = STANDARD

    def __post_init__(self) -> None:
        if self.trials < 1:
            raise RolloutError(_("a rollout plays at least 1 trial, not {value}").format(value=self.trials))
        if self.truncation is not None and self.truncation < 1:
            raise RolloutError(
                _("a rollout is truncated after 1 play or more, not {value}").format(value=self.truncation)
            )
        if self.plies not in (0, 1):
            raise RolloutError(
                _("checker play in a rollout looks 0 or 1 plies ahead, not {value}").format(value=self.plies)
            )


@dataclass(frozen=True)
class RolloutResult:
    """What a rollout found, for the player it is counted for (on roll, or who played).

    ``probabilities`` are the five outcomes (win, win gammon, win
    backgammon, lose gammon, lose backgammon; gammons include backgammons),
    ``equity`` the cubeless equity in the variant's points; ``seed`` the key
    the dice were drawn with, to repeat the rollout.
    """

    probabilities: tuple[Estimate, ...]
    equity: Estimate
    trials: int
    seed: int


@dataclass(frozen=True)
class PlayRollout:
    """One play's rollout: its result, and its equity less the best play's, paired trial by trial."""

    play: Play
    result: RolloutResult
    difference: Estimate


Progress = Callable[[int, Estimate], None]
"""Told after each chunk: the trials done so far and the running equity (of the best play so far)."""


def rollout_position(
    position: Position,
    settings: RolloutSettings,
    evaluator: Evaluator,
    *,
    workers: int = 1,
    chunk: int = CHUNK,
    target_se: float | None = None,
    progress: Progress | None = None,
) -> RolloutResult:
    """Roll out ``position`` before the roll, for the player on roll (see the module docstring).

    ``workers`` processes play the chunks of ``chunk`` trials (a multiple
    of :data:`BLOCK`); with ``target_se`` the rollout stops after the first
    chunk at which the equity's standard error is below it (the chunks
    counted are always the first ones, so the result does not depend on
    ``workers``). A finished game's rollout is its exact result.
    """
    key = key_of(settings.seed)
    start = _checked(position, settings).to_array()[None]
    moments = _run(_Job(start, 0, key, settings), evaluator, workers, chunk, target_se, progress)
    return _result(moments, 0, key)


def rollout_plays(
    position: Position,
    dice: Dice,
    settings: RolloutSettings,
    evaluator: Evaluator,
    n: int = 5,
    *,
    workers: int = 1,
    chunk: int = CHUNK,
    target_se: float | None = None,
    progress: Progress | None = None,
) -> tuple[PlayRollout, ...]:
    """Roll out the best ``n`` plays of ``dice`` (by the bot at ``settings.plies``) on the same dice.

    Returns them best first by their rolled-out equity, each with its
    difference to the best (see :func:`rollout_position` for the rest).

    >>> from tavola.bot.evaluate import Evaluator
    >>> settings = RolloutSettings(trials=36, truncation=1, seed=3)
    >>> evaluator = Evaluator.untrained(hidden=8, seed=1)
    >>> found = rollout_plays(Position.start(), Dice(3, 1), settings, evaluator, 3)
    >>> len(found), found[0].difference
    (3, Estimate(mean=0.0, standard_error=0.0))
    """
    if n < 1:
        raise RolloutError(_("a rollout looks at 1 play or more, not {value}").format(value=n))
    key = key_of(settings.seed)
    judge = evaluator.for_variant(settings.variant)
    plays = _checked(position, settings).legal_plays(dice, settings.variant)
    best = judge_plays(judge, plays.results, settings.plies).order()[:n]
    starts = flip_array(plays.results[best])  # the opponent rolls first
    moments = _run(_Job(starts, 1, key, settings), evaluator, workers, chunk, target_se, progress)
    results = [_result(moments, index, key) for index in range(len(best))]
    leader = max(range(len(best)), key=lambda index: (results[index].equity.mean, -index))
    ranked = sorted(range(len(best)), key=lambda index: (-results[index].equity.mean, index))
    return tuple(
        PlayRollout(
            plays[int(best[index])],
            results[index],
            moments.difference(_equity_column(index), _equity_column(leader)),
        )
        for index in ranked
    )


def quasi_random_dice(key: int, first: int, count: int) -> IntArray:
    """The first two rolls of trials ``first .. first + count - 1``: an array (count, 2, 2) of dice.

    >>> dice = quasi_random_dice(7, 0, 1296)
    >>> len({(a, b) for a, b in dice[:36, 0].tolist()}), len({d.tobytes() for d in dice})
    (36, 1296)
    """
    trials = np.arange(first, first + count, dtype=np.int64)
    first_roll = _shuffled(subkey(key, _FIRST_ROLL), trials // BLOCK, trials % BLOCK)
    second_roll = _shuffled(subkey(key, _SECOND_ROLL), trials // BLOCK**2, (trials // BLOCK) % BLOCK)
    rolls = np.stack([first_roll, second_roll], axis=1)
    return np.stack([rolls // 6 + 1, rolls % 6 + 1], axis=2).astype(np.int8)


def _shuffled(key: int, block: npt.NDArray[np.int64], place: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The roll (0-35) at ``place`` of each ``block``'s keyed shuffle of the 36 rolls."""
    blocks, row = np.unique(block, return_inverse=True)
    order = np.argsort(keyed(key, blocks[:, None], np.arange(BLOCK)[None, :]), axis=1, kind="stable")
    shuffled: npt.NDArray[np.int64] = order[row.reshape(-1), place]
    return shuffled


def _checked(position: Position, settings: RolloutSettings) -> Position:
    if position.checkers != settings.variant.checkers:
        raise RolloutError(
            _("the position has {count} checkers a side, {variant} is played with {checkers}").format(
                count=position.checkers, variant=settings.variant.name, checkers=settings.variant.checkers
            )
        )
    return position


# --- the trials -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Job:
    """What to roll out: positions seen from seat 0 (on roll), counted for player ``root``, and how."""

    starts: IntArray
    root: int
    key: int
    settings: RolloutSettings


def _equity_column(play_index: int) -> int:
    return play_index * COLUMNS + OUTPUTS


def _chunk_moments(job: _Job, evaluator: Evaluator, first: int, count: int) -> Moments:
    """The moments of trials ``first .. first + count - 1`` of every start, block by block."""
    judge = evaluator.for_variant(job.settings.variant)
    blocks = [
        _block(job, judge, begin, min(begin + BLOCK, first + count) - begin)
        for begin in range(first, first + count, BLOCK)
    ]
    values = np.concatenate(blocks).reshape(count, len(job.starts) * COLUMNS)
    pairs = combinations([_equity_column(index) for index in range(len(job.starts))], 2)
    return Moments.of(values, pairs)


def _block(job: _Job, evaluator: Evaluator, first: int, count: int) -> FloatArray:
    """Each trial's five outcomes and equity for each start: an array (count, starts, 6)."""
    settings, variant = job.settings, job.settings.variant
    outcomes = np.empty((len(job.starts), count, OUTPUTS), dtype=np.float64)
    over = game_over(job.starts)
    if over.any():  # a finished game is its exact result, every trial
        exact = exact_probabilities(game_points(job.starts[over], variant.scoring), variant)
        outcomes[over] = _seen_by(job.root, np.zeros(int(over.sum()), np.int8), exact)[:, None, :]
    live = np.flatnonzero(~over)
    if len(live):
        games = len(live) * count
        policy: Policy = SearchPolicy(evaluator, 1)
        if settings.plies == 0:
            policy = LookAheadPolicy(evaluator) if settings.variance_reduction else GreedyPolicy.of(evaluator)
        dice = quasi_random_dice(job.key, first, count) if settings.quasi_random else None
        final = np.zeros((games, OUTPUTS), dtype=np.float64)
        luck = np.zeros((games, OUTPUTS), dtype=np.float64)
        for step in play(
            policy,
            games,
            job.key,
            variant=variant,
            start=np.repeat(job.starts[live], count, axis=0),
            opening=False,
            streams=np.tile(np.arange(first, first + count), len(live)),
            dice=None if dice is None else np.tile(dice, (len(live), 1, 1)),
            stop_after=settings.truncation,
            parallel=games,
        ):
            if settings.variance_reduction:
                luck[step.game] += _luck(step, policy, evaluator, job.root)
            ended = step.over
            final[step.game[ended]] = _seen_by(
                job.root, step.player[ended], exact_probabilities(step.points[ended], variant)
            )
            if settings.truncation is not None:
                cut = ~ended & (step.turn == settings.truncation - 1)
                judged = evaluator.evaluate(flip_array(step.after[cut]))  # for the opponent, on roll next
                final[step.game[cut]] = _seen_by(job.root, 1 - step.player[cut], judged)
        outcomes[live] = (final - luck).reshape(len(live), count, OUTPUTS)
    equity = evaluator.equity(outcomes.reshape(-1, OUTPUTS)).astype(np.float64).reshape(outcomes.shape[:2])
    return np.concatenate([outcomes, equity[:, :, None]], axis=2).transpose(1, 0, 2)


def _luck(step: Step, policy: Policy, evaluator: Evaluator, root: int) -> FloatArray:
    """The luck of each game's roll at ``step``, seen by player ``root`` (0 where no dice were rolled).

    The 0-ply chances after the roll's best play at 0-ply, less their mean
    over the 21 rolls; at 0-ply the policy's own play is that best play.
    """
    luck = np.zeros((len(step), OUTPUTS), dtype=np.float64)
    rolled = np.flatnonzero((step.dice > 0).all(axis=1))  # an Acey-Deucey player choosing a double rolls none
    if not len(rolled):
        return luck
    if isinstance(policy, LookAheadPolicy):  # it looked at every roll to choose: the mean is known
        actual, mean = policy.mover_probabilities(step.chosen[rolled]), policy.means[rolled]
    elif isinstance(policy, GreedyPolicy):
        actual = policy.mover_probabilities(step.chosen[rolled])
        mean = evaluate_ply(evaluator, step.boards[rolled], 1)
    else:
        judge = GreedyPolicy.of(evaluator)
        part = step.take(rolled)
        actual = judge.mover_probabilities(judge(part))
        mean = evaluate_ply(evaluator, step.boards[rolled], 1)
    player = step.player[rolled]
    luck[rolled] = _seen_by(root, player, actual).astype(np.float64) - _seen_by(root, player, mean)
    return luck


def _seen_by(root: int, player: npt.NDArray[np.int8], probabilities: npt.ArrayLike) -> FloatArray:
    """Probabilities for ``player`` (one per row) seen by player ``root``."""
    chances = np.asarray(probabilities, dtype=np.float32)
    mine = (np.asarray(player) == root)[:, None]
    seen: FloatArray = np.where(mine, chances, flip_probabilities(chances)).astype(np.float64)
    return seen


# --- chunks, processes and results ----------------------------------------------------------------------

_worker_evaluator: Evaluator | None = None


def _start_worker(evaluator: Evaluator) -> None:
    global _worker_evaluator
    _worker_evaluator = evaluator


def _worker_chunk(job: _Job, first: int, count: int) -> Moments:
    assert _worker_evaluator is not None, "the worker was started without an evaluator"
    return _chunk_moments(job, _worker_evaluator, first, count)


def _run(
    job: _Job,
    evaluator: Evaluator,
    workers: int,
    chunk: int,
    target_se: float | None,
    progress: Progress | None,
) -> Moments:
    """Play the job's trials chunk by chunk, merging the chunks in order; stop early at ``target_se``."""
    if workers < 1:
        raise RolloutError(_("a rollout runs in 1 process or more, not {value}").format(value=workers))
    if chunk < BLOCK or chunk % BLOCK:
        raise RolloutError(
            _("a chunk is a multiple of {block} trials, not {value}").format(block=BLOCK, value=chunk)
        )
    if target_se is not None and not target_se > 0:
        raise RolloutError(
            _("the target standard error is a positive number, not {value}").format(value=target_se)
        )
    trials = job.settings.trials
    chunks = [(first, min(chunk, trials - first)) for first in range(0, trials, chunk)]
    done: list[Moments] = []

    def enough(moments: Moments) -> bool:
        done[:] = [merge([*done, moments])]
        best = max(range(len(job.starts)), key=lambda index: done[0].estimate(_equity_column(index)).mean)
        equity = done[0].estimate(_equity_column(best))
        if progress is not None:
            progress(done[0].count, equity)
        return target_se is not None and equity.standard_error < target_se

    if workers == 1:
        for first, count in chunks:
            if enough(_chunk_moments(job, evaluator, first, count)):
                break
        return done[0]
    context = multiprocessing.get_context("spawn")  # no fork of a process whose BLAS runs threads
    with ProcessPoolExecutor(workers, context, initializer=_start_worker, initargs=(evaluator,)) as pool:
        futures = [pool.submit(_worker_chunk, job, first, count) for first, count in chunks]
        for future in futures:
            if enough(future.result()):
                break
        for future in futures:
            future.cancel()
    return done[0]


def _result(moments: Moments, play_index: int, key: int) -> RolloutResult:
    base = play_index * COLUMNS
    return RolloutResult(
        tuple(moments.estimate(base + output) for output in range(OUTPUTS)),
        moments.estimate(base + OUTPUTS),
        moments.count,
        key,
    )
