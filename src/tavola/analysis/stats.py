"""Exact sums of many trials' values, and the estimates they give (a mean with its standard error).

Each trial gives a row of values (say the five outcomes' chances and the
equity). :class:`Moments` keeps, for a set of trials, their count and, in
fixed point (units of :data:`RESOLUTION`, as Python integers), the sum of
each column, the sum of its squares and the sums of the products of chosen
pairs of columns. Integer sums are exact, so :func:`merge` of the moments
of any split of the trials gives the moments of them all, bit for bit,
whatever the split and the order of merging.

>>> values = np.array([[0.25, 1.0], [0.5, 0.0], [0.75, 1.0]])
>>> whole = Moments.of(values, pairs=[(0, 1)])
>>> whole == merge([Moments.of(values[:1], pairs=[(0, 1)]), Moments.of(values[1:], pairs=[(0, 1)])])
True
>>> whole.estimate(0)
Estimate(mean=0.5, standard_error=0.14433756729740643)
>>> whole.difference(1, 0).mean  # the paired difference of column 1 and column 0
0.16666666666666666
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

RESOLUTION = 2.0**-32
"""The unit of the fixed-point sums: each value is rounded to a multiple of it (far below any error bar)."""
Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""


@dataclass(frozen=True)
class Estimate:
    """A mean over trials with its standard error; :attr:`interval` is the 95% confidence interval.

    >>> [round(end, 4) for end in Estimate(0.5, 0.01).interval]
    [0.4804, 0.5196]
    """

    mean: float
    standard_error: float

    @property
    def interval(self) -> tuple[float, float]:
        """The normal 95% interval: the mean give or take 1.96 standard errors."""
        return (self.mean - Z95 * self.standard_error, self.mean + Z95 * self.standard_error)


def fixed_point(values: npt.ArrayLike) -> npt.NDArray[np.object_]:
    """``values`` rounded to multiples of :data:`RESOLUTION`, as Python integers (exact to add and multiply).

    >>> fixed_point([0.5, -1.0]).tolist()
    [2147483648, -4294967296]
    """
    scaled = np.rint(np.asarray(values, dtype=np.float64) / RESOLUTION).astype(np.int64)
    return scaled.astype(object)


@dataclass(frozen=True)
class Moments:
    """The count of some trials and exact fixed-point sums of their values (see the module docstring).

    ``sums[c]`` and ``squares[c]`` are the sums of column ``c`` and of its
    square; ``products[k]`` the sum of the products of the columns of
    ``pairs[k]``.
    """

    count: int
    sums: tuple[int, ...]
    squares: tuple[int, ...]
    pairs: tuple[tuple[int, int], ...] = ()
    products: tuple[int, ...] = ()

    @classmethod
    def of(cls, values: npt.ArrayLike, pairs: Iterable[tuple[int, int]] = ()) -> Moments:
        """The moments of ``values``, one row per trial, with the products of the columns of ``pairs``."""
        table = np.asarray(values, dtype=np.float64)
        if table.ndim != 2:
            raise ValueError(f"one row of values per trial, not an array of shape {table.shape}")
        exact = fixed_point(table)
        wanted = tuple((int(first), int(second)) for first, second in pairs)
        return cls(
            len(table),
            tuple(int(total) for total in exact.sum(axis=0)) if len(table) else (0,) * table.shape[1],
            tuple(int(total) for total in (exact * exact).sum(axis=0))
            if len(table)
            else (0,) * table.shape[1],
            wanted,
            tuple(int((exact[:, first] * exact[:, second]).sum()) for first, second in wanted),
        )

    def estimate(self, column: int) -> Estimate:
        """The mean of ``column`` over the trials, and its standard error."""
        return _estimate(self.count, self.sums[column], self.squares[column])

    def difference(self, column: int, other: int) -> Estimate:
        """The mean of ``column - other`` trial by trial (paired), and its standard error.

        The pair must be one of :attr:`pairs`, either way round; a column less itself is exactly 0.
        """
        if column == other:
            return Estimate(0.0, 0.0)
        key = (column, other) if (column, other) in self.pairs else (other, column)
        if key not in self.pairs:
            raise ValueError(f"columns {column} and {other} are not a pair these moments keep")
        product = self.products[self.pairs.index(key)]
        total = self.sums[column] - self.sums[other]
        squares = self.squares[column] + self.squares[other] - 2 * product
        return _estimate(self.count, total, squares)


def merge(parts: Sequence[Moments]) -> Moments:
    """The moments of all the trials of ``parts`` together (exact: the order and the split do not matter)."""
    if not parts:
        raise ValueError("nothing to merge")
    first = parts[0]
    for part in parts[1:]:
        if (len(part.sums), part.pairs) != (len(first.sums), first.pairs):
            raise ValueError("moments of different columns or pairs do not merge")
    return Moments(
        sum(part.count for part in parts),
        tuple(sum(column) for column in zip(*(part.sums for part in parts), strict=True)),
        tuple(sum(column) for column in zip(*(part.squares for part in parts), strict=True)),
        first.pairs,
        tuple(sum(column) for column in zip(*(part.products for part in parts), strict=True)),
    )


def _estimate(count: int, total: int, squares: int) -> Estimate:
    """The mean and its standard error from a count and exact fixed-point sums (a single trial: error 0)."""
    if count < 1:
        raise ValueError("an estimate needs at least one trial")
    mean = total / count * RESOLUTION
    if count < 2:
        return Estimate(mean, 0.0)
    spread = count * squares - total * total  # count^2 times the sample variance's numerator, exactly
    variance = spread / (count * count * (count - 1)) * RESOLUTION * RESOLUTION
    return Estimate(mean, math.sqrt(max(variance, 0.0)))
