"""Board pictures: plain ASCII, coloured terminal text (rich) and SVG.

>>> from tavola.position import Position
>>> "pips 167" in ascii_board(Position.start())
True
"""

from tavola.render._view import Cube, CubeOwner, Home
from tavola.render.svg import svg_board
from tavola.render.text import ascii_board, rich_board

__all__ = ["Cube", "CubeOwner", "Home", "ascii_board", "rich_board", "svg_board"]
