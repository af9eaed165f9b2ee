"""``tavola match FILE``: what a saved match or money session holds, and conversion between formats.

FILE is a ``.mat`` file (gnubg, eXtreme Gammon, Jellyfish) or Tavola's JSON
record. The summary lists the players, the match length (or money and the
stake), each game's winner and points, and the score; ``--json`` prints it as
one JSON object; ``--to OUT`` writes the record to OUT in the format its
suffix names (``.mat`` or ``.json``).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console
from rich.table import Table

from tavola.errors import TavolaError
from tavola.game import Ending, Game
from tavola.match import Match
from tavola.records import Series, load, save
from tavola.variants import STANDARD

_HOW = {Ending.BEAR_OFF: "bear-off", Ending.DROP: "drop", Ending.RESIGNATION: "resignation"}


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "match",
        help="summarise a saved match or session (.mat or .json), or convert it",
        description=__doc__.splitlines()[0] if __doc__ else None,
    )
    parser.add_argument("file", help="a .mat file or a Tavola JSON record")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--to", metavar="OUT", help="write the record to OUT (.mat or .json)")
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
        series = load(args.file)
        if args.to:
            save(series, args.to)
    except (TavolaError, OSError) as error:
        print(f"tavola match: {error}", file=sys.stderr)
        return 1
    if args.to:
        print(f"wrote {args.to}", file=sys.stderr)
        return 0
    if args.json:
        print(json.dumps(summary(series)))
    else:
        Console().print(_table(series))
        print(_final_line(series))
    return 0


def _table(series: Series) -> Table:
    names = series.players
    variant = "" if series.variant is STANDARD else f" of {series.variant.name}"
    if isinstance(series, Match):
        title = f"{names[0]} vs {names[1]}: {series.length}-point match{variant}"
    else:
        title = f"{names[0]} vs {names[1]}: money session{variant} at {series.stake:g} a point"
    table = Table(title=title)
    for column in ("game", "winner", "points", "how", "score after"):
        table.add_column(column, justify="right" if column in ("game", "points") else "left")
    for index, game in enumerate(series.games):
        table.add_row(str(index + 1), *_row(series, index, game))
    return table


def _row(series: Series, index: int, game: Game) -> tuple[str, str, str, str]:
    outcome = game.outcome
    if outcome is None:
        return ("(in progress)", "", "", "")
    after = _score_after(series, index)
    return (series.players[outcome.winner], str(outcome.points), _HOW[outcome.ending], after)


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
    names = series.players
    if isinstance(series, Match):
        score = series.score
        state = f"{names[series.winner]} wins the match" if series.winner is not None else "match in progress"
        return f"Score: {names[0]} {score[0]}, {names[1]} {score[1]} ({state})"
    points, money = series.score.points, series.score.money
    return (
        f"Net: {names[0]} {points[0]:+d} ({money[0]:+g}), {names[1]} {points[1]:+d} ({money[1]:+g}) "
        f"at {series.stake:g} a point"
    )
