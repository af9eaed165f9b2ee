"""kill -9 at any moment loses nothing: the server in its own process, killed and started again."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")

import httpx
from websockets.sync.client import connect

from web_helpers import choose

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """``tavola serve`` on a free loopback port and a SQLite file, in a process of its own."""

    def __init__(self, database: Path) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        paths = [str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]
        environment = {**os.environ, "PYTHONPATH": os.pathsep.join(path for path in paths if path)}
        command = [
            sys.executable,
            "-m",
            "tavola",
            "serve",
            "--port",
            str(self.port),
            "--database",
            f"sqlite:///{database}",
        ]
        self.process = subprocess.Popen(
            command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        self.client = httpx.Client(base_url=self.url, timeout=30)
        deadline = time.monotonic() + 90
        while True:
            if self.process.poll() is not None:
                raise AssertionError(f"tavola serve stopped: {self.process.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
            try:
                if self.client.get("/api/tables").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "tavola serve did not start in 90 seconds"
            time.sleep(0.1)

    def kill(self) -> None:
        """kill -9: no clean-up of any kind."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        self.client.close()
        if self.process.stderr is not None:
            self.process.stderr.close()

    def state(self, table: str, token: str) -> dict[str, Any]:
        response = self.client.get(f"/api/tables/{table}", headers={"Authorization": f"Bearer {token}"})
        assert response.status_code == 200, response.text
        return dict(response.json())

    def act_once(self, table: str, tokens: dict[int, str]) -> dict[str, Any]:
        """One action by the seat to act (the server answers with the state it stored)."""
        seen = self.state(table, tokens[0])
        seat = seen["to_act"][0]
        mine = self.state(table, tokens[seat])
        response = self.client.post(
            f"/api/tables/{table}/actions",
            json=choose(mine["legal_actions"]),
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
        assert response.status_code == 200, response.text
        return dict(response.json())


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
        stop = threading.Event()

        def keep_playing() -> None:
            try:
                while not stop.is_set():
                    acknowledged.append(server.act_once(table, tokens))
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
        assert again["log"][: len(last["log"])] == last["log"]
        assert again["record"]["games"][0]["log"][:3] == last["record"]["games"][0]["log"][:3]
        played_on = server.act_once(table, tokens)
        assert played_on["version"] > again["version"]
    finally:
        server.kill()
