"""Board pictures: plain ASCII, coloured terminal text (rich) and SVG.

Each draws a :class:`~tavola.position.Position` as its mover sees it; the
cube is the game's own :class:`~tavola.cube.Cube`, drawn on its owner's side
of the board (``mover`` says which player the position's mover is).

>>> from tavola.position import Position
>>> "pips 167" in ascii_board(Position.start())
True
"""

from tavola.render._view import Home
from tavola.render.svg import svg_board
from tavola.render.text import ascii_board, rich_board

__all__ = ["Home", "ascii_board", "rich_board", "svg_board"]
