"""The board as a standalone SVG document, built as a string.

The mover sits at the bottom; point numbers are the mover's. Checkers on
the points and the bar are circles (``class="checker"``), at most five to a
stack, the fifth carrying the count of a taller one; borne-off checkers are
slices in the trays beside the home boards. Drawing units are checker
widths; ``size`` is the width in pixels.

>>> import xml.etree.ElementTree as ET
>>> root = ET.fromstring(svg_board(Position.start(), size=300))
>>> root.get("width"), len(root.findall(".//{http://www.w3.org/2000/svg}circle[@class='checker']"))
('300', 30)
"""

from __future__ import annotations

from html import escape

from tavola.cube import Cube
from tavola.dice import Dice
from tavola.position import Position
from tavola.render._view import BoardView, Home, Side, check_options, cube_side, screen_points

WIDTH, HEIGHT = 17.2, 15.0
FRAME = 0.4  # the frame's width around the playing area and the side columns
SIDE = 1.2  # the width of a side column: the trays on the home side, the cube on the other
BAR = 1.2
BOARD_X = FRAME + SIDE + FRAME  # the left edge of the playing area
TOP, BOTTOM, MIDDLE = 2.0, 13.0, 7.5  # the playing area's edges and middle
RADIUS = 0.45
STACK = 5
SLICE = 0.3  # the height of a borne-off checker in its tray

BACKGROUND, WOOD, FELT, TRAY, INK = "#faf6ee", "#6b4226", "#2f6b45", "#24573a", "#333333"
TRIANGLES = ("#e9dcc0", "#b5432f")
OUTLINE: dict[str, str | float] = {"stroke": "#000000", "stroke_width": 0.03}
DIE_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


def svg_board(
    position: Position,
    *,
    size: int = 400,
    home: Home = "right",
    colors: tuple[str, str] = ("#f6f1e3", "#262626"),
    dice: Dice | None = None,
    cube: Cube | None = None,
    mover: int = 0,
) -> str:
    """The board seen by the mover as an SVG document ``size`` pixels wide.

    ``colors`` are the mover's and the opponent's checkers; ``dice`` are
    drawn on the mover's right, ``cube`` beside the board at its owner's
    end, player ``mover`` being the position's mover (a centred cube at 1
    shows 64, like a real one).
    """
    check_options(home, mover)
    view = BoardView.of(position)
    paint: dict[Side, tuple[str, str]] = {"mover": colors, "opponent": (colors[1], colors[0])}
    trays_x = BOARD_X + 12 + BAR + FRAME if home == "right" else FRAME
    parts = [
        _tag("title", "Backgammon position"),
        _tag("rect", width=WIDTH, height=HEIGHT, fill=BACKGROUND),
        _tag("rect", y=TOP - FRAME, width=WIDTH, height=BOTTOM - TOP + 2 * FRAME, rx=0.2, fill=WOOD),
        *_points(view, home, paint),
        *_bar(view, paint),
        *_trays(view, trays_x, paint),
        *_captions(view, paint),
        *(_cube(cube.value, cube_side(cube, mover), WIDTH - trays_x - SIDE) if cube is not None else []),
        *(_dice(dice, paint["mover"]) if dice is not None else []),
    ]
    height = round(size * HEIGHT / WIDTH)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{height}" '
        f'viewBox="0 0 {WIDTH:g} {HEIGHT:g}" font-family="sans-serif" role="img">\n'
        + "\n".join(parts)
        + "\n</svg>\n"
    )


def _tag(name: str, text: str = "", /, **attributes: str | float) -> str:
    """One element; ``class_`` stands for ``class``, underscores in other names for hyphens."""
    pairs = "".join(f' {_name(key)}="{_value(value)}"' for key, value in attributes.items())
    return f"<{name}{pairs}>{escape(text)}</{name}>" if text else f"<{name}{pairs}/>"


def _name(key: str) -> str:
    return key.rstrip("_").replace("_", "-")


def _value(value: str | float) -> str:
    return escape(value) if isinstance(value, str) else f"{round(value, 3):g}"


def _column_x(column: int) -> float:
    """The centre of a screen column 0-11 of points, left to right."""
    return BOARD_X + column + 0.5 + (BAR if column >= 6 else 0)


def _points(view: BoardView, home: Home, paint: dict[Side, tuple[str, str]]) -> list[str]:
    """The felt, the 24 triangles with their numbers and their stacks."""
    parts = [
        _tag("rect", x=BOARD_X + offset, y=TOP, width=6, height=BOTTOM - TOP, fill=FELT)
        for offset in (0, 6 + BAR)
    ]
    for edge, direction, points in zip((TOP, BOTTOM), (1, -1), screen_points(home), strict=True):
        for column, point in enumerate(points):
            x, tip = _column_x(column), edge + direction * (MIDDLE - TOP - 0.9)
            colour = TRIANGLES[(column + (direction < 0)) % 2]
            corners = f"{x - 0.5:g},{edge:g} {x + 0.5:g},{edge:g} {x:g},{tip:g}"
            parts.append(_tag("polygon", points=corners, fill=colour))
            number_y = edge - direction * (FRAME + 0.35)
            parts.append(_text(str(point), x, number_y, 0.42, INK))
            count = view.board[point - 1]
            parts += _stack(abs(count), x, edge, direction, paint[view.owner(count)])
    return parts


def _bar(view: BoardView, paint: dict[Side, tuple[str, str]]) -> list[str]:
    """The checkers on the bar, each side's in its own half, from the middle out."""
    x = BOARD_X + 6 + BAR / 2
    near = _stack(view.bar[0], x, MIDDLE + 0.05, 1, paint[view.near])
    return near + _stack(view.bar[1], x, MIDDLE - 0.05, -1, paint[view.far])


def _stack(count: int, x: float, base: float, direction: int, paint: tuple[str, str]) -> list[str]:
    """Up to five checkers from ``base`` towards ``direction``; the fifth shows a taller stack's count."""
    fill, ink = paint
    centres = [base + direction * (RADIUS + 2 * RADIUS * level) for level in range(min(count, STACK))]
    parts = [
        _tag("circle", class_="checker", cx=x, cy=y, r=RADIUS - 0.02, fill=fill, **OUTLINE) for y in centres
    ]
    if count > STACK:
        parts.append(_text(str(count), x, centres[-1], 0.45, ink, font_weight="bold"))
    return parts


def _trays(view: BoardView, x: float, paint: dict[Side, tuple[str, str]]) -> list[str]:
    """The trays beside the home boards with the borne-off checkers as slices and their count."""
    parts = []
    trays = ((BOTTOM, -1, view.off[0], view.near), (TOP, 1, view.off[1], view.far))
    for edge, direction, count, side in trays:
        top = min(edge, edge + direction * (MIDDLE - TOP - 0.2))
        parts.append(_tag("rect", x=x, y=top, width=SIDE, height=MIDDLE - TOP - 0.2, fill=TRAY))
        fill, _ = paint[side]
        for level in range(count):
            y = min(edge + direction * SLICE * level, edge + direction * SLICE * (level + 1)) + 0.02
            shape = {"x": x + 0.15, "y": y, "width": SIDE - 0.3, "height": SLICE - 0.04, "rx": 0.05}
            parts.append(_tag("rect", class_="off", fill=fill, **shape, **OUTLINE))
        if count:
            label_y = edge + direction * (SLICE * count + 0.4)
            parts.append(_text(str(count), x + SIDE / 2, label_y, 0.4, "#ffffff"))
    return parts


def _captions(view: BoardView, paint: dict[Side, tuple[str, str]]) -> list[str]:
    """Each side's pip count beside a checker of its colour, the mover's below the board."""
    waiting = [f" \u2022 {count} to enter" if count else "" for count in view.waiting]
    lines = (
        (HEIGHT - 0.45, view.pips[0], view.near, f"{waiting[0]} \u2022 to move"),
        (0.45, view.pips[1], view.far, waiting[1]),
    )
    parts = []
    for y, pips, side, extra in lines:
        fill, _ = paint[side]
        parts.append(_tag("circle", cx=BOARD_X + 0.2, cy=y, r=0.22, fill=fill, **OUTLINE))
        parts.append(_text(f"{pips} pips{extra}", BOARD_X + 0.6, y, 0.42, INK, text_anchor="start"))
    return parts


def _cube(value: int, side: Side | None, x: float) -> list[str]:
    """The cube in the side column away from the trays: in the middle, or at its owner's end."""
    y = {None: MIDDLE, "opponent": TOP + 0.6, "mover": BOTTOM - 0.6}[side]
    face = "64" if value == 1 else str(value)
    x += SIDE / 2
    return [
        _tag("rect", x=x - 0.45, y=y - 0.45, width=0.9, height=0.9, rx=0.1, fill="#fffdf5", **OUTLINE),
        _text(face, x, y, 0.45, INK, font_weight="bold"),
    ]


def _dice(dice: Dice, paint: tuple[str, str]) -> list[str]:
    """The mover's dice in the middle of the right half."""
    fill, ink = paint
    parts = []
    for x, value in zip((BOARD_X + 6 + BAR + 2.5, BOARD_X + 6 + BAR + 3.5), dice, strict=True):
        shape = {"x": x - 0.4, "y": MIDDLE - 0.4, "width": 0.8, "height": 0.8, "rx": 0.12}
        parts.append(_tag("rect", fill=fill, **shape, **OUTLINE))
        parts += [
            _tag("circle", class_="pip", cx=x + 0.22 * dx, cy=MIDDLE + 0.22 * dy, r=0.08, fill=ink)
            for dx, dy in DIE_PIPS[value]
        ]
    return parts


def _text(text: str, x: float, y: float, size: float, fill: str, **attributes: str | float) -> str:
    """Text centred on (x, y) unless ``text_anchor`` says otherwise."""
    attributes.setdefault("text_anchor", "middle")
    return _tag("text", text, x=x, y=y, font_size=size, fill=fill, dominant_baseline="central", **attributes)
