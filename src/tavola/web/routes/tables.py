"""The lobby and the tables: ``GET /api/tables``, ``POST /api/tables`` and ``GET /api/tables/{id}``.

The lobby lists no open table with seats kept for accounts (a tournament's match): nobody else may sit
there, and it is found on the tournament's page."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool

from tavola.web.live import DamagedTableError, StorageError
from tavola.web.options import TableOptions, read_options
from tavola.web.routes.common import LOG, ServerDep, body_doc, json_body, token
from tavola.web.state import table_summary

__all__ = ["router"]

router = APIRouter()


@router.get("/api/tables", summary="The lobby: open and live tables")
async def lobby(server: ServerDep, status: str = "open,live") -> dict[str, Any]:
    wanted = [part for part in status.split(",") if part in ("open", "live", "finished")]
    hub = server.hub

    def listed() -> list[dict[str, Any]]:
        summaries = []
        for row in hub.store.tables(wanted, limit=200):
            try:
                table = hub.get(row.id)
                with table.lock:
                    table.check()
                    if table.status == "open" and any(seat.account for seat in table.options.seats):
                        continue  # its seats kept for accounts (a tournament's): nobody else sits there
                    summaries.append(table_summary(table))
            except Exception as error:  # set aside, or not readable now: not listed
                if not isinstance(error, DamagedTableError | StorageError):
                    LOG.warning("table %s left out of the lobby: %r", row.id, error)
                continue
        return summaries

    return {"tables": await run_in_threadpool(listed)}


@router.post("/api/tables", status_code=201, summary="Create a table", openapi_extra=body_doc(TableOptions))
async def create(request: Request, server: ServerDep) -> Any:
    data = await json_body(request)
    hub = server.hub

    def made() -> dict[str, Any]:
        return hub.state(hub.create(read_options(data)), None)

    return await run_in_threadpool(made)


@router.get("/api/tables/{table_id}", summary="The table, as a seat (with its token) or a spectator sees it")
async def state(table_id: str, request: Request, server: ServerDep) -> dict[str, Any]:
    hub = server.hub

    def seen() -> dict[str, Any]:
        table = hub.get(table_id)
        return hub.state(table, table.seat_of_token(token(request, table_id)))

    return await run_in_threadpool(seen)
