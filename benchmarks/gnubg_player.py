"""GNU Backgammon as an opponent for the strength benchmark, through PyPI's ``gnubg`` module.

The module is not a dependency of Tavola: :func:`load_gnubg` imports it and,
where it is missing, installs it into the running interpreter with pip
first. :class:`GnubgPlayer` plays cubeless money checker play at gnubg's
0-ply or n-ply:

* at 0-ply it judges every legal result itself, each by gnubg's cubeless
  0-ply evaluation seen from the opponent, and plays the best: the same
  choice as gnubg's own move finder at 0-ply, without any filter;
* at 1 ply or more it asks gnubg's move finder (``findbestmove``, with
  gnubg's default move filters) and plays the legal result its play leads
  to. The module ends a play's list at its first checker borne off, so a
  play bearing off two or more checkers cannot always be read back; there
  the 0-ply choice is played (bear-offs, where gnubg's 0-ply reads its
  bear-off database and looking ahead rarely changes the play).

gnubg's board is two lists of 25 counts, points 1-24 and the bar, each seen
from its own side: first the side not on roll, then the side on roll.

>>> from tavola.position import Position
>>> board = gnubg_board(Position.start().to_array())
>>> board[1][5], board[1][23], board[0][12]
(5, 2, 5)
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from tavola.bot.network import OUTPUTS, equity
from tavola.bot.search import best_in_groups
from tavola.position import MY_BAR, MY_OFF, THEIR_BAR
from tavola.selfplay import Candidates

IntArray = npt.NDArray[np.int8]
Indices = npt.NDArray[np.int64]


def load_gnubg() -> ModuleType:
    """The ``gnubg`` module, installed from PyPI into this interpreter first if it is missing."""
    try:
        return importlib.import_module("gnubg")
    except ImportError:
        print("installing PyPI's gnubg for the benchmark (not a dependency of Tavola)", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "gnubg"], check=True)
        importlib.invalidate_caches()
        return importlib.import_module("gnubg")


def gnubg_board(board: IntArray) -> tuple[list[int], list[int]]:
    """A board in Tavola's layout (seen from the mover) as gnubg's: (the other side, the mover)."""
    cells = board.astype(np.int64)
    mover = [max(int(value), 0) for value in cells[1:25]] + [int(cells[MY_BAR])]
    other = [max(-int(value), 0) for value in cells[24:0:-1]] + [int(cells[THEIR_BAR])]
    return other, mover


def _side_key(board: IntArray) -> bytes:
    """The mover's and the opponent's checkers of a board, as bytes to compare results by."""
    return np.asarray(board[:28], dtype=np.int8).tobytes()


class GnubgPlayer:
    """gnubg's cubeless money checker play at ``plies`` (0 = its bare network), as a batched policy.

    >>> player = GnubgPlayer(0)
    >>> player
    GnubgPlayer(plies=0)
    """

    def __init__(self, plies: int = 0) -> None:
        if plies < 0:
            raise ValueError(f"plies is 0 or more, not {plies}")
        self.plies = plies
        self.gnubg = load_gnubg()
        self._context = self.gnubg.evalcontext(0, plies, 1, 0, 0.0)  # cubeless, deterministic, no noise
        self._cube = self.gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0)

    def __repr__(self) -> str:
        return f"GnubgPlayer(plies={self.plies})"

    def as_policy(self) -> GnubgPlayer:
        """This player as the self-play kernel's policy (it is one)."""
        return self

    def choose(self, before: IntArray, results: IntArray, dice: tuple[int, int]) -> int:
        """The index of the row of ``results`` gnubg plays from ``before`` with ``dice``."""
        if len(results) == 1:
            return 0
        if self.plies == 0:
            return int(np.argmax(self._mover_equities(results)))
        return self._found(before, results, dice)

    def __call__(self, candidates: Candidates) -> Indices:
        if self.plies == 0:
            # one pass over all rows; single-row games are judged too, harmlessly
            equities = self._mover_equities(candidates.results)
            return best_in_groups(candidates.offsets, equities)
        rows = candidates.offsets[:-1].copy()
        for index in np.flatnonzero(candidates.counts > 1):
            begin, end = candidates.offsets[index], candidates.offsets[index + 1]
            dice = (int(candidates.dice[index, 0]), int(candidates.dice[index, 1]))
            rows[index] += self._found(candidates.boards[index], candidates.results[begin:end], dice)
        return rows

    def _mover_equities(self, results: IntArray) -> npt.NDArray[np.float64]:
        """Each result's cubeless equity for the mover, by gnubg's evaluation from the opponent's side."""
        evaluate, cube, context = self.gnubg.evaluate, self._cube, self._context
        # gnubg's first five figures are Tavola's five probabilities, in the same order
        opponent = np.array(
            [evaluate(gnubg_board(result)[::-1], cube, context)[:OUTPUTS] for result in results]
        ).reshape(-1, OUTPUTS)  # the opponent is on roll after the play
        return -equity(opponent)

    def _found(self, before: IntArray, results: IntArray, dice: tuple[int, int]) -> int:
        """The row of ``results`` that gnubg's move finder's play leads to."""
        move: Any = self.gnubg.findbestmove(gnubg_board(before), self._cube, self._context, dice)
        after = _apply(before, move)
        keys = [_side_key(result) for result in results]
        if _side_key(after) in keys:
            return keys.index(_side_key(after))
        # The module cuts a play short at its first checker borne off (its 0 ends the list), so
        # a bear-off of two or more checkers cannot be read back: play gnubg's 0-ply choice there.
        if 0 not in move and len(move) % 2 == 0:
            problem = f"gnubg's play {move} from {before.tolist()} is not among the legal results"
            raise RuntimeError(problem)
        return int(np.argmax(self._mover_equities(results)))


def _apply(before: IntArray, move: Any) -> IntArray:
    """The board after gnubg's move ``(from, to, from, to, ...)`` (25 the bar, 0 off), from the mover."""
    board = before.astype(np.int8).copy()
    steps = [*move, 0] if len(move) % 2 else list(move)
    for start, end in zip(steps[::2], steps[1::2], strict=True):
        source = MY_BAR if start == 25 else start
        board[source] -= 1
        if end <= 0:
            board[MY_OFF] += 1
            continue
        if board[end] == -1:  # a hit: the opponent's blot goes to its bar
            board[end] = 0
            board[THEIR_BAR] += 1
        board[end] += 1
    return board
