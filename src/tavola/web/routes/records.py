"""What a table gives to keep and to check: ``GET /api/tables/{id}/dice`` (the verifiable dice),
``log`` (the table's actions, a page at a time), ``record.json`` (Tavola's JSON record) and
``record.mat`` (a two-player table's ``.mat`` file)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Response
from fastapi.responses import JSONResponse, PlainTextResponse
from starlette.concurrency import run_in_threadpool

from tavola.dicesource import verify
from tavola.errors import DiceVerificationError
from tavola.i18n import _
from tavola.records import mat_text
from tavola.table import GameTable
from tavola.web.live import StateError, not_playing
from tavola.web.routes.common import ServerDep, attachment

__all__ = ["MOST_ENTRIES", "router"]

router = APIRouter()

MOST_ENTRIES = 500
"""The most actions a page of a table's log holds."""


@router.get(
    "/api/tables/{table_id}/dice", summary="The verifiable dice: commitment, dice used, secret at the end"
)
async def dice(table_id: str, server: ServerDep) -> dict[str, Any]:
    hub = server.hub

    def shown() -> dict[str, Any]:
        table = hub.get(table_id)
        with table.lock:
            table.check()
            secret = table.secret
            used = list(table.dice.rolls_so_far)
            data: dict[str, Any] = {
                "scheme": "tavola-dice-v1",
                "commitment": table.dice.commitment,
                "secret": secret,
                "used": len(used),
                "dice": used,
                "verified": None,
            }
        if secret is not None:
            try:
                verify(data["commitment"], secret, used)
                data["verified"] = True
            except DiceVerificationError as error:
                data.update(verified=False, error=str(error))
        return data

    return await run_in_threadpool(shown)


@router.get("/api/tables/{table_id}/log", summary="The table's actions in order, a page at a time")
async def log(
    table_id: str,
    server: ServerDep,
    start: int = Query(0, ge=0, description="the first action's number (from 0)"),
    limit: int = Query(MOST_ENTRIES, ge=1, le=MOST_ENTRIES, description="how many actions at most"),
) -> dict[str, Any]:
    """``{"version": 57, "start": 0, "entries": [{"seat": 0, "action": "roll"}, ...]}``: the actions from
    number ``start`` on, each with its seat (null for the table's own); ``version`` is how many there are."""
    hub = server.hub

    def page() -> dict[str, Any]:
        table = hub.get(table_id)
        with table.lock:
            table.check()
            return {"version": len(table.actions), "start": start, "entries": table.log(start, start + limit)}

    return await run_in_threadpool(page)


@router.get("/api/tables/{table_id}/record.json", summary="The play as Tavola's JSON record")
async def record_json(table_id: str, server: ServerDep) -> Response:
    hub = server.hub

    def written() -> dict[str, Any]:
        table = hub.get(table_id)
        with table.lock:
            table.check()
            if table.served is not None:
                return table.served.table.record()
        raise StateError(not_playing(table.status))

    data = await run_in_threadpool(written)
    return JSONResponse(data, headers=attachment(f"tavola-{table_id}.json"))


@router.get("/api/tables/{table_id}/record.mat", summary="The match or session as a .mat file")
async def record_mat(table_id: str, server: ServerDep) -> Response:
    hub = server.hub

    def written() -> str:
        table = hub.get(table_id)
        with table.lock:
            table.check()
            engine = table.served.table if table.served is not None else None
            if not isinstance(engine, GameTable):
                raise StateError(_("a .mat file holds two-player play: a chouette's record is JSON"))
            return mat_text(engine.series)

    text = await run_in_threadpool(written)
    return PlainTextResponse(text, headers=attachment(f"tavola-{table_id}.mat"))
