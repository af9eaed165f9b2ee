"""The doubling cube (C1-C5) and a double waiting for its answer (C3, M3, M4), as immutable values.

Players are 0 and 1; a centred cube has no owner. Every cube rule of the
two-player game and of the chouette's cubes is written here once: who may
double, what a double offers, how beavers follow it and where the cube goes
when it is taken.

>>> cube = Cube()
>>> cube, cube.may_double(0), cube.may_double(1)
(Cube(1), True, True)
>>> taken = cube.taken_by(1)
>>> taken, taken.may_double(0), taken.may_double(1)
(Cube(2, owner=1), False, True)
>>> offer = taken.offered_by(1)  # player 1 redoubles to 4
>>> offer, offer.answering, offer.before
(CubeOffer(4, doubler=1), 0, 2)
>>> offer.taken(Rules())
Cube(4, owner=0)
"""

from __future__ import annotations

from dataclasses import dataclass

from tavola.errors import IllegalActionError
from tavola.i18n import _
from tavola.rules import Rules


@dataclass(frozen=True)
class Cube:
    """The cube's value and owner (``None`` while it is in the middle, C1).

    Values past 64 are kept as numbers (C4).
    """

    value: int = 1
    owner: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.value, bool) or not isinstance(self.value, int) or self.value < 1:
            raise IllegalActionError(
                _("the cube's value is a whole number from 1 up, not {value}").format(value=repr(self.value))
            )
        if self.value & (self.value - 1):
            raise IllegalActionError(
                _("the cube's value is a power of two, not {value}").format(value=self.value)
            )
        if self.owner not in (None, 0, 1):
            raise IllegalActionError(
                _("the cube belongs to player 0, player 1 or nobody, not {owner}").format(
                    owner=repr(self.owner)
                )
            )

    def may_double(self, player: int) -> bool:
        """Whether the cube lets ``player`` double: it is theirs or in the middle (C2)."""
        return self.owner is None or self.owner == player

    def taken_by(self, player: int) -> Cube:
        """The cube after ``player`` takes a double: twice the value, theirs (C3)."""
        return Cube(self.value * 2, player)

    def offered_by(self, player: int) -> CubeOffer:
        """The double ``player`` offers with this cube: twice its value (C2)."""
        return CubeOffer(self.value * 2, player)

    def automatic_double(self) -> Cube:
        """The cube after a tie on the opening roll: twice the value, still in the middle (M2)."""
        return Cube(self.value * 2)

    def owner_seen_by(self, player: int) -> int | None:
        """The owner from ``player``'s side: None in the middle, 0 ``player``, 1 the opponent.

        >>> Cube(2, owner=1).owner_seen_by(0), Cube(2, owner=1).owner_seen_by(1), Cube().owner_seen_by(0)
        (1, 0, None)
        """
        if player not in (0, 1):
            raise IllegalActionError(_("players are 0 and 1, not {player}").format(player=repr(player)))
        return None if self.owner is None else int(self.owner != player)

    @property
    def is_turned(self) -> bool:
        """Whether a double was taken: the cube has left the middle (automatic doubles leave it there, M5).

        >>> Cube(2).is_turned, Cube(2, owner=0).is_turned
        (False, True)
        """
        return self.owner is not None and self.value > 1

    @property
    def face(self) -> int:
        """The number the cube shows: 64 while it is centred at 1, as on a real cube."""
        return 64 if self.value == 1 and self.owner is None else self.value

    def __repr__(self) -> str:
        owner = "" if self.owner is None else f", owner={self.owner}"
        return f"Cube({self.value}{owner})"


@dataclass(frozen=True)
class CubeOffer:
    """A double waiting for an answer (C3): the cube's value if taken, who doubled first, and the
    immediate redoubles since (beavers, raccoons..., M3, M4).

    >>> offer = Cube().offered_by(0).beavered()  # player 0 doubles to 2, player 1 beavers to 4
    >>> offer.answering, offer.before, offer.taken(Rules(beavers=1))
    (0, 2, Cube(4, owner=1))
    >>> offer.why_no_beaver(Rules(beavers=1))
    'these rules allow a beaver (M3, M4)'
    """

    value: int
    doubler: int
    redoubles: int = 0

    @property
    def doubled(self) -> int:
        """The player the first double was offered to."""
        return 1 - self.doubler

    @property
    def answering(self) -> int:
        """Who answers now: the doubled player, then turn about for each redouble."""
        return self.doubled if self.redoubles % 2 == 0 else self.doubler

    @property
    def before(self) -> int:
        """What the cube was worth before this offer: what a drop pays (C3, M3)."""
        return self.value // 2

    def why_no_beaver(self, rules: Rules) -> str | None:
        """Why the player answering may not redouble at once under ``rules``; None when they may (M3, M4)."""
        if self.redoubles < rules.beavers:
            return None
        if rules.beavers == 0:
            return _("these rules allow no beavers (M3, M4)")
        if rules.beavers == 1:
            return _("these rules allow a beaver (M3, M4)")
        if rules.beavers == 2:
            return _("these rules allow a beaver and a raccoon (M3, M4)")
        return _("these rules allow {count} redoubles (M3, M4)").format(count=rules.beavers)

    def beavered(self) -> CubeOffer:
        """The offer after the player answering redoubles at once: twice the value, the same first doubler."""
        return CubeOffer(self.value * 2, self.doubler, self.redoubles + 1)

    def taken(self, rules: Rules) -> Cube | CubeOffer:
        """What a take leads to: the cube at the offer's value, owned by the player doubled first
        (immediate redoubles never move it, M4); or, where every take is a beaver, the offer beavered (M6).
        """
        if rules.automatic_beavers and self.redoubles == 0:
            return self.beavered()
        return Cube(self.value, self.doubled)

    def __repr__(self) -> str:
        redoubles = f", redoubles={self.redoubles}" if self.redoubles else ""
        return f"CubeOffer({self.value}, doubler={self.doubler}{redoubles})"
