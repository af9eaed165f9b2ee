"""LegalPlays: the generator's arrays, generated once, with a Play (and its notation) made only when asked for."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import tavola.movegen
from builders import position
from tavola import Dice, Position
from tavola.dice import ALL_ROLLS
from tavola.errors import TavolaError
from tavola.movegen import generate
from tavola.notation import format_play
from tavola.play import LegalPlays, Move, Play
from tavola.sampling import random_positions
from tavola.turn import Turn
from tavola.variants import ACEY_DEUCEY, DUTCH, STANDARD, Variant


def eager_plays(
    start: Position, dice: Dice, variant: Variant
) -> list[tuple[str, Position, tuple[Move, ...]]]:
    """Every play as the generator's rows give it, each made at once: notation, result and moves."""
    results, moves = generate(start.to_array(), dice.high, dice.low, variant.flags)
    plays = []
    for result, row in zip(results, moves, strict=True):
        steps = tuple(Move(int(s), int(d), bool(hit)) for s, d, hit in row if s >= 0)
        plays.append((format_play(steps), Position.from_array(result, checkers=start.checkers), steps))
    return plays


@pytest.fixture
def generations(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, ...]]:
    """The rolls the move generator is asked for, one entry a call."""
    calls: list[tuple[int, ...]] = []
    inner = tavola.movegen.generate_dice

    def counting(board: np.ndarray, dice: tuple[int, ...], flags: int = 0) -> tuple[np.ndarray, np.ndarray]:
        calls.append(dice)
        return inner(board, dice, flags)

    monkeypatch.setattr(tavola.movegen, "generate_dice", counting)
    return calls


@pytest.mark.parametrize("variant", [STANDARD, DUTCH], ids=lambda variant: variant.name)
def test_the_plays_keep_the_order_notation_moves_and_results_of_the_generator(variant: Variant) -> None:
    for start in random_positions(120, seed=31):
        for dice in ALL_ROLLS:
            plays = start.legal_plays(dice, variant)
            expected = eager_plays(start, dice, variant)
            assert [(play.notation, play.after, play.moves) for play in plays] == expected
            assert all(play.before == start and play.dice == dice for play in plays)
            assert plays.positions() == [after for _, after, _ in expected]


def test_a_play_is_made_once_when_first_asked_for_and_indexing_works_like_a_tuple() -> None:
    plays = Position.start().legal_plays(Dice(3, 1))
    assert plays[3] is plays[3] is list(plays)[3]
    assert plays[-1] is plays[len(plays) - 1]
    assert plays[np.int64(2)] is plays[2]
    assert plays[1:4] == tuple(list(plays)[1:4])
    with pytest.raises(IndexError):
        plays[len(plays)]
    with pytest.raises(IndexError):
        plays[-len(plays) - 1]


def test_the_arrays_are_the_generator_s_and_read_only() -> None:
    start = Position.start()
    plays = start.legal_plays(Dice(6, 5))
    results, moves = generate(start.to_array(), 6, 5)
    assert np.array_equal(plays.results, results)
    assert np.array_equal(plays.moves, moves)
    with pytest.raises(ValueError, match="read-only"):
        plays.results[0, 1] = 3


def test_lookups_by_result_and_by_text_use_the_plays_already_generated(generations: list) -> None:
    start = position({24: 2, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 5, 17: 3, 19: 5})
    plays = start.legal_plays(Dice(4, 2))
    assert generations == [(4, 2)]
    for row, play in enumerate(plays):
        assert plays.row_of(play.after) == row
        assert plays.by_result(play.after) is play
        assert play in plays
        assert play.notation in plays
    assert "24/21" not in plays
    assert "13/7 8/2" not in plays
    assert plays.by_result(start) is None
    assert generations == [(4, 2)]


@pytest.mark.parametrize("variant", [STANDARD, ACEY_DEUCEY], ids=lambda variant: variant.name)
def test_the_notations_listed_without_the_plays_are_the_plays_own(variant: Variant) -> None:
    for start in random_positions(60, seed=37):
        for dice in ALL_ROLLS:
            if start.result() is not None:
                continue
            listed = start.legal_plays(dice, variant).notations()
            plays = start.legal_plays(dice, variant)
            assert listed == tuple(play.notation for play in plays)


def test_a_play_found_by_its_notation_is_the_only_one_made() -> None:
    plays = Position.start().legal_plays(Dice(6, 6))
    listed = plays.notations()
    assert len(listed) > 1
    assert plays._made == [None] * len(listed)
    found = plays.by_notation(listed[-1])
    assert found is not None
    assert found.notation == listed[-1]
    assert [row for row, made in enumerate(plays._made) if made is not None] == [len(listed) - 1]
    assert plays.by_notation(listed[0]) is plays[0]
    assert plays.by_notation("24/18") is None


def test_R13_a_roll_that_cannot_be_played_is_one_empty_play() -> None:
    blocked = position({1: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 10: 3}, bar=(1, 0))
    plays = blocked.legal_plays(Dice(6, 5))
    assert len(plays) == 1
    assert plays[0].is_pass
    assert plays[0].after == blocked


def test_a_play_built_from_moves_is_the_generated_play() -> None:
    plays = Position.start().legal_plays(Dice(3, 1))
    made = Play(Position.start(), Dice(3, 1), (Move(8, 5), Move(6, 5)))
    assert made == plays.by_result(made.after)
    assert made.notation == "8/5 6/5"
    assert isinstance(plays, LegalPlays)
    assert repr(plays).startswith("<LegalPlays 31 (16): 24/20")


def test_a_turn_generates_the_whole_roll_once_however_its_moves_are_tried(generations: list) -> None:
    turn = Turn(Position.start(), Dice(4, 2))
    legal = turn.legal
    moved = turn.add("8/4")
    choices = moved.next_moves()
    finished = moved.add("6/4")
    assert moved.legal is legal
    assert finished.legal is legal
    assert finished.play is legal.by_result(finished.current)
    assert {str(move) for move in choices} >= {"6/4", "24/22", "13/11"}
    assert generations == [(4, 2)]  # the whole roll, once (what is left of it is another question)


def test_plays_are_values_that_pickle_and_copy() -> None:
    plays = Position.start().legal_plays(Dice(6, 6), DUTCH)
    play = plays[0]
    assert copy.deepcopy(play) is play
    assert copy.copy(play) is play
    again = pickle.loads(pickle.dumps(play))
    assert (again, again.notation, again.variant) == (play, play.notation, play.variant)
    assert [str(p) for p in pickle.loads(pickle.dumps(plays))] == [str(p) for p in plays]


def _one_die_moves(turn: Turn) -> set[Move]:
    """Every single-die move the rules allow on the turn's board, judged one at a time by ``Turn.add``."""
    board, found = turn.current.to_array(), set()
    for die in set(turn.remaining):
        for source in range(26, 0, -1):
            target = max(min(source, 25) - die, 0)
            move = Move(source, target, hit=bool(target and board[target] == -1))
            try:
                turn.add(move)
            except TavolaError:
                continue
            found.add(move)
    return found


@pytest.mark.parametrize("variant", [STANDARD, DUTCH, ACEY_DEUCEY], ids=lambda variant: variant.name)
def test_R11_R12_next_moves_are_the_moves_that_lead_to_a_legal_play(variant: Variant) -> None:
    """A turn's next moves are exactly the single-die moves ``add`` takes, and following them one at a time
    reaches every legal play of the roll and nothing else."""
    for start in random_positions(12, seed=8, variant=variant):
        for roll in ALL_ROLLS:
            turn = Turn(start, roll, variant=variant)
            reached: set[bytes] = set()
            waiting = [turn]
            while waiting:
                now = waiting.pop()
                moves = now.next_moves()
                assert set(moves) == _one_die_moves(now), (start, roll, now.moves)
                if now.is_complete:
                    reached.add(now.current.to_array().tobytes())
                waiting += [now.add(move) for move in moves]
            assert reached == set(turn.legal.rows()), (start, roll)
