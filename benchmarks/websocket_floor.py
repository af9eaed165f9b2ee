"""The floor under ``tavola serve``'s figures: what a bare uvicorn WebSocket server does on this machine
with the same clients and the same pattern of messages, and no game, no database, no Tavola at all.

    python benchmarks/websocket_floor.py [--games 200] [--seconds 20] [--state-bytes 1270]

Each game is two connections to one room of the server, taking turns as players do: the seat to act
sends a short JSON message (an action), the server reads it and sends a message of ``--state-bytes``
(a state, written by msgspec as Tavola's are) to both connections of the room, and the other seat
acts on it. The clients are those of ``benchmarks/server_load.py`` (the ``websockets`` package, one
loopback address each), the server is started the way ``tavola serve`` starts uvicorn (no compression,
uvloop and httptools where installed). What it prints, actions a second and the latency from an
action sent to its state, is what ``server_load.py`` would print for a server whose every action cost
nothing: the most the machine gives before Tavola does any work.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import websockets
from rich.console import Console
from rich.table import Table

from throwaway_postgresql import free_port

SERVER = """
import sys
import msgspec
import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

ROOMS = {}
PADDING = "x" * int(sys.argv[2])
ENCODER = msgspec.json.Encoder()


async def room(websocket: WebSocket) -> None:
    await websocket.accept()
    members = ROOMS.setdefault(websocket.path_params["room"], [])
    members.append(websocket)
    try:
        while True:
            action = msgspec.json.decode(await websocket.receive_text())
            state = {"type": "state", "to_act": 1 - action["seat"], "padding": PADDING}
            text = ENCODER.encode(state).decode()
            for member in list(members):
                await member.send_text(text)
    except WebSocketDisconnect:
        members.remove(websocket)


app = Starlette(routes=[WebSocketRoute("/ws/{room}", room)])
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning", ws_per_message_deflate=False)
"""


async def _seat(url: str, seat: int, address: str, deadline: float, latencies: list[float]) -> None:
    async with websockets.connect(url, compression=None, max_size=None, local_addr=(address, 0)) as socket:
        sent: float | None = None
        if seat == 0:
            await asyncio.sleep(0.2)  # the other seat connects first
            sent = time.perf_counter()
            await socket.send(json.dumps({"type": "act", "seat": 0, "action": {"action": "roll"}}))
        while time.perf_counter() < deadline:
            try:
                message = json.loads(await asyncio.wait_for(socket.recv(), timeout=5))
            except TimeoutError:
                return
            if sent is not None:
                latencies.append(time.perf_counter() - sent)
                sent = None
            if message["to_act"] == seat:
                sent = time.perf_counter()
                await socket.send(json.dumps({"type": "act", "seat": seat, "action": {"action": "roll"}}))


async def _play(port: int, games: int, seconds: float) -> tuple[list[float], float]:
    latencies: list[float] = []
    began = time.perf_counter()
    deadline = began + seconds
    await asyncio.gather(
        *(
            _seat(
                f"ws://127.0.0.1:{port}/ws/{game}",
                seat,
                f"127.1.{(2 * game + seat) // 250}.{(2 * game + seat) % 250 + 1}",
                deadline,
                latencies,
            )
            for game in range(games)
            for seat in (1, 0)
        )
    )
    return latencies, time.perf_counter() - began


async def _ready(port: int, most: float = 30.0) -> None:
    deadline = time.monotonic() + most
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            _reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        await asyncio.sleep(0.05)
    raise RuntimeError("the bare server did not answer")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--state-bytes", type=int, default=1270, help="the size of a state message")
    args = parser.parse_args()
    gc.disable()  # the clients' own collections would pause them and count as the server's latency
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(port), str(args.state_bytes - 40)], start_new_session=True
    )
    try:
        asyncio.run(_ready(port))
        latencies, elapsed = asyncio.run(_play(port, args.games, args.seconds))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=15)
    figures = Table(title=f"a bare uvicorn WebSocket server: {args.games} games for {elapsed:.1f} s")
    figures.add_column("")
    figures.add_column("", justify="right")
    figures.add_row("actions answered a second", f"{len(latencies) / elapsed:.1f}")
    if latencies:
        figures.add_row("latency p50", f"{np.percentile(latencies, 50) * 1000:.0f} ms")
        figures.add_row("latency p99", f"{np.percentile(latencies, 99) * 1000:.0f} ms")
    Console().print(figures)


if __name__ == "__main__":
    main()
