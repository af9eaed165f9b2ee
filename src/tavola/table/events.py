"""What happens at a table, as plain data values that a view renders in its own language.

A table (:mod:`tavola.table`) hands every event to its listeners and keeps
them in order (:attr:`~tavola.table.GameTable.events`). Seats are 0 and 1 at
a two-player table and the players' names at a chouette.

>>> from tavola.dice import Dice
>>> DiceRolled(1, Dice(6, 5))
DiceRolled(seat=1, dice=Dice(6, 5))
"""

from __future__ import annotations

from dataclasses import dataclass

from tavola.chouette.actions import LogAction
from tavola.chouette.ledger import GameSettlement
from tavola.chouette.seating import Round, Seating
from tavola.cube import Cube
from tavola.dice import Dice
from tavola.play import Move, Play
from tavola.position import WinKind
from tavola.scoring import Outcome

__all__ = [
    "AutomaticBeaver",
    "CheckersMoved",
    "ChouetteActed",
    "ChouetteGameOver",
    "ChouetteGameStarted",
    "DiceRolled",
    "DoubleBeavered",
    "DoubleChosen",
    "DoubleDropped",
    "DoubleOffered",
    "DoubleTaken",
    "Event",
    "Forfeited",
    "GameOver",
    "GameStarted",
    "MoveUndone",
    "OpeningRolled",
    "OpeningTie",
    "OrderDrawn",
    "PlayMade",
    "ResignationAccepted",
    "ResignationDeclined",
    "ResignationOffered",
    "SeatId",
    "SeriesOver",
]

SeatId = int | str
"""Who acts: seat 0 or 1 at a two-player table, a player's name at a chouette."""


# --- the checkers, at both tables ---------------------------------------------------------


@dataclass(frozen=True)
class GameStarted:
    """A new game of the series begins; ``number`` counts from 1."""

    number: int


@dataclass(frozen=True)
class OpeningTie:
    """The opening roll was a tie, rolled again (R4); ``cube`` is the cube's value now (M2)."""

    cube: int


@dataclass(frozen=True)
class OpeningRolled:
    """The opening roll: ``first`` plays the two dice first (R4)."""

    dice: Dice
    first: SeatId


@dataclass(frozen=True)
class DiceRolled:
    """``seat`` rolled for its turn."""

    seat: SeatId
    dice: Dice


@dataclass(frozen=True)
class PlayMade:
    """``seat`` played ``play`` (no moves: a pass); ``forced`` when it was the only legal play (R11)."""

    seat: SeatId
    play: Play
    forced: bool = False


@dataclass(frozen=True)
class CheckersMoved:
    """``seat`` moved checkers, part of a play not yet committed (R20)."""

    seat: SeatId
    moves: tuple[Move, ...]


@dataclass(frozen=True)
class MoveUndone:
    """``seat`` took back the checkers moved last (R20)."""

    seat: SeatId


# --- the two-player game's cube and resignations ------------------------------------------


@dataclass(frozen=True)
class DoubleOffered:
    """``seat`` doubles: the cube goes to ``value`` if taken (C2)."""

    seat: int
    value: int


@dataclass(frozen=True)
class DoubleTaken:
    """``seat`` takes; ``cube`` is the cube now (C3)."""

    seat: int
    cube: Cube


@dataclass(frozen=True)
class AutomaticBeaver:
    """The take was a beaver, as every take is under these rules: the cube goes to ``value`` (M6)."""

    seat: int
    value: int


@dataclass(frozen=True)
class DoubleBeavered:
    """``seat`` redoubles at once: the cube is at ``value`` if taken (M3, M4)."""

    seat: int
    value: int


@dataclass(frozen=True)
class DoubleDropped:
    """``seat`` drops the double and gives up the game (C3)."""

    seat: int


@dataclass(frozen=True)
class ResignationOffered:
    """``seat`` offers to resign ``kind`` (C6)."""

    seat: int
    kind: WinKind


@dataclass(frozen=True)
class ResignationAccepted:
    """``seat`` accepts the resignation: the game ends at the result offered (C6)."""

    seat: int


@dataclass(frozen=True)
class ResignationDeclined:
    """``seat`` declines the resignation: play goes on (C6)."""

    seat: int


@dataclass(frozen=True)
class DoubleChosen:
    """After an Acey-Deucey 1-2, ``seat`` plays the double ``number`` (V2)."""

    seat: int
    number: int


@dataclass(frozen=True)
class GameOver:
    """Game ``number`` (from 1) ended with ``outcome``."""

    number: int
    outcome: Outcome


@dataclass(frozen=True)
class Forfeited:
    """``seat`` forfeits the series for ``reason`` (out of ``time``, ``absent``, ``left``): the game in
    progress and the match are lost (:meth:`tavola.match.Match.forfeit`)."""

    seat: int
    reason: str


@dataclass(frozen=True)
class SeriesOver:
    """The match is won by ``winner`` at ``score`` (P1)."""

    winner: int
    score: tuple[int, int]


# --- the chouette ----------------------------------------------------------------------------


@dataclass(frozen=True)
class OrderDrawn:
    """The players rolled for the order, ties again (H1): each round's dice."""

    rounds: tuple[Round, ...]


@dataclass(frozen=True)
class ChouetteGameStarted:
    """Game ``number`` (from 1) begins: ``box`` against ``team``, ``captain`` rolling for it (H1, H2)."""

    number: int
    box: str
    team: tuple[str, ...]
    captain: str


@dataclass(frozen=True)
class ChouetteActed:
    """An entry of the chouette's log other than a roll or a play: ``player`` (``None``: nobody, it
    happened by itself) did ``action`` (a double, an answer, a join, a new captain...)."""

    player: str | None
    action: LogAction


@dataclass(frozen=True)
class ChouetteGameOver:
    """Game ``number`` (from 1) is settled; ``seating`` is the next game's (H2, H10)."""

    number: int
    settlement: GameSettlement
    seating: Seating | None


Event = (
    GameStarted
    | OpeningTie
    | OpeningRolled
    | DiceRolled
    | PlayMade
    | CheckersMoved
    | MoveUndone
    | DoubleOffered
    | DoubleTaken
    | AutomaticBeaver
    | DoubleBeavered
    | DoubleDropped
    | ResignationOffered
    | ResignationAccepted
    | ResignationDeclined
    | DoubleChosen
    | GameOver
    | Forfeited
    | SeriesOver
    | OrderDrawn
    | ChouetteGameStarted
    | ChouetteActed
    | ChouetteGameOver
)
"""Everything a table announces."""
