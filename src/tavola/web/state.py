"""What a seat or a spectator sees of a table, as JSON data.

:func:`table_state` is the whole picture, sent on request and after every
action: the table (seats, status, the dice's commitment and, once the table
is finished, its secret), the game as it stands (the board from seat 0's
side at a two-player table and from the box's at a chouette: positive
numbers that side's checkers, negative the other's), what the viewer may do,
the table's log of actions and Tavola's record of the play
(:mod:`tavola.records.jsonfmt`, :mod:`tavola.chouette.record`).
:func:`table_summary` is the lobby's line.
"""

from __future__ import annotations

from typing import Any

from tavola.chouette import record as chouette_record
from tavola.chouette.bets import Side
from tavola.cube import Cube
from tavola.dice import Dice
from tavola.errors import TavolaError
from tavola.game import Game
from tavola.ids import position_text
from tavola.match import Match, match_id_text
from tavola.position import Position
from tavola.records import to_json
from tavola.records.jsonfmt import outcome_json
from tavola.table import ChouetteTable, GameTable
from tavola.turn import Turn
from tavola.web.hints import hint_question
from tavola.web.live import LiveTable

__all__ = ["may_hint", "position_json", "table_state", "table_summary"]


def table_summary(table: LiveTable) -> dict[str, Any]:
    """The table in a line of the lobby: its options, seats, status, who is to act."""
    return {
        "id": table.id,
        "kind": table.kind,
        "status": table.status,
        "options": table.options.model_dump(mode="json"),
        "seats": [
            {"index": index, "name": seat.name, "bot": seat.bot, "taken": seat.taken}
            for index, seat in enumerate(table.seats)
        ],
        "to_act": table.to_act(),
    }


def table_state(table: LiveTable, viewer: int | None) -> dict[str, Any]:
    """Everything ``viewer`` (a seat, or None for a spectator) sees of the table now."""
    state = table_summary(table)
    state.update(
        you=viewer,
        version=len(table.actions),
        legal_actions=table.legal_actions(viewer) if viewer is not None else [],
        may_hint=may_hint(table, viewer),
        dice={
            "scheme": "tavola-dice-v1",
            "commitment": table.dice.commitment,
            "used": len(table.dice.rolls_so_far),
            "secret": table.secret,
        },
        log=[{"seat": seat, **action} for seat, action in table.actions],
        game=None,
        record=None,
    )
    if table.game_table is not None:
        state["game"] = _game_json(table.game_table)
        state["record"] = to_json(table.game_table.series)
    elif table.chouette_table is not None:
        state["game"] = _chouette_json(table.chouette_table)
        state["record"] = chouette_record.to_json(table.chouette_table.chouette)
    return state


def may_hint(table: LiveTable, viewer: int | None) -> bool:
    """Whether ``viewer`` may ask the bot for a hint now (:func:`tavola.web.hints.hint_question`)."""
    try:
        hint_question(table, viewer)
    except TavolaError:
        return False
    return True


def position_json(position: Position) -> dict[str, Any]:
    """A board as a page draws it, from the side of the player it is seen by (``position``'s mover).

    >>> position_json(Position.start())["points"][:6]
    [-2, 0, 0, 0, 0, 5]
    """
    return {
        "points": list(position.board),
        "bar": list(position.bar),
        "off": list(position.off),
        "waiting": list(position.waiting),  # Acey-Deucey's checkers still to enter (V2)
        "pips": list(position.pip_counts()),
        "position_id": position_text(position),  # a Tavola ID where checkers wait to enter (V2)
    }


def _dice(dice: Dice | None) -> list[int] | None:
    return None if dice is None else [dice.high, dice.low]


def _cube(cube: Cube) -> dict[str, Any]:
    return {"value": cube.value, "owner": cube.owner}


def _moves(turn: Turn | None) -> list[str]:
    return [str(move) for move in turn.moves] if turn is not None else []


def _game_json(table: GameTable) -> dict[str, Any]:
    game: Game = table.game
    series = table.series
    offer = game.offer
    resignation = game.resignation
    score: dict[str, Any]
    if isinstance(series, Match):
        score = {"length": series.length, "points": list(series.score), "crawford": game.crawford}
    else:
        settlement = series.score
        score = {"stake": series.stake, "points": list(settlement.points), "money": list(settlement.money)}
    return {
        "number": len(series.games),
        "phase": game.phase.value,
        "player_on_roll": game.player_on_roll,
        "player_to_act": game.player_to_act,
        "position": position_json(game.position_for(0)),
        "dice": _dice(game.dice),
        "moves": _moves(game.turn),
        "cube": _cube(game.cube),
        "offer": None if offer is None else {"value": offer[0], "answering": offer[1]},
        "resignation": (
            None if resignation is None else {"seat": resignation[0], "kind": resignation[1].name.lower()}
        ),
        "outcome": outcome_json(game.outcome),
        "score": score,
        "series_over": series.is_over,
        "match_id": match_id_text(series),
    }


def _chouette_json(table: ChouetteTable) -> dict[str, Any]:
    chouette = table.chouette
    seating = chouette.seating
    data: dict[str, Any] = {
        "seating": None if seating is None else {"box": seating.box, "queue": list(seating.queue)},
        "totals": chouette.ledger.totals,
        "to_act": list(table.to_act),
    }
    game = chouette.game
    if game is None:
        return data
    data.update(
        number=game.number + 1,
        phase=game.phase.value,
        box=game.box,
        captain=game.captain,
        team=list(game.team),
        partner=game.partner,
        side_on_roll=int(game.side_on_roll),
        roller=game.roller,
        position=position_json(game.position_for(Side.BOX)),
        dice=_dice(game.dice),
        moves=_moves(game.turn),
        bets=[
            {
                "box_side": bet.box_side,
                "team_side": bet.team_side,
                "cube": _cube(bet.cube),
                "live": bet.is_live,
            }
            for bet in game.bets
        ],
        is_over=game.is_over,
    )
    return data
