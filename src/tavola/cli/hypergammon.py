"""``python -m tavola.cli.hypergammon --build``: solve exact hypergammon ahead of time and keep its table.

The table of 3 checkers a side (:mod:`tavola.bot.hypergammon`) takes some
minutes to solve; this solves it once, with a progress bar, into Tavola's
data folder (or ``--output``), where the bot reads it from then on.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from tavola.bot.hypergammon import MAX_CHECKERS, TOLERANCE, cache_file
from tavola.bot.hypergammon.progress import solve_with_progress_bar


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tavola.cli.hypergammon --build [--output FILE]``: solve hypergammon and keep the table."""
    parser = argparse.ArgumentParser(prog="python -m tavola.cli.hypergammon", description=main.__doc__)
    parser.add_argument("--build", action="store_true", help="solve every position and write the table")
    parser.add_argument("--output", type=Path, default=None, help=f"where to write it ({cache_file()})")
    parser.add_argument("--checkers", type=int, default=MAX_CHECKERS, help="checkers a side (3)")
    parser.add_argument("--tolerance", type=float, default=TOLERANCE, help=f"last change ({TOLERANCE})")
    args = parser.parse_args(argv)
    if not args.build:
        parser.error("nothing to do: pass --build")
    output = args.output or cache_file(args.checkers)
    began = time.perf_counter()
    table = solve_with_progress_bar(args.checkers, args.tolerance)
    solved = time.perf_counter() - began
    table.save(output)
    print(
        f"{len(table):,} positions solved in {solved:.0f} s ({table.passes} passes); "
        f"wrote {output} ({output.stat().st_size:,} bytes)",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
