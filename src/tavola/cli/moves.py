"""``tavola moves POSITION DICE``: the legal plays of a position and roll.

POSITION is a gnubg Position ID, an XGID, a Tavola ID (``TVL=...``, for
positions other IDs cannot hold), a Snowie text position or a position file
(Snowie's ``.txt``, Jellyfish's ``.pos``); DICE is ``31``, ``3-1`` or ``3 1``
(an XGID's or a position file's own dice if left out). Each play is listed
with the ID of the position it reaches, seen by the player who moved.
``--variant`` plays by a variant's rules. ``--json`` prints one JSON object;
``--stdin`` answers one ``POSITION DICE`` line after another, one JSON object
each.
"""

from __future__ import annotations

import argparse
import io
import sys
from typing import Any

from rich.console import Console
from rich.table import Table

from tavola.cli._setup import read_setup
from tavola.dice import Dice
from tavola.errors import TavolaError
from tavola.i18n import _, ngettext
from tavola.ids import parse_position, position_text
from tavola.position import Position
from tavola.schema import json_text
from tavola.variants import STANDARD, VARIANTS, Variant, find_variant


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "moves",
        help=_("list the legal plays of a position and roll"),
        description=_("The legal plays of a position and roll; an XGID may bring its own dice."),
    )
    parser.add_argument(
        "position",
        nargs="?",
        help=_(
            "a gnubg Position ID, an XGID, a Tavola ID, or a Snowie or Jellyfish position file "
            "(the player on roll moves)"
        ),
    )
    parser.add_argument(
        "dice",
        nargs="*",
        help=_("the roll: 31, 3-1 or 3 1 (an XGID's or a position file's own dice if left out)"),
    )
    parser.add_argument(
        "--variant",
        default="standard",
        choices=[variant.name for variant in VARIANTS],
        help=_("the rules to play by (default: standard)"),
    )
    parser.add_argument("--json", action="store_true", help=_("print JSON instead of a table"))
    parser.add_argument(
        "--stdin",
        action="store_true",
        help=_("read 'POSITION DICE' lines from standard input, answer each in JSON"),
    )
    parser.set_defaults(run=run)


def plays_report(position: Position, dice: Dice, variant: Variant = STANDARD) -> dict[str, Any]:
    """The JSON answer for one position and roll."""
    return {
        "position": position_text(position),
        "dice": [dice.high, dice.low],
        "plays": [
            {"play": play.notation, "position_id": position_text(play.after)}
            for play in position.legal_plays(dice, variant)
        ],
    }


def _read_request(position: str, dice: str, variant: Variant) -> tuple[Position, Dice, Variant]:
    return parse_position(position, checkers=variant.checkers), Dice.parse(dice), variant


def run(args: argparse.Namespace) -> int:
    if args.stdin:
        if args.position or args.dice:
            # TRANSLATORS: POSITION, DICE and --stdin are the command's arguments, as its usage names them.
            message = _("give POSITION and DICE or --stdin, not both")
            print(f"tavola moves: {message}", file=sys.stderr)
            return 2
        return _serve_lines(find_variant(args.variant))
    try:
        variant = find_variant(args.variant)
        setup = read_setup(args.position, variant) if args.position else None
        dice = Dice.parse(" ".join(args.dice)) if args.dice else setup.dice if setup else None
        if setup is None or dice is None:
            # TRANSLATORS: POSITION and DICE are the command's arguments, as its usage names them.
            message = _("give a POSITION and the DICE, e.g. {example}").format(
                example="tavola moves 4HPwATDgc/ABMA 31"
            )
            print(f"tavola moves: {message}", file=sys.stderr)
            return 2
        report = plays_report(setup.position, dice, variant)
    except TavolaError as error:
        print(f"tavola moves: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json_text(report))
        return 0
    count = len(report["plays"])
    # TRANSLATORS: {position} is a Position ID, {dice} a roll such as 3-1.
    title = ngettext(
        "{position}  {dice}: {count} legal play", "{position}  {dice}: {count} legal plays", count
    )
    table = Table(
        title=title.format(position=report["position"], dice=f"{dice.high}-{dice.low}", count=count)
    )
    table.add_column(_("play"))
    table.add_column(_("position after (player who moved)"))
    for entry in report["plays"]:
        table.add_row(entry["play"] or _("(no legal play)"), entry["position_id"])
    Console().print(table)
    return 0


def _serve_lines(variant: Variant) -> int:
    """Answer each ``POSITION DICE`` line of standard input with one line of JSON, whatever the line holds."""
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")  # bytes that are not UTF-8 read as U+FFFD
    failures = 0
    for line in sys.stdin:
        text = line.strip()
        if not text:
            continue
        answer = line_report(text, variant)
        failures += "error" in answer
        print(json_text(answer), flush=True)
    return 1 if failures else 0


def line_report(text: str, variant: Variant = STANDARD) -> dict[str, Any]:
    """The JSON answer to one ``POSITION DICE`` line of ``--stdin``: the plays, or the error.

    >>> line_report("4HPwATDgc/ABMA 7")["error"]
    "cannot read dice '7': write two numbers 1-6 such as 31 or 3-1"
    """
    position, _sep, dice = text.partition(" ")
    try:
        return plays_report(*_read_request(position, dice, variant))
    except TavolaError as error:
        return {"error": str(error), "input": text}
    except Exception as error:  # a failure of Tavola itself: this line fails, the next is answered
        return {"error": f"internal error: {type(error).__name__}: {error}", "input": text}
