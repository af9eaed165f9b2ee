"""The board pictures: ASCII, rich and SVG."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import pytest
from rich.console import Console

from tavola.cube import Cube
from tavola.dice import Dice
from tavola.position import START_BOARD, Position
from tavola.render import ascii_board, rich_board, svg_board

SVG = "{http://www.w3.org/2000/svg}"


def cells(line: str, edge: str) -> list[str]:
    """The 3-character cells of a board line, cut where ``edge`` (a numbered edge line) has frame corners."""
    corners = [index for index, char in enumerate(edge) if char == "+"]
    return [line[i : i + 3] for start, end in itertools.pairwise(corners) for i in range(start + 1, end, 3)]


def stack(board: str, where: int | str, half: str = "") -> list[str]:
    """The marks of one column from its edge: point ``where`` (found by its number), or the bar or tray."""
    lines = board.splitlines()
    if isinstance(where, int):
        label = f"{where:-^3}"
        half = "top" if label in cells(lines[0], lines[0]) else "bottom"
    edge, rows = (lines[0], lines[1:6]) if half == "top" else (lines[12], lines[11:6:-1])
    labels = cells(lines[6], edge) if isinstance(where, str) else cells(edge, edge)
    column = labels.index(where if isinstance(where, str) else f"{where:-^3}")
    return [cells(row, edge)[column].strip() for row in rows]


def marks(count: int, glyph: str) -> list[str]:
    """What a stack of ``count`` checkers shows, from its base."""
    shown = [glyph] * min(count, 5) + [""] * (5 - min(count, 5))
    return [*shown[:4], str(count)] if count > 5 else shown


def glyph(count: int) -> str:
    return "X" if count > 0 else "O"


# --- ASCII -------------------------------------------------------------------


def test_start_board_lines() -> None:
    lines = ascii_board(Position.start()).splitlines()
    assert len(lines) == 13
    assert lines[0] == "+13-14-15-16-17-18-+---+19-20-21-22-23-24-+---+"
    assert lines[1].startswith("| X           O    |   | O              X |   |")
    assert lines[6].startswith("|                  |BAR|                  |OFF|")
    assert lines[11].startswith("| O           X    |   | X              O |   |")
    assert lines[12] == "+12-11-10--9--8--7-+---+-6--5--4--3--2--1-+---+"


@pytest.mark.parametrize("home", ["right", "left"])
def test_start_stacks_on_their_points(home: str) -> None:
    board = ascii_board(Position.start(), home=home)  # type: ignore[arg-type]
    for point, count in enumerate(START_BOARD, start=1):
        assert stack(board, point) == marks(abs(count), glyph(count)), point
    assert stack(board, 24) == ["X", "X", "", "", ""]
    assert stack(board, 6) == ["X"] * 5


def test_plain_ascii_and_aligned() -> None:
    board = ascii_board(Position.start(), dice=Dice(3, 1), cube=Cube(2))
    assert board.isascii()
    assert "\x1b" not in board
    assert {line[46] for line in board.splitlines()} <= {"|", "+"}


def test_mirrored_board_puts_point_one_on_the_other_side() -> None:
    right = ascii_board(Position.start()).splitlines()
    left = ascii_board(Position.start(), home="left").splitlines()
    assert right[12].index("-1-") > 30
    assert left[12].startswith("+---+-1--2--3--4--5--6-+---+-7--8--9-10-11-12-+")
    assert left[0].startswith("+---+24-23-22-21-20-19-+---+18-17-16-15-14-13-+")
    assert left[6].startswith("|OFF|                  |BAR|")
    assert left[1].startswith("|   | X              O |   |    O           X |")


def test_opponents_view_numbers_points_from_the_other_side() -> None:
    board = ascii_board(Position.start(), viewer_is_mover=False)
    lines = board.splitlines()
    assert lines[12].startswith("+12-11-10--9--8--7-+---+-6--5--4--3--2--1-+---+")
    for point, count in enumerate(START_BOARD, start=1):
        assert stack(board, 25 - point) == marks(abs(count), glyph(count)), point
    assert stack(board, 1) == ["X", "X", "", "", ""]  # the mover's 24-point
    assert stack(board, 6) == ["O"] * 5  # the mover's 19-point, the opponent's 6-point
    assert "O  pips 167" in lines[10]
    assert "X  pips 167" in lines[2]
    assert "X to move" in lines[6]


def test_pips_turn_dice_and_names() -> None:
    lines = ascii_board(Position.start(), dice=Dice(1, 3), mover_name="Ann", opponent_name="Bob").splitlines()
    assert lines[2].endswith("Bob (O)  pips 167")
    assert lines[10].endswith("Ann (X)  pips 167")
    assert lines[6].endswith("Ann (X) to move, rolled 3-1")


@pytest.mark.parametrize(
    ("owner", "mover", "row"), [(None, 0, 6), (1, 0, 3), (0, 0, 9), (0, 1, 3), (1, 1, 9)]
)
def test_cube_beside_its_owner(owner: int | None, mover: int, row: int) -> None:
    lines = ascii_board(Position.start(), cube=Cube(4, owner), mover=mover).splitlines()
    assert [index for index, line in enumerate(lines) if "cube 4" in line] == [row]


def test_bar_off_and_tall_stacks() -> None:
    board_points = [0] * 24
    board_points[5], board_points[0], board_points[23], board_points[18] = 9, -3, 1, -7
    position = Position(board_points, bar=(2, 1))
    assert position.off == (3, 4)
    board = ascii_board(position)
    assert stack(board, 6) == ["X", "X", "X", "X", "9"]
    assert stack(board, 19) == ["O", "O", "O", "O", "7"]
    assert stack(board, "BAR", "bottom") == ["", "", "", "X", "X"]  # from the middle out
    assert stack(board, "BAR", "top") == ["", "", "", "", "O"]
    assert stack(board, "OFF", "bottom") == ["X", "X", "X", "", ""]
    assert stack(board, "OFF", "top") == ["O", "O", "O", "O", ""]
    pips = position.pip_counts()
    assert f"X  pips {pips[0]}" in board
    assert f"O  pips {pips[1]}" in board


def test_fifteen_off() -> None:
    position = Position([0] * 18 + [-15] + [0] * 5, off=(15, 0))
    board = ascii_board(position)
    assert stack(board, "OFF", "bottom") == ["X", "X", "X", "X", "15"]
    assert stack(board, 19) == ["O", "O", "O", "O", "15"]
    assert "X  pips 0" in board


@pytest.mark.parametrize(
    "options",
    [{"home": "top"}, {"mover": 2}, {"mover": None}],
)
def test_bad_options(options: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=r"^(home|mover) is"):
        ascii_board(Position.start(), **options)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^(home|mover) is"):
        svg_board(Position.start(), **options)  # type: ignore[arg-type]


# --- rich --------------------------------------------------------------------


@pytest.mark.parametrize("viewer_is_mover", [True, False])
def test_rich_board_shows_the_ascii_text(viewer_is_mover: bool) -> None:
    position = Position([0] * 5 + [9, -2] + [0] * 16 + [1], bar=(2, 1))
    options = {"dice": Dice(6, 6), "cube": Cube(2, owner=1), "viewer_is_mover": viewer_is_mover}
    console = Console(record=True, width=100, color_system="truecolor")
    console.print(rich_board(position, **options))  # type: ignore[arg-type]
    shown = [line.rstrip() for line in console.export_text().splitlines()]
    assert shown == ascii_board(position, **options).splitlines()  # type: ignore[arg-type]


def test_rich_board_colours_each_side() -> None:
    text = rich_board(Position.start(), colors=("blue", "red"))
    styles = {str(span.style) for span in text.spans}
    assert {"bold blue", "bold red"} <= styles
    red = "".join(text.plain[span.start : span.end] for span in text.spans if span.style == "bold red")
    assert set(red) <= set("O pips167")


# --- SVG ---------------------------------------------------------------------


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def elements(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [element for element in root.iter(f"{SVG}{tag}") if element.get("class") == cls]


def texts(root: ET.Element) -> list[str]:
    return [element.text or "" for element in root.iter(f"{SVG}text")]


def test_svg_start_position() -> None:
    root = parse(svg_board(Position.start(), size=500))
    assert root.get("width") == "500"
    assert len(elements(root, "circle", "checker")) == 30
    assert len(root.findall(f"{SVG}polygon")) == 24
    assert {str(point) for point in range(1, 25)} <= set(texts(root))
    assert texts(root).count("167 pips") == 1
    assert "167 pips \u2022 to move" in texts(root)


def test_svg_bar_off_and_tall_stacks() -> None:
    board_points = [0] * 24
    board_points[5], board_points[0], board_points[23], board_points[18] = 9, -3, 1, -7
    root = parse(svg_board(Position(board_points, bar=(2, 1))))
    assert len(elements(root, "circle", "checker")) == 5 + 3 + 1 + 5 + 2 + 1
    assert len(elements(root, "rect", "off")) == 3 + 4
    assert {"9", "7", "3", "4"} <= set(texts(root))


def test_svg_mirrored_numbers() -> None:
    def x_of(root: ET.Element, label: str) -> float:
        return next(float(e.get("x", "")) for e in root.iter(f"{SVG}text") if e.text == label)

    right = parse(svg_board(Position.start()))
    left = parse(svg_board(Position.start(), home="left"))
    assert x_of(right, "1") > x_of(right, "12")
    assert x_of(left, "1") < x_of(left, "12")
    assert x_of(left, "1") == pytest.approx(x_of(right, "12"))


def test_svg_dice_and_cube() -> None:
    root = parse(svg_board(Position.start(), dice=Dice(3, 1), cube=Cube()))
    assert len(elements(root, "circle", "pip")) == 4
    assert "64" in texts(root)
    root = parse(svg_board(Position.start(), cube=Cube(8, owner=0), colors=("#ffffff", "#000000")))
    assert "8" in texts(root)
    assert len(elements(root, "circle", "pip")) == 0
