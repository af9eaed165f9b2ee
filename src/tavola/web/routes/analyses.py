"""Analyses for the page to step through: ``POST /api/analyses`` (an uploaded record), ``POST
/api/tables/{id}/analyses`` (a finished table), ``GET /api/analyses/{id}`` (the progress, then the
analysis as JSON) and ``GET /api/analyses/{id}/report.html`` (the HTML report, to save).

A request starts a job (:mod:`tavola.web.analyses`) and is answered at
once with its id; the analysis runs in the server's pool of worker
processes (:meth:`~tavola.web.searches.SearchPool.compute_told`, at most all
the workers but one at once), or in a thread where the server has none. The
same table or the same file at the same level is one job. A table's job
that this process does not know (it went, or another process made it) is
made again here when asked for; an upload's is answered 404, to be
uploaded again.

An upload is a ``.mat``, SGF or JSON record (Tavola's record or ``tavola
play``'s autosave), sent as the body (``?name=`` gives its file's name) or as
the part ``file`` of a ``multipart/form-data`` body, at most
:data:`MAX_UPLOAD` bytes; a record that does not read is refused with its
reader's message.
"""

from __future__ import annotations

import logging
import pickle
from email.parser import BytesParser
from email.policy import HTTP
from pathlib import PurePosixPath
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse
from starlette.concurrency import run_in_threadpool

from tavola.analysis.html import report_html
from tavola.analysis.jsonout import analysis_json
from tavola.analysis.model import Analysis
from tavola.bot.levels import LIVE_ANALYSIS_LEVEL, Level, analysis_level
from tavola.dicesource import RandomDice
from tavola.errors import RecordError
from tavola.i18n import _, language, use_language
from tavola.match import Series
from tavola.records import autosave_series, from_json, json_kind, parse_mat, parse_sgf, suffix_format
from tavola.schema import JsonTextError, parse_json
from tavola.web.analyses import AnalysisJob, Make, Write, parse_table_job, table_job, upload_id
from tavola.web.live import NotFoundError, StateError
from tavola.web.routes.analysis import finished_series
from tavola.web.routes.common import BodyError, Server, ServerDep
from tavola.web.searches import analysis_of
from tavola.web.table_figures import store_figures

__all__ = ["MAX_UPLOAD", "UPLOAD_PATH", "file_of", "read_upload", "router"]

UPLOAD_PATH = "/api/analyses"
MAX_UPLOAD = 1024 * 1024
"""The most bytes an uploaded record may have (``tests/data``'s 5-point match of six games has under
6,000 as a ``.mat`` file)."""

router = APIRouter()

LOG = logging.getLogger("tavola.web")

_UPLOAD_DOC: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
            "multipart/form-data": {
                "schema": {"type": "object", "properties": {"file": {"type": "string", "format": "binary"}}}
            },
        },
    }
}


@router.post(
    UPLOAD_PATH,
    summary="Analyse an uploaded .mat, SGF or JSON record: the job's id",
    status_code=202,
    openapi_extra=_UPLOAD_DOC,
)
async def analyse_upload(
    request: Request, server: ServerDep, level: str = LIVE_ANALYSIS_LEVEL.depth, name: str | None = None
) -> JSONResponse:
    chosen = analysis_level(level)  # a bad level is refused before the file is read
    given, record = file_of(request.headers.get("content-type", ""), await request.body(), name)
    job_id = upload_id(record, chosen.depth)
    job = server.analyses.get(job_id)
    if job is None or job.status == "failed":
        series = await run_in_threadpool(read_upload, record, given)
        job = server.analyses.start(
            AnalysisJob(job_id, given or "upload", chosen.depth, None),
            _maker(server, series, chosen),
            _written,
        )
    return _started(job)


@router.post(
    "/api/tables/{table_id}/analyses",
    summary="Analyse a finished two-player table: the job's id",
    status_code=202,
)
async def analyse_table(
    table_id: str, server: ServerDep, level: str = LIVE_ANALYSIS_LEVEL.depth
) -> JSONResponse:
    return _started(await _table_job(server, table_id, analysis_level(level)))


@router.get("/api/analyses/{job_id}", summary="An analysis: its progress, and once made the analysis")
async def analysis_job(job_id: str, server: ServerDep) -> dict[str, Any]:
    return (await _job(server, job_id)).json()


@router.get(
    "/api/analyses/{job_id}/report.html",
    summary="A made analysis as the HTML report, in the request's language",
    response_class=HTMLResponse,
)
async def analysis_report(job_id: str, server: ServerDep) -> HTMLResponse:
    job = await _job(server, job_id)
    if job.analysis is None:
        raise StateError(_("the analysis is not made yet: ask again once it is"))
    return HTMLResponse(await run_in_threadpool(_report, job.analysis, language()))


async def _job(server: Server, job_id: str) -> AnalysisJob:
    """The job ``job_id``: known here, or a table's made again; else :class:`NotFoundError`."""
    job = server.analyses.get(job_id)
    if job is not None:
        return job
    table = parse_table_job(job_id)
    if table is None:
        raise NotFoundError(
            _("there is no analysis {id} here (analyses are kept a while): upload the record again").format(
                id=job_id
            )
        )
    return await _table_job(server, table[0], analysis_level(table[1]))


async def _table_job(server: Server, table_id: str, level: Level) -> AnalysisJob:
    """The job analysing the finished table ``table_id`` at ``level``, started unless running or made."""
    job_id = table_job(table_id, level.depth)
    job = server.analyses.get(job_id)
    if job is None or job.status == "failed":
        series = await run_in_threadpool(finished_series, server.hub, table_id)
        job = server.analyses.start(
            AnalysisJob(job_id, f"/t/{table_id}", level.depth, table_id),
            _maker(server, series, level),
            _kept(server, table_id, level.depth),
        )
    return job


def _started(job: AnalysisJob) -> JSONResponse:
    """A job's answer to the request that started or joined it: where to follow it."""
    return JSONResponse(
        {
            "id": job.id,
            "status": job.status,
            "done": job.done,
            "total": job.total,
            "url": f"/api/analyses/{job.id}",
            "page": f"/analysis/{job.id}",
        },
        status_code=202,
    )


def _maker(server: Server, series: bytes, level: Level) -> Make:
    """What makes the analysis of ``series`` (pickled): in the pool's workers, or in a thread."""
    searches = server.searches

    async def make(job: AnalysisJob) -> Analysis:
        if searches is None:
            return await run_in_threadpool(analysis_of, series, level, job.source, job.id, job.told)
        return await searches.compute_told(job.id, job.told, analysis_of, series, level, job.source, job.id)

    return make


async def _written(analysis: Analysis) -> dict[str, Any]:
    return await run_in_threadpool(analysis_json, analysis)


def _kept(server: Server, table_id: str, depth: str) -> Write:
    """A finished table's analysis as JSON, once both seats' figures are stored for the players' pages
    (:mod:`tavola.web.table_figures`); figures that fail to be stored are logged, the analysis shown."""
    store = server.hub.store

    async def write(analysis: Analysis) -> dict[str, Any]:
        try:
            await run_in_threadpool(store_figures, store, table_id, depth, analysis)
        except Exception:
            LOG.exception("table %s: its analysis's figures were not stored", table_id)
        return await _written(analysis)

    return write


def _report(analysis: Analysis, code: str) -> str:
    with use_language(code):
        return report_html(analysis)


def file_of(content_type: str, body: bytes, name: str | None) -> tuple[str | None, bytes]:
    """The uploaded file's name (its base name, without folders) and its bytes: the body itself, or the part
    ``file`` of a ``multipart/form-data`` body.

    >>> file_of("text/plain", b"; a match", "folder/a.mat")
    ('a.mat', b'; a match')
    >>> part = b'Content-Disposition: form-data; name="file"; filename="m.sgf"\\r\\n\\r\\n(;)\\r\\n'
    >>> form = b"--b\\r\\n" + part + b"--b--\\r\\n"
    >>> file_of("multipart/form-data; boundary=b", form, None)
    ('m.sgf', b'(;)')
    """
    if content_type.split(";")[0].strip().lower() == "multipart/form-data":
        head = b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n"
        message = BytesParser(policy=HTTP).parsebytes(head + body)
        for part in message.iter_parts() if message.is_multipart() else ():
            if part.get_param("name", header="content-disposition") == "file":
                payload = part.get_payload(decode=True)
                return _base_name(part.get_filename() or name), payload if isinstance(payload, bytes) else b""
        raise BodyError(_("a multipart upload holds the record in its part named file"))
    return _base_name(name), body


def _base_name(name: str | None) -> str | None:
    if not name:
        return None
    return PurePosixPath(name.replace("\\", "/")).name[:100] or None


def read_upload(record: bytes, name: str | None) -> bytes:
    """The match or session in an uploaded ``record``, pickled for the analysis; its format by the file's
    suffix where ``name`` has one, else by its first characters (``{`` JSON, ``(;`` SGF, else ``.mat``).
    A record that does not read is refused with its reader's message (:class:`RecordError`), a chouette's
    too (the page steps through two-player play).

    >>> read_upload(b"(;FF[4]", "m.sgf")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    tavola.errors.RecordError: m.sgf: ...
    """
    shown = name or _("the record")
    try:
        return pickle.dumps(_series(record.decode("utf-8-sig"), name))
    except UnicodeDecodeError as error:
        raise RecordError(
            _("{name}: not a record (not UTF-8 text: {reason})").format(name=shown, reason=error.reason)
        ) from None
    except (RecordError, JsonTextError) as error:
        raise RecordError(_("{name}: {error}").format(name=shown, error=error)) from None


def _series(text: str, name: str | None) -> Series:
    dice = RandomDice(seed=0)  # never rolled (an analysis replays what was played), but it pickles
    start = text.lstrip()
    if name is not None and PurePosixPath(name).suffix:
        kind: str = suffix_format(name)
    else:
        kind = "json" if start.startswith("{") else "sgf" if start.startswith("(") else "mat"
    if kind == "mat":
        return parse_mat(text, dice=dice)
    if kind == "sgf":
        return parse_sgf(text, dice=dice)
    data = parse_json(text)
    found = json_kind(data)
    if found == "chouette":
        raise RecordError(_("the analysis to step through covers two-player play, not a chouette"))
    return autosave_series(data, dice=dice) if found == "autosave" else from_json(data, dice=dice)
