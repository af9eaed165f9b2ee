"""``tavola hint POSITION [DICE]``: the bot's ranked plays for a roll, or its cube decision.

POSITION is a gnubg Position ID (``POSITIONID:MATCHID`` too), an XGID, a
Tavola ID (``TVL=...``, as the terminal game shows for positions other IDs
cannot hold), a Snowie text position or a position file (Snowie's ``.txt``,
Jellyfish's ``.pos``); the player on roll is the one advised. With DICE (``31``,
``3-1``) the legal plays are ranked with their equities and chances; with no
dice the bot gives the cube decision. An XGID brings its own dice, cube and
match score, and so does a position file. ``--variant`` judges by a
variant's rules.
"""

from __future__ import annotations

import argparse
import sys

from tavola.i18n import _
from tavola.variants import VARIANTS, find_variant


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from tavola.bot.levels import DEPTHS, HINT_LEVEL, LEVELS

    parser = subparsers.add_parser(
        "hint",
        help=_("the bot's best plays for a position and roll, or its cube decision"),
        description=_(
            "Rank the plays of a position and roll, or give the cube decision when no dice are given."
        ),
    )
    parser.add_argument(
        "position",
        help=_("a gnubg Position ID, an XGID, a Tavola ID, or a Snowie or Jellyfish position file"),
    )
    parser.add_argument("dice", nargs="?", help=_("the roll, such as 31 or 3-1 (none: the cube decision)"))
    parser.add_argument(
        "--level",
        default=HINT_LEVEL.name,
        metavar="{" + ",".join([*LEVELS, *DEPTHS]) + "}",
        help=_("how deep the bot looks"),
    )
    parser.add_argument(
        "--limit", type=_positive, default=10, help=_("how many plays to show, 1 or more (default 10)")
    )
    parser.add_argument(
        "--variant",
        default="standard",
        choices=[variant.name for variant in VARIANTS],
        help=_("the rules to play by (default: standard)"),
    )
    parser.set_defaults(run=run)


def _positive(text: str) -> int:
    """A count of 1 or more, for ``--limit``."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(_("a whole number from 1 up, not {value}").format(value=repr(text)))
    return value


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from tavola.bot.context import CubeContext
    from tavola.bot.player import Bot
    from tavola.cli._setup import read_setup
    from tavola.console.view import cube_hint, hint_table
    from tavola.dice import Dice
    from tavola.errors import TavolaError
    from tavola.render.text import rich_board

    console = Console(highlight=False)
    try:
        variant = find_variant(args.variant)
        setup = read_setup(args.position, variant)
        dice = Dice.parse(args.dice) if args.dice else setup.dice
        bot = Bot(level=args.level)
        console.print(rich_board(setup.position, dice=dice))
        context = CubeContext.at_score(setup.match, setup.cube, setup.rules, variant)
        if dice is not None:
            console.print(hint_table(bot.hint(setup.position, dice, context), args.limit))
        else:
            console.print(cube_hint(bot.evaluate(setup.position, context).cube))
    except TavolaError as error:
        print(f"tavola hint: {error}", file=sys.stderr)
        return 2
    return 0
