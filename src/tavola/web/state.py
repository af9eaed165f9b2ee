"""What a seat or a spectator sees of a table, as JSON data.

:func:`table_state` is the picture now, sent on request and after every
action: the table (seats, status, the dice's commitment and, once the table
is finished, its secret), its ``version`` (how many actions it has done),
the game as it stands (:meth:`tavola.web.kinds.ServedTable.game_json`, with
the last play) and what the viewer may do. Its size does not grow with the
session: the table's log is its own route, a page at a time
(``GET /api/tables/{id}/log``), and so is Tavola's record of the play
(``record.json``). :func:`table_summary` is the lobby's line.
"""

from __future__ import annotations

from typing import Any

from tavola.errors import TavolaError
from tavola.web.hints import hint_question
from tavola.web.live import LiveTable

__all__ = ["may_hint", "table_state", "table_summary"]


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
        game=None,
    )
    if table.served is not None:
        state["game"] = table.served.game_json()
    return state


def may_hint(table: LiveTable, viewer: int | None) -> bool:
    """Whether ``viewer`` may ask the bot for a hint now (:func:`tavola.web.hints.hint_question`)."""
    try:
        hint_question(table, viewer)
    except TavolaError:
        return False
    return True
