"""Tests of the gnubg oracle itself (tests/gnubg_oracle.py).

Boards are written as gnubg's: ``{point: checkers}`` in each player's own
numbering (1-24, 25 the bar), and a Position ID encodes the player not on roll
first.
"""

from __future__ import annotations

import base64

import pytest

from builders import START_COUNTS
from gnubg_oracle import GnubgError, apply_move, legal_plays, legal_results

START = "4HPwATDgc/ABMA"


def side(points: dict[int, int]) -> list[int]:
    counts = [0] * 25
    for point, n in points.items():
        counts[point - 1] = n
    return counts


def position_id(on_roll: dict[int, int], other: dict[int, int]) -> str:
    """gnubg's Position ID, written here independently of gnubg and of Tavola."""
    bits: list[int] = []
    for counts in (side(other), side(on_roll)):
        for n in counts:
            bits += [1] * n + [0]
    bits += [0] * (80 - len(bits))
    data = bytes(sum(bits[8 * k + i] << i for i in range(8)) for k in range(10))
    return base64.b64encode(data).decode()[:14]


START_SIDE = {24: 2, 13: 5, 8: 3, 6: 5}


def test_position_id_helper_matches_gnubg_start() -> None:
    assert position_id(START_SIDE, START_SIDE) == START


@pytest.mark.gnubg
def test_start_position_counts_for_all_21_rolls() -> None:
    rolls = [(int(roll[0]), int(roll[1])) for roll in START_COUNTS]
    results = legal_results([(START, die1, die2) for die1, die2 in rolls])
    assert {roll: len(found) for roll, found in zip(START_COUNTS, results, strict=True)} == START_COUNTS
    for found in results:
        assert START not in found


@pytest.mark.gnubg
def test_start_31_plays() -> None:
    [plays] = legal_plays([(START, 3, 1)])
    point = position_id({24: 2, 13: 5, 8: 2, 6: 4, 5: 2}, START_SIDE)
    assert plays[point] == "8/5 6/5"
    assert "24/20" in plays.values()
    # The die order does not matter.
    assert legal_results([(START, 1, 3)]) == [set(plays)]


@pytest.mark.gnubg
def test_closed_board_dance_is_the_pass() -> None:
    mover = {25: 1, 6: 4, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2}
    closed = {6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 13: 3}
    pid = position_id(mover, closed)
    queries = [(pid, die1, die2) for die1 in range(1, 7) for die2 in range(1, 7)]
    assert legal_results(queries) == [{pid}] * len(queries)
    assert legal_plays([(pid, 6, 6)]) == [{pid: ""}]


@pytest.mark.gnubg
def test_entering_from_the_bar_with_one_open_point() -> None:
    mover = {25: 2, 6: 13}
    nearly_closed = {6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 1, 13: 4}  # a blot on the mover's 24
    pid = position_id(mover, nearly_closed)
    [plays] = legal_plays([(pid, 1, 2)])  # only the 1 enters; then the bar still holds a checker
    hit = {**nearly_closed, 1: 0, 25: 1}
    assert plays == {position_id({25: 1, 24: 1, 6: 13}, hit): "bar/24*"}


@pytest.mark.gnubg
def test_bear_off() -> None:
    far = {1: 15}  # the other player, out of the way
    pid = position_id({6: 1, 2: 1}, far)
    [six_five, two_one] = legal_results([(pid, 6, 5), (pid, 2, 1)])
    # 6/off 2/off (the 5 may bear off the 2 once the 6 is gone), or 6/1 2/off;
    # the 5 can not bear off the 2 while the 6 is there.
    assert six_five == {position_id({}, far), position_id({1: 1}, far)}
    # 6/4/3 (= 6/5/3), 6/4 2/1, 6/5 2/off.
    assert two_one == {
        position_id({3: 1, 2: 1}, far),
        position_id({4: 1, 1: 1}, far),
        position_id({5: 1}, far),
    }


@pytest.mark.gnubg
def test_slow_path_agrees() -> None:
    queries = [(START, die1, die2) for die1 in range(1, 7) for die2 in range(1, die1 + 1)]
    assert legal_results(queries, fast=False) == legal_results(queries)


@pytest.mark.gnubg
def test_gnubg_refusing_a_position_raises() -> None:
    overlapping = position_id({6: 15}, {19: 15})  # both armies on the same point
    with pytest.raises(GnubgError, match="gnubg rejects query 1"):
        legal_results([(START, 3, 1), (overlapping, 3, 1)])


def test_bad_queries_raise_before_gnubg_runs() -> None:
    with pytest.raises(ValueError, match="die"):
        legal_results([(START, 0, 3)])
    with pytest.raises(ValueError, match="Position ID"):
        legal_results([("not an id", 3, 1)])
    assert legal_results([]) == []


def test_apply_move() -> None:
    # The other player's blot on its 15 is the mover's 10; its point on its 20 is the mover's 5.
    board = (side({15: 1, 20: 2}), side({13: 1, 6: 2, 1: 1}))
    assert apply_move(board, [(13, 10)]) == (side({25: 1, 20: 2}), side({10: 1, 6: 2, 1: 1}))
    assert apply_move(board, [(6, 0), (1, 0)]) == (side({15: 1, 20: 2}), side({13: 1, 6: 1}))
    assert apply_move((side({}), side({25: 1})), [(25, 20), (20, 16)]) == (side({}), side({16: 1}))
    with pytest.raises(ValueError, match="blocked"):
        apply_move(board, [(6, 5)])
    with pytest.raises(ValueError, match="no checker"):
        apply_move(board, [(12, 10)])
