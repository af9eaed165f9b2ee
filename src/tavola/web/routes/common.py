"""What the routes share: the server's state (:class:`Server`, a dependency), tokens, bodies and errors.

The application keeps one :class:`Server` in ``app.state.server``; a route
asks for it with the :data:`ServerDep` dependency, a WebSocket as a route
does.

>>> status(NotFoundError("there is no table t1")), status(TooManyError("too many"))
(404, 429)
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import JSONResponse
from pydantic import TypeAdapter
from starlette.requests import HTTPConnection

from tavola.errors import SeatingError, TavolaError
from tavola.i18n import _
from tavola.schema import JsonTextError, parse_json
from tavola.web.analyses import AnalysisJobs, JobsFullError
from tavola.web.guard import cross_origin
from tavola.web.hub import Hub
from tavola.web.limits import Limits, RateLimits
from tavola.web.live import (
    DamagedTableError,
    LiveTable,
    NotFoundError,
    StateError,
    StorageError,
    TokenError,
)
from tavola.web.searches import SearchPool

__all__ = [
    "COOKIE",
    "LOG",
    "SCHEMAS",
    "BodyError",
    "Server",
    "ServerDep",
    "TooManyError",
    "attachment",
    "body_doc",
    "error",
    "json_body",
    "seat_for",
    "server",
    "status",
    "token",
]

LOG = logging.getLogger("tavola.web")

COOKIE = "tavola_seat"
"""The cookie holding a seat's token, one per table (its path is the table's)."""

SCHEMAS: dict[str, Any] = {}
"""The OpenAPI schemas of the request bodies the routes read themselves (:func:`body_doc`)."""


@dataclass
class Server:
    """What every route of one application reaches: its tables, its search pool (None: the bots search
    in the server's threads), its limits and the rates they set, and the analyses made."""

    hub: Hub
    searches: SearchPool | None
    limits: Limits
    trusted_origins: tuple[str, ...]
    hint_rates: RateLimits = field(init=False)
    """Hints of each seat."""
    hint_addresses: RateLimits = field(init=False)
    """Hints of each client address."""
    message_rates: RateLimits = field(init=False)
    """WebSocket messages of each client address."""
    reports: dict[tuple[str, str, str], asyncio.Future[str]] = field(default_factory=dict)
    """Analysis reports made or being made, by table, level and language."""
    analyses: AnalysisJobs = field(default_factory=AnalysisJobs)
    """Analyses for the page to step through, made or being made (:mod:`tavola.web.analyses`)."""

    def __post_init__(self) -> None:
        limits = self.limits
        self.hint_rates = RateLimits(limits.hints_at_once, limits.hints_per_second)
        self.hint_addresses = RateLimits(limits.hints_at_once * 4, limits.hints_per_second * 4)
        self.message_rates = RateLimits(limits.messages_at_once, limits.messages_per_second)


def server(connection: HTTPConnection) -> Server:
    """The application's :class:`Server`, for a request or a WebSocket."""
    found: Server = connection.app.state.server
    return found


ServerDep = Annotated[Server, Depends(server)]


class BodyError(TavolaError):
    """A request's body without the shape its route takes."""


class TooManyError(TavolaError):
    """More requests of a kind than their limit allows."""


def status(error: TavolaError) -> int:
    """The HTTP status answering ``error``."""
    if isinstance(error, NotFoundError):
        return 404
    if isinstance(error, TokenError):
        return 403
    if isinstance(error, StateError | SeatingError):
        return 409
    if isinstance(error, TooManyError | JobsFullError):
        return 429
    if isinstance(error, StorageError):
        return 503
    if isinstance(error, DamagedTableError):
        return 500
    return 400


def error(code: int, message: str) -> JSONResponse:
    """An error's answer: ``{"error": message}``."""
    return JSONResponse({"error": message}, status_code=code)


def token(request: Request, table_id: str) -> str | None:
    """The seat's token a request carries: ``Authorization: Bearer``, ``X-Tavola-Token`` or the cookie;
    the cookie only for a request made by the server's own pages (a page of another origin on the
    same site gets it from the browser too, and must not act with it)."""
    authorization = request.headers.get("authorization", "")
    if authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    given = request.headers.get("x-tavola-token")
    if given:
        return given
    if cross_origin(dict(request.headers), server(request).trusted_origins):
        return None
    return request.cookies.get(COOKIE)


def seat_for(table: LiveTable, given: str | None) -> int:
    """The seat whose token is ``given``, or :class:`~tavola.web.live.TokenError`."""
    seat = table.seat_of_token(given)
    if seat is None:
        raise TokenError(_("a seat acts only with its own token: sit down first, or send the seat's token"))
    return seat


async def json_body(request: Request) -> Any:
    """The request's body, JSON (its size is checked by :class:`~tavola.web.guard.Guard` as it comes)."""
    body = await request.body()
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise JsonTextError("the body is not UTF-8 text") from None
    return parse_json(text)


def body_doc(kind: Any) -> dict[str, Any]:
    """A request body's OpenAPI, for a body read by Tavola's own checks; its parts go into
    :data:`SCHEMAS`."""
    schema = TypeAdapter(kind).json_schema(ref_template="#/components/schemas/{model}")
    SCHEMAS.update(schema.pop("$defs", {}))
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}}


def attachment(name: str) -> dict[str, str]:
    """The headers of a download named ``name``."""
    return {"content-disposition": f'attachment; filename="{name}"'}
