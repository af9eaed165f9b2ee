"""Looking ahead: n-ply evaluation, move filtering, the search chooser and the levels."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builders import position
from tavola import Dice, Position
from tavola.bot.bearoff import default_database
from tavola.bot.evaluate import Evaluator
from tavola.bot.network import Network, equity, flip_probabilities
from tavola.bot.search import (
    ROLL_WEIGHTS,
    MoveFilter,
    SearchChooser,
    Stage,
    best_in_groups,
    evaluate_ply,
    keep_in_groups,
    rank_plays,
)
from tavola.dice import ALL_ROLLS
from tavola.movegen import generate
from tavola.position import flip_array
from tavola.sampling import random_positions

EVALUATOR = Evaluator.untrained(hidden=8, seed=3)
SAMPLES = random_positions(400, seed=21)


def _roll(rng: np.random.Generator) -> tuple[int, int]:
    return int(rng.integers(1, 7)), int(rng.integers(1, 7))


def _brute_force_one_ply(evaluator: Evaluator, board: np.ndarray) -> np.ndarray:
    """1-ply written out: every roll, every play, the evaluator on each result by itself."""
    total = np.zeros(5)
    for weight, roll in zip(ROLL_WEIGHTS, ALL_ROLLS, strict=True):
        results, _ = generate(board, roll.high, roll.low)
        best_value, best_probabilities = -np.inf, None
        for result in results:
            mine = flip_probabilities(evaluator.evaluate(flip_array(result)[None]))
            value = float(equity(mine)[0])
            if value > best_value:
                best_value, best_probabilities = value, mine[0]
        total += weight * best_probabilities
    return total


# --- n-ply evaluation ---------------------------------------------------------------------------------


def _finished() -> list[tuple[Position, list[float]]]:
    """Positions where the player on roll has lost: the opponent bore off all, seen from the loser."""
    single = Position([1] + [0] * 23, off=(14, 15))
    gammon = Position([0] * 5 + [15] + [0] * 18, off=(0, 15))
    backgammon = Position([0] * 20 + [15] + [0] * 3, off=(0, 15))
    return [
        (single, [0.0, 0.0, 0.0, 0.0, 0.0]),
        (gammon, [0.0, 0.0, 0.0, 1.0, 0.0]),
        (backgammon, [0.0, 0.0, 0.0, 1.0, 1.0]),
    ]


@pytest.mark.parametrize("plies", [0, 1, 2])
def test_a_finished_game_is_exact_at_any_depth(plies):
    cases = _finished()
    boards = np.stack([pos.to_array() for pos, _ in cases] + [SAMPLES[5].to_array()])
    found = evaluate_ply(EVALUATOR, boards, plies)
    for row, (_, expected) in enumerate(cases):
        assert found[row].tolist() == expected


@pytest.mark.parametrize("index", [0, 7, 40, 150, 333])
def test_one_ply_is_the_brute_force_average_of_the_best_replies(index):
    board = SAMPLES[index].to_array()
    found = evaluate_ply(EVALUATOR, board[None], 1)[0]
    assert found == pytest.approx(_brute_force_one_ply(EVALUATOR, board), abs=2e-6)


def test_one_ply_in_a_bearoff_uses_the_database_like_the_brute_force():
    net = Network.random([198, 8, 5], seed=4)
    evaluator = Evaluator(net, net, default_database())
    board = position({1: 2, 3: 2, 5: 1}, {20: 2, 22: 3, 24: 1}).to_array()
    found = evaluate_ply(evaluator, board[None], 1)[0]
    assert found == pytest.approx(_brute_force_one_ply(evaluator, board), abs=2e-6)


def test_two_ply_without_filtering_is_the_best_one_ply_reply_for_each_roll():
    board = position({2: 1, 5: 1, 9: 1}, {14: 1, 20: 2}).to_array()
    everything = MoveFilter.exhaustive()
    expected = np.zeros(5)
    for weight, roll in zip(ROLL_WEIGHTS, ALL_ROLLS, strict=True):
        results, _ = generate(board, roll.high, roll.low)
        mine = flip_probabilities(evaluate_ply(EVALUATOR, flip_array(results), 1, everything))
        expected += weight * mine[int(np.argmax(equity(mine)))]
    assert evaluate_ply(EVALUATOR, board[None], 2, everything)[0] == pytest.approx(expected, abs=2e-6)


def test_a_batch_gives_what_each_position_gives_alone_and_repeats_agree():
    boards = np.stack([SAMPLES[i].to_array() for i in (3, 9, 3, 27, 9)])
    together = evaluate_ply(EVALUATOR, boards, 1)
    alone = np.concatenate([evaluate_ply(EVALUATOR, board[None], 1) for board in boards])
    assert together == pytest.approx(alone, abs=1e-6)
    assert together[0].tolist() == together[2].tolist()


def test_zero_ply_is_the_evaluator():
    boards = np.stack([pos.to_array() for pos in SAMPLES[:50]])
    assert evaluate_ply(EVALUATOR, boards, 0).tolist() == EVALUATOR.evaluate(boards).tolist()


def test_depths_out_of_range_are_refused():
    with pytest.raises(ValueError, match="plies"):
        evaluate_ply(EVALUATOR, SAMPLES[0].to_array()[None], -1)
    with pytest.raises(ValueError, match="plies"):
        SearchChooser(EVALUATOR, plies=9)
    with pytest.raises(ValueError, match="shape"):
        evaluate_ply(EVALUATOR, SAMPLES[0].to_array(), 1)
    with pytest.raises(ValueError, match="over"):
        rank_plays(EVALUATOR, _finished()[0][0], Dice(3, 1))


# --- filtering and ranking ----------------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 4), st.floats(-3, 3)), min_size=1, max_size=40),
    st.integers(1, 6),
    st.floats(0, 1),
)
def test_a_filter_stage_keeps_the_best_of_each_group_and_no_more_than_it_says(rows, limit, threshold):
    group = np.array([g for g, _ in rows])
    equities = np.array([e for _, e in rows])
    kept = keep_in_groups(group, equities, limit, threshold)
    for g in set(group.tolist()):
        members = np.flatnonzero(group == g)
        best = members[np.argmax(equities[members])]  # the first of equal bests
        chosen = [row for row in kept if group[row] == g]
        assert best in chosen
        assert len(chosen) <= limit
        assert all(equities[row] >= equities[best] - threshold for row in chosen)


@pytest.mark.parametrize(("plies", "count"), [(1, 10), (2, 2)])
def test_filtering_keeps_the_best_zero_ply_play(plies, count):
    rng = np.random.default_rng(5)
    for pos in SAMPLES[: 4 * count : 4]:
        dice = _roll(rng)
        ranked = rank_plays(EVALUATOR, pos, dice, plies=plies)
        results, _ = generate(pos.to_array(), *dice)
        zero = equity(flip_probabilities(EVALUATOR.evaluate(flip_array(results))))
        best = int(np.argmax(zero))
        assert next(play for play in ranked if play.index == best).plies >= 1


def test_ranked_plays_are_every_legal_play_once_deepest_then_best_first():
    rng = np.random.default_rng(6)
    for pos in SAMPLES[100:140:5]:
        dice = _roll(rng)
        results, _ = generate(pos.to_array(), *dice)
        ranked = rank_plays(
            EVALUATOR, pos.to_array(), Dice(*dice), plies=1, filter=MoveFilter((Stage(3, 1),))
        )
        assert sorted(play.index for play in ranked) == list(range(len(results)))
        for play in ranked:
            assert play.result.tolist() == results[play.index].tolist()
            assert play.equity == pytest.approx(float(equity(play.probabilities[None])[0]), abs=1e-6)
        keys = [(-play.plies, -play.equity) for play in ranked]
        assert keys == sorted(keys)
        assert sum(play.plies == 1 for play in ranked) == min(3, len(results))


def test_zero_ply_ranking_is_by_the_evaluator():
    pos, dice = Position.start(), Dice(4, 2)
    results, _ = generate(pos.to_array(), 4, 2)
    zero = equity(flip_probabilities(EVALUATOR.evaluate(flip_array(results))))
    ranked = rank_plays(EVALUATOR, pos, dice)
    assert [play.index for play in ranked] == np.argsort(-zero, kind="stable").tolist()


def test_best_in_groups_prefers_the_deepest_then_the_best():
    offsets = np.array([0, 3, 4, 6])
    equities = np.array([0.5, 0.2, 0.3, -1.0, 0.1, 0.1])
    plies = np.array([0, 1, 1, 0, 0, 0], dtype=np.int8)
    assert best_in_groups(offsets, equities, plies).tolist() == [2, 3, 4]


# --- the chooser and the levels -----------------------------------------------------------------------


@pytest.mark.parametrize("plies", [0, 1])
def test_the_chosen_play_is_always_legal(plies):
    rng = np.random.default_rng(7)
    chooser = SearchChooser(EVALUATOR, plies, noise=0.1, rng=1)
    for pos in SAMPLES[::10]:
        results, _ = generate(pos.to_array(), *_roll(rng))
        choice = chooser.choose(pos.to_array(), results)
        assert isinstance(choice, int)
        assert 0 <= choice < len(results)


def test_two_ply_chooses_the_top_ranked_play():
    rng = np.random.default_rng(8)
    chooser = SearchChooser(EVALUATOR, 2)
    for pos in SAMPLES[200:230:10]:
        dice = _roll(rng)
        results, _ = generate(pos.to_array(), *dice)
        choice = chooser.choose(pos.to_array(), results)
        assert 0 <= choice < len(results)
        assert choice == rank_plays(EVALUATOR, pos, dice, plies=2)[0].index


def test_zero_ply_without_noise_plays_like_the_evaluator():
    rng = np.random.default_rng(9)
    chooser = SearchChooser(EVALUATOR)
    for pos in SAMPLES[:200:5]:
        results, _ = generate(pos.to_array(), *_roll(rng))
        assert chooser.choose(pos.to_array(), results) == EVALUATOR.choose(pos.to_array(), results)


def _choices(chooser: SearchChooser) -> list[int]:
    rng = np.random.default_rng(10)
    choices = []
    for pos in SAMPLES[:300:6]:
        results, _ = generate(pos.to_array(), *_roll(rng))
        choices.append(chooser.choose(pos.to_array(), results))
    return choices


def test_no_noise_is_deterministic_and_noise_is_reproducible_with_a_seed():
    assert _choices(SearchChooser(EVALUATOR)) == _choices(SearchChooser(EVALUATOR, rng=5))
    noisy = _choices(SearchChooser(EVALUATOR, noise=0.5, rng=np.random.default_rng(4)))
    assert noisy == _choices(SearchChooser(EVALUATOR, noise=0.5, rng=4))
    assert noisy != _choices(SearchChooser(EVALUATOR))
    with pytest.raises(ValueError, match="noise"):
        SearchChooser(EVALUATOR, noise=-1)
