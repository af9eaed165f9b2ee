"""Supervised training on our own search: the 0-ply networks learn what looking ahead sees.

Three steps, each resumable:

1. **Positions**: games of self-play by the networks being improved (0-ply,
   with a share of random plays for variety) give positions before a roll;
   with ``--candidates N``, the positions left by each turn's N best plays
   instead, the ones a choice is made between.
2. **Targets**: each position is judged by an n-ply search
   (:func:`~tavola.bot.search.evaluate_ply`, ``--plies``, 1 by default):
   at 1 ply, every roll, the best play for it, the opponent's evaluation
   after it; at 2, the same with each of those evaluations itself a 1-ply
   search (the bot's move filter choosing the plays looked at). Or, with
   ``--rollout-trials N``, by a rollout of N trials played by the networks
   at 0-ply, variance-reduced and truncated after ``--truncation`` plays
   (:func:`~tavola.analysis.rollout.rollout_positions`). Either sees
   further than the network alone, so its judgements are better targets
   than the network's own. Targets are written in chunks to ``--data`` as
   they are computed, with how they were judged (a file is never judged
   two ways).
3. **Fitting**: the networks of a TD checkpoint (:mod:`tavola.train.td`)
   are fitted to the targets (cross-entropy on the five outputs), with the
   learning rate lowered along a half cosine when ``--final-learning-rate``
   is given and the error on ``--validation`` files reported each pass, and
   written as a new checkpoint and exported weights.

Run (PyTorch needed)::

    python -m tavola.train.distill --weights checkpoints/tavola.npz \\
        --checkpoint checkpoints/td.pt --data checkpoints/distill.npz \\
        --positions 200000 --out checkpoints/distilled.pt --export checkpoints/distilled.npz

Several ``--data`` files can be judged by separate runs at once (one core
each, ``--seed`` apart, without ``--out``: judging only), then fitted
together by one run naming them all. ``--variant`` plays, judges and fits
a variant's positions by its rules, with a checkpoint of that variant's
networks (:mod:`tavola.train.td` ``--variant``).
"""

from __future__ import annotations

import argparse
import itertools
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tavola.analysis.rollout import BLOCK, RolloutError, RolloutSettings, rollout_positions
from tavola.bot.encode import encode
from tavola.bot.evaluate import Evaluator, contact, entered_view, points_equity
from tavola.bot.network import OUTPUTS, consistent
from tavola.bot.policies import GreedyPolicy
from tavola.bot.search import evaluate_ply
from tavola.files import write_atomically
from tavola.gameover import game_over
from tavola.position import flip_array
from tavola.selfplay import key_of, play, subkey
from tavola.train import require_torch
from tavola.train.td import Settings, Trainer
from tavola.variants import STANDARD, find_variant

CHUNK = 20_000
"""Positions judged between two writes of the data file."""
SEARCH_BATCH = {1: 20_000, 2: 1_000}
"""Positions given to one search call at each depth: a 2-ply search of one position holds about a
megabyte of plays and evaluations, so its batches are small."""
ROLLOUT_GAMES = 4_608
"""Trials played side by side by one rollout call (positions times trials of one block): each looks
a roll ahead at every play for the variance reduction, which holds about 0.1 MB a game."""


def self_play_positions(
    evaluator: Evaluator,
    count: int,
    rng: np.random.Generator,
    explore: float = 0.1,
    parallel: int = 256,
    candidates: int = 0,
) -> npt.NDArray[np.int8]:
    """``count`` positions before a roll from games the evaluator plays against itself.

    The games are played by :func:`tavola.selfplay.play` from the opening
    roll (R4) of the evaluator's variant, ``parallel`` at a time, with dice keyed from ``rng``. Each
    play is the 0-ply best, or with probability ``explore`` a random legal
    play. With ``candidates`` above 0, the positions are instead those left
    by the ``candidates`` best plays of each turn (seen by the opponent, on
    roll): the positions a player's choice is made between, where the
    network's ranking matters most. Finished games are left out.
    """
    key = key_of(rng)
    policy = GreedyPolicy.of(evaluator, explore, subkey(key, 0))
    found: list[npt.NDArray[np.int8]] = []
    total = 0
    for step in play(policy, max(count, 1), key, parallel=parallel, variant=evaluator.variant):
        if candidates:
            best = [
                begin + np.argsort(-policy.equities[begin:end], kind="stable")[:candidates]
                for begin, end in itertools.pairwise(step.offsets)
            ]
            found.append(flip_array(step.results[np.concatenate(best)]))
        else:
            found.append(step.boards)
        total += len(found[-1])
        if total >= count:
            break
    positions = np.concatenate(found)[:count]
    return positions[~game_over(positions)]


def judge_name(plies: int = 1, rollout: RolloutSettings | None = None) -> str:
    """How a data file's targets are judged, as the file records it: the search's depth, or the rollout.

    >>> judge_name(2), judge_name(rollout=RolloutSettings(trials=9, truncation=7))
    ('2-ply', 'rollout: 9 trials, truncation 7')
    >>> from tavola.bot.levels import level_at
    >>> judge_name(rollout=RolloutSettings(trials=9, level=level_at(1), variance_reduction=False))
    'rollout: 9 trials, no truncation, played at 1 ply, without variance reduction'
    """
    if rollout is None:
        return f"{plies}-ply"
    truncation = "no truncation" if rollout.truncation is None else f"truncation {rollout.truncation}"
    parts = [f"rollout: {rollout.trials} trials", truncation]
    if rollout.level.plies:
        parts.append(f"played at {rollout.level.plies} ply")
    if not rollout.variance_reduction:
        parts.append("without variance reduction")
    if not rollout.quasi_random:
        parts.append("random dice")
    return ", ".join(parts)


def _write(path: Path, boards: npt.NDArray[np.int8], targets: npt.NDArray[np.float32], judge: str) -> None:
    """Save the data atomically (a temporary file renamed over the old one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(
        path, lambda file: np.savez_compressed(file, boards=boards, targets=targets, judge=np.str_(judge))
    )


def _saved_judge(saved: Any) -> str:
    """The judge a saved file records; files from before it was kept record their depth or nothing (1)."""
    if "judge" in saved:
        return str(saved["judge"])
    return f"{int(saved['plies']) if 'plies' in saved else 1}-ply"


def rollout_targets(
    evaluator: Evaluator, boards: npt.NDArray[np.int8], settings: RolloutSettings, key: int
) -> npt.NDArray[np.float32]:
    """(N, 5) targets: each position's rollout (:func:`~tavola.analysis.rollout.rollout_positions`).

    The positions go :data:`ROLLOUT_GAMES` trials at a time, the dice of
    each call keyed by ``key`` and the index of its first position (the
    settings' own seed is not used), so a stopped run that carries on gets
    the same targets. Variance reduction can take a mean a little outside
    what chances can be, so each target is made consistent: each chance
    within 0 and 1, backgammons no more than gammons, gammons no more than
    games.

    >>> from tavola.position import Position
    >>> evaluator = Evaluator.untrained(hidden=8, seed=1)
    >>> start = Position.start().to_array()[None]
    >>> targets = rollout_targets(evaluator, start, RolloutSettings(trials=4, truncation=2), key=1)
    >>> targets.shape, bool((targets[:, 1] <= targets[:, 0]).all())
    ((1, 5), True)
    """
    if not len(boards):
        return np.zeros((0, OUTPUTS), dtype=np.float32)
    step = max(1, ROLLOUT_GAMES // min(settings.trials, BLOCK))
    found = [
        rollout_positions(boards[at : at + step], replace(settings, seed=subkey(key, at)), evaluator)
        for at in range(0, len(boards), step)
    ]
    return consistent(np.concatenate(found).clip(0.0, 1.0)).astype(np.float32)


def judged_positions(
    evaluator: Evaluator,
    data: Path,
    count: int,
    rng: np.random.Generator,
    candidates: int = 0,
    plies: int = 1,
    rollout: RolloutSettings | None = None,
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.float32]]:
    """Positions and their targets, carrying on from ``data`` and saving it as they come.

    The targets are the ``plies``-deep search, or with ``rollout`` each
    position's rollout (:func:`rollout_targets`; its key is drawn from
    ``rng`` first, the positions after). ``candidates`` is
    passed to :func:`self_play_positions`. A file judged another way is an
    error (its targets would be mixed).
    """
    from rich.progress import Progress

    if plies not in SEARCH_BATCH:
        raise ValueError(f"targets are judged at 1 or 2 plies, not {plies}")
    if rollout is not None and plies != 1:
        raise ValueError("targets are judged by a search or by rollouts: give plies or rollout, not both")
    if rollout is not None and rollout.variant != evaluator.variant:
        raise ValueError(
            f"the rollouts play {rollout.variant.name}, the networks {evaluator.variant.name}: "
            "give one variant"
        )
    judge = judge_name(plies, rollout)
    key = key_of(rng) if rollout is not None else 0
    if data.exists():
        saved = np.load(data)
        boards, targets = saved["boards"], saved["targets"]
        found = _saved_judge(saved)
        if found != judge:
            raise ValueError(f"{data} is judged by {found}, not by {judge}")
    else:
        boards = self_play_positions(evaluator, count, rng, candidates=candidates)
        targets = np.zeros((0, 5), dtype=np.float32)
        _write(data, boards, targets, judge)
    with Progress() as bar:
        task = bar.add_task(f"targets: {judge}", total=len(boards), completed=len(targets))
        while len(targets) < len(boards):
            done = len(targets)
            chunk = boards[done : done + CHUNK]
            if rollout is not None:
                judged = [rollout_targets(evaluator, chunk, rollout, subkey(key, done))]
            else:
                step = SEARCH_BATCH[plies]
                starts = range(0, len(chunk), step)
                judged = [evaluate_ply(evaluator, chunk[at : at + step], plies) for at in starts]
            targets = np.concatenate([targets, *judged])
            _write(data, boards, targets, judge)
            bar.update(task, completed=len(targets))
    return boards, targets


def fit(
    checkpoint: Path,
    boards: npt.NDArray[np.int8],
    targets: npt.NDArray[np.float32],
    epochs: int,
    rate: float,
    hidden: int | None = None,
    *,
    final_rate: float | None = None,
    validation: tuple[npt.NDArray[np.int8], npt.NDArray[np.float32]] | None = None,
    batch_size: int | None = None,
    variant: str = STANDARD.name,
) -> Trainer:
    """The TD checkpoint's networks fitted to the targets (widened to ``hidden`` units first, if given).

    The learning rate goes from ``rate`` down to ``final_rate`` (the same
    when not given) along a half cosine, one step a pass. With
    ``validation`` (positions and targets kept out of the fitting), each
    pass also prints how far the networks' equities are from those targets.
    ``batch_size`` replaces the checkpoint's positions per step. The
    checkpoint's networks must be ``variant``'s.
    """
    import torch

    state = torch.load(checkpoint, map_location="cpu", weights_only=False)
    settings = replace(Settings(**state["settings"]), epochs=1, learning_rate=rate)
    if settings.variant != variant:
        raise ValueError(f"{checkpoint} holds networks of {settings.variant}, not of {variant}")
    if batch_size is not None:
        settings = replace(settings, batch_size=batch_size)
    if hidden is not None and hidden != settings.hidden:
        trainer = Trainer(replace(settings, hidden=hidden))
        _widen(trainer, state["nets"])
    else:
        trainer = Trainer(settings)
        trainer.load(checkpoint)
    inputs, touching = encode(boards, extras=trainer.extras), contact(entered_view(boards))
    for epoch in range(epochs):
        for group in trainer.optimizer.param_groups:
            group["lr"] = scheduled_rate(rate, final_rate, epoch, epochs)
        loss = trainer.fit_arrays(inputs, targets, touching)
        report = f"epoch {epoch + 1} of {epochs}: loss {loss:.4f}"
        if validation is not None:
            report += f", validation equity error {validation_error(trainer, *validation):.4f}"
        print(report)
    return trainer


def scheduled_rate(rate: float, final_rate: float | None, epoch: int, epochs: int) -> float:
    """The learning rate of pass ``epoch`` (from 0) of ``epochs``: a half cosine, ``rate`` to ``final_rate``.

    >>> [round(scheduled_rate(1e-3, 1e-4, epoch, 3), 6) for epoch in range(3)]
    [0.001, 0.00055, 0.0001]
    """
    if final_rate is None or epochs < 2:
        return rate
    return final_rate + (rate - final_rate) * 0.5 * (1 + math.cos(math.pi * epoch / (epochs - 1)))


def validation_error(
    trainer: Trainer, boards: npt.NDArray[np.int8], targets: npt.NDArray[np.float32]
) -> float:
    """Root mean square difference between the networks' cubeless equities and the targets'."""
    found = trainer.probabilities(boards)
    errors = points_equity(found, trainer.variant) - points_equity(targets, trainer.variant)
    return float(np.sqrt(np.mean(errors**2)))


def _widen(trainer: Trainer, nets: dict[str, dict[str, Any]]) -> None:
    """Copy smaller networks into ``trainer``'s wider ones so they compute the same values.

    The old hidden units keep their weights; the new ones start with small
    random input weights and zero output weights, so they change nothing until
    fitting gives them a part.
    """
    import torch

    with torch.no_grad():
        for name, net in trainer.nets.items():
            old = nets[name]
            first, last = net[0], net[2]
            assert isinstance(first, torch.nn.Linear)
            assert isinstance(last, torch.nn.Linear)
            units = old["0.weight"].shape[0]
            if units > first.out_features:
                raise ValueError(f"cannot narrow {units} hidden units to {first.out_features}")
            first.weight.mul_(0.1)
            first.weight[:units] = old["0.weight"]
            first.bias[:units] = old["0.bias"]
            last.weight.zero_()
            last.weight[:, :units] = old["2.weight"]
            last.bias.copy_(old["2.bias"])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Fit Tavola's networks to their own search.")
    parser.add_argument("--weights", type=Path, required=True, help="the exported networks to improve")
    parser.add_argument("--checkpoint", type=Path, required=True, help="their TD checkpoint")
    parser.add_argument(
        "--data",
        type=Path,
        nargs="+",
        required=True,
        help="files of positions and targets, kept as they come (several can be judged at once by "
        "separate runs, then fitted together)",
    )
    parser.add_argument("--positions", type=int, default=200_000, help="positions in each data file")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--learning-rate", type=float, default=1e-4)
    parser.add_argument(
        "--final-learning-rate",
        type=float,
        help="lower the learning rate to this along a half cosine over the passes",
    )
    parser.add_argument(
        "--validation",
        type=Path,
        nargs="+",
        default=[],
        help="judged data files kept out of the fitting, to report the networks' error on",
    )
    parser.add_argument(
        "--hold-out",
        type=int,
        default=0,
        help="keep the last N positions of the last --data file out of the fitting, to report the error on",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch-size", type=int, help="positions per step (default: the checkpoint's)")
    parser.add_argument("--hidden", type=int, help="widen the networks to this many hidden units first")
    parser.add_argument(
        "--candidates",
        type=int,
        default=0,
        help="judge the positions left by each turn's best N plays instead of the positions played",
    )
    parser.add_argument(
        "--plies", type=int, choices=(1, 2), help="how deep the search that judges looks (default 1)"
    )
    parser.add_argument(
        "--rollout-trials",
        type=int,
        help="judge each position by a variance-reduced 0-ply rollout of this many trials instead",
    )
    parser.add_argument(
        "--truncation", type=int, help="the plays after which a rollout's trial is judged (default 7)"
    )
    parser.add_argument(
        "--variant", default=STANDARD.name, help="the variant whose games are played and judged"
    )
    parser.add_argument("--out", type=Path, help="the new checkpoint (without it: judge only, no fitting)")
    parser.add_argument("--export", type=Path, help="the new NumPy weights")
    args = parser.parse_args(argv)
    if (args.out is None) != (args.export is None):
        parser.error("--out and --export go together: both to fit, neither to judge only")
    variant = find_variant(args.variant)
    rollout = None
    if args.rollout_trials is None:
        if args.truncation is not None:
            parser.error("--truncation is for rollouts: give --rollout-trials too")
    elif args.plies is not None:
        parser.error("--plies and --rollout-trials are two ways to judge: give one")
    else:
        try:
            rollout = RolloutSettings(
                trials=args.rollout_trials,
                truncation=7 if args.truncation is None else args.truncation,
                variant=variant,
            )
        except RolloutError as error:
            parser.error(str(error))
    if args.out is not None:
        require_torch()  # before the judging, which takes long
    evaluator = Evaluator.load(args.weights, variant)
    judged = [
        judged_positions(
            evaluator,
            path,
            args.positions,
            np.random.default_rng([args.seed, index]),
            args.candidates,
            args.plies or 1,
            rollout,
        )
        for index, path in enumerate(args.data)
    ]
    if args.out is None:
        print(f"judged {sum(len(part[1]) for part in judged):,} positions")
        return
    validation = None
    if args.hold_out < 0:
        parser.error(f"--hold-out is a number of positions, not {args.hold_out}")
    if args.hold_out:
        if args.validation:
            parser.error("--hold-out and --validation are two ways to choose the same thing: give one")
        last_boards, last_targets = judged[-1]
        if not 0 < args.hold_out < len(last_targets):
            parser.error(f"--hold-out takes fewer positions than the last file's {len(last_targets)}")
        validation = (last_boards[-args.hold_out :], last_targets[-args.hold_out :])
        judged[-1] = (last_boards[: -args.hold_out], last_targets[: -args.hold_out])
    boards = np.concatenate([part[0] for part in judged])
    targets = np.concatenate([part[1] for part in judged])
    if args.validation:
        held = [np.load(path) for path in args.validation]
        validation = (
            np.concatenate([data["boards"][: len(data["targets"])] for data in held]),
            np.concatenate([data["targets"] for data in held]),
        )
    trainer = fit(
        args.checkpoint,
        boards,
        targets,
        args.epochs,
        args.learning_rate,
        args.hidden,
        final_rate=args.final_learning_rate,
        validation=validation,
        batch_size=args.batch_size,
        variant=evaluator.variant.name,
    )
    trainer.save(args.out)
    trainer.export(args.export)


if __name__ == "__main__":
    main()
