"""The bot's searches hold up no other table: a hint or a bot's turn being searched leaves every other
table's requests answered, and `tavola serve` runs them in worker processes."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")

from fastapi.testclient import TestClient

from tavola.bot.evaluate import Evaluator
from tavola.bot.player import Bot, Choice
from tavola.web.app import create_app
from tavola.web.limits import RateLimits
from tavola.web.storage import open_database
from web_helpers import Server, auth, create, sit, state

EVALUATOR = Evaluator.untrained(hidden=8, seed=1)


class SlowBot(Bot):
    """A bot whose searches, once the test arms it, wait until the test lets them go, as a long search
    would."""

    armed = threading.Event()
    started = threading.Event()
    go = threading.Event()

    @staticmethod
    def _wait() -> None:
        if SlowBot.armed.is_set():
            SlowBot.started.set()
            SlowBot.go.wait(60)

    def hint(self, *args: Any, **kwargs: Any) -> list[Choice]:
        self._wait()
        return super().hint(*args, **kwargs)

    def play(self, *args: Any, **kwargs: Any) -> Choice:
        self._wait()
        return super().play(*args, **kwargs)


@pytest.fixture
def client(tmp_path: Path):  # type: ignore[no-untyped-def]
    for event in (SlowBot.armed, SlowBot.started, SlowBot.go):
        event.clear()
    engine = open_database(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    app = create_app(engine, lambda level: SlowBot(EVALUATOR, level), posts=RateLimits(1e9, 1e9))
    with TestClient(app) as client:
        yield client
    SlowBot.go.set()


def _in_background(work: Any) -> threading.Thread:
    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    return thread


def _other_table_answers(client: Any) -> None:
    """Another table is created, sat at and read while the search waits."""
    other = create(client, {"kind": "game", "series": "single", "seats": [{}, {}]})
    sit(client, other, 0, "Cy")
    sit(client, other, 1, "Di")
    assert state(client, other)["status"] == "live"


def test_a_hint_being_searched_holds_up_no_other_table(client) -> None:
    table = create(client, {"kind": "game", "series": "single", "hints": True, "seats": [{}, {}]})
    tokens = {0: sit(client, table, 0, "Ann"), 1: sit(client, table, 1, "Bob")}
    mover = state(client, table)["to_act"][0]
    SlowBot.armed.set()
    answers: list[int] = []
    asking = _in_background(
        lambda: answers.append(
            client.get(f"/api/tables/{table}/hint", headers=auth(tokens[mover])).status_code
        )
    )
    assert SlowBot.started.wait(30)
    checked = _in_background(lambda: _other_table_answers(client))
    checked.join(30)
    assert not checked.is_alive(), "another table waited on the hint's search"
    assert state(client, table, tokens[mover])["to_act"] == [mover]  # its own table is read meanwhile too
    SlowBot.go.set()
    asking.join(30)
    assert answers == [200]


def test_a_bots_turn_being_searched_holds_up_no_other_table(client) -> None:
    table = create(client, {"kind": "game", "series": "money", "seats": [{}, {"bot": "expert"}]})
    token = sit(client, table, 0, "Ann")
    SlowBot.armed.set()  # from now on the bot's searches wait: the bot's next turn comes after Ann's

    def play_until_the_bot_moves() -> None:
        for _ in range(20):
            seen = state(client, table, token)
            if seen["to_act"] != [0]:
                return
            legal = seen["legal_actions"]
            action = next((a for a in legal if a["action"] in ("play", "roll")), legal[0])
            client.post(f"/api/tables/{table}/actions", json=action, headers=auth(token))

    playing = _in_background(play_until_the_bot_moves)
    assert SlowBot.started.wait(60)
    checked = _in_background(lambda: _other_table_answers(client))
    checked.join(30)
    assert not checked.is_alive(), "another table waited on the bot's search"
    SlowBot.go.set()
    playing.join(60)


def test_tavola_serve_searches_in_worker_processes(tmp_path: Path) -> None:
    server = Server(tmp_path / "server.sqlite3", options=("--search-workers", "1"))
    try:
        options = {"kind": "game", "series": "single", "hints": True, "seats": [{}, {"bot": "expert"}]}
        table = server.client.post("/api/tables", json=options).json()["id"]
        token = server.client.post(f"/api/tables/{table}/seats/0", json={"name": "Ann"}).json()["token"]
        for _ in range(30):  # play on until a hint can be asked, the bot's turns made by the workers
            seen = server.state(table, token)
            if seen["may_hint"] and seen["game"]["phase"] == "move":
                break
            legal = seen["legal_actions"]
            action = next((a for a in legal if a["action"] in ("play", "roll")), legal[0])
            server.client.post(f"/api/tables/{table}/actions", json=action, headers=auth(token))
        hint = server.client.get(f"/api/tables/{table}/hint", headers=auth(token))
        assert hint.status_code == 200, hint.text
        assert hint.json()["plays"]
        workers = [line for line in _children(server.process.pid) if "multiprocessing" in line]
        assert workers, "no worker process"
    finally:
        server.kill()


def _children(pid: int) -> list[str]:
    """The command lines of the processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        parent = next((line.split()[1] for line in status.splitlines() if line.startswith("PPid:")), "")
        if parent == str(pid):
            found.append(command)
    return found


def test_a_search_pool_whose_worker_died_answers_from_a_new_one() -> None:
    import os
    import signal

    from tavola.dice import Dice
    from tavola.position import Position
    from tavola.web.searches import SearchPool

    pool = SearchPool(1)
    try:
        assert pool.call("beginner", "hint", Position.start(), Dice(3, 1))
        for process in list(pool._executor._processes.values()):
            os.kill(process.pid, signal.SIGKILL)
        answer = pool.call("beginner", "hint", Position.start(), Dice(6, 5))
        assert answer[0].play.dice == Dice(6, 5)
    finally:
        pool.close()
