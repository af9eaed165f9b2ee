"""Exceptions raised by Tavola.

Every error a user can cause is a :class:`TavolaError`, itself a
:class:`ValueError`, so ``except ValueError`` catches them all. Each one says
what was wrong, and the object it was raised from is left unchanged.
"""

from __future__ import annotations


class TavolaError(ValueError):
    """Base class of every error caused by bad input."""


class InvalidPositionError(TavolaError):
    """A position breaks the rules of the board (checker counts, shared points)."""


class InvalidDiceError(TavolaError):
    """Dice that are not two numbers from 1 to 6."""


class InvalidIdError(TavolaError):
    """A malformed gnubg Position ID, Match ID or XGID."""


class NotationError(TavolaError):
    """Text that cannot be read as a play in backgammon notation."""


class IllegalPlayError(TavolaError):
    """A play the rules do not allow for this position and roll."""


class AmbiguousPlayError(IllegalPlayError):
    """Text that describes more than one legal play."""
