"""What players do in a game, as immutable values.

:meth:`Game.legal_actions <tavola.game.Game.legal_actions>` lists them and
:meth:`Game.apply <tavola.game.Game.apply>` takes them; the game's log keeps
what was done as :class:`Entry` values (player and action), with the dice
filled in.

>>> Resign(WinKind.GAMMON)
Resign(WinKind.GAMMON)
>>> Roll(Dice(3, 1))
Roll(Dice(3, 1))
"""

from __future__ import annotations

from dataclasses import dataclass

from tavola.dice import Dice
from tavola.play import Move, Play
from tavola.position import WinKind


@dataclass(frozen=True)
class Roll:
    """Roll the dice; in the log, the dice rolled."""

    dice: Dice | None = None

    def __repr__(self) -> str:
        return "Roll()" if self.dice is None else f"Roll({self.dice!r})"


@dataclass(frozen=True)
class OpeningRoll:
    """The opening roll in the log: player 0's die and player 1's (R4)."""

    dice: tuple[int, int]


@dataclass(frozen=True)
class Double:
    """Offer the cube at twice its value, before rolling (C2)."""


@dataclass(frozen=True)
class Take:
    """Accept a double and own the cube (C3)."""


@dataclass(frozen=True)
class Drop:
    """Refuse a double and give up the game at the stake before it (C3)."""


@dataclass(frozen=True)
class Beaver:
    """Redouble at once when doubled, keeping the cube where it goes (M3, M4).

    The first is a beaver, the next (by the original doubler) a raccoon,
    then an otter, and so on while the rules allow.
    """


@dataclass(frozen=True)
class Resign:
    """Offer to give up the game as a single, gammon or backgammon (C6)."""

    kind: WinKind = WinKind.SINGLE

    def __repr__(self) -> str:
        return f"Resign(WinKind.{self.kind.name})"


@dataclass(frozen=True)
class AcceptResignation:
    """Accept the resignation offered: the game ends (C6)."""


@dataclass(frozen=True)
class DeclineResignation:
    """Decline the resignation offered: play goes on (C6)."""


@dataclass(frozen=True)
class ChooseDouble:
    """After an Acey-Deucey 1-2, the double to play next: 1-1 to 6-6 (V2)."""

    number: int


@dataclass(frozen=True)
class MoveCheckers:
    """Move one or more checkers as part of the turn's play; undoable until committed (R20)."""

    moves: str | tuple[Move, ...]


@dataclass(frozen=True)
class Undo:
    """Take back the last checkers moved this turn (R20)."""


@dataclass(frozen=True)
class Commit:
    """End the turn with the play made so far (R20)."""


@dataclass(frozen=True)
class Played:
    """A whole play, committed at once; in the log, each turn's play."""

    play: Play


Action = (
    Roll
    | OpeningRoll
    | Double
    | Take
    | Drop
    | Beaver
    | Resign
    | AcceptResignation
    | DeclineResignation
    | ChooseDouble
    | MoveCheckers
    | Undo
    | Commit
    | Played
)


@dataclass(frozen=True)
class Entry:
    """One line of a game's log: who did what."""

    player: int
    action: Action
