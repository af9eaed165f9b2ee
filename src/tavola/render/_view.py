"""What every board picture shares: the options, the points in screen order, the position as seen.

The player whose side the viewer sits on is the *near* player, drawn at the
bottom; the other is the *far* player, drawn at the top.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tavola.cube import Cube
from tavola.position import Position

Home = Literal["right", "left"]
"""Where the near player's home board is drawn; display only (rule R3)."""
Side = Literal["mover", "opponent"]


@dataclass(frozen=True)
class BoardView:
    """A position as the viewer sees it.

    ``board`` holds points 1-24 numbered from the near player's side, its
    checkers positive; ``bar``, ``off``, ``pips`` and ``waiting`` (checkers
    not yet entered, Acey-Deucey) are (near, far) pairs.

    >>> view = BoardView.of(Position.start(), viewer_is_mover=False)
    >>> view.board[5], view.pips, view.near, view.far
    (5, (167, 167), 'opponent', 'mover')
    """

    board: tuple[int, ...]
    bar: tuple[int, int]
    off: tuple[int, int]
    pips: tuple[int, int]
    waiting: tuple[int, int]
    near: Side
    far: Side

    @classmethod
    def of(cls, position: Position, viewer_is_mover: bool = True) -> BoardView:
        """See ``position`` from the mover's side, or from the opponent's."""
        seen = position if viewer_is_mover else position.flip()
        near: Side = "mover" if viewer_is_mover else "opponent"
        far: Side = "opponent" if viewer_is_mover else "mover"
        return cls(seen.board, seen.bar, seen.off, seen.pip_counts(), seen.waiting, near, far)

    def owner(self, count: int) -> Side:
        """Whose checkers a signed count on :attr:`board` is."""
        return self.near if count > 0 else self.far


def screen_points(home: Home) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The points along the top and along the bottom, left to right, numbered from the near side.

    >>> screen_points("right")[1][:3], screen_points("left")[1][:3]
    ((12, 11, 10), (1, 2, 3))
    """
    top, bottom = tuple(range(13, 25)), tuple(range(12, 0, -1))
    return (top, bottom) if home == "right" else (top[::-1], bottom[::-1])


def cube_side(cube: Cube, mover: int) -> Side | None:
    """The side of the board the cube stands on when player ``mover`` is the position's mover: its
    owner's, or None in the middle.

    >>> cube_side(Cube(2, owner=1), mover=0), cube_side(Cube(2, owner=1), mover=1), cube_side(Cube(), 0)
    ('opponent', 'mover', None)
    """
    if cube.owner is None:
        return None
    return "mover" if cube.owner == mover else "opponent"


def check_options(home: str, mover: int) -> None:
    """Refuse a ``home`` or ``mover`` that the type hints would not allow."""
    if home not in ("right", "left"):
        raise ValueError(f"home is 'right' or 'left', not {home!r}")
    if mover not in (0, 1):
        raise ValueError(f"mover is player 0 or 1, not {mover!r}")
