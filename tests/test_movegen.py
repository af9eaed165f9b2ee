"""The compiled move generator's entry points."""

from __future__ import annotations

import numpy as np
import pytest

from builders import START_COUNTS, position
from tavola import ALL_ROLLS, Position
from tavola.movegen import HIT_NEEDS_HOME, generate, generate_batch, next_moves, single_moves


@pytest.mark.parametrize("roll", ALL_ROLLS, ids=str)
def test_play_counts_from_the_start(roll):
    assert len(Position.start().legal_plays(roll)) == START_COUNTS[str(roll)]


def test_batch_counts_match_for_all_rolls_in_one_call():
    start = Position.start().to_array()
    offsets, results, moves = generate_batch(np.repeat(start[None], 21, axis=0), np.array(ALL_ROLLS))
    assert [int(n) for n in np.diff(offsets)] == [START_COUNTS[str(roll)] for roll in ALL_ROLLS]
    assert results.shape == (sum(START_COUNTS.values()), 30)
    assert moves.shape == (sum(START_COUNTS.values()), 4, 3)


def test_R13_the_pass_is_the_unchanged_position_with_no_moves():
    closed = position({6: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 1: 3}, bar=(1, 0))
    results, moves = generate(closed.to_array(), 6, 6)
    assert (results == closed.to_array()).all()
    assert (moves == -1).all()


def test_moves_record_hits():
    pos = position({13: 1, 1: 14}, {10: 1, 20: 14})
    _results, moves = generate(pos.to_array(), 3, 3)
    assert (moves[:, 0] == [13, 10, 1]).all()


def test_an_empty_batch():
    offsets, results, moves = generate_batch(
        np.zeros((0, 30), dtype=np.int8), np.zeros((0, 2), dtype=np.int8)
    )
    assert offsets.tolist() == [0]
    assert len(results) == len(moves) == 0


@pytest.mark.parametrize(
    ("positions", "dice"),
    [
        (np.zeros((2, 27)), np.ones((2, 2))),
        (np.zeros((2, 30)), np.ones((3, 2))),
        (np.zeros((2, 30)), np.full((2, 2), 7)),
    ],
)
def test_batch_input_is_checked(positions, dice):
    with pytest.raises(ValueError, match="must"):
        generate_batch(positions, dice)


def test_the_batch_grows_past_its_first_allocation():
    doubles = np.repeat(Position.start().to_array()[None], 3000, axis=0)
    offsets, results, _ = generate_batch(doubles, np.full((3000, 2), 2))
    assert int(offsets[-1]) == 75 * 3000
    assert len(results) == 75 * 3000


def test_R9_single_moves_enter_from_the_bar_first():
    barred = position({13: 5, 6: 9}, {19: 2, 22: 1}, bar=(1, 0))
    moves, results = single_moves(barred.to_array(), 3)
    assert moves.tolist() == [[25, 22, 1]]  # entering on their blot hits it (R8)
    assert results[0].tolist() == Position.from_array(results[0]).to_array().tolist()


def test_R5_R15_single_moves_avoid_blocked_points_and_bear_off_from_the_highest():
    blocked = position({13: 2, 8: 1}, {7: 2, 2: 2})
    assert single_moves(blocked.to_array(), 6)[0].tolist() == []  # 13/7 and 8/2 land on two (R5)
    assert single_moves(blocked.to_array(), 5)[0].tolist() == [[13, 8, 0], [8, 3, 0]]
    home = position({5: 2, 3: 1}, {19: 2})
    assert single_moves(home.to_array(), 6)[0].tolist() == [[5, 0, 0]]  # a larger die: the highest (R15)
    assert single_moves(home.to_array(), 3)[0].tolist() == [[5, 2, 0], [3, 0, 0]]


def test_V1_single_moves_do_not_hit_before_a_checker_is_home_in_dutch():
    far = position({20: 15}, {17: 1, 1: 14})
    assert single_moves(far.to_array(), 3)[0].tolist() == [[20, 17, 1]]
    assert single_moves(far.to_array(), 3, HIT_NEEDS_HOME)[0].tolist() == []


def test_single_moves_take_a_die_of_1_to_6():
    with pytest.raises(ValueError, match="die"):
        single_moves(Position.start().to_array(), 7)


def test_R12_next_moves_keep_only_the_larger_die_when_one_of_two_can_be_played():
    # 6-5, the last checker outside home on the 24-point: 24/18 or 24/19, then the 13-point is blocked
    last = position({24: 1, 1: 14}, {13: 2, 12: 2})
    results, _moves = generate(last.to_array(), 6, 5)
    assert next_moves(last.to_array(), (6, 5), results).tolist() == [[24, 18, 0]]


def test_next_moves_of_a_played_out_roll_are_none():
    start = Position.start().to_array()
    assert next_moves(start, (), start[np.newaxis]).shape == (0, 3)


@pytest.mark.parametrize("dice", [(7,), (6, 5, 4), (1, 1, 1, 1, 1)], ids=str)
def test_next_moves_take_what_is_left_of_a_roll(dice):
    start = Position.start().to_array()
    with pytest.raises(ValueError, match="dice"):
        next_moves(start, dice, start[np.newaxis])
