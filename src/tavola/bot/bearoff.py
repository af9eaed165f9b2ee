"""The one-sided bear-off database: exact roll distributions for checkers all in their home board.

A *one-sided* position is one side's checkers on its points 1-6, up to 15
of them (``C(21, 6) = 54,264`` positions, "all off" included), written as
six counts, the 1-point first. For each one the database holds

* the distribution of the number of rolls needed to bear off every checker,
  each roll played to minimise the expected number of rolls;
* the distribution of the number of rolls needed to bear off the first
  checker, each roll played to minimise the expected number of rolls to do
  that (what saves a gammon).

Both come from a dynamic programme over the positions in rank order (every
legal play lowers the rank, see :func:`rank`), with the legal plays of each
roll taken from Tavola's own compiled move generator, so the rules live in
one place. Two sides that no longer touch are independent, so a bear-off
:class:`~tavola.position.Position` gets its win and gammon chances from the
two one-sided distributions (:meth:`BearoffDatabase.evaluate`); like every
one-sided database this assumes each side plays its own optimal bear-off,
blind to the other side's position.

The data shipped in the package (``data/bearoff.npz``, 1.2 MB) was
written by ``python -m tavola.bot.bearoff --build``, which builds the whole
database (a few seconds) and writes it byte for byte the same on every run:
each distribution is stored as its non-zero window of uint16 values in
units of 1/65520 that add up to exactly 65520 (so loaded distributions add
up to 1 and are within 1/65520 of the exact ones; 65520 is a multiple of 36,
so the chances of a single roll are exact), next to the exact
expected numbers of rolls as float64. Loading it needs NumPy only;
:meth:`BearoffDatabase.build` computes exact distributions instead.

>>> database = default_database()
>>> database.rolls_distribution((0, 0, 0, 0, 0, 1))[:3]  # one on the 6-point: 21, 31, 32, 41, 11 fail
array([0.  , 0.75, 0.25])
>>> database.expected_rolls((0, 0, 0, 0, 0, 1))
1.25
>>> round(database.expected_rolls((0, 0, 0, 0, 0, 15)), 4)  # fifteen checkers on the 6-point
12.2662
"""

from __future__ import annotations

import argparse
import functools
import io
import math
import os
import sys
import time
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO

import numpy as np
import numpy.typing as npt
from numba import njit

from tavola.dice import ALL_ROLLS
from tavola.files import write_atomically
from tavola.movegen import MAX_SEQUENCES, Scratch, plays_into
from tavola.position import (
    ARRAY_SIZE,
    MY_BAR,
    MY_OFF,
    MY_WAITING,
    THEIR_BAR,
    THEIR_OFF,
    THEIR_WAITING,
    Position,
)

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

POINTS = 6
"""Points of a home board."""
MAX_CHECKERS = 15
"""Checkers in the full database."""
MAX_ROLLS = 32
"""Length of every distribution: index ``n`` is the probability of needing exactly ``n`` rolls."""
QUANTUM = 65520
"""Stored distributions are whole multiples of ``1 / QUANTUM`` that add up to 1 (65520 = 36 * 1820 fits
uint16 and makes every chance of one roll exact)."""
FORMAT = 1
"""Version of the stored file's layout."""
DATA_FILE = Path(__file__).parent / "data" / "bearoff.npz"
"""The database shipped in the package."""

WIN, WIN_GAMMON, WIN_BACKGAMMON, LOSE_GAMMON, LOSE_BACKGAMMON = range(5)
"""The columns of :meth:`BearoffDatabase.evaluate_batch`; gammons include backgammons."""

# C(n, k) for n <= 21, k <= 6: the combinatorial number system behind rank().
_BINOMIAL = np.array([[math.comb(n, k) for k in range(POINTS + 1)] for n in range(22)], dtype=np.int64)
_ROLLS = np.array(ALL_ROLLS, dtype=np.int64)
_WEIGHTS = np.array([1.0 if d.is_double else 2.0 for d in ALL_ROLLS])  # in 36ths
_TIE = 1e-12  # expectations this close count as equal; the lower rank wins, so the build is reproducible


def positions_count(max_checkers: int = MAX_CHECKERS) -> int:
    """How many one-sided positions have at most ``max_checkers`` checkers.

    >>> positions_count(), positions_count(1), positions_count(0)
    (54264, 7, 1)
    """
    return math.comb(max_checkers + POINTS, POINTS)


def rank(counts: Sequence[int]) -> int:
    """The index of a one-sided position (six counts, the 1-point first) in ``0..54263``.

    Positions with fewer checkers come first (so a database of up to ``m``
    checkers is the first ``positions_count(m)`` entries of the full one),
    and moving any checker down or off always lowers the rank. The counts,
    read from the 6-point down, are a 6-subset ``b1 < ... < b6`` of
    ``0..20`` (``b_i`` = checkers on the ``i`` highest points ``+ i - 1``),
    ranked by the combinatorial number system: ``sum C(b_i, i)``.

    >>> [rank(counts) for counts in [(0,) * 6, (1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 1), (0, 0, 0, 0, 0, 15)]]
    [0, 1, 6, 54263]
    """
    values = _checked_counts(counts)
    return int(_rank_counts(np.array(values[::-1], dtype=np.int64)))


def unrank(index: int) -> tuple[int, ...]:
    """The six counts (the 1-point first) of the position with rank ``index``.

    >>> unrank(6), unrank(54263)
    ((0, 0, 0, 0, 0, 1), (0, 0, 0, 0, 0, 15))
    >>> all(rank(unrank(i)) == i for i in range(0, positions_count(), 7))
    True
    """
    if not 0 <= index < positions_count():
        raise ValueError(f"ranks run from 0 to {positions_count() - 1}, not {index}")
    counts = np.empty(POINTS, dtype=np.int64)
    _unrank_into(index, counts)
    return tuple(int(value) for value in counts[::-1])


def rank_array(counts: npt.ArrayLike) -> IntArray:
    """:func:`rank` of each row of an (N, 6) array of counts.

    >>> rank_array([[0, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 0]]).tolist()
    [6, 1]
    """
    values = np.asarray(counts, dtype=np.int64)
    if values.ndim != 2 or values.shape[1] != POINTS:
        raise ValueError(f"counts must have shape (N, {POINTS}), not {values.shape}")
    if (values < 0).any() or (values.sum(axis=1) > MAX_CHECKERS).any():
        raise ValueError(f"counts must be non-negative with at most {MAX_CHECKERS} checkers in all")
    # b_i for i = 1..6: checkers on the i highest points, plus i - 1.
    subset = np.cumsum(values[:, ::-1], axis=1) + np.arange(POINTS)
    return np.asarray(_BINOMIAL[subset, np.arange(1, POINTS + 1)].sum(axis=1), dtype=np.int64)


@njit(cache=True)
def _rank_counts(high_first: IntArray) -> int:
    """The rank of counts given from the 6-point down (any integer array of 6)."""
    total = 0
    index = 0
    for i in range(POINTS):
        total += high_first[i]
        index += _BINOMIAL[total + i, i + 1]
    return index


@njit(cache=True)
def _unrank_into(index: int, high_first: IntArray) -> int:
    """Write the counts of rank ``index``, from the 6-point down; return how many checkers."""
    subset = np.empty(POINTS, dtype=np.int64)
    rest = index
    top = 20
    for i in range(POINTS, 0, -1):
        while _BINOMIAL[top, i] > rest:
            top -= 1
        subset[i - 1] = top
        rest -= _BINOMIAL[top, i]
        top -= 1
    high_first[0] = subset[0]
    for i in range(1, POINTS):
        high_first[i] = subset[i] - subset[i - 1] - 1
    return int(subset[POINTS - 1] - (POINTS - 1))


@njit(cache=True)
def _solve(
    size: int,
    rolls: IntArray,
    weights: FloatArray,
    levels: npt.NDArray[np.int8],
    path: npt.NDArray[np.int8],
    state: IntArray,
    table_index: npt.NDArray[np.int32],
    table_stamp: IntArray,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """The dynamic programme: distributions and means, bearing off all and the first checker.

    Ranks are visited upwards; every play lowers the rank, so the positions
    a play can reach are already solved.
    """
    mean = np.zeros(size)
    first_mean = np.zeros(size)
    dist = np.zeros((size, MAX_ROLLS))
    first = np.zeros((size, MAX_ROLLS))
    dist[0, 0] = first[0, 0] = 1.0
    out_boards = np.empty((MAX_SEQUENCES, ARRAY_SIZE), dtype=np.int8)
    out_moves = np.empty((MAX_SEQUENCES, 4, 3), dtype=np.int8)
    board = np.zeros(ARRAY_SIZE, dtype=np.int8)
    counts = np.empty(POINTS, dtype=np.int64)
    reached = np.empty(POINTS, dtype=np.int64)
    for index in range(1, size):
        checkers = _unrank_into(index, counts)
        board[:] = 0
        for i in range(POINTS):
            board[POINTS - i] = counts[i]
        board[MY_OFF] = MAX_CHECKERS - checkers
        for k in range(rolls.shape[0]):  # sums in 36ths, divided once at the end
            plays = plays_into(
                board, rolls[k, 0], rolls[k, 1], 4, 0, levels, path, state, table_index, table_stamp,
                out_boards, out_moves, 0,
            )  # fmt: skip
            best, best_first, bore_off = _best_plays(out_boards, plays, mean, first_mean, checkers, reached)
            if best >= index or best_first >= index:
                raise ValueError("a play did not lower the rank")
            weight = weights[k]
            mean[index] += weight * mean[best]
            dist[index, 1:] += weight * dist[best, :-1]
            if bore_off:
                first[index, 1] += weight
            else:
                first_mean[index] += weight * first_mean[best_first]
                first[index, 1:] += weight * first[best_first, :-1]
        mean[index] = 1.0 + mean[index] / 36.0
        first_mean[index] = 1.0 + first_mean[index] / 36.0
        dist[index] /= 36.0
        first[index] /= 36.0
    return mean, dist, first_mean, first


@njit(cache=True)
def _best_plays(
    out_boards: npt.NDArray[np.int8],
    plays: int,
    mean: FloatArray,
    first_mean: FloatArray,
    checkers: int,
    reached: IntArray,
) -> tuple[int, int, bool]:
    """The best play's rank for bearing off all, the best for the first checker, and whether one bears off.

    The second rank is only of use when no play bears a checker off.
    """
    best = best_first = -1
    best_mean = best_first_mean = np.inf
    bore_off = False
    for play in range(plays):
        for i in range(POINTS):
            reached[i] = out_boards[play, POINTS - i]
        after = _rank_counts(reached)
        value = mean[after]
        if value < best_mean - _TIE or (value <= best_mean + _TIE and after < best):
            best, best_mean = after, value
        if out_boards[play, MY_OFF] > MAX_CHECKERS - checkers:
            bore_off = True  # then which play does not matter for the first checker
            continue
        value = first_mean[after]
        if value < best_first_mean - _TIE or (value <= best_first_mean + _TIE and after < best_first):
            best_first, best_first_mean = after, value
    return best, best_first, bore_off


class BearoffDatabase:
    """Roll distributions of every one-sided position with at most ``max_checkers`` checkers.

    ``rolls[r, n]`` is the probability that the position of rank ``r`` needs
    exactly ``n`` rolls to bear off every checker, ``first_off[r, n]`` the
    same for its first checker; ``means`` and ``first_means`` are the
    expected numbers of rolls. ``exact`` says whether the distributions are
    the computed ones (:meth:`build`) or the stored 16-bit ones (:meth:`load`).

    >>> small = BearoffDatabase.build(max_checkers=3)
    >>> len(small), small.exact
    (84, True)
    >>> [round(float(p) * 36) for p in small.rolls_distribution((0, 0, 0, 0, 0, 1))[:3]]
    [0, 27, 9]
    """

    __slots__ = ("exact", "first_means", "first_off", "max_checkers", "means", "rolls")

    def __init__(
        self,
        rolls: FloatArray,
        first_off: FloatArray,
        means: FloatArray,
        first_means: FloatArray,
        *,
        exact: bool,
    ) -> None:
        size = len(rolls)
        sizes = [positions_count(m) for m in range(MAX_CHECKERS + 1)]
        if size not in sizes:
            raise ValueError(f"a bear-off database has one of {sizes} positions, not {size}")
        self.max_checkers = sizes.index(size)
        for array in (rolls, first_off, means, first_means):
            if len(array) != size:
                raise ValueError("the arrays of a bear-off database have one row per position")
            array.flags.writeable = False
        self.rolls = rolls
        self.first_off = first_off
        self.means = means
        self.first_means = first_means
        self.exact = exact

    # --- making one ------------------------------------------------------------

    @classmethod
    def build(cls, max_checkers: int = MAX_CHECKERS) -> BearoffDatabase:
        """Compute the database in float64 (a few seconds for 15 checkers, once Numba has compiled)."""
        if not 0 <= max_checkers <= MAX_CHECKERS:
            raise ValueError(f"a bear-off database holds 0 to {MAX_CHECKERS} checkers, not {max_checkers}")
        mean, dist, first_mean, first = _solve(
            positions_count(max_checkers), _ROLLS, _WEIGHTS, *Scratch().arrays()
        )
        return cls(dist, first, mean, first_mean, exact=True)

    @classmethod
    def load(cls, path: str | os.PathLike[str] = DATA_FILE) -> BearoffDatabase:
        """Read a database that :meth:`save` wrote (by default the one shipped in the package)."""
        with np.load(path, allow_pickle=False) as stored:
            if int(stored["format"]) != FORMAT:
                raise ValueError(
                    f"{path} holds bear-off data of format {int(stored['format'])}, not {FORMAT}"
                )
            rolls = _unpack(stored["rolls_start"], stored["rolls_length"], stored["rolls_values"])
            first = _unpack(stored["first_start"], stored["first_length"], stored["first_values"])
            return cls(rolls, first, stored["means"].copy(), stored["first_means"].copy(), exact=False)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the database compactly (equal databases give equal bytes), replacing ``path`` atomically."""
        arrays: dict[str, npt.NDArray[np.generic]] = {"format": np.array(FORMAT, dtype=np.int64)}
        for name, table in (("rolls", self.rolls), ("first", self.first_off)):
            start, length, values = _pack(table)
            arrays |= {f"{name}_start": start, f"{name}_length": length, f"{name}_values": values}
        arrays |= {"means": self.means, "first_means": self.first_means}
        _write_npz(Path(path), arrays)

    # --- one side ----------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.rolls)

    def rolls_distribution(self, counts: Sequence[int]) -> FloatArray:
        """P(exactly ``n`` rolls bear off every checker), ``n = 0 .. MAX_ROLLS - 1``."""
        return np.asarray(self.rolls[self._rank(counts)], dtype=np.float64)

    def expected_rolls(self, counts: Sequence[int]) -> float:
        """The expected number of rolls to bear off every checker, playing to make it smallest.

        >>> round(default_database().expected_rolls((15, 0, 0, 0, 0, 0)), 12)  # 2 off a roll, 4 with doubles
        6.979591763832
        """
        return float(self.means[self._rank(counts)])

    def first_off_distribution(self, counts: Sequence[int]) -> FloatArray:
        """P(exactly ``n`` rolls bear off the first checker), playing to make their expected number smallest.

        >>> [round(float(p) * 36) for p in default_database().first_off_distribution((0, 0, 0, 0, 0, 15))[:4]]
        [0, 17, 16, 2]
        """
        return np.asarray(self.first_off[self._rank(counts)], dtype=np.float64)

    def expected_first_off(self, counts: Sequence[int]) -> float:
        """The expected number of rolls to bear off the first checker."""
        return float(self.first_means[self._rank(counts)])

    def _rank(self, counts: Sequence[int]) -> int:
        index = rank(counts)
        if index >= len(self):
            raise ValueError(f"this database holds at most {self.max_checkers} checkers, not {sum(counts)}")
        return index

    # --- both sides ------------------------------------------------------------

    def evaluate(self, position: Position) -> FloatArray:
        """Cubeless chances of the side on roll in a bear-off position (both sides home, no contact).

        Returns (win, win gammon, win backgammon, lose gammon, lose backgammon);
        backgammons cannot happen with every checker in its own home board.

        >>> from tavola.position import Position
        >>> sixes = Position([0] * 5 + [1] + [0] * 12 + [-1] + [0] * 5)  # a checker each on the 6-point
        >>> default_database().evaluate(sixes).tolist()  # 3/4 + 1/4 * 1/4
        [0.8125, 0.0, 0.0, 0.0, 0.0]
        """
        return np.asarray(self.evaluate_batch(position.to_array()[None])[0], dtype=np.float64)

    def evaluate_batch(self, boards: npt.ArrayLike) -> FloatArray:
        """:meth:`evaluate` for an (N, 30) array of positions in :meth:`Position.to_array`'s layout."""
        array = np.asarray(boards, dtype=np.int8)
        if array.ndim != 2 or array.shape[1] != ARRAY_SIZE:
            raise ValueError(f"boards must have shape (N, {ARRAY_SIZE}), not {array.shape}")
        _check_bearoff(array)
        mine = array[:, 1 : POINTS + 1].astype(np.int64)
        theirs = -array[:, 24:18:-1].astype(np.int64)
        if max(mine.sum(axis=1).max(initial=0), theirs.sum(axis=1).max(initial=0)) > self.max_checkers:
            raise ValueError(f"this database holds at most {self.max_checkers} checkers a side")
        return self.evaluate_ranks(
            rank_array(mine), rank_array(theirs), array[:, MY_OFF] == 0, array[:, THEIR_OFF] == 0
        )

    def evaluate_ranks(
        self,
        mover: npt.ArrayLike,
        opponent: npt.ArrayLike,
        mover_none_off: npt.ArrayLike,
        opponent_none_off: npt.ArrayLike,
    ) -> FloatArray:
        """The (N, 5) chances of the side on roll from both sides' ranks.

        ``*_none_off`` say whether a side has borne off no checker yet, and so
        can still be gammoned. The mover rolls first, so with ``N_A`` and
        ``N_B`` the rolls each side needs, the mover wins when
        ``N_A <= N_B``, and wins a gammon when the opponent's first checker
        needs more than the ``N_A - 1`` rolls it gets.

        >>> database = default_database()
        >>> database.evaluate_ranks([1], [54263], [False], [True]).tolist()  # 1-point against 15 on the 6
        [[1.0, 1.0, 0.0, 0.0, 0.0]]
        """
        p_mover = self.rolls[np.asarray(mover, dtype=np.int64)]
        p_opponent = self.rolls[np.asarray(opponent, dtype=np.int64)]
        f_mover = self.first_off[np.asarray(mover, dtype=np.int64)]
        f_opponent = self.first_off[np.asarray(opponent, dtype=np.int64)]
        # Column n: P(N_B >= n) and P(N_A > n), n = 0 .. MAX_ROLLS - 1.
        opponent_at_least = _at_least(p_opponent)[:, :-1]
        mover_more_than = _at_least(p_mover)[:, 1:]
        out = np.zeros((len(p_mover), 5))
        out[:, WIN] = (p_mover * opponent_at_least).sum(axis=1)
        # The loser is gammoned if its first checker is not off when the winner finishes. The two
        # distributions come from different plans for the same side, so clip the first-off chance
        # to the chance of losing at all (never needed for 15 checkers, but cheap).
        opponent_gammoned = np.minimum(_at_least(f_opponent)[:, :-1], opponent_at_least)
        mover_gammoned = np.minimum(_at_least(f_mover)[:, 1:], mover_more_than)
        out[:, WIN_GAMMON] = (p_mover * opponent_gammoned).sum(axis=1) * np.asarray(opponent_none_off)
        out[:, LOSE_GAMMON] = (p_opponent * mover_gammoned).sum(axis=1) * np.asarray(mover_none_off)
        return np.clip(out, 0.0, 1.0)


def _at_least(distributions: FloatArray) -> FloatArray:
    """``P(N >= n)`` for ``n = 0 .. MAX_ROLLS`` (one column more than the distributions)."""
    tails = np.zeros((len(distributions), distributions.shape[1] + 1))
    tails[:, :-1] = np.cumsum(distributions[:, ::-1], axis=1)[:, ::-1]
    return tails


def is_bearoff(boards: npt.NDArray[np.int8]) -> npt.NDArray[np.bool_]:
    """Whether both sides have every checker left in their home boards (none on the bar or waiting)."""
    outside = (boards[:, POINTS + 1 : 25] > 0).any(axis=1) | (boards[:, 1:19] < 0).any(axis=1)
    away = boards[:, [MY_BAR, MY_WAITING, THEIR_BAR, THEIR_WAITING]].any(axis=1)
    return np.asarray(~(outside | away), dtype=np.bool_)


def _check_bearoff(array: npt.NDArray[np.int8]) -> None:
    """Raise ValueError unless every row is a bear-off position: both sides home, nothing on the bar."""
    bad = np.flatnonzero(~is_bearoff(array))
    if len(bad):
        raise ValueError(
            f"position {int(bad[0])} is not a bear-off position: a checker is on the bar or out of its home"
        )


def _quantize(distribution: FloatArray) -> npt.NDArray[np.int64]:
    """Whole multiples of 1/QUANTUM adding up to QUANTUM, each within one unit of ``distribution * QUANTUM``.

    Largest remainders: round everything down, then give the missing units to
    the largest fractions (the earlier on ties).

    >>> _quantize(np.array([0.75, 0.25, 0.0])).tolist(), _quantize(np.array([1.0, 1.0]) / 2).tolist()
    ([49140, 16380, 0], [32760, 32760])
    """
    scaled = distribution * QUANTUM
    units = np.floor(scaled).astype(np.int64)
    missing = QUANTUM - int(units.sum())
    order = np.argsort(-(scaled - units), kind="stable")
    units[order[:missing]] += 1
    return units


def _pack(table: FloatArray) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.uint16]]:
    """Each row's non-zero window of quantized values: (first index, length, the values one after another)."""
    starts = np.zeros(len(table), dtype=np.uint8)
    lengths = np.zeros(len(table), dtype=np.uint8)
    windows = []
    for row, distribution in enumerate(table):
        units = _quantize(distribution)
        nonzero = np.flatnonzero(units)
        starts[row], lengths[row] = nonzero[0], nonzero[-1] + 1 - nonzero[0]
        windows.append(units[nonzero[0] : nonzero[-1] + 1])
    return starts, lengths, np.concatenate(windows).astype(np.uint16)


def _unpack(
    starts: npt.NDArray[np.uint8], lengths: npt.NDArray[np.uint8], values: npt.NDArray[np.uint16]
) -> FloatArray:
    """The distributions that :func:`_pack` stored, as float64 rows."""
    rows = np.repeat(np.arange(len(starts)), lengths)
    ends = np.cumsum(lengths.astype(np.int64))
    within = np.arange(len(values)) - np.repeat(ends - lengths, lengths)
    table = np.zeros((len(starts), MAX_ROLLS))
    table[rows, np.repeat(starts.astype(np.int64), lengths) + within] = values / QUANTUM
    return table


def _write_npz(path: Path, arrays: dict[str, npt.NDArray[np.generic]]) -> None:
    """An .npz file that ``np.load`` reads, with fixed timestamps so that equal arrays give equal bytes."""
    path.parent.mkdir(parents=True, exist_ok=True)

    def write(file: BinaryIO) -> None:
        with zipfile.ZipFile(file, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
            for name, array in arrays.items():
                buffer = io.BytesIO()
                np.lib.format.write_array(buffer, np.asarray(array, order="C"), allow_pickle=False)
                info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, buffer.getvalue(), compresslevel=9)

    write_atomically(path, write)


@functools.cache
def default_database() -> BearoffDatabase:
    """The database shipped in the package, loaded once; built in memory if the file is missing."""
    if DATA_FILE.exists():
        return BearoffDatabase.load()
    return BearoffDatabase.build()  # pragma: no cover (a checkout without the data file)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tavola.bot.bearoff --build [--output FILE]``: rebuild the shipped data file."""
    parser = argparse.ArgumentParser(prog="python -m tavola.bot.bearoff", description=main.__doc__)
    parser.add_argument("--build", action="store_true", help="build the database and write it")
    parser.add_argument("--output", type=Path, default=DATA_FILE, help=f"where to write it ({DATA_FILE})")
    parser.add_argument("--max-checkers", type=int, default=MAX_CHECKERS, help="checkers a side (15)")
    args = parser.parse_args(argv)
    if not args.build:
        parser.error("nothing to do: pass --build")
    began = time.perf_counter()
    database = BearoffDatabase.build(args.max_checkers)
    built = time.perf_counter() - began
    database.save(args.output)
    print(
        f"{len(database)} positions built in {built:.1f} s; "
        f"wrote {args.output} ({args.output.stat().st_size:,} bytes)",
        file=sys.stderr,
    )
    return 0


def _checked_counts(counts: Sequence[int]) -> tuple[int, ...]:
    values = tuple(int(value) for value in counts)
    if len(values) != POINTS or min(values) < 0 or sum(values) > MAX_CHECKERS:
        raise ValueError(
            f"a one-sided position is {POINTS} non-negative counts, at most {MAX_CHECKERS} in all, "
            f"not {tuple(counts)}"
        )
    return values


if __name__ == "__main__":
    raise SystemExit(main())
