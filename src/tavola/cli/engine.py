"""``tavola engine``: the bot over a JSON-lines protocol (see :mod:`tavola.protocol`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tavola.errors import TavolaError
from tavola.i18n import _


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "engine",
        help=_("answer bot requests, one JSON object per line on standard input"),
        description=_("Serve Tavola's bot: one JSON request per line in, one JSON reply per line out."),
    )
    from tavola.bot.levels import BOT_LEVEL, DEPTHS, LEVELS

    parser.add_argument(
        "--level",
        default=BOT_LEVEL.name,
        metavar="{" + ",".join([*LEVELS, *DEPTHS]) + "}",
        help=_("the default level (a request may name another)"),
    )
    parser.add_argument(
        "--weights", type=Path, help=_("networks to use instead of the shipped ones (a training export)")
    )
    parser.add_argument(
        "--seed", type=int, help=_("seed the noise of the weaker levels, for reproducible runs")
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tavola import protocol
    from tavola.bot.evaluate import Evaluator
    from tavola.bot.hypergammon import solve_on_first_use
    from tavola.bot.player import Bot

    solve_on_first_use(False)  # the program on the other end waits for answers, not for a solve
    try:
        evaluator = Evaluator.load(args.weights) if args.weights else Evaluator.default()
        bot = Bot(evaluator, args.level, args.seed)
    except TavolaError as error:
        print(f"tavola engine: {error}", file=sys.stderr)
        return 2
    return protocol.main(bot)
