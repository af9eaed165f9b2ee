"""The page: ``/`` the lobby and ``/t/{id}`` a table, one document (``static/index.html``) that reads
the address; its scripts, styles and words are under ``/static`` (:data:`STATIC`)."""

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


def _page() -> Response:
    """The page's one document: it reads the address to show the lobby or a table."""
    return FileResponse(STATIC / "index.html", headers={"cache-control": "no-cache"})
