"""Sitting down: ``POST /api/tables/{id}/seats/{index}`` gives the seat's token, and a cookie holding it."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from tavola.schema import read_shape
from tavola.web.routes.common import COOKIE, LOG, BodyError, ServerDep, body_doc, json_body

__all__ = ["SeatRequest", "router"]

router = APIRouter()


class SeatRequest(BaseModel):
    """Who sits down: their name (or the one the table reserved for the seat)."""

    name: str | None = None


@router.post(
    "/api/tables/{table_id}/seats/{index}",
    summary="Take a seat: its token comes back",
    openapi_extra=body_doc(SeatRequest),
)
async def take_seat(table_id: str, index: int, request: Request, server: ServerDep) -> Response:
    seat = read_shape(SeatRequest, await json_body(request), BodyError, "the body")
    hub = server.hub

    def taken() -> dict[str, Any]:
        table = hub.get(table_id)
        token = table.take_seat(index, seat.name)
        try:
            seen: dict[str, Any] | None = hub.state(table, index)
        except Exception:  # the seat is stored and the token is theirs: the state comes later
            LOG.warning("table %s: seat %s taken, its state not readable now", table_id, index)
            seen = None
        return {"seat": index, "token": token, "state": seen}

    result = await run_in_threadpool(taken)
    response = JSONResponse(result)
    response.set_cookie(
        COOKIE, result["token"], path=f"/api/tables/{table_id}", httponly=True, samesite="strict"
    )
    return response
