"""What reading and writing SGF share: the points' letters, gnubg's rule names, Tavola's own properties.

>>> point_letter(0, 8), point_letter(1, 8), point_letter(1, 25), point_letter(0, 0)
('h', 'q', 'y', 'z')
>>> letter_point(1, "q")
8
"""

from __future__ import annotations

from tavola.variants import HYPERGAMMON, NACKGAMMON, STANDARD, Variant

__all__ = [
    "FORFEIT",
    "RESIGN",
    "RULES",
    "STAKE",
    "VARIANTS",
    "letter_point",
    "point_letter",
]

VARIANTS: dict[str, Variant] = {"Nackgammon": NACKGAMMON, "Hypergammon3": HYPERGAMMON}
"""The variants gnubg names in ``RU`` (the standard game is named by none)."""
assert STANDARD not in VARIANTS.values()

RULES = "XR"
"""Tavola's rules where gnubg's ``RU`` cannot say them (``XR[beavers=2, holland=True]``)."""
STAKE = "XS"
"""A money session's stake (``XS[2.5]``)."""
RESIGN = "XO"
"""A resignation offered (``XO[W:gammon]``), declined (``XO[W:gammon:declined]``)."""
FORFEIT = "XF"
"""The forfeit that ended the series, in the root of its last game (``XF[Player 2 time
2026-05-01T12:00:00Z]``, as :func:`tavola.records.outcomes.forfeit_tag` writes it)."""

_BAR, _OFF = 25, 0


def point_letter(player: int, point: int) -> str:
    """The letter of ``point`` in ``player``'s own numbering (bar 25, off 0): ``a`` is player 0's 1-point."""
    if point == _BAR:
        return "y"
    if point == _OFF:
        return "z"
    return chr(ord("a") + (point - 1 if player == 0 else 24 - point))


def letter_point(player: int, letter: str) -> int:
    """The point ``letter`` names in ``player``'s own numbering (bar 25, off 0); ``letter`` is ``a``-``z``."""
    if letter == "y":
        return _BAR
    if letter == "z":
        return _OFF
    index = ord(letter) - ord("a")
    return index + 1 if player == 0 else 24 - index
