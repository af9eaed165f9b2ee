"""``tavola play``: a game of backgammon in the terminal, against the bot or a friend.

With no options it starts a money game against the bot at the ``expert``
level with the standard rules. Every action is saved to the autosave file
(``$XDG_DATA_HOME/tavola/autosave.json``, under ``~/.local/share`` by
default), so ``tavola play --resume`` goes on after a crash or Ctrl-C;
``--load FILE`` goes on with a saved match (``.mat``, SGF, Tavola's JSON, or
a file the autosave kept).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tavola.i18n import N_, _

if TYPE_CHECKING:
    from rich.console import Console

    from tavola.bot.levels import Level
    from tavola.bot.player import Bot
    from tavola.console.session import PlaySession, View
    from tavola.console.tutor import Tutor
    from tavola.dicesource import DiceSource, ManualDice
    from tavola.match import Match, MoneySession
    from tavola.table.seats import Seat


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from tavola.bot.levels import LEVELS, level_named, level_title
    from tavola.variants import VARIANTS

    parser = subparsers.add_parser(
        "play",
        help=_("play backgammon in the terminal, against the bot or a friend"),
        description=_("Play backgammon in the terminal: a money game against the bot unless told otherwise."),
    )
    who = parser.add_argument_group(_("players"))
    who.add_argument(
        "--opponent", choices=("bot", "human"), default="bot", help=_("the bot (default) or a second person")
    )
    who.add_argument(
        "--level",
        type=level_named,
        choices=list(LEVELS),
        default="expert",
        metavar="{" + ",".join(level_title(name) for name in LEVELS) + "}",
        help=_("the bot's strength, in English or in your language (default: {level})").format(
            level=level_title("expert")
        ),
    )
    who.add_argument("--name", help=_("your name (default: your login name)"))
    who.add_argument("--opponent-name", help=_("the other player's name"))
    who.add_argument(
        "--bot-first",
        action="store_true",
        help=_("seat the bot first (as player 1 in saved files)"),
    )
    game = parser.add_argument_group(_("game"))
    game.add_argument(
        "--match", type=int, metavar="N", help=_("play a match to N points (default: a money session)")
    )
    game.add_argument("--stake", type=float, default=1.0, help=_("money per point in a money session"))
    game.add_argument(
        "--variant",
        choices=[variant.name for variant in VARIANTS],
        default="standard",
        help=_("the game: standard backgammon (default) or a variant with other starting checkers"),
    )
    game.add_argument("--jacoby", action="store_true", help=_("gammons count only once the cube is turned"))
    game.add_argument(
        "--beavers",
        type=int,
        nargs="?",
        const=1,
        default=0,
        metavar="N",
        help=_("allow beavers (N=2 adds raccoons)"),
    )
    game.add_argument(
        "--automatic-doubles",
        type=int,
        default=0,
        metavar="CAP",
        help=_("double the stake on tied opening rolls, at most CAP times"),
    )
    game.add_argument("--no-cube", action="store_true", help=_("play without the doubling cube"))
    game.add_argument("--no-gammons", action="store_true", help=_("every game counts single"))
    game.add_argument("--no-crawford", action="store_true", help=_("matches without the Crawford rule"))
    game.add_argument("--holland", action="store_true", help=_("matches with the Holland rule"))
    dice = parser.add_argument_group(_("dice"))
    dice.add_argument(
        "--dice",
        choices=("random", "manual"),
        default="random",
        help=_("random dice, or dice typed in (to record a game played on a real board)"),
    )
    dice.add_argument("--seed", type=int, help=_("seed the dice and the bot, for a reproducible game"))
    look = parser.add_argument_group(_("board"))
    look.add_argument(
        "--home", choices=("right", "left"), default="right", help=_("where your home board is")
    )
    look.add_argument(
        "--colors",
        default="white,red",
        metavar="MINE,THEIRS",
        help=_("checker colours, such as white,red or yellow,blue"),
    )
    add_tutor_options(parser)
    files = parser.add_argument_group(_("saving"))
    files.add_argument("--resume", action="store_true", help=_("go on with the game autosaved last"))
    files.add_argument("--load", metavar="FILE", help=_("go on with a saved match (.mat, .sgf or .json)"))
    files.add_argument(
        "--autosave",
        type=Path,
        metavar="FILE",
        help=_("where the game is saved after every action (default: {path})").format(path=autosave_path()),
    )
    parser.set_defaults(run=run)


def add_tutor_options(parser: argparse.ArgumentParser) -> None:
    """``--tutor``, ``--tutor-level`` and ``--tutor-threshold``."""
    from tavola.bot.levels import DEPTHS, LIVE_ANALYSIS_LEVEL
    from tavola.console.tutor import TUTOR_THRESHOLDS

    tutor = parser.add_argument_group(_("tutor"))
    tutor.add_argument(
        "--tutor",
        action="store_true",
        help=_("warn before a play or cube action of yours that loses much, and ask to confirm it"),
    )
    tutor.add_argument(
        "--tutor-level",
        type=_tutor_level,
        default=LIVE_ANALYSIS_LEVEL,
        metavar="{" + ",".join(DEPTHS) + "}",
        help=_("how deep the tutor looks (default: {level})").format(level=LIVE_ANALYSIS_LEVEL.depth),
    )
    tutor.add_argument(
        "--tutor-threshold",
        choices=list(TUTOR_THRESHOLDS),
        default="bad",
        help=_("the least error the tutor warns about (default: bad, a loss of 0.06 or more)"),
    )


def _tutor_level(text: str) -> Level:
    """``--tutor-level``'s level: any without noise, refused as an analysis refuses it."""
    from tavola.bot.levels import analysis_level
    from tavola.errors import TavolaError

    try:
        return analysis_level(text)
    except TavolaError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def tutor_of(args: argparse.Namespace, bots: dict[int, Bot]) -> Tutor | None:
    """The tutor the options ask for, judging with the bots' network; None without ``--tutor``."""
    from tavola.console.tutor import Tutor

    if not args.tutor:
        return None
    seated = next(iter(bots.values()), None)
    return Tutor(args.tutor_level, args.tutor_threshold, evaluator=seated.evaluator if seated else None)


def autosave_path() -> Path:
    """The default autosave file: ``$XDG_DATA_HOME/tavola/autosave.json``."""
    from tavola.files import data_file

    return data_file("autosave.json")


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from tavola.console.app import ConsoleGame
    from tavola.errors import TavolaError

    console = Console(highlight=False, markup=False)  # names and moves are shown as typed
    autosave: Path = args.autosave or autosave_path()
    try:
        session = _session(args, autosave, console)
        bots = _bots(session, args.seed)
    except TavolaError as error:
        print(f"tavola play: {error}", file=sys.stderr)
        return 2
    with contextlib.suppress(ImportError):  # line editing and history for input(), where there is readline
        import readline  # noqa: F401
    tutor = tutor_of(args, bots)
    return ConsoleGame(session, console, console.input, autosave=autosave, bots=bots, tutor=tutor).run()


def _session(args: argparse.Namespace, autosave: Path, console: Console) -> PlaySession:
    """The session the options ask for, every option checked before any saved file is touched."""
    from tavola.console.session import PlaySession

    if args.resume and args.load:
        raise _error(_("--resume and --load cannot go together"))
    if args.seed is not None and args.seed < 0:
        raise _error(_("--seed takes a whole number from 0 up, not {seed}").format(seed=args.seed))
    if autosave.is_dir() or autosave.parent.is_file():
        raise _error(_("--autosave names a file to write, and {path} cannot be one").format(path=autosave))
    view = _view(args)
    if args.resume:
        session = PlaySession.load(autosave, seed=args.seed)
        if session.series.is_over:
            raise _error(_("the autosaved match is over; start a new one with tavola play"))
        return session
    if args.load:
        session = _loaded(args, Path(args.load), view)
    else:
        source, manual = _dice(args)
        seats = _seats(args, None)
        series = _new_series(args, source, (seats[0].name, seats[1].name))
        session = PlaySession(series, seats, view, args.dice, manual)
    keep_unfinished(autosave, console)
    return session


def _loaded(args: argparse.Namespace, path: Path, view: View) -> PlaySession:
    """The session of a file given to ``--load``: a saved game, or a match record."""
    from tavola.console.session import PlaySession
    from tavola.records import load, record_kind

    if not path.is_file():
        raise _error(_("{path}: there is no saved game here").format(path=path))
    if record_kind(path) == "autosave":
        return PlaySession.load(path, seed=args.seed)
    source, manual = _dice(args)
    try:
        series = load(path, dice=source)
    except OSError as error:
        raise _error(_("{path}: {error}").format(path=path, error=error.strerror)) from None
    seats = _seats(args, series.players)
    return PlaySession(series, seats, view, args.dice, manual)


def _error(message: str) -> Exception:
    from tavola.errors import TavolaError

    return TavolaError(message)


def keep_unfinished(autosave: Path, console: Console) -> None:
    """Move an unfinished autosaved game aside before a new game overwrites it, and say where."""
    from tavola.console.session import PlaySession
    from tavola.errors import TavolaError
    from tavola.files import keep_aside

    if not autosave.exists():
        return
    try:
        unfinished = not PlaySession.load(autosave).series.is_over
    except TavolaError:
        unfinished = True  # unreadable: keep it for the player to look at
    if unfinished:
        kept = keep_aside(autosave, "unfinished")
        console.print(
            _("Your unfinished game was kept in {path}; tavola play --load {path} goes on with it.").format(
                path=kept
            )
        )


def _dice(args: argparse.Namespace) -> tuple[DiceSource, ManualDice | None]:
    from tavola.dicesource import ManualDice, RandomDice

    if args.dice == "manual":
        manual = ManualDice()
        return manual, manual
    return RandomDice(args.seed), None


def _seats(args: argparse.Namespace, names: tuple[str, str] | None) -> tuple[Seat, Seat]:
    from tavola.table.seats import Seat

    me = args.name or os.environ.get("USER") or unnamed_player(args.colors.split(",")[0])
    if args.opponent == "human":
        other = Seat(args.opponent_name or _("Guest"))
        mine = Seat(me)
    else:
        other = Seat(args.opponent_name or "Tavola", bot_level=args.level)
        mine = Seat(me)
    seats = (other, mine) if args.bot_first else (mine, other)
    if names is not None:  # a loaded match keeps its players' names
        seats = (
            Seat(args.name or names[0], seats[0].bot_level),
            Seat(args.opponent_name or names[1], seats[1].bot_level),
        )
    return seats


COLOUR_NAMES = {
    "white": N_("White"),
    "red": N_("Red"),
    "black": N_("Black"),
    "blue": N_("Blue"),
    "yellow": N_("Yellow"),
    "green": N_("Green"),
}
"""The checker colours a person with no name is called by, as players call the sides of a board."""


def unnamed_player(colour: str) -> str:
    """The name of a person who gave none and has no login name: their checkers' colour, a name every
    message reads right with in every language ("White plays 8/5 6/5"), else "Player".

    >>> unnamed_player(" White"), unnamed_player("#ff8800")
    ('White', 'Player')
    """
    name = COLOUR_NAMES.get(colour.strip().lower())
    return _(name) if name is not None else _("Player")


def _view(args: argparse.Namespace) -> View:
    from tavola.console.session import View
    from tavola.errors import TavolaError

    colors = [color.strip() for color in args.colors.split(",")]
    if len(colors) != 2 or not all(colors):
        raise TavolaError(_("--colors takes two colours, such as white,red"))
    from rich.color import Color, ColorParseError

    for color in colors:
        try:
            Color.parse(color)
        except ColorParseError:
            raise TavolaError(_("{color!r} is not a colour the terminal knows").format(color=color)) from None
    mine, theirs = colors
    order = (theirs, mine) if args.bot_first else (mine, theirs)
    return View(args.home, order)


def _new_series(args: argparse.Namespace, source: DiceSource, names: tuple[str, str]) -> Match | MoneySession:
    from tavola.match import Match, MoneySession
    from tavola.rules import Rules
    from tavola.variants import find_variant

    variant = find_variant(args.variant)
    if args.match is not None:
        rules = Rules(
            cube=not args.no_cube,
            gammons=not args.no_gammons,
            crawford=not args.no_crawford,
            holland=args.holland,
        )
        if args.jacoby or args.beavers or args.automatic_doubles:
            from tavola.errors import InvalidRulesError

            raise InvalidRulesError(
                _("Jacoby, beavers and automatic doubles are money rules, not match rules (P4)")
            )
        return Match(args.match, rules, source, names, variant)
    rules = Rules(
        cube=not args.no_cube,
        jacoby=args.jacoby,
        beavers=args.beavers,
        automatic_doubles=args.automatic_doubles,
        gammons=not args.no_gammons,
    )
    return MoneySession(rules, source, stake=args.stake, players=names, variant=variant)


def _bots(session: PlaySession, seed: int | None) -> dict[int, Bot]:
    from tavola.bot.evaluate import Evaluator
    from tavola.bot.player import Bot

    levels = {index: seat.bot_level for index, seat in enumerate(session.seats) if seat.bot_level}
    if not levels:
        return {}
    evaluator = Evaluator.default()
    return {index: Bot(evaluator, level, seed) for index, level in levels.items()}
