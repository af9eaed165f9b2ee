"""The self-play kernel: keyed dice, games that do not depend on how they are batched, policies, callers."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from tavola import Dice, Position
from tavola.bot.evaluate import Evaluator
from tavola.bot.policies import GreedyPolicy, PubEvalPolicy
from tavola.bot.pubeval import PubEval
from tavola.bot.search import SearchChooser, SearchPolicy
from tavola.dice import ALL_ROLLS
from tavola.gameover import game_over
from tavola.movegen import generate
from tavola.selfplay import (
    Candidates,
    RandomPolicy,
    Step,
    keyed_normal,
    keyed_uniform,
    opening_roll,
    outcomes,
    play,
    roll,
)
from tavola.variants import ACEY_DEUCEY, DUTCH, HYPERGAMMON, NACKGAMMON, STANDARD

EVALUATOR = Evaluator.untrained(hidden=8, seed=5)


def _games(steps: list[Step], streams: np.ndarray) -> dict[int, list[tuple[object, ...]]]:
    """Each game's plays, by its dice stream: the turn, the dice, the position before and the result chosen."""
    found: dict[int, list[tuple[object, ...]]] = {}
    for step in steps:
        for index in range(len(step)):
            record = (
                int(step.turn[index]),
                tuple(step.dice[index].tolist()),
                step.boards[index].tobytes(),
                step.after[index].tobytes(),
                int(step.points[index]),
            )
            found.setdefault(int(streams[step.game[index]]), []).append(record)
    return found


@pytest.mark.parametrize(
    "make_policy",
    [
        lambda: RandomPolicy(3),
        lambda: GreedyPolicy.of(EVALUATOR, explore=0.2, key=4),
        lambda: SearchPolicy(EVALUATOR, plies=1, noise=0.3, key=5),
    ],
    ids=["random", "greedy exploring", "search with noise"],
)
def test_a_game_is_the_same_however_the_games_are_batched_and_split(make_policy):
    games = 12 if "Search" not in repr(make_policy()) else 4
    streams = np.arange(100, 100 + games)
    whole = _games(list(play(make_policy(), games, key=9, streams=streams)), streams)
    one_at_a_time = _games(list(play(make_policy(), games, key=9, streams=streams, parallel=1)), streams)
    assert whole == one_at_a_time
    # Split over two runs (two processes, say), the second half first and in odd batches.
    halves = (streams[games // 2 :], streams[: games // 2])
    split: dict[int, list[tuple[object, ...]]] = {}
    for part in halves:
        split.update(_games(list(play(make_policy(), len(part), key=9, streams=part, parallel=3)), part))
    assert split == whole
    assert len(whole) == games
    other_key = _games(list(play(make_policy(), games, key=10, streams=streams)), streams)
    assert other_key != whole


def test_keyed_numbers_depend_on_the_key_and_the_words_only():
    assert np.array_equal(roll(1, [5, 6, 7], [2, 2, 2])[1:], roll(1, [6, 7], [2, 2]))
    dice = roll(2, np.arange(36_000), 3)
    counts = np.bincount(dice.ravel(), minlength=7)[1:]
    assert counts.min() > 11_400
    assert counts.max() < 12_600
    uniform = keyed_uniform(3, np.arange(20_000))
    assert uniform.min() >= 0
    assert uniform.max() < 1
    assert abs(uniform.mean() - 0.5) < 0.01
    normal = keyed_normal(3, np.arange(20_000))
    assert abs(normal.mean()) < 0.03
    assert abs(normal.std() - 1) < 0.03


def test_R4_the_opening_roll_rerolls_ties_and_the_higher_die_moves_first_with_both():
    dice = opening_roll(11, np.arange(2000))
    assert (dice[:, 0] != dice[:, 1]).all()
    assert len({tuple(pair) for pair in dice.tolist()}) == 30  # every ordered pair of different dice
    first_steps = [step for step in play(RandomPolicy(1), 50, key=11) if (step.turn == 0).any()]
    for step in first_steps:
        at_open = step.turn == 0
        assert np.array_equal(step.dice[at_open], dice[step.game[at_open]])
        assert np.array_equal(step.seat[at_open], (dice[step.game[at_open], 1] > dice[step.game[at_open], 0]))
        assert (step.boards[at_open] == Position.start().to_array()).all()
        for index in np.flatnonzero(at_open):
            begin, end = step.offsets[index], step.offsets[index + 1]
            expected, _ = generate(step.boards[index], *step.dice[index].tolist())
            assert np.array_equal(step.results[begin:end], expected)  # both dice, the opener's play


def test_the_caller_gives_the_first_rolls_of_a_rollout_and_the_key_rolls_the_rest():
    rolls = np.array([[[roll.high, roll.low]] for roll in ALL_ROLLS for _ in range(1 + (not roll.is_double))])
    assert len(rolls) == 36
    middle = Position([0, 2, 2, 2, 2, 2, 0, 3] + [0] * 10 + [-3, -3, -3, -2, -2, -2]).to_array()
    steps = list(play(RandomPolicy(2), 36, key=4, start=middle, opening=False, dice=rolls))
    first = next(step for step in steps if (step.turn == 0).any())
    assert np.array_equal(first.dice, rolls[first.game, 0])
    assert (first.boards == middle).all()
    assert (first.seat == 0).all()
    later = next(step for step in steps if (step.turn == 1).any())
    assert np.array_equal(later.dice, roll(4, later.game, 1))


def test_two_policies_each_play_their_own_seat_and_swapped_seats_swap_them():
    seen: dict[str, list[np.ndarray]] = {"first": [], "second": []}

    def recording(name: str, inner):
        def policy(candidates: Candidates) -> np.ndarray:
            seen[name].append(candidates.player.copy())
            return inner(candidates)

        return policy

    players = (recording("first", RandomPolicy(1)), recording("second", PubEvalPolicy()))
    seating = np.array([0, 1] * 5, dtype=np.int8)
    for step in play(players, 10, key=3, seating=seating):
        assert np.array_equal(step.player, step.seat ^ seating[step.game])
    assert all((players == 0).all() for players in seen["first"])
    assert all((players == 1).all() for players in seen["second"])


def test_duplicate_dice_a_policy_against_itself_in_swapped_seats_scores_zero():
    policy = PubEvalPolicy()
    streams = np.concatenate([np.arange(20), np.arange(20)])
    seating = np.repeat([0, 1], 20)
    found = outcomes(play((policy, RandomPolicy(6)), 40, key=8, streams=streams, seating=seating), 40)
    assert (found.points != 0).all()
    same = outcomes(play((policy, policy), 40, key=8, streams=streams, seating=seating), 40)
    assert np.array_equal(same.points[:20], -same.points[20:])  # the same games, player 0 in the other seat


@pytest.mark.parametrize("variant", [STANDARD, NACKGAMMON, HYPERGAMMON, DUTCH], ids=lambda v: v.name)
def test_R19_V1_V4_V5_games_of_each_variant_end_when_its_checkers_are_off(variant):
    last: dict[int, np.ndarray] = {}

    def observe(step: Step) -> None:
        for index in np.flatnonzero(step.over):
            last[int(step.game[index])] = step.after[index]
        assert not game_over(step.boards).any()

    found = outcomes(play(RandomPolicy(2), 30, key=1, variant=variant), 30, observe)
    assert set(np.abs(found.points).tolist()) <= {1, 2, 3}
    assert all(after[0] == variant.checkers for after in last.values())
    assert len(last) == 30


def test_V2_acey_deucey_a_one_two_is_followed_by_a_double_of_the_players_choice_and_another_roll():
    dice = np.zeros((4, 1, 2), dtype=np.int8)
    dice[:, 0] = (2, 1)
    steps = list(play(RandomPolicy(5), 4, key=2, variant=ACEY_DEUCEY, opening=False, dice=dice))
    by_turn = {turn: next(step for step in steps if (step.turn == turn).all()) for turn in (0, 1)}
    assert (by_turn[0].moves == 2).all()  # in/24 in/23 or in/23/22 ... the 1 and the 2 played
    chosen = by_turn[1]
    assert (chosen.dice == 0).all()
    assert (chosen.seat == 0).all()  # the same player goes on
    before = Position.from_array(chosen.boards[0])
    expected = sum(len(before.legal_plays(Dice(n, n), ACEY_DEUCEY)) for n in range(1, 7))
    assert chosen.counts[0] == expected  # every double's plays to choose from
    again = next(step for step in steps if (step.turn == 2).any())
    four = chosen.moves == 4
    assert four.any()
    assert np.array_equal(again.seat[np.isin(again.game, chosen.game[four])], np.zeros(four.sum()))


def test_the_batched_policies_choose_what_the_one_position_choosers_choose():
    steps = list(play(RandomPolicy(1), 6, key=2))
    pubeval, greedy, search = PubEvalPolicy(), GreedyPolicy.of(EVALUATOR), SearchPolicy(EVALUATOR, plies=1)
    for step in steps[::7]:
        for policy, chooser in (
            (pubeval, PubEval()),
            (greedy, EVALUATOR),
            (search, SearchChooser(EVALUATOR, plies=1)),
        ):
            rows = policy(step)
            for index in range(len(step)):
                begin, end = step.offsets[index], step.offsets[index + 1]
                assert rows[index] - begin == chooser.choose(step.boards[index], step.results[begin:end])


def test_a_policy_choosing_outside_its_games_results_is_an_error():
    with pytest.raises(RuntimeError, match="outside"):
        list(play(lambda candidates: candidates.offsets[1:], 2, key=1))


def _arena() -> None:
    from tavola.bot.arena import RandomChooser, duplicate_match

    duplicate_match(PubEval(), RandomChooser(np.random.default_rng(3)), games=3, seed=1)


def _sampling() -> None:
    from tavola.sampling import random_positions

    random_positions(100, seed=2)


def _calibrate() -> None:
    from tavola.train.calibrate import self_play

    self_play(EVALUATOR, 4, np.random.default_rng(3))


def _td() -> None:
    from tavola.train.td import Settings, Trainer

    Trainer(Settings(hidden=8, warmup_positions=0)).play_games(3)


def _distill() -> None:
    from tavola.train.distill import self_play_positions

    self_play_positions(EVALUATOR, 120, np.random.default_rng(1), parallel=8)


CALLERS = {
    "arena": ("tavola.bot.arena", _arena, False),
    "sampling": ("tavola.sampling", _sampling, False),
    "calibrate": ("tavola.train.calibrate", _calibrate, False),
    "td": ("tavola.train.td", _td, True),
    "distill": ("tavola.train.distill", _distill, True),
}
"""Every caller of the kernel: the module that calls :func:`play`, a short run of it, whether it needs torch."""


@pytest.mark.parametrize("caller", CALLERS)
def test_R4_every_caller_opens_its_games_with_the_opening_roll(caller, monkeypatch):
    name, run, needs_torch = CALLERS[caller]
    if needs_torch:
        pytest.importorskip("torch", reason="training needs PyTorch")
    module = importlib.import_module(name)
    seen: list[Step] = []
    real = play

    def recording(*args, **kwargs):
        for step in real(*args, **kwargs):
            seen.append(step)
            yield step

    monkeypatch.setattr(module, "play", recording)
    run()
    openings = [(step, step.turn == 0) for step in seen if (step.turn == 0).any()]
    assert openings
    for step, at in openings:
        assert (step.dice[at, 0] != step.dice[at, 1]).all()  # no double opens a game
        assert np.array_equal(step.seat[at], step.dice[at, 1] > step.dice[at, 0])  # the higher die moves
        assert (step.boards[at] == Position.start().to_array()).all()


def test_a_game_stopped_after_some_plays_ends_unfinished_and_the_rest_play_on_unchanged():
    full = list(play(RandomPolicy(3), games=6, key=8, parallel=2))
    cut = list(play(RandomPolicy(3), games=6, key=8, parallel=2, stop_after=5))

    def plays(steps: list[Step]) -> dict[tuple[int, int], bytes]:
        return {
            (game, turn): after.tobytes()
            for step in steps
            for game, turn, after in zip(step.game.tolist(), step.turn.tolist(), step.after, strict=True)
        }

    whole, stopped = plays(full), plays(cut)
    assert stopped == {place: after for place, after in whole.items() if place[1] < 5}
    turns = outcomes(full, 6).turns
    assert (turns > 5).any()  # some games were cut short
    ended = {game for step in cut for game in step.game[step.over].tolist()}
    assert ended == set(np.flatnonzero(turns <= 5).tolist())  # only the short games ended
    with pytest.raises(ValueError, match="at least one play"):
        next(play(RandomPolicy(3), games=1, key=8, stop_after=0))
