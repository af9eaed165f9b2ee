"""``tavola hint POSITION [DICE]``: the bot's ranked plays for a roll, or its cube decision.

POSITION is a gnubg Position ID (``POSITIONID:MATCHID`` too) or an XGID; the
player on roll is the one advised. With DICE (``31``, ``3-1``) the legal
plays are ranked with their equities and chances; with no dice the bot gives
the cube decision. An XGID brings its own dice, cube and match score.
"""

from __future__ import annotations

import argparse
import sys

from tavola.i18n import _


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from tavola.bot.search import LEVELS

    parser = subparsers.add_parser(
        "hint",
        help=_("the bot's best plays for a position and roll, or its cube decision"),
        description=_(
            "Rank the plays of a position and roll, or give the cube decision when no dice are given."
        ),
    )
    parser.add_argument("position", help=_("a gnubg Position ID or an XGID"))
    parser.add_argument("dice", nargs="?", help=_("the roll, such as 31 or 3-1 (none: the cube decision)"))
    parser.add_argument(
        "--level", choices=list(LEVELS), default="world-class", help=_("how deep the bot looks")
    )
    parser.add_argument("--limit", type=int, default=10, help=_("how many plays to show (default 10)"))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from tavola.bot.player import Bot
    from tavola.console.view import cube_hint, hint_table
    from tavola.cube import Cube
    from tavola.dice import Dice
    from tavola.errors import TavolaError
    from tavola.ids import XgidSide, XgidStage, decode_xgid, parse_position
    from tavola.match import MatchScore
    from tavola.render.text import rich_board
    from tavola.rules import Rules

    console = Console(highlight=False)
    try:
        text = args.position.strip()
        dice = Dice.parse(args.dice) if args.dice else None
        cube, match, rules = Cube(), None, Rules()
        if not (text.upper().startswith("XGID=") or text.count(":") >= 2):
            position = parse_position(text)
        else:
            state = decode_xgid(text)
            position = state.position
            if dice is None and state.stage is XgidStage.ROLLED:
                dice = Dice(*state.dice)
            owner = None if state.cube_owner is None else 0 if state.cube_owner == state.turn else 1
            cube = Cube(state.cube_value, owner)
            if state.match_length:
                mine, theirs = state.score_bottom, state.score_top
                if state.turn is XgidSide.TOP:
                    mine, theirs = theirs, mine
                match = MatchScore(state.match_length, (mine, theirs), state.crawford)
            else:
                rules = Rules(jacoby=state.jacoby, beavers=1 if state.beavers else 0)
        bot = Bot(level=args.level)
        console.print(rich_board(position, dice=dice))
        if dice is not None:
            choices = bot.hint(position, dice, match=match, cube_value=cube.value)
            console.print(hint_table(choices, args.limit))
        else:
            console.print(cube_hint(bot.cube(position, cube, match, rules)))
    except TavolaError as error:
        print(f"tavola hint: {error}", file=sys.stderr)
        return 2
    return 0
