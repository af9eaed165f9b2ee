"""Collection for the whole checkout: the web server's modules need the ``web`` extra.

Where FastAPI, SQLAlchemy or Alembic are missing, the doctests of
``src/tavola/web`` are not collected (tests/test_web_*.py skip themselves);
its migrations are run by Alembic only, never imported as modules.

Tests that need something not installed (gnubg, Chromium, PostgreSQL, Ray)
skip themselves on a developer's machine. In CI (the ``CI`` variable set),
which installs all of them, a skipped test is a failure: nothing may pass
there by not running.
"""

from __future__ import annotations

import os
from collections.abc import Generator
from importlib.util import find_spec

import pytest


def _installed(name: str) -> bool:
    try:
        return find_spec(name) is not None
    except ImportError:
        return False


collect_ignore_glob = ["src/tavola/web/migrations/*"] + (
    []
    if all(_installed(name) for name in ("fastapi", "sqlalchemy", "alembic", "uvicorn"))
    else ["src/tavola/web/*", "src/tavola/web/*/*", "src/tavola/web/*/*/*"]
)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, None, None]:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if "CI" in os.environ and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, where everything the tests need is installed: {reason}"
