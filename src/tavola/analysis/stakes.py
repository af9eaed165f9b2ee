"""What a decision is played for, and its equities in normalised terms.

:class:`Stakes` holds what the value of a decision depends on besides the
position: the player deciding, the cube, the match score from that
player's side (none for money), the rules and the variant. Values come in
the terms of the series: points per unit of the cube (money) or match
winning chances (a match); :meth:`Stakes.normalised` turns either into
*normalised equity*, points per game at a cube of 1 (a match's chances
through the table's :meth:`~tavola.bot.met.MatchEquityTable.to_equity` at
the score and cube), the one scale every loss and every luck is measured on.

>>> from tavola.cube import Cube
>>> from tavola.rules import Rules
>>> money = Stakes(0, Cube(2, owner=1), Rules())
>>> money.normalised(0.25), money.in_points(0.25)
(0.25, 0.5)
>>> match = Stakes(0, Cube(), Rules(), away=(3, 3))
>>> round(match.normalised(0.5), 6), round(match.normalised(match.table.after(3, 3, 1)), 6)
(0.0, 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from tavola.bot.cube import match_cubeful, money_equity, position_efficiency
from tavola.bot.evaluate import points_equity
from tavola.bot.met import MatchEquityTable, table_for
from tavola.bot.network import flip_probabilities
from tavola.cube import Cube
from tavola.position import Position
from tavola.rules import Rules
from tavola.variants import STANDARD, Variant

FloatArray = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Stakes:
    """The player deciding, the cube, the score (``away``: the points the player and the opponent still
    need; None for money), whether it is the Crawford game, the rules and the variant."""

    player: int
    cube: Cube
    rules: Rules
    variant: Variant = STANDARD
    away: tuple[int, int] | None = None
    crawford: bool = False

    @property
    def is_match(self) -> bool:
        return self.away is not None

    @property
    def has_cube(self) -> bool:
        """Whether the cube is in play in this game (the rules and variant have one; not Crawford)."""
        return self.rules.cube and self.variant.cube and not self.crawford

    @property
    def table(self) -> MatchEquityTable:
        """The match equity table for the score (a match only)."""
        assert self.away is not None, "money has no match equity table"
        return table_for(*self.away, self.rules.crawford)

    def other_side(self) -> Stakes:
        """The same stakes seen by the opponent."""
        away = None if self.away is None else (self.away[1], self.away[0])
        return replace(self, player=1 - self.player, away=away)

    def seen_by_opponent(self, value: float) -> float:
        """This player's value as the opponent sees it: the negative (money), the complement (a match)."""
        return 1.0 - value if self.is_match else -value

    def normalised(self, value: float) -> float:
        """``value`` (points per unit of the cube, or match winning chances) as normalised equity."""
        if self.away is None:
            return value
        return self.table.to_equity(value, *self.away, self.cube.value, self.crawford)

    def in_points(self, value: float) -> float:
        """A money value per unit of the cube in points at the cube's value (a match's chances unchanged)."""
        return value if self.is_match else value * self.cube.value

    def mwc(self, value: float) -> float | None:
        """``value`` as match winning chances (None for money)."""
        return value if self.is_match else None

    def cubeless(self, probabilities: FloatArray) -> npt.NDArray[np.float64]:
        """Each row's value if the game is played out at the cube as it stands, no more doubles: points per
        unit of the cube (in the variant's points), or match winning chances. Rows are the player's."""
        if self.away is None:
            return points_equity(probabilities, self.variant).astype(np.float64)
        table, away = self.table, self.away
        return np.array(
            [table.cubeless(row, *away, self.cube.value, self.crawford) for row in probabilities.tolist()]
        )

    def after_play(self, probabilities: FloatArray, results: npt.NDArray[np.int8]) -> npt.NDArray[np.float64]:
        """Each play's cubeful value for the player who made it: the opponent is then on roll, with the
        cube (Janowski's model, :mod:`tavola.bot.cube`).

        ``probabilities`` are the player's after each play, ``results`` the
        positions after them, still seen by the player. Where no cube is in
        play the value is the cubeless one.
        """
        if not self.has_cube:
            return self.cubeless(probabilities)
        opponent = self.other_side()
        theirs = flip_probabilities(probabilities).tolist()
        values = []
        for row, result in zip(theirs, results, strict=True):
            efficiency = position_efficiency(Position.from_array(result).flip())
            values.append(self.seen_by_opponent(opponent.on_roll(row, efficiency)))
        return np.array(values, dtype=np.float64)

    def on_roll(self, probabilities: list[float] | FloatArray, efficiency: float) -> float:
        """The cubeful value of the player on roll with these probabilities, before any cube action."""
        if self.away is None:
            owner = None if self.cube.owner is None else int(self.cube.owner != self.player)
            return money_equity(
                probabilities,
                owner,
                jacoby=self.rules.jacoby and not self.cube.is_turned,
                gammons=self.rules.gammons,
                efficiency=efficiency,
            )
        return match_cubeful(
            probabilities,
            self.away,
            self.cube,
            crawford=self.crawford,
            rules=self.rules,
            player=self.player,
            table=self.table,
            efficiency=efficiency,
        )
