"""The web server under load: many games at once over loopback WebSockets, and a kill -9 in the middle.

Run: python benchmarks/server_load.py [--games 200] [--seconds 60] [--kill-at 30 | --no-kill]
                                      [--think 0] [--database sqlite:///PATH] [--seed 2026]

``tavola serve`` runs in a process of its own on 127.0.0.1 (a free port, a
SQLite file in a temporary folder unless ``--database`` names one). Each of
``--games`` tables is a 3-point match between two clients, one a seat, each
on its own WebSocket: it acts on every state that lists actions for it,
picking one of the state's ``legal_actions`` with its own seeded NumPy
generator (uniformly, except that it offers a double or resigns only one
time in twenty when it may, so that games last), and sends it with the
state's ``version``. With ``--think`` a client thinks before each action,
as people do: a random time drawn from an exponential distribution of that
mean, in seconds (0, the default, acts at once: a flood). A finished match
is followed by a new one at the same place, until ``--seconds`` have passed;
then the clients make no new decision, wait a little for the answers to
those sent, and close.

An action is *acknowledged* when a state comes back past the version it was
chosen at, and the table's log (the actions each state message brings, or
the log's route for a client that missed some) holds it at that version; its
latency is from sending it to that state
(the thinking before it not counted). The size of every state message is
kept with the table's version it shows, so the report says whether a
message grows with the session: the median size at versions up to 20 beside
the median at the highest tenth of the versions reached.
At ``--kill-at`` seconds the server is killed with SIGKILL and started again
on the same database and port; the clients reconnect and go on. An action
whose state never came is sent again after reconnecting, and again after
any refusal while the table stays at its version: the server does an action
only at the version it names, so sending it again never does it twice.

At the end the log stored in the database is read back and compared with
what the clients did: *lost* counts the acknowledged actions not stored at
their place, *duplicated* the stored actions of a seat that its client did
not choose there and that the table does not make by itself (the table
makes a seat's forced rolls and plays: a roll or play not chosen there is
counted only where it repeats an action the client sent again). A table
whose stored log does not begin with what a client was shown counts as
diverged, and the errors the server logged are counted too. All must be 0
(the exit status is 1 otherwise).

Each person posts and holds their WebSocket from an address of their own on
the loopback (127.1.x.y: Linux answers the whole of 127.0.0.0/8), as
people's browsers do: the server limits requests and WebSocket messages per
address.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import websockets
from rich.console import Console
from rich.table import Table

from tavola.web.storage import Store, open_database

ROOT = Path(__file__).resolve().parent.parent

MATCH = {"kind": "game", "series": "match", "length": 3, "seats": [{}, {}]}
"""What each game's table is: a 3-point match between two people."""

RARE = ("double", "resign")
"""Actions a client takes only one time in :data:`RARE_CHANCE`'s inverse when it may."""
RARE_CHANCE = 0.05
FORCED = ("roll", "play")
"""What the table does by itself for a seat: its forced rolls and forced plays (passes included)."""
GRACE = 15.0
"""Seconds the clients wait, after the time is up, for the answers to actions sent."""
RETRIES = 20
"""How many times an action refused at its version is sent again before its client chooses anew."""


# --- the server ---------------------------------------------------------------------------------


def free_port() -> int:
    """A TCP port free on the loopback now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ServerProcess:
    """``tavola serve`` on 127.0.0.1:``port`` and ``database``, in a process of its own (this checkout's
    sources first); its output goes to ``log``."""

    def __init__(
        self, database: str, port: int, log: Path, options: Sequence[str] = ("--search-workers", "0")
    ) -> None:
        self.database = database
        self.port = port
        self.log = log
        self.options = tuple(options)
        """More of ``tavola serve``'s options: by default no search workers, since no game here has a bot
        and their start would only take CPU from the clients."""
        self.url = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        paths = [str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]
        environment = {**os.environ, "PYTHONPATH": os.pathsep.join(path for path in paths if path)}
        command = [sys.executable, "-m", "tavola", "serve", "--port", str(self.port), *self.options]
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                [*command, "--database", self.database],
                env=environment,
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
            )

    async def ready(self, most: float = 180.0) -> None:
        """Wait until the server answers (it has rebuilt every unfinished table by then)."""
        deadline = time.monotonic() + most
        async with httpx.AsyncClient(base_url=self.url, timeout=5) as client:
            while True:
                assert self.process is not None
                if self.process.poll() is not None:
                    raise RuntimeError(f"tavola serve stopped: {self.log.read_text()[-2000:]}")
                with contextlib.suppress(httpx.TransportError):
                    if (await client.get("/openapi.json")).status_code == 200:
                        return
                if time.monotonic() > deadline:
                    raise RuntimeError(f"tavola serve did not answer in {most:.0f} seconds")
                await asyncio.sleep(0.05)

    def kill(self) -> None:
        """kill -9: no clean-up of any kind."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


# --- what the clients did -------------------------------------------------------------------------


@dataclass(eq=False)
class Decision:
    """An action a client chose at a table's version, and what became of it."""

    table: str
    seat: int
    version: int
    action: dict[str, Any]
    sent: float
    connection: int
    """The client's connection it was first sent on (an answer on a later one: recovered)."""
    sends: int = 1
    acknowledged: float | None = None

    @property
    def entry(self) -> dict[str, Any]:
        """The action as the table's log writes it."""
        return {"seat": self.seat, **self.action}


@dataclass
class Run:
    """Everything the clients did, and the figures the run measures."""

    url: str
    seed: int
    deadline: float
    think: float = 0.0
    """The mean seconds a client thinks before each action (0: none)."""
    stopping: bool = False
    decisions: list[Decision] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    """Seconds from sending to the state showing it, for the actions answered on the same connection."""
    recovered: int = 0
    """Actions acknowledged only on a connection made after the one they were sent on."""
    refusals: dict[str, int] = field(default_factory=dict)
    tables: list[str] = field(default_factory=list)
    finished: int = 0
    seen: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """The longest log of each table a client was shown."""
    sizes: list[tuple[int, int]] = field(default_factory=list)
    """Each state message's table version and size in bytes."""
    killed: float | None = None
    restarted: float | None = None
    resumed: float | None = None
    """When the first action was acknowledged on a connection made after the kill."""

    def acknowledge(self, decision: Decision, connection: int, opened: float) -> None:
        """``decision`` is done, as a state on the client's ``connection`` (made at ``opened``) shows."""
        decision.acknowledged = time.perf_counter()
        if self.killed is not None and opened > self.killed and self.resumed is None:
            self.resumed = decision.acknowledged
        if connection == decision.connection:
            self.latencies.append(decision.acknowledged - decision.sent)
        else:
            self.recovered += 1

    def refused(self, error: dict[str, Any]) -> None:
        """Count a refusal by its status (none: too many messages)."""
        kind = str(error.get("status", "too many"))
        self.refusals[kind] = self.refusals.get(kind, 0) + 1


def choose(legal: Sequence[dict[str, Any]], rng: np.random.Generator) -> dict[str, Any]:
    """One of ``legal`` at random: a double or a resignation only one time in twenty when there is more.

    >>> choose([{"action": "roll"}, {"action": "double"}], np.random.default_rng(1))
    {'action': 'roll'}
    """
    common = [action for action in legal if action["action"] not in RARE]
    pool = common if common and rng.random() >= RARE_CHANCE else list(legal)
    return pool[int(rng.integers(len(pool)))]


# --- a seat's client ------------------------------------------------------------------------------


class SeatClient:
    """A seat at a table, over its WebSocket: acts at random on every state that lets it act."""

    def __init__(
        self,
        run: Run,
        table: str,
        seat: int,
        token: str,
        rng: np.random.Generator,
        address: str,
        http: httpx.AsyncClient,
    ) -> None:
        self.run = run
        self.http = http
        """For reading the table's log where the state messages skipped some of it."""
        self.address = address
        """The loopback address its WebSocket comes from: each person's own, as a browser's is."""
        self.table = table
        self.seat = seat
        self.token = token
        self.rng = rng
        self.pending: Decision | None = None
        self.sent_on = 0
        """The connection the pending action was last sent on."""
        self.state: dict[str, Any] | None = None
        self.connections = 0
        self.opened = 0.0
        self.retries = 0
        self.finished = False
        self.ready_at: float | None = None
        """When the client, thinking, acts on the state it was last shown (None: not thinking)."""

    async def play(self) -> bool:
        """Play until the table is finished (True) or the run is over (False)."""
        address = self.run.url.replace("http://", "ws://") + f"/api/tables/{self.table}/live"
        while not self._done():
            try:
                async with websockets.connect(
                    address,
                    max_size=None,
                    ping_interval=None,
                    open_timeout=30,
                    close_timeout=1,
                    local_addr=(self.address, 0),
                ) as websocket:
                    self.connections += 1
                    self.opened = time.perf_counter()
                    await websocket.send(json.dumps({"type": "hello", "token": self.token}))
                    await self._listen(websocket)
            except (OSError, TimeoutError, websockets.WebSocketException):
                await asyncio.sleep(0.1 + 0.2 * float(self.rng.random()))  # the server is away
        return self.finished

    def _done(self) -> bool:
        if self.finished:
            return True
        over = time.perf_counter() > self.run.deadline + GRACE
        return self.run.stopping and (self.pending is None or over)

    async def _listen(self, websocket: Any) -> None:
        while not self._done():
            wait = 0.5 if self.ready_at is None else max(0.0, min(0.5, self.ready_at - time.perf_counter()))
            try:
                text = await asyncio.wait_for(websocket.recv(), timeout=wait)
            except TimeoutError:
                await self._act(websocket)
                continue
            message = json.loads(text)
            if message["type"] == "state":
                self.run.sizes.append((message["state"]["version"], len(text.encode())))
                self._learn(message["log"]["start"], message["log"]["entries"])
            if message["type"] == "state" and message["state"]["you"] == self.seat:
                await self._on_state(websocket, message["state"])
            elif message["type"] == "error":
                self.run.refused(message)
                await self._on_refusal(websocket)

    def _learn(self, start: int, entries: list[dict[str, Any]]) -> None:
        """Add the actions a message brings, numbered from ``start``, to what the clients were shown."""
        known = self.run.seen.setdefault(self.table, [])
        for number, entry in enumerate(entries, start):
            if number == len(known):
                known.append(entry)

    async def _catch_up(self, version: int) -> None:
        """Read the table's log up to ``version`` where the state messages did not bring all of it."""
        known = self.run.seen.setdefault(self.table, [])
        while len(known) < version:
            start = len(known)  # other messages may bring more while the page is read
            try:
                response = await self.http.get(f"/api/tables/{self.table}/log", params={"start": start})
            except httpx.TransportError:
                return  # the server is away: the next state tells
            if response.status_code != 200 or not response.json()["entries"]:
                return
            self._learn(start, response.json()["entries"])

    async def _on_state(self, websocket: Any, state: dict[str, Any]) -> None:
        if self.state is not None and state["version"] < self.state["version"]:
            return
        self.state = state
        pending = self.pending
        if pending is not None:
            if state["version"] > pending.version:
                await self._catch_up(pending.version + 1)
                log = self.run.seen.get(self.table, [])
                if pending.version < len(log) and log[pending.version] == pending.entry:
                    self.run.acknowledge(pending, self.connections, self.opened)
                self.pending = None  # done, or not done and never to be: the table has moved on
            elif self.sent_on != self.connections:
                await self._send(websocket)  # its answer went with the connection: the version keeps it once
                return
        if state["status"] != "live":
            self.finished = True
            return
        if self.pending is None and not self.run.stopping and self.seat in state["to_act"]:
            if self.run.think > 0 and self.ready_at is None:
                self.ready_at = time.perf_counter() + float(self.rng.exponential(self.run.think))
            await self._act(websocket)

    async def _act(self, websocket: Any) -> None:
        """Choose and send an action on the state shown, once the client has thought long enough."""
        state = self.state
        if self.ready_at is not None and time.perf_counter() < self.ready_at:
            return
        self.ready_at = None
        if (
            state is not None
            and self.pending is None
            and not self.run.stopping
            and self.seat in state["to_act"]
        ):
            action = choose(state["legal_actions"], self.rng)
            self.pending = Decision(
                self.table,
                self.seat,
                state["version"],
                action,
                time.perf_counter(),
                self.connections,
                sends=0,
            )
            self.run.decisions.append(self.pending)
            self.retries = 0
            await self._send(websocket)

    async def _on_refusal(self, websocket: Any) -> None:
        """Whatever was refused, the pending action is sent again while the table is at its version: done
        already, it is refused; refused (too many messages, say), it is done now."""
        pending, state = self.pending, self.state
        if pending is None or state is None or state["version"] != pending.version:
            return
        self.retries += 1
        if self.retries > RETRIES:
            self.pending = None  # the table will not take it: choose again
            await self._on_state(websocket, state)
            return
        await asyncio.sleep(0.25)
        await self._send(websocket)

    async def _send(self, websocket: Any) -> None:
        pending = self.pending
        assert pending is not None
        pending.sends += 1
        self.sent_on = self.connections
        act = {"type": "act", "action": pending.action, "version": pending.version}
        await websocket.send(json.dumps(act))


# --- a game's place ---------------------------------------------------------------------------------


async def seat_people(http: httpx.AsyncClient) -> tuple[str, dict[int, str]] | None:
    """A new match with both seats taken: its id and the seats' tokens (None: refused or away)."""
    try:
        created = await http.post("/api/tables", json=MATCH)
        if created.status_code != 201:
            return None
        table = str(created.json()["id"])
        tokens = {}
        for seat, name in enumerate(("Ann", "Bob")):
            taken = await http.post(f"/api/tables/{table}/seats/{seat}", json={"name": name})
            if taken.status_code != 200:
                return None
            tokens[seat] = str(taken.json()["token"])
        return table, tokens
    except httpx.TransportError:
        return None


def _loopback(number: int) -> str:
    """The ``number``-th loopback address of the clients, from 127.1.0.1."""
    return f"127.1.{number // 250}.{number % 250 + 1}"


async def game_place(run: Run, place: int) -> None:
    """One of the run's games: a match, then another when it is finished, until the time is up."""
    transport = httpx.AsyncHTTPTransport(local_address=_loopback(2 * place))
    async with httpx.AsyncClient(base_url=run.url, transport=transport, timeout=60) as http:
        played = 0
        while not run.stopping:
            seated = await seat_people(http)
            if seated is None:
                await asyncio.sleep(0.5)
                continue
            table, tokens = seated
            run.tables.append(table)
            clients = [
                SeatClient(
                    run,
                    table,
                    seat,
                    tokens[seat],
                    np.random.default_rng((run.seed, place, played, seat)),
                    _loopback(2 * place + seat),
                    http,
                )
                for seat in (0, 1)
            ]
            results = await asyncio.gather(*(client.play() for client in clients))
            run.finished += int(any(results))
            played += 1


# --- the run ----------------------------------------------------------------------------------------


@dataclass
class LoadReport:
    """What a run measured."""

    games: int
    seconds: float
    tables: int
    finished: int
    decisions: int
    acknowledged: int
    stored: int
    latencies: list[float]
    recovered: int
    refusals: dict[str, int]
    lost: int
    duplicated: int
    diverged: int
    errors: list[str]
    """The errors the server logged (an exception in a request or a WebSocket, say)."""
    start: float
    restart: float | None
    recovery: float | None
    think: float = 0.0
    sizes: list[tuple[int, int]] = field(default_factory=list)
    """Each state message's table version and size in bytes."""

    def message_bytes(self) -> tuple[float, float]:
        """The median size of a state message at versions up to 20, and at the highest tenth of versions.

        >>> report = LoadReport(1, 1.0, 1, 0, 0, 0, 0, [], 0, {}, 0, 0, 0, [], 0.0, None, None)
        >>> LoadReport.message_bytes(report)
        (nan, nan)
        """
        if not self.sizes:
            return float("nan"), float("nan")
        early = [size for version, size in self.sizes if version <= 20]
        top = max(version for version, _ in self.sizes)
        late = [size for version, size in self.sizes if version >= 0.9 * top]
        return (
            float(np.median(early)) if early else float("nan"),
            float(np.median(late)) if late else float("nan"),
        )

    @property
    def actions_per_second(self) -> float:
        return self.acknowledged / self.seconds

    def latency(self, percent: float) -> float:
        return float(np.percentile(self.latencies, percent)) if self.latencies else float("nan")


async def _run(
    games: int,
    seconds: float,
    kill_at: float | None,
    database: str,
    seed: int,
    port: int,
    log: Path,
    think: float = 0.0,
) -> LoadReport:
    server = ServerProcess(database, port, log)
    began = time.perf_counter()
    server.start()
    await server.ready()
    start = time.perf_counter() - began
    run = Run(server.url, seed, deadline=time.perf_counter() + seconds, think=think)
    try:
        places = [asyncio.create_task(game_place(run, place)) for place in range(games)]
        playing = time.perf_counter()
        if kill_at is not None:
            await asyncio.sleep(max(0.0, playing + kill_at - time.perf_counter()))
            run.killed = time.perf_counter()
            server.kill()
            server.start()
            await server.ready()
            run.restarted = time.perf_counter()
        await asyncio.sleep(max(0.0, run.deadline - time.perf_counter()))
        run.stopping = True
        await asyncio.gather(*places)
        elapsed = time.perf_counter() - playing
    finally:
        server.stop()
    lost, duplicated, diverged, stored = check(run, database)
    acknowledged = [decision.acknowledged for decision in run.decisions if decision.acknowledged is not None]
    return LoadReport(
        games=games,
        seconds=elapsed,
        tables=len(run.tables),
        finished=run.finished,
        decisions=len(run.decisions),
        acknowledged=len(acknowledged),
        stored=stored,
        latencies=run.latencies,
        recovered=run.recovered,
        refusals=run.refusals,
        lost=lost,
        duplicated=duplicated,
        diverged=diverged,
        errors=logged_errors(log.read_text(errors="replace")),
        start=start,
        restart=None if run.killed is None or run.restarted is None else run.restarted - run.killed,
        recovery=None if run.killed is None or run.resumed is None else run.resumed - run.killed,
        think=think,
        sizes=run.sizes,
    )


def logged_errors(output: str) -> list[str]:
    r"""The errors in uvicorn's output, each with the lines after it (its traceback).

    >>> logged_errors("INFO:     started\nERROR:    Exception\nTraceback\nINFO:     more")
    ['ERROR:    Exception\nTraceback']
    """
    records: list[list[str]] = []
    for line in output.splitlines():
        if line.split(":")[0] in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL") or not records:
            records.append([line])
        else:
            records[-1].append(line)
    return ["\n".join(record) for record in records if record[0].startswith(("ERROR", "CRITICAL"))]


def check(run: Run, database: str) -> tuple[int, int, int, int]:
    """Lost, duplicated, diverged (see the module's description) and stored actions, from the database."""
    store = Store(open_database(database))
    by_table: dict[str, list[Decision]] = {}
    for decision in run.decisions:
        by_table.setdefault(decision.table, []).append(decision)
    lost = duplicated = diverged = stored = 0
    for table in run.tables:
        log = [{"seat": row.seat, **row.action} for row in store.actions(table)]
        stored += len(log)
        diverged += int(log[: len(run.seen.get(table, []))] != run.seen.get(table, []))
        chosen: dict[tuple[str, int, int], list[Decision]] = {}
        for decision in by_table.get(table, []):
            chosen.setdefault((table, decision.seat, decision.version), []).append(decision)
            done = decision.version < len(log) and log[decision.version] == decision.entry
            lost += int(decision.acknowledged is not None and not done)
        for number, entry in enumerate(log):
            seat = entry["seat"]
            if seat is None:
                continue  # the table's own (the next game of a match)
            if any(decision.entry == entry for decision in chosen.get((table, seat, number), [])):
                continue
            if entry["action"] not in FORCED or _repeats(entry, number, chosen, table, seat):
                duplicated += 1
    return lost, duplicated, diverged, stored


def _repeats(
    entry: dict[str, Any],
    number: int,
    chosen: dict[tuple[str, int, int], list[Decision]],
    table: str,
    seat: int,
) -> bool:
    """Whether a roll or play not chosen at ``number`` repeats the seat's last action chosen before it, sent
    more than once."""
    for version in range(number - 1, -1, -1):
        decisions = chosen.get((table, seat, version))
        if decisions:
            return any(decision.sends > 1 and decision.entry == entry for decision in decisions)
    return False


def run_load(
    games: int = 200,
    seconds: float = 60.0,
    kill_at: float | None = 30.0,
    database: str | None = None,
    seed: int = 2026,
    port: int | None = None,
    server_log: Path | None = None,
    think: float = 0.0,
) -> LoadReport:
    """Run the load (``kill_at`` None: no kill; ``think`` the clients' mean thinking time before each
    action) on ``database`` (a SQLite file in a temporary folder by default) and check what was stored;
    the server's output goes to ``server_log`` (by default beside the database, and gone with it)."""
    with tempfile.TemporaryDirectory(prefix="tavola-load-") as folder:
        database = database or f"sqlite:///{Path(folder) / 'server.sqlite3'}"
        log = server_log or Path(folder) / "server.log"
        return asyncio.run(_run(games, seconds, kill_at, database, seed, port or free_port(), log, think))


def show(report: LoadReport, console: Console) -> None:
    thinking = f", thinking {report.think:g} s" if report.think else ""
    figures = Table(title=f"tavola serve: {report.games} games for {report.seconds:.1f} s{thinking}")
    early, late = report.message_bytes()
    figures.add_column("")
    figures.add_column("", justify="right")
    rows = [
        ("actions acknowledged a second", f"{report.actions_per_second:.1f}"),
        ("latency p50 (sent → its state)", f"{report.latency(50) * 1000:.0f} ms"),
        ("latency p99", f"{report.latency(99) * 1000:.0f} ms"),
        ("actions chosen / acknowledged", f"{report.decisions} / {report.acknowledged}"),
        ("state message bytes, versions ≤ 20 / highest tenth", f"{early:,.0f} / {late:,.0f}"),
        ("acknowledged across the restart", str(report.recovered)),
        ("actions stored (forced ones and the table's too)", str(report.stored)),
        ("matches played / finished", f"{report.tables} / {report.finished}"),
        ("refusals", ", ".join(f"{kind}: {count}" for kind, count in sorted(report.refusals.items())) or "0"),
        ("server start", f"{report.start:.1f} s"),
        ("kill -9 → server answering", "-" if report.restart is None else f"{report.restart:.1f} s"),
        (
            "kill -9 → actions acknowledged again",
            "-" if report.recovery is None else f"{report.recovery:.1f} s",
        ),
        ("lost", str(report.lost)),
        ("duplicated", str(report.duplicated)),
        ("tables diverged", str(report.diverged)),
        ("errors the server logged", str(len(report.errors))),
    ]
    for name, value in rows:
        figures.add_row(name, value)
    console.print(figures)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games played at once")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the clients play")
    parser.add_argument("--kill-at", type=float, help="seconds into play to kill -9 the server (half way)")
    parser.add_argument("--no-kill", action="store_true", help="never kill the server")
    parser.add_argument("--database", help="the server's database (a SQLite file in a temporary folder)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--think", type=float, default=0.0, help="mean seconds a player thinks (default 0)")
    parser.add_argument("--server-log", type=Path, help="keep the server's output in this file")
    args = parser.parse_args()
    kill_at = None if args.no_kill else (args.seconds / 2 if args.kill_at is None else args.kill_at)
    report = run_load(
        args.games,
        args.seconds,
        kill_at,
        args.database,
        args.seed,
        server_log=args.server_log,
        think=args.think,
    )
    console = Console()
    show(report, console)
    for error in report.errors[:3]:
        console.print(error, markup=False, highlight=False)
    sys.exit(1 if report.lost or report.duplicated or report.diverged or report.errors else 0)


if __name__ == "__main__":
    main()
