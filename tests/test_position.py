"""The Position value: building, validating and reading it."""

from __future__ import annotations

import copy
import pickle

import pytest

from builders import position
from tavola import Dice, InvalidPositionError, Position, PositionKind
from tavola.position import START_BOARD


def test_R2_start_position():
    start = Position.start()
    assert start.board == START_BOARD
    assert {point: start[point] for point in (24, 13, 8, 6)} == {24: 2, 13: 5, 8: 3, 6: 5}
    assert {point: start[point] for point in (1, 12, 17, 19)} == {1: -2, 12: -5, 17: -3, 19: -5}
    assert start.bar == (0, 0)
    assert start.off == (0, 0)


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Position([1] * 24), "has 24 checkers in play"),
        (lambda: Position([0] * 23), "24 points, not 23"),
        (lambda: Position(START_BOARD, bar=(-1, 0)), "negative"),
        (lambda: Position(START_BOARD, off=(1, 0)), "16, not 15"),
        (lambda: Position(START_BOARD, bar=(1,)), "pair"),  # type: ignore[arg-type]
        (lambda: Position([0.5] * 24), "whole number"),  # type: ignore[list-item]
        (lambda: Position([0] * 24, off=(15, 15)), "both sides"),
        (
            lambda: Position.from_sides([1] + [0] * 23 + [14], [0] * 23 + [1] + [14]),
            "point 1 is held by both",
        ),
        (lambda: Position.from_sides([0] * 24, [0] * 25), "24 points and the bar"),
        (lambda: Position.from_array([0] * 27), "30 values"),
    ],
)
def test_building_an_impossible_position_raises(build, message):
    with pytest.raises(InvalidPositionError, match=message):
        build()


def test_R1_other_numbers_of_checkers():
    three = position({24: 1, 23: 1, 22: 1}, {1: 1, 2: 1, 3: 1}, checkers=3)
    assert three.checkers == 3
    assert three.pip_counts() == (69, 69)
    assert eval(repr(three)) == three


def test_pip_counts_count_the_bar_as_25():
    pos = position({6: 14}, {19: 15}, bar=(1, 0))
    assert pos.pip_counts() == (14 * 6 + 25, 15 * 6)


@pytest.mark.parametrize(
    ("mine", "theirs", "kind"),
    [
        ({6: 15}, {19: 15}, PositionKind.BEAROFF),
        ({6: 14, 8: 1}, {19: 15}, PositionKind.RACE),
        ({6: 14, 20: 1}, {19: 15}, PositionKind.CONTACT),
        ({}, {19: 15}, PositionKind.OVER),
    ],
)
def test_position_kind(mine, theirs, kind):
    assert position(mine, theirs).kind is kind


def test_a_checker_on_the_bar_is_contact():
    assert position({6: 14}, {19: 15}, bar=(1, 0)).kind is PositionKind.CONTACT


def test_flip_swaps_the_sides():
    pos = position({6: 14}, {19: 14, 3: 1}, bar=(1, 0))
    flipped = pos.flip()
    assert flipped[22] == 1
    assert flipped[19] == -14
    assert flipped.bar == (0, 1)
    assert flipped.off == (0, 0)


def test_positions_are_values():
    start = Position.start()
    assert start == Position(list(START_BOARD))
    assert len({start, Position.start(), start.flip()}) == 1  # the start is symmetric
    assert pickle.loads(pickle.dumps(start)) == start
    assert copy.deepcopy(start) is start
    with pytest.raises(AttributeError):
        start._raw = b""  # type: ignore[misc]
    play = start.legal_plays(Dice(3, 1))[0]
    with pytest.raises(AttributeError):
        play.after = start  # type: ignore[misc]
    with pytest.raises(ValueError, match="read-only"):
        start.to_array()[1] = 3


def test_point_numbers_are_checked():
    with pytest.raises(IndexError):
        Position.start()[25]


def test_boards_are_drawn():
    text = str(Position.start())
    assert "pips 167" in text
    assert Position.start()._repr_svg_().startswith("<svg")
