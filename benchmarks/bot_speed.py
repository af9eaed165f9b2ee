"""Bot speed: evaluations per second, and milliseconds per move at 0, 1 and 2 ply, on one core.

Run: python benchmarks/bot_speed.py [--weights checkpoints/tavola-h128.npz] [--positions 100]
     [--seed 2026] [--plies 0 1 2] [--bot-plies 0 1] [--repeat 3]

The networks come from ``--weights`` (a training export, as
:meth:`Evaluator.load` reads it), else the shipped ones, else untrained
networks of the same size (128 hidden units). The speed of an evaluation
does not depend on the weights, but the time of a 1- or 2-ply move does:
the move filter keeps the plays close to the best, and an untrained
network finds many more plays close together (about three times the
evaluations at 2-ply).

Evaluations per second: one batched call of the evaluator on the positions
after every play of every roll of the benchmark's positions (best of three).
Milliseconds per move: a fixed, seeded set of positions met in random games
(:func:`tavola.sampling.random_positions`), each with a random roll that
leaves at least two plays to choose from; a move is the legal plays'
generation and the :class:`~tavola.bot.search.SearchChooser`'s choice, with
the default :class:`~tavola.bot.search.MoveFilter`, timed ``--repeat``
times (the fastest counts, which keeps out most of what other programs on
the machine cost). The process is pinned to one core and BLAS to one thread.

Then the same moves through :class:`~tavola.bot.player.Bot`, the way the
engine, the console and a bot seat ask: ``Bot.play`` (the chosen play, as a
:class:`~tavola.play.Play`) and ``Bot.hint`` (every play ranked, each with
its notation built) at the level that searches ``--bot-plies`` deep without
noise, from a :class:`~tavola.position.Position` and
:class:`~tavola.dice.Dice`: everything a caller pays, generation included.
"""

from __future__ import annotations

import os

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")  # before NumPy loads its BLAS: one thread

import argparse  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from functools import partial  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402

from tavola.bot.evaluate import SHIPPED_WEIGHTS, Evaluator  # noqa: E402
from tavola.bot.levels import level_at  # noqa: E402
from tavola.bot.player import Bot  # noqa: E402
from tavola.bot.search import SearchChooser  # noqa: E402
from tavola.dice import ALL_ROLLS, Dice  # noqa: E402
from tavola.movegen import generate, generate_batch  # noqa: E402
from tavola.position import Position, flip_array  # noqa: E402
from tavola.sampling import random_positions  # noqa: E402

Board = npt.NDArray[np.int8]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", type=Path, help="a training export (default: the shipped networks)")
    parser.add_argument("--positions", type=int, default=100, help="moves timed at each depth")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--plies", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--bot-plies", type=int, nargs="+", default=[0, 1], help="depths of Bot.play/hint")
    parser.add_argument("--repeat", type=int, default=3, help="times each move is timed; the fastest counts")
    args = parser.parse_args()

    core = pin_to_one_core()
    evaluator, source = load_evaluator(args.weights)
    print(f"networks: {source}")
    print(f"one core ({core}), BLAS threads: {os.environ['OPENBLAS_NUM_THREADS']}")
    moves = benchmark_moves(args.positions, args.seed)
    evaluations_per_second(evaluator, [board for board, _ in moves])
    counted = Counting(evaluator)
    for plies in args.plies:
        time_moves(counted, plies, moves, args.repeat)
    for plies in args.bot_plies:
        time_bot(evaluator, plies, moves, args.repeat)


def pin_to_one_core() -> str:
    """Run on one CPU core where the OS lets us choose; say which."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned: this OS cannot"
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    return f"CPU {core}"


def load_evaluator(weights: Path | None) -> tuple[Evaluator, str]:
    """The evaluator to time, and where its networks came from."""
    if weights is not None:
        return Evaluator.load(weights), str(weights)
    if SHIPPED_WEIGHTS.exists():
        return Evaluator.default(), f"shipped ({SHIPPED_WEIGHTS.name})"
    note = "untrained, 128 hidden units (no shipped weights yet; speed does not depend on the weights)"
    return Evaluator.untrained(hidden=128, seed=0), note


def benchmark_moves(count: int, seed: int) -> list[tuple[Board, tuple[int, int]]]:
    """``count`` positions from random games, each with a random roll that leaves a choice."""
    rng = np.random.default_rng((seed, 1))
    moves: list[tuple[Board, tuple[int, int]]] = []
    for position in random_positions(3 * count + 10, seed=seed):
        board = position.to_array()
        dice = int(rng.integers(1, 7)), int(rng.integers(1, 7))
        if len(generate(board, *dice)[0]) > 1:
            moves.append((board, dice))
        if len(moves) == count:
            return moves
    raise RuntimeError(f"found only {len(moves)} positions with a choice of plays")


def evaluations_per_second(evaluator: Evaluator, boards: list[Board], repeat: int = 3) -> None:
    """Time one batched evaluation of every position after every play of every roll."""
    rolls = np.array(ALL_ROLLS, dtype=np.int8)
    _, results, _ = generate_batch(
        np.repeat(np.stack(boards), len(rolls), axis=0), np.tile(rolls, (len(boards), 1))
    )
    batch = flip_array(results)
    evaluator.evaluate(batch[:100])  # compile (or load the cache) before timing
    best = min(_seconds(lambda: evaluator.evaluate(batch)) for _ in range(repeat))
    print(f"evaluations: {len(batch) / best:,.0f} per second (batches of {len(batch):,}, best of {repeat})")


class Counting(Evaluator):
    """The evaluator given, counting the positions it is asked to evaluate."""

    def __init__(self, inner: Evaluator) -> None:
        super().__init__(inner.contact_net, inner.race_net, inner.bearoff_database, inner.variant)
        self.count = 0

    def evaluate(self, boards: npt.ArrayLike) -> npt.NDArray[np.float32]:
        array = np.asarray(boards)
        self.count += len(array)
        return super().evaluate(array)


def time_moves(
    counted: Counting, plies: int, moves: list[tuple[Board, tuple[int, int]]], repeat: int = 3
) -> None:
    """Milliseconds per move at ``plies`` (each the fastest of ``repeat``): median, mean and slowest."""
    chooser = SearchChooser(counted, plies)
    board, dice = moves[0]
    chooser.choose(board, generate(board, *dice)[0])  # compile (or load the cache) before timing
    counted.count = 0
    times, evaluations = [], []
    for board, dice in moves:
        before = counted.count
        times.append(min(_move_seconds(chooser, board, dice) for _ in range(repeat)))
        evaluations.append((counted.count - before) / repeat)
    milliseconds = np.array(times) * 1e3
    slowest = int(np.argmax(milliseconds))
    print(
        f"{plies}-ply: {np.median(milliseconds):8.3f} ms per move (median), {milliseconds.mean():8.3f} mean, "
        f"{milliseconds[slowest]:8.3f} slowest ({evaluations[slowest]:,.0f} evaluations); "
        f"{np.mean(evaluations):,.0f} evaluations per move ({len(moves)} moves)"
    )


def time_bot(
    evaluator: Evaluator, plies: int, moves: list[tuple[Board, tuple[int, int]]], repeat: int = 3
) -> None:
    """Milliseconds per move of ``Bot.play`` and ``Bot.hint`` at ``plies`` (the level without noise at that
    depth): median, mean and slowest."""
    bot = Bot(evaluator, level_at(plies))
    asked = [(Position.from_array(board), Dice(*dice)) for board, dice in moves]
    for name, method in (("play", bot.play), ("hint", bot.hint)):
        method(*asked[0])  # compile (or load the cache) before timing
        times = [min(_seconds(partial(method, *question)) for _ in range(repeat)) for question in asked]
        milliseconds = np.array(times) * 1e3
        print(
            f"Bot.{name} {plies}-ply: {np.median(milliseconds):8.3f} ms per move (median), "
            f"{milliseconds.mean():8.3f} mean, {milliseconds.max():8.3f} slowest ({len(moves)} moves)"
        )


def _move_seconds(chooser: SearchChooser, board: Board, dice: tuple[int, int]) -> float:
    """The time of one move: generating the plays and choosing one."""
    began = time.perf_counter()
    chooser.choose(board, generate(board, *dice)[0])
    return time.perf_counter() - began


def _seconds(work: Callable[[], object]) -> float:
    began = time.perf_counter()
    work()
    return time.perf_counter() - began


if __name__ == "__main__":
    main()
