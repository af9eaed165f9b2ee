"""Small helpers to build positions in tests."""

from __future__ import annotations

from tavola import Dice, Position


def position(
    mine: dict[int, int],
    theirs: dict[int, int] | None = None,
    *,
    bar: tuple[int, int] = (0, 0),
    checkers: int = 15,
) -> Position:
    """A position from the mover's side: ``mine`` and ``theirs`` map the mover's point numbers to counts.

    Checkers not placed are borne off.
    """
    board = [0] * 24
    for point, count in mine.items():
        board[point - 1] += count
    for point, count in (theirs or {}).items():
        board[point - 1] -= count
    return Position(board, bar=bar, checkers=checkers)


def notations(pos: Position, dice: str) -> set[str]:
    """The canonical notation of every legal play of ``dice``."""
    return {play.notation for play in pos.legal_plays(Dice.parse(dice))}
