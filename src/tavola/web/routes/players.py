"""Players: ``GET /api/players/{name}`` (a player's page: ratings, rated matches, tables) and
``GET /api/leaderboard`` (a variant's players by rating).

Anyone may read them; nothing here changes anything (the ratings change only
as matches end, :mod:`tavola.web.ratings`).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query
from starlette.concurrency import run_in_threadpool

from tavola.i18n import _
from tavola.variants import find_variant
from tavola.web.live import NotFoundError
from tavola.web.ratings import history, leaderboard, ratings_of
from tavola.web.routes.accounts import AccountsDep, account_json
from tavola.web.routes.common import ServerDep

__all__ = ["MOST_PLACES", "MOST_RATED", "router"]

router = APIRouter()

MOST_RATED = 200
"""The most rated matches a player's page lists."""
MOST_PLACES = 200
"""The most players a page of the leaderboard lists."""


@router.get("/api/players/{name}", summary="A player: ratings per variant, rated matches, tables")
async def player(
    name: str,
    server: ServerDep,
    state: AccountsDep,
    variant: str | None = Query(None, description="the rated matches of this variant only"),
    limit: int = Query(100, ge=1, le=MOST_RATED, description="how many rated matches at most"),
) -> dict[str, Any]:
    """``{"name": "Ann", "bot": null, "since": "...", "ratings": [{"variant": "standard", "rating":
    1507.2, "experience": 1, "matches": 1, "wins": 1}], "history": [{"table": "...", "variant":
    "standard", "length": 1, "opponent": "Bob", "won": true, "before": 1500.0, "after": 1507.2, "time":
    "...", "errors": {"mine": 8.3, "theirs": 12.1, "mine_pr": 4.2, "theirs_pr": 6.1, "level": "0-ply"}}],
    "tables": [{"table": "...", "seat": 0, "kind": "game", "status": "finished"}]}``: the rated matches
    newest first, each with both sides' error rates where its table was analysed (else ``errors`` null)."""
    wanted = find_variant(variant).name if variant is not None else None
    store = server.hub.store

    def found() -> dict[str, Any]:
        row = state.accounts.find(name)
        if row is None:
            raise NotFoundError(_("there is no player {name}").format(name=name))
        tables = [
            {"table": table.id, "seat": seat, "kind": table.kind, "status": table.status}
            for table, seat in state.accounts.seats_of(row.id)
        ]
        return {
            **account_json(row),
            "ratings": ratings_of(store, row.id),
            "history": history(store, row.id, wanted, limit),
            "tables": tables,
        }

    return await run_in_threadpool(found)


@router.get("/api/leaderboard", summary="A variant's players by rating, highest first")
async def ranking(
    server: ServerDep,
    variant: str = Query("standard", description="the variant"),
    start: int = Query(0, ge=0, description="the first place listed (0: the first)"),
    limit: int = Query(50, ge=1, le=MOST_PLACES, description="how many players at most"),
) -> dict[str, Any]:
    """``{"variant": "standard", "start": 0, "players": [{"place": 1, "name": "Ann", "bot": null,
    "variant": "standard", "rating": 1507.2, "experience": 1, "matches": 1, "wins": 1}]}``."""
    name = find_variant(variant).name
    players = await run_in_threadpool(leaderboard, server.hub.store, name, start, limit)
    return {"variant": name, "start": start, "players": players}
