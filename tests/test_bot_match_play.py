"""Checker play at a match score: plays ranked by match winning chances, not money equity."""

from __future__ import annotations

import pytest

from tavola import Dice, Position
from tavola.bot.context import CubeContext
from tavola.bot.evaluate import Evaluator
from tavola.bot.player import Bot
from tavola.cube import Cube
from tavola.dice import ALL_ROLLS
from tavola.match import MatchScore
from tavola.rules import Rules


@pytest.fixture(scope="module")
def bot() -> Bot:
    return Bot(Evaluator.default(), level="advanced")


def at(score: MatchScore, value: int = 1) -> CubeContext:
    """The cube context of a match at ``score`` (the player on roll's first) with a centred cube."""
    return CubeContext(0, Cube(value), Rules(), away=score.away, crawford=score.crawford)


def test_P1_at_double_match_point_only_winning_counts(bot: Bot) -> None:
    """At 1-away 1-away a gammon is worth no more than a single game: plays rank by their wins."""
    dmp = MatchScore(7, (6, 6))
    choices = bot.hint(Position.start(), Dice(6, 4), at(dmp))
    wins = [choice.probabilities[0] for choice in choices]
    assert wins == sorted(wins, reverse=True)
    for choice in choices:
        assert choice.equity == pytest.approx(2 * choice.probabilities[0] - 1, abs=1e-6)


def test_money_and_match_rank_the_same_plays(bot: Bot) -> None:
    money = bot.hint(Position.start(), Dice(5, 2))
    match = bot.hint(Position.start(), Dice(5, 2), at(MatchScore(5, (0, 0))))
    assert {choice.play for choice in money} == {choice.play for choice in match}
    assert match[0].play == bot.play(Position.start(), Dice(5, 2), at(MatchScore(5, (0, 0)))).play


@pytest.mark.parametrize("score", [(6, 6), (3, 4), (4, 3)])
def test_the_score_changes_some_opening_plays(bot: Bot, score: tuple[int, int]) -> None:
    """Where gammons count for more or less than in money play, some choices change."""
    match = MatchScore(7 if score == (6, 6) else 5, score)
    changed = [
        dice
        for dice in ALL_ROLLS
        if bot.play(Position.start(), dice).play != bot.play(Position.start(), dice, at(match)).play
    ]
    assert changed
