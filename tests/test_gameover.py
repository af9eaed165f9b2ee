"""The end of a game over arrays: over or not, who won, and what it pays in every variant."""

from __future__ import annotations

import numpy as np
import pytest

from tavola import Position
from tavola.gameover import Scoring, game_over, game_points, in_play
from tavola.position import WinKind
from tavola.variants import ACEY_DEUCEY, DUTCH, HYPERGAMMON, NACKGAMMON, STANDARD, VARIANTS, Variant


def _random_finished(variant: Variant, rng: np.random.Generator) -> Position:
    """A finished game of ``variant``: one side has borne off all, the other's checkers lie anywhere."""
    checkers = variant.checkers
    # The loser's checkers not borne off: often all of them, for gammons and backgammons.
    left = checkers if rng.random() < 0.5 else int(rng.integers(1, checkers + 1))
    lowest = 6 if rng.random() < 0.5 else 0  # half the time none in the winner's home board
    board = [0] * 24
    bar = waiting = 0
    for _ in range(left):
        place = int(rng.integers(lowest, 26 if variant is ACEY_DEUCEY else 25))  # 24: the bar, 25: waiting
        if place == 24:
            bar += 1
        elif place == 25:
            waiting += 1
        else:
            board[place] -= 1  # the loser is the opponent here, seen from the winner
    winner_view = Position(board, bar=(0, bar), waiting=(0, waiting), checkers=checkers)
    return winner_view if rng.random() < 0.5 else winner_view.flip()


def _brute_force(position: Position, scoring: Scoring, gammons: bool) -> int:
    """The rules read plainly, one position at a time, from the winner's side (R19, V2, M6)."""
    mine, theirs = position.sides()
    mover_done = sum(mine) == 0 and position.waiting[0] == 0
    opponent_done = sum(theirs) == 0 and position.waiting[1] == 0
    if not (mover_done or opponent_done):
        return 0
    winner = position if mover_done else position.flip()
    sign = 1 if mover_done else -1
    loser_counts = winner.sides()[1]
    loser_waiting = winner.waiting[1]
    loser_off = winner.off[1]
    if scoring is Scoring.CHECKERS_LEFT:
        return sign * (sum(loser_counts) + loser_waiting)
    if not gammons or loser_off > 0:
        return sign
    # The loser's own points 19-24 are the winner's home board; index 24 is the loser's bar.
    caught = loser_counts[24] > 0 or loser_waiting > 0 or any(loser_counts[18:24])
    return sign * (3 if caught else 2)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda variant: variant.name)
@pytest.mark.parametrize("gammons", [True, False])
def test_R19_V2_V5_game_points_agree_with_the_rules_on_random_finished_games(variant, gammons):
    rng = np.random.default_rng(len(variant.name) + 10 * gammons)
    positions = [_random_finished(variant, rng) for _ in range(400)]
    boards = np.stack([position.to_array() for position in positions])
    found = game_points(boards, variant.scoring, gammons=gammons)
    expected = [_brute_force(position, variant.scoring, gammons) for position in positions]
    assert found.tolist() == expected
    assert game_over(boards).all()
    if variant.scoring is Scoring.STANDARD and gammons:
        assert {abs(points) for points in expected} == {1, 2, 3}  # the sample covers every kind


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda variant: variant.name)
def test_R18_a_game_going_on_pays_nothing(variant):
    from tavola.sampling import random_positions

    boards = np.stack([p.to_array() for p in random_positions(200, seed=3, variant=variant)])
    assert not game_over(boards).any()
    assert (game_points(boards, variant.scoring) == 0).all()
    assert (in_play(boards)[0] + boards[:, 0] == variant.checkers).all()


def test_R19_position_result_is_game_points_for_one_position():
    rng = np.random.default_rng(5)
    for variant in (STANDARD, NACKGAMMON, HYPERGAMMON, DUTCH):
        for _ in range(100):
            position = _random_finished(variant, rng)
            result = position.result()
            assert result is not None
            assert result.points == int(game_points(position.to_array()))
    assert Position.start().result() is None


def test_V5_hypergammon_games_end_with_three_checkers_off():
    won = Position([-3] + [0] * 23, off=(3, 0), checkers=3)  # all 3 in the winner's home board
    assert won.result().kind is WinKind.BACKGAMMON
    assert int(game_points(won.to_array())) == 3
    assert int(game_points(won.flip().to_array())) == -3


def test_V2_checkers_never_entered_are_paid_for_and_are_never_borne_off():
    lost = Position([0] * 23 + [-1], off=(15, 10), waiting=(0, 4))  # the loser: 1 on the board, 4 waiting
    assert int(game_points(lost.to_array(), Scoring.CHECKERS_LEFT)) == 5
    assert ACEY_DEUCEY.points(lost) == 5
    waiting_only = Position([0] * 24, off=(0, 14), waiting=(15, 1))  # nothing on the board, none off
    assert not game_over(waiting_only.to_array())
    assert ACEY_DEUCEY.points(waiting_only) is None
