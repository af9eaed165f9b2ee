"""Legal play generation speed: all 21 rolls for a fixed, seeded set of positions.

Run: python benchmarks/movegen.py [--positions 10000] [--seed 2026] [--repeat 3]

Prints resulting positions per second and position-rolls per second, on one
core, through the batch entry point (the way a bot calls it).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tavola.dice import ALL_ROLLS
from tavola.movegen import generate_batch
from tavola.sampling import random_positions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    positions = random_positions(args.positions, seed=args.seed)
    boards = np.repeat(np.stack([p.to_array() for p in positions]), len(ALL_ROLLS), axis=0)
    dice = np.tile(np.array(ALL_ROLLS, dtype=np.int8), (len(positions), 1))
    generate_batch(boards[:21], dice[:21])  # compile (or load the cache) before timing

    best = float("inf")
    for _ in range(args.repeat):
        began = time.perf_counter()
        offsets, _results, _moves = generate_batch(boards, dice)
        best = min(best, time.perf_counter() - began)
    pairs = len(boards)
    produced = int(offsets[-1])
    print(
        f"positions: {len(positions):,} x {len(ALL_ROLLS)} rolls = {pairs:,} position-rolls "
        f"(seed {args.seed})"
    )
    print(f"resulting positions: {produced:,} ({produced / pairs:.1f} per position-roll)")
    print(f"best of {args.repeat}: {best:.3f} s")
    print(f"  {produced / best / 1e6:.2f} million resulting positions per second")
    print(f"  {pairs / best / 1e6:.3f} million position-rolls per second")


if __name__ == "__main__":
    main()
