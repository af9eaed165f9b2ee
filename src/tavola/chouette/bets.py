"""The cubes of a chouette game as values: one :class:`Bet` per pair of players, and :class:`Offer`.

Each team member plays the box for a cube of their own (H5, H8); an extra
(H7) is a cube between the member who gave it, on the box's side, and the
member who took it. Every cube is the two-player game's :class:`Cube`,
whose players 0 and 1 are the box's side and the team's side.

>>> bet = Bet("Ann", "Ben", Cube())
>>> bet.player(Side.TEAM), bet.side_of("Ann"), bet.opponent("Ben")
('Ben', <Side.BOX: 0>, 'Ann')
>>> offer = Offer(("Ann", "Ben"), Cube().offered_by(Side.BOX), group=0)
>>> offer.answering, offer.value
(<Side.TEAM: 1>, 2)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from tavola.cube import Cube, CubeOffer
from tavola.errors import IllegalActionError
from tavola.i18n import _
from tavola.scoring import Outcome

__all__ = ["Bet", "BetKey", "Offer", "Side"]

BetKey = tuple[str, str]
"""A bet's players: the one on the box's side, then the one on the team's side."""


class Side(enum.IntEnum):
    """The two sides of the board; the numbers are the players of the checker game and of each cube."""

    BOX = 0
    TEAM = 1

    @property
    def other(self) -> Side:
        return Side(1 - self)


@dataclass(frozen=True)
class Bet:
    """One cube between a player on the box's side and one on the team's side.

    ``outcome`` is set once the bet is settled (its winner is a :class:`Side`);
    until then the bet is live.
    """

    box_side: str
    team_side: str
    cube: Cube
    extra: bool = False
    outcome: Outcome | None = None

    @property
    def key(self) -> BetKey:
        return (self.box_side, self.team_side)

    @property
    def is_live(self) -> bool:
        return self.outcome is None

    def player(self, side: Side) -> str:
        return self.box_side if side is Side.BOX else self.team_side

    def side_of(self, player: str) -> Side:
        if player == self.box_side:
            return Side.BOX
        if player == self.team_side:
            return Side.TEAM
        raise IllegalActionError(
            _("{player} has no part in the cube between {box_side} and {team_side}").format(
                player=player, box_side=self.box_side, team_side=self.team_side
            )
        )

    def opponent(self, player: str) -> str:
        return self.player(self.side_of(player).other)

    @property
    def winner(self) -> str | None:
        return None if self.outcome is None else self.player(Side(self.outcome.winner))

    @property
    def loser(self) -> str | None:
        return None if self.outcome is None else self.player(Side(1 - self.outcome.winner))

    def with_cube(self, cube: Cube) -> Bet:
        return replace(self, cube=cube)

    def settled(self, outcome: Outcome) -> Bet:
        return replace(self, outcome=outcome)


@dataclass(frozen=True)
class Offer:
    """A double on one bet waiting for an answer (C3, M3, M4).

    ``double`` is the cube's offer (its value if taken, the side that doubled
    first, the immediate redoubles since, whose players are the bet's sides),
    and ``group`` the action that made the offer: offers made together are
    settled together (H6, H7).
    """

    bet: BetKey
    double: CubeOffer
    group: int

    @property
    def value(self) -> int:
        """What the cube is worth if the offer is taken."""
        return self.double.value

    @property
    def redoubles(self) -> int:
        return self.double.redoubles

    @property
    def doubler(self) -> Side:
        """The side that doubled first."""
        return Side(self.double.doubler)

    @property
    def answering(self) -> Side:
        """The side that answers now: the doubled side, then turn about for each redouble."""
        return Side(self.double.answering)

    def beavered(self, group: int) -> Offer:
        """The offer redoubled at once by the side answering, in the group ``group`` (M3, M4)."""
        return Offer(self.bet, self.double.beavered(), group)
