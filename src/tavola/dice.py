"""Dice rolls: an immutable :class:`Dice` value, parsing and rolling.

>>> Dice.parse("3-1")
Dice(3, 1)
>>> Dice(1, 3) == Dice(3, 1)
True
>>> Dice(4, 4).moves
(4, 4, 4, 4)
>>> len(ALL_ROLLS)
21
"""

from __future__ import annotations

import random
import re

from tavola.errors import InvalidDiceError
from tavola.i18n import _

_DICE_TEXT = re.compile(r"^\s*([1-6])\s*[-, ]?\s*([1-6])\s*$")


class Dice(tuple[int, int]):
    """A roll of two dice, larger first (``Dice(1, 3)`` is ``Dice(3, 1)``)."""

    __slots__ = ()

    def __new__(cls, first: int, second: int) -> Dice:
        for value in (first, second):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
                raise InvalidDiceError(_("a die shows 1 to 6, not {value}").format(value=repr(value)))
        return super().__new__(cls, (max(first, second), min(first, second)))

    def __getnewargs__(self) -> tuple[int, int]:  # pickling and copying
        return (self[0], self[1])

    @property
    def high(self) -> int:
        return self[0]

    @property
    def low(self) -> int:
        return self[1]

    @classmethod
    def parse(cls, text: str) -> Dice:
        """Read ``31``, ``3-1``, ``3 1`` or ``3,1``.

        >>> Dice.parse("6 6")
        Dice(6, 6)
        """
        match = _DICE_TEXT.match(text)
        if match is None:
            raise InvalidDiceError(
                _("cannot read dice {text}: write two numbers 1-6 such as 31 or 3-1").format(text=repr(text))
            )
        return cls(int(match.group(1)), int(match.group(2)))

    @classmethod
    def roll(cls, rng: random.Random | None = None) -> Dice:
        """Roll two fair dice with ``rng`` (OS entropy when ``None``).

        >>> Dice.roll(random.Random(7))
        Dice(3, 2)
        """
        source = rng if rng is not None else random.SystemRandom()
        return cls(source.randint(1, 6), source.randint(1, 6))

    @property
    def is_double(self) -> bool:
        return self.high == self.low

    @property
    def moves(self) -> tuple[int, ...]:
        """The die values to play: four of them for a double."""
        return (self.high,) * 4 if self.is_double else (self.high, self.low)

    def __str__(self) -> str:
        return f"{self.high}{self.low}"

    def __repr__(self) -> str:
        return f"Dice({self.high}, {self.low})"


ALL_ROLLS: tuple[Dice, ...] = tuple(Dice(high, low) for high in range(1, 7) for low in range(1, high + 1))
"""The 21 distinct rolls; a non-double happens twice as often as a double."""
