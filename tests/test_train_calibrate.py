"""Measuring the cube model's figures on self-play: gammon rates and Janowski's x."""

from __future__ import annotations

import numpy as np
import pytest

from tavola.bot.cube import money_equity
from tavola.bot.evaluate import Evaluator, contact
from tavola.position import CHECKERS, MY_BAR, MY_OFF, THEIR_BAR, THEIR_OFF
from tavola.train import calibrate
from tavola.train.calibrate import (
    CubeLifeTerms,
    SelfPlayGames,
    check_decisions,
    gammon_rates,
    measure_efficiency,
    replay_with_cube,
    self_play,
)


def games_from_walks(walks: list[list[float]], results: list[int], in_contact: bool = True) -> SelfPlayGames:
    """Games from the winning chances of player 0 before each roll, the players taking turns (0 first).

    No gammons: every result is one point, for player 0 (+1) or player 1 (-1).
    """
    chances = [p if turn % 2 == 0 else 1 - p for walk in walks for turn, p in enumerate(walk)]
    probabilities = np.zeros((len(chances), 5), np.float32)
    probabilities[:, 0] = chances
    return SelfPlayGames(
        probabilities=probabilities,
        contact=np.full(len(chances), in_contact),
        player=np.array([turn % 2 for walk in walks for turn in range(len(walk))], np.int8),
        game=np.array([game for game, walk in enumerate(walks) for _ in walk], np.int64),
        boards=np.zeros((len(chances), 30), np.int8),
        results=np.array(results, np.int8),
    )


def walks_on_a_grid(games: int, grid: int, start: int, rng: np.random.Generator) -> SelfPlayGames:
    """Games whose winning chance steps up or down by ``1 / grid`` each turn, starting at ``start / grid``."""
    walks, results = [], []
    for _ in range(games):
        step, walk = start, []
        while 0 < step < grid:
            walk.append(step / grid)
            step += 1 if rng.random() < 0.5 else -1
        walks.append(walk)
        results.append(1 if step == grid else -1)
    return games_from_walks(walks, results)


# --- the cube model the replay uses ---------------------------------------------------------------


def random_probabilities(count: int, rng: np.random.Generator) -> np.ndarray:
    win = rng.uniform(0.01, 0.99, count)
    gammon = win * rng.uniform(0, 0.5, count)
    lost_gammon = (1 - win) * rng.uniform(0, 0.5, count)
    return np.stack([win, gammon, gammon * rng.uniform(0, 0.2, count), lost_gammon, lost_gammon * 0.1], 1)


def test_money_equity_is_linear_in_x_between_the_dead_and_the_live_cube():
    rng = np.random.default_rng(5)
    probabilities = random_probabilities(200, rng)
    terms = CubeLifeTerms.of(probabilities)
    assert np.array_equal(terms.dead[:, 0], terms.dead[:, 1])  # the dead cube is nobody's
    assert np.array_equal(terms.dead[:, 0], terms.dead[:, 2])
    assert (terms.live[:, 1] >= terms.live[:, 0]).all()  # owning the cube is worth something
    assert (terms.live[:, 0] >= terms.live[:, 2]).all()
    for x in (0.0, 0.3, 0.68, 0.9, 1.0):
        for column, owner in enumerate((None, 0, 1)):
            expected = [money_equity(p, owner, efficiency=x) for p in probabilities]
            got = terms.equity(np.full(len(probabilities), x), np.full(len(probabilities), column))
            assert got.tolist() == expected  # the same to the last bit


def test_the_replays_decisions_are_money_decisions_own():
    rng = np.random.default_rng(6)
    probabilities = random_probabilities(400, rng)
    x = rng.uniform(0.0, 1.0, len(probabilities))
    doubles, takes = CubeLifeTerms.of(probabilities).decisions(x)
    assert doubles.any()
    assert not doubles.all()
    assert takes.any()
    assert not takes.all()
    check_decisions(probabilities, x, doubles, takes)
    with pytest.raises(RuntimeError, match="not the cube model's"):
        check_decisions(probabilities, x, ~doubles, takes)


# --- the replay ---------------------------------------------------------------------------------------


def test_a_dropped_double_ends_the_game_and_a_taken_one_raises_the_stake():
    # Game 0: player 1 doubles at 75% and player 0 takes; player 0 redoubles at 90% and player 1 drops.
    # Game 1: nobody doubles; player 1 wins.
    games = games_from_walks([[0.5, 0.25, 0.6, 0.8, 0.9, 0.95], [0.5, 0.52, 0.48]], [-1, -1])
    replay = replay_with_cube(games, 0.7)
    assert replay.rolled.tolist() == [True] * 4 + [False, False] + [True] * 3
    assert replay.turned[:4].tolist() == [0, 1, 1, 1]
    # After the take the cube is player 0's: the opponent's for player 1, on roll at turns 1 and 3.
    assert replay.owner[:4].tolist() == [calibrate.CENTRED, 1, 0, 1]
    assert replay.dropped_at.tolist() == [4, -1]
    assert replay.doubles.tolist() == [1, 0]
    assert replay.points.tolist() == [2.0, -1.0]  # the drop gave player 0 the 2-cube
    # Per unit of the cube at each roll, for the player on roll.
    assert replay.outcome[:4].tolist() == [2.0, -1.0, 1.0, -1.0]
    assert np.isnan(replay.outcome[4:6]).all()
    assert replay.outcome[6:].tolist() == [-1.0, 1.0, -1.0]


# --- Janowski's x on games with a known answer ---------------------------------------------------------


def test_games_decided_in_one_jump_have_a_dead_cube():
    rng = np.random.default_rng(7)
    chances = rng.uniform(0.05, 0.95, 6000)
    games = games_from_walks([[p] for p in chances], [1 if rng.random() < p else -1 for p in chances])
    fit = measure_efficiency(games)
    assert fit.all.value == 0.0  # after the only roll nothing is left for the cube to do
    assert fit.settled
    check = measure_efficiency(games, baseline="dead")
    assert abs(check.all.value) < 0.15
    assert abs(check.all.value) < 3 * check.all.error


def test_games_moving_in_small_steps_keep_the_cube_alive():
    # Chances in fifteenths from 8/15, so that each player is on roll at exactly 80%, the cash point
    # with no gammons: a double there is dropped at once, and the live cube's value is realised.
    games = walks_on_a_grid(1500, 15, 8, np.random.default_rng(8))
    fit = measure_efficiency(games)
    assert fit.all.value > 0.9
    assert abs(fit.all.value - 1.0) < 3 * fit.all.error
    assert fit.rounds[-1][0] == calibrate.HIGHEST_TRIAL  # the search went as high as it goes
    check = measure_efficiency(games, baseline="dead")
    assert check.all.value > 0.8
    assert abs(check.all.value - 1.0) < 3 * check.all.error


def test_bigger_jumps_waste_more_of_the_cube():
    # Steps of a tenth from 1/2: player 0 is on roll at 70% and then at 90%, far past the cash point.
    # (On a grid every position with the same chance changes its decision at the same x, so the fit
    # jumps as x moves: the two kinds of game are compared at one x, as each first replay does.)
    rng = np.random.default_rng(9)
    small = measure_efficiency(walks_on_a_grid(1500, 15, 8, rng), start=0.9, rounds=1).all
    large = measure_efficiency(walks_on_a_grid(1500, 10, 5, rng), start=0.9, rounds=1).all
    assert small.value > 0.9
    assert 0.2 < large.value < small.value - 3 * (large.error + small.error)


# --- gammon rates ---------------------------------------------------------------------------------------


def test_gammon_rates_count_gammons_and_backgammons_among_the_won_games():
    rates = gammon_rates([1, -1, 2, -2, 3, -3, 1, 1, -1, 2])
    assert rates.gammon.value == pytest.approx(5 / 10)
    assert rates.backgammon.value == pytest.approx(2 / 10)
    assert rates.first_player_wins.value == pytest.approx(6 / 10)
    assert rates.gammon.error == pytest.approx(np.sqrt(0.5 * 0.5 / 10))
    assert rates.backgammon.count == 10
    with pytest.raises(ValueError, match="±1, ±2 or ±3"):
        gammon_rates([1, 0, 2])
    with pytest.raises(ValueError, match="±1, ±2 or ±3"):
        gammon_rates([])


# --- self-play ------------------------------------------------------------------------------------------


def test_self_play_records_every_position_before_a_roll_and_each_result():
    evaluator = Evaluator.untrained(hidden=8, seed=1)
    games = self_play(evaluator, 6, np.random.default_rng(10), parallel=4)  # slots are reused
    assert games.games == 6
    assert set(np.abs(games.results).tolist()) <= {1, 2, 3}
    boards = games.boards.astype(np.int64)
    mine = np.where(boards[:, 1:25] > 0, boards[:, 1:25], 0).sum(1) + boards[:, MY_BAR] + boards[:, MY_OFF]
    theirs = np.where(boards[:, 1:25] < 0, -boards[:, 1:25], 0).sum(1) + boards[:, THEIR_BAR]
    assert (mine == CHECKERS).all()
    assert (theirs + boards[:, THEIR_OFF] == CHECKERS).all()
    assert (boards[:, MY_OFF] < CHECKERS).all()
    assert (boards[:, THEIR_OFF] < CHECKERS).all()
    assert np.allclose(games.probabilities, evaluator.evaluate(games.boards), atol=1e-6)
    assert np.array_equal(games.contact, contact(games.boards))
    starts = games.starts
    for game in range(games.games):
        players = games.player[starts[game] : starts[game + 1]]
        assert len(players) >= 1
        # The opening move is player 0's; from then on the players take turns, each before a roll.
        assert players.tolist() == [(turn + 1) % 2 for turn in range(len(players))]
        # The game ends with a move by the last player on roll, who wins it.
        assert (games.results[game] > 0) == (players[-1] == 0)


def test_self_play_is_reproducible_from_its_seed():
    evaluator = Evaluator.untrained(hidden=8, seed=1)
    first = self_play(evaluator, 3, np.random.default_rng(11))
    again = self_play(evaluator, 3, np.random.default_rng(11))
    other = self_play(evaluator, 3, np.random.default_rng(12))
    assert np.array_equal(first.boards, again.boards)
    assert np.array_equal(first.results, again.results)
    assert np.array_equal(first.probabilities, again.probabilities)
    assert not np.array_equal(first.boards[:20], other.boards[:20])


def test_the_command_prints_the_figures(capsys):
    calibrate.main(["--games", "8", "--seed", "1", "--parallel", "4", "--quiet"])
    out = capsys.readouterr().out
    assert "8 games" in out
    assert "gammons (backgammons included)" in out
    assert "Janowski's x" in out
