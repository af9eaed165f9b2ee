"""kill -9 at any moment loses nothing: the server in its own process, killed and started again."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")

import httpx
from websockets.sync.client import connect

from web_helpers import Server, choose, log_of


def test_kill_9_at_any_moment_loses_nothing(tmp_path: Path) -> None:
    database = tmp_path / "server.sqlite3"
    server = Server(database)
    try:
        created = server.client.post(
            "/api/tables", json={"kind": "game", "series": "match", "length": 5, "seats": [{}, {}]}
        )
        table = created.json()["id"]
        tokens = {}
        for seat, name in enumerate(("Ann", "Bob")):
            tokens[seat] = server.client.post(
                f"/api/tables/{table}/seats/{seat}", json={"name": name}
            ).json()["token"]
        for _ in range(10):
            server.act_once(table, tokens)
        seen = server.state(table, tokens[0])
        seat = seen["to_act"][0]
        with connect(f"ws://127.0.0.1:{server.port}/api/tables/{table}/live", max_size=2**24) as websocket:
            json.loads(websocket.recv())
            websocket.send(json.dumps({"type": "hello", "token": tokens[seat]}))
            mine = json.loads(websocket.recv())["state"]
            websocket.send(json.dumps({"type": "act", "action": choose(mine["legal_actions"])}))
            while json.loads(websocket.recv())["state"]["version"] <= mine["version"]:
                pass
        before = server.state(table, tokens[0])
        dice_before = server.client.get(f"/api/tables/{table}/dice").json()
        server.kill()

        server = Server(database)
        after = server.state(table, tokens[0])
        assert after == before
        assert server.client.get(f"/api/tables/{table}/dice").json() == dice_before

        acknowledged: list[dict[str, Any]] = []
        logs: list[list[dict[str, Any]]] = []
        stop = threading.Event()

        def keep_playing() -> None:
            try:
                while not stop.is_set():
                    acknowledged.append(server.act_once(table, tokens))
                    logs.append(log_of(server.client, table))
            except (httpx.TransportError, AssertionError):
                pass  # the server is gone

        player = threading.Thread(target=keep_playing)
        player.start()
        while len(acknowledged) < 15:
            time.sleep(0.01)
        server.kill()  # in the middle of whatever it was doing
        stop.set()
        player.join(timeout=60)

        server = Server(database)
        last = acknowledged[-1]
        again = server.state(table, tokens[last["you"]])
        assert again["version"] >= last["version"]
        shown = logs[-1]  # the last log read before the kill: every action of it was acknowledged
        assert log_of(server.client, table)[: len(shown)] == shown
        played_on = server.act_once(table, tokens)
        assert played_on["version"] > again["version"]
    finally:
        server.kill()
