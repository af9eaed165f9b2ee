"""A table's memory never runs ahead of what is stored: a write that fails leaves every connection
looking at the stored table, and one table that no longer replays never stops the server."""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")

from websockets.sync.client import ClientConnection, connect

from tavola.web.live import LiveTable, StorageError
from tavola.web.options import read_options
from tavola.web.state import table_state
from tavola.web.storage import Store, open_database
from web_helpers import Server, choose, sit

LOCKED_FOR = 7.0
"""How long another program holds the database's write lock: past SQLite's 5 s wait for it."""


def _hold_write_lock(path: Path, seconds: float) -> threading.Thread:
    """Another program holding SQLite's write lock on ``path`` for ``seconds`` (started and running when
    this returns)."""
    held = threading.Event()

    def hold() -> None:
        connection = sqlite3.connect(path, timeout=30, isolation_level=None)
        connection.execute("BEGIN EXCLUSIVE")
        held.set()
        time.sleep(seconds)
        connection.execute("ROLLBACK")
        connection.close()

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    assert held.wait(30)
    return holder


def _socket(server: Server, table: str, token: str, stack: contextlib.ExitStack) -> ClientConnection:
    """A seat's WebSocket, closed with ``stack``, said hello to, its first state as the seat read."""
    address = f"ws://127.0.0.1:{server.port}/api/tables/{table}/live"
    websocket = stack.enter_context(connect(address, open_timeout=30))
    websocket.send(json.dumps({"type": "hello", "token": token}))
    while True:
        message = json.loads(websocket.recv(timeout=30))
        if message["type"] == "state" and message["state"]["you"] is not None:
            return websocket


def _replies(websocket: ClientConnection, seconds: float) -> list[dict[str, Any]]:
    """Every message the socket is sent within ``seconds``."""
    received = []
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            received.append(json.loads(websocket.recv(timeout=left)))
        except TimeoutError:
            break
    return received


def test_a_failed_write_leaves_no_connection_acting_on_what_was_never_stored(tmp_path: Path) -> None:
    database = tmp_path / "server.sqlite3"
    server = Server(database)
    stack = contextlib.ExitStack()
    try:
        created = server.client.post(
            "/api/tables", json={"kind": "game", "series": "single", "seats": [{}, {}]}
        )
        table = created.json()["id"]
        tokens = {0: sit(server.client, table, 0, "Ann"), 1: sit(server.client, table, 1, "Bob")}
        seen = server.state(table, tokens[0])
        mover = seen["to_act"][0]
        waiting = 1 - mover
        mine = server.state(table, tokens[mover])
        assert mine["game"]["phase"] == "move"  # the opening roll is the table's
        play = next(action for action in mine["legal_actions"] if action["action"] == "play")
        sockets = {seat: _socket(server, table, tokens[seat], stack) for seat in (0, 1)}
        holder = _hold_write_lock(database, LOCKED_FOR)
        answer = server.client.post(
            f"/api/tables/{table}/actions?lang=en",
            json=play,
            headers={"Authorization": f"Bearer {tokens[mover]}"},
        )
        assert answer.status_code == 503, answer.text
        assert "could not store" in answer.json()["error"]
        # The waiting player's old connection rolls as if the play had been made: refused, out of turn.
        sockets[waiting].send(json.dumps({"type": "act", "action": {"action": "roll"}}))
        refused = [message for message in _replies(sockets[waiting], 1.0) if message["type"] == "error"]
        assert refused
        assert "R21" in refused[0]["error"]
        holder.join(30)
        after = server.state(table, tokens[mover])
        assert (after["version"], after["to_act"]) == (mine["version"], [mover])
        assert after["legal_actions"] == mine["legal_actions"]
        # The mover plays again once the database is free, on the connection it has.
        sockets[mover].send(json.dumps({"type": "act", "action": play, "version": mine["version"]}))
        states = [message for message in _replies(sockets[mover], 2.0) if message["type"] == "state"]
        assert states[-1]["state"]["version"] == mine["version"] + 1
    finally:
        stack.close()
        server.kill()
    restarted = Server(database)
    try:
        again = restarted.state(table, tokens[waiting])
        assert again["version"] == mine["version"] + 1
        assert again["to_act"] == [waiting]
    finally:
        restarted.kill()


def test_C3_a_chouette_answer_that_fails_to_store_keeps_the_box_waiting_for_it(
    tmp_path: Path,
) -> None:
    database = tmp_path / "server.sqlite3"
    server = Server(database)
    stack = contextlib.ExitStack()
    try:
        options = {"kind": "chouette", "settings": {"cubes": "multi"}, "seats": [{}, {}, {}]}
        table = server.client.post("/api/tables", json=options).json()["id"]
        names = ["Ann", "Bob", "Cy"]
        tokens = {seat: sit(server.client, table, seat, name) for seat, name in enumerate(names)}
        seat_of = {name: seat for seat, name in enumerate(names)}
        for _ in range(60):  # to the box's first chance to double both members
            seen = server.state(table, tokens[0])
            game = seen["game"]
            box = seat_of[game["box"]]
            if box in seen["to_act"] and game["phase"] == "roll" and game["side_on_roll"] == 0:
                mine = server.state(table, tokens[box])
                doubles = [action for action in mine["legal_actions"] if action["action"] == "double"]
                if doubles:
                    break
            acting = seen["to_act"][0]
            legal = server.state(table, tokens[acting])["legal_actions"]
            wanted = next((a for a in legal if a["action"] in ("play", "roll", "commit")), legal[0])
            server.client.post(
                f"/api/tables/{table}/actions",
                json=wanted,
                headers={"Authorization": f"Bearer {tokens[acting]}"},
            )
        else:
            raise AssertionError("the box never came to double")
        members = [seat_of[name] for name in game["team"]]
        answer = server.client.post(
            f"/api/tables/{table}/actions",
            json={"action": "double", "against": []},
            headers={"Authorization": f"Bearer {tokens[box]}"},
        )
        assert answer.status_code == 200, answer.text
        shown = {seat: server.state(table, tokens[seat]) for seat in tokens}
        take = {
            seat: next(a for a in shown[seat]["legal_actions"] if a["action"] == "take") for seat in members
        }
        sockets = {seat: _socket(server, table, tokens[seat], stack) for seat in tokens}
        holder = _hold_write_lock(database, LOCKED_FOR)
        failed = server.client.post(
            f"/api/tables/{table}/actions",
            json=take[members[0]],
            headers={"Authorization": f"Bearer {tokens[members[0]]}"},
        )
        assert failed.status_code == 503, failed.text
        holder.join(30)
        # The other member takes at the version it was shown: the table is at that version still.
        sockets[members[1]].send(
            json.dumps({"type": "act", "action": take[members[1]], "version": shown[members[1]]["version"]})
        )
        _replies(sockets[members[1]], 1.0)
        # The box's old connection rolls: the first member has not answered, so it may not (C3).
        sockets[box].send(json.dumps({"type": "act", "action": {"action": "roll"}}))
        errors = [message for message in _replies(sockets[box], 1.0) if message["type"] == "error"]
        assert errors
        now = server.state(table, tokens[members[0]])
        assert now["version"] == shown[members[0]]["version"] + 1
        assert take[members[0]] in now["legal_actions"]
    finally:
        stack.close()
        server.kill()
    restarted = Server(database)
    try:
        assert restarted.state(table, tokens[members[0]])["version"] == now["version"]
    finally:
        restarted.kill()


def test_a_table_whose_log_no_longer_replays_is_set_aside_and_the_others_served(tmp_path: Path) -> None:
    database = tmp_path / "server.sqlite3"
    server = Server(database)
    try:
        made = []
        for _ in range(2):
            created = server.client.post(
                "/api/tables", json={"kind": "game", "series": "money", "seats": [{}, {}]}
            )
            table = created.json()["id"]
            tokens = {0: sit(server.client, table, 0, "Ann"), 1: sit(server.client, table, 1, "Bob")}
            server.act_once(table, tokens)
            made.append((table, tokens))
    finally:
        server.kill()
    broken, fine = made
    with sqlite3.connect(database) as connection:  # the first action now comes from the other seat
        connection.execute(
            "UPDATE tavola_actions SET seat = 1 - seat WHERE table_id = ? AND number = 0", (broken[0],)
        )
    restarted = Server(database)
    try:
        answer = restarted.client.get(f"/api/tables/{broken[0]}?lang=en")
        assert answer.status_code == 500
        said = answer.json()["error"]
        assert said.startswith(f"table {broken[0]} is set aside: its stored action 0")
        assert "R21" in said
        assert restarted.state(fine[0], fine[1][0])["version"] >= 1
        lobby = restarted.client.get("/api/tables").json()["tables"]
        assert [summary["id"] for summary in lobby] == [fine[0]]
    finally:
        restarted.kill()
    logged = [line for line in restarted.said.splitlines() if broken[0] in line]
    assert len(logged) == 1, logged


# --- every path that acts, its writes failing at random ------------------------------------------


class FlakyStore(Store):
    """A store whose writes of actions fail at random, as a database locked by another program does."""

    def __init__(self, store: Store, rng: random.Random, chance: float) -> None:
        super().__init__(store.engine)
        self.rng = rng
        self.chance = chance
        self.failures = 0

    def _maybe_fail(self) -> None:
        if self.rng.random() < self.chance:
            self.failures += 1
            raise sqlite3.OperationalError("database is locked")

    def append_actions(
        self,
        table_id: str,
        first: int,
        actions: Any,
        *,
        revision: int,
        **more: Any,  # the clocks, and the end of the table with its writes
    ) -> int:
        self._maybe_fail()
        return super().append_actions(table_id, first, actions, revision=revision, **more)

    def set_status(self, table_id: str, status: str, *, revision: int, **more: Any) -> int:
        self._maybe_fail()
        return super().set_status(table_id, status, revision=revision, **more)


@pytest.mark.parametrize(
    "options",
    [
        {"kind": "game", "series": "match", "length": 3, "seats": [{}, {"bot": "beginner"}]},
        {"kind": "game", "series": "money", "seats": [{}, {}]},
        {"kind": "chouette", "seats": [{}, {}, {"bot": "beginner"}]},
    ],
    ids=["match-with-a-bot", "money-session", "chouette-with-a-bot"],
)
def test_writes_failing_at_random_never_leave_a_table_ahead_of_its_store(
    tmp_path: Path, options: dict[str, Any]
) -> None:
    from tavola.bot.evaluate import Evaluator
    from tavola.bot.player import Bot

    evaluator = Evaluator.untrained(hidden=8, seed=1)

    def make_bot(level: str) -> Bot:
        return Bot(evaluator, level, rng=0)

    store = Store(open_database(f"sqlite:///{tmp_path / 'server.sqlite3'}"))
    flaky = FlakyStore(store, random.Random(7), chance=0.15)
    table = LiveTable.create("t1", read_options(options), flaky, make_bot)
    people = [index for index, seat in enumerate(table.seats) if seat.bot is None]
    for index in people:
        table.take_seat(index, f"P{index}")
    for step in range(400):
        failed = False
        try:
            table.check()
            if table.status != "live":
                break
            seat = next(seat for seat in table.to_act() if seat in people)
            legal = table.legal_actions(seat)
            more = [action for action in legal if action["action"] == "start_game"]
            table.act(seat, more[0] if more and len(table.actions) < 150 else choose(legal))
        except StorageError:
            failed = True
        if table._needs is None and (failed or step % 20 == 0):
            # The table every connection holds is the table as stored.
            stored = LiveTable.load("t1", store, make_bot)
            for viewer in (None, *people):
                assert table_state(table, viewer) == table_state(stored, viewer)
    assert flaky.failures > 5
    assert len(table.actions) > 40


def test_the_last_person_to_sit_keeps_their_token_when_the_first_roll_is_not_stored(tmp_path: Path) -> None:
    store = Store(open_database(f"sqlite:///{tmp_path / 'server.sqlite3'}"))
    flaky = FlakyStore(store, random.Random(1), chance=0.0)
    table = LiveTable.create(
        "t1", read_options({"kind": "game", "series": "single", "seats": [{}, {}]}), flaky, None
    )  # type: ignore[arg-type]
    table.take_seat(0, "Ann")
    flaky.chance = 1.0  # the opening roll, the first write after the seat, fails
    token = table.take_seat(1, "Bob")
    assert table.seat_of_token(token) == 1
    assert flaky.failures >= 1
    with pytest.raises(StorageError):
        table.check()
    flaky.chance = 0.0
    table.check()  # the database answers again: the play starts
    assert table.status == "live"
    assert table.actions  # the opening roll, stored
    assert table_state(table, 1) == table_state(LiveTable.load("t1", store, None), 1)  # type: ignore[arg-type]


def test_asking_for_tables_that_are_not_there_leaves_nothing_behind(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from tavola.web.app import create_app

    app = create_app(open_database(f"sqlite:///{tmp_path / 'server.sqlite3'}"))
    with TestClient(app) as client:
        for number in range(50):
            assert client.get(f"/api/tables/{number:016x}").status_code == 404
        hub = app.state.server.hub
        assert hub._loading == {}
        assert hub.tables == {}
