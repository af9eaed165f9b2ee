"""Sitting down: ``POST /api/tables/{id}/seats/{index}`` gives the seat's token, and a cookie holding it.

A person logged in (:mod:`tavola.web.routes.accounts`) sits under their account's name, and the seat is
linked to the account once taken: the table's results and ratings are then theirs. Logged in on another
device, the same request at their own seat gives that device a new token for it (the one before no
longer counts): the seat follows the account, not the browser. A seat the table keeps for an account
(:class:`~tavola.web.options.SeatOptions`' ``account``, as a tournament's) is taken only by that account,
logged in (403 for anyone else)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from tavola.i18n import _
from tavola.schema import read_shape
from tavola.web.accounts import AccountRow, name_key
from tavola.web.live import LiveTable, TokenError
from tavola.web.routes.accounts import AccountsDep, session_token
from tavola.web.routes.common import COOKIE, LOG, BodyError, ServerDep, body_doc, json_body

__all__ = ["SeatRequest", "router"]

router = APIRouter()


class SeatRequest(BaseModel):
    """Who sits down: their name (or the one the table reserved for the seat); a person logged in sits
    under their account's name."""

    name: str | None = None


@router.post(
    "/api/tables/{table_id}/seats/{index}",
    summary="Take a seat: its token comes back",
    openapi_extra=body_doc(SeatRequest),
)
async def take_seat(
    table_id: str, index: int, request: Request, server: ServerDep, accounts: AccountsDep
) -> Response:
    seat = read_shape(SeatRequest, await json_body(request), BodyError, "the body")
    hub = server.hub
    session = session_token(request)

    def taken() -> dict[str, Any]:
        account = accounts.accounts.account_of(session)
        table = hub.get(table_id)
        _check_kept(table, index, account)
        if account is not None and accounts.accounts.account_at(table_id, index) == account.id:
            return {  # back at their own seat, from another device: a new token, the old one void
                "seat": index,
                "token": table.renew_token(index),
                "account": account.name,
                "state": hub.state(table, index),
            }
        token = table.take_seat(index, account.name if account is not None else seat.name)
        if account is not None:
            try:
                accounts.accounts.link_seat(table_id, index, account.id)
            except Exception:  # the seat is theirs as a guest's: its token counts all the same
                LOG.exception(
                    "table %s: seat %s taken, not linked to account %s", table_id, index, account.id
                )
                account = None
        try:
            seen: dict[str, Any] | None = hub.state(table, index)
        except Exception:  # the seat is stored and the token is theirs: the state comes later
            LOG.warning("table %s: seat %s taken, its state not readable now", table_id, index)
            seen = None
        return {
            "seat": index,
            "token": token,
            "account": account.name if account is not None else None,
            "state": seen,
        }

    result = await run_in_threadpool(taken)
    response = JSONResponse(result)
    response.set_cookie(
        COOKIE, result["token"], path=f"/api/tables/{table_id}", httponly=True, samesite="strict"
    )
    return response


def _check_kept(table: LiveTable, index: int, account: AccountRow | None) -> None:
    """Refuse a seat the table keeps for an account to anyone but that account, logged in."""
    seats = table.options.seats
    kept = seats[index].account if 0 <= index < len(seats) else None
    if kept is not None and (account is None or name_key(account.name) != name_key(kept)):
        raise TokenError(
            _("seat {seat} is kept for {player}: only {player}, logged in, takes it").format(
                seat=index, player=kept
            )
        )
