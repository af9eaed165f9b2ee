"""Accounts: ``POST /api/accounts`` signs up (and logs in), ``POST /api/session`` logs in,
``DELETE /api/session`` logs out, ``GET /api/session`` says who is logged in.

A login is a cookie holding the session's token (:data:`SESSION_COOKIE`):
HttpOnly, SameSite=Strict, Secure where the request came by https, for the
whole site. Like a seat's cookie it is believed only in a request from the
server's own pages: a request of a page of another origin is a guest's (and
one that changes something is refused before it gets here,
:class:`~tavola.web.guard.Guard`). Sign-ups and logins are limited per client
address, logins per name too (:class:`LoginLimits`).

>>> import datetime
>>> account_json(AccountRow(name="Ann", bot=None, created=datetime.datetime(2025, 5, 1)))
{'name': 'Ann', 'bot': None, 'since': '2025-05-01T00:00:00+00:00'}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from tavola.schema import read_shape
from tavola.web.accounts import SESSION_SECONDS, AccountRow, Accounts, name_key, utc_text
from tavola.web.guard import cross_origin
from tavola.web.limits import RateLimits, too_many
from tavola.web.routes.common import BodyError, TooManyError, body_doc, json_body, server

__all__ = [
    "SESSION_COOKIE",
    "AccountsDep",
    "AccountsState",
    "Credentials",
    "LoginLimits",
    "account_json",
    "accounts_state",
    "router",
    "session_token",
]

router = APIRouter()

SESSION_COOKIE = "tavola_session"


@dataclass(frozen=True)
class LoginLimits:
    """Sign-ups and logins of one client address (a burst, then a rate a second), and logins to one
    name, whoever tries."""

    per_address_at_once: float = 10
    per_address_per_second: float = 0.2
    per_name_at_once: float = 5
    per_name_per_second: float = 1 / 60


@dataclass
class AccountsState:
    """The application's accounts and the rates of their logins."""

    accounts: Accounts
    addresses: RateLimits
    names: RateLimits

    @classmethod
    def of(cls, accounts: Accounts, limits: LoginLimits | None = None) -> AccountsState:
        limits = limits or LoginLimits()
        return cls(
            accounts,
            RateLimits(limits.per_address_at_once, limits.per_address_per_second),
            RateLimits(limits.per_name_at_once, limits.per_name_per_second),
        )

    def attempt(self, address: str, name: str | None = None) -> None:
        """Count an attempt from ``address`` (on account ``name``, for a login), or :class:`TooManyError`."""
        if not self.addresses.allow(address) or (name is not None and not self.names.allow(name_key(name))):
            raise TooManyError(too_many())


async def accounts_state(connection: HTTPConnection) -> AccountsState:
    """The application's :class:`AccountsState`, made at its first use (an application may be given one
    first, in ``app.state.accounts``)."""
    state = connection.app.state
    found: AccountsState | None = getattr(state, "accounts", None)
    if found is None:  # on the event loop's thread: made once
        found = AccountsState.of(Accounts(server(connection).hub.store))
        state.accounts = found
    return found


AccountsDep = Annotated[AccountsState, Depends(accounts_state)]


class Credentials(BaseModel):
    """A name and a password: to sign up or to log in."""

    name: str
    password: str


def session_token(request: Request) -> str | None:
    """The session's token a request carries in its cookie, None for a request of another origin's
    page (:func:`~tavola.web.guard.cross_origin`)."""
    if cross_origin(dict(request.headers), server(request).trusted_origins):
        return None
    return request.cookies.get(SESSION_COOKIE)


def account_json(row: AccountRow) -> dict[str, Any]:
    """An account as anyone may see it."""
    return {"name": row.name, "bot": row.bot, "since": utc_text(row.created)}


def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


def _logged_in(request: Request, row: AccountRow, token: str, status: int) -> Response:
    response = JSONResponse({"account": account_json(row)}, status_code=status)
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=int(SESSION_SECONDS),
        path="/",
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )
    return response


@router.post(
    "/api/accounts", summary="Sign up: a new account, logged in", openapi_extra=body_doc(Credentials)
)
async def sign_up(request: Request, state: AccountsDep) -> Response:
    given = read_shape(Credentials, await json_body(request), BodyError, "the body")
    state.attempt(_address(request))
    accounts = state.accounts

    def made() -> tuple[AccountRow, str]:
        row = accounts.sign_up(given.name, given.password)
        return row, accounts.start_session(row.id)

    row, token = await run_in_threadpool(made)
    return _logged_in(request, row, token, 201)


@router.post("/api/session", summary="Log in", openapi_extra=body_doc(Credentials))
async def log_in(request: Request, state: AccountsDep) -> Response:
    given = read_shape(Credentials, await json_body(request), BodyError, "the body")
    state.attempt(_address(request), given.name)
    row, token = await run_in_threadpool(state.accounts.log_in, given.name, given.password)
    return _logged_in(request, row, token, 200)


@router.delete("/api/session", summary="Log out")
async def log_out(request: Request, state: AccountsDep) -> Response:
    token = session_token(request)
    if token:
        await run_in_threadpool(state.accounts.log_out, token)
    response = JSONResponse({"account": None})
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="strict")
    return response


@router.get("/api/session", summary="Who is logged in (null: a guest)")
async def who(request: Request, state: AccountsDep) -> dict[str, Any]:
    row = await run_in_threadpool(state.accounts.account_of, session_token(request))
    return {"account": account_json(row) if row is not None else None}
