"""The server's routes, one router per resource; :func:`tavola.web.app.create_app` includes them all.

* :mod:`~tavola.web.routes.tables`: the lobby, a new table, a table's state;
* :mod:`~tavola.web.routes.seats`: sitting down;
* :mod:`~tavola.web.routes.accounts`: signing up, logging in and out;
* :mod:`~tavola.web.routes.players`: a player's ratings and matches, the leaderboard;
* :mod:`~tavola.web.routes.seeks`: seeks, accepting them, and play now;
* :mod:`~tavola.web.routes.actions`: acting as a seat;
* :mod:`~tavola.web.routes.chat`: the table's chat;
* :mod:`~tavola.web.routes.records`: the dice, the JSON record, the ``.mat`` file;
* :mod:`~tavola.web.routes.positions`: a game's positions, entry by entry, for the score sheet;
* :mod:`~tavola.web.routes.analysis`: a finished table's analysis report;
* :mod:`~tavola.web.routes.analyses`: analyses to step through, of a table or an uploaded record;
* :mod:`~tavola.web.routes.hints`: the bot's advice;
* :mod:`~tavola.web.routes.live`: the WebSocket;
* :mod:`~tavola.web.routes.tournaments`: tournaments, their entries, steps and seats;
* :mod:`~tavola.web.routes.pages`: the page itself.

They share :mod:`~tavola.web.routes.common`: the server's state, reached
through ``app.state`` as a dependency, tokens, bodies and errors.
"""

from fastapi import APIRouter

from tavola.web.routes import (
    accounts,
    actions,
    analyses,
    analysis,
    chat,
    hints,
    live,
    pages,
    players,
    positions,
    records,
    seats,
    seeks,
    tables,
    tournaments,
)

__all__ = ["ROUTERS"]

ROUTERS: tuple[APIRouter, ...] = (
    tables.router,
    seats.router,
    accounts.router,
    players.router,
    seeks.router,
    actions.router,
    chat.router,
    records.router,
    positions.router,
    analysis.router,
    analyses.router,
    hints.router,
    live.router,
    tournaments.router,
    pages.router,
)
"""Every router, in the order the API documents them."""
