"""A fast game loop for bots: cubeless money games over position arrays.

A bot here is a :class:`Chooser`: shown the position before a play and every
legal result (each row of :func:`tavola.movegen.generate`'s ``results``,
seen from the mover), it returns the index of the row it plays. The loop
keeps no :class:`~tavola.game.Game` or :class:`~tavola.play.Play` objects:
each turn is one ``generate`` call and the chooser's own work.

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
import secrets
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from tavola.bot.evaluate import Evaluator
from tavola.bot.pubeval import PubEval
from tavola.dice import Dice
from tavola.movegen import generate
from tavola.play import Play
from tavola.position import (
    ARRAY_SIZE,
    CHECKERS,
    MY_BAR,
    MY_OFF,
    MY_WAITING,
    THEIR_BAR,
    THEIR_OFF,
    THEIR_WAITING,
    Position,
)

IntArray = npt.NDArray[np.int8]

MAX_PLIES = 100_000
"""A game still going after this many turns means a broken chooser or generator."""
_DICE_BLOCK = 256  # dice drawn from the generator at a time

_START = Position.start().to_array().copy()
_START.flags.writeable = False


def _flip_tables() -> tuple[npt.NDArray[np.intp], IntArray]:
    """:func:`~tavola.position.flip_array` as one gather and one sign change, faster on a single row."""
    index = np.arange(ARRAY_SIZE)
    index[1:25] = np.arange(24, 0, -1)
    for mine, theirs in ((MY_OFF, THEIR_OFF), (MY_BAR, THEIR_BAR), (MY_WAITING, THEIR_WAITING)):
        index[[mine, theirs]] = theirs, mine
    sign = np.ones(ARRAY_SIZE, dtype=np.int8)
    sign[1:25] = -1
    return index, sign


_FLIP_INDEX, _FLIP_SIGN = _flip_tables()


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


class RandomChooser:
    """Plays a uniformly random legal result, drawn from its own generator.

    >>> RandomChooser(np.random.default_rng(3)).choose(_START, np.zeros((4, 30), dtype=np.int8))
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


class _Dice:
    """The dice of one game: die after die from a generator, drawn in blocks."""

    __slots__ = ("_block", "_next", "_rng")

    def __init__(self, rng: np.random.Generator) -> None:
        self._rng = rng
        self._block: list[int] = []
        self._next = 0

    def die(self) -> int:
        if self._next == len(self._block):
            self._block = self._rng.integers(1, 7, size=_DICE_BLOCK).tolist()
            self._next = 0
        self._next += 1
        return self._block[self._next - 1]

    def opening(self) -> tuple[int, int]:
        """Player 0's die and player 1's, re-rolled until they differ (R4)."""
        while True:
            die0, die1 = self.die(), self.die()
            if die0 != die1:
                return die0, die1


def win_points(after: IntArray) -> int:
    """The points a play that bears off the mover's last checker wins: 1, 2 or 3 (R19).

    ``after`` is the final position, seen from the winner. A gammon when the
    loser has borne off nothing, a backgammon when the loser also has a
    checker on the bar or in the winner's home board.

    >>> win_points(Position([-15] + [0] * 23, off=(15, 0)).to_array())
    3
    """
    if after[THEIR_OFF] > 0:
        return 1
    if after[THEIR_BAR] > 0 or (after[1:7] < 0).any():
        return 3
    return 2


def play_game(chooser0: Chooser, chooser1: Chooser, rng: np.random.Generator) -> int:
    """Play one cubeless money game; return player 0's points (+-1, 2 or 3).

    The dice come from ``rng`` only: the opening roll (R4: player 0's die,
    then player 1's, again while they tie; the higher plays both), then two
    dice a turn. The same generator state gives the same dice, whoever plays.

    >>> from tavola.bot.pubeval import PubEval
    >>> play_game(PubEval(), PubEval(), np.random.default_rng(7))
    -1
    """
    return _play(chooser0, chooser1, rng)[0]


def _play(chooser0: Chooser, chooser1: Chooser, rng: np.random.Generator) -> tuple[int, int]:
    """Player 0's points and the number of turns played."""
    dice = _Dice(rng)
    choosers = (chooser0, chooser1)
    die0, die1 = dice.opening()
    player = 0 if die0 > die1 else 1
    board = _START
    for plies in range(1, MAX_PLIES + 1):
        results, _ = generate(board, die0, die1)
        index = 0 if len(results) == 1 else choosers[player].choose(board, results)
        after = results[index]
        if after[MY_OFF] == CHECKERS:
            points = win_points(after)
            return (points if player == 0 else -points), plies
        board = after[_FLIP_INDEX] * _FLIP_SIGN
        player ^= 1
        die0, die1 = dice.die(), dice.die()
    raise RuntimeError(f"a game went on for {MAX_PLIES} turns without ending")


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
    a: Chooser, b: Chooser, games: int, seed: int | None = None, *, progress: bool = False
) -> Result:
    """Play ``games`` dice sequences twice each, ``a`` as player 0 then as player 1.

    That is ``2 * games`` games. Dice sequence ``k`` comes from
    ``np.random.default_rng((seed, 0, k))`` (a seed drawn from the OS when
    ``seed`` is ``None``, kept in the result), so both games of a pair see
    the same opening roll and the same dice turn by turn, and a sequence does
    not depend on how many came before.

    >>> from tavola.bot.pubeval import PubEval
    >>> duplicate_match(PubEval(), PubEval(), games=3, seed=5).points_per_game
    0.0
    """
    if games < 0:
        raise ValueError(f"games is a number of dice sequences, not {games}")
    root = secrets.randbits(64) if seed is None else seed
    points = np.zeros((games, 2), dtype=np.int64)
    plies = 0
    began = time.perf_counter()
    with _progress_bar(progress, games) as advance:
        for k in range(games):
            for seat, (first, second) in enumerate(((a, b), (b, a))):
                score, turns = _play(first, second, np.random.default_rng((root, 0, k)))
                points[k, seat] = score if seat == 0 else -score
                plies += turns
            advance()
    return Result(points, plies, time.perf_counter() - began, root)


@contextmanager
def _progress_bar(shown: bool, total: int) -> Iterator[Callable[[], None]]:
    """A rich progress bar over the dice sequences of a match (or nothing): yields a step function."""
    if not shown:
        yield lambda: None
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
        yield lambda: bar.advance(task)
