"""The WebSocket ``/api/tables/{id}/live``: the state now and after every action, and chat (a chouette
side's own channel with ``"scope": "team"``); acting and chatting as a seat.

Every state comes as ``{"type": "state", "state": {...}, "log": {"start": 12, "entries": [...]}}``:
the state now, and the actions done since the last state this connection was sent (numbered from
``start``; none in the first state, and none for a connection far behind, which reads
``GET /api/tables/{id}/log``). A message's size does not grow with the session. A person's action and
the table's own actions after it (forced rolls and plays, the next game) come as one state.

A client sends ``{"type": "hello", "token": ...}`` to be a seat (the
cookie of the server's own pages does it at once), ``{"type": "act",
"action": {...}, "version": 12}``, ``{"type": "chat", "text": ...}`` and
``{"type": "ping"}``; an error comes back as ``{"type": "error", "error":
..., "status": 400}``.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocketState

from tavola.errors import TavolaError
from tavola.i18n import _
from tavola.schema import JsonTextError, parse_json
from tavola.web.hub import Connection, Hub, state_message
from tavola.web.limits import MAX_MESSAGE, RateLimits, TokenBucket, too_large, too_many
from tavola.web.live import LiveTable, SeatTakenUpError, TokenError, taken_up_again
from tavola.web.routes.chat import chat_as, team_chat_as
from tavola.web.routes.common import COOKIE, LOG, ServerDep, status
from tavola.web.wire import json_text

__all__ = ["router", "watch_table"]

router = APIRouter()


@router.websocket("/api/tables/{table_id}/live")
async def live(websocket: WebSocket, table_id: str, server: ServerDep) -> None:
    await watch_table(websocket, server.hub, table_id, server.message_rates)


async def watch_table(websocket: WebSocket, hub: Hub, table_id: str, rates: RateLimits) -> None:
    """The WebSocket: the state now and after every action, chat; acting and chatting as a seat."""
    await websocket.accept()
    try:
        table = await run_in_threadpool(hub.get, table_id)
    except TavolaError as error:
        await websocket.send_json({"type": "error", "error": str(error)})
        await websocket.close(code=4404)
        return
    connection = Connection(
        asyncio.get_running_loop(), address=websocket.client.host if websocket.client else "?"
    )
    connection.token = websocket.cookies.get(COOKIE)
    connection.viewer = table.seat_of_token(connection.token)
    bucket = TokenBucket(capacity=20, per_second=5)

    def hello() -> None:
        hub.watch(table_id, connection)
        try:
            connection.send(state_message(connection, hub.state(table, connection.viewer)))
        except TavolaError as error:
            connection.send({"type": "error", "error": str(error), "status": status(error)})
        except Exception:  # the state comes with the table's next action
            LOG.exception("table %s: its state could not be sent to a new connection", table_id)

    sender = asyncio.create_task(_send_queued(websocket, connection))
    try:
        await run_in_threadpool(hello)
        while websocket.application_state == WebSocketState.CONNECTED:  # else sending found it closed
            received = await websocket.receive()
            if received["type"] == "websocket.disconnect":
                break
            text = received.get("text")
            if not (bucket.allow() and rates.allow(connection.address)):
                reply: dict[str, Any] | None = {"type": "error", "error": too_many(), "status": 429}
            elif text is None:
                reply = {
                    "type": "error",
                    "error": _("messages are JSON text, not binary frames"),
                    "status": 400,
                }
            else:
                reply = await _answer(hub, table, connection, text)
            if reply is not None:
                connection.send(reply)
    except WebSocketDisconnect:
        pass
    finally:
        hub.unwatch(table_id, connection)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sender


async def _send_queued(websocket: WebSocket, connection: Connection) -> None:
    """Send what the connection is sent, until the client is gone (it may go in the middle of a message)."""
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            message = await connection.queue.get()
            await websocket.send_text(message if isinstance(message, str) else json_text(message))


async def _answer(hub: Hub, table: LiveTable, connection: Connection, text: str) -> dict[str, Any] | None:
    """What one message from a WebSocket does; the error to send back, if any."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        return {"type": "error", "error": too_large(), "status": 413}
    try:
        message = parse_json(text)
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "hello":
            token = message.get("token")
            seat = _seated(table.seat_of_token(token if isinstance(token, str) else None))
            connection.viewer, connection.token = seat, str(token)
            return state_message(connection, await run_in_threadpool(hub.state, table, seat))
        if kind == "act":
            _seated(connection.viewer)
            version = message.get("version")
            if version is not None and (type(version) is not int or version < 0):
                return {"type": "error", "error": "version: a whole number, the table's", "status": 400}
            await hub.call(_act, table, connection, message.get("action"), version)
            return None
        if kind == "chat":
            viewer = _still_seated(table, connection)
            words = message.get("text")
            text = words if isinstance(words, str) else ""
            scope = message.get("scope", "table")
            if scope == "team":
                await run_in_threadpool(team_chat_as, hub, table, viewer, text)
            elif scope == "table":
                await run_in_threadpool(chat_as, hub, table, viewer, text)
            else:
                return {"type": "error", "error": "scope: one of table, team", "status": 400}
            return None
        if kind == "ping":
            return {"type": "pong"}
        return {"type": "error", "error": "type: one of hello, act, chat, ping", "status": 400}
    except JsonTextError as error:
        return {"type": "error", "error": str(error), "status": 400}
    except TavolaError as error:
        return {"type": "error", "error": str(error), "status": status(error)}


def _act(table: LiveTable, connection: Connection, action: object, version: int | None) -> None:
    """Act as the connection's seat, if its token still counts (in a thread: the action reads the store
    where processes share it)."""
    try:  # the token checked once more with the table up to date, in the action's own catching up
        table.act(_still_seated(table, connection), action, version, token=connection.token)
    except SeatTakenUpError:
        connection.viewer = None
        raise


def _still_seated(table: LiveTable, connection: Connection) -> int:
    """The connection's seat, if its token is still the seat's: a seat taken up again on another device
    leaves this connection a spectator."""
    seat = table.seat_of_token(connection.token)
    if seat is None and connection.viewer is not None:
        connection.viewer = None
        raise SeatTakenUpError(taken_up_again())
    return _seated(seat)


def _seated(seat: int | None) -> int:
    if seat is None:
        raise TokenError(_("a seat acts only with its own token: sit down first, or send the seat's token"))
    return seat
