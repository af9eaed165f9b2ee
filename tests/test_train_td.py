"""TD(lambda) training: returns, checkpoints and exported weights."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training needs PyTorch (pip install 'tavola[train]')")

from tavola.bot.encode import INPUTS, RAW_INPUTS  # noqa: E402
from tavola.bot.evaluate import Evaluator  # noqa: E402
from tavola.bot.network import Network  # noqa: E402
from tavola.train.td import Settings, Trainer, _Trajectory, train  # noqa: E402


def test_lambda_returns_worked_backwards_from_the_result():
    trainer = Trainer(Settings(lam=0.5))
    win = np.array([1, 0, 0, 0, 0], np.float32)
    judged = np.array([0.6, 0.2, 0.0, 0.1, 0.0], np.float32)  # the value the second-last play was judged at
    trajectory = _Trajectory(next_values=[judged, win])
    returns = trainer._returns(trajectory)
    assert returns[-1].tolist() == win.tolist()
    # G_0 = 0.5 * judged + 0.5 * (the last return seen by the other player: a certain loss)
    lost = np.array([0, 0, 0, 0, 0], np.float32)
    assert np.allclose(returns[0], 0.5 * judged + 0.5 * lost)


def test_training_saves_resumes_and_exports(tmp_path):
    checkpoint, weights = tmp_path / "td.pt", tmp_path / "tavola.npz"
    settings = Settings(games=16, parallel=8, hidden=8, warmup_positions=200, save_every=8)
    first = train(settings, checkpoint, weights)
    assert first.games_played == 16
    assert checkpoint.exists()
    more = train(Settings(**{**settings.__dict__, "games": 24}), checkpoint, weights)
    assert more.games_played == 24  # carried on from 16
    contact_net = Network.load(weights)
    race_net = Network.load(tmp_path / "tavola-race.npz")
    assert contact_net.sizes == race_net.sizes == [INPUTS, 8, 5]
    Evaluator(contact_net, race_net)  # the bot can load what training wrote


def test_a_checkpoint_from_before_the_contact_features_is_widened_with_zero_weights(tmp_path):
    settings = Settings(games=8, parallel=4, hidden=8, warmup_positions=100)
    old = Trainer(settings)
    state = old.state()
    for name in ("contact", "race"):
        state["nets"][name]["0.weight"] = state["nets"][name]["0.weight"][:, :RAW_INPUTS].clone()
    torch.save(state, tmp_path / "old.pt")
    new = Trainer(settings)
    new.load(tmp_path / "old.pt")
    for name in ("contact", "race"):
        weights = new.nets[name][0].weight.detach()
        assert weights.shape[1] == INPUTS
        assert torch.equal(weights[:, :RAW_INPUTS], state["nets"][name]["0.weight"])
        assert not weights[:, RAW_INPUTS:].any()  # the features start unused: the net plays as before


def test_V2_a_return_is_turned_round_only_where_the_turn_passes_to_the_other_player():
    trainer = Trainer(Settings(lam=0.5, variant="acey-deucey"))
    win = np.array([1, 0, 0, 0, 0], np.float32)
    judged = np.array([0.6, 0.2, 0.0, 0.1, 0.0], np.float32)
    # Seat 0 plays a 1-2, then its chosen double, and wins: the same player all through.
    same = trainer._returns(_Trajectory(next_values=[judged, judged, win], seats=[0, 0, 0]))
    assert np.allclose(same[1], 0.5 * judged + 0.5 * win)
    assert np.allclose(same[0], 0.5 * judged + 0.5 * same[1])
    passed = trainer._returns(_Trajectory(next_values=[judged, win], seats=[1, 0]))
    assert np.allclose(passed[0], 0.5 * judged)  # the other player's win is this one's loss


def test_a_variant_is_trained_from_the_standard_networks_with_its_extra_inputs(tmp_path):
    from tavola.bot.encode import VARIANT_INPUTS
    from tavola.variants import DUTCH

    standard = tmp_path / "standard.npz"
    Evaluator.untrained(hidden=8, seed=2).contact_net.save(standard)
    Evaluator.untrained(hidden=8, seed=3).race_net.save(tmp_path / "standard-race.npz")
    settings = Settings(games=8, parallel=8, hidden=8, variant="dutch", init=str(standard))
    trainer = train(settings, tmp_path / "dutch.pt", tmp_path / "tavola-dutch.npz")
    contact_net = Network.load(tmp_path / "tavola-dutch.npz")
    assert contact_net.sizes == [VARIANT_INPUTS, 8, 5]
    assert trainer.evaluator().variant == DUTCH
    with pytest.raises(ValueError, match="hidden 16"):
        Trainer(Settings(hidden=16, variant="dutch")).start_from(standard)
    with pytest.raises(ValueError, match="solved exactly"):
        Trainer(Settings(variant="hypergammon"))
