"""What the web tests share: a server in the test's process, seats, and a player who always plays on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")

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
