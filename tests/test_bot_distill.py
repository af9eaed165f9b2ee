"""Supervised training on the bot's own 1-ply search: positions, targets kept as they come, fitting."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training needs PyTorch (pip install 'tavola[train]')")

from tavola.bot.evaluate import Evaluator  # noqa: E402
from tavola.bot.network import Network  # noqa: E402
from tavola.bot.search import evaluate_ply  # noqa: E402
from tavola.bot.train import distill  # noqa: E402
from tavola.bot.train.td import Settings, train  # noqa: E402
from tavola.position import Position  # noqa: E402


def test_self_play_gives_legal_positions_before_a_roll() -> None:
    evaluator = Evaluator.untrained(hidden=8, seed=1)
    boards = distill.self_play_positions(evaluator, 300, np.random.default_rng(2), parallel=16)
    assert 250 <= len(boards) <= 300
    for board in boards[::25]:
        position = Position.from_array(board)
        assert position.result() is None  # nobody has won yet


def test_targets_are_the_1_ply_search_and_a_stopped_run_carries_on(tmp_path, monkeypatch) -> None:
    evaluator = Evaluator.untrained(hidden=8, seed=1)
    data = tmp_path / "data.npz"
    monkeypatch.setattr(distill, "CHUNK", 20)
    rng = np.random.default_rng(3)
    boards, targets = distill.judged_positions(evaluator, data, 50, rng)
    assert len(targets) == len(boards)
    assert np.allclose(targets[:5], evaluate_ply(evaluator, boards[:5], 1))
    # A run stopped half-way keeps what it computed and goes on from there.
    distill._write(data, boards, targets[:20])
    again, more = distill.judged_positions(evaluator, data, 50, rng)
    assert np.array_equal(again, boards)
    assert np.allclose(more, targets)


def test_fitting_a_checkpoint_to_targets_exports_networks_the_bot_loads(tmp_path) -> None:
    checkpoint = tmp_path / "td.pt"
    train(Settings(games=8, parallel=4, hidden=8, warmup_positions=100), checkpoint, None)
    evaluator = Evaluator.untrained(hidden=8, seed=1)
    boards = distill.self_play_positions(evaluator, 64, np.random.default_rng(4), parallel=8)
    targets = evaluate_ply(evaluator, boards, 1)
    trainer = distill.fit(checkpoint, boards, targets, epochs=2, rate=1e-3)
    trainer.export(tmp_path / "out.npz")
    Evaluator(Network.load(tmp_path / "out.npz"), Network.load(tmp_path / "out-race.npz"))


def test_widened_networks_compute_what_the_narrow_ones_did(tmp_path) -> None:
    checkpoint = tmp_path / "td.pt"
    narrow = train(Settings(games=8, parallel=4, hidden=8, warmup_positions=100), checkpoint, None)
    boards = np.stack([Position.start().to_array(), Position.start().flip().to_array()])
    wide = distill.fit(checkpoint, boards, np.full((2, 5), 0.5, np.float32), epochs=0, rate=1e-3, hidden=16)
    assert wide.nets["contact"][0].out_features == 16
    from tavola.bot.encode import encode

    inputs = torch.from_numpy(encode(boards))
    for name in ("contact", "race"):
        assert torch.allclose(narrow.nets[name](inputs), wide.nets[name](inputs), atol=1e-6)
