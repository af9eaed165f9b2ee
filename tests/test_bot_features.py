"""The contact features: shots, escapes and primes, against hand counts and the real move generator."""

from __future__ import annotations

import numpy as np
import pytest

from builders import position
from tavola import Dice, Position
from tavola.bot.features import features
from tavola.dice import ALL_ROLLS
from tavola.position import MY_BAR, THEIR_BAR
from tavola.sampling import random_positions

# Rolls (of 36) that hit a blot 1-12 pips from a single checker, nothing in between.
SHOTS_BY_DISTANCE = {1: 11, 2: 12, 3: 14, 4: 15, 5: 15, 6: 17, 7: 6, 8: 6, 9: 5, 10: 3, 11: 2, 12: 3}


def counts(pos: Position) -> list[int]:
    """The features as counts: shots and escapes of 36, prime in points."""
    values = features(pos.to_array()[None])[0]
    scale = [36, 36, 6, 36, 36, 6]
    return [round(float(value) * unit) for value, unit in zip(values, scale, strict=True)]


@pytest.mark.parametrize(("distance", "shots"), SHOTS_BY_DISTANCE.items())
def test_shots_at_a_blot_by_distance(distance: int, shots: int) -> None:
    # The opponent's checker sits on the mover's 6-point; the mover's blot is `distance` beyond it.
    pos = position({6 + distance: 1, 1: 14}, {6: 1, 24: 14})
    assert counts(pos)[0] == shots


def test_a_made_point_in_between_blocks_the_combination_shots() -> None:
    # An 8-away shot: 6-2 and 5-3 (two ways each), 4-4 and 2-2. A point made 2 away from the
    # hitter stops the 2-2; the 6-2 still goes round by the 6 first.
    open_board = position({14: 1, 1: 12}, {6: 1, 24: 14})
    blocked = position({14: 1, 8: 2, 1: 12}, {6: 1, 24: 14})
    assert counts(open_board)[0] == 6
    assert counts(blocked)[0] == 5


def test_two_on_the_bar_hit_only_where_they_enter() -> None:
    # The mover's blot is on its 3-point: the opponent enters on its 22, the mover's 3, with a 3.
    pos = position({3: 1, 13: 14}, {6: 13}, bar=(0, 2))
    # Any roll with a 3 (11 of 36), and 1-1: both enter on the 24-point, one goes on to hit.
    assert counts(pos)[0] == 12


def test_R10_a_closed_board_leaves_no_escape_and_a_six_prime_counts_six() -> None:
    prime = {point: 2 for point in range(2, 8)} | {13: 3}  # the opponent's 2- to 7-points
    pos = position({24: 1, 13: 14}, {25 - point: count for point, count in prime.items()})
    assert counts(pos)[1] == 0  # the mover's back checker behind the opponent's 6-prime
    assert counts(pos)[5] == 6  # the opponent's prime


def test_no_blockade_in_front_means_every_roll_escapes() -> None:
    pos = position({24: 1, 6: 14}, {24: 15})  # the opponent's checkers are all behind
    assert counts(pos)[1] == 36


def test_features_of_both_sides_swap_when_the_position_is_flipped() -> None:
    boards = np.array([p.to_array() for p in random_positions(200, seed=5)])
    flipped = np.array([Position.from_array(b).flip().to_array() for b in boards])
    mine, theirs = features(boards), features(flipped)
    assert (mine[:, :3] == theirs[:, 3:]).all()
    assert (mine[:, 3:] == theirs[:, :3]).all()


def exact_shots(pos: Position) -> int:
    """Rolls (of 36) after which the opponent has a legal play that hits, from the rules themselves."""
    opponent = pos.flip()
    total = 0
    for dice in ALL_ROLLS:
        if any(move.hit for play in opponent.legal_plays(dice) for move in play.moves):
            total += 1 if dice.high == dice.low else 2
    return total


def test_shots_agree_with_the_legal_plays_in_most_game_positions() -> None:
    """The feature simplifies (single hitters, no play-it-all rule); it must still nearly always agree."""
    positions = [p for p in random_positions(300, seed=11) if p.kind.value == "contact"]
    differences = [abs(counts(p)[0] - exact_shots(p)) for p in positions]
    agree = sum(1 for difference in differences if difference == 0)
    assert agree >= 0.85 * len(positions)
    assert np.mean(differences) < 1.0
    assert Dice(1, 1) in ALL_ROLLS  # the rolls are the 21 distinct ones, doubles weighted once


def _side_arrays(board: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each side's checkers on its own points 1-24, and on its bar at 25 (the mover's first)."""
    mover, opponent = np.zeros(26, np.int64), np.zeros(26, np.int64)
    mover[1:25] = np.maximum(board[1:25], 0)
    opponent[1:25] = np.maximum(-board[24:0:-1], 0)
    mover[25], opponent[25] = board[MY_BAR], board[THEIR_BAR]
    return mover, opponent


def test_the_fast_count_of_shots_equals_the_roll_by_roll_count() -> None:
    """Without checkers on the bar the shots are counted by blot-checker pairs; it must change nothing."""
    from tavola.bot.features import _shots_by_pairs, _shots_by_rolls, board_sets

    compared = 0
    for pos in random_positions(3000, seed=17):
        sets = board_sets(pos.to_array())
        for checkers, blots, made in (
            (sets.their_checkers, sets.my_blots_across, sets.my_made_across),
            (sets.my_checkers, sets.their_blots_across, sets.their_made_across),
        ):
            if blots:
                assert _shots_by_pairs(checkers, blots, made) == _shots_by_rolls(0, checkers, blots, made), (
                    pos
                )
                compared += 1
    assert compared > 1000


def test_the_board_sets_are_each_sides_points_in_either_numbering() -> None:
    from tavola.bot.features import board_sets

    def bits(points: np.ndarray) -> int:
        return sum(1 << int(point) for point in np.flatnonzero(points))

    for pos in random_positions(300, seed=18):
        board = pos.to_array()
        sets = board_sets(board)
        mover, opponent = _side_arrays(board)
        across = np.zeros(26, np.int64)  # a side's point p is the other's 25 - p
        for mine, checkers, made, blots_across, made_across in (
            (mover, sets.my_checkers, sets.my_made, sets.my_blots_across, sets.my_made_across),
            (opponent, sets.their_checkers, sets.their_made, sets.their_blots_across, sets.their_made_across),
        ):
            across[1:25] = mine[24:0:-1]
            assert checkers == bits(mine[:25] > 0)
            assert made == bits(mine[:25] >= 2)
            assert blots_across == bits(across[:25] == 1)
            assert made_across == bits(across[:25] >= 2)


def test_the_table_of_escapes_equals_the_roll_by_roll_count() -> None:
    """Escapes are looked up by the made points in front of the rearmost checker; it must change nothing."""
    from tavola.bot.features import _escapes, _escapes_ahead, _rearmost, board_sets

    counts = set()
    for pos in random_positions(3000, seed=19):
        board = pos.to_array()
        mover, opponent = _side_arrays(board)
        sets = board_sets(board)
        for runner, blocker, checkers, blocking in (
            (mover, opponent, sets.my_checkers, sets.their_made_across),
            (opponent, mover, sets.their_checkers, sets.my_made_across),
        ):
            found = _escapes_ahead(_rearmost(int(runner[25]), checkers), blocking)
            assert found == _escapes(runner, blocker), pos
            counts.add(found)
    assert len(counts) > 10  # many different blockades were met
