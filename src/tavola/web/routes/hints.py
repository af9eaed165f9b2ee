"""The bot's advice: ``GET /api/tables/{id}/hint``, at tables that allow hints, with a seat's token
(:mod:`tavola.web.hints`); rated per seat and per client address."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool

from tavola.bot.advice import Advice, Question
from tavola.bot.levels import HINT_LEVEL
from tavola.i18n import _
from tavola.web.hints import hint_json, hint_question
from tavola.web.routes.common import ServerDep, TooManyError, token

__all__ = ["router"]

router = APIRouter()


@router.get(
    "/api/tables/{table_id}/hint",
    summary="The bot's advice on what the seat decides now (a seat's token needed)",
)
async def hint(table_id: str, request: Request, server: ServerDep) -> dict[str, Any]:
    given = token(request, table_id)
    hub = server.hub

    def asked() -> Question:
        table = hub.get(table_id)
        with table.lock:
            table.check()
            seat = table.seat_of_token(given)
            question = hint_question(table, seat)
        address = request.client.host if request.client else "?"
        if not (server.hint_rates.allow(f"{table_id}/{seat}") and server.hint_addresses.allow(address)):
            raise TooManyError(_("too many hints: wait a moment and ask again"))
        return question

    question = await run_in_threadpool(asked)
    if server.searches is not None:
        advice: Advice = await server.searches.run(HINT_LEVEL, "advise", question)
    else:
        advice = await run_in_threadpool(hub.hint_bot().advise, question)
    return hint_json(advice)
