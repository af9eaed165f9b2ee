"""``tavola verify``: check verifiable dice, as a server or a player revealed them.

It reads the JSON that a table's ``/dice`` address gives once the table is
finished (``{"commitment": ..., "secret": ..., "dice": [...]}``), from a
file or standard input, or the three parts given as options, and checks
them with :func:`tavola.dicesource.verify`: exit status 0 when every die is
the one the secret gives and the secret is the one committed to, 1 when not.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tavola.i18n import _


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "verify",
        help=_("check verifiable dice: the secret against its commitment, and every die"),
        description=_(
            "Check verifiable dice (the tavola-dice-v1 scheme): the JSON a finished table's dice address "
            "gives, from FILE or standard input, or its parts as options."
        ),
    )
    parser.add_argument(
        "file", nargs="?", help=_("the JSON with commitment, secret and dice (default: standard input)")
    )
    parser.add_argument("--commitment", help=_("the commitment published before the first die"))
    parser.add_argument("--secret", help=_("the secret revealed at the end, in hexadecimal"))
    parser.add_argument("--dice", help=_("every die in the order rolled, such as 4415 or '4 4 1 5'"))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tavola.dicesource import verify
    from tavola.errors import DiceVerificationError, TavolaError

    try:
        commitment, secret, dice = _parts(args)
        verify(commitment, secret, dice)
    except DiceVerificationError as error:
        print(_("tavola verify: the dice are NOT honest: {error}").format(error=error), file=sys.stderr)
        return 1
    except TavolaError as error:
        print(f"tavola verify: {error}", file=sys.stderr)
        return 2
    print(
        _("The dice are honest: all {count} come from the secret committed to as {commitment}.").format(
            count=len(dice), commitment=commitment
        )
    )
    return 0


def _parts(args: argparse.Namespace) -> tuple[str, str, list[int]]:
    from tavola.errors import TavolaError
    from tavola.schema import parse_json

    if args.commitment or args.secret or args.dice:
        if not (args.commitment and args.secret and args.dice is not None):
            raise TavolaError(_("--commitment, --secret and --dice go together"))
        digits = [character for character in args.dice if not character.isspace() and character not in ",-"]
        if not all(digit in "123456" for digit in digits):
            raise TavolaError(_("--dice: dice from 1 to 6, not {dice}").format(dice=repr(args.dice)))
        return args.commitment, args.secret, [int(digit) for digit in digits]
    try:
        text = Path(args.file).read_text(encoding="utf-8") if args.file else sys.stdin.read()
    except OSError as error:
        raise TavolaError(f"{args.file}: {error.strerror}") from None
    data = parse_json(text)
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("commitment"), str)
        or not isinstance(data.get("secret"), str)
        or not isinstance(data.get("dice"), list)
        or not all(isinstance(die, int) and not isinstance(die, bool) for die in data["dice"])
    ):
        raise TavolaError(
            _("expected the JSON of a finished table's dice: commitment and secret as text, dice as numbers")
        )
    return data["commitment"], data["secret"], data["dice"]
