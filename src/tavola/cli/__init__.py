"""The ``tavola`` command.

Each subcommand lives in a module of this package that defines
``add_parser(subparsers)``; the parser's ``run`` default does the work and
returns the exit status. ``--lang it|es|en`` (before or after the
subcommand) chooses the language of everything the command says; without
it the language follows ``TAVOLA_LANG``, the settings file or the system
locale (see :mod:`tavola.i18n`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from typing import Any

from tavola.cli import analyze, chouette, engine, hint, match, moves, play, rollout, rules, serve, verify
from tavola.errors import TavolaError
from tavola.i18n import LANGUAGES, _, set_language

COMMANDS = (play, chouette, hint, rules, moves, match, engine, rollout, analyze, serve, verify)


class Parser(argparse.ArgumentParser):
    """An argument parser whose own words (``usage:``, ``options:``, the ``-h`` help) are Tavola's, in the
    language in use; every subcommand's parser is one too.

    >>> from tavola.i18n import use_language
    >>> with use_language("en"):
    ...     Parser(prog="tavola").format_help().splitlines()[0]
    'usage: tavola [-h]'
    """

    def __init__(self, *, add_help: bool = True, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(add_help=False, **kwargs)
        self._positionals.title = _("positional arguments")
        self._optionals.title = _("options")
        if add_help:
            self.add_argument("-h", "--help", action="help", help=_("show this help message and exit"))


class _Formatter(argparse.HelpFormatter):
    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None = None,
    ) -> None:
        super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="tavola", description=_("Backgammon: play, analyse, and the rules, formats and bot behind them.")
    )
    parser.add_argument(
        "--lang", choices=list(LANGUAGES), help=_("the language Tavola speaks (default: the system's)")
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(subparsers)
    return parser


def _language_asked(argv: Sequence[str]) -> str | None:
    """The ``--lang`` value in ``argv``, wherever it is (the parser's texts depend on it)."""
    for index, argument in enumerate(argv):
        if argument == "--lang" and index + 1 < len(argv):
            return argv[index + 1]
        if argument.startswith("--lang="):
            return argument.partition("=")[2]
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    asked = _language_asked(arguments)
    try:
        set_language(asked if asked in LANGUAGES else None)
    except TavolaError as error:  # a bad TAVOLA_LANG or settings file
        print(f"tavola: {error}", file=sys.stderr)
        set_language("en")
    parser = build_parser()
    args = parser.parse_args(_without_language(arguments))
    try:
        status: int = args.run(args)
    except BrokenPipeError:  # e.g. piped into `head`
        sys.stderr.close()
        return 1
    return status


def _without_language(argv: list[str]) -> list[str]:
    """``argv`` with ``--lang`` moved to the front, where the main parser reads it."""
    for index, argument in enumerate(argv):
        if argument == "--lang" and index + 1 < len(argv):
            return [argument, argv[index + 1], *argv[:index], *argv[index + 2 :]]
        if argument.startswith("--lang="):
            return [argument, *argv[:index], *argv[index + 1 :]]
    return argv
