"""Shared test set-up: tests marked ``gnubg`` need GNU Backgammon.

Where it is missing they are skipped, except in CI (the ``CI`` variable set),
which installs it, so there a missing gnubg is a failure.

Every test keeps Tavola's data in a folder of the test session (never the
user's), and solving the exact hypergammon table of 3 checkers a side (some
minutes) fails the test unless it is marked ``solves_hypergammon``: without
that table built, hypergammon is judged by the networks.

A test that takes the ``postgresql`` fixture gets a throwaway PostgreSQL
cluster (benchmarks/throwaway_postgresql.py), skipped where PostgreSQL's
tools are missing.
"""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gnubg_oracle import GNUBG, gnubg_available
from tavola.bot import hypergammon
from tavola.bot.hypergammon import solver
from tavola.i18n import set_language

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
if str(BENCHMARKS) not in sys.path:
    sys.path.append(str(BENCHMARKS))  # for the throwaway PostgreSQL cluster, shared with the benchmarks


@pytest.fixture(autouse=True)
def _require_gnubg(request: pytest.FixtureRequest) -> None:
    if request.node.get_closest_marker("gnubg") is None or gnubg_available():
        return
    if "CI" in os.environ:
        pytest.fail(f"gnubg is not installed at {GNUBG}, and CI must have it")
    pytest.skip(f"gnubg is not installed at {GNUBG} (Debian/Ubuntu: apt-get install gnubg)")


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test speaks English unless it asks otherwise, whatever the machine's locale."""
    monkeypatch.setenv("TAVOLA_LANG", "en")
    set_language("en")
    yield
    set_language("en")


@pytest.fixture(scope="session")
def _session_data_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("data-home")


@pytest.fixture(autouse=True)
def _no_hypergammon_solve(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, _session_data_home: Path
) -> None:
    """Tavola's data folder is the session's; solving the 3-checker table fails unless the test opts in."""
    monkeypatch.setenv("XDG_DATA_HOME", str(_session_data_home))
    monkeypatch.setenv(hypergammon.SOLVE_VARIABLE, "0")
    if request.node.get_closest_marker("solves_hypergammon") is not None:
        return
    solve = solver.solve_values

    def guarded(checkers: int = hypergammon.MAX_CHECKERS, *args: Any, **kwargs: Any) -> Any:
        if checkers > 2:
            pytest.fail(
                f"this test would solve the exact table of {checkers} checkers a side (minutes): "
                "give it a small table, or mark it solves_hypergammon"
            )
        return solve(checkers, *args, **kwargs)

    monkeypatch.setattr(solver, "solve_values", guarded)


CHROMIUM = os.environ.get("TAVOLA_CHROMIUM", "/usr/bin/chromium")
"""The browser the page's tests drive: Debian's Chromium, or the one ``$TAVOLA_CHROMIUM`` names."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium through Playwright, shared by a module's tests; skipped where either is missing."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (python)")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (set TAVOLA_CHROMIUM)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield launched
        launched.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database's URL for a test run on both of the server's databases: a SQLite file, or a new
    database of the run's throwaway PostgreSQL cluster (:func:`postgresql`)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'server.sqlite3'}"
    pytest.importorskip("psycopg", reason="PostgreSQL needs psycopg (pip install 'tavola[postgresql]')")
    found: str = request.getfixturevalue("postgresql")
    return found


@pytest.fixture(scope="session")
def postgresql_cluster() -> Iterator[str]:
    """A throwaway PostgreSQL cluster on a free loopback port, for the whole run: the URL of its first
    database; stopped and removed after (made at the first test that needs it)."""
    from throwaway_postgresql import throwaway_postgresql, unavailable

    reason = unavailable()
    if reason is not None:
        pytest.skip(reason)
    with throwaway_postgresql() as url:
        yield url


@pytest.fixture
def postgresql(postgresql_cluster: str) -> Iterator[str]:
    """A new empty PostgreSQL database of its own, in the run's cluster: its URL,
    ``postgresql://tavola@127.0.0.1:PORT/NAME``; dropped after, whoever is still connected."""
    pytest.importorskip("psycopg", reason="PostgreSQL needs psycopg (pip install 'tavola[postgresql]')")
    import psycopg

    from throwaway_postgresql import another_database

    name = f"test_{uuid.uuid4().hex}"
    yield another_database(postgresql_cluster, name)
    with psycopg.connect(postgresql_cluster, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
