"""Networks of the variants: their extra inputs, how they are found, and Acey-Deucey's turns that go on."""

from __future__ import annotations

import numpy as np
import pytest

from tavola import Dice, Position
from tavola.bot.continuation import AGAIN, CHOOSE, NEXT, double_choices, kinds, mover_probabilities
from tavola.bot.encode import INPUTS, VARIANT_INPUTS, encode
from tavola.bot.evaluate import Evaluator, shipped_weights
from tavola.bot.network import Network, flip_probabilities
from tavola.bot.policies import GreedyPolicy
from tavola.position import flip_array
from tavola.sampling import random_positions
from tavola.selfplay import play
from tavola.variants import ACEY_DEUCEY, DUTCH, NACKGAMMON, STANDARD

UNTRAINED = Evaluator.untrained(hidden=8, seed=4)


def variant_evaluator(variant=ACEY_DEUCEY, seed=3):
    nets = [Network.random([VARIANT_INPUTS, 8, 5], seed=seed + side) for side in range(2)]
    return Evaluator(*nets, None, variant)


def test_V2_waiting_checkers_are_inputs_of_their_own_and_count_as_bar_checkers_for_the_rest():
    board = Position([0] * 24, bar=(1, 0), waiting=(14, 15)).to_array()[None]
    on_bar = Position([0] * 24, bar=(15, 15)).to_array()[None]
    with_extras = encode(board, extras=True)
    assert (with_extras[:, :INPUTS] == encode(on_bar)).all()
    assert with_extras[0, INPUTS:].tolist() == pytest.approx([14 / 15, 1.0, 1.0, 1.0])
    assert with_extras.shape == (1, VARIANT_INPUTS)


def test_V1_the_none_home_inputs_say_who_may_not_hit_yet_in_dutch():
    board = [0] * 24
    board[3] = 2  # the mover has a checker on its 4-point: home
    board[10] = -2  # the opponent's checkers on the mover's 11-point: its own 14-point
    position = Position(board, bar=(13, 13))
    extras = encode(position.to_array()[None], extras=True)[0, INPUTS:]
    assert extras.tolist() == [0.0, 0.0, 0.0, 1.0]
    borne_off = Position([0] * 23 + [-15], off=(1, 0), bar=(14, 0))
    assert encode(borne_off.to_array()[None], extras=True)[0, INPUTS + 2] == 0.0  # one off counts as home


def test_a_variant_network_gives_the_same_bits_from_boards_as_from_their_inputs():
    net = Network.random([VARIANT_INPUTS, 16, 5], seed=2)
    boards = np.stack([p.to_array() for p in random_positions(300, seed=5)])
    boards = np.concatenate([boards, ACEY_DEUCEY.start.to_array()[None], DUTCH.start.to_array()[None]])
    assert (net.of_boards(boards) == net.probabilities(encode(boards, extras=True))).all()


def test_a_standard_network_sees_waiting_checkers_as_checkers_on_the_bar():
    waiting = ACEY_DEUCEY.start.to_array()[None]
    on_bar = Position([0] * 24, bar=(15, 15)).to_array()[None]
    net = Network.random([INPUTS, 8, 5], seed=6)
    assert (net.of_boards(waiting) == net.of_boards(on_bar)).all()


def test_the_shipped_evaluator_judges_each_variant_with_its_own_networks_where_they_ship():
    standard = Evaluator.default()
    for variant in (DUTCH, ACEY_DEUCEY, NACKGAMMON):
        judged = standard.for_variant(variant)
        assert judged is Evaluator.default(variant)
        assert judged.variant == variant
        own = shipped_weights(variant).exists()
        assert (judged.contact_net.sizes[0] == VARIANT_INPUTS) == own
        if not own:
            assert judged.contact_net is standard.contact_net
    assert UNTRAINED.for_variant(DUTCH).contact_net is UNTRAINED.contact_net  # others keep their networks


def test_V2_what_follows_each_play():
    assert kinds(ACEY_DEUCEY, Dice(1, 2), False, [2, 1, 0]).tolist() == [CHOOSE, NEXT, NEXT]
    assert kinds(ACEY_DEUCEY, Dice(4, 4), True, [4, 3]).tolist() == [AGAIN, NEXT]
    assert kinds(ACEY_DEUCEY.with_options(acey_deucey_roll=False), Dice(1, 2), False, [2]).tolist() == [NEXT]
    assert kinds(STANDARD, Dice(4, 4), True, [4]).tolist() == [NEXT]


def test_V2_a_chosen_double_played_in_full_is_worth_the_position_with_the_mover_still_on_roll():
    evaluator = variant_evaluator()
    results = np.stack([p.to_array() for p in random_positions(20, seed=8)])
    again = mover_probabilities(evaluator, results, np.full(20, AGAIN))
    assert np.allclose(again, evaluator.evaluate(results))
    passed = mover_probabilities(evaluator, results, np.full(20, NEXT))
    assert np.allclose(passed, flip_probabilities(evaluator.evaluate(flip_array(results))))


def test_V2_a_one_two_played_in_full_is_worth_its_best_double_and_play():
    evaluator = variant_evaluator()
    plays = ACEY_DEUCEY.start.legal_plays(Dice(1, 2), ACEY_DEUCEY)
    found = evaluator.equity(mover_probabilities(evaluator, plays.results, np.full(len(plays), CHOOSE)))
    for row, one_two in enumerate(plays):
        best = -np.inf
        for number in range(1, 7):
            for double_play in one_two.after.legal_plays(Dice(number, number), ACEY_DEUCEY):
                after = double_play.after.to_array()[None]
                if len(double_play.moves) == 4:
                    value = evaluator.equity(evaluator.evaluate(after))[0]
                else:
                    value = -evaluator.equity(evaluator.evaluate(flip_array(after)))[0]
                best = max(best, float(value))
        assert found[row] == pytest.approx(best, abs=1e-5)
    choices = double_choices(evaluator, plays.results)
    assert choices.by_double().shape == (len(plays), 6)


def test_V2_self_play_chooses_the_double_that_leads_furthest():
    evaluator = variant_evaluator()
    policy = GreedyPolicy.of(evaluator)
    for step in play(policy, 40, key=9, variant=ACEY_DEUCEY, stop_after=30):
        choosing = (step.dice == 0).all(axis=1)
        for slot in np.flatnonzero(choosing):
            rows = np.arange(step.offsets[slot], step.offsets[slot + 1])
            what = np.where(step.made[rows] == 4, AGAIN, NEXT)
            values = evaluator.equity(mover_probabilities(evaluator, step.results[rows], what))
            assert values[step.chosen[slot] - step.offsets[slot]] == pytest.approx(values.max(), abs=1e-6)
            return
    pytest.fail("no game chose a double in 40 games of 30 plays")
