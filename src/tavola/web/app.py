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
* ``GET /api/tables/{id}/hint``: the bot's advice on what the seat decides now (the
  roll's plays, the cube, an answer), at tables that allow hints (:mod:`tavola.web.hints`);
* ``/api/seeks``: seeks posted, listed, accepted (the table made and both seated) and play now's
  pairing by rating (:mod:`tavola.web.seeks`);
* ``WS /api/tables/{id}/live``: the state after every action, and chat (a
  chouette side's own channel with ``"scope": "team"``).
* ``/api/tournaments``: knockouts and Swiss tournaments, run by their
  directors, their tables made and their rounds paired by the server
  (:mod:`tavola.web.tournaments`, which the application starts and stops).

The page itself is served too: ``/`` the lobby, ``/t/{id}`` a table (the
same document, ``static/index.html``), and its scripts, styles and words under
``/static``. ``/docs`` is Swagger UI, from the files of the ``swagger-ui-py``
package served under ``/docs/assets`` (with its licence), so it needs nothing
from outside the server.

Each resource has its router, in :mod:`tavola.web.routes`; they reach the
server's tables, search pool and limits through ``app.state``
(:class:`~tavola.web.routes.common.Server`).

Errors are ``{"error": "..."}``: the engine's own message for a refused
action, with 400 (a bad action or bad options), 403 (no token, or another
seat's), 404, 409 (a seat taken, a table not being played), 413 (too
large) or 429 (too many requests).
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
from collections.abc import AsyncIterator, Callable, Sequence
from importlib.metadata import version as _installed_version
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.engine import Engine
from starlette.concurrency import run_in_threadpool

from tavola.bot.player import Bot
from tavola.errors import TavolaError
from tavola.web.guard import Guard
from tavola.web.hub import Hub
from tavola.web.limits import Limits, RateLimits
from tavola.web.memory import FullCollections, settle
from tavola.web.routes import ROUTERS
from tavola.web.routes.analyses import MAX_UPLOAD, UPLOAD_PATH
from tavola.web.routes.common import SCHEMAS, Server, error, status
from tavola.web.routes.pages import STATIC
from tavola.web.searches import PooledBot, SearchPool, end_with_parent
from tavola.web.storage import Store
from tavola.web.tournaments import Tournaments

__all__ = ["SERVE_ENVIRONMENT", "create_app", "served_app"]

SERVE_ENVIRONMENT = "TAVOLA_SERVE"
"""The environment variable through which ``tavola serve --workers N`` hands its options to each of the
processes it starts (:func:`served_app`)."""


def create_app(
    engine: Engine,
    make_bot: Callable[[str], Bot] | None = None,
    *,
    posts: RateLimits | None = None,
    searches: SearchPool | None = None,
    trusted_origins: Sequence[str] = (),
    limits: Limits | None = None,
    settle_memory: bool = False,
    shared: bool | None = None,
) -> FastAPI:
    """The ASGI application serving the tables stored in ``engine``'s database (already migrated).

    Every unfinished table is rebuilt when the application starts. ``posts``
    limits the POST requests of each client address (by default a burst of
    30, then 10 a second); ``limits`` the rest (:class:`Limits`).
    ``searches``, when given, runs the bot's searches (its turns and the
    hints) in worker processes; the bots are then made there, and
    ``make_bot`` must be None. ``trusted_origins`` are the origins, besides
    the server's own, whose pages may act (``https://club.example``).
    ``settle_memory`` tunes the garbage collector of the whole process once
    the tables are loaded, and collects everything every ten minutes
    (:mod:`tavola.web.memory`), for a process that only serves (``tavola
    serve``). ``shared`` says whether other processes serve
    the same database (by default: on PostgreSQL, not on SQLite;
    :class:`~tavola.web.storage.Store`).
    """
    if searches is not None and make_bot is not None:
        raise ValueError("with a search pool the bots are the pool's: give no make_bot")
    hub = Hub(Store(engine, shared=shared), make_bot or _default_bot_maker(searches))
    tournaments = Tournaments(hub)
    hub.table_listeners.append(tournaments.table_changed)
    limits = limits or Limits()

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await run_in_threadpool(hub.resume_all)
        collections = FullCollections() if settle_memory else None
        if collections is not None:
            settle()
            collections.start()
        hub.start()
        tournaments.start()
        try:
            yield
        finally:
            tournaments.stop()
            hub.stop()
            if collections is not None:
                collections.stop()
            if searches is not None:
                searches.close()

    app = FastAPI(
        title="Tavola",
        summary="Backgammon against the bot, with friends and at chouette tables, with verifiable dice.",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.state.server = Server(hub, searches, limits, tuple(trusted_origins))
    app.state.tournaments = tournaments
    app.add_middleware(
        Guard,
        posts=posts or RateLimits(capacity=30, per_second=10),
        trusted_origins=trusted_origins,
        connections_per_address=limits.connections_per_address,
        uploads={UPLOAD_PATH: MAX_UPLOAD},
    )

    @app.exception_handler(TavolaError)
    async def refused(_request: Request, refusal: TavolaError) -> Response:
        return error(status(refusal), str(refusal))

    @app.exception_handler(RequestValidationError)
    async def malformed(_request: Request, invalid: RequestValidationError) -> Response:
        first = invalid.errors()[0]
        where = ".".join(str(part) for part in first["loc"][1:]) or "body"
        return error(400, f"{where}: {first['msg']}")

    for router in ROUTERS:
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    _serve_docs(app)

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = get_openapi(
                title=app.title, version=_version(), summary=app.summary, routes=app.routes
            )
            document.setdefault("components", {}).setdefault("schemas", {}).update(SCHEMAS)
            app.openapi_schema = document
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


SWAGGER_ASSETS = "/docs/assets"
"""Where Swagger UI's files (those of the ``swagger-ui-py`` package, its licence among them) are served."""


def _swagger_files() -> str | None:
    """The folder of Swagger UI's files that the ``swagger-ui-py`` package installs, or None without it."""
    spec = importlib.util.find_spec("swagger_ui")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = os.path.join(next(iter(spec.submodule_search_locations)), "static")
    return folder if os.path.isfile(os.path.join(folder, "swagger-ui-bundle.js")) else None


def _serve_docs(app: FastAPI) -> None:
    """``/docs``: Swagger UI on the OpenAPI document, every file it loads served here (none from a CDN).
    Without the package's files (a web extra installed before it needed them) only ``/openapi.json`` is."""
    folder = _swagger_files()
    if folder is None:
        return
    app.mount(SWAGGER_ASSETS, StaticFiles(directory=folder), name="swagger-ui")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title=f"{app.title} API",
            swagger_js_url=f"{SWAGGER_ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{SWAGGER_ASSETS}/swagger-ui.css",
            swagger_favicon_url="/static/favicon.svg",
        )


def served_app() -> FastAPI:
    """The application of one of the processes ``tavola serve --workers N`` starts, made from the
    options it hands on in :data:`SERVE_ENVIRONMENT` (a JSON object: ``database``, the URL of a
    database already migrated; ``search_workers``; ``allow_origin``; ``connections_per_address``).
    The processes share the database, and hear each other through it."""
    from tavola.web.storage import open_database

    end_with_parent(os.getppid())  # a process left serving after its supervisor's kill -9 would hold the port
    options = json.loads(os.environ[SERVE_ENVIRONMENT])
    workers = int(options["search_workers"])
    return create_app(
        open_database(options["database"], migrated=False),
        searches=SearchPool(workers) if workers else None,
        trusted_origins=list(options["allow_origin"]),
        limits=Limits(connections_per_address=int(options["connections_per_address"])),
        settle_memory=True,
        shared=True,
    )


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


def _version() -> str:
    """Tavola's version, as installed (the API's version in its OpenAPI)."""
    try:
        return _installed_version("tavola")
    except Exception:
        return "0"
