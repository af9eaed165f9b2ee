"""The server's routes, one router per resource; :func:`tavola.web.app.create_app` includes them all.

* :mod:`~tavola.web.routes.tables`: the lobby, a new table, a table's state;
* :mod:`~tavola.web.routes.seats`: sitting down;
* :mod:`~tavola.web.routes.accounts`: signing up, logging in and out;
* :mod:`~tavola.web.routes.players`: a player's ratings and matches, the leaderboard;
* :mod:`~tavola.web.routes.actions`: acting as a seat;
* :mod:`~tavola.web.routes.chat`: the table's chat;
* :mod:`~tavola.web.routes.records`: the dice, the JSON record, the ``.mat`` file;
* :mod:`~tavola.web.routes.analysis`: a finished table's analysis report;
* :mod:`~tavola.web.routes.hints`: the bot's advice;
* :mod:`~tavola.web.routes.live`: the WebSocket;
* :mod:`~tavola.web.routes.pages`: the page itself.

They share :mod:`~tavola.web.routes.common`: the server's state, reached
through ``app.state`` as a dependency, tokens, bodies and errors.
"""

from fastapi import APIRouter

from tavola.web.routes import (
    accounts,
    actions,
    analysis,
    chat,
    hints,
    live,
    pages,
    players,
    records,
    seats,
    tables,
)

__all__ = ["ROUTERS"]

ROUTERS: tuple[APIRouter, ...] = (
    tables.router,
    seats.router,
    accounts.router,
    players.router,
    actions.router,
    chat.router,
    records.router,
    analysis.router,
    hints.router,
    live.router,
    pages.router,
)
"""Every router, in the order the API documents them."""
