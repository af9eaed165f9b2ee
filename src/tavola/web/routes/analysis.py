"""A finished two-player table analysed: ``GET /api/tables/{id}/analysis.html``, the HTML report
(:mod:`tavola.analysis`; ``?level=`` as ``tavola analyze``'s)."""

from __future__ import annotations

import copy

from fastapi import APIRouter, Response
from fastapi.responses import HTMLResponse
from starlette.concurrency import run_in_threadpool

from tavola.analysis.analyze import analyze_series
from tavola.analysis.html import report_html
from tavola.bot.levels import LIVE_ANALYSIS_LEVEL, analysis_level
from tavola.i18n import _, language
from tavola.table import GameTable
from tavola.web.live import StateError
from tavola.web.routes.common import ServerDep

__all__ = ["MAX_REPORTS", "router"]

MAX_REPORTS = 32
"""Analysis reports kept made (a finished table never changes); the oldest goes first."""

router = APIRouter()


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
    hub, reports = server.hub, server.reports

    def reported() -> str:
        chosen = analysis_level(level)  # a bad level is refused before anything is copied
        table = hub.get(table_id)
        with table.lock:
            table.check()
            engine = table.served.table if table.served is not None else None
            if not isinstance(engine, GameTable):
                raise StateError(_("the analysis report covers two-player tables, not a chouette"))
            if table.status != "finished":
                raise StateError(_("a table is analysed once it is finished"))
            series = copy.deepcopy(engine.series)  # analysed outside the lock
        key = (table_id, chosen.title, language())
        if key not in reports:
            if len(reports) >= MAX_REPORTS:
                del reports[next(iter(reports))]
            reports[key] = report_html(analyze_series(series, level=chosen, source=f"/t/{table_id}"))
        return reports[key]

    return HTMLResponse(await run_in_threadpool(reported))
