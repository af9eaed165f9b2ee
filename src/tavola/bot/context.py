"""The one cube context: everything a cube decision depends on besides the position.

:class:`CubeContext` holds the player whose point of view it is, the cube
(its value and owner), the rules (money's Jacoby rule and beavers, or a
match's), the variant, and the match score from that player's side (None for
money) with the Crawford flag. :meth:`CubeContext.other_side` turns it to
the opponent's point of view; :meth:`CubeContext.of_game` reads it from a
game in progress. Every cubeful valuation of the bot and of the analysis takes
one (:func:`tavola.bot.cube.position_decision`,
:meth:`tavola.bot.player.Bot.advise`, the analysis's judgements).

Values come in the terms of the series: points per unit of the cube (money)
or match winning chances (a match); :meth:`CubeContext.normalised` turns
either into *normalised equity*, points per game at a cube of 1 (a match's
chances through the table's :meth:`~tavola.bot.met.MatchEquityTable.to_equity`
at the score and cube), the one scale every loss and every luck is measured on.

>>> from tavola.cube import Cube
>>> from tavola.rules import Rules
>>> money = CubeContext(0, Cube(2, owner=1), Rules())
>>> money.normalised(0.25), money.in_points(0.25), money.owner_code
(0.25, 0.5, 1)
>>> match = CubeContext(0, Cube(), Rules(), away=(3, 5))
>>> match.other_side().away, match.other_side().player
((5, 3), 1)
>>> round(match.normalised(match.table.after(3, 5, 1)), 6)
1.0
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from tavola.bot.cube import CENTRED, match_cubeful, money_equity, position_efficiency
from tavola.bot.evaluate import points_equity
from tavola.bot.met import MatchEquityTable, table_for
from tavola.bot.network import flip_probabilities
from tavola.cube import Cube
from tavola.match import MatchScore
from tavola.position import Position
from tavola.rules import Rules
from tavola.variants import STANDARD, Variant

if TYPE_CHECKING:
    from tavola.game import Game

FloatArray = npt.NDArray[np.float32]


@dataclass(frozen=True)
class CubeContext:
    """The player whose point of view it is, the cube, the rules, the variant, and the score (``away``: the
    points the player and the opponent still need; None for money) with whether it is the Crawford game."""

    player: int
    cube: Cube
    rules: Rules
    variant: Variant = STANDARD
    away: tuple[int, int] | None = None
    crawford: bool = False

    @classmethod
    def of_game(
        cls, game: Game, player: int | None = None, away: tuple[int, int] | None = None
    ) -> CubeContext:
        """The context of ``game`` now, from ``player``'s side (the player on roll's unless named); ``away``
        is the match score from that player's side (None for money).

        >>> from tavola.game import Game
        >>> game = Game(position=Position.start(), player_on_roll=1)
        >>> context = CubeContext.of_game(game, away=(2, 4))
        >>> context.player, context.other_side().away
        (1, (4, 2))
        """
        player = game.player_on_roll if player is None else player
        return cls(player, game.cube, game.rules, game.variant, away, game.crawford)

    @classmethod
    def at_score(
        cls, score: MatchScore | None, cube: Cube, rules: Rules, variant: Variant = STANDARD
    ) -> CubeContext:
        """The context of player 0, whose points come first in ``score`` (None for money).

        >>> CubeContext.at_score(MatchScore(7, (2, 4)), Cube(), Rules()).away
        (5, 3)
        """
        if score is None:
            return cls(0, cube, rules, variant)
        return cls(0, cube, rules, variant, score.away, score.crawford)

    @property
    def is_match(self) -> bool:
        return self.away is not None

    @property
    def score(self) -> MatchScore | None:
        """The match score from the player's side, as :class:`~tavola.match.MatchScore` (None for money)."""
        return None if self.away is None else MatchScore.from_away(self.away, self.crawford)

    @property
    def owner_code(self) -> int:
        """The cube's owner from the player's side: :data:`~tavola.bot.cube.CENTRED`, 0 the player's, 1 the
        opponent's (the code of the batched cube functions)."""
        owner = self.cube.owner_seen_by(self.player)
        return CENTRED if owner is None else owner

    @property
    def has_cube(self) -> bool:
        """Whether the cube is in play in this game (the rules and variant have one; not Crawford)."""
        return self.rules.cube and self.variant.cube and not self.crawford

    @property
    def table(self) -> MatchEquityTable:
        """The match equity table for the score (a match only)."""
        assert self.away is not None, "money has no match equity table"
        return table_for(*self.away, self.rules.crawford)

    def other_side(self) -> CubeContext:
        """The same context seen by the opponent."""
        away = None if self.away is None else (self.away[1], self.away[0])
        return replace(self, player=1 - self.player, away=away)

    def seen_by(self, player: int) -> CubeContext:
        """The context from ``player``'s side: itself, or :meth:`other_side`."""
        return self if player == self.player else self.other_side()

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
            efficiency = position_efficiency(
                Position.from_array(result, checkers=self.variant.checkers).flip()
            )
            values.append(self.seen_by_opponent(opponent.on_roll(row, efficiency)))
        return np.array(values, dtype=np.float64)

    def on_roll(self, probabilities: list[float] | FloatArray, efficiency: float) -> float:
        """The cubeful value of the player on roll with these probabilities, before any cube action."""
        if self.away is None:
            return money_equity(
                probabilities,
                None if self.owner_code == CENTRED else self.owner_code,
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


def money(variant: Variant = STANDARD) -> CubeContext:
    """Money in ``variant`` with the cube in the middle, from player 0's side.

    >>> from tavola.variants import ACEY_DEUCEY
    >>> money(ACEY_DEUCEY).variant.name, money(ACEY_DEUCEY).away
    ('acey-deucey', None)
    """
    return CubeContext(0, Cube(), Rules(), variant)


MONEY = money()
"""Money in the standard game with the cube in the middle, from player 0's side: the context where none
is given."""
