"""The bots' game loop: games, points, duplicate dice and the match statistics."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tavola import Dice, Position, selfplay
from tavola.bot.arena import (
    CHOOSERS,
    Chooser,
    RandomChooser,
    Result,
    choose_play,
    duplicate_match,
    make_chooser,
    play_game,
)
from tavola.bot.pubeval import PubEval
from tavola.movegen import generate
from tavola.selfplay import opening_roll


class FirstRow:
    """Always plays the first legal result: deterministic and cheap."""

    def choose(self, before: np.ndarray, results: np.ndarray) -> int:
        return 0


class Recorder:
    """Wraps a chooser and records every (before, results) it is shown."""

    def __init__(self, inner: Chooser) -> None:
        self.inner = inner
        self.seen: list[tuple[np.ndarray, np.ndarray]] = []

    def choose(self, before: np.ndarray, results: np.ndarray) -> int:
        self.seen.append((before.copy(), results.copy()))
        return self.inner.choose(before, results)


def test_game_results_are_single_gammon_or_backgammon():
    rng = np.random.default_rng(4)
    outcomes = {play_game(RandomChooser(rng), RandomChooser(rng), seed) for seed in range(60)}
    assert outcomes <= {-3, -2, -1, 1, 2, 3}
    assert len(outcomes) >= 4  # random play ends games in every way


def test_a_game_that_never_ends_is_an_error(monkeypatch):
    monkeypatch.setattr(selfplay, "MAX_TURNS", 3)
    with pytest.raises(RuntimeError, match="3 plays"):
        play_game(FirstRow(), FirstRow(), 0)


def test_R4_the_higher_opening_die_moves_first_with_both_dice():
    for seed in range(12):
        die0, die1 = opening_roll(seed, [0])[0].tolist()
        assert die0 != die1
        first, second = Recorder(PubEval()), Recorder(PubEval())
        play_game(first, second, seed)
        opener = first if die0 > die1 else second
        before, results = opener.seen[0]
        assert (before == Position.start().to_array()).all()
        assert (results == generate(before, die0, die1)[0]).all()
        other = second if opener is first else first
        assert not (other.seen[0][0] == Position.start().to_array()).all()  # the opener has moved


def test_a_chooser_against_itself_with_duplicate_dice_scores_exactly_zero():
    pubeval = PubEval()
    result = duplicate_match(pubeval, pubeval, games=30, seed=3)
    assert (result.points[:, 0] == -result.points[:, 1]).all()
    assert result.points_per_game == 0.0
    assert result.standard_error == 0.0
    assert (result.points != 0).all()


def test_both_games_of_a_pair_use_the_same_dice_sequence():
    seed = 12
    result = duplicate_match(PubEval(), FirstRow(), games=4, seed=seed)
    for k in range(4):
        assert result.points[k, 0] == play_game(PubEval(), FirstRow(), seed, stream=k)
        assert result.points[k, 1] == -play_game(FirstRow(), PubEval(), seed, stream=k)


def test_a_match_is_reproducible_from_its_seeds():
    def match(seed: int) -> Result:
        return duplicate_match(make_chooser("pubeval"), make_chooser("random", 5), games=10, seed=seed)

    first, again, other = match(7), match(7), match(8)
    assert (first.points == again.points).all()
    assert first.plies == again.plies
    assert first.seed == 7
    assert not (first.points == other.points).all()


def test_a_match_without_a_seed_records_the_one_drawn():
    result = duplicate_match(FirstRow(), FirstRow(), games=1)
    again = duplicate_match(FirstRow(), FirstRow(), games=1, seed=result.seed)
    assert (result.points == again.points).all()


def test_result_statistics_are_over_the_pairs():
    points = np.array([[1, -1], [2, 1], [-1, -1], [3, 1]])
    result = Result(points, plies=400, seconds=2.0, seed=0)
    means = points.mean(axis=1)
    assert (result.pairs, result.games) == (4, 8)
    assert result.points_per_game == pytest.approx(0.625)
    assert result.standard_error == pytest.approx(means.std(ddof=1) / 2)
    low, high = result.interval95
    assert (high - low) == pytest.approx(2 * 1.959964 * result.standard_error)
    assert result.rate(1) == pytest.approx(3 / 8)
    assert result.rate(-1) == pytest.approx(3 / 8)
    assert result.games_per_second == 4.0
    assert math.isnan(Result(points[:1], plies=0, seconds=0.0, seed=0).standard_error)


def test_the_progress_bar_shows_and_the_match_is_the_same(capsys):
    shown = duplicate_match(PubEval(), FirstRow(), games=3, seed=4, progress=True)
    hidden = duplicate_match(PubEval(), FirstRow(), games=3, seed=4)
    assert (shown.points == hidden.points).all()
    assert "3/3" in capsys.readouterr().out


def test_choosers_by_name():
    assert {"pubeval", "random"} <= set(CHOOSERS)
    assert isinstance(make_chooser("pubeval"), PubEval)
    assert isinstance(make_chooser("random", 1), RandomChooser)
    with pytest.raises(KeyError, match="no chooser called 'gnu'"):
        make_chooser("gnu")


def test_choose_play_gives_the_choosers_play():
    assert str(choose_play(PubEval(), Position.start(), Dice(4, 2))) == "8/4 6/4"
    closed = Position.start().legal_plays(Dice(6, 6))  # 6-6 from the start: several plays
    assert choose_play(FirstRow(), Position.start(), Dice(6, 6)) == closed[0]


def test_random_chooser_picks_every_row():
    chooser = RandomChooser(np.random.default_rng(0))
    rows = np.zeros((3, 30), dtype=np.int8)
    assert {chooser.choose(rows[0], rows) for _ in range(100)} == {0, 1, 2}
