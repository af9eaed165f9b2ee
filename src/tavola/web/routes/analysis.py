"""A finished two-player table analysed: ``GET /api/tables/{id}/analysis.html``, the HTML report
(:mod:`tavola.analysis`; ``?level=`` as ``tavola analyze``'s).

The analysis runs in the server's pool of worker processes
(:meth:`~tavola.web.searches.SearchPool.compute`), or in a thread where the
server has no pool; either way no other table waits for it. A report made
is kept (a finished table never changes), and two requests for the same
report while it is being made share the one analysis.
"""

from __future__ import annotations

import asyncio
import pickle

from fastapi import APIRouter, Response
from fastapi.responses import HTMLResponse
from starlette.concurrency import run_in_threadpool

from tavola.bot.levels import LIVE_ANALYSIS_LEVEL, Level, analysis_level
from tavola.i18n import _, language
from tavola.table import GameTable
from tavola.web.hub import Hub
from tavola.web.live import StateError
from tavola.web.routes.common import ServerDep
from tavola.web.searches import SearchPool, analysis_html

__all__ = ["MAX_REPORTS", "finished_series", "router"]

MAX_REPORTS = 32
"""Analysis reports kept made (a finished table never changes); the oldest goes first."""

router = APIRouter()

_Key = tuple[str, str, str]
"""A report's table, level and language."""


@router.get(
    "/api/tables/{table_id}/analysis.html",
    summary="A finished match or session analysed: the HTML report",
    response_class=HTMLResponse,
)
async def analysis_report(
    table_id: str, server: ServerDep, level: str = LIVE_ANALYSIS_LEVEL.depth
) -> Response:
    # LIVE_ANALYSIS_LEVEL unless asked: a few seconds a match; ?level=2-ply for the strongest, as
    # tavola analyze does by default
    chosen = analysis_level(level)  # a bad level is refused before the table is read
    key = (table_id, chosen.title, language())
    reports = server.reports
    if key not in reports:
        series = await run_in_threadpool(finished_series, server.hub, table_id)
        if key not in reports:  # no other request started it while this one read the table
            made = asyncio.ensure_future(_made(server.searches, series, chosen, table_id, key[2]))
            _keep(reports, key, made)
    # shielded: a request that goes away leaves the report to be made for the others, and kept
    return HTMLResponse(await asyncio.shield(reports[key]))


def finished_series(hub: Hub, table_id: str) -> bytes:
    """The finished two-player table's match or session, pickled: the lock is held only to copy it."""
    table = hub.get(table_id)
    with table.lock:
        table.check()
        engine = table.served.table if table.served is not None else None
        if not isinstance(engine, GameTable):
            raise StateError(_("the analysis report covers two-player tables, not a chouette"))
        if table.status != "finished":
            raise StateError(_("a table is analysed once it is finished"))
        return pickle.dumps(engine.series)


async def _made(searches: SearchPool | None, series: bytes, level: Level, table_id: str, code: str) -> str:
    """The report of ``series``, made in a worker of ``searches``, or in a thread where there is no pool."""
    source = f"/t/{table_id}"
    if searches is None:
        return await run_in_threadpool(analysis_html, series, level, source, code)
    return await searches.compute(analysis_html, series, level, source, code)


def _keep(reports: dict[_Key, asyncio.Future[str]], key: _Key, made: asyncio.Future[str]) -> None:
    """Keep ``made`` under ``key``, the oldest report going first once there are :data:`MAX_REPORTS`;
    a report that failed is forgotten, to be made again at the next request."""
    if len(reports) >= MAX_REPORTS:
        del reports[next(iter(reports))]
    reports[key] = made

    def forget_failed(done: asyncio.Future[str]) -> None:
        if (done.cancelled() or done.exception() is not None) and reports.get(key) is done:
            del reports[key]

    made.add_done_callback(forget_failed)
