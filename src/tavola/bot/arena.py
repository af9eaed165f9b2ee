"""Bots against bots: cubeless money games with duplicate dice, through the self-play kernel.

A bot here is a :class:`Chooser`: shown the position before a play and every
legal result (each row of :func:`tavola.movegen.generate`'s ``results``,
seen from the mover), it returns the index of the row it plays. The games
themselves are played by :func:`tavola.selfplay.play`, many at once, each
bot as a batched policy (:func:`policy_for`): the shipped networks, the
search, pubeval and random play choose for all their games in one call a
step; any other chooser is asked game by game.

* :func:`play_game` plays one game from the opening roll (R4) and returns
  player 0's points: 1, 2 or 3 for a single game, a gammon or a backgammon
  (R19), negative when player 1 wins.
* :func:`duplicate_match` plays each of ``games`` dice sequences twice, once
  from each seat, and returns a :class:`Result`: points per game for the
  first bot with its standard error over the pairs. Duplicate dice take out
  most of the luck, so far fewer games give the same precision.
* :data:`CHOOSERS` names the bots the benchmarks know (``pubeval``,
  ``random``, and ``tavola``: the shipped networks at 0-ply).

>>> from tavola.bot.pubeval import PubEval
>>> result = duplicate_match(PubEval(), RandomChooser(np.random.default_rng(1)), games=5, seed=1)
>>> result.games, result.points_per_game > 0
(10, True)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from tavola.bot.evaluate import Evaluator
from tavola.bot.policies import GreedyPolicy, PubEvalPolicy
from tavola.bot.pubeval import PubEval
from tavola.bot.search import SearchChooser, SearchPolicy
from tavola.dice import Dice
from tavola.play import Play
from tavola.position import Position
from tavola.selfplay import ChooserPolicy, Policy, RandomPolicy, Step, key_of, outcomes, play
from tavola.variants import STANDARD, Variant

IntArray = npt.NDArray[np.int8]


class Chooser(Protocol):
    """Anything that picks one play out of the legal results."""

    def choose(self, before: IntArray, results: IntArray) -> int:
        """The index of the chosen row of ``results``.

        ``before`` is the position on roll and ``results`` every legal
        position after the play, one row each, both seen from the mover (the
        layout of :meth:`Position.to_array`). A chooser is asked only when
        there are at least two rows.
        """
        ...


@runtime_checkable
class HasPolicy(Protocol):
    """A chooser that is also, or has, a batched policy of the self-play kernel."""

    def as_policy(self) -> Policy:
        """The policy that plays this chooser's choices, many games at once."""
        ...


class RandomChooser:
    """Plays a uniformly random legal result, drawn from its own generator.

    >>> RandomChooser(np.random.default_rng(3)).choose(np.zeros(30, np.int8), np.zeros((4, 30), np.int8))
    3
    """

    __slots__ = ("rng",)

    def __init__(self, rng: np.random.Generator | None = None) -> None:
        self.rng = rng if rng is not None else np.random.default_rng()

    def choose(self, before: IntArray, results: IntArray) -> int:
        return int(self.rng.integers(len(results)))

    def __repr__(self) -> str:
        return "RandomChooser()"


ChooserFactory = Callable[[np.random.Generator], Chooser]
"""Makes a chooser; the generator is its own, for choosers that need randomness."""

CHOOSERS: dict[str, ChooserFactory] = {
    "pubeval": lambda rng: PubEval(),
    "random": RandomChooser,
    "tavola": lambda rng: Evaluator.default(),
}
"""The bots by name, for the benchmarks; add new ones here (or register them at run time)."""


def make_chooser(name: str, seed: int | Sequence[int] | None = None) -> Chooser:
    """The chooser called ``name`` in :data:`CHOOSERS`, its randomness seeded with ``seed``.

    >>> make_chooser("pubeval")
    PubEval()
    >>> make_chooser("gnubg")
    Traceback (most recent call last):
    ...
    KeyError: "no chooser called 'gnubg'; known: pubeval, random, tavola"
    """
    if name not in CHOOSERS:
        raise KeyError(f"no chooser called {name!r}; known: {', '.join(sorted(CHOOSERS))}")
    return CHOOSERS[name](np.random.default_rng(seed))


def choose_play(chooser: Chooser, position: Position, dice: Dice) -> Play:
    """The play ``chooser`` makes with ``dice`` in ``position``, as a :class:`~tavola.play.Play`.

    >>> str(choose_play(PubEval(), Position.start(), Dice(6, 1)))
    '13/7 8/7'
    """
    plays = position.legal_plays(dice)
    if len(plays) == 1:
        return plays[0]
    results = np.stack([play.after.to_array() for play in plays])
    return plays[chooser.choose(position.to_array(), results)]


def policy_for(chooser: Chooser) -> Policy:
    """``chooser`` as a batched policy of :mod:`tavola.selfplay`, its randomness keyed from its own generator.

    A chooser that brings its own batched policy (:class:`HasPolicy`) plays through it.

    >>> policy_for(PubEval())  # doctest: +ELLIPSIS
    <tavola.bot.policies.PubEvalPolicy object at ...>
    """
    if isinstance(chooser, HasPolicy):
        return chooser.as_policy()
    if isinstance(chooser, Evaluator):
        return GreedyPolicy.of(chooser)
    if isinstance(chooser, PubEval):
        return PubEvalPolicy(chooser)
    if isinstance(chooser, SearchChooser):
        key = key_of(chooser.rng)
        return SearchPolicy(chooser.evaluator, chooser.plies, chooser.filter, chooser.noise, key)
    if isinstance(chooser, RandomChooser):
        return RandomPolicy(key_of(chooser.rng))
    return ChooserPolicy(chooser)


def play_game(
    chooser0: Chooser, chooser1: Chooser, seed: int | np.random.Generator | None = None, *, stream: int = 0
) -> int:
    """Play one cubeless money game; return player 0's points (+-1, 2 or 3).

    The dice are dice stream ``stream`` of the key ``seed`` (see
    :mod:`tavola.selfplay`): the opening roll (R4: player 0's die, then
    player 1's, again while they tie; the higher plays both), then two
    dice a turn. The same seed and stream give the same dice, whoever plays.

    >>> from tavola.bot.pubeval import PubEval
    >>> play_game(PubEval(), PubEval(), 7) in (-3, -2, -1, 1, 2, 3)
    True
    """
    players = (policy_for(chooser0), policy_for(chooser1))
    return int(outcomes(play(players, 1, key_of(seed), streams=[stream]), 1).points[0])


@dataclass(frozen=True)
class Result:
    """What a duplicate match gave, from the first bot's side.

    ``points`` holds the first bot's points in every game, the two games of a
    pair side by side (shape ``(pairs, 2)``): as player 0, then as player 1.
    ``plies`` counts the turns played in all games, ``seconds`` the time they
    took and ``seed`` the seed the dice came from (drawn when none was given).
    """

    points: npt.NDArray[np.int64]
    plies: int
    seconds: float
    seed: int

    @property
    def pairs(self) -> int:
        """Dice sequences played, each twice."""
        return len(self.points)

    @property
    def games(self) -> int:
        """Games played: twice :attr:`pairs`."""
        return self.points.size

    @property
    def points_per_game(self) -> float:
        return float(self.points.mean()) if self.games else math.nan

    @property
    def standard_error(self) -> float:
        """The standard error of :attr:`points_per_game`; each pair's mean is one sample."""
        if self.pairs < 2:
            return math.nan
        return float(self.points.mean(axis=1).std(ddof=1) / math.sqrt(self.pairs))

    @property
    def interval95(self) -> tuple[float, float]:
        """A 95% confidence interval for the points per game (normal approximation)."""
        half = 1.959964 * self.standard_error
        return self.points_per_game - half, self.points_per_game + half

    def rate(self, points: int) -> float:
        """The share of games the first bot ended with ``points`` (e.g. 2: won a gammon)."""
        return float((self.points == points).mean()) if self.games else math.nan

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else math.inf


def duplicate_match(
    a: Chooser,
    b: Chooser,
    games: int,
    seed: int | None = None,
    *,
    progress: bool = False,
    variant: Variant = STANDARD,
) -> Result:
    """Play ``games`` dice sequences twice each, ``a`` as player 0 then as player 1, in ``variant``.

    That is ``2 * games`` games. Dice sequence ``k`` is dice stream ``k`` of
    the key ``seed`` (drawn from the OS when ``None``, kept in the result),
    so both games of a pair see the same opening roll and the same dice
    turn by turn, and a sequence does not depend on how many came before.
    The games follow ``variant``'s rules and scoring; each bot judges as it
    was made (an :class:`Evaluator` made for another variant keeps its
    own judgement: give ``evaluator.for_variant(variant)`` to have it judge
    this variant's way).

    >>> from tavola.bot.pubeval import PubEval
    >>> duplicate_match(PubEval(), PubEval(), games=3, seed=5).points_per_game
    0.0
    """
    if games < 0:
        raise ValueError(f"games is a number of dice sequences, not {games}")
    root = key_of(seed)
    first = policy_for(a)
    players = (first, first if b is a else policy_for(b))  # one policy: one call a step
    streams = np.concatenate([np.arange(games), np.arange(games)])
    seating = np.repeat(np.array([0, 1], dtype=np.int8), games)  # a in seat 0, then b
    ended = np.zeros(2 * games, dtype=bool)
    began = time.perf_counter()
    with _progress_bar(progress, games) as update:

        def observe(step: Step) -> None:
            if step.over.any():
                ended[step.game[step.over]] = True
                update(int((ended[:games] & ended[games:]).sum()))

        steps = play(players, 2 * games, root, streams=streams, seating=seating, variant=variant)
        found = outcomes(steps, 2 * games, observe)
    points = found.points.reshape(2, games).T.copy()
    return Result(points, int(found.turns.sum()), time.perf_counter() - began, root)


@contextmanager
def _progress_bar(shown: bool, total: int) -> Iterator[Callable[[int], None]]:
    """A rich progress bar over the dice sequences of a match (or nothing): yields an update(pairs done)."""
    if not shown:
        yield lambda done: None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(TextColumn("dice sequences"), *columns) as bar:
        task = bar.add_task("pairs", total=total)
        yield lambda done: bar.update(task, completed=done)
