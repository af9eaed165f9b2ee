"""Tournaments: ``/api/tournaments`` lists them and makes one; ``/api/tournaments/{id}`` reads one; its
entries, start, pause, resume, awards, and a player's seat at their match.

Anyone reads a tournament. Only a logged-in person changes anything: they
create a tournament (and direct it), enter it and withdraw; only its
director enters bots, starts, pauses, resumes and awards a match (403 for
anyone else). A player's seat token at their match comes only to them
(``POST .../matches/{match}/seat``), with the seat's cookie as sitting down
gives it. The steps themselves are :mod:`tavola.web.tournaments`'.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from tavola.schema import read_shape
from tavola.web.accounts import AccountRow
from tavola.web.routes.accounts import AccountsDep, session_token
from tavola.web.routes.common import COOKIE, BodyError, body_doc, json_body
from tavola.web.tournament_rows import TournamentSettings
from tavola.web.tournaments import Tournaments

__all__ = ["Award", "BotEntry", "router"]

router = APIRouter()


def tournaments(connection: HTTPConnection) -> Tournaments:
    """The application's :class:`~tavola.web.tournaments.Tournaments`."""
    found: Tournaments = connection.app.state.tournaments
    return found


TournamentsDep = Annotated[Tournaments, Depends(tournaments)]


class BotEntry(BaseModel):
    """The bot level the director enters."""

    level: str


class Award(BaseModel):
    """The player the director gives the match to, by name."""

    winner: str


async def _account(request: Request, state: AccountsDep) -> AccountRow | None:
    return await run_in_threadpool(state.accounts.account_of, session_token(request))


async def _stepped(
    request: Request,
    state: AccountsDep,
    store: Tournaments,
    tournament_id: str,
    step: Callable[..., None],
    *args: Any,
) -> dict[str, Any]:
    """``step(tournament_id, account, *args)`` as the logged-in account, then the tournament as they
    see it, in one thread."""
    account = await _account(request, state)

    def done() -> dict[str, Any]:
        step(tournament_id, account, *args)
        return store.view(tournament_id, account)

    return await run_in_threadpool(done)


@router.get("/api/tournaments", summary="The tournaments, newest first")
async def listed(store: TournamentsDep) -> dict[str, Any]:
    """``{"tournaments": [{"id", "name", "kind", "variant", "status", "director", "players",
    "created"}]}``."""
    return {"tournaments": await run_in_threadpool(store.listed)}


@router.post(
    "/api/tournaments",
    status_code=201,
    summary="Create a tournament (logged in): its director is you",
    openapi_extra=body_doc(TournamentSettings),
)
async def create(request: Request, store: TournamentsDep, state: AccountsDep) -> dict[str, Any]:
    data = await json_body(request)
    account = await _account(request, state)

    def made() -> dict[str, Any]:
        return store.view(store.create(account, data), account)

    return await run_in_threadpool(made)


@router.get("/api/tournaments/{tournament_id}", summary="A tournament: settings, entries, matches, standings")
async def read(
    tournament_id: str, request: Request, store: TournamentsDep, state: AccountsDep
) -> dict[str, Any]:
    """The bracket's or the rounds' matches, the standings, and ``you``: what the logged-in viewer may do."""
    account = await _account(request, state)
    return await run_in_threadpool(store.view, tournament_id, account)


@router.post("/api/tournaments/{tournament_id}/entries", summary="Enter the tournament (logged in)")
async def enter(
    tournament_id: str, request: Request, store: TournamentsDep, state: AccountsDep
) -> dict[str, Any]:
    return await _stepped(request, state, store, tournament_id, store.enter)


@router.delete("/api/tournaments/{tournament_id}/entries", summary="Withdraw while entries are open")
async def withdraw(
    tournament_id: str, request: Request, store: TournamentsDep, state: AccountsDep
) -> dict[str, Any]:
    return await _stepped(request, state, store, tournament_id, store.withdraw)


@router.post(
    "/api/tournaments/{tournament_id}/bots",
    summary="Enter a bot level (the director)",
    openapi_extra=body_doc(BotEntry),
)
async def enter_bot(
    tournament_id: str, request: Request, store: TournamentsDep, state: AccountsDep
) -> dict[str, Any]:
    entry = read_shape(BotEntry, await json_body(request), BodyError, "the body")
    return await _stepped(request, state, store, tournament_id, store.enter_bot, entry.level)


@router.delete("/api/tournaments/{tournament_id}/bots/{level}", summary="Withdraw a bot level (the director)")
async def withdraw_bot(
    tournament_id: str, level: str, request: Request, store: TournamentsDep, state: AccountsDep
) -> dict[str, Any]:
    return await _stepped(request, state, store, tournament_id, store.withdraw_bot, level)


@router.post("/api/tournaments/{tournament_id}/start", summary="Close the entries and start (the director)")
async def start(
    tournament_id: str, request: Request, store: TournamentsDep, state: AccountsDep
) -> dict[str, Any]:
    return await _stepped(request, state, store, tournament_id, store.begin)


@router.post("/api/tournaments/{tournament_id}/pause", summary="Pause (the director)")
async def pause(
    tournament_id: str, request: Request, store: TournamentsDep, state: AccountsDep
) -> dict[str, Any]:
    return await _stepped(request, state, store, tournament_id, store.pause)


@router.post("/api/tournaments/{tournament_id}/resume", summary="Resume (the director)")
async def resume(
    tournament_id: str, request: Request, store: TournamentsDep, state: AccountsDep
) -> dict[str, Any]:
    return await _stepped(request, state, store, tournament_id, functools.partial(store.pause, paused=False))


@router.post(
    "/api/tournaments/{tournament_id}/matches/{match_id}/award",
    summary="Give an undecided match to one of its players (the director)",
    openapi_extra=body_doc(Award),
)
async def award(
    tournament_id: str, match_id: int, request: Request, store: TournamentsDep, state: AccountsDep
) -> dict[str, Any]:
    given = read_shape(Award, await json_body(request), BodyError, "the body")
    return await _stepped(request, state, store, tournament_id, store.award, match_id, given.winner)


@router.post(
    "/api/tournaments/{tournament_id}/matches/{match_id}/seat",
    summary="Take your seat at your match: its token comes back (to its player only)",
)
async def seat(
    tournament_id: str, match_id: int, request: Request, store: TournamentsDep, state: AccountsDep
) -> Response:
    """``{"table": "...", "seat": 0, "token": "..."}``, and the seat's cookie; the player is present."""
    account = await _account(request, state)
    taken = await run_in_threadpool(store.seat, tournament_id, match_id, account)
    response = JSONResponse(taken)
    response.set_cookie(
        COOKIE, taken["token"], path=f"/api/tables/{taken['table']}", httponly=True, samesite="strict"
    )
    return response
