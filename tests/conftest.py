"""Shared test set-up: tests marked ``gnubg`` need GNU Backgammon.

Where it is missing they are skipped, except in CI (the ``CI`` variable set),
which installs it, so there a missing gnubg is a failure.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from gnubg_oracle import GNUBG, gnubg_available
from tavola.i18n import set_language


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
