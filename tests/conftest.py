"""Shared test set-up: tests marked ``gnubg`` need GNU Backgammon.

Where it is missing they are skipped, except in CI (the ``CI`` variable set),
which installs it, so there a missing gnubg is a failure.
"""

from __future__ import annotations

import os

import pytest

from gnubg_oracle import GNUBG, gnubg_available


@pytest.fixture(autouse=True)
def _require_gnubg(request: pytest.FixtureRequest) -> None:
    if request.node.get_closest_marker("gnubg") is None or gnubg_available():
        return
    if "CI" in os.environ:
        pytest.fail(f"gnubg is not installed at {GNUBG}, and CI must have it")
    pytest.skip(f"gnubg is not installed at {GNUBG} (Debian/Ubuntu: apt-get install gnubg)")
