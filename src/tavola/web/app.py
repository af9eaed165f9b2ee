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
import threading
import uuid
from collections.abc import AsyncIterator, Callable
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
from tavola.i18n import LANGUAGES, _, language, use_language
from tavola.records import mat_text, to_json
from tavola.schema import JsonTextError, parse_json
from tavola.web.hints import HINT_LEVEL, hint_json
from tavola.web.limits import MAX_CHAT, MAX_MESSAGE, RateLimits, TokenBucket
from tavola.web.live import LiveTable, NotFoundError, StateError, TokenError, not_playing
from tavola.web.options import ChouetteOptions, GameOptions, TableOptions, read_options
from tavola.web.state import table_state, table_summary
from tavola.web.storage import Store

WEB_ANALYSIS_LEVEL = "1-ply"
"""How deep a finished table's report looks unless asked (a few seconds a match; ``?level=2-ply`` for the
strongest, as ``tavola analyze`` does by default)."""
MAX_REPORTS = 32
"""Analysis reports kept made (a finished table never changes); the oldest goes first."""

__all__ = ["Hub", "create_app"]

COOKIE = "tavola_seat"
"""The cookie holding a seat's token, one per table (its path is the table's)."""

STATIC = Path(__file__).with_name("static")
"""The page: ``index.html`` (the lobby and a table), its modules, its style and its words (``i18n/``)."""


# --- the tables the server holds ------------------------------------------------------------


@dataclass(eq=False)
class _Connection:
    """A WebSocket watching a table: what it is sent waits in ``queue`` (filled from any thread)."""

    loop: asyncio.AbstractEventLoop
    viewer: int | None = None
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)

    def send(self, message: dict[str, Any]) -> None:
        self.loop.call_soon_threadsafe(self.queue.put_nowait, message)


class Hub:
    """Every table in play, loaded once and kept; the connections watching each.

    All engine work is done holding one lock: the bot and the engine run one
    table's action at a time.
    """

    def __init__(self, store: Store, make_bot: Callable[[str], Bot]) -> None:
        self.store = store
        self.make_bot = make_bot
        self.lock = threading.RLock()
        self.tables: dict[str, LiveTable] = {}
        self.watchers: dict[str, set[_Connection]] = {}
        self._hint_bot: Bot | None = None

    def resume_all(self) -> int:
        """Load every unfinished table, replaying its actions; how many."""
        rows = self.store.tables(("open", "live"), limit=1_000_000)
        for row in rows:
            self.get(row.id)
        return len(rows)

    def get(self, table_id: str) -> LiveTable:
        with self.lock:
            table = self.tables.get(table_id)
            if table is None:
                if self.store.table(table_id) is None:
                    raise NotFoundError(_("there is no table {table}").format(table=table_id))
                table = self._watch(LiveTable.load(table_id, self.store, self.make_bot))
            return table

    def create(self, options: GameOptions | ChouetteOptions) -> LiveTable:
        with self.lock:
            table = LiveTable.create(uuid.uuid4().hex[:16], options, self.store, self.make_bot)
            return self._watch(table)

    def hint_bot(self) -> Bot:
        """The bot that gives hints (made at the first hint, then kept)."""
        if self._hint_bot is None:
            self._hint_bot = self.make_bot(HINT_LEVEL)
        return self._hint_bot

    def forget(self, table_id: str) -> None:
        """Drop a table from memory (after a failed write): it is loaded again from the store."""
        with self.lock:
            self.tables.pop(table_id, None)

    def _watch(self, table: LiveTable) -> LiveTable:
        table.lock = self.lock
        table.listeners.append(self._changed)
        self.tables[table.id] = table
        return table

    def _changed(self, table: LiveTable) -> None:
        """Send the new state to everyone watching (computed here, under the lock, once per viewer)."""
        states: dict[int | None, dict[str, Any]] = {}
        for connection in list(self.watchers.get(table.id, ())):
            if connection.viewer not in states:
                states[connection.viewer] = {"type": "state", "state": table_state(table, connection.viewer)}
            connection.send(states[connection.viewer])

    def broadcast(self, table_id: str, message: dict[str, Any]) -> None:
        for connection in list(self.watchers.get(table_id, ())):
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
) -> FastAPI:
    """The ASGI application serving the tables stored in ``engine``'s database (already migrated).

    Every unfinished table is rebuilt when the application starts. ``posts``
    limits the POST requests of each client address (by default a burst of
    30, then 10 a second).
    """
    store = Store(engine)
    hub = Hub(store, make_bot or _default_bot_maker())
    posts = posts or RateLimits(capacity=30, per_second=10)
    schemas: dict[str, Any] = {}

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await run_in_threadpool(hub.resume_all)
        yield

    app = FastAPI(
        title="Tavola",
        summary="Backgammon against the bot, with friends and at chouette tables, with verifiable dice.",
        lifespan=lifespan,
    )
    app.state.hub = hub

    @app.middleware("http")
    async def language_and_limits(request: Request, call_next: Any) -> Response:
        with use_language(
            _language(request.query_params.get("lang"), request.headers.get("accept-language"))
        ):
            if request.method == "POST":
                client = request.client.host if request.client else "?"
                if not posts.allow(client):
                    return _error(429, _("too many requests: wait a moment and try again"))
                length = request.headers.get("content-length")
                if length is not None and (not length.isdigit() or int(length) > MAX_MESSAGE):
                    return _error(413, _too_large())
            response: Response = await call_next(request)
            return response

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
            rows = store.tables(wanted, limit=200)
            with hub.lock:
                return [table_summary(hub.get(row.id)) for row in rows]

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
            table = hub.create(read_options(data))
            with hub.lock:
                return table_state(table, None)

        return await run_in_threadpool(made)

    @app.get("/api/tables/{table_id}", summary="The table, as a seat (with its token) or a spectator sees it")
    async def state(table_id: str, request: Request) -> dict[str, Any]:
        def seen() -> dict[str, Any]:
            table = hub.get(table_id)
            with hub.lock:
                return table_state(table, table.seat_of_token(_token(request, table_id)))

        return await run_in_threadpool(seen)

    @app.post("/api/tables/{table_id}/seats/{index}", summary="Take a seat: its token comes back")
    async def take_seat(table_id: str, index: int, request: Request, seat: SeatRequest) -> Response:
        name = seat.name

        def taken() -> dict[str, Any]:
            table = hub.get(table_id)
            try:
                token = table.take_seat(index, name)
            except TavolaError:
                raise
            except Exception:
                hub.forget(table_id)  # a failed write: the table is read again from what was stored
                raise
            with hub.lock:
                return {"seat": index, "token": token, "state": table_state(table, index)}

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

    @app.post("/api/tables/{table_id}/chat", summary="Say something at the table (a seat's token needed)")
    async def chat(table_id: str, request: Request, message: ChatRequest) -> dict[str, Any]:
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
            with hub.lock:
                secret = table.secret
                used = list(table.dice.rolls_so_far)
                data: dict[str, Any] = {
                    "scheme": "tavola-dice-v1",
                    "commitment": table.dice.commitment,
                    "secret": secret,
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
            with hub.lock:
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
            with hub.lock:
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
            with hub.lock:
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

    @app.get(
        "/api/tables/{table_id}/hint",
        summary="The bot's best plays for the roll being played (a seat's token needed)",
    )
    async def hint(table_id: str, request: Request) -> dict[str, Any]:
        token = _token(request, table_id)

        def hinted() -> dict[str, Any]:
            table = hub.get(table_id)
            with hub.lock:
                return hint_json(table, table.seat_of_token(token), hub.hint_bot())

        return await run_in_threadpool(hinted)

    @app.websocket("/api/tables/{table_id}/live")
    async def live(websocket: WebSocket, table_id: str) -> None:
        await _live(websocket, hub, table_id)

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
    try:
        table.act(seat, data, version)
    except TavolaError:
        raise
    except Exception:
        hub.forget(table_id)  # a failed write: the table is read again from what was stored
        raise
    with hub.lock:
        return table_state(table, seat)


def _chatted(hub: Hub, table_id: str, token: str | None, text: str) -> dict[str, Any]:
    table = hub.get(table_id)
    seat = _seat_for(table, token)
    row = hub.store.append_chat(table_id, seat, _chat_text(text))
    message = _chat_json(table, row)
    hub.broadcast(table_id, {"type": "chat", "message": message})
    return message


def _chat_json(table: LiveTable, row: Any) -> dict[str, Any]:
    return {
        "seat": row.seat,
        "name": table.seats[row.seat].name,
        "text": row.text,
        "time": row.created.isoformat(),
    }


async def _live(websocket: WebSocket, hub: Hub, table_id: str) -> None:
    """The WebSocket: the state now and after every action, chat; acting and chatting as a seat."""
    language = _language(websocket.query_params.get("lang"), websocket.headers.get("accept-language"))
    await websocket.accept()
    with use_language(language):
        try:
            table = await run_in_threadpool(hub.get, table_id)
        except TavolaError as error:
            await websocket.send_json({"type": "error", "error": str(error)})
            await websocket.close(code=4404)
            return
        connection = _Connection(asyncio.get_running_loop())
        connection.viewer = table.seat_of_token(websocket.cookies.get(COOKIE))
        bucket = TokenBucket(capacity=20, per_second=5)

        def hello() -> None:
            with hub.lock:
                hub.watchers.setdefault(table_id, set()).add(connection)
                connection.send({"type": "state", "state": table_state(table, connection.viewer)})

        await run_in_threadpool(hello)
        sender = asyncio.create_task(_send_queued(websocket, connection))
        try:
            while websocket.application_state == WebSocketState.CONNECTED:  # else sending found it closed
                text = await websocket.receive_text()
                reply = await _answer(hub, table, connection, bucket, text)
                if reply is not None:
                    connection.send(reply)
        except WebSocketDisconnect:
            pass
        finally:
            with hub.lock:
                hub.watchers.get(table_id, set()).discard(connection)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender


async def _send_queued(websocket: WebSocket, connection: _Connection) -> None:
    """Send what the connection is sent, until the client is gone (it may go in the middle of a message)."""
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            message = await connection.queue.get()
            await websocket.send_json(message)


async def _answer(
    hub: Hub, table: LiveTable, connection: _Connection, bucket: TokenBucket, text: str
) -> dict[str, Any] | None:
    """What one message from a WebSocket does; the error to send back, if any."""
    if len(text.encode("utf-8")) > MAX_MESSAGE:
        return {"type": "error", "error": _too_large()}
    if not bucket.allow():
        return {"type": "error", "error": _("too many requests: wait a moment and try again")}
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

            def seen() -> dict[str, Any]:
                with hub.lock:
                    return {"type": "state", "state": table_state(table, seat)}

            return await run_in_threadpool(seen)
        if kind == "act":
            if connection.viewer is None:
                raise TokenError(
                    _("a seat acts only with its own token: sit down first, or send the seat's token")
                )
            viewer = connection.viewer
            version = message.get("version")
            if version is not None and (type(version) is not int or version < 0):
                return {"type": "error", "error": "version: a whole number, the table's", "status": 400}

            def acted() -> None:
                try:
                    table.act(viewer, message.get("action"), version)
                except TavolaError:
                    raise
                except Exception:
                    hub.forget(table.id)
                    raise

            await run_in_threadpool(acted)
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
                return {"type": "error", "error": "scope: one of table, team"}
            return None
        if kind == "ping":
            return {"type": "pong"}
        return {"type": "error", "error": "type: one of hello, act, chat, ping"}
    except JsonTextError as error:
        return {"type": "error", "error": str(error)}
    except TavolaError as error:
        return {"type": "error", "error": str(error), "status": _status(error)}


def _chat_as(hub: Hub, table: LiveTable, seat: int, text: str) -> None:
    row = hub.store.append_chat(table.id, seat, _chat_text(text))
    hub.broadcast(table.id, {"type": "chat", "message": _chat_json(table, row)})


def _team_chat_as(hub: Hub, table: LiveTable, seat: int, text: str) -> None:
    """A message on a chouette side's own channel: sent to the connections of that side's seats only,
    and not stored (the table's chat log is everyone's)."""
    text = _chat_text(text)
    with hub.lock:
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
        for connection in list(hub.watchers.get(table.id, ())):
            if connection.viewer in members:
                connection.send(message)


def _chat_text(text: str) -> str:
    """A chat message's text, stripped, or refused when empty or too long."""
    text = text.strip()
    if not 1 <= len(text) <= MAX_CHAT:
        raise StateError(_("a chat message has 1 to {most} characters").format(most=MAX_CHAT))
    return text


# --- helpers -----------------------------------------------------------------------------------


def _default_bot_maker() -> Callable[[str], Bot]:
    """Bots on the shipped networks, loaded once, at the first bot seat."""
    from tavola.bot.evaluate import Evaluator

    loaded: list[Evaluator] = []

    def make(level: str) -> Bot:
        if not loaded:
            loaded.append(Evaluator.default())
        return Bot(loaded[0], level)

    return make


def _language(asked: str | None, accepted: str | None) -> str:
    """The language of a request: ``?lang=``, else the first of Accept-Language that Tavola speaks.

    >>> _language(None, "es-ES,es;q=0.9,en;q=0.8"), _language("it", None), _language(None, None)
    ('es', 'it', 'en')
    """
    if asked in LANGUAGES:
        return asked
    for part in (accepted or "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"


def _token(request: Request, table_id: str) -> str | None:
    """The seat's token a request carries: ``Authorization: Bearer``, ``X-Tavola-Token`` or the cookie."""
    authorization = request.headers.get("authorization", "")
    if authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return request.headers.get("x-tavola-token") or request.cookies.get(COOKIE)


async def _json_body(request: Request) -> Any:
    body = await request.body()
    if len(body) > MAX_MESSAGE:
        raise _TooLargeError(_too_large())
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise JsonTextError("the body is not UTF-8 text") from None
    return parse_json(text)


class _TooLargeError(TavolaError):
    """A body past :data:`~tavola.web.limits.MAX_MESSAGE`."""


def _too_large() -> str:
    return _("the message is too large: at most {most} bytes").format(most=MAX_MESSAGE)


def _status(error: TavolaError) -> int:
    if isinstance(error, NotFoundError):
        return 404
    if isinstance(error, TokenError):
        return 403
    if isinstance(error, StateError | SeatingError):
        return 409
    if isinstance(error, _TooLargeError):
        return 413
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
