"""Several server processes on one database: any process serves any table, each process's connections see
every action, and kill -9 of one loses nothing acknowledged and leaves its tables to the others.

Each test runs real ``tavola serve`` processes: two of them on one throwaway PostgreSQL cluster (as two
machines behind a proxy would be), or ``tavola serve --workers 2`` on a SQLite file.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web server needs the web extra (pip install 'tavola[web]')")

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from web_helpers import DroppingLoop, Server, auth, choose, log_of

MATCH = {"kind": "game", "series": "match", "length": 7, "seats": [{}, {}]}


class Player(threading.Thread):
    """A person on a WebSocket to one server process, acting on every state that is theirs with the
    state's version; when the process goes, they reconnect to the next one of ``urls``.

    ``seen`` is the table's log as the states told it; ``sent`` every action sent, by the version it
    was chosen at.
    """

    def __init__(self, table: str, seat: int, token: str, urls: list[str], most: int) -> None:
        super().__init__(daemon=True)
        self.table, self.seat, self.token, self.urls, self.most = table, seat, token, urls, most
        self.seen: list[dict[str, Any]] = []
        self.sent: dict[int, list[dict[str, Any]]] = {}
        self.version = 0
        self.reconnections = 0
        self.refusals: list[str] = []
        self.finished = threading.Event()
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            self._play()
        except BaseException as error:  # the test reads it
            self.failure = error
        finally:
            self.finished.set()

    def _play(self) -> None:
        deadline = time.monotonic() + 120
        place = 0
        while time.monotonic() < deadline:
            url = self.urls[place].replace("http://", "ws://")
            try:
                with connect(f"{url}/api/tables/{self.table}/live", open_timeout=10) as websocket:
                    websocket.send(json.dumps({"type": "hello", "token": self.token}))
                    acted_at: int | None = None
                    while True:
                        message = json.loads(websocket.recv(timeout=30))
                        if message["type"] == "error":  # refused: look again, and act again at the state
                            self.refusals.append(message["error"])
                            acted_at = None
                            time.sleep(0.5)  # too many messages (the server's limits), a table moved on
                            websocket.send(json.dumps({"type": "hello", "token": self.token}))
                            continue
                        if message["type"] != "state":
                            continue
                        state = message["state"]
                        self._learn(self.urls[place], message["log"]["start"], message["log"]["entries"])
                        self.version = state["version"]
                        if state["status"] != "live" or state["version"] >= self.most:
                            return
                        if (
                            self.seat in state["to_act"]
                            and acted_at != state["version"]
                            and state["you"] == self.seat
                        ):
                            action = choose(state["legal_actions"])
                            acted_at = state["version"]
                            self.sent.setdefault(acted_at, []).append(action)
                            websocket.send(json.dumps({"type": "act", "action": action, "version": acted_at}))
            except (ConnectionClosed, OSError, TimeoutError):
                self.reconnections += 1
                place = (place + 1) % len(self.urls)  # the next process
                time.sleep(0.2)
        raise AssertionError(f"seat {self.seat} still playing after 120 s at version {self.version}")

    def _learn(self, url: str, start: int, entries: list[dict[str, Any]]) -> None:
        if start > len(self.seen):  # fell behind: the log's route fills the gap
            with httpx.Client(base_url=url, timeout=30) as client:
                entries = log_of(client, self.table)[len(self.seen) : start + len(entries)]
            start = len(self.seen)
        for number, entry in enumerate(entries, start):
            if number < len(self.seen):
                assert self.seen[number] == entry, f"action {number} was told two ways"
            else:
                self.seen.append(entry)

    def acknowledged(self) -> dict[int, dict[str, Any]]:
        """The actions of this seat that a state showed done, by their version."""
        return {
            number: entry
            for number, entry in enumerate(self.seen)
            if entry["seat"] == self.seat
            and any({"seat": self.seat, **sent} == entry for sent in self.sent.get(number, []))
        }


def _seat_two(server: Server, other: Server) -> tuple[str, dict[int, str]]:
    created = server.client.post("/api/tables", json=MATCH)
    assert created.status_code == 201, created.text
    table = created.json()["id"]
    tokens = {}
    for seat, (name, where) in enumerate((("Ann", server), ("Bob", other))):
        taken = where.client.post(f"/api/tables/{table}/seats/{seat}", json={"name": name})
        assert taken.status_code == 200, taken.text
        tokens[seat] = taken.json()["token"]
    return table, tokens


def _wait_for(players: list[Player], version: int) -> None:
    deadline = time.monotonic() + 90
    while min(player.version for player in players) < version:
        for player in players:
            assert player.failure is None, player.failure
            if player.finished.is_set() and player.version < version:
                return  # the match ended first
        assert time.monotonic() < deadline, f"the table did not reach version {version}"
        time.sleep(0.05)


def _check(players: list[Player], stored: list[dict[str, Any]]) -> None:
    """Nothing lost, nothing done twice: the stored log begins with what every player was told, holds
    every acknowledged action at its version, and a seat's action only at a version it chose it at (or
    one the table made for it: a forced roll or play)."""
    for player in players:
        assert player.failure is None, player.failure
        assert stored[: len(player.seen)] == player.seen
        for number, entry in player.acknowledged().items():
            assert stored[number] == entry
        for number, entry in enumerate(stored):
            if entry["seat"] == player.seat and number in player.sent:
                assert any({"seat": player.seat, **sent} == entry for sent in player.sent[number]) or entry[
                    "action"
                ] in ("roll", "play")


@pytest.mark.timeout(300)
@pytest.mark.parametrize("killed", [0, 1], ids=["Ann's-process-killed", "Bob's-process-killed"])
def test_two_processes_on_postgresql_serve_one_table_and_kill_9_of_either_loses_nothing(
    postgresql: str, killed: int
) -> None:
    _one_table_on_two_processes([Server(postgresql), Server(postgresql)], killed, lambda: Server(postgresql))


@pytest.mark.timeout(300)
def test_two_processes_started_apart_share_a_sqlite_file_and_kill_9_of_one_loses_nothing(
    tmp_path: Path,
) -> None:
    """``tavola serve --shared``: two processes started at the same moment on a new SQLite file (each
    migrates it in its turn, the other finding it done), behind a proxy that would send a table's
    requests to one of them; here the players of one table are connected to both, the harder case."""
    database = tmp_path / "server.sqlite3"
    options = ("--shared", "--search-workers", "0")
    with ThreadPoolExecutor(2) as starting:
        servers = list(starting.map(lambda _number: Server(database, options=options), range(2)))
    _one_table_on_two_processes(servers, 1, lambda: Server(database, options=options))


def _one_table_on_two_processes(
    servers: list[Server], killed: int, fresh_server: Callable[[], Server]
) -> None:
    """Ann plays through the first of ``servers`` and Bob through the second, seeing each other's actions
    through the database; server ``killed`` is killed in the middle, and its player plays on through the
    other; then a process started afresh shows the same table."""
    try:
        table, tokens = _seat_two(servers[0], servers[1])
        urls = [server.url for server in servers]
        # Ann on the first process, Bob on the second: each sees the other's actions through PostgreSQL.
        players = [Player(table, 0, tokens[0], urls, 100), Player(table, 1, tokens[1], urls[::-1], 100)]
        for player in players:
            player.start()
        _wait_for(players, 40)
        servers[killed].kill()  # in the middle of play
        for player in players:
            player.finished.wait(150)
            assert player.failure is None, player.failure
        survivor = servers[1 - killed]
        stored = log_of(survivor.client, table)
        _check(players, stored)
        assert players[killed].reconnections >= 1  # moved to the other process, and played on there
        assert len(players[killed].seen) > 40

        # A process started afresh on the database shows the same table as the survivor.
        fresh = fresh_server()
        servers.append(fresh)
        assert fresh.state(table, tokens[0]) == survivor.state(table, tokens[0])
        assert log_of(fresh.client, table) == stored
    finally:
        for server in servers:
            if server.process.poll() is None:
                server.kill()


@pytest.mark.timeout(300)
def test_a_bots_turn_cut_by_kill_9_is_made_by_the_other_process(postgresql: str) -> None:
    first, second = Server(postgresql), Server(postgresql)
    try:
        created = first.client.post(
            "/api/tables",
            json={"kind": "game", "series": "match", "length": 5, "seats": [{}, {"bot": "world-class"}]},
        )
        table = created.json()["id"]
        token = first.client.post(f"/api/tables/{table}/seats/0", json={"name": "Ann"}).json()["token"]
        # Ann plays on the first process until the bot has searched there once (its search process
        # started), and on until her next play.
        seen = first.state(table, token)
        while seen["game"]["phase"] != "move" or not any(
            entry["seat"] == 1 for entry in log_of(first.client, table)
        ):
            first.client.post(
                f"/api/tables/{table}/actions", json=choose(seen["legal_actions"]), headers=auth(token)
            )
            seen = first.state(table, token)
        version = seen["version"]
        # The bot's search process is stopped, so that the first process is surely in the middle of the
        # bot's turn when it is killed: after Ann's play is stored, and before any action of the bot's.
        searchers = _children(first.process.pid)
        assert searchers, "the first process has no search process"
        for pid in searchers:
            os.kill(pid, signal.SIGSTOP)

        def play() -> None:
            with contextlib.suppress(httpx.TransportError):  # the process is killed before it answers
                first.client.post(
                    f"/api/tables/{table}/actions?version={version}",
                    json=choose(seen["legal_actions"]),
                    headers=auth(token),
                )

        acting = threading.Thread(target=play, daemon=True)
        acting.start()
        while len(log_of(second.client, table)) <= version:  # Ann's play not yet stored
            time.sleep(0.005)
        first.kill()
        cut = log_of(second.client, table)
        assert not any(entry["seat"] == 1 and entry["action"] == "play" for entry in cut[version:])  # cut
        # The second process makes the bot's turn once the first one's lease has run out.
        deadline = time.monotonic() + 60
        while (now := second.state(table, token))["to_act"] != [0] and now["status"] == "live":
            assert time.monotonic() < deadline, "the bot's turn was never made"
            time.sleep(0.2)
        stored = log_of(second.client, table)
        assert stored[: len(cut)] == cut
        assert any(entry["seat"] == 1 for entry in stored[version + 1 :])  # the bot's own actions
        second.act_once(table, {0: token, 1: token})  # and play goes on
    finally:
        for server in (first, second):
            if server.process.poll() is None:
                server.kill()


def _children(pid: int) -> list[int]:
    """The pids of the processes ``pid`` started with multiprocessing (its workers)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [
        int(child)
        for child in children
        if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes()
        and b"resource_tracker" not in Path(f"/proc/{child}/cmdline").read_bytes()
    ]


def _workers_of(server: Server) -> list[int]:
    """The pids of the processes uvicorn started for ``tavola serve --workers``."""
    return _children(server.process.pid)


@pytest.mark.timeout(300)
def test_workers_on_sqlite_share_the_tables_and_kill_9_of_one_loses_nothing(tmp_path: Path) -> None:

    server = Server(tmp_path / "server.sqlite3", options=("--workers", "2", "--search-workers", "0"))
    try:
        deadline = time.monotonic() + 60
        while len(_workers_of(server)) < 2:
            assert time.monotonic() < deadline, "tavola serve --workers 2 did not start two processes"
            time.sleep(0.2)
        table, tokens = _seat_two(server, server)
        players = [Player(table, seat, tokens[seat], [server.url], 120) for seat in (0, 1)]
        for player in players:
            player.start()
        # Each of the two processes is killed in the middle of play, one after the other, so that both
        # players lose their connection at least once; uvicorn starts a new process each time.
        for killed, version in zip(_workers_of(server), (40, 80), strict=True):
            _wait_for(players, version)
            os.kill(killed, signal.SIGKILL)
        for player in players:
            player.finished.wait(150)
        stored = log_of(server.client, table)
        _check(players, stored)
        assert all(player.reconnections >= 1 for player in players)
        assert max(len(player.seen) for player in players) > 80
    finally:
        server.kill()
    again = Server(tmp_path / "server.sqlite3")
    try:
        assert log_of(again.client, table) == stored
    finally:
        again.kill()


# --- two copies of a table in one test process, as two server processes hold them -------------------


def _two_copies(tmp_path: Path) -> tuple[Any, Any, dict[int, str]]:
    from tavola.web.live import LiveTable
    from tavola.web.options import read_options
    from tavola.web.storage import Store, open_database

    engine = open_database(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    stores = [Store(engine, shared=True), Store(engine, shared=True)]

    def no_bot(level: str) -> Any:
        raise AssertionError("no bot at this table")

    options = read_options({"kind": "game", "series": "money", "seats": [{}, {}]})
    first = LiveTable.create("t1", options, stores[0], no_bot)
    second = LiveTable.load("t1", stores[1], no_bot)
    tokens = {0: first.take_seat(0, "Ann"), 1: second.take_seat(1, "Bob")}  # each seated by another copy
    return first, second, tokens


def test_a_copy_behind_the_store_catches_up_before_it_acts(tmp_path: Path) -> None:
    first, second, _tokens = _two_copies(tmp_path)
    for _ in range(12):
        for copy in (first, second):  # each copy acts in turn, whoever is to act
            copy.check()
            seat = copy.to_act()[0]
            copy.act(seat, choose(copy.legal_actions(seat)))
    first.check()
    second.check()
    assert first.actions == second.actions
    assert first.revision == second.revision
    assert len(first.actions) > 24  # the forced rolls and the table's own actions too


def test_an_action_written_after_another_process_acted_is_judged_again_at_the_new_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tavola.web.live import TableMovedError

    first, second, _tokens = _two_copies(tmp_path)
    second.check()
    seat = second.to_act()[0]
    chosen = choose(second.legal_actions(seat))
    first.act(seat, chosen)  # the first copy acts, and the second has not read it yet
    stale = second.revision
    monkeypatch.setattr(second.store, "revision", lambda _table: stale)  # as if read just before
    with pytest.raises(TableMovedError):  # sent with its version: refused, the table read again
        second.act(seat, chosen, version=len(second.actions))
    monkeypatch.undo()
    assert second.actions == first.actions
    assert second.revision == first.revision


def _counting_revisions(copy: Any, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The tables whose revision ``copy``'s store reads from now on."""
    read: list[str] = []
    revision = copy.store.revision

    def counted(table_id: str) -> int | None:
        read.append(table_id)
        return revision(table_id)

    monkeypatch.setattr(copy.store, "revision", counted)
    return read


def test_a_followed_copy_acts_on_what_it_heard_without_reading_the_revision(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A copy this process follows (a connection here watches the table, and every event of the others is
    heard) judges an action against the table as it heard it: no read of the store before the action."""
    first, second, _tokens = _two_copies(tmp_path)
    second.followed = True
    read = _counting_revisions(second, monkeypatch)
    for _ in range(8):
        second.check()  # as hearing the first copy's actions brings it up to date
        read.clear()
        seat = second.to_act()[0]
        second.act(seat, choose(second.legal_actions(seat)), version=len(second.actions))
        assert read == []
        first.check()
        seat = first.to_act()[0]
        first.act(seat, choose(first.legal_actions(seat)))
    second.check()
    assert second.actions == first.actions
    assert second.revision == first.revision


def test_an_action_a_followed_copy_refuses_is_judged_again_once_it_is_up_to_date(tmp_path: Path) -> None:
    """The other process's action not yet heard: the copy would refuse what the stored table takes. It reads
    the store then, and the action is done at the stored table."""
    first, second, _tokens = _two_copies(tmp_path)
    second.followed = True
    for _ in range(40):
        second.check()
        first.check()
        seat = first.to_act()[0]
        first.act(seat, choose(first.legal_actions(seat)))  # the second copy has not heard of it
        seat = first.to_act()[0]
        wanted = choose(first.legal_actions(seat))
        if wanted in second.legal_actions(seat):
            continue  # the stale copy would take it too: looked for again further on
        before = len(first.actions)
        second.act(seat, wanted, version=before)
        first.check()
        assert second.actions == first.actions
        assert len(first.actions) > before
        assert first.actions[before] == (seat, wanted)
        return
    raise AssertionError("no action the stale copy refuses came up")


def test_a_followed_copy_behind_the_store_writes_nothing_and_judges_again(tmp_path: Path) -> None:
    """The copy takes an action the stored table has moved past: its write at the old revision changes
    nothing, the copy is read again, and the action, sent with its version, is refused."""
    from tavola.web.live import TableMovedError

    first, second, _tokens = _two_copies(tmp_path)
    second.followed = True
    second.check()
    seat = second.to_act()[0]
    chosen = choose(second.legal_actions(seat))
    first.act(seat, chosen)  # the second copy has not heard of it
    with pytest.raises(TableMovedError):
        second.act(seat, chosen, version=len(second.actions))
    assert second.actions == first.actions
    assert second.revision == first.revision


def test_a_seat_taken_through_another_process_acts_with_its_token_at_once(tmp_path: Path) -> None:
    first, _second, tokens = _two_copies(tmp_path)  # Bob sat down through the second copy
    assert first.seat_of_token(tokens[1]) == 1  # the first copy reads the store on a token it lacks
    assert first.seat_of_token("no such token") is None


def test_a_seat_taken_up_again_through_one_process_no_longer_answers_the_old_token_in_the_other(
    tmp_path: Path,
) -> None:
    from tavola.web.live import SeatTakenUpError

    first, second, tokens = _two_copies(tmp_path)
    second.check()
    seat = second.to_act()[0]
    second.act(seat, choose(second.legal_actions(seat)))  # the table is in play in both copies
    renewed = first.renew_token(0)  # Ann comes back from another device, through the first copy
    assert second.seat_of_token(tokens[0]) == 0  # the second copy has not read it yet
    before = list(second.actions)
    with pytest.raises(SeatTakenUpError):  # acting with the old token: refused once it is up to date
        second.act(0, {"action": "roll"}, token=tokens[0])
    assert second.actions == before
    assert second.seat_of_token(renewed) == 0
    assert second.seat_of_token(tokens[0]) is None
    assert second.seat_of_token(tokens[1]) == 1  # Bob's seat is his as before
    second.check()
    assert second.actions == first.actions


def test_the_events_of_a_sqlite_database_are_heard_after_a_quiet_spell(tmp_path: Path) -> None:
    from tavola.web.events import Listener
    from tavola.web.storage import Store, open_database

    engine = open_database(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    ours, theirs = Store(engine, shared=True), Store(engine, shared=True)
    heard: list[dict[str, Any]] = []
    listener = Listener(ours, heard.append, lambda: None)
    for number in range(3):
        theirs.publish({"table": f"t{number}"})
    listener.poll_once()
    theirs.forget_events(older_than=0)  # a quiet spell: every event old enough to forget
    theirs.publish({"table": "t3"})
    listener.poll_once()
    assert [event["table"] for event in heard] == ["t0", "t1", "t2", "t3"]


def test_R11_an_action_and_the_forced_ones_after_it_are_one_transaction_heard_as_one_change(
    tmp_path: Path,
) -> None:
    """Without the cube the table rolls for every player: a play and the other player's roll after it
    are stored in one transaction, published as one event, and the other copy, hearing it, does both and
    tells its viewers once, at the state where the table waits for a person."""
    from tavola.web.events import Listener
    from tavola.web.live import LiveTable
    from tavola.web.options import read_options
    from tavola.web.storage import Store, open_database

    engine = open_database(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    stores = [Store(engine, shared=True), Store(engine, shared=True)]
    options = read_options({"kind": "game", "series": "money", "rules": {"cube": False}, "seats": [{}, {}]})
    first = LiveTable.create("t1", options, stores[0], lambda level: None)
    first.take_seat(0, "Ann")
    first.take_seat(1, "Bob")
    second = LiveTable.load("t1", stores[1], lambda level: None)
    told: list[int] = []
    second.listeners.append(lambda table: told.append(len(table.actions)))
    events: list[dict[str, Any]] = []
    listener = Listener(stores[1], events.append, lambda: None)
    listener.poll_once()
    events.clear()
    together = 0
    for _ in range(10):
        if first.status != "live" or not first.to_act():
            break
        seat = first.to_act()[0]
        play = next(action for action in first.legal_actions(seat) if action["action"] == "play")
        revision, done = first.revision, len(first.actions)
        first.act(seat, play, len(first.actions))
        listener.poll_once()
        (event,) = events  # one event for the play and what the table made after it
        events.clear()
        assert event["number"] == done
        assert event["revision"] == first.revision
        assert len(event["actions"]) == len(first.actions) - done == first.revision - revision
        together += len(event["actions"]) > 1
        told.clear()
        second.heard_all([event])
        assert told == [len(first.actions)]  # told once, at the state the table waits in
        assert second.actions == first.actions
        assert second.revision == first.revision
    assert together >= 8
    for store in stores:
        store.close()
    engine.dispose()


# --- two hubs on one SQLite file, as two processes of tavola serve --workers 2 hold them ---------------


def _two_hubs(tmp_path: Path) -> tuple[Any, Any]:
    from tavola.web.hub import Hub
    from tavola.web.storage import Store, open_database

    engine = open_database(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    return tuple(Hub(Store(engine, shared=True), make_bot=lambda level: None) for _ in range(2))  # type: ignore[return-value]


def test_a_table_watched_here_is_followed_and_kept_up_to_date_by_the_others_events(tmp_path: Path) -> None:
    from tavola.web.hub import Connection
    from tavola.web.options import read_options

    ours, theirs = _two_hubs(tmp_path)
    ours.start()
    try:
        table = theirs.create(read_options({"kind": "game", "series": "money", "seats": [{}, {}]}))
        table.take_seat(0, "Ann")
        table.take_seat(1, "Bob")
        copy = ours.get(table.id)
        connection = Connection(DroppingLoop())  # type: ignore[arg-type]
        ours.watch(table.id, connection)
        copy.check()
        assert copy.followed
        for _ in range(6):  # the other process acts; this one hears of it without being asked
            seat = table.to_act()[0]
            table.act(seat, choose(table.legal_actions(seat)))
        deadline = time.monotonic() + 10
        while copy.actions != table.actions:
            assert time.monotonic() < deadline, "the other process's actions were never heard"
            time.sleep(0.02)
        ours.unwatch(table.id, connection)
        assert not copy.followed  # nobody here watches: an action reads the store's revision first
    finally:
        ours.stop()
        theirs.stop()


def test_the_sweep_leaves_alone_a_copy_nobody_here_looks_at(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A copy loaded once here (a seat taken through this process) while the game is played through the
    other: the sweep does not read its lease (nor, once the lease runs out, replay what the other process
    did to make the table's own actions), until someone here asks for the table again."""
    from tavola.web.options import read_options

    ours, theirs = _two_hubs(tmp_path)
    try:
        table = theirs.create(read_options({"kind": "game", "series": "money", "seats": [{}, {}]}))
        table.take_seat(0, "Ann")
        copy = ours.get(table.id)
        copy.take_seat(1, "Bob")
        for _ in range(10):
            table.check()
            seat = table.to_act()[0]
            table.act(seat, choose(table.legal_actions(seat)))
        leases: list[str] = []
        lease = ours.store.lease
        monkeypatch.setattr(ours.store, "lease", lambda table_id: leases.append(table_id) or lease(table_id))
        later = time.monotonic() + 100  # the copy unchanged for longer than a lease, not asked for since
        monkeypatch.setattr(time, "monotonic", lambda: later)
        ours.sweep()
        assert leases == []
        assert ours.get(table.id) is copy  # asked for again: looked after from now on
        ours.sweep()
        assert leases == [table.id]
    finally:
        ours.stop()
        theirs.stop()
