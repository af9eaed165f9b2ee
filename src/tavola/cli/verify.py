"""``tavola verify``: check verifiable dice, as a server or a player revealed them.

It reads, from a file or standard input, a finished table's record as
downloaded (``record.json``: a match, a money session or a chouette), or
the JSON its ``/dice`` address gives (``{"commitment": ..., "secret": ...,
"dice": [...]}``), or takes the three parts as options, and checks them
with :mod:`tavola.records.verifiable`: from a record, every die its log
shows was used, in order (opening rolls and their ties, rolls, a
chouette's draws). Exit status 0 when every die is the one the secret gives,
the secret is the one committed to, and there are as many dice as the table
used; 1 when not (dice left off the end included); 2 when there is nothing
to check (a record with no commitment or no secret yet, malformed JSON).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tavola.i18n import _, ngettext

if TYPE_CHECKING:
    from tavola.records.verifiable import RevealedDice


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "verify",
        help=_("check verifiable dice: the secret against its commitment, and every die"),
        description=_(
            "Check verifiable dice (the tavola-dice-v1 scheme): a finished table's record.json, or the "
            "JSON its dice address gives, from FILE or standard input, or its parts as options."
        ),
    )
    parser.add_argument(
        "file",
        nargs="?",
        help=_("a table's record.json, or the JSON of its dice (standard input if none, or -)"),
    )
    parser.add_argument("--commitment", help=_("the commitment published before the first die"))
    parser.add_argument("--secret", help=_("the secret revealed at the end, in hexadecimal"))
    parser.add_argument("--dice", help=_("every die in the order rolled, such as 4415 or '4 4 1 5'"))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tavola.errors import DiceVerificationError, TavolaError
    from tavola.records.verifiable import UncheckedDiceError, check_revealed_dice

    try:
        revealed = _revealed(args)
        count = check_revealed_dice(revealed)
    except UncheckedDiceError as error:
        print(f"tavola verify: {error}", file=sys.stderr)
        return 1
    except DiceVerificationError as error:
        print(_("tavola verify: the dice are NOT honest: {error}").format(error=error), file=sys.stderr)
        return 1
    except TavolaError as error:
        print(f"tavola verify: {error}", file=sys.stderr)
        return 2
    if revealed.used is None:
        message = _("The dice are honest: all {count} come from the secret committed to as {commitment}.")
    else:
        message = ngettext(
            "The dice are honest: the {count} die the table used comes from the secret committed to "
            "as {commitment}.",
            "The dice are honest: all {count} dice the table used come from the secret committed to "
            "as {commitment}.",
            count,
        )
    print(message.format(count=count, commitment=revealed.commitment))
    return 0


def _revealed(args: argparse.Namespace) -> RevealedDice:
    from tavola.chouette.record import dice_drawn as chouette_dice
    from tavola.errors import RecordError, TavolaError
    from tavola.records import json_kind
    from tavola.records.jsonfmt import dice_drawn as record_dice
    from tavola.records.verifiable import Draw, RevealedDice, revealed_dice
    from tavola.schema import JsonTextError, parse_json

    if args.commitment or args.secret or args.dice:
        if not (args.commitment and args.secret and args.dice is not None):
            raise TavolaError(_("--commitment, --secret and --dice go together"))
        digits = [character for character in args.dice if not character.isspace() and character not in ",-"]
        if not all(digit in "123456" for digit in digits):
            raise TavolaError(_("--dice: dice from 1 to 6, not {dice}").format(dice=repr(args.dice)))
        return RevealedDice(args.commitment, args.secret, (Draw("", tuple(int(digit) for digit in digits)),))
    from_file = args.file not in (None, "-")
    name = args.file if from_file else _("standard input")
    try:
        text = Path(args.file).read_text(encoding="utf-8") if from_file else sys.stdin.read()
    except OSError as error:
        raise TavolaError(f"{args.file}: {error.strerror}") from None
    except UnicodeDecodeError as error:
        message = _("{path}: not a JSON record (not UTF-8 text: {reason})")
        raise RecordError(message.format(path=name, reason=error.reason)) from None
    try:
        data = parse_json(text)
    except JsonTextError as error:
        raise RecordError(_("{path}: not valid JSON: {error}").format(path=name, error=error)) from None
    match json_kind(data):
        case "record":
            return revealed_dice(data, record_dice)
        case "chouette":
            return revealed_dice(data, chouette_dice)
        case _:
            return revealed_dice(data)
