"""Small helpers to build positions in tests."""

from __future__ import annotations

import random

from tavola import Dice, Position
from tavola.game import Game

# The distinct plays of each roll from the starting position, as GNU Backgammon
# 1.07 counts them (resulting positions, not orders of moves).
START_COUNTS = {
    "11": 42, "21": 15, "31": 16, "41": 14, "51": 8, "61": 10,
    "22": 75, "32": 17, "42": 18, "52": 8, "62": 14,
    "33": 73, "43": 17, "53": 9, "63": 14,
    "44": 52, "54": 9, "64": 14,
    "55": 4, "65": 7,
    "66": 11,
}  # fmt: skip


def position(
    mine: dict[int, int],
    theirs: dict[int, int] | None = None,
    *,
    bar: tuple[int, int] = (0, 0),
    waiting: tuple[int, int] = (0, 0),
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
    return Position(board, bar=bar, waiting=waiting, checkers=checkers)


def notations(pos: Position, dice: str) -> set[str]:
    """The canonical notation of every legal play of ``dice``."""
    return {play.notation for play in pos.legal_plays(Dice.parse(dice))}


def play_randomly(game: Game, rng: random.Random, limit: int = 3000) -> None:
    """Choose uniformly among the legal actions until the game ends, checking every board."""
    for _ in range(limit):
        if game.is_over:
            return
        actions = game.legal_actions()
        assert actions, f"no legal action in phase {game.phase}"
        # Resigning at random would end most games at once; keep it rare.
        weights = [0.02 if type(action).__name__ == "Resign" else 1.0 for action in actions]
        game.apply(rng.choices(actions, weights)[0])
        board = game.position
        assert Position.from_array(board.to_array(), checkers=board.checkers) == board
    raise AssertionError("the game did not end")
