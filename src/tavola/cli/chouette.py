"""``tavola chouette NAME NAME NAME...``: a chouette for 3 to 8 players at one terminal.

The players are seated by a roll of the dice (H1); each game the box plays
the team led by its captain, every team member with a cube of their own
(``--single-cube`` for one cube), and the ledger keeps what each player won
or paid. The session is saved after every action
(``$XDG_DATA_HOME/tavola/chouette.json``); ``--resume`` goes on with it.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

from tavola.i18n import _


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "chouette",
        help=_("a chouette for 3 to 8 players at one terminal"),
        description=_("Play a chouette: the box against a team led by its captain, with a ledger."),
    )
    parser.add_argument("players", nargs="*", metavar="NAME", help=_("the players (3 to 8)"))
    parser.add_argument("--single-cube", action="store_true", help=_("one cube for the whole team (H5)"))
    parser.add_argument(
        "--last-taker-drops", action="store_true", help=_("when all but one drop, the last drops too (H6)")
    )
    parser.add_argument("--extras", action="store_true", help=_("mandatory extras for a lone taker (H7)"))
    parser.add_argument(
        "--partner-from",
        type=int,
        metavar="N",
        help=_("the box takes a partner when N or more players sit at the table (H9)"),
    )
    parser.add_argument(
        "--consultation",
        choices=("free", "none", "after-cube"),
        default="free",
        help=_("when team members may suggest plays to the captain (H4)"),
    )
    parser.add_argument("--jacoby", action="store_true", help=_("gammons count only once a cube is turned"))
    parser.add_argument(
        "--beavers", type=int, nargs="?", const=1, default=0, metavar="N", help=_("allow beavers")
    )
    parser.add_argument(
        "--automatic-doubles", type=int, default=0, metavar="CAP", help=_("automatic doubles, at most CAP")
    )
    parser.add_argument("--stake", type=float, default=1.0, help=_("money per point"))
    parser.add_argument("--seed", type=int, help=_("seed the dice, for a reproducible session"))
    parser.add_argument("--resume", action="store_true", help=_("go on with the saved chouette"))
    parser.add_argument("--autosave", type=Path, metavar="FILE", help=_("where the chouette is saved"))
    parser.set_defaults(run=run)


def autosave_path() -> Path:
    """The default autosave file: ``$XDG_DATA_HOME/tavola/chouette.json``."""
    from tavola.files import data_file

    return data_file("chouette.json")


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from tavola.chouette import Chouette, ChouetteSettings, Consultation, CubeMode
    from tavola.console.chouette import ChouetteConsole
    from tavola.dicesource import RandomDice
    from tavola.errors import TavolaError
    from tavola.files import keep_aside
    from tavola.rules import Rules

    console = Console(highlight=False, markup=False)
    autosave: Path = args.autosave or autosave_path()
    try:
        if args.resume:
            table = Chouette.load(autosave, dice=RandomDice(args.seed))
        else:
            settings = ChouetteSettings(
                cubes=CubeMode.SINGLE if args.single_cube else CubeMode.MULTI,
                last_taker_must_drop=args.last_taker_drops,
                mandatory_extras=args.extras,
                box_partner_from=args.partner_from,
                consultation=Consultation(args.consultation),
                rules=Rules(
                    jacoby=args.jacoby, beavers=args.beavers, automatic_doubles=args.automatic_doubles
                ),
                stake=args.stake,
            )
            table = Chouette(settings, RandomDice(args.seed), players=args.players)
        if autosave.is_dir() or autosave.parent.is_file():
            raise TavolaError(
                _("--autosave names a file to write, and {path} cannot be one").format(path=autosave)
            )
    except (TavolaError, OSError) as error:
        print(f"tavola chouette: {error}", file=sys.stderr)
        return 2
    if not args.resume and autosave.exists():
        kept = keep_aside(autosave, "chouette")
        console.print(
            _(
                "The chouette saved before was kept in {path}; tavola chouette --resume --autosave {path} "
                "goes on with it."
            ).format(path=kept)
        )
    with contextlib.suppress(ImportError):  # line editing and history for input()
        import readline  # noqa: F401
    return ChouetteConsole(table, console, console.input, autosave=autosave).run()
