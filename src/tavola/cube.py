"""The doubling cube (C1-C5) as an immutable value.

Players are 0 and 1; a centred cube has no owner.

>>> cube = Cube()
>>> cube, cube.may_double(0), cube.may_double(1)
(Cube(1), True, True)
>>> taken = cube.taken_by(1)
>>> taken, taken.may_double(0), taken.may_double(1)
(Cube(2, owner=1), False, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from tavola.errors import IllegalActionError
from tavola.i18n import _


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

    @property
    def face(self) -> int:
        """The number the cube shows: 64 while it is centred at 1, as on a real cube."""
        return 64 if self.value == 1 and self.owner is None else self.value

    def __repr__(self) -> str:
        owner = "" if self.owner is None else f", owner={self.owner}"
        return f"Cube({self.value}{owner})"
