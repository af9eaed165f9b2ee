"""The web server under load: many games at once over loopback WebSockets, and a kill -9 in the middle.

Run: python benchmarks/server_load.py [--games 200] [--seconds 60] [--kill-at 30 | --no-kill] [--think 0]
         [--warm-up 10] [--workers 1 | --servers 1] [--database URL | --postgresql] [--seed 2026]
         [--server-log PATH]
     python benchmarks/server_load.py --capacity [--think 1.5] [--seconds 30] [--warm-up 10] [--games 200]
         [--most-games 1600] [--steps 8] [--p99-under 100] [--workers 1 | --servers 1]
         [--database URL | --postgresql]
     python benchmarks/server_load.py --money-actions 1000 [--workers 1] [--database URL | --postgresql]

``tavola serve`` runs in a session of its own on 127.0.0.1 (a free port, a
SQLite file in a temporary folder unless ``--database`` names one, or
``--postgresql`` asks for a throwaway PostgreSQL cluster, removed after:
benchmarks/throwaway_postgresql.py), with ``--workers`` server processes
sharing the database and the port (one by default), or ``--servers``
processes started apart on ports of their own (``tavola serve --shared`` on
SQLite), each game's requests all sent to one of them by its table's id, as
a proxy hashing the table's id sends them. Each of
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

The run is measured once every game has its table made and both its
players shown it (the *ramp-up*, hundreds of tables made at once, is given
apart and not measured) and the games have then been played for
``--warm-up`` seconds more (10 by default, not measured either: every game
starts within the ramp-up, and the server still works through that burst
for some seconds after it), for ``--seconds`` from then. An action is
*acknowledged* when a state comes back past the version it was
chosen at, and the table's log (the actions each state message brings, or
the log's route for a client that missed some) holds it at that version; its
latency is from sending it to that state
(the thinking before it not counted). The actions *stored* a second count
every action the database holds from the measured time, the table's own
(forced rolls and plays, the next game) included: the server's work,
however the clients' choices fall, and what the processor times (the
server's and the clients', who share the machine) are divided by. The size of every state message is
kept with the table's version it shows, so the report says whether a
message grows with the session: the median size at versions up to 20 beside
the median at the highest tenth of the versions reached.
At ``--kill-at`` seconds the server, each of its processes, is killed with
SIGKILL and started again on the same database and port; the clients
reconnect and go on. An action
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

*Games held* (``--capacity``): the load of people thinking (``--think``,
1.5 s by default here) at ``--games`` games, then at twice as many while the
99th percentile of the latency stays under ``--p99-under`` milliseconds and
nothing is lost, duplicated or diverged (at half as many while it does not),
then half way between the most held and the fewest not held, until they are
within a tenth of each other, ``--most-games`` are held or ``--steps`` runs
are done. Each step is a run of ``--seconds`` (30 by default here) with no
kill, on a database of its own (a new SQLite file, or a new database in the
PostgreSQL cluster); a table gives each step's actions a second, p50 and
p99, and the most games held.

*A long money session* (``--money-actions N``): one money-session table
(a game after another, both players sending ``start_game`` between games),
its two players acting as fast as the server takes a connection's messages
(five a second) and a spectator watching on a WebSocket of its own, until
the table has done N actions. At the 10th, 100th, 1,000th ... and Nth
action it gives the size of the spectator's state message (the first from
that action on that stands before a roll, a play made and no cube offered,
so that the states compare like with like), the median size of the players'
state messages and the median time from an action sent to its state, these
two over the tenth of the session before the action (ten actions at least):
the 1,000th action's message should be no larger than the 10th's. Lost,
duplicated and diverged are counted as above.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import gc
import json
import os
import secrets
import signal
import ssl
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import msgspec
import numpy as np
import websockets
from rich.console import Console
from rich.table import Table

from tavola.web.storage import Store, open_database
from throwaway_postgresql import another_database, free_port, throwaway_postgresql

ROOT = Path(__file__).resolve().parent.parent

MATCH = {"kind": "game", "series": "match", "length": 3, "seats": [{}, {}]}
"""What each game's table is: a 3-point match between two people."""
MONEY = {"kind": "game", "series": "money", "seats": [{}, {}]}
"""The table of ``--money-actions``: a money session between two people, a game after another."""

TLS = ssl.create_default_context()
"""One TLS context for every client's transport (which speaks plain HTTP to the loopback): httpx makes one
for each transport otherwise, reading the certificate authorities every time (about 30 ms of the clients'
processor for each game's place, which held up seating hundreds of games at once for seconds)."""
DECODE = msgspec.json.Decoder().decode
ENCODE = msgspec.json.Encoder().encode
"""The clients' JSON, by msgspec (as the server's): the standard library's takes a share of the processor
the clients and the server share."""

RARE = ("double", "resign")
"""Actions a client takes only one time in :data:`RARE_CHANCE`'s inverse when it may."""
RARE_CHANCE = 0.05
NEVER = ("end_session",)
"""What a client never does: it plays on until the run is over."""
FORCED = ("roll", "play")
"""What the table does by itself for a seat: its forced rolls and forced plays (passes included)."""
IDLE = 2.0
"""The most seconds a client waits for a message before it looks whether the run is over (each look costs
the clients' processor, which the server shares)."""
GRACE = 15.0
"""Seconds the clients wait, after the time is up, for the answers to actions sent."""
RETRIES = 20
"""How many times an action refused at its version is sent again before its client chooses anew."""
PACE = 0.21
"""The fewest seconds between a client's messages in a money session: a little over the fifth of a second
at which the server takes a connection's messages."""
THINK_FOR_CAPACITY = 1.5
"""The players' mean thinking time in seconds where ``--capacity`` is not given one."""
PRECISION = 0.1
"""The capacity search ends when the fewest games not held are within this share of the most held."""


# --- the server ---------------------------------------------------------------------------------


class ServerProcess:
    """``tavola serve`` on 127.0.0.1:``port`` and ``database``, in a session of its own (this checkout's
    sources first) with ``workers`` server processes; its output goes to ``log``."""

    def __init__(
        self,
        database: str,
        port: int,
        log: Path,
        options: Sequence[str] = ("--search-workers", "0"),
        workers: int = 1,
    ) -> None:
        self.database = database
        self.port = port
        self.log = log
        self.options = tuple(options)
        """More of ``tavola serve``'s options: by default no search workers, since no game here has a bot
        and their start would only take CPU from the clients."""
        self.workers = workers
        self.url = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def command(self) -> list[str]:
        """The command that starts it (``--workers`` only for more than one process).

        >>> ServerProcess("sqlite:///s", 8080, Path("log"), (), workers=4).command[3:]
        ['serve', '--port', '8080', '--workers', '4', '--database', 'sqlite:///s']
        """
        workers = ["--workers", str(self.workers)] if self.workers > 1 else []
        serve = [sys.executable, "-m", "tavola", "serve", "--port", str(self.port), *workers, *self.options]
        return [*serve, "--database", self.database]

    def url_for(self, table: str) -> str:
        """The server that gets ``table``'s requests: this one."""
        return self.url

    def start(self) -> None:
        paths = [str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]
        environment = {**os.environ, "PYTHONPATH": os.pathsep.join(path for path in paths if path)}
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                self.command,
                env=environment,
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its workers in its process group, to kill them with it
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

    def cpu_seconds(self) -> float:
        """The processor time (user and system) the server's processes have used so far, read from
        Linux's ``/proc`` (``nan`` elsewhere): its process group's, search workers and ``--workers``
        processes included."""
        if self.process is None or not Path("/proc/self/stat").exists():
            return float("nan")
        total = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError):
                fields = stat.read_text().rsplit(")", 1)[1].split()
                if int(fields[2]) == self.process.pid:  # its process group (fields after the name)
                    total += int(fields[11]) + int(fields[12])
        return total / os.sysconf("SC_CLK_TCK")

    def kill(self) -> None:
        """kill -9 of the server's every process: no clean-up of any kind."""
        self._signal(signal.SIGKILL)
        if self.process is not None:
            self.process.wait()

    def stop(self) -> None:
        self._signal(signal.SIGTERM)
        if self.process is not None:
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()

    def _signal(self, number: signal.Signals) -> None:
        """Send ``number`` to the server's process group while its first process is not yet reaped."""
        if self.process is not None and self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, number)


class ServerGroup:
    """``tavola serve`` processes started apart on one database, each on a port of its own (sharing a SQLite
    file with ``--shared``): each game's requests all go to one of them, chosen by its table's id, as a proxy
    hashing the table's id sends them (:meth:`url_for`). Started, killed and stopped together; their output
    goes to one log."""

    def __init__(self, database: str, ports: Sequence[int], log: Path) -> None:
        shared = ("--shared",) if database.startswith("sqlite") else ()
        self.servers = [
            ServerProcess(database, port, log, ("--search-workers", "0", *shared)) for port in ports
        ]
        self.database = database
        self.log = log
        self.workers = len(self.servers)
        self.url = self.servers[0].url

    def url_for(self, table: str) -> str:
        """The server that gets every request of ``table``.

        >>> group = ServerGroup("sqlite:///s", [8080, 8081], Path("log"))
        >>> sorted({group.url_for(f"t{number}") for number in range(20)})
        ['http://127.0.0.1:8080', 'http://127.0.0.1:8081']
        """
        return self.servers[zlib.crc32(table.encode()) % len(self.servers)].url

    def start(self) -> None:
        for server in self.servers:
            server.start()

    async def ready(self, most: float = 180.0) -> None:
        await asyncio.gather(*(server.ready(most) for server in self.servers))

    def cpu_seconds(self) -> float:
        return sum(server.cpu_seconds() for server in self.servers)

    def kill(self) -> None:
        for server in self.servers:
            server.kill()

    def stop(self) -> None:
        for server in self.servers:
            server.stop()


Server = ServerProcess | ServerGroup
"""The server of a run: one ``tavola serve`` (with its ``--workers``), or several started apart."""


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
    route: Callable[[str], str] | None = None
    """The server that gets each table's requests, by its id (None: ``url``'s)."""
    think: float = 0.0
    """The mean seconds a client thinks before each action (0: none)."""
    pace: float = 0.0
    """The fewest seconds between a client's messages (0: it sends at once, whatever the server takes)."""
    table_options: dict[str, Any] = field(default_factory=lambda: MATCH)
    """The table each game's place makes."""
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
    games: int = 1
    """The games played at once: the run is measured once each has its first table seated and both its
    players connected and shown the table."""
    seated: int = 0
    """The players shown their first table so far."""
    everyone_seated: asyncio.Event = field(default_factory=asyncio.Event)
    measured_from: float = float("inf")
    """When every player was shown their first table (the ramp-up over): the latencies and the rates
    count from then."""
    window: tuple[float, float] = (0.0, float("inf"))
    """The measured time by the wall clock (Unix seconds), to count the actions stored in it."""
    killed: float | None = None
    restarted: float | None = None
    resumed: float | None = None
    """When the first action was acknowledged on a connection made after the kill."""

    def url_for(self, table: str) -> str:
        """Where every request of ``table`` goes."""
        return self.url if self.route is None else self.route(table)

    def acknowledge(self, decision: Decision, connection: int, opened: float) -> None:
        """``decision`` is done, as a state on the client's ``connection`` (made at ``opened``) shows."""
        decision.acknowledged = time.perf_counter()
        if self.killed is not None and opened > self.killed and self.resumed is None:
            self.resumed = decision.acknowledged
        if connection != decision.connection:
            self.recovered += 1
        elif decision.sent >= self.measured_from:
            self.latencies.append(decision.acknowledged - decision.sent)

    def seated_one(self) -> None:
        """A player was shown their first table."""
        self.seated += 1
        if self.seated == 2 * self.games:
            self.everyone_seated.set()

    def refused(self, error: dict[str, Any]) -> None:
        """Count a refusal by its status (none: too many messages)."""
        kind = str(error.get("status", "too many"))
        self.refusals[kind] = self.refusals.get(kind, 0) + 1


def choose(legal: Sequence[dict[str, Any]], rng: np.random.Generator) -> dict[str, Any]:
    """One of ``legal`` at random: a double or a resignation only one time in twenty when there is more,
    never the end of a session.

    >>> choose([{"action": "roll"}, {"action": "double"}], np.random.default_rng(1))
    {'action': 'roll'}
    >>> choose([{"action": "end_session"}, {"action": "start_game"}], np.random.default_rng(1))
    {'action': 'start_game'}
    """
    legal = [action for action in legal if action["action"] not in NEVER]
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
        *,
        in_ramp_up: bool = False,
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
        """When the client, thinking or pacing itself, acts on the state it was last shown (None: at once)."""
        self.last_sent = float("-inf")
        self.in_ramp_up = in_ramp_up
        """Whether the run waits for this player's first state before it measures (its game's first table)."""

    async def play(self) -> bool:
        """Play until the table is finished (True) or the run is over (False)."""
        address = self.run.url_for(self.table).replace("http://", "ws://") + f"/api/tables/{self.table}/live"
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
                    await websocket.send(ENCODE({"type": "hello", "token": self.token}).decode())
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
            wait = IDLE if self.ready_at is None else max(0.0, min(IDLE, self.ready_at - time.perf_counter()))
            try:
                async with asyncio.timeout(wait):  # no task of its own, as wait_for makes (a client's cost)
                    data = await websocket.recv(decode=False)  # the text's UTF-8 bytes, as sent
            except TimeoutError:
                await self._act(websocket)
                continue
            message = DECODE(data)
            if message["type"] == "state":
                self.run.sizes.append((message["state"]["version"], len(data)))
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
                response = await self.http.get(
                    f"{self.run.url_for(self.table)}/api/tables/{self.table}/log", params={"start": start}
                )
            except httpx.TransportError:
                return  # the server is away: the next state tells
            if response.status_code != 200 or not response.json()["entries"]:
                return
            self._learn(start, response.json()["entries"])

    async def _on_state(self, websocket: Any, state: dict[str, Any]) -> None:
        if self.in_ramp_up:
            self.in_ramp_up = False
            self.run.seated_one()
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
            if self.ready_at is None and (self.run.think > 0 or self.run.pace > 0):
                thought = float(self.rng.exponential(self.run.think)) if self.run.think > 0 else 0.0
                self.ready_at = max(time.perf_counter() + thought, self.last_sent + self.run.pace)
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
        if self.pending is pending and self.state is not None and self.state["version"] == pending.version:
            await self._send(websocket)  # else a state came meanwhile: it was done, or it is chosen anew

    async def _send(self, websocket: Any) -> None:
        pending = self.pending
        assert pending is not None
        pending.sends += 1
        self.sent_on = self.connections
        self.last_sent = time.perf_counter()
        act = {"type": "act", "action": pending.action, "version": pending.version}
        await websocket.send(ENCODE(act).decode())


# --- a game's place ---------------------------------------------------------------------------------


async def seat_people(
    http: httpx.AsyncClient, options: dict[str, Any], route: Callable[[str], str]
) -> tuple[str, dict[int, str]] | None:
    """A new table of ``options`` with both seats taken (at the server ``route`` gives for its id): its id
    and the seats' tokens (None: refused or away)."""
    try:
        created = await http.post("/api/tables", json=options)
        if created.status_code != 201:
            return None
        table = str(created.json()["id"])
        tokens = {}
        for seat, name in enumerate(("Ann", "Bob")):
            taken = await http.post(f"{route(table)}/api/tables/{table}/seats/{seat}", json={"name": name})
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
    """One of the run's games: a table (a match), then another when it is finished, until the time is up."""
    transport = httpx.AsyncHTTPTransport(local_address=_loopback(2 * place), verify=TLS)
    async with httpx.AsyncClient(base_url=run.url, transport=transport, timeout=60) as http:
        played = 0
        while not run.stopping:
            seated = await seat_people(http, run.table_options, run.url_for)
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
                    in_ramp_up=played == 0,
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
    workers: int = 1
    """The server's processes."""
    apart: bool = False
    """Whether they were started apart, each game's requests sent to one of them (``--servers``)."""
    cpu_seconds: float = float("nan")
    """The processor time the server used while the clients played (``nan`` across a kill -9)."""
    database: str = "SQLite"
    """The kind of the server's database: SQLite or PostgreSQL."""
    ramp_up: float = 0.0
    """Seconds from the start of play until every game had its table made and both players were shown it
    (not measured)."""
    warm_up: float = 0.0
    """Seconds played after the ramp-up before the measured time began (not measured)."""
    stored_measured: int = 0
    """The actions stored in the measured time: the people's and the table's own (forced rolls and plays,
    the next game), whoever chose them."""
    client_cpu_seconds: float = float("nan")
    """The processor time the clients (this process) used while they played: on a machine they share
    with the server, what is left to it."""

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

    @property
    def stored_per_second(self) -> float:
        """Every action stored a second: the server's work, however the clients' choices fall."""
        return self.stored_measured / self.seconds

    @property
    def cpu_per_action(self) -> float:
        """The server's processor seconds per action stored in the measured time."""
        return self.cpu_seconds / self.stored_measured if self.stored_measured else float("nan")

    @property
    def client_cpu_per_action(self) -> float:
        """The clients' processor seconds per action stored in the measured time."""
        return self.client_cpu_seconds / self.stored_measured if self.stored_measured else float("nan")

    def latency(self, percent: float) -> float:
        return float(np.percentile(self.latencies, percent)) if self.latencies else float("nan")

    @property
    def sound(self) -> bool:
        """Nothing lost, duplicated or diverged, and no error logged."""
        return not (self.lost or self.duplicated or self.diverged or self.errors)


def database_name(url: str) -> str:
    """The kind of database ``url`` names, as people write it.

    >>> database_name("sqlite:////tmp/server.sqlite3"), database_name("postgresql+psycopg://h/tavola")
    ('SQLite', 'PostgreSQL')
    """
    scheme = url.split(":", 1)[0].split("+", 1)[0]
    return {"sqlite": "SQLite", "postgresql": "PostgreSQL"}.get(scheme, scheme)


async def _started(server: Server) -> float:
    """Start ``server``: the seconds until it answers (stopped again where it does not: a process of a
    group that did start is not left serving)."""
    began = time.perf_counter()
    server.start()
    try:
        await server.ready()
    except BaseException:
        server.stop()
        raise
    return time.perf_counter() - began


async def _run(
    server: Server,
    games: int,
    seconds: float,
    kill_at: float | None,
    seed: int,
    think: float,
    warm_up: float = 0.0,
) -> LoadReport:
    start = await _started(server)
    until = time.perf_counter() + 2 * seconds + warm_up  # past the ramp-up and the warm-up: set again after
    run = Run(server.url, seed, deadline=until, think=think, games=games, route=server.url_for)
    try:
        places = [asyncio.create_task(game_place(run, place)) for place in range(games)]
        playing = time.perf_counter()
        with contextlib.suppress(TimeoutError):  # the ramp-up: every game's table made, both players shown it
            await asyncio.wait_for(run.everyone_seated.wait(), timeout=seconds)
        seated = time.perf_counter()
        await asyncio.sleep(warm_up)
        run.measured_from, measured_wall = time.perf_counter(), time.time()
        run.deadline = run.measured_from + seconds
        cpu_before, client_before = server.cpu_seconds(), time.process_time()
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
        elapsed = time.perf_counter() - run.measured_from
        run.window = (measured_wall, measured_wall + elapsed)
        cpu = server.cpu_seconds() - cpu_before if kill_at is None else float("nan")
        client_cpu = time.process_time() - client_before
    finally:
        server.stop()
    return _report(
        run, server, games, elapsed, start, cpu, client_cpu, ramp_up=seated - playing, warm_up=warm_up
    )


def _report(
    run: Run,
    server: Server,
    games: int,
    elapsed: float,
    start: float,
    cpu: float = float("nan"),
    client_cpu: float = float("nan"),
    ramp_up: float = 0.0,
    warm_up: float = 0.0,
) -> LoadReport:
    """What ``run`` measured, with what the server stored and logged: the actions acknowledged are those
    sent once every game was seated."""
    lost, duplicated, diverged, stored, in_window = check(run, server.database)
    acknowledged = [
        decision.acknowledged
        for decision in run.decisions
        if decision.acknowledged is not None and decision.sent >= run.measured_from
    ]
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
        errors=logged_errors(server.log.read_text(errors="replace")),
        start=start,
        restart=None if run.killed is None or run.restarted is None else run.restarted - run.killed,
        recovery=None if run.killed is None or run.resumed is None else run.resumed - run.killed,
        think=run.think,
        sizes=run.sizes,
        workers=server.workers,
        apart=isinstance(server, ServerGroup),
        cpu_seconds=cpu,
        database=database_name(server.database),
        client_cpu_seconds=client_cpu,
        ramp_up=ramp_up,
        warm_up=warm_up,
        stored_measured=in_window,
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


def check(run: Run, database: str) -> tuple[int, int, int, int, int]:
    """Lost, duplicated, diverged (see the module's description) and stored actions, from the database;
    and the actions stored in the measured time (:attr:`Run.window`)."""
    store = Store(open_database(database))
    by_table: dict[str, list[Decision]] = {}
    for decision in run.decisions:
        by_table.setdefault(decision.table, []).append(decision)
    lost = duplicated = diverged = stored = in_window = 0
    first, last = run.window
    for table in run.tables:
        rows = store.actions(table)
        log = [{"seat": row.seat, **row.action} for row in rows]
        stored += len(log)
        in_window += sum(1 for row in rows if first <= _unix(row.created) <= last)
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
    return lost, duplicated, diverged, stored, in_window


def _unix(moment: datetime.datetime) -> float:
    """A stored time as Unix seconds (SQLite gives it back without its zone, which is UTC)."""
    return (moment if moment.tzinfo else moment.replace(tzinfo=datetime.UTC)).timestamp()


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


def _server(
    folder: str,
    database: str | None,
    port: int | None,
    server_log: Path | None,
    workers: int,
    servers: int = 1,
) -> Server:
    """A run's server: on ``database`` (a SQLite file in ``folder`` by default) and a free port by default,
    its output in ``server_log`` (in ``folder`` by default); ``servers`` processes started apart, each on
    a free port, where more than one."""
    database = database or f"sqlite:///{Path(folder) / 'server.sqlite3'}"
    log = server_log or Path(folder) / "server.log"
    if servers > 1:
        if workers > 1:
            raise ValueError("--workers or --servers: processes sharing a port, or started apart")
        return ServerGroup(database, [free_port() for _ in range(servers)], log)
    return ServerProcess(database, port or free_port(), log, workers=workers)


def run_load(
    games: int = 200,
    seconds: float = 60.0,
    kill_at: float | None = 30.0,
    database: str | None = None,
    seed: int = 2026,
    port: int | None = None,
    server_log: Path | None = None,
    think: float = 0.0,
    workers: int = 1,
    warm_up: float = 0.0,
    servers: int = 1,
) -> LoadReport:
    """Run the load (``kill_at`` None: no kill; ``think`` the clients' mean thinking time before each
    action; ``warm_up`` the seconds played after the ramp-up before measuring) on ``workers`` server
    processes and ``database`` (a SQLite file in a temporary folder by default) and check what was
    stored; the server's output goes to ``server_log`` (by default beside the database, and gone with
    it)."""
    with tempfile.TemporaryDirectory(prefix="tavola-load-") as folder:
        server = _server(folder, database, port, server_log, workers, servers)
        return asyncio.run(_run(server, games, seconds, kill_at, seed, think, warm_up))


# --- games held -------------------------------------------------------------------------------------


@dataclass
class CapacityReport:
    """A search for the most games held: each step's run, in the order tried."""

    p99_under: float
    """The seconds the 99th percentile of the latency must stay under."""
    think: float
    seconds: float
    steps: list[LoadReport] = field(default_factory=list)

    def held(self, report: LoadReport) -> bool:
        """Whether a step held its games: answers in time, nothing lost, duplicated or diverged."""
        return report.sound and bool(report.latencies) and report.latency(99) < self.p99_under

    @property
    def most_held(self) -> int:
        """The most games of a step held (0: none)."""
        return max((report.games for report in self.steps if self.held(report)), default=0)


def next_games(held: int, failed: int | None, most: int) -> int | None:
    """The games of the search's next step, from the most held and the fewest not held so far (None: none
    failed yet): twice the most held up to ``most``, half the fewest not held while none is held, then
    half way between them, until they are within :data:`PRECISION` of each other (None: done).

    >>> next_games(200, None, 1600), next_games(1600, None, 1600), next_games(0, 200, 1600)
    (400, None, 100)
    >>> next_games(400, 800, 1600), next_games(400, 420, 1600), next_games(0, 1, 1600)
    (600, None, None)
    """
    if failed is None:
        return None if held >= most else min(2 * held, most)
    if held == 0:
        return failed // 2 or None
    if failed - held <= max(1, int(held * PRECISION)):
        return None
    return (held + failed) // 2


def run_capacity(
    start: int = 200,
    most: int = 1600,
    steps: int = 8,
    p99_under: float = 0.1,
    seconds: float = 30.0,
    think: float = THINK_FOR_CAPACITY,
    database: str | None = None,
    seed: int = 2026,
    workers: int = 1,
    warm_up: float = 0.0,
    servers: int = 1,
) -> CapacityReport:
    """Search for the most games held (:func:`next_games`) from ``start`` games, each step a run of
    ``seconds`` with no kill, at most ``steps`` of them and ``most`` games. Each step has a database of its
    own: a new SQLite file, or a new database in the cluster of a PostgreSQL ``database`` (a SQLite
    ``database`` named is shared by the steps)."""
    report = CapacityReport(p99_under, think, seconds)
    held, failed = 0, None
    games: int | None = min(start, most)
    while games is not None and len(report.steps) < steps:
        step_database = database
        if database is not None and database_name(database) == "PostgreSQL":
            step_database = another_database(database, f"tavola_{secrets.token_hex(4)}")
        measured = run_load(
            games,
            seconds,
            None,
            step_database,
            seed,
            think=think,
            workers=workers,
            warm_up=warm_up,
            servers=servers,
        )
        report.steps.append(measured)
        if report.held(measured):
            held = max(held, games)
        else:
            failed = games if failed is None else min(failed, games)
        games = next_games(held, failed, most)
    return report


# --- a long money session ---------------------------------------------------------------------------


class Spectator:
    """A spectator of the run's first table, over its WebSocket: keeps each state message's version and
    size, and whether its state stands before a roll (a play made, no cube offered, nothing over), where
    states compare like with like."""

    def __init__(self, run: Run, address: str) -> None:
        self.run = run
        self.address = address
        self.shown: list[tuple[int, int, bool]] = []
        """Each state message's version, size in bytes, and whether it stands before a roll."""
        self.games = 0
        """The number of the game last shown."""

    def before_a_roll(self, version: int) -> tuple[int, int] | None:
        """The first state shown before a roll at ``version`` or past it: its version and size."""
        return next(
            ((shown, size) for shown, size, before in self.shown if before and shown >= version), None
        )

    async def watch(self, until: int) -> None:
        """Watch until a state before a roll at version ``until`` or past it, or the run's deadline."""
        while not self.run.tables:
            if time.perf_counter() > self.run.deadline:
                return
            await asyncio.sleep(0.05)
        address = self.run.url.replace("http://", "ws://") + f"/api/tables/{self.run.tables[0]}/live"
        while self.before_a_roll(until) is None and time.perf_counter() < self.run.deadline:
            try:
                async with websockets.connect(
                    address, max_size=None, ping_interval=None, close_timeout=1, local_addr=(self.address, 0)
                ) as websocket:
                    while self.before_a_roll(until) is None:
                        wait = max(0.0, self.run.deadline - time.perf_counter())
                        self._note(await asyncio.wait_for(websocket.recv(), timeout=wait))
            except (OSError, TimeoutError, websockets.WebSocketException):
                await asyncio.sleep(0.1)

    def _note(self, text: str | bytes) -> None:
        message = json.loads(text)
        if message["type"] != "state":
            return
        state, game = message["state"], message["state"]["game"]
        before = game is not None and game["phase"] == "roll" and game["last_play"] is not None
        before = before and game["offer"] is None
        self.shown.append((state["version"], len(text.encode() if isinstance(text, str) else text), before))
        if game is not None:
            self.games = game["number"]


@dataclass
class MoneyMark:
    """What a money session's messages were at one of its actions, and what an action took there."""

    action: int
    shown: tuple[int, int] | None
    """The first spectator's state before a roll from the action on: its version and size in bytes."""
    player_bytes: float
    """The median size of the players' state messages over the tenth of the session before the action
    (ten actions at least)."""
    latency: float
    """The median seconds from sending an action to its state, over the same actions."""


@dataclass
class MoneyReport:
    """One long money session: the run's figures and the messages at some of its actions."""

    load: LoadReport
    marks: list[MoneyMark]
    games: int
    """The games the session played."""


def money_marks(actions: int) -> list[int]:
    """The actions a money session is measured at: 10, 100, 1,000 ... under ``actions``, and ``actions``.

    >>> money_marks(1000), money_marks(60), money_marks(5)
    ([10, 100, 1000], [10, 60], [5])
    """
    return [*(10**power for power in range(1, len(str(actions))) if 10**power < actions), actions]


def _mark(action: int, run: Run, spectator: Spectator) -> MoneyMark:
    first = action - max(10, action // 10)
    sizes = [size for version, size in run.sizes if first < version <= action]
    latencies = [
        decision.acknowledged - decision.sent
        for decision in run.decisions
        if decision.acknowledged is not None and first <= decision.version < action
    ]
    return MoneyMark(
        action,
        spectator.before_a_roll(action),
        float(np.median(sizes)) if sizes else float("nan"),
        float(np.median(latencies)) if latencies else float("nan"),
    )


async def _money(server: ServerProcess, actions: int, seconds: float, seed: int) -> MoneyReport:
    start = await _started(server)
    run = Run(server.url, seed, deadline=time.perf_counter() + seconds, pace=PACE, table_options=MONEY)
    spectator = Spectator(run, _loopback(2))
    try:
        place = asyncio.create_task(game_place(run, 0))
        playing = run.measured_from = time.perf_counter()
        await spectator.watch(until=actions)
        run.stopping = True
        await place
        elapsed = time.perf_counter() - playing
    finally:
        server.stop()
    marks = [_mark(action, run, spectator) for action in money_marks(actions)]
    return MoneyReport(_report(run, server, 1, elapsed, start), marks, spectator.games)


def run_money(
    actions: int = 1000,
    seconds: float | None = None,
    database: str | None = None,
    seed: int = 2026,
    workers: int = 1,
    server_log: Path | None = None,
) -> MoneyReport:
    """Play one money session until a state before a roll at ``actions`` actions or past it (for at most
    ``seconds``: by default half a second an action), its players acting as fast as the server takes a
    connection's messages, a spectator watching, and check what was stored."""
    with tempfile.TemporaryDirectory(prefix="tavola-money-") as folder:
        server = _server(folder, database, None, server_log, workers)
        limit = actions * 0.5 if seconds is None else seconds
        return asyncio.run(_money(server, actions, limit, seed))


# --- the report -------------------------------------------------------------------------------------


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def _server_line(report: LoadReport) -> str:
    processes = "process" if report.workers == 1 else "processes"
    apart = ", started apart, each game's to one" if report.apart else ""
    return f"{report.workers} server {processes}{apart}, {report.database}"


def _faults(report: LoadReport) -> str:
    """Lost / duplicated / diverged / errors logged."""
    return f"{report.lost} / {report.duplicated} / {report.diverged} / {len(report.errors)}"


def show(report: LoadReport, console: Console) -> None:
    thinking = f", thinking {report.think:g} s" if report.think else ""
    figures = Table(title=f"tavola serve: {report.games} games for {report.seconds:.1f} s{thinking}")
    early, late = report.message_bytes()
    figures.add_column("")
    figures.add_column("", justify="right")
    rows = [
        ("server", _server_line(report)),
        ("every game seated and shown after (not measured)", f"{report.ramp_up:.1f} s"),
        ("then played before the measured time (not measured)", f"{report.warm_up:.1f} s"),
        ("actions acknowledged a second", f"{report.actions_per_second:.1f}"),
        ("actions stored a second (forced ones and the table's too)", f"{report.stored_per_second:.1f}"),
        ("latency p50 (sent → its state)", _ms(report.latency(50))),
        ("latency p99", _ms(report.latency(99))),
        ("server processor time per action stored", f"{report.cpu_per_action * 1000:.2f} ms"),
        ("clients' processor time per action stored", f"{report.client_cpu_per_action * 1000:.2f} ms"),
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


def show_capacity(report: CapacityReport, console: Console) -> None:
    limit = _ms(report.p99_under)
    figures = Table(
        title=f"tavola serve: games held with p99 under {limit}, players thinking {report.think:g} s, "
        f"{report.seconds:g} s a step",
        caption=f"most games held: {report.most_held}"
        + (f" ({_server_line(report.steps[0])})" if report.steps else ""),
    )
    for name in ("games", "actions a second", "p50", "p99", "lost / duplicated / diverged / errors", "held"):
        figures.add_column(name, justify="right")
    for step in report.steps:
        held = "yes" if report.held(step) else "no"
        figures.add_row(
            str(step.games),
            f"{step.actions_per_second:.1f}",
            _ms(step.latency(50)),
            _ms(step.latency(99)),
            _faults(step),
            held,
        )
    console.print(figures)


def show_money(report: MoneyReport, console: Console) -> None:
    load = report.load
    figures = Table(
        title=f"tavola serve: one money session, {load.stored} actions in {report.games} games, "
        f"{load.seconds:.0f} s",
        caption="the players' bytes and times: over the tenth of the session before the action (ten at least)"
        f"\nlost / duplicated / diverged / errors: {_faults(load)} ({_server_line(load)})",
    )
    for name in (
        "action",
        "spectator's state at",
        "its bytes",
        "players' bytes, median",
        "sent → state, median",
    ):
        figures.add_column(name, justify="right")
    for mark in report.marks:
        version, size = ("-", "-") if mark.shown is None else (f"{mark.shown[0]:,}", f"{mark.shown[1]:,}")
        figures.add_row(f"{mark.action:,}", version, size, f"{mark.player_bytes:,.0f}", _ms(mark.latency))
    console.print(figures)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games played at once (--capacity: at first)")
    parser.add_argument(
        "--seconds",
        type=float,
        help="how long the clients play (60; --capacity: 30 a step; --money-actions: at most half a second "
        "an action)",
    )
    parser.add_argument("--kill-at", type=float, help="seconds into play to kill -9 the server (half way)")
    parser.add_argument("--no-kill", action="store_true", help="never kill the server")
    databases = parser.add_mutually_exclusive_group()
    databases.add_argument("--database", help="the server's database (a SQLite file in a temporary folder)")
    databases.add_argument(
        "--postgresql", action="store_true", help="serve from a throwaway PostgreSQL cluster, removed after"
    )
    processes = parser.add_mutually_exclusive_group()
    processes.add_argument(
        "--workers", type=int, default=1, help="tavola serve's server processes, sharing its port (default 1)"
    )
    processes.add_argument(
        "--servers",
        type=int,
        default=1,
        help="tavola serve processes started apart, each game's requests sent to one by its table's id, as a "
        "proxy hashing the id would (default 1)",
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--think",
        type=float,
        help=f"mean seconds a player thinks (default 0; {THINK_FOR_CAPACITY:g} with --capacity)",
    )
    parser.add_argument(
        "--warm-up",
        type=float,
        default=10.0,
        help="seconds played once every game is seated, before the measured time (10)",
    )
    parser.add_argument("--server-log", type=Path, help="keep the server's output in this file")
    modes = parser.add_mutually_exclusive_group()
    modes.add_argument(
        "--capacity",
        action="store_true",
        help="find the most games held with p99 under --p99-under (no kill)",
    )
    modes.add_argument(
        "--money-actions",
        type=int,
        metavar="N",
        help="play one money session to N actions and measure its messages at 10, 100, 1,000 ... and N",
    )
    parser.add_argument(
        "--p99-under",
        type=float,
        default=100.0,
        metavar="MS",
        help="--capacity: the latency's p99 limit (100 ms)",
    )
    parser.add_argument("--most-games", type=int, default=1600, help="--capacity: the most games tried")
    parser.add_argument("--steps", type=int, default=8, help="--capacity: the most steps")
    args = parser.parse_args()
    gc.disable()  # the clients' own collections would pause them and count as the server's latency
    if args.money_actions is not None and args.servers > 1:
        parser.error("--money-actions plays one table, on one server: --servers is for many games")
    if args.capacity and args.server_log:
        parser.error("--server-log keeps one run's output, and --capacity makes several")
    console = Console()
    with contextlib.ExitStack() as cluster:
        database = cluster.enter_context(throwaway_postgresql()) if args.postgresql else args.database
        if args.money_actions is not None:
            money = run_money(
                args.money_actions, args.seconds, database, args.seed, args.workers, args.server_log
            )
            show_money(money, console)
            reports = [money.load]
        elif args.capacity:
            capacity = run_capacity(
                args.games,
                args.most_games,
                args.steps,
                args.p99_under / 1000,
                30.0 if args.seconds is None else args.seconds,
                THINK_FOR_CAPACITY if args.think is None else args.think,
                database,
                args.seed,
                args.workers,
                args.warm_up,
                args.servers,
            )
            show_capacity(capacity, console)
            reports = capacity.steps
        else:
            seconds = 60.0 if args.seconds is None else args.seconds
            kill_at = None if args.no_kill else (seconds / 2 if args.kill_at is None else args.kill_at)
            report = run_load(
                args.games,
                seconds,
                kill_at,
                database,
                args.seed,
                server_log=args.server_log,
                think=args.think or 0.0,
                workers=args.workers,
                warm_up=args.warm_up,
                servers=args.servers,
            )
            show(report, console)
            reports = [report]
    for error in [error for report in reports for error in report.errors][:3]:
        console.print(error, markup=False, highlight=False)
    sys.exit(0 if all(report.sound for report in reports) else 1)


if __name__ == "__main__":
    main()
