"""What a finished game pays (C3, C5, C6, M2, M5, M6): the outcome of a game or of one chouette cube.

:func:`score_win` counts a win as the rules do (no gammons, the Jacoby rule
on a cube never turned) at the cube's value, automatic doubles included;
:func:`score_drop` is the end of a dropped double. The two-player game and
every cube of a chouette are scored by these two functions.

>>> from tavola.cube import Cube
>>> from tavola.rules import Rules
>>> score_win(0, WinKind.GAMMON, Cube(2, owner=1), Rules(), Ending.BEAR_OFF).points
4
>>> score_win(0, WinKind.GAMMON, Cube(2), Rules(jacoby=True), Ending.BEAR_OFF).points  # an automatic double
2
>>> score_drop(Cube(2, owner=0).offered_by(0))
Outcome(winner=0, kind=<WinKind.SINGLE: 1>, cube=2, ending=<Ending.DROP: 'drop'>, checkers_left=None)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from tavola.cube import Cube, CubeOffer
from tavola.position import WinKind
from tavola.rules import Rules

__all__ = ["Ending", "Outcome", "score_drop", "score_win"]


class Ending(enum.Enum):
    """How a game ended."""

    BEAR_OFF = "bear-off"
    DROP = "drop"
    RESIGNATION = "resignation"
    FORFEIT = "forfeit"  # the loser ran out of time, never came, or left (:meth:`tavola.game.Game.forfeit`)


@dataclass(frozen=True)
class Outcome:
    """The end of a game: who won, how big a win it counted as, at what cube, for how many points (C5).

    ``checkers_left`` is set where the loser pays per checker not borne off
    (Acey-Deucey, V2), and then the points are that many.
    """

    winner: int
    kind: WinKind
    cube: int
    ending: Ending
    checkers_left: int | None = None

    @property
    def points(self) -> int:
        per_stake = int(self.kind) if self.checkers_left is None else self.checkers_left
        return per_stake * self.cube


def score_win(
    winner: int, kind: WinKind, cube: Cube, rules: Rules, ending: Ending, checkers_left: int | None = None
) -> Outcome:
    """A game won by ``winner`` as ``kind`` (borne off or resigned) at ``cube``, as ``rules`` count it.

    Every win is single without gammons (M6, V3), and under the Jacoby rule
    while the cube was never turned (M5); the points are the result times the
    cube's value (C5), automatic doubles included (M2).
    """
    counted = kind if rules.gammons and not (rules.jacoby and not cube.is_turned) else WinKind.SINGLE
    return Outcome(winner, counted, cube.value, ending, checkers_left)


def score_drop(offer: CubeOffer) -> Outcome:
    """The end of a dropped double: the player not answering wins the value before it, single (C3, M3)."""
    return Outcome(1 - offer.answering, WinKind.SINGLE, offer.before, Ending.DROP)
