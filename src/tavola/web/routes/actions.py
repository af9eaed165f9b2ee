"""Acting: ``POST /api/tables/{id}/actions`` with a seat's token (:mod:`tavola.web.actions`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict
from starlette.concurrency import run_in_threadpool

from tavola.web.hub import Hub
from tavola.web.routes.common import ServerDep, body_doc, json_body, seat_for, token

__all__ = ["ActionRequest", "router"]

router = APIRouter()


class ActionRequest(BaseModel):
    """An action, as :mod:`tavola.web.actions` writes it: ``{"action": "roll"}``,
    ``{"action": "play", "play": "8/5 6/5"}``, ``{"action": "double", "against": ["Ben"]}``..."""

    model_config = ConfigDict(extra="allow")
    action: str


@router.post(
    "/api/tables/{table_id}/actions",
    summary="Act for a seat (its token needed)",
    openapi_extra=body_doc(ActionRequest),
)
async def act(
    table_id: str, request: Request, server: ServerDep, version: int | None = None
) -> dict[str, Any]:
    data = await json_body(request)
    given = token(request, table_id)
    return await run_in_threadpool(_acted, server.hub, table_id, given, data, version)


def _acted(hub: Hub, table_id: str, given: str | None, data: object, version: int | None) -> dict[str, Any]:
    table = hub.get(table_id)
    seat = seat_for(table, given)
    table.act(seat, data, version, token=given)
    return hub.state(table, seat)
