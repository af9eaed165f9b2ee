"""TD(lambda) training: returns, checkpoints and exported weights."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training needs PyTorch (pip install 'tavola[train]')")

from tavola.bot.evaluate import Evaluator  # noqa: E402
from tavola.bot.network import Network  # noqa: E402
from tavola.bot.train.td import Settings, Trainer, _Trajectory, train  # noqa: E402


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
    assert contact_net.sizes == race_net.sizes == [198, 8, 5]
    Evaluator(contact_net, race_net)  # the bot can load what training wrote
