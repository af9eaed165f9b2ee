"""The bot in the variants: finished games judged exactly, and Acey-Deucey judged in its own points."""

from __future__ import annotations

import numpy as np
import pytest

from tavola import Dice, Position
from tavola.bot.context import money
from tavola.bot.cube import CubeAction
from tavola.bot.evaluate import Evaluator, entered_view
from tavola.bot.player import Bot
from tavola.bot.search import evaluate_ply, rank_plays
from tavola.sampling import random_positions
from tavola.variants import ACEY_DEUCEY, DUTCH, HYPERGAMMON

UNTRAINED = Evaluator.untrained(hidden=8, seed=4)


def test_V5_a_finished_hypergammon_game_lost_by_a_backgammon_is_evaluated_as_one():
    lost = Position([0] * 18 + [3] + [0] * 5, off=(0, 3), checkers=3)  # on roll, all 3 in the winner's home
    for evaluator in (UNTRAINED, Evaluator.default(), Evaluator.default().for_variant(HYPERGAMMON)):
        assert evaluator.evaluate(lost.to_array()[None]).tolist() == [[0.0, 0.0, 0.0, 1.0, 1.0]]
        assert evaluate_ply(evaluator, lost.to_array()[None], 2).tolist() == [[0.0, 0.0, 0.0, 1.0, 1.0]]


@pytest.mark.parametrize("level", ["advanced", "expert", "world-class"])
def test_V5_a_hypergammon_bear_off_that_wins_a_gammon_is_hinted_at_two_points(level):
    # The mover's last checker on the 1-point, the opponent's three still in the mover's home board.
    bear_off = Position([1] + [0] * 17 + [-3] + [0] * 5, off=(2, 0), checkers=3)
    best = Bot(Evaluator.default(), level=level).hint(bear_off, Dice(2, 1), money(HYPERGAMMON))[0]
    assert best.play.notation == "1/off"
    assert best.equity == 2.0
    assert best.probabilities == (1.0, 1.0, 0.0, 0.0, 0.0)


def test_V2_a_finished_acey_deucey_game_is_worth_the_checkers_left():
    evaluator = UNTRAINED.for_variant(ACEY_DEUCEY)
    for left in (1, 7, 15):
        board = [0] * 24
        board[10] = left  # the loser (on roll) has ``left`` checkers on its 11-point
        lost = Position(board, off=(15 - left, 15))
        probabilities = evaluator.evaluate(lost.to_array()[None])
        assert float(evaluator.equity(probabilities)[0]) == pytest.approx(-left)
        assert float(evaluator.equity(evaluator.evaluate(lost.flip().to_array()[None]))[0]) == pytest.approx(
            left
        )


def test_V2_a_bear_off_is_ranked_by_the_checkers_it_wins():
    # One play bears off the last checker; the loser has 4 checkers left, waiting ones included.
    last = Position([1] + [0] * 22 + [-2], off=(14, 11), waiting=(0, 2))
    ranked = rank_plays(UNTRAINED.for_variant(ACEY_DEUCEY), last, Dice(3, 1), plies=1)
    assert ranked[0].equity == pytest.approx(4.0)


def test_V2_checkers_waiting_to_enter_are_shown_to_the_networks_on_the_bar_not_off():
    waiting = ACEY_DEUCEY.start.to_array()[None]
    view = entered_view(waiting)
    assert view[0, 25] == view[0, 27] == 15  # both bars
    assert view[0, 26] == view[0, 29] == 0  # nobody waiting
    on_bar = Position([0] * 24, bar=(15, 15)).to_array()[None]
    evaluator = Evaluator.default()
    assert np.allclose(evaluator.evaluate(waiting), evaluator.evaluate(on_bar))


def test_V2_the_hint_for_the_opening_two_one_enters_two_checkers_and_fears_no_gammon():
    ranked = Bot(Evaluator.default(), level="advanced").hint(
        ACEY_DEUCEY.start, Dice(2, 1), money(ACEY_DEUCEY)
    )
    assert ranked[0].play.notation == "in/24 in/23"
    notations = [choice.play.notation for choice in ranked]
    assert notations.index("in/24 in/23") < notations.index("in/22")
    for choice in ranked[:3]:
        win, win_share, win_backgammon, lose_share, lose_backgammon = choice.probabilities
        # Each side expects to collect some of the loser's checkers (in self-play the loser pays about
        # 10.6 of 15: a share of 0.69 of those beyond the first, times the chance of losing), never all.
        assert 0.1 < win_share < 0.5
        assert 0.1 < lose_share < 0.5
        assert lose_share <= 1 - win
        assert win_backgammon == lose_backgammon == 0.0  # no backgammons
        assert abs(choice.equity) < 3


def test_V1_looking_ahead_in_dutch_follows_dutch_rules():
    """The replies a 1-ply look considers are Dutch plays: hits before a checker is home are not among them."""
    bot = Bot(UNTRAINED, level="expert")
    positions = random_positions(40, seed=3, variant=DUTCH)
    dutch = [bot.probabilities(position, variant=DUTCH) for position in positions]
    by_hand = evaluate_ply(UNTRAINED.for_variant(DUTCH), np.stack([p.to_array() for p in positions]), 1)
    assert np.allclose(np.stack(dutch), by_hand)
    standard = np.stack([bot.probabilities(position) for position in positions])
    assert not np.allclose(np.stack(dutch), standard), "no position where the no-hit rule mattered"


def test_V2_acey_deucey_has_no_cube_decision_and_its_equity_is_in_checkers():
    evaluation = Bot(UNTRAINED).evaluate(ACEY_DEUCEY.start, money(ACEY_DEUCEY))
    assert evaluation.cube.action is CubeAction.NO_DOUBLE
    assert evaluation.cube.double_take is None
    assert evaluation.cubeful_equity == evaluation.cubeless_equity
    expected = UNTRAINED.for_variant(ACEY_DEUCEY).equity(np.array([evaluation.probabilities]))[0]
    assert evaluation.cubeless_equity == pytest.approx(float(expected))
