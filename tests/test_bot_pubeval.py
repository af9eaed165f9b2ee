"""Tesauro's pubeval: the inputs, the scores and the plays it chooses."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from builders import position
from tavola import ALL_ROLLS, Dice, Position
from tavola.bot.arena import RandomChooser, choose_play, duplicate_match
from tavola.bot.pubeval import INPUTS, PubEval, PubEvalWeights, inputs, is_race
from tavola.movegen import generate
from tavola.position import PositionKind
from tavola.sampling import random_positions

SHARED_WEIGHTS = Path(__file__).parents[2] / "shared" / "data" / "pubeval.json"


def tesauro_score(race: bool, after: np.ndarray) -> float:
    """A line-by-line transcription of Tesauro's C ``pubeval`` and ``setx``, one position at a time."""
    # pos[]: 1-24 the points from the computer's side (its men positive), 0 the opponent's bar
    # (negative), 25 the computer's bar, 26 its men off, 27 the opponent's men off (negative).
    pos = [0] * 28
    pos[1:25] = [int(v) for v in after[1:25]]
    pos[0], pos[25], pos[26], pos[27] = -int(after[27]), int(after[25]), int(after[0]), -int(after[28])
    if pos[26] == 15:
        return float("inf")
    x = [0.0] * 122
    for j in range(1, 25):
        jm1 = j - 1
        n = pos[25 - j]
        if n != 0:
            if n == -1:
                x[5 * jm1 + 0] = 1.0
            if n == 1:
                x[5 * jm1 + 1] = 1.0
            if n >= 2:
                x[5 * jm1 + 2] = 1.0
            if n == 3:
                x[5 * jm1 + 3] = 1.0
            if n >= 4:
                x[5 * jm1 + 4] = (n - 3) / 2.0
    x[120] = -pos[0] / 2.0
    x[121] = pos[26] / 15.0
    weights = PubEvalWeights.load()
    w = weights.race if race else weights.contact
    return sum(float(wi) * xi for wi, xi in zip(w, x, strict=True))


def test_the_shipped_weights_are_the_published_ones():
    weights = PubEvalWeights.load()
    assert weights.race.shape == weights.contact.shape == (INPUTS,)
    assert weights.race[:4].tolist() == [0.0, -0.1716, 0.2701, 0.29906]
    assert weights.contact[-3:].tolist() == [-4.1152, 5.62596, -2.758]
    if SHARED_WEIGHTS.exists():  # the project's copy of the published file, where there is one
        data = json.loads(SHARED_WEIGHTS.read_text())
        assert weights.race.tolist() == data["race"]
        assert weights.contact.tolist() == data["contact"]


def test_inputs_of_the_starting_position():
    x = inputs(Position.start().to_array())
    blocks = x[:120].reshape(24, 5)  # points 24 down to 1
    assert blocks[0].tolist() == [0, 0, 1, 0, 0]  # 2 on the 24 point
    assert blocks[24 - 13].tolist() == [0, 0, 1, 0, 1]  # 5 on the midpoint: (5 - 3) / 2
    assert blocks[24 - 8].tolist() == [0, 0, 1, 1, 0]  # 3 on the 8 point
    assert blocks[24 - 19].tolist() == [0, 0, 0, 0, 0]  # an opposing point gives nothing
    assert x[120:].tolist() == [0, 0]


def test_inputs_of_a_blot_the_bar_and_checkers_off():
    after = position({24: 1, 3: 4}, {1: 1, 12: 2}, bar=(0, 3)).to_array()
    x = inputs(after)
    blocks = x[:120].reshape(24, 5)
    assert blocks[0].tolist() == [0, 1, 0, 0, 0]  # point 24: my blot
    assert blocks[24 - 1].tolist() == [1, 0, 0, 0, 0]  # point 1: an opposing blot
    assert blocks[24 - 3].tolist() == [0, 0, 1, 0, 0.5]
    assert x[120] == 1.5  # three on the opponent's bar, halved
    assert x[121] == 10 / 15  # ten of mine off


def test_scores_match_tesauros_code_on_sampled_positions():
    pubeval = PubEval()
    rng = np.random.default_rng(5)
    checked = {True: 0, False: 0}
    for before in random_positions(150, seed=11):
        array = before.to_array()
        results, _ = generate(array, *map(int, rng.integers(1, 7, size=2)))
        race = before.kind in (PositionKind.RACE, PositionKind.BEAROFF)
        expected = [tesauro_score(race, after) for after in results]
        assert pubeval.scores(array, results) == pytest.approx(expected, rel=1e-12, abs=1e-12)
        checked[race] += 1
    assert min(checked.values()) > 10  # both weight sets were used


def test_is_race_agrees_with_the_position_kind():
    for before in random_positions(400, seed=3):
        expected = before.kind in (PositionKind.RACE, PositionKind.BEAROFF)
        assert is_race(before.to_array()) == expected, before


@pytest.mark.parametrize(
    ("roll", "play"),
    [("31", "8/5 6/5"), ("42", "8/4 6/4"), ("61", "13/7 8/7"), ("53", "8/3 6/3"), ("55", "13/3(2)")],
)
def test_opening_plays_make_the_natural_points(roll, play):
    assert str(choose_play(PubEval(), Position.start(), Dice.parse(roll))) == play


def test_every_opening_roll_gets_a_play():
    for roll in ALL_ROLLS:
        assert choose_play(PubEval(), Position.start(), roll).moves


def test_bearing_off_the_last_checker_always_wins_the_choice():
    before = position({1: 1, 3: 1}, {24: 15}).to_array()
    results, _ = generate(before, 3, 1)  # 3/off 1/off, or 3/2/off with a checker left
    assert sorted(results[:, 0].tolist()) == [14, 15]
    assert results[PubEval().choose(before, results), 0] == 15


def test_pubeval_beats_a_random_mover_by_a_wide_margin():
    result = duplicate_match(PubEval(), RandomChooser(np.random.default_rng(2)), games=100, seed=2026)
    assert result.points_per_game > 1.5  # about +2.5 over many games
    assert (result.points > 0).mean() > 0.95
