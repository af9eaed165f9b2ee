"""The rule settings of a game: the cube and the optional money rules (C, M, P).

Every optional rule is a switch, off by default (M1-M6). Matches refuse the
money-only ones (P4).

>>> Rules()
Rules()
>>> Rules(jacoby=True, beavers=1)
Rules(jacoby=True, beavers=1)
>>> Rules(beavers=1).check_for_match()
Traceback (most recent call last):
...
tavola.errors.InvalidRulesError: beavers are for money play, not matches (P4)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

from tavola.errors import InvalidRulesError
from tavola.i18n import N_, _

if TYPE_CHECKING:
    from tavola.variants import Variant

_MONEY_ONLY = (
    ("automatic_doubles", N_("automatic doubles are for money play, not matches (P4)")),
    ("beavers", N_("beavers are for money play, not matches (P4)")),
    ("jacoby", N_("the Jacoby rule is for money play, not matches (P4)")),
)
"""The money-only rules (P4), each with the sentence that refuses it in a match."""

MOST = 16
"""The most a counted rule allows: beavers in a row (M3, M4), automatic doubles a game (M2).

Sixteen automatic doubles already start a game at a cube of 65,536.
"""


@dataclass(frozen=True)
class Rules:
    """How a game is played and scored.

    - ``cube``: the doubling cube is used (C1-C5).
    - ``jacoby``: gammons and backgammons count single unless the cube was
      turned (M5).
    - ``beavers``: how many immediate redoubles may follow a double: 0 none,
      1 a beaver, 2 also a raccoon, 3 also an otter, and so on (M3, M4).
    - ``automatic_beavers``: every take is a beaver (M6).
    - ``automatic_doubles``: the most times per game a tie on the opening
      roll doubles the stake; 0 turns them off (M2).
    - ``gammons``: gammons and backgammons count; ``False`` makes every win
      single (M6, V3).
    - ``crawford``: the Crawford rule in matches (P2).
    - ``holland``: the Holland rule in post-Crawford games (P3).
    """

    cube: bool = True
    jacoby: bool = False
    beavers: int = 0
    automatic_beavers: bool = False
    automatic_doubles: int = 0
    gammons: bool = True
    crawford: bool = True
    holland: bool = False

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if field.type in ("bool", bool) and not isinstance(value, bool):
                raise InvalidRulesError(
                    _("{name} is True or False, not {value}").format(name=field.name, value=repr(value))
                )
            if field.type in ("int", int) and (
                isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MOST
            ):
                raise InvalidRulesError(
                    _("{name} is a whole number from 0 to {most}, not {value}").format(
                        name=field.name, most=MOST, value=repr(value)
                    )
                )
        if self.automatic_beavers and not self.beavers:
            raise InvalidRulesError(_("automatic beavers need beavers allowed (beavers=1 or more)"))
        if not self.cube and (self.beavers or self.automatic_doubles or self.jacoby):
            raise InvalidRulesError(_("beavers, automatic doubles and the Jacoby rule need the cube"))

    def check_for_variant(self, variant: Variant) -> None:
        """Refuse the cube's options in a variant played without the cube (V2).

        >>> from tavola.variants import ACEY_DEUCEY
        >>> Rules(automatic_doubles=2).check_for_variant(ACEY_DEUCEY)
        Traceback (most recent call last):
        ...
        tavola.errors.InvalidRulesError: acey-deucey is played without the doubling cube: no beavers, \
automatic doubles or Jacoby rule (V2)
        """
        if not variant.cube and (self.beavers or self.automatic_doubles or self.jacoby):
            raise InvalidRulesError(
                _(
                    "{variant} is played without the doubling cube: "
                    "no beavers, automatic doubles or Jacoby rule (V2)"
                ).format(variant=variant.name)
            )

    def check_for_match(self) -> None:
        """Refuse the money-only options in a match (P4)."""
        for name, refusal in _MONEY_ONLY:
            if getattr(self, name):
                raise InvalidRulesError(_(refusal))

    def __repr__(self) -> str:
        changed = [
            f"{field.name}={getattr(self, field.name)!r}"
            for field in fields(self)
            if getattr(self, field.name) != field.default
        ]
        return f"Rules({', '.join(changed)})"


def _fits_a_float(amount: int | float) -> bool:
    """Whether ``amount`` is finite and, if a whole number, not too large for a float."""
    try:
        return math.isfinite(amount)
    except OverflowError:
        return False


def checked_stake(stake: object) -> float:
    """``stake``, what a point is worth in money play (M1), if it is a positive finite amount (a float's).

    >>> checked_stake(2.5)
    2.5
    >>> checked_stake(float("nan"))
    Traceback (most recent call last):
    ...
    tavola.errors.InvalidRulesError: the stake is a positive amount per point, not nan
    """
    if (
        isinstance(stake, bool)
        or not isinstance(stake, int | float)
        or not _fits_a_float(stake)
        or stake <= 0
    ):
        raise InvalidRulesError(
            _("the stake is a positive amount per point, not {stake}").format(stake=repr(stake))
        )
    return stake
