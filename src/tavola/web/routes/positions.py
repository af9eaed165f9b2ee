"""A game of a two-player table, position by position: ``GET /api/tables/{id}/positions?game=N``.

The page's score sheet shows the board at any move of the match: the
position after each entry of game ``N``'s log, as ``GET .../record`` gives
that log, replayed through the game (:func:`tavola.analysis.replay.replay`),
so that the page draws positions and knows no rule. The table's match is
copied holding its lock, and replayed in a thread once the lock is let go.
"""

from __future__ import annotations

import copy
from typing import Any

from fastapi import APIRouter, Query
from starlette.concurrency import run_in_threadpool

from tavola.analysis.replay import replay
from tavola.game import Game
from tavola.i18n import _
from tavola.match import Series
from tavola.table import GameTable
from tavola.web.hub import Hub
from tavola.web.kinds import position_json
from tavola.web.live import NotFoundError, StateError, not_playing
from tavola.web.routes.common import ServerDep

__all__ = ["game_positions", "router"]

router = APIRouter()


@router.get(
    "/api/tables/{table_id}/positions",
    summary="A game's positions: the board and the cube after each entry of its record",
)
async def positions(
    table_id: str,
    server: ServerDep,
    game: int = Query(0, ge=0, description="the game's number in the record (from 0)"),
) -> dict[str, Any]:
    """``{"version": 57, "game": 0, "steps": [{"position": {...}, "cube": {"value": 1, "owner": null}},
    ...]}``: one step for each entry of the game's log in ``GET .../record``, the board as the state's
    ``position`` (seen from seat 0) after that entry; ``version`` is how many actions the table held."""
    series, version = await run_in_threadpool(_copied, server.hub, table_id)
    steps = await run_in_threadpool(game_positions, series, game)
    return {"version": version, "game": game, "steps": steps}


def _copied(hub: Hub, table_id: str) -> tuple[Series, int]:
    """A copy of the two-player table's match or session, and how many actions it holds."""
    table = hub.get(table_id)
    with table.lock:
        table.check()
        if table.served is None:
            raise StateError(not_playing(table.status))
        engine = table.served.table
        if not isinstance(engine, GameTable):
            raise StateError(_("a chouette's positions are not given game by game"))
        return copy.deepcopy(engine.series), len(table.actions)


def game_positions(series: Series, number: int) -> list[dict[str, Any]]:
    """The board and the cube after each entry of game ``number`` (from 0) of ``series``.

    >>> from tavola.dicesource import RandomDice
    >>> from tavola.match import Match
    >>> match = Match(3, dice=RandomDice(seed=3))
    >>> game = match.new_game()
    >>> game.roll() and game.play("13/11 13/8")  # player 1 opens: seat 0's point 12 is their 13
    >>> game.double()
    >>> steps = game_positions(match, 0)
    >>> [step["position"]["points"][11] for step in steps], steps[-1]["cube"]
    ([-5, -3, -3], {'value': 1, 'owner': None})
    >>> game_positions(match, 1)
    Traceback (most recent call last):
    ...
    tavola.web.live.NotFoundError: there is no game 2 at this table: it has played 1
    """
    if number >= len(series.games):
        raise NotFoundError(
            _("there is no game {number} at this table: it has played {count}").format(
                number=number + 1, count=len(series.games)
            )
        )
    before: list[tuple[int, dict[str, Any]]] = []  # the board before the entry at each index
    played: Game | None = None
    for moment in replay(series):
        if moment.number - 1 > number:
            break
        if moment.number - 1 == number:
            played = moment.game
            before.append((len(played.log), _seen(played)))
    if played is None:  # a game with nothing in its log yet
        return []
    # after entry i: the board before the next entry replayed (an entry the game logged by itself, an
    # automatic beaver's take, is replayed with the one that made it), or the board at the end
    later = [*before[1:], (len(played.log), _seen(played))]
    steps: list[dict[str, Any]] = []
    for at, seen in later:
        steps += [seen] * (at - len(steps))
    return steps


def _seen(game: Game) -> dict[str, Any]:
    return {
        "position": position_json(game.position_for(0)),
        "cube": {"value": game.cube.value, "owner": game.cube.owner},
    }
