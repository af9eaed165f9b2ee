"""``tavola match FILE``: what a saved match or money session holds, and conversion between formats.

FILE is a ``.mat`` file (gnubg, eXtreme Gammon, Jellyfish), an SGF file as
gnubg saves it (analysis and all) or Tavola's JSON record. The summary lists
the players, the match length (or money and the stake), each game's winner
and points, and the score; ``--json`` prints it as one JSON object; ``--to
OUT`` writes the record to OUT in the format its suffix names (``.mat``,
``.sgf`` or ``.json``): from SGF to SGF, with the date and the comments.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rich.console import Console
from rich.table import Table

from tavola.errors import TavolaError
from tavola.game import Ending, Game
from tavola.i18n import N_, _
from tavola.match import Match, Series
from tavola.records import read_series, read_sgf_record, save, suffix_format, write_sgf
from tavola.schema import json_text
from tavola.variants import STANDARD

# TRANSLATORS: how a game ended, in the "how" column of a match's summary.
_HOW = {
    Ending.BEAR_OFF: N_("bear-off"),
    Ending.DROP: N_("drop"),
    Ending.RESIGNATION: N_("resignation"),
    Ending.FORFEIT: N_("forfeit"),
}


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "match",
        help=_("summarise a saved match or session (.mat, .sgf or .json), or convert it"),
        description=_(
            "What a saved match or money session holds (a .mat or SGF file, a JSON record or the "
            "terminal game's autosave), and conversion between formats."
        ),
    )
    parser.add_argument("file", help=_("a .mat or SGF file, a Tavola JSON record or an autosave"))
    parser.add_argument("--json", action="store_true", help=_("print the summary as JSON"))
    parser.add_argument("--to", metavar="OUT", help=_("write the record to OUT (.mat, .sgf or .json)"))
    parser.set_defaults(run=run)


def summary(series: Series) -> dict[str, Any]:
    """The summary ``--json`` prints: players, length (0 for money), games and score.

    A money session adds its stake, a variant other than the standard game its name.

    >>> from tavola.match import MoneySession
    >>> summary(MoneySession(stake=2))
    {'players': ['Player 0', 'Player 1'], 'length': 0, 'games': [], 'score': [0, 0], 'stake': 2}
    """
    data: dict[str, Any] = {"players": list(series.players)}
    if series.variant is not STANDARD:
        data["variant"] = series.variant.name
    data["length"] = series.length if isinstance(series, Match) else 0
    data["games"] = [_game_summary(game) for game in series.games]
    if isinstance(series, Match):
        data["score"] = list(series.score)
    else:
        data.update(score=list(series.score.points), stake=series.stake)
    return data


def _game_summary(game: Game) -> dict[str, Any]:
    outcome = game.outcome
    if outcome is None:
        return {"winner": None, "points": None}
    return {"winner": outcome.winner, "points": outcome.points}


def run(args: argparse.Namespace) -> int:
    try:
        series = _converted(args.file, args.to) if args.to else read_series(args.file)
    except (TavolaError, OSError) as error:
        print(f"tavola match: {error}", file=sys.stderr)
        return 1
    if args.to:
        print(_("wrote {path}").format(path=args.to), file=sys.stderr)
        return 0
    if args.json:
        print(json_text(summary(series)))
    else:
        Console().print(_table(series))
        print(_final_line(series))
    return 0


def _converted(path: str, out: str) -> Series:
    """The record at ``path``, written to ``out``; from SGF to SGF with its date and comments."""
    if suffix_format(path) == suffix_format(out) == "sgf":
        record = read_sgf_record(path)
        write_sgf(record.series, out, date=record.date, comments=record.comments)
        return record.series
    series = read_series(path)
    save(series, out)
    return series


def _table(series: Series) -> Table:
    first, second = series.players
    variant = series.variant.name
    if isinstance(series, Match):
        if series.variant is STANDARD:
            text = _("{first} vs {second}: {length}-point match")
        else:
            text = _("{first} vs {second}: {length}-point match of {variant}")
        title = text.format(first=first, second=second, length=series.length, variant=variant)
    else:
        if series.variant is STANDARD:
            text = _("{first} vs {second}: money session at {stake} a point")
        else:
            text = _("{first} vs {second}: money session of {variant} at {stake} a point")
        title = text.format(first=first, second=second, stake=f"{series.stake:g}", variant=variant)
    table = Table(title=title)
    table.add_column(_("game"), justify="right")
    table.add_column(_("winner"))
    table.add_column(_("points"), justify="right")
    # TRANSLATORS: a column of a match's summary: how each game ended (bear-off, drop, resignation).
    table.add_column(_("how"))
    # TRANSLATORS: a column of a match's summary: the score after each game.
    table.add_column(_("score after"))
    for index, game in enumerate(series.games):
        table.add_row(str(index + 1), *_row(series, index, game))
    return table


def _row(series: Series, index: int, game: Game) -> tuple[str, str, str, str]:
    outcome = game.outcome
    if outcome is None:
        return (_("(in progress)"), "", "", "")
    after = _score_after(series, index)
    return (series.players[outcome.winner], str(outcome.points), _(_HOW[outcome.ending]), after)


def _score_after(series: Series, index: int) -> str:
    score = [0, 0]
    for game in series.games[: index + 1]:
        if game.outcome is not None:
            score[game.outcome.winner] += game.outcome.points
            if not isinstance(series, Match):
                score[1 - game.outcome.winner] -= game.outcome.points
    if isinstance(series, Match):
        return f"{min(score[0], series.length)}-{min(score[1], series.length)}"
    return f"{score[0]:+d} / {score[1]:+d}"


def _final_line(series: Series) -> str:
    first, second = series.players
    if isinstance(series, Match):
        score = series.score
        if series.winner is None:
            line = _("Score: {first} {first_score}, {second} {second_score} (match in progress)")
        else:
            line = _("Score: {first} {first_score}, {second} {second_score} ({winner} wins the match)")
        winner = "" if series.winner is None else series.players[series.winner]
        return line.format(
            first=first, first_score=score[0], second=second, second_score=score[1], winner=winner
        )
    points, money = series.score.points, series.score.money
    # TRANSLATORS: a money session's result: each player's net points and money, signed (+3, -3).
    line = _(
        "Net: {first} {first_points} ({first_money}), {second} {second_points} ({second_money}) "
        "at {stake} a point"
    )
    return line.format(
        first=first,
        first_points=f"{points[0]:+d}",
        first_money=f"{money[0]:+g}",
        second=second,
        second_points=f"{points[1]:+d}",
        second_money=f"{money[1]:+g}",
        stake=f"{series.stake:g}",
    )
