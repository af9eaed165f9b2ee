"""The bots of the variants against the standard networks, over cubeless money games with duplicate dice.

Run: python benchmarks/variants.py [--variant hypergammon] [--games 5000] [--seed 1]

One benchmark per variant, each in :data:`BENCHMARKS`:

* ``hypergammon``: the exact bot (the table of :mod:`tavola.bot.hypergammon`,
  solved on first use and kept in Tavola's data folder) against the shipped
  networks judging the same positions, both choosing at 0-ply. ``--games``
  dice sequences are each played twice, the bots in either seat; prints points
  per game for the exact bot with its standard error over the pairs. First
  it checks the table on 500 positions drawn at random: each position's
  equity must be its own one-roll look-ahead (the equity of the best play of
  every roll, averaged), to within twice the solver's tolerance, or the
  benchmark stops with an error (exit status 1) before it plays.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

import numpy as np

from tavola.bot.arena import Result, duplicate_match
from tavola.bot.evaluate import Evaluator
from tavola.bot.hypergammon import BUILD_COMMAND, boards_of, exact_table
from tavola.bot.search import evaluate_ply
from tavola.gameover import game_over
from tavola.variants import HYPERGAMMON


def hypergammon(games: int, seed: int, progress: bool) -> tuple[str, Result]:
    """The exact table against the networks, in hypergammon."""
    networks = Evaluator.default()  # the standard game's evaluator: the networks, whatever the board
    exact = networks.for_variant(HYPERGAMMON)
    assert exact.exact_checkers == 3, "hypergammon is judged by its exact table"
    began = time.perf_counter()
    exact_table(3)  # read, or solved once and kept
    print(f"exact table ready in {time.perf_counter() - began:.1f} s", file=sys.stderr)
    gap = look_ahead_gap(exact, seed)
    print(f"largest gap between the table and its one-roll look-ahead: {gap:.2e}")
    check_look_ahead(gap, exact_table(3).tolerance)
    result = duplicate_match(exact, networks, games, seed, progress=progress, variant=HYPERGAMMON)
    return "exact hypergammon table against the shipped networks", result


def look_ahead_gap(exact: Evaluator, seed: int, positions: int = 500) -> float:
    """The largest difference in equity between the table and its own 1-ply search, over random positions
    still in play."""
    table = exact_table(3)
    rng = np.random.default_rng(seed)
    indices = rng.choice(len(table.probabilities), 4 * positions, replace=False)
    boards = boards_of(indices[~np.isnan(table.probabilities[indices, 0])])
    boards = boards[~game_over(boards)][:positions]
    found = exact.equity(evaluate_ply(exact, boards, 1))
    return float(np.abs(found - exact.equity(exact.evaluate(boards))).max())


def check_look_ahead(gap: float, tolerance: float) -> None:
    """Stop with an error (exit status 1) where the gap is over twice the solver's tolerance."""
    if not gap <= 2 * tolerance:  # a NaN gap fails too
        raise SystemExit(
            f"the exact table is not its own look-ahead: a gap of {gap:.2e} is over twice "
            f"the solver's tolerance ({tolerance:.0e}); build it again: {BUILD_COMMAND}"
        )


BENCHMARKS: dict[str, Callable[[int, int, bool], tuple[str, Result]]] = {"hypergammon": hypergammon}
"""The benchmark of each variant: given (dice sequences, seed, progress bar), it says what it played."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=sorted(BENCHMARKS), default="hypergammon")
    parser.add_argument("--games", type=int, default=5_000, help="dice sequences, each played twice")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--progress", action=argparse.BooleanOptionalAction, default=sys.stderr.isatty(), help="progress bar"
    )
    args = parser.parse_args()
    title, result = BENCHMARKS[args.variant](args.games, args.seed, args.progress)
    low, high = result.interval95
    print(f"{args.variant}: {title}")
    print(
        f"{result.points_per_game:+.4f} points per game ± {result.standard_error:.4f} "
        f"(95%: {low:+.4f} to {high:+.4f}) over {result.games} games, seed {result.seed}"
    )
    won = ", ".join(f"{points:+d}: {result.rate(points):.1%}" for points in (3, 2, 1, -1, -2, -3))
    print(f"results for the exact bot: {won}; {result.games_per_second:.0f} games/s")


if __name__ == "__main__":
    main()
