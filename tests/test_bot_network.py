"""The bot's inputs, networks and evaluator."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

from builders import position
from strategies import positions
from tavola import Dice, Position
from tavola.bot.encode import INPUTS, RAW_INPUTS, encode
from tavola.bot.evaluate import Evaluator, contact
from tavola.bot.network import Network, NetworkError, consistent, equity, flip_probabilities
from tavola.position import flip_array


def test_inputs_of_the_start_position():
    inputs = encode(Position.start().to_array()[None])[0]
    assert inputs.shape == (INPUTS,)
    six = 5 * 4  # the mover's 6-point: 5 checkers
    assert inputs[six : six + 4].tolist() == [1.0, 1.0, 1.0, 1.0]
    eight = 7 * 4  # 3 checkers
    assert inputs[eight : eight + 4].tolist() == [1.0, 1.0, 1.0, 0.0]
    assert inputs[98] == pytest.approx(167 / 150)
    assert (inputs[:99] == inputs[99:RAW_INPUTS]).all()  # the start is the same for both sides
    features = inputs[RAW_INPUTS:]
    assert (features[:3] == features[3:]).all()


@settings(max_examples=50, deadline=None)
@given(positions())
def test_inputs_are_each_sides_own_view(pos):
    inputs = encode(pos.to_array()[None])[0]
    flipped = encode(pos.flip().to_array()[None])[0]
    assert (inputs[:99] == flipped[99:RAW_INPUTS]).all()
    assert (inputs[99:RAW_INPUTS] == flipped[:99]).all()
    assert (inputs[RAW_INPUTS : RAW_INPUTS + 3] == flipped[RAW_INPUTS + 3 :]).all()
    assert (inputs[RAW_INPUTS + 3 :] == flipped[RAW_INPUTS : RAW_INPUTS + 3]).all()
    assert (encode(pos.to_array()[None], features=False)[0] == inputs[:RAW_INPUTS]).all()


def test_network_weights_round_trip(tmp_path):
    net = Network.random([INPUTS, 16, 5], seed=3)
    net.save(tmp_path / "net.npz")
    again = Network.load(tmp_path / "net.npz")
    boards = np.stack([Position.start().to_array()] * 3)
    assert np.array_equal(net.probabilities(encode(boards)), again.probabilities(encode(boards)))


def test_bad_weights_files_raise(tmp_path):
    (tmp_path / "bad.npz").write_bytes(b"not a weights file")
    with pytest.raises(NetworkError):
        Network.load(tmp_path / "bad.npz")
    with pytest.raises(NetworkError, match="5 outputs"):
        Network([(np.zeros((INPUTS, 4), np.float32), np.zeros(4, np.float32))])


def test_probabilities_are_consistent_and_flip_twice_to_themselves():
    raw = np.random.default_rng(1).random((200, 5)).astype(np.float32)
    p = consistent(raw)
    assert (p[:, 1] <= p[:, 0]).all()
    assert (p[:, 2] <= p[:, 1]).all()
    assert (p[:, 3] <= 1 - p[:, 0] + 1e-7).all()
    assert (p[:, 4] <= p[:, 3]).all()
    assert np.allclose(flip_probabilities(flip_probabilities(p)), p)
    assert np.allclose(equity(flip_probabilities(p)), -equity(p), atol=1e-6)


def test_R19_finished_games_are_evaluated_exactly():
    evaluator = Evaluator.untrained(seed=1)
    single = position({}, {19: 14}).flip()  # the player on roll lost with a checker off
    gammon = position({}, {19: 15}).flip()
    backgammon = position({}, {19: 14, 3: 1}).flip()
    probabilities = evaluator.evaluate(np.stack([p.to_array() for p in (single, gammon, backgammon)]))
    assert probabilities.tolist() == [[0, 0, 0, 0, 0], [0, 0, 0, 1, 0], [0, 0, 0, 1, 1]]
    assert equity(probabilities).tolist() == [-1, -2, -3]


def test_contact_and_race_go_to_their_own_networks():
    race_position = position({6: 15}, {19: 15})
    contact_position = Position.start()
    boards = np.stack([race_position.to_array(), contact_position.to_array()])
    assert contact(boards).tolist() == [False, True]
    a, b = Network.random([INPUTS, 8, 5], seed=1), Network.random([INPUTS, 8, 5], seed=2)
    evaluated = Evaluator(contact_net=a, race_net=b).evaluate(boards)
    assert np.allclose(evaluated[0], b.probabilities(encode(boards[:1]))[0])
    assert np.allclose(evaluated[1], a.probabilities(encode(boards[1:]))[0])


def test_the_zero_ply_choice_is_the_best_equity_for_the_mover():
    evaluator = Evaluator.untrained(seed=4)
    start = Position.start()
    plays = start.legal_plays(Dice(3, 1))
    results = np.stack([play.after.to_array() for play in plays])
    chosen = evaluator.choose(start.to_array(), results)
    scores = -equity(evaluator.evaluate(flip_array(results)))
    assert scores[chosen] == scores.max()


def test_bearoffs_are_evaluated_by_the_exact_database():
    from tavola.bot.bearoff import default_database
    from tavola.bot.bearoff import is_bearoff as bearoff

    bearoff_position = position({6: 1}, {19: 1})  # one checker each on its 6-point
    race_position = position({6: 14, 8: 1}, {19: 15})
    boards = np.stack([bearoff_position.to_array(), race_position.to_array()])
    assert bearoff(boards).tolist() == [True, False]
    net = Network.random([INPUTS, 8, 5], seed=1)
    evaluated = Evaluator(net, net, default_database()).evaluate(boards)
    assert evaluated[0, 0] == pytest.approx(13 / 16, abs=1e-4)  # the mover wins 13/16 (checked by hand)
    on_its_one_point = position({6: 1}, {24: 1})
    one_roll = Evaluator(net, net, default_database()).evaluate(on_its_one_point.to_array()[None])
    assert one_roll[0, 0] == pytest.approx(3 / 4, abs=1e-4)  # the mover must bear off at once
    assert np.allclose(evaluated[1], net.probabilities(encode(boards[1:]))[0])


def test_the_shipped_networks_load_and_play():
    evaluator = Evaluator.default()
    assert evaluator.contact_net.sizes == evaluator.race_net.sizes
    assert evaluator.bearoff_database is not None
    start = Position.start()
    plays = start.legal_plays(Dice(3, 1))
    results = np.stack([play.after.to_array() for play in plays])
    assert (
        plays[evaluator.choose(start.to_array(), results)].notation == "8/5 6/5"
    )  # the 5-point, as everyone plays


def test_a_large_batch_is_evaluated_in_parts_with_the_same_results(monkeypatch):
    from tavola.bot import evaluate as evaluate_module
    from tavola.sampling import random_positions

    evaluator = Evaluator.default()
    boards = np.stack([p.to_array() for p in random_positions(50, seed=4)])
    whole = evaluator.evaluate(boards)
    monkeypatch.setattr(evaluate_module, "BATCH", 7)
    parts = evaluator.evaluate(boards)
    assert parts.shape == (50, 5)
    # The same up to float32 rounding: BLAS may sum in another order for another number of rows.
    assert np.allclose(parts, whole, atol=1e-6)
    assert np.allclose(evaluator.evaluate(boards[:7]), whole[:7], atol=1e-6)
