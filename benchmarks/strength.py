"""Playing strength: one bot against another over cubeless money games with duplicate dice.

Run: python benchmarks/strength.py [--games 10000] [--seed 1] [--player pubeval] [--opponent random]

``--games`` dice sequences are each played twice, the player in either seat
(so twice as many games are played); the standard error is taken over the
pairs. Bots are named as in :data:`tavola.bot.arena.CHOOSERS`, plus
``previous``: Tavola's networks as shipped before the current ones (kept in
``benchmarks/weights/``), so ``--player tavola --opponent previous`` measures
what the last training gained; ``expert`` and ``world-class``: Tavola
looking one and two rolls ahead (1-ply and 2-ply, its strongest level);
``gnubg`` and ``gnubg-2ply``: GNU Backgammon's cubeless play at 0-ply and
2-ply, through PyPI's ``gnubg`` module (installed by the
benchmark when missing; see ``benchmarks/gnubg_player.py``). Prints points
per game for the player with its standard error and a 95% interval, how its
games were won and lost, and games per second on one core.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gnubg_player import GnubgPlayer
from tavola.bot.arena import CHOOSERS, Result, duplicate_match, make_chooser
from tavola.bot.evaluate import Evaluator
from tavola.bot.search import SearchChooser
from tavola.movegen import generate
from tavola.position import Position

PREVIOUS_WEIGHTS = Path(__file__).parent / "weights" / "previous.npz"
"""The networks Tavola shipped before the current ones (and their ``-race`` twin)."""
CHOOSERS["previous"] = lambda rng: Evaluator.load(PREVIOUS_WEIGHTS)
CHOOSERS["expert"] = lambda rng: SearchChooser(Evaluator.default(), plies=1, rng=rng)
CHOOSERS["world-class"] = lambda rng: SearchChooser(Evaluator.default(), plies=2, rng=rng)
CHOOSERS["gnubg"] = lambda rng: GnubgPlayer(0)
CHOOSERS["gnubg-2ply"] = lambda rng: GnubgPlayer(2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="dice sequences, each played twice")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--player", choices=sorted(CHOOSERS), default="pubeval")
    parser.add_argument("--opponent", choices=sorted(CHOOSERS), default="random")
    parser.add_argument(
        "--weights",
        type=Path,
        help="play 'tavola' with these networks (a training export) instead of the shipped ones",
    )
    parser.add_argument(
        "--previous-weights",
        type=Path,
        default=PREVIOUS_WEIGHTS,
        help="the networks 'previous' plays with (default: the ones shipped before the current)",
    )
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=sys.stderr.isatty(),
        help="a progress bar",
    )
    args = parser.parse_args()
    if args.weights is not None:
        weights = args.weights
        CHOOSERS["tavola"] = lambda rng: Evaluator.load(weights)
        CHOOSERS["expert"] = lambda rng: SearchChooser(Evaluator.load(weights), plies=1, rng=rng)
        CHOOSERS["world-class"] = lambda rng: SearchChooser(Evaluator.load(weights), plies=2, rng=rng)
    previous = args.previous_weights
    CHOOSERS["previous"] = lambda rng: Evaluator.load(previous)

    generate(Position.start().to_array(), 3, 1)  # compile (or load the cache) before timing
    player = make_chooser(args.player, (args.seed, 1, 0))
    opponent = make_chooser(args.opponent, (args.seed, 1, 1))
    result = duplicate_match(player, opponent, args.games, args.seed, progress=args.progress)
    report(result, args.player, args.opponent)


def report(result: Result, player: str, opponent: str) -> None:
    """Print the result, from the player's side."""
    low, high = result.interval95
    print(
        f"{player} vs {opponent}: {result.games:,} games "
        f"({result.pairs:,} dice sequences, each from both seats; seed {result.seed})"
    )
    print(
        f"points per game for {player}: {result.points_per_game:+.3f} "
        f"± {result.standard_error:.3f} (standard error over the pairs)"
    )
    print(f"95% interval: [{low:+.3f}, {high:+.3f}]")
    for verb, sign in (("wins", 1), ("loses", -1)):
        kinds = [result.rate(sign * points) for points in (1, 2, 3)]
        print(
            f"{player} {verb:5} {sum(kinds):6.1%}: single {kinds[0]:.1%}, "
            f"gammon {kinds[1]:.1%}, backgammon {kinds[2]:.1%}"
        )
    print(f"average game: {result.plies / max(result.games, 1):.1f} turns")
    print(
        f"time: {result.seconds:.1f} s, {result.games_per_second:,.0f} games per second, "
        f"{result.plies / result.seconds:,.0f} turns per second (one core)"
    )


if __name__ == "__main__":
    main()
