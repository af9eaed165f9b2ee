"""Exceptions raised by Tavola.

Every error a user can cause is a :class:`TavolaError`, itself a
:class:`ValueError`, so ``except ValueError`` catches them all. Each one says
what was wrong, and the object it was raised from is left unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field


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


@dataclass(frozen=True)
class SeatedText:
    """A message that names players by their seats (0 and 1), said by number or with their names.

    ``numbered`` and ``named`` are the message's two untranslated texts: the
    first names each seat as "player 0", the second by the name a view gives
    it. ``seats`` maps fields to seats; ``values`` fills the other fields (a
    value that is itself a :class:`SeatedText` is said the same way).

    >>> text = SeatedText("player {player} waits", "{player} waits", {"player": 1})
    >>> text.say(), text.say(("Ann", "Bo"))
    ('player 1 waits', 'Bo waits')
    """

    numbered: str
    named: str
    seats: Mapping[str, int]
    values: Mapping[str, object] = field(default_factory=dict)

    def say(self, names: Sequence[str] | None = None) -> str:
        """The message in the language in use, with ``names`` (one per seat) or with the seats' numbers."""
        from tavola.i18n import _

        values = {
            key: value.say(names) if isinstance(value, SeatedText) else value
            for key, value in self.values.items()
        }
        seats = {key: seat if names is None else names[seat] for key, seat in self.seats.items()}
        return _(self.numbered if names is None else self.named).format(**values, **seats)


class IllegalActionError(TavolaError):
    """A game action the rules do not allow now (say, a double while the opponent owns the cube).

    Raised with a :class:`SeatedText`, its message names the seats by number
    and :meth:`naming` says it with the players' names.
    """

    def __init__(self, message: str | SeatedText) -> None:
        self.seated = message if isinstance(message, SeatedText) else None
        super().__init__(message.say() if isinstance(message, SeatedText) else message)

    def naming(self, names: Sequence[str]) -> str:
        """The message with ``names`` (one per seat) for the seats it names.

        >>> error = OutOfTurnError(SeatedText("player {player} waits", "{player} waits", {"player": 0}))
        >>> str(error), error.naming(("Ann", "Bo"))
        ('player 0 waits', 'Ann waits')
        """
        return str(self) if self.seated is None else self.seated.say(names)


class OutOfTurnError(IllegalActionError):
    """An action by a player whose turn it is not (R21)."""


class InvalidRulesError(TavolaError):
    """Settings that do not go together (beavers in a match, a negative stake)."""


class DiceNeededError(TavolaError):
    """A dice source that cannot give the dice asked for (none entered yet, or the wrong kind)."""


class DiceVerificationError(TavolaError):
    """Revealed dice that do not match their commitment; ``index`` names the first wrong die, if any."""

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index


class InvalidSecretError(TavolaError):
    """A dice secret that is too short, or text that is not a secret in hexadecimal."""


class RecordError(TavolaError):
    """A saved match or session (.mat, JSON) that cannot be read, or a series a format cannot hold.

    The message names the line (or the JSON field) and what is wrong; ``line`` is
    the line number, where there is one.
    """

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class SeatingError(TavolaError):
    """A chouette player joining, leaving or starting a game when the table does not allow it (H1, H3)."""


class WrongSideError(OutOfTurnError):
    """A chouette action for the other side: the box acting for the team, or a team member for the box."""


class NotInGameError(IllegalActionError):
    """A chouette player acting in a game they are not in, or no longer in (they dropped, H5)."""


class ConsultationError(IllegalActionError):
    """A suggested play the chouette's consultation policy, or the player's place, does not allow (H4)."""


class LedgerError(TavolaError):
    """A chouette ledger that does not balance: what is won and paid must sum to zero (H10)."""
