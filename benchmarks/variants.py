"""The bots of the variants against the standard networks, over cubeless money games with duplicate dice.

Run: python benchmarks/variants.py [--variant dutch] [--games 5000] [--seed 1] [--weights PATH]

One benchmark per variant, each in :data:`BENCHMARKS`. Every line plays
``--games`` dice sequences twice, the two bots in either seat, both choosing
at 0-ply, and prints the first bot's points per game (checkers per game in
Acey-Deucey) with its standard error over the pairs, what the line compares
(which networks each side uses) and the time it took.

* ``hypergammon``: the exact bot (the table of :mod:`tavola.bot.hypergammon`,
  solved on first use and kept in Tavola's data folder) against the shipped
  networks judging the same positions. First it checks the table on 500
  positions drawn at random: each position's equity must be its own one-roll
  look-ahead (the equity of the best play of every roll, averaged), to within
  twice the solver's tolerance, or the benchmark stops with an error (exit
  status 1) before it plays.
* ``dutch``, ``acey-deucey``, ``nackgammon``: the variant's bot
  (``Evaluator.default(variant)``: its own networks where the package has
  them, else the standard ones; or the candidate networks at ``--weights``)
  against the standard bot playing that variant (the standard networks,
  ``Evaluator.load(SHIPPED_WEIGHTS, variant)``). Until a variant's networks
  ship, that line pits the standard networks against themselves: 0 by
  construction. For ``dutch`` and ``acey-deucey`` a second line plays the
  variant's bot against the rule-based player of ``rule_player.py``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rule_player import RulePlayer
from tavola.bot.arena import Chooser, Result, duplicate_match
from tavola.bot.evaluate import SHIPPED_WEIGHTS, Evaluator, shipped_weights
from tavola.bot.hypergammon import BUILD_COMMAND, boards_of, exact_table
from tavola.bot.search import evaluate_ply
from tavola.gameover import Scoring, game_over
from tavola.variants import ACEY_DEUCEY, DUTCH, HYPERGAMMON, NACKGAMMON, Variant


@dataclass(frozen=True)
class Line:
    """One comparison a benchmark played: what it compared, and the first bot's result."""

    title: str
    result: Result
    unit: str = "points"


@dataclass(frozen=True)
class Bot:
    """A side of a comparison: the chooser and, in words, what it is (which networks it uses)."""

    chooser: Chooser
    described: str


def hypergammon(games: int, seed: int, progress: bool, weights: Path | None = None) -> list[Line]:
    """The exact table against the networks, in hypergammon."""
    if weights is not None:
        raise SystemExit("--weights is for the variants played by networks: dutch, acey-deucey, nackgammon")
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
    return [Line("exact hypergammon table against the shipped networks", result)]


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


def variant_bot(variant: Variant, weights: Path | None = None) -> Bot:
    """The variant's bot: the candidate networks at ``weights``, else ``Evaluator.default(variant)``."""
    name = f"the {variant.name} bot"
    if weights is not None:
        return Bot(Evaluator.load(weights, variant), f"{name}, candidate networks {weights}")
    own = shipped_weights(variant)
    if own.exists():
        return Bot(Evaluator.default(variant), f"{name}, its own networks ({own.name})")
    standard = (
        f"{name}, the standard networks ({SHIPPED_WEIGHTS.name}) as no {variant.name} networks ship yet"
    )
    return Bot(Evaluator.default(variant), standard)


def standard_bot(variant: Variant) -> Bot:
    """The standard bot playing ``variant``: the standard networks judging its positions and scoring."""
    described = f"the standard bot playing {variant.name}, the standard networks ({SHIPPED_WEIGHTS.name})"
    return Bot(Evaluator.load(SHIPPED_WEIGHTS, variant), described)


def compare(variant: Variant, games: int, seed: int, progress: bool, first: Bot, second: Bot) -> Line:
    """``first`` against ``second`` in ``variant``: ``games`` dice sequences, each played from both seats."""
    result = duplicate_match(first.chooser, second.chooser, games, seed, progress=progress, variant=variant)
    unit = "checkers" if variant.scoring is Scoring.CHECKERS_LEFT else "points"
    return Line(f"{first.described}\n  against {second.described}", result, unit)


def networks_benchmark(
    variant: Variant,
    games: int,
    seed: int,
    progress: bool,
    weights: Path | None = None,
    *,
    against_rules: bool,
    candidate: Bot | None = None,
    standard: Bot | None = None,
) -> list[Line]:
    """The variant's bot against the standard bot playing ``variant`` and, ``against_rules``, the rule player.

    ``candidate`` and ``standard`` replace the two networks' sides (for tests: small untrained ones).
    """
    mine = candidate if candidate is not None else variant_bot(variant, weights)
    theirs = standard if standard is not None else standard_bot(variant)
    lines = [compare(variant, games, seed, progress, mine, theirs)]
    if against_rules:
        rules = Bot(RulePlayer(variant), "the rule-based player (benchmarks/rule_player.py)")
        lines.append(compare(variant, games, seed, progress, mine, rules))
    return lines


def dutch(games: int, seed: int, progress: bool, weights: Path | None = None) -> list[Line]:
    """Dutch backgammon (V1): the variant's bot against the standard bot and the rule player."""
    return networks_benchmark(DUTCH, games, seed, progress, weights, against_rules=True)


def acey_deucey(games: int, seed: int, progress: bool, weights: Path | None = None) -> list[Line]:
    """Acey-Deucey (V2), in checkers: the variant's bot against the standard bot and the rule player."""
    return networks_benchmark(ACEY_DEUCEY, games, seed, progress, weights, against_rules=True)


def nackgammon(games: int, seed: int, progress: bool, weights: Path | None = None) -> list[Line]:
    """Nackgammon (V4): the variant's bot against the standard bot."""
    return networks_benchmark(NACKGAMMON, games, seed, progress, weights, against_rules=False)


BENCHMARKS: dict[str, Callable[[int, int, bool, Path | None], list[Line]]] = {
    "hypergammon": hypergammon,
    "dutch": dutch,
    "acey-deucey": acey_deucey,
    "nackgammon": nackgammon,
}
"""The benchmark of each variant: given (dice sequences, seed, progress bar, candidate networks or None),
the comparisons it played."""


def report(variant: str, line: Line) -> str:
    """What one line compared and what it gave, as printed."""
    result = line.result
    low, high = result.interval95
    if line.unit == "checkers":
        shares = f"games won by the first: {float((result.points > 0).mean()):.1%}"
    else:
        shares = ", ".join(f"{points:+d}: {result.rate(points):.1%}" for points in (3, 2, 1, -1, -2, -3))
    return (
        f"{variant}: {line.title}\n"
        f"{result.points_per_game:+.4f} {line.unit} per game ± {result.standard_error:.4f} "
        f"(95%: {low:+.4f} to {high:+.4f}) over {result.games} games, seed {result.seed}\n"
        f"results for the first bot: {shares}; {result.seconds:.1f} s, {result.games_per_second:.0f} games/s"
    )


def main(arguments: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--variant", choices=sorted(BENCHMARKS), default="hypergammon")
    parser.add_argument("--games", type=int, default=5_000, help="dice sequences, each played twice")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--weights", type=Path, help="candidate networks of the variant (a training export) for its bot"
    )
    parser.add_argument(
        "--progress", action=argparse.BooleanOptionalAction, default=sys.stderr.isatty(), help="progress bar"
    )
    args = parser.parse_args(arguments)
    for line in BENCHMARKS[args.variant](args.games, args.seed, args.progress, args.weights):
        print(report(args.variant, line))


if __name__ == "__main__":
    main()
