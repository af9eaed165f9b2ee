"""Invariants that hold for every position and roll."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strategies import dice, finished_positions, positions
from tavola import Dice, IllegalPlayError, Move, Play, Position  # noqa: F401  (names used by eval of reprs)
from tavola.movegen import generate_batch
from tavola.sampling import random_positions

game_positions = st.integers(0, 2**32 - 1).map(lambda seed: random_positions(1 + seed % 40, seed=seed)[-1])
any_position = st.one_of(positions(), game_positions)
playable = any_position.filter(lambda position: position.result() is None)
quick = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@quick
@given(playable, dice)
def test_R1_every_play_keeps_fifteen_checkers_a_side(position, roll):
    for play in position.legal_plays(roll):
        again = Position.from_array(play.after.to_array())  # validates every count
        assert again == play.after
        mine, theirs = play.after.sides()
        assert sum(mine) + play.after.off[0] == 15
        assert sum(theirs) + play.after.off[1] == 15


@quick
@given(any_position)
def test_flip_twice_is_identity(position):
    assert position.flip().flip() == position
    assert position.flip().pip_counts() == position.pip_counts()[::-1]


@quick
@given(any_position)
def test_repr_pastes_back(position):
    assert eval(repr(position)) == position


@quick
@given(playable, dice)
def test_R11_every_play_uses_the_same_number_of_dice(position, roll):
    plays = position.legal_plays(roll)
    assert len(plays) >= 1
    assert len({len(play.moves) for play in plays}) == 1
    assert len({play.after for play in plays}) == len(plays)  # one play per resulting position
    assert all(len(play.moves) <= len(roll.moves) for play in plays)


@quick
@given(playable, dice)
def test_every_listed_play_parses_back_to_itself(position, roll):
    plays = position.legal_plays(roll)
    for play in plays[:40]:
        assert position.parse_play(roll, play.notation) == play
        assert Play(position, roll, play.moves) == play


@quick
@given(game_positions, dice)
def test_play_repr_pastes_back(position, roll):
    play = position.legal_plays(roll)[0]
    assert eval(repr(play)) == play
    assert eval(repr(roll)) == roll


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(playable, dice), min_size=1, max_size=12))
def test_batch_gives_the_same_plays_as_one_at_a_time(pairs):
    boards = np.stack([position.to_array() for position, _ in pairs])
    rolls = np.array([tuple(roll) for _, roll in pairs])
    offsets, results, _ = generate_batch(boards, rolls)
    for index, (position, roll) in enumerate(pairs):
        batch = {row.tobytes() for row in results[offsets[index] : offsets[index + 1]]}
        single = {play.after.to_array().tobytes() for play in position.legal_plays(roll)}
        assert batch == single


@quick
@given(finished_positions(), dice)
def test_R18_a_finished_game_has_no_plays(position, roll):
    with pytest.raises(IllegalPlayError, match="game is over"):
        position.legal_plays(roll)
