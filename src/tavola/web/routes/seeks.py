"""Seeks: ``POST /api/seeks`` (post one, or ask to play now), ``GET /api/seeks`` (the open ones),
``GET /api/seeks/{id}`` (one, as its poster or anyone sees it; its poster may wait there for it to be
accepted), ``DELETE /api/seeks/{id}`` (withdraw it) and ``POST /api/seeks/{id}/accept``.

A seek's poster proves it is theirs with its secret, sent as a seat's token
is (``Authorization: Bearer`` or ``X-Tavola-Token``); the secret becomes their
seat's token at the table made from it (:mod:`tavola.web.seeks`). The
poster learns of the table by looking at the seek: ``?wait=20`` holds the
answer until the seek is accepted or 20 s have gone (reading the seek's row
every half second, so that an acceptance made by another process serving the
same database is seen as soon).
"""

from __future__ import annotations

import asyncio
import time
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from tavola.schema import read_shape
from tavola.web.routes.accounts import AccountsDep, accounts_state, session_token
from tavola.web.routes.common import COOKIE, BodyError, body_doc, json_body, server
from tavola.web.seeks import Seated, Seeker, SeekRequest, SeekRow, Seeks, seek_json

__all__ = ["LONGEST_WAIT", "AcceptRequest", "SeeksDep", "router", "seeks_of"]

router = APIRouter()

LONGEST_WAIT = 20.0
"""The longest a poster's look waits for their seek to be accepted."""
LOOK_SECONDS = 0.5
"""How often a waiting look reads the seek again."""


async def seeks_of(connection: HTTPConnection) -> Seeks:
    """The application's :class:`~tavola.web.seeks.Seeks`, made at its first use (an application may be
    given one first, in ``app.state.seeks``)."""
    state = connection.app.state
    found: Seeks | None = getattr(state, "seeks", None)
    if found is None:  # on the event loop's thread: made once
        accounts = await accounts_state(connection)
        found = Seeks(server(connection).hub, accounts.accounts)
        state.seeks = found
    return found


SeeksDep = Annotated[Seeks, Depends(seeks_of)]


class AcceptRequest(BaseModel):
    """Who accepts: a guest's name (a person logged in plays under their account's)."""

    name: str | None = None


def _secret(request: Request) -> str | None:
    """The seek's secret a request carries, as a seat's token is sent."""
    authorization = request.headers.get("authorization", "")
    if authorization.lower().startswith("bearer "):
        return authorization[7:].strip() or None
    return request.headers.get("x-tavola-token") or None


def _seated_json(row: SeekRow, secret: str, seated: Seated | None) -> dict[str, Any]:
    seen = seek_json(row, secret)
    if seated is not None:  # paired by this very request: seated by the seek's own secret
        seen.update(status="accepted", table=seated.table, seat=seated.seat, token=seated.token or secret)
    return seen


@router.post(
    "/api/seeks",
    status_code=201,
    summary="Post a seek, or ask to play now",
    openapi_extra=body_doc(SeekRequest),
)
async def post(request: Request, seeks: SeeksDep, accounts: AccountsDep) -> dict[str, Any]:
    """``{"seek": {...}, "secret": "..."}``: the seek as its poster sees it, and its secret (keep it: it
    withdraws the seek, and becomes the seat's token)."""
    data = await json_body(request)
    session = session_token(request)

    def posted() -> dict[str, Any]:
        row, secret, seated = seeks.post(data, accounts.accounts.account_of(session))
        return {"seek": _seated_json(row, secret, seated), "secret": secret}

    return await run_in_threadpool(posted)


@router.get("/api/seeks", summary="The open seeks anyone may accept, newest first")
async def listed(seeks: SeeksDep) -> dict[str, Any]:
    rows = await run_in_threadpool(seeks.open_seeks)
    return {"seeks": [seek_json(row) for row in rows]}


@router.get(
    "/api/seeks/{seek_id}", summary="A seek; its poster (with its secret) may wait for it to be accepted"
)
async def look(
    seek_id: str,
    request: Request,
    seeks: SeeksDep,
    wait: float = Query(
        0, ge=0, le=LONGEST_WAIT, description="seconds its poster waits for it to be accepted"
    ),
) -> dict[str, Any]:
    secret = _secret(request)
    if secret is None:
        row = await run_in_threadpool(seeks.find, seek_id)
        return {"seek": seek_json(row)}
    deadline = time.monotonic() + wait
    keep = True  # the seek kept open once a request: the looks while it waits only read
    while True:
        row, seated = await run_in_threadpool(partial(seeks.look, seek_id, secret, keep=keep))
        keep = False
        if row.status == "accepted" or seated is not None or time.monotonic() >= deadline:
            return {"seek": _seated_json(row, secret, seated)}
        await asyncio.sleep(min(LOOK_SECONDS, max(0.0, deadline - time.monotonic())))


@router.delete("/api/seeks/{seek_id}", summary="Withdraw a seek (its poster, with its secret)")
async def withdraw(seek_id: str, request: Request, seeks: SeeksDep) -> dict[str, Any]:
    await run_in_threadpool(seeks.withdraw, seek_id, _secret(request))
    return {"seek": None}


@router.post(
    "/api/seeks/{seek_id}/accept",
    summary="Accept a seek: the table is made and both are seated",
    openapi_extra=body_doc(AcceptRequest),
)
async def accept(seek_id: str, request: Request, seeks: SeeksDep, accounts: AccountsDep) -> Response:
    """``{"table", "seat", "token", "account", "state"}``, as taking a seat answers, and the seat's cookie."""
    taker = read_shape(AcceptRequest, await json_body(request), BodyError, "the body")
    session = session_token(request)
    secret = _secret(request)
    hub = seeks.hub

    def accepted() -> dict[str, Any]:
        account = accounts.accounts.account_of(session)
        seated = seeks.accept(seek_id, Seeker(taker.name, account, secret))
        table = hub.get(seated.table)
        return {
            "table": seated.table,
            "seat": seated.seat,
            "token": seated.token,
            "account": account.name if account is not None else None,
            "state": hub.state(table, seated.seat),
        }

    result = await run_in_threadpool(accepted)
    response = JSONResponse(result)
    response.set_cookie(
        COOKIE, result["token"], path=f"/api/tables/{result['table']}", httponly=True, samesite="strict"
    )
    return response
