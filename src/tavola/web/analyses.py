"""Analyses for the page to step through, run as jobs off the request path, kept in memory.

A job analyses one match or money session at one level: a finished table's
(its id ``table-{table}-{level}``, so that any process of the server can
make it again from the table) or a record someone uploaded (its id
``upload-{digest}``, the digest of the level and the file, so that the same
file at the same level is one job). Asking again for a job that is running
or made joins it. Its progress (games judged, of all the steps) is told as
the analysis goes on; once made it holds the
:class:`~tavola.analysis.model.Analysis` and its JSON
(:func:`~tavola.analysis.jsonout.analysis_json`).

Jobs live in the server process that made them, at most :data:`MAX_JOBS`:
past that the oldest job made (or failed) is let go (a finished table's job
is simply made again, an uploaded record's must be uploaded again), and
while every job kept is still being made a new one is refused
(:class:`JobsFullError`, answered 429): a job is never dropped half made,
which would leave its worker busy with nobody to tell.

>>> job = AnalysisJob(upload_id(b"; a match", "0-ply"), "a.mat", "0-ply", None)
>>> job.id.startswith("upload-"), job.json()["status"], table_job("3f2a", "1-ply")
(True, 'running', 'table-3f2a-1-ply')
>>> parse_table_job("table-3f2a-1-ply"), parse_table_job("upload-00")
(('3f2a', '1-ply'), None)
"""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from tavola.analysis.model import Analysis
from tavola.errors import TavolaError
from tavola.i18n import _

__all__ = ["MAX_JOBS", "AnalysisJob", "AnalysisJobs", "parse_table_job", "table_job", "upload_id"]

MAX_JOBS = 32
"""Analyses kept in a server process, made or being made; the oldest goes first."""

_TABLE_JOB = re.compile(r"table-(?P<table>[A-Za-z0-9_-]+)-(?P<level>[0-9]+-ply)")


def table_job(table_id: str, depth: str) -> str:
    """The id of the job analysing the finished table ``table_id`` at ``depth`` ("1-ply")."""
    return f"table-{table_id}-{depth}"


def parse_table_job(job_id: str) -> tuple[str, str] | None:
    """The table and depth a table's job id names; None for any other id."""
    found = _TABLE_JOB.fullmatch(job_id)
    return None if found is None else (found["table"], found["level"])


def upload_id(record: bytes, depth: str) -> str:
    """The id of the job analysing the uploaded ``record`` at ``depth``: the same file, the same job."""
    digest = hashlib.sha256(depth.encode() + b"\0" + record).hexdigest()
    return f"upload-{digest[:32]}"


@dataclass
class AnalysisJob:
    """One analysis being made or made: its id, what it analyses (``source``: the table's page or the
    file's name), its level's depth, the table (None for an upload), its progress, and its outcome."""

    id: str
    source: str
    depth: str
    table: str | None
    done: int = 0
    total: int = 0
    analysis: Analysis | None = None
    data: dict[str, Any] | None = None
    error: str | None = None
    task: asyncio.Future[None] | None = field(default=None, repr=False)

    def told(self, done: int, total: int) -> None:
        """The analysis has made ``done`` of its ``total`` steps (called from any thread)."""
        self.done, self.total = done, total

    @property
    def status(self) -> str:
        """``running``, ``done`` or ``failed``."""
        if self.error is not None:
            return "failed"
        return "running" if self.data is None else "done"

    def json(self) -> dict[str, Any]:
        """What ``GET /api/analyses/{id}`` answers: the progress, and the analysis once made."""
        return {
            "id": self.id,
            "status": self.status,
            "done": self.done,
            "total": self.total,
            "source": self.source,
            "level": self.depth,
            "table": self.table,
            "error": self.error,
            "analysis": self.data,
        }


Make = Callable[[AnalysisJob], Awaitable[Analysis]]
"""What makes a job's analysis, telling the job its progress."""
Write = Callable[[Analysis], Awaitable[dict[str, Any]]]
"""What turns a made analysis into its JSON."""


class JobsFullError(TavolaError):
    """A new analysis where every job kept is still being made."""


class AnalysisJobs:
    """The jobs of one server process, at most ``most`` (the oldest made dropped first)."""

    def __init__(self, most: int = MAX_JOBS) -> None:
        self.most = most
        self._jobs: OrderedDict[str, AnalysisJob] = OrderedDict()

    def get(self, job_id: str) -> AnalysisJob | None:
        return self._jobs.get(job_id)

    def __len__(self) -> int:
        return len(self._jobs)

    def start(self, job: AnalysisJob, make: Make, write: Write) -> AnalysisJob:
        """``job`` started (in the running event loop), unless a job of its id is running or made: then
        that one. A job that failed is started again."""
        known = self._jobs.get(job.id)
        if known is not None and known.status != "failed":
            return known
        self._jobs.pop(job.id, None)
        while len(self._jobs) >= self.most:
            made = next((key for key, old in self._jobs.items() if old.task is None or old.task.done()), None)
            if made is None:
                raise JobsFullError(
                    _("the server is making as many analyses as it may at once: ask again in a while")
                )
            del self._jobs[made]
        self._jobs[job.id] = job
        job.task = asyncio.ensure_future(_run(job, make, write))
        return job


async def _run(job: AnalysisJob, make: Make, write: Write) -> None:
    """Make ``job``'s analysis and its JSON; a failure is kept as the job's error, for its page to tell."""
    try:
        analysis = await make(job)
        job.analysis = analysis
        job.data = await write(analysis)
    except Exception as failure:  # the job's page tells it; asking again starts the job anew
        job.error = str(failure) or type(failure).__name__
