"""The server's JSON API and its WebSocket: :func:`create_app` makes the ASGI application.

Every route is under ``/api`` and documented at ``/docs`` (OpenAPI at
``/openapi.json``); docs/server.md describes the API, the security model,
the storage and the recovery. In short:

* ``GET /api/tables``: the lobby, open and live tables;
  ``POST /api/tables``: a new table (:mod:`tavola.web.options`);
* ``POST /api/tables/{id}/seats/{index}``: sit down, receiving the seat's
  token (and a cookie holding it);
* ``GET /api/tables/{id}``: the table as a seat (with its token) or a
  spectator sees it (:func:`tavola.web.state.table_state`);
* ``POST /api/tables/{id}/actions``: act (:mod:`tavola.web.actions`);
* ``POST /api/tables/{id}/chat``, ``GET /api/tables/{id}/chat``;
* ``GET /api/tables/{id}/dice``: the commitment, the dice used and, at the
  end, the secret, checked with :func:`tavola.dicesource.verify`;
* ``GET /api/tables/{id}/record.json`` and ``record.mat``: the play as
  Tavola's JSON record or a ``.mat`` file;
* ``GET /api/tables/{id}/analysis.html``: a finished match or session analysed,
  as the HTML report (:mod:`tavola.analysis`; ``?level=`` as ``tavola analyze``'s);
* ``GET /api/tables/{id}/hint``: the bot's best plays for the roll being
  played, at tables that allow hints (:mod:`tavola.web.hints`);
* ``WS /api/tables/{id}/live``: the state after every action, and chat (a
  chouette side's own channel with ``"scope": "team"``).

The page itself is served too: ``/`` the lobby, ``/t/{id}`` a table (the
same document, ``static/index.html``), and its scripts, styles and words under
``/static``.

Errors are ``{"error": "..."}``: the engine's own message for a refused
action, with 400 (a bad action or bad options), 403 (no token, or another
seat's), 404, 409 (a seat taken, a table not being played), 413 (too
large) or 429 (too many requests).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import threading
import unicodedata
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib.metadata import version as _installed_version
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, TypeAdapter
from sqlalchemy.engine import Engine
from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocketState

from tavola.analysis.analyze import analyze_series
from tavola.analysis.html import report_html
from tavola.analysis.levels import analysis_level
from tavola.bot.player import Bot
from tavola.dicesource import verify
from tavola.errors import DiceVerificationError, SeatingError, TavolaError
from tavola.i18n import _, language
from tavola.records import mat_text, to_json
from tavola.schema import JsonTextError, parse_json, read_shape
from tavola.web.guard import Guard, cross_origin
from tavola.web.hints import HINT_LEVEL, HintQuestion, hint_json, hint_question
from tavola.web.limits import MAX_CHAT, MAX_MESSAGE, Limits, RateLimits, TokenBucket, too_large, too_many
from tavola.web.live import (
    DamagedTableError,
    LiveTable,
    NotFoundError,
    StateError,
    StorageError,
    TokenError,
    not_playing,
)
from tavola.web.options import ChouetteOptions, GameOptions, TableOptions, read_options
from tavola.web.searches import PooledBot, SearchPool
from tavola.web.state import table_state, table_summary
from tavola.web.storage import ChatRow, Store

WEB_ANALYSIS_LEVEL = "1-ply"
"""How deep a finished table's report looks unless asked (a few seconds a match; ``?level=2-ply`` for the
strongest, as ``tavola analyze`` does by default)."""
MAX_REPORTS = 32
"""Analysis reports kept made (a finished table never changes); the oldest goes first."""

__all__ = ["Hub", "create_app"]

LOG = logging.getLogger("tavola.web")

COOKIE = "tavola_seat"
"""The cookie holding a seat's token, one per table (its path is the table's)."""

STATIC = Path(__file__).with_name("static")
"""The page: ``index.html`` (the lobby and a table), its modules, its style and its words (``i18n/``)."""


# --- the tables the server holds ------------------------------------------------------------


@dataclass(eq=False)
class _Connection:
    """A WebSocket watching a table: what it is sent waits in ``queue`` (filled from any thread)."""

    loop: asyncio.AbstractEventLoop
    address: str = "?"
    viewer: int | None = None
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)

    def send(self, message: dict[str, Any]) -> None:
        self.loop.call_soon_threadsafe(self.queue.put_nowait, message)


class Hub:
    """Every table in play, loaded once and kept; the connections watching each.

    Each table has its own lock (:attr:`LiveTable.lock`): the engine runs one
    action of a table at a time, and no table waits on another. The hub's
    own lock guards only its dictionaries. A table whose stored log no longer
    replays is set aside (:attr:`damaged`) and answered with
    :class:`~tavola.web.live.DamagedTableError`; the others are served.
    """

    def __init__(self, store: Store, make_bot: Callable[[str], Bot]) -> None:
        self.store = store
        self.make_bot = make_bot
        self.lock = threading.RLock()
        self.tables: dict[str, LiveTable] = {}
        self.damaged: dict[str, str] = {}
        """The tables set aside, with why."""
        self.watchers: dict[str, set[_Connection]] = {}
        self._loading: dict[str, threading.Lock] = {}
        self._hint_bot: Bot | None = None

    def resume_all(self) -> int:
        """Load every unfinished table, replaying its actions; how many were loaded. A table that does
        not replay is set aside with one line in the log saying which and why."""
        rows = self.store.tables(("open", "live"), limit=1_000_000)
        loaded = 0
        for row in rows:
            try:
                self.get(row.id)
            except DamagedTableError:
                continue  # logged and set aside by get
            except Exception as error:  # the store failing now: the table is loaded at its next request
                LOG.warning("table %s was not loaded at start: %s", row.id, error)
                continue
            loaded += 1
        return loaded

    def get(self, table_id: str) -> LiveTable:
        """The table, loaded from the store the first time; :class:`NotFoundError` where there is none,
        :class:`DamagedTableError` where it was set aside.

        A table is loaded holding a lock of its own, never the hub's: replaying a long session delays
        no other table.
        """
        with self.lock:
            table = self.tables.get(table_id)
            if table is not None:
                return table
            if table_id in self.damaged:
                raise DamagedTableError(self.damaged[table_id])
            loading = self._loading.setdefault(table_id, threading.Lock())
        with loading:
            try:
                with self.lock:  # loaded, or set aside, while this request waited for the loading lock
                    table = self.tables.get(table_id)
                    if table is not None:
                        return table
                    if table_id in self.damaged:
                        raise DamagedTableError(self.damaged[table_id])
                if self.store.table(table_id) is None:
                    raise NotFoundError(_("there is no table {table}").format(table=table_id))
                table = LiveTable.load(table_id, self.store, self.make_bot)
            except DamagedTableError as error:
                with self.lock:
                    first = table_id not in self.damaged
                    self.damaged[table_id] = str(error)
                    self._loading.pop(table_id, None)
                if first:
                    LOG.error("%s", error)
                raise
            except BaseException:
                with self.lock:
                    self._loading.pop(table_id, None)
                raise
            with self.lock:  # kept and its loading lock gone at once: no second copy is ever loaded
                self._loading.pop(table_id, None)
                return self._watch(table)

    def store_chat(self, table_id: str, seat: int, text: str) -> ChatRow:
        """Store a chat message (:class:`StorageError` where the database cannot)."""
        try:
            return self.store.append_chat(table_id, seat, text)
        except Exception as error:
            raise StorageError(_not_stored_chat(error)) from error

    def create(self, options: GameOptions | ChouetteOptions) -> LiveTable:
        table = LiveTable.create(uuid.uuid4().hex[:16], options, self.store, self.make_bot)
        with self.lock:
            return self._watch(table)

    def state(self, table: LiveTable, viewer: int | None) -> dict[str, Any]:
        """What ``viewer`` sees of ``table`` now: the stored table, never one ahead of the store."""
        with table.lock:
            table.check()
            return table_state(table, viewer)

    def hint_bot(self) -> Bot:
        """The bot that gives hints where no search pool does (made at the first hint, then kept)."""
        with self.lock:
            if self._hint_bot is None:
                self._hint_bot = self.make_bot(HINT_LEVEL)
            return self._hint_bot

    def _watch(self, table: LiveTable) -> LiveTable:
        table.listeners.append(self._changed)
        self.tables[table.id] = table
        return table

    def watch(self, table_id: str, connection: _Connection) -> None:
        with self.lock:
            self.watchers.setdefault(table_id, set()).add(connection)

    def unwatch(self, table_id: str, connection: _Connection) -> None:
        with self.lock:
            watching = self.watchers.get(table_id)
            if watching is not None:
                watching.discard(connection)
                if not watching:
                    del self.watchers[table_id]

    def connections(self, table_id: str) -> list[_Connection]:
        with self.lock:
            return list(self.watchers.get(table_id, ()))

    def _changed(self, table: LiveTable) -> None:
        """Send the new state to everyone watching (computed here, under the table's lock, once per
        viewer)."""
        states: dict[int | None, dict[str, Any]] = {}
        for connection in self.connections(table.id):
            if connection.viewer not in states:
                states[connection.viewer] = {"type": "state", "state": table_state(table, connection.viewer)}
            connection.send(states[connection.viewer])

    def broadcast(self, table_id: str, message: dict[str, Any]) -> None:
        for connection in self.connections(table_id):
            connection.send(message)


# --- the API's bodies, for the documentation -------------------------------------------------


class SeatRequest(BaseModel):
    """Who sits down: their name (or the one the table reserved for the seat)."""

    name: str | None = None


class ActionRequest(BaseModel):
    """An action, as :mod:`tavola.web.actions` writes it: ``{"action": "roll"}``,
    ``{"action": "play", "play": "8/5 6/5"}``, ``{"action": "double", "against": ["Ben"]}``..."""

    model_config = ConfigDict(extra="allow")
    action: str


class ChatRequest(BaseModel):
    """A chat message from a seat."""

    text: str


# --- the application --------------------------------------------------------------------------


def create_app(
    engine: Engine,
    make_bot: Callable[[str], Bot] | None = None,
    *,
    posts: RateLimits | None = None,
    searches: SearchPool | None = None,
    trusted_origins: Sequence[str] = (),
    limits: Limits | None = None,
) -> FastAPI:
    """The ASGI application serving the tables stored in ``engine``'s database (already migrated).

    Every unfinished table is rebuilt when the application starts. ``posts``
    limits the POST requests of each client address (by default a burst of
    30, then 10 a second); ``limits`` the rest (:class:`Limits`).
    ``searches``, when given, runs the bot's searches (its turns and the
    hints) in worker processes; the bots are then made there, and
    ``make_bot`` must be None. ``trusted_origins`` are the origins, besides
    the server's own, whose pages may act (``https://club.example``).
    """
    if searches is not None and make_bot is not None:
        raise ValueError("with a search pool the bots are the pool's: give no make_bot")
    store = Store(engine)
    hub = Hub(store, make_bot or _default_bot_maker(searches))
    posts = posts or RateLimits(capacity=30, per_second=10)
    limits = limits or Limits()
    schemas: dict[str, Any] = {}

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await run_in_threadpool(hub.resume_all)
        try:
            yield
        finally:
            if searches is not None:
                searches.close()

    app = FastAPI(
        title="Tavola",
        summary="Backgammon against the bot, with friends and at chouette tables, with verifiable dice.",
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.state.trusted_origins = tuple(trusted_origins)
    app.add_middleware(
        Guard,
        posts=posts,
        trusted_origins=trusted_origins,
        connections_per_address=limits.connections_per_address,
    )

    @app.exception_handler(TavolaError)
    async def refused(_request: Request, error: TavolaError) -> Response:
        return _error(_status(error), str(error))

    @app.exception_handler(RequestValidationError)
    async def malformed(_request: Request, error: RequestValidationError) -> Response:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"][1:]) or "body"
        return _error(400, f"{where}: {first['msg']}")

    @app.get("/api/tables", summary="The lobby: open and live tables")
    async def lobby(status: str = "open,live") -> dict[str, Any]:
        wanted = [part for part in status.split(",") if part in ("open", "live", "finished")]

        def listed() -> list[dict[str, Any]]:
            summaries = []
            for row in store.tables(wanted, limit=200):
                try:
                    table = hub.get(row.id)
                    with table.lock:
                        table.check()
                        summaries.append(table_summary(table))
                except Exception as error:  # set aside, or not readable now: not listed
                    if not isinstance(error, DamagedTableError | StorageError):
                        LOG.warning("table %s left out of the lobby: %r", row.id, error)
                    continue
            return summaries

        return {"tables": await run_in_threadpool(listed)}

    @app.post(
        "/api/tables",
        status_code=201,
        summary="Create a table",
        openapi_extra=_body(TableOptions, schemas),
    )
    async def create(request: Request) -> Any:
        data = await _json_body(request)

        def made() -> dict[str, Any]:
            return hub.state(hub.create(read_options(data)), None)

        return await run_in_threadpool(made)

    @app.get("/api/tables/{table_id}", summary="The table, as a seat (with its token) or a spectator sees it")
    async def state(table_id: str, request: Request) -> dict[str, Any]:
        def seen() -> dict[str, Any]:
            table = hub.get(table_id)
            return hub.state(table, table.seat_of_token(_token(request, table_id)))

        return await run_in_threadpool(seen)

    @app.post(
        "/api/tables/{table_id}/seats/{index}",
        summary="Take a seat: its token comes back",
        openapi_extra=_body(SeatRequest, schemas),
    )
    async def take_seat(table_id: str, index: int, request: Request) -> Response:
        seat = read_shape(SeatRequest, await _json_body(request), BodyError, "the body")

        def taken() -> dict[str, Any]:
            table = hub.get(table_id)
            token = table.take_seat(index, seat.name)
            try:
                seen: dict[str, Any] | None = hub.state(table, index)
            except Exception:  # the seat is stored and the token is theirs: the state comes later
                LOG.warning("table %s: seat %s taken, its state not readable now", table_id, index)
                seen = None
            return {"seat": index, "token": token, "state": seen}

        result = await run_in_threadpool(taken)
        response = JSONResponse(result)
        response.set_cookie(
            COOKIE, result["token"], path=f"/api/tables/{table_id}", httponly=True, samesite="strict"
        )
        return response

    @app.post(
        "/api/tables/{table_id}/actions",
        summary="Act for a seat (its token needed)",
        openapi_extra=_body(ActionRequest, schemas),
    )
    async def act(table_id: str, request: Request, version: int | None = None) -> dict[str, Any]:
        data = await _json_body(request)
        token = _token(request, table_id)
        return await run_in_threadpool(_acted, hub, table_id, token, data, version)

    @app.post(
        "/api/tables/{table_id}/chat",
        summary="Say something at the table (a seat's token needed)",
        openapi_extra=_body(ChatRequest, schemas),
    )
    async def chat(table_id: str, request: Request) -> dict[str, Any]:
        message = read_shape(ChatRequest, await _json_body(request), BodyError, "the body")
        token = _token(request, table_id)
        return await run_in_threadpool(_chatted, hub, table_id, token, message.text)

    @app.get("/api/tables/{table_id}/chat", summary="The last chat messages")
    async def chat_log(table_id: str) -> dict[str, Any]:
        def messages() -> dict[str, Any]:
            table = hub.get(table_id)
            return {"messages": [_chat_json(table, row) for row in store.chat(table_id)]}

        return await run_in_threadpool(messages)

    @app.get(
        "/api/tables/{table_id}/dice", summary="The verifiable dice: commitment, dice used, secret at the end"
    )
    async def dice(table_id: str) -> dict[str, Any]:
        def shown() -> dict[str, Any]:
            table = hub.get(table_id)
            with table.lock:
                table.check()
                secret = table.secret
                used = list(table.dice.rolls_so_far)
                data: dict[str, Any] = {
                    "scheme": "tavola-dice-v1",
                    "commitment": table.dice.commitment,
                    "secret": secret,
                    "used": len(used),
                    "dice": used,
                    "verified": None,
                }
            if secret is not None:
                try:
                    verify(data["commitment"], secret, used)
                    data["verified"] = True
                except DiceVerificationError as error:
                    data.update(verified=False, error=str(error))
            return data

        return await run_in_threadpool(shown)

    @app.get("/api/tables/{table_id}/record.json", summary="The play as Tavola's JSON record")
    async def record_json(table_id: str) -> Response:
        def written() -> dict[str, Any]:
            table = hub.get(table_id)
            with table.lock:
                table.check()
                if table.game_table is not None:
                    return to_json(table.game_table.series)
                if table.chouette_table is not None:
                    from tavola.chouette import record

                    return record.to_json(table.chouette_table.chouette)
            raise StateError(not_playing(table.status))

        data = await run_in_threadpool(written)
        return JSONResponse(data, headers=_attachment(f"tavola-{table_id}.json"))

    @app.get("/api/tables/{table_id}/record.mat", summary="The match or session as a .mat file")
    async def record_mat(table_id: str) -> Response:
        def written() -> str:
            table = hub.get(table_id)
            with table.lock:
                table.check()
                if table.game_table is None:
                    raise StateError(_("a .mat file holds two-player play: a chouette's record is JSON"))
                return mat_text(table.game_table.series)

        text = await run_in_threadpool(written)
        return PlainTextResponse(text, headers=_attachment(f"tavola-{table_id}.mat"))

    reports: dict[tuple[str, str, str], str] = {}

    @app.get(
        "/api/tables/{table_id}/analysis.html",
        summary="A finished match or session analysed: the HTML report",
        response_class=HTMLResponse,
    )
    async def analysis_report(table_id: str, level: str = WEB_ANALYSIS_LEVEL) -> Response:
        def reported() -> str:
            title = analysis_level(level).title  # a bad level is refused before anything is copied
            table = hub.get(table_id)
            with table.lock:
                table.check()
                if table.game_table is None:
                    raise StateError(_("the analysis report covers two-player tables, not a chouette"))
                if table.status != "finished":
                    raise StateError(_("a table is analysed once it is finished"))
                series = copy.deepcopy(table.game_table.series)  # analysed outside the lock
            key = (table_id, title, language())
            if key not in reports:
                if len(reports) >= MAX_REPORTS:
                    del reports[next(iter(reports))]
                reports[key] = report_html(analyze_series(series, level=level, source=f"/t/{table_id}"))
            return reports[key]

        return HTMLResponse(await run_in_threadpool(reported))

    hint_rates = RateLimits(limits.hints_at_once, limits.hints_per_second)
    hint_addresses = RateLimits(limits.hints_at_once * 4, limits.hints_per_second * 4)

    @app.get(
        "/api/tables/{table_id}/hint",
        summary="The bot's best plays for the roll being played (a seat's token needed)",
    )
    async def hint(table_id: str, request: Request) -> dict[str, Any]:
        token = _token(request, table_id)

        def asked() -> HintQuestion:
            table = hub.get(table_id)
            with table.lock:
                table.check()
                seat = table.seat_of_token(token)
                question = hint_question(table, seat)
            address = request.client.host if request.client else "?"
            if not (hint_rates.allow(f"{table_id}/{seat}") and hint_addresses.allow(address)):
                raise _TooManyError(_("too many hints: wait a moment and ask again"))
            return question

        question = await run_in_threadpool(asked)
        if searches is not None:
            answer = await searches.run(HINT_LEVEL, question.method, *question.args, **question.kwargs)
        else:
            method = getattr(hub.hint_bot(), question.method)
            answer = await run_in_threadpool(lambda: method(*question.args, **question.kwargs))
        return hint_json(question, answer)

    ws_rates = RateLimits(limits.messages_at_once, limits.messages_per_second)

    @app.websocket("/api/tables/{table_id}/live")
    async def live(websocket: WebSocket, table_id: str) -> None:
        await _live(websocket, hub, table_id, ws_rates)

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> Response:
        return _page()

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> Response:
        return _page()

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = get_openapi(
                title=app.title, version=_version(), summary=app.summary, routes=app.routes
            )
            document.setdefault("components", {}).setdefault("schemas", {}).update(schemas)
            app.openapi_schema = document
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


def _body(kind: Any, schemas: dict[str, Any]) -> dict[str, Any]:
    """A request body's OpenAPI, for a body read by Tavola's own checks; its parts go into ``schemas``."""
    schema = TypeAdapter(kind).json_schema(ref_template="#/components/schemas/{model}")
    schemas.update(schema.pop("$defs", {}))
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}}


# --- acting -----------------------------------------------------------------------------------


def _seat_for(table: LiveTable, token: str | None) -> int:
    seat = table.seat_of_token(token)
    if seat is None:
        raise TokenError(_("a seat acts only with its own token: sit down first, or send the seat's token"))
    return seat


def _acted(
    hub: Hub, table_id: str, token: str | None, data: object, version: int | None = None
) -> dict[str, Any]:
    table = hub.get(table_id)
    seat = _seat_for(table, token)
    table.act(seat, data, version)
    return hub.state(table, seat)


def _chatted(hub: Hub, table_id: str, token: str | None, text: str) -> dict[str, Any]:
    table = hub.get(table_id)
    seat = _seat_for(table, token)
    row = hub.store_chat(table_id, seat, _chat_text(text))
    message = _chat_json(table, row)
    hub.broadcast(table_id, {"type": "chat", "message": message})
    return message


def _not_stored_chat(error: Exception) -> str:
    return _("the database could not store the message ({error}): send it again").format(
        error=type(error).__name__
    )


def _chat_json(table: LiveTable, row: Any) -> dict[str, Any]:
    return {
        "seat": row.seat,
        "name": table.seats[row.seat].name,
        "text": row.text,
        "time": row.created.isoformat(),
    }


async def _live(websocket: WebSocket, hub: Hub, table_id: str, rates: RateLimits) -> None:
    """The WebSocket: the state now and after every action, chat; acting and chatting as a seat."""
    await websocket.accept()
    try:
        table = await run_in_threadpool(hub.get, table_id)
    except TavolaError as error:
        await websocket.send_json({"type": "error", "error": str(error)})
        await websocket.close(code=4404)
        return
    connection = _Connection(
        asyncio.get_running_loop(), address=websocket.client.host if websocket.client else "?"
    )
    connection.viewer = table.seat_of_token(websocket.cookies.get(COOKIE))
    bucket = TokenBucket(capacity=20, per_second=5)

    def hello() -> None:
        hub.watch(table_id, connection)
        try:
            connection.send({"type": "state", "state": hub.state(table, connection.viewer)})
        except TavolaError as error:
            connection.send({"type": "error", "error": str(error), "status": _status(error)})
        except Exception:  # the state comes with the table's next action
            LOG.exception("table %s: its state could not be sent to a new connection", table_id)

    sender = asyncio.create_task(_send_queued(websocket, connection))
    try:
        await run_in_threadpool(hello)
        while websocket.application_state == WebSocketState.CONNECTED:  # else sending found it closed
            received = await websocket.receive()
            if received["type"] == "websocket.disconnect":
                break
            text = received.get("text")
            if not (bucket.allow() and rates.allow(connection.address)):
                reply: dict[str, Any] | None = {"type": "error", "error": too_many(), "status": 429}
            elif text is None:
                reply = {
                    "type": "error",
                    "error": _("messages are JSON text, not binary frames"),
                    "status": 400,
                }
            else:
                reply = await _answer(hub, table, connection, text)
            if reply is not None:
                connection.send(reply)
    except WebSocketDisconnect:
        pass
    finally:
        hub.unwatch(table_id, connection)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sender


async def _send_queued(websocket: WebSocket, connection: _Connection) -> None:
    """Send what the connection is sent, until the client is gone (it may go in the middle of a message)."""
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            message = await connection.queue.get()
            await websocket.send_json(message)


async def _answer(hub: Hub, table: LiveTable, connection: _Connection, text: str) -> dict[str, Any] | None:
    """What one message from a WebSocket does; the error to send back, if any."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        return {"type": "error", "error": too_large(), "status": 413}
    try:
        message = parse_json(text)
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "hello":
            token = message.get("token")
            seat = table.seat_of_token(token if isinstance(token, str) else None)
            if seat is None:
                raise TokenError(
                    _("a seat acts only with its own token: sit down first, or send the seat's token")
                )
            connection.viewer = seat
            return {"type": "state", "state": await run_in_threadpool(hub.state, table, seat)}
        if kind == "act":
            if connection.viewer is None:
                raise TokenError(
                    _("a seat acts only with its own token: sit down first, or send the seat's token")
                )
            version = message.get("version")
            if version is not None and (type(version) is not int or version < 0):
                return {"type": "error", "error": "version: a whole number, the table's", "status": 400}
            await run_in_threadpool(table.act, connection.viewer, message.get("action"), version)
            return None
        if kind == "chat":
            if connection.viewer is None:
                raise TokenError(
                    _("a seat acts only with its own token: sit down first, or send the seat's token")
                )
            words = message.get("text")
            text = words if isinstance(words, str) else ""
            scope = message.get("scope", "table")
            if scope == "team":
                await run_in_threadpool(_team_chat_as, hub, table, connection.viewer, text)
            elif scope == "table":
                await run_in_threadpool(_chat_as, hub, table, connection.viewer, text)
            else:
                return {"type": "error", "error": "scope: one of table, team", "status": 400}
            return None
        if kind == "ping":
            return {"type": "pong"}
        return {"type": "error", "error": "type: one of hello, act, chat, ping", "status": 400}
    except JsonTextError as error:
        return {"type": "error", "error": str(error), "status": 400}
    except TavolaError as error:
        return {"type": "error", "error": str(error), "status": _status(error)}


def _chat_as(hub: Hub, table: LiveTable, seat: int, text: str) -> None:
    row = hub.store_chat(table.id, seat, _chat_text(text))
    hub.broadcast(table.id, {"type": "chat", "message": _chat_json(table, row)})


def _team_chat_as(hub: Hub, table: LiveTable, seat: int, text: str) -> None:
    """A message on a chouette side's own channel: sent to the connections of that side's seats only,
    and not stored (the table's chat log is everyone's)."""
    text = _chat_text(text)
    with table.lock:
        members = table.side_of_seat(seat)
        if not members:
            raise StateError(_("the team's channel is for the players of a chouette game in play"))
        message = {
            "type": "chat",
            "message": {
                "seat": seat,
                "name": table.seats[seat].name,
                "text": text,
                "time": datetime.now(UTC).isoformat(),
                "scope": "team",
            },
        }
    for connection in hub.connections(table.id):
        if connection.viewer in members:
            connection.send(message)


def _chat_text(text: str) -> str:
    """A chat message's text, stripped, or refused when empty, too long, or holding a control character
    other than a line break or a tab."""
    text = text.strip()
    if not 1 <= len(text) <= MAX_CHAT:
        raise BodyError(_("a chat message has 1 to {most} characters").format(most=MAX_CHAT))
    for character in text:
        if character not in "\n\t" and unicodedata.category(character) in ("Cc", "Cs"):
            code = f"U+{ord(character):04X}"
            raise BodyError(_("a chat message cannot hold the character {code}").format(code=code))
    return text


# --- helpers -----------------------------------------------------------------------------------


def _default_bot_maker(searches: SearchPool | None) -> Callable[[str], Bot]:
    """Bots on the shipped networks, loaded once, at the first bot seat; searching in ``searches``
    where given."""
    from tavola.bot.evaluate import Evaluator

    loaded: list[Evaluator] = []

    def make(level: str) -> Bot:
        if not loaded:
            loaded.append(Evaluator.default())
        if searches is not None:
            return PooledBot(searches, loaded[0], level)
        return Bot(loaded[0], level)

    return make


def _token(request: Request, table_id: str) -> str | None:
    """The seat's token a request carries: ``Authorization: Bearer``, ``X-Tavola-Token`` or the cookie;
    the cookie only for a request made by the server's own pages (a page of another origin on the
    same site gets it from the browser too, and must not act with it)."""
    authorization = request.headers.get("authorization", "")
    if authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    given = request.headers.get("x-tavola-token")
    if given:
        return given
    if cross_origin(dict(request.headers), request.app.state.trusted_origins):
        return None
    return request.cookies.get(COOKIE)


async def _json_body(request: Request) -> Any:
    """The request's body, JSON (its size is checked by :class:`~tavola.web.guard.Guard` as it comes)."""
    body = await request.body()
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise JsonTextError("the body is not UTF-8 text") from None
    return parse_json(text)


class BodyError(TavolaError):
    """A request's body without the shape its route takes."""


class _TooManyError(TavolaError):
    """More requests of a kind than their limit allows."""


def _status(error: TavolaError) -> int:
    if isinstance(error, NotFoundError):
        return 404
    if isinstance(error, TokenError):
        return 403
    if isinstance(error, StateError | SeatingError):
        return 409
    if isinstance(error, _TooManyError):
        return 429
    if isinstance(error, StorageError):
        return 503
    if isinstance(error, DamagedTableError):
        return 500
    return 400


def _page() -> Response:
    """The page's one document: it reads the address to show the lobby or a table."""
    return FileResponse(STATIC / "index.html", headers={"cache-control": "no-cache"})


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _attachment(name: str) -> dict[str, str]:
    return {"content-disposition": f'attachment; filename="{name}"'}


def _version() -> str:
    """Tavola's version, as installed (the API's version in its OpenAPI)."""
    try:
        return _installed_version("tavola")
    except Exception:
        return "0"
