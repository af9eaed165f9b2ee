"""Supervised training on the bot's own search: positions, targets kept as they come, fitting."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training needs PyTorch (pip install 'tavola[train]')")

from tavola.analysis.rollout import RolloutSettings, rollout_positions  # noqa: E402
from tavola.bot.evaluate import Evaluator  # noqa: E402
from tavola.bot.network import Network  # noqa: E402
from tavola.bot.search import evaluate_ply  # noqa: E402
from tavola.position import Position  # noqa: E402
from tavola.selfplay import key_of, subkey  # noqa: E402
from tavola.train import distill  # noqa: E402
from tavola.train.td import Settings, train  # noqa: E402
from tavola.variants import find_variant  # noqa: E402


def _judging_arguments(tmp_path: Path, data: Path) -> list[str]:
    """The command's arguments for judging into ``data`` with small random networks (no checkpoint)."""
    weights = tmp_path / "net.npz"
    Network.random([204, 8, 5], seed=1).save(weights)
    Network.random([204, 8, 5], seed=2).save(tmp_path / "net-race.npz")
    return ["--weights", str(weights), "--checkpoint", str(tmp_path / "none.pt"), "--data", str(data)]


def test_self_play_gives_legal_positions_before_a_roll() -> None:
    evaluator = Evaluator.untrained(hidden=8, seed=1)
    boards = distill.self_play_positions(evaluator, 300, np.random.default_rng(2), parallel=16)
    assert 250 <= len(boards) <= 300
    for board in boards[::25]:
        position = Position.from_array(board)
        assert position.result() is None  # nobody has won yet


def test_candidates_are_the_positions_the_best_plays_leave() -> None:
    evaluator = Evaluator.untrained(hidden=8, seed=1)
    games = 8
    played = distill.self_play_positions(evaluator, 4 * games, np.random.default_rng(5), 0.0, games)
    # The single best play of each turn leaves the position the game goes on from, one turn later.
    best = distill.self_play_positions(evaluator, 3 * games, np.random.default_rng(5), 0.0, games, 1)
    assert np.array_equal(best, played[games:])
    several = distill.self_play_positions(evaluator, 200, np.random.default_rng(5), 0.0, games, 3)
    assert len(np.unique(several, axis=0)) > len(several) // 2
    for board in several[::17]:
        assert Position.from_array(board).result() is None


def test_targets_are_the_1_ply_search_and_a_stopped_run_carries_on(tmp_path, monkeypatch) -> None:
    evaluator = Evaluator.untrained(hidden=8, seed=1)
    data = tmp_path / "data.npz"
    monkeypatch.setattr(distill, "CHUNK", 20)
    rng = np.random.default_rng(3)
    boards, targets = distill.judged_positions(evaluator, data, 50, rng)
    assert len(targets) == len(boards)
    assert np.allclose(targets[:5], evaluate_ply(evaluator, boards[:5], 1))
    # A run stopped half-way keeps what it computed and goes on from there.
    distill._write(data, boards, targets[:20], "1-ply")
    again, more = distill.judged_positions(evaluator, data, 50, rng)
    assert np.array_equal(again, boards)
    assert np.allclose(more, targets)


def test_targets_at_2_plies_are_the_2_ply_search_and_never_mixed_with_1_ply(tmp_path, monkeypatch) -> None:
    evaluator = Evaluator.untrained(hidden=8, seed=1)
    monkeypatch.setattr(distill, "CHUNK", 10)
    data = tmp_path / "deep.npz"
    boards, targets = distill.judged_positions(evaluator, data, 12, np.random.default_rng(3), plies=2)
    assert np.allclose(targets, evaluate_ply(evaluator, boards, 2))
    assert not np.allclose(targets, evaluate_ply(evaluator, boards, 1))
    with pytest.raises(ValueError, match="judged by 2-ply, not by 1-ply"):
        distill.judged_positions(evaluator, data, 12, np.random.default_rng(3))
    with pytest.raises(ValueError, match="1 or 2 plies, not 3"):
        distill.judged_positions(evaluator, tmp_path / "deeper.npz", 12, np.random.default_rng(3), plies=3)


def test_targets_by_rollout_are_each_positions_rollout_and_a_stopped_run_gets_the_same(
    tmp_path, monkeypatch
) -> None:
    evaluator = Evaluator.untrained(hidden=8, seed=1)
    monkeypatch.setattr(distill, "CHUNK", 10)
    monkeypatch.setattr(distill, "ROLLOUT_GAMES", 16)  # four positions of four trials a call
    settings = RolloutSettings(trials=4, truncation=2)
    data = tmp_path / "rolled.npz"
    boards, targets = distill.judged_positions(
        evaluator, data, 25, np.random.default_rng(3), rollout=settings
    )
    assert len(targets) == len(boards) > 10
    # Chances, whatever the variance reduction took off: within 0 and 1, and no more gammons than games.
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = targets.T
    assert ((targets >= 0) & (targets <= 1)).all()
    assert (win_gammon <= win).all()
    assert (win_backgammon <= win_gammon).all()
    assert (lose_gammon <= 1 - win + 1e-6).all()
    assert (lose_backgammon <= lose_gammon).all()
    key = key_of(np.random.default_rng(3))  # the rollouts' seed is drawn first
    first = rollout_positions(boards[:4], replace(settings, seed=subkey(subkey(key, 0), 0)), evaluator)
    assert np.allclose(targets[:4], first.clip(0, 1))
    assert not np.allclose(targets, evaluate_ply(evaluator, boards, 1))
    distill._write(data, boards, targets[:10], distill.judge_name(rollout=settings))
    again, more = distill.judged_positions(evaluator, data, 25, np.random.default_rng(3), rollout=settings)
    assert np.array_equal(again, boards)
    assert np.array_equal(more, targets)
    with pytest.raises(ValueError, match="judged by rollout: 4 trials, truncation 2, not by 1-ply"):
        distill.judged_positions(evaluator, data, 25, np.random.default_rng(3))
    with pytest.raises(ValueError, match="give plies or rollout, not both"):
        distill.judged_positions(evaluator, data, 25, np.random.default_rng(3), plies=2, rollout=settings)
    dutch = replace(settings, variant=find_variant("dutch"))
    with pytest.raises(ValueError, match="the rollouts play dutch, the networks standard"):
        distill.judged_positions(
            evaluator, tmp_path / "other.npz", 25, np.random.default_rng(3), rollout=dutch
        )


def test_the_command_judges_by_rollouts_and_refuses_bad_rollout_settings(tmp_path, capsys) -> None:
    data = tmp_path / "data.npz"
    arguments = _judging_arguments(tmp_path, data)
    distill.main([*arguments, "--positions", "12", "--rollout-trials", "2", "--truncation", "1"])
    assert str(np.load(data)["judge"]) == "rollout: 2 trials, truncation 1"
    for wrong, says in (
        (["--rollout-trials", "3", "--truncation", "0"], "truncated after 1 play or more"),
        (["--rollout-trials", "0"], "at least 1 trial"),
        (["--rollout-trials", "3", "--plies", "2"], "two ways to judge"),
        (["--truncation", "5"], "give --rollout-trials too"),
    ):
        with pytest.raises(SystemExit):
            distill.main([*arguments, *wrong])
        assert says in capsys.readouterr().err


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


def test_fitting_lowers_the_rate_and_reports_the_validation_error(tmp_path, capsys) -> None:
    checkpoint = tmp_path / "td.pt"
    trainer = train(Settings(games=8, parallel=4, hidden=8, warmup_positions=100), checkpoint, None)
    boards = np.stack([Position.start().to_array(), Position.start().flip().to_array()])
    own = trainer.probabilities(boards)
    capsys.readouterr()  # the training's progress
    assert distill.validation_error(trainer, boards, own) < 1e-6
    assert distill.validation_error(trainer, boards, np.zeros_like(own)) > 0.1
    fitted = distill.fit(
        checkpoint, boards, own, epochs=3, rate=1e-3, final_rate=1e-4, validation=(boards, own)
    )
    assert fitted.optimizer.param_groups[0]["lr"] == pytest.approx(1e-4)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    assert all("validation equity error" in line for line in lines)


def test_the_command_judges_without_fitting_when_no_output_is_named(tmp_path, capsys) -> None:
    data = tmp_path / "data.npz"
    arguments = _judging_arguments(tmp_path, data)
    distill.main([*arguments, "--positions", "40", "--candidates", "2"])
    assert "judged" in capsys.readouterr().out
    saved = np.load(data)
    assert len(saved["targets"]) == len(saved["boards"]) > 0
    with pytest.raises(SystemExit):
        distill.main([*arguments, "--out", str(tmp_path / "out.pt")])


def test_hold_out_keeps_the_last_positions_of_the_last_file_out_of_the_fitting(tmp_path, capsys) -> None:
    checkpoint = tmp_path / "td.pt"
    train(Settings(games=8, parallel=4, hidden=8, warmup_positions=100), checkpoint, None)
    weights = tmp_path / "net.npz"
    Network.random([204, 8, 5], seed=1).save(weights)
    Network.random([204, 8, 5], seed=2).save(tmp_path / "net-race.npz")
    data = tmp_path / "data.npz"
    arguments = ["--weights", str(weights), "--checkpoint", str(checkpoint), "--data", str(data)]
    distill.main([*arguments, "--positions", "60"])
    capsys.readouterr()
    out = ["--out", str(tmp_path / "out.pt"), "--export", str(tmp_path / "out.npz"), "--epochs", "2"]
    distill.main([*arguments, *out, "--hold-out", "10"])
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("epoch")]
    assert len(lines) == 2
    assert all("validation equity error" in line for line in lines)
    assert Evaluator.load(tmp_path / "out.npz").evaluate(Position.start().to_array()[None]).shape == (1, 5)
    with pytest.raises(SystemExit):  # more than the file holds
        distill.main([*arguments, *out, "--hold-out", "1000"])
    with pytest.raises(SystemExit):  # not a number of positions
        distill.main([*arguments, *out, "--hold-out", "-5"])
    with pytest.raises(SystemExit):  # two ways to choose the validation
        distill.main([*arguments, *out, "--hold-out", "10", "--validation", str(data)])


def test_V1_a_variant_is_played_judged_and_fitted_by_its_own_rules(tmp_path) -> None:
    from tavola.variants import DUTCH

    evaluator = Evaluator.untrained(hidden=8, seed=1).for_variant(DUTCH)
    boards = distill.self_play_positions(evaluator, 40, np.random.default_rng(2), parallel=8)
    assert (boards[:8, 25] + boards[:8, 27] >= 26).all()  # Dutch games start with every checker to enter
    checkpoint = tmp_path / "dutch.pt"
    train(Settings(games=4, parallel=4, hidden=8, variant="dutch"), checkpoint, None)
    targets = evaluate_ply(evaluator, boards, 1)
    trainer = distill.fit(checkpoint, boards, targets, 1, 1e-3, variant="dutch")
    assert trainer.extras
    with pytest.raises(ValueError, match="networks of dutch, not of standard"):
        distill.fit(checkpoint, boards, targets, 1, 1e-3)
