"""The example positions the rules texts show, drawn by the engine's own board.

A text asks for a picture with a line ``{{board: NAME}}``; :func:`picture`
draws the example called NAME with :func:`tavola.render.text.ascii_board`,
so a picture can never disagree with the rules Tavola plays by. Each
:class:`Example` keeps the variant it belongs to, and the roll where the
text discusses one, so tests can check that the text's claims hold.

>>> sorted(BOARDS)[:3]
['acey-deucey-start', 'bar-entry', 'bearoff']
>>> print(picture("hypergammon-start").splitlines()[1])
|                  |   |          X  X  X |   |
>>> picture("chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tavola.guide.boards.UnknownBoardError: no example board 'chess': acey-deucey-start, bar-entry, ...
"""

from __future__ import annotations

from dataclasses import dataclass

from tavola.dice import Dice
from tavola.errors import TavolaError
from tavola.position import Position
from tavola.render.text import ascii_board
from tavola.variants import ACEY_DEUCEY, DUTCH, HYPERGAMMON, NACKGAMMON, STANDARD, Variant

__all__ = ["BOARDS", "Example", "UnknownBoardError", "picture"]


class UnknownBoardError(TavolaError):
    """A ``{{board: NAME}}`` line naming no example position."""


@dataclass(frozen=True)
class Example:
    """A position a text shows, with the roll it discusses (if any) and its variant."""

    position: Position
    dice: Dice | None = None
    variant: Variant = STANDARD

    def picture(self) -> str:
        """The position as the ASCII board draws it, the roll beside it."""
        return ascii_board(self.position, dice=self.dice)


def _position(mine: dict[int, int], theirs: dict[int, int], *, bar: tuple[int, int] = (0, 0)) -> Position:
    """A position from the mover's side: point numbers to counts; checkers not placed are borne off."""
    board = [0] * 24
    for point, count in mine.items():
        board[point - 1] += count
    for point, count in theirs.items():
        board[point - 1] -= count
    return Position(board, bar=bar)


BOARDS: dict[str, Example] = {
    # R2: the standard start.
    "start": Example(Position.start()),
    # R9, E3: X is on the bar with 6-4; O's 6-point (X's 19) is closed, so the 4 must enter on X's 21.
    "bar-entry": Example(
        _position({24: 2, 13: 4, 8: 3, 6: 5}, {19: 4, 20: 2, 17: 3, 12: 4, 1: 2}, bar=(1, 0)),
        Dice(6, 4),
    ),
    # R15, E4: the highest checker is on the 4-point; the 6 bears off from there.
    "bearoff": Example(
        _position({4: 2, 3: 3, 2: 2, 1: 2}, {24: 2, 23: 3, 22: 3, 21: 2, 20: 2, 19: 3}),
        Dice(6, 1),
    ),
    # V1: every checker starts on the bar.
    "dutch-start": Example(DUTCH.start, variant=DUTCH),
    # V1: no X checker is home yet, so 24/18 may not hit the blot on the 18-point.
    "dutch-no-hit": Example(
        _position({24: 3, 23: 3, 22: 3, 21: 2, 20: 2, 19: 2}, {1: 3, 2: 3, 3: 3, 4: 2, 5: 2, 18: 1, 14: 1}),
        Dice(6, 2),
        DUTCH,
    ),
    # V2: every checker waits to enter, and none of them is on the bar.
    "acey-deucey-start": Example(ACEY_DEUCEY.start, variant=ACEY_DEUCEY),
    # V4 and V5: the starts of the two variants with other layouts.
    "nackgammon-start": Example(NACKGAMMON.start, variant=NACKGAMMON),
    "hypergammon-start": Example(HYPERGAMMON.start, variant=HYPERGAMMON),
}
"""The example positions by name, in the order the texts first use them."""


def picture(name: str) -> str:
    """The ASCII board of the example called ``name``."""
    try:
        example = BOARDS[name]
    except KeyError:
        known = ", ".join(sorted(BOARDS))
        raise UnknownBoardError(f"no example board {name!r}: {known}") from None
    return example.picture()
