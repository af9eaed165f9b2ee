"""Text boards: plain ASCII, and a coloured version for terminals, built from one layout.

:func:`board_rows` lays the picture out as rows of :class:`Cell`; the ASCII
board joins the cells' text, the rich board styles each cell by its role.
The mover's checkers are ``X``, the opponent's ``O`` (unless ``glyphs``
says other letters); a stack taller than five shows its count in its fifth
cell.

>>> print(ascii_board(Position.start(), dice=Dice(3, 1)))
+13-14-15-16-17-18-+---+19-20-21-22-23-24-+---+
| X           O    |   | O              X |   |
| X           O    |   | O              X |   |   O  pips 167
| X           O    |   | O                |   |
| X                |   | O                |   |
| X                |   | O                |   |
|                  |BAR|                  |OFF|   X to move, rolled 3-1
| O                |   | X                |   |
| O                |   | X                |   |
| O           X    |   | X                |   |
| O           X    |   | X              O |   |   X  pips 167
| O           X    |   | X              O |   |
+12-11-10--9--8--7-+---+-6--5--4--3--2--1-+---+
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, NamedTuple

from tavola.cube import Cube
from tavola.dice import Dice
from tavola.i18n import _, ngettext
from tavola.position import Position
from tavola.render._view import BoardView, Home, Side, check_options, cube_side, screen_points

if TYPE_CHECKING:
    from rich.text import Text

Role = Literal["frame", "label", "mover", "opponent", "text"]
Column = int | Literal["bar", "off"]

STACK = 5
"""Cells in a stack: the most checkers drawn one by one."""


class Cell(NamedTuple):
    """A piece of a row: its text and what it shows (the rich board styles by role)."""

    text: str
    role: Role


Row = tuple[Cell, ...]


def board_rows(
    position: Position,
    *,
    home: Home = "right",
    mover_name: str = "X",
    opponent_name: str = "O",
    dice: Dice | None = None,
    cube: Cube | None = None,
    mover: int = 0,
    viewer_is_mover: bool = True,
    glyphs: tuple[str, str] = ("X", "O"),
) -> list[Row]:
    """The board as 13 rows of cells, the notes (pips, turn, dice, cube) to the right of it.

    ``glyphs`` are the letters of the mover's and the opponent's checkers.

    >>> rows = board_rows(Position.start())
    >>> rows[1][1], rows[11][1]
    (Cell(text=' X ', role='mover'), Cell(text=' O ', role='opponent'))
    """
    check_options(home, mover)
    view = BoardView.of(position, viewer_is_mover)
    top, bottom = (_groups(points, home) for points in screen_points(home))
    letters: dict[Side, str] = {"mover": glyphs[0], "opponent": glyphs[1]}
    board = [
        _row(top, _number, "+"),
        *_half(view, top, view.far, letters),
        _row(top, _middle, "|"),
        *_half(view, bottom, view.near, letters)[::-1],
        _row(bottom, _number, "+"),
    ]
    labels: dict[Side, str] = {
        "mover": _label(mover_name, glyphs[0]),
        "opponent": _label(opponent_name, glyphs[1]),
    }
    notes = _notes(view, labels, dice, None if cube is None else (cube.value, cube_side(cube, mover)))
    return [row + note for row, note in zip(board, notes, strict=True)]


def ascii_board(
    position: Position,
    *,
    home: Home = "right",
    mover_name: str = "X",
    opponent_name: str = "O",
    dice: Dice | None = None,
    cube: Cube | None = None,
    mover: int = 0,
    viewer_is_mover: bool = True,
    glyphs: tuple[str, str] = ("X", "O"),
) -> str:
    """The board in plain ASCII, 13 lines, the viewer's home board at the bottom.

    ``home`` puts that home board on the right or the left; ``viewer_is_mover=False``
    draws the board from the opponent's side. ``cube`` is noted beside its owner's
    side, player ``mover`` being the position's mover.

    >>> print(ascii_board(Position.start(), home="left").splitlines()[-1])
    +---+-1--2--3--4--5--6-+---+-7--8--9-10-11-12-+
    """
    rows = board_rows(
        position,
        home=home,
        mover_name=mover_name,
        opponent_name=opponent_name,
        dice=dice,
        cube=cube,
        mover=mover,
        viewer_is_mover=viewer_is_mover,
        glyphs=glyphs,
    )
    return "\n".join("".join(cell.text for cell in row) for row in rows)


def rich_board(
    position: Position,
    *,
    home: Home = "right",
    mover_name: str = "X",
    opponent_name: str = "O",
    dice: Dice | None = None,
    cube: Cube | None = None,
    mover: int = 0,
    viewer_is_mover: bool = True,
    colors: tuple[str, str] = ("white", "red"),
    glyphs: tuple[str, str] = ("X", "O"),
) -> Text:
    """The ASCII board as a :class:`rich.text.Text`, the mover's and opponent's parts in ``colors``.

    >>> rich_board(Position.start()).plain == ascii_board(Position.start())
    True
    """
    from rich.text import Text

    styles: dict[Role, str] = {
        "frame": "dim",
        "label": "bold",
        "mover": f"bold {colors[0]}",
        "opponent": f"bold {colors[1]}",
        "text": "",
    }
    rows = board_rows(
        position,
        home=home,
        mover_name=mover_name,
        opponent_name=opponent_name,
        dice=dice,
        cube=cube,
        mover=mover,
        viewer_is_mover=viewer_is_mover,
        glyphs=glyphs,
    )
    lines = (Text.assemble(*((cell.text, styles[cell.role]) for cell in row)) for row in rows)
    return Text("\n", no_wrap=True).join(lines)


def _groups(points: tuple[int, ...], home: Home) -> list[list[Column]]:
    """The columns of one edge in groups between frame lines: two quadrants, the bar, the tray."""
    quadrants: list[list[Column]] = [list(points[:6]), ["bar"], list(points[6:])]
    return [*quadrants, ["off"]] if home == "right" else [["off"], *quadrants]


def _row(groups: list[list[Column]], cell: Callable[[Column], Cell], separator: str) -> Row:
    """One row: a cell per column, frame lines between the groups and at both ends."""
    line = Cell(separator, "frame")
    return (line, *(part for group in groups for part in (*map(cell, group), line)))


def _number(column: Column) -> Cell:
    """A cell of an edge: the point number, or frame."""
    return Cell(f"{column:-^3}", "label") if isinstance(column, int) else Cell("---", "frame")


def _middle(column: Column) -> Cell:
    """A cell of the middle row, which labels the bar and the tray (three characters each)."""
    if isinstance(column, int):
        return Cell("   ", "text")
    label = (
        # TRANSLATORS: the bar's label in the middle row of the text board: exactly 3 characters.
        _("BAR")
        if column == "bar"
        # TRANSLATORS: the label of the tray of borne-off checkers on the text board: exactly 3 characters.
        else _("OFF")
    )
    return Cell(f"{label:^3.3}", "label")  # a longer translation would shift the board's columns


def _half(view: BoardView, groups: list[list[Column]], side: Side, letters: dict[Side, str]) -> list[Row]:
    """The five rows of one half, from its edge to the middle; ``side``'s bar checkers and tray are here."""
    index = 0 if side == view.near else 1
    stacks: dict[Column, list[Cell]] = {"bar": _stack(view.bar[index], side, letters)[::-1]}
    stacks["off"] = _stack(view.off[index], side, letters)
    for column in (column for group in groups for column in group if isinstance(column, int)):
        count = view.board[column - 1]
        stacks[column] = _stack(abs(count), view.owner(count), letters)
    return [_row(groups, _level(stacks, level), "|") for level in range(STACK)]


def _level(stacks: dict[Column, list[Cell]], level: int) -> Callable[[Column], Cell]:
    """The cell of each column's stack at ``level``."""
    return lambda column: stacks[column][level]


def _stack(count: int, side: Side, letters: dict[Side, str]) -> list[Cell]:
    """The cells of a stack from its base; past five checkers the fifth cell shows the count."""
    marks = [letters[side] if level < count else "" for level in range(STACK)]
    if count > STACK:
        marks[-1] = str(count)
    return [Cell(f"{mark:^3}", side if mark else "text") for mark in marks]


def _label(name: str, glyph: str) -> str:
    """How a side is named in the notes: its glyph, or its name and glyph."""
    return glyph if name == glyph else f"{name} ({glyph})"


def _notes(
    view: BoardView, labels: dict[Side, str], dice: Dice | None, cube: tuple[int, Side | None] | None
) -> list[Row]:
    """The notes beside each of the 13 rows: each side's pips by its half, the turn in the middle."""
    notes: list[Row] = [()] * 13
    # TRANSLATORS: beside the board: a side ("X", or "Ann (X)") and its pip count.
    pips = _("{side}  pips {pips}")
    notes[2] = _note(pips.format(side=labels[view.far], pips=view.pips[1]), view.far)
    notes[10] = _note(pips.format(side=labels[view.near], pips=view.pips[0]), view.near)
    for row, waiting, side in ((1, view.waiting[1], view.far), (11, view.waiting[0], view.near)):
        if waiting:
            # TRANSLATORS: beside the board: a side and its checkers not yet entered (Acey-Deucey).
            to_enter = ngettext("{side}  {count} to enter", "{side}  {count} to enter", waiting)
            notes[row] = _note(to_enter.format(side=labels[side], count=waiting), side)
    if dice is None:
        # TRANSLATORS: beside the board: whose turn it is ("X", or "Ann (X)").
        turn = _("{side} to move").format(side=labels["mover"])
    else:
        # TRANSLATORS: beside the board: whose turn it is and the dice rolled, e.g. "X to move, rolled 3-1".
        turn = _("{side} to move, rolled {high}-{low}").format(
            side=labels["mover"], high=dice.high, low=dice.low
        )
    notes[6] = _note(turn, "mover")
    if cube is not None:
        value, cube_at = cube
        row = 6 if cube_at is None else 3 if cube_at == view.far else 9
        # TRANSLATORS: beside the board: the doubling cube and its value.
        notes[row] += _note(_("cube {value}").format(value=value), "text")
    return notes


def _note(text: str, role: Role) -> Row:
    """A note, set apart from the board."""
    return (Cell("   ", "text"), Cell(text, role))
