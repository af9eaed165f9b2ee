"""The ``tavola`` command.

Each subcommand lives in a module of this package that defines
``add_parser(subparsers)``; the parser's ``run`` default does the work and
returns the exit status.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from tavola.cli import engine, match, moves

COMMANDS = (moves, match, engine)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tavola", description="Backgammon: rules, formats and a bot.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except BrokenPipeError:  # e.g. piped into `head`
        sys.stderr.close()
        return 1
    return status
