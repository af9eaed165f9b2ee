"""What a seat or a spectator sees of a table, as JSON data.

:func:`table_state` is the picture now, sent on request and after every
action: the table (seats, status, the dice's commitment and, once the table
is finished, its secret), its ``version`` (how many actions it has done),
the game as it stands (:meth:`tavola.web.kinds.ServedTable.game_json`, with
the last play), the players' clocks where the table has a time control
(:meth:`tavola.web.clocks.Clock.state_json`), the forfeit that ended it if
one did, and what the viewer may do. Its size does not grow with the
session: the table's log is its own route, a page at a time
(``GET /api/tables/{id}/log``), and so is Tavola's record of the play
(``record.json``). :func:`table_states` makes it for several viewers at
once, the parts they share made once. :func:`table_summary` is the lobby's
line.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tavola.errors import TavolaError
from tavola.table import GameTable
from tavola.web.hints import hint_question
from tavola.web.live import LiveTable

__all__ = ["may_hint", "table_state", "table_states", "table_summary"]


def table_summary(table: LiveTable) -> dict[str, Any]:
    """The table in a line of the lobby: its options, seats, status, who is to act."""
    return _summary(table, table.to_act())


def _summary(table: LiveTable, to_act: list[int]) -> dict[str, Any]:
    return {
        "id": table.id,
        "kind": table.kind,
        "status": table.status,
        "options": table.options_json,
        "seats": [
            {"index": index, "name": seat.name, "bot": seat.bot, "taken": seat.taken}
            for index, seat in enumerate(table.seats)
        ],
        "to_act": to_act,
    }


def table_state(table: LiveTable, viewer: int | None) -> dict[str, Any]:
    """Everything ``viewer`` (a seat, or None for a spectator) sees of the table now."""
    return table_states(table, (viewer,))[viewer]


def table_states(table: LiveTable, viewers: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
    """What each of ``viewers`` sees of the table now (:func:`table_state`).

    Each seat's legal actions are listed once, for who is to act and for the seat itself, and the
    parts every viewer sees (the table, the dice, the game) are made once and shared by the states:
    read them, never change them.
    """
    legal = [table.legal_actions(index) for index in range(len(table.seats))]
    shared = _summary(table, [index for index, actions in enumerate(legal) if actions])
    dice = {
        "scheme": "tavola-dice-v1",
        "commitment": table.dice.commitment,
        "used": len(table.dice.rolls_so_far),
        "secret": table.secret,
    }
    game = table.served.game_json() if table.served is not None else None
    clock = table.clock.state_json(table.now()) if table.clock is not None else None
    return {
        viewer: {
            **shared,
            "you": viewer,
            "version": len(table.actions),
            "legal_actions": legal[viewer] if viewer is not None else [],
            "may_hint": may_hint(table, viewer),
            "dice": dice,
            "game": game,
            "clock": clock,
            "forfeit": _forfeit(table),
        }
        for viewer in viewers
    }


def _forfeit(table: LiveTable) -> dict[str, Any] | None:
    """The forfeit that ended the table, if one did: the seat, why (``time``, ``absent``, ``left``,
    ``award``), when."""
    engine = table.served.table if table.served is not None else None
    forfeit = engine.series.forfeited if isinstance(engine, GameTable) else None
    if forfeit is None:
        return None
    return {"seat": forfeit.player, "reason": forfeit.reason, "at": forfeit.at}


def may_hint(table: LiveTable, viewer: int | None) -> bool:
    """Whether ``viewer`` may ask the bot for a hint now (:func:`tavola.web.hints.hint_question`)."""
    try:
        hint_question(table, viewer)
    except TavolaError:
        return False
    return True
