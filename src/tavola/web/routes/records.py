"""What a table gives to keep and to check: ``GET /api/tables/{id}/dice`` (the verifiable dice),
``log`` (the table's actions, a page at a time), ``record`` (Tavola's JSON record, a page of games at
a time), ``record.json`` (the whole record, a download), ``record.mat`` (a two-player table's
``.mat`` file) and ``record.sgf`` (its SGF file, as GNU Backgammon saves matches).

Every record is made by the table's own writer (:func:`tavola.records.to_json`,
:func:`tavola.chouette.record.to_json`) in a thread, holding the table's lock
only while it is written: its lists and dicts are the copy, read and sent
once the lock is let go.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Query, Response
from fastapi.responses import JSONResponse, PlainTextResponse
from starlette.concurrency import run_in_threadpool

from tavola.dicesource import verify
from tavola.errors import DiceVerificationError
from tavola.i18n import _
from tavola.match import Series
from tavola.records import mat_text, sgf_text
from tavola.records.formats import CHOUETTE_FORMAT
from tavola.table import GameTable
from tavola.web.hub import Hub
from tavola.web.live import StateError, not_playing
from tavola.web.routes.common import Server, ServerDep, attachment

__all__ = ["MOST_ENTRIES", "MOST_GAMES", "record_page", "router"]

router = APIRouter()

MOST_ENTRIES = 500
"""The most actions a page of a table's log holds."""
MOST_GAMES = 20
"""The most games a page of a table's record holds."""


@router.get(
    "/api/tables/{table_id}/dice", summary="The verifiable dice: commitment, dice used, secret at the end"
)
async def dice(table_id: str, server: ServerDep) -> dict[str, Any]:
    hub = server.hub

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


@router.get("/api/tables/{table_id}/log", summary="The table's actions in order, a page at a time")
async def log(
    table_id: str,
    server: ServerDep,
    start: int = Query(0, ge=0, description="the first action's number (from 0)"),
    limit: int = Query(MOST_ENTRIES, ge=1, le=MOST_ENTRIES, description="how many actions at most"),
) -> dict[str, Any]:
    """``{"version": 57, "start": 0, "entries": [{"seat": 0, "action": "roll"}, ...]}``: the actions from
    number ``start`` on, each with its seat (null for the table's own); ``version`` is how many there are."""
    hub = server.hub

    def page() -> dict[str, Any]:
        table = hub.get(table_id)
        with table.lock:
            table.check()
            return {"version": len(table.actions), "start": start, "entries": table.log(start, start + limit)}

    return await run_in_threadpool(page)


@router.get(
    "/api/tables/{table_id}/record", summary="The play as Tavola's JSON record, a page of games at a time"
)
async def record(
    table_id: str,
    server: ServerDep,
    start: int = Query(0, ge=0, description="the first game's number (from 0)"),
    limit: int = Query(MOST_GAMES, ge=1, le=MOST_GAMES, description="how many games at most"),
) -> Response:
    """``{"version": 212, "start": 0, "total": 3, "header": {...}, "games": [...]}``: the games from
    number ``start`` on, as ``record.json`` writes them, after the rest of the record (``header``);
    ``total`` is how many games there are, ``version`` how many actions (the log's)."""
    hub = server.hub

    def page() -> Response:
        data, version = _written(hub, table_id)
        return JSONResponse({"version": version, "start": start, **record_page(data, start, start + limit)})

    return await run_in_threadpool(page)


@router.get("/api/tables/{table_id}/record.json", summary="The play as Tavola's JSON record, whole")
async def record_json(table_id: str, server: ServerDep) -> Response:
    hub = server.hub

    def whole() -> Response:
        return JSONResponse(_written(hub, table_id)[0], headers=attachment(f"tavola-{table_id}.json"))

    return await run_in_threadpool(whole)


def _written(hub: Hub, table_id: str) -> tuple[dict[str, Any], int]:
    """The table's record and how many actions it holds, written holding the table's lock."""
    table = hub.get(table_id)
    with table.lock:
        table.check()
        if table.served is None:
            raise StateError(not_playing(table.status))
        return table.served.table.record(), len(table.actions)


def record_page(record: dict[str, Any], start: int, stop: int) -> dict[str, Any]:
    """The games numbered ``start`` up to ``stop`` of ``record`` (what ``record.json`` holds), ``total``
    the number of games, and the rest of the record as its ``header``.

    A match's or a session's games are its record's ``games``. A chouette's
    record has one log: a game is its entries from the game's ``start_game``
    up to the next one's, with the ``points`` its ledger gives it (null
    while it is played); the entries before the first game (the players
    joining, the order drawn) are the header's ``before_games``.

    >>> log = [{"player": "Ann", "action": "join"}, {"player": None, "action": "start_game"},
    ...        {"player": "Ann", "action": "roll"}, {"player": None, "action": "start_game"}]
    >>> chouette = {"format": "tavola-chouette", "version": 1, "log": log,
    ...             "ledger": [{"game": 0, "points": {"Ann": 2, "Ben": -2}}], "totals": {"Ann": 2}}
    >>> page = record_page(chouette, 0, MOST_GAMES)
    >>> page["total"], [(len(game["log"]), game["points"]) for game in page["games"]]
    (2, [(2, {'Ann': 2, 'Ben': -2}), (1, None)])
    >>> sorted(page["header"]), page["header"]["before_games"]
    (['before_games', 'format', 'totals', 'version'], [{'player': 'Ann', 'action': 'join'}])
    """
    header = dict(record)
    if record["format"] != CHOUETTE_FORMAT:
        games = header.pop("games")
        return {"total": len(games), "header": header, "games": games[start:stop]}
    log, ledger = header.pop("log"), header.pop("ledger")
    starts = [index for index, entry in enumerate(log) if entry["action"] == "start_game"]
    ends = [*starts[1:], len(log)]
    points = {settled["game"]: settled["points"] for settled in ledger}
    header["before_games"] = log[: starts[0] if starts else len(log)]
    games = [
        {"log": log[starts[number] : ends[number]], "points": points.get(number)}
        for number in range(start, min(stop, len(starts)))
    ]
    return {"total": len(starts), "header": header, "games": games}


@router.get("/api/tables/{table_id}/record.mat", summary="The match or session as a .mat file")
async def record_mat(table_id: str, server: ServerDep) -> Response:
    refusal = _("a .mat file holds two-player play: a chouette's record is JSON")
    return await _two_player_file(server, table_id, mat_text, "mat", refusal)


@router.get("/api/tables/{table_id}/record.sgf", summary="The match or session as an SGF file")
async def record_sgf(table_id: str, server: ServerDep) -> Response:
    refusal = _("an SGF file holds two-player play: a chouette's record is JSON")
    return await _two_player_file(server, table_id, sgf_text, "sgf", refusal)


async def _two_player_file(
    server: Server, table_id: str, write: Callable[[Series], str], suffix: str, refusal: str
) -> Response:
    """A two-player table's match or session as a file ``write`` makes, written in a thread; a chouette
    is refused with ``refusal``."""
    hub = server.hub

    def written() -> str:
        table = hub.get(table_id)
        with table.lock:
            table.check()
            engine = table.served.table if table.served is not None else None
            if not isinstance(engine, GameTable):
                raise StateError(refusal)
            return write(engine.series)

    text = await run_in_threadpool(written)
    return PlainTextResponse(text, headers=attachment(f"tavola-{table_id}.{suffix}"))
