"""Chat: ``POST /api/tables/{id}/chat`` as a seat, ``GET /api/tables/{id}/chat`` the last messages; and
the messages a WebSocket sends, to the table or to a chouette side's own channel."""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from tavola.i18n import _
from tavola.schema import read_shape
from tavola.web.hub import Hub
from tavola.web.limits import MAX_CHAT
from tavola.web.live import LiveTable, StateError
from tavola.web.routes.common import BodyError, ServerDep, body_doc, json_body, seat_for, token
from tavola.web.storage import ChatRow

__all__ = ["ChatRequest", "chat_as", "router", "team_chat_as"]

router = APIRouter()


class ChatRequest(BaseModel):
    """A chat message from a seat."""

    text: str


@router.post(
    "/api/tables/{table_id}/chat",
    summary="Say something at the table (a seat's token needed)",
    openapi_extra=body_doc(ChatRequest),
)
async def chat(table_id: str, request: Request, server: ServerDep) -> dict[str, Any]:
    message = read_shape(ChatRequest, await json_body(request), BodyError, "the body")
    given = token(request, table_id)
    hub = server.hub

    def said() -> dict[str, Any]:
        table = hub.get(table_id)
        return chat_as(hub, table, seat_for(table, given), message.text)

    return await run_in_threadpool(said)


@router.get("/api/tables/{table_id}/chat", summary="The last chat messages")
async def chat_log(table_id: str, server: ServerDep) -> dict[str, Any]:
    hub = server.hub

    def messages() -> dict[str, Any]:
        table = hub.get(table_id)
        return {"messages": [_chat_json(table, row) for row in hub.store.chat(table_id)]}

    return await run_in_threadpool(messages)


def chat_as(hub: Hub, table: LiveTable, seat: int, text: str) -> dict[str, Any]:
    """Store what ``seat`` says and send it to everyone watching; the message as JSON."""
    row = hub.store_chat(table.id, seat, _chat_text(text))
    message = _chat_json(table, row)
    hub.broadcast(table.id, {"type": "chat", "message": message})
    return message


def team_chat_as(hub: Hub, table: LiveTable, seat: int, text: str) -> None:
    """A message on a chouette side's own channel: sent to the connections of that side's seats only,
    and not stored (the table's chat log is everyone's)."""
    text = _chat_text(text)
    with table.lock:
        members = table.side_of_seat(seat)
        if not members:
            raise StateError(_("the team's channel is for the players of a chouette game in play"))
        message = {
            "type": "chat",
            "message": {
                "seat": seat,
                "name": table.seats[seat].name,
                "text": text,
                "time": datetime.now(UTC).isoformat(),
                "scope": "team",
            },
        }
    hub.broadcast(table.id, message, seats=members)


def _chat_json(table: LiveTable, row: ChatRow) -> dict[str, Any]:
    return {
        "seat": row.seat,
        "name": table.seats[row.seat].name,
        "text": row.text,
        "time": row.created.isoformat(),
    }


def _chat_text(text: str) -> str:
    """A chat message's text, stripped, or refused when empty, too long, or holding a control character
    other than a line break or a tab."""
    text = text.strip()
    if not 1 <= len(text) <= MAX_CHAT:
        raise BodyError(_("a chat message has 1 to {most} characters").format(most=MAX_CHAT))
    for character in text:
        if character not in "\n\t" and unicodedata.category(character) in ("Cc", "Cs"):
            code = f"U+{ord(character):04X}"
            raise BodyError(_("a chat message cannot hold the character {code}").format(code=code))
    return text
