"""A client that goes away while the server sends it a state ends its WebSocket quietly."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")

from fastapi import WebSocketDisconnect
from starlette.websockets import WebSocketState

from tavola.web.hub import Hub
from tavola.web.limits import RateLimits
from tavola.web.options import read_options
from tavola.web.routes.live import watch_table
from tavola.web.storage import Store, open_database


class ClientGoneWhileSent:
    """A WebSocket as the server sees it when its client goes: the message it was sending fails, the
    connection is marked closed, and a message the client sent just before going is still read."""

    def __init__(self) -> None:
        self.application_state = WebSocketState.CONNECTING
        self.query_params: dict[str, str] = {}
        self.headers: dict[str, str] = {}
        self.cookies: dict[str, str] = {}
        self.client = None
        self.gone = asyncio.Event()
        self.sent_after_gone = 0

    async def accept(self) -> None:
        self.application_state = WebSocketState.CONNECTED

    async def send_json(self, message: object) -> None:
        await self.send_text(str(message))

    async def send_text(self, message: str) -> None:
        if self.gone.is_set():
            self.sent_after_gone += 1
        self.application_state = WebSocketState.DISCONNECTED
        self.gone.set()
        raise WebSocketDisconnect(code=1006)

    async def receive(self) -> dict[str, str]:
        if self.application_state != WebSocketState.CONNECTED:
            raise RuntimeError('WebSocket is not connected. Need to call "accept" first.')
        await self.gone.wait()
        return {"type": "websocket.receive", "text": '{"type": "ping"}'}


def test_a_client_gone_while_a_state_is_sent_ends_the_websocket_quietly(tmp_path: Path) -> None:
    hub = Hub(Store(open_database(f"sqlite:///{tmp_path / 'server.sqlite3'}")), make_bot=lambda level: None)
    table = hub.create(read_options({"kind": "game", "series": "single", "seats": [{}, {}]}))
    client = ClientGoneWhileSent()
    rates = RateLimits(capacity=30, per_second=10)
    asyncio.run(asyncio.wait_for(watch_table(client, hub, table.id, rates), timeout=30))
    assert client.gone.is_set()
    assert client.sent_after_gone == 0
    assert hub.watchers.get(table.id, set()) == set()
