"""The page: ``/`` the lobby, ``/t/{id}`` a table, ``/analysis`` (an upload), ``/analysis/{job}`` and
``/t/{id}/analysis`` an analysis to step through: one document (``static/index.html``) that reads the
address; its scripts, styles and words are under ``/static`` (:data:`STATIC`). ``/favicon.ico`` is
Tavola's icon (``static/favicon.svg``), for the pages that do not link it themselves."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Response
from fastapi.responses import FileResponse

__all__ = ["STATIC", "router"]

STATIC = Path(__file__).parent.parent / "static"
"""The page: ``index.html`` (the lobby and a table), its modules, its style and its words (``i18n/``)."""

router = APIRouter(include_in_schema=False)


@router.get("/")
async def lobby_page() -> Response:
    return _page()


@router.get("/t/{table_id}")
async def table_page(table_id: str) -> Response:
    return _page()


@router.get("/t/{table_id}/analysis")
async def table_analysis_page(table_id: str) -> Response:
    """A finished table's analysis, to step through (``static/review.js``)."""
    return _page()


@router.get("/analysis")
async def upload_page() -> Response:
    """The form to upload a record to analyse."""
    return _page()


@router.get("/analysis/{job_id}")
async def analysis_page(job_id: str) -> Response:
    """An analysis, made or being made, to step through."""
    return _page()


@router.get("/players/{name}")
async def player_page(name: str) -> Response:
    """A player's page: ratings, their history as a chart, matches (``static/players.js``)."""
    return _page()


@router.get("/leaderboard")
async def leaderboard_page() -> Response:
    """The leaderboard, a variant at a time (``static/players.js``)."""
    return _page()


@router.get("/tournaments")
async def tournaments_page() -> Response:
    """The tournaments, and the form to create one (``static/tournaments.js``)."""
    return _page()


@router.get("/tournaments/{tournament_id}")
async def tournament_page(tournament_id: str) -> Response:
    """A tournament: its bracket or standings, live (``static/tournaments.js``)."""
    return _page()


def _page() -> Response:
    """The page's one document: it reads the address to show the lobby or a table."""
    return FileResponse(STATIC / "index.html", headers={"cache-control": "no-cache"})


@router.get("/favicon.ico")
async def favicon() -> Response:
    """Tavola's icon, for a browser that asks for it where a page names none (the API's JSON, a report)."""
    return FileResponse(
        STATIC / "favicon.svg", media_type="image/svg+xml", headers={"cache-control": "max-age=86400"}
    )
