"""What chouette players do, and what the log records, as immutable values.

The checker play reuses the two-player game's actions (:class:`Roll`,
:class:`MoveCheckers`, :class:`Undo`, :class:`Commit`, :class:`Played`).
Cube actions name the opponents they are about, since one player may hold
several cubes: ``Double(("Ben", "Cid"))`` is the box doubling Ben and Cid,
``Take(("Ann",))`` a member taking the box's double. An empty tuple means
every cube the action can apply to.

:meth:`ChouetteGame.legal_actions <tavola.chouette.game.ChouetteGame.legal_actions>`
lists :class:`PlayerAction` values (who may do what); the log keeps
:class:`LogEntry` values, including what happened by itself (marked
*automatic* below).

>>> PlayerAction("Ann", Double(("Ben",)))
PlayerAction('Ann', Double(('Ben',)))
"""

from __future__ import annotations

from dataclasses import dataclass

from tavola.actions import Commit, MoveCheckers, OpeningRoll, Played, Roll, Undo
from tavola.play import Play

__all__ = [
    "AcceptPartnership",
    "AutomaticBeaver",
    "AutomaticDouble",
    "Beaver",
    "ChouetteAction",
    "Commit",
    "DeclineExtra",
    "DeclinePartnership",
    "Double",
    "DrawOrder",
    "Drop",
    "ForcedDrop",
    "GiveExtra",
    "Join",
    "Leave",
    "LogAction",
    "LogEntry",
    "MoveCheckers",
    "NewCaptain",
    "OpeningRoll",
    "PartnerDrawn",
    "Played",
    "PlayerAction",
    "Roll",
    "StartGame",
    "Suggest",
    "Take",
    "Undo",
]


@dataclass(frozen=True)
class Double:
    """Offer cubes at twice their value to the opponents named (C2, H5, H8)."""

    against: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"Double({self.against!r})"


@dataclass(frozen=True)
class Take:
    """Accept the doubles of the opponents named; the cubes come to the taker (C3)."""

    against: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"Take({self.against!r})"


@dataclass(frozen=True)
class Drop:
    """Refuse the doubles of the opponents named: pay and leave those cubes (C3, H5)."""

    against: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"Drop({self.against!r})"


@dataclass(frozen=True)
class Beaver:
    """Redouble at once when doubled, keeping the cube (M3, M4)."""

    against: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"Beaver({self.against!r})"


@dataclass(frozen=True)
class AcceptPartnership:
    """Become the box's partner for this game (H9)."""


@dataclass(frozen=True)
class DeclinePartnership:
    """Turn down the box's partnership; it is offered to the next in line (H9)."""


@dataclass(frozen=True)
class GiveExtra:
    """Having dropped the box's initial double, give the lone taker an extra cube (H7)."""


@dataclass(frozen=True)
class DeclineExtra:
    """Having dropped the box's initial double, give the lone taker no extra cube (H7)."""


@dataclass(frozen=True)
class Suggest:
    """A team member's suggested play for the captain; data only, the captain's play is final (H4)."""

    play: Play | str


ChouetteAction = (
    Roll
    | Double
    | Take
    | Drop
    | Beaver
    | MoveCheckers
    | Undo
    | Commit
    | Played
    | AcceptPartnership
    | DeclinePartnership
    | GiveExtra
    | DeclineExtra
    | Suggest
)
"""Everything a player chooses to do in a chouette game."""


@dataclass(frozen=True)
class PlayerAction:
    """Who may do what: one item of ``legal_actions()``."""

    player: str
    action: ChouetteAction

    def __repr__(self) -> str:
        return f"PlayerAction({self.player!r}, {self.action!r})"


# --- what the log records besides the players' actions ------------------------------------


@dataclass(frozen=True)
class Join:
    """A player sat down at the end of the queue (H3)."""


@dataclass(frozen=True)
class Leave:
    """A player left the table between games (H3)."""


@dataclass(frozen=True)
class DrawOrder:
    """The die rolls that set the order (H1): each round is who rolled what; ties roll again."""

    rounds: tuple[tuple[tuple[str, int], ...], ...]


@dataclass(frozen=True)
class StartGame:
    """A game started; a set-up game names its position (a Tavola ID) and the side on roll."""

    position: str | None = None
    side_on_roll: int | None = None


@dataclass(frozen=True)
class AutomaticDouble:
    """Automatic: a tie on the opening roll doubled every cube, which stays in the middle (M2)."""

    value: int


@dataclass(frozen=True)
class AutomaticBeaver:
    """Automatic: a take turned into a beaver under automatic beavers (M6)."""

    against: tuple[str, ...]


@dataclass(frozen=True)
class ForcedDrop:
    """Automatic: the last taker of the box's double must drop, since all the others dropped (H6)."""

    against: tuple[str, ...]


@dataclass(frozen=True)
class NewCaptain:
    """Automatic: the captain left the game; the player logged is captain for the rest of it (H5)."""


@dataclass(frozen=True)
class PartnerDrawn:
    """Automatic: nobody volunteered, so the partner logged was drawn with these dice (H9)."""

    dice: tuple[int, ...]


LogAction = (
    ChouetteAction
    | OpeningRoll
    | Join
    | Leave
    | DrawOrder
    | StartGame
    | AutomaticDouble
    | AutomaticBeaver
    | ForcedDrop
    | NewCaptain
    | PartnerDrawn
)
"""Everything the log of a chouette holds."""


@dataclass(frozen=True)
class LogEntry:
    """One line of the log: who (``None`` for the table) did what."""

    player: str | None
    action: LogAction
