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
* :func:`rollout_positions` rolls out many positions side by side, each
  for its player on roll, cubeless and for money, and gives only each
  one's mean chances (training targets).

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

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from itertools import combinations

import numpy as np
import numpy.typing as npt

from tavola.analysis.cubeful import CubeTerms, Tracks, outcome_value
from tavola.analysis.stats import Estimate, Moments, merge
from tavola.bot.context import CubeContext
from tavola.bot.cube import CENTRED, CubeAction, CubeDecision, CubeResponse, decide
from tavola.bot.evaluate import Evaluator, exact_probabilities
from tavola.bot.levels import ROLLOUT_LEVEL, Level
from tavola.bot.network import OUTPUTS, flip_probabilities
from tavola.bot.policies import GreedyPolicy, LookAheadPolicy
from tavola.bot.search import SearchPolicy, evaluate_ply, judge_plays
from tavola.cube import Cube
from tavola.dice import Dice
from tavola.distribute import Spread
from tavola.errors import TavolaError
from tavola.gameover import game_over, game_points
from tavola.i18n import _
from tavola.match import MatchScore
from tavola.play import Play
from tavola.position import ARRAY_SIZE, Position, flip_array
from tavola.rules import Rules
from tavola.selfplay import Policy, Step, key_of, keyed, play, subkey
from tavola.variants import STANDARD, Variant

IntArray = npt.NDArray[np.int8]
FloatArray = npt.NDArray[np.float64]

BLOCK = 36
"""Trials played by one call of the self-play kernel: one turn of the quasi-random first roll."""
CHUNK = 2 * BLOCK
"""Trials a chunk holds by default: between chunks a rollout reports progress and may stop early."""
_FIRST_ROLL, _SECOND_ROLL = 1, 2  # the quasi-random shuffles' own keys (selfplay.subkey)


class RolloutError(TavolaError):
    """Rollout settings or a request that cannot be rolled out."""


@dataclass(frozen=True)
class RolloutSettings:
    """How to roll out: the trials, where to stop, how the bot plays, and the dice.

    ``truncation`` is ``None`` (play every game to its end) or a number of
    plays, after which the evaluator's cubeless judgement is the result;
    ``level`` is the level of :mod:`tavola.bot.levels` whose depth (0 or 1
    ply, without noise) and move filter choose the bot's plays, by their
    cubeless equity;
    ``seed`` keys the dice (``None``: drawn from the OS for each rollout,
    and given back in the result).

    With ``cubeful`` each trial carries a cube (see
    :mod:`tavola.analysis.cubeful`): ``cube`` as it is at the start, its
    owner 0 the player the rollout is counted for (on roll, or who plays)
    and 1 the opponent; ``match`` the score seen by that player (``None``:
    money); ``rules`` the cube's rules (the Jacoby rule, beavers; in a
    match the Crawford rule). A match's results are also given as match
    winning chances, cubeful or not.

    >>> RolloutSettings(trials=0)
    Traceback (most recent call last):
    ...
    tavola.analysis.rollout.RolloutError: a rollout plays at least 1 trial, not 0
    >>> from tavola.bot.levels import level
    >>> RolloutSettings(level=level("casual"))
    Traceback (most recent call last):
    ...
    tavola.analysis.rollout.RolloutError: a rollout plays at 0 or 1 ply without noise, not at casual (...)
    """

    trials: int = 1296
    truncation: int | None = None
    level: Level = ROLLOUT_LEVEL
    variance_reduction: bool = True
    quasi_random: bool = True
    seed: int | None = None
    variant: Variant = STANDARD
    cubeful: bool = False
    cube: Cube = field(default_factory=Cube)
    match: MatchScore | None = None
    rules: Rules = field(default_factory=Rules)

    def __post_init__(self) -> None:
        if self.trials < 1:
            raise RolloutError(_("a rollout plays at least 1 trial, not {value}").format(value=self.trials))
        if self.truncation is not None and self.truncation < 1:
            raise RolloutError(
                _("a rollout is truncated after 1 play or more, not {value}").format(value=self.truncation)
            )
        if self.level.plies not in (0, 1) or self.level.noise:
            raise RolloutError(
                _("a rollout plays at 0 or 1 ply without noise, not at {level} ({title})").format(
                    level=self.level.name, title=self.level.title
                )
            )
        if self.cubeful and not self.variant.cube:
            raise RolloutError(
                _("{variant} is played without the doubling cube: its rollouts are cubeless").format(
                    variant=self.variant.name
                )
            )
        if self.cubeful and not self.rules.cube:
            raise RolloutError(_("these rules have no doubling cube: their rollouts are cubeless"))
        if self.match is not None:
            self.rules.check_for_match()
            self.rules.check_for_variant(self.variant)

    def terms(self) -> CubeTerms | None:
        """How the cube is judged, where the rollout is cubeful or in a match."""
        if not self.cubeful and self.match is None:
            return None
        return CubeTerms(CubeContext.at_score(self.match, self.cube, self.rules, self.variant))


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
    mwc: Estimate | None = None
    cubeful: Cubeful | None = None
    normalised: Cubeful | None = None

    @property
    def deciding(self) -> Estimate:
        """The figure that ranks and stops: the cubeful equity of the right action (normalised in a
        match), its error the larger of no double's and double/take's; the cubeless equity otherwise."""
        figures = self.normalised or self.cubeful
        if figures is None:
            return self.equity
        errors = [figures.no_double.standard_error]
        if figures.double_take is not None:
            errors.append(figures.double_take.standard_error)
        return Estimate(figures.equity.mean, max(errors))


@dataclass(frozen=True)
class Cubeful:
    """The cubeful figures of a rollout, for the player it is counted for.

    For money in points per unit of the cube at the start (a dropped double
    is +1), in a match as match winning chances (or, in
    :attr:`RolloutResult.normalised`, the same as equities: +1 a single
    win at the cube, -1 a single loss). Before the roll: ``no_double``,
    ``double_take`` and ``double_pass`` (exact: its error is 0), double/take
    less no double trial by trial (``take_less_no_double``, both on the same
    dice), and the cube model's ``decision`` from the rolled-out equities.
    For a play, ``no_double`` is its cubeful equity, the cube as given.
    """

    no_double: Estimate
    double_take: Estimate | None = None
    double_pass: Estimate | None = None
    take_less_no_double: Estimate | None = None
    decision: CubeDecision | None = None

    @property
    def equity(self) -> Estimate:
        """The equity of the right action: no double, or the double as it is answered."""
        decision = self.decision
        if decision is None or decision.action is not CubeAction.DOUBLE or self.double_take is None:
            return self.no_double
        if decision.response is CubeResponse.DROP and self.double_pass is not None:
            return self.double_pass
        if decision.response is CubeResponse.BEAVER and decision.double_beaver is not None:
            kept = decision.double_beaver == 2 * self.double_take.mean  # the doubler did not drop it
            error = 2 * self.double_take.standard_error if kept else 0.0
            return Estimate(decision.double_beaver, error)
        return self.double_take


@dataclass(frozen=True)
class PlayRollout:
    """One play's rollout: its result, and its equity less the best play's, paired trial by trial.

    The equity is the cubeful one in a cubeful rollout (normalised in a
    match), else the cubeless one.
    """

    play: Play
    result: RolloutResult
    difference: Estimate


Progress = Callable[[int, Estimate], None]
"""Told after each chunk: the trials done so far and the running figure that decides
(:attr:`RolloutResult.deciding`, of the best play so far)."""


def rollout_position(
    position: Position,
    settings: RolloutSettings,
    evaluator: Evaluator,
    *,
    spread: Spread | None = None,
    chunk: int = CHUNK,
    target_se: float | None = None,
    progress: Progress | None = None,
) -> RolloutResult:
    """Roll out ``position`` before the roll, for the player on roll (see the module docstring).

    ``spread`` says where the chunks of ``chunk`` trials (a multiple of
    :data:`BLOCK`) are played (:class:`~tavola.distribute.Spread`: here by
    default, in processes or on Ray); with ``target_se`` the rollout stops
    after the first chunk at which the standard error of the figure that
    decides (:attr:`RolloutResult.deciding`) is below it (the chunks
    counted are always the first ones, so the result does not depend on
    the spread). A finished game's rollout is its exact result.

    Cubeful, the trials roll out no double and double/take on the same dice
    (double/take where the player on roll may double):

    >>> cubeful = RolloutSettings(trials=36, truncation=2, seed=1, cubeful=True)
    >>> found = rollout_position(Position.start(), cubeful, Evaluator.untrained(hidden=8, seed=1))
    >>> found.cubeful.double_pass, found.cubeful.decision is not None
    (Estimate(mean=1.0, standard_error=0.0), True)
    """
    key = key_of(settings.seed)
    start = _checked(position, settings).to_array()[None]
    terms = settings.terms()
    tracks: tuple[tuple[int, int], ...] = ()
    if settings.cubeful:
        assert terms is not None
        owner = _owner(settings.cube, root=0)
        tracks = ((settings.cube.value, owner),)
        if _may_double(terms, settings.cube.value, owner):
            tracks += ((2 * settings.cube.value, 1),)
    job = _Job(start, 0, key, settings, terms, tracks, first_decision=False)
    moments = _run(job, evaluator, spread or Spread(), chunk, target_se, progress)
    return _result(job, moments, 0)


def rollout_plays(
    position: Position,
    dice: Dice,
    settings: RolloutSettings,
    evaluator: Evaluator,
    n: int = 5,
    *,
    spread: Spread | None = None,
    chunk: int = CHUNK,
    target_se: float | None = None,
    progress: Progress | None = None,
) -> tuple[PlayRollout, ...]:
    """Roll out the best ``n`` plays of ``dice`` (by the bot at ``settings.level``) on the same dice.

    Returns them best first by their rolled-out equity (cubeful in a
    cubeful rollout, the cube as given), each with its difference to the
    best (see :func:`rollout_position` for the rest).

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
    best = judge_plays(judge, plays.results, settings.level.plies, settings.level.filter).order()[:n]
    starts = flip_array(plays.results[best])  # the opponent rolls first
    terms = settings.terms()
    tracks = ((settings.cube.value, _owner(settings.cube, root=1)),) if settings.cubeful else ()
    job = _Job(starts, 1, key, settings, terms, tracks, first_decision=True)
    moments = _run(job, evaluator, spread or Spread(), chunk, target_se, progress)
    results = [_result(job, moments, index) for index in range(len(best))]
    column = [job.layout.deciding(index) for index in range(len(best))]
    leader = max(range(len(best)), key=lambda index: (results[index].deciding.mean, -index))
    ranked = sorted(range(len(best)), key=lambda index: (-results[index].deciding.mean, index))
    return tuple(
        PlayRollout(
            plays[int(best[index])],
            results[index],
            job.normalised(moments.difference(column[index], column[leader]), difference=True),
        )
        for index in ranked
    )


def rollout_positions(boards: npt.ArrayLike, settings: RolloutSettings, evaluator: Evaluator) -> FloatArray:
    """The cubeless money rollout of each of ``boards``, all played side by side: (N, 5) mean outcomes.

    Each board (seen from the player on roll, before the roll) is rolled out
    on its own, for the player on roll, as :func:`rollout_position` would,
    but every board's trials are played by the same runs of the self-play
    kernel, one block of :data:`BLOCK` trials at a time, so many positions
    (training targets) cost little more than one. Trial ``t`` of every board
    is played on the same dice, and each board's means are those of
    :func:`rollout_position` with the same settings (``seed=None`` draws the
    dice's key from the OS and does not give it back: pass a seed to repeat
    a call). The memory taken grows with the boards times :data:`BLOCK`:
    give a few hundred boards a call.

    >>> from tavola.bot.evaluate import Evaluator
    >>> settings = RolloutSettings(trials=36, truncation=2, seed=1)
    >>> evaluator = Evaluator.untrained(hidden=8, seed=1)
    >>> start = Position.start()
    >>> means = rollout_positions(np.stack([start.to_array()] * 2), settings, evaluator)
    >>> alone = rollout_position(start, settings, evaluator).probabilities
    >>> means.shape, bool(np.allclose(means[1], [estimate.mean for estimate in alone]))
    ((2, 5), True)
    """
    if settings.cubeful or settings.match is not None:
        raise RolloutError(_("positions rolled out side by side are rolled out cubeless, for money"))
    given = np.asarray(boards)
    if given.ndim != 2 or given.shape[1] != ARRAY_SIZE:
        raise RolloutError(
            _("positions to roll out are an array of shape (N, {size}), not {shape}").format(
                size=ARRAY_SIZE, shape=given.shape
            )
        )
    if given.size and not np.issubdtype(given.dtype, np.integer):
        raise RolloutError(
            _("positions to roll out hold counts of checkers, not values of type {kind}").format(
                kind=given.dtype
            )
        )
    outside = given[(given < np.iinfo(np.int8).min) | (given > np.iinfo(np.int8).max)]
    if outside.size:
        raise RolloutError(
            _("positions to roll out hold counts of checkers, not {value}").format(value=int(outside[0]))
        )
    array = np.ascontiguousarray(given, dtype=np.int8)
    for index, board in enumerate(array):
        try:
            Position.from_array(board, checkers=settings.variant.checkers)
        except TavolaError as error:
            raise RolloutError(_("board {index}: {error}").format(index=index, error=error)) from error
    if not len(array):
        return np.zeros((0, OUTPUTS), dtype=np.float64)
    job = _Job(array, 0, key_of(settings.seed), settings)
    trials = _trials(job, evaluator.for_variant(settings.variant), 0, settings.trials)
    means: FloatArray = trials[:, :, :OUTPUTS].mean(axis=0)
    return means


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


def _owner(cube: Cube, root: int) -> int:
    """The cube's owner as a player of the kernel (or CENTRED), from its owner seen by player ``root``."""
    if cube.owner is None:
        return CENTRED
    return root if cube.owner == 0 else 1 - root


def _may_double(terms: CubeTerms, value: int, owner: int) -> bool:
    """Whether the player on roll (player 0) may double this cube now: the cube model's own rule."""
    found = terms.decisions(
        np.array([[0.5, 0.0, 0.0, 0.0, 0.0]]), np.array([value]), np.array([owner]), np.array([0]), 0,
        np.ones(1),
    )  # fmt: skip
    return bool(found.response[0] >= 0)


@dataclass(frozen=True)
class _Layout:
    """Where each figure of each start sits in a trial's row of values."""

    starts: int
    match: bool
    tracks: int
    cubeful_ranks: bool

    @property
    def width(self) -> int:
        """Values per start: the five outcomes, the cubeless equity, [the cubeless MWC], the tracks."""
        return OUTPUTS + 1 + int(self.match) + self.tracks

    def equity(self, start: int) -> int:
        return start * self.width + OUTPUTS

    def mwc(self, start: int) -> int:
        return start * self.width + OUTPUTS + 1

    def track(self, start: int, track: int) -> int:
        return start * self.width + OUTPUTS + 1 + int(self.match) + track

    def deciding(self, start: int) -> int:
        """The column that ranks the starts: the first track's when cubeful, else the cubeless equity."""
        return self.track(start, 0) if self.cubeful_ranks else self.equity(start)

    def pairs(self) -> list[tuple[int, int]]:
        """The columns whose paired differences are wanted: the starts' ranking figures, the two tracks."""
        found = list(combinations([self.deciding(start) for start in range(self.starts)], 2))
        if self.tracks == 2:
            found.append((self.track(0, 0), self.track(0, 1)))
        return found


@dataclass(frozen=True)
class _Job:
    """What to roll out: positions seen from seat 0 (on roll), counted for player ``root``, and how.

    ``tracks`` are the cubes each trial carries at the start, (value,
    owner as a player or CENTRED); with ``first_decision`` the player on
    roll at the start may turn the cube at once.
    """

    starts: IntArray
    root: int
    key: int
    settings: RolloutSettings
    terms: CubeTerms | None = None
    tracks: tuple[tuple[int, int], ...] = ()
    first_decision: bool = True

    @property
    def layout(self) -> _Layout:
        match = self.settings.match is not None
        return _Layout(len(self.starts), match, len(self.tracks), bool(self.tracks))

    def normalised(self, estimate: Estimate, *, difference: bool = False) -> Estimate:
        """A cubeful figure in a match's winning chances as an equity (a ``difference`` of two only
        scaled); as it is elsewhere."""
        if not self.tracks or self.terms is None or self.terms.match is None:
            return estimate
        scale = self._to_equity(1.0) - self._to_equity(0.0)
        mean = scale * estimate.mean if difference else self._to_equity(estimate.mean)
        return Estimate(mean, abs(scale) * estimate.standard_error)

    def _to_equity(self, mwc: float) -> float:
        assert self.terms is not None
        assert self.terms.match is not None
        assert self.terms.table is not None
        away, score = self.terms.match.away, self.terms.match
        return self.terms.table.to_equity(mwc, away[0], away[1], self.terms.value, score.crawford)


@dataclass(frozen=True)
class _Shared:
    """What every chunk of a rollout needs, sent once to each process."""

    job: _Job
    evaluator: Evaluator


def _chunk(shared: _Shared, chunk: tuple[int, int]) -> Moments:
    """The moments of trials ``first .. first + count - 1`` of every start, block by block."""
    job, (first, count) = shared.job, chunk
    judge = shared.evaluator.for_variant(job.settings.variant)
    values = _trials(job, judge, first, count).reshape(count, len(job.starts) * job.layout.width)
    return Moments.of(values, job.layout.pairs())


def _trials(job: _Job, evaluator: Evaluator, first: int, count: int) -> FloatArray:
    """Each trial's figures for each start, trials ``first .. first + count - 1`` played block by
    block: an array (count, starts, width)."""
    blocks = [
        _block(job, evaluator, begin, min(begin + BLOCK, first + count) - begin)
        for begin in range(first, first + count, BLOCK)
    ]
    return np.concatenate(blocks)


def _block(job: _Job, evaluator: Evaluator, first: int, count: int) -> FloatArray:
    """Each trial's figures for each start (see :class:`_Layout`): an array (count, starts, width)."""
    settings, variant, root = job.settings, job.settings.variant, job.root
    outcomes = np.empty((len(job.starts), count, OUTPUTS), dtype=np.float64)
    cubeful = np.empty((len(job.starts), count, len(job.tracks)), dtype=np.float64)
    over = game_over(job.starts)
    if over.any():  # a finished game is its exact result, every trial
        exact = exact_probabilities(game_points(job.starts[over], variant.scoring), variant)
        seen = _seen_by(root, np.zeros(int(over.sum()), np.int8), exact)
        outcomes[over] = seen[:, None, :]
        for track, (value, owner) in enumerate(job.tracks):
            assert job.terms is not None
            values = job.terms.outcome_values(np.full(len(seen), value), np.full(len(seen), owner))
            cubeful[over, :, track] = outcome_value(seen, values)[:, None]
    live = np.flatnonzero(~over)
    if len(live):
        games = len(live) * count
        policy: Policy = SearchPolicy(evaluator, settings.level.plies, settings.level.filter)
        if settings.level.plies == 0:
            policy = LookAheadPolicy(evaluator) if settings.variance_reduction else GreedyPolicy.of(evaluator)
        dice = quasi_random_dice(job.key, first, count) if settings.quasi_random else None
        final = np.zeros((games, OUTPUTS), dtype=np.float64)
        luck = np.zeros((games, OUTPUTS), dtype=np.float64)
        tracks = None
        if job.tracks:
            assert job.terms is not None
            tracks = Tracks(job.terms, games, list(job.tracks), root, first_decision=job.first_decision)
        halt = np.zeros(games, dtype=bool)
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
            halt=halt,
            parallel=games,
        ):
            rolled = np.ones(len(step), dtype=bool)
            if tracks is not None:  # the cube before the roll; a game every cube has left stops here
                stopped, chances = tracks.before_roll(step, evaluator)
                final[step.game[stopped]] = _seen_by(root, step.player[stopped], chances)
                halt[step.game[stopped]] = True
                rolled = ~stopped
            roll_luck = np.zeros((len(step), OUTPUTS), dtype=np.float64)
            if settings.variance_reduction:
                roll_luck = _luck(step, policy, evaluator, root)
                luck[step.game[rolled]] += roll_luck[rolled]
            ended = step.over & rolled
            paid = _seen_by(root, step.player[ended], exact_probabilities(step.points[ended], variant))
            final[step.game[ended]] = paid
            cut = np.zeros(len(step), dtype=bool)
            judged = np.empty((0, OUTPUTS), dtype=np.float32)
            if settings.truncation is not None:
                cut = rolled & ~step.over & (step.turn == settings.truncation - 1)
                judged = evaluator.evaluate(flip_array(step.after[cut]))  # for the opponent, on roll next
                final[step.game[cut]] = _seen_by(root, 1 - step.player[cut], judged)
            if tracks is not None:
                tracks.after_roll(step, rolled, roll_luck, ended, paid, cut, judged)
        outcomes[live] = (final - luck).reshape(len(live), count, OUTPUTS)
        if tracks is not None:
            cubeful[live] = tracks.results().reshape(len(live), count, len(job.tracks))
    equity = evaluator.equity(outcomes.reshape(-1, OUTPUTS)).astype(np.float64).reshape(outcomes.shape[:2])
    columns = [outcomes, equity[:, :, None]]
    if settings.match is not None:
        assert job.terms is not None
        owner = _owner(settings.cube, root)
        flat = outcomes.reshape(-1, OUTPUTS)
        values = job.terms.outcome_values(np.full(len(flat), settings.cube.value), np.full(len(flat), owner))
        columns.append(outcome_value(flat, values).reshape(outcomes.shape[:2])[:, :, None])
    columns.append(cubeful)
    return np.concatenate(columns, axis=2).transpose(1, 0, 2)


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


# --- chunks and results -------------------------------------------------------------------------------


def _run(
    job: _Job,
    evaluator: Evaluator,
    spread: Spread,
    chunk: int,
    target_se: float | None,
    progress: Progress | None,
) -> Moments:
    """Play the job's trials chunk by chunk, merging the chunks in order; stop early at ``target_se``."""
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
    done: Moments | None = None
    results = spread.map(_chunk, _Shared(job, evaluator), chunks)
    try:
        for moments in results:
            done = moments if done is None else merge([done, moments])
            leader = max(
                (_result(job, done, index).deciding for index in range(len(job.starts))),
                key=lambda estimate: estimate.mean,
            )
            if progress is not None:
                progress(done.count, leader)
            if target_se is not None and leader.standard_error < target_se:
                break
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()  # the chunks not yet played are cancelled
    assert done is not None
    return done


def _result(job: _Job, moments: Moments, start: int) -> RolloutResult:
    layout = job.layout
    base = start * layout.width
    match = job.settings.match is not None
    cubeful = _cubeful(job, moments, start) if job.tracks else None
    return RolloutResult(
        tuple(moments.estimate(base + output) for output in range(OUTPUTS)),
        moments.estimate(layout.equity(start)),
        moments.count,
        job.key,
        moments.estimate(layout.mwc(start)) if match else None,
        cubeful,
        _normalised(job, cubeful) if cubeful is not None and match else None,
    )


def _cubeful(job: _Job, moments: Moments, start: int) -> Cubeful:
    """The cubeful figures of one start: a play's, or no double, double/take and double/pass."""
    layout, terms = job.layout, job.terms
    assert terms is not None
    no_double = moments.estimate(layout.track(start, 0))
    if len(job.tracks) < 2:
        if job.first_decision:  # a play's cubeful equity
            return Cubeful(no_double)
        decision = decide(no_double.mean, np.nan, np.nan, terms.rules, match=terms.match is not None,
                          may_double=False)  # fmt: skip
        return Cubeful(no_double, decision=_decision(job, decision.row(0, match=terms.match is not None)))
    double_take = moments.estimate(layout.track(start, 1))
    value, owner = job.tracks[0]
    dropped = float(terms.outcome_values(np.array([value]), np.array([owner]))[0, 0])
    found = decide(no_double.mean, double_take.mean, dropped, terms.rules, match=terms.match is not None)
    return Cubeful(
        no_double,
        double_take,
        Estimate(dropped, 0.0),
        moments.difference(layout.track(start, 1), layout.track(start, 0)),
        _decision(job, found.row(0, match=terms.match is not None)),
    )


def _decision(job: _Job, decision: CubeDecision) -> CubeDecision:
    """The decision, a redouble where the player on roll owns the cube."""
    return replace(decision, redouble=job.settings.cube.owner == 0)


def _normalised(job: _Job, figures: Cubeful) -> Cubeful:
    """A match's cubeful figures as equities (+1 a single win at the cube, -1 a single loss)."""

    def each(estimate: Estimate | None) -> Estimate | None:
        return None if estimate is None else job.normalised(estimate)

    difference = figures.take_less_no_double
    if difference is not None:
        difference = job.normalised(difference, difference=True)
    decision = figures.decision
    if decision is not None:
        decision = replace(
            decision,
            no_double=job.normalised(Estimate(decision.no_double, 0.0)).mean,
            double_take=None
            if decision.double_take is None
            else job.normalised(Estimate(decision.double_take, 0)).mean,
            double_pass=None
            if decision.double_pass is None
            else job.normalised(Estimate(decision.double_pass, 0)).mean,
            double_beaver=None,
            match=False,
        )
    return Cubeful(
        job.normalised(figures.no_double), each(figures.double_take), each(figures.double_pass), difference,
        decision,
    )  # fmt: skip
