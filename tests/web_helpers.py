"""What the web tests share: a server in the test's process, seats, and a player who always plays on."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")

import httpx
from fastapi.testclient import TestClient

from tavola.web.app import create_app
from tavola.web.limits import RateLimits
from tavola.web.storage import open_database

PREFERRED = ("play", "roll", "take", "accept", "commit")
"""What a test player does first when it may: it never doubles nor resigns, so games end by bearing off."""


def client_on(path: Path, posts: RateLimits | None = None) -> TestClient:
    """A client of a server on the SQLite file at ``path`` (the server rebuilds its tables on entering),
    which lets the tests post as fast as they like unless given ``posts``."""
    limits = posts or RateLimits(capacity=1e9, per_second=1e9)
    return TestClient(create_app(open_database(f"sqlite:///{path}"), posts=limits))


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: TestClient, options: dict[str, Any]) -> str:
    response = client.post("/api/tables", json=options)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def sit(client: TestClient, table: str, seat: int, name: str) -> str:
    response = client.post(f"/api/tables/{table}/seats/{seat}", json={"name": name})
    assert response.status_code == 200, response.text
    client.cookies.clear()  # each test names its seat by its token, not by the last cookie set
    return str(response.json()["token"])


def state(client: TestClient, table: str, token: str | None = None) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table}", headers=auth(token) if token else {})
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def log_of(client: Any, table: str) -> list[dict[str, Any]]:
    """The table's whole log, read a page at a time from ``GET /api/tables/{id}/log``."""
    entries: list[dict[str, Any]] = []
    while True:
        response = client.get(f"/api/tables/{table}/log", params={"start": len(entries)})
        assert response.status_code == 200, response.text
        page = response.json()
        entries += page["entries"]
        if len(entries) >= page["version"] or not page["entries"]:
            return entries


def record_of(client: Any, table: str) -> dict[str, Any]:
    """Tavola's record of the table's play, from ``GET /api/tables/{id}/record.json``."""
    response = client.get(f"/api/tables/{table}/record.json")
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def choose(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The action a test player takes among ``legal``."""
    for name in PREFERRED:
        for action in legal:
            if action["action"] == name:
                return action
    return legal[0]


def play_on(client: TestClient, table: str, tokens: dict[int, str], until: Any, most: int = 2000) -> int:
    """Act for the seats in ``tokens`` until ``until(state)``; how many actions it took."""
    for count in range(most):
        seen = state(client, table)
        if until(seen):
            return count
        assert seen["status"] == "live", seen["status"]
        seat = next(seat for seat in seen["to_act"] if seat in tokens)
        mine = state(client, table, tokens[seat])
        response = client.post(
            f"/api/tables/{table}/actions", json=choose(mine["legal_actions"]), headers=auth(tokens[seat])
        )
        assert response.status_code == 200, response.text
    raise AssertionError(f"still playing after {most} actions")


def resign_when_able(
    client: TestClient, table: str, tokens: dict[int, str], loser: int, kind: str = "single"
) -> None:
    """Play the table (the bot's turns waited for) until seat ``loser`` can resign (``kind``), and the other
    accepts; the table finished."""
    resign, accept = {"action": "resign", "kind": kind}, {"action": "accept"}
    for _step in range(300):
        seen = state(client, table)
        if seen["status"] == "finished":
            return
        ours = [seat for seat in seen["to_act"] if seat in tokens]
        if not ours:
            time.sleep(0.02)  # the bot's turn
            continue
        legal = state(client, table, tokens[ours[0]])["legal_actions"]
        action = (
            resign if ours[0] == loser and resign in legal else accept if accept in legal else choose(legal)
        )
        acted = client.post(f"/api/tables/{table}/actions", json=action, headers=auth(tokens[ours[0]]))
        assert acted.status_code == 200, acted.text
    raise AssertionError("the match did not end")


ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """``tavola serve`` on a loopback port (a free one unless given) and a database (a SQLite file, or a
    URL), in a process of its own."""

    def __init__(
        self,
        database: Path | str,
        port: int | None = None,
        options: tuple[str, ...] = ("--search-workers", "1"),
    ) -> None:
        self.port = port or free_port()
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
            f"sqlite:///{database}" if isinstance(database, Path) else database,
            *options,
        ]
        self.process = subprocess.Popen(  # a session of its own: the kill reaches its every process
            command,
            env=environment,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
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
        """kill -9 of the server and every process it started: no clean-up of any kind; what the server
        wrote to its standard error is kept in :attr:`said`."""
        os.killpg(self.process.pid, signal.SIGKILL)  # with the processes it started (--workers)
        self.process.wait(timeout=30)
        self.client.close()
        if self.process.stderr is not None:
            self.said = self.process.stderr.read().decode(errors="replace")
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


def serve_to_the_end(database: Path, timeout: float = 90) -> subprocess.CompletedProcess[str]:
    """``tavola serve`` on the SQLite file at ``database``, in a process of its own, waited for until it
    exits (for a server that refuses to start): its exit status and its output."""
    paths = [str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(path for path in paths if path)}
    command = [sys.executable, "-m", "tavola", "serve", "--port", str(free_port())]
    return subprocess.run(
        [*command, "--database", f"sqlite:///{database}"],
        env=environment,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def screenshot(page: Any, folder: Path, name: str, *, whole: bool = False) -> Path:
    """A picture of ``page`` in ``folder`` as ``name``.png, copied to $TAVOLA_ARTEFACTS where it is set:
    the window as the player sees it (what is out of view is not in it), or ``whole``, the whole page."""
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=whole)
    artefacts = os.environ.get("TAVOLA_ARTEFACTS")
    if artefacts:
        Path(artefacts).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(artefacts) / path.name)
    return path


class DroppingLoop:
    """Stands for a connection's event loop in a test of the hub alone: what it is handed is dropped."""

    def call_soon_threadsafe(self, *_: Any) -> None:
        pass
